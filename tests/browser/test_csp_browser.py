"""Every page under the enforced Content-Security-Policy, in a real Chromium: nothing blocked.

A player signs up, starts a rummy and a Barbu match, taps a few keys on both pads, corrects a
deal, looks at the scoreboard and the import page, logs out and in again (the htmx login
form), downloads every match and deletes the account. Every ``securitypolicyviolation`` event
and every console message about the policy fails the test, as does any script error (htmx
told not to eval would throw one if a page needed it). A first test proves the watch sees a
blocked inline script, so the walk cannot pass by seeing nothing.

The error pages are seen too: a tap on a page open from before the player logged in again is
refused (CSRF) and the page says so in place of the pad.
"""

from __future__ import annotations

import io
import re
import zipfile

import pytest
from playwright.sync_api import expect

from tests.conftest import run

from .conftest import PASSWORD, enter_deal, fits, new_match, new_phone, save, settled, sign_up, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WATCH = """
document.addEventListener("securitypolicyviolation", function (e) {
  window.__cspViolation(e.violatedDirective + " blocked " + (e.blockedURI || "inline") +
    " in " + e.sourceFile + ":" + e.lineNumber);
}, true);
"""


class Watch:
    """What the browser refused or failed at, on every page the phone loads."""

    def __init__(self, page, *, expected: tuple[str, ...] = ()) -> None:
        self.page = page
        # a resource the server has not (the admin's page asks for /favicon.ico) is no script
        # error; a resource the policy blocks is reported as such, above
        self.expected = ("Failed to load resource: the server responded with a status of 404",)
        self.expected += expected
        self.problems: list[str] = []
        page.expose_function("__cspViolation", lambda text: self.problems.append(text))
        page.add_init_script(WATCH)
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.problems.append(f"script error: {error}"))

    def _console(self, message) -> None:
        text = message.text
        if "Content Security Policy" in text or "Content-Security-Policy" in text:
            self.problems.append(f"console: {text}")
        elif message.type == "error" and not text.startswith(self.expected):
            self.problems.append(f"console error: {text}")

    def clean(self, where: str) -> None:
        self.page.wait_for_load_state("networkidle")
        assert not self.problems, f"{where} ({self.page.url}): {self.problems}"


def test_the_watch_sees_a_blocked_inline_script(chromium, live_server):
    page = new_phone(chromium)
    watch = Watch(page)
    page.goto(live_server.url + "/accounts/login/")
    watch.clean("login page")
    page.evaluate(
        "() => { const s = document.createElement('script');"
        " s.textContent = 'window.ran = true'; document.head.appendChild(s); }"
    )
    page.wait_for_timeout(300)
    assert page.evaluate("window.ran === undefined")
    assert any("script-src" in problem for problem in watch.problems), watch.problems


def test_every_page_keeps_to_the_policy(chromium, live_server):
    base = live_server.url
    page = new_phone(chromium)
    watch = Watch(page)

    page.goto(base + "/")
    watch.clean("home, anonymous")
    sign_up(page, base)  # the signup page, with htmx
    watch.clean("signup and new match")

    # a rummy match: the pad with a few taps, saved, then corrected
    scoreboard = new_match(page, base, "burraco")
    watch.clean("scoreboard")
    enter_deal(page, 1)
    keys_ = [*run("H", "3 4 5"), "pot:0", "side:1", *run("S", "3 4 5"), "target:hand", "pot_no:1"]
    for action in keys_:
        tap(page, action)
    settled(page)
    watch.clean("rummy pad")
    save(page, scoreboard, 1)
    watch.clean("scoreboard after a save")
    page.locator("#deal-1 > summary").click()
    page.locator('[data-correct="1"]').first.click()
    page.wait_for_url(re.compile(r"/deals/1/edit/$"))
    tap(page, "side:0")
    settled(page)
    watch.clean("rummy correction")

    # a Barbu match: the declarer's sheet with a few taps
    new_match(page, base, "barbu")
    enter_deal(page, 1)
    tap(page, "contract:no_tricks")
    settled(page)
    for action in ["double:1:0:1", "double:2:0:1", "double:3:0:1", "count:tricks:3"]:
        tap(page, action)
    settled(page)
    watch.clean("Barbu pad")

    page.goto(base + "/matches/import/")
    fits(page)
    watch.clean("import")
    page.goto(base + "/")
    watch.clean("home with matches")

    # log out and in again, through the htmx login form (a wrong password first)
    page.get_by_role("button", name="Log out").click()
    page.wait_for_url(base + "/")
    page.get_by_role("link", name="Log in").first.click()
    page.wait_for_url(re.compile(r"/accounts/login/"))
    page.fill('input[name="username"]', "anna")
    page.fill('input[name="password"]', "not-my-password")
    page.get_by_role("button", name="Log in").click()
    expect(page.locator("#auth-form .error")).to_be_visible()
    watch.clean("login refused")
    page.fill('input[name="password"]', PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(base + "/")
    watch.clean("logged in again")

    # the account: download every match, then delete it
    page.get_by_role("link", name="Account").click()
    page.wait_for_url(re.compile(r"/accounts/$"))
    fits(page)
    watch.clean("account page")
    page.get_by_role("link", name="Delete my account…").click()
    page.wait_for_url(re.compile(r"/accounts/delete/$"))
    fits(page)
    watch.clean("account deletion page")
    with page.expect_download() as download:
        page.locator("[data-export-all]").click()
    with zipfile.ZipFile(io.BytesIO(open(download.value.path(), "rb").read())) as archive:
        assert len(archive.namelist()) == 2
    page.fill('input[name="password"]', "not-my-password")
    page.locator("[data-delete-account]").click()
    expect(page.locator("#delete-form .error")).to_contain_text("That is not your password")
    page.fill('input[name="password"]', PASSWORD)
    page.locator("[data-delete-account]").click()
    page.wait_for_url(base + "/")
    expect(page.locator('[data-message="account_deleted"]')).to_contain_text("was deleted")
    watch.clean("after the deletion")

    page.goto(base + "/admin/login/")
    watch.clean("the admin's login")


def test_a_tap_refused_by_the_csrf_check_shows_why_in_place_of_the_pad(chromium, live_server):
    base = live_server.url
    page = new_phone(chromium)
    # the browser and htmx both report the refused request; nothing else may go wrong
    watch = Watch(
        page,
        expected=(
            "Failed to load resource: the server responded with a status of 403",
            "Response Status Error Code 403",
        ),
    )
    sign_up(page, base)
    new_match(page, base, "burraco")
    enter_deal(page, 1)
    tap(page, "suit:H")
    settled(page)
    # in another tab of the same phone the player logs out and in again: a new CSRF secret
    other = new_phone(chromium)
    other.context.add_cookies(page.context.cookies())
    other.goto(base + "/")
    other.get_by_role("button", name="Log out").click()
    other.wait_for_url(base + "/")
    other.goto(base + "/accounts/login/")
    other.fill('input[name="username"]', "anna")
    other.fill('input[name="password"]', PASSWORD)
    other.get_by_role("button", name="Log in").click()
    other.wait_for_url(base + "/")
    page.context.clear_cookies()
    page.context.add_cookies(other.context.cookies())  # one browser, one cookie jar
    other.close()
    # the pad, still open, sends its old token
    tap(page, "rank:3")
    message = page.locator('main [data-message="csrf_failed"]')
    expect(message).to_be_visible()
    expect(message).to_contain_text("Reload it and do it again")
    assert page.locator("#entry").count() == 0
    fits(page)
    page.get_by_role("link", name="Reload the page").click()
    expect(page.locator("#entry")).to_be_visible()
    watch.clean("after the refused tap")


def test_a_tap_that_cannot_reach_the_site_says_so(chromium, live_server):
    base = live_server.url
    page = new_phone(chromium)
    # the browser and htmx report the aborted request; nothing else may go wrong
    watch = Watch(
        page,
        expected=(
            "Failed to load resource: net::ERR_FAILED",
            "htmx:afterRequest",
            "htmx:sendError",
        ),
    )
    sign_up(page, base)
    new_match(page, base, "burraco")
    enter_deal(page, 1)

    def offline(route):
        if route.request.method == "POST":
            route.abort()
        else:
            route.continue_()

    page.route(re.compile(r"/deals/new/$"), offline)
    tap(page, "suit:H")
    notice = page.locator('#page [data-message="connection_lost"]')
    expect(notice).to_contain_text("could not be reached")
    fits(page)
    page.unroute(re.compile(r"/deals/new/$"))
    page.wait_for_timeout(500)
    tap(page, "suit:S")
    settled(page)
    expect(notice).to_have_count(0)
    expect(page.locator("#entry")).to_be_visible()
    watch.clean("after the connection came back")


def test_the_htmx_login_form_says_the_account_is_locked(chromium, live_server, settings):
    base = live_server.url
    page = new_phone(chromium)
    watch = Watch(
        page,
        expected=(
            "Failed to load resource: the server responded with a status of 429",
            "Response Status Error Code 429",
        ),
    )
    sign_up(page, base)
    page.get_by_role("button", name="Log out").click()
    page.wait_for_url(base + "/")
    page.goto(base + "/accounts/login/")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        page.fill('input[name="username"]', "anna")
        page.fill('input[name="password"]', "a-wrong-guess")
        page.get_by_role("button", name="Log in").click()
        expect(page.locator("#auth-form .error").first).to_be_visible()
        settled_form = page.locator("#auth-form:not(.htmx-request)")
        expect(settled_form).to_have_count(1)
    locked = page.locator('#auth-form [data-message="login_locked"]')
    expect(locked).to_contain_text("Too many wrong passwords")
    fits(page)
    # the right password, now: still locked, and still said
    page.fill('input[name="password"]', PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_load_state("networkidle")
    expect(locked).to_be_visible()
    assert page.url.endswith("/accounts/login/")
    watch.clean("locked login")
