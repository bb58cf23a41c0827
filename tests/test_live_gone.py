"""A live check whose key leads nowhere now (scorekeeper/live.py): the watch link replaced (or
the match withdrawn, deleted) answers ``404`` with the plain body ``gone``, in the one query
of any check, with no session read and no cookie set, so that the watch screen can say that
its link no longer shows the match (site.js). A key that is not ours gets the site's 404
page, as any address that leads nowhere."""

from __future__ import annotations

import pytest
from django.core import signing
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorekeeper import live
from scorekeeper.models import Match
from scorekeeper.sharing.services import share_link_get_or_create, share_link_regenerate

pytestmark = pytest.mark.django_db


def _gone(answer) -> bool:
    return (
        answer.status_code == 404
        and answer["Content-Type"].startswith("text/plain")
        and answer.content == live.GONE.encode()
    )


def _watch(match: Match) -> live.Live:
    token = share_link_get_or_create(match=match, kind="watch").token
    return live.live_watch(Match.objects.get(pk=match.pk), token)


@pytest.mark.parametrize("how", ["replaced", "deleted"])
def test_a_watch_link_replaced_or_withdrawn_answers_gone(how, auth_client, make_match):
    match = make_match("biriba", deals=1)
    target = _watch(match)
    assert auth_client.get(target.url, {"state": target.state}).status_code == 204
    if how == "replaced":
        share_link_regenerate(match=Match.objects.get(pk=match.pk), kind="watch")
    else:
        match.delete()
    # asked by a phone with a session (a co-scorer's tablet): still one query, no session
    with CaptureQueriesContext(connection) as queries:
        answer = auth_client.get(target.url, {"state": target.state})
    assert _gone(answer), (answer.status_code, answer.content[:200])
    assert len(queries) == 1, [q["sql"] for q in queries]
    assert "session" not in queries[0]["sql"]
    assert not answer.cookies, "the answer set a cookie"


@pytest.mark.parametrize("page", ["board", "entry"])
def test_a_deleted_match_s_pages_are_told_gone(page, make_match):
    match = make_match("burraco", deals=1)
    if page == "board":
        target = live.live_board(match)
    else:
        target = live.live_entry(match, number=2, editing=False, draft_version=0)
    match.delete()
    assert _gone(Client().get(target.url, {"state": target.state}))


def test_a_key_that_is_not_ours_is_not_told_gone(make_match):
    match = make_match("biriba")
    for key in (
        "nonsense",
        signing.Signer(salt="another.salt").sign_object(["w", match.pk, "x"]),
        signing.Signer(salt="scorekeeper.live").sign_object(["z", match.pk]),  # no shape of ours
        live.live_board(match).url.split("/")[-2] + "x",
    ):
        answer = Client().get(reverse("live", args=[key]), {"state": "0"})
        assert answer.status_code == 404, key
        assert not _gone(answer), key
        assert 'data-message="not_found"' in answer.content.decode(), key
