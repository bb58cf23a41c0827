"""A real browser at the table: Debian's Chromium driven by Playwright against the live site.

A player logs in, starts a Burraco match, enters a deal on the card pad (tapping as fast as a
player does, so taps overtake the answers), saves it and sees the scoreboard change.

Then a new user plays a whole match to its winner: a deal entered wrong and deleted, an
earlier deal corrected, a side counted by hand on the keypad.

Without ``/usr/bin/chromium`` the tests fail when ``SCOREKEEPER_BROWSER_REQUIRED=1`` (CI),
else they are skipped with the reason (see conftest.py).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.conftest import run

from .conftest import (
    BURRACO_EXAMPLE_1,
    PASSWORD,
    enter_deal,
    fits,
    new_match,
    new_phone,
    save,
    settled,
    sign_up,
    tap,
    totals,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def log_in(page, live_server, django_user_model) -> None:
    django_user_model.objects.create_user(username="anna", password=PASSWORD)
    page.goto(live_server.url + "/accounts/login/")
    page.fill('input[name="username"]', "anna")
    page.fill('input[name="password"]', PASSWORD)
    page.locator("#auth-form button[type=submit]").click()
    page.wait_for_url(live_server.url + "/")


DEAL = BURRACO_EXAMPLE_1  # rules.md, Burraco example 1: 360 for Anna & Chris, 25 for Babis & Dora


def test_a_burraco_deal_entered_on_the_card_pad_updates_the_scoreboard(
    live_server, django_user_model, chromium
):
    page = new_phone(chromium)
    log_in(page, live_server, django_user_model)

    # a new Burraco match for four
    page.goto(live_server.url + "/matches/new/")
    page.locator('button[name="switch_game"][value="burraco"]').click()
    page.wait_for_selector('button[name="switch_game"][value="burraco"].on')
    seats = page.locator("#match-form .seat input[type=text]")
    if seats.count() != 4:
        page.locator('button[name="switch_seats"][value="4"]').click()
        page.wait_for_function(
            "document.querySelectorAll('#match-form .seat input[type=text]').length === 4"
        )
    for i, name in enumerate(["Anna", "Babis", "Chris", "Dora"]):
        seats.nth(i).fill(name)
    page.locator("#match-form button.primary[type=submit]").click()
    page.wait_for_url(re.compile(r"/matches/\d+/$"))
    scoreboard = page.url

    # the deal, tapped on the pad without waiting for the answers
    page.get_by_role("link", name="Enter deal 1").click()
    page.wait_for_url(re.compile(r"/deals/new/$"))
    for action in DEAL:
        tap(page, action)
    settled(page)
    entry = page.locator("#entry")
    assert "A legal deal" in entry.inner_text()
    assert "run 10♠–K♠ · dirty · JK = K♠" in entry.inner_text()
    tap(page, "side:0")
    page.wait_for_selector("#entry-form:not([data-busy])", state="attached")
    page.wait_for_function(
        "document.querySelector('#entry .side-sum strong')?.textContent.trim() === '360'"
    )
    assert "run 3♥–9♥ · clean · burraco pulito" in entry.inner_text()

    # save: back on the scoreboard, which shows the deal
    tap(page, "save")
    page.wait_for_url(scoreboard)
    board = page.locator("main").inner_text()
    assert "Deal 1 saved." in board
    assert "360" in board and "25" in board
    assert "Enter deal 2" in board


def entry_without_javascript(live_server, django_user_model, chromium):
    """A phone without JavaScript, logged in, on the entry page of a new Burraco match."""
    page = new_phone(chromium, javascript=False)
    log_in(page, live_server, django_user_model)
    from scorekeeper import services

    match = services.match_create(
        owner=django_user_model.objects.get(username="anna"),
        game="burraco",
        players=["Anna", "Babis", "Chris", "Dora"],
        first_dealer=0,
        rules={},
    )
    page.goto(f"{live_server.url}/matches/{match.pk}/deals/new/")
    return page


def test_the_card_pad_works_without_javascript(live_server, django_user_model, chromium):
    page = entry_without_javascript(live_server, django_user_model, chromium)
    for action in run("D", "5 6 7"):
        with page.expect_navigation():
            tap(page, action)
    assert "run 5♦–7♦ · clean" in page.locator("#entry").inner_text()


def test_without_javascript_the_meld_being_entered_stays_in_sight(
    live_server, django_user_model, chromium
):
    """A probe: each tap drew the page anew at its top, and with three melds the one being
    entered sat under the pad. The page now opens at it (#taps-here), below the sticky bar and
    above the pad."""
    page = entry_without_javascript(live_server, django_user_model, chromium)
    for action in [*run("D", "5 6 7"), "new_meld", *run("S", "8 9 10"), "new_meld"]:
        with page.expect_navigation():
            tap(page, action)
    for action in ("suit:C", "rank:3", "rank:4", "rank:5"):  # "+ meld" too (a second probe)
        with page.expect_navigation():
            tap(page, action)
        box = page.locator("#taps-here").bounding_box()
        bar = page.locator(".entry-bar").bounding_box()
        pad = page.locator(".pad").first.bounding_box()
        assert box is not None and bar is not None and pad is not None
        assert box["y"] >= bar["y"] + bar["height"] - 1, (action, box, bar)  # under the bar
        assert box["y"] + box["height"] <= pad["y"] + 1, (action, box, pad)  # above the pad
    assert "3♣" in page.locator("#taps-here").inner_text()


# --- a whole match, as a new user --------------------------------------------------------------

# Deal 2 as first entered (by mistake: the sides swapped), deleted, then entered right: Anna &
# Chris close with a clean burraco in spades; Babis & Dora, counted by hand, on the keypad.
DEAL_2_WRONG = ["side:1", *run("S", "3 4 5 6 7 8 9"), "went_out:1", "side:0", "pot_no:0"]
DEAL_2 = [
    *run("S", "3 4 5 6 7 8 9"),
    "new_meld",
    *run("H", "J Q K"),
    "target:hand",
    *run("C", "4"),
    "went_out:0",
    "side:1",
    "mode:totals",
    "digit:6",
    "digit:0",
    "next_field",  # ⇅: the keypad now writes the cards in hand
    "digit:3",
    "digit:0",
    "pot:1",
]


def test_a_new_user_scores_a_burraco_match_to_its_winner(live_server, chromium):
    page = new_phone(chromium)
    sign_up(page, live_server.url)
    scoreboard = new_match(page, live_server.url, "burraco", target=500)

    enter_deal(page, 1)
    for action in DEAL:
        tap(page, action)
    save(page, scoreboard, 1)
    assert totals(page) == [360, 25]

    # a deal entered wrong is deleted from the scoreboard, after a confirmation
    enter_deal(page, 2)
    for action in DEAL_2_WRONG:
        tap(page, action)
    settled(page)
    tap(page, "save")  # Anna & Chris have nothing entered: the page asks first (accepted)
    page.wait_for_url(scoreboard)
    assert totals(page)[0] < 360
    page.get_by_text("Delete deal 2…").click()
    confirm = page.get_by_role("button", name="Yes, delete deal 2")
    expect(confirm).to_be_visible()
    fits(page)
    confirm.click()
    expect(page.locator("main")).to_contain_text("Deal 2 deleted")
    expect(page.get_by_role("link", name="Enter deal 2")).to_be_visible()
    assert totals(page) == [360, 25]

    # an earlier deal corrected: Q♦ was not left in hand after all
    page.locator("#deal-1 > summary").click()
    page.get_by_role("link", name="Correct deal 1").click()
    page.wait_for_url(re.compile(r"/deals/1/edit/$"))
    fits(page)
    page.locator("#entry .emeld.hand button.cchip", has_text="Q♦").click()
    settled(page)
    expect(page.locator(".side-sum strong")).to_have_text("370")
    tap(page, "save")  # "Replace deal 1 with this?" (accepted)
    page.wait_for_url(scoreboard)
    expect(page.locator("main")).to_contain_text("Deal 1 corrected")
    assert totals(page) == [370, 25]

    enter_deal(page, 2)
    for action in DEAL_2:
        tap(page, action)
    settled(page)
    expect(page.locator("#entry .etotals")).to_contain_text("60")
    save(page, scoreboard, 2)

    expect(page.locator(".winner-banner")).to_have_text("★ Anna & Chris won the match")
    expect(page.get_by_role("link", name="Enter deal 3")).to_have_count(0)
    end = totals(page)
    assert end[0] >= 500 > end[1]
    fits(page)
