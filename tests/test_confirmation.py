"""Confirmation by the other side (scorekeeper/confirmation/): a deal saved by one side waits,
out of the totals, until a player of another side accepts it, or rejects it with a reason."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scorekeeper import services
from scorekeeper.access import GUEST_COOKIE, guest_key_digest_of, guest_key_new
from scorekeeper.confirmation import services as confirmation
from scorekeeper.confirmation.selectors import Right, counted_result, review_right
from scorekeeper.history.document import match_export_document
from scorekeeper.history.record import Actor
from scorekeeper.models import Deal, DealDraft, Match, MatchChange
from scorekeeper.rules.base import MatchHeader, MatchResult
from scorekeeper.rules.errors import RuleError
from scorekeeper.selectors import match_scored
from scorekeeper.sharing import services as sharing
from tests.conftest import HTMX, PLAYERS4, deal_for, rummy_deal, text

pytestmark = pytest.mark.django_db

ANNA, BABIS, CHRIS, DORA = (Actor(name, seat=seat) for seat, name in enumerate(PLAYERS4))


def fresh(match: Match) -> Match:
    return Match.objects.get(pk=match.pk)


def status(match: Match, number: int) -> str:
    return Deal.objects.get(match=match, number=number).status


def points(match: Match) -> list[list[int]]:
    """Each deal's points per column, as the rules score the whole match (every deal)."""
    _, result, _ = match_scored(fresh(match))
    running = [[0] * len(result.totals), *result.running]
    return [
        [a - b for a, b in zip(after, before, strict=True)]
        for before, after in zip(running, running[1:], strict=False)
    ]


# --- the totals leave out what is not accepted ------------------------------------------------


def test_counted_result_leaves_deals_out_of_the_totals_and_the_running_totals():
    result = MatchResult(
        deal_scores=[{}, {}, {}],
        totals=[60, 6],
        finished=True,
        winner=0,
        running=[[10, 1], [30, 3], [60, 6]],
    )
    counted = counted_result(result, {2})
    assert counted.running == [[10, 1], [10, 1], [40, 4]]
    assert counted.totals == [40, 4]
    assert (counted.finished, counted.winner) == (False, None)
    assert counted_result(result, set()) is result


def test_a_saved_deal_waits_out_of_the_totals_and_the_next_deal_can_be_entered(make_match):
    match = make_match("biriba", confirmation=True)
    services.deal_record(match=match, data=deal_for("biriba", 0), by=ANNA)
    assert status(match, 1) == "waiting" and fresh(match).totals == [0, 0]
    services.deal_record(match=match, data=deal_for("biriba", 1), by=BABIS)  # deal 2 meanwhile
    each = points(match)
    assert fresh(match).totals == [0, 0] and fresh(match).deal_count == 2
    confirmation.deal_confirm(match=match, number=2, by=ANNA)
    assert fresh(match).totals == each[1]
    confirmation.deal_confirm(match=match, number=1, by=BABIS)
    assert fresh(match).totals == [each[0][k] + each[1][k] for k in range(2)]


def test_without_the_house_rule_a_deal_counts_at_once(make_match):
    match = make_match("biriba", deals=2)
    assert set(Deal.objects.filter(match=match).values_list("status", flat=True)) == {"counted"}
    with pytest.raises(RuleError) as refused:
        confirmation.deal_confirm(match=match, number=1, by=BABIS)
    assert refused.value.code == "deal_not_waiting"


def test_a_player_of_the_other_side_accepts_and_the_history_says_who(make_match):
    match = make_match("burraco", confirmation=True)
    services.deal_record(match=match, data=deal_for("burraco", 0), by=ANNA)
    assert fresh(match).totals == [0, 0]
    for partner in (ANNA, CHRIS):
        with pytest.raises(RuleError) as refused:
            confirmation.deal_confirm(match=match, number=1, by=partner)
        assert refused.value.code == "not_for_you_to_confirm"
        assert "Babis" in refused.value.message and "Dora" in refused.value.message
    assert confirmation.deal_confirm(match=match, number=1, by=DORA) == Right.SIDE
    assert fresh(match).totals == points(match)[0]
    change = match.changes.get(kind=MatchChange.Kind.CONFIRMED)
    assert (change.by, change.number, change.detail) == ("Dora", 1, {})
    assert change.points_after == points(match)[0]


def test_in_barbu_any_other_player_accepts(make_match):
    match = make_match("barbu", confirmation=True)
    services.deal_record(match=match, data=deal_for("barbu", 0), by=CHRIS)
    with pytest.raises(RuleError):
        confirmation.deal_confirm(match=match, number=1, by=CHRIS)
    confirmation.deal_confirm(match=match, number=1, by=ANNA)  # Anna declared: she may too
    assert status(match, 1) == "counted"
    assert fresh(match).totals == points(match)[0]


def test_the_owner_accepts_on_behalf_of_a_table_with_one_phone(make_match):
    match = make_match("biriba", confirmation=True)
    services.deal_record(match=match, data=deal_for("biriba", 0), by=Actor("anna", seat=0))
    assert (
        confirmation.deal_confirm(match=match, number=1, by=Actor("anna", seat=0), as_owner=True)
        == Right.BEHALF
    )
    assert match.changes.get(kind="confirmed").detail == {"on_behalf": True}


def test_who_said_no_seat_may_review_what_someone_else_saved():
    header = MatchHeader(game="biriba", players=tuple(PLAYERS4), first_dealer=0)
    deal = Deal(number=1, data={}, status="waiting", saved_by="Eleni", saved_seat=None)
    assert review_right(header, deal, BABIS, is_owner=False) == Right.SIDE
    assert review_right(header, deal, Actor("Eleni", seat=1), is_owner=False) is None
    assert review_right(header, deal, Actor("Fotis"), is_owner=False) is None
    assert review_right(header, deal, Actor("anna"), is_owner=True) == Right.BEHALF
    deal.saved_seat = 1
    assert review_right(header, deal, ANNA, is_owner=False) == Right.SIDE
    assert review_right(header, deal, DORA, is_owner=False) is None


# --- a rejection ------------------------------------------------------------------------------


def test_a_rejected_deal_waits_for_its_correction_with_the_reason(make_match):
    match = make_match("biriba", deals=1, confirmation=True)
    confirmation.deal_confirm(match=match, number=1, by=Actor("anna"), as_owner=True)
    services.deal_record(match=match, data=deal_for("biriba", 1), by=ANNA)
    counted = list(fresh(match).totals)
    DealDraft.objects.create(match=match, number=2, editing=True, data={"x": 1})
    with pytest.raises(RuleError) as refused:
        confirmation.deal_reject(match=match, number=2, reason="  ", by=BABIS)
    assert refused.value.code == "reason_needed"
    confirmation.deal_reject(match=match, number=2, reason="we  took\nthe pot", by=BABIS)
    deal = Deal.objects.get(match=match, number=2)
    assert (deal.status, deal.rejected_by, deal.reason) == ("rejected", "Babis", "we took the pot")
    assert fresh(match).totals == counted  # still out of the totals
    assert not DealDraft.objects.filter(match=match, number=2, editing=True).exists()
    change = match.changes.get(kind="rejected")
    assert change.detail == {"reason": "we took the pot"}
    with pytest.raises(RuleError) as refused:
        confirmation.deal_confirm(match=match, number=2, by=BABIS)
    assert refused.value.code == "deal_not_waiting"
    # corrected by Anna: it waits for the other side again, the reason gone
    services.deal_correct(match=match, number=2, data=rummy_deal("biriba", 1), by=ANNA)
    deal.refresh_from_db()
    assert (deal.status, deal.reason, deal.rejected_by) == ("waiting", "", "")
    confirmation.deal_confirm(match=match, number=2, by=DORA)
    assert fresh(match).totals == [sum(p[k] for p in points(match)) for k in range(2)]


def test_a_reason_has_a_bound_and_a_stale_page_is_refused(make_match):
    match = make_match("biriba", confirmation=True)
    services.deal_record(match=match, data=deal_for("biriba", 0), by=ANNA)
    with pytest.raises(RuleError) as refused:
        confirmation.deal_reject(match=match, number=1, reason="x" * 1001, by=BABIS)
    assert refused.value.code == "reason_too_long"
    with pytest.raises(RuleError) as refused:
        confirmation.deal_confirm(match=match, number=1, by=BABIS, drawn_from="0" * 16)
    assert refused.value.code == "deal_changed"
    with pytest.raises(RuleError) as refused:
        confirmation.deal_confirm(match=match, number=5, by=BABIS)
    assert refused.value.code == "deal_gone"
    assert status(match, 1) == "waiting"
    assert not match.changes.filter(kind__in=["confirmed", "rejected"]).exists()


def test_the_match_finishes_when_its_last_deal_is_accepted(make_match):
    match = make_match("barbu", confirmation=True)
    owner = Actor("anna", seat=0)
    for i in range(28):
        services.deal_record(match=match, data=deal_for("barbu", i), by=owner)
        if i < 27:
            confirmation.deal_confirm(match=match, number=i + 1, by=BABIS)
    assert not fresh(match).is_finished  # every deal is in, the last waits
    assert not match.changes.filter(kind="finished").exists()
    confirmation.deal_confirm(match=match, number=28, by=BABIS)
    assert fresh(match).is_finished
    assert fresh(match).totals == [sum(p[k] for p in points(match)) for k in range(4)]
    assert match.changes.filter(kind="finished").count() == 1


def test_a_deal_put_back_or_undone_waits_again(make_match):
    match = make_match("burraco", confirmation=True)
    services.deal_record(match=match, data=deal_for("burraco", 0), by=ANNA)
    confirmation.deal_confirm(match=match, number=1, by=BABIS)
    services.deal_delete(match=match, number=1, by=ANNA)
    services.deal_restore(match=match, change=match.changes.get(kind="deleted").pk, by=CHRIS)
    deal = Deal.objects.get(match=match, number=1)
    assert (deal.status, deal.saved_seat) == ("waiting", 2)


# --- who plays where --------------------------------------------------------------------------


def test_a_seat_is_said_once_per_match(make_match):
    match = make_match("barbu", confirmation=True)
    link = sharing.share_link_get_or_create(match=match, kind="score")
    eleni = sharing.member_join(link=link, guest_key="a" * 64, name="Eleni")
    fotis = sharing.member_join(link=link, guest_key="b" * 64, name="Fotis")
    confirmation.seat_claim(match=match, member=None, seat=0)
    confirmation.seat_claim(match=match, member=eleni, seat=1)
    with pytest.raises(RuleError) as refused:
        confirmation.seat_claim(match=match, member=fotis, seat=1)
    assert refused.value.code == "seat_taken" and "Eleni" in refused.value.message
    with pytest.raises(RuleError) as refused:
        confirmation.seat_claim(match=match, member=fotis, seat=0)
    assert "anna" in refused.value.message
    confirmation.seat_claim(match=match, member=eleni, seat=1)  # saying it again is harmless
    sharing.member_remove(member=eleni)
    confirmation.seat_claim(match=match, member=fotis, seat=1)  # a removed phone's seat is free
    with pytest.raises(RuleError):
        confirmation.seat_claim(match=match, member=None, seat=4)
    confirmation.seat_claim(match=match, member=None, seat=None)
    assert fresh(match).owner_seat is None


# --- through the scoreboard ---------------------------------------------------------------------


def scoreboard_post(client, match: Match, **data: str):
    return client.post(reverse("match_detail", args=[match.pk]), data, headers=HTMX)


def test_two_phones_through_the_scoreboard(client, auth_client, make_match):
    match = make_match("biriba", confirmation=True)
    link = sharing.share_link_get_or_create(match=match, kind="score")
    key = guest_key_new()
    sharing.member_join(link=link, guest_key=guest_key_digest_of(key), name="Babis")
    guest = type(client)()
    guest.cookies[GUEST_COOKIE] = key

    page = scoreboard_post(auth_client, match, action="seat", seat="0").content.decode()
    assert "you play as Anna" in text_of(page)
    assert '<option value="0" selected>Anna' in page
    scoreboard_post(guest, match, action="seat", seat="1")
    services.deal_record(match=match, data=deal_for("biriba", 0), by=Actor("anna", seat=0))

    owner_page = auth_client.get(reverse("match_detail", args=[match.pk])).content.decode()
    guest_page = guest.get(reverse("match_detail", args=[match.pk])).content.decode()
    assert 'data-waiting="1"' in owner_page and 'data-waiting="1"' in guest_page
    assert 'data-accept="1"' in guest_page
    assert "Accept deal 1 for the table" in text_of(owner_page)  # the owner, on behalf
    assert 'data-total="0">0<' in guest_page  # not counted yet

    base = services.deal_fingerprint(Deal.objects.get(match=match, number=1).data)
    page = text(scoreboard_post(guest, match, action="reject", number="1", base=base, reason=""))
    assert status(match, 1) == "waiting" and "say what is wrong with deal 1" in page
    page = text(
        scoreboard_post(guest, match, action="reject", number="1", base=base, reason="4 aces")
    )
    assert "Deal 1 rejected" in page and "4 aces" in page and status(match, 1) == "rejected"
    correction = auth_client.get(reverse("deal_edit", args=[match.pk, 1])).content.decode()
    assert 'data-message="deal_rejected"' in correction and "4 aces" in correction

    services.deal_correct(match=match, number=1, data=rummy_deal("biriba", 1), by="anna")
    base = services.deal_fingerprint(Deal.objects.get(match=match, number=1).data)
    scoreboard_post(guest, match, action="confirm", number="1", base=base)
    assert status(match, 1) == "counted"
    assert fresh(match).totals == points(match)[0]
    history = auth_client.get(reverse("match_history", args=[match.pk])).content.decode()
    assert "Babis confirmed deal 1" in text_of(history)
    assert "Babis rejected deal 1" in text_of(history) and "4 aces" in history


def text_of(page: str) -> str:
    import html
    import re

    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def test_a_watcher_sees_what_waits_without_buttons(client, make_match):
    match = make_match("biriba", confirmation=True)
    services.deal_record(match=match, data=deal_for("biriba", 0), by=ANNA)
    link = sharing.share_link_get_or_create(match=match, kind="watch")
    page = client.get(reverse("watch", args=[link.token])).content.decode()
    assert 'data-waiting="1"' in page and "data-accept" not in page and "data-seat" not in page


def test_the_new_match_page_sets_the_house_rule(auth_client):
    form = auth_client.get(reverse("match_new"), {"game": "barbu"}).context["form"]
    data = {"game": "barbu", "seats": "4", "first_dealer": "0"}
    data |= {f"player_{seat}": name for seat, name in enumerate(PLAYERS4)}
    data |= {
        name: field.initial
        for name, field in form.fields.items()
        if name.startswith("opt_") and field.initial is not None
    }
    assert form["confirmation"].value() == "off"
    auth_client.post(reverse("match_new"), {**data, "confirmation": "on"})
    auth_client.post(reverse("match_new"), data)
    assert [m.confirmation for m in Match.objects.order_by("pk")] == [True, False]


def test_the_history_of_confirmations_travels_with_the_match(user, make_match):
    match = make_match("biriba", confirmation=True)
    services.deal_record(match=match, data=deal_for("biriba", 0), by=ANNA)
    confirmation.deal_reject(match=match, number=1, reason="« non »", by=BABIS)
    services.deal_correct(match=match, number=1, data=rummy_deal("biriba", 2), by=ANNA)
    confirmation.deal_confirm(match=match, number=1, by=Actor("anna"), as_owner=True)
    exported = match_export_document(fresh(match))
    kinds = [(c["kind"], c.get("reason"), c.get("on_behalf")) for c in exported["changes"]]
    assert ("rejected", "« non »", None) in kinds and ("confirmed", None, True) in kinds
    again = services.match_import(owner=user, document=exported)
    assert match_export_document(again) == exported


def test_a_co_scorer_named_as_a_player_plays_in_that_seat(make_match):
    match = make_match("biriba", confirmation=True)
    link = sharing.share_link_get_or_create(match=match, kind="score")
    confirmation.seat_claim(match=match, member=None, seat=3)  # the owner plays as Dora
    babis = sharing.member_join(link=link, guest_key="a" * 64, name="  BABIS ")
    dora = sharing.member_join(link=link, guest_key="b" * 64, name="Dora")
    eleni = sharing.member_join(link=link, guest_key="c" * 64, name="Eleni")
    assert (babis.seat, dora.seat, eleni.seat) == (1, None, None)
