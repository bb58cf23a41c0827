"""A first-time user scores a Biriba match to its winner on a 360 px phone, in Chromium.

They sign up, start a match to 500, and enter two deals on the card pad the way a player
does: a suit, then the ranks; a two played as a wild card with its own key; the "in hand" key
once the melds are down. The scoreboard shows the winner and no more "Enter deal".
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.conftest import run

from .conftest import enter_deal, fits, new_match, new_phone, save, settled, sign_up, tap, totals

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


# Deal 1, trump ♦. Anna & Chris: a clean biriba in hearts and Q♠–A♠, 3♣ K♦ left, out.
# Babis & Dora: 5♣ 6♣ 2♠ 8♣ (the two stands for 7♣), 9♦–J♦, A♥ 4♦ left.
DEAL_1 = [
    "trump:D",
    *run("H", "4 5 6 7 8 9 10"),
    "new_meld",
    *run("S", "Q K A"),
    "target:hand",  # the pad's "in hand" key
    *run("C", "3"),
    *run("D", "K"),
    "went_out:0",  # ticks the biribaki too
    "side:1",
    *run("C", "5 6"),
    "card:2S",  # a wild two, one tap: the chosen suit stays ♣
    "rank:8",
    "new_meld",
    *run("D", "9 10 J"),
    "target:hand",
    *run("H", "A"),
    *run("D", "4"),
    "pot:1",
]
# Deal 2, trump ♣: Anna & Chris go past 500.
DEAL_2 = [
    "trump:C",
    *run("C", "3 4 5 6 7 8 9"),
    "new_meld",
    *run("H", "8 9 10 J Q K"),
    "joker",
    "target:hand",
    *run("D", "5"),
    *run("S", "7"),
    "pot:0",
    "side:1",
    *run("D", "A 2 3 4 5 6 7"),
    "target:hand",
    *run("S", "K Q"),
    "went_out:1",
]


def test_a_new_user_scores_a_biriba_match_to_its_winner(live_server, chromium):
    page = new_phone(chromium)
    sign_up(page, live_server.url)
    scoreboard = new_match(page, live_server.url, "biriba", target=500)
    expect(page.locator(".board-title")).to_contain_text("to 500")
    expect(page.locator(".next-line")).to_contain_text("Anna deals")

    enter_deal(page, 1)
    for action in DEAL_1:
        tap(page, action)
    settled(page)
    entry = page.locator("#entry")
    expect(entry).to_contain_text("run 5♣–8♣ · dirty · 2♠ = 7♣")
    expect(entry).to_contain_text("in hand")
    tap(page, "side:0")
    settled(page)
    expect(entry).to_contain_text("run 4♥–10♥ · clean · clean biriba")
    expect(page.locator(".verdict-box")).to_contain_text("A legal deal")
    save(page, scoreboard, 1)
    first = totals(page)
    assert first[0] > first[1] > 0
    expect(page.locator(".next-line")).to_contain_text("Babis deals")

    enter_deal(page, 2)
    for action in DEAL_2:
        tap(page, action)
    save(page, scoreboard, 2)

    # the end: the winner in a banner and on the totals, nothing more to enter
    expect(page.locator(".winner-banner")).to_have_text("★ Anna & Chris won the match")
    expect(page.get_by_role("link", name="Enter deal 3")).to_have_count(0)
    end = totals(page)
    assert end[0] >= 500 > end[1]
    # any deal's breakdown is a tap away
    page.locator("#deal-1 > summary").click()
    expect(page.locator("#deal-1 .breakdown")).to_contain_text("biriba")
    fits(page)
