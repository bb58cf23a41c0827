"""Screenshots of the scoreboard and of each deal-entry page, 360 px wide, for docs/screenshots/.

    .venv/bin/python docs/screenshots/make_screenshots.py [--out DIR]

Builds a throwaway SQLite database with a few matches (made through the services, like the
site does), serves the site with ``manage.py runserver`` on a free port, and drives Debian's
Chromium (``/usr/bin/chromium``; ``apt-get install chromium``) with Playwright through the
pages, tapping the pads the way a player would. Nothing outside the temporary directory and
the output directory is touched.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
USERNAME, PASSWORD = "anna", "screenshots-only-1234"
PLAYERS = ["Anna", "Babis", "Chris", "Dora"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def setup_data(env: dict[str, str]) -> dict[str, int]:
    """Migrate the temporary database and create the matches; returns their ids."""
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from scorekeeper import services

    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_user(username=USERNAME, password=PASSWORD)
    ids: dict[str, int] = {}
    biriba = services.match_create(
        owner=user, game="biriba", players=PLAYERS, first_dealer=0, rules={}
    )
    for deal in BIRIBA_DEALS:
        services.deal_record(match=biriba, data=deal)
    ids["biriba"] = biriba.pk
    burraco = services.match_create(
        owner=user, game="burraco", players=PLAYERS, first_dealer=1, rules={}
    )
    services.deal_record(match=burraco, data=BURRACO_DEAL)
    ids["burraco"] = burraco.pk
    barbu = services.match_create(
        owner=user, game="barbu", players=PLAYERS, first_dealer=1, rules={}
    )
    for deal in BARBU_DEALS:
        services.deal_record(match=barbu, data=deal)
    ids["barbu"] = barbu.pk
    return ids


BIRIBA_DEALS = [
    {
        "trump": "D",
        "sides": [
            {
                "melds": [["4H", "5H", "6H", "7H", "8H", "9H", "10H"], ["QS", "KS", "AS"]],
                "hand": ["3C", "KD"],
                "took_pot": True,
                "went_out": True,
            },
            {
                "melds": [["5C", "6C", "JK", "8C"], ["9D", "10D", "JD"]],
                "hand": ["2S", "AH", "4D"],
                "took_pot": True,
            },
        ],
    },
    {
        "trump": "C",
        "sides": [
            {
                "melds": [
                    ["3C", "4C", "5C", "6C", "7C", "8C", "9C"],
                    ["8H", "9H", "10H", "JH", "QH", "KH", "JK"],
                ],
                "hand": ["5D", "7S"],
                "took_pot": True,
            },
            {
                "melds": [["AD", "2D", "3D", "4D", "5D", "6D", "7D"]],
                "hand": ["KS", "QS"],
                "took_pot": True,
                "went_out": True,
            },
        ],
    },
]
BURRACO_DEAL = {
    "sides": [
        {
            "melds": [["3H", "4H", "5H", "6H", "7H", "8H", "9H"], ["KS", "KD", "KC"]],
            "hand": ["4C", "QD"],
            "took_pot": True,
            "went_out": True,
        },
        {
            "melds": [["10S", "JS", "QS", "JK"], ["7S", "7D", "7C"]],
            "hand": ["AH", "2C", "5D", "KS"],
            "took_pot": True,
        },
    ]
}
BARBU_DEALS = [
    {
        "contract": "no_tricks",
        "doubles": [{"by": 2, "on": 1}, {"by": 3, "on": 1}, {"by": 0, "on": 1, "redoubled": True}],
        "tricks": [4, 2, 3, 4],
    },
    {
        "contract": "barbu",
        "doubles": [{"by": 2, "on": 1}, {"by": 0, "on": 3}],
        "king_of_hearts": 3,
    },
]


def tap(page, value: str) -> None:
    """Press the key whose action is ``value``, as fast as a player would (no waiting)."""
    page.locator(f'#entry button[name="action"][value="{value}"]').first.click()


def settled(page) -> None:
    """Wait until every tap has been answered and the page redrawn."""
    page.wait_for_selector("#entry-form:not([data-busy])", state="attached")
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(300)


def whole_page(page, path: Path) -> None:
    """The whole page in one picture: the sticky pad and buttons drawn where they stand."""
    page.mouse.move(0, 0)
    style = page.add_style_tag(content=".pad, .sticky-actions { position: static !important; }")
    page.screenshot(path=path, full_page=True)
    style.evaluate("node => node.remove()")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=HERE)
    args = parser.parse_args()
    if not Path(CHROMIUM).exists():
        print(f"{CHROMIUM} is missing: apt-get install chromium", file=sys.stderr)
        return 1
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        env = {
            "DEBUG": "1",
            "SECRET_KEY": "screenshots-only",
            "DATABASE_URL": f"sqlite:///{tmp}/screenshots.sqlite3",
            "DJANGO_SETTINGS_MODULE": "scorekeeper.settings",
            "DJANGO_ALLOW_ASYNC_UNSAFE": "true",
        }
        ids = setup_data(env)
        port = free_port()
        server = subprocess.Popen(
            [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
            cwd=ROOT,
            env={**os.environ, **env},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(100):
                try:
                    urllib.request.urlopen(base + "/", timeout=1)
                    break
                except OSError:
                    time.sleep(0.1)
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                page = browser.new_page(
                    viewport={"width": 360, "height": 740}, device_scale_factor=2
                )
                shoot(page, base, ids, args.out)
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=10)
    return 0


def shoot(page, base: str, ids: dict[str, int], out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    page.goto(base + "/accounts/login/")
    page.fill('input[name="username"]', USERNAME)
    page.fill('input[name="password"]', PASSWORD)
    page.locator('form button[type="submit"]').last.click()
    page.wait_for_load_state("networkidle")

    for game in ("biriba", "burraco"):
        page.goto(f"{base}/matches/{ids[game]}/")
        page.locator("#deal-1 summary").click()  # one breakdown open
        page.screenshot(path=out / f"scoreboard-{game}.png", full_page=True)

    # Biriba: trump, a clean trump biriba, a dirty run, cards in hand, the biribaki
    page.goto(f"{base}/matches/{ids['biriba']}/deals/new/")
    for value in ["trump:S", "suit:S", "rank:5", "rank:6", "rank:7", "rank:8", "rank:9"]:
        tap(page, value)
    for value in ["rank:10", "rank:J", "new_meld", "suit:D", "rank:3", "rank:4", "card:2C"]:
        tap(page, value)
    for value in ["target:hand", "suit:C", "rank:K", "suit:H", "rank:9", "pot:0"]:
        tap(page, value)
    settled(page)
    whole_page(page, out / "entry-biriba.png")
    page.screenshot(path=out / "entry-biriba-phone.png")  # what the phone shows: pad at hand

    # Burraco: a burraco sporco, an illegal meld (two wilds) marked in red with the rule
    page.goto(f"{base}/matches/{ids['burraco']}/deals/new/")
    for value in ["side:1", "suit:C", "rank:6", "rank:7", "rank:8", "rank:9", "rank:10"]:
        tap(page, value)
    for value in ["rank:J", "joker", "new_meld", "suit:H", "rank:Q", "rank:K", "joker"]:
        tap(page, value)
    for value in ["suit:S", "rank:2", "pot:1"]:
        tap(page, value)
    settled(page)
    whole_page(page, out / "entry-burraco.png")

    # The same deal, Anna & Chris counted by hand: totals on the keypad, bonus steppers
    for value in ["side:0", "mode:totals", "digit:1", "digit:8", "digit:5", "target:in_hand"]:
        tap(page, value)
    for value in ["digit:2", "digit:0", "bonus:clean_burraco:+1", "pot:0", "went_out:0"]:
        tap(page, value)
    settled(page)
    whole_page(page, out / "entry-totals.png")

    # Barbu: Babis declares; no queens with doubles, a redouble, and the queens counted
    page.goto(f"{base}/matches/{ids['barbu']}/deals/new/")
    for value in ["contract:no_queens", "maximum:2", "double:3:1:1", "double:2:1:2"]:
        tap(page, value)
    for value in ["step:queens:0:+1", "step:queens:2:+1", "step:queens:3:+1", "rest:queens:1"]:
        tap(page, value)
    settled(page)
    whole_page(page, out / "entry-barbu.png")

    # Barbu, nobody doubles a negative contract: not played, the banner says so
    for value in ["reset"]:
        page.once("dialog", lambda dialog: dialog.accept())
        tap(page, value)
    settled(page)
    tap(page, "contract:no_hearts")
    settled(page)
    whole_page(page, out / "entry-barbu-split.png")

    page.goto(f"{base}/matches/{ids['barbu']}/")
    page.locator("#deal-2 summary").click()
    page.screenshot(path=out / "scoreboard-barbu.png", full_page=True)
    for path in sorted(out.glob("*.png")):
        print(path)


if __name__ == "__main__":
    sys.exit(main())
