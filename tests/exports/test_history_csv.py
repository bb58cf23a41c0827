"""The history as CSV, with the filters of the history page's address: the same matches the
page lists (every one, not a page of them), from the cache kept on each match."""

from __future__ import annotations

import csv
import io

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from scorekeeper.models import Match
from tests.conftest import HTMX
from tests.test_matches_queries import more_matches

pytestmark = pytest.mark.django_db


def history_rows(client, **params) -> list[list[str]]:
    response = client.get(reverse("match_list_csv"), params)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"].startswith('attachment; filename="scorekeeper-matches-')
    assert response.content.startswith("\ufeff".encode())
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"), newline="")))


def ids(rows) -> list[int]:
    return [int(row[0]) for row in rows[1:]]


@pytest.fixture
def matches(make_match, other_user):
    made = {
        "biriba": make_match("biriba", deals=2),
        "barbu": make_match("barbu", deals=1, players=["Anna", "Eleni", "Chris", "Dora"]),
        "burraco": make_match("burraco", deals=3, rules={"target": 40}),
        "someone else's": make_match("barbu", owner=other_user),
    }
    return made


def test_every_match_of_the_visitor_newest_first(auth_client, matches):
    rows = history_rows(auth_client)
    assert rows[0] == [
        "Match",
        "Game",
        "Date",
        "Status",
        "Deals",
        "Sides or players",
        "Totals",
        "Winner",
        "Imported",
        "Archived",
    ]
    assert ids(rows) == [matches[g].pk for g in ("burraco", "barbu", "biriba")]
    burraco = rows[1]
    match = Match.objects.get(pk=matches["burraco"].pk)
    assert burraco[1:6] == [
        "Burraco",
        f"{timezone.localtime(match.created):%Y-%m-%d}",
        "finished",
        "3",
        "Anna & Chris / Babis & Dora",
    ]
    assert burraco[6] == " / ".join(str(t).replace("-", "\u2212") for t in match.totals)
    assert not any(str(row[6]).startswith("'") for row in rows[1:])  # no guard needed
    assert burraco[7] == ["Anna & Chris", "Babis & Dora"][match.winner]
    assert rows[2][5] == "Anna / Eleni / Chris / Dora" and rows[2][7] == ""


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"game": "barbu"}, ["barbu"]),
        ({"status": "finished"}, ["burraco"]),
        ({"player": "ELENI"}, ["barbu"]),
        ({"q": "ele"}, ["barbu"]),
        ({"game": "biriba", "status": "in_progress"}, ["biriba"]),
        ({"game": "nonsense"}, ["burraco", "barbu", "biriba"]),  # a filter unread is left out
        ({"since": "2999-01-01"}, []),
        ({"until": "2999-01-01", "game": "burraco"}, ["burraco"]),
    ],
)
def test_the_filters_of_the_history_page(auth_client, matches, params, expected):
    assert ids(history_rows(auth_client, **params)) == [matches[g].pk for g in expected]


def test_archived_matches_are_marked_and_filtered(auth_client, matches):
    from scorekeeper.matches.services import match_archive

    match_archive(match=matches["biriba"])
    rows = history_rows(auth_client, status="archived")
    assert ids(rows) == [matches["biriba"].pk] and rows[1][9]


def test_the_history_page_links_to_its_csv_with_its_filters(auth_client, matches):
    for headers in ({}, HTMX):
        filters = {"game": "barbu", "q": "ele"}
        page = auth_client.get(reverse("match_list"), filters, headers=headers)
        body = page.content.decode()
        assert f'href="{reverse("match_list_csv")}?q=ele&amp;game=barbu" download' in body
        assert 'data-export="history-csv"' in body
    body = auth_client.get(reverse("match_list")).content.decode()
    assert f'href="{reverse("match_list_csv")}" download data-export="history-csv"' in body


def test_nobody_gets_an_empty_list(client, matches):
    assert history_rows(client)[1:] == []


def test_the_queries_do_not_grow_with_the_matches(auth_client, user):
    def counted() -> int:
        with CaptureQueriesContext(connection) as captured:
            response = auth_client.get(reverse("match_list_csv"), {"q": "a"})
        assert response.status_code == 200
        return len(captured)

    more_matches(user, 1)
    few = counted()
    more_matches(user, 60, start=1)
    assert counted() == few
    assert len(history_rows(auth_client)) == 62
