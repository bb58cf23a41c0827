"""A key held down while the page is redrawn still gets its tap.

A player taps fast: the finger is often on the next key when the answer to the last tap comes
back and the page is redrawn. The key under the finger must stay the same element through the
redraw, or the browser drops the tap (a click needs the press and the release on one element:
an element moved out and back, as hx-preserve did, loses it). The server is slowed for one key
so that the redraw surely lands between the press and the release of the next.
"""

from __future__ import annotations

import threading

import pytest
from playwright.sync_api import expect

from scorekeeper.entry import drafts as entry_state

from .conftest import enter_deal, new_match, new_phone, settled, sign_up, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def slow_key(monkeypatch):
    """Answers the key ``rank:4`` only once the test says so (the next key is held down)."""
    release = threading.Event()
    apply = entry_state.rummy_apply

    def slowed(draft, action, **kwargs):
        if action == "rank:4":
            release.wait(10)
        return apply(draft, action, **kwargs)

    monkeypatch.setattr(entry_state, "rummy_apply", slowed)
    return release


def press_and_hold(page, action: str) -> None:
    box = page.locator(f'#entry button[name="action"][value="{action}"]').first.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()


def test_a_key_held_down_through_a_redraw_is_not_lost(live_server, chromium, slow_key):
    page = new_phone(chromium)
    sign_up(page, live_server.url)
    new_match(page, live_server.url, "biriba")
    enter_deal(page, 1)
    tap(page, "suit:H")
    settled(page)

    tap(page, "rank:4")  # its answer waits
    press_and_hold(page, "rank:5")  # the finger is down on the next key...
    slow_key.set()  # ...when the page is redrawn with 4♥
    expect(page.locator("#entry .emeld .cchip")).to_have_text(["4♥"])
    page.mouse.up()  # ...and lifted after it

    settled(page)
    expect(page.locator("#entry .emeld .cchip")).to_have_text(["4♥", "5♥"])
