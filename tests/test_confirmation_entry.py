"""The entry pages under the confirmation by the other side: the totals they show (the preview,
the sticky standing line, "to go") leave out the deals waiting for the other side or rejected
by it, as the scoreboard's do (docs/decisions.md, "Confirmation by the other side")."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scorekeeper import services
from scorekeeper.confirmation import services as confirmation
from scorekeeper.confirmation.selectors import left_out
from scorekeeper.history.record import Actor
from scorekeeper.models import Deal, Match
from scorekeeper.scoreboard import board_whole
from scorekeeper.selectors import match_queryset, match_scored
from scorekeeper.templatetags.score_tags import points
from tests.conftest import barbu_deal, press, rummy_deal, run

pytestmark = pytest.mark.django_db

ANNA, BABIS = Actor("anna", seat=0), Actor("Babis", seat=1)


def fresh(match: Match) -> Match:
    return Match.objects.get(pk=match.pk)


def board_totals(match: Match) -> list[int]:
    """The totals the scoreboard shows."""
    return [c["total"] for c in board_whole(fresh(match))["columns"]]


def played(match: Match, deals: list[dict], *, waiting: set[int]) -> Match:
    """``deals`` saved by Anna, each accepted by Babis but those in ``waiting``."""
    for number, data in enumerate(deals, start=1):
        services.deal_record(match=match, data=data, by=ANNA)
        if number not in waiting:
            confirmation.deal_confirm(match=match, number=number, by=BABIS)
    return fresh(match)


# --- Barbu -------------------------------------------------------------------------------------

#: Deal 5 names no_queens (Anna declares the first seven deals): none of these four names it.
BARBU_FIRST = [barbu_deal(i) for i in (0, 1, 3, 4)]
NO_QUEENS = ["contract:no_queens", "double:2:0:1", "count:queens:4"]


@pytest.fixture
def barbu_waiting(make_match) -> Match:
    """Deals 1 to 3 accepted, deal 4 waiting for the other side (the probe's table)."""
    return played(make_match("barbu", confirmation=True), BARBU_FIRST, waiting={4})


def test_barbu_standing_before_the_deal_leaves_the_waiting_deal_out(auth_client, barbu_waiting):
    counted = board_totals(barbu_waiting)
    assert counted == fresh(barbu_waiting).totals
    response = auth_client.get(reverse("deal_new", args=[barbu_waiting.pk]))
    assert [c["total"] for c in response.context["standing"]] == counted


def test_barbu_preview_and_standing_after_the_deal_leave_the_waiting_deal_out(
    auth_client, barbu_waiting
):
    counted = board_totals(barbu_waiting)
    response = press(auth_client, reverse("deal_new", args=[barbu_waiting.pk]), "", *NO_QUEENS)
    preview = response.context["preview"]
    assert preview["ok"], preview
    deal = [c["total"] for c in preview["columns"]]
    after = [t + d for t, d in zip(counted, deal, strict=True)]
    assert [c["running"] for c in preview["columns"]] == after
    assert [c["total"] for c in response.context["standing"]] == after
    assert not preview["finished"]


def test_barbu_correction_of_a_later_deal_leaves_an_earlier_waiting_deal_out(
    auth_client, make_match
):
    match = played(make_match("barbu", confirmation=True), BARBU_FIRST, waiting={2})
    board = board_whole(fresh(match))
    before = [cell["running"] for cell in board["rows"][2]["cells"]]  # after deal 3, counted
    response = auth_client.get(reverse("deal_edit", args=[match.pk, 4]))
    preview = response.context["preview"]
    assert preview["ok"], preview
    deal = [c["total"] for c in preview["columns"]]
    after = [b + d for b, d in zip(before, deal, strict=True)]
    assert [c["running"] for c in preview["columns"]] == after
    assert [c["running"] for c in board["rows"][3]["cells"]] == after  # as the scoreboard says


def test_barbu_correction_of_the_waiting_deal_itself_counts_what_it_would_bring(
    auth_client, make_match
):
    match = played(make_match("barbu", confirmation=True), BARBU_FIRST, waiting={1, 2})
    response = auth_client.get(reverse("deal_edit", args=[match.pk, 2]))
    preview = response.context["preview"]
    assert preview["ok"], preview
    # deal 1 is left out; deal 2, being corrected, is what the page would save
    assert [c["running"] for c in preview["columns"]] == [c["total"] for c in preview["columns"]]


# --- rummy -------------------------------------------------------------------------------------

#: A deal that adds up, its pots answered.
RUMMY_DEAL = ["trump:D", *run("H", "3 4 5"), "pot:0", "side:1", *run("S", "6 7 8"), "pot:1"]


@pytest.fixture
def biriba_waiting(make_match) -> Match:
    """Deals 1 and 3 accepted, deal 2 waiting for the other side."""
    match = make_match("biriba", confirmation=True, rules={"target": 3000})
    return played(match, [rummy_deal("biriba", i) for i in range(3)], waiting={2})


def test_rummy_sticky_bar_and_to_go_leave_the_waiting_deal_out(auth_client, biriba_waiting):
    counted = board_totals(biriba_waiting)
    assert counted != services_totals_every_deal(biriba_waiting)  # the rules count deal 2
    response = press(auth_client, reverse("deal_new", args=[biriba_waiting.pk]), "", *RUMMY_DEAL)
    verdict = response.context["verdict"]
    assert verdict["ok"], verdict
    deal = [line["score"] for line in verdict["lines"]]
    after = [t + d for t, d in zip(counted, deal, strict=True)]
    assert [line["total"] for line in verdict["lines"]] == after
    assert [line["to_go"] for line in verdict["lines"]] == [3000 - t for t in after]
    bar = response.content.decode().split('class="bar-totals"', 1)[1].split("</ul>", 1)[0]
    for total, to_go in zip(after, (3000 - t for t in after), strict=True):
        assert f'<strong class="bar-total">{points(total)}</strong>' in bar
        assert f"{points(to_go)} to go" in bar


def test_rummy_totals_while_the_deal_does_not_add_up_leave_the_waiting_deal_out(
    auth_client, biriba_waiting
):
    counted = board_totals(biriba_waiting)
    response = press(
        auth_client, reverse("deal_new", args=[biriba_waiting.pk]), "", *run("H", "3 4")
    )
    verdict = response.context["verdict"]
    assert not verdict["ok"]
    assert [line["total"] for line in verdict["lines"]] == counted


def test_rummy_correction_of_an_earlier_deal_leaves_the_waiting_deal_out(
    auth_client, biriba_waiting
):
    board = board_whole(fresh(biriba_waiting))
    response = auth_client.get(reverse("deal_edit", args=[biriba_waiting.pk, 3]))
    verdict = response.context["verdict"]
    assert [line["total"] for line in verdict["lines"]] == [
        cell["running"] for cell in board["rows"][2]["cells"]
    ]
    # a deal before the waiting one: nothing to leave out before it
    response = auth_client.get(reverse("deal_edit", args=[biriba_waiting.pk, 1]))
    assert [line["total"] for line in response.context["verdict"]["lines"]] == [
        cell["running"] for cell in board["rows"][0]["cells"]
    ]


def test_rummy_a_deal_reaching_the_target_only_with_the_waiting_deal_does_not_end_it(
    auth_client, make_match
):
    # the waiting deal brings 15 / 5, this one 15 / 20: 30 / 25 with it, 15 / 20 without
    match = make_match("biriba", confirmation=True, rules={"target": 25})
    match = played(match, [rummy_deal("biriba", 0)], waiting={1})
    response = press(auth_client, reverse("deal_new", args=[match.pk]), "", *RUMMY_DEAL)
    verdict = response.context["verdict"]
    assert [line["total"] for line in verdict["lines"]] == [15, 20]
    assert [line["to_go"] for line in verdict["lines"]] == [10, 5]
    assert verdict["ok"] and verdict["finished"] == ""


def test_without_the_house_rule_the_entry_totals_are_every_deal_s(auth_client, make_match):
    match = make_match("biriba", rules={"target": 3000})
    for i in range(3):
        services.deal_record(match=match, data=rummy_deal("biriba", i), by=ANNA)
    response = press(auth_client, reverse("deal_new", args=[match.pk]), "", *RUMMY_DEAL)
    verdict = response.context["verdict"]
    deal = [line["score"] for line in verdict["lines"]]
    assert [line["total"] for line in verdict["lines"]] == [
        t + d for t, d in zip(fresh(match).totals, deal, strict=True)
    ]


def test_left_out_reads_the_kept_running_totals_else_scores_the_match(make_match):
    match = make_match("biriba", confirmation=True)
    match = played(match, [rummy_deal("biriba", i) for i in range(3)], waiting={2})
    every = match_scored(fresh(match))[1].running
    second = [a - b for a, b in zip(every[1], every[0], strict=True)]
    assert left_out(fresh(match)) == second
    assert left_out(fresh(match), before=2) is None and left_out(fresh(match), before=3) == second
    prefetched = match_queryset().get(pk=match.pk)
    assert left_out(prefetched) == second and left_out(prefetched, before=2) is None
    Deal.objects.filter(match=match).update(running=None)  # stored before they were kept
    assert left_out(fresh(match)) == second
    assert left_out(make_match("biriba", deals=2)) is None  # no confirmation: nothing left out


def services_totals_every_deal(match: Match) -> list[int]:
    """The totals of every deal stored, waiting or not (the rules' own)."""
    return list(match_scored(fresh(match))[1].totals)
