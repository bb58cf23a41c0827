"""Pages that follow their match (scorekeeper/live.py): the scoreboard, the entry page and the
watch view carry ``[data-live]``; its check answers 204 while the page is up to date, 200 with
the new state when another phone changed something, 404 when it leads nowhere. It costs one
query and reads no session; a page drawn after the change carries the state the check gives,
so a page redraws once per change, never in a loop."""

from __future__ import annotations

import html
import re

import pytest
from django.core import signing
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorekeeper import live, services
from scorekeeper.models import DealDraft, Match
from scorekeeper.sharing.services import (
    member_remove,
    share_link_get_or_create,
    share_link_regenerate,
)
from tests.conftest import HTMX, deal_for, draft_of, posted_by, press, run
from tests.test_entry_shared import phone, tap

pytestmark = pytest.mark.django_db


def sign(key, *, salt: str) -> str:
    return signing.Signer(salt=salt).sign_object(key)


def drawn(response) -> tuple[str, str]:
    """The page's live address and the state it was drawn from (one element carries them)."""
    page = response.content.decode()
    urls = re.findall(r'data-live="([^"]*)"', page)
    states = re.findall(r'data-live-state="([^"]*)"', page)
    assert len(urls) == len(states) == 1, (urls, states)
    return html.unescape(urls[0]), states[0]


def check(url: str, state: str, client: Client | None = None):
    return (client or Client()).get(url, {"state": state})


def fresh(match: Match) -> Match:
    return Match.objects.get(pk=match.pk)


def save_deal(match: Match, index: int | None = None) -> None:
    index = fresh(match).deal_count if index is None else index
    services.deal_record(match=fresh(match), data=deal_for(match.game, index), by="Babis")


def test_the_scoreboard_follows_its_match(auth_client, make_match):
    match = make_match("biriba", deals=2)
    board = reverse("match_detail", args=[match.pk])
    url, state = drawn(auth_client.get(board))
    assert check(url, state).status_code == 204
    save_deal(match)  # another phone
    answer = check(url, state)
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/plain")
    now = answer.content.decode()
    assert now != state
    # what the scoreboard's partial (what site.js redraws) carries now is that state
    redrawn = auth_client.get(board, headers=HTMX)
    assert redrawn.content.decode().lstrip().startswith('<div id="scoreboard"')
    assert drawn(redrawn) == (url, now)
    assert check(url, now).status_code == 204


@pytest.mark.parametrize(
    "change",
    ["corrected", "deleted", "joined", "removed"],
)
def test_every_change_of_what_the_scoreboard_shows_is_seen(
    change, auth_client, other_user, make_match
):
    match = make_match("burraco", deals=2)
    board = reverse("match_detail", args=[match.pk])
    member = None
    if change == "removed":
        link = share_link_get_or_create(match=fresh(match), kind="score")
        phone(other_user).post(reverse("join", args=[link.token]))
        member = fresh(match).members.get()
    url, state = drawn(auth_client.get(board))
    if change == "corrected":
        document = deal_for("burraco", 1)
        document["sides"][0]["melds"].append(["8C", "9C", "10C"])
        deal = fresh(match).deals.get(number=1)
        services.deal_correct(
            match=fresh(match),
            number=1,
            data=document,
            drawn_from=services.deal_fingerprint(deal.data),
            by="Babis",
        )
    elif change == "deleted":
        services.deal_delete_last(match=fresh(match), number=2)
    elif change == "joined":
        link = share_link_get_or_create(match=fresh(match), kind="score")
        phone(other_user).post(reverse("join", args=[link.token]))
    else:
        member_remove(member=member)
    answer = check(url, state)
    assert answer.status_code == 200, change
    assert drawn(auth_client.get(board)) == (url, answer.content.decode())


def test_the_entry_page_follows_its_deal_in_progress(user, make_match):
    match = make_match("burraco", deals=1)
    entry = reverse("deal_new", args=[match.pk])
    anna, babis = phone(user), phone(user)
    a = anna.get(entry)
    url, state = drawn(a)
    assert check(url, state).status_code == 204
    # another phone's taps on the shared deal (its side is its own: no change for this one)
    b = press(babis, entry, "", "side:1")
    assert check(url, state).status_code == 204
    b = press(babis, entry, draft_of(b), *run("S", "3 4 5"))
    answer = check(url, state)
    assert answer.status_code == 200
    now = answer.content.decode()
    # the redraw site.js asks for (an empty action through the tap queue) carries that state
    # and shows the other phone's side, without a banner about it
    redrawn = tap(anna, entry, a, "")
    assert drawn(redrawn)[1] == now
    assert 'data-message="draft_overtaken"' not in redrawn.content.decode()
    assert check(url, now).status_code == 204
    # this phone's own tap: its answer carries the new state, so no redraw follows it
    a = press(anna, entry, draft_of(redrawn), *run("H", "8 9 10"))
    assert check(url, drawn(a)[1]).status_code == 204
    # a deal saved by the other phone (each side's pot answered first): the entry page is told
    b = press(babis, entry, draft_of(tap(babis, entry, b, "")), "pot:0", "pot:1")
    state = drawn(tap(anna, entry, a, ""))[1]
    saved = babis.post(entry, posted_by(tap(babis, entry, b, ""), "save"))
    assert saved.status_code == 302
    assert fresh(match).deal_count == 2
    assert check(url, state).status_code == 200


def test_a_correction_page_follows_its_own_deal_in_progress(user, make_match):
    match = make_match("biriba", deals=2)
    edit = reverse("deal_edit", args=[match.pk, 1])
    anna, babis = phone(user), phone(user)
    url, state = drawn(anna.get(edit))
    # a tap on the next deal is not this page's business
    press(babis, reverse("deal_new", args=[match.pk]), "", *run("S", "3 4 5"))
    assert check(url, state).status_code == 204
    press(babis, edit, "", "side:1", *run("S", "3 4 5"))
    assert check(url, state).status_code == 200


def test_the_watch_view_follows_and_stops_with_its_link(make_match):
    match = make_match("biriba", deals=1)
    token = share_link_get_or_create(match=match, kind="watch").token
    watch = reverse("watch", args=[token])
    url, state = drawn(Client().get(watch))
    assert check(url, state).status_code == 204
    save_deal(match)
    answer = check(url, state)
    assert answer.status_code == 200
    redrawn = Client().get(watch, headers=HTMX)
    assert redrawn.content.decode().lstrip().startswith('<div id="watch"')
    assert drawn(redrawn) == (url, answer.content.decode())
    share_link_regenerate(match=fresh(match), kind="watch")
    assert check(url, answer.content.decode()).status_code == 404


def test_a_key_that_is_not_ours_leads_nowhere(make_match):
    match = make_match("biriba")
    for key in (
        "nonsense",
        sign(["b", match.pk], salt="another.salt"),
        sign(["b", match.pk], salt="scorekeeper.live") + "x",
        sign(["b"], salt="scorekeeper.live"),
        sign(["z", match.pk], salt="scorekeeper.live"),
        sign({"b": match.pk}, salt="scorekeeper.live"),
        sign(["b", match.pk + 1000], salt="scorekeeper.live"),
    ):
        assert Client().get(reverse("live", args=[key]), {"state": "0"}).status_code == 404, key
    url = live.live_board(match).url
    assert Client().post(url).status_code == 405
    assert Client().get(url).status_code == 200  # no state: out of date


def test_match_deleted_leads_nowhere(make_match):
    match = make_match("biriba")
    url = live.live_board(match).url
    match.delete()
    assert check(url, "0").status_code == 404


@pytest.mark.parametrize("kind", ["board", "entry", "watch"])
def test_a_check_costs_one_query_and_no_session(kind, auth_client, make_match):
    match = make_match("burraco", deals=3)
    press(auth_client, reverse("deal_new", args=[match.pk]), "", *run("S", "3 4 5"))
    match = fresh(match)
    if kind == "board":
        target = live.live_board(match)
    elif kind == "entry":
        version = DealDraft.objects.get(match=match).version
        target = live.live_entry(match, number=4, editing=False, draft_version=version)
    else:
        token = share_link_get_or_create(match=match, kind="watch").token
        target = live.live_watch(fresh(match), token)
    with CaptureQueriesContext(connection) as queries:
        answer = check(target.url, target.state, auth_client)
    assert answer.status_code == 204, answer.content
    assert len(queries) == 1, [q["sql"] for q in queries]
    assert "session" not in queries[0]["sql"]
    assert not answer.cookies, "the check set a cookie"
    assert not answer.content


def test_pages_without_a_match_to_follow_carry_none(auth_client, make_match):
    match = make_match("biriba", deals=1)
    for url in (
        reverse("home"),
        reverse("match_new"),
        reverse("match_share", args=[match.pk, "score"]),
    ):
        assert "data-live=" not in auth_client.get(url).content.decode(), url
