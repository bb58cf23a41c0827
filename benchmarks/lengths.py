#!/usr/bin/env python3
"""Fast at any length: a tap, a save and a scoreboard at deal 1 and at deal 300, and the home
page of an account with 10 and with 2,000 matches, each as a ratio to GET /healthz.

For each database the site is migrated afresh and served by gunicorn as load.py serves it (4
sync workers, DEBUG off, a throwaway SECRET_KEY; benchmarks/_server.py): SQLite in a temporary
directory, PostgreSQL in a new database ``scorekeeper_lengths`` on 127.0.0.1:5432 (user
postgres), dropped after.

**The matches**, made before the server starts by a setup step run with the server's settings:
for a Biriba match of 1, 40 and 300 deals and a Barbu match (classic, series rotation) of 1, 14
and 28 deals, one match made with the site's services (``match_create``, then ``deal_record``
deal by deal, with the legal deals of tests/conftest.py: each rummy side melds a run of three,
each Barbu deal is the next contract of the series, doubled by the three others; Biriba with a
target no run reaches). Its copies are exact: every row of the match and of its seats, deals,
deal in progress, history (copied in the database, ``INSERT … SELECT``), so each copy holds what
the services stored, its cached totals and its kept scoring state included. The scoreboard is
asked of the match itself; every client taps on a copy of its own; every save is made on a
fresh copy whose deal in progress was entered with the pad's keys (through Django's test client
in the setup step: the same views and middleware), so that every save is the save of deal N+1
on a match of N deals. A classic Barbu match ends at deal 28: its "28" taps and saves are those
of deal 28, on a match of 27 deals (its scoreboard holds the 28). The home pages: two accounts
with matches made by the services (in progress: a Biriba, a Burraco and a Barbu; finished: one
of each, played until a side reaches a small target or to the end), and copies of the finished
ones, their timestamps spread one day apart (newest first), up to 10 and to 2,000 matches.

**The requests**, each as the pages send it (the cookies of a logged-in phone, gzip accepted):

- a **tap**: an htmx POST of the entry form, as entry.js and load.py send it: every hidden
  field of the ``#entry`` partial last drawn (``draft``, ``deal``, ``version``, the CSRF
  token), a fresh ``tap`` id, the key as ``action``: the keys that enter the next deal (for
  rummy: the side, New meld, suit and rank of each card, In hand, the pot, the trump; for Barbu:
  the contract, the doubles, the counters and choices of its data), then Clear (``reset``), over
  and over;
- a **save**: the same form with ``action=save`` (``confirm=yes`` when the Save key asks
  first), from a page drawn after those keys; it must answer with HX-Redirect to the scoreboard;
- the **scoreboard**: ``GET /matches/<id>/``, plain and as the page's live redraw asks it (htmx,
  ``HX-Target: scoreboard``);
- the **home page**, ``GET /``.

Each one is measured: first with one client alone (``--seconds`` S and at least a few requests,
or ``--requests`` N), then with 20 clients (processes) in a tight loop for S seconds (or N
requests each); before the first of each kind and game, each client sends one request,
unmeasured, so that every worker has drawn that page once. A save run also ends when its
copies are spent (30 alone and 8 per client by default, N and N with ``--requests``). The
baseline, ``GET /healthz``, is measured the same way at the start and at the end.

Printed for each database: for each request, p50 and p90 with one client as multiples of the
baseline's p50 (ms in brackets); the throughput of 20 clients as a multiple of the baseline's
with 20 clients (requests/s in brackets); the answer's size, raw and gzip-compressed as the
site sends it (computed here when the site does not compress it, marked ``*``), a tap's largest
too; the database queries of one request (counted in the setup step with the test client; for
a tap, the median and the largest over the keys of a deal); then the targets of issue 11 as
pass/fail lines computed from those figures, and the notes: a query count or an answer that
grows with the length, errors (a 5xx, an answer that is not what the page expects), with the
server's exceptions and where in the project they were raised.

Speed is never asserted: the exit status is 1 only when a database's run could not finish or a
request got an answer other than the one expected.

    .venv/bin/python benchmarks/lengths.py [--db sqlite|postgresql|both] [--seconds S |
                                            --requests N] [--clients 20] [--quick]
"""

from __future__ import annotations

import argparse
import gzip
import multiprocessing
import re
import secrets
import statistics
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from _report import kb, say_counts, say_exceptions, say_summary
from _server import (
    HOST,
    LABELS,
    START_TIMEOUT,
    WORKERS,
    Failure,
    Server,
    add_budget,
    add_databases,
    apply_presets,
    database,
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
    step,
)
from load import CSRF_HEADER, ENTRY_FIELDS, HIDDEN, SAVE_ASKS, STORED, Entry, Response, held_parts

PG_DATABASE = "scorekeeper_lengths"
PLAYERS = ["Anna", "Babis", "Chris", "Dora"]
GAME_LABELS = {"biriba": "Biriba", "barbu": "Barbu"}
ROWS = (("biriba", 1), ("biriba", 40), ("biriba", 300), ("barbu", 1), ("barbu", 14), ("barbu", 28))
BARBU_DEALS = 28  # a classic Barbu match (4 declarers × 7 contracts)
HOMES = (10, 2000)
RUMMY_TARGET = 10**9  # no run reaches it: a long rummy match stays in progress
FINISHED_TARGET = 150  # the finished rummy matches (home pages, history.py): about ten deals
# seconds, least requests alone, saves alone and per client, warm-ups: the default and --quick
DEFAULTS = {"seconds": 2.0, "least": 20, "saves_alone": 30, "saves_each": 8, "warm": True}
QUICK = {"seconds": 0.3, "least": 6, "saves_alone": 10, "saves_each": 3, "warm": False}
BUDGET = {  # what --seconds and --requests are for
    "seconds": "per measurement, alone and with the clients",
    "requests": "per measurement: alone, and per client (instead of --seconds)",
}
KINDS = ("tap", "save", "board", "board_htmx")
KIND_LABELS = {
    "tap": "tap",
    "save": "save",
    "board": "scoreboard",
    "board_htmx": "scoreboard htmx",
    "home": "home page",
    "healthz": "GET /healthz",
}
TAP_TARGET_BYTES = 2048

# --- the deals (as tests/conftest.py makes them) and the keys that enter them ------------------

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
COUNTERS = ("tricks", "hearts", "queens", "boys")
SEAT_PICKS = ("ace_of_hearts", "king_of_hearts", "last_trick")


def rummy_deal(game: str, index: int = 0) -> dict[str, Any]:
    """A small legal deal nobody goes out in: each side melds one run of three."""
    suits = "HSDC"
    deal: dict[str, Any] = {
        "sides": [
            {
                "melds": [[f"{r}{suits[side]}" for r in ("3", "4", "5")]],
                "hand": ["KD"] if side == 1 else [],
                "took_pot": True,
            }
            for side in range(2)
        ]
    }
    if game == "biriba":
        deal["trump"] = "SHDC"[index % 4]
    return deal


def barbu_deal(index: int) -> dict[str, Any]:
    """Deal ``index`` of a classic series match: the declarer names the contracts in order, and
    the three others double the declarer (which keeps the compulsory doubles)."""
    declarer = (index // 7) % 4
    contract = BARBU_CLASSIC[index % 7]
    doubles = [{"by": seat, "on": declarer} for seat in range(4) if seat != declarer]
    return {"contract": contract, "doubles": doubles, **BARBU_DATA[contract]}


def deal_for(game: str, index: int) -> dict[str, Any]:
    return barbu_deal(index) if game == "barbu" else rummy_deal(game, index)


def rummy_keys(deal: dict[str, Any]) -> list[str]:
    """The pad's keys for ``deal``: each side, New meld before each meld (the phone's own
    view keeps its meld after Clear), the suit when it changes, a rank a card, the pot."""
    keys: list[str] = []
    suit = None
    for number, side in enumerate(deal["sides"]):
        keys.append(f"side:{number}")
        places = [("new_meld", meld) for meld in side.get("melds", [])]
        if side.get("hand"):
            places.append(("target:hand", side["hand"]))
        for place, cards in places:
            keys.append(place)
            for card in cards:
                if card[-1] != suit:
                    suit = card[-1]
                    keys.append(f"suit:{suit}")
                keys.append(f"rank:{card[:-1]}")
        if side.get("took_pot"):
            keys.append(f"pot:{number}")
    if deal.get("trump"):
        keys.append(f"trump:{deal['trump']}")
    return keys


def barbu_keys(deal: dict[str, Any]) -> list[str]:
    """The sheet's keys for ``deal``: the contract, each double, then its data (a counter
    stepped up seat by seat, the last seat given the rest)."""
    keys = [f"contract:{deal['contract']}"]
    keys += [f"double:{d['by']}:{d['on']}:1" for d in deal.get("doubles", [])]
    for key, value in deal.items():
        if key in ("contract", "doubles"):
            continue
        if key in COUNTERS:
            for seat, count in enumerate(value[:-1]):
                keys += [f"step:{key}:{seat}:+1"] * count
            keys.append(f"rest:{key}:{len(value) - 1}")
        elif key in SEAT_PICKS:
            keys.append(f"seat:{key}:{value}")
        elif key == "last_two":
            keys += [f"last_two:{i}:{seat}" for i, seat in enumerate(value)]
        elif key == "trump":
            keys.append(f"trump:{value}")
        elif key == "finish_order":
            keys += [f"domino:{seat}" for seat in value[:3]]  # the fourth follows
        else:
            raise ValueError(f"no key for the Barbu data {key!r}")
    return keys


def keys_for(game: str, deal: dict[str, Any]) -> list[str]:
    return barbu_keys(deal) if game == "barbu" else rummy_keys(deal)


# --- the setup step (run with the server's settings, in a child process) ------------------------


def _copyable(model: Any, fk: Any) -> bool:
    """Rows a copy of a match can hold as they are: none with a unique field of its own (a
    share link's token)."""
    return not any(f.unique and not f.primary_key for f in model._meta.concrete_fields if f != fk)


def copy_match(template: Any, count: int) -> list[int]:
    """``count`` exact copies of ``template``: the row, and every row of each model that points
    at it (seats, deals, the deal in progress, the history…), copied in the database."""
    from django.db import connection, transaction

    from scorekeeper.models import Match

    related = [
        (rel.related_model, rel.field)
        for rel in Match._meta.related_objects
        if rel.one_to_many and rel.field.concrete and rel.field.related_model is Match
    ]
    fields = [f for f in Match._meta.concrete_fields if not f.primary_key]
    quote = connection.ops.quote_name
    with transaction.atomic():
        copies = [
            Match(**{f.attname: getattr(template, f.attname) for f in fields}) for _ in range(count)
        ]
        Match.objects.bulk_create(copies)
        with connection.cursor() as cursor:
            for model, fk in related:
                if not _copyable(model, fk):
                    if model.objects.filter(**{fk.name: template}).exists():
                        raise RuntimeError(f"{model.__name__} rows cannot be copied")
                    continue
                table = quote(model._meta.db_table)
                names = [
                    quote(f.column)
                    for f in model._meta.concrete_fields
                    if not f.primary_key and f != fk
                ]
                for start in range(0, len(copies), 500):
                    chunk = [m.pk for m in copies[start : start + 500]]
                    cursor.execute(
                        f"INSERT INTO {table} ({quote(fk.column)}, {', '.join(names)}) "
                        f"SELECT m.{quote('id')}, {', '.join('r.' + n for n in names)} "
                        f"FROM {table} r, {quote(Match._meta.db_table)} m "
                        f"WHERE r.{quote(fk.column)} = %s "
                        f"AND m.{quote('id')} IN ({', '.join(['%s'] * len(chunk))})",
                        [template.pk, *chunk],
                    )
    return [m.pk for m in copies]


def _user(name: str) -> Any:
    from django.contrib.auth import get_user_model

    user = get_user_model()(username=name)
    user.set_unusable_password()
    user.save()
    return user


def _played(owner: Any, game: str, deals: int | None, rules: dict[str, Any]) -> Any:
    """A match made with the services: ``deals`` deals, or (None) until it is finished."""
    from scorekeeper import services

    match = services.match_create(
        owner=owner, game=game, players=PLAYERS, first_dealer=0, rules=rules
    )
    index = 0
    while (deals is None and not match.is_finished and index < 500) or (
        deals is not None and index < deals
    ):
        services.deal_record(match=match, data=deal_for(game, index))
        index += 1
    match.refresh_from_db()
    return match


def _fields(body: str, after: str = "") -> dict[str, str]:
    import html

    if after and after in body:
        body = body[body.index(after) :]
    return {name: html.unescape(value) for name, value in HIDDEN.findall(body)}


def _htmx(path: str, target: str) -> dict[str, str]:
    origin = f"http://{HOST}"
    return {
        "HTTP_HX_REQUEST": "true",
        "HTTP_HX_CURRENT_URL": origin + path,
        "HTTP_HX_TARGET": target,
        "HTTP_HX_TRIGGER": f"{target}-form" if target == "entry" else target,
        "HTTP_ORIGIN": origin,
    }


def _queries(call: Any) -> tuple[Any, int]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        response = call()
    return response, len(captured.captured_queries)


def setup_row(
    owner: Any, client: Any, game: str, length: int, job: dict[str, Any], *, first: bool
) -> dict[str, Any]:
    """One length: the scoreboard's match, the tap copies, the save copies with their deal in
    progress entered (and, for the ``first`` length of a game, one a client to warm up with);
    the queries of each request."""
    from scorekeeper import services
    from scorekeeper.models import Deal, DealDraft, Match

    rules = {"target": RUMMY_TARGET} if game != "barbu" else {}
    held = min(length, BARBU_DEALS - 1) if game == "barbu" else length  # deals before a tap
    board = _played(owner, game, length, rules)
    entry = board if held == length else _played(owner, game, held, rules)
    deal = deal_for(game, held)
    keys = keys_for(game, deal)

    # the deal in progress entered with the keys, on a copy: its answers, its queries
    source = Match.objects.get(pk=copy_match(entry, 1)[0])
    path = f"/matches/{source.pk}/deals/new/"
    page = client.get(path)
    if page.status_code != 200 or 'id="entry-form"' not in page.content.decode():
        raise RuntimeError(f"{path}: no entry form (status {page.status_code})")
    fields = _fields(page.content.decode(), after='id="entry-form"')
    # as entry.js does: the page says which parts it holds, the answers leave them out
    fields["kept"] = held_parts(page.content.decode())
    tap_queries = []
    for key in keys:
        answer, queries = _queries(
            lambda key=key: client.post(
                path,
                {**fields, "tap": secrets.token_hex(12), "action": key},
                **_htmx(path, "entry"),
            )
        )
        body = answer.content.decode()
        refused = re.search(r'<p class="banner bad[^"]*"[^>]*>(.*?)</p>', body, re.S)
        if answer.status_code != 200 or 'name="draft"' not in body or refused:
            why = re.sub(r"<[^>]+>|\s+", " ", refused.group(1)).strip() if refused else ""
            raise RuntimeError(
                f"{GAME_LABELS[game]} {length}: the key {key} was not applied "
                f"(status {answer.status_code}) {why[:200]}"
            )
        tap_queries.append(queries)
        fields.update({k: v for k, v in _fields(body).items() if k in ENTRY_FIELDS})
        fields["kept"] = held_parts(body, fields["kept"])
    confirm = bool(SAVE_ASKS.search(body))

    # the save copies: warm-up, alone, per client, and one whose queries are counted
    warm = job["clients"] if first and job["warm"] else 0
    count = warm + job["saves_alone"] + job["clients"] * job["saves_each"] + 1
    copies = copy_match(source, count)
    drafts = {
        d.match_id: d
        for d in DealDraft.objects.filter(match_id__in=copies, editing=False, number=held + 1)
    }
    if len(drafts) != len(copies):
        raise RuntimeError(f"{GAME_LABELS[game]} {length}: a copy holds no deal in progress")
    saves = []
    for pk in copies:
        saved = {**fields, "version": f"{drafts[pk].pk}.{drafts[pk].version}"}
        if confirm:
            saved["confirm"] = "yes"
        saves.append(
            {"path": f"/matches/{pk}/deals/new/", "board": f"/matches/{pk}/", "fields": saved}
        )
    probe = saves.pop()
    answer, save_queries = _queries(
        lambda: client.post(
            probe["path"],
            {**probe["fields"], "tap": secrets.token_hex(12), "action": "save"},
            **_htmx(probe["path"], "entry"),
        )
    )
    if answer.headers.get("HX-Redirect") != probe["board"]:
        raise RuntimeError(
            f"{GAME_LABELS[game]} {length}: the save was not taken (status {answer.status_code}, "
            f"{answer.content.decode()[:300]!r})"
        )
    # what the keys entered is the deal the services store for it
    reference = Match.objects.get(pk=copy_match(entry, 1)[0])
    services.deal_record(match=reference, data=deal)
    probe_pk = int(probe["board"].strip("/").rsplit("/", 1)[1])
    stored = Deal.objects.get(match_id=probe_pk, number=held + 1).data
    if stored != Deal.objects.get(match=reference, number=held + 1).data:
        raise RuntimeError(f"{GAME_LABELS[game]} {length}: the keys entered {stored}, not {deal}")

    board_path = f"/matches/{board.pk}/"
    _, board_queries = _queries(lambda: client.get(board_path))
    _, htmx_queries = _queries(lambda: client.get(board_path, **_htmx(board_path, "scoreboard")))
    return {
        "game": game,
        "length": length,
        "held": held,
        "board": board_path,
        "warm": warm,
        "taps": copy_match(entry, job["clients"] + 1),  # one a client, the last for one alone
        "keys": keys,
        "saves": saves,
        "queries": {
            "tap": tap_queries,
            "save": save_queries,
            "board": board_queries,
            "board_htmx": htmx_queries,
        },
    }


def setup_home(owner: Any, count: int) -> None:
    """``count`` matches of ``owner``: three in progress, the rest finished (three made by the
    services, copies of them after), one day apart, the newest first."""
    from scorekeeper.models import Match

    going = [
        _played(owner, "biriba", 12, {"target": RUMMY_TARGET}),
        _played(owner, "burraco", 5, {"target": RUMMY_TARGET}),
        _played(owner, "barbu", 9, {}),
    ]
    finished_matches(owner, count, going)
    if Match.objects.filter(owner=owner).count() != count:
        raise RuntimeError(f"the home account holds {Match.objects.filter(owner=owner).count()}")


def finished_matches(owner: Any, count: int, going: Sequence[Any] = ()) -> None:
    """``owner``'s matches up to ``count``, finished (a Biriba and a Burraco played until a
    side reaches a small target, a classic Barbu: made by the services, then copies of them),
    one day apart, the newest first; ``going``, its matches in progress, are newer (a minute
    apart)."""
    import datetime

    from django.db import connection, transaction
    from django.utils import timezone

    from scorekeeper.models import Match

    done = [
        _played(owner, "biriba", None, {"target": FINISHED_TARGET}),
        _played(owner, "burraco", None, {"target": FINISHED_TARGET}),
        _played(owner, "barbu", BARBU_DEALS, {}),
    ]
    if not all(m.is_finished for m in done):
        raise RuntimeError("a match meant to be finished is not")
    rest = count - len(going) - len(done)
    for i, template in enumerate(list(done)):
        copies = copy_match(template, rest // 3 + (i < rest % 3))
        done += list(Match.objects.filter(pk__in=copies))
    now = timezone.now()
    for i, match in enumerate(going):
        match.updated = now - datetime.timedelta(minutes=i)
        match.created = match.updated - datetime.timedelta(hours=2)
    for i, match in enumerate(done, start=1):
        match.updated = match.finished_at = now - datetime.timedelta(days=i)
        match.created = match.updated - datetime.timedelta(hours=2)
    adapt = connection.ops.adapt_datetimefield_value
    quote = connection.ops.quote_name
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.executemany(
            f"UPDATE {quote(Match._meta.db_table)} SET {quote('created')} = %s, "
            f"{quote('updated')} = %s, {quote('finished_at')} = %s WHERE {quote('id')} = %s",
            [
                (adapt(m.created), adapt(m.updated), adapt(m.finished_at), m.pk)
                for m in [*going, *done]
            ],
        )


def step_setup(job: dict[str, Any]) -> dict[str, Any]:
    from django.conf import settings
    from django.test import Client
    from load import _session

    started = time.monotonic()
    users = {"lengths": _user("lengths")}
    client = Client(HTTP_HOST=HOST)
    client.force_login(users["lengths"])
    rows = []
    for game, n in ROWS:
        first = not any(r["game"] == game for r in rows)
        rows.append(setup_row(users["lengths"], client, game, n, job, first=first))
    homes = {}
    for count in HOMES:
        user = users[f"home{count}"] = _user(f"home{count}")
        setup_home(user, count)
        client.force_login(user)
        answer, queries = _queries(lambda: client.get("/"))
        if answer.status_code != 200:
            raise RuntimeError(f"home of {count} matches: status {answer.status_code}")
        homes[str(count)] = {"queries": queries}
    sessions = {
        name: [_session(user) for _ in range(job["clients"] + 1)] for name, user in users.items()
    }
    return {
        "cookie": settings.SESSION_COOKIE_NAME,
        "sessions": sessions,
        "rows": rows,
        "homes": homes,
        "seconds": time.monotonic() - started,
    }


# --- one client ----------------------------------------------------------------------------------


class Browser:
    """One phone's requests with its own cookies (one account's session), timed, with the size
    of the answer as sent (gzip accepted) and as read."""

    def __init__(self, port: int, cookies: dict[str, str]):
        self.port = port
        self.origin = f"http://{HOST}:{port}"
        self.cookies = dict(cookies)
        self.csrf = ""

    def request(
        self,
        method: str,
        path: str,
        *,
        fields: dict[str, str] | None = None,
        target: str = "",
        csrf: str = "",
    ) -> tuple[Response | None, float, int, bool, str]:
        """(the answer or None, ms, bytes as sent, whether the site compressed it, why None)."""
        headers, body = phone_headers(
            self.origin,
            "scorekeeper-lengths/1",
            self.cookies,
            fields=fields,
            target=target,
            current=path,
            csrf=csrf,
        )
        reply, raw, ms, why = send(self.port, method, path, headers, body, timeout=120)
        if reply is None:
            return None, ms, 0, False, why
        sent = len(raw)
        compressed = reply.getheader("Content-Encoding") == "gzip"
        if compressed:
            raw = gzip.decompress(raw)
        keep_cookies(self.cookies, reply.headers)
        answer = Response("", method, path, reply.status, reply.headers, raw.decode())
        return answer, ms, sent, compressed, ""


def _problem(kind: str, answer: Response, board: str = "") -> str:
    """Why ``answer`` is not what the page expects ("" when it is)."""
    if answer.status >= 500:
        return f"status {answer.status}"
    if kind == "save":
        went = answer.headers.get("HX-Redirect")
        if went == board:
            return ""
        refused = answer.refusals()
        return f"not saved (status {answer.status}): " + (
            refused[0] if refused else f"went to {went}" if went else answer.why()
        )
    if answer.status != 200:
        return f"status {answer.status}: {answer.why()}"
    if kind == "tap":
        if answer.headers.get("HX-Redirect"):
            return f"went to {answer.headers['HX-Redirect']}"
        if STORED in answer.body:
            return "the deal was saved meanwhile"
        if 'name="draft"' not in answer.body:
            return f"no pad in the answer: {answer.why()}"
        refused = answer.refusals()
        return f"refused: {refused[0]}" if refused else ""
    if kind in ("board", "board_htmx") and 'id="scoreboard"' not in answer.body:
        return "no scoreboard in the answer"
    return ""


def _csrf(browser: Browser, path: str) -> str:
    """The CSRF token of ``browser``'s pages (the cookie comes with it): from ``path``."""
    if not browser.csrf:
        answer, _, _, _, why = browser.request("GET", path)
        found = CSRF_HEADER.search(answer.body) if answer is not None else None
        if found is None:
            raise Failure(f"no CSRF token on {path}: {why or answer.status}")  # type: ignore[union-attr]
        browser.csrf = found.group(1)
    return browser.csrf


def ready(browser: Browser, job: dict[str, Any]) -> dict[str, Any]:
    """What a run needs before its first measured request: a tap's page drawn afresh, a save's
    CSRF token (requests not measured)."""
    if job["kind"] == "tap":
        answer, _, _, _, why = browser.request("GET", job["path"])
        if answer is None or 'id="entry-form"' not in answer.body:
            raise Failure(f"no entry form on {job['path']}: {why or answer.status}")  # type: ignore[union-attr]
        return {"entry": Entry(answer)}
    if job["kind"] == "save":
        return {"csrf": _csrf(browser, job["saves"][0]["board"]) if job["saves"] else ""}
    return {}


def play(
    browser: Browser,
    job: dict[str, Any],
    budget: dict[str, Any],
    state: dict[str, Any],
    *,
    start_at: float | None = None,
    sizes: bool = False,
) -> dict[str, Any]:
    """Send ``job``'s request over and over until the budget is spent: its samples (ms, bytes
    as sent, bytes read, whether compressed), its errors, when it began and ended."""
    if start_at is not None:
        time.sleep(max(0.0, start_at - time.monotonic()))
    kind = job["kind"]
    samples: list[tuple[float, int, int, bool]] = []  # ms, bytes sent, read, gzip computed here
    errors: list[str] = []
    began = time.monotonic()
    deadline = began + (budget["seconds"] or 0)
    cycle = ["reset", *job.get("keys", [])]
    done = 0
    while True:
        if budget["requests"] is not None:
            if done >= budget["requests"]:
                break
        elif time.monotonic() >= deadline and done >= budget["least"]:
            break
        if kind == "save":
            if done >= len(job["saves"]):
                break
            save = job["saves"][done]
            fields = {
                **save["fields"],
                "csrfmiddlewaretoken": state["csrf"],
                "tap": secrets.token_hex(12),
                "action": "save",
            }
            answer, ms, sent, compressed, why = browser.request(
                "POST", save["path"], fields=fields, target="entry", csrf=state["csrf"]
            )
            board = save["board"]
        elif kind == "tap":
            entry: Entry = state["entry"]
            fields = entry.fields_for(cycle[done % len(cycle)])
            answer, ms, sent, compressed, why = browser.request(
                "POST", entry.path, fields=fields, target="entry", csrf=entry.csrf
            )
            board = ""
        else:
            answer, ms, sent, compressed, why = browser.request(
                "GET", job["path"], target=job.get("target", "")
            )
            board = ""
        done += 1
        if answer is not None:
            why = _problem(kind, answer, board)
        if why:
            errors.append(f"{job['label']}: {why}")
            if kind == "tap":  # drawn afresh, as a phone reloads
                state.update(ready(browser, job))
            continue
        assert answer is not None
        if kind == "tap":
            state["entry"].redraw(answer)
        read, flagged = 0, False
        if sizes:
            body = answer.body.encode()
            read = len(body)
            # GZipMiddleware leaves bodies under 200 bytes as they are: sent as they are
            flagged = not compressed and read >= 200
            if flagged:
                sent = len(gzip.compress(body))
        samples.append((ms, sent, read, flagged))
    return {"samples": samples, "errors": errors, "start": began, "end": time.monotonic()}


# --- 20 clients ---------------------------------------------------------------------------------


def client_main(index: int, port: int, cookies: dict[str, dict[str, str]], inbox: Any, outbox: Any):
    """One client process: for each run, get ready, say so, wait for the start, play."""
    browsers = {account: Browser(port, jar) for account, jar in cookies.items()}
    pages: dict[str, dict[str, Any]] = {}  # a tap copy's page, as this client last drew it
    while True:
        message = inbox.get()
        if message is None:
            return
        job, budget = message
        browser = browsers[job["account"]]
        try:
            if job["kind"] == "tap" and job["path"] in pages:
                state, problem = pages[job["path"]], ""
            else:
                state, problem = ready(browser, job), ""
            if job["kind"] == "tap":
                pages[job["path"]] = state
        except Exception as e:  # noqa: BLE001 (reported by the runner)
            state, problem = None, f"{type(e).__name__}: {e}"
        outbox.put(("ready", index, problem))
        start_at = inbox.get()
        if state is None:
            outbox.put(("done", index, {"samples": [], "errors": [problem], "start": 0, "end": 0}))
            continue
        try:
            result = play(browser, job, budget, state, start_at=start_at)
        except Exception as e:  # noqa: BLE001 (a fault of this script: an error)
            result = {
                "samples": [],
                "errors": [f"client: {type(e).__name__}: {e}"],
                "start": 0,
                "end": 0,
            }
        outbox.put(("done", index, result))


class Clients:
    """``n`` client processes, started once for a server, each with its own sessions."""

    def __init__(self, n: int, port: int, cookies: list[dict[str, dict[str, str]]]):
        context = multiprocessing.get_context("spawn")
        self.outbox = context.Queue()
        self.inboxes = [context.Queue() for _ in range(n)]
        self.processes = [
            context.Process(
                target=client_main,
                args=(i, port, cookies[i], self.inboxes[i], self.outbox),
                daemon=True,
            )
            for i in range(n)
        ]
        for process in self.processes:
            process.start()

    def _get(self, timeout: float) -> tuple[str, int, Any]:
        try:
            return self.outbox.get(timeout=timeout)
        except Exception as e:
            raise Failure(f"a client did not answer within {timeout:.0f} s") from e

    def run(self, jobs: list[dict[str, Any]], budget: dict[str, Any]) -> dict[str, Any]:
        """Every client plays its job from one start: all the samples and errors, and the time
        from the start to the last end."""
        for inbox, job in zip(self.inboxes, jobs, strict=True):
            inbox.put((job, budget))
        for _ in jobs:  # a client that could not get ready reports it with its results
            self._get(START_TIMEOUT)
        start_at = time.monotonic() + 0.05
        for inbox in self.inboxes:
            inbox.put(start_at)
        limit = (budget["seconds"] or 0) + START_TIMEOUT
        results = [self._get(limit)[2] for _ in jobs]
        ends = [r["end"] for r in results if r["end"]]
        return {
            "samples": [s for r in results for s in r["samples"]],
            "errors": [e for r in results for e in r["errors"]],
            "elapsed": (max(ends) - start_at) if ends else float("nan"),
        }

    def close(self) -> None:
        for inbox in self.inboxes:
            inbox.put(None)
        for process in self.processes:
            process.join(timeout=10)
            if process.is_alive():
                process.terminate()
                process.join(timeout=5)


# --- the runner ---------------------------------------------------------------------------------


def measure(
    name: tuple[Any, ...],
    alone_job: dict[str, Any],
    jobs: list[dict[str, Any]],
    warm_jobs: list[dict[str, Any]] | None,
    browsers: dict[str, Browser],
    clients: Clients,
    server: Server,
    args: argparse.Namespace,
    label: str,
) -> dict[str, Any]:
    """One request: warmed up (``warm_jobs``: one unmeasured request a client, so that every
    worker has drawn it once), alone, then with the clients."""
    step(f"{label}: {alone_job['label']}")
    since = server.log_size()
    if warm_jobs:
        clients.run(warm_jobs, {"seconds": None, "requests": 1, "least": 0})
    browser = browsers[alone_job["account"]]
    alone_budget = {"seconds": args.seconds, "requests": args.requests, "least": args.least}
    alone = play(browser, alone_job, alone_budget, ready(browser, alone_job), sizes=True)
    loaded = clients.run(jobs, {"seconds": args.seconds, "requests": args.requests, "least": 0})
    return {
        "name": name,
        "label": alone_job["label"],
        "alone": alone,
        "loaded": loaded,
        "exceptions": server.exceptions(since),
    }


def run_database(db: str, args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    label = LABELS[db]
    with database(db, tmp, PG_DATABASE) as env:
        step(f"{label}: making the matches (services, then exact copies)…")
        job = {
            "clients": args.clients,
            "saves_alone": args.requests or args.saves_alone,
            "saves_each": args.requests or args.saves_each,
            "warm": args.warm,
        }
        setup = run_step(__file__, "setup", job, env, tmp)
        step(f"{label}: the matches took {setup['seconds']:.0f} s")
        cookie, sessions = setup["cookie"], setup["sessions"]
        with Server(env, tmp / f"gunicorn-{db}.log") as server:
            baseline, baseline_label = server.baseline()
            step(f"{label}: gunicorn ({WORKERS} sync workers) on {HOST}:{server.port}")

            def jar(account: str, i: int) -> dict[str, str]:
                return {} if account == "anonymous" else {cookie: sessions[account][i]}

            accounts = ["anonymous", *sessions]
            browsers = {a: Browser(server.port, jar(a, 0)) for a in accounts}
            clients = Clients(
                args.clients,
                server.port,
                [{a: jar(a, i + 1) for a in accounts} for i in range(args.clients)],
            )
            n = args.clients
            runs: list[dict[str, Any]] = []
            warmed: set[tuple[str, str]] = set()  # (kind, game): each warmed up once

            def run(
                name: tuple[Any, ...],
                alone: dict[str, Any],
                jobs: list[dict[str, Any]],
                warm: list[dict[str, Any]] | None = None,
            ) -> None:
                key = (name[-1], name[0])
                if key in warmed or not args.warm:
                    warm = None
                warmed.add(key)
                runs.append(
                    measure(name, alone, jobs, warm, browsers, clients, server, args, label)
                )

            def get(name: tuple[Any, ...], what: str, account: str, path: str, target="") -> None:
                job = {"kind": "get", "label": what, "account": account, "path": path}
                if target:
                    job["target"] = target
                run(name, job, [job] * n, [job] * n)

            try:
                get(("healthz", "start"), f"GET {baseline} (at the start)", "anonymous", baseline)
                for row in setup["rows"]:
                    game, length = row["game"], row["length"]
                    what = f"{GAME_LABELS[game]} {length}"
                    get((game, length, "board"), f"scoreboard, {what}", "lengths", row["board"])
                    get(
                        (game, length, "board_htmx"),
                        f"scoreboard (htmx), {what}",
                        "lengths",
                        row["board"],
                        "scoreboard",
                    )
                    taps = [
                        {
                            "kind": "tap",
                            "label": f"tap, {what}",
                            "account": "lengths",
                            "path": f"/matches/{pk}/deals/new/",
                            "keys": row["keys"],
                        }
                        for pk in row["taps"]
                    ]
                    run((game, length, "tap"), taps[-1], taps[:n], taps[:n])

                    def saving(saves: list[dict[str, Any]], what: str = what) -> dict[str, Any]:
                        return {
                            "kind": "save",
                            "label": f"save, {what}",
                            "account": "lengths",
                            "saves": saves,
                        }

                    pool = list(row["saves"])
                    warm = [saving(pool[i : i + 1]) for i in range(row["warm"])] or None
                    pool = pool[row["warm"] :]
                    alone, each = job["saves_alone"], job["saves_each"]
                    loaded = [
                        saving(pool[alone + i * each : alone + (i + 1) * each]) for i in range(n)
                    ]
                    run((game, length, "save"), saving(pool[:alone]), loaded, warm)
                for count in HOMES:
                    get(("home", count), f"home page, {count:,} matches", f"home{count}", "/")
                get(("healthz", "end"), f"GET {baseline} (at the end)", "anonymous", baseline)
            finally:
                clients.close()
    return {"db": db, "label": label, "baseline": baseline_label, "runs": runs, "setup": setup}


def _figures(run: dict[str, Any], base_ms: float, base_rps: float) -> dict[str, Any]:
    alone = sorted(s[0] for s in run["alone"]["samples"])
    loaded = run["loaded"]
    rps = len(loaded["samples"]) / loaded["elapsed"] if loaded["elapsed"] else float("nan")
    sent = [s[1] for s in run["alone"]["samples"]]
    read = [s[2] for s in run["alone"]["samples"]]
    return {
        "n": len(alone),
        "p50": percentile(alone, 50),
        "p90": percentile(alone, 90),
        "x50": percentile(alone, 50) / base_ms,
        "x90": percentile(alone, 90) / base_ms,
        "rps": rps,
        "xrps": rps / base_rps,
        "loaded_n": len(loaded["samples"]),
        "raw": statistics.median(read) if read else float("nan"),
        "gzip": statistics.median(sent) if sent else float("nan"),
        "gzip_max": max(sent) if sent else float("nan"),
        "compressed": not any(s[3] for s in run["alone"]["samples"]),
        "errors": run["alone"]["errors"] + run["loaded"]["errors"],
    }


def report(result: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    label, runs, setup = result["label"], result["runs"], result["setup"]
    by_name = {run["name"]: run for run in runs}
    base_runs = [by_name[("healthz", "start")], by_name[("healthz", "end")]]
    base_alone = sorted(s[0] for r in base_runs for s in r["alone"]["samples"])
    base_ms = percentile(base_alone, 50)
    base_count = sum(len(r["loaded"]["samples"]) for r in base_runs)
    base_rps = base_count / sum(r["loaded"]["elapsed"] for r in base_runs)
    ends = [percentile(sorted(s[0] for s in r["alone"]["samples"]), 50) for r in base_runs]
    rates = [len(r["loaded"]["samples"]) / r["loaded"]["elapsed"] for r in base_runs]
    figures = {run["name"]: _figures(run, base_ms, base_rps) for run in runs}
    queries = {}
    for row in setup["rows"]:
        for kind in KINDS:
            q = row["queries"][kind]
            queries[row["game"], row["length"], kind] = (
                f"{statistics.median(q):.0f}/{max(q)}" if isinstance(q, list) else str(q)
            )
    for count in HOMES:
        queries["home", count] = str(setup["homes"][str(count)]["queries"])

    say()
    say(
        f"== {label} · gunicorn, {WORKERS} sync workers, {args.clients} clients · baseline "
        f"{result['baseline']}: p50 {base_ms:.2f} ms alone (start {ends[0]:.2f}, end "
        f"{ends[1]:.2f}), {base_rps:,.0f} requests/s with {args.clients} clients (start "
        f"{rates[0]:,.0f}, end {rates[1]:,.0f})"
    )
    say(
        "   one client alone: p50 and p90 as × the baseline's p50 [ms]; "
        f"{args.clients} clients: throughput as × the baseline's [requests/s]"
    )
    say(
        "   answer: median KB read (raw) and as sent (gzip; a tap: also its largest); "
        "queries: one request (a tap: median/largest of a deal's keys)"
    )
    head = (
        f"   {'request':<16} {'match':<13} {'n':>4}  {'p50 × [ms]':>16}  {'p90 × [ms]':>16}"
        f"  {str(args.clients) + ' clients × [req/s]':>22}  {'raw KB':>7} {'gzip KB':>11}  "
        f"{'queries':>7}"
    )
    say(head)
    order = [(g, n, k) for k in KINDS for g, n in ROWS] + [("home", c) for c in HOMES]
    for name in order:
        f = figures[name]
        kind = name[-1] if name[0] != "home" else "home"
        if name[0] == "home":
            match = f"{name[1]:,} matches"
        else:
            held = next(r["held"] for r in setup["rows"] if (r["game"], r["length"]) == name[:2])
            match = f"{GAME_LABELS[name[0]]} {name[1]}" + (
                "†" if kind in ("tap", "save") and held != name[1] else ""
            )
        gz = kb(f["gzip"]) + ("" if f["compressed"] else "*")
        if kind == "tap":
            gz += f" ({kb(f['gzip_max'])})"
        say(
            f"   {KIND_LABELS[kind]:<16} {match:<13} {f['n']:>4}"
            f"  {f['x50']:>7.1f} [{f['p50']:>6.1f}]"
            f"  {f['x90']:>7.1f} [{f['p90']:>6.1f}]  {f['xrps']:>11.3f} [{f['rps']:>7.1f}]"
            f"  {kb(f['raw']):>7} {gz:>11}  {queries[name]:>7}"
        )
    if any(r["held"] != r["length"] for r in setup["rows"]):
        say(
            f"   † a classic Barbu match ends at deal {BARBU_DEALS}: the tap and the save of "
            f"deal {BARBU_DEALS}, on a match of {BARBU_DEALS - 1} (its scoreboard holds the "
            f"{BARBU_DEALS}); elsewhere the next deal's, on a match of that many deals"
        )
    if not all(f["compressed"] for f in figures.values()):
        say("   * not compressed by the site: the gzip size computed here")

    # the targets of issue 11
    def ratio(a: tuple[Any, ...], b: tuple[Any, ...]) -> float:
        return figures[a]["p50"] / figures[b]["p50"]

    lines: list[tuple[str, str, bool]] = []
    for game, short, longs in (("biriba", 1, (40, 300)), ("barbu", 1, (14, 28))):
        for n in longs:
            r = ratio((game, n, "tap"), (game, short, "tap"))
            lines.append(
                (
                    f"tap p50, {GAME_LABELS[game]} {n} ÷ {short}",
                    f"{r:.2f}× ≤ 1.5×",
                    r <= 1.5,
                )
            )
    for kind, limit in (("tap", 15), ("save", 20)):
        worst = max((n for n in figures if n[-1] == kind), key=lambda n: figures[n]["x50"])
        x = figures[worst]["x50"]
        lines.append(
            (
                f"{kind} p50 ÷ /healthz, the slowest ({GAME_LABELS[worst[0]]} {worst[1]})",
                f"{x:.1f}× ≤ {limit}×",
                x <= limit,
            )
        )
    for kind in ("board", "board_htmx"):
        for game, short, long in (("biriba", 1, 300), ("barbu", 1, 28)):
            r = ratio((game, long, kind), (game, short, kind))
            lines.append(
                (
                    f"{KIND_LABELS[kind]} p50, {GAME_LABELS[game]} {long} ÷ {short}",
                    f"{r:.2f}× ≤ 2×",
                    r <= 2,
                )
            )
        x = figures["biriba", 300, kind]["x50"]
        lines.append(
            (f"{KIND_LABELS[kind]} p50 ÷ /healthz, Biriba 300", f"{x:.1f}× ≤ 20×", x <= 20)
        )
    r = ratio(("home", 2000), ("home", 10))
    lines.append(("home page p50, 2,000 matches ÷ 10", f"{r:.2f}× ≤ 2×", r <= 2))
    taps = [n for n in figures if n[-1] == "tap"]
    largest = max(taps, key=lambda n: figures[n]["gzip_max"])
    size = figures[largest]["gzip_max"]
    lines.append(
        (
            f"a tap's answer gzip, the largest ({GAME_LABELS[largest[0]]} {largest[1]})",
            f"{size:,.0f} B ≤ {TAP_TARGET_BYTES:,} B",
            size <= TAP_TARGET_BYTES,
        )
    )
    say()
    say("   targets (issue 11), from the figures above (p50 with one client alone)")
    for what, figure, ok in lines:
        say(f"   {'pass' if ok else 'FAIL'}  {what:<52} {figure}")
    met = sum(ok for _, _, ok in lines)
    say(f"   {met} of {len(lines)} targets met")

    # notes: what grows with the length, errors, the server's exceptions
    notes = []
    for game in GAME_LABELS:
        rows = [r for r in setup["rows"] if r["game"] == game]
        lengths = ", ".join(str(r["length"]) for r in rows)
        for kind in KINDS:
            counts = [r["queries"][kind] for r in rows]
            counts = [max(c) if isinstance(c, list) else c for c in counts]
            if counts[-1] > counts[0]:
                why = ""
                if kind == "save" and rows[-1]["held"] + 1 == BARBU_DEALS and game == "barbu":
                    why = f" (deal {BARBU_DEALS} finishes the match)"
                notes.append(
                    f"the queries of a {KIND_LABELS[kind]} grow with the length: "
                    f"{', '.join(map(str, counts))} at {GAME_LABELS[game]} {lengths}{why}"
                )
            middle, longest = (figures[game, r["length"], kind] for r in rows[-2:])
            if longest["gzip"] > 1.25 * middle["gzip"] and longest["gzip"] - middle["gzip"] > 1024:
                notes.append(
                    f"the answer to a {KIND_LABELS[kind]} grows with the length: "
                    f"{kb(middle['gzip'])} KB gzip ({kb(middle['raw'])} raw) at "
                    f"{GAME_LABELS[game]} {rows[-2]['length']}, {kb(longest['gzip'])} KB "
                    f"({kb(longest['raw'])} raw) at {rows[-1]['length']}"
                )
    home10, home2000 = setup["homes"]["10"]["queries"], setup["homes"]["2000"]["queries"]
    if home2000 > home10:
        notes.append(
            f"the home page's queries grow with the matches: {home10} at 10, {home2000} at 2,000"
        )
    fa, fb = figures["home", 10], figures["home", 2000]
    if fb["gzip"] > 1.5 * fa["gzip"] and fb["gzip"] - fa["gzip"] > 1024:
        notes.append(
            f"the home page grows with the matches: {kb(fa['gzip'])} KB gzip at 10, "
            f"{kb(fb['gzip'])} KB at 2,000"
        )
    errors: Counter[str] = Counter()
    for run in runs:
        errors.update(figures[run["name"]]["errors"])
    exceptions: Counter[str] = Counter()
    for run in runs:
        for line, n in run["exceptions"].items():
            exceptions[f"{run['label']}: {line}"] += n
    say()
    say(f"   notes: {len(notes) or 'none'}")
    for note in notes:
        say(f"     {note}")
    say(f"   errors: {sum(errors.values())}")
    say_counts(errors.most_common(12))
    say_exceptions(exceptions)
    return {"db": label, "met": met, "targets": len(lines), "errors": sum(errors.values())}


def main() -> int:
    parser = script_parser(__doc__)
    add_budget(parser, DEFAULTS, QUICK, **BUDGET)
    parser.add_argument("--clients", type=int, default=20)
    add_databases(
        parser, quick="a smoke check in under two minutes: SQLite, fewer requests, no warm-up"
    )
    args = parser.parse_args()
    if args.clients < 1 or (args.requests is not None and args.requests < 1):
        parser.error("--clients and --requests must be at least 1")
    databases = apply_presets(parser, args, DEFAULTS, QUICK)

    missing = gunicorn_missing()
    if missing:
        say(missing)
        return 1
    budget_text = (
        f"{args.requests} requests alone and per client"
        if args.requests
        else f"{args.seconds:g} s alone (at least {args.least} requests) and with the clients"
    )
    say(
        f"Lengths: gunicorn with {WORKERS} sync workers, {args.clients} clients, "
        f"{budget_text} per measurement; databases: {', '.join(databases)}"
        + (" (quick)" if args.quick else "")
    )
    summaries, failed = each_database(
        databases, "scorekeeper-lengths-", lambda db, tmp: report(run_database(db, args, tmp), args)
    )
    return say_summary(
        list(summaries.values()),
        failed,
        lambda s: f"targets met: {s['met']} of {s['targets']}; errors: {s['errors']}",
    )


if __name__ == "__main__":
    run_script(main, {"setup": step_setup})
