"""The Barbu deal-entry page: contracts left, doubles and their reasons, compulsory doubles, the
contract's own widgets, the preview, saving and correcting."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from scorekeeper import services
from scorekeeper.entry import drafts as st
from scorekeeper.models import Deal
from tests.conftest import (
    BARBU_CLASSIC,
    BARBU_DATA,
    HTMX,
    draft_of,
    overwrite_deals,
    posted_by,
    press,
    text,
)

pytestmark = pytest.mark.django_db


def new_url(match) -> str:
    return reverse("deal_new", args=[match.pk])


def save(client, url: str, draft: str, *, confirm: bool = False, htmx: bool = True):
    """Press Save with ``draft``; ``confirm`` as the confirmation (or hx-confirm) sends it."""
    data = {"draft": draft, "action": "save", **({"confirm": "yes"} if confirm else {})}
    return client.post(url, data, headers=HTMX if htmx else {})


@pytest.fixture
def barbu(make_match):
    return make_match("barbu")  # Anna declares the first seven deals


# --- the page, plain and htmx, and who may see it --------------------------------------------


def test_entry_page_plain_and_htmx(auth_client, barbu):
    plain = auth_client.get(new_url(barbu))
    assert plain.status_code == 200
    assert "<html" in plain.content.decode()
    assert "Deal 1 of 28 · Anna declares" in text(plain)
    partial = auth_client.get(new_url(barbu), headers=HTMX)
    assert partial.status_code == 200
    assert "<html" not in partial.content.decode()
    assert partial.content.decode().lstrip().startswith('<div id="entry"')


def test_entry_post_plain_draws_the_whole_page(auth_client, barbu):
    keys = ["contract:barbu", "double:2:0:1"]
    response = press(auth_client, new_url(barbu), "", *keys, htmx=False)
    assert "<html" in response.content.decode()
    assert "Who took K♥?" in text(response)


def test_anonymous_and_other_users(client, other_user, barbu):
    url = new_url(barbu)
    response = client.get(url)
    assert response.status_code == 302 and response.url.startswith(reverse("login"))
    client.force_login(other_user)
    assert client.get(url).status_code == 404
    assert client.post(url, {"action": "save"}).status_code == 404


# --- contracts ---------------------------------------------------------------------------------


def test_the_chooser_offers_only_the_contracts_left(auth_client, make_match):
    match = make_match("barbu", deals=2)  # Anna has named no_tricks and no_hearts
    response = auth_client.get(new_url(match))
    body = response.content.decode()
    assert 'value="contract:no_tricks"' not in body
    assert 'value="contract:no_hearts"' not in body
    for contract in ("no_queens", "barbu", "no_last_two", "trumps", "domino"):
        assert f'value="contract:{contract}"' in body
    assert "Anna has 5 left" in text(response)
    # a contract already named cannot be slipped in by hand either
    response = press(auth_client, new_url(match), "", "contract:no_tricks")
    assert json.loads(draft_of(response))["contract"] is None


def test_the_next_declarer_is_shown_with_their_own_contracts(auth_client, make_match):
    match = make_match("barbu", deals=7)  # Anna's series is done: Babis declares
    response = auth_client.get(new_url(match))
    assert "Deal 8 of 28 · Babis declares" in text(response)
    assert "Babis has 7 left" in text(response)


# --- doubles -----------------------------------------------------------------------------------


def test_a_deal_with_doubles_and_a_redouble_is_previewed_and_saved(auth_client, barbu):
    """rules.md, Barbu example 2: no queens, Babis says maximum, Chris doubles Anna, Anna
    redoubles Chris; queens: Anna one, Chris one, Dora two."""
    url = new_url(barbu)
    keys = [
        "contract:no_queens",
        "maximum:1",
        "double:2:0:1",
        "double:2:0:2",
        "step:queens:0:+1",
        "step:queens:2:+1",
        "step:queens:3:+1",
        "rest:queens:3",
    ]
    response = press(auth_client, url, "", *keys)
    page = text(response)
    assert "Queens 4 / 4 ✓" in page
    assert "raw −6 0 −6 −12" in page
    assert "deal −12 24 −12 −24" in page
    assert "Anna ↔ Chris ×2: even" in page
    assert "Babis ↔ Dora ×1: Babis +12" in page
    assert "Σ −24 ✓" in page

    response = press(auth_client, url, draft_of(response), "save")
    assert response.headers["HX-Redirect"] == reverse("match_detail", args=[barbu.pk])
    deal = Deal.objects.get(match=barbu)
    doubles = sorted((d["by"], d["on"], d.get("redoubled", False)) for d in deal.data["doubles"])
    assert doubles == [(1, 0, False), (1, 2, False), (1, 3, False), (2, 0, True)]
    assert deal.data["queens"] == [1, 0, 1, 2]
    barbu.refresh_from_db()
    assert barbu.totals == [-12, 24, -12, -24]


def test_a_forbidden_double_is_not_offered_and_its_reason_is_one_tap_away(auth_client, barbu):
    url = new_url(barbu)
    response = press(auth_client, url, "", "contract:trumps", "doubles:open")
    body = response.content.decode()
    page = text(response)
    # in a positive contract only the declarer may be doubled: Babis may double Anna only
    assert 'value="double:1:0:1"' in body
    assert 'value="double:1:2:1"' not in body
    assert 'value="double:1:3:1"' not in body
    assert "<details" in body
    assert "why not Chris, Dora, family?" in page
    assert "only the declarer Anna may be doubled, not Chris" in page
    # the declarer never doubles
    assert "Anna declares this deal and cannot double" in page
    assert not re.search(r'value="double:0:\d:1"', body)


def test_a_forbidden_double_sent_anyway_is_refused_with_the_rule(auth_client, barbu):
    url = new_url(barbu)
    keys = ["contract:trumps", "trump:S", "double:1:2:1", *["step:tricks:0:+1"] * 13]
    response = press(auth_client, url, "", *keys)
    assert "Not a legal deal yet" in text(response)
    assert "only the declarer Anna may be doubled" in text(response)
    response = press(auth_client, url, draft_of(response), "save")
    assert "Not done:" in text(response)
    assert not Deal.objects.exists()


def test_changing_to_a_positive_contract_drops_doubles_it_forbids(auth_client, barbu):
    url = new_url(barbu)
    response = press(auth_client, url, "", "contract:no_tricks", "maximum:1", "contract:domino")
    doubles = json.loads(draft_of(response))["doubles"]
    assert [(d["by"], d["on"]) for d in doubles] == [(1, 0)]


def test_family_is_not_offered_to_the_declarer(auth_client, barbu):
    response = press(auth_client, new_url(barbu), "", "contract:no_hearts", "doubles:open")
    body = response.content.decode()
    assert 'value="family:1"' in body
    assert 'value="family:0"' not in body
    assert 'value="maximum:0"' not in body  # nobody has doubled Anna yet: nothing to redouble


def test_a_shortcut_the_rules_refuse_is_explained(auth_client, barbu):
    response = press(auth_client, new_url(barbu), "", "contract:no_hearts", "family:0")
    assert "Not done:" in text(response)
    assert "cannot say family" in text(response)


def test_the_compulsory_doubles_are_shown(auth_client, make_match):
    match = make_match("barbu")
    # Anna's first deal: only Babis doubles her
    deal = {"contract": "no_queens", "doubles": [{"by": 1, "on": 0}], "queens": [1, 1, 1, 1]}
    from scorekeeper import services

    services.deal_record(match=match, data=deal)
    response = auth_client.get(new_url(match))
    page = text(response)
    assert "Babis owes 1 double on Anna · 6 deals left" in page
    assert "Chris owes 2 doubles on Anna · 6 deals left" in page
    response = press(
        auth_client, new_url(match), draft_of(response), "contract:barbu", "double:2:0:1"
    )
    assert "Chris owes 2 doubles on Anna · 6 deals left · doubling now" in text(response)


def test_a_player_who_must_double_now_is_warned(auth_client, make_match):
    from scorekeeper import services

    match = make_match("barbu")
    contracts = ["no_tricks", "no_hearts", "no_queens", "barbu", "no_last_two"]
    data = {
        "no_tricks": {"tricks": [4, 3, 3, 3]},
        "no_hearts": {"hearts": [4, 3, 3, 3], "ace_of_hearts": 0},
        "no_queens": {"queens": [1, 1, 1, 1]},
        "barbu": {"king_of_hearts": 1},
        "no_last_two": {"last_two": [2, 3]},
    }
    for contract in contracts:  # Babis and Chris double Anna each time, Dora never
        doubles = [{"by": 1, "on": 0}, {"by": 2, "on": 0}]
        services.deal_record(
            match=match, data={"contract": contract, "doubles": doubles, **data[contract]}
        )
    response = auth_client.get(new_url(match))
    assert "Dora owes 2 doubles on Anna · 2 deals left · must double now" in text(response)


# --- contract widgets --------------------------------------------------------------------------


def test_tricks_have_a_live_sum_check(auth_client, barbu):
    url = new_url(barbu)
    response = press(auth_client, url, "", "contract:no_tricks", "double:1:0:1", "step:tricks:1:+1")
    assert "Tricks 1 / 13" in text(response)
    assert "must be 13" in text(response)
    response = press(auth_client, url, draft_of(response), "rest:tricks:2")
    assert "Tricks 13 / 13 ✓" in text(response)


def test_king_of_hearts_is_one_tap_and_last_two_are_two(auth_client, make_match):
    match = make_match("barbu", deals=3)  # Anna has barbu, no_last_two, trumps, domino left
    url = new_url(match)
    response = press(
        auth_client, url, "", "contract:barbu", "double:3:0:1", "seat:king_of_hearts:2"
    )
    assert "✓ Preview" in text(response)
    response = press(
        auth_client, url, draft_of(response), "contract:no_last_two", "last_two:0:1", "last_two:1:3"
    )
    assert "✓ Preview" in text(response)
    press(auth_client, url, draft_of(response), "save")
    deal = Deal.objects.get(match=match, number=4)
    assert deal.data["contract"] == "no_last_two"
    assert deal.data["last_two"] == [1, 3]
    assert "king_of_hearts" not in deal.data


def test_domino_is_entered_by_tapping_players_in_finishing_order(auth_client, barbu):
    url = new_url(barbu)
    response = press(auth_client, url, "", "contract:domino", "domino:2", "domino:0", "domino:3")
    assert json.loads(draft_of(response))["finish_order"] == [2, 0, 3, 1]  # the last follows
    assert "raw 20 −5 45 5" in text(response)
    response = press(auth_client, url, draft_of(response), "domino:0")  # taps 0 and after it off
    assert json.loads(draft_of(response))["finish_order"] == [2]
    # the last place follows from the one before it: tapping it too, as a player does out of
    # habit, changes nothing (it took both off, which a probe found a trap)
    response = press(auth_client, url, draft_of(response), "domino:0", "domino:3", "domino:1")
    assert json.loads(draft_of(response))["finish_order"] == [2, 0, 3, 1]
    response = press(auth_client, url, draft_of(response), "domino:3")  # the one before: both
    assert json.loads(draft_of(response))["finish_order"] == [2, 0]


def test_a_finishing_order_one_short_names_who_is_missing(auth_client, barbu):
    url = new_url(barbu)
    response = press(auth_client, url, "", "contract:domino", "domino:2", "domino:0")
    saved = auth_client.post(url, {**posted_by(response, "save"), "confirm": "yes"})
    assert saved.status_code == 200 and not Deal.objects.exists()
    assert "Babis and Dora not placed: the finishing order lists every player once" in text(saved)


def test_ravage_city_has_a_four_by_four_grid(auth_client, make_match):
    match = make_match("barbu", rules={"variant": "ravage_city"})
    url = new_url(match)
    response = press(auth_client, url, "", "contract:ravage_city", "double:1:0:1")
    body = response.content.decode()
    # a cell key for every player and suit, and the number keys 0 to 13
    assert 'value="focus:suits:3:C"' in body
    assert 'value="count:suits:13"' in body
    # twelve numbers, player by player and suit by suit: the last player of each suit has
    # the rest of its 13 cards
    keys = [f"count:suits:{n}" for n in [4, 4, 4, 4, 3, 3, 3, 3, 3, 3, 3, 3]]
    response = press(auth_client, url, draft_of(response), *keys)
    assert "13 / 13 ✓" in text(response)
    press(auth_client, url, draft_of(response), "save")
    assert Deal.objects.get(match=match).data["suits"] == [[4, 4, 4, 4], *[[3, 3, 3, 3]] * 3]


def test_an_undoubled_negative_contract_is_split_and_carries_no_data(auth_client, barbu):
    url = new_url(barbu)
    response = press(auth_client, url, "", "contract:no_tricks", "step:tricks:0:+1")
    page = text(response)
    assert "Not played: nobody has doubled." in page
    assert "raw 1 −9 −9 −9" in page
    press(auth_client, url, draft_of(response), "save")
    assert Deal.objects.get(match=barbu).data == {"contract": "no_tricks", "doubles": []}


def test_saving_without_a_contract_says_so(auth_client, barbu):
    url = new_url(barbu)
    response = press(auth_client, url, draft_of(auth_client.get(url)), "save")
    assert "Anna has not named a contract yet" in text(response)
    assert not Deal.objects.exists()


def test_a_deal_saved_from_two_tabs_is_stored_once(auth_client, barbu):
    url = new_url(barbu)
    page = press(auth_client, url, "", "contract:no_tricks", "step:tricks:0:+1")
    assert posted_by(page, "save")["deal"] == "1"
    auth_client.post(url, posted_by(page, "save"))
    assert Deal.objects.filter(match=barbu).count() == 1
    again = auth_client.post(url, posted_by(page, "save"), headers=HTMX)
    assert "Deal 1 was saved by you (anna) a moment ago, on this phone or another." in text(again)
    assert Deal.objects.filter(match=barbu).count() == 1


def test_a_save_with_no_draft_or_an_empty_one_stores_nothing(auth_client, barbu):
    url = new_url(barbu)
    for draft in ("", "{oops", st.BarbuDraft().dumps()):
        response = save(auth_client, url, draft, confirm=True, htmx=False)
        assert response.status_code == 200
    assert "Anna has not named a contract yet" in text(response)
    assert not Deal.objects.exists()


# --- the preview and corrections ----------------------------------------------------------------


def test_the_preview_is_drawn_with_the_sheet(auth_client, barbu):
    """The preview (raw, settlement, totals) is part of the sheet, redrawn with every tap."""
    url = new_url(barbu)
    response = press(
        auth_client, url, "", "contract:barbu", "double:1:0:1", "seat:king_of_hearts:3"
    )
    assert 'id="preview"' in response.content.decode()
    assert "raw 0 0 0 −20" in text(response)


def test_correcting_a_barbu_deal(auth_client, make_match):
    match = make_match("barbu", deals=3)
    url = reverse("deal_edit", args=[match.pk, 3])
    response = auth_client.get(url)
    page = text(response)
    assert "Correct deal 3" in page
    assert json.loads(draft_of(response))["contract"] == "no_queens"
    response = press(auth_client, url, draft_of(response), "step:queens:0:+1", "step:queens:1:-1")
    assert 'data-ask="Replace deal 3? The totals after it are worked out again."' in (
        response.content.decode()
    )
    save(auth_client, url, draft_of(response), confirm=True)
    assert Deal.objects.get(match=match, number=3).data["queens"] == [2, 0, 1, 1]
    assert Deal.objects.filter(match=match).count() == 3


@pytest.mark.parametrize("htmx", [False, True])
def test_a_barbu_correction_is_confirmed_on_the_page(auth_client, make_match, htmx):
    match = make_match("barbu", deals=3)
    url = reverse("deal_edit", args=[match.pk, 3])
    draft = draft_of(auth_client.get(url))
    response = press(auth_client, url, draft, "step:queens:0:+1", "step:queens:1:-1", htmx=htmx)
    response = save(auth_client, url, draft_of(response), htmx=htmx)
    assert response.status_code == 200
    assert "Replace deal 3? The totals after it are worked out again." in text(response)
    assert "Yes, replace deal 3" in text(response)
    assert Deal.objects.get(match=match, number=3).data["queens"] == [1, 1, 1, 1]
    response = save(auth_client, url, draft_of(response), confirm=True, htmx=htmx)
    assert response.status_code == (200 if htmx else 302)
    assert Deal.objects.get(match=match, number=3).data["queens"] == [2, 0, 1, 1]


def _garbled_barbu_drafts() -> list[str]:
    whole = st.BarbuDraft.from_deal({"contract": "no_queens", "queens": [1, 1, 1, 1]}).to_json()
    return [
        "{oops",
        "[]",
        '{"v": 1, "contract": "no_queens"}',  # no doubles: would be saved as a split deal
        json.dumps({**whole, "doubles": "none"}),
        json.dumps({**whole, "counts": {"queens": [9, 0, 0, 0]}}),
        json.dumps({**whole, "contract": "no_tricks"}),  # not a contract left for deal 3
        "[" * 9_999 + "]" * 9_999,  # valid JSON, within the draft's size, too deep for Python
    ]


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize("garbled", _garbled_barbu_drafts())
def test_a_garbled_barbu_draft_cannot_alter_a_stored_deal(auth_client, make_match, garbled, htmx):
    match = make_match("barbu", deals=3)
    before = Deal.objects.get(match=match, number=3).data
    totals = match.totals
    url = reverse("deal_edit", args=[match.pk, 3])
    response = save(auth_client, url, garbled, confirm=True, htmx=htmx)
    assert response.status_code == 200
    assert "the entry could not be read, so nothing was changed" in text(response)
    assert json.loads(draft_of(response))["contract"] == "no_queens"
    assert Deal.objects.get(match=match, number=3).data == before
    match.refresh_from_db()
    assert match.totals == totals


def test_a_correction_offers_only_contracts_named_in_no_other_deal(auth_client, make_match):
    match = make_match("barbu", deals=3)  # Anna: no_tricks, no_hearts, no_queens
    response = auth_client.get(reverse("deal_edit", args=[match.pk, 2]))
    page = text(response)
    assert "No hearts" in page and "Barbu (K♥)" in page
    # deal 1's and deal 3's contracts are not offered for deal 2, and cannot be pressed
    url = reverse("deal_edit", args=[match.pk, 2])
    for taken in ("no_tricks", "no_queens"):
        response = press(auth_client, url, draft_of(response), f"contract:{taken}")
        assert json.loads(draft_of(response))["contract"] == "no_hearts"
    response = press(auth_client, url, draft_of(response), "contract:barbu")
    assert json.loads(draft_of(response))["contract"] == "barbu"


def test_a_correction_that_breaks_a_later_deal_is_refused(auth_client, make_match):
    """Babis doubles Anna in deals 1 and 7 of her series only. Taking back his double in
    deal 1 leaves him, after deal 6, unable to double her twice: deal 6 becomes illegal."""
    match = make_match("barbu")
    for index, contract in enumerate(BARBU_CLASSIC):
        doublers = [2, 3] + ([1] if index in (0, 6) else [])
        data = {
            "contract": contract,
            "doubles": [{"by": seat, "on": 0} for seat in doublers],
            **BARBU_DATA[contract],
        }
        services.deal_record(match=match, data=data)
    url = reverse("deal_edit", args=[match.pk, 1])
    response = press(auth_client, url, draft_of(auth_client.get(url)), "double:1:0:0", "save")
    assert "Not done:" in text(response)
    assert "deal 6" in text(response)
    deal = Deal.objects.get(match=match, number=1)
    assert {"by": 1, "on": 0} in deal.data["doubles"]


def test_barbu_pad_state():
    draft = st.BarbuDraft()
    for action in ["contract:no_hearts", "double:1:0:1", "double:0:1:1", "step:hearts:2:+1"]:
        st.barbu_apply(draft, action)
    assert draft.doubles == {(0, 1): 1}  # one business per pair: the later replaces
    st.barbu_apply(draft, "rest:hearts:3")
    assert draft.count("hearts") == [0, 0, 1, 12]
    assert draft.deal_json() == {
        "contract": "no_hearts",
        "doubles": [{"by": 0, "on": 1}],
        "hearts": [0, 0, 1, 12],
    }
    with pytest.raises(st.UnknownAction):
        st.barbu_apply(draft, "double:1:1:1")
    again = st.BarbuDraft.loads(draft.dumps())
    assert again.to_json() == draft.to_json()


def test_salade_combines_its_widgets(auth_client, make_match):
    match = make_match("barbu", rules={"variant": "salade"})
    response = press(auth_client, new_url(match), "", "contract:salade", "double:1:0:1")
    page = text(response)
    for heading in (
        "Tricks",
        "Hearts",
        "Queens",
        "Who took A♥?",
        "Who took K♥?",
        "Who took the last trick?",
    ):
        assert heading in page


def test_king_has_no_doubling(auth_client, make_match):
    match = make_match("barbu", rules={"variant": "king"})
    response = press(auth_client, new_url(match), "", "contract:no_king")
    body = response.content.decode()
    assert "Doubles" not in text(response)
    assert "owes" not in text(response)
    assert 'value="double:' not in body
    assert "Who took K♥?" in text(response)  # every negative is played in King


def test_a_match_whose_stored_deals_no_longer_pass_goes_back_to_the_scoreboard(
    auth_client, make_match
):
    match = make_match("barbu", deals=1)
    overwrite_deals(match, {"contract": "no_such_contract"})
    response = auth_client.get(new_url(match))
    assert response.status_code == 302
    assert response.url == reverse("match_detail", args=[match.pk])


def test_the_only_contract_left_stays_chosen_when_tapped_again():
    draft = st.BarbuDraft(contract="domino")
    st.barbu_apply(draft, "contract:domino", contracts=("domino",))
    assert draft.contract == "domino"
    st.barbu_apply(draft, "contract:domino", contracts=("domino", "trumps"))
    assert draft.contract is None


# --- numbers read strictly (ASCII digits, bounded), never a server error ----------------------

BAD_SEATS = ["²", "①", "٣", "-1", "4", "99999999999999999999", ""]


@pytest.mark.parametrize("htmx", [False, True])
def test_a_key_with_a_seat_that_is_not_one_is_ignored(auth_client, barbu, htmx):
    """The doubling shortcuts (``maximum:²``, expanded by the view) and the sheet's own keys
    with a seat written in other digits leave the draft as it was: never a server error."""
    url = new_url(barbu)
    page = press(auth_client, url, "", "contract:no_hearts", "double:1:0:1", htmx=htmx)
    before = json.loads(draft_of(page))
    keys = [
        f"{key}"
        for seat in BAD_SEATS
        for key in (
            f"maximum:{seat}",
            f"family:{seat}",
            f"double:{seat}:0:1",
            f"double:2:{seat}:1",
            f"double:2:0:{seat}",
            f"step:hearts:{seat}:+1",
            f"rest:hearts:{seat}",
            f"seat:ace_of_hearts:{seat}",
            f"last_two:{seat}:1",
            f"domino:{seat}",
            f"ravage:{seat}:H:+1",
        )
    ]
    for action in [*keys, "step:hearts:0:+²", "step:hearts:0:+2"]:
        response = auth_client.post(url, posted_by(page, action), headers=HTMX if htmx else {})
        assert response.status_code == 200, action
        assert json.loads(draft_of(response)) == before, action
    assert not Deal.objects.exists()


def test_barbu_pad_state_reads_seats_strictly():
    draft = st.BarbuDraft(contract="no_tricks")
    for action in ["step:tricks:²:+1", "double:¹:0:1", "seat:ace_of_hearts:٣", "domino:①"]:
        with pytest.raises(st.UnknownAction):
            st.barbu_apply(draft, action)
    assert draft.to_json() == st.BarbuDraft(contract="no_tricks").to_json()


# --- issue 13: number keys, the rest, folded doubles, in sight ------------------------------


def test_counts_go_in_on_number_keys_and_the_fourth_player_has_the_rest(auth_client, barbu):
    url = new_url(barbu)
    response = press(auth_client, url, "", "contract:no_tricks", "double:1:0:1")
    body = response.content.decode()
    assert 'value="count:tricks:13"' in body and 'value="count:tricks:14"' not in body
    # the keys go to Anna first, then to each player in turn
    response = press(auth_client, url, draft_of(response), "count:tricks:3", "count:tricks:4")
    assert "Keys for Chris" in text(response)
    response = press(auth_client, url, draft_of(response), "count:tricks:2")
    assert json.loads(draft_of(response))["counts"]["tricks"] == [3, 4, 2, 4]
    assert "13 / 13 ✓" in text(response)
    assert "Every count is in" in text(response)
    # a player tapped again takes the keys; the rest follows the change
    response = press(auth_client, url, draft_of(response), "focus:tricks:1", "count:tricks:6")
    assert json.loads(draft_of(response))["counts"]["tricks"] == [3, 6, 2, 2]
    press(auth_client, url, draft_of(response), "save")
    assert Deal.objects.get().data["tricks"] == [3, 6, 2, 2]


def test_once_the_whole_total_is_typed_the_others_have_none(auth_client, barbu):
    url = new_url(barbu)
    response = press(
        auth_client,
        url,
        "",
        "contract:no_queens",
        "double:2:0:1",
        "count:queens:2",
        "focus:queens:2",
    )
    response = press(auth_client, url, draft_of(response), "count:queens:2")
    assert json.loads(draft_of(response))["counts"]["queens"] == [2, 0, 2, 0]
    assert "4 / 4 ✓" in text(response)
    assert "Every count is in" in text(response)


def test_the_number_keys_refuse_a_count_beyond_the_pack():
    draft = st.BarbuDraft(contract="no_queens")
    with pytest.raises(st.UnknownAction):
        st.barbu_apply(draft, "count:queens:5")
    st.barbu_apply(draft, "count:queens:4")
    assert draft.count("queens") == [4, 0, 0, 0]
    assert st.count_focus(draft, "queens") is None
    with pytest.raises(st.UnknownAction):  # nowhere for the keys to go
        st.barbu_apply(draft, "count:queens:1")


def test_ravage_city_cells_take_a_number_and_each_suit_its_rest(auth_client, make_match):
    match = make_match("barbu", rules={"variant": "ravage_city"})
    url = new_url(match)
    response = press(auth_client, url, "", "contract:ravage_city", "double:1:0:1")
    # a whole suit in one hand: its other cells follow at once
    response = press(auth_client, url, draft_of(response), "count:suits:13")
    draft = json.loads(draft_of(response))
    assert [row[0] for row in draft["suits"]] == [13, 0, 0, 0]
    # the keys moved on to Anna's hearts, then a tapped cell takes them
    assert "Keys for Anna, ♥" in text(response)
    response = press(auth_client, url, draft_of(response), "focus:suits:2:D", "count:suits:5")
    assert json.loads(draft_of(response))["suits"][2][2] == 5
    assert "Keys for Dora, ♦" not in text(response)


def test_the_doubles_are_folded_to_one_line_until_opened(auth_client, barbu, htmx=False):
    url = new_url(barbu)
    response = press(auth_client, url, "", "contract:no_hearts", "double:2:0:1")
    body, page = response.content.decode(), text(response)
    assert 'data-doubles="folded"' in body and "Chris doubled Anna" in page
    # folded: the other players' doubles on the declarer are one key each, nothing else
    assert 'data-double-on-declarer="1"' in body and 'value="double:2:0:0"' in body
    assert 'value="family:1"' not in body and 'value="no_doubles"' not in body
    # the declarer's redouble sits beside a double made on them
    response = press(auth_client, url, draft_of(response), "double:2:0:2")
    assert "Chris doubled Anna, redoubled" in text(response)
    # opened (a plain post, no JavaScript needed): every double, the shortcuts, and it stays
    # open while doubles are tapped
    response = press(auth_client, url, draft_of(response), "doubles:open", htmx=False)
    assert 'value="family:1"' in response.content.decode()
    response = press(auth_client, url, draft_of(response), "double:3:1:1", htmx=False)
    assert 'data-doubles="open"' in response.content.decode()
    response = press(auth_client, url, draft_of(response), "doubles:fold")
    assert "Chris doubled Anna, redoubled · Dora doubled Babis" in text(response)


def test_no_doubles_and_the_split_say_so_folded(auth_client, barbu):
    response = press(auth_client, new_url(barbu), "", "contract:no_tricks")
    assert "Doubles no doubles" in text(response)
    assert "open the doubles and double someone" in text(response)


def test_who_owes_a_compulsory_double_is_marked_on_its_key(auth_client, make_match):
    match = make_match("barbu")
    everyone = [{"by": 1, "on": 0}, {"by": 2, "on": 0}, {"by": 3, "on": 0}]
    services.deal_record(
        match=match, data={"contract": "no_tricks", "doubles": everyone, **BARBU_DATA["no_tricks"]}
    )
    services.deal_record(
        match=match,
        data={"contract": "no_hearts", "doubles": everyone[:1], **BARBU_DATA["no_hearts"]},
    )
    response = press(auth_client, new_url(match), "", "contract:no_queens")
    body = response.content.decode()
    # Babis has paid both of his, Chris and Dora one of two: their keys say they still owe
    assert body.count("owes</span>") == 2
    assert not re.search(r'data-double-on-declarer="1"[^>]*>[^<]*<bdi>Babis</bdi> <span', body)


def test_the_match_totals_and_the_verdict_stay_in_sight(auth_client, make_match):
    match = make_match("barbu")
    deal = {"contract": "barbu", "doubles": [{"by": 1, "on": 0}], "king_of_hearts": 1}
    services.deal_record(match=match, data=deal)
    url = new_url(match)
    page = auth_client.get(url).content.decode()
    standing = re.search(r"data-standing>(.*?)</div>", page, re.S).group(1)
    assert "−40" in standing and "→" not in standing  # before the deal: the totals as they are
    response = press(auth_client, url, "", "contract:no_queens", "double:2:0:1", "count:queens:4")
    standing = re.search(r"data-standing>(.*?)</div>", response.content.decode(), re.S).group(1)
    assert "→" in standing  # the deal's score, then the total after it
    response = press(auth_client, url, "", "focus:queens:0", "count:queens:3")
    standing = re.search(r"data-standing>(.*?)</div>", response.content.decode(), re.S).group(1)
    assert "✗" in standing


def test_king_says_the_deals_left_to_declare_not_the_contracts(auth_client, make_match):
    match = make_match("barbu", rules={"variant": "king"})
    response = auth_client.get(new_url(match))
    body = response.content.decode()
    assert body.count("data-contract=") == 7  # any of the six negatives, or trumps
    assert 'data-contracts-left="5"' in body and "Anna has 5 left" in text(response)


def test_a_barbu_tap_answer_stays_small(auth_client, barbu):
    import gzip

    response = press(
        auth_client, new_url(barbu), "", "contract:no_hearts", "double:1:0:1", "count:hearts:3"
    )
    assert len(gzip.compress(response.content)) <= 2048


# --- issue 12: Chinese Poker, five players, a salade of the last two tricks --------------------

FIVE = ["Anna", "Babis", "Chris", "Dora", "Eleni"]


@pytest.fixture
def chinese(make_match):
    return make_match("barbu", rules={"chinese_poker": True, "compulsory_doubles": "off"})


def test_chinese_poker_nets_go_in_on_number_keys_and_the_last_makes_zero(auth_client, chinese):
    """rules.md, Chinese Poker example 1: nets 1, 0, −6 and 5 (the last follows), times 4."""
    url = new_url(chinese)
    page = text(auth_client.get(url))
    assert "Deal 1 of 32" in page
    keys = ["contract:chinese_poker", "net:1", "focus:net:1", "net:0", "focus:net:2"]
    keys += ["net:sign", "net:6"]
    response = press(auth_client, url, "", *keys)
    page = text(response)
    assert "Net results Σ 0 ✓" in page
    assert "Dora +5 makes 0" in page  # Dora's net follows from the others
    assert "Each net counts 4 times." in page
    assert "raw 4 0 −24 20" in page
    assert "Not played" not in page  # Chinese Poker is never split
    press(auth_client, url, draft_of(response), "save")
    deal = Deal.objects.get(match=chinese)
    assert deal.data == {"contract": "chinese_poker", "doubles": [], "net": [1, 0, -6, 5]}
    assert deal.score["total"] == [4, 0, -24, 20]


def test_chinese_poker_with_no_net_typed_asks_before_storing_zeros(auth_client, chinese):
    url = new_url(chinese)
    response = press(auth_client, url, "", "contract:chinese_poker")
    question = "No net typed: everyone broke even — save anyway?"
    assert f'data-ask="{question}"' in response.content.decode()
    asked = auth_client.post(url, posted_by(response, "save"))
    assert asked.status_code == 200 and question in text(asked)
    assert not Deal.objects.exists()
    # a net typed: nothing to agree to
    response = press(auth_client, url, draft_of(response), "net:0")
    assert "data-ask=" not in response.content.decode().split('value="save"')[0][-400:]
    press(auth_client, url, draft_of(response), "save")
    assert Deal.objects.get(match=chinese).data["net"] == [0, 0, 0, 0]


def test_chinese_poker_doubles_between_any_pair(auth_client, chinese):
    """rules.md, Chinese Poker example 2: Babis doubles Anna, who redoubles; Chris doubles Dora
    (allowed: not a positive contract). Nets 2, −1, 3 (Dora's −4 follows)."""
    url = new_url(chinese)
    keys = ["contract:chinese_poker", "double:1:0:1", "double:1:0:2", "double:2:3:1"]
    keys += ["net:2", "focus:net:1", "net:sign", "net:1", "focus:net:2", "net:3"]
    response = press(auth_client, url, "", *keys)
    page = text(response)
    assert "raw 8 −4 12 −16" in page
    assert "deal 32 −28 40 −44" in page
    press(auth_client, url, draft_of(response), "save")
    assert Deal.objects.get(match=chinese).score["total"] == [32, -28, 40, -44]


def test_chinese_poker_keys_minus_backspace_and_a_sum_that_is_not_zero(auth_client, chinese):
    url = new_url(chinese)
    keys = ["contract:chinese_poker", "net:1", "net:2", "net:back", "net:sign"]
    response = press(auth_client, url, "", *keys)
    assert json.loads(draft_of(response))["nets"] == ["-1", "", "", ""]
    # every net typed by hand, Dora's too: they add up to 1, and the rules say so
    keys = ["focus:net:1", "net:1", "focus:net:2", "net:0", "focus:net:3", "net:1"]
    response = press(auth_client, url, draft_of(response), *keys)
    page = text(response)
    assert "Net results Σ 1 (must be 0)" in page
    assert "Not a legal deal yet" in page
    press(auth_client, url, draft_of(response), "save")
    assert not Deal.objects.filter(match=chinese).exists()


def test_the_nets_pad_refuses_a_fifth_digit_and_a_key_that_is_not_one():
    draft = st.BarbuDraft(contract="chinese_poker")
    for key in ("net:1", "net:2", "net:3", "net:4"):
        st.barbu_apply(draft, key)
    assert draft.nets[0] == "1234"
    for key in ("net:5", "net:x", "net:-1", "focus:net:4"):
        with pytest.raises(st.UnknownAction):
            st.barbu_apply(draft, key)
    assert draft.nets == ["1234", "", "", ""]
    # a net typed with a leading zero or a digit that is not ASCII is not read back
    raw = {**draft.to_json(), "nets": ["007", "٣", "-", "12"]}
    assert st.BarbuDraft.from_json(raw).nets == ["", "", "-", "12"]


def test_correcting_a_chinese_poker_deal_keeps_its_nets(auth_client, chinese):
    url = new_url(chinese)
    keys = ["contract:chinese_poker", "net:1", "focus:net:1", "net:0", "focus:net:2"]
    press(auth_client, url, draft_of(press(auth_client, url, "", *keys, "net:6")), "save")
    edit = reverse("deal_edit", args=[chinese.pk, 1])
    response = auth_client.get(edit)
    draft = json.loads(draft_of(response))
    assert draft["nets"] == ["1", "0", "6", ""]  # the last follows again
    assert "Dora −7 makes 0" in text(response)


@pytest.fixture
def five(make_match):
    return make_match(
        "barbu", players=FIVE, rules={"variant": "salade", "compulsory_doubles": "off"}
    )


def test_salade_for_five_draws_five_seats_and_ten_tricks(auth_client, five):
    url = new_url(five)
    page = text(auth_client.get(url))
    assert "Deal 1 of 30 · Anna declares" in page
    assert "Anna has 6 left" in page
    response = press(auth_client, url, "", "contract:no_tricks", "double:1:0:1")
    body = response.content.decode()
    assert 'class="choice-grid five count-seats"' in body
    assert 'value="focus:tricks:4"' in body
    assert 'value="count:tricks:10"' in body and 'value="count:tricks:11"' not in body
    # four players typed: Eleni has the rest of the ten tricks
    keys = ["count:tricks:2", "count:tricks:3", "count:tricks:1", "count:tricks:2"]
    response = press(auth_client, url, draft_of(response), *keys)
    page = text(response)
    assert "Tricks 10 / 10 ✓" in page
    assert "raw −10 −15 −5 −10 −10" in page
    press(auth_client, url, draft_of(response), "save")
    deal = Deal.objects.get(match=five)
    assert deal.data["tricks"] == [2, 3, 1, 2, 2]


def test_salade_for_five_undoubled_is_split_by_four(auth_client, five):
    """rules.md, Salade for five example 1: No hearts undoubled, −33 each, the declarer +2."""
    url = new_url(five)
    response = press(auth_client, url, "", "contract:no_hearts")
    assert "raw 2 −33 −33 −33 −33" in text(response)
    press(auth_client, url, draft_of(response), "save")
    assert Deal.objects.get(match=five).score["total"] == [2, -33, -33, -33, -33]


def test_salade_for_five_doubles_each_of_the_four_and_maximum(auth_client, five):
    """rules.md, Salade for five example 2: seats 1-4 double Anna, who redoubles Eleni."""
    url = new_url(five)
    keys = ["contract:no_queens", *(f"double:{s}:0:1" for s in (1, 2, 3, 4)), "double:4:0:2"]
    keys += ["count:queens:1", "count:queens:0", "count:queens:2", "count:queens:0"]
    response = press(auth_client, url, "", *keys)
    page = text(response)
    assert "Queens 4 / 4 ✓" in page
    assert "deal −40 20 −60 20 −20" in page
    press(auth_client, url, draft_of(response), "save")
    assert Deal.objects.get(match=five).score["total"] == [-40, 20, -60, 20, -20]
    # the next declarer's doubles: "maximum" doubles all four others
    response = press(auth_client, url, "", "contract:barbu", "doubles:open", "maximum:2")
    draft = json.loads(draft_of(response))
    assert sorted((d["by"], d["on"]) for d in draft["doubles"]) == [(2, 0), (2, 1), (2, 3), (2, 4)]


def test_a_salade_counting_the_last_two_tricks_asks_for_both(auth_client, make_match):
    rules = {
        "variant": "salade",
        "compulsory_doubles": "off",
        "undoubled_negative": "play",
        "contract_values": {"salade": {"trick": -5, "last_two": [-10, -30]}},
    }
    match = make_match("barbu", rules=rules)
    url = new_url(match)
    keys = ["contract:salade", "last_two:0:1", "last_two:1:2"]
    keys += ["count:tricks:3", "count:tricks:4", "count:tricks:3"]
    keys += ["count:hearts:4", "count:hearts:3", "count:hearts:6"]
    keys += ["seat:ace_of_hearts:2", "seat:king_of_hearts:2"]
    keys += ["count:queens:1", "count:queens:1", "count:queens:2"]
    response = press(auth_client, url, "", *keys)
    page = text(response)
    assert "Trick 12 went to" in page and "Trick 13 went to" in page
    assert "Who took the last trick?" not in page
    assert "✓ Preview" in page, page[page.find("Not a legal") :][:300]
    press(auth_client, url, draft_of(response), "save")
    deal = Deal.objects.get(match=match)
    assert deal.data["last_two"] == [1, 2] and "last_trick" not in deal.data
    # the breakdown names the two tricks
    board = text(auth_client.get(reverse("deal_breakdown", args=[match.pk, 1])))
    assert "Trick 12: Babis" in board and "Trick 13: Chris" in board


def test_the_last_two_tricks_at_five_are_tricks_9_and_10():
    from scorekeeper.entry.barbu import last_two_labels
    from scorekeeper.scoreboard import last_two_names

    assert last_two_labels(5) == ("Trick 9 went to", "Trick 10 went to")
    assert last_two_labels(4) == ("Trick 12 went to", "Trick 13 went to")
    assert last_two_names(5) == ("Trick 9", "Trick 10")


def test_a_five_seat_draft_reads_five_seats_and_refuses_a_sixth():
    draft = st.BarbuDraft(contract="no_tricks", players=5)
    st.barbu_apply(draft, "double:4:0:1")
    with pytest.raises(st.UnknownAction):
        st.barbu_apply(draft, "double:5:0:1")
    again = st.BarbuDraft.loads(draft.dumps(), players=5)
    assert again.doubles == {(4, 0): 1}
    # read as four seats, the fifth player's double is dropped, never moved
    assert st.BarbuDraft.loads(draft.dumps()).doubles == {}


def test_a_trump_key_tapped_again_keeps_the_trump():
    """As on Biriba's pad (issue 24): a trump key sets, a second phone's tap on the trump its
    screen shows chosen never clears it."""
    draft = st.BarbuDraft()
    for action in ("contract:trumps", "trump:S", "trump:S"):
        st.barbu_apply(draft, action)
    assert draft.trump == "S"
    st.barbu_apply(draft, "trump:H")
    assert draft.trump == "H"


OWN_LIST = {"contracts": ["no_tricks", "no_queens", "trumps"]}


def barbu_deal_of(contract: str) -> dict:
    """Deal 1 naming ``contract``, Anna declaring, the three others doubling her."""
    return {"contract": contract, "doubles": [{"by": s, "on": 0} for s in (1, 2, 3)]}


def test_a_match_with_its_own_contract_list_is_corrected_and_a_stale_screen_answered(
    auth_client, make_match
):
    """Issue 24, item 6: with a house list of contracts, a correction page (and so any tap or
    Save from a screen still showing a deal another phone saved) was a server error: the
    contracts to swap with were looked for among the variant's, not the match's."""
    match = make_match("barbu", rules=OWN_LIST)
    url = new_url(match)
    stale = press(auth_client, url, "", "contract:no_tricks")
    services.deal_record(
        match=match, data={**barbu_deal_of("no_queens"), "queens": [1, 1, 1, 1]}
    )  # another phone saved deal 1 meanwhile
    for action in ("step:tricks:0:+1", "save"):
        response = auth_client.post(url, posted_by(stale, action), headers=HTMX)
        assert response.status_code == 200, action
        assert "data-offer>" in response.content.decode()  # what this screen showed, offered
    edit = auth_client.get(reverse("deal_edit", args=[match.pk, 1]))
    assert edit.status_code == 200
    assert 'value="contract:trumps"' in edit.content.decode()
