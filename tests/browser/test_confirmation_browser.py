"""Confirmation by the other side at a real table, two phones: the owner (Anna, one side)
enters a deal; the other side's phone (a guest, Babis) sees it waiting, out of the totals,
and accepts it; the next deal it rejects with a reason, which the owner reads on the
scoreboard and on the correction, corrects, and Babis accepts. With and without JavaScript.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scorekeeper.models import Deal
from tests.conftest import run

from .conftest import (
    enter_deal,
    fits,
    keys,
    new_match,
    new_phone,
    save_correction,
    sign_up,
    tap,
    totals,
)
from .test_table_browser import join_as_guest, score_link

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIDE_0 = [*run("H", "3 4 5"), "pot:0"]
SIDE_1 = ["side:1", *run("S", "3 4 5"), "pot:1"]


def say_seat(page, name: str) -> None:
    page.locator("select[data-seat]").select_option(label=name)
    page.locator("form.seat-claim button").click()
    expect(page.locator("main")).to_contain_text(f"you play as {name}")


def look(page, scoreboard: str, javascript: bool) -> None:
    """The scoreboard as it is now: with JavaScript the live check redraws it by itself."""
    if not javascript:
        page.goto(scoreboard)


@pytest.mark.parametrize("javascript", [True, False], ids=["htmx", "no-javascript"])
def test_one_side_enters_the_other_accepts_then_rejects_with_a_reason(
    chromium, live_server, javascript
):
    owner = new_phone(chromium, javascript=javascript)
    sign_up(owner, live_server.url)
    scoreboard = new_match(owner, live_server.url, "burraco", confirmation=True)
    url, _code = score_link(owner, scoreboard)
    babis = new_phone(chromium, javascript=javascript)
    babis.goto(url)
    join_as_guest(babis, scoreboard, name="Babis")
    owner.goto(scoreboard)
    say_seat(owner, "Anna")
    say_seat(babis, "Babis")

    # deal 1, entered by Anna's side: it waits, out of the totals
    enter_deal(owner, 1)
    keys(owner, SIDE_0 + SIDE_1, javascript=javascript)
    tap(owner, "save")
    owner.wait_for_url(scoreboard)
    expect(owner.locator("main")).to_contain_text("it waits for the other side to accept it")
    expect(owner.locator('[data-waiting="1"]')).to_be_visible()
    expect(owner.locator('[data-accept="1"]')).to_contain_text("for the table")  # on behalf
    assert totals(owner) == [0, 0]
    fits(owner)

    look(babis, scoreboard, javascript)
    expect(babis.locator('[data-waiting="1"]')).to_contain_text("Babis")
    assert totals(babis) == [0, 0]
    fits(babis)
    babis.locator('[data-accept="1"]').click()
    expect(babis.locator("main")).to_contain_text("Deal 1 accepted: it counts now.")
    counted = totals(babis)
    assert counted != [0, 0]
    look(owner, scoreboard, javascript)
    expect(owner.locator('[data-waiting="1"]')).to_have_count(0)
    assert totals(owner) == counted

    # deal 2: Babis rejects it, with his reason
    enter_deal(owner, 2)
    keys(owner, SIDE_0 + SIDE_1, javascript=javascript)
    tap(owner, "save")
    owner.wait_for_url(scoreboard)
    look(babis, scoreboard, javascript)
    babis.locator('[data-waiting="2"] summary').click()
    babis.locator('textarea[name="reason"]').fill("we never took our pot")
    babis.locator('[data-reject="2"]').click()
    expect(babis.locator("main")).to_contain_text("Deal 2 rejected")
    assert totals(babis) == counted

    look(owner, scoreboard, javascript)
    rejected = owner.locator('[data-rejected="2"]')
    expect(rejected).to_contain_text("rejected by Babis")
    expect(rejected).to_contain_text("we never took our pot")
    rejected.locator('[data-correct="2"]').click()
    owner.wait_for_url(re.compile(r"/deals/2/edit/$"))
    expect(owner.locator('[data-message="deal_rejected"]')).to_contain_text("never took our pot")
    fits(owner)
    keys(owner, ["side:1", "pot_no:1"], javascript=javascript)  # Babis & Dora never took it
    save_correction(owner, scoreboard, javascript=javascript)
    expect(owner.locator("main")).to_contain_text("Deal 2 corrected: it waits")

    look(babis, scoreboard, javascript)
    babis.locator('[data-accept="2"]').click()
    expect(babis.locator("main")).to_contain_text("Deal 2 accepted")
    deal = Deal.objects.get(number=2)
    assert deal.status == "counted" and not deal.data["sides"][1].get("took_pot")
    assert totals(babis)[1] < counted[1] * 2  # the pot penalty counts against Babis & Dora

    owner.goto(scoreboard.rstrip("/") + "/history/")
    history = owner.locator("main")
    expect(history).to_contain_text("Babis confirmed deal 2")
    expect(history).to_contain_text("Babis rejected deal 2: “we never took our pot”")
    expect(history).to_contain_text("Babis confirmed deal 1")
