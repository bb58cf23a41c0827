"""The score sheet and the exports' links in a browser: at 360 px with the longest names,
with and without JavaScript (the Print button is the script's; without it the page says to
use the browser's Print), and on paper (the print stylesheet hides the site around it)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from scorekeeper import services

# the browser tests' fixture, for a browser test outside tests/browser/
from tests.browser.conftest import new_phone, sign_up
from tests.browser.test_long_names_browser import FORTY, fits
from tests.conftest import barbu_deal, rummy_deal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def matches(username: str) -> list[int]:
    owner = get_user_model().objects.get(username=username)
    made = []
    for game in ("biriba", "burraco", "barbu"):
        match = services.match_create(
            owner=owner, game=game, players=list(FORTY), first_dealer=0, rules={}
        )
        for i in range(12):
            data = barbu_deal(i) if game == "barbu" else rummy_deal(game, i)
            services.deal_record(match=match, data=data)
        made.append(match.pk)
    return made


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_the_sheet_fits_a_phone_and_prints_alone(chromium, live_server, javascript):
    page = new_phone(chromium, javascript=True)
    sign_up(page, live_server.url)
    made = matches("anna")
    if not javascript:
        context_cookies = page.context.cookies()
        page = new_phone(chromium, javascript=False)
        page.context.add_cookies(context_cookies)
    for pk in made:
        page.goto(f"{live_server.url}/matches/{pk}/")
        page.locator('a[data-export="sheet"]').click()
        page.wait_for_url(f"**/matches/{pk}/sheet/")
        fits(page)
        assert page.locator("[data-sheet-deal]").count() == 12
        assert page.locator("[data-print]").is_visible() is javascript
        assert page.get_by_text("use your browser's Print").is_visible() is not javascript
        page.emulate_media(media="print")
        assert not page.locator(".topbar").is_visible()
        assert not page.locator(".sheet-actions").is_visible()
        assert page.locator("[data-sheet-result]").is_visible()
        page.emulate_media(media="screen")
    for path in ("/matches/", "/accounts/", "/accounts/data/import/", "/matches/import/"):
        page.goto(live_server.url + path)
        fits(page)
