"""A tap that was not entered stays listed until the player dismisses the list (issue 24,
item 5): the notice that the site could not be reached went away by itself once a later tap
got through, and nothing said which taps were lost."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import first_deal, settled, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_tap_that_could_not_be_sent_stays_listed_until_dismissed(live_server, chromium):
    page = first_deal(chromium, live_server.url, "burraco")
    tap(page, "suit:S")
    settled(page)

    # the network fails for one tap: the 7 is not entered
    page.route("**/deals/new/", lambda route: route.abort())
    tap(page, "rank:7")
    lost = page.locator("#taps-lost")
    expect(lost.locator("[data-lost-tap]")).to_have_count(1)
    expect(lost.locator('[data-lost-tap="rank:7"]')).to_contain_text("7")
    page.unroute("**/deals/new/")

    # later taps get through: the list stays, and a reload still shows it
    for action in ("rank:3", "rank:4", "rank:5"):
        tap(page, action)
    settled(page)
    expect(page.locator("#entry")).to_contain_text("3♠")
    expect(lost.locator("[data-lost-tap]")).to_have_count(1)
    page.reload()
    expect(page.locator('#taps-lost [data-lost-tap="rank:7"]')).to_have_count(1)

    page.locator("#taps-lost [data-dismiss-lost]").click()
    expect(page.locator("#taps-lost")).to_have_count(0)
    page.reload()
    expect(page.locator("#taps-lost")).to_have_count(0)


def test_taps_queued_behind_a_logged_out_answer_are_listed(live_server, chromium):
    """The session ended while taps were on their way: the answer is an error page in place
    of the entry, and the taps behind it are named there too, never dropped without a word."""
    page = first_deal(chromium, live_server.url, "burraco")
    page.context.clear_cookies()
    page.evaluate(
        """() => ["suit:H", "rank:8", "rank:9"].forEach((a) =>
            document.querySelector(`#entry button[name=action][value="${a}"]`).click())"""
    )
    # the site refused the first (the page's token is from before): it and the two behind it
    expect(page.locator("#taps-lost [data-lost-tap]")).to_have_count(3)
    expect(page.locator("main")).to_contain_text("Reload the page")


def test_a_tap_the_site_refused_stays_listed_with_its_reason(live_server, chromium):
    """Barbu: Save before a contract is named is refused; the banner goes with the next tap's
    answer, the list keeps the refusal and its reason."""
    page = first_deal(chromium, live_server.url, "barbu")
    tap(page, "save")
    settled(page)
    refused = page.locator('#taps-lost [data-lost-tap="save"]')
    expect(refused).to_contain_text("has not named a contract yet")
    tap(page, "contract:no_tricks")
    settled(page)
    expect(page.locator("#entry .banner.bad[role=alert]")).to_have_count(0)
    expect(refused).to_have_count(1)
