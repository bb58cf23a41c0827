"""Burraco for three players in a real browser at 360 px (issue 12): a new user starts a match
for three with FIBUR's form, enters rules.md's example 2 to its winner (one tap says who played
alone, the sides follow: the solo player and the pair, then each alone once a total reached
1000), and a deal is entered without JavaScript, the answer to who played alone a real post.

Without ``/usr/bin/chromium`` the tests fail when ``SCOREKEEPER_BROWSER_REQUIRED=1`` (CI),
else they are skipped with the reason (see conftest.py).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scorekeeper.models import Deal, Match

from .conftest import enter_deal, fits, keys, new_phone, save, sign_up, totals

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

THREE = ["Anna", "Babis", "Chris"]


def side(k: int, melded: int, in_hand: int = 0, *, clean: int = 0, dirty: int = 0, end: str = ""):
    """The keys that enter side ``k`` by totals (``end``: "out", "pot" or "no_pot")."""
    out = [f"side:{k}", "mode:totals", "target:melded", *(f"digit:{d}" for d in str(melded))]
    if in_hand:
        out += ["next_field", *(f"digit:{d}" for d in str(in_hand))]
    out += ["bonus:clean_burraco:+1"] * clean + ["bonus:dirty_burraco:+1"] * dirty
    out += {"out": [f"went_out:{k}"], "pot": [f"pot:{k}"], "no_pot": [f"pot_no:{k}"]}.get(end, [])
    return out


def new_match_for_three(page, base: str) -> str:
    """Start a Burraco match for Anna, Babis and Chris, FIBUR's form left as the page offers
    it; returns the scoreboard's URL."""
    if not page.url.endswith("/matches/new/"):
        page.goto(base + "/matches/new/")
    page.locator('button[name="switch_game"][value="burraco"]').click()
    page.wait_for_selector('button[name="switch_game"][value="burraco"].on')
    page.locator('button[name="switch_seats"][value="3"]').click()
    seats = page.locator("#match-form .seat input[type=text]")
    expect(seats).to_have_count(3)
    fits(page)
    # the form asked, its default marked and chosen
    form = page.locator('input[name="opt_three_players"][value="fibur"]')
    expect(form).to_be_checked()
    expect(page.locator("#match-form")).to_contain_text("then each alone (FIBUR) · default")
    for i, name in enumerate(THREE):
        seats.nth(i).fill(name)
    page.locator("#match-form button.primary[type=submit]").click()
    page.wait_for_url(re.compile(r"/matches/\d+/$"))
    fits(page)
    return page.url


def test_a_match_for_three_to_its_winner(live_server, chromium):
    page = new_phone(chromium)
    sign_up(page, live_server.url)
    scoreboard = new_match_for_three(page, live_server.url)
    expect(page.locator(".board-title")).to_contain_text("1 505".replace(" ", "\u2009"))

    # deal 1: one tap says Anna played alone; the tabs become Anna and Babis & Chris
    enter_deal(page, 1)
    expect(page.locator("#entry")).to_contain_text("Who played alone?")
    keys(page, ["solo:0"])
    expect(page.locator(".side-tabs .tab-name")).to_have_text(["Anna", "Babis & Chris"])
    fits(page)
    keys(page, [*side(0, 500, clean=2, end="out"), *side(1, 235, 60, dirty=1, end="pot")])
    expect(page.locator(".bar-totals")).to_contain_text("138")
    save(page, scoreboard, 1)
    assert totals(page) == [1000, 138, 138]
    expect(page.locator('[data-solo="1"]')).to_contain_text("Anna alone")

    # deal 2: each alone (Anna reached 1000): no question, a tab a player
    enter_deal(page, 2)
    expect(page.locator("[data-solo]")).to_have_count(0)
    expect(page.locator(".side-tabs .tab-name")).to_have_text(THREE)
    keys(
        page,
        [
            *side(0, 150, 20, end="pot"),
            *side(1, 400, clean=1, dirty=1, end="out"),
            *side(2, 60, 90, end="no_pot"),
        ],
    )
    save(page, scoreboard, 2)
    assert totals(page) == [1130, 938, 8]

    # deal 3 ends the match: Anna passes 1505 with the highest total
    enter_deal(page, 3)
    keys(
        page,
        [
            *side(0, 300, clean=1, end="out"),
            *side(1, 100, 35, end="pot"),
            *side(2, 45, 50, end="no_pot"),
        ],
    )
    expect(page.locator("#verdict")).to_contain_text("This deal ends the match. Winner: Anna.")
    save(page, scoreboard, 3)
    assert totals(page) == [1730, 1003, -97]
    expect(page.locator("#scoreboard")).to_have_attribute("data-finished", "true")
    expect(page.locator(".total.winner")).to_contain_text("Anna")
    expect(page.get_by_role("link", name="Enter deal 4")).to_have_count(0)

    # the breakdown of deal 1, opened on the scoreboard: the pair and each one's half
    page.locator('[data-deal="1"] summary').click()
    expect(page.locator('[data-deal="1"] [data-breakdown]')).to_contain_text("138 each")
    fits(page)
    match = Match.objects.get()
    assert match.winner == 0 and Deal.objects.get(match=match, number=1).data["solo"] == 0


def test_a_deal_for_three_without_javascript(live_server, chromium):
    page = new_phone(chromium)
    sign_up(page, live_server.url)
    scoreboard = new_match_for_three(page, live_server.url)
    plain = new_phone(chromium, javascript=False)
    plain.context.add_cookies(page.context.cookies())
    plain.goto(scoreboard)
    enter_deal(plain, 1)
    # a save before saying who played alone: refused, nothing stored
    keys(plain, ["save"], javascript=False)
    expect(plain.locator('[data-message="solo_unanswered"]').first).to_be_visible()
    assert Deal.objects.count() == 0
    keys(plain, ["solo:1"], javascript=False)
    expect(plain.locator(".side-tabs .tab-name")).to_have_text(["Babis", "Anna & Chris"])
    fits(plain)
    keys(
        plain,
        [*side(0, 145, clean=1, end="out"), *side(1, 195, end="pot")],
        javascript=False,
    )
    keys(plain, ["save"], javascript=False)
    plain.wait_for_url(scoreboard)
    assert totals(plain) == [98, 445, 98]
    expect(plain.locator('[data-solo="1"]')).to_contain_text("Babis alone")
    fits(plain)
