"""After deleting a deal at the bottom of a long scoreboard, its notice and Undo are in view
(issue 24, item 8: the page stayed scrolled at the bottom, the notice and Undo out of sight)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scorekeeper import services
from tests.conftest import PLAYERS4, deal_for

from .conftest import PASSWORD, new_phone

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

IN_VIEW = """(el) => { const r = el.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= window.innerHeight; }"""


def test_the_notice_and_undo_of_a_deal_deleted_at_the_bottom_are_in_view(
    live_server, chromium, django_user_model
):
    user = django_user_model.objects.create_user(username="anna", password=PASSWORD)
    match = services.match_create(
        owner=user, game="biriba", players=PLAYERS4, first_dealer=0, rules={"target": 10**6}
    )
    for i in range(14):
        services.deal_record(match=match, data=deal_for("biriba", i))
    page = new_phone(chromium)
    page.goto(live_server.url + "/accounts/login/")
    page.fill('input[name="username"]', "anna")
    page.fill('input[name="password"]', PASSWORD)
    page.locator("#auth-form button[type=submit]").click()
    page.wait_for_url(live_server.url + "/")
    page.goto(f"{live_server.url}/matches/{match.pk}/")

    page.locator("#delete-box > summary").click()
    page.locator("#delete-box [data-confirm]").scroll_into_view_if_needed()
    assert page.evaluate("window.scrollY") > 300  # the bottom of a long scoreboard
    page.locator("#delete-box [data-confirm]").click()
    notice = page.locator('#scoreboard .messages [data-message="deal_deleted"]')
    expect(notice).to_be_visible()
    page.wait_for_function("() => !document.querySelector('.htmx-settling, .htmx-request')")
    assert notice.evaluate(IN_VIEW)
    assert page.locator("[data-undo]").evaluate(IN_VIEW)
