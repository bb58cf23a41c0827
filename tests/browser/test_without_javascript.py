"""Without JavaScript every page is a plain form: a new user signs up, starts a Barbu match,
enters a deal (contract, a double, steppers), saves it, corrects it and deletes it, each after
its confirmation, and every page stays within 360 px."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import PLAYERS, fits, new_phone, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def press(page, action: str) -> None:
    with page.expect_navigation():
        page.locator(f'#entry button[name="action"][value="{action}"]').first.click()
    fits(page)


def test_a_barbu_deal_without_javascript(live_server, chromium):
    page = new_phone(chromium, javascript=False)
    sign_up(page, live_server.url)
    fits(page)
    with page.expect_navigation():
        page.locator('button[name="switch_game"][value="barbu"]').click()
    seats = page.locator("#match-form .seat input[type=text]")
    for i, name in enumerate(PLAYERS):
        seats.nth(i).fill(name)
    page.get_by_role("button", name="Start the match").click()
    page.wait_for_url(re.compile(r"/matches/\d+/$"))
    scoreboard = page.url
    fits(page)

    page.get_by_role("link", name="Enter deal 1").click()
    page.wait_for_url(re.compile(r"/deals/new/$"))
    fits(page)
    for action in [
        "contract:no_queens",
        "double:1:0:1",  # the doubles folded: a double on the declarer is in sight
        "doubles:open",  # and the doubles open in one tap, a plain post
        "doubles:fold",
        "count:queens:1",  # number keys: Anna 1, Babis 1, Chris 1, Dora has the rest
        "count:queens:1",
        "count:queens:1",
    ]:
        press(page, action)
    expect(page.locator('[data-doubles="folded"]')).to_contain_text("Babis doubled Anna")
    expect(page.locator(".sumcheck")).to_have_text("4 / 4 ✓")
    expect(page.locator('[data-count="3:queens"]')).to_have_text("1")
    expect(page.locator("[data-standing]")).to_contain_text("→")
    expect(page.locator("#preview")).to_contain_text("✓ Preview")
    press(page, "save")
    assert page.url == scoreboard
    expect(page.locator("main")).to_contain_text("Deal 1 saved.")

    # the breakdown and the delete confirmation are <details>: they open without JavaScript
    page.locator("#deal-1 > summary").click()
    expect(page.locator("#deal-1 .breakdown")).to_be_visible()
    # the breakdown itself is a page of its own, a link away
    with page.expect_navigation():
        page.locator('[data-breakdown-link="1"]').click()
    expect(page.locator('[data-breakdown="1"]')).to_contain_text("total")
    with page.expect_navigation():
        page.get_by_role("link", name="Scoreboard").click()
    page.locator("#deal-1 > summary").click()
    # a correction is confirmed on the page before it replaces the deal
    with page.expect_navigation():
        page.get_by_role("link", name="Correct deal 1").click()
    press(page, "count:queens:2")  # Anna 2, Babis none: Chris 1 and Dora 1 stay
    press(page, "count:queens:0")
    press(page, "count:queens:1")
    press(page, "save")
    expect(page.locator(".confirm-box")).to_contain_text("Replace deal 1?")
    with page.expect_navigation():
        page.get_by_role("button", name="Yes, replace deal 1").click()
    assert page.url == scoreboard
    expect(page.locator("main")).to_contain_text("Deal 1 corrected.")
    page.locator("#deal-1 > summary").click()
    page.get_by_text("Delete deal 1…").click()
    with page.expect_navigation():
        page.get_by_role("button", name="Yes, delete deal 1").click()
    expect(page.locator("main")).to_contain_text("Deal 1 deleted")
    expect(page.get_by_role("link", name="Enter deal 1")).to_be_visible()
    fits(page)
