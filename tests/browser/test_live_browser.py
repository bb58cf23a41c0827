"""Pages that follow their match, in a browser (scorekeeper/live.py, site.js): a watcher
without an account and a co-scorer on the scoreboard see a deal saved on the owner's phone
within 3 seconds of the save, without touching their screen; the entry page of another phone
shows what this one taps; a tab in the background asks nothing until it comes back; a deal's
breakdown the player opened stays open when the page is redrawn.

Without ``/usr/bin/chromium`` the tests fail when ``SCOREKEEPER_BROWSER_REQUIRED=1`` (CI),
else they are skipped with the reason (see conftest.py).
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from scorekeeper import services
from scorekeeper.models import Match
from scorekeeper.sharing.services import share_link_get_or_create
from tests.conftest import run

from .conftest import (
    enter_deal,
    fits,
    hide,
    new_match,
    new_phone,
    save,
    settled,
    show,
    sign_up,
    tap,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIDE_0 = [*run("H", "3 4 5"), "pot:0"]
SIDE_1 = ["side:1", *run("S", "3 4 5 6"), "pot:1"]
#: The issue's promise: another phone shows a change within 3 seconds.
WITHIN_MS = 3000


def _live_requests(page) -> list[str]:
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/live/" in r.url else None)
    return asked


def test_a_watcher_and_a_co_scorer_see_a_saved_deal_within_3_seconds(chromium, live_server):
    owner = new_phone(chromium)
    sign_up(owner, live_server.url)
    scoreboard = new_match(owner, live_server.url, "burraco")
    match = Match.objects.get()
    watch_token = share_link_get_or_create(match=match, kind="watch").token
    score_token = share_link_get_or_create(match=match, kind="score").token

    watcher = new_phone(chromium)
    watcher.goto(f"{live_server.url}/watch/{watch_token}/")
    expect(watcher.locator('#watch [data-total="0"]')).to_have_text("0")
    guest = new_phone(chromium)
    guest.goto(f"{live_server.url}/join/{score_token}/")
    guest.fill('input[name="name"]', "Babis")
    guest.get_by_role("button", name="Join the match").click()
    guest.wait_for_url(scoreboard)
    expect(guest.locator('#scoreboard [data-total="0"]')).to_have_text("0")

    enter_deal(owner, 1)
    for action in SIDE_0 + SIDE_1:
        tap(owner, action)
    save(owner, scoreboard, 1)
    saved_at = time.monotonic()
    want = owner.locator('#scoreboard [data-total="0"]').inner_text()
    assert want != "0"
    for phone, where in ((watcher, "#watch"), (guest, "#scoreboard")):
        expect(phone.locator(f'{where} [data-total="0"]')).to_have_text(want, timeout=WITHIN_MS)
        expect(phone.locator(f"{where}[data-deal-count]")).to_have_attribute("data-deal-count", "1")
        fits(phone)
    assert (time.monotonic() - saved_at) * 1000 < WITHIN_MS
    # the guest's scoreboard still works as one: it enters the next deal from it
    enter_deal(guest, 2)


def test_the_other_phone_s_entry_page_follows_the_deal_in_progress(chromium, live_server):
    first = new_phone(chromium)
    sign_up(first, live_server.url)
    new_match(first, live_server.url, "burraco")
    enter_deal(first, 1)
    second = new_phone(chromium)
    second.context.add_cookies(first.context.cookies())
    second.goto(first.url)
    for action in SIDE_0:
        tap(first, action)
    settled(first)
    # the second phone taps nothing: its screen shows the first phone's meld by itself
    expect(second.locator("#entry")).to_contain_text("3♥ 4♥ 5♥", timeout=WITHIN_MS)
    # and what it then taps goes to its own side, with the first phone's meld kept
    for action in SIDE_1:
        tap(second, action)
    settled(second)
    # the first phone catches up by itself too; a tap after that is on a screen up to date
    state = second.locator("#entry").get_attribute("data-live-state")
    expect(first.locator("#entry")).to_have_attribute("data-live-state", state, timeout=WITHIN_MS)
    tap(first, "side:1")
    settled(first)
    expect(first.locator("#entry")).to_contain_text("3♠ 4♠ 5♠ 6♠")
    expect(first.locator('#entry [data-message="draft_overtaken"]')).to_have_count(0)


def test_a_tab_in_the_background_asks_nothing_until_it_comes_back(chromium, live_server):
    owner = new_phone(chromium)
    sign_up(owner, live_server.url)
    scoreboard = new_match(owner, live_server.url, "burraco")
    other = new_phone(chromium)
    other.context.add_cookies(owner.context.cookies())
    other.goto(scoreboard)
    asked = _live_requests(other)
    other.wait_for_timeout(2500)
    assert asked, "a visible scoreboard did not ask"
    hide(other)
    other.wait_for_timeout(300)
    asked.clear()
    enter_deal(owner, 1)
    for action in SIDE_0 + SIDE_1:
        tap(owner, action)
    save(owner, scoreboard, 1)
    other.wait_for_timeout(4500)
    assert asked == [], f"asked {len(asked)} times while hidden"
    expect(other.locator("#scoreboard")).to_have_attribute("data-deal-count", "0")
    show(other)
    expect(other.locator("#scoreboard")).to_have_attribute("data-deal-count", "1", timeout=1500)
    assert len(asked) >= 1


def test_a_breakdown_opened_stays_open_when_another_phone_saves(chromium, live_server):
    owner = new_phone(chromium)
    sign_up(owner, live_server.url)
    scoreboard = new_match(owner, live_server.url, "burraco")
    enter_deal(owner, 1)
    for action in SIDE_0 + SIDE_1:
        tap(owner, action)
    save(owner, scoreboard, 1)
    other = new_phone(chromium)
    other.context.add_cookies(owner.context.cookies())
    other.goto(scoreboard)
    other.locator('details[data-deal="1"] > summary').click()
    expect(other.locator('details[data-deal="1"]')).to_have_attribute("open", "")
    loaded = other.locator('details[data-deal="1"] [data-breakdown="1"]')
    expect(loaded).to_be_visible()  # loaded when opened
    loaded.evaluate("node => { node.dataset.mark = 'first' }")
    enter_deal(owner, 2)
    for action in SIDE_0 + SIDE_1:
        tap(owner, action)
    save(owner, scoreboard, 2)
    expect(other.locator("#scoreboard")).to_have_attribute("data-deal-count", "2", timeout=4000)
    expect(other.locator('details[data-deal="1"]')).to_have_attribute("open", "")
    # the breakdown loaded is kept as it was (deal 1 is the same), not loaded again
    expect(loaded).to_have_attribute("data-mark", "first")
    expect(other.locator('details[data-deal="2"]')).not_to_have_attribute("open", re.compile(".*"))


def test_a_breakdown_left_open_follows_a_correction_of_its_deal(chromium, live_server):
    """Another phone corrects the deal whose breakdown is open: the redraw brings the row's new
    breakdown (it is loaded again), and the row stays open."""
    owner = new_phone(chromium)
    sign_up(owner, live_server.url)
    scoreboard = new_match(owner, live_server.url, "burraco")
    enter_deal(owner, 1)
    for action in SIDE_0 + SIDE_1:
        tap(owner, action)
    save(owner, scoreboard, 1)
    owner.locator('details[data-deal="1"] > summary').click()
    breakdown = owner.locator('details[data-deal="1"] [data-breakdown="1"]')
    expect(breakdown).to_contain_text("6♠")
    match = Match.objects.get(pk=int(scoreboard.rstrip("/").split("/")[-1]))
    deal = match.deals.get(number=1).data
    deal["sides"][1]["melds"][0] = ["3S", "4S", "5S", "6S", "7S"]
    services.deal_correct(match=match, number=1, data=deal)
    expect(breakdown).to_contain_text("7♠", timeout=4000)
    expect(owner.locator('details[data-deal="1"]')).to_have_attribute("open", "")
