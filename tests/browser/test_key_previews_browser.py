"""The pad's keys show what they will enter before they are pressed (issue 24, item 9), on a
pad the morph swap keeps as it is from tap to tap (entry.js sets them from the answer)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.conftest import run

from .conftest import first_deal, settled, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOWN = "(key) => getComputedStyle(key, '::after').content"


def test_the_keys_say_the_run_they_fill_and_the_card_a_suit_key_adds(live_server, chromium):
    page = first_deal(chromium, live_server.url, "burraco")
    for action in run("H", "3 4 5"):
        tap(page, action)
    settled(page)
    nine = page.locator("#pad-rank-9")
    expect(nine).to_have_attribute("data-preview", "6–9")
    assert nine.evaluate(SHOWN) == '"6–9"'  # drawn on the key
    expect(page.locator("#pad-rank-6")).not_to_have_attribute("data-preview", "6–6")
    assert page.locator("#pad-rank-6").get_attribute("data-preview") is None

    # a set: the suit keys say the card they add, and the runs' previews are gone
    for action in ["new_meld", "suit:S", "rank:K", "suit:D"]:
        tap(page, action)
    settled(page)
    expect(page.locator("#pad-suit-H")).to_have_attribute("data-preview", "+K♥")
    assert nine.get_attribute("data-preview") is None
    tap(page, "suit:H")
    settled(page)
    expect(page.locator("#entry")).to_contain_text("K♥")
