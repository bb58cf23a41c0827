"""What the browser tests share: Debian's Chromium on a 360 px phone, and a first-time user's
moves (sign up, start a match, tap keys, save, check that the page fits the screen).

Without ``/usr/bin/chromium`` the tests are skipped with the reason, except when
``SCOREKEEPER_BROWSER_REQUIRED=1`` (CI sets it): then they fail, so that CI never passes with
the browser tests left out.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import Any

from tests.conftest import run

# Playwright's sync API runs an event loop in this thread; Django's ORM calls made from the
# test (creating the user) must be allowed next to it.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

PASSWORD = "a-long-enough-password-1"
PLAYERS = ["Anna", "Babis", "Chris", "Dora"]
PHONE_WIDTH = 360


def new_phone(browser, *, javascript: bool = True):
    page = browser.new_page(
        viewport={"width": PHONE_WIDTH, "height": 740},
        has_touch=True,
        java_script_enabled=javascript,
    )
    page.set_default_timeout(15_000)
    # Assertions wait as long as actions: CI machines are shared and slow at times.
    from playwright.sync_api import expect

    expect.set_options(timeout=15_000)
    # A confirmation asked by the page (hx-confirm) is answered yes, as a player would.
    page.on("dialog", lambda dialog: dialog.accept())
    return page


def fits(page) -> None:
    """The page is no wider than the phone: nothing to scroll sideways."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE_WIDTH, f"{page.url} is {width} px wide"


def sign_up(page, base: str, username: str = "anna") -> None:
    """From the home page, as someone who has never been here."""
    page.goto(base + "/")
    fits(page)
    page.get_by_role("link", name="Sign up").first.click()
    page.wait_for_url(re.compile(r"/signup/"))
    fits(page)
    page.fill('input[name="username"]', username)
    page.fill('input[name="password1"]', PASSWORD)
    page.fill('input[name="password2"]', PASSWORD)
    page.get_by_role("button", name="Create my account").click()
    # a new account goes straight to starting its first match
    page.wait_for_url(re.compile(r"/matches/new/$"))


# rules.md, Burraco example 1 on the pad: 360 for Anna & Chris, 25 for Babis & Dora.
BURRACO_EXAMPLE_1 = [
    *run("H", "3 4 5 6 7 8 9"),
    "new_meld",
    # a set: its rank first, then one suit key a card (K♠, then ♦ and ♣ add K♦ K♣)
    *run("S", "K"),
    "suit:D",
    "suit:C",
    "target:hand",
    *run("C", "4"),
    *run("D", "Q"),
    "pot:0",
    "went_out:0",
    "side:1",
    *run("S", "10 J Q"),
    "joker",
    "new_meld",
    *run("S", "7"),
    "suit:D",
    "suit:C",
    "target:hand",
    *run("H", "A"),
    *run("C", "2"),
    *run("D", "5"),
    *run("S", "K"),
    "pot:1",
]


def new_match(
    page,
    base: str,
    game: str,
    *,
    target: int | None = None,
    confirmation: bool = False,
    check: Callable[[Any], None] = fits,
) -> str:
    """Start a match for Anna, Babis, Chris and Dora; returns the scoreboard's URL. ``check``:
    what every page on the way must pass (the phone's width; a language's test adds its own)."""
    if not page.url.endswith("/matches/new/"):
        page.goto(base + "/matches/new/")
    button = page.locator(f'button[name="switch_game"][value="{game}"]')
    if "on" not in (button.get_attribute("class") or "").split():
        button.click()
        page.wait_for_selector(f'button[name="switch_game"][value="{game}"].on')
    seats = page.locator("#match-form .seat input[type=text]")
    if seats.count() != 4:
        page.locator('button[name="switch_seats"][value="4"]').click()
        page.wait_for_function(
            "document.querySelectorAll('#match-form .seat input[type=text]').length === 4"
        )
    for i, name in enumerate(PLAYERS):
        seats.nth(i).fill(name)
    check(page)
    if target is not None:
        page.fill('input[name="opt_target"]', str(target))
    if confirmation:  # the house rule: the other side accepts each deal
        page.locator('input[name="confirmation"][value="on"]').check()
    check(page)
    page.locator("#match-form button.primary[type=submit]").click()  # in any language
    page.wait_for_url(re.compile(r"/matches/\d+/$"))
    check(page)
    return page.url


def tap(page, action: str) -> None:
    """Press the deal-entry key whose action is ``action``, without waiting for the answer.

    The pot's question sits under the cards being entered and moves down as an answer adds a
    line of them: it is answered once the page is drawn (as a player reads it before tapping
    it), so that the tap is not aimed where the button was a moment before."""
    if action.startswith(("pot:", "pot_no:")):
        settled(page)
    page.locator(f'#entry button[name="action"][value="{action}"]').first.click()


#: Nothing on its way: no tap waiting in the entry page's queue (``data-busy``), no htmx
#: request under way, nothing left swapping or settling (htmx's classes for those).
IDLE = (
    "() => !document.querySelector("
    "'#entry-form[data-busy], .htmx-request, .htmx-swapping, .htmx-settling')"
)


def settled(page) -> None:
    """Every tap answered and the page redrawn: nothing on its way (:data:`IDLE`), then a
    quiet network too (Playwright's "networkidle", half a second more). Without the second
    wait the Biriba and Burraco winner tests raced: a card tapped during a redraw went to a
    new meld (issue 24, still to find)."""
    page.wait_for_function(IDLE, polling=20)
    page.wait_for_load_state("networkidle")


def keys(page, actions: list[str], *, javascript: bool = True) -> None:
    """Press ``actions`` one after the other, each answered before the next (with
    JavaScript: its tap settled; without: its page loaded)."""
    for action in actions:
        tap(page, action)
        if javascript:
            settled(page)
        else:
            page.wait_for_load_state()


def save_correction(page, scoreboard: str, *, javascript: bool = True) -> None:
    """Save a correction, agreed to first (a dialog with JavaScript, answered yes by
    new_phone; a page without), and back on the scoreboard."""
    tap(page, "save")
    if not javascript:
        page.locator("[data-confirm]").click()
    page.wait_for_url(scoreboard)


def enter_deal(page, number: int) -> None:
    page.get_by_role("link", name=f"Enter deal {number}").click()
    page.wait_for_url(re.compile(r"/deals/new/$"))
    fits(page)


def first_deal(chromium, base: str, game: str):
    """A new phone of a new user, on the entry page of deal 1 of a new ``game`` match."""
    page = new_phone(chromium)
    sign_up(page, base)
    new_match(page, base, game)
    enter_deal(page, 1)
    return page


def save(page, scoreboard: str, number: int) -> None:
    settled(page)
    fits(page)
    tap(page, "save")
    page.wait_for_url(scoreboard)
    from playwright.sync_api import expect

    expect(page.locator("main")).to_contain_text(f"Deal {number} saved.")
    fits(page)


def totals(page) -> list[int]:
    """The running totals at the top of the scoreboard, as numbers."""
    texts = page.locator(".board-top .total .pts").all_inner_texts()
    return [int(re.sub(r"\s", "", t.replace("−", "-"))) for t in texts]


_VISIBILITY = """(hidden) => {
    const state = hidden ? "hidden" : "visible";
    Object.defineProperty(document, "visibilityState", {configurable: true, get: () => state});
    Object.defineProperty(document, "hidden", {configurable: true, get: () => hidden});
    document.dispatchEvent(new Event("visibilitychange"));
}"""


def hide(page) -> None:
    """The tab goes to the background (as when the phone shows another app): the page's
    live check pauses (site.js asks only while visible)."""
    page.evaluate(_VISIBILITY, True)


def show(page) -> None:
    """The tab comes back to the front: the live check asks at once."""
    page.evaluate(_VISIBILITY, False)
