"""Another phone's taps never move this phone's own view, nor flip what it chose (issue 24):
a second phone's Start over keeps this phone's side and suit, and says who started over; a
trump tapped on one phone and again on another stays chosen. Two phones (two browser
contexts, the same account), as at a table."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.conftest import run

from .conftest import first_deal, new_phone, settled, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def two_phones(chromium, live_server, game: str):
    first = first_deal(chromium, live_server.url, game)
    second = new_phone(chromium)
    second.context.add_cookies(first.context.cookies())
    second.goto(first.url)
    return first, second


def shown(phone) -> dict:
    return json.loads(phone.locator('#entry input[name="draft"]').get_attribute("value"))


def test_another_phone_s_start_over_keeps_this_phone_s_side_and_suit(chromium, live_server):
    anna, bruno = two_phones(chromium, live_server, "burraco")
    for action in ["side:1", *run("C", "3 4 5")]:
        tap(bruno, action)
    settled(bruno)
    for action in [*run("H", "7 8 9"), "reset"]:  # Start over asks first (answered yes)
        tap(anna, action)
    settled(anna)
    # Bruno's screen catches up by itself (the live check): his side and suit are his
    expect(bruno.locator('#entry [data-message="draft_restarted"]')).to_be_visible()
    assert (shown(bruno)["side"], shown(bruno)["suit"]) == (1, "C")
    expect(bruno.locator('#entry [data-side="1"]')).to_have_attribute("aria-selected", "true")
    for action in run("C", "9 10 J"):
        tap(bruno, action)
    settled(bruno)
    sides = shown(bruno)["sides"]
    assert sides[1]["melds"] == [["9C", "10C", "JC"]] and not sides[0].get("melds")


def test_a_trump_tapped_again_on_another_phone_stays_chosen(chromium, live_server):
    anna, bruno = two_phones(chromium, live_server, "biriba")
    tap(anna, "trump:H")
    settled(anna)
    bruno.reload()  # his screen shows ♥ chosen too
    expect(bruno.locator('#entry [data-trump="H"]')).to_have_attribute("aria-pressed", "true")
    tap(bruno, "trump:H")  # tapped again: it stays
    settled(bruno)
    expect(bruno.locator('#entry [data-trump="H"]')).to_have_attribute("aria-pressed", "true")
    anna.reload()
    expect(anna.locator('#entry [data-trump="H"]')).to_have_attribute("aria-pressed", "true")
    tap(anna, "trump:none")
    settled(anna)
    expect(anna.locator('#entry [data-trump="H"]')).to_have_attribute("aria-pressed", "false")
