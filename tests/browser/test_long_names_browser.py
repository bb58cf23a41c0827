"""Long player names (up to 40 characters may be typed) fit a 360 px phone: the new-match form,
each game's scoreboard with a deal's breakdown open, and every deal-entry page (the card pad
and the totals keypad, a new deal and a correction, each Barbu contract's widgets and the
preview), with and without JavaScript."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from scorekeeper import services
from tests.conftest import BARBU_DATA, barbu_deal, rummy_deal

from . import conftest
from .conftest import new_phone, settled, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# a name of 40 characters without a space (the longest a player may have) in each game
NO_SPACE = "Bartholomewchristophorosanastasiadorothe"
LONG = ["Anastasia", NO_SPACE, "Christophoros", "Dorothea"]
GREEK = ["Konstantinos", "Eleni", "Panagiotis", "Maria"]
FORTY = ["Anastasia-Bartholomew Christophoros-Doro", NO_SPACE, "Panagiotis", "Maria"]


def press(page, action: str, *, javascript: bool) -> None:
    """Press a deal-entry key and wait for the page it draws."""
    button = page.locator(f'#entry button[name="action"][value="{action}"]').first
    if javascript:
        button.click()
        settled(page)
    else:
        with page.expect_navigation():
            button.click()


# What sticks out past the phone's edge, named in the failure to show what to fix.
WIDEST = """() => [...document.querySelectorAll('body *')]
  .filter(e => e.getBoundingClientRect().right > 360)
  .map(e => [e.parentElement, e.parentElement && e.parentElement.parentElement]
         .filter(Boolean).map(p => p.tagName + '.' + p.className).join(' < ') + ' > '
       + e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right)
       + ' ' + (e.textContent || '').trim().slice(0, 40)).slice(0, 12)"""


def fits(page) -> None:
    try:
        conftest.fits(page)
    except AssertionError as e:
        raise AssertionError(f"{e}: {page.evaluate(WIDEST)}") from None


def visit(page, url: str) -> None:
    page.goto(url)
    fits(page)


def open_breakdown(page, *, javascript: bool) -> None:
    """Deal 1's breakdown: loaded into its row when opened, or without JavaScript the page
    the row's link leads to."""
    page.locator("#deal-1 > summary").first.click()
    if javascript:
        page.wait_for_selector("#deal-1 .breakdown [data-breakdown]", state="visible")
    else:
        with page.expect_navigation():
            page.locator('[data-breakdown-link="1"]').click()
        page.wait_for_selector('[data-breakdown="1"]', state="visible")
    fits(page)


def matches_for(username: str) -> dict[str, list[int]]:
    """Matches of every game for ``username``, with long names and a deal or two played."""
    owner = get_user_model().objects.get(username=username)
    made: dict[str, list[int]] = {"biriba": [], "burraco": [], "barbu": []}
    for players in (LONG, GREEK, FORTY):
        for game in ("biriba", "burraco"):
            match = services.match_create(
                owner=owner, game=game, players=list(players), first_dealer=0, rules={}
            )
            for i in range(2):
                services.deal_record(match=match, data=rummy_deal(game, i))
            made[game].append(match.pk)
        match = services.match_create(
            owner=owner, game="barbu", players=list(players), first_dealer=0, rules={}
        )
        services.deal_record(match=match, data=barbu_deal(0))
        redoubled = {
            "contract": "no_hearts",
            "doubles": [{"by": 1, "on": 0, "redoubled": True}, {"by": 2, "on": 0}],
            **BARBU_DATA["no_hearts"],
        }
        services.deal_record(match=match, data=redoubled)
        made["barbu"].append(match.pk)
    ravage = services.match_create(
        owner=owner,
        game="barbu",
        players=list(LONG),
        first_dealer=0,
        rules={"variant": "ravage_city"},
    )
    made["barbu"].append(ravage.pk)
    return made


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_long_names_fit_the_phone(live_server, chromium, javascript):
    page = new_phone(chromium, javascript=javascript)
    base = live_server.url
    sign_up(page, base, username=f"long{int(javascript)}")

    # the new-match form, filled with long names, for each game
    for game in ("biriba", "burraco", "barbu"):
        visit(page, base + "/matches/new/")
        button = page.locator(f'button[name="switch_game"][value="{game}"]')
        if javascript:
            button.click()
            page.wait_for_selector(f'button[name="switch_game"][value="{game}"].on')
        else:
            with page.expect_navigation():
                button.click()
        seats = page.locator("#match-form .seat input[type=text]")
        for i in range(seats.count()):
            seats.nth(i).fill(FORTY[i % 4] if game == "barbu" else LONG[i % 4])
        fits(page)
    page.get_by_role("button", name="Start the match").click()
    page.wait_for_url(re.compile(r"/matches/\d+/$"))
    fits(page)

    made = matches_for(f"long{int(javascript)}")
    for game, pks in made.items():
        for pk in pks:
            board = f"{base}/matches/{pk}/"
            visit(page, board)
            has_deals = game != "barbu" or pk != pks[-1]  # Ravage City: no deal yet
            if has_deals:
                open_breakdown(page, javascript=javascript)
            if game == "barbu":
                check_barbu_entry(page, board, javascript=javascript, has_deals=has_deals)
            else:
                check_rummy_entry(page, board, javascript=javascript)


def check_rummy_entry(page, board: str, *, javascript: bool) -> None:
    for url in (board + "deals/new/", board + "deals/1/edit/"):
        visit(page, url)
        for action in ["suit:H", "rank:3", "rank:4", "rank:5", "side:1", "target:hand"]:
            press(page, action, javascript=javascript)
        press(page, "rank:K", javascript=javascript)
        fits(page)
        press(page, "mode:totals", javascript=javascript)
        fits(page)
        press(page, "side:0", javascript=javascript)
        fits(page)
        press(page, "reset", javascript=javascript)
        fits(page)
    # the confirmation asked before a correction (without JavaScript it is a panel)
    visit(page, board + "deals/1/edit/")
    if not javascript:
        press(page, "save", javascript=False)
        page.wait_for_selector(".confirm-box")
        fits(page)


def check_barbu_entry(page, board: str, *, javascript: bool, has_deals: bool) -> None:
    visit(page, board + "deals/new/")
    contracts = page.locator('#entry button[name="action"][value^="contract:"]')
    codes = [contracts.nth(i).get_attribute("value") for i in range(contracts.count())]
    for code in codes:
        press(page, code, javascript=javascript)
        fits(page)
        if page.locator('#entry button[value="doubles:open"]').count():
            press(page, "doubles:open", javascript=javascript)
            fits(page)
        doubles = page.locator('#entry button[name="action"][value^="double:"]')
        if doubles.count():
            press(page, doubles.first.get_attribute("value"), javascript=javascript)
            fits(page)
            for shortcut in ("maximum:1", "maximum:0"):
                if page.locator(f'#entry button[value="{shortcut}"]').count():
                    press(page, shortcut, javascript=javascript)
                    fits(page)
    if has_deals:
        visit(page, board + "deals/1/edit/")
        if not javascript:
            press(page, "save", javascript=False)
            page.wait_for_selector(".confirm-box")
            fits(page)
