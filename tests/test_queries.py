"""The scoreboard costs a fixed number of SQL queries, however many deals the match has."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.conftest import HTMX

pytestmark = pytest.mark.django_db

# session, user, match, its seats with their players, its deals, the change Undo would take back
# (the score progression's chart is loaded when its fold is opened: /matches/<id>/chart/)
SCOREBOARD_QUERIES = 6


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


def _shared(match, user):
    from scorekeeper.sharing import services as sharing

    link = sharing.share_link_get_or_create(match=match, kind="score")
    return sharing.member_join(link=link, user=user)


def test_a_co_scorer_s_scoreboard_costs_what_the_owner_s_does(
    client, make_match, other_user, django_assert_num_queries
):
    """The membership is read with the match, in the same query (scorekeeper.access)."""
    client.force_login(other_user)
    for deals in (1, 28):
        match = make_match("biriba", deals=deals)
        _shared(match, other_user)
        assert scoreboard_queries(client, match) == SCOREBOARD_QUERIES
        assert scoreboard_queries(client, match, HTMX) == SCOREBOARD_QUERIES


def test_a_guest_s_scoreboard_costs_no_session_nor_user(client, make_match):
    """A phone without an account: the match (with the membership), its seats, its deals."""
    from scorekeeper.sharing import services as sharing

    match = make_match("burraco", deals=3)
    link = sharing.share_link_get_or_create(match=match, kind="score")
    response = client.post(reverse("join", args=[link.token]), {"name": "Eleni"})
    assert response.status_code == 302
    client.get(match.get_absolute_url())  # the join's message shown and gone
    assert scoreboard_queries(client, match) == SCOREBOARD_QUERIES - 2


def test_home_queries_do_not_grow_with_the_joined_matches(client, make_match, other_user):
    client.force_login(other_user)
    make_match("biriba", owner=other_user, players=["Eleni", "Fotis"])
    _shared(make_match("barbu", deals=2), other_user)
    with CaptureQueriesContext(connection) as few:
        assert b"shared by" in client.get("/").content
    for game in ("biriba", "burraco", "barbu"):
        _shared(make_match(game, deals=3), other_user)
        make_match(game, owner=other_user, players=["Eleni", "Fotis", "Gia", "Haris"])
    with CaptureQueriesContext(connection) as many:
        client.get("/")
    assert len(many) == len(few)
