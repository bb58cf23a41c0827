"""The rummy deal-entry page (Biriba, Burraco): the card pad, live readings, saving, correcting.

Every deal here is built the way a player builds it, by pressing the pad's keys (POSTs of
``action`` with the draft so far); the draft is read back from each response's hidden field.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation

from scorekeeper import services
from scorekeeper.entry import drafts as st
from scorekeeper.entry.rummy import RummyPage
from scorekeeper.models import Deal
from tests.conftest import HTMX, draft_of, posted_by, press, run, text

pytestmark = pytest.mark.django_db


#: Neither side took its pot: answered on the pad (a save asks until it is).
NO_POTS = ["pot_no:0", "pot_no:1"]

# Worked example 1 of rules.md (Biriba), entered on the pad.
EXAMPLE_1 = [
    "trump:D",
    *run("H", "4 5 6 7 8 9 10"),
    "new_meld",
    *run("S", "Q K A"),
    "target:hand",
    *run("C", "3"),
    *run("D", "K"),
    "pot:0",
    "went_out:0",
    "side:1",
    *run("C", "5 6"),
    "joker",
    "rank:8",
    "new_meld",
    *run("D", "9 10 J"),
    "target:hand",
    *run("S", "2"),
    *run("H", "A"),
    *run("D", "4"),
    "pot:1",
]


@pytest.fixture
def biriba(make_match):
    return make_match("biriba")


def new_url(match) -> str:
    return reverse("deal_new", args=[match.pk])


# --- the page, plain and htmx, and who may see it --------------------------------------------


@pytest.mark.parametrize("game", ["biriba", "burraco"])
def test_entry_page_plain_is_a_whole_page(auth_client, make_match, game):
    match = make_match(game)
    response = auth_client.get(new_url(match))
    assert response.status_code == 200
    body = response.content.decode()
    assert "<html" in body and 'id="entry"' in body
    assert 'name="action" value="rank:A"' in body
    assert ("Trump" in body) is (game == "biriba")
    assert "Closing discard" not in body  # asked of the side that went out only
    response = press(auth_client, new_url(match), "", "went_out:0")
    assert ("Closing discard" in text(response)) is (game == "burraco")


@pytest.mark.parametrize("game", ["biriba", "burraco"])
def test_entry_page_htmx_is_the_partial(auth_client, make_match, game):
    match = make_match(game)
    response = auth_client.get(new_url(match), headers=HTMX)
    assert response.status_code == 200
    body = response.content.decode()
    assert "<html" not in body
    assert body.lstrip().startswith('<div id="entry"')


def test_entry_post_plain_draws_the_whole_page(auth_client, biriba):
    url = new_url(biriba)
    response = press(auth_client, url, "", "suit:S", "rank:5", htmx=False)
    assert "<html" in response.content.decode()
    assert json.loads(draft_of(response))["sides"][0]["melds"] == [["5S"]]


def test_entry_post_htmx_draws_the_partial(auth_client, biriba):
    response = press(auth_client, new_url(biriba), "", "suit:S", "rank:5")
    assert "<html" not in response.content.decode()
    assert "5♠" in text(response)


def test_anonymous_is_sent_to_log_in(client, biriba):
    url = new_url(biriba)
    for response in (client.get(url), client.post(url, {"action": "rank:5"})):
        assert response.status_code == 302
        assert response.url.startswith(reverse("login"))
    assert not Deal.objects.exists()


def test_another_user_gets_404(client, other_user, biriba):
    client.force_login(other_user)
    url = new_url(biriba)
    assert client.get(url).status_code == 404
    assert client.post(url, {"action": "save"}).status_code == 404
    edit = reverse("deal_edit", args=[biriba.pk, 1])
    assert client.get(edit).status_code == 404


def test_editing_a_deal_that_is_not_there_is_404(auth_client, make_match):
    match = make_match("burraco", deals=1)
    assert auth_client.get(reverse("deal_edit", args=[match.pk, 2])).status_code == 404
    assert auth_client.get(reverse("deal_edit", args=[match.pk, 0])).status_code == 404


@pytest.mark.parametrize("htmx", [False, True])
def test_a_key_pressed_on_a_page_of_a_deal_stored_meanwhile_shows_that_deal(
    auth_client, other_user, make_match, htmx
):
    """A second phone keeps tapping after another saved the deal: it is shown the deal that was
    stored and who saved it, never moved on to the next deal, and its tap is applied nowhere."""
    match = make_match("biriba", deals=1)
    url = new_url(match)
    page = press(auth_client, url, "", *run("H", "3 4 5"), "side:1", *run("S", "3 4 5"), *NO_POTS)
    stale = posted_by(page, "suit:D")
    # the other phone (the same shared deal in progress) saves deal 2
    auth_client.post(url, {**posted_by(page, "save"), "confirm": "yes"})
    assert Deal.objects.filter(match=match).count() == 2
    assert Deal.objects.get(match=match, number=2).saved_by == "anna"
    response = auth_client.post(url, stale, headers=HTMX if htmx else {})
    assert response.status_code == 200
    # the same account saved it (its other phone, or this one's save whose answer was lost)
    assert "Deal 2 was saved by you (anna) a moment ago, on this phone or another." in text(
        response
    )
    assert 'data-message="deal_saved_meanwhile"' in response.content.decode()
    assert f'href="/matches/{match.pk}/deals/2/"' in response.content.decode()  # what is stored
    assert "data-offer" not in response.content.decode()  # its screen showed that same deal
    assert Deal.objects.filter(match=match).count() == 2
    # the deal in progress is the next deal's, and empty
    assert json.loads(draft_of(auth_client.get(url)))["sides"][0]["melds"] == []


@pytest.mark.parametrize("htmx", [False, True])
def test_a_phone_whose_screen_showed_another_deal_may_take_it_as_the_correction(
    auth_client, make_match, htmx
):
    """The phone's screen showed something else than what was saved (it had not seen the
    last taps): it is offered what its screen showed as the correction of that deal."""
    match = make_match("biriba", deals=1)
    url = new_url(match)
    mine = press(auth_client, url, "", *run("H", "3 4 5"), "side:1", *run("S", "3 4 5"), *NO_POTS)
    # another phone taps one more card, then saves
    theirs = press(auth_client, url, "", "target:hand", "rank:K")
    auth_client.post(url, {**posted_by(theirs, "save"), "confirm": "yes"})
    assert Deal.objects.get(match=match, number=2).data["sides"][1]["hand"] == ["KS"]
    response = auth_client.post(url, posted_by(mine, "save"), headers=HTMX if htmx else {})
    body = response.content.decode()
    assert "Deal 2 was saved by you (anna) a moment ago, on this phone or another." in text(
        response
    )
    assert "data-offer" in body and "Correct deal 2 with what my screen showed" in body
    offer = posted_by(response, "offer")
    edit = reverse("deal_edit", args=[match.pk, 2])
    response = auth_client.post(edit, offer, headers=HTMX if htmx else {})
    assert response.status_code == 200
    assert 'data-message="entry_offered"' in response.content.decode()
    assert json.loads(draft_of(response))["sides"][1]["hand"] == []
    saved = auth_client.post(edit, {**posted_by(response, "save"), "confirm": "yes"})
    assert saved.status_code == 302
    assert Deal.objects.get(match=match, number=2).data["sides"][1]["hand"] == []
    assert Deal.objects.filter(match=match).count() == 2


@pytest.mark.parametrize("htmx", [False, True])
def test_a_tap_that_arrives_just_after_another_phone_s_save_is_offered(
    auth_client, make_match, htmx
):
    """Issue 24, item 2: Eva's K sent a moment after Bruno's Save was dropped without an offer
    (the deal stored without it). What her screen showed, with that tap applied, is offered
    as the correction of the deal, and the page says the tap is in it."""
    match = make_match("biriba", deals=1)
    url = new_url(match)
    keys = [*run("H", "3 4 5"), "side:1", *run("S", "3 4 5"), *NO_POTS, "target:hand"]
    eva = press(auth_client, url, "", *keys)
    auth_client.post(url, {**posted_by(eva, "save"), "confirm": "yes"})  # Bruno's phone
    response = auth_client.post(url, posted_by(eva, "rank:K"), headers=HTMX if htmx else {})
    body = response.content.decode()
    assert "data-offer>" in body and 'data-message="tap_after_save"' in body
    offered = json.loads(html.unescape(re.search(r'name="draft" value="([^"]*)"', body)[1]))
    assert offered["sides"][1]["hand"] == ["KS"]
    assert Deal.objects.get(match=match, number=2).data["sides"][1].get("hand", []) == []


@pytest.mark.parametrize("htmx", [False, True])
def test_saving_a_correction_of_a_deal_deleted_meanwhile_says_so(auth_client, make_match, htmx):
    """Another phone deleted deal 3 while this one was correcting it: the save is not a bare
    404, it goes back to the scoreboard saying that nothing was changed."""
    match = make_match("burraco", deals=3)
    url = reverse("deal_edit", args=[match.pk, 3])
    page = auth_client.get(url)
    services.deal_delete_last(match=match)
    response = auth_client.post(url, posted_by(page, "save"), headers=HTMX if htmx else {})
    scoreboard = reverse("match_detail", args=[match.pk])
    if htmx:
        assert response.headers["HX-Redirect"] == scoreboard
    else:
        assert response.status_code == 302 and response["Location"] == scoreboard
    assert "Deal 3 is no longer there" in text(auth_client.get(scoreboard))
    assert match.deals.count() == 2


@pytest.mark.parametrize("htmx", [False, True])
def test_a_correction_does_not_overwrite_a_deal_changed_meanwhile(auth_client, make_match, htmx):
    """This phone corrects deal 2 while another phone replaces it (a correction, or a delete
    and a new deal 2): the save is refused with the reason instead of silently overwriting
    what the other phone stored; the entry stays on the page, and a second save is deliberate."""
    match = make_match("burraco", deals=2)
    url = reverse("deal_edit", args=[match.pk, 2])
    page = press(
        auth_client, url, draft_of(auth_client.get(url)), "side:1", "target:hand", *run("D", "7")
    )
    elsewhere = {
        "sides": [
            {"melds": [["8H", "9H", "10H"]], "hand": [], "took_pot": True},
            {"melds": [["8S", "9S", "10S"]], "hand": ["QC"], "took_pot": True},
        ]
    }
    services.deal_correct(match=match, number=2, data=elsewhere)
    stored = Deal.objects.get(match=match, number=2).data
    response = auth_client.post(
        url, {**posted_by(page, "save"), "confirm": "yes"}, headers=HTMX if htmx else {}
    )
    assert response.status_code == 200
    assert "deal 2 was changed elsewhere while you were correcting it" in text(response)
    assert Deal.objects.get(match=match, number=2).data == stored
    assert "7♦" in text(response)  # the correction is still on the page
    again = auth_client.post(url, {**posted_by(response, "save"), "confirm": "yes"})
    assert again.status_code == 302
    assert Deal.objects.get(match=match, number=2).data["sides"][1]["hand"] == ["KD", "7D"]


# --- building a deal on the pad and saving it ---------------------------------------------------


def test_worked_example_built_on_the_pad_reads_every_meld_and_saves(auth_client, biriba):
    url = new_url(biriba)
    response = press(auth_client, url, "", *EXAMPLE_1)
    page = text(response)
    # side 1 is open: its melds read by the referee, its score, and the legal deal
    assert "run 5♣–8♣ · dirty · JK = 7♣" in page
    assert "run 9♦–J♦ · clean" in page
    assert "A legal deal" in page
    response = press(auth_client, url, draft_of(response), "side:0")
    page = text(response)
    assert "run 4♥–10♥ · clean · clean biriba 50 + 200" in page
    assert "run Q♠–A♠ · clean 35" in page
    assert "Anna & Chris this deal 370" in page
    assert re.search(r"Anna & Chris 370 370 Babis & Dora 40 40", page)

    response = press(auth_client, url, draft_of(response), "save")
    assert response.headers["HX-Redirect"] == reverse("match_detail", args=[biriba.pk])
    deal = Deal.objects.get(match=biriba)
    assert deal.number == 1
    assert deal.data == {
        "trump": "D",
        "sides": [
            {
                "melds": [["4H", "5H", "6H", "7H", "8H", "9H", "10H"], ["QS", "KS", "AS"]],
                "hand": ["3C", "KD"],
                "took_pot": True,
                "went_out": True,
            },
            {
                "melds": [["5C", "6C", "JK", "8C"], ["9D", "10D", "JD"]],
                "hand": ["2S", "AH", "4D"],
                "took_pot": True,
                "went_out": False,
            },
        ],
    }
    biriba.refresh_from_db()
    assert biriba.totals == [370, 40]
    board = auth_client.get(reverse("match_detail", args=[biriba.pk]))
    assert "370" in text(board)


def test_saving_without_javascript_redirects_to_the_scoreboard(auth_client, biriba):
    url = new_url(biriba)
    response = press(auth_client, url, "", *EXAMPLE_1, htmx=False)
    response = press(auth_client, url, draft_of(response), "save", htmx=False)
    assert response.status_code == 302
    assert response.url == reverse("match_detail", args=[biriba.pk])
    assert Deal.objects.filter(match=biriba).count() == 1
    # the draft is forgotten once saved: the next deal starts empty
    page = auth_client.get(new_url(biriba))
    assert json.loads(draft_of(page))["sides"][0]["melds"] == []


def test_an_illegal_meld_is_marked_inline_with_the_rule_and_nothing_is_stored(auth_client, biriba):
    url = new_url(biriba)
    # rules.md, Biriba example 3: AD 2D 3D JK 5D 2C 7D has two wilds
    keys = ["trump:S", *run("D", "A 2 3"), "joker", "rank:5", *run("C", "2"), *run("D", "7")]
    response = press(auth_client, url, "", *keys)
    body = response.content.decode()
    assert 'class="emeld target illegal"' in body
    assert "✗ two wild cards in one meld (joker 2♣)" in text(response)
    assert "Not a legal deal yet" in text(response)
    place = "deal 1, <bdi>Anna</bdi> &amp; <bdi>Chris</bdi>, meld 1 (A♦ 2♦ 3♦ joker 5♦ 2♣ 7♦)"
    assert place in body

    response = press(auth_client, url, draft_of(response), "save")
    assert "HX-Redirect" not in response.headers
    assert "Not saved:" in text(response)
    assert "two wild cards in one meld" in text(response)
    assert not Deal.objects.exists()
    # everything entered is still there
    assert json.loads(draft_of(response))["sides"][0]["melds"] == [
        ["AD", "2D", "3D", "JK", "5D", "2C", "7D"]
    ]


def test_a_deal_wide_rule_is_shown_and_refused(auth_client, make_match):
    match = make_match("burraco")
    url = new_url(match)
    # a side that went out without a burraco, and never took its pozzetto
    response = press(auth_client, url, "", *run("H", "3 4 5"), "went_out:0", "pot:0")
    page = text(response)
    assert "✗" in page
    assert "Not a legal deal yet" in page
    press(auth_client, url, draft_of(response), "save")
    assert not Deal.objects.exists()


def test_tapping_a_card_chip_takes_it_away_and_backspace_takes_the_last(auth_client, biriba):
    url = new_url(biriba)
    response = press(auth_client, url, "", *run("H", "4 5 6 7"), "remove:m0:1")
    assert json.loads(draft_of(response))["sides"][0]["melds"] == [["4H", "6H", "7H"]]
    response = press(auth_client, url, draft_of(response), "back")
    assert json.loads(draft_of(response))["sides"][0]["melds"] == [["4H", "6H"]]


def test_went_out_is_one_choice_across_sides(auth_client, biriba):
    url = new_url(biriba)
    response = press(auth_client, url, "", "went_out:0", "went_out:1")
    sides = st.RummyDraft.loads(draft_of(response), game="biriba", side_count=2).sides
    assert [s.went_out for s in sides] == [False, True]
    assert sides[1].took_pot is True  # going out needs the pot: ticked with it


def test_the_draft_survives_a_reload(auth_client, biriba):
    url = new_url(biriba)
    press(auth_client, url, "", *run("S", "Q K A"))
    page = auth_client.get(url)
    assert json.loads(draft_of(page))["sides"][0]["melds"] == [["QS", "KS", "AS"]]
    asked = press(auth_client, url, draft_of(page), "reset", htmx=False)  # asked first
    assert 'data-message="reset_asked"' in asked.content.decode()
    assert json.loads(draft_of(asked))["sides"][0]["melds"] == [["QS", "KS", "AS"]]
    response = press(auth_client, url, draft_of(asked), "reset:yes", htmx=False)
    assert json.loads(draft_of(response))["sides"][0]["melds"] == []


def test_a_garbled_draft_or_action_is_ignored(auth_client, biriba):
    url = new_url(biriba)
    for draft, action in [
        ("{not json", "rank:5"),
        ('{"game": "biriba"}', "card:ZZ"),
        ("", "x" * 70),
        ('{"v": 1, "sides": ' + "[" * 9_990 + "]" * 9_990 + "}", "rank:5"),  # too deep
    ]:
        response = auth_client.post(url, {"draft": draft, "action": action}, headers=HTMX)
        assert response.status_code == 200
    assert not Deal.objects.exists()


def save(client, url: str, draft: str, *, confirm: bool = False, htmx: bool = True):
    """Press Save with ``draft``; ``confirm`` as the confirmation (or hx-confirm) sends it."""
    data = {"draft": draft, "action": "save", **({"confirm": "yes"} if confirm else {})}
    return client.post(url, data, headers=HTMX if htmx else {})


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize(
    "garbled",
    [
        "{oops",
        "[]",
        '{"v": 1, "game": "biriba"}',
        '{"v": 1, "game": "burraco", "sides": [{}, {}]}',  # parts missing: not what a page sends
        st.RummyDraft.new(game="burraco", side_count=2).dumps().replace('"melds":[]', '"melds":7'),
        "[" * 9_999 + "]" * 9_999,  # valid JSON, within the draft's size, too deep for Python
    ],
    ids=["not-json", "list", "no-sides", "empty-sides", "melds-not-a-list", "too-deep"],
)
def test_a_garbled_draft_is_never_saved_over_a_deal(auth_client, make_match, garbled, htmx):
    match = make_match("burraco", deals=1)
    before = Deal.objects.get(match=match, number=1).data
    totals = match.totals
    url = reverse("deal_edit", args=[match.pk, 1])
    response = save(auth_client, url, garbled, confirm=True, htmx=htmx)
    assert response.status_code == 200
    page = text(response)
    assert "the entry could not be read" in page
    assert "3♥ 4♥ 5♥" in page  # the stored deal is shown again
    assert json.loads(draft_of(response))["sides"][0]["melds"] == [["3H", "4H", "5H"]]
    assert Deal.objects.get(match=match, number=1).data == before
    match.refresh_from_db()
    assert match.totals == totals


@pytest.mark.parametrize("htmx", [False, True])
def test_a_deal_saved_from_two_tabs_is_stored_once(auth_client, make_match, htmx):
    """Two phones (or a resubmitted page, or a double tap) save the same deal 2: the second
    save stores nothing, says the deal was saved and by whom, and no duplicate deal 3 is stored
    behind the players' backs."""
    match = make_match("biriba", deals=1)
    url = new_url(match)
    page = press(auth_client, url, "", *run("H", "3 4 5"), "side:1", *run("S", "3 4 5"), *NO_POTS)
    headers = HTMX if htmx else {}
    first = auth_client.post(url, posted_by(page, "save"), headers=headers)
    assert first.status_code in (200, 302) and "draft" not in first.content.decode()
    assert Deal.objects.filter(match=match).count() == 2
    second = auth_client.post(url, posted_by(page, "save"), headers=headers)
    assert second.status_code == 200
    assert "Deal 2 was saved by you (anna) a moment ago, on this phone or another." in text(second)
    assert Deal.objects.filter(match=match).count() == 2
    match.refresh_from_db()
    assert match.deal_count == 2


def test_a_new_deal_saved_without_a_readable_draft_stores_nothing(auth_client, biriba):
    for draft in ("", "{oops"):
        response = save(auth_client, new_url(biriba), draft, confirm=True, htmx=False)
        assert response.status_code == 200
        assert "the entry could not be read, so nothing was changed" in text(response)
    assert not Deal.objects.exists()


def test_a_garbled_draft_does_not_replace_the_one_kept_for_a_reload(auth_client, biriba):
    url = new_url(biriba)
    press(auth_client, url, "", *run("H", "3 4 5"))
    response = press(auth_client, url, "{oops", "rank:6")
    assert "the entry could not be read" in text(response)
    assert "3♥ 4♥ 5♥" in text(auth_client.get(url))


def test_a_draft_made_by_the_pad_reads_back_whole():
    draft = st.RummyDraft.new(game="burraco", side_count=2)
    keys = [*run("H", "4 5 6"), "new_meld", "target:discard", "rank:K", "side:1", "mode:totals"]
    for action in [*keys, "digit:5", "target:in_hand", "digit:2", "bonus:clean_burraco:+1"]:
        st.rummy_apply(draft, action)
        again = st.RummyDraft.read(draft.dumps(), game="burraco", side_count=2)
        assert again.deal_json() == draft.deal_json()
    for bad in ('{"v": 1, "game": "biriba"}', draft.dumps().replace('"KH"', '"ZZ"')):
        with pytest.raises(st.UnreadableDraft):
            st.RummyDraft.read(bad, game="burraco", side_count=2)


def test_a_finished_match_takes_no_new_deal(auth_client, make_match):
    match = make_match("biriba", rules={"target": 100})
    url = new_url(match)
    response = press(auth_client, url, "", *EXAMPLE_1)
    press(auth_client, url, draft_of(response), "save")
    match.refresh_from_db()
    assert match.is_finished
    response = auth_client.get(url)
    assert response.status_code == 302
    assert response.url == reverse("match_detail", args=[match.pk])


# --- totals ---------------------------------------------------------------------------------


def test_a_side_counted_by_hand_is_entered_as_totals(auth_client, biriba):
    url = new_url(biriba)
    keys = [
        "mode:totals",
        "digit:2",
        "digit:3",
        "digit:5",
        "target:in_hand",
        "digit:1",
        "digit:5",
        "sign",  # a minus typed out of habit is understood
        "bonus:clean_biriba:+1",
        "pot:0",
        "side:1",
        *run("H", "3 4 5"),
        "pot:1",
    ]
    response = press(auth_client, url, "", *keys)
    response = press(auth_client, url, draft_of(response), "side:0")
    page = text(response)
    assert "Melded cards 235" in page
    assert "Cards in hand −15" in page
    assert "Anna & Chris this deal 420" in page  # 235 + 200 − 15
    press(auth_client, url, draft_of(response), "save")
    deal = Deal.objects.get(match=biriba)
    assert deal.data["sides"][0]["totals"] == {
        "melded": 235,
        "in_hand": 15,
        "bonuses": {"clean_biriba": 1},
    }


def test_the_next_deal_is_counted_as_the_last_one_was(auth_client, biriba):
    url = new_url(biriba)
    keys = ["mode:totals", "digit:9", "digit:0", "pot:0", "side:1", "digit:4", "digit:0", "pot:1"]
    press(auth_client, url, "", *keys, "save")
    assert Deal.objects.filter(match=biriba).count() == 1
    page = auth_client.get(url).content.decode()
    assert 'data-mode="totals"' in page  # deal 2 starts by totals: the table counts so
    draft = st.RummyDraft.loads(draft_of(auth_client.get(url)), game="biriba", side_count=2)
    assert [s.mode for s in draft.sides] == ["totals", "totals"]
    assert all(s.untouched and s.took_pot is None for s in draft.sides)  # nothing else given
    # a deal entered card by card: the next one starts card by card again
    keys = ["mode:cards", *run("H", "3 4 5"), "pot:0", "side:1", "mode:cards"]
    press(auth_client, url, "", *keys, *run("S", "3 4 5"), "pot:1", "save")
    assert Deal.objects.filter(match=biriba).count() == 2
    assert 'data-mode="cards"' in auth_client.get(url).content.decode()


def test_the_keypad_moves_between_the_two_numbers_with_one_key(auth_client, biriba):
    url = new_url(biriba)
    keys = ["mode:totals", "digit:9", "digit:0", "next_field", "digit:1", "digit:0"]
    page = text(press(auth_client, url, "", *keys))
    assert "Melded cards 90" in page
    assert "Cards in hand −10" in page
    assert "Keypad → cards in hand" in page
    page = text(press(auth_client, url, "", "next_field", "digit:5"))
    assert "Melded cards 905" in page


def test_a_wild_two_has_its_own_key_and_the_chosen_suit_stays(auth_client, biriba):
    url = new_url(biriba)
    keys = [*run("C", "5 6"), "card:2S", "rank:8", "target:hand", "rank:K"]
    response = press(auth_client, url, "", *keys)
    page = text(response)
    assert "run 5♣–8♣ · dirty · 2♠ = 7♣" in page
    assert json.loads(draft_of(response))["sides"][0]["hand"] == ["KC"]
    assert 'data-target="hand"' in response.content.decode()


def test_saving_a_deal_with_an_empty_side_asks_first(auth_client, biriba):
    response = press(auth_client, new_url(biriba), "", *run("H", "3 4 5"), "pot:0", "pot_no:1")
    body = response.content.decode()
    assert 'data-ask="Nothing entered for Babis &amp; Dora — save anyway?"' in body
    assert "data-ask-confirms" in body  # asked once, by the browser, which then sends yes


def test_a_biriba_saved_with_no_trump_asks_first(auth_client, make_match):
    """A probe saved a clean biriba with no trump chosen: the trump's doubling was lost and
    nothing said so. A deal with a run biriba and no trump asks (trump doubling on)."""
    question = "No trump chosen: a biriba in the trump suit scores its bonus twice."
    deal = [*run("H", "4 5 6 7 8 9 10"), "went_out:0", "side:1", *run("S", "3 4 5"), "pot:1"]
    match = make_match("biriba")
    url = new_url(match)
    body = press(auth_client, url, "", *deal).content.decode()
    assert question in body  # the Save key asks it (data-ask)
    saved = save(auth_client, url, draft_of(press(auth_client, url, "", "edit")), htmx=False)
    assert saved.status_code == 200 and question in text(saved) and not Deal.objects.exists()
    # the trump said: not asked; no biriba, or trump doubling off: not asked either
    assert question not in press(auth_client, url, "", "trump:D").content.decode()
    other = make_match("biriba", rules={"trump_doubles": False})
    assert question not in press(auth_client, new_url(other), "", *deal).content.decode()
    third = make_match("biriba")
    page = press(auth_client, new_url(third), "", *run("H", "4 5 6"), "pot:0", "side:1")
    assert (
        question
        not in press(
            auth_client, new_url(third), draft_of(page), *run("S", "3 4 5")
        ).content.decode()
    )


@pytest.mark.parametrize("htmx", [False, True])
def test_an_empty_side_is_confirmed_on_the_page_before_it_is_saved(auth_client, biriba, htmx):
    url = new_url(biriba)
    draft = draft_of(
        press(auth_client, url, "", *run("H", "3 4 5"), "pot:0", "pot_no:1", htmx=htmx)
    )
    response = save(auth_client, url, draft, htmx=htmx)
    assert response.status_code == 200
    assert "Nothing entered for Babis & Dora — save anyway?" in text(response)
    assert "Yes, save deal 1" in text(response)
    assert 'name="confirm" value="yes"' in response.content.decode()
    assert not Deal.objects.exists()
    # back to editing: the same draft, no confirmation
    response = press(auth_client, url, draft_of(response), "edit", htmx=htmx)
    assert "save anyway?" not in text(response).replace("hx-confirm", "")
    assert 'name="confirm"' not in response.content.decode()
    assert draft_of(response) == draft
    response = save(auth_client, url, draft, confirm=True, htmx=htmx)
    assert response.status_code == (200 if htmx else 302)
    assert Deal.objects.get(match=biriba).data["sides"][1]["melds"] == []


def test_a_new_deal_with_no_draft_at_all_is_not_saved_empty(auth_client, biriba):
    response = auth_client.post(new_url(biriba), {"action": "save"})
    assert response.status_code == 200
    assert not Deal.objects.exists()


def test_implausible_totals_are_refused_with_the_rule(auth_client, biriba):
    url = new_url(biriba)
    response = press(auth_client, url, "", "mode:totals", "digit:7")
    assert "multiple of 5" in text(response)
    press(auth_client, url, draft_of(response), "save")
    assert not Deal.objects.exists()


# --- correcting an earlier deal ----------------------------------------------------------------


def test_correcting_an_earlier_deal_starts_from_it_and_rescores_the_match(auth_client, make_match):
    match = make_match("burraco", deals=3)
    url = reverse("deal_edit", args=[match.pk, 1])
    response = auth_client.get(url)
    page = text(response)
    assert "Correct deal 1" in page
    assert "3♥ 4♥ 5♥" in page  # the stored meld, as chips
    response = press(auth_client, url, draft_of(response), "target:m0", *run("H", "6 7"))
    assert "run 3♥–7♥ · clean" in text(response)
    response = save(auth_client, url, draft_of(response), confirm=True)
    assert response.headers["HX-Redirect"] == reverse("match_detail", args=[match.pk])
    assert Deal.objects.filter(match=match).count() == 3
    first = Deal.objects.get(match=match, number=1)
    assert first.data["sides"][0]["melds"] == [["3H", "4H", "5H", "6H", "7H"]]
    match.refresh_from_db()
    assert match.totals[0] == 3 * 15 + 10  # the corrected deal is worth 10 more


def test_correcting_into_an_illegal_deal_is_refused_and_keeps_the_entry(auth_client, make_match):
    match = make_match("biriba", deals=2)
    url = reverse("deal_edit", args=[match.pk, 2])
    response = auth_client.get(url)
    response = press(auth_client, url, draft_of(response), "target:m0", "joker", "joker")
    response = press(auth_client, url, draft_of(response), "save")
    assert "Not saved:" in text(response)
    assert Deal.objects.get(match=match, number=2).data["sides"][0]["melds"] == [["3H", "4H", "5H"]]


@pytest.mark.parametrize("htmx", [False, True])
def test_a_correction_is_confirmed_on_the_page_before_it_replaces_the_deal(
    auth_client, make_match, htmx
):
    match = make_match("burraco", deals=2)
    totals = match.totals
    url = reverse("deal_edit", args=[match.pk, 1])
    response = auth_client.get(url, headers=HTMX if htmx else {})
    body = response.content.decode()
    assert 'data-ask="Replace deal 1? The totals after it are worked out again."' in body
    response = press(auth_client, url, draft_of(response), "target:m0", *run("H", "6"), htmx=htmx)
    draft = draft_of(response)
    response = save(auth_client, url, draft, htmx=htmx)
    assert response.status_code == 200
    assert "Replace deal 1? The totals after it are worked out again." in text(response)
    assert "Yes, replace deal 1" in text(response)
    assert Deal.objects.get(match=match, number=1).data["sides"][0]["melds"] == [["3H", "4H", "5H"]]
    response = save(auth_client, url, draft_of(response), confirm=True, htmx=htmx)
    assert response.status_code == (200 if htmx else 302)
    assert Deal.objects.get(match=match, number=1).data["sides"][0]["melds"] == [
        ["3H", "4H", "5H", "6H"]
    ]
    match.refresh_from_db()
    assert match.totals[0] == totals[0] + 5


# --- the pad's state on its own ------------------------------------------------------------


def test_pad_state_new_meld_and_targets():
    draft = st.RummyDraft.new(game="burraco", side_count=2)
    for action in ["suit:C", "rank:5", "new_meld", "new_meld", "rank:6"]:
        st.rummy_apply(draft, action)
    side = draft.sides[0]
    assert side.melds == [["5C"], ["6C"]]  # a second "new meld" does not add an empty one
    st.rummy_apply(draft, "target:discard")
    st.rummy_apply(draft, "joker")
    assert side.final_discard == "JK"
    st.rummy_apply(draft, "remove:m0:0")
    assert side.melds == [["6C"]] and side.target == "discard"
    deal = draft.deal_json()
    assert deal["sides"][0]["final_discard"] == "JK"
    assert "trump" not in deal


def test_pad_state_refuses_what_the_pad_never_sends():
    draft = st.RummyDraft.new(game="biriba", side_count=3)
    for action in ["side:3", "trump:X", "target:discard", "bonus:clean_burraco:+1", "nonsense"]:
        with pytest.raises(st.UnknownAction):
            st.rummy_apply(draft, action)


def test_pad_state_round_trips_and_distrusts_its_input():
    draft = st.RummyDraft.new(game="biriba", side_count=2)
    for action in ["trump:H", *run("H", "4 5 6"), "side:1", "mode:totals", "digit:5"]:
        st.rummy_apply(draft, action)
    again = st.RummyDraft.loads(draft.dumps(), game="biriba", side_count=2)
    assert again.to_json() == draft.to_json()
    hostile: dict[str, Any] = {
        "game": "biriba",
        "side": 7,
        "sides": [{"melds": [["ZZ", "5H"]], "hand": "x", "bonuses": {"evil": 3}}, {}],
    }
    cleaned = st.RummyDraft.from_json(hostile, game="biriba", side_count=2)
    assert cleaned.side == 0
    assert cleaned.sides[0].melds == [["5H"]]
    assert cleaned.sides[0].hand == []
    assert cleaned.sides[0].bonuses == {}


def test_a_restored_draft_says_so(auth_client, biriba):
    url = new_url(biriba)
    assert "so far is here" not in text(auth_client.get(url))
    press(auth_client, url, "", *run("S", "Q K A"))
    assert "What was entered for this deal so far is here" in text(auth_client.get(url))


def test_a_correction_in_progress_keeps_the_new_deal_draft(auth_client, make_match):
    match = make_match("burraco", deals=1)
    new = new_url(match)
    press(auth_client, new, "", *run("S", "Q K A"))
    edit = reverse("deal_edit", args=[match.pk, 1])
    press(auth_client, edit, draft_of(auth_client.get(edit)), "pot:1")
    assert json.loads(draft_of(auth_client.get(new)))["sides"][0]["melds"] == [["QS", "KS", "AS"]]


def test_three_players_have_three_sides(auth_client, make_match):
    match = make_match("biriba", players=["Anna", "Babis", "Chris"])
    response = auth_client.get(new_url(match))
    body = response.content.decode()
    assert all(f'value="side:{k}"' in body for k in range(3))
    response = press(auth_client, new_url(match), draft_of(response), "side:2", *run("C", "3 4 5"))
    assert json.loads(draft_of(response))["sides"][2]["melds"] == [["3C", "4C", "5C"]]
    assert "Chris this deal" in text(response)


# --- numbers read strictly (ASCII digits, bounded), never a server error ----------------------

UNICODE_DIGIT_KEYS = [
    "side:²",
    "side:①",
    "side:٣",  # int() would read it as 3: no page sends it
    "pot:²",
    "went_out:¹",
    "digit:²",
    "digit:٣",
    "remove:m0:²",
    "remove:m²:0",
    "remove:hand:①",
    "target:m²",
    "step:melded:+²",
    "step:in_hand:-¹",
    "step:melded:+99999999999999999999",
    "side:99999999999999999999",
    "side:-1",
    "remove:m0:-1",
]


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize("mode", ["cards", "totals"])
def test_a_key_with_a_number_that_is_not_one_is_ignored(auth_client, biriba, mode, htmx):
    """``str.isdigit()`` accepts ``²`` and ``①``, which ``int()`` refuses: such a key (a stale
    or hand-made page) leaves the draft as it was, and the page is drawn again."""
    url = new_url(biriba)
    page = press(auth_client, url, "", *run("H", "3 4 5"), f"mode:{mode}", htmx=htmx)
    if mode == "totals":
        page = press(auth_client, url, draft_of(page), "digit:4", htmx=htmx)
    before = json.loads(draft_of(page))
    for action in UNICODE_DIGIT_KEYS:
        response = auth_client.post(url, posted_by(page, action), headers=HTMX if htmx else {})
        assert response.status_code == 200, action
        assert json.loads(draft_of(response)) == before, action
    assert not Deal.objects.exists()


def test_a_draft_whose_target_is_not_a_meld_number_is_read(auth_client, biriba):
    """A posted draft pointing at meld "m²" (or m٣, or a meld far beyond the last) is read with
    the target moved to a new meld: never a server error, nothing else lost."""
    url = new_url(biriba)
    page = press(auth_client, url, "", *run("H", "3 4 5"))
    for target in ("m²", "m٣", "m99999999999999999999", "m-1", "m"):
        draft = json.loads(draft_of(page))
        draft["sides"][0]["target"] = target
        response = press(auth_client, url, json.dumps(draft), "rank:9")
        assert json.loads(draft_of(response))["sides"][0]["melds"] == [["3H", "4H", "5H"], ["9H"]]
        press(auth_client, url, "", "back")  # the 9♥ goes: the next target starts afresh


def test_pad_state_reads_numbers_strictly():
    draft = st.RummyDraft.new(game="biriba", side_count=2)
    for action in UNICODE_DIGIT_KEYS:
        try:
            st.rummy_apply(draft, action)
        except st.UnknownAction:
            pass
    assert draft.to_json() == st.RummyDraft.new(game="biriba", side_count=2).to_json()
    st.rummy_apply(draft, "mode:totals")
    st.rummy_apply(draft, "step:melded:+99999")
    st.rummy_apply(draft, "step:melded:+99999")
    assert draft.sides[0].melded == st.MAX_NUMBER  # the keypad's largest, kept on reading back
    again = st.RummyDraft.read(draft.dumps(), game="biriba", side_count=2)
    assert again.sides[0].melded == st.MAX_NUMBER
    with pytest.raises(st.UnknownAction):
        st.rummy_apply(draft, "step:elsewhere:+1")


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize("deal", ["²", "٣", "-1", "0", "1.0", "x", "9" * 30])
def test_a_save_whose_deal_number_cannot_be_read_says_so_and_keeps_the_entry(
    auth_client, biriba, deal, htmx
):
    """The deal the page was drawn for is not a number the form can read: nothing is saved,
    the page says why, and the draft stays as it was entered (on the page and for a reload)."""
    url = new_url(biriba)
    page = press(auth_client, url, "", *run("H", "3 4 5"), "side:1", *run("S", "3 4 5"), *NO_POTS)
    entered = json.loads(draft_of(page))
    data = {**posted_by(page, "save"), "deal": deal, "confirm": "yes"}
    response = auth_client.post(url, data, headers=HTMX if htmx else {})
    assert response.status_code == 200
    assert 'data-message="deal_unreadable"' in response.content.decode()
    assert "the page did not say which deal it was entering" in text(response)
    assert json.loads(draft_of(response)) == entered
    assert json.loads(draft_of(auth_client.get(url))) == entered
    assert not Deal.objects.exists()
    # the page drawn again carries the deal number: saving from it works
    again = auth_client.post(url, {**posted_by(response, "save"), "confirm": "yes"})
    assert again.status_code == 302 and Deal.objects.count() == 1


def test_a_key_whose_deal_number_cannot_be_read_is_applied(auth_client, biriba):
    url = new_url(biriba)
    page = press(auth_client, url, "", *run("H", "3 4"))
    response = auth_client.post(url, {**posted_by(page, "rank:5"), "deal": "²"}, headers=HTMX)
    assert json.loads(draft_of(response))["sides"][0]["melds"] == [["3H", "4H", "5H"]]
    assert "deal_unreadable" not in response.content.decode()


def test_the_entry_form_reads_every_deal_number_a_match_may_hold():
    from scorekeeper.entry.forms import EntryForm
    from scorekeeper.models import MAX_DEALS

    for sent, read in [("10001", 10_001), (str(MAX_DEALS), MAX_DEALS), ("1", 1), ("", None)]:
        form = EntryForm({"deal": sent, "draft": "{}", "action": "save"})
        assert form.deal_number() == read and not form.deal_unreadable()
        assert form.cleaned() == ("{}", "save")  # the other fields are read all the same
    for sent in ["0", "²", str(MAX_DEALS + 2), "1" * 25, "\x00"]:
        form = EntryForm({"deal": sent, "draft": "{}", "action": "save"})
        assert form.deal_number() is None and form.deal_unreadable()
        assert form.cleaned() == ("{}", "save")
    # a draft the form cannot take (too long) is None: unreadable, never an empty draft
    assert EntryForm({"draft": "x" * 30_000, "action": "save"}).cleaned() == (None, "save")


@pytest.mark.parametrize("htmx", [False, True])
def test_the_deal_after_the_last_a_match_holds_is_refused_with_the_reason(
    auth_client, make_match, monkeypatch, htmx
):
    """The only cap on deals is the match's own (``MAX_DEALS``, here made 2): the deal after it
    is read from the page and refused by the service with the reason, the entry kept. (Deal
    10,001 of a real match was refused without a word by the form's max_value=10_000.)"""
    from scorekeeper.entry import forms as entry_forms

    monkeypatch.setattr(entry_forms, "MAX_DEALS", 2)
    monkeypatch.setattr(services, "MAX_DEALS", 2)
    match = make_match("burraco", deals=2, players=["Anna", "Babis"])
    url = new_url(match)
    page = press(auth_client, url, "", *run("H", "3 4 5"), "side:1", *run("S", "3 4 5"), *NO_POTS)
    assert 'data-entry-deal="3"' in page.content.decode()
    entered = json.loads(draft_of(page))
    response = auth_client.post(
        url, {**posted_by(page, "save"), "confirm": "yes"}, headers=HTMX if htmx else {}
    )
    assert response.status_code == 200
    assert 'data-message="too_many_deals"' in response.content.decode()
    assert "a match holds at most 2 deals" in text(response)
    assert json.loads(draft_of(response)) == entered
    assert Deal.objects.filter(match=match).count() == 2


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize("action", ["save", "rank:5"])
def test_a_draft_with_half_a_character_is_refused_with_its_place(auth_client, biriba, action, htmx):
    """JSON's "\\ud800" in a posted draft (no page sends it): nothing is saved, no key is
    applied, and the page names the place of the text that cannot be written out."""
    url = new_url(biriba)
    page = press(auth_client, url, "", *run("H", "3 4 5"), "side:1", *run("S", "3 4 5"), *NO_POTS)
    kept = draft_of(auth_client.get(url))
    draft = json.loads(draft_of(page))
    draft["sides"][0]["melds"][0][1] = "4\ud800"
    data = {**posted_by(page, action), "draft": json.dumps(draft), "confirm": "yes"}
    response = auth_client.post(url, data, headers=HTMX if htmx else {})
    assert response.status_code == 200
    body = response.content.decode()
    assert 'data-message="bad_text"' in body and 'data-message="entry_unreadable"' in body
    assert "side 1, meld 1, card 2: this text holds \\uD800" in text(response)
    assert not Deal.objects.exists()
    assert draft_of(auth_client.get(url)) == kept  # the draft kept for a reload is untouched


# --- the pad left out of a tap's answer (issue 11) -------------------------------------------

KEPT = re.compile(r'data-keep="([^"]+)" data-keep-of="([^"]+)"( data-kept)?')


def held(response) -> str:
    """What entry.js says the page holds: every part drawn whole, NAME:DIGEST."""
    return ",".join(
        f"{name}:{of}" for name, of, empty in KEPT.findall(response.content.decode()) if not empty
    )


def parts(response) -> dict[str, tuple[str, bool]]:
    return {name: (of, bool(empty)) for name, of, empty in KEPT.findall(response.content.decode())}


def test_a_tap_of_a_phone_holding_the_pad_gets_the_page_without_its_keys(auth_client, biriba):
    url = new_url(biriba)
    page = auth_client.get(url)
    assert 'id="pad-suit-S"' in page.content.decode()
    assert {"pad", "trump"} <= set(parts(page))
    kept = auth_client.post(url, {**posted_by(page, "suit:H"), "kept": held(page)}, headers=HTMX)
    body = kept.content.decode()
    assert parts(kept)["pad"] == (parts(page)["pad"][0], True)  # the same pad, left out
    assert parts(kept)["trump"][1]  # the trump's row too: nothing changed there
    assert 'id="pad-suit-S"' not in body and 'data-rank="5"' not in body
    # the rest of the page is there, the tap applied; a phone that says nothing gets it all
    whole = auth_client.post(url, {**posted_by(kept, "rank:5")}, headers=HTMX)
    assert "5♥" in text(whole) and 'id="pad-suit-S"' in whole.content.decode()
    assert len(body.encode()) < len(whole.content) - 2500  # the keys: some 3 KB


def test_a_part_that_changed_or_a_whole_page_is_drawn_again(auth_client, biriba):
    url = new_url(biriba)
    page = auth_client.get(url)
    holds = held(page)
    # the trump chosen: its row changed, it comes again; the pad did not, it stays out
    trump = auth_client.post(url, {**posted_by(page, "trump:S"), "kept": holds}, headers=HTMX)
    assert not parts(trump)["trump"][1] and parts(trump)["trump"][0] != parts(page)["trump"][0]
    assert 'data-trump="S"' in trump.content.decode() and parts(trump)["pad"][1]
    # the side switched to totals: the number keys, another pad, come whole
    keypad = auth_client.post(url, {**posted_by(trump, "mode:totals"), "kept": holds}, headers=HTMX)
    assert not parts(keypad)["pad"][1] and 'id="pad-digit-7"' in keypad.content.decode()
    # a part the phone holds of an earlier drawing, or a made-up one: drawn whole
    stale = auth_client.post(
        url, {**posted_by(keypad, "digit:7"), "kept": "pad:000000000000,x"}, headers=HTMX
    )
    assert 'id="pad-digit-7"' in stale.content.decode()
    # without htmx the answer is a whole page: it draws every part
    plain = auth_client.post(url, {**posted_by(stale, "digit:1"), "kept": held(stale)})
    assert "<html" in plain.content.decode() and 'id="pad-digit-7"' in plain.content.decode()
    assert not any(empty for _, empty in parts(plain).values())


def test_the_pad_drawn_in_another_language_is_another_part(auth_client, biriba):
    url = new_url(biriba)
    english = parts(auth_client.get(url))["pad"][0]
    with translation.override("fr"):
        french = parts(auth_client.get(url, headers={"Accept-Language": "fr"}))["pad"][0]
    assert french != english


def test_what_a_phone_says_it_holds_is_read_within_bounds():
    from scorekeeper.templatetags.keep_tags import HELD_MAX, held_parts

    assert held_parts("pad:abc,trump:def") == {"pad:abc", "trump:def"}
    assert held_parts("") == frozenset() and held_parts(None) == frozenset()
    assert held_parts("nocolon,a:b:c, ,x:" + "y" * 100) == frozenset()
    assert len(held_parts(",".join(f"p{i}:d" for i in range(100)))) == HELD_MAX


# --- issue 13: fewer taps, nothing saved by a silent default ----------------------------------


def test_a_save_with_a_pot_unanswered_is_refused_naming_the_side(auth_client, biriba):
    url = new_url(biriba)
    page = press(auth_client, url, "", *run("H", "3 4 5"), "pot:0", "side:1", *run("S", "3 4 5"))
    assert "Did Babis & Dora take the biribaki?" in text(page)
    response = auth_client.post(url, {**posted_by(page, "save"), "confirm": "yes"})
    assert response.status_code == 200
    assert 'data-message="pot_unanswered"' in response.content.decode()
    assert "Did Babis & Dora take the biribaki? Answer yes or no, then save." in text(response)
    assert not Deal.objects.exists()
    # answered "no": saved, with the penalty the table said
    page = press(auth_client, url, draft_of(response), "pot_no:1")
    assert 'data-pot-no="1"' in page.content.decode()
    saved = auth_client.post(url, {**posted_by(page, "save"), "confirm": "yes"})
    assert saved.status_code == 302
    assert Deal.objects.get().data["sides"][1]["took_pot"] is False


def test_the_pot_question_is_answered_where_the_refusal_asks_it(auth_client, biriba):
    """A probe: on side 1's tab the refusal asked about side 0, whose yes / no were on side
    0's tab only. The refusal now carries the answer's keys."""
    url = new_url(biriba)
    page = press(auth_client, url, "", *run("H", "3 4 5"), "side:1", *run("S", "3 4 5"), "pot:1")
    response = auth_client.post(url, {**posted_by(page, "save"), "confirm": "yes"})
    banner = response.content.decode().split('data-message="pot_unanswered"')[1].split("</p>")[0]
    assert "Did <bdi>Anna</bdi> &amp; <bdi>Chris</bdi> take the biribaki?" in banner
    assert 'value="pot:0"' in banner and 'value="pot_no:0"' in banner
    page = press(auth_client, url, draft_of(response), "pot_no:0")
    draft = st.RummyDraft.loads(draft_of(page), game="biriba", side_count=2)
    assert draft.side == 1 and draft.sides[0].took_pot is False  # answered from side 1's tab
    saved = auth_client.post(url, {**posted_by(page, "save"), "confirm": "yes"})
    assert saved.status_code == 302
    assert Deal.objects.get().data["sides"][0]["took_pot"] is False


def test_a_save_refused_by_the_rules_says_so_before_the_pot_question(auth_client, biriba):
    url = new_url(biriba)
    page = press(auth_client, url, "", *run("H", "3 4"), "new_meld", *run("S", "3 8"))
    response = auth_client.post(url, {**posted_by(page, "save"), "confirm": "yes"})
    assert response.status_code == 200 and not Deal.objects.exists()
    body = response.content.decode()
    banner = body.split('class="banner bad"')[1].split("</p>")[0]
    assert "take the biribaki" not in banner  # the meld first: it is what to mend
    assert 'data-message="meld_too_short"' in banner and "meld 1 (3♥ 4♥)" in banner


def test_a_side_without_a_biriba_under_pot_needs_biriba_is_not_asked_for_its_pot(
    auth_client, make_match
):
    """A probe: with "Biribaki needs a biriba" on, the unanswered question (drawn as taken)
    was refused as "took its biribaki without a biriba", then blamed the side with nothing
    entered. Without a biriba the deal says it was not taken: no question, no refusal."""
    match = make_match("biriba", players=["Γιώργος", "Ελένη"], rules={"pot_needs_biriba": True})
    url = new_url(match)
    page = press(auth_client, url, "", *run("C", "9 10 J"))
    body = text(page)
    assert "without a biriba" not in body
    assert "no biriba yet" in body and 'data-pot="0"' not in page.content.decode()
    # a biriba entered: the question is back, and answered it is saved as said
    page = press(auth_client, url, draft_of(page), "new_meld", *run("H", "3 4 5 6 7 8 9"))
    assert 'data-pot="0"' in page.content.decode()
    page = press(auth_client, url, draft_of(page), "pot:0", "side:1", *run("S", "3 4 5"))
    assert 'data-pot="1"' not in page.content.decode()  # Ελένη has none: not taken
    saved = auth_client.post(url, {**posted_by(page, "save"), "confirm": "yes"})
    assert saved.status_code == 302
    assert [s["took_pot"] for s in Deal.objects.get().data["sides"]] == [True, False]


def test_going_out_answers_the_pot_question(auth_client, biriba):
    url = new_url(biriba)
    page = press(auth_client, url, "", *run("H", "3 4 5"), "went_out:0", "side:1", "side:0")
    body = page.content.decode()
    assert 'data-pot="0"' not in body and 'data-pot-no="0"' not in body
    page = press(auth_client, url, draft_of(page), "side:1", *run("S", "3 4 5"), "pot:1")
    saved = auth_client.post(url, {**posted_by(page, "save"), "confirm": "yes"})
    assert saved.status_code == 302
    assert [s["took_pot"] for s in Deal.objects.get().data["sides"]] == [True, True]


def test_a_rank_a_run_holds_already_starts_a_run_of_its_own():
    """Two runs of one suit (two packs): the second's first card, a rank the first run holds,
    cannot be in it twice, so it begins the next run without "+ meld"."""
    draft = st.RummyDraft.new(game="biriba", side_count=2)
    for action in ("suit:D", "rank:3", "rank:9", "rank:3", "rank:9"):
        st.rummy_apply(draft, action)
    run = ["3D", "4D", "5D", "6D", "7D", "8D", "9D"]
    assert draft.sides[0].melds == [run, run]
    # a rank beside the run's ends still extends it, an ace may close it high, a two joins
    draft = st.RummyDraft.new(game="biriba", side_count=2)
    for action in ("suit:S", "rank:10", "rank:K", "rank:A", "card:2S"):
        st.rummy_apply(draft, action)
    assert draft.sides[0].melds == [["10S", "JS", "QS", "KS", "AS", "2S"]]
    draft = st.RummyDraft.new(game="biriba", side_count=2)
    for action in ("suit:S", "rank:A", "rank:4", "rank:K", "rank:A"):
        st.rummy_apply(draft, action)
    assert draft.sides[0].melds == [[r + "S" for r in st.RANKS] + ["AS"]]  # A … K A


def test_a_card_named_whole_chooses_its_suit_and_acts_as_its_rank_key():
    """A desk's "4h" then "t" (the ten alone): the ten of hearts, the run filled in; a two
    named whole is as it stands (natural or wild), and chooses nothing."""
    draft = st.RummyDraft.new(game="burraco", side_count=2)
    draft.suit = "S"
    for action in ("card:4H", "rank:10"):
        st.rummy_apply(draft, action)
    assert draft.suit == "H"
    assert draft.sides[0].melds == [["4H", "5H", "6H", "7H", "8H", "9H", "10H"]]
    for action in ("card:2C", "card:KS", "card:KD"):
        st.rummy_apply(draft, action)
    assert draft.sides[0].melds[0][-1] == "2C" and draft.sides[0].melds[1] == ["KS", "KD"]
    assert draft.suit == "D"


def test_a_card_of_neither_the_suit_nor_the_rank_of_a_meld_begun_starts_its_own():
    """A desk's "ad" then "10c j q" (Enter forgotten): the clubs make a run of their own,
    all three, where 10♣ and J♣ went into the A♦ meld and Q♣ began another."""
    draft = st.RummyDraft.new(game="burraco", side_count=2)
    for action in ("card:AD", "card:10C", "card:JC", "card:QC"):
        st.rummy_apply(draft, action)
    assert draft.sides[0].melds == [["AD"], ["10C", "JC", "QC"]]
    # a card of the suit or of the rank still joins: a run or a set begun, and a wild
    draft = st.RummyDraft.new(game="burraco", side_count=2)
    for action in ("card:7H", "card:7S", "card:2C", "new_meld", "card:5D", "card:8D"):
        st.rummy_apply(draft, action)
    assert draft.sides[0].melds == [["7H", "7S", "2C"], ["5D", "6D", "7D", "8D"]]


def test_a_side_said_in_full_keeps_the_phone_on_its_tab():
    """Going out or answering the pot never moves the phone to another side: with two phones
    each pair enters its own side (the other pair's tab may be open, untouched yet, on the
    other phone), and after going out the partner's hand is still to come."""
    draft = st.RummyDraft.new(game="biriba", side_count=2)
    for action in ("suit:H", "rank:3", "rank:5", "went_out:0"):
        st.rummy_apply(draft, action)
    assert draft.side == 0
    for action in ("target:hand", "rank:9", "pot:0", "pot_no:0"):
        st.rummy_apply(draft, action)
    assert draft.side == 0 and draft.sides[0].hand == ["9H"] and not draft.sides[1].hand


def test_starting_over_forgets_where_this_phone_s_taps_went(auth_client, biriba):
    url = new_url(biriba)
    page = press(auth_client, url, "", *run("H", "3 4 5"), "target:hand", *run("S", "K"))
    assert 'data-adding-to="hand"' in page.content.decode()
    page = press(auth_client, url, draft_of(page), "reset:yes")
    page = press(auth_client, url, draft_of(page), *run("H", "3 9"))
    draft = st.RummyDraft.loads(draft_of(page), game="biriba", side_count=2)
    assert draft.sides[0].melds == [["3H", "4H", "5H", "6H", "7H", "8H", "9H"]]
    assert draft.sides[0].hand == []


def test_totals_offer_only_the_bonuses_the_rules_allow(auth_client, make_match):
    """Sets off (Biriba's default): no set biriba to count; with sets on, it is there."""
    match = make_match("biriba")
    page = press(auth_client, new_url(match), "", "mode:totals").content.decode()
    assert 'value="bonus:clean_biriba:+1"' in page
    assert "set_biriba" not in page.split('id="pad-keys"')[0].split("side-panel")[1]
    with_sets = make_match("biriba", rules={"sets": True})
    page = press(auth_client, new_url(with_sets), "", "mode:totals").content.decode()
    assert "set_biriba:+1" in page


def test_start_over_asked_by_the_key_is_done_at_once(auth_client, biriba):
    """With JavaScript the key asks (data-ask) and sends the answer with it: no second
    question on the page."""
    url = new_url(biriba)
    page = press(auth_client, url, "", *run("H", "3 4 5"))
    assert "data-ask-confirms>" in page.content.decode().split('value="reset"')[1][:200]
    done = auth_client.post(url, {**posted_by(page, "reset"), "confirm": "yes"}, headers=HTMX)
    assert json.loads(draft_of(done))["sides"][0]["melds"] == []
    assert 'data-message="reset_asked"' not in done.content.decode()


def test_start_over_on_one_phone_starts_every_phone_s_view_afresh(auth_client, biriba):
    """The other phone had its taps going to the hand: after the table started over, its next
    cards go to a new meld, as on the phone that started over."""
    url = new_url(biriba)
    other = press(auth_client, url, "", "side:1", *run("D", "3 5"), "target:hand", "rank:K")
    assert 'data-adding-to="hand"' in other.content.decode()
    press(auth_client, url, "", "reset:yes")  # this phone, while the other's page is drawn
    after = press(auth_client, url, draft_of(other), *run("D", "8 9 10"))
    draft = st.RummyDraft.loads(draft_of(after), game="biriba", side_count=2)
    assert [s.hand for s in draft.sides] == [[], []]
    assert draft.sides[draft.side].melds == [["8D", "9D", "10D"]]


def test_the_pot_answer_is_the_key_last_pressed_however_often():
    """Yes and no are answers, not switches: a key pressed twice (a tap resent, two phones
    answering alike) leaves the answer it gives."""
    draft = st.RummyDraft.new(game="biriba", side_count=2)
    assert draft.sides[1].took_pot is None
    st.rummy_apply(draft, "pot_no:1")
    assert draft.sides[1].took_pot is False
    st.rummy_apply(draft, "pot:1")
    assert draft.sides[1].took_pot is True
    st.rummy_apply(draft, "pot:1")
    assert draft.sides[1].took_pot is True
    st.rummy_apply(draft, "pot_no:1")
    st.rummy_apply(draft, "pot_no:1")
    assert draft.sides[1].took_pot is False


def test_a_set_is_entered_rank_first_then_one_suit_key_a_card():
    draft = st.RummyDraft.new(game="burraco", side_count=2)
    for action in ("suit:S", "rank:K", "suit:D", "suit:C", "suit:C"):
        st.rummy_apply(draft, action, sets=True)
    assert draft.sides[0].melds == [["KS", "KD", "KC", "KC"]]
    # where the rules allow no sets (Biriba's default) a suit key only chooses the suit
    draft = st.RummyDraft.new(game="biriba", side_count=2)
    for action in ("suit:S", "rank:K", "suit:D"):
        st.rummy_apply(draft, action, sets=False)
    assert draft.sides[0].melds == [["KS"]] and draft.suit == "D"


def test_a_run_by_its_first_and_last_card():
    draft = st.RummyDraft.new(game="biriba", side_count=2)
    for action in ("suit:H", "rank:4", "thru", "rank:10"):
        st.rummy_apply(draft, action)
    assert draft.sides[0].melds == [["4H", "5H", "6H", "7H", "8H", "9H", "10H"]]
    assert not draft.thru  # "…" holds for one key
    for action in ("new_meld", "suit:S", "rank:10", "thru", "rank:A"):
        st.rummy_apply(draft, action)
    assert draft.sides[0].melds[1] == ["10S", "JS", "QS", "KS", "AS"]  # the ace after the king
    for action in ("new_meld", "suit:C", "rank:A", "thru", "rank:4"):
        st.rummy_apply(draft, action)
    assert draft.sides[0].melds[2] == ["AC", "2C", "3C", "4C"]  # the ace low, the two natural


def test_a_rank_that_skips_fills_the_run_in():
    def meld(*actions: str) -> list[str]:
        draft = st.RummyDraft.new(game="biriba", side_count=2)
        for action in actions:
            st.rummy_apply(draft, action)
        return draft.sides[0].melds[-1]

    assert meld("suit:H", "rank:4", "rank:J") == [f"{r}H" for r in "4 5 6 7 8 9 10 J".split()]
    assert meld("suit:H", "rank:J", "rank:8") == ["JH", "10H", "9H", "8H"]  # downwards too
    assert meld("suit:S", "rank:9", "rank:A") == ["9S", "10S", "JS", "QS", "KS", "AS"]
    assert meld("suit:S", "rank:A", "rank:J") == ["AS", "KS", "QS", "JS"]  # a lone ace, then high
    assert meld("suit:C", "rank:A", "rank:4") == ["AC", "2C", "3C", "4C"]  # low: the two natural
    # the wild after a natural stands for the next rank; the fill goes on after it
    assert meld("suit:D", "rank:6", "rank:9", "card:2C", "rank:K") == [
        "6D",
        "7D",
        "8D",
        "9D",
        "2C",
        "JD",
        "QD",
        "KD",
    ]
    assert meld("suit:D", "rank:3", "joker", "rank:8") == ["3D", "JK", "5D", "6D", "7D", "8D"]
    # a gap for a wild: the wild first, then the card after the gap
    assert meld("suit:D", "rank:6", "card:2C", "rank:8") == ["6D", "2C", "8D"]
    # one rank skipped is left for the wild, tapped last as the cards lie (a probe: 4♥ 5♥ 6♥
    # 8♥ 9♥ then 2♣ got a 7♥ nobody held, and scored a dirty biriba for six cards)
    naturals_first = ("suit:H", "rank:4", "rank:5", "rank:6", "rank:8", "rank:9", "card:2C")
    assert meld(*naturals_first) == ["4H", "5H", "6H", "8H", "9H", "2C"]
    assert meld("suit:S", "rank:9", "rank:J") == ["9S", "JS"]
    # ... and so with the wild tapped first: it may be that rank's (a second probe)
    assert meld("suit:H", "joker", "rank:4", "rank:6") == ["JK", "4H", "6H"]
    wild_first = ("card:2C", "suit:H", "rank:4", "rank:5", "rank:6", "rank:8", "rank:9")
    assert meld(*wild_first) == ["2C", "4H", "5H", "6H", "8H", "9H"]
    assert meld("suit:H", "rank:4", "rank:6", "rank:5") == ["4H", "6H", "5H"]
    # nothing to fill: a rank beside the last card, the same rank, ranks already there
    assert meld("suit:H", "rank:4", "rank:5") == ["4H", "5H"]
    assert meld("suit:H", "rank:4", "rank:5", "rank:6", "rank:3") == ["4H", "5H", "6H", "3H"]
    assert meld("suit:H", "rank:4", "rank:5", "rank:6", "rank:2") == ["4H", "5H", "6H", "2H"]
    # a set is never filled: its rank, then one suit key a card
    draft = st.RummyDraft.new(game="burraco", side_count=2)
    for action in ("suit:S", "rank:K", "suit:D", "rank:9"):
        st.rummy_apply(draft, action, sets=True)
    assert draft.sides[0].melds == [["KS", "KD"], ["9D"]]  # nor joined: a meld of its own
    # cards in hand are never filled
    draft = st.RummyDraft.new(game="biriba", side_count=2)
    for action in ("target:hand", "suit:H", "rank:4", "rank:9"):
        st.rummy_apply(draft, action)
    assert draft.sides[0].hand == ["4H", "9H"]


def test_a_card_that_cannot_belong_to_the_meld_starts_a_new_one():
    draft = st.RummyDraft.new(game="biriba", side_count=2)
    for action in ("suit:H", "rank:4", "rank:5", "rank:6", "card:2S", "suit:C", "rank:9"):
        st.rummy_apply(draft, action)
    assert draft.sides[0].melds == [["4H", "5H", "6H", "2S"], ["9C"]]


def test_the_hand_by_its_value_is_saved_as_in_hand_and_scored(auth_client, biriba):
    url = new_url(biriba)
    page = press(auth_client, url, "", *run("H", "4 5 6"), "hand:points", "digit:3", "digit:5")
    assert 'id="pad-digit-3"' in page.content.decode()  # the keypad writes the hand's value
    page = press(auth_client, url, draft_of(page), "pot:0")
    draft = st.RummyDraft.loads(draft_of(page), game="biriba", side_count=2)
    assert draft.sides[0].hand_points == 35
    assert draft.deal_json()["sides"][0] == {
        "melds": [["4H", "5H", "6H"]],
        "in_hand": 35,
        "took_pot": True,
        "went_out": False,
    }
    page = press(auth_client, url, draft_of(page), "side:1", *run("S", "3 4 5"))
    page = press(auth_client, url, draft_of(page), "pot_no:1")
    saved = auth_client.post(url, {**posted_by(page, "save"), "confirm": "yes"})
    assert saved.status_code == 302
    deal = Deal.objects.get()
    assert deal.data["sides"][0]["in_hand"] == 35
    biriba.refresh_from_db()
    assert biriba.totals == [15 - 35, 15 - 100]


def test_the_keypad_for_the_hand_is_a_pad_of_its_own(biriba):
    page = RummyPage(biriba, None)
    draft = st.RummyDraft.new(game="biriba", side_count=2)
    assert page.pad_variant(draft) == "cards"
    st.rummy_apply(draft, "hand:points")
    assert page.pad_variant(draft) == "totals"
    st.rummy_apply(draft, "hand:cards")
    assert page.pad_variant(draft) == "cards" and draft.sides[0].hand_points is None


def test_totals_for_one_side_are_totals_for_every_side_with_nothing_entered():
    draft = st.RummyDraft.new(game="biriba", side_count=2)
    st.rummy_apply(draft, "mode:totals")
    assert [s.mode for s in draft.sides] == ["totals", "totals"]


def test_the_bar_shows_the_match_totals_and_the_save_key(auth_client, make_match):
    match = make_match("biriba", deals=1)
    response = auth_client.get(new_url(match), headers=HTMX)
    body = response.content.decode()
    bar = body[body.index('class="entry-bar"') : body.index('id="verdict"')]
    assert "data-save" in bar and "bar-total" in bar
    assert body.index("data-save") < body.index('id="pad-keys"')


def test_a_suit_key_then_its_rank_out_of_habit_adds_one_card_to_a_set():
    """Three probes: "K♠ ♦ K" entered K♦ twice (the suit key adds to a set, and the rank key
    tapped after it out of habit added another); "♥ 3 ♥ 4" gave 3♥ 3♥ 4♥."""

    def melds(*actions: str) -> list[list[str]]:
        draft = st.RummyDraft.new(game="burraco", side_count=2)
        for action in actions:
            st.rummy_apply(draft, action, sets=True)
        return draft.sides[0].melds

    habit = ("suit:S", "rank:K", "suit:D", "rank:K", "suit:C", "rank:K")
    assert melds(*habit) == [["KS", "KD", "KC"]]
    assert melds("suit:S", "rank:K", "suit:D", "suit:C") == [["KS", "KD", "KC"]]  # as before
    # the suit chosen again over the one card of its suit chooses it: a run goes on
    assert melds("suit:H", "rank:3", "suit:H", "rank:4", "rank:5") == [["3H", "4H", "5H"]]
    # two of one card stay possible: the suit key again once the set has two, or the rank
    assert melds("suit:S", "rank:K", "suit:D", "suit:D") == [["KS", "KD", "KD"]]
    assert melds("suit:D", "rank:K", "rank:K", "suit:S") == [["KD", "KD", "KS"]]
    # the habit's rank key is that card only right after its suit key
    assert melds("suit:S", "rank:K", "suit:D", "card:2C", "rank:K") == [["KS", "KD", "2C", "KD"]]


def test_a_meld_holding_a_card_more_often_than_the_packs_is_red_on_its_line(
    auth_client, make_match
):
    """A probe: 9♣ 9♣ 9♣ read "set of 9 · clean 30"; only the whole deal's check said later
    that two packs hold two."""
    match = make_match("burraco")
    page = press(auth_client, new_url(match), "", *run("C", "9 9 9"))
    # the meld's own line (its reading): the bar says the rule too, first
    reading = re.search(r'value="target:m0">(.*?)</button>', page.content.decode(), re.S)
    assert reading, "no reading of the meld"
    line = html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", reading[1])))
    assert "✗" in line and "9♣ is in this meld 3 times, but the 2 packs hold 2" in line


def test_another_phone_s_start_over_keeps_this_phone_s_side_and_suit(client, make_match, user):
    """Issue 24, item 1: Bruno is on the second side with ♣ chosen; Anna starts over. His next
    taps stay on his side, in his suit, and his page says who started over (after its redraw,
    the empty key entry.js sends, and after a reload alike)."""
    from django.test import Client

    match = make_match("biriba")
    url = new_url(match)
    anna, bruno = Client(), Client()
    anna.force_login(user)
    bruno.force_login(user)
    bruno_page = press(bruno, url, "", "side:1", *run("C", "3 4 5"), "suit:C")
    press(anna, url, "", *run("H", "7 8 9"), "reset:yes")

    for redraw in ("", "suit:C"):  # the live check's redraw; a key tapped at once
        again = press(bruno, url, draft_of(bruno_page), redraw)
        draft = st.RummyDraft.loads(draft_of(again), game="biriba", side_count=2)
        assert (draft.side, draft.suit) == (1, "C"), redraw
        assert 'data-message="draft_restarted"' in again.content.decode()
        assert "anna started this deal over" in text(again)
    reloaded = bruno.get(url)
    assert st.RummyDraft.loads(draft_of(reloaded), game="biriba", side_count=2).side == 1

    after = press(bruno, url, draft_of(bruno_page), *run("C", "9 10 J"))
    draft = st.RummyDraft.loads(draft_of(after), game="biriba", side_count=2)
    assert draft.sides[1].melds == [["9C", "10C", "JC"]] and draft.sides[0].melds == []
    assert 'data-message="draft_restarted"' not in after.content.decode()  # told once


def test_a_trump_key_sets_the_trump_and_never_clears_it(client, make_match, user):
    """Issue 24, item 4: a second phone tapping the trump its screen already shows chosen
    cleared it for everyone. A trump key sets; "no trump" is a key of its own."""
    from django.test import Client

    match = make_match("biriba")
    url = new_url(match)
    anna, bruno = Client(), Client()
    anna.force_login(user)
    bruno.force_login(user)
    anna_page = press(anna, url, "", "trump:H")
    bruno_page = press(bruno, url, "", "trump:H")  # his screen showed ♥ chosen too
    for page in (bruno_page, press(anna, url, draft_of(anna_page), "trump:H")):
        assert json.loads(draft_of(page))["trump"] == "H"
        assert "data-trump-clear" in page.content.decode()
    assert json.loads(draft_of(press(bruno, url, draft_of(bruno_page), "trump:S")))["trump"] == "S"
    cleared = press(bruno, url, "", "trump:none")
    assert "trump" not in json.loads(draft_of(cleared))
    assert "data-trump-clear" not in cleared.content.decode()
