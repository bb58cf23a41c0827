"""A table that keeps only the score: each side's points for the deal on the number keys
("Points only"), at 360 px and on a desktop (the keyboard), with and without JavaScript; the
next deal starts so, and the scoreboard adds the figures up."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import enter_deal, fits, keys, new_match, new_phone, settled, sign_up, tap, totals

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DEAL_1 = ["mode:points", "digit:4", "digit:4", "digit:5", "went_out:0", "side:1", "digit:3"]
DEAL_1 += ["digit:5", "sign"]
DEAL_2 = ["digit:1", "digit:2", "digit:0", "side:1", "digit:9", "digit:0", "went_out:1"]


@pytest.mark.parametrize("javascript", [True, False])
def test_a_match_kept_by_its_points_alone(live_server, chromium, javascript):
    page = new_phone(chromium, javascript=javascript)
    sign_up(page, live_server.url)
    scoreboard = new_match(page, live_server.url, "burraco")
    enter_deal(page, 1)
    keys(page, DEAL_1, javascript=javascript)
    expect(page.locator("#entry .pot-question")).to_have_count(0)  # the figure holds the pot
    expect(page.locator("#verdict")).to_contain_text("A legal deal")
    fits(page)
    tap(page, "save")
    page.wait_for_url(scoreboard)
    assert totals(page) == [445, -35]

    enter_deal(page, 2)
    expect(page.locator("#entry")).to_have_attribute("data-mode", "points")  # as the last deal
    keys(page, DEAL_2, javascript=javascript)
    tap(page, "save")
    page.wait_for_url(scoreboard)
    assert totals(page) == [565, 55]


def test_on_a_desktop_the_keyboard_types_the_figure(live_server, chromium):
    page = new_phone(chromium)
    sign_up(page, live_server.url)
    scoreboard = new_match(page, live_server.url, "biriba")
    page.set_viewport_size({"width": 1280, "height": 800})  # the desk: the pad beside
    page.get_by_role("link", name="Enter deal 1").click()
    page.wait_for_url(re.compile(r"/deals/new/$"))
    tap(page, "mode:points")
    keys(page, [])
    expect(page.locator("#pad-sign")).to_be_visible()
    page.locator("body").click(position={"x": 5, "y": 5})
    for key in ("1", "5", "0", "-"):
        page.keyboard.press(key)
        settled(page)
    expect(page.locator("#entry [data-points-field]")).to_contain_text("−150")
    tap(page, "side:1")
    keys(page, ["digit:2", "digit:0", "digit:0", "went_out:1"])
    tap(page, "save")
    page.wait_for_url(scoreboard)
    assert totals(page) == [-150, 200]
