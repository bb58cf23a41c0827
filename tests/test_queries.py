"""The scoreboard costs a fixed number of SQL queries, however many deals the match has."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.conftest import HTMX

pytestmark = pytest.mark.django_db

# session, user, match, its seats with their players, its deals
SCOREBOARD_QUERIES = 5


def scoreboard_queries(client, match, headers=None) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("match_detail", args=[match.pk]), headers=headers or {})
    assert response.status_code == 200
    return len(queries)


@pytest.mark.parametrize("game", ["barbu", "biriba", "burraco"])
def test_scoreboard_queries_do_not_grow_with_the_deals(auth_client, make_match, game):
    one = make_match(game, deals=1)
    many = make_match(game, deals=28)
    assert many.deal_count == 28
    assert scoreboard_queries(auth_client, one) == SCOREBOARD_QUERIES
    assert scoreboard_queries(auth_client, many) == SCOREBOARD_QUERIES
    assert scoreboard_queries(auth_client, many, HTMX) == SCOREBOARD_QUERIES


def test_scoreboard_with_assert_num_queries(auth_client, make_match, django_assert_num_queries):
    for deals in (1, 28):
        match = make_match("barbu", deals=deals)
        with django_assert_num_queries(SCOREBOARD_QUERIES):
            auth_client.get(reverse("match_detail", args=[match.pk]))


def test_home_queries_do_not_grow_with_the_matches(auth_client, make_match):
    make_match("barbu", deals=2)
    with CaptureQueriesContext(connection) as few:
        auth_client.get("/")
    for game in ("biriba", "burraco", "barbu", "biriba"):
        make_match(game, deals=3)
    with CaptureQueriesContext(connection) as many:
        auth_client.get("/")
    assert len(many) == len(few)
