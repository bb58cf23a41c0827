"""One deal in progress per match, shared by every phone (scorekeeper/entry/services.py).

Phones here are test clients of the same or of different accounts; each posts what its own
page drew. The deal in progress is the database's: a tap is applied to it as stored now, read
through what the phone's screen showed; what a phone points at (its side, meld, suit) is its
own.
"""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper import services
from scorekeeper.entry import services as entry_services
from scorekeeper.entry import views as entry_views
from scorekeeper.models import Deal, DealDraft, Match
from scorekeeper.rules.errors import RuleError
from tests.conftest import HTMX, deal_for, draft_of, posted_by, press, run, text
from tests.test_concurrency import at_once, fresh

pytestmark = pytest.mark.django_db


def new_url(match) -> str:
    return reverse("deal_new", args=[match.pk])


def phone(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def shared(match, *, editing: bool = False) -> dict:
    """The deal in progress as stored."""
    return DealDraft.objects.get(match=match, editing=editing).data["content"]


def tap(client, url: str, page, action: str, htmx: bool = True):
    """One key pressed on ``page`` (what that phone's screen shows)."""
    return client.post(url, posted_by(page, action), headers=HTMX if htmx else {})


def test_a_page_load_writes_nothing(auth_client, make_match):
    match = make_match("biriba")
    auth_client.get(new_url(match))
    assert not DealDraft.objects.exists()
    press(auth_client, new_url(match), "", "suit:S")
    assert DealDraft.objects.count() == 1  # the first key begins the deal in progress


def test_two_phones_fill_in_their_own_sides_at_once(user, other_user, make_match):
    """The natural way at a rummy table: each pair enters its own melds on its own phone,
    tap after tap, interleaved; both keep every tap, and each stays on its own side."""
    match = make_match("burraco")
    url = new_url(match)
    anna, babis = phone(user), phone(user)
    a = anna.get(url)
    b = press(babis, url, "", "side:1")
    for a_key, b_key in zip(run("H", "4 5 6 7"), run("S", "8 9 10 J"), strict=True):
        a = tap(anna, url, a, a_key)
        b = tap(babis, url, b, b_key)
    sides = shared(match)["sides"]
    assert sides[0]["melds"] == [["4H", "5H", "6H", "7H"]]
    assert sides[1]["melds"] == [["8S", "9S", "10S", "JS"]]
    # each phone still points at its own side, and sees the other's work
    assert json.loads(draft_of(a))["side"] == 0 and json.loads(draft_of(b))["side"] == 1
    seen = json.loads(draft_of(anna.get(url)))
    assert seen["side"] == 0 and seen["sides"][1]["melds"] == [["8S", "9S", "10S", "JS"]]


def test_a_tap_sent_twice_is_applied_once(auth_client, make_match):
    match = make_match("biriba")
    url = new_url(match)
    page = press(auth_client, url, "", "suit:H")
    fields = posted_by(page, "rank:7")
    for _ in range(3):  # a resend, a retry: the same tap id
        response = auth_client.post(url, fields, headers=HTMX)
    assert shared(match)["sides"][0]["melds"] == [["7H"]]
    tap(auth_client, url, response, "rank:8")  # the next key, from the page drawn since
    assert shared(match)["sides"][0]["melds"] == [["7H", "8H"]]


def test_a_toggle_sets_what_the_phone_saw_the_other_way(user, make_match):
    """Two phones show "took the pot" unticked; both tap it: the pot is ticked (each meant
    "yes"), not ticked and unticked again."""
    match = make_match("biriba")
    url = new_url(match)
    first, second = phone(user), phone(user)
    one, two = first.get(url), second.get(url)
    tap(first, url, one, "pot:0")
    tap(second, url, two, "pot:0")
    assert shared(match)["sides"][0]["took_pot"] is True


def test_two_phones_share_one_barbu_sheet(user, make_match):
    """In Barbu one sheet is shared the same way: a phone that had not seen the contract named
    on another doubles on the same sheet, and its tap on the contract (its screen showed none
    named) names it, never takes it back; two phones that both saw it named and both tap it
    take it back once."""
    match = make_match("barbu")
    url = new_url(match)
    a, b = phone(user), phone(user)
    page_a = a.get(url)
    before = [b.get(url), b.get(url)]  # two screens of B drawn before A named the contract
    tap(a, url, page_a, "contract:barbu")
    tap(b, url, before[0], "double:2:0:1")
    assert shared(match)["contract"] == "barbu" and shared(match)["doubles"]
    tap(b, url, before[1], "contract:barbu")
    assert shared(match)["contract"] == "barbu"
    assert shared(match)["doubles"], "the double of the other screen was lost"
    seen_a, seen_b = a.get(url), b.get(url)
    tap(a, url, seen_a, "contract:barbu")
    tap(b, url, seen_b, "contract:barbu")
    assert shared(match)["contract"] is None


def test_a_card_tapped_away_is_the_card_the_screen_showed(user, make_match):
    """Phone A shows 4♥ 5♥ 6♥ 7♥; phone B takes 4♥ away; A then taps the chip of 5♥ (its
    second chip): 5♥ goes, not 6♥, which is second now."""
    match = make_match("biriba")
    url = new_url(match)
    a, b = phone(user), phone(user)
    page_a = press(a, url, "", *run("H", "4 5 6 7"))
    page_b = b.get(url)
    tap(b, url, page_b, "remove:m0:0")
    tap(a, url, page_a, "remove:m0:1")
    assert shared(match)["sides"][0]["melds"] == [["6H", "7H"]]


def test_a_phone_keeps_its_meld_when_another_removes_an_earlier_one(user, make_match):
    match = make_match("biriba")
    url = new_url(match)
    a, b = phone(user), phone(user)
    press(a, url, "", *run("H", "3 4 5"), "new_meld", *run("S", "9 10 J"))
    page_a = a.get(url)  # adding to the spade meld (its view, kept for the reload)
    page_b = b.get(url)
    for _ in range(3):  # B takes the heart meld away, card by card
        page_b = tap(b, url, page_b, "remove:m0:0")
    assert shared(match)["sides"][0]["melds"] == [["9S", "10S", "JS"]]
    tap(a, url, page_a, "rank:Q")  # A's next card still goes to the spade meld
    assert shared(match)["sides"][0]["melds"] == [["9S", "10S", "JS", "QS"]]


def test_a_save_from_a_screen_another_phone_overtook_is_refused_once(user, make_match):
    match = make_match("biriba")
    url = new_url(match)
    a, b = phone(user), phone(user)
    keys = ["trump:S", *run("H", "3 4 5"), "pot:0", "side:1", *run("S", "3 4 5"), "pot:1"]
    page_a = press(a, url, "", *keys)
    press(b, url, "", "side:1", "target:hand", "rank:K")  # B adds K♥, which A has not seen
    refused = tap(a, url, page_a, "save")
    assert refused.status_code == 200
    assert 'data-message="draft_changed"' in refused.content.decode()
    assert "changed on another phone since your screen was drawn" in text(refused)
    assert not Deal.objects.exists()
    # A now sees B's card, and saves deliberately
    assert json.loads(draft_of(refused))["sides"][1]["hand"] == ["KH"]
    saved = tap(a, url, refused, "save")
    assert saved.headers.get("HX-Redirect") == reverse("match_detail", args=[match.pk])
    assert Deal.objects.get(match=match).data["sides"][1]["hand"] == ["KH"]


def test_a_saved_deal_clears_the_deal_in_progress_for_every_phone(user, make_match):
    match = make_match("biriba")
    url = new_url(match)
    a, b = phone(user), phone(user)
    keys = ["trump:S", *run("H", "3 4 5"), "pot:0", "side:1", *run("S", "3 4 5"), "pot:1"]
    page = press(a, url, "", *keys)
    assert tap(a, url, page, "save").headers.get("HX-Redirect")
    assert Deal.objects.get(match=match).saved_by == "anna"
    assert not DealDraft.objects.filter(match=match).exists()
    assert json.loads(draft_of(b.get(url)))["sides"][0]["melds"] == []  # deal 2, empty
    assert 'data-entry-deal="2"' in b.get(url).content.decode()


def test_the_deal_in_progress_survives_logging_out_and_in(client, user, make_match):
    match = make_match("biriba")
    url = new_url(match)
    client.force_login(user)
    press(client, url, "", *run("C", "9 10 J"))
    client.post(reverse("logout"))
    client.force_login(user)
    assert json.loads(draft_of(client.get(url)))["sides"][0]["melds"] == [["9C", "10C", "JC"]]


@pytest.mark.parametrize("htmx", [False, True])
def test_a_tap_after_logging_out_elsewhere_says_so_and_loses_nothing(
    client, user, make_match, htmx
):
    match = make_match("biriba")
    url = new_url(match)
    client.force_login(user)
    page = press(client, url, "", *run("C", "9 10 J"))
    client.logout()  # another tab logged out
    response = client.post(url, posted_by(page, "rank:Q"), headers=HTMX if htmx else {})
    if htmx:
        body = response.content.decode()
        assert response.status_code == 403 and 'id="entry"' in body
        assert 'data-message="logged_out"' in body
        assert f"?next={url}" in body
    else:
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert shared(match)["sides"][0]["melds"] == [["9C", "10C", "JC"]]
    client.force_login(user)
    assert json.loads(draft_of(client.get(url)))["sides"][0]["melds"] == [["9C", "10C", "JC"]]


def test_deleting_the_last_deal_keeps_the_next_deal_in_progress(auth_client, make_match):
    """Deal 3 is deleted while deal 4 is being entered: what was entered is now deal 3's; a
    save from the page drawn for deal 4 says so instead of storing it under another number."""
    from scorekeeper import services

    match = make_match("burraco", deals=3)
    url = new_url(match)
    page = press(auth_client, url, "", *run("H", "3 4 5"))
    assert 'data-entry-deal="4"' in page.content.decode()
    services.deal_delete_last(match=fresh(match))
    refused = tap(auth_client, url, page, "save")
    assert 'data-message="deal_renumbered"' in refused.content.decode()
    assert 'data-entry-deal="3"' in refused.content.decode()
    assert json.loads(draft_of(refused))["sides"][0]["melds"] == [["3H", "4H", "5H"]]
    assert match.deals.count() == 2


def test_a_deleted_deal_takes_its_correction_in_progress_with_it(auth_client, make_match):
    from scorekeeper import services

    match = make_match("burraco", deals=2)
    edit = reverse("deal_edit", args=[match.pk, 2])
    press(auth_client, edit, "", "side:1", "pot:1")
    assert DealDraft.objects.filter(match=match, editing=True).count() == 1
    services.deal_delete_last(match=fresh(match))
    assert not DealDraft.objects.filter(match=match, editing=True).exists()


@pytest.mark.django_db(transaction=True)
def test_two_phones_tapping_the_same_side_at_once_keep_every_tap(make_match):
    """Threads with their own connections (PostgreSQL's row lock; SQLite's IMMEDIATE
    transactions): 2 × 12 taps on one side at once, each applied exactly once."""
    match = make_match("burraco")
    entry_services.draft_open(match=match, number=1, editing=False, initial=lambda: {"cards": []})

    def phone_taps(name: str):
        def run_taps():
            for i in range(12):
                entry_services.draft_tap(
                    match=fresh(match),
                    number=1,
                    editing=False,
                    tap=f"{name}-{i}",
                    change=lambda content, i=i: ({"cards": [*content["cards"], f"{name}{i}"]}, {}),
                    by=name,
                )

        return run_taps

    _results, errors = at_once(phone_taps("a"), phone_taps("b"))
    assert errors == []
    cards = shared(match)["cards"]
    assert sorted(cards) == sorted([f"a{i}" for i in range(12)] + [f"b{i}" for i in range(12)])
    assert [c for c in cards if c.startswith("a")] == [f"a{i}" for i in range(12)]  # in order
    assert DealDraft.objects.get(match=match).version == 24


def test_a_post_that_says_no_page_applies_nothing_and_begins_nothing(auth_client, make_match):
    """A tap queued on a page that became another (deal saved meanwhile) reaches the site with
    no draft, deal or version: no key is applied, no deal in progress begins."""
    match = make_match("burraco", deals=1)
    url = new_url(match)
    for action in ("rank:6", "save", "suit:S"):
        response = auth_client.post(url, {"action": action, "tap": f"t-{action}"}, headers=HTMX)
        assert response.status_code == 200
        assert 'data-message="entry_unreadable"' in response.content.decode()
    assert not DealDraft.objects.exists()
    assert Deal.objects.filter(match=match).count() == 1


# --- races with another phone's save, forced in order (found by benchmarks/load.py) -----------


def _other_phone_saves(match) -> None:
    """What another phone's Save does: the deal stored, the deal in progress consumed."""
    services.deal_record(
        match=Match.objects.get(pk=match.pk),
        data=deal_for(match.game, Match.objects.get(pk=match.pk).deal_count),
        by="Babis",
    )
    DealDraft.objects.filter(match=match, editing=False).delete()


def test_a_tap_racing_another_phone_s_save_is_told_not_kept_under_a_stored_number(
    auth_client, make_match, monkeypatch
):
    """The other phone saves after this request read the match and before it opened the
    deal in progress: the tap is not applied to a deal 4 that is stored already (where it
    would be lost at the first tap of deal 5): the phone is told deal 4 was saved."""
    match = make_match("burraco", deals=3)
    url = new_url(match)
    page = auth_client.get(url)
    real_open = entry_views.draft_open

    def open_after_the_other_save(**kwargs):
        _other_phone_saves(match)
        return real_open(**kwargs)

    monkeypatch.setattr(entry_views, "draft_open", open_after_the_other_save)
    response = tap(auth_client, url, page, "suit:H")
    assert response.status_code == 200
    assert 'data-message="deal_saved_meanwhile"' in response.content.decode()
    assert "Deal 4 was saved by Babis" in text(response)
    assert not DealDraft.objects.filter(match=match).exists()


@pytest.mark.parametrize("refusal", [None, "draft_changed"])
def test_a_save_racing_another_phone_s_save_is_told_who_saved(
    refusal, auth_client, make_match, monkeypatch
):
    """Both phones press Save on deal 4 at once: the other's goes first. This one is told
    (never a server error), whether its own save finds the deal in progress gone, or is
    refused as overtaken and then finds it gone."""
    match = make_match("burraco", deals=3)
    url = new_url(match)
    page = press(auth_client, url, "", *run("H", "3 4 5"), "pot:0", "side:1", "pot:1")
    real_save = entry_views.deal_save

    def save_after_the_other(**kwargs):
        _other_phone_saves(match)
        if refusal:
            raise RuleError(refusal, "deal {number} was changed on another phone", number=4)
        return real_save(**kwargs)

    monkeypatch.setattr(entry_views, "deal_save", save_after_the_other)
    response = auth_client.post(url, posted_by(page, "save"), headers=HTMX)
    assert response.status_code == 200
    assert 'data-message="deal_saved_meanwhile"' in response.content.decode()
    assert list(Deal.objects.filter(match=match).values_list("number", flat=True)) == [1, 2, 3, 4]


def test_a_resent_tap_does_not_say_another_phone_changed_the_deal(auth_client, make_match):
    match = make_match("biriba")
    url = new_url(match)
    page = press(auth_client, url, "", "suit:S")
    fields = posted_by(page, "rank:3")
    first = auth_client.post(url, fields, headers=HTMX)
    again = auth_client.post(url, fields, headers=HTMX)
    assert 'data-message="draft_overtaken"' not in again.content.decode()
    assert shared(match)["sides"][0]["melds"] == [["3S"]]
    assert first.status_code == again.status_code == 200


def test_a_phone_s_session_remembers_a_few_deal_entries_only(auth_client, make_match):
    from scorekeeper.entry.views import VIEWS_KEPT

    match = make_match("biriba", deals=12)
    for number in range(1, 13):  # twelve corrections opened, a tap each, none saved
        url = reverse("deal_edit", args=[match.pk, number])
        press(auth_client, url, draft_of(auth_client.get(url)), "side:1")
    views = [k for k in auth_client.session.keys() if k.startswith("entry-view:")]
    assert len(views) == VIEWS_KEPT
    assert views[-1] == f"entry-view:{match.pk}:edit:12"
    assert f"entry-view:{match.pk}:edit:1" not in views


def test_a_save_is_taken_when_other_phones_tapped_only_on_sides_it_did_not_show(user, make_match):
    """Issue 24, item 7: a save was refused whenever any other phone had tapped since the
    saver's screen was drawn (17-20 refusals a save with three phones tapping). Steps on the
    sides the screen did not have open are no reason: the deal is saved with them, and the
    answer names them."""
    match = make_match("biriba")
    url = new_url(match)
    a, b = phone(user), phone(user)
    keys = ["trump:S", *run("H", "3 4 5"), "pot:0", "side:1", *run("S", "3 4 5"), "pot:1"]
    page_a = press(a, url, "", *keys, "side:0")  # A has Anna & Chris's side open
    press(b, url, "", "side:1", "target:hand", "suit:D", "rank:9", "rank:10")  # B, elsewhere
    saved = tap(a, url, page_a, "save")
    assert saved.headers.get("HX-Redirect") == reverse("match_detail", args=[match.pk])
    assert Deal.objects.get(match=match).data["sides"][1]["hand"] == ["9D", "10D"]
    board = text(a.get(reverse("match_detail", args=[match.pk])))
    assert "Deal 1 saved. Also in this deal, from other phones: Babis & Dora 9♦ 10♦." in board


@pytest.mark.parametrize(
    "step",
    [
        ["side:0", "target:hand", *run("C", "9")],  # a card on the side A has open
        ["pot_no:1"],  # an answer A's save asks
        ["trump:H"],  # the trump
    ],
)
def test_a_save_is_refused_once_when_a_step_changed_what_the_screen_showed(step, user, make_match):
    match = make_match("biriba")
    url = new_url(match)
    a, b = phone(user), phone(user)
    keys = ["trump:S", *run("H", "3 4 5"), "pot:0", "side:1", *run("S", "3 4 5"), "pot:1"]
    page_a = press(a, url, "", *keys, "side:0")
    press(b, url, "", *step)
    refused = tap(a, url, page_a, "save")
    assert 'data-message="draft_changed"' in refused.content.decode()
    assert not Deal.objects.exists()
    if step == ["pot_no:1"]:  # Babis & Dora did not take the pot: their deal is not legal
        return
    saved = tap(a, url, refused, "save")  # the second press, from the answer, is taken
    assert saved.headers.get("HX-Redirect") == reverse("match_detail", args=[match.pk])
