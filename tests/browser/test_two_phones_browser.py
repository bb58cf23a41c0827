"""Two phones at one table, logged in as the same player: both enter deal 1 and both press
Save. The deal is stored once; the second phone is told, with its entry still on the page.

Without ``/usr/bin/chromium`` the tests fail when ``SCOREKEEPER_BROWSER_REQUIRED=1`` (CI),
else they are skipped with the reason (see conftest.py).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scorekeeper.models import Deal
from tests.conftest import run

from .conftest import enter_deal, fits, new_match, new_phone, save, settled, sign_up, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DEAL = [*run("H", "3 4 5"), "side:1", *run("S", "3 4 5")]


@pytest.mark.parametrize("javascript", [True, False], ids=["htmx", "no-javascript"])
def test_a_deal_saved_on_two_phones_is_stored_once(chromium, live_server, javascript):
    first = new_phone(chromium, javascript=javascript)
    sign_up(first, live_server.url)
    scoreboard = new_match(first, live_server.url, "burraco")
    enter_deal(first, 1)
    # the second phone: the same account (its session cookie), the same page
    second = new_phone(chromium, javascript=javascript)
    second.context.add_cookies(first.context.cookies())
    second.goto(first.url)
    for phone in (first, second):
        for action in DEAL:
            tap(phone, action)
            if not javascript:
                phone.wait_for_load_state()
        settled(phone)
    save(first, scoreboard, 1)
    tap(second, "save")
    settled(second)
    expect(second.locator("#entry")).to_contain_text(
        "deal 1 has already been entered (the next deal is 2)"
    )
    expect(second.locator("#entry")).to_contain_text("3♠ 4♠ 5♠")
    fits(second)
    assert re.search(r"/deals/new/$", second.url)
    assert Deal.objects.count() == 1
