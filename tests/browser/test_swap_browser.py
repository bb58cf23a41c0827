"""A Barbu contract tapped wrongly three deals back, fixed as a table would: the correction of
deal 2 offers the contract Anna named in deal 3, the scoreboard asks before swapping, both
deals then say they are still to enter, and entering them puts the match right. With and
without JavaScript, at 360 px."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scorekeeper import services
from scorekeeper.models import Deal, Match
from tests.conftest import deal_for

from .conftest import fits, keys, new_match, new_phone, save_correction, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("javascript", [True, False], ids=["htmx", "no-javascript"])
def test_a_wrong_contract_is_swapped_with_the_deal_that_named_it(chromium, live_server, javascript):
    page = new_phone(chromium, javascript=javascript)
    sign_up(page, live_server.url)
    scoreboard = new_match(page, live_server.url, "barbu")
    match = Match.objects.get()
    for i in range(4):  # Anna declares: No tricks, No hearts, No queens, Barbu
        services.deal_record(match=match, data=deal_for("barbu", i), by="anna")
    page.goto(scoreboard + "deals/2/edit/")  # Correct deal 2, from its breakdown
    fits(page)
    # deal 2 was No queens really: Anna named No queens in deal 3
    offer = page.locator('[data-swap="3"]')
    expect(offer).to_contain_text("No queens ⇄ deal 3")
    offer.click()
    page.wait_for_url(re.compile(r"\?swap=2&with=3"))
    box = page.locator("#swap-box")
    expect(box).to_contain_text("Deal 2 becomes No queens and deal 3 becomes No hearts")
    fits(page)
    box.locator("[data-confirm-swap]").click()
    expect(page.locator("main")).to_contain_text("Contracts of deals 2 and 3 swapped")
    for n in (2, 3):
        expect(page.locator(f'[data-deal="{n}"] summary')).to_contain_text("still to enter")
    fits(page)

    # deal 2, No queens now: Anna 2, Babis 2
    page.locator('[data-to-enter="2"]').click()
    page.wait_for_url(re.compile(r"/deals/2/edit/$"))
    expect(page.locator('[data-contract="no_queens"]')).to_have_attribute("aria-pressed", "true")
    # number keys: Anna 2, Babis 2, and the two others none (the four queens are in)
    keys(page, ["count:queens:2", "count:queens:2"], javascript=javascript)
    save_correction(page, scoreboard, javascript=javascript)
    expect(page.locator('[data-deal="2"] summary')).not_to_contain_text("still to enter")

    # deal 3, No hearts now
    page.locator('[data-to-enter="3"]').click()
    page.wait_for_url(re.compile(r"/deals/3/edit/$"))
    keys(
        page,
        ["count:hearts:0", "count:hearts:5", "count:hearts:8", "seat:ace_of_hearts:2"],
        javascript=javascript,
    )
    save_correction(page, scoreboard, javascript=javascript)
    expect(page.locator("[data-to-enter]")).to_have_count(0)
    two, three = (Deal.objects.get(number=n).data for n in (2, 3))
    assert two["contract"] == "no_queens" and two["queens"] == [2, 2, 0, 0]
    assert three["contract"] == "no_hearts" and three["hearts"] == [0, 5, 8, 0]
    assert "to_enter" not in two and "to_enter" not in three
    page.goto(scoreboard + "history/")
    expect(page.locator("main")).to_contain_text("swapped the contracts of deals 2 and 3")
