"""A deal entered, corrected and deleted by a phone that finds every key, total and control
through the stable data- hooks of /work/shared/test-hooks.md: no wording, no CSS class, no
action value (the one link followed by its address is the scoreboard's way to a new deal,
which the list gives no hook).

Without ``/usr/bin/chromium`` the tests fail when ``SCOREKEEPER_BROWSER_REQUIRED=1`` (CI),
else they are skipped with the reason (see conftest.py).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scorekeeper.models import Deal, Match

from .conftest import fits, new_match, new_phone, settled, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def hook(page, selector: str) -> None:
    """Tap the one element a hook marks; without JavaScript, wait for the page it posts."""
    element = page.locator(selector)
    expect(element).to_have_count(1)
    element.click()


def settle(page) -> None:
    settled(page)


def number(page, selector: str) -> int:
    return int(re.sub(r"\s", "", page.locator(selector).inner_text()).replace("\u2212", "-"))


@pytest.mark.parametrize("javascript", [True, False], ids=["htmx", "no-javascript"])
def test_a_deal_through_the_hooks_only(chromium, live_server, javascript):
    page = new_phone(chromium, javascript=javascript)
    sign_up(page, live_server.url)
    scoreboard = new_match(page, live_server.url, "burraco")
    board = page.locator("[data-deal-count]")
    expect(board).to_have_attribute("data-deal-count", "0")
    expect(board).to_have_attribute("data-finished", "false")
    hook(page, "a[href$='/deals/new/']")  # the scoreboard's one way in: its Enter link
    expect(page.locator("[data-entry-deal]")).to_have_attribute("data-entry-deal", "1")

    taps = [
        '[data-side="0"]',
        '[data-suit="H"]',
        '[data-rank="3"]',
        '[data-rank="4"]',
        '[data-rank="5"]',
        '[data-card="2S"][data-wild]',
        "[data-new-meld]",
        '[data-suit="C"]',
        '[data-rank="9"]',
        '[data-rank="10"]',
        '[data-card="JK"]',
        '[data-target="hand"]',
        '[data-rank="K"]',
        '[data-pot="0"]',
        '[data-side="1"]',
        '[data-suit="S"]',
        '[data-rank="3"]',
        '[data-rank="4"]',
        '[data-rank="5"]',
        '[data-pot="1"]',
    ]
    for selector in taps:
        if javascript and selector.startswith("[data-pot"):
            settle(page)  # the pot's question moves down as cards are entered: read, then tap
        hook(page, selector)
        if not javascript:
            page.wait_for_load_state()
    if javascript:
        settle(page)
    fits(page)
    hook(page, "[data-save]")
    page.wait_for_url(scoreboard)

    match = Match.objects.get()
    deal = Deal.objects.get(match=match, number=1).data
    assert deal["sides"][0]["melds"] == [["3H", "4H", "5H", "2S"], ["9C", "10C", "JK"]]
    assert deal["sides"][0]["hand"] == ["KC"] and deal["sides"][0]["took_pot"]
    assert deal["sides"][1]["melds"] == [["3S", "4S", "5S"]] and deal["sides"][1]["took_pot"]
    expect(board).to_have_attribute("data-deal-count", "1")
    expect(page.locator("[data-deal]")).to_have_count(1)
    totals = [number(page, f'[data-total="{k}"]') for k in (0, 1)]
    match.refresh_from_db()
    assert totals == match.totals

    # the correction: Babis & Dora also kept a king in hand
    page.locator('[data-deal="1"] > summary').click()  # the row opens its breakdown
    hook(page, '[data-correct="1"]')
    expect(page.locator("[data-entry-deal]")).to_have_attribute("data-entry-deal", "1")
    for selector in (
        '[data-side="1"]',
        '[data-target="hand"]',
        '[data-suit="D"]',
        '[data-rank="K"]',
    ):
        hook(page, selector)
        if not javascript:
            page.wait_for_load_state()
    if javascript:
        settle(page)
    hook(page, "[data-save]")  # with htmx the browser asks (accepted); without, the page asks
    if not javascript:
        page.wait_for_load_state()
        hook(page, "[data-confirm]")
    page.wait_for_url(scoreboard)
    assert Deal.objects.get(match=match, number=1).data["sides"][1]["hand"] == ["KD"]
    match.refresh_from_db()
    assert [number(page, f'[data-total="{k}"]') for k in (0, 1)] == match.totals

    # and deleted: the control, then its confirmation
    hook(page, '[data-delete="1"]')
    hook(page, "[data-confirm]")
    expect(page.locator("[data-deal-count]")).to_have_attribute("data-deal-count", "0")
    expect(page.locator("[data-deal]")).to_have_count(0)
    assert not Deal.objects.filter(match=match).exists()
    fits(page)
