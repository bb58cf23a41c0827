"""The sticky bar says why a deal is refused, not only where (issue 24, item 8): at 360 px it
cut the rule ("…or nobod…"), and in Greek only the place showed. The rule now comes first,
then the place, smaller, cut first."""

from __future__ import annotations

import pytest

from tests.conftest import run

from .conftest import new_match, new_phone, settled, sign_up, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: The rule's words in the bar, each drawn within the bar's box (not cut by its three lines).
RULE_SHOWN = """() => {
    const text = document.querySelector('.entry-bar .bar-verdict-text');
    const box = text.getBoundingClientRect();
    const rule = text.firstChild;  // the rule's text, before the place
    const range = document.createRange();
    range.selectNodeContents(rule);
    const rects = [...range.getClientRects()];
    return {words: rule.textContent, inside: rects.every((r) => r.bottom <= box.bottom + 1)};
}"""


@pytest.mark.parametrize("language", ["en", "el"])
def test_the_bar_shows_the_rule_of_a_refusal_whole_at_360_px(live_server, chromium, language):
    page = new_phone(chromium)
    sign_up(page, live_server.url)
    new_match(page, live_server.url, "biriba")
    if language != "en":
        page.locator(f'button[data-language="{language}"]').first.click()
        page.wait_for_load_state()
    page.locator('a[href$="/deals/new/"]').first.click()
    page.wait_for_selector("#entry-form")
    for action in [*run("H", "3 4 5"), "new_meld", *run("C", "3")]:
        tap(page, action)
    settled(page)
    shown = page.evaluate(RULE_SHOWN)
    assert shown["inside"], shown
    assert page.locator(".entry-bar .bar-place").count() == 1
    if language == "en":
        assert "a meld needs at least 3 cards" in shown["words"]
