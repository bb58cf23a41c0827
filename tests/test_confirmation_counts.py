"""How many deals the scoreboard and the watch view count under the confirmation by the other
side: ``data-deal-count`` is the deals counted in the totals (a deal waiting for the other side
or rejected by it is not, /work/shared/test-hooks.md), while the next deal's number, its
dealer or declarer and "Deal N of 28" count every deal stored, waiting or not."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scorekeeper import services
from scorekeeper.confirmation import services as confirmation
from scorekeeper.history.record import Actor
from scorekeeper.models import Match
from scorekeeper.scoreboard import board_whole, board_window
from scorekeeper.sharing import services as sharing
from scorekeeper.sharing.views import watch_board
from tests.conftest import deal_for, text

pytestmark = pytest.mark.django_db

ANNA, BABIS = Actor("anna", seat=0), Actor("Babis", seat=1)


def fresh(match: Match) -> Match:
    return Match.objects.get(pk=match.pk)


def deal_count(html: str) -> str:
    found = re.search(r'data-deal-count="([^"]*)"', html)
    assert found, "no data-deal-count on the page"
    return found.group(1)


@pytest.fixture
def barbu_waiting(make_match) -> Match:
    """Barbu, deal 1 saved by Anna and waiting for the other side."""
    match = make_match("barbu", confirmation=True)
    services.deal_record(match=match, data=deal_for("barbu", 0), by=ANNA)
    return fresh(match)


def test_a_waiting_deal_is_stored_but_not_counted(barbu_waiting):
    board = board_whole(barbu_waiting)
    assert (board["played"], board["counted"]) == (1, 0)
    assert [c["total"] for c in board["columns"]] == [0, 0, 0, 0]
    # it is played: the next deal is deal 2, of 28, Anna declaring it still
    assert (board["next"]["number"], board["next"]["of"]) == (2, 28)
    assert board["next"]["declarer"] == "Anna"
    assert [row["number"] for row in board["rows"]] == [1]
    watched = watch_board(fresh(barbu_waiting))["board"]
    assert (watched["played"], watched["counted"]) == (1, 0)


def test_counted_follows_the_acceptances_and_the_rejections(make_match):
    match = make_match("biriba", confirmation=True)
    for i in range(3):
        services.deal_record(match=match, data=deal_for("biriba", i), by=ANNA)
    assert board_whole(fresh(match))["counted"] == 0
    confirmation.deal_confirm(match=match, number=2, by=BABIS)
    confirmation.deal_reject(match=match, number=3, reason="not our trump", by=BABIS)
    board = board_whole(fresh(match))
    assert (board["played"], board["counted"]) == (3, 1)
    confirmation.deal_confirm(match=match, number=1, by=BABIS)
    assert board_whole(fresh(match))["counted"] == 2


def test_without_the_house_rule_every_deal_is_counted(make_match):
    match = make_match("biriba", deals=3)
    board = board_window(fresh(match), 1, 3)
    assert (board["played"], board["counted"]) == (3, 3)
    assert watch_board(fresh(match))["board"]["counted"] == 3


def test_the_entry_page_counts_the_waiting_deal_as_played(auth_client, barbu_waiting):
    page = text(auth_client.get(reverse("deal_new", args=[barbu_waiting.pk])))
    assert "Deal 2 of 28 · Anna declares" in page


def test_the_pages_hook_counts_the_deals_in_the_totals(auth_client, client, barbu_waiting):
    board = auth_client.get(reverse("match_detail", args=[barbu_waiting.pk])).content.decode()
    link = sharing.share_link_get_or_create(match=barbu_waiting, kind="watch")
    watch = client.get(reverse("watch", args=[link.token])).content.decode()
    assert (deal_count(board), deal_count(watch)) == ("0", "0")
    assert "Enter deal 2" in text(auth_client.get(reverse("match_detail", args=[barbu_waiting.pk])))
