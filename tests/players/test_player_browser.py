"""A player's page and the score progression's chart fit a 360 px phone with a 40-character
name without a space, every game's section shown, with and without JavaScript."""

from __future__ import annotations

import os

import pytest
from django.contrib.auth import get_user_model

from scorekeeper.models import Player
from tests.browser import conftest
from tests.browser.conftest import new_phone, sign_up
from tests.stats.matches import barbu_match, rummy_match, win_deal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FORTY = "Konstantinopoulou-Papadopoulou-Alexandro"  # 40 characters, no space
PLAYERS = [FORTY, "Babis", "Chris", "Dora"]
SHOTS = os.environ.get("SCOREKEEPER_SHOTS")  # a folder: screenshots to look at, when set

WIDEST = """() => [...document.querySelectorAll('body *')]
  .filter(e => e.getBoundingClientRect().right > 360)
  .map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))
  .slice(0, 12)"""


def fits(page) -> None:
    try:
        conftest.fits(page)
    except AssertionError as e:
        raise AssertionError(f"{e}: {page.evaluate(WIDEST)}") from None


def shot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=True)


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_the_player_page_and_the_chart_fit_the_phone(live_server, chromium, javascript):
    assert len(FORTY) == 40 and " " not in FORTY
    page = new_phone(chromium, javascript=javascript)
    base = live_server.url
    username = f"stats{int(javascript)}"
    sign_up(page, base, username=username)
    owner = get_user_model().objects.get(username=username)
    boards = []
    for i in range(3):  # three of each game: the head-to-head lists the others
        for game in ("biriba", "burraco"):
            boards.append(rummy_match(owner, game, PLAYERS, [win_deal(game, i % 2)]).pk)
        boards.append(barbu_match(owner, PLAYERS, rotate=i == 0).pk)
    forty = Player.objects.get(owner=owner, name=FORTY)

    page.goto(f"{base}/players/")
    fits(page)
    if javascript:
        page.locator(f'a[data-player-link="{forty.pk}"]').click()
    else:
        with page.expect_navigation():
            page.locator(f'a[data-player-link="{forty.pk}"]').click()
    page.wait_for_selector('[data-player-stats="barbu"]')
    for game in ("biriba", "burraco", "barbu"):
        section = page.locator(f'[data-player-stats="{game}"]')
        assert section.locator("[data-head-to-head]").count() == 3
        chart = section.locator('[data-chart="player"] svg')
        assert chart.get_attribute("role") == "img"
        box = chart.bounding_box()
        assert box and 200 < box["width"] <= 360 and box["height"] > 100
    fits(page)
    shot(page, f"player-{username}")
    if SHOTS:
        for game in ("biriba", "barbu"):
            page.locator(f'[data-player-stats="{game}"]').screenshot(
                path=os.path.join(SHOTS, f"section-{game}-{username}.png")
            )

    for pk in (boards[0], boards[2]):  # a Biriba and a Barbu scoreboard, the chart opened
        page.goto(f"{base}/matches/{pk}/")
        page.locator('[data-chart="match"] > summary').click()
        if not javascript:  # the fold holds a link to the chart's page
            with page.expect_navigation():
                page.locator("[data-chart-link]").click()
        svg = page.locator('[data-chart="match"] svg')
        svg.wait_for(state="visible")
        assert svg.bounding_box()["width"] > 200
        fits(page)
        if SHOTS:
            page.locator('[data-chart="match"]').screenshot(
                path=os.path.join(SHOTS, f"chart-{pk}-{username}.png")
            )
