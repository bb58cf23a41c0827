"""A key keeps its meaning while the entry is redrawn (issue 24).

The morph swap keeps elements and rewrites them to match the answer. A key without an identity
of its own could become another key: the "in hand" reading, held by a test between finding it
and clicking it (as a finger is on its way), became "meld 1" once a meld was added above it, and
the cards then tapped went to a new meld. Every key now has an id naming its action (entry.js),
so a key whose action changed is a new element and the old one leaves the page.
"""

from __future__ import annotations

import pytest

from tests.conftest import run

from .conftest import first_deal, settled, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HAND = '#entry .emeld.hand button.ereading[name="action"]'


def test_a_key_held_while_melds_are_added_above_it_keeps_its_action(live_server, chromium):
    page = first_deal(chromium, live_server.url, "burraco")
    for action in run("S", "3 4 5 6 7"):
        tap(page, action)
    settled(page)
    # every value any key of the entry is given from now on, as the redraws morph them
    page.evaluate(
        """() => {
        window.keyChanges = [];
        const keys = (changes) => changes.forEach((c) => c.target.tagName === "BUTTON"
            && window.keyChanges.push([c.oldValue, c.target.value]));
        new MutationObserver(keys).observe(document.getElementById("entry-form"), {
            subtree: true, attributes: true, attributeOldValue: true, attributeFilter: ["value"]
        });
        }"""
    )
    assert page.locator(HAND).get_attribute("value") == "target:hand"

    for action in ["new_meld", *run("H", "J Q K"), "new_meld", *run("D", "4 5 6")]:
        tap(page, action)
    settled(page)

    # no key became another (without the ids: "took the pot" became "in hand")
    changes = page.evaluate("() => window.keyChanges")
    assert [(old, new) for old, new in changes if old is not None] == []
    keys = page.evaluate(
        "() => [...document.querySelectorAll('#entry button[name=action]')]"
        ".filter((k) => !k.closest('[data-keep]')).map((k) => [k.id, k.value])"
    )
    ids = [key_id for key_id, _value in keys]
    assert len(set(ids)) == len(ids) and all(ids), keys  # one id each
    assert all(value in key_id for key_id, value in keys), keys  # naming its action

    # the reading held, tapped now, is the hand (a stale one is found again by the test)
    tap(page, "target:hand")
    settled(page)
    assert page.locator("#entry").get_attribute("data-adding-to") == "hand"
