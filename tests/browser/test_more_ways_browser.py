"""Issue 12's other forms at 360 px, with and without JavaScript: a Burraco tournament round
of three deals (FIBUR's victory points, chosen on the new-match page) played to its end, the
scoreboard counting the round and giving each side's victory points; and a deal of Salade for
five without JavaScript."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scorekeeper.models import Deal, Match
from scorekeeper.rules.match import score_document

from .conftest import PLAYERS, fits, keys, new_phone, sign_up, tap, totals
from .test_barbu_more_browser import barbu_form, press, start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# each side by its points alone (Points only), the side that went out one tap
ROUND = [
    ["mode:points", "digit:3", "digit:0", "digit:0", "went_out:0", "side:1", "digit:1"]
    + ["digit:0", "digit:0"],
    ["digit:2", "digit:0", "digit:0", "side:1", "digit:2", "digit:5", "digit:0", "went_out:1"],
    ["digit:1", "digit:5", "digit:0", "side:1", "digit:5", "digit:0", "went_out:1"],
]


def _navigating(page, javascript: bool):
    return page.expect_navigation() if not javascript else _Nothing()


class _Nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


@pytest.mark.parametrize("javascript", [True, False])
def test_a_burraco_tournament_round_to_its_victory_points(live_server, chromium, javascript):
    page = new_phone(chromium, javascript=javascript)
    sign_up(page, live_server.url)
    page.goto(live_server.url + "/matches/new/")
    with _navigating(page, javascript):
        page.locator('button[name="switch_game"][value="burraco"]').click()
    page.wait_for_selector('button[name="switch_game"][value="burraco"].on')
    names = page.locator("#match-form .seat input[type=text]")
    for i, name in enumerate(PLAYERS):
        names.nth(i).fill(name)
    more = page.locator("#match-form details.more-options", has_text="More house rules").first
    more.locator("summary", has_text="More house rules").click()
    deals = more.locator('select[name="opt_match_deals"]')
    expect(deals.locator("option").first).to_have_text("Play to the target · default")
    deals.select_option("3")
    fits(page)
    scoreboard = start(page)
    expect(page.locator("main")).to_contain_text("Deal 1 of 3")

    for number, deal in enumerate(ROUND, 1):
        page.get_by_role("link", name=f"Enter deal {number}").click()
        page.wait_for_url(re.compile(r"/deals/new/$"))
        fits(page)
        keys(page, deal, javascript=javascript)
        tap(page, "save")
        page.wait_for_url(scoreboard)
        fits(page)

    assert totals(page) == [650, 400]
    match = Match.objects.get()
    document = {
        "format": "scorekeeper-match/1",
        "game": "burraco",
        "players": PLAYERS,
        "rules": match.rules,
        "deals": [d.data for d in Deal.objects.filter(match=match).order_by("number")],
    }
    ahead, behind = score_document(document)["victory_points"]  # FIBUR's table: 12 and 8
    line = page.locator("[data-victory-points]")
    expect(line).to_contain_text(f"Anna & Chris {ahead}")
    expect(line).to_contain_text(f"Babis & Dora {behind}")
    expect(page.get_by_role("link", name="Enter deal 4")).to_have_count(0)  # the round is over


def test_a_deal_of_salade_for_five_without_javascript(live_server, chromium):
    page = new_phone(chromium, javascript=False)
    sign_up(page, live_server.url)
    barbu_form(page, live_server.url, seats=5, javascript=False)
    expect(page.locator('input[name="opt_variant"][value="salade"]')).to_be_checked()
    scoreboard = start(page)
    expect(page.locator(".board-top .total")).to_have_count(5)
    page.get_by_role("link", name="Enter deal 1").click()
    page.wait_for_url(re.compile(r"/deals/new/$"))
    expect(page.locator("#entry h1")).to_contain_text("Deal 1 of 30")
    press(page, "contract:no_queens")
    # rules.md, Salade for five example 2: the four others double Anna, who redoubles Eleni
    for seat in (1, 2, 3, 4):
        press(page, f"double:{seat}:0:1")
    press(page, "doubles:open")
    press(page, "double:4:0:2")
    press(page, "doubles:fold")
    for n in (1, 0, 2, 0):  # Anna, Babis, Chris, Dora; Eleni has the rest (1)
        press(page, f"count:queens:{n}")
    expect(page.locator('[data-count="4:queens"]')).to_have_text("1")
    expect(page.locator("#preview")).to_contain_text("✓ Preview")
    with page.expect_navigation():
        page.locator('#entry button[name="action"][value="save"]').first.click()
    page.wait_for_url(scoreboard)
    assert totals(page) == [-40, 20, -60, 20, -20]
