"""A deal in the middle deleted from the scoreboard, taken back with Undo, deleted again and
put back from the match's history, with and without JavaScript, at a phone's width: the
totals follow every step, and the history says who did what.

Without ``/usr/bin/chromium`` the tests fail when ``SCOREKEEPER_BROWSER_REQUIRED=1`` (CI),
else they are skipped with the reason (see conftest.py).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scorekeeper.models import Deal
from tests.conftest import run

from .conftest import enter_deal, fits, new_match, new_phone, save, sign_up, tap, totals

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _deal(page, scoreboard: str, number: int, ranks: str) -> None:
    enter_deal(page, number)
    for action in [*run("H", ranks), "pot:0", "side:1", *run("S", "3 4 5"), "pot:1"]:
        tap(page, action)
        page.wait_for_load_state()
    save(page, scoreboard, number)


@pytest.mark.parametrize("javascript", [True, False], ids=["htmx", "no-javascript"])
def test_delete_undo_and_restore_a_deal_in_the_middle(chromium, live_server, javascript):
    phone = new_phone(chromium, javascript=javascript)
    sign_up(phone, live_server.url)
    scoreboard = new_match(phone, live_server.url, "burraco")
    for number, ranks in ((1, "3 4 5"), (2, "6 7 8 9"), (3, "10 J Q")):
        _deal(phone, scoreboard, number, ranks)
    all_three = totals(phone)
    second = Deal.objects.get(number=2).data
    third = Deal.objects.get(number=3).data

    # delete deal 2 from its own breakdown (a confirm step first)
    phone.locator('details[data-deal="2"] > summary').click()
    phone.locator('[data-delete="2"]').click()
    phone.locator("[data-confirm]").click()
    expect(phone.locator("#page")).to_contain_text("Deal 2 deleted.")
    # the message of the save before is no news any more: only this one is shown
    expect(phone.locator("#page")).not_to_contain_text("Deal 3 saved.")
    expect(phone.locator("#page .messages")).to_have_count(1)
    expect(phone.locator("#scoreboard")).to_have_attribute("data-deal-count", "2")
    assert Deal.objects.get(number=2).data == third
    assert totals(phone) != all_three
    fits(phone)

    # Undo, one tap: deal 2 is back in its place
    phone.locator("[data-undo]").click()
    expect(phone.locator("#page")).to_contain_text("Undone: deal 2 is back in its place.")
    expect(phone.locator("#scoreboard")).to_have_attribute("data-deal-count", "3")
    assert totals(phone) == all_three
    assert Deal.objects.get(number=2).data == second

    # deleted again, then put back from the history
    phone.locator('details[data-deal="2"] > summary').click()
    phone.locator('[data-delete="2"]').click()
    phone.locator("[data-confirm]").click()
    expect(phone.locator("#scoreboard")).to_have_attribute("data-deal-count", "2")
    phone.locator("[data-history]").click()
    phone.wait_for_url(f"{scoreboard}history/")
    fits(phone)
    entries = phone.locator("[data-change]")
    expect(entries.first).to_contain_text("deleted deal 2")
    expect(phone.locator("#page")).to_contain_text("undid")
    phone.locator('[data-restore="2"]').first.click()
    expect(phone.locator("#page")).to_contain_text("Deal 2 restored.")
    expect(phone.locator('[data-restore="2"]')).to_have_count(0)
    phone.goto(scoreboard)
    expect(phone.locator("#scoreboard")).to_have_attribute("data-deal-count", "3")
    assert totals(phone) == all_three
    assert [d.data for d in Deal.objects.order_by("number")][1:] == [second, third]
