#!/usr/bin/env python3
"""Phones at a table under load: a 4-worker gunicorn, 20 clients entering and correcting deals.

For each database the site is migrated afresh and served by gunicorn (4 sync workers, DEBUG
off, a throwaway SECRET_KEY, ALLOWED_HOSTS=127.0.0.1, SECURE_COOKIES off: plain http on
loopback) on a free port of 127.0.0.1 (benchmarks/_server.py):

- SQLite: a new database file in a temporary directory;
- PostgreSQL: a new database ``scorekeeper_load`` on 127.0.0.1:5432 (user postgres), dropped
  after.

A setup step run with the same settings makes the users, the matches (Burraco, four players, a
target no run reaches) with three deals each, and a logged-in session for every client (so no
password hashing weighs on the run). Then, in each scenario, every client, with its own
cookies, does what a phone at the table does until its time or its requests are spent, each
request as the pages send it. A key of the pad is an htmx POST of the entry form: every hidden
field of the #entry partial last drawn (``draft``, ``deal``, ``version`` "draft id.version",
``confirm`` while a confirmation is shown), the CSRF token, a fresh random ``tap`` id, and the
key as ``action``; the answer is the #entry partial with the new hidden fields. The deal in
progress is the match's, shared by every phone on it:

1. opens the next deal (the entry page) and taps in its part of it, unless it already has on
   that deal in progress: on the side it enters, the "in hand" target, then each of its cards
   (its suit, its rank: one tap adds one card, so a deal in progress is legal after every
   tap), then "took the pot" if its screen shows it unticked; then Save (``confirm=yes`` when
   the Save key asks first). A save from a screen another phone has overtaken is refused
   ("draft_changed") and the page drawn afresh: it saves again (four tries, then it looks at
   the scoreboard and comes back later). Another phone may save the deal first: the page then
   says so ("deal_saved_meanwhile") and the phone goes on to the next deal; a save refused
   because another phone's side has not answered its pot yet ("pot_unanswered") is tried
   again when the phone next comes to that deal;
2. looks at the scoreboard (which must say "Deal N saved." after its own save);
3. opens an earlier deal and toggles its own card in that deal's hand (takes it away if the
   deal holds it, else adds it), then saves the correction, confirmed; refused because another
   phone changed that deal meanwhile ("deal_changed", "was changed elsewhere"), it saves again,
   as the page says to;
4. looks at the scoreboard again ("Deal N corrected."); every fifth request is the baseline.

Every tenth key that changes the deal is sent twice with the same tap id, as a phone whose
answer was lost resends it: the second must change nothing.

The cards: each phone has cards of its own (scenario ``one``: three hand cards, no card held
by more than two phones, so a deal never holds one three times; and one card for its
corrections that no other phone has), so that every card of a deal says which acknowledged tap
put it there.

Scenarios: ``table`` (issue 24: saves at a busy table), tables of four phones, each on a match of
its own: the first enters Anna & Chris's hand and saves, deal after deal; the three others enter
Babis & Dora's hand and pot, then keep tapping their own card in and out of it, never saving: the
figure is how many presses each save took (a save is refused only when a step changed what the
saving screen had open). ``one``, every client on ONE match (the taps of twenty phones go into one
deal in progress, the saves race for it, the corrections mostly for deals 1-3; even clients enter
Anna & Chris's hand, odd ones Babis & Dora's); ``many``, each client on its own match, entering
both sides. There is no think time: a stress test, not an evening. Under it every request first
waits for a free worker, so the ratios to the baseline are compressed towards 1 (the baseline's p50
is mostly that wait); the column "alone" gives them as measured first, on the same server, with one
phone alone (150 requests): what each kind of request costs when nothing waits.

Prints, per database and scenario: requests per second; the saves of new deals by the press that
stored them (the accepted-save share: by the 1st or 2nd press); p50 and p99 of each kind of request
as a multiple of the baseline's p50 in the same run (milliseconds in brackets); the expected
refusals by code; the errors (a 5xx, a connection error, or a response that is neither a success
nor an expected refusal), with the server's exceptions; then CHECKS against the database: every
deal acknowledged as saved is stored once, under its number, as the saving phone's screen showed it
(a save carries the version it was drawn from), and nothing is stored that no phone was told about;
the last acknowledged correction of each deal is what is stored, and a correction never silently
undoes the one before it (unless its phone was told "was changed elsewhere"); every acknowledged
tap is in the deal it was acknowledged in exactly once (as saved, or in the deal in progress left
at the end), none lost, none applied twice. Exit status 1 on any error, loss or duplicate.

The baseline is ``GET /healthz`` when the site has one, else the login page (anonymous); the
output says which.

    .venv/bin/python benchmarks/load.py [--seconds S | --requests N] [--clients 20]
                                        [--db sqlite|postgresql|both]
                                        [--scenario one|table|many|both|all]
"""

from __future__ import annotations

import argparse
import gzip
import html
import json
import math
import random
import re
import secrets
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from _report import say_exceptions, took
from _server import (
    HOST,
    LABELS,
    START_TIMEOUT,
    WORKERS,
    Failure,
    Server,
    database,
    database_list,
    each_database,
    gunicorn_missing,
    keep_cookies,
    percentile,
    phone_headers,
    run_script,
    run_step,
    say,
    script_parser,
    send,
    start_together,
    step,
)

PG_DATABASE = "scorekeeper_load"
PLAYERS = ["Anna", "Babis", "Chris", "Dora"]  # sides: Anna & Chris (0), Babis & Dora (1)
SEEDED = 3  # deals each match starts with; the corrections' first targets
SAVE_TRIES = 4
RESEND_EVERY = 10  # one key in ten that changes the deal (3rd, 13th…) is sent twice, same id
ALONE_REQUESTS = 150  # the reference pass: one phone alone, before the scenarios
KINDS = ("baseline", "scoreboard", "entry page", "tap", "save", "correction")

# --- the cards -----------------------------------------------------------------------------------

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
CARDS = [rank + suit for suit in "SHDC" for rank in RANKS]  # the 52 cards of a pack
HAND_CARDS = 3  # the cards a phone enters of each deal, per side it enters
MAX_SHARED = 34  # phones on one match: each has a card of its own, the rest held by two at most
SEEDED_DEAL = {
    "sides": [
        {"melds": [], "hand": [CARDS[-1]], "took_pot": False, "went_out": False},
        {"melds": [], "hand": [CARDS[-2]], "took_pot": False, "went_out": False},
    ]
}


TABLE = 4  # phones at one table (scenario ``table``): one saves, three tap on the other side


def allot(index: int, clients: int, shared: bool, *, table: bool = False) -> dict[str, Any]:
    """The sides phone ``index`` enters, its cards on each, and its card for corrections.

    At a table (scenario ``table``) the first phone of each four enters Anna & Chris's hand
    and saves ("saver"); the three others enter Babis & Dora's, answer their pot, then keep
    tapping their own card in and out of that hand ("tapper"), never saving.

    On a match of its own it enters both sides; on a shared match (``clients`` phones) one
    side, and the card it toggles in corrections is its own (cards ``0 .. clients-1``), while
    its hand cards come from the other cards, each held by two phones at most: the deal in
    progress, where every phone enters its cards once, never holds a card three times."""
    if table:
        seat = index % TABLE
        side = 0 if seat == 0 else 1
        return {
            "role": "saver" if seat == 0 else "tapper",
            "sides": [side],
            "cards": {side: CARDS[TABLE + 3 * seat : TABLE + 3 * seat + 3]},
            "toggle": CARDS[seat],
            "toggle_side": side,
        }
    if not shared:
        return {
            "sides": [0, 1],
            "cards": {0: CARDS[1:4], 1: CARDS[4:7]},
            "toggle": CARDS[0],
            "toggle_side": 0,
        }
    pool = CARDS[clients:]
    copies = pool + pool
    per = min(HAND_CARDS, len(copies) // clients)
    side = index % 2
    return {
        "sides": [side],
        "cards": {side: copies[index * per : (index + 1) * per]},
        "toggle": CARDS[index],
        "toggle_side": side,
    }


# --- one phone -----------------------------------------------------------------------------------

HIDDEN = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)"')
CSRF_HEADER = re.compile(r"hx-headers='\{\"x-csrftoken\": \"([^\"]+)\"\}'")
BANNER = re.compile(r'<p class="banner (bad|info)[^"]*"([^>]*)>(.*?)</p>', re.S)
CODE = re.compile(r'data-message="([^"]*)"')
SAVE_ASKS = re.compile(r'value="save" data-save[^>]*data-ask-confirms')
TAG = re.compile(r"<[^>]+>")
ENTRY_FIELDS = ("draft", "deal", "version", "tap", "confirm")
# The parts of the page it holds (entry.js sends them with every tap, NAME:DIGEST,…: the pad's
# keys, the trump's row, the contracts; an answer then leaves out those that are the same,
# marked data-kept, and the phone keeps its own: templatetags/keep_tags.py).
KEPT = re.compile(r'data-keep="([^"]+)" data-keep-of="([^"]+)"( data-kept)?')


def held_parts(body: str, before: str = "") -> str:
    """What entry.js says the page holds after ``body`` came (``before``: what it held)."""
    held = dict(part.split(":", 1) for part in before.split(",") if ":" in part)
    for name, of, empty in KEPT.findall(body):
        if not empty:
            held[name] = of  # drawn anew: the page holds this drawing now
    return ",".join(f"{name}:{of}" for name, of in held.items())


STORED = 'class="entry stored"'  # the page of a deal saved meanwhile (no pad, no form)
PAD = 'class="entry rummy"'
# What a tap may meet and still have been applied: another phone's change (a notice).
NOTICES = {"draft_overtaken"}
# A save refused as the site means it to be, the page drawn afresh (the phone saves again).
SAVE_AGAIN = {"draft_changed", "deal_changed"}


def _text(fragment: str) -> str:
    return " ".join(html.unescape(TAG.sub(" ", fragment)).split())


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

    def banners(self) -> list[tuple[str, str, str]]:
        """The banners shown on the page: (bad|info, code, words)."""
        out = []
        for tone, attributes, words in BANNER.findall(self.body):
            code = CODE.search(attributes)
            out.append((tone, code.group(1) if code else "", _text(words)))
        return out

    def refusals(self) -> list[str]:
        return [code or words[:80] for tone, code, words in self.banners() if tone == "bad"]

    def notices(self) -> list[str]:
        return [code for tone, code, _ in self.banners() if tone == "info"]

    def pad(self) -> bool:
        """The #entry partial with the pad and its hidden fields."""
        return PAD in self.body and self.draft() is not None

    def stored_meanwhile(self) -> str:
        """The code of "deal N was saved (corrected) meanwhile", if that is the page."""
        if STORED not in self.body:
            return ""
        notices = self.notices()
        return notices[0] if notices else "stored_meanwhile"

    def why(self) -> str:
        """What a response that is neither a success nor an expected refusal says."""
        for tone, code, words in self.banners():
            if tone == "bad":
                return f"{words[:160]}" + (f" [{code}]" if code else "")
        redirect = self.headers.get("HX-Redirect") or self.headers.get("Location")
        if redirect:
            return f"went to {redirect}"
        return f"no redirect and no refusal: {_text(self.body)[:160]!r}"

    def draft(self) -> dict[str, Any] | None:
        if STORED in self.body:
            return None  # its only draft is the one it offers as a correction
        try:
            return json.loads(self.hidden()["draft"])
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
        self.samples: list[tuple[str, float, str]] = []  # kind, ms, ok|notice|refused:…|error
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
        target: str = "entry",
        expect: tuple[int, ...] = (200,),
    ) -> Response | None:
        """One request; None (and an error recorded) on a connection error, a 5xx or a status
        other than ``expect``. A response returned must be judged with ok/refused/fail."""
        if self._spent():
            raise Done
        headers, body = phone_headers(
            self.origin,
            "scorekeeper-load/2",
            self.cookies if cookies else {},
            fields=fields,
            target=target if htmx else "",  # htmx: entry.js's tap queue, the form as its source
            current=current,
            csrf=csrf,
        )
        if self.timing:
            self.count += 1
        reply, raw, ms, why = send(self.port, method, path, headers, body, timeout=60)
        if reply is None:
            self._sample(kind, ms, "error")
            self.errors.append((kind, method, path, 0, why))
            return None
        if reply.getheader("Content-Encoding") == "gzip":
            raw = gzip.decompress(raw)
        if cookies:
            keep_cookies(self.cookies, reply.headers)
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

    def refused(self, r: Response, code: str) -> None:
        self._sample(r.kind, r.ms, f"refused:{code}")

    def fail(self, r: Response, why: str) -> None:
        self._sample(r.kind, r.ms, "error")
        if self.timing:
            self.errors.append((r.kind, r.method, r.path, r.status, why))


class Entry:
    """An entry page as the phone holds it: the form's fields, the CSRF header token, and the
    #entry partial last drawn."""

    def __init__(self, page: Response):
        self.path = page.path
        self.fields = page.hidden(after='id="entry-form"')
        found = CSRF_HEADER.search(page.body)
        self.csrf = found.group(1) if found else self.fields.get("csrfmiddlewaretoken", "")
        self.body = page.body
        self._hold_pad(page.body)

    def _hold_pad(self, body: str) -> None:
        self.fields["kept"] = held_parts(body, self.fields.get("kept", ""))

    def redraw(self, partial: Response) -> None:
        """The #entry partial came back: its fields replace those inside #entry."""
        for name in ENTRY_FIELDS:
            self.fields.pop(name, None)
        self.fields.update({k: v for k, v in partial.hidden().items() if k in ENTRY_FIELDS})
        self.body = partial.body
        self._hold_pad(partial.body)

    @property
    def draft(self) -> dict[str, Any]:
        return json.loads(self.fields["draft"])

    @property
    def number(self) -> int:
        return int(self.fields.get("deal") or 0)

    @property
    def pk(self) -> int:
        """The deal in progress the page was drawn from (0: none has begun)."""
        return int(self.fields.get("version", "0").partition(".")[0] or 0)

    @property
    def asks_confirm(self) -> bool:
        """The Save key asks first, and sends confirm=yes once agreed (entry.js)."""
        return bool(SAVE_ASKS.search(self.body))

    def fields_for(self, action: str, **extra: str) -> dict[str, str]:
        """What entry.js sends for a key: the form's fields, a fresh tap id, the key."""
        return {**self.fields, **extra, "tap": secrets.token_hex(12), "action": action}

    def send(self, phone: Phone, kind: str, fields: dict[str, str]) -> Response | None:
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
        self.mine = cfg["allot"]
        self.known = SEEDED  # deals this phone knows the match holds
        self.since_baseline = 0
        self.contributed: set[int] = set()  # the deals in progress it has entered its part of
        self.changing_taps = 0
        # what the checks compare with the database
        self.saves: list[tuple[int, int, str]] = []  # deal number, draft id, the draft saved
        self.corrections: list[tuple[int, int, str]] = []  # the same, for corrections
        self.uncertain: list[tuple[str, int, int]] = []  # save|correction, number, draft id
        # draft, editing, side, card, ±1, the deal number its answer was drawn for
        self.taps: list[tuple[int, bool, int, str, int, int]] = []
        self.changed: list[int] = []  # drafts whose save was refused "was changed elsewhere"
        self.resent = 0
        # each new deal this phone pressed Save on: how it ended ("stored", "meanwhile": saved
        # by another phone, "pot": another side's pot unanswered, "gave up"), after how many
        # presses
        self.save_presses: list[tuple[str, int]] = []

    def run(self) -> None:
        role = self.mine.get("role")
        if role == "saver":  # a table's scorer: enters its side and saves, deal after deal
            while True:
                self.enter()
        if role == "tapper":
            while True:
                self.tap_along()
        # half the phones begin with a correction, so that a short run has both from the start
        correcting = self.cfg["index"] % 2 == 1
        while True:
            if correcting:
                self.correct(self.pick_deal())
            else:
                self.enter()
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

    def _judge_tap(self, r: Response, action: str, resent: bool = False) -> str | None:
        """What the answer to a tap says: "ok" (applied, the page redrawn), "gone" (the deal
        was saved meanwhile: not applied, as the page says), None (an error, recorded).
        ``resent``: the answer to a tap sent again (a notice on it is about the first send)."""
        gone = r.stored_meanwhile()
        if gone:
            self.phone.refused(r, gone)
            return "gone"
        if not r.pad():
            self.phone.fail(r, f"{action}: no pad in the answer: {r.why()}")
            return None
        refusals = r.refusals()
        if refusals:
            self.phone.fail(r, f"{action}: {r.why()}")
            return None
        notices = [n for n in r.notices() if n]
        if any(n not in NOTICES for n in notices):
            self.phone.fail(r, f"{action}: unexpected notice {notices}")
            return None
        self.phone.ok(r, "resent" if resent else "notice" if notices else "ok")
        return "ok"

    def tap(
        self, entry: Entry, action: str, change: tuple[int, str, int] | None = None
    ) -> str | None:
        """Press one key. ``change``: (side, card, ±1) when the key adds or takes away a card,
        recorded once the answer says it was applied."""
        self.maybe_baseline()
        fields = entry.fields_for(action)
        r = entry.send(self.phone, "tap", fields)
        if r is None:
            return None
        outcome = self._judge_tap(r, action)
        if outcome != "ok":
            return outcome
        entry.redraw(r)
        if change is None:
            return "ok"
        editing = "/edit/" in entry.path
        self.taps.append((entry.pk, editing, *change, entry.number))
        self.contributed.add(entry.pk)
        self.changing_taps += 1
        if self.changing_taps % RESEND_EVERY == 3:  # its answer "lost": sent again as it was
            r = entry.send(self.phone, "tap", fields)
            if r is None:
                return None
            outcome = self._judge_tap(r, action, resent=True)
            if outcome == "ok":
                self.resent += 1
                entry.redraw(r)
            return outcome
        return "ok"

    def add_card(self, entry: Entry, side: int, card: str) -> str | None:
        """The keys that add ``card`` to the hand of ``side``, as the pad has them."""
        draft = entry.draft
        if draft["side"] != side and (outcome := self.tap(entry, f"side:{side}")) != "ok":
            return outcome
        if entry.draft["sides"][side].get("target", "new") != "hand":
            if (outcome := self.tap(entry, "target:hand")) != "ok":
                return outcome
        if entry.draft["suit"] != card[-1]:
            if (outcome := self.tap(entry, f"suit:{card[-1]}")) != "ok":
                return outcome
        return self.tap(entry, f"rank:{card[:-1]}", (side, card, 1))

    def save(self, entry: Entry, editing: bool) -> bool:
        """Save the deal (or the correction) as the page stands, again when the page is drawn
        afresh with a refusal that says to; True once stored."""
        kind = "correction" if editing else "save"

        def ended(how: str, presses: int) -> None:
            if not editing:
                self.save_presses.append((how, presses))

        for press in range(1, SAVE_TRIES + 1):
            number, pk, content = entry.number, entry.pk, entry.fields["draft"]
            extra = {"confirm": "yes"} if entry.asks_confirm else {}
            r = entry.send(self.phone, kind, entry.fields_for("save", **extra))
            if r is None:
                self.uncertain.append((kind, number, pk))
                return False
            if r.headers.get("HX-Redirect") == self.board:
                self.phone.ok(r)
                if editing:
                    self.corrections.append((number, pk, content))
                    self.scoreboard(f"Deal {number} corrected.")
                else:
                    self.saves.append((number, pk, content))
                    self.known = max(self.known, number)
                    ended("stored", press)
                    self.scoreboard(f"Deal {number} saved.")
                return True
            gone = r.stored_meanwhile()
            if gone:  # another phone saved it first (with what this phone had entered)
                self.phone.refused(r, gone)
                self.known = max(self.known, number)
                ended("meanwhile", press)
                return False
            refusals = r.refusals()
            if "pot_unanswered" in refusals:
                # another phone's side has not said yet whether it took its pot: as at a
                # table, this phone saves once they have (it comes back to the deal later)
                self.phone.refused(r, "pot_unanswered")
                ended("pot", press)
                return False
            confirming = "data-confirm" in r.body
            if r.pad() and set(refusals) <= SAVE_AGAIN and (refusals or confirming):
                self.phone.refused(r, refusals[0] if refusals else "confirm_asked")
                if "deal_changed" in refusals:
                    self.changed.append(pk)
                entry.redraw(r)
                continue
            self.phone.fail(r, f"{kind}: {r.why()}")
            return False
        ended("gave up", SAVE_TRIES)
        return False

    def tap_along(self) -> None:
        """A table's other phones: their side's cards and pot once a deal, then their own card
        tapped into that hand and out again, five times, until the deal is saved."""
        entry = self.open(f"/matches/{self.match}/deals/new/")
        if entry is None:
            return
        side, card = self.mine["toggle_side"], self.mine["toggle"]
        if not self.enter_part(entry):
            return
        for _ in range(5):
            if self.toggle(entry, side, card) != "ok":
                return

    def toggle(self, entry: Entry, side: int, card: str) -> str | None:
        """``card`` taken out of the hand of ``side`` if it holds it, else added to it."""
        hand = entry.draft["sides"][side]["hand"]
        if card in hand:
            return self.tap(entry, f"remove:hand:{hand.index(card)}", (side, card, -1))
        return self.add_card(entry, side, card)

    def enter(self) -> None:
        entry = self.open(f"/matches/{self.match}/deals/new/")
        if entry is None:
            return
        self.known = max(self.known, entry.number - 1)
        if not self.enter_part(entry):
            return
        if not self.save(entry, editing=False):
            self.scoreboard()

    def enter_part(self, entry: Entry) -> bool:
        """This phone's part of the deal in progress, once a deal: on each of its sides, its
        cards, then "took the pot" if its screen shows it unticked. False if a tap failed."""
        if entry.pk == 0 or entry.pk not in self.contributed:
            for side in self.mine["sides"]:
                for card in self.mine["cards"][side]:
                    if self.add_card(entry, side, card) != "ok":
                        return False
                if not entry.draft["sides"][side].get("took_pot"):
                    if self.tap(entry, f"pot:{side}") != "ok":
                        return False
            self.contributed.add(entry.pk)
        return True

    def pick_deal(self) -> int:
        if self.cfg["shared"] and self.rng.random() < 0.7:
            return self.rng.randint(1, SEEDED)  # the phones race for these
        return self.rng.randint(1, self.known)

    def correct(self, number: int) -> None:
        entry = self.open(f"/matches/{self.match}/deals/{number}/edit/")
        if entry is None:
            return
        if entry.pk == 0 or entry.pk not in self.contributed:
            side, card = self.mine["toggle_side"], self.mine["toggle"]
            if entry.draft["side"] != side and self.tap(entry, f"side:{side}") != "ok":
                return
            if self.toggle(entry, side, card) != "ok":
                return
        if not self.save(entry, editing=True):
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
        taps=table.taps,
        changed=table.changed,
        resent=table.resent,
        toggle=table.mine["toggle"],
        save_presses=table.save_presses,
    )
    queue.put(result)


# --- the database steps (run with the server's settings, in a child process) ----------------


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
            services.deal_record(match=match, data=SEEDED_DEAL, number=number)
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
    if "table" in job["scenarios"]:
        out["table"] = {
            "table": True,
            "matches": [match_for(users[0]) for _ in range(math.ceil(job["clients"] / TABLE))],
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
        "taps": 0,
        "missing": [],
        "duplicates": [],
        "unacknowledged": [],
        "lost_corrections": [],
        "lost_taps": [],
        "other": [],
    }
    for match_id, record in job["matches"].items():
        check_match(int(match_id), record, report)
    return report


def check_match(match_id: int, record: dict[str, Any], report: dict[str, Any]) -> None:
    from scorekeeper.entry.drafts import RummyDraft
    from scorekeeper.models import DealDraft, Match, MatchChange
    from scorekeeper.rules import match as rules_match
    from scorekeeper.selectors import match_document

    match = Match.objects.get(pk=match_id)
    document = match_document(match)
    header = {**document, "deals": []}
    where = f"match {match_id}"

    def as_stored(draft_json: str) -> Any:
        """The deal a save builds from this draft, as the rules write it (as it is stored)."""
        deal = RummyDraft.loads(draft_json, game="burraco", side_count=2).deal_json()
        parsed = rules_match.parse_document({**header, "deals": [deal]})
        return parsed.engine.deal_json(parsed.deals[0])

    def shown_open(draft_json: str, data: Any) -> bool:
        """Whether the stored deal is what the saving screen showed on the side it had open,
        with every side's pot and going out as it showed them (other phones' steps on the
        other sides since are saved with it: issue 24)."""
        shown, side = as_stored(draft_json), json.loads(draft_json).get("side", 0)

        def answers(deal: Any) -> list[Any]:
            return [(s.get("took_pot"), s.get("went_out")) for s in deal["sides"]]

        return shown["sides"][side] == data["sides"][side] and answers(shown) == answers(data)

    def hands(content: Any) -> list[Counter[str]]:
        return [Counter(side.get("hand") or []) for side in content["sides"]]

    stored = dict(enumerate(document["deals"], start=1))
    # each new deal as its save stored it (the match's history), before any correction
    entered = {
        c.number: c.after
        for c in MatchChange.objects.filter(match=match, kind="entered").order_by("id")
    }
    report["stored"] += len(stored)
    in_progress = {d.pk: d for d in DealDraft.objects.filter(match=match)}
    uncertain: dict[str, set[int]] = defaultdict(set)  # kind: deal numbers
    uncertain_drafts = set()
    for kind, number, pk in record["uncertain"]:
        uncertain[kind].add(number)
        uncertain_drafts.add(pk)
    report["saves"] += len(record["saves"])
    report["corrections"] += len(record["corrections"])
    report["taps"] += len(record["taps"])

    # every acknowledged save: stored once, under its number, as the saving phone saw it
    saved: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for number, pk, content in record["saves"]:
        saved[number].append((pk, content))
    for number, acks in sorted(saved.items()):
        if len(acks) > 1:
            report["duplicates"].append(
                f"{where}: deal {number} was acknowledged as saved to {len(acks)} phones "
                f"(drafts {[pk for pk, _ in acks]})"
            )
        if number not in stored:
            report["missing"].append(
                f"{where}: deal {number} was acknowledged as saved, but the match holds "
                f"{len(stored)} deals"
            )
    for number in stored:
        if number > SEEDED and number not in saved and number not in uncertain["save"]:
            report["unacknowledged"].append(
                f"{where}: deal {number} is stored, but no phone was told it saved it"
            )

    # every deal's acknowledged corrections: the last is what is stored, and none silently
    # undoes the one before it (a toggle card it did not touch keeps its place)
    fixed: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for number, pk, content in record["corrections"]:
        fixed[number].append((pk, content))
    toggled: dict[int, set[str]] = defaultdict(set)  # draft: the cards toggled on it
    for pk, editing, _side, card, _delta, _number in record["taps"]:
        if editing:
            toggled[pk].add(card)
    changed = set(record["changed"])
    toggles = record["toggles"]
    for number, data in stored.items():
        chain = sorted(fixed.get(number, []))
        if len({pk for pk, _ in chain}) != len(chain):
            report["duplicates"].append(
                f"{where}, deal {number}: one correction in progress acknowledged as saved twice"
            )
        if number in uncertain["correction"]:
            continue  # a correction got no answer: stored or not, nobody knows
        if chain:
            if as_stored(chain[-1][1]) != data:
                report["lost_corrections"].append(
                    f"{where}, deal {number}: what is stored is not the last acknowledged "
                    f"correction (draft {chain[-1][0]})"
                )
        elif len(saved.get(number, [])) == 1 and not shown_open(
            saved[number][0][1], entered.get(number, data)
        ):
            report["other"].append(
                f"{where}, deal {number}: stored otherwise than the saving phone's screen showed "
                "on the side it had open"
            )
        if number > SEEDED and (len(saved.get(number, [])) != 1 or number in uncertain["save"]):
            continue
        before: Counter[str] = Counter()  # neither the seeded deals nor the saves hold toggles
        for pk, content in chain:
            now = Counter()
            for hand in hands(json.loads(content)):
                now.update({card: n for card, n in hand.items() if card in toggles})
            if pk not in changed:
                for card in toggles:
                    if card not in toggled[pk] and now[card] != before[card]:
                        report["lost_corrections"].append(
                            f"{where}, deal {number}: the correction of draft {pk} has {card} "
                            f"{now[card]} times where the one before it had it "
                            f"{before[card]} times, and no phone was told the deal had changed"
                        )
            before = now

    # every acknowledged tap: in its deal in progress exactly once, as saved or as left (a new
    # deal as stored: with the steps other phones made after the saving screen was drawn)
    seen_at_save = {pk: content for _n, pk, content in record["corrections"]}
    seen_at_save.update(
        {pk: json.dumps(entered[n]) for n, pk, _c in record["saves"] if n in entered}
    )
    by_draft: dict[int, list[tuple[bool, int, str, int, int]]] = defaultdict(list)
    for pk, editing, side, card, delta, number in record["taps"]:
        by_draft[pk].append((editing, side, card, delta, number))
    for pk, taps in sorted(by_draft.items()):
        editing = taps[0][0]
        numbers = sorted({t[4] for t in taps})
        what = (
            f"{where}, {'a correction' if editing else 'a new deal'} in progress (draft {pk}, "
            f"its acknowledged taps drawn for deal {' and '.join(map(str, numbers))}"
            + (f", now deal {in_progress[pk].number}'s" if pk in in_progress else "")
            + ")"
        )
        if pk in seen_at_save:
            content, state = json.loads(seen_at_save[pk]), "as saved"
        elif pk in in_progress:
            content, state = in_progress[pk].data.get("content") or {}, "as left at the end"
        elif pk in uncertain_drafts:
            continue
        else:
            report["lost_taps"].append(
                f"{what}: {len(taps)} taps acknowledged, but it was neither saved (no phone was "
                f"told so) nor is it in progress"
            )
            continue
        found = hands(content)
        for side in range(len(found)):
            expected: Counter[str] = Counter()
            last: dict[str, int] = {}
            for _editing, tap_side, card, delta, _number in taps:
                if tap_side == side:
                    expected[card] += delta
                    last[card] = delta
            if editing:  # a toggle: the card is there once after an addition, not at all after
                wrong = {c: found[side][c] for c, d in last.items() if found[side][c] != (d > 0)}
            else:
                wrong = {
                    c: found[side][c]
                    for c in set(expected) | set(found[side])
                    if found[side][c] != expected[c]
                }
            for card, n in sorted(wrong.items()):
                drawn = sorted({t[4] for t in taps if t[2] == card})
                report["lost_taps"].append(
                    f"{what}, side {side} {state}: {card} {n} times, the acknowledged taps put "
                    f"it there {(last[card] > 0) if editing else expected[card]:d} times "
                    f"(on deal {' and '.join(map(str, drawn))})"
                )


# --- the runner ---------------------------------------------------------------------------------


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
    matches = prepared["matches"]
    table = bool(prepared.get("table"))
    shared = len(matches) == 1 and clients > 1 and not table
    configs = [
        {
            "index": i,
            "port": port,
            "match": match_of(matches, i, table=table),
            "shared": shared,
            "allot": allot(i, clients, shared, table=table),
            "session_cookie": cookie,
            "session": prepared["sessions"][i],
            "seconds": seconds,
            "requests": requests,
            "baseline": baseline,
            "seed": 1000 * i + 7,
        }
        for i in range(clients)
    ]
    processes, queue = start_together(client_main, configs)
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


def match_of(matches: list[int], index: int, *, table: bool) -> int:
    """The match client ``index`` plays on: the one, its own, or its table's."""
    if table:
        return matches[index // TABLE]
    return matches[0] if len(matches) == 1 else matches[index]


def scenario_label(name: str, clients: int) -> str:
    if name == "alone":
        return "one phone alone on its match"
    if name == "table":
        tables = math.ceil(clients / TABLE)
        return f"{tables} table{'s' if tables > 1 else ''} of {TABLE} phones (one saves)"
    return "ONE match" if name == "one" else f"{clients} matches, one each"


def latencies(results: list[dict[str, Any]]) -> dict[str, list[float]]:
    by_kind: dict[str, list[float]] = defaultdict(list)
    for r in results:
        for kind, ms, _ in r["samples"]:
            by_kind[kind].append(ms)
    for values in by_kind.values():
        values.sort()
    return by_kind


REFUSAL_WORDS = {
    "draft_changed": "overtaken by another phone's tap",
    "deal_changed": "deal changed elsewhere",
    "deal_saved_meanwhile": "saved meanwhile by another phone",
    "deal_corrected_meanwhile": "corrected meanwhile by another phone",
    "confirm_asked": "asked to confirm",
    "pot_unanswered": "another side's pot not answered yet",
}


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
    refused: dict[str, Counter[str]] = defaultdict(Counter)
    for (kind, outcome), n in outcomes.items():
        if outcome.startswith("refused:"):
            refused[kind][outcome.removeprefix("refused:")] += n
    total_refused = sum(sum(c.values()) for c in refused.values())
    say(f"   expected refusals: {total_refused}")
    for kind in ("save", "correction", "tap"):
        if refused.get(kind):
            parts = ", ".join(
                f"{REFUSAL_WORDS.get(code, code)} ({code}) {n}"
                for code, n in refused[kind].most_common()
            )
            note = " (not applied, as the page says)" if kind == "tap" else ""
            say(f"     {kind}{note}: {parts}")
    notices = outcomes[("tap", "notice")]
    resent = sum(r["resent"] for r in results)
    say(
        f"   taps on a page another phone had overtaken (applied, with a notice): {notices}; "
        f"taps sent twice with the same id: {resent}"
    )
    presses = [p for r in results for p in r.get("save_presses", [])]
    stored = Counter(n for how, n in presses if how == "stored")
    gave_up = sum(1 for how, _n in presses if how == "gave up")
    pressed = sum(stored.values()) + gave_up  # deals their phone saved, or gave up saving
    first_two = stored[1] + stored[2]
    share = first_two / pressed if pressed else math.nan
    later = sum(n for k, n in stored.items() if k > 2)
    say(
        f"   saves of new deals: {pressed} pressed to the end; stored by the 1st press "
        f"{stored[1]}, the 2nd {stored[2]}, a later one {later}, given up after {SAVE_TRIES} "
        f"{gave_up}: accepted-save share (1st or 2nd press) {share:.1%}; besides, saved first "
        f"by another phone {sum(1 for how, _ in presses if how == 'meanwhile')}, waiting for "
        f"another side's pot {sum(1 for how, _ in presses if how == 'pot')}"
    )
    errors = [e for r in results for e in r["errors"]]
    setup_errors = [r["setup_error"] for r in results if r["setup_error"]]
    say(f"   errors: {len(errors) + len(setup_errors)}")
    grouped = Counter((kind, status, why) for kind, _m, _p, status, why in errors)
    example = {(k, s, w): f"{m} {p}" for k, m, p, s, w in errors}
    for (kind, status, why), n in grouped.most_common(12):
        say(f"     {n:>5} × {kind} ({example[(kind, status, why)]}): {why}")
    for why in setup_errors:
        say(f"     client could not start: {why}")
    say_exceptions(exceptions, most=8, width=None)
    lost = len(check["missing"]) + len(check["lost_corrections"]) + len(check["lost_taps"])
    dup = len(check["duplicates"]) + len(check["unacknowledged"])
    say(
        f"   CHECKS: {check['saves']} saves, {check['corrections']} corrections and "
        f"{check['taps']} card taps acknowledged, {check['stored']} deals stored (the matches "
        f"began with {SEEDED} each): {len(check['missing'])} saves lost, "
        f"{len(check['duplicates'])} duplicated, {len(check['unacknowledged'])} stored "
        f"unacknowledged, {len(check['lost_corrections'])} corrections lost, "
        f"{len(check['lost_taps'])} taps lost or doubled"
    )
    problems = ("missing", "duplicates", "unacknowledged", "lost_corrections", "lost_taps", "other")
    for key in problems:
        for line in check[key][:10]:
            say(f"     {key}: {line}")
        if len(check[key]) > 10:
            say(f"     {key}: … and {len(check[key]) - 10} more")
    return {
        "db": db,
        "scenario": name,
        "rps": rps,
        "errors": len(errors) + len(setup_errors),
        "refusals": total_refused,
        "lost": lost,
        "duplicates": dup,
        "other": len(check["other"]),
        "accepted": share,
    }


def run_database(
    db: str, args: argparse.Namespace, scenarios: list[str], tmp: Path
) -> list[dict[str, Any]]:
    label = LABELS[db]
    summaries = []
    with database(db, tmp, PG_DATABASE) as env:
        job = {"clients": args.clients, "scenarios": scenarios}
        prepared = run_step(__file__, "setup", job, env, tmp)
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
                ids = prepared[name]["matches"]
                keys = ("saves", "corrections", "uncertain", "taps", "changed")
                records: dict[str, dict[str, list[Any]]] = {
                    str(m): {key: [] for key in (*keys, "toggles")} for m in ids
                }
                for r in results:
                    match = match_of(ids, r["index"], table=name == "table")
                    for key in keys:
                        records[str(match)][key] += r[key]
                    records[str(match)]["toggles"].append(r["toggle"])
                check = run_step(__file__, "check", {"matches": records}, env, tmp)
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
    return summaries


def main() -> int:
    parser = script_parser(__doc__)
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--seconds", type=float, default=30.0, help="per client (default 30)")
    budget.add_argument("--requests", type=int, help="per client, instead of --seconds")
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--db", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument(
        "--scenario", choices=("one", "table", "many", "both", "all"), default="all"
    )
    args = parser.parse_args()
    if args.clients < 1 or (args.requests is not None and args.requests < 1):
        parser.error("--clients and --requests must be at least 1")
    if args.scenario in ("one", "both", "all") and args.clients > MAX_SHARED:
        parser.error(f"at most {MAX_SHARED} clients share one match (each has its own cards)")

    missing = gunicorn_missing()
    if missing:
        say(missing)
        return 1
    databases = database_list(args.db)
    scenarios = {"both": ["one", "many"], "all": ["one", "table", "many"]}.get(
        args.scenario, [args.scenario]
    )
    say(
        f"Load: gunicorn with {WORKERS} sync workers, {args.clients} clients, "
        + (f"{args.requests} requests" if args.requests else f"{args.seconds:g} s")
        + f" per client and scenario; databases: {', '.join(databases)}; "
        f"scenarios: {', '.join(scenarios)}"
    )
    runs, failed = each_database(
        databases,
        "scorekeeper-load-",
        lambda db, tmp: run_database(db, args, scenarios, tmp),
        name=str,
    )
    summaries = [s for db_summaries in runs.values() for s in db_summaries]

    say()
    say("== summary")
    say(
        f"   {'database':<11} {'scenario':<9} {'req/s':>7} {'errors':>7} {'refusals':>9} "
        f"{'lost':>5} {'dup/unack':>10} {'saves 1st/2nd':>14}"
    )
    bad = bool(failed)
    for s in summaries:
        say(
            f"   {s['db']:<11} {s['scenario']:<9} {s['rps']:>7.1f} {s['errors']:>7} "
            f"{s['refusals']:>9} {s['lost']:>5} {s['duplicates']:>10} {s['accepted']:>14.1%}"
        )
        bad = bad or bool(s["errors"] or s["lost"] or s["duplicates"] or s["other"])
    for db in failed:
        say(f"   {db}: did not run (see above)")
    verdict = (
        "FAILED: errors, losses or duplicates above" if bad else "OK: no error, loss or duplicate"
    )
    say(f"   {verdict} ({took()})")
    return 1 if bad else 0


if __name__ == "__main__":
    run_script(main, {"setup": step_setup, "check": step_check})
