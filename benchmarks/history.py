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
import statistics
import time
from pathlib import Path
from typing import Any

from _report import kb, say_counts, say_exceptions, say_summary
from _server import (
    HOST,
    LABELS,
    WORKERS,
    Server,
    add_budget,
    add_databases,
    apply_presets,
    database,
    each_database,
    gunicorn_missing,
    percentile,
    run_script,
    run_step,
    say,
    script_parser,
    step,
)

PG_DATABASE = "scorekeeper_history"
ACCOUNTS = (10, 1000)
FILTERED = "/matches/?game=barbu&player=Anna&status=finished&q=ann"
PAGES = (
    ("history", "history /matches/"),
    ("filtered", "history, filtered"),
    ("player", "player's page"),
)
DEFAULTS = {"seconds": 3.0, "least": 20, "warm": True}
QUICK = {"seconds": 0.5, "least": 5, "warm": False}
BUDGET = {"seconds": "per measurement", "requests": "per measurement (instead of --seconds)"}
EXPECTED = {  # what each answer must hold to be the page asked
    "history": 'id="history-list"',
    "filtered": 'id="history-list"',
    "player": "data-player-stats=",
    "healthz": "",
}


# --- the setup step (run with the server's settings, in a child process) ------------------------


def setup_account(name: str, count: int) -> dict[str, Any]:
    """``count`` finished matches of a new account: three made by the services, copies of
    them after, one day apart (lengths.py's ``finished_matches``); the paths of its pages and
    their queries."""
    from django.test import Client
    from lengths import _queries, _user, finished_matches
    from load import _session

    from scorekeeper.models import Match, Player

    owner = _user(name)
    finished_matches(owner, count)
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
                f"{kb(raw):>7} {kb(sent):>7}  {queries:>7}"
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
    say_counts((line, errors.count(line)) for line in sorted(set(errors))[:12])
    say_exceptions(result["exceptions"])
    return {"db": result["label"], "errors": len(errors)}


def main() -> int:
    parser = script_parser(__doc__)
    add_budget(parser, DEFAULTS, QUICK, **BUDGET)
    add_databases(parser, quick="a smoke check: SQLite, few requests, no warm-up")
    args = parser.parse_args()
    if args.requests is not None and args.requests < 1:
        parser.error("--requests must be at least 1")
    databases = apply_presets(parser, args, DEFAULTS, QUICK)
    missing = gunicorn_missing()
    if missing:
        say(missing)
        return 1
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
    summaries, failed = each_database(
        databases, "scorekeeper-history-", lambda db, tmp: report(run_database(db, args, tmp))
    )
    return say_summary(list(summaries.values()), failed, lambda s: f"errors: {s['errors']}")


if __name__ == "__main__":
    run_script(main, {"setup": step_setup})
