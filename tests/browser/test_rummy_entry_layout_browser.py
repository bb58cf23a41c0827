"""The rummy entry page in sight (issue 13): on a desktop the pad beside the entry and the
keyboard entering cards; at 360 × 740 the totals, the verdict and Save in sight, the pad
folding in one tap and staying folded through the taps; without JavaScript the pot's
question answered and the pad folded all the same."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import enter_deal, new_match, new_phone, settled, sign_up, tap, totals

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def in_view(page, selector: str) -> bool:
    return page.evaluate(
        """(s) => { const r = document.querySelector(s).getBoundingClientRect();
                    return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0; }""",
        selector,
    )


def desk_entry(live_server, chromium, game: str):
    """A match made on a phone and its first deal's entry opened on a desktop (1280 × 800):
    the desk's page, and the match's scoreboard address."""
    phone = new_phone(chromium)
    sign_up(phone, live_server.url)
    scoreboard = new_match(phone, live_server.url, game)
    desktop = chromium.new_context(viewport={"width": 1280, "height": 800})
    desktop.add_cookies(phone.context.cookies())
    page = desktop.new_page()
    page.set_default_timeout(15_000)
    page.goto(scoreboard + "deals/new/")
    return page, scoreboard


def test_on_a_desktop_the_pad_is_beside_the_entry_and_the_keyboard_enters_cards(
    live_server, chromium
):
    page, _scoreboard = desk_entry(live_server, chromium, "biriba")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 1280  # nothing to scroll sideways on a desktop either
    pad = page.locator("#entry .pad").bounding_box()
    panel = page.locator("#entry .side-panel").bounding_box()
    assert pad["x"] >= panel["x"] + panel["width"] - 1, (pad, panel)  # beside, not under
    assert pad["y"] < panel["y"] + panel["height"]
    expect(page.locator(".keyboard-hint").first).to_be_visible()
    for key in ("7", "h", "8", "h", "9", "h"):
        page.keyboard.press(key)
    settled(page)
    expect(page.locator("#entry .emeld .cchip")).to_have_text(["7♥", "8♥", "9♥"])
    page.keyboard.press("Backspace")
    settled(page)
    expect(page.locator("#entry .emeld .cchip")).to_have_text(["7♥", "8♥"])
    page.keyboard.press("Enter")  # a new meld
    for key in ("k", "s", "k", "d", "k", "c"):
        page.keyboard.press(key)
    settled(page)
    expect(page.locator("#entry .emeld").nth(1).locator(".cchip")).to_have_text(["K♠", "K♦", "K♣"])


def test_at_360_px_save_and_the_totals_stay_in_sight_and_the_pad_folds(live_server, chromium):
    page = new_phone(chromium)
    sign_up(page, live_server.url)
    new_match(page, live_server.url, "burraco")
    enter_deal(page, 1)
    for action in ("suit:H", "rank:4", "rank:5", "rank:6", "rank:7", "rank:8"):
        tap(page, action)
    settled(page)
    assert in_view(page, ".entry-bar [data-save]") and in_view(page, ".entry-bar")
    page.mouse.wheel(0, 2000)
    page.wait_for_timeout(200)
    assert in_view(page, ".entry-bar [data-save]")  # sticky: still there, scrolled down
    # the pad folds in one tap, and stays folded while taps are answered
    page.locator("#entry details.pad > summary").click()
    expect(page.locator("#pad-rank-A")).to_be_hidden()
    tap(page, "side:1")
    settled(page)
    expect(page.locator("#entry details.pad")).not_to_have_attribute("open", "")
    expect(page.locator("#pad-rank-A")).to_be_hidden()
    page.locator("#entry details.pad > summary").click()
    expect(page.locator("#pad-rank-A")).to_be_visible()


def test_without_javascript_the_pot_is_asked_and_the_pad_folds(live_server, chromium):
    page = new_phone(chromium, javascript=False)
    sign_up(page, live_server.url)
    scoreboard = new_match(page, live_server.url, "burraco")
    enter_deal(page, 1)

    def press(action: str) -> None:
        with page.expect_navigation():
            page.locator(f'#entry button[name="action"][value="{action}"]').first.click()

    for action in (
        "suit:H",
        "rank:4",
        "rank:5",
        "rank:6",
        "side:1",
        "suit:S",
        "rank:3",
        "rank:4",
        "rank:5",
    ):
        press(action)
    press("save")
    expect(page.locator('[data-message="pot_unanswered"]').first).to_be_visible()
    press("pot_no:1")  # the side on screen: Babis & Dora did not take it
    press("side:0")
    press("pot:0")
    page.locator("#entry details.pad > summary").click()  # a <details>: no script needed
    expect(page.locator("#pad-rank-A")).to_be_hidden()
    press("save")
    assert page.url == scoreboard
    expect(page.locator("main")).to_contain_text("Deal 1 saved.")


def test_the_verdict_in_the_bar_reads_as_a_line_not_a_column_of_words(live_server, chromium):
    """The question the bar asks ("Did Anna & Chris take the pozzetto? …") wraps as text at
    360 px: its words side by side (a name isolated in <bdi> is not a column of its own), on
    three lines at most, beside Save."""
    page = new_phone(chromium)
    sign_up(page, live_server.url)
    new_match(page, live_server.url, "burraco")
    enter_deal(page, 1)
    for action in ("suit:H", "rank:4", "rank:7"):
        tap(page, action)
    settled(page)
    verdict = page.locator("#entry .bar-verdict-text")
    expect(verdict).to_contain_text("take the pozzetto?")
    box = verdict.bounding_box()
    line = float(verdict.evaluate("e => parseFloat(getComputedStyle(e).lineHeight)"))
    assert box["width"] >= 150, box  # not a narrow column of broken words
    assert box["height"] <= 3 * line + 1, (box, line)
    assert in_view(page, "#entry .bar-save")


def test_on_a_desktop_a_burraco_deal_is_typed_and_saved(live_server, chromium):
    """A whole deal at a desk: the cards on the keyboard (a run by its first and last card, a
    set rank first then its suits, the hand after "i"), going out and the pot's answer by a
    click, the other side's tab, and Save; the scoreboard adds what the rules core
    gives the deal's document."""
    from scorekeeper.rules import match as rules_match

    page, scoreboard = desk_entry(live_server, chromium, "burraco")

    def typed(*presses: str) -> None:
        for key in presses:
            page.keyboard.press(key)
        settled(page)

    typed("4", "h", "1", "0")  # 4♥, then the ten: 4♥ … 10♥
    typed("k", "s", "d", "c")  # a new meld by itself (another suit): K♠, then ♦ and ♣ add
    expect(page.locator("#entry .emeld").nth(0).locator(".cchip")).to_have_count(7)
    expect(page.locator("#entry .emeld").nth(1).locator(".cchip")).to_have_text(["K♠", "K♦", "K♣"])
    page.locator('#entry [data-went-out="0"]').click()
    settled(page)
    page.locator('#entry [data-side="1"]').click()
    settled(page)
    expect(page.locator('#entry [data-side="1"]')).to_have_attribute("aria-selected", "true")
    typed("3", "s", "4", "5")  # 3♠ 4♠ 5♠ (one rank skipped would be left for a wild)
    typed("i", "9", "d")  # in hand: 9♦
    expect(page.locator("#entry .emeld:not(.hand) .cchip")).to_have_text(["3♠", "4♠", "5♠"])
    expect(page.locator("#entry .emeld.hand .cchip")).to_have_text(["9♦"])
    page.locator('#entry [data-pot-no="1"]').click()
    settled(page)
    page.locator("#entry .entry-bar [data-save]").click()
    page.wait_for_url(scoreboard)
    deal = {
        "sides": [
            {
                "melds": [
                    [f"{r}H" for r in ("4", "5", "6", "7", "8", "9", "10")],
                    ["KS", "KD", "KC"],
                ],
                "hand": [],
                "took_pot": True,
                "went_out": True,
            },
            {"melds": [["3S", "4S", "5S"]], "hand": ["9D"], "took_pot": False, "went_out": False},
        ]
    }
    document = {
        "format": "scorekeeper-match/1",
        "game": "burraco",
        "players": ["Anna", "Babis", "Chris", "Dora"],
        "deals": [deal],
    }
    assert totals(page) == rules_match.score_document(document)["totals"]


def test_a_refused_save_keeps_the_trump_row_and_the_pad_as_they_were(live_server, chromium):
    """The answer to a save refused (its banner a new line above the trump's row) leaves out
    the parts the phone holds: the morph keeps the phone's own, never an empty one in their
    place, and the pad stays open (or folded) as the player left it."""
    page = new_phone(chromium)
    sign_up(page, live_server.url)
    new_match(page, live_server.url, "biriba")
    enter_deal(page, 1)
    tap(page, "save")  # nothing entered: the pot's question is unanswered
    settled(page)
    expect(page.locator("#entry [data-message='pot_unanswered']").first).to_be_attached()
    expect(page.locator("#entry [data-trump]")).to_have_count(4)
    expect(page.locator("#entry [data-kept]")).to_have_count(0)
    expect(page.locator("#pad-rank-A")).to_be_visible()
    tap(page, "trump:S")
    settled(page)
    expect(page.locator('#entry [data-trump="S"]')).to_have_attribute("aria-pressed", "true")
    # folded, it stays folded through a refused save and a tap
    page.locator("#entry details.pad > summary").click()
    expect(page.locator("#pad-rank-A")).to_be_hidden()
    tap(page, "save")
    settled(page)
    tap(page, "side:1")
    settled(page)
    expect(page.locator("#pad-rank-A")).to_be_hidden()
    expect(page.locator("#entry [data-trump]")).to_have_count(4)
