"""The history of matches, home and the players' pages cost a fixed number of SQL queries,
from 1 match to 500 (as tests/test_queries.py does for the scoreboard)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorekeeper import services
from scorekeeper.models import Game, Match, MatchSeat, Player
from tests.conftest import HTMX

pytestmark = pytest.mark.django_db

NAMES = ["Anna", "Babis", "Chris", "Dora", "Eleni", "Fotis"]


def more_matches(owner, count: int, *, start: int = 0) -> None:
    """``count`` matches of every game at once (their cache filled in as the services would):
    every other one finished, four players each taken in turn from six."""
    players = [services.player_get_or_create(owner=owner, name=name) for name in NAMES]
    games = [Game.BIRIBA, Game.BURRACO, Game.BARBU]
    made = Match.objects.bulk_create(
        Match(
            owner=owner,
            game=games[i % 3],
            rules={},
            status=Match.Status.FINISHED if i % 2 else Match.Status.IN_PROGRESS,
            winner=0 if i % 2 else None,
            totals=[i, -i, 0, 0] if games[i % 3] == Game.BARBU else [i, -i],
            deal_count=i % 9,
        )
        for i in range(start, start + count)
    )
    MatchSeat.objects.bulk_create(
        MatchSeat(match=match, seat=seat, player=players[(i + seat) % len(players)])
        for i, match in enumerate(made)
        for seat in range(4)
    )


def queries(client, url: str, params=None, headers=None) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, params or {}, headers=headers or {})
    assert response.status_code == 200, url
    return len(captured)


PAGES = [
    ("match_list", {}, None),
    ("match_list", {}, HTMX),
    ("match_list", {"game": "barbu", "q": "an", "status": "finished"}, None),
    ("match_list", {"player": "Dora", "since": "2000-01-01", "until": "2999-01-01"}, None),
    ("match_list", {"page": "2"}, None),
    ("home", {}, None),
    ("home", {}, HTMX),
    ("player_list", {}, None),
]


@pytest.mark.parametrize(("name", "params", "headers"), PAGES)
def test_the_queries_do_not_grow_with_the_matches(auth_client, user, name, params, headers):
    """From one match of each game in progress and finished (so that each list and filter has
    rows to draw) to 500."""
    url = reverse(name)
    more_matches(user, 6)
    few = queries(auth_client, url, params, headers)
    more_matches(user, 494, start=6)
    assert Match.objects.filter(owner=user).count() == 500
    assert queries(auth_client, url, params, headers) == few


@pytest.mark.parametrize("headers", [None, HTMX], ids=["plain", "htmx"])
def test_the_history_costs_as_much_for_one_match_as_for_500(auth_client, user, headers):
    url = reverse("match_list")
    more_matches(user, 1)
    one = queries(auth_client, url, headers=headers)
    more_matches(user, 499, start=1)
    assert queries(auth_client, url, headers=headers) == one


def test_the_merge_page_does_not_grow_with_the_matches(auth_client, user):
    more_matches(user, 2)
    anna, dora = (Player.objects.get(owner=user, name=n) for n in ("Anna", "Dora"))
    url = reverse("player_merge", args=[anna.pk])
    few = (queries(auth_client, url), queries(auth_client, url, {"into": dora.pk}))
    more_matches(user, 498, start=2)
    assert (queries(auth_client, url), queries(auth_client, url, {"into": dora.pk})) == few


def test_a_page_of_the_history_costs_what_it_says(auth_client, user):
    """The session, the user, then the page's count, its rows, their seats with their players,
    and the names the player filter offers."""
    more_matches(user, 30)
    assert queries(auth_client, reverse("match_list")) == 6
