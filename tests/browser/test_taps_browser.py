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


def test_a_tap_answer_leaves_the_pad_out_and_the_pad_stays(live_server, chromium):
    """The pad's keys are sent once, with the page: a tap's answer leaves them out (the phone
    says which parts it holds, {% keep %}) and the swap keeps the keys it has; a side counted
    in totals gets the number keys, and back to cards the card keys again."""
    page = new_phone(chromium)
    sign_up(page, live_server.url)
    new_match(page, live_server.url, "biriba")
    enter_deal(page, 1)
    answers: list[str] = []
    page.on(
        "response",
        lambda r: answers.append(r.text()) if r.request.method == "POST" else None,
    )
    page.evaluate("document.getElementById('pad-suit-S').dataset.mark = 'first'")
    for action in ("suit:S", "rank:5", "rank:6", "rank:7"):
        tap(page, action)
    settled(page)
    expect(page.locator("#entry .emeld .cchip")).to_have_text(["5♠", "6♠", "7♠"])
    assert page.evaluate("document.getElementById('pad-suit-S').dataset.mark") == "first"
    kept_pad = 'data-keep="pad"'
    assert answers and all(
        kept_pad in a and "data-kept" in a and 'id="pad-suit-S"' not in a for a in answers
    )

    tap(page, "mode:totals")
    settled(page)
    expect(page.locator("#pad-digit-7")).to_be_visible()
    tap(page, "digit:7")
    settled(page)
    expect(page.locator("#entry .number-field.target .field-value")).to_have_text("7")
    tap(page, "mode:cards")
    settled(page)
    expect(page.locator("#pad-suit-H")).to_be_visible()
    tap(page, "suit:H")
    tap(page, "rank:9")
    settled(page)
    expect(page.locator("#entry .emeld .cchip").last).to_have_text("9♥")
