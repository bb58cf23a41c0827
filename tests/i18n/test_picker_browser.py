"""The language picker on a 360 px phone without JavaScript: a Greek phone gets Greek pages,
one tap makes them Italian, and no page is wider than the phone in either language."""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import PASSWORD, PHONE_WIDTH, fits
from tests.i18n.test_speaking import said

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_greek_phone_picks_italian_in_one_tap(chromium, live_server, speaking, settings):
    settings.LANGUAGE_COOKIE_SECURE = False  # the live server speaks plain http
    context = chromium.new_context(
        viewport={"width": PHONE_WIDTH, "height": 740},
        has_touch=True,
        java_script_enabled=False,
        locale="el-GR",
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    base = live_server.url
    page.goto(base + "/accounts/signup/")
    assert page.get_attribute("html", "lang") == "el"
    fits(page)
    page.fill('input[name="username"]', "eleni")
    page.fill('input[name="password1"]', PASSWORD)
    page.fill('input[name="password2"]', PASSWORD)
    page.locator('form:not([data-language-picker]) button[type="submit"]').last.click()
    page.wait_for_url(re.compile(r"/matches/new/$"))
    assert page.get_attribute("html", "lang") == "el"
    fits(page)
    bar = page.locator("header.topbar").bounding_box()
    assert bar["width"] <= PHONE_WIDTH
    page.locator('[data-language-picker] button[data-language="it"]').click()
    page.wait_for_url(re.compile(r"/matches/new/$"))  # back on the same page
    assert page.get_attribute("html", "lang") == "it"
    assert said("it", "New match") in page.locator("header.topbar").inner_text()
    fits(page)
    for path in ("/", "/accounts/", "/matches/"):
        page.goto(base + path)
        assert page.get_attribute("html", "lang") == "it"
        fits(page)
    context.close()
