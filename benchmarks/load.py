#!/usr/bin/env python3
"""Phones at a table under load: a 4-worker gunicorn, 20 clients entering and correcting deals.

For each database the site is migrated afresh and served by gunicorn (4 sync workers, DEBUG
off, a throwaway SECRET_KEY, ALLOWED_HOSTS=127.0.0.1, SECURE_COOKIES off: plain http on
loopback) on a free port of 127.0.0.1:

- SQLite: a new database file in a temporary directory;
- PostgreSQL: a new database ``scorekeeper_load`` on 127.0.0.1:5432 (user postgres), dropped
  after.

A setup step run with the same settings makes the users, the matches (Burraco, four players, a
target no run reaches) with three deals each, and a logged-in session for every client (so no
password hashing weighs on the run). Then, in each scenario, every client, with its own
cookies, does what a phone at the table does until its time or its requests are spent, each
request exactly as the pages send it (an htmx POST of the entry form for every key: ``draft``,
``deal``, ``base``, ``confirm``, the CSRF token, the key as ``action``):

1. opens the next deal (the entry page), taps it in on the pad, saves it; a save refused
   because another phone stored that deal first ("has already been entered") is saved again
   as the next deal, as the page then offers (four tries, then "Start over");
2. looks at the scoreboard (which must say "Deal N saved.");
3. opens an earlier deal, taps a correction and saves it, confirmed; a correction refused
   because another phone changed that deal meanwhile ("was changed elsewhere") is saved again,
   as the page says to (four tries);
4. looks at the scoreboard again ("Deal N corrected."); every fifth request is the baseline.

Scenarios: ``one``, every client on ONE match (the saves race for the next deal, the
corrections mostly for deals 1-3); ``many``, each client on its own match. There is no think
time: a stress test, not an evening. Under it every request first waits for a free worker, so
the ratios to the baseline are compressed towards 1 (the baseline's p50 is mostly that wait);
the column "alone" gives them as measured first, on the same server, with one phone alone
(150 requests): what each kind of request costs when nothing waits.

Every deal entered carries a marker: Anna & Chris are entered as totals, and their melded and
in-hand figures encode a number unique in the match (Babis & Dora meld 3-4-5 of spades), so
that what was acknowledged can be matched with what is stored.

Prints, per database and scenario: requests per second; p50 and p99 of each kind of request as
a multiple of the baseline's p50 in the same run (milliseconds in brackets); the expected
refusals; the errors (a 5xx, a connection error, or a response that is neither a success nor
an expected refusal), with the server's exceptions; then CHECKS against the database: every
acknowledged deal is stored exactly once (no marker twice, none missing, none stored that was
not acknowledged), and for each deal the acknowledged corrections form one chain, each drawn
from the version the previous one stored, the last being what is stored. Exit status 1 on any
error, loss or duplicate.

The baseline is ``GET /healthz`` when the site has one, else the login page (anonymous); the
output says which. Static files are collected into the temporary directory (the production
settings with STATIC_ROOT moved there), so the checkout is left as it was.

    .venv/bin/python benchmarks/load.py [--seconds S | --requests N] [--clients 20]
                                        [--db sqlite|postgresql|both] [--scenario one|many|both]
"""

from __future__ import annotations

import argparse
import gzip
import html
import http.client
import importlib.util
import json
import math
import multiprocessing
import os
import random
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from http.cookies import CookieError, SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
WORKERS = 4
PG_SERVER = "postgres://postgres@127.0.0.1:5432"
PG_DATABASE = "scorekeeper_load"
PLAYERS = ["Anna", "Babis", "Chris", "Dora"]  # sides: Anna & Chris (0), Babis & Dora (1)
SEEDED = 3  # deals each match starts with (markers 0, 1, 2); the corrections' first targets
SAVE_TRIES = 4
START_TIMEOUT = 300  # s for every client process to start
ALONE_REQUESTS = 150  # the reference pass: one phone alone, before the scenarios
KINDS = ("baseline", "scoreboard", "entry page", "tap", "save", "correction")
# The expected refusals: their code (the banner's data-message) and their words.
ALREADY_ENTERED = ("deal_already_entered", "has already been entered")
CHANGED_ELSEWHERE = ("deal_changed", "was changed elsewhere")

# --- markers ------------------------------------------------------------------------------------
# Anna & Chris: melded 15 + 5·(m mod 100), in hand 5·(m div 100); with Babis & Dora's 15 the deal
# stays under the 1080 points a Burraco pack holds, as the rules' plausibility checks ask.
MARKERS = 11_000


def marker_figures(marker: int) -> tuple[int, int]:
    return 15 + 5 * (marker % 100), 5 * (marker // 100)


def marker_of(deal: Any) -> int | None:
    """The marker a stored deal carries, or None if it is not one this script enters."""
    try:
        totals = deal["sides"][0]["totals"]
        melded, in_hand = totals["melded"], totals["in_hand"]
    except (KeyError, IndexError, TypeError):
        return None
    if not (isinstance(melded, int) and isinstance(in_hand, int)):
        return None
    if melded < 15 or (melded - 15) % 5 or in_hand < 0 or in_hand % 5:
        return None
    low = (melded - 15) // 5
    if low >= 100:
        return None
    return low + 100 * (in_hand // 5)


def entered_deal(marker: int) -> dict[str, Any]:
    """The deal the pad builds from the taps of :func:`new_deal_taps` (the entry's own JSON)."""
    melded, in_hand = marker_figures(marker)
    return {
        "sides": [
            {"totals": {"melded": melded, "in_hand": in_hand}, "took_pot": True, "went_out": False},
            {"melds": [["3S", "4S", "5S"]], "hand": [], "took_pot": True, "went_out": False},
        ]
    }


def _digits(number: int) -> list[str]:
    return [f"digit:{d}" for d in str(number)] if number else []


def new_deal_taps(marker: int) -> list[str]:
    """The keys a player presses on a fresh pad to enter the deal of ``marker``."""
    melded, in_hand = marker_figures(marker)
    return [
        "mode:totals",
        *_digits(melded),
        "next_field",
        *_digits(in_hand),
        "pot:0",
        "side:1",
        "suit:S",
        "rank:3",
        "rank:4",
        "rank:5",
        "pot:1",
    ]


def correction_taps(marker: int) -> list[str]:
    """The keys that turn the stored deal's figures for Anna & Chris into those of ``marker``."""
    melded, in_hand = marker_figures(marker)
    return [
        "side:0",
        "target:melded",
        "clear",
        *_digits(melded),
        "next_field",
        "clear",
        *_digits(in_hand),
    ]


def draft_holds(draft: dict[str, Any], marker: int) -> bool:
    """Whether the page's draft now holds the deal of ``marker`` (no tap lost or doubled)."""
    melded, in_hand = marker_figures(marker)
    try:
        a, b = draft["sides"]
        return (
            a["mode"] == "totals"
            and a["melded"] == melded
            and abs(a["in_hand"]) == in_hand
            and a["took_pot"] is True
            and a["went_out"] is False
            and not a.get("bonuses")
            and b["mode"] == "cards"
            and [m for m in b["melds"] if m] == [["3S", "4S", "5S"]]
            and b["hand"] == []
            and b["took_pot"] is True
            and b["went_out"] is False
        )
    except (KeyError, TypeError, ValueError):
        return False


# --- one phone -----------------------------------------------------------------------------------

HIDDEN = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)"')
CSRF_HEADER = re.compile(r"hx-headers='\{\"x-csrftoken\": \"([^\"]+)\"\}'")
BANNER = re.compile(r'<p class="banner bad"([^>]*)>(.*?)</p>', re.S)
CODE = re.compile(r'data-message="([^"]*)"')
TAG = re.compile(r"<[^>]+>")
ENTRY_FIELDS = ("draft", "deal", "base", "confirm")


def _text(fragment: str) -> str:
    return " ".join(html.unescape(TAG.sub(" ", fragment)).split())


def expected(banner: tuple[str, str], refusal: tuple[str, str]) -> bool:
    code, words = banner
    return code == refusal[0] or refusal[1] in words


class Done(Exception):
    """The phone's time or requests are spent."""


class Response:
    def __init__(self, kind: str, method: str, path: str, status: int, headers: Any, body: str):
        self.kind, self.method, self.path = kind, method, path
        self.status, self.headers, self.body = status, headers, body
        self.ms = 0.0

    def hidden(self, after: str = "") -> dict[str, str]:
        body = self.body
        if after and after in body:
            body = body[body.index(after) :]
        return {name: html.unescape(value) for name, value in HIDDEN.findall(body)}

    def banners(self) -> list[tuple[str, str]]:
        """The refusals shown on the page: (code, words)."""
        out = []
        for attributes, words in BANNER.findall(self.body):
            code = CODE.search(attributes)
            out.append((code.group(1) if code else "", _text(words)))
        return out

    def why(self) -> str:
        """What a response that is neither a success nor an expected refusal says."""
        banners = self.banners()
        if banners:
            code, words = banners[0]
            return f"{words[:160]}" + (f" [{code}]" if code else "")
        redirect = self.headers.get("HX-Redirect") or self.headers.get("Location")
        if redirect:
            return f"went to {redirect}"
        return f"no redirect and no refusal: {_text(self.body)[:160]!r}"

    def draft(self) -> dict[str, Any] | None:
        fields = self.hidden()
        try:
            return json.loads(fields["draft"])
        except (KeyError, ValueError):
            return None


class Phone:
    """One phone: its own cookies, one request at a time, every request timed and judged."""

    def __init__(self, port: int, budget_seconds: float | None, budget_requests: int | None):
        self.port = port
        self.origin = f"http://{HOST}:{port}"
        self.cookies: dict[str, str] = {}
        self.budget_seconds, self.budget_requests = budget_seconds, budget_requests
        self.deadline: float | None = None
        self.count = 0
        self.samples: list[tuple[str, float, str]] = []  # kind, ms, ok|refused|notice|error
        self.errors: list[tuple[str, str, str, int, str]] = []  # kind, method, path, status, why
        self.timing = False

    def start(self) -> None:
        self.timing = True
        if self.budget_seconds is not None:
            self.deadline = time.monotonic() + self.budget_seconds

    def _spent(self) -> bool:
        if not self.timing:
            return False
        if self.budget_requests is not None and self.count >= self.budget_requests:
            return True
        return self.deadline is not None and time.monotonic() >= self.deadline

    def _keep_cookies(self, headers: Any) -> None:
        for line in headers.get_all("Set-Cookie") or []:
            jar = SimpleCookie()
            try:
                jar.load(line)
            except CookieError:
                continue
            for name, morsel in jar.items():
                gone = morsel["max-age"] == "0" or "1970" in morsel["expires"]
                if gone or morsel.value == "":
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = morsel.coded_value

    def call(
        self,
        kind: str,
        method: str,
        path: str,
        *,
        fields: dict[str, str] | None = None,
        htmx: bool = False,
        csrf: str = "",
        cookies: bool = True,
        current: str = "",
        expect: tuple[int, ...] = (200,),
    ) -> Response | None:
        """One request; None (and an error recorded) on a connection error, a 5xx or a status
        other than ``expect``. A response returned must be judged with ok/refused/fail."""
        if self._spent():
            raise Done
        headers = {
            "Accept-Language": "en",
            "Accept-Encoding": "gzip",
            "User-Agent": "scorekeeper-load/1",
        }
        body = None
        if fields is not None:
            body = urlencode(fields).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Origin"] = self.origin
        if htmx:  # what htmx sends for a key of the pad (a button name="action" in the form)
            headers.update(
                {
                    "HX-Request": "true",
                    "HX-Current-URL": self.origin + current,
                    "HX-Target": "entry",
                    "HX-Trigger-Name": "action",
                }
            )
        if csrf:
            headers["X-CSRFToken"] = csrf
        if cookies and self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if self.timing:
            self.count += 1
        connection = http.client.HTTPConnection(HOST, self.port, timeout=60)
        started = time.perf_counter()
        try:
            connection.request(method, path, body=body, headers=headers)
            reply = connection.getresponse()
            raw = reply.read()
        except (OSError, http.client.HTTPException) as e:
            ms = (time.perf_counter() - started) * 1000
            self._sample(kind, ms, "error")
            self.errors.append((kind, method, path, 0, f"connection: {type(e).__name__}: {e}"))
            return None
        finally:
            connection.close()
        ms = (time.perf_counter() - started) * 1000
        if reply.getheader("Content-Encoding") == "gzip":
            raw = gzip.decompress(raw)
        if cookies:
            self._keep_cookies(reply.headers)
        response = Response(kind, method, path, reply.status, reply.headers, raw.decode())
        response.ms = ms
        if reply.status not in expect:
            self.fail(response, f"status {reply.status}: {response.why()}")
            return None
        return response

    def _sample(self, kind: str, ms: float, outcome: str) -> None:
        if self.timing:
            self.samples.append((kind, ms, outcome))

    def ok(self, r: Response, outcome: str = "ok") -> None:
        self._sample(r.kind, r.ms, outcome)

    def refused(self, r: Response) -> None:
        self._sample(r.kind, r.ms, "refused")

    def fail(self, r: Response, why: str) -> None:
        self._sample(r.kind, r.ms, "error")
        if self.timing:
            self.errors.append((r.kind, r.method, r.path, r.status, why))


class Entry:
    """An entry page as the phone holds it: the form's fields and the CSRF header token."""

    def __init__(self, page: Response):
        self.path = page.path
        self.fields = page.hidden(after='id="entry-form"')
        found = CSRF_HEADER.search(page.body)
        self.csrf = found.group(1) if found else self.fields.get("csrfmiddlewaretoken", "")

    def redraw(self, partial: Response) -> None:
        """The #entry partial came back: its fields replace those inside #entry."""
        for name in ENTRY_FIELDS:
            self.fields.pop(name, None)
        self.fields.update({k: v for k, v in partial.hidden().items() if k in ENTRY_FIELDS})

    def post(self, phone: Phone, kind: str, action: str, **extra: str) -> Response | None:
        fields = {**self.fields, **extra, "action": action}
        return phone.call(
            kind, "POST", self.path, fields=fields, htmx=True, csrf=self.csrf, current=self.path
        )


class Table:
    """What one phone does at the table, over and over (see the module docstring)."""

    def __init__(self, phone: Phone, cfg: dict[str, Any]):
        self.phone, self.cfg = phone, cfg
        self.match = cfg["match"]
        self.board = f"/matches/{self.match}/"
        self.rng = random.Random(cfg["seed"])
        self.known = SEEDED  # deals this phone knows the match holds
        self.sequence = 0
        self.saves: list[tuple[int, int]] = []  # marker, deal number
        self.corrections: list[tuple[int, str, int]] = []  # deal number, base, marker
        self.uncertain: list[int] = []  # markers whose save got no answer
        self.exhausted = False
        self.since_baseline = 0
        # refusals whose page was still drawn as before (the deal refused, the version refused),
        # so that saving again as the page stands is refused once more
        self.unmoved: Counter[str] = Counter()

    def next_marker(self) -> int | None:
        marker = self.cfg["marker_start"] + self.cfg["marker_step"] * self.sequence
        self.sequence += 1
        if marker >= MARKERS:
            self.exhausted = True
            return None
        return marker

    def run(self) -> None:
        # half the phones begin with a correction, so that a short run has both from the start
        correcting = self.cfg["index"] % 2 == 1
        while (marker := self.next_marker()) is not None:
            if correcting:
                self.correct(self.pick_deal(), marker)
            else:
                self.enter(marker)
            correcting = not correcting

    # -- the requests -------------------------------------------------------------------------

    def baseline(self) -> None:
        r = self.phone.call("baseline", "GET", self.cfg["baseline"], cookies=False)
        if r is not None:
            self.phone.ok(r)

    def maybe_baseline(self) -> None:
        self.since_baseline += 1
        if self.since_baseline >= 4:
            self.since_baseline = 0
            self.baseline()

    def scoreboard(self, says: str = "") -> None:
        self.maybe_baseline()
        r = self.phone.call("scoreboard", "GET", self.board)
        if r is None:
            return
        if 'id="scoreboard"' not in r.body:
            self.phone.fail(r, "no scoreboard on the page")
        elif says and says not in _text(r.body):
            self.phone.fail(r, f"acknowledged, but the scoreboard does not say {says!r}")
        else:
            self.phone.ok(r)

    def open(self, path: str) -> Entry | None:
        self.maybe_baseline()
        r = self.phone.call("entry page", "GET", path)
        if r is None:
            return None
        if 'id="entry-form"' not in r.body or r.draft() is None:
            self.phone.fail(r, "no entry form on the page")
            return None
        self.phone.ok(r)
        return Entry(r)

    def tap(self, entry: Entry, action: str, stale: str) -> bool:
        self.maybe_baseline()
        r = entry.post(self.phone, "tap", action)
        if r is None:
            return False
        if r.draft() is None:
            self.phone.fail(r, f"{action}: no pad in the answer")
            return False
        banners = r.banners()
        if not all(expected(b, stale) for b in banners):
            self.phone.fail(r, f"{action}: {r.why()}")
            return False
        # a key pressed on a page drawn before another phone's save: applied, and the page says
        # why it is now the next deal (or drawn from the deal as it is stored now)
        self.phone.ok(r, "notice" if banners else "ok")
        entry.redraw(r)
        return True

    def enter(self, marker: int) -> None:
        entry = self.open(f"/matches/{self.match}/deals/new/")
        if entry is None:
            return
        draft = json.loads(entry.fields["draft"])
        if any(
            s.get("mode") != "cards" or s.get("melds") or s.get("took_pot") for s in draft["sides"]
        ):
            # what this phone entered before came back: start over, as the banner offers
            if not self.tap(entry, "reset", ALREADY_ENTERED):
                return
        for action in new_deal_taps(marker):
            if not self.tap(entry, action, ALREADY_ENTERED):
                return
        if not draft_holds(json.loads(entry.fields["draft"]), marker):
            self.phone.errors.append(
                ("tap", "POST", entry.path, 200, "the draft does not hold what was tapped")
            )
            return
        for _ in range(SAVE_TRIES):
            number = int(entry.fields.get("deal") or 0)
            r = entry.post(self.phone, "save", "save")
            if r is None:
                self.uncertain.append(marker)
                return
            if r.headers.get("HX-Redirect") == self.board:
                self.phone.ok(r)
                self.saves.append((marker, number))
                self.known = max(self.known, number)
                self.scoreboard(f"Deal {number} saved.")
                return
            banners = r.banners()
            if (
                r.draft() is not None
                and banners
                and all(expected(b, ALREADY_ENTERED) for b in banners)
            ):
                self.phone.refused(r)
                entry.redraw(r)  # the page is now the next deal, the entry kept: save again
                if entry.fields.get("deal") == str(number):
                    self.unmoved["save"] += 1  # ...or still says the deal it refused
                self.known = max(self.known, int(entry.fields.get("deal") or 1) - 1)
                continue
            self.phone.fail(r, f"save: {r.why()}")
            self.uncertain.append(marker)
            return
        if self.tap(entry, "reset", ALREADY_ENTERED):
            self.scoreboard()

    def pick_deal(self) -> int:
        if self.cfg["shared"] and self.rng.random() < 0.7:
            return self.rng.randint(1, SEEDED)  # the phones race for these
        return self.rng.randint(1, self.known)

    def correct(self, number: int, marker: int) -> None:
        entry = self.open(f"/matches/{self.match}/deals/{number}/edit/")
        if entry is None:
            return
        for action in correction_taps(marker):
            if not self.tap(entry, action, CHANGED_ELSEWHERE):
                return
        if not draft_holds(json.loads(entry.fields["draft"]), marker):
            self.phone.errors.append(
                ("tap", "POST", entry.path, 200, "the draft does not hold what was tapped")
            )
            return
        for _ in range(SAVE_TRIES):
            base = entry.fields.get("base", "")
            # the Save key of a correction asks first (hx-confirm) and then sends confirm=yes
            r = entry.post(self.phone, "correction", "save", confirm="yes")
            if r is None:
                self.uncertain.append(marker)
                return
            if r.headers.get("HX-Redirect") == self.board:
                self.phone.ok(r)
                self.corrections.append((number, base, marker))
                self.scoreboard(f"Deal {number} corrected.")
                return
            banners = r.banners()
            if (
                r.draft() is not None
                and banners
                and all(expected(b, CHANGED_ELSEWHERE) for b in banners)
            ):
                self.phone.refused(r)
                entry.redraw(r)  # drawn from the deal as stored now, the correction kept
                if entry.fields.get("base") == base:
                    self.unmoved["correction"] += 1  # ...or still from the version refused
                continue
            self.phone.fail(r, f"correction: {r.why()}")
            self.uncertain.append(marker)
            return
        self.scoreboard()


def client_main(cfg: dict[str, Any], barrier: Any, queue: Any) -> None:
    """One client process: wait for the others, play until the budget is spent."""
    phone = Phone(cfg["port"], cfg["seconds"], cfg["requests"])
    phone.cookies[cfg["session_cookie"]] = cfg["session"]  # logged in by the setup step
    table = Table(phone, cfg)
    result: dict[str, Any] = {"index": cfg["index"], "setup_error": None}
    try:
        barrier.wait(timeout=START_TIMEOUT)
    except Exception as e:  # a broken barrier: the runner gave up
        result["setup_error"] = f"start: {type(e).__name__}"
    result["start"] = time.monotonic()
    if result["setup_error"] is None:
        phone.start()
        try:
            table.run()
        except Done:
            pass
        except Exception as e:  # a fault of this script: an error
            phone.errors.append(("client", "", "", 0, f"{type(e).__name__}: {e}"))
    result.update(
        end=time.monotonic(),
        samples=phone.samples,
        errors=phone.errors,
        saves=table.saves,
        corrections=table.corrections,
        uncertain=table.uncertain,
        exhausted=table.exhausted,
        unmoved=dict(table.unmoved),
    )
    queue.put(result)


# --- the database steps (run with the server's settings, in a child process) ----------------


def _django_setup() -> None:
    import django

    django.setup()


def _session(user: Any) -> str:
    """A session of ``user``, logged in as the login page would (what the test client's
    force_login does): the phones start logged in, and no password hashing weighs on the run."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    session = import_module(settings.SESSION_ENGINE).SessionStore()
    session[SESSION_KEY] = user._meta.pk.value_to_string(user)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    assert session.session_key is not None
    return session.session_key


def step_setup(job: dict[str, Any]) -> dict[str, Any]:
    """Users load0..loadN-1, the matches of each scenario with SEEDED deals, and a session for
    each client of each scenario (in ``one`` every client is the match's owner, load0)."""
    from django.conf import settings
    from django.contrib.auth import get_user_model

    from scorekeeper import services

    user_model = get_user_model()
    users = []
    for i in range(job["clients"]):
        user = user_model(username=f"load{i}")
        user.set_unusable_password()
        user.save()
        users.append(user)

    def match_for(owner: Any) -> int:
        match = services.match_create(
            owner=owner, game="burraco", players=PLAYERS, first_dealer=0, rules={"target": 10**9}
        )
        for number in range(1, SEEDED + 1):
            services.deal_record(match=match, data=entered_deal(number - 1), number=number)
        return match.pk

    out: dict[str, Any] = {
        "cookie": settings.SESSION_COOKIE_NAME,
        "alone": {"matches": [match_for(users[0])], "sessions": [_session(users[0])]},
    }
    if "one" in job["scenarios"]:
        out["one"] = {
            "matches": [match_for(users[0])],
            "sessions": [_session(users[0]) for _ in users],
        }
    if "many" in job["scenarios"]:
        out["many"] = {
            "matches": [match_for(user) for user in users],
            "sessions": [_session(user) for user in users],
        }
    return out


def step_check(job: dict[str, Any]) -> dict[str, Any]:
    """Judge what is stored against what was acknowledged (see the module docstring)."""
    report: dict[str, Any] = {
        "stored": 0,
        "saves": 0,
        "corrections": 0,
        "missing": [],
        "duplicates": [],
        "unacknowledged": [],
        "lost_corrections": [],
        "other": [],
    }
    for match_id, record in job["matches"].items():
        check_match(int(match_id), record, report)
    return report


class Versions:
    """The deals this script enters, as the site stores them, and their fingerprints."""

    def __init__(self, document: dict[str, Any]):
        self.header = {**document, "deals": []}
        self.normal: dict[int, Any] = {}

    def stored_form(self, marker: int) -> Any:
        from scorekeeper.rules import match as rules_match

        if marker not in self.normal:
            parsed = rules_match.parse_document({**self.header, "deals": [entered_deal(marker)]})
            self.normal[marker] = parsed.engine.deal_json(parsed.deals[0])
        return self.normal[marker]

    def fingerprint(self, marker: int) -> str:
        from scorekeeper.services import deal_fingerprint

        return deal_fingerprint(self.stored_form(marker))


def check_match(match_id: int, record: dict[str, Any], report: dict[str, Any]) -> None:
    from scorekeeper.models import Match
    from scorekeeper.selectors import match_document

    document = match_document(Match.objects.get(pk=match_id))
    versions = Versions(document)
    where = f"match {match_id}"
    stored: dict[int, int | None] = {}
    for number, data in enumerate(document["deals"], start=1):
        marker = marker_of(data)
        stored[number] = marker
        if marker is None or data != versions.stored_form(marker):
            report["other"].append(f"{where}, deal {number}: holds a deal no phone entered")
    report["stored"] += len(stored)

    # every acknowledged save: stored once, where it was acknowledged
    saved: dict[int, list[int]] = defaultdict(list)
    for marker, number in record["saves"]:
        saved[number].append(marker)
    report["saves"] += len(record["saves"])
    report["corrections"] += len(record["corrections"])
    for number, markers in sorted(saved.items()):
        if len(markers) > 1:
            report["missing"].append(
                f"{where}: markers {markers} were all acknowledged as deal {number}"
            )
        if number not in stored:
            report["missing"].append(
                f"{where}: marker {markers[0]} acknowledged as deal {number}, "
                f"but the match holds {len(stored)} deals"
            )
    counts = Counter(m for m in stored.values() if m is not None)
    for marker, n in sorted(counts.items()):
        if n > 1:
            numbers = [k for k, m in stored.items() if m == marker]
            report["duplicates"].append(f"{where}: marker {marker} stored as deals {numbers}")

    # every deal's acknowledged corrections: one chain from the acknowledged save to what is stored
    fixed: dict[int, list[tuple[str, int]]] = defaultdict(list)
    for number, base, marker in record["corrections"]:
        fixed[number].append((base, marker))
    acknowledged: dict[int, set[int]] = defaultdict(set)
    for number, markers in saved.items():
        acknowledged[number].update(markers)
    for number, pairs in fixed.items():
        acknowledged[number].update(m for _, m in pairs)
    for number in sorted(set(saved) | set(fixed)):
        if number not in stored or len(saved.get(number, [])) != 1:
            continue
        current = saved[number][0]
        left = list(fixed.get(number, []))
        while True:
            drawn = [(b, m) for b, m in left if b == versions.fingerprint(current)]
            if not drawn:
                break
            if len(drawn) > 1:
                report["lost_corrections"].append(
                    f"{where}, deal {number}: corrections {[m for _, m in drawn]} were all "
                    f"acknowledged, each drawn from the version marker {current} stored"
                )
            follow = [m for _, m in drawn if m == stored[number]] or [drawn[0][1]]
            left = [pair for pair in left if pair not in drawn]
            current = follow[0]
        for _base, marker in left:
            report["lost_corrections"].append(
                f"{where}, deal {number}: correction {marker} was acknowledged, drawn from a "
                f"version that is not in the deal's chain of acknowledged versions"
            )
        if stored[number] != current:
            report["lost_corrections"].append(
                f"{where}, deal {number}: the last acknowledged version is marker {current}, "
                f"but marker {stored[number]} is stored"
            )

    # nothing stored that no phone was told was saved
    uncertain = set(record["uncertain"])
    for number, marker in stored.items():
        if marker is None or marker in acknowledged.get(number, set()):
            continue
        if marker in uncertain:
            continue  # its request failed (counted as an error): stored or not, nobody knows
        report["unacknowledged"].append(
            f"{where}, deal {number}: marker {marker} is stored, but no phone was told so"
        )


def django_step(argv: list[str]) -> int:
    name, path = argv
    sys.path.insert(0, str(ROOT))
    _django_setup()
    job = json.loads(Path(path).read_text())
    result = {"setup": step_setup, "check": step_check}[name](job)
    Path(path + ".out").write_text(json.dumps(result))
    return 0


# --- the runner ---------------------------------------------------------------------------------


STARTED = time.monotonic()


def say(text: str = "") -> None:
    print(text, flush=True)


def step(text: str) -> None:
    """A line of progress, with the time since the start."""
    say(f"[{time.monotonic() - STARTED:5.0f} s] {text}")


class Failure(Exception):
    """The run cannot go on (the server would not start, a step failed): says why."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def run_quiet(command: list[str], env: dict[str, str], what: str) -> None:
    done = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True)
    if done.returncode:
        raise Failure(f"{what} failed (exit {done.returncode}):\n{done.stdout}{done.stderr}")


def run_step(name: str, job: dict[str, Any], env: dict[str, str], tmp: Path) -> Any:
    path = tmp / f"{name}-{secrets.token_hex(4)}.json"
    path.write_text(json.dumps(job))
    run_quiet([sys.executable, str(Path(__file__).resolve()), "_step", name, str(path)], env, name)
    return json.loads(Path(str(path) + ".out").read_text())


def server_env(database_url: str, tmp: Path) -> dict[str, str]:
    env = {
        k: v for k, v in os.environ.items() if k not in ("PYTEST_VERSION", "DJANGO_SETTINGS_MODULE")
    }
    env.update(
        {
            "DEBUG": "0",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": HOST,
            "SECURE_COOKIES": "0",
            "SECURE_SSL_REDIRECT": "0",
            "DATABASE_URL": database_url,
            "CONN_MAX_AGE": os.environ.get("CONN_MAX_AGE", "0"),
            "DJANGO_SETTINGS_MODULE": "load_settings",
            "PYTHONPATH": os.pathsep.join([str(tmp), str(ROOT)]),
            "LOG_LEVEL": "WARNING",
        }
    )
    return env


def write_settings(tmp: Path) -> None:
    """The production settings, static files collected into the temporary directory."""
    (tmp / "load_settings.py").write_text(
        "from scorekeeper.settings import *  # noqa: F403\n\n"
        f"STATIC_ROOT = {str(tmp / 'static')!r}\n"
    )


def get(port: int, path: str) -> int:
    connection = http.client.HTTPConnection(HOST, port, timeout=10)
    try:
        connection.request("GET", path, headers={"Accept-Language": "en"})
        reply = connection.getresponse()
        reply.read()
        return reply.status
    finally:
        connection.close()


class Server:
    """gunicorn with 4 sync workers on a free port; its output (tracebacks) goes to a log file."""

    def __init__(self, env: dict[str, str], log: Path):
        self.env, self.log_path = env, log
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> Server:
        command = [
            sys.executable,
            "-m",
            "gunicorn",
            "--workers",
            str(WORKERS),
            "--worker-class",
            "sync",
            "--bind",
            f"{HOST}:{self.port}",
            "--chdir",
            str(ROOT),
            "scorekeeper.wsgi:application",
        ]
        self.log = self.log_path.open("wb")
        self.process = subprocess.Popen(
            command, env=self.env, cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT
        )
        waited = time.monotonic() + 60
        while time.monotonic() < waited:
            if self.process.poll() is not None:
                raise Failure(f"gunicorn exited at start:\n{self.log_path.read_text()[-3000:]}")
            try:
                if get(self.port, "/accounts/login/") == 200:
                    return self
            except OSError:
                pass
            time.sleep(0.2)
        raise Failure(f"gunicorn did not answer within 60 s:\n{self.log_path.read_text()[-3000:]}")

    def __exit__(self, *exc: object) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()

    def baseline(self) -> tuple[str, str]:
        for path in ("/healthz", "/healthz/"):
            try:
                if get(self.port, path) == 200:
                    return path, f"GET {path}"
            except OSError:
                pass
        return "/accounts/login/", "GET /accounts/login/ (anonymous; the site has no /healthz)"

    def log_size(self) -> int:
        return self.log_path.stat().st_size

    def exceptions(self, since: int) -> Counter[str]:
        """The server's exceptions logged since ``since`` bytes: their last traceback lines."""
        with self.log_path.open("rb") as f:
            f.seek(since)
            lines = f.read().decode(errors="replace").splitlines()
        found: Counter[str] = Counter()
        for i, line in enumerate(lines):
            if line.startswith("Traceback (most recent call last)"):
                j = i + 1
                while j < len(lines) and (lines[j].startswith(" ") or not lines[j].strip()):
                    j += 1
                following = [x for x in lines[j + 1 : j + 3] if x.strip()]
                if following and following[0].startswith(
                    ("The above exception", "During handling")
                ):
                    continue  # a chained exception: the one after it is counted
                if j < len(lines):
                    found[lines[j].strip()[:200]] += 1
        return found


def postgres(sql: str) -> None:
    import psycopg

    with psycopg.connect(f"{PG_SERVER}/postgres", autocommit=True, connect_timeout=5) as c:
        c.execute(sql)


def percentile(sorted_values: list[float], p: float) -> float:
    if not sorted_values:
        return math.nan
    k = max(0, math.ceil(p / 100 * len(sorted_values)) - 1)
    return sorted_values[k]


def run_clients(
    clients: int,
    seconds: float | None,
    requests: int | None,
    port: int,
    prepared: dict[str, Any],
    cookie: str,
    baseline: str,
) -> tuple[list[dict[str, Any]], float]:
    """Start the clients together; their results and the time from start to the last end."""
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(clients + 1)
    queue = context.Queue()
    matches = prepared["matches"]
    shared = len(matches) == 1
    processes = []
    for i in range(clients):
        cfg = {
            "index": i,
            "port": port,
            "match": matches[0] if shared else matches[i],
            "shared": shared,
            "session_cookie": cookie,
            "session": prepared["sessions"][i],
            "seconds": seconds,
            "requests": requests,
            "baseline": baseline,
            "marker_start": SEEDED + (i if shared else 0),
            "marker_step": clients if shared else 1,
            "seed": 1000 * i + 7,
        }
        process = context.Process(target=client_main, args=(cfg, barrier, queue), daemon=True)
        process.start()
        processes.append(process)
    try:
        barrier.wait(timeout=START_TIMEOUT)
    except Exception as e:
        raise Failure(f"the clients did not all start ({type(e).__name__})") from e
    started = time.monotonic()
    results = []
    limit = (seconds or 0) + 600
    for _ in processes:
        try:
            results.append(queue.get(timeout=limit))
        except Exception as e:
            raise Failure("a client never reported back") from e
    for process in processes:
        process.join(timeout=30)
    ended = max(r["end"] for r in results)
    return results, ended - started


def scenario_label(name: str, clients: int) -> str:
    if name == "alone":
        return "one phone alone on its match"
    return "ONE match" if name == "one" else f"{clients} matches, one each"


def latencies(results: list[dict[str, Any]]) -> dict[str, list[float]]:
    by_kind: dict[str, list[float]] = defaultdict(list)
    for r in results:
        for kind, ms, _ in r["samples"]:
            by_kind[kind].append(ms)
    for values in by_kind.values():
        values.sort()
    return by_kind


def report_scenario(
    db: str,
    name: str,
    clients: int,
    results: list[dict[str, Any]],
    elapsed: float,
    baseline_label: str,
    exceptions: Counter[str],
    check: dict[str, Any],
    alone: dict[str, list[float]],
) -> dict[str, Any]:
    samples = [s for r in results for s in r["samples"]]
    by_kind = latencies(results)
    outcomes = Counter((kind, outcome) for kind, _, outcome in samples)
    base = percentile(by_kind.get("baseline", []), 50)
    rps = len(samples) / elapsed if elapsed else math.nan
    say()
    say(
        f"== {db} · {scenario_label(name, clients)} · {clients} clients · "
        f"{len(samples)} requests in {elapsed:.1f} s · {rps:.1f} requests/s"
    )
    say(f"   baseline: {baseline_label}, p50 {base:.1f} ms")
    alone_base = percentile(alone.get("baseline", []), 50)
    head = f"   {'kind':<12} {'count':>6}  {'p50 × baseline (ms)':>22}  {'p99 × baseline (ms)':>22}"
    say(head + (f"  {'alone: p50 × (ms)':>20}" if alone else ""))
    for kind in KINDS:
        values = by_kind.get(kind, [])
        if not values:
            say(f"   {kind:<12} {0:>6}")
            continue
        p50, p99 = percentile(values, 50), percentile(values, 99)
        line = (
            f"   {kind:<12} {len(values):>6}  {p50 / base:>13.1f} ({p50:>6.1f})"
            f"  {p99 / base:>13.1f} ({p99:>6.1f})"
        )
        if alone.get(kind):
            reference = percentile(alone[kind], 50)
            line += f"  {reference / alone_base:>11.1f} ({reference:>6.1f})"
        say(line)
    refusals_save = outcomes[("save", "refused")]
    refusals_fix = outcomes[("correction", "refused")]
    notices = outcomes[("tap", "notice")]
    unmoved: Counter[str] = Counter()
    for r in results:
        unmoved.update(r["unmoved"])
    say(
        f'   expected refusals: {refusals_save + refusals_fix} (saves "{ALREADY_ENTERED[1]}": '
        f'{refusals_save}, corrections "{CHANGED_ELSEWHERE[1]}": {refusals_fix})'
    )
    if unmoved:
        say(
            f"     of which the page drawn with the refusal still showed what was refused (the "
            f"same deal number, the same version), so saving again was refused once more: "
            f"saves {unmoved['save']}, corrections {unmoved['correction']}"
        )
    say(f"   taps on a page another phone had overtaken (applied, with a notice): {notices}")
    errors = [e for r in results for e in r["errors"]]
    setup_errors = [r["setup_error"] for r in results if r["setup_error"]]
    exhausted = sum(1 for r in results if r["exhausted"])
    say(f"   errors: {len(errors) + len(setup_errors)}")
    grouped = Counter((kind, status, why) for kind, _m, _p, status, why in errors)
    example = {(k, s, w): f"{m} {p}" for k, m, p, s, w in errors}
    for (kind, status, why), n in grouped.most_common(12):
        say(f"     {n:>5} × {kind} ({example[(kind, status, why)]}): {why}")
    for why in setup_errors:
        say(f"     client could not start: {why}")
    if exceptions:
        say("   server exceptions (from gunicorn's log):")
        for line, n in exceptions.most_common(8):
            say(f"     {n:>5} × {line}")
    if exhausted:
        say(f"   note: {exhausted} clients ran out of markers and stopped early")
    lost = len(check["missing"]) + len(check["lost_corrections"])
    dup = len(check["duplicates"]) + len(check["unacknowledged"])
    say(
        f"   CHECKS: {check['saves']} saves and {check['corrections']} corrections acknowledged, "
        f"{check['stored']} deals stored (the matches began with {SEEDED} each): "
        f"{len(check['missing'])} saves lost, {len(check['duplicates'])} duplicated, "
        f"{len(check['unacknowledged'])} stored unacknowledged, "
        f"{len(check['lost_corrections'])} corrections lost"
    )
    for key in ("missing", "duplicates", "unacknowledged", "lost_corrections", "other"):
        for line in check[key][:10]:
            say(f"     {key}: {line}")
        if len(check[key]) > 10:
            say(f"     {key}: … and {len(check[key]) - 10} more")
    return {
        "db": db,
        "scenario": name,
        "rps": rps,
        "errors": len(errors) + len(setup_errors),
        "refusals": refusals_save + refusals_fix,
        "lost": lost,
        "duplicates": dup,
        "other": len(check["other"]),
    }


def run_database(
    db: str, args: argparse.Namespace, scenarios: list[str], tmp: Path
) -> list[dict[str, Any]]:
    if db == "sqlite":
        url = f"sqlite:///{tmp / 'load.sqlite3'}"
        label = "SQLite"
    else:
        url = f"{PG_SERVER}/{PG_DATABASE}"
        label = "PostgreSQL"
        try:
            postgres(f"DROP DATABASE IF EXISTS {PG_DATABASE} WITH (FORCE)")
            postgres(f"CREATE DATABASE {PG_DATABASE}")
        except Exception as e:
            raise Failure(f"PostgreSQL at {PG_SERVER} cannot be used: {e}") from e
    env = server_env(url, tmp)
    summaries = []
    try:
        step(f"{label}: migrating a fresh database…")
        run_quiet([sys.executable, "manage.py", "migrate", "--noinput"], env, "migrate")
        job = {"clients": args.clients, "scenarios": scenarios}
        prepared = run_step("setup", job, env, tmp)
        with Server(env, tmp / f"gunicorn-{db}.log") as server:
            baseline, baseline_label = server.baseline()
            step(f"{label}: gunicorn ({WORKERS} sync workers) on {HOST}:{server.port}")
            alone: dict[str, list[float]] = {}
            for name in ["alone", *scenarios]:
                if name == "alone":  # the reference: what each request costs with no queue
                    clients, seconds, requests = 1, None, ALONE_REQUESTS
                else:
                    clients, seconds, requests = args.clients, args.seconds, args.requests
                    if requests:
                        seconds = None
                budget = f"{requests} requests each" if requests else f"{seconds:g} s"
                step(f"{label}: {scenario_label(name, clients)}, {clients} clients, {budget}")
                since = server.log_size()
                results, elapsed = run_clients(
                    clients,
                    seconds,
                    requests,
                    server.port,
                    prepared[name],
                    prepared["cookie"],
                    baseline,
                )
                exceptions = server.exceptions(since)
                # what each match's phones were told; the setup step's deals were told to it
                ids = prepared[name]["matches"]
                records = {
                    str(m): {
                        "saves": [[n - 1, n] for n in range(1, SEEDED + 1)],
                        "corrections": [],
                        "uncertain": [],
                    }
                    for m in ids
                }
                for r in results:
                    match = ids[0] if len(ids) == 1 else ids[r["index"]]
                    for key in ("saves", "corrections", "uncertain"):
                        records[str(match)][key] += r[key]
                check = run_step("check", {"matches": records}, env, tmp)
                summary = report_scenario(
                    label,
                    name,
                    clients,
                    results,
                    elapsed,
                    baseline_label,
                    exceptions,
                    check,
                    alone,
                )
                summaries.append(summary)
                if name == "alone":
                    alone = latencies(results)
    finally:
        if db == "postgresql":
            try:
                postgres(f"DROP DATABASE IF EXISTS {PG_DATABASE} WITH (FORCE)")
            except Exception as e:
                say(f"PostgreSQL: could not drop {PG_DATABASE}: {e}")
    return summaries


def main() -> int:
    if sys.argv[1:2] == ["_step"]:
        return django_step(sys.argv[2:])
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--seconds", type=float, default=30.0, help="per client (default 30)")
    budget.add_argument("--requests", type=int, help="per client, instead of --seconds")
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--db", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--scenario", choices=("one", "many", "both"), default="both")
    args = parser.parse_args()
    if args.clients < 1 or (args.requests is not None and args.requests < 1):
        parser.error("--clients and --requests must be at least 1")

    if importlib.util.find_spec("gunicorn") is None:
        say(
            f"gunicorn is not installed for {sys.executable}: run `make install` (it is one of "
            "the site's dependencies), or `.venv/bin/pip install gunicorn`, then run this with "
            ".venv/bin/python."
        )
        return 1
    databases = ["sqlite", "postgresql"] if args.db == "both" else [args.db]
    scenarios = ["one", "many"] if args.scenario == "both" else [args.scenario]
    say(
        f"Load: gunicorn with {WORKERS} sync workers, {args.clients} clients, "
        + (f"{args.requests} requests" if args.requests else f"{args.seconds:g} s")
        + f" per client and scenario; databases: {', '.join(databases)}; "
        f"scenarios: {', '.join(scenarios)}"
    )
    summaries: list[dict[str, Any]] = []
    failed: list[str] = []
    tmp = Path(tempfile.mkdtemp(prefix="scorekeeper-load-"))
    try:
        write_settings(tmp)
        step("collecting static files into the temporary directory…")
        run_quiet(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
            server_env(f"sqlite:///{tmp / 'unused.sqlite3'}", tmp),
            "collectstatic",
        )
        for db in databases:
            try:
                summaries += run_database(db, args, scenarios, tmp)
            except Failure as e:
                say(f"{db}: {e}")
                failed.append(db)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    say()
    say("== summary")
    say(
        f"   {'database':<11} {'scenario':<9} {'req/s':>7} {'errors':>7} {'refusals':>9} "
        f"{'lost':>5} {'dup/unack':>10}"
    )
    bad = bool(failed)
    for s in summaries:
        say(
            f"   {s['db']:<11} {s['scenario']:<9} {s['rps']:>7.1f} {s['errors']:>7} "
            f"{s['refusals']:>9} {s['lost']:>5} {s['duplicates']:>10}"
        )
        bad = bad or bool(s["errors"] or s["lost"] or s["duplicates"] or s["other"])
    for db in failed:
        say(f"   {db}: did not run (see above)")
    verdict = (
        "FAILED: errors, losses or duplicates above" if bad else "OK: no error, loss or duplicate"
    )
    say(f"   {verdict} (the whole run took {time.monotonic() - STARTED:.0f} s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
