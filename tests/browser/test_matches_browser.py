"""The history of matches and the players' pages on a 360 px phone, with and without
JavaScript: long names (40 characters) never widen a page; the filters, Archive, a rename
refused and then done, the merge's confirmation and the deletion page, as a player taps them."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from scorekeeper import services
from scorekeeper.matches import services as matches_services
from scorekeeper.models import Match, Player
from scorekeeper.selectors import match_scored
from tests.conftest import barbu_deal, rummy_deal

from .conftest import new_phone, settled, sign_up
from .test_long_names_browser import FORTY, LONG, fits, visit

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Forty characters without a space: only breaking inside the name keeps it on the phone.
UNBROKEN = "Αναστασία-Βαρθολομαίος-Χριστοφόρος-Δωρο"


def matches_for(username: str) -> dict[str, int]:
    """Matches of every game with long names: finished, in progress, imported, archived."""
    owner = get_user_model().objects.get(username=username)
    made = {}
    players = [UNBROKEN, *FORTY[1:]]
    for game in ("biriba", "burraco"):
        match = services.match_create(
            owner=owner, game=game, players=players, first_dealer=0, rules={"target": 5}
        )
        services.deal_record(match=match, data=rummy_deal(game))
        made[f"{game} finished"] = match.pk
    barbu = services.match_create(
        owner=owner, game="barbu", players=list(LONG), first_dealer=0, rules={}
    )
    services.deal_record(match=barbu, data=barbu_deal(0))
    made["barbu"] = barbu.pk
    imported = services.match_import(owner=owner, document=match_scored(barbu)[2])
    made["imported"] = imported.pk
    put_away = services.match_create(
        owner=owner, game="biriba", players=[FORTY[0], "Eleni"], first_dealer=0, rules={}
    )
    matches_services.match_archive(match=put_away)
    made["archived"] = put_away.pk
    Player.objects.create(owner=owner, name="Ana Maria Konstantinidou-Papadopoulou Xy")
    return made


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_the_history_and_the_players_fit_the_phone(live_server, chromium, javascript):
    page = new_phone(chromium, javascript=javascript)
    base = live_server.url
    username = f"history{int(javascript)}"
    sign_up(page, base, username=username)
    made = matches_for(username)

    # home: the top bar's five links, the matches, the link to all of them
    visit(page, base + "/")
    expect(page.locator("a[data-all-matches]")).to_be_visible()
    for name in ("Matches", "Players"):
        expect(page.locator(".topnav").get_by_role("link", name=name)).to_be_visible()
    assert page.locator(f'a[href="/matches/{made["archived"]}/"]').count() == 0

    # the history, every filter open, then a filter chosen
    visit(page, base + "/matches/")
    expect(page.locator("[data-match]")).to_have_count(len(made))
    expect(page.locator(f'[data-match="{made["imported"]}"] [data-imported]')).to_be_visible()
    page.locator(".more-filters summary").click()
    fits(page)
    page.fill('input[name="q"]', "βαρθολομαίος")
    submit(page, page.get_by_role("button", name="Show"), javascript=javascript)
    page.wait_for_url(re.compile(r"/matches/\?q="))
    expect(page.locator("[data-match]")).to_have_count(2)
    fits(page)
    # a filter that cannot be read: said beside its field, the list drawn without it
    visit(page, base + "/matches/?since=2026-13-45&game=biriba")
    expect(page.locator('[data-message="filters_ignored"]')).to_be_visible()
    expect(page.locator("[data-match]")).to_have_count(2)
    fits(page)

    # Archive from the list: gone from home, marked in the list
    visit(page, base + "/matches/")
    barbu = made["barbu"]
    submit(page, page.locator(f'button[data-archive="{barbu}"]'), javascript=javascript)
    expect(page.locator('[data-message="match_archived"]')).to_be_visible()
    expect(page.locator(f'[data-match="{barbu}"][data-archived]')).to_be_visible()
    fits(page)
    assert Match.objects.get(pk=barbu).archived is not None

    # the deletion page: the export first, then the form
    page.locator(f'a[data-delete-match="{barbu}"]').click()
    page.wait_for_url(re.compile(rf"/matches/{barbu}/delete/"))
    expect(page.locator("a[data-export-match]")).to_be_visible()
    fits(page)
    submit(
        page,
        page.get_by_role("button", name="Yes, delete this match for good"),
        javascript=javascript,
    )
    page.wait_for_url(re.compile(r"/matches/$"))
    expect(page.locator('[data-message="match_deleted"]')).to_be_visible()
    fits(page)
    assert not Match.objects.filter(pk=barbu).exists()

    # the players: a rename refused (a name taken), then done
    visit(page, base + "/players/")
    owner = get_user_model().objects.get(username=username)
    long_one = Player.objects.get(owner=owner, name=UNBROKEN)
    row = page.locator(f'[data-player="{long_one.pk}"]')
    row.locator("details.rename summary").click()
    fits(page)
    row.locator('input[name="name"]').fill(FORTY[1].upper())
    submit(page, row.get_by_role("button", name="Save the name"), javascript=javascript)
    row = page.locator(f'[data-player="{long_one.pk}"]')
    expect(row.locator('[data-message="player_name_taken"]')).to_be_visible()
    fits(page)
    row.locator('input[name="name"]').fill("Stasa")
    submit(page, row.get_by_role("button", name="Save the name"), javascript=javascript)
    expect(page.locator('[data-message="player_renamed"]')).to_be_visible()
    fits(page)
    assert Player.objects.get(pk=long_one.pk).name == "Stasa"

    # the merge: the choice, then both players' matches side by side, refused at one table
    page.locator(f'a[data-merge="{long_one.pk}"]').click()
    page.wait_for_url(re.compile(r"/players/\d+/merge/$"))
    fits(page)
    page.locator(
        f'input[name="into"][value="{Player.objects.get(owner=owner, name=FORTY[1]).pk}"]'
    ).check()
    with page.expect_navigation():
        page.get_by_role("button", name="See what will be merged").click()
    expect(page.locator('[data-message="players_share_a_match"]')).to_be_visible()
    expect(page.locator("[data-merge-side]")).to_have_count(2)
    fits(page)


def submit(page, button, *, javascript: bool) -> None:
    """Press a button of a form: with JavaScript htmx answers in place; without, a page."""
    if javascript:
        button.click()
        settled(page)
    else:
        with page.expect_navigation():
            button.click()
