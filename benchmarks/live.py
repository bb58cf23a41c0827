#!/usr/bin/env python3
"""Live pages: what a phone that follows a match costs while nothing changes, and how soon a
deal saved on one phone shows on the others.

For each database the site is migrated afresh and served by gunicorn as load.py serves it (4
sync workers, DEBUG off; benchmarks/_server.py): SQLite in a temporary directory, PostgreSQL
in a new database ``scorekeeper_live`` on 127.0.0.1:5432 (user postgres), dropped after.

**Part A, polling while nothing changes.** A setup step makes a user, a Burraco match with 12
deals (an evening's scoreboard) and a logged-in session. The scoreboard page carries its live
check (``data-live``, ``data-live-state``); N clients (separate processes, default 20, then 1)
each ask that check in a tight loop with the current state (the answer is 204), for
``--seconds``, while one more process asks ``GET /healthz`` every 50 ms (the baseline under
the same load). Then the same with the whole scoreboard page (``GET /matches/<pk>/`` logged
in): what a phone redrawing the page every 2 s instead would cost. Before that, one request at
a time: /healthz, the check, the page ("alone"). Printed: requests per second served, p50 and
p99 in ms and as multiples of /healthz's p50 alone and under the same load, and the number of
phones one server of 4 workers keeps up with at one check every 2 s (a phone asks 0.5 times a
second: served/s × 2; one worker a quarter of that). The clients run on the same machine and
take their share of its cores: the throughput is a lower bound.

**Part B, from a save to the other phones.** Chromium (Debian's /usr/bin/chromium, through
Playwright) signs up on the site, starts a Burraco match and makes its watch link and its link
for co-scorers on the share pages; a second browser context opens the watch page, a third joins
through the co-scorers' link (a guest, "Babis") and stays on the scoreboard. Then ``--deals``
times, after a random pause of 0-2 s (so that the saves fall anywhere in the pages' 2 s cycle),
the owner's phone enters a small deal with the requests its pad sends (htmx POSTs of the entry
form with the owner's cookies: 3-4-5 of hearts and the pot for Anna & Chris, 3-4-5-6 of spades
and the pot for Babis & Dora) and saves it. Each watching page records, in the page, the moment
its element shows the new deal count (a MutationObserver, Date.now()); the time from the save's
answer to that moment is printed (median, p90, max), with the bound to expect: the check's 2 s
interval, plus one check and one redraw (the htmx GET of the page's own address), each as
measured alone. The totals the pages show are compared with the owner's scoreboard.

    .venv/bin/python benchmarks/live.py [--db sqlite|postgresql|both] [--clients 20,1]
                                        [--seconds 5] [--deals 10] [--part a|b|both]
"""

from __future__ import annotations

import argparse
import html
import http.client
import random
import re
import statistics
import time
from collections import Counter
from pathlib import Path
from typing import Any

from _report import took
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
    percentile,
    run_script,
    run_step,
    say,
    script_parser,
    start_together,
    step,
)
from load import Entry, Phone

PG_DATABASE = "scorekeeper_live"
PLAYERS = ["Anna", "Babis", "Chris", "Dora"]
SEEDED = 12  # the deals of the match part A follows: an evening's scoreboard
EVERY_MS = 2000  # how often a visible page asks (scorekeeper/live.py, EVERY_MS)
PER_PHONE = 1000 / EVERY_MS  # requests a second one phone makes
PROBE_EVERY = 0.05  # s between two /healthz of the baseline under load
ALONE = {"baseline": 100, "live check": 100, "scoreboard page": 30}
CHROMIUM = "/usr/bin/chromium"
PASSWORD = "a-long-enough-password-1"
# The deal the owner's phone enters (tests/browser/test_live_browser.py)
SIDE_0 = ["suit:H", "rank:3", "rank:4", "rank:5", "pot:0"]
SIDE_1 = ["side:1", "suit:S", "rank:3", "rank:4", "rank:5", "rank:6", "pot:1"]
WAIT_MS = 15_000  # how long a page may take to show a save before it counts as missed

LIVE = re.compile(r'id="(scoreboard|watch)"[^>]*? data-live="([^"]+)" data-live-state="([^"]*)"')
TOTAL = re.compile(r'data-total="0">([^<]*)<')


# --- the database step (run with the server's settings, in a child process) -----------------


def step_setup(job: dict[str, Any]) -> dict[str, Any]:
    """A user, a Burraco match with ``seeded`` deals, and a logged-in session (load.py's)."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from load import _session

    from scorekeeper import services

    user = get_user_model()(username="live0")
    user.set_unusable_password()
    user.save()
    match = services.match_create(
        owner=user, game="burraco", players=PLAYERS, first_dealer=0, rules={"target": 10**9}
    )
    for number in range(1, job["seeded"] + 1):
        deal = {
            "sides": [
                {"melds": [["3H", "4H", "5H"]], "hand": [], "took_pot": True},
                {"melds": [["3S", "4S", "5S"]], "hand": ["KD"], "took_pot": True},
            ]
        }
        services.deal_record(match=match, data=deal, number=number)
    return {"match": match.pk, "cookie": settings.SESSION_COOKIE_NAME, "session": _session(user)}


# --- part A: polling -----------------------------------------------------------------------------


def ask(port: int, path: str, cookie: str) -> tuple[int, float]:
    """One GET as a phone's browser sends it: (status, ms)."""
    headers = {"Accept-Language": "en", "Accept-Encoding": "gzip", "User-Agent": "live/1"}
    if cookie:
        headers["Cookie"] = cookie
    connection = http.client.HTTPConnection(HOST, port, timeout=60)
    started = time.perf_counter()
    try:
        connection.request("GET", path, headers=headers)
        reply = connection.getresponse()
        reply.read()
        return reply.status, (time.perf_counter() - started) * 1000
    except (OSError, http.client.HTTPException):
        return 0, (time.perf_counter() - started) * 1000
    finally:
        connection.close()


def poll_main(cfg: dict[str, Any], barrier: Any, queue: Any) -> None:
    """One client: ``cfg["path"]`` in a loop (``every`` s apart, 0: a tight loop) for
    ``seconds``; reports each answer's ms and the statuses."""
    result: dict[str, Any] = {
        "ms": [],
        "statuses": Counter(),
        "start": 0.0,
        "end": 0.0,
        "probe": cfg["probe"],
    }
    try:
        barrier.wait(timeout=START_TIMEOUT)
    except Exception:
        queue.put(result)
        return
    result["start"] = time.monotonic()
    deadline = result["start"] + cfg["seconds"]
    while time.monotonic() < deadline:
        status, ms = ask(cfg["port"], cfg["path"], cfg["cookie"])
        result["statuses"][status] += 1
        if status == cfg["expect"]:
            result["ms"].append(ms)
        if cfg["every"]:
            time.sleep(cfg["every"])
    result["end"] = time.monotonic()
    queue.put(result)


def load_run(
    port: int, path: str, cookie: str, expect: int, clients: int, seconds: float
) -> dict[str, Any]:
    """``clients`` processes asking ``path`` in a tight loop, and the baseline prober."""
    base = {"port": port, "seconds": seconds}
    configs = [
        {**base, "path": path, "cookie": cookie, "expect": expect, "every": 0, "probe": False}
        for _ in range(clients)
    ]
    configs.append(
        {
            **base,
            "path": "/healthz",
            "cookie": "",
            "expect": 200,
            "every": PROBE_EVERY,
            "probe": True,
        }
    )
    processes, queue = start_together(poll_main, configs)
    results = [queue.get(timeout=seconds + 120) for _ in processes]
    for process in processes:
        process.join(timeout=30)
    probe = next(r for r in results if r["probe"])
    polls = [r for r in results if not r["probe"]]
    statuses: Counter[int] = Counter()
    for r in polls:
        statuses.update(r["statuses"])
    start = min(r["start"] for r in polls)
    end = max(r["end"] for r in polls)
    return {
        "served": sum(statuses.values()) / (end - start),
        "ms": sorted(ms for r in polls for ms in r["ms"]),
        "base": sorted(probe["ms"]),
        "unexpected": {s: n for s, n in statuses.items() if s != expect},
    }


def alone(port: int, path: str, cookie: str, expect: int, count: int) -> list[float]:
    values = []
    for _ in range(count):
        status, ms = ask(port, path, cookie)
        if status != expect:
            raise Failure(f"GET {path} answered {status}, not {expect}")
        values.append(ms)
    return sorted(values)


def part_a(label: str, server: Server, setup: dict[str, Any], args: argparse.Namespace) -> int:
    """Prints part A; returns the number of unexpected answers."""
    port = server.port
    cookie = f"{setup['cookie']}={setup['session']}"
    board = f"/matches/{setup['match']}/"
    phone = Phone(port, None, None)
    phone.cookies[setup["cookie"]] = setup["session"]
    page = phone.call("scoreboard", "GET", board)
    if page is None:
        raise Failure(f"the scoreboard {board} could not be read: {phone.errors[-1][-1]}")
    found = LIVE.search(page.body)
    if found is None:
        raise Failure(f"the scoreboard {board} carries no live check (data-live)")
    check = f"{html.unescape(found.group(2))}?state={html.unescape(found.group(3))}"
    kinds = {"live check": (check, 204), "scoreboard page": (board, 200)}
    step(f"{label}: part A, one request at a time")
    reference = {"baseline": alone(port, "/healthz", "", 200, ALONE["baseline"])}
    for kind, (path, expect) in kinds.items():
        reference[kind] = alone(port, path, cookie, expect, ALONE[kind])
    healthz = percentile(reference["baseline"], 50)
    runs: dict[tuple[str, int], dict[str, Any]] = {}
    for clients in args.clients:
        for kind, (path, expect) in kinds.items():
            step(f"{label}: part A, {kind}, {clients} clients in a tight loop, {args.seconds:g} s")
            runs[kind, clients] = load_run(port, path, cookie, expect, clients, args.seconds)

    say()
    say(
        f"== {label} · A · what a phone following a match costs while nothing changes "
        f"(gunicorn, {WORKERS} sync workers; a match of {SEEDED} deals)"
    )
    say(
        f"   alone, one request at a time: GET /healthz p50 {healthz:.1f} ms; "
        + "; ".join(
            f"{kind} p50 {percentile(reference[kind], 50):.1f} ms "
            f"(× {percentile(reference[kind], 50) / healthz:.1f})"
            for kind in kinds
        )
    )
    say(
        f"   {'request':<23} {'clients':>7} {'served/s':>9}   {'p50 ms (× alone, × loaded)':>27}"
        f"   {'p99 ms (× alone, × loaded)':>27}   {'/healthz loaded':>15}   {'phones':>6}"
    )
    for kind in kinds:
        for clients in args.clients:
            run = runs[kind, clients]
            loaded = percentile(run["base"], 50)
            cells = []
            for p in (50, 99):
                value = percentile(run["ms"], p)
                cells.append(f"{value:7.1f} (× {value / healthz:5.1f}, × {value / loaded:4.1f})")
            name = "live check (204)" if kind == "live check" else "scoreboard page (200)"
            say(
                f"   {name:<23} {clients:>7} {run['served']:>9.1f}   {cells[0]:>27}   "
                f"{cells[1]:>27}   {loaded:>12.1f} ms   {run['served'] / PER_PHONE:>6.0f}"
            )
            if run["unexpected"]:
                say(f"     unexpected answers (status: count; 0 = no answer): {run['unexpected']}")
    most = max(args.clients)
    check_rate, page_rate = (
        runs["live check", most]["served"],
        runs["scoreboard page", most]["served"],
    )
    phones = check_rate / PER_PHONE
    say(
        f"   phones one server of {WORKERS} workers keeps up with at one check every "
        f"{EVERY_MS / 1000:g} s: {phones:.0f} (one worker: {phones / WORKERS:.0f}; "
        f"{most} clients in a tight loop, {check_rate:.0f} checks/s served)"
    )
    say(
        f"   redrawing the whole scoreboard every {EVERY_MS / 1000:g} s instead: "
        f"{page_rate / PER_PHONE:.0f} phones ({page_rate:.0f} pages/s served): the "
        f"check lets the same server follow {check_rate / page_rate:.1f} × as many"
    )
    say_server_exceptions(server)
    return sum(sum(run["unexpected"].values()) for run in runs.values())


def say_server_exceptions(server: Server) -> None:
    """The server's exceptions so far, the five most frequent."""
    for line, n in server.exceptions().most_common(5):
        say(f"   server exception: {n} × {line}")


# --- part B: from a save to the other phones -----------------------------------------------------

OBSERVE = """([selector, count]) => {
    window.__liveSeen = null;
    const seen = () => {
        const el = document.querySelector(selector);
        if (window.__liveSeen === null && el && el.getAttribute("data-deal-count") === count) {
            window.__liveSeen = Date.now();
            observer.disconnect();
        }
    };
    const observer = new MutationObserver(seen);
    observer.observe(document.documentElement,
                     {subtree: true, childList: true, attributes: true, characterData: true});
    seen();
}"""


def _link(page: Any, origin: str, pk: int, kind: str, button: str) -> str:
    """The match's share link of ``kind``, made on its share page as the owner does."""
    page.goto(f"{origin}/matches/{pk}/share/{kind}/")
    if page.locator("a.share-url").count() == 0:
        page.get_by_role("button", name=button).click()
    return page.locator("a.share-url").get_attribute("href") or ""


def _enter_deal(phone: Phone, pk: int) -> Entry:
    """The owner's phone opens the next deal and taps it in (the save is left to the caller)."""
    page = phone.call("entry page", "GET", f"/matches/{pk}/deals/new/")
    if page is None or 'id="entry-form"' not in page.body:
        raise Failure(f"no entry page: {phone.errors[-1:] or page}")
    entry = Entry(page)
    for action in SIDE_0 + SIDE_1:
        r = entry.send(phone, "tap", entry.fields_for(action))
        if r is None or not r.pad() or r.refusals():
            raise Failure(f"the tap {action} was not applied: {phone.errors[-1:] or r.why()}")
        entry.redraw(r)
    return entry


def part_b(label: str, server: Server, args: argparse.Namespace) -> int:
    """Prints part B; returns the number of saves a page missed or showed another total of."""
    from playwright.sync_api import sync_playwright

    origin = server.origin
    step(f"{label}: part B, Chromium: signing up, a match, its links, three phones")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            viewport = {"width": 360, "height": 740}
            contexts = [browser.new_context(viewport=viewport, has_touch=True) for _ in range(3)]
            owner, watcher, scorer = (c.new_page() for c in contexts)
            for page in (owner, watcher, scorer):
                page.set_default_timeout(30_000)
            owner.goto(origin + "/accounts/signup/")
            owner.fill('input[name="username"]', "owner")
            owner.fill('input[name="password1"]', PASSWORD)
            owner.fill('input[name="password2"]', PASSWORD)
            owner.get_by_role("button", name="Create my account").click()
            owner.wait_for_url(re.compile(r"/matches/new/$"))
            game = owner.locator('button[name="switch_game"][value="burraco"]')
            if "on" not in (game.get_attribute("class") or "").split():
                game.click()
                owner.wait_for_selector('button[name="switch_game"][value="burraco"].on')
            seats = owner.locator("#match-form .seat input[type=text]")
            if seats.count() != 4:
                owner.locator('button[name="switch_seats"][value="4"]').click()
                owner.wait_for_function(
                    "document.querySelectorAll('#match-form .seat input[type=text]').length === 4"
                )
            for i, name in enumerate(PLAYERS):
                seats.nth(i).fill(name)
            owner.get_by_role("button", name="Start the match").click()
            owner.wait_for_url(re.compile(r"/matches/\d+/$"))
            board = owner.url
            pk = int(board.rstrip("/").rsplit("/", 1)[1])
            watch_url = _link(owner, origin, pk, "watch", "Make the link to watch")
            score_url = _link(owner, origin, pk, "score", "Make the link for co-scorers")
            owner.goto(board)

            watcher.goto(watch_url)
            watcher.wait_for_selector('#watch [data-total="0"]')
            scorer.goto(score_url)
            scorer.fill('input[name="name"]', "Babis")
            scorer.get_by_role("button", name="Join the match").click()
            scorer.wait_for_url(board)
            scorer.wait_for_selector('#scoreboard [data-total="0"]')

            phone = Phone(server.port, None, None)
            phone.cookies = {c["name"]: c["value"] for c in contexts[0].cookies()}
            # the bound's parts, one request at a time: a check, and the watch page's redraw
            watch_path = watch_url.removeprefix(origin)
            found = LIVE.search(phone.call("watch", "GET", watch_path).body)
            if found is None:
                raise Failure("the watch page carries no live check (data-live)")
            check = f"{html.unescape(found.group(2))}?state={html.unescape(found.group(3))}"
            check_ms = percentile(alone(server.port, check, "", 204, 20), 50)
            redraw_ms = []
            for _ in range(20):
                r = phone.call(
                    "redraw", "GET", watch_path, htmx=True, current=watch_path, target="watch"
                )
                redraw_ms.append(r.ms if r is not None else float("nan"))
            redraw = statistics.median(redraw_ms)

            rng = random.Random(7)
            shown: dict[str, list[float]] = {"watcher": [], "co-scorer": []}
            missed: Counter[str] = Counter()
            agree = 0
            for number in range(1, args.deals + 1):
                time.sleep(rng.uniform(0, EVERY_MS / 1000))
                entry = _enter_deal(phone, pk)
                pages = (("watcher", watcher, "#watch"), ("co-scorer", scorer, "#scoreboard"))
                for _, page, selector in pages:
                    page.evaluate(OBSERVE, [selector, str(number)])
                confirm = {"confirm": "yes"} if entry.asks_confirm else {}
                r = entry.send(phone, "save", entry.fields_for("save", **confirm))
                saved_at = time.time() * 1000
                if r is None or r.headers.get("HX-Redirect") != board.removeprefix(origin):
                    raise Failure(f"deal {number} was not saved: {r.why() if r else phone.errors}")
                mine = phone.call("scoreboard", "GET", board.removeprefix(origin))
                want = TOTAL.search(mine.body).group(1).strip() if mine is not None else "?"
                totals = []
                for who, page, selector in pages:
                    try:
                        page.wait_for_function("() => window.__liveSeen !== null", timeout=WAIT_MS)
                    except Exception:
                        missed[who] += 1
                        continue
                    shown[who].append(page.evaluate("window.__liveSeen") - saved_at)
                    totals.append(page.locator(f'{selector} [data-total="0"]').inner_text())
                agree += all(t.strip() == want for t in totals) and len(totals) == 2
        finally:
            browser.close()

    say()
    say(
        f"== {label} · B · from a save on the owner's phone to the new total on the others "
        f"(Chromium, {args.deals} deals, a random 0-{EVERY_MS / 1000:g} s pause before each)"
    )
    say(f"   {'page':<34} {'median':>8} {'p90':>8} {'max':>8}  (ms after the save's answer)")
    both = sorted(shown["watcher"] + shown["co-scorer"])
    rows = [
        ("watcher (watch link, no account)", sorted(shown["watcher"])),
        ("co-scorer's scoreboard (guest)", sorted(shown["co-scorer"])),
        ("both", both),
    ]
    for name, values in rows:
        if not values:
            say(f"   {name:<34} {'–':>8}")
            continue
        say(
            f"   {name:<34} {statistics.median(values):>8.0f} {percentile(values, 90):>8.0f} "
            f"{values[-1]:>8.0f}"
        )
    bound = EVERY_MS + check_ms + redraw
    say(
        f"   expected: at most {EVERY_MS} ms (the check's interval) + a check ({check_ms:.0f} ms) "
        f"+ a redraw of the watch page ({redraw:.0f} ms) ≈ {bound:.0f} ms, half the interval "
        f"more than those on average ≈ {EVERY_MS / 2 + check_ms + redraw:.0f} ms (alone)"
    )
    late = sum(1 for v in both if v > bound)
    say(
        f"   over the bound: {late} of {len(both)}; missed (not shown within {WAIT_MS} ms): "
        f"{sum(missed.values())}; the totals shown agree with the owner's scoreboard: "
        f"{agree} of {args.deals} deals"
    )
    say_server_exceptions(server)
    return sum(missed.values()) + args.deals - agree


# --- the runner ---------------------------------------------------------------------------------


def run_database(db: str, parts: list[str], args: argparse.Namespace, tmp: Path) -> int:
    """The parts on a fresh database of ``db`` and a server of its own: the problems found."""
    label = LABELS[db]
    with database(db, tmp, PG_DATABASE) as env:
        setup = run_step(__file__, "setup", {"seeded": SEEDED}, env, tmp)
        with Server(env, tmp / f"gunicorn-{db}.log") as server:
            step(f"{label}: gunicorn ({WORKERS} sync workers) on {HOST}:{server.port}")
            problems = 0
            if "a" in parts:
                problems += part_a(label, server, setup, args)
            if "b" in parts:
                problems += part_b(label, server, args)
    return problems


def main() -> int:
    parser = script_parser(__doc__)
    parser.add_argument("--db", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument(
        "--clients", default="20,1", help="part A: clients in a tight loop, comma-separated"
    )
    parser.add_argument("--seconds", type=float, default=5.0, help="part A: per run (default 5)")
    parser.add_argument("--deals", type=int, default=10, help="part B: deals saved (default 10)")
    parser.add_argument("--part", choices=("a", "b", "both"), default="both")
    args = parser.parse_args()
    try:
        args.clients = [int(n) for n in args.clients.split(",")]
    except ValueError:
        parser.error("--clients: numbers separated by commas, e.g. 20,1")
    if min(args.clients) < 1 or args.deals < 1 or args.seconds <= 0:
        parser.error("--clients, --deals and --seconds must be positive")

    missing = gunicorn_missing()
    if missing:
        say(missing)
        return 1
    parts = ["a", "b"] if args.part == "both" else [args.part]
    if "b" in parts and not Path(CHROMIUM).exists():
        say(f"part B needs {CHROMIUM} (apt-get install chromium): only part A runs")
        parts.remove("b")
    databases = database_list(args.db)
    say(
        f"Live: gunicorn with {WORKERS} sync workers; databases: {', '.join(databases)}; "
        f"part A: {', '.join(map(str, args.clients))} clients, {args.seconds:g} s each; "
        f"part B: {args.deals} deals"
    )
    problems, stopped = each_database(
        databases, "scorekeeper-live-", lambda db, tmp: run_database(db, parts, args, tmp)
    )
    failed = [db for db in databases if db in stopped or problems.get(db)]
    say()
    say(f"{'FAILED (see above): ' + ', '.join(failed) if failed else 'done'} ({took()})")
    return 1 if failed else 0


if __name__ == "__main__":
    run_script(main, {"setup": step_setup})
