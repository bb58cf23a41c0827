"""The new-match form by the keyboard, at 360 px, with and without JavaScript: Enter in a box
starts the match chosen (never a switch of the game: it was the form's first submit button),
Tab goes from one name to the next (the "deals first" choice after them, the arrow keys
within it), and a known player's chip fills the first empty seat."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from scorekeeper import services
from scorekeeper.models import Match

from .conftest import fits, new_phone, settled, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Giulia", "Marco", "Francesca", "Luca"]
SEATS = "#match-form .seat input[type=text]"


def choose(page, game: str, *, javascript: bool) -> None:
    button = page.locator(f'button[name="switch_game"][value="{game}"]')
    if javascript:
        button.click()
    else:
        with page.expect_navigation():
            button.click()
    page.wait_for_selector(f'button[name="switch_game"][value="{game}"].on')


def names_typed(page) -> list[str]:
    return page.locator(SEATS).evaluate_all("inputs => inputs.map(i => i.value)")


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
@pytest.mark.parametrize("game", ["burraco", "barbu"])
def test_enter_in_a_name_starts_the_game_chosen(live_server, chromium, game, javascript):
    page = new_phone(chromium, javascript=javascript)
    sign_up(page, live_server.url)
    choose(page, game, javascript=javascript)
    seats = page.locator(SEATS)
    for i, name in enumerate(NAMES):
        seats.nth(i).fill(name)
    seats.nth(3).press("Enter")
    page.wait_for_url(re.compile(r"/matches/\d+/$"))
    fits(page)
    match = Match.objects.get()
    assert match.game == game
    assert [s.player.name for s in match.seats.order_by("seat")] == NAMES


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_enter_in_the_target_starts_with_that_target(live_server, chromium, javascript):
    page = new_phone(chromium, javascript=javascript)
    sign_up(page, live_server.url)
    choose(page, "burraco", javascript=javascript)
    seats = page.locator(SEATS)
    for i, name in enumerate(NAMES):
        seats.nth(i).fill(name)
    page.fill('input[name="opt_target"]', "1500")
    page.press('input[name="opt_target"]', "Enter")
    page.wait_for_url(re.compile(r"/matches/\d+/$"))
    match = Match.objects.get()
    assert (match.game, match.rules["target"]) == ("burraco", 1500)


def test_tab_goes_from_one_name_to_the_next_then_to_who_deals_first(live_server, chromium):
    page = new_phone(chromium)
    sign_up(page, live_server.url)
    choose(page, "burraco", javascript=True)
    page.locator(SEATS).first.click()
    for i, name in enumerate(NAMES):
        if i:
            page.keyboard.press("Tab")
        page.keyboard.type(name)
    assert names_typed(page) == NAMES
    # after the last name, the choice of the first dealer (its checked radio); arrows move it
    page.keyboard.press("Tab")
    focused = page.evaluate("[document.activeElement.name, document.activeElement.value]")
    assert focused == ["first_dealer", "0"]
    page.keyboard.press("ArrowRight")
    expect(page.locator('input[name="first_dealer"][value="1"]')).to_be_checked()
    # and back: Shift+Tab from the choice is the last name
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("document.activeElement.name") == "player_3"
    fits(page)
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/matches/\d+/$"))
    match = Match.objects.get()
    assert (match.game, match.first_dealer) == ("burraco", 1)


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_a_known_players_chip_fills_the_first_empty_seat(live_server, chromium, javascript):
    page = new_phone(chromium, javascript=javascript)
    sign_up(page, live_server.url)
    owner = get_user_model().objects.get(username="anna")
    services.match_create(owner=owner, game="biriba", players=NAMES, first_dealer=0, rules={})
    page.goto(live_server.url + "/matches/new/")
    choose(page, "burraco", javascript=javascript)
    seats = page.locator(SEATS)
    seats.nth(0).fill("Dora")
    page.fill('input[name="opt_target"]', "1500")
    chip = page.locator('button[data-fill-seat="Marco"]')
    if javascript:
        chip.click()
        expect(seats.nth(1)).to_have_value("Marco")
        settled(page)
    else:
        with page.expect_navigation():
            chip.click()
    expect(seats).to_have_count(4)
    assert names_typed(page) == ["Dora", "Marco", "", ""]
    expect(page.locator('input[name="opt_target"]')).to_have_value("1500")
    expect(page.locator('button[name="switch_game"][value="burraco"]')).to_have_class(
        re.compile(r"\bon\b")
    )
    fits(page)
