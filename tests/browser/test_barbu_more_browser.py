"""Issue 12's Barbu on a 360 px phone, in Chromium: a match with Chinese Poker to its winner
(its house values chosen on the new-match page, the nets typed on number keys, the last one
following from the zero sum), a deal of Salade for five, and a deal of Chinese Poker without
JavaScript."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import (
    PLAYERS,
    enter_deal,
    fits,
    new_phone,
    save,
    settled,
    sign_up,
    tap,
    totals,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FIVE = [*PLAYERS, "Eleni"]


def barbu_form(page, base: str, *, seats: int = 4, javascript: bool = True) -> None:
    """The new-match page with Barbu chosen for ``seats`` players, their names typed."""
    if not page.url.endswith("/matches/new/"):
        page.goto(base + "/matches/new/")
    with page.expect_navigation() if not javascript else _nothing():
        page.locator('button[name="switch_game"][value="barbu"]').click()
    page.wait_for_selector('button[name="switch_game"][value="barbu"].on')
    if seats != 4:
        with page.expect_navigation() if not javascript else _nothing():
            page.locator(f'button[name="switch_seats"][value="{seats}"]').click()
    names = page.locator("#match-form .seat input[type=text]")
    expect(names).to_have_count(seats)
    for i, name in enumerate(FIVE[:seats]):
        names.nth(i).fill(name)
    fits(page)


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def start(page) -> str:
    page.locator("#match-form button.primary[type=submit]").click()
    page.wait_for_url(re.compile(r"/matches/\d+/$"))
    fits(page)
    return page.url


def nets(page, typed: dict[int, str]) -> None:
    """Tap each player, then their net on the number keys (a minus: ±)."""
    for seat, net in typed.items():
        tap(page, f"focus:net:{seat}")
        settled(page)
        for key in net:
            tap(page, "net:sign" if key == "-" else f"net:{key}")
            settled(page)


def test_a_barbu_match_with_chinese_poker_to_its_winner(live_server, chromium):
    """Trumps and Chinese Poker, each declared once by each player (8 deals), compulsory doubles
    off: chosen on the new-match page, checked there, played to the winner."""
    page = new_phone(chromium)
    sign_up(page, live_server.url)
    barbu_form(page, live_server.url)
    page.locator("#house-values summary").click()
    expect(page.locator("#house-values summary")).to_contain_text("Σ 0 ✓")
    page.locator('input[name="house-contracts"][value="trumps"]').check()
    page.locator('input[name="house-chinese_poker"][value="true"]').check()
    page.locator("details.more-options:not(.house-values) summary").click()
    page.locator('input[name="opt_compulsory_doubles"][value="off"]').check()
    # the check: Trumps and Chinese Poker add up to 65, not zero-sum
    page.get_by_role("button", name="Check the values").click()
    check = page.locator("[data-house-check]")
    expect(check).to_contain_text("Chinese Poker")
    expect(check).to_contain_text("×4")
    expect(check).to_contain_text("Not zero-sum: a complete match of 8 deals adds up to 260")
    expect(page.locator('input[name="house-chinese_poker"][value="true"]')).to_be_checked()
    expect(page.locator('input[name="opt_compulsory_doubles"][value="off"]')).to_be_checked()
    fits(page)
    scoreboard = start(page)

    entry = page.locator("#entry")
    preview = page.locator("#preview")
    running = [0, 0, 0, 0]
    number = 1
    for declarer in range(4):
        # Trumps: the declarer takes 6 tricks, the others 3, 2 and the rest (2)
        enter_deal(page, number)
        expect(entry.locator("h1")).to_contain_text(f"Deal {number} of 8")
        expect(entry.locator("h1")).to_contain_text(f"{PLAYERS[declarer]} declares")
        tap(page, "contract:trumps")
        settled(page)
        tap(page, "trump:S")
        for seat, n in ((declarer, 6), ((declarer + 1) % 4, 3), ((declarer + 2) % 4, 2)):
            settled(page)
            tap(page, f"focus:tricks:{seat}")
            settled(page)
            tap(page, f"count:tricks:{n}")
        settled(page)
        expect(preview).to_contain_text("✓ Preview")
        raw = [0, 0, 0, 0]
        for seat, n in ((declarer, 6), ((declarer + 1) % 4, 3), ((declarer + 2) % 4, 2)):
            raw[seat] = 5 * n
        raw[(declarer + 3) % 4] = 10
        save(page, scoreboard, number)
        running = [a + b for a, b in zip(running, raw, strict=True)]
        assert totals(page) == running
        number += 1

        # Chinese Poker: rules.md's example 1 nets (1, 0, −6; the fourth, 5, follows),
        # turned to start from the declarer; the second declarer's deal has a double
        enter_deal(page, number)
        tap(page, "contract:chinese_poker")
        settled(page)
        seats = [(declarer + k) % 4 for k in range(4)]
        if declarer == 1:
            # the next player doubles the declarer (a double between any pair is allowed)
            tap(page, f"double:{seats[1]}:{declarer}:1")
            settled(page)
        nets(page, {seats[0]: "1", seats[1]: "0", seats[2]: "-6"})
        widget = page.locator(".widget", has=page.locator("[data-net]").first)
        expect(widget.locator(f'[data-net="{seats[3]}"]')).to_have_text("+5")
        expect(widget).to_contain_text("makes 0")
        expect(widget.locator("[data-net-sum]")).to_contain_text("Σ 0 ✓")
        expect(preview).to_contain_text("✓ Preview")
        raw = [0, 0, 0, 0]
        for seat, net in zip(seats, (1, 0, -6, 5), strict=True):
            raw[seat] = 4 * net
        if declarer == 1:
            # the pair declarer / next player ×1: the declarer +4 on the difference
            gain = raw[seats[0]] - raw[seats[1]]
            raw[seats[0]] += gain
            raw[seats[1]] -= gain
        fits(page)
        save(page, scoreboard, number)
        running = [a + b for a, b in zip(running, raw, strict=True)]
        assert totals(page) == running
        number += 1

    board = page.locator("main")
    expect(board.locator("[data-finished]").first).to_have_attribute("data-finished", "true")
    expect(page.get_by_role("link", name=re.compile("Enter deal"))).to_have_count(0)
    assert running == [65, 69, 61, 65]  # Chinese Poker adds nothing; a double moved 4
    expect(page.locator(".board-top .total.winner")).to_contain_text("Babis")
    # a Chinese Poker deal's breakdown shows the nets
    page.locator('[data-deal="2"]').first.click()
    expect(page.locator("main")).to_contain_text("net results")
    fits(page)


def test_a_deal_of_salade_for_five(live_server, chromium):
    page = new_phone(chromium)
    sign_up(page, live_server.url)
    barbu_form(page, live_server.url, seats=5)
    expect(page.locator("#match-form")).to_contain_text("Salade for five")
    expect(page.locator('input[name="opt_variant"][value="salade"]')).to_be_checked()
    scoreboard = start(page)
    expect(page.locator(".board-top .total")).to_have_count(5)

    enter_deal(page, 1)
    expect(page.locator("#entry h1")).to_contain_text("Deal 1 of 30")
    tap(page, "contract:no_queens")
    settled(page)
    # rules.md, Salade for five example 2: the four others double Anna, who redoubles Eleni
    for seat in (1, 2, 3, 4):
        tap(page, f"double:{seat}:0:1")
        settled(page)
    tap(page, "doubles:open")
    settled(page)
    tap(page, "double:4:0:2")
    settled(page)
    tap(page, "doubles:fold")
    for n in (1, 0, 2, 0):  # Anna, Babis, Chris, Dora; Eleni has the rest (1)
        settled(page)
        tap(page, f"count:queens:{n}")
    settled(page)
    expect(page.locator('[data-count="4:queens"]')).to_have_text("1")
    expect(page.locator(".count-seats.five button")).to_have_count(5)
    expect(page.locator("#preview")).to_contain_text("✓ Preview")
    fits(page)
    save(page, scoreboard, 1)
    assert totals(page) == [-40, 20, -60, 20, -20]
    expect(page.locator("main")).to_contain_text("Deal 2 of 30")  # Anna's six deals go on


def press(page, action: str) -> None:
    """A key of the entry page without JavaScript: a plain post, a new page."""
    with page.expect_navigation():
        page.locator(f'#entry button[name="action"][value="{action}"]').first.click()
    fits(page)


def test_a_deal_of_chinese_poker_without_javascript(live_server, chromium):
    page = new_phone(chromium, javascript=False)
    sign_up(page, live_server.url)
    barbu_form(page, live_server.url, javascript=False)
    page.locator("#house-values summary").click()
    page.locator('input[name="house-chinese_poker"][value="true"]').check()
    page.locator('input[name="house-multiplier"]').fill("2")
    with page.expect_navigation():
        page.get_by_role("button", name="Check the values").click()
    fits(page)
    # the page drawn again with what was entered, and the check of it
    expect(page.locator("[data-house-check]")).to_contain_text("×2")
    expect(page.locator("#house-values summary")).to_contain_text("Σ 0 ✓")
    names = page.locator("#match-form .seat input[type=text]")
    expect(names.nth(3)).to_have_value("Dora")
    scoreboard = start(page)

    page.get_by_role("link", name="Enter deal 1").click()
    page.wait_for_url(re.compile(r"/deals/new/$"))
    expect(page.locator("#entry h1")).to_contain_text("Deal 1 of 32")
    press(page, "contract:chinese_poker")
    # rules.md, Chinese Poker example 2: nets 2, −1, 3 and (following) −4; Babis doubles
    # Anna, who redoubles; Chris doubles Dora
    press(page, "double:1:0:1")
    press(page, "doubles:open")
    press(page, "double:1:0:2")
    press(page, "double:2:3:1")
    press(page, "doubles:fold")
    for seat, net in ((0, "2"), (1, "-1"), (2, "3")):
        press(page, f"focus:net:{seat}")
        for key in net:
            press(page, "net:sign" if key == "-" else f"net:{key}")
    expect(page.locator('[data-net="3"]')).to_have_text("−4")
    expect(page.locator("#preview")).to_contain_text("✓ Preview")
    with page.expect_navigation():
        page.locator('#entry button[name="action"][value="save"]').click()
    page.wait_for_url(scoreboard)
    fits(page)
    # times 2: raw 4, −2, 6, −8; Anna ↔ Babis ×2: +12; Chris ↔ Dora ×1: +14
    assert totals(page) == [16, -14, 20, -22]
