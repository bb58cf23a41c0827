"""Burraco's house values in a real browser at 360 px (issue 12): a new user unfolds "House
values" on the new-match page, starts a match with rules.md's house values (example 1), and a
deal entered on the pad is scored with them; and the same form posted without JavaScript.

Without ``/usr/bin/chromium`` the tests fail when ``SCOREKEEPER_BROWSER_REQUIRED=1`` (CI),
else they are skipped with the reason (see conftest.py).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scorekeeper.models import Match
from scorekeeper.rules import burraco

from .conftest import (
    BURRACO_EXAMPLE_1,
    PLAYERS,
    enter_deal,
    fits,
    keys,
    new_phone,
    save,
    sign_up,
    totals,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: rules.md's house values, example 1.
HOUSE_1 = {"card_JK": "50", "card_2": "25", "bonus_clean_burraco": "300"}
HOUSE_1 |= {"bonus_dirty_burraco": "150"}


def start_with_house_values(page, base: str) -> str:
    """Start a Burraco match for four with HOUSE_1; returns the scoreboard's URL."""
    page.goto(base + "/matches/new/")
    page.locator('button[name="switch_game"][value="burraco"]').click()
    page.wait_for_selector('button[name="switch_game"][value="burraco"].on')
    seats = page.locator("#match-form .seat input[type=text]")
    expect(seats).to_have_count(4)
    for i, name in enumerate(PLAYERS):
        seats.nth(i).fill(name)
    house = page.locator("#burraco-house")
    expect(house.locator("summary")).to_contain_text("standard values · default")
    # folded; a tap on its summary opens it (a plain <details>: no JavaScript needed)
    expect(page.locator('input[name="burraco_house-card_JK"]')).to_be_hidden()
    house.locator("summary").click()
    joker = page.locator('input[name="burraco_house-card_JK"]')
    expect(joker).to_be_visible()
    expect(joker).to_have_attribute("placeholder", "30")
    expect(page.locator('input[name="burraco_house-bonus_clean_burraco"]')).to_have_attribute(
        "placeholder", "200"
    )
    for name, value in HOUSE_1.items():
        page.fill(f'input[name="burraco_house-{name}"]', value)
    fits(page)
    page.locator("#match-form button.primary[type=submit]").click()
    page.wait_for_url(re.compile(r"/matches/\d+/$"))
    fits(page)
    return page.url


def assert_house_rules_stored() -> None:
    rules = burraco.parse_rules(Match.objects.get().rules)
    assert rules.card_values == (("JK", 50), ("2", 25))
    assert rules.burraco_bonuses == (("clean_burraco", 300), ("dirty_burraco", 150))


def test_a_match_with_house_values_scores_a_deal_with_them(live_server, chromium):
    page = new_phone(chromium)
    sign_up(page, live_server.url)
    scoreboard = start_with_house_values(page, live_server.url)
    assert_house_rules_stored()
    # the scoreboard names them among the match's rules
    rules = page.locator("details.rules-summary")
    rules.locator("summary").click()
    expect(rules).to_contain_text("JK 50 · 2 25")
    expect(rules).to_contain_text("burraco pulito 300 · burraco sporco 150")
    fits(page)

    # rules.md's house values, example 1: Burraco example 1 scores 460 and 40 (standard: 360, 25)
    enter_deal(page, 1)
    keys(page, BURRACO_EXAMPLE_1)
    expect(page.locator("#entry")).to_contain_text("JK = K♠ 80")
    keys(page, ["side:0"])
    expect(page.locator("#entry")).to_contain_text("burraco pulito 45 + 300")
    fits(page)
    save(page, scoreboard, 1)
    assert totals(page) == [460, 40]


def test_the_house_values_are_a_plain_form_without_javascript(live_server, chromium):
    page = new_phone(chromium)
    sign_up(page, live_server.url)
    plain = new_phone(chromium, javascript=False)
    plain.context.add_cookies(page.context.cookies())
    start_with_house_values(plain, live_server.url)
    assert_house_rules_stored()
    expect(plain.locator("main")).to_contain_text("Anna")
