"""Fixtures for the site's tests: users, a logged-in client, and matches made through services.

``make_match("biriba", deals=5)`` creates a match of the ``user`` fixture's owner with five
legal deals (each game has a deal generator below); ``htmx`` is the header an htmx request
carries. The deal-entry tests press a page's keys with :func:`press` and read its draft with
:func:`draft_of`, what its form posts with :func:`posted_by` and its words with :func:`text`.
"""

from __future__ import annotations

import html
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from scorekeeper import services
from scorekeeper.models import Match
from tests import profiles  # noqa: F401  (the hypothesis profile: ci or dev)

PLAYERS4 = ["Anna", "Babis", "Chris", "Dora"]
HTMX = {"HX-Request": "true"}

BARBU_CLASSIC = ("no_tricks", "no_hearts", "no_queens", "barbu", "no_last_two", "trumps", "domino")
BARBU_DATA: dict[str, dict[str, Any]] = {
    "no_tricks": {"tricks": [4, 3, 3, 3]},
    "no_hearts": {"hearts": [4, 3, 3, 3], "ace_of_hearts": 0},
    "no_queens": {"queens": [1, 1, 1, 1]},
    "barbu": {"king_of_hearts": 1},
    "no_last_two": {"last_two": [2, 3]},
    "trumps": {"trump": "S", "tricks": [4, 3, 3, 3]},
    "domino": {"finish_order": [0, 1, 2, 3]},
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The browser tests first (each takes seconds, most others milliseconds): spread over
    several workers (``make test``: pytest-xdist, worksteal), the long ones are handed out at
    the start and the short ones fill the gaps, instead of one worker left with a browser test
    or two at the end. In one process the order is only moved, never changed within a kind."""
    items.sort(key=lambda item: item.get_closest_marker("browser") is None)


def rummy_deal(game: str, index: int = 0, *, sides: int = 2) -> dict[str, Any]:
    """A small legal deal nobody goes out in: each side melds one run of three."""
    suits = "HSDC"
    deal: dict[str, Any] = {
        "sides": [
            {
                "melds": [[f"{r}{suits[side]}" for r in ("3", "4", "5")]],
                "hand": ["KD"] if side == 1 else [],
                "took_pot": True,
            }
            for side in range(sides)
        ]
    }
    if game == "biriba":
        deal["trump"] = "SHDC"[index % 4]
    return deal


def barbu_deal(index: int, *, first_declarer: int = 0) -> dict[str, Any]:
    """Deal ``index`` of a classic series match: the declarer names the contracts in order, and
    the three others double the declarer (which keeps the compulsory doubles)."""
    declarer = (first_declarer + index // 7) % 4
    contract = BARBU_CLASSIC[index % 7]
    doubles = [{"by": seat, "on": declarer} for seat in range(4) if seat != declarer]
    return {"contract": contract, "doubles": doubles, **BARBU_DATA[contract]}


def deal_for(game: str, index: int) -> dict[str, Any]:
    return barbu_deal(index) if game == "barbu" else rummy_deal(game, index)


def overwrite_deals(match: Match, data: dict[str, Any], *, number: int | None = None) -> None:
    """Write deal ``number`` (every deal: None) behind the services' back, as a change of the
    rules under stored deals leaves a match: the scoring state kept on the match is dropped
    too, and every deal's kept score, as a migration that changes the scoring must drop them
    (scorekeeper/standing.py, ``Deal.score``)."""
    from scorekeeper.models import Deal

    deals = Deal.objects.filter(match=match)
    if number is not None:
        deals = deals.filter(number=number)
    deals.update(data=data)
    Deal.objects.filter(match=match).update(score=None, running=None)
    Match.objects.filter(pk=match.pk).update(scoring_state=None)


# --- pressing the keys of a deal-entry page ----------------------------------------------------

DRAFT = re.compile(r'name="draft" value="([^"]*)"')


def draft_of(response) -> str:
    found = DRAFT.search(response.content.decode())
    assert found, "no draft in the page"
    return html.unescape(found.group(1))


def press(client, url: str, draft: str, *actions: str, htmx: bool = True):
    """Press keys one after the other, as a phone does: each key is posted with what the page
    drew (its hidden fields: the draft, its version, the deal); returns the last response.
    ``draft``: the draft the first key is pressed on ("": the page as it is drawn now)."""
    response = None
    headers = HTMX if htmx else {}
    fields = _hidden(client.get(url))
    if draft:
        fields["draft"] = draft
    for action in actions:
        response = client.post(url, {**fields, "action": action}, headers=headers)
        assert response.status_code in (200, 302), (action, response.status_code)
        if response.status_code == 200 and "HX-Redirect" not in response.headers:
            fields = _hidden(response)
    return response


HIDDEN = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)"')


def _hidden(response) -> dict[str, str]:
    return {
        name: html.unescape(value)
        for name, value in HIDDEN.findall(response.content.decode())
        if name != "csrfmiddlewaretoken"
    }


def posted_by(response, action: str) -> dict[str, str]:
    """What the page's form posts when ``action`` is pressed: its hidden fields and the key."""
    return {**_hidden(response), "action": action}


def text(response) -> str:
    """The page's text, tags dropped and spaces squeezed (a name's ``<bdi>`` is no space)."""
    page = re.sub(r"</?bdi>", "", response.content.decode())
    page = re.sub(r"<[^>]+>", " ", page)
    return re.sub(r"\s+", " ", html.unescape(page))


def run(suit: str, ranks: str) -> list[str]:
    """Keys of the rummy pad for a run: one suit tap, then one tap per rank."""
    return [f"suit:{suit}", *(f"rank:{r}" for r in ranks.split())]


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):  # noqa: PT004
    """The test database, and what the backend says once a connection (SQLite: whether it has
    JSON, which loading a match for a co-scorer asks) asked before any test counts queries."""
    from django.db import connection

    with django_db_blocker.unblock():
        assert connection.features.supports_json_field


@pytest.fixture(autouse=True)
def _test_settings(settings) -> None:
    """Tests run without ``collectstatic`` (no manifest of hashed names to look up), and hash
    passwords quickly."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    # WhiteNoise serves from the finders (the app's static folder), as with DEBUG on.
    settings.STATIC_ROOT = None
    settings.WHITENOISE_USE_FINDERS = True


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix, tmp_path_factory):
    """On SQLite the test database is a file, not Django's shared in-memory one, so that
    threads with their own connections really share it as server processes do (WAL, the busy
    timeout, IMMEDIATE transactions: tests/test_concurrency.py)."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    if database["ENGINE"] == "django.db.backends.sqlite3":
        path = tmp_path_factory.mktemp("database") / "test.sqlite3"
        database.setdefault("TEST", {})["NAME"] = str(path)


@pytest.fixture
def user(django_user_model):
    return django_user_model.objects.create_user(username="anna", password="pass-word-1234")


@pytest.fixture
def other_user(django_user_model):
    return django_user_model.objects.create_user(username="babis", password="pass-word-1234")


@pytest.fixture
def auth_client(client, user):
    client.force_login(user)
    return client


@pytest.fixture
def htmx() -> dict[str, str]:
    return dict(HTMX)


@pytest.fixture
def make_match(user) -> Callable[..., Match]:
    def make(
        game: str = "biriba",
        *,
        deals: int = 0,
        owner: Any = None,
        players: list[str] | None = None,
        rules: dict[str, Any] | None = None,
        first_dealer: int = 0,
        confirmation: bool = False,
    ) -> Match:
        match = services.match_create(
            owner=owner or user,
            game=game,
            players=players or list(PLAYERS4),
            first_dealer=first_dealer,
            rules=rules or {},
            confirmation=confirmation,
        )
        for i in range(deals):
            services.deal_record(match=match, data=deal_for(game, i))
        return match

    return make


# --- the browser (Debian's Chromium, through Playwright) ---------------------------------------
# The fixtures live here so that a feature's own browser tests (tests/<feature>/) have them as
# tests/browser/'s do. Without /usr/bin/chromium the browser tests are skipped with the reason,
# except when SCOREKEEPER_BROWSER_REQUIRED=1 (CI sets it): then they fail.

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def _chromium_session():
    """One Chromium for every browser test a test process runs (launching one takes about a
    second): each test gets it through :func:`chromium`, which closes what the test opened.
    Fails (not skips) when required and missing."""
    if not CHROMIUM.exists():
        reason = f"{CHROMIUM} is missing (apt-get install chromium)"
        if os.environ.get("SCOREKEEPER_BROWSER_REQUIRED") == "1":
            pytest.fail(f"SCOREKEEPER_BROWSER_REQUIRED=1 but {reason}")
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def chromium(_chromium_session, settings):
    """The launched Chromium, for one test: every phone (browser context) the test opens is
    closed after it, so that no page, cookie or storage passes to the next test."""
    # The live server speaks plain http: cookies must not insist on https.
    settings.SESSION_COOKIE_SECURE = False
    settings.CSRF_COOKIE_SECURE = False
    settings.ALLOWED_HOSTS = ["*"]
    browser = _chromium_session
    assert not browser.contexts, "a test before this one left a phone open"
    try:
        yield browser
    finally:
        for context in list(browser.contexts):
            context.close()
