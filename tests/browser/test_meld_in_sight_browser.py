"""The meld being entered is brought into sight between the sticky bar and the card pad
(issue 24, item 8: it was centred on the screen, half under the pad)."""

from __future__ import annotations

import pytest

from tests.conftest import run

from .conftest import first_deal, settled, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

IN_SIGHT = """() => {
    const entry = document.getElementById("entry");
    const target = entry.querySelector(".emeld.target").getBoundingClientRect();
    const bar = entry.querySelector(".entry-bar").getBoundingClientRect();
    const pad = entry.querySelector(".pad").getBoundingClientRect();
    return {inside: target.top >= bar.bottom - 1 && target.bottom <= pad.top + 1,
            target: [target.top, target.bottom], bar: bar.bottom, pad: pad.top};
}"""


def test_the_meld_being_entered_is_between_the_bar_and_the_pad(live_server, chromium):
    page = first_deal(chromium, live_server.url, "burraco")
    melds = [run("S", "3 4 5 6"), run("H", "7 8 9"), run("D", "10 J Q"), run("C", "4 5 6")]
    for meld in melds:
        for action in [*meld, "new_meld"]:
            tap(page, action)
        settled(page)
    for action in run("S", "8 9 10"):  # a fifth meld, at the bottom of the list
        tap(page, action)
        settled(page)
        shown = page.evaluate(IN_SIGHT)
        assert shown["inside"], (action, shown)
