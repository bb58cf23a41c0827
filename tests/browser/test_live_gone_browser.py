"""A page that follows its match when what it follows goes, or the site cannot be reached
(scorekeeper/live.py, site.js), found by a probe at a real table:

- a watch screen whose link the owner replaces (or whose match is deleted) says so at its
  next check, dims the old figures and asks no more (it used to freeze, showing them as live);
- a co-scorer the owner removes is told so on the scoreboard, and it asks no more; so is a
  phone on the scoreboard or the entry page of a match deleted;
- a live check that fails (no network, a server error) says the score shown may be out of
  date; the next good one takes the notice back and the page catches up;
- the entry page's "could not be reached" goes once a request gets through again, without a
  tap.

Without ``/usr/bin/chromium`` the tests fail when ``SCOREKEEPER_BROWSER_REQUIRED=1`` (CI),
else they are skipped with the reason (see conftest.py).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scorekeeper import services
from scorekeeper.models import Match, MatchMember
from scorekeeper.sharing.services import member_remove, share_link_get_or_create
from tests.conftest import deal_for

from .conftest import enter_deal, fits, new_match, new_phone, settled, sign_up, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: A check every 2 s: what the page shows after one has been made, with time to spare.
NEXT_CHECK_MS = 4000
GONE = "This link no longer shows the match: it was replaced or withdrawn."
OUT_OF_DATE = "the score shown may be out of date"
NOT_SENT = "so that was not sent"


def _live_requests(page) -> list[str]:
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/live/" in r.url else None)
    return asked


def _watch_link(owner, scoreboard: str) -> str:
    """The owner makes the watch link on the share page, as a table does."""
    owner.goto(scoreboard)
    owner.locator('a[data-share="watch"]').click()
    owner.wait_for_url(re.compile(r"/share/watch/$"))
    owner.get_by_role("button", name="Make the link to watch").click()
    link = owner.locator("a.share-url")
    expect(link).to_be_visible()
    return link.get_attribute("href")


def _asks_no_more(page, asked: list[str]) -> None:
    asked.clear()
    page.wait_for_timeout(4500)
    assert asked == [], f"asked {len(asked)} times after being told"


def _save_a_deal() -> None:
    """Another phone saves the next deal."""
    match = Match.objects.get()
    services.deal_record(match=match, data=deal_for(match.game, match.deal_count), by="Babis")


@pytest.mark.parametrize("how", ["replaced", "deleted"])
def test_a_watch_screen_says_when_its_link_no_longer_shows_the_match(how, chromium, live_server):
    owner = new_phone(chromium)
    sign_up(owner, live_server.url)
    scoreboard = new_match(owner, live_server.url, "burraco")
    url = _watch_link(owner, scoreboard)
    _save_a_deal()
    watcher = new_phone(chromium)
    watcher.goto(url)
    figure = watcher.locator('#watch [data-total="0"]')
    shown = figure.inner_text()
    assert shown != "0"
    expect(watcher.locator('[data-message="watch_link_gone"]')).to_have_count(0)
    asked = _live_requests(watcher)

    if how == "replaced":  # the owner, on the share page: "Make a new link…"
        owner.locator("details.confirm > summary").click()
        owner.get_by_role("button", name="Yes, make a new link").click()
        expect(owner.locator("a.share-url")).not_to_have_attribute("href", url)
    else:
        Match.objects.get().delete()

    notice = watcher.locator('[data-message="watch_link_gone"]')
    expect(notice).to_be_visible(timeout=NEXT_CHECK_MS)
    expect(notice).to_contain_text(GONE)
    expect(notice).to_contain_text("Ask the match's owner for the new one.")
    assert notice.get_attribute("role") == "alert"
    # the old figures are still there to read, but do not look live
    board = watcher.locator("#watch")
    expect(board).to_have_attribute("data-live-gone", "")
    expect(board).not_to_have_attribute("data-live", re.compile(".*"))
    assert float(board.evaluate("node => getComputedStyle(node).opacity")) < 0.6
    expect(figure).to_have_text(shown)
    # the notice is above them, in sight
    assert notice.bounding_box()["y"] < figure.bounding_box()["y"]
    assert notice.bounding_box()["y"] + notice.bounding_box()["height"] <= 740
    fits(watcher)
    _asks_no_more(watcher, asked)
    # a tab that comes back to the front asks no more either
    watcher.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    _asks_no_more(watcher, asked)


def test_a_removed_co_scorer_is_told_on_the_scoreboard_and_it_asks_no_more(chromium, live_server):
    owner = new_phone(chromium)
    sign_up(owner, live_server.url)
    scoreboard = new_match(owner, live_server.url, "burraco")
    token = share_link_get_or_create(match=Match.objects.get(), kind="score").token
    guest = new_phone(chromium)
    guest.goto(f"{live_server.url}/join/{token}/")
    guest.fill('input[name="name"]', "Babis")
    guest.get_by_role("button", name="Join the match").click()
    guest.wait_for_url(scoreboard)
    expect(guest.locator("#scoreboard[data-live]")).to_be_attached()
    asked = _live_requests(guest)

    member_remove(member=MatchMember.objects.get(), by="anna")

    expect(guest.locator('[data-message="member_removed"]')).to_be_visible(timeout=NEXT_CHECK_MS)
    expect(guest.locator("[data-total]")).to_have_count(0)  # no figures left to look live
    fits(guest)
    _asks_no_more(guest, asked)


@pytest.mark.parametrize("where", ["scoreboard", "entry"])
def test_a_page_of_a_deleted_match_says_so_and_asks_no_more(where, chromium, live_server):
    owner = new_phone(chromium)
    sign_up(owner, live_server.url)
    new_match(owner, live_server.url, "burraco")
    if where == "entry":
        enter_deal(owner, 1)
        settled(owner)
    expect(owner.locator("[data-live]")).to_have_count(1)
    asked = _live_requests(owner)

    Match.objects.get().delete()  # from another tab, or another phone of the owner's

    expect(owner.locator('[data-message="not_found"]')).to_be_visible(timeout=NEXT_CHECK_MS)
    expect(owner.locator("[data-total], #entry-form")).to_have_count(0)
    fits(owner)
    _asks_no_more(owner, asked)


def _fail_checks(page, how: str) -> None:
    if how == "network":
        page.route("**/live/**", lambda route: route.abort("internetdisconnected"))
    else:
        page.route("**/live/**", lambda route: route.fulfill(status=503, body="busy"))


@pytest.mark.parametrize("how", ["network", "server error"])
@pytest.mark.parametrize("where", ["watch", "scoreboard"])
def test_a_failed_live_check_says_the_score_may_be_out_of_date(where, how, chromium, live_server):
    owner = new_phone(chromium)
    sign_up(owner, live_server.url)
    new_match(owner, live_server.url, "burraco")
    if where == "watch":
        token = share_link_get_or_create(match=Match.objects.get(), kind="watch").token
        page = new_phone(chromium)
        page.goto(f"{live_server.url}/watch/{token}/")
        board = page.locator("#watch")
    else:
        page = owner
        board = page.locator("#scoreboard")
    expect(board).to_have_attribute("data-deal-count", "0")
    notice = page.locator('[data-message="connection_lost"]')
    page.wait_for_timeout(2500)  # a good check or more: nothing to say
    expect(notice).to_have_count(0)

    _fail_checks(page, how)
    expect(notice).to_be_visible(timeout=NEXT_CHECK_MS)
    expect(notice).to_contain_text(OUT_OF_DATE)
    expect(notice).not_to_contain_text(NOT_SENT)
    assert notice.bounding_box()["y"] < board.locator('[data-total="0"]').bounding_box()["y"]
    fits(page)
    _save_a_deal()  # meanwhile, on another phone
    page.wait_for_timeout(2500)
    expect(notice).to_have_count(1)  # still failing: still said, once
    expect(board).to_have_attribute("data-deal-count", "0")

    page.unroute("**/live/**")
    expect(notice).to_have_count(0, timeout=NEXT_CHECK_MS)
    expect(board).to_have_attribute("data-deal-count", "1", timeout=NEXT_CHECK_MS)
    expect(board).to_have_attribute("data-live", re.compile("/live/"))


def test_the_entry_page_s_banner_goes_once_the_site_is_reached_again(chromium, live_server):
    owner = new_phone(chromium)
    sign_up(owner, live_server.url)
    new_match(owner, live_server.url, "burraco")
    enter_deal(owner, 1)
    settled(owner)
    owner.context.set_offline(True)
    tap(owner, "suit:H")
    notice = owner.locator('[data-message="connection_lost"]')
    expect(notice).to_be_visible()
    owner.context.set_offline(False)
    # no tap: the next live check gets through, and the banner has said its piece
    expect(notice).to_have_count(0, timeout=NEXT_CHECK_MS)
    tap(owner, "suit:H")
    settled(owner)
    expect(notice).to_have_count(0)
