"""The permission matrix: who may do what with a match, on every address of the site that
concerns one.

Actors: nobody logged in (``anonymous``), a phone that has the watch link and nothing else
(``watcher``), a co-scorer with an account (``scorer``) and one on a phone without an account
(``guest``), a co-scorer the owner removed, with an account (``removed``) or on a phone
(``removed_guest``), another user (``other``) and the owner. Each address is requested by each
of them with GET and POST, plain and from htmx, and each cell expects one outcome:

- ``allowed``: the page, or what it does (a redirect that is not to the login page);
- ``login``: plain, a redirect to the login page with ``?next=``; htmx, the login page in
  place of the page's main element (``HX-Retarget: #page``; a tap of the deal-entry pad is
  told so in the pad);
- ``404``: the not-found page (for htmx in place of the main element), never told apart from
  a match that does not exist;
- ``removed``: the page that says the owner removed this co-scorer (403; htmx: in place);
- ``405``: a method the address does not take, refused before anything is looked up.

The addresses come from ``scorekeeper.urls`` as it is when the tests run: each must be placed
either in the matrix below (:data:`MATRIX`, and :data:`ENTRY` for deal entry) or among those
that concern no one match (:data:`ELSEWHERE`), so a new address fails
:func:`test_every_address_is_placed` until it is. Every request runs in a savepoint rolled back
after it: each cell meets the same match.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, reverse

from scorekeeper import urls
from scorekeeper.access import GUEST_COOKIE, guest_key_digest_of, guest_key_new
from scorekeeper.sharing import services as sharing
from tests.conftest import HTMX

pytestmark = pytest.mark.django_db

ACTORS = ("anonymous", "watcher", "scorer", "guest", "removed", "removed_guest", "other", "owner")
OUTCOMES = {"allowed", "login", "404", "removed", "405"}

# --- the expected cells -------------------------------------------------------------------

#: The owner and the co-scorers (an account's or a phone's); a removed co-scorer is told so;
#: a login could help those without an account; anyone else is told nothing exists.
SCORERS = {
    "anonymous": "login",
    "watcher": "login",
    "scorer": "allowed",
    "guest": "allowed",
    "removed": "removed",
    "removed_guest": "removed",
    "other": "404",
    "owner": "allowed",
}
#: The owner alone (sharing, and later the players and the house rules): a co-scorer is
#: anyone else here (with an account: 404; without one a login could help).
OWNER = {
    "anonymous": "login",
    "watcher": "login",
    "scorer": "404",
    "guest": "login",
    "removed": "404",
    "removed_guest": "login",
    "other": "404",
    "owner": "allowed",
}
#: The score link: whoever has it may open it and join (the owner and those already in are
#: sent to the scoreboard), except a co-scorer the owner removed.
SCORE_LINK = {actor: "allowed" for actor in ACTORS} | {
    "removed": "removed",
    "removed_guest": "removed",
}
#: The watch link: whoever has it.
WATCH_LINK = dict.fromkeys(ACTORS, "allowed")
NOT_ALLOWED = dict.fromkeys(ACTORS, "405")


@dataclass(frozen=True)
class World:
    match: Any
    score_token: str
    watch_token: str
    clients: dict[str, Client]


@dataclass(frozen=True)
class Row:
    """An address: how to build its path in the world, and the outcome of each actor for a
    GET and for a POST."""

    path: Callable[[World], str]
    get: dict[str, str]
    post: dict[str, str]


def match_path(name: str, *args: Any) -> Callable[[World], str]:
    return lambda world: reverse(name, args=[world.match.pk, *args])


def change_path(world: World) -> str:
    """The first change of the world's match (its first deal entered)."""
    change = world.match.changes.order_by("id").first()
    return reverse("match_change", args=[world.match.pk, change.pk])


MATRIX: dict[str, Row] = {
    "match_detail": Row(match_path("match_detail"), SCORERS, SCORERS),
    "match_export": Row(match_path("match_export"), SCORERS, NOT_ALLOWED),
    # a deal's breakdown, which a scoreboard row loads when opened: as the scoreboard
    "deal_breakdown": Row(match_path("deal_breakdown", 1), SCORERS, NOT_ALLOWED),
    # the score progression, which the scoreboard's fold loads when opened: as the scoreboard
    "match_chart": Row(match_path("match_chart"), SCORERS, NOT_ALLOWED),
    # the match's history (restore a deleted deal) and one change: as the scoreboard
    "match_history": Row(match_path("match_history"), SCORERS, SCORERS),
    "match_change": Row(change_path, SCORERS, NOT_ALLOWED),
    "match_share (score)": Row(match_path("match_share", "score"), OWNER, OWNER),
    "match_share (watch)": Row(match_path("match_share", "watch"), OWNER, OWNER),
    "join": Row(lambda w: reverse("join", args=[w.score_token]), SCORE_LINK, SCORE_LINK),
    "watch": Row(lambda w: reverse("watch", args=[w.watch_token]), WATCH_LINK, NOT_ALLOWED),
    # deleting the match (after a page that offers its export): the owner alone
    "match_delete": Row(match_path("match_delete"), OWNER, OWNER),
    # an archived match's scoreboard brings it back to home: the owner alone, a POST only
    "match_unarchive": Row(match_path("match_unarchive"), NOT_ALLOWED, OWNER),
    # the match as CSV and as a printable score sheet: whoever sees the scoreboard
    "match_csv": Row(match_path("match_csv"), SCORERS, NOT_ALLOWED),
    "match_sheet": Row(match_path("match_sheet"), SCORERS, NOT_ALLOWED),
}

#: Deal entry (the lead's package): the owner and the co-scorers enter, correct and delete
#: deals; everyone else as on the scoreboard. Checked by :func:`test_deal_entry_permissions`.
ENTRY: dict[str, Row] = {
    "deal_new": Row(match_path("deal_new"), SCORERS, SCORERS),
    "deal_edit": Row(match_path("deal_edit", 1), SCORERS, SCORERS),
}

#: The addresses that concern no one match, and why.
ELSEWHERE: dict[str, str] = {
    "home": "the visitor's own matches (tests/test_views.py, test_sharing.py)",
    "healthz": "the database's health",
    "set_language": "the visitor's own language, and the account's own choice of it "
    "(tests/i18n/test_speaking.py)",
    "signup": "accounts",
    "login": "accounts",
    "logout": "accounts",
    "account": "the account's own page",
    "account_export": "every match of the account itself, in one zip (tests/test_accounts.py)",
    "account_delete": "the account itself",
    "match_new": "a new match of the one logged in",
    "match_import": "a new match of the one logged in",
    "join_code": "a code leads to its link, which is in the matrix (tests/test_sharing.py)",
    "live": "a signed key names what it follows; it answers whether that changed, the redraw "
    "that follows is a page of the matrix (tests/test_live.py)",
    "match_list": "the visitor's own matches (owned or joined; a phone's without an account); "
    "archiving one is its owner's, anyone else's POST naming it gets the 404 page "
    "(tests/test_matches_views.py)",
    "player_list": "the account's own players (tests/test_players_views.py)",
    "player_detail": "one of the account's own players and their statistics; another's "
    "player is the 404 page (tests/players/test_player_page.py)",
    "match_list_csv": "the visitor's own history as CSV, with the history's filters "
    "(tests/exports/test_history_csv.py)",
    "account_data": "every match the account owns, in one data file (tests/exports/test_data.py)",
    "account_data_import": "a data file becomes matches of the one logged in "
    "(tests/exports/test_data.py)",
    "player_merge": "two of the account's own players; another's player is the 404 page "
    "(tests/test_players_views.py)",
}
#: Django's admin: staff only, with its own login and permissions (tests/test_views.py).
ELSEWHERE_NAMESPACES = ("admin:",)


def _names(patterns: list[Any], namespace: str = "", route: str = "") -> list[str]:
    """Every address's name (namespaced: ``admin:login``), or its route if it has none."""
    out = []
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            out += _names(pattern.url_patterns, inner, route + str(pattern.pattern))
        else:
            assert isinstance(pattern, URLPattern)
            out.append(f"{namespace}{pattern.name or route + str(pattern.pattern)}")
    return out


def _placed() -> set[str]:
    return {name.split(" (")[0] for name in (*MATRIX, *ENTRY)} | set(ELSEWHERE)


def test_every_address_is_placed():
    names = [n for n in _names(urls.urlpatterns) if not n.startswith(ELSEWHERE_NAMESPACES)]
    unplaced = sorted(set(names) - _placed())
    assert not unplaced, f"addresses not in the permission matrix nor in ELSEWHERE: {unplaced}"
    stale = sorted(_placed() - set(names))
    assert not stale, f"rows for addresses that no longer exist: {stale}"
    for table in (MATRIX, ENTRY):
        for name, row in table.items():
            for cells in (row.get, row.post):
                assert set(cells) == set(ACTORS), name
                assert set(cells.values()) <= OUTCOMES, name


# --- the world and its actors ---------------------------------------------------------------


def _account(django_user_model, name: str) -> Client:
    user = django_user_model.objects.create_user(username=name, password="pass-word-1234")
    client = Client()
    client.force_login(user)
    client.user = user  # type: ignore[attr-defined]
    return client


def _phone() -> Client:
    client = Client()
    client.cookies[GUEST_COOKIE] = guest_key_new()
    return client


def _digest(client: Client) -> str:
    return guest_key_digest_of(client.cookies[GUEST_COOKIE].value)


@pytest.fixture
def world(make_match, user, django_user_model) -> World:
    match = make_match("biriba", deals=2)
    score = sharing.share_link_get_or_create(match=match, kind="score")
    watch = sharing.share_link_get_or_create(match=match, kind="watch")
    owner = Client()
    owner.force_login(user)
    clients = {
        "anonymous": Client(),
        "watcher": Client(),
        "scorer": _account(django_user_model, "babis"),
        "guest": _phone(),
        "removed": _account(django_user_model, "chris"),
        "removed_guest": _phone(),
        "other": _account(django_user_model, "dora"),
        "owner": owner,
    }
    assert clients["watcher"].get(reverse("watch", args=[watch.token])).status_code == 200
    sharing.member_join(link=score, user=clients["scorer"].user)
    sharing.member_join(link=score, guest_key=_digest(clients["guest"]), name="Eleni")
    removed = [
        sharing.member_join(link=score, user=clients["removed"].user),
        sharing.member_join(link=score, guest_key=_digest(clients["removed_guest"]), name="Fotis"),
    ]
    for member in removed:
        sharing.member_remove(member=member)
    return World(match=match, score_token=score.token, watch_token=watch.token, clients=clients)


# --- one cell -------------------------------------------------------------------------------


#: The codes (``data-message``) of the pages that say why a request was refused. A tap of the
#: deal-entry pad (htmx) is told so in the pad itself (``logged_out``): the page stays.
LOGIN_CODES = (b'data-message="login_needed"', b'data-message="logged_out"')
REMOVED_CODE = b'data-message="member_removed"'


def outcome(response: Any, *, htmx: bool) -> str:
    """What a response is, in the matrix's words (anything else is named by its status)."""
    status = response.status_code
    body = b"" if getattr(response, "streaming", False) else response.content
    # for htmx, a refusal takes the place of the page's main element (or the pad's, for a tap)
    in_place = not htmx or response.get("HX-Retarget") == "#page" or b'id="entry"' in body
    if status == 405:
        return "405"
    if status == 404 and b'data-message="not_found"' in body:
        return "404" if in_place else "404 (not in place)"
    if status == 403 and REMOVED_CODE in body:
        return "removed" if in_place else "removed (not in place)"
    location = response.get("Location", "")
    if not htmx and status == 302 and location.startswith(f"{reverse('login')}?next="):
        return "login"
    if htmx and status == 403 and any(code in body for code in LOGIN_CODES) and in_place:
        return "login"
    if any(code in body for code in LOGIN_CODES) or location.startswith(reverse("login")):
        return f"login ({status}, {'htmx' if htmx else 'plain'})"
    if status in (200, 204) or status in (301, 302, 303):
        return "allowed"
    return f"status {status}"


def cells_of(table: dict[str, Row], world: World) -> list[str]:
    """Every cell of ``table``: the mismatches, each as one line."""
    wrong = []
    for name, row in table.items():
        path = row.path(world)
        for method, expected in (("GET", row.get), ("POST", row.post)):
            for actor in ACTORS:
                for htmx in (False, True):
                    client = world.clients[actor]
                    with transaction.atomic():
                        send = client.get if method == "GET" else client.post
                        response = send(path, headers=HTMX if htmx else {})
                        got = outcome(response, htmx=htmx)
                        transaction.set_rollback(True)
                    if got != expected[actor]:
                        how = "htmx" if htmx else "plain"
                        wrong.append(
                            f"{name:22} {method:4} {how:5} {actor:13} "
                            f"expected {expected[actor]}, got {got}"
                        )
    return wrong


def test_permissions(world):
    wrong = cells_of(MATRIX, world)
    assert not wrong, "cells of the permission matrix that differ:\n" + "\n".join(wrong)


def test_deal_entry_permissions(world):
    """Deal entry: the owner and the co-scorers (with an account and on a phone) enter and
    correct deals; the others as on the scoreboard."""
    wrong = cells_of(ENTRY, world)
    assert not wrong, "cells of deal entry's permissions that differ:\n" + "\n".join(wrong)


def test_a_denied_request_changes_nothing(world):
    """The matrix's POSTs of those refused leave every row as it was: a refused co-scorer's
    delete deletes nothing, another user's regeneration keeps the link."""
    from tests.test_transactions import _rows

    before = _rows()
    for actor in ("anonymous", "watcher", "removed", "removed_guest", "other"):
        client = world.clients[actor]
        client.post(
            reverse("match_detail", args=[world.match.pk]),
            {"action": "delete_last", "number": 2},
        )
        client.post(
            reverse("match_share", args=[world.match.pk, "score"]), {"action": "regenerate"}
        )
    for actor in ("scorer", "guest"):
        world.clients[actor].post(
            reverse("match_share", args=[world.match.pk, "watch"]), {"action": "regenerate"}
        )
    assert _rows() == before


# --- the access layer's API (what the views and deal entry call) ----------------------------


def _request(client: Client, path: str = "/") -> Any:
    """The request ``client`` would send (its session and cookies), as a view receives it."""
    return client.get(path, headers={"X-Probe": "1"}).wsgi_request


def test_who_is_acting_and_as_whom(world):
    from scorekeeper.access import Role, match_for_scorer

    pk = world.match.pk
    expected = {
        "owner": (Role.OWNER, "anna", False),
        "scorer": (Role.SCORER, "babis", True),
        "guest": (Role.SCORER, "Eleni", True),
    }
    for actor, (role, label, member) in expected.items():
        access = match_for_scorer(_request(world.clients[actor]), pk)
        assert (access.role, access.label, access.member is not None) == (role, label, member)
        assert access.can_score and access.match.pk == pk
        if member:
            assert access.member.match_id == pk and access.member.removed is None
            assert access.member.joined is not None  # read with the match, whole


def test_the_reasons_of_a_refusal(world):
    from scorekeeper.access import AccessDenied, match_for_owner, match_for_scorer

    pk = world.match.pk
    reasons = {}
    for actor in ACTORS:
        for check in (match_for_scorer, match_for_owner):
            try:
                check(_request(world.clients[actor]), pk)
            except AccessDenied as denied:
                reasons[actor, check.__name__] = denied.reason
    assert reasons == {
        ("anonymous", "match_for_scorer"): "login",
        ("anonymous", "match_for_owner"): "login",
        ("watcher", "match_for_scorer"): "login",
        ("watcher", "match_for_owner"): "login",
        ("scorer", "match_for_owner"): "not_found",
        ("guest", "match_for_owner"): "login",
        ("removed", "match_for_scorer"): "removed",
        ("removed", "match_for_owner"): "not_found",
        ("removed_guest", "match_for_scorer"): "removed",
        ("removed_guest", "match_for_owner"): "login",
        ("other", "match_for_scorer"): "not_found",
        ("other", "match_for_owner"): "not_found",
    }
    with pytest.raises(ValueError):
        AccessDenied("forbidden")


def test_a_match_that_does_not_exist_is_not_told_apart(world):
    from scorekeeper.access import AccessDenied, match_for_scorer

    for actor, reason in (("other", "not_found"), ("guest", "login"), ("anonymous", "login")):
        for pk in (world.match.pk + 1000, 0, -1, 2**70):
            with pytest.raises(AccessDenied) as denied:
                match_for_scorer(_request(world.clients[actor]), pk)
            assert denied.value.reason == reason


def test_a_phone_with_a_key_that_is_not_ours_is_nobody(world):
    from scorekeeper.access import AccessDenied, guest_key_digest, match_for_scorer

    for value in (
        "",
        "x",
        "a" * 42,
        "a" * 44,
        "é" * 43,
        world.clients["guest"].cookies[GUEST_COOKIE].value + "=",
    ):
        client = Client()
        client.cookies[GUEST_COOKIE] = value
        request = _request(client)
        assert guest_key_digest(request) is None
        with pytest.raises(AccessDenied) as denied:
            match_for_scorer(request, world.match.pk)
        assert denied.value.reason == "login"


def test_a_removed_account_that_also_joined_on_this_phone_still_scores(world, user):
    """Removing is per membership: the owner removes the phone's as well, one by one."""
    from scorekeeper.access import Role, match_for_scorer

    removed = world.clients["removed"]
    removed.cookies[GUEST_COOKIE] = world.clients["guest"].cookies[GUEST_COOKIE].value
    access = match_for_scorer(_request(removed), world.match.pk)
    assert access.role == Role.SCORER and access.member.name == "Eleni"
    assert access.label == "chris"  # logged in: the table knows them by their account


def test_the_match_comes_with_its_seats_and_deals(world, django_assert_num_queries):
    """A scorer's match comes with its seats and deals, a watcher's with its seats."""
    from scorekeeper.access import match_for_scorer, match_for_watch_token
    from scorekeeper.selectors import match_scored

    request = _request(world.clients["scorer"])
    request.user.get_username()  # the session and the user are read once per request anyway
    with django_assert_num_queries(3):  # the match with the membership, seats, deals
        match = match_for_scorer(request, world.match.pk).match
    with django_assert_num_queries(0):
        match_scored(match)
        assert match.owner.get_username() == "anna"
    # the watch link's match comes with its seats, not its deals: its board reads the last
    # deal alone (scoreboard.board_window), whatever the length of the match
    with django_assert_num_queries(2):
        watched = match_for_watch_token(world.watch_token)
    with django_assert_num_queries(0):
        assert watched.header.players and watched.owner.get_username() == "anna"


def test_a_watch_token_is_a_watch_link_s_and_nothing_else(world):
    from django.http import Http404

    from scorekeeper.access import match_for_watch_token

    assert match_for_watch_token(world.watch_token).pk == world.match.pk
    for token in (world.score_token, "", "x" * 65, "nope", None):
        with pytest.raises(Http404):
            match_for_watch_token(token)


def test_the_login_answer_comes_back_to_the_page(world):
    """Plain: a redirect to the login page, back to the address asked (a GET) or to the page
    the form was on (a POST). htmx: the login form in place of the page's main element, coming
    back to the page the phone shows, not to the address the tap was sent to."""
    board = reverse("match_detail", args=[world.match.pk])
    anonymous = world.clients["anonymous"]
    response = anonymous.get(board)
    assert response["Location"] == f"{reverse('login')}?next={board}"
    response = anonymous.post(board, {}, headers={"Referer": f"http://testserver{board}"})
    assert response["Location"] == f"{reverse('login')}?next=http%3A//testserver{board}"
    response = anonymous.post(
        board, {}, headers={**HTMX, "HX-Current-URL": f"http://testserver{board}"}
    )
    page = response.content.decode()
    assert response.status_code == 403 and response["HX-Retarget"] == "#page"
    assert response["HX-Reselect"] == "#page" and 'id="page"' in page
    assert 'data-message="login_needed"' in page and 'id="auth-form"' in page
    assert f'name="next" value="http://testserver{board}"' in page
