#!/usr/bin/env python3
"""After the game, at any number of matches: the history (``/matches/``, and a filtered one)
and a player's page (``/players/<id>/``) of an account with 1,000 finished matches, and of one
with 10 for comparison, each as a ratio to GET /healthz in the same run.

For each database the site is migrated afresh and served by gunicorn as lengths.py serves it
(4 sync workers, DEBUG off, a throwaway SECRET_KEY; benchmarks/_server.py): SQLite in a
temporary directory, PostgreSQL in a new database ``scorekeeper_history`` on 127.0.0.1:5432
(user postgres), dropped after.

**The matches**, made before the server starts by a setup step run with the server's settings:
for each account, a finished Biriba, Burraco and Barbu match (classic, 28 deals) made with the
site's services (``match_create``, then ``deal_record`` deal by deal, with lengths.py's legal
deals: the rummy ones played until a side reaches a small target), then exact copies of them
in the database (lengths.py's ``copy_match``: every row of the match and of its seats, deals
and history, ``INSERT … SELECT``), their timestamps one day apart, newest first, up to 10 and
to 1,000 matches. The same four players sit in every match, so the player's page (Anna's)
reads every one of them. The setup asks each page once through Django's test client (the same
views and middleware): the player's page first, which works out and keeps every match's
summary (timed and its queries counted: the figure of the first visit), then each page's
queries as a visitor meets them.

**The requests**, with the cookies of the account's logged-in phone, gzip accepted:

- the **history**, ``GET /matches/`` (its first page of 25);
- the **filtered history**, ``GET /matches/?game=barbu&player=Anna&status=finished&q=ann``;
- the **player's page**, ``GET /players/<Anna's id>/`` (every figure of the three games, its
  charts, its head-to-head).

Each is measured with one client alone (``--seconds`` S and at least a few requests, or
``--requests`` N), after one unmeasured request per worker (not with ``--quick``). The
baseline, ``GET /healthz``, is measured the same way at the start and at the end.

Printed for each database: for each request and account, p50 and p90 as multiples of the
baseline's p50 (ms in brackets), the answer's median size read and as sent (gzip), and the
database queries of one request; then, for each request, its p50 at 1,000 matches ÷ at 10, the
player's first visit (every summary worked out) from the setup step, and the errors. Speed is
never asserted: the exit status is 1 only when a database's run could not finish or a request
got an answer other than the one expected.

    .venv/bin/python benchmarks/history.py [--db sqlite|postgresql|both] [--seconds S |
                                            --requests N] [--quick]
"""

from __future__ import annotations

import argparse
import gzip
import http.client
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _server import (
    HOST,
    LABELS,
    STARTED,
    WORKERS,
    Failure,
    Server,
    database,
    gunicorn_missing,
    percentile,
    prepare,
    run_step,
    say,
    step,
)

PG_DATABASE = "scorekeeper_history"
ACCOUNTS = (10, 1000)
FINISHED_TARGET = 150  # the finished rummy matches: about ten deals each
FILTERED = "/matches/?game=barbu&player=Anna&status=finished&q=ann"
PAGES = (
    ("history", "history /matches/"),
    ("filtered", "history, filtered"),
    ("player", "player's page"),
)
DEFAULTS = {"seconds": 3.0, "least": 20, "warm": True}
QUICK = {"seconds": 0.5, "least": 5, "warm": False}
EXPECTED = {  # what each answer must hold to be the page asked
    "history": 'id="history-list"',
    "filtered": 'id="history-list"',
    "player": "data-player-stats=",
    "healthz": "",
}


# --- the setup step (run with the server's settings, in a child process) ------------------------


def setup_account(name: str, count: int) -> dict[str, Any]:
    """``count`` finished matches of a new account: three made by the services, copies of
    them after, one day apart; the paths of its pages and their queries."""
    import datetime

    from django.db import connection, transaction
    from django.test import Client
    from django.utils import timezone
    from lengths import BARBU_DEALS, _played, _queries, _user, copy_match
    from load import _session

    from scorekeeper.models import Match, Player

    owner = _user(name)
    done = [
        _played(owner, "biriba", None, {"target": FINISHED_TARGET}),
        _played(owner, "burraco", None, {"target": FINISHED_TARGET}),
        _played(owner, "barbu", BARBU_DEALS, {}),
    ]
    if not all(m.is_finished for m in done):
        raise RuntimeError("a match meant to be finished is not")
    rest = count - len(done)
    for i, template in enumerate(list(done)):
        copies = copy_match(template, rest // 3 + (i < rest % 3))
        done += list(Match.objects.filter(pk__in=copies))
    now = timezone.now()
    for i, match in enumerate(done, start=1):
        match.updated = match.finished_at = now - datetime.timedelta(days=i)
        match.created = match.updated - datetime.timedelta(hours=2)
    adapt = connection.ops.adapt_datetimefield_value
    quote = connection.ops.quote_name
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.executemany(
            f"UPDATE {quote(Match._meta.db_table)} SET {quote('created')} = %s, "
            f"{quote('updated')} = %s, {quote('finished_at')} = %s WHERE {quote('id')} = %s",
            [(adapt(m.created), adapt(m.updated), adapt(m.finished_at), m.pk) for m in done],
        )
    if Match.objects.filter(owner=owner, status=Match.Status.FINISHED).count() != count:
        raise RuntimeError(f"{name} holds {Match.objects.filter(owner=owner).count()} matches")

    anna = Player.objects.get(owner=owner, name="Anna")
    paths = {"history": "/matches/", "filtered": FILTERED, "player": f"/players/{anna.pk}/"}
    client = Client(HTTP_HOST=HOST)
    client.force_login(owner)
    began = time.perf_counter()
    first, first_queries = _queries(lambda: client.get(paths["player"]))
    first_ms = (time.perf_counter() - began) * 1000
    if first.status_code != 200:
        raise RuntimeError(f"{name}: the player's page answered {first.status_code}")
    queries = {}
    for page, path in paths.items():
        answer, queries[page] = _queries(lambda path=path: client.get(path))
        if answer.status_code != 200 or EXPECTED[page] not in answer.content.decode():
            raise RuntimeError(f"{name}: {path} answered {answer.status_code}, not the page")
    played = answer.content.decode().count('data-stat="played"')
    if played != 3:
        raise RuntimeError(f"{name}: the player's page shows {played} games, not 3")
    return {
        "count": count,
        "session": _session(owner),
        "paths": paths,
        "queries": queries,
        "first": {"ms": first_ms, "queries": first_queries},
    }


def step_setup(job: dict[str, Any]) -> dict[str, Any]:
    from django.conf import settings

    started = time.monotonic()
    accounts = {str(n): setup_account(f"history{n}", n) for n in ACCOUNTS}
    return {
        "cookie": settings.SESSION_COOKIE_NAME,
        "accounts": accounts,
        "seconds": time.monotonic() - started,
    }


def django_step(argv: list[str]) -> int:
    import django

    name, path = argv
    django.setup()
    job = json.loads(Path(path).read_text())
    result = {"setup": step_setup}[name](job)
    Path(path + ".out").write_text(json.dumps(result))
    return 0


# --- the requests ----------------------------------------------------------------------------


def fetch(port: int, path: str, cookie: str) -> tuple[int, float, int, int, str]:
    """(status, ms, bytes as sent, bytes read, the body)."""
    headers = {"Accept-Language": "en", "Accept-Encoding": "gzip"}
    if cookie:
        headers["Cookie"] = cookie
    connection = http.client.HTTPConnection(HOST, port, timeout=120)
    started = time.perf_counter()
    try:
        connection.request("GET", path, headers=headers)
        reply = connection.getresponse()
        raw = reply.read()
    finally:
        connection.close()
    ms = (time.perf_counter() - started) * 1000
    sent = len(raw)
    if reply.getheader("Content-Encoding") == "gzip":
        raw = gzip.decompress(raw)
    return reply.status, ms, sent, len(raw), raw.decode(errors="replace")


def measure(
    port: int, path: str, cookie: str, kind: str, args: argparse.Namespace
) -> dict[str, Any]:
    """One client alone: the samples (ms, bytes sent, bytes read) and the errors."""
    if args.warm:
        for _ in range(WORKERS):
            fetch(port, path, cookie)
    samples: list[tuple[float, int, int]] = []
    errors: list[str] = []
    deadline = time.monotonic() + (args.seconds or 0)
    while True:
        if args.requests is not None:
            if len(samples) + len(errors) >= args.requests:
                break
        elif time.monotonic() >= deadline and len(samples) >= args.least:
            break
        try:
            status, ms, sent, read, body = fetch(port, path, cookie)
        except (OSError, http.client.HTTPException) as e:
            errors.append(f"{path}: connection: {type(e).__name__}: {e}")
            continue
        if status != 200 or EXPECTED[kind] not in body:
            errors.append(f"{path}: status {status}" + ("" if status != 200 else ", not the page"))
            continue
        samples.append((ms, sent, read))
    return {"samples": samples, "errors": errors}


def run_database(db: str, args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    name = PG_DATABASE if db == "postgresql" else "history"
    with database(db, tmp, name) as env:
        step(f"{LABELS[db]}: making the matches (10 and 1,000 finished)…")
        setup = run_step(__file__, "setup", {}, env, tmp)
        step(f"{LABELS[db]}: the matches are made ({setup['seconds']:.0f} s); serving…")
        with Server(env, tmp / f"gunicorn-{db}.log") as server:
            baseline, baseline_label = server.baseline()
            runs: dict[Any, dict[str, Any]] = {}
            runs["healthz", "start"] = measure(server.port, baseline, "", "healthz", args)
            for count in ACCOUNTS:
                account = setup["accounts"][str(count)]
                cookie = f"{setup['cookie']}={account['session']}"
                for page, label in PAGES:
                    step(f"{LABELS[db]}: {label}, {count:,} matches…")
                    runs[page, count] = measure(
                        server.port, account["paths"][page], cookie, page, args
                    )
            runs["healthz", "end"] = measure(server.port, baseline, "", "healthz", args)
            exceptions = server.exceptions()
    return {
        "label": LABELS[db],
        "baseline": baseline_label,
        "runs": runs,
        "setup": setup,
        "exceptions": exceptions,
    }


def _kb(n: float) -> str:
    return f"{n / 1024:.1f}"


def report(result: dict[str, Any]) -> dict[str, Any]:
    runs, setup = result["runs"], result["setup"]
    base = sorted(
        s[0] for key in (("healthz", "start"), ("healthz", "end")) for s in runs[key]["samples"]
    )
    base_ms = percentile(base, 50)
    say()
    say(
        f"== {result['label']} · gunicorn, {WORKERS} sync workers, one client · baseline "
        f"{result['baseline']}: p50 {base_ms:.2f} ms"
    )
    say(
        f"   {'request':<20} {'matches':>8} {'n':>4}  {'p50 × [ms]':>16}  {'p90 × [ms]':>16}  "
        f"{'raw KB':>7} {'gzip KB':>7}  {'queries':>7}"
    )
    p50: dict[Any, float] = {}
    for page, label in PAGES:
        for count in ACCOUNTS:
            samples = runs[page, count]["samples"]
            ms = sorted(s[0] for s in samples)
            p50[page, count] = percentile(ms, 50)
            p90 = percentile(ms, 90)
            raw = statistics.median(s[2] for s in samples) if samples else float("nan")
            sent = statistics.median(s[1] for s in samples) if samples else float("nan")
            queries = setup["accounts"][str(count)]["queries"][page]
            say(
                f"   {label:<20} {count:>8,} {len(ms):>4}  {p50[page, count] / base_ms:>7.1f} "
                f"[{p50[page, count]:>6.1f}]  {p90 / base_ms:>7.1f} [{p90:>6.1f}]  "
                f"{_kb(raw):>7} {_kb(sent):>7}  {queries:>7}"
            )
    say()
    small, large = ACCOUNTS
    for page, label in PAGES:
        ratio = p50[page, large] / p50[page, small]
        q_small = setup["accounts"][str(small)]["queries"][page]
        q_large = setup["accounts"][str(large)]["queries"][page]
        say(
            f"   {label:<20} p50 at {large:,} ÷ at {small}: {ratio:.2f}×; queries {q_small} and "
            f"{q_large}" + ("" if q_small == q_large else "  (the queries grow with the matches)")
        )
    for count in ACCOUNTS:
        first = setup["accounts"][str(count)]["first"]
        say(
            f"   player's page, first visit at {count:,} matches (every summary worked out and "
            f"kept; test client, setup step): {first['ms']:.0f} ms, {first['queries']} queries"
        )
    errors = [e for run in runs.values() for e in run["errors"]]
    say(f"   errors: {len(errors)}")
    for line in sorted(set(errors))[:12]:
        say(f"     {errors.count(line):>5} × {line[:300]}")
    if result["exceptions"]:
        say("   server exceptions (from gunicorn's log):")
        for line, n in result["exceptions"].most_common(10):
            say(f"     {n:>5} × {line[:300]}")
    return {"db": result["label"], "errors": len(errors)}


def main() -> int:
    if sys.argv[1:2] == ["_step"]:
        return django_step(sys.argv[2:])
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument(
        "--seconds",
        type=float,
        help=f"per measurement (default {DEFAULTS['seconds']:g} s; --quick {QUICK['seconds']:g})",
    )
    budget.add_argument("--requests", type=int, help="per measurement (instead of --seconds)")
    parser.add_argument(
        "--db", choices=("sqlite", "postgresql", "both"), help="default both (--quick: sqlite)"
    )
    parser.add_argument(
        "--quick", action="store_true", help="a smoke check: SQLite, few requests, no warm-up"
    )
    args = parser.parse_args()
    if args.requests is not None and args.requests < 1:
        parser.error("--requests must be at least 1")
    if args.seconds is not None and args.seconds <= 0:
        parser.error("--seconds must be positive")
    preset = QUICK if args.quick else DEFAULTS
    if args.seconds is None and args.requests is None:
        args.seconds = preset["seconds"]
    args.least, args.warm = preset["least"], preset["warm"]
    db = args.db or ("sqlite" if args.quick else "both")
    missing = gunicorn_missing()
    if missing:
        say(missing)
        return 1
    databases = ["sqlite", "postgresql"] if db == "both" else [db]
    say(
        f"History: gunicorn with {WORKERS} sync workers, one client, "
        + (
            f"{args.requests} requests"
            if args.requests
            else f"{args.seconds:g} s (at least {args.least} requests)"
        )
        + f" per measurement; databases: {', '.join(databases)}"
        + (" (quick)" if args.quick else "")
    )
    summaries, failed = [], []
    tmp = Path(tempfile.mkdtemp(prefix="scorekeeper-history-"))
    try:
        prepare(tmp)
        for name in databases:
            try:
                result = run_database(name, args, tmp)
            except Failure as e:
                say(f"{LABELS[name]}: {e}")
                failed.append(name)
                continue
            summaries.append(report(result))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    say()
    say("== summary")
    for s in summaries:
        say(f"   {s['db']:<11} errors: {s['errors']}")
    for name in failed:
        say(f"   {LABELS[name]:<11} did not run (see above)")
    bad = bool(failed) or any(s["errors"] for s in summaries)
    say(f"   {'FAILED' if bad else 'done'} (the whole run took {time.monotonic() - STARTED:.0f} s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
