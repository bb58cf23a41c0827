"""The watch link's page: the match read-only, for a tablet on the table, reachable by its link
alone and leading nowhere else; its ``#watch`` partial is what a poller redraws."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorekeeper import services
from scorekeeper.selectors import match_scored
from scorekeeper.sharing.services import share_link_get_or_create, share_link_regenerate
from scorekeeper.templatetags.score_tags import points
from tests.conftest import HTMX, text
from tests.test_services import biriba_going_out, example
from tests.test_views import _break

pytestmark = pytest.mark.django_db


def watch_url(match) -> str:
    return reverse("watch", args=[share_link_get_or_create(match=match, kind="watch").token])


def hook(page: str, name: str) -> list[str]:
    return re.findall(rf'{name}="([^"]*)"', page)


def test_the_watch_view_shows_the_score_to_anyone_with_the_link(make_match):
    match = make_match("biriba", deals=3, rules={"target": 3000})
    response = Client().get(watch_url(match))
    assert response.status_code == 200
    page = response.content.decode()
    totals = match_scored(match)[1].totals
    for side, total in enumerate(totals):
        assert f'data-total="{side}">{points(total)}<' in page
        assert f"{3000 - total:,} to go".replace(",", " ") in text(response)
    assert hook(page, "data-deal-count") == ["3"]
    assert hook(page, "data-finished") == ["false"]
    assert hook(page, "data-version") == [str(match.__class__.objects.get(pk=match.pk).version)]
    # who deals next (deal 4, first dealer Anna: seat 3, Dora) and the last deal's breakdown
    assert "Deal 4" in text(response) and "<strong><bdi>Dora</bdi></strong> deals" in page
    assert "Deal 3" in text(response) and "deal total" in text(response)
    assert "data-keep-awake" in page


def test_the_watch_view_leads_nowhere_else(make_match, user):
    match = make_match("burraco", deals=2)
    url = watch_url(match)
    for client in (Client(), _logged_in(user)):
        page = client.get(url).content.decode()
        assert "<a " not in page and "<form" not in page, "a link or a form on the watch view"
        for elsewhere in ("/matches/", "export", "/deals/", "/accounts/", "/join/", "/admin/"):
            assert elsewhere not in page, elsewhere
        assert "Log out" not in page and "Account" not in page
        # the strict CSP: nothing inline but htmx's own script with its nonce
        assert " style=" not in page and "<style" not in page
        for script in re.findall(r"<script[^>]*>", page):
            assert "src=" in script, script
    assert Client().post(url).status_code == 405


def _logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_watch_view_with_htmx_is_its_partial_alone(make_match):
    match = make_match("biriba", deals=1)
    response = Client().get(watch_url(match), headers=HTMX)
    assert response.status_code == 200
    page = response.content.decode()
    assert "<html" not in page and "<body" not in page
    assert page.lstrip().startswith('<div id="watch"')
    assert hook(page, "data-deal-count") == ["1"]
    assert len(hook(page, "data-total")) == 2


def test_the_watch_view_follows_the_match(make_match):
    """Drawn from the match as it is now: a deal saved or deleted shows at the next load."""
    match = make_match("biriba", deals=1)
    url = watch_url(match)
    services.deal_record(match=match, data=biriba_going_out("S"))
    page = Client().get(url, headers=HTMX).content.decode()
    assert hook(page, "data-deal-count") == ["2"]
    services.deal_delete_last(match=match, number=2)
    page = Client().get(url, headers=HTMX).content.decode()
    assert hook(page, "data-deal-count") == ["1"]


def test_a_finished_match_names_its_winner(make_match):
    match = make_match("biriba", rules={"target": 500})
    services.deal_record(match=match, data=biriba_going_out("C"))
    response = Client().get(watch_url(match))
    page = response.content.decode()
    assert hook(page, "data-finished") == ["true"]
    assert "<bdi>Anna</bdi> &amp; <bdi>Chris</bdi> won the match" in page
    assert "target reached" in text(response)


def test_barbu_shows_the_declarer_and_the_deals_left(user):
    match = services.match_import(owner=user, document=example("barbu-ex2"))
    response = Client().get(watch_url(match))
    page = response.content.decode()
    assert len(hook(page, "data-total")) == 4
    assert "declares" in page and " of 28" in text(response)
    assert "to go" not in text(response)  # Barbu has no target
    # the last deal's breakdown: its number, its contract's table
    assert f"Deal {match.deal_count} " in text(response) and " raw " in text(response)


def test_a_match_with_no_deal_yet(make_match):
    response = Client().get(watch_url(make_match("burraco")))
    page = response.content.decode()
    assert hook(page, "data-deal-count") == ["0"]
    assert "No deal yet" in text(response)


def test_a_match_that_no_longer_passes_the_rules_says_so(make_match):
    match = make_match("biriba", deals=2)
    url = watch_url(match)
    _break(match)
    response = Client().get(url)
    assert response.status_code == 200
    assert "cannot be shown right now" in text(response)
    assert "data-total" not in response.content.decode()


def test_an_unknown_or_replaced_token_is_not_found(make_match, htmx):
    match = make_match("biriba")
    old = watch_url(match)
    assert Client().get(reverse("watch", args=["no-such-token"])).status_code == 404
    assert Client().get(reverse("watch", args=["x" * 300])).status_code == 404
    share_link_regenerate(match=match, kind="watch")
    gone = Client().get(old, headers=htmx)
    assert gone.status_code == 404 and gone["HX-Retarget"] == "#page"
    score = share_link_get_or_create(match=match, kind="score")
    assert Client().get(reverse("watch", args=[score.token])).status_code == 404


def test_the_watch_view_costs_the_same_queries_however_many_deals(make_match):
    few, many = make_match("barbu", deals=1), make_match("barbu", deals=28)
    counts = []
    for match in (few, many):
        url = watch_url(match)
        with CaptureQueriesContext(connection) as queries:
            assert Client().get(url, headers=HTMX).status_code == 200
        counts.append(len(queries))
    # the match with its owner (through its link), its seats with players, its last deal
    # (the totals and what comes next from the scoring state kept on the match)
    assert counts == [3, 3]
    sql = [q["sql"] for q in queries.captured_queries if '"scorekeeper_deal"' in q["sql"]]
    assert len(sql) == 1 and "BETWEEN 28 AND 28" in sql[0], sql
