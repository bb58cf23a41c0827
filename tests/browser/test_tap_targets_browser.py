"""Every control a finger taps is at least 44 px high (issue 13's papercuts: "⤓ export" was
22 px, the "deals first" choice 22 px): the new-match page and the scoreboard, at 360 px."""

from __future__ import annotations

import pytest

from .conftest import new_match, new_phone, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MIN = 44

#: The controls of a page that stand alone (a link inside a sentence is read, not aimed at).
SMALL = f"""(selector) => [...document.querySelectorAll(selector)]
  .filter(e => e.offsetParent !== null)
  .map(e => [e.getBoundingClientRect().height, (e.textContent || '').trim().slice(0, 30)])
  .filter(([h]) => h < {MIN})"""


def small(page, selector: str) -> list:
    return page.evaluate(SMALL, selector)


def test_the_new_match_page_and_the_scoreboard_have_no_small_control(chromium, live_server):
    page = new_phone(chromium)
    sign_up(page, live_server.url)
    page.goto(live_server.url + "/matches/new/")
    assert small(page, "#match-form button, #match-form .dealer-pick") == []
    scoreboard = new_match(page, live_server.url, "biriba")
    page.goto(scoreboard)
    assert small(page, ".board-title a, .board-actions a, .board-actions button, .button") == []
