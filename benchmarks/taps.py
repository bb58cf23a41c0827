"""Taps per deal: replays the deals of benchmarks/taps_data/ through the real entry pages.

    .venv/bin/python benchmarks/taps.py                    # every game and mode
    .venv/bin/python benchmarks/taps.py --only rummy-cards --root /some/other/checkout

The site is served by gunicorn on a fresh SQLite database (benchmarks/_server.py); Chromium
(/usr/bin/chromium, --no-sandbox) at 360 × 740 signs up, starts one match per game and mode
and enters every deal of its file as a player would (benchmarks/taps_rummy.py; Barbu and
Ravage City by benchmarks/taps_barbu.py when it is there: ``play(page, deal) -> int``), counting
every tap, Save included. After each save the scoreboard's totals must be those the rules core
gives the file's deals so far (the deal scored exactly as its document is): any difference
stops the run. Prints the median and the maximum per game and mode, then the last line
``taps: rummy-cards M/X rummy-totals M/X barbu M/X ravage M/X`` (median / maximum; "-" for a
column with no deals). ``--root``: serve another checkout (to measure an older pad).
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import secrets
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import _server  # noqa: E402
import taps_rummy  # noqa: E402

from scorekeeper.rules import match as rules_match  # noqa: E402

DATA = HERE / "taps_data"
CHROMIUM = "/usr/bin/chromium"
PASSWORD = "a-long-enough-password-1"
COLUMNS = ("rummy-cards", "rummy-totals", "barbu", "ravage")


def serve(root: Path, tmp: Path) -> tuple[Any, dict[str, str]]:
    env = _server.server_env(f"sqlite:///{tmp / 'taps.sqlite3'}", tmp)
    env["PYTHONPATH"] = f"{tmp}:{root}"
    env["ALLOWED_HOSTS"] = "127.0.0.1,localhost"
    (tmp / f"{_server.SETTINGS_MODULE}.py").write_text(
        "from scorekeeper.settings import *  # noqa: F403\n\n"
        f"STATIC_ROOT = {str(tmp / 'static')!r}\n"
    )
    for command in (["collectstatic", "--noinput", "-v", "0"], ["migrate", "--noinput"]):
        done = subprocess.run(
            [sys.executable, "manage.py", *command], env=env, cwd=root, capture_output=True
        )
        if done.returncode:
            raise _server.Failure(done.stderr.decode()[-2000:])
    server = _server.Server(env, tmp / "server.log")
    old_root = _server.ROOT
    _server.ROOT = root  # gunicorn's --chdir
    server.__enter__()
    _server.ROOT = old_root
    return server, env


def sign_up(page: Any, base: str, username: str) -> None:
    page.goto(base + "/accounts/signup/")
    page.fill('input[name="username"]', username)
    page.fill('input[name="password1"]', PASSWORD)
    page.fill('input[name="password2"]', PASSWORD)
    page.get_by_role("button", name="Create my account").click()
    page.wait_for_url(re.compile(r"/matches/new/$"))


def new_match(page: Any, base: str, doc: dict[str, Any]) -> str:
    page.goto(base + "/matches/new/")
    game = doc["game"]
    button = page.locator(f'button[name="switch_game"][value="{game}"]')
    if "on" not in (button.get_attribute("class") or "").split():
        button.click()
        page.wait_for_selector(f'button[name="switch_game"][value="{game}"].on')
    seats = page.locator("#match-form .seat input[type=text]")
    if seats.count() != len(doc["players"]):
        page.locator(f'button[name="switch_seats"][value="{len(doc["players"])}"]').click()
        page.wait_for_function(
            "n => document.querySelectorAll('#match-form .seat input[type=text]').length === n",
            arg=len(doc["players"]),
        )
    for i, name in enumerate(doc["players"]):
        seats.nth(i).fill(name)
    for key, value in (doc.get("rules") or {}).items():
        field = page.locator(f'[name="opt_{key}"]')
        if not field.count():
            continue
        kind = field.first.evaluate("e => e.tagName === 'SELECT' ? 'select' : e.type")
        if kind == "radio":
            page.locator(f'[name="opt_{key}"][value="{value}"]').check()
        elif kind == "checkbox":
            field.set_checked(bool(value))
        elif kind == "select":
            field.select_option(str(value))
        else:
            field.fill(str(value))
    page.get_by_role("button", name="Start the match").click()
    page.wait_for_url(re.compile(r"/matches/\d+/$"))
    return page.url


def board_totals(page: Any, sides: int) -> list[int]:
    out = []
    for k in range(sides):
        text = page.locator(f'[data-total="{k}"]').first.inner_text()
        out.append(int(re.sub(r"[^\d-]", "", text.replace("−", "-"))))
    return out


def hand_values(doc: dict[str, Any], deal: dict[str, Any]) -> list[int | None]:
    """What each side's hand is worth under the match's rules (the rules core's figure)."""
    scored = rules_match.score_document({**doc, "deals": [deal]})["deals"][0]["score"]
    return [-s["in_hand"] for s in scored["sides"]]


def side_points(doc: dict[str, Any], deal: dict[str, Any]) -> list[int]:
    """Each side's points for the deal under the match's rules (the rules core's figure)."""
    scored = rules_match.score_document({**doc, "deals": [deal]})["deals"][0]["score"]
    return [s["total"] for s in scored["sides"]]


def kind_of(deal: dict[str, Any]) -> str:
    """A Barbu deal's row in the breakdown: its contract, and whether it was doubled (a
    negative contract nobody doubled, with no data, was split: "split, undoubled")."""
    doubled = "doubled" if deal.get("doubles") else "undoubled"
    split = not set(deal) - {"contract", "doubles"}
    return f"{deal['contract']}{' split' if split else ''}, {doubled}"


def replay(browser: Any, base: str, doc: dict[str, Any], player: Any, *, rummy: bool) -> list[int]:
    page = browser.new_page(viewport={"width": 360, "height": 740}, has_touch=True)
    page.set_default_timeout(20_000)
    page.on("dialog", lambda dialog: dialog.accept())
    sign_up(page, base, f"taps{secrets.token_hex(3)}")
    scoreboard = new_match(page, base, doc)
    expected = rules_match.score_document(doc)
    taps: list[int] = []
    for n, deal in enumerate(doc["deals"], 1):
        page.goto(scoreboard.rstrip("/") + "/deals/new/")
        page.wait_for_selector("#entry")
        if rummy:
            count = player.play(page, deal, hand_values(doc, deal), side_points(doc, deal))
        else:
            count = player.play(page, deal)  # counts the Save it leaves to the caller
        page.locator('#entry button[name="action"][value="save"]').first.click()
        page.wait_for_url(scoreboard)
        taps.append(count)
        shown = board_totals(page, len(expected["totals"]))
        want = rules_match.score_document({**doc, "deals": doc["deals"][:n]})["totals"]
        if shown != want:
            raise SystemExit(
                f"{doc['game']} deal {n}: the scoreboard shows {shown}, the rules core {want}"
            )
    page.close()
    return taps


def documents(path: Path) -> list[dict[str, Any]]:
    """The match documents a data file holds (one, or a list of them)."""
    raw = json.loads(path.read_text())
    return raw if isinstance(raw, list) else [raw]


def summary(taps: list[int]) -> str:
    return f"{statistics.median(taps):g}/{max(taps)}" if taps else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, default=HERE.parent)
    parser.add_argument("--only", choices=COLUMNS, action="append")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    try:
        barbu = importlib.import_module("taps_barbu")
    except ImportError:
        barbu = None
    plan: dict[str, list[tuple[Path, Any, bool]]] = {c: [] for c in COLUMNS}
    for game in ("biriba", "burraco"):
        plan["rummy-cards"].append((DATA / f"{game}_cards.json", taps_rummy, True))
        plan["rummy-totals"].append((DATA / f"{game}_totals.json", taps_rummy, True))
    if barbu is not None:
        for path in sorted(DATA.glob("barbu*.json")):
            column = "ravage" if "ravage" in path.name else "barbu"
            plan[column].append((path, barbu, False))
    results: dict[str, list[int]] = {c: [] for c in COLUMNS}
    kinds: dict[str, list[int]] = {}  # Barbu: the taps of each contract, doubled or not
    with tempfile.TemporaryDirectory(prefix="taps-") as tmp:
        server, _env = serve(args.root.resolve(), Path(tmp))
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
                for column in COLUMNS:
                    if args.only and column not in args.only:
                        continue
                    for path, player, rummy in plan[column]:
                        taps = []
                        for doc in documents(path):
                            played = replay(browser, server.origin, doc, player, rummy=rummy)
                            taps += played
                            if not rummy:
                                for deal, count in zip(doc["deals"], played, strict=True):
                                    kinds.setdefault(kind_of(deal), []).append(count)
                        results[column] += taps
                        _server.say(
                            f"{path.name}: {len(taps)} deals, taps median {summary(taps)} "
                            f"(median/max)"
                        )
                browser.close()
        finally:
            server.__exit__()
    for column in COLUMNS:
        if results[column]:
            _server.say(
                f"{column}: median {statistics.median(results[column]):g}, "
                f"maximum {max(results[column])}, {len(results[column])} deals"
            )
    for kind in sorted(kinds):
        _server.say(f"   {kind}: median/max {summary(kinds[kind])} ({len(kinds[kind])} deals)")
    for line in targets(results, kinds):
        _server.say(line)
    _server.say("taps: " + " ".join(f"{c} {summary(results[c])}" for c in COLUMNS))


def targets(results: dict[str, list[int]], kinds: dict[str, list[int]]) -> list[str]:
    """Issue 13's targets as pass / fail lines, from the figures measured (a column or a
    contract not measured in this run is left out)."""
    lines = []

    def line(what: str, value: float, limit: int) -> None:
        lines.append(f"{'pass' if value <= limit else 'FAIL'}  {what}: {value:g} <= {limit}")

    for column, limit in (("rummy-cards", 24), ("rummy-totals", 10), ("ravage", 16)):
        if results[column]:
            line(f"{column}, median", statistics.median(results[column]), limit)
    counted = [
        count
        for kind, counts in kinds.items()
        if kind.split(",")[0] in ("trumps", "no_tricks", "no_hearts", "no_queens")
        for count in counts
    ]
    if counted:
        median = statistics.median(counted)
        line("barbu, contracts with tricks, hearts or queens, median", median, 7)
    for doubled in ("undoubled", "doubled"):
        short = [
            count
            for kind, counts in kinds.items()
            if kind.endswith(doubled) and _split_or_domino(kind)
            for count in counts
        ]
        if short and doubled == "undoubled":
            line("barbu, every split or domino, maximum", max(short), 5)
        elif short:  # a double is said with a tap of its own: shown, not held to the five
            lines.append(f"info  barbu, a domino doubled, maximum: {max(short)} (a tap a double)")
    return lines


def _split_or_domino(kind: str) -> bool:
    return kind.startswith("domino") or "split" in kind


if __name__ == "__main__":
    main()
