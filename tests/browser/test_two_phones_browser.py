"""Two phones at one table, logged in as the same player, on one deal in progress: each pair
enters its own side on its own phone, then both press Save. The deal is stored once, with
both sides; the phone whose screen had not caught up is told, then shown the deal.

Without ``/usr/bin/chromium`` the tests fail when ``SCOREKEEPER_BROWSER_REQUIRED=1`` (CI),
else they are skipped with the reason (see conftest.py).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scorekeeper.models import Deal
from tests.conftest import run

from .conftest import enter_deal, fits, hide, new_match, new_phone, settled, sign_up, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIDE_0 = [*run("H", "3 4 5"), "pot:0"]
SIDE_1 = ["side:1", *run("S", "3 4 5"), "pot:1"]


@pytest.mark.parametrize("javascript", [True, False], ids=["htmx", "no-javascript"])
def test_two_phones_enter_their_sides_and_the_deal_is_stored_once(
    chromium, live_server, javascript
):
    first = new_phone(chromium, javascript=javascript)
    sign_up(first, live_server.url)
    scoreboard = new_match(first, live_server.url, "burraco")
    enter_deal(first, 1)
    # the second phone: the same account (its session cookie), the same page
    second = new_phone(chromium, javascript=javascript)
    second.context.add_cookies(first.context.cookies())
    second.goto(first.url)
    for phone, keys in ((first, SIDE_0), (second, SIDE_1)):
        for action in keys:
            tap(phone, action)
            if not javascript:
                phone.wait_for_load_state()
        settled(phone)
        if javascript:
            # its screen must not catch up by itself (tests/browser/test_live_browser.py):
            # each phone is put in the background once its side is in, where its live check
            # pauses (the second phone's would otherwise show it the deal saved by the first
            # before it presses Save)
            hide(phone)
    # the first phone's screen has not seen the second phone's side yet: its save is
    # refused once, and it is shown the deal as it is now
    tap(first, "save")
    if javascript:
        settled(first)
    expect(first.locator("#entry")).to_contain_text("changed on another phone")
    tap(first, "side:1")
    if javascript:
        settled(first)
    expect(first.locator("#entry")).to_contain_text("3♠ 4♠ 5♠")
    tap(first, "save")
    first.wait_for_url(scoreboard)
    expect(first.locator("main")).to_contain_text("Deal 1 saved.")
    # the second phone presses Save too: nothing is stored twice, it is told who saved it
    tap(second, "save")
    if javascript:
        settled(second)
    expect(second.locator("#entry")).to_contain_text("Deal 1 was saved by you (anna)")
    fits(second)
    assert re.search(r"/deals/new/$", second.url)
    assert Deal.objects.count() == 1
    sides = Deal.objects.get().data["sides"]
    assert sides[0]["melds"] == [["3H", "4H", "5H"]] and sides[1]["melds"] == [["3S", "4S", "5S"]]
