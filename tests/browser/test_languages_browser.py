"""The table's own language on a 360 px phone: a Biriba deal played in Greek, a Burraco deal in
Italian and a Barbu deal with doubles in French, each from signing up on a phone set to that
language to the scoreboard's totals. The page's words are translated, so every control is
found by its data- hook or its action, never by its English name; on every page visited the
page is no wider than the phone and no text is cut off unexpectedly.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scorekeeper.models import Match
from scorekeeper.selectors import match_scored
from tests.conftest import run
from tests.i18n.conftest import compiled, speaking  # noqa: F401  (the catalogues compiled)
from tests.i18n.test_speaking import said

from .conftest import (
    BURRACO_EXAMPLE_1,
    PASSWORD,
    PHONE_WIDTH,
    new_match,
    settled,
    tap,
    totals,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Elements whose text overflows their box where the overflow is hidden, without an ellipsis
#: that says so, and are not the visually hidden text for screen readers (1 px, clipped).
CLIPPED = """() => [...document.body.querySelectorAll("*")].filter((e) => {
    const style = getComputedStyle(e);
    if (e.clientWidth <= 1 || style.display === "none") return false;
    if (style.visibility === "hidden") return false;
    if (style.position === "absolute" && style.clip && style.clip !== "auto") return false;
    if (style.textOverflow === "ellipsis") return false;
    const hides = (o) => o === "hidden" || o === "clip";
    const text = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    return text && ((hides(style.overflowX) && e.scrollWidth > e.clientWidth + 1)
        || (hides(style.overflowY) && e.scrollHeight > e.clientHeight + 1));
}).map((e) => e.tagName + "." + e.className + ": " + e.textContent.trim().slice(0, 40))"""


def fits(page, language: str) -> None:
    """The page is in ``language``, no wider than the phone, and cuts no text off."""
    assert page.get_attribute("html", "lang") == language, page.url
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE_WIDTH, f"{page.url} is {width} px wide"
    assert page.evaluate(CLIPPED) == [], page.url


def phone(chromium, language: str):
    context = chromium.new_context(
        viewport={"width": PHONE_WIDTH, "height": 740},
        has_touch=True,
        locale={"el": "el-GR", "it": "it-IT", "fr": "fr-FR"}[language],
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    expect.set_options(timeout=15_000)
    page.on("dialog", lambda dialog: dialog.accept())
    return context, page


def start(page, base: str, language: str, game: str) -> str:
    """Sign up on a phone in ``language`` and start a match of ``game`` for four; returns the
    scoreboard's address."""
    page.goto(base + "/")
    fits(page, language)
    page.locator('a[href="/accounts/signup/"]').first.click()
    page.wait_for_url(re.compile(r"/signup/$"))
    fits(page, language)
    page.fill('input[name="username"]', "anna")
    page.fill('input[name="password1"]', PASSWORD)
    page.fill('input[name="password2"]', PASSWORD)
    page.locator('form:not([data-language-picker]) button[type="submit"]').last.click()
    page.wait_for_url(re.compile(r"/matches/new/$"))
    fits(page, language)
    return new_match(page, base, game, check=lambda p: fits(p, language))


def play(page, scoreboard: str, language: str, actions: list[str]) -> None:
    """Enter deal 1 by its keys, each answered before the next (what is tested here is the
    language and the fit; taps overtaking their answers are tests/browser/test_taps_browser.py's
    and test_burraco_browser.py's), every redraw fitting the phone."""
    page.locator('a[href$="/deals/new/"]').first.click()
    page.wait_for_url(re.compile(r"/deals/new/$"))
    fits(page, language)
    for action in actions:
        tap(page, action)
        settled(page)
    fits(page, language)


def saved(page, scoreboard: str, language: str) -> None:
    settled(page)
    tap(page, "save")
    page.wait_for_url(scoreboard)
    expect(page.locator("main")).to_contain_text(said(language, "Deal %(n)s saved.") % {"n": 1})
    fits(page, language)


def scored_as_stored(page, language: str) -> list[int]:
    """The scoreboard's totals are the rules' totals of the deal stored; a breakdown opened
    fits too."""
    match = Match.objects.get()
    assert match.deal_count == 1
    expected = list(match_scored(match)[1].totals)
    assert totals(page) == expected
    page.locator("#deal-1 > summary").click()  # the row opened: its breakdown loaded into it
    expect(page.locator('#deal-1 [data-breakdown="1"]')).to_be_visible()
    fits(page, language)
    return expected


# Deal 1 of tests/browser/test_biriba_browser.py, trump ♦: Anna & Chris a clean biriba in
# hearts and Q♠–A♠, out; Babis & Dora a dirty run with a wild two, their pot taken.
BIRIBA = [
    "trump:D",
    *run("H", "4 5 6 7 8 9 10"),
    "new_meld",
    *run("S", "Q K A"),
    "target:hand",
    *run("C", "3"),
    *run("D", "K"),
    "went_out:0",
    "side:1",
    *run("C", "5 6"),
    "card:2S",
    "rank:8",
    "new_meld",
    *run("D", "9 10 J"),
    "target:hand",
    *run("H", "A"),
    *run("D", "4"),
    "pot:1",
]

BURRACO = BURRACO_EXAMPLE_1  # rules.md, Burraco example 1: 360 and 25


def test_a_biriba_deal_in_greek(live_server, chromium, speaking):  # noqa: F811
    context, page = phone(chromium, "el")
    scoreboard = start(page, live_server.url, "el", "biriba")
    play(page, scoreboard, "el", BIRIBA)
    expect(page.locator("#entry")).to_contain_text("2♠")
    saved(page, scoreboard, "el")
    first = scored_as_stored(page, "el")
    assert first[0] > first[1] > 0
    # the check of cut-off text finds one: a word in a box too narrow that hides the rest
    page.evaluate(
        """() => { const p = document.createElement("p"); p.textContent = "Μπιριμπάκι".repeat(9);
        p.style.cssText = "width: 40px; overflow: hidden; white-space: nowrap";
        document.querySelector("main").append(p); }"""
    )
    assert len(page.evaluate(CLIPPED)) == 1
    context.close()


def test_a_burraco_deal_in_italian(live_server, chromium, speaking):  # noqa: F811
    context, page = phone(chromium, "it")
    scoreboard = start(page, live_server.url, "it", "burraco")
    play(page, scoreboard, "it", BURRACO)
    saved(page, scoreboard, "it")
    assert scored_as_stored(page, "it") == [360, 25]
    context.close()


def test_a_barbu_deal_with_doubles_in_french(live_server, chromium, speaking):  # noqa: F811
    context, page = phone(chromium, "fr")
    scoreboard = start(page, live_server.url, "fr", "barbu")
    # No tricks, declared by Anna: Babis and Chris double her from the folded line, she
    # redoubles Babis; Anna takes 3 tricks, Babis 4, Chris 3, and Dora the rest.
    play(page, scoreboard, "fr", ["contract:no_tricks"])
    entry = page.locator("#entry")
    expect(entry.locator('[data-doubles="folded"]')).to_be_visible()
    entry.locator('[data-double-on-declarer="1"]').click()
    settled(page)
    entry.locator('[data-double-on-declarer="2"]').click()
    settled(page)
    entry.locator('[data-redouble="1"]').click()
    settled(page)
    expect(entry.locator('[data-redouble="1"]')).to_have_attribute("aria-pressed", "true")
    for seat, count in ((0, 3), (1, 4), (2, 3)):
        tap(page, f"focus:tricks:{seat}")
        settled(page)
        entry.locator(f'[data-number="{count}"]').first.click()
        settled(page)
    expect(entry.locator('[data-count="3:tricks"]')).to_have_text("3")  # the rest
    expect(entry.locator(".sumcheck")).to_have_text("13 / 13 ✓")
    fits(page, "fr")
    saved(page, scoreboard, "fr")
    match = Match.objects.get()
    doubles = match.deals.get().data["doubles"]
    assert {(d["by"], d["on"]) for d in doubles} == {(1, 0), (2, 0)}
    assert [d.get("redoubled", False) for d in sorted(doubles, key=lambda d: d["by"])] == [
        True,
        False,
    ]
    # Anna -6 for her 3 tricks, +4 from Babis's redoubled double (his 4 tricks against her 3,
    # twice 2 points, redoubled), Chris's double even (3 tricks each): by hand, -2 points a trick
    assert scored_as_stored(page, "fr") == [-2, -12, -6, -6]
    context.close()
