"""A first-time user scores a whole classic Barbu match (28 deals) on a 360 px phone, in Chromium.

Classic Barbu has no shorter form: every player declares each of the seven contracts once, so
all 28 deals are entered through the deal-entry page, by tapping, as at the table. Each
declarer's seven deals use every widget: steppers with "rest" for tricks, hearts and queens,
one tap for the king of hearts, two for the last two tricks, the trump suit, the Domino
order; doubles on the declarer from the folded line, others with the doubles opened, a
redouble, the "maximum" shortcut, and undoubled negative
contracts that are not played (their total is split). The compulsory doubles (two from each
player on each declarer) are paid as the match goes. At the end the scoreboard names the
winner, the totals add up to zero and "Enter deal" is gone.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import (
    PLAYERS,
    enter_deal,
    fits,
    new_match,
    new_phone,
    save,
    settled,
    sign_up,
    tap,
    totals,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def open_doubles(page) -> None:
    settled(page)
    if page.locator('#entry [data-doubles="folded"]').count():
        tap(page, "doubles:open")
        settled(page)


def double(page, by: int, on: int) -> None:
    """In the row "<by> doubles", tap the name of the player doubled (the doubles opened)."""
    open_doubles(page)
    who = page.locator(".double-who strong", has_text=re.compile(f"^{PLAYERS[by]}$"))
    row = page.locator(".double-row", has=who)
    row.get_by_role("button", name=PLAYERS[on], exact=True).click()


def counts(page, key: str, typed: dict[int, int]) -> None:
    """Tap each player, then their count on the number keys; the fourth has the rest."""
    for seat, n in typed.items():
        tap(page, f"focus:{key}:{seat}")
        tap(page, f"count:{key}:{n}")


def play_declarer(page, scoreboard: str, first: int, d: int, *, play_hearts: bool) -> None:
    """The seven deals declared by seat ``d``; ``first`` is the number of the first one."""
    x, y, z = (d + 1) % 4, (d + 2) % 4, (d + 3) % 4
    entry = page.locator("#entry")
    preview = page.locator("#preview")
    number = first

    def begin(contract: str) -> None:
        enter_deal(page, number)
        expect(entry.locator("h1")).to_contain_text(f"{PLAYERS[d]} declares")
        tap(page, f"contract:{contract}")

    def done() -> None:
        nonlocal number
        settled(page)
        expect(preview).to_contain_text("✓ Preview")
        save(page, scoreboard, number)
        number += 1

    # No tricks: x doubles the declarer, who redoubles
    begin("no_tricks")
    double(page, x, d)
    entry.get_by_role("button", name=f"redouble {PLAYERS[x]}").click()
    tap(page, "doubles:fold")
    counts(page, "tricks", {d: 3, x: 4, y: 3})
    settled(page)
    expect(entry.locator(".sumcheck")).to_have_text("13 / 13 ✓")
    expect(entry.locator(f'[data-count="{z}:tricks"]')).to_have_text("3")  # the rest
    expect(entry.locator('[data-doubles="folded"]')).to_contain_text(
        f"{PLAYERS[x]} doubled {PLAYERS[d]}, redoubled"
    )
    done()

    # No hearts: played only once someone doubles, else not played and split
    begin("no_hearts")
    settled(page)
    if play_hearts:
        expect(entry.locator(".split-note")).to_contain_text("nobody has doubled")
        tap(page, f"double:{z}:{d}:1")  # from the folded line: one tap
        counts(page, "hearts", {d: 2, x: 4, y: 3})
        tap(page, f"seat:ace_of_hearts:{y}")
    else:
        expect(entry.locator(".split-note")).to_contain_text("Not played: nobody has doubled.")
        expect(preview).to_contain_text("not played, split")
    done()

    # No queens: y doubles the declarer, z doubles x
    begin("no_queens")
    double(page, y, d)
    double(page, z, x)
    counts(page, "queens", {d: 1, x: 1, y: 1})
    done()

    # Barbu: z doubles the declarer; x took the king of hearts
    begin("barbu")
    double(page, z, d)
    tap(page, f"seat:king_of_hearts:{x}")
    done()

    # No last two: x says "maximum" (doubles everyone, the declarer included)
    begin("no_last_two")
    open_doubles(page)
    tap(page, f"maximum:{x}")
    tap(page, f"last_two:0:{y}")
    tap(page, f"last_two:1:{z}")
    done()

    # Trumps (positive: only the declarer may be doubled): y and z pay their second double
    begin("trumps")
    double(page, y, d)
    double(page, z, d)
    tap(page, "trump:S")
    counts(page, "tricks", {d: 5, x: 3, y: 2})
    done()

    # Domino, undoubled: three taps give the order (the last one follows)
    begin("domino")
    tap(page, f"domino:{y}")
    tap(page, f"domino:{x}")
    tap(page, f"domino:{d}")
    settled(page)
    expect(entry.locator(".widget")).to_contain_text("✓")
    done()


def test_a_new_user_scores_a_whole_barbu_match_to_its_winner(live_server, chromium):
    page = new_phone(chromium)
    sign_up(page, live_server.url)
    scoreboard = new_match(page, live_server.url, "barbu")
    expect(page.locator(".next-line")).to_contain_text("Deal 1 of 28")

    for k in range(4):
        declarer_name = page.locator(".next-line strong").inner_text()
        d = PLAYERS.index(declarer_name)
        play_declarer(page, scoreboard, 1 + 7 * k, d, play_hearts=k == 0)
        board = totals(page)
        assert sum(board) == 0, board  # classic Barbu is zero-sum after every declarer

    expect(page.locator(".winner-banner")).to_contain_text("won the match")
    expect(page.get_by_role("link", name=re.compile("Enter deal"))).to_have_count(0)
    board = totals(page)
    winner = PLAYERS[board.index(max(board))]
    expect(page.locator(".winner-banner")).to_contain_text(winner)
    expect(page.locator(".total.winner")).to_contain_text(winner)
    # the scoreboard draws the latest ten deals; every deal is a tap away
    expect(page.locator(".deals .deal")).to_have_count(10)
    expect(page.locator("[data-deals-window]")).to_contain_text("Deals 19–28 of 28")
    page.locator('[data-deals-page="1"]').click()
    expect(page.locator(".deals .deal")).to_have_count(28)
    fits(page)
    page.locator("#deal-28 > summary").click()
    expect(page.locator("#deal-28 .breakdown")).to_be_visible()
    fits(page)


def test_the_totals_the_verdict_and_save_stay_in_sight_and_a_desktop_has_two_columns(
    live_server, chromium
):
    page = new_phone(chromium)
    sign_up(page, live_server.url)
    new_match(page, live_server.url, "barbu")
    enter_deal(page, 1)
    tap(page, "contract:no_hearts")
    tap(page, "double:1:0:1")
    for n in (3, 4, 2):
        tap(page, f"count:hearts:{n}")
    settled(page)
    entry = page.locator("#entry")
    expect(entry.locator('[data-count="3:hearts"]')).to_have_text("4")
    fits(page)
    # at 360 × 740, whatever is scrolled to: the standing line and Save are on the screen
    for y in (0, 400, 10_000):
        page.evaluate(f"window.scrollTo(0, {y})")
        for hook in ("[data-standing]", "[data-save]"):
            box = entry.locator(hook).bounding_box()
            assert box and 0 <= box["y"] and box["y"] + box["height"] <= 740, (hook, y, box)
    expect(entry.locator("[data-standing]")).to_contain_text("✗")  # A♥ not given yet
    tap(page, "seat:ace_of_hearts:1")
    settled(page)
    expect(entry.locator("[data-standing]")).to_contain_text("→")
    # preview heads break between words, never inside one
    heads = entry.locator(".barbu-preview thead th bdi")
    for i in range(heads.count()):
        assert heads.nth(i).evaluate("e => getComputedStyle(e.parentNode).overflowWrap") == "normal"

    page.set_viewport_size({"width": 1280, "height": 800})
    main, side = (
        entry.locator(".barbu-main").bounding_box(),
        entry.locator(".barbu-side").bounding_box(),
    )
    assert side["x"] >= main["x"] + main["width"], (main, side)  # the preview beside the sheet
    assert entry.locator("[data-save]").bounding_box()["y"] < 800
