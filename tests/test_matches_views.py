"""The history of matches at /matches/ (scorekeeper/matches/views.py): every match owned or
joined, newest first, 25 a page; each row from the match's cache; the filters and the search as
query parameters, a bad value told beside its field and left out; Archive / Unarchive and the
deletion page, the owner's alone, plain and htmx; home's short list and the top bar's links."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scorekeeper import services
from scorekeeper.access import GUEST_COOKIE, guest_key_digest_of, guest_key_new
from scorekeeper.matches import services as matches_services
from scorekeeper.matches.selectors import HISTORY_PAGE_SIZE, HOME_FINISHED
from scorekeeper.models import Deal, Match, MatchChange, Player
from scorekeeper.selectors import match_scored
from scorekeeper.sharing import services as sharing
from tests.conftest import HTMX, deal_for, text
from tests.test_names import RTL4, assert_isolated
from tests.test_views import is_partial

pytestmark = pytest.mark.django_db

ROW = re.compile(r'<li class="history-row[^"]*" data-match="(\d+)"')
LIST = reverse("match_list")


def rows(response) -> list[int]:
    """The matches the page lists, in their order."""
    assert response.status_code == 200
    return [int(pk) for pk in ROW.findall(response.content.decode())]


def row_of(response, match: Match) -> str:
    """The words of one match's row."""
    page = response.content.decode()
    start = page.index(">", page.index(f'data-match="{match.pk}"')) + 1
    end = page.find('<li class="history-row', start)

    class Fragment:
        content = page[start : end if end > 0 else None].encode()

    return text(Fragment).strip()


def finished(make_match, players=("Anna", "Babis"), **kwargs) -> Match:
    """A Biriba match over after one deal (target 5)."""
    match = make_match("biriba", deals=1, players=list(players), rules={"target": 5}, **kwargs)
    assert match.is_finished
    return match


def aged(match: Match, days: int) -> Match:
    """The match as if begun ``days`` ago."""
    Match.objects.filter(pk=match.pk).update(created=timezone.now() - timedelta(days=days))
    match.refresh_from_db()
    return match


def joined(match: Match, user) -> None:
    link = sharing.share_link_get_or_create(match=match, kind="score")
    sharing.member_join(link=link, user=user)


# --- the list -------------------------------------------------------------------------------


def test_every_match_owned_or_joined_newest_first(
    auth_client, make_match, other_user, django_user_model
):
    old = aged(make_match("barbu", deals=2), 30)
    middle = aged(finished(make_match), 3)
    new = make_match("burraco", deals=1)
    shared = aged(make_match("biriba", owner=other_user, players=["Eleni", "Fotis"]), 1)
    joined(shared, django_user_model.objects.get(username="anna"))
    make_match("biriba", owner=other_user, players=["Zoe", "Yannis"])  # neither owned nor joined
    response = auth_client.get(LIST)
    assert rows(response) == [new.pk, shared.pk, middle.pk, old.pk]
    page = text(response)
    assert "Zoe" not in page and "4 matches" in page
    assert "shared by babis" in row_of(response, shared)
    # a co-scorer the owner removed no longer finds it
    member = shared.members.get()
    sharing.member_remove(member=member)
    assert shared.pk not in rows(auth_client.get(LIST))


def test_a_row_says_game_day_sides_totals_winner_and_deals(auth_client, make_match):
    won = finished(make_match, players=["Anna", "Babis"])
    going = make_match("barbu", deals=3)
    response = auth_client.get(LIST)
    line = row_of(response, won)
    total = won.totals[won.winner]
    assert line.startswith("Biriba")
    assert f"{won.created:%-d %b %Y}" in line and "1 deal" in line and "finished" in line
    winner = won.column_names[won.winner]
    assert f"★ {winner} {total}" in line and f"{winner} won" in line
    barbu = row_of(response, going)
    assert "3 deals" in barbu and "in progress" in barbu and "won" not in barbu
    for name, total in zip(going.column_names, going.totals, strict=True):
        assert name in barbu
        assert f"{name} {'−' if total < 0 else ''}{abs(total)}" in barbu
    # the cache, never a scoring: a cache that says otherwise is what the row shows
    Match.objects.filter(pk=going.pk).update(totals=[7, 8, 9, -24], deal_count=11)
    line = row_of(auth_client.get(LIST), going)
    assert "11 deals" in line and "Dora −24" in line


def test_a_tie_at_the_top_says_so(auth_client, make_match):
    match = finished(make_match)
    Match.objects.filter(pk=match.pk).update(winner=None, totals=[50, 50])
    assert "a tie at the top" in row_of(auth_client.get(LIST), match)


def test_an_imported_match_says_so_with_its_day(auth_client, make_match, user):
    document = match_scored(make_match("burraco", deals=2))[2]
    imported = services.match_import(owner=user, document=document)
    imported.refresh_from_db()
    assert imported.imported is not None
    response = auth_client.get(LIST)
    page = response.content.decode()
    assert f'data-imported="{imported.imported:%Y-%m-%d}"' in page
    assert page.count("data-imported=") == 1
    assert f"imported {imported.imported:%-d %b %Y}" in row_of(response, imported)


def test_twenty_five_a_page_with_the_filters_kept(auth_client, make_match, user):
    made = [make_match("biriba") for _ in range(HISTORY_PAGE_SIZE + 2)]
    make_match("barbu")
    newest_first = [m.pk for m in reversed(made)]
    first = auth_client.get(LIST, {"game": "biriba"})
    assert rows(first) == newest_first[:HISTORY_PAGE_SIZE]
    page = first.content.decode()
    assert 'href="/matches/?game=biriba&amp;page=2"' in page and "Page 1 of 2" in text(first)
    second = auth_client.get(LIST, {"game": "biriba", "page": "2"})
    assert rows(second) == newest_first[HISTORY_PAGE_SIZE:]
    assert 'href="/matches/?game=biriba"' in second.content.decode()  # back to the first
    # a page that is no page: the first, or the last one past the end
    for bad in ("0", "-1", "x", "²", "9" * 40):
        assert rows(auth_client.get(LIST, {"game": "biriba", "page": bad}))[0] == newest_first[0]
    assert rows(auth_client.get(LIST, {"game": "biriba", "page": "99"})) == rows(second)


def test_filter_by_game_status_and_archived(auth_client, make_match):
    barbu = make_match("barbu", deals=1)
    done = finished(make_match)
    going = make_match("burraco")
    put_away = matches_services.match_archive(match=make_match("biriba"))
    assert set(rows(auth_client.get(LIST, {"game": "barbu"}))) == {barbu.pk}
    assert set(rows(auth_client.get(LIST, {"status": "finished"}))) == {done.pk}
    assert set(rows(auth_client.get(LIST, {"status": "in_progress"}))) == {
        barbu.pk,
        going.pk,
        put_away.pk,
    }
    archived = auth_client.get(LIST, {"status": "archived"})
    assert rows(archived) == [put_away.pk]
    assert f'data-match="{put_away.pk}" data-archived' in archived.content.decode()
    # archived matches are in the whole list too, marked
    everything = auth_client.get(LIST)
    assert set(rows(everything)) == {barbu.pk, done.pk, going.pk, put_away.pk}
    assert "archived" in row_of(everything, put_away) and "archived" not in row_of(
        everything, going
    )


def test_filter_by_player_and_search_by_a_part_of_a_name(auth_client, make_match):
    greek = make_match("biriba", players=["Άννα", "Βασίλης"])
    anna = make_match("burraco", players=["Anna", "Babis"])
    annabel = make_match("barbu", players=["Annabel", "Chris", "Dora", "Eleni"])
    # the player: the whole name, the same person whatever the capitals or the spacing
    assert rows(auth_client.get(LIST, {"player": "  ANNA "})) == [anna.pk]
    assert rows(auth_client.get(LIST, {"player": "άννα"})) == [greek.pk]
    assert rows(auth_client.get(LIST, {"player": "Ann"})) == []
    # the search: a part of any player's name, folded the same way (Greek capitals too)
    assert rows(auth_client.get(LIST, {"q": "ann"})) == [annabel.pk, anna.pk]
    assert rows(auth_client.get(LIST, {"q": "ΆΝΝ"})) == [greek.pk]
    assert rows(auth_client.get(LIST, {"q": "ris"})) == [annabel.pk]
    # together, and with the game
    assert rows(auth_client.get(LIST, {"q": "ann", "game": "barbu"})) == [annabel.pk]
    assert rows(auth_client.get(LIST, {"q": "ann", "player": "Babis"})) == [anna.pk]
    nothing = auth_client.get(LIST, {"q": "zzz"})
    assert rows(nothing) == [] and 'data-message="no_match_fits"' in nothing.content.decode()


def test_the_player_filter_offers_everyone_met_once_each(auth_client, make_match, user, other_user):
    make_match("biriba", players=["Anna", "Babis"])
    make_match("biriba", players=["Anna", "Chris"])
    shared = make_match("biriba", owner=other_user, players=["anna", "Eleni"])
    joined(shared, user)
    page = auth_client.get(LIST).content.decode()
    datalist = page.split('id="history-players"')[1].split("</datalist>")[0]
    offered = re.findall(r'<option value="([^"]*)">', datalist)
    assert [o.casefold() for o in offered] == ["anna", "babis", "chris", "eleni"]


def test_filter_by_the_day_a_match_began(auth_client, make_match):
    today = make_match("biriba")
    week = aged(make_match("burraco"), 7)
    month = aged(make_match("barbu"), 30)
    day = timezone.localdate()

    def between(since=None, until=None) -> set[int]:
        query = {
            "since": since.isoformat() if since else "",
            "until": until.isoformat() if until else "",
        }
        return set(rows(auth_client.get(LIST, query)))

    assert between(day - timedelta(days=7)) == {today.pk, week.pk}
    assert between(until=day - timedelta(days=7)) == {week.pk, month.pk}
    assert between(day - timedelta(days=10), day - timedelta(days=5)) == {week.pk}
    assert between(day, day) == {today.pk}


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"game": "poker"}, "game"),
        ({"game": "x" * 100_000}, "game"),
        ({"status": "lost"}, "status"),
        ({"since": "2026-13-45"}, "since"),
        ({"until": "yesterday"}, "until"),
        ({"since": "2026-03-01", "until": "2026-01-01"}, "until"),
        ({"q": "x" * 1_000}, "q"),
        ({"player": "a\x00b"}, "player"),
    ],
)
def test_a_filter_that_cannot_be_read_is_told_and_left_out(auth_client, make_match, query, field):
    """The page never fails for its address: the bad filter is said beside its field, quoted
    nowhere, and the list is drawn as if it were not there."""
    made = {make_match("biriba").pk, make_match("barbu").pk}
    for headers in ({}, HTMX):
        response = auth_client.get(LIST, query, headers=headers)
        assert response.status_code == 200
        page = response.content.decode()
        assert 'data-message="filters_ignored"' in page
        assert field in response.context["form"].errors
        assert set(rows(response)) == made
        said = " ".join(response.context["form"].errors[field])
        assert "xxxxxxxxxx" not in said and "poker" not in said and len(page) < 60_000
    # the good filters beside a bad one still apply
    response = auth_client.get(LIST, {**query, "game": "barbu"} if field != "game" else query)
    if field != "game":
        assert len(rows(response)) == 1


def test_the_filters_make_an_address_to_bookmark(auth_client, make_match):
    make_match("biriba", players=["Anna", "Babis"])
    query = {"q": "an", "game": "biriba", "player": "Babis", "status": "in_progress"}
    query |= {"since": "2020-01-01", "until": "2999-12-31"}
    response = auth_client.get(LIST, query)
    assert len(rows(response)) == 1
    page = response.content.decode()
    for name, value in query.items():
        assert re.search(
            rf'name="{name}"[^>]*value="{value}"|value="{value}"[^>]*name="{name}"', page
        ) or (f'<option value="{value}" selected>' in page), name
    # the form asks with GET, to this address; with htmx it redraws the list and the address
    form = re.search(r'<form class="filters[^>]*>', page).group(0)
    assert 'method="get"' in form and f'action="{LIST}"' in form and 'hx-push-url="true"' in form


def test_the_list_with_htmx_is_its_partial(auth_client, make_match):
    match = make_match("barbu")
    response = auth_client.get(LIST, {"game": "barbu"}, headers=HTMX)
    assert is_partial(response) and 'id="history-list"' in response.content.decode()
    assert rows(response) == [match.pk]


def test_a_phone_without_an_account_sees_the_matches_it_joined(client, make_match):
    match = make_match("burraco", deals=1)
    make_match("biriba")  # not joined
    assert rows(client.get(LIST)) == []  # no key yet: nothing, and a page all the same
    link = sharing.share_link_get_or_create(match=match, kind="score")
    client.post(reverse("join", args=[link.token]), {"name": "Eleni"})
    response = client.get(LIST)
    assert rows(response) == [match.pk]
    assert "Matches you keep score of on this phone" in text(response)
    assert 'data-archive="' not in response.content.decode()  # nothing of the owner's
    assert 'data-delete-match="' not in response.content.decode()


def test_names_are_drawn_isolated(auth_client, make_match, user):
    make_match("biriba", players=list(RTL4), deals=1)
    make_match("barbu", players=["Chris", "أحمد 2", "דנה", "Άννα"])
    for headers in ({}, HTMX):
        assert_isolated(auth_client.get(LIST, headers=headers).content.decode())


# --- archive --------------------------------------------------------------------------------


def test_the_owner_archives_and_brings_back_a_match(auth_client, make_match):
    match = make_match("biriba", deals=1)
    other = make_match("barbu")
    response = auth_client.get(LIST, {"game": "biriba"})
    assert f'data-archive="{match.pk}"' in response.content.decode()
    here = f"{LIST}?game=biriba"
    response = auth_client.post(here, {"action": "archive", "match": match.pk})
    assert response.status_code == 302 and response["Location"] == here  # the filters stay
    match.refresh_from_db()
    assert match.archived is not None
    listed = auth_client.get(here)
    assert 'data-message="match_archived"' in listed.content.decode()
    assert f'data-unarchive="{match.pk}"' in listed.content.decode()
    home = auth_client.get("/").content.decode()
    assert f"/matches/{match.pk}/" not in home and f"/matches/{other.pk}/" in home
    # the scoreboard is as it was
    assert auth_client.get(match.get_absolute_url()).status_code == 200
    response = auth_client.post(here, {"action": "unarchive", "match": match.pk}, headers=HTMX)
    assert response.status_code == 200 and is_partial(response)
    page = response.content.decode()
    assert 'data-message="match_unarchived"' in page and f'data-archive="{match.pk}"' in page
    match.refresh_from_db()
    assert match.archived is None
    assert f"/matches/{match.pk}/" in auth_client.get("/").content.decode()


def test_archiving_twice_keeps_the_first_moment(auth_client, make_match):
    match = matches_services.match_archive(match=make_match("biriba"))
    first = match.archived
    auth_client.post(LIST, {"action": "archive", "match": match.pk})
    match.refresh_from_db()
    assert match.archived == first


def test_only_the_owner_archives(client, make_match, other_user, user):
    match = make_match("biriba", deals=1)
    joined(match, other_user)
    client.force_login(other_user)
    page = client.get(LIST).content.decode()
    assert match.pk in rows(client.get(LIST)) and f'data-archive="{match.pk}"' not in page
    for headers in ({}, HTMX):
        response = client.post(LIST, {"action": "archive", "match": match.pk}, headers=headers)
        assert (
            response.status_code == 404 and 'data-message="not_found"' in response.content.decode()
        )
    # a phone without an account is asked to log in; nobody's post changes the match
    anonymous = Client()
    anonymous.cookies[GUEST_COOKIE] = guest_key_new()
    response = anonymous.post(LIST, {"action": "archive", "match": match.pk})
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    match.refresh_from_db()
    assert match.archived is None


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"action": "archive"},
        {"action": "archive", "match": "x"},
        {"action": "burn", "match": "1"},
    ],
)
def test_a_post_that_does_not_say_what_does_nothing(auth_client, make_match, data):
    match = make_match("biriba")
    data = {k: (str(match.pk) if v == "1" else v) for k, v in data.items()}
    response = auth_client.post(LIST, data, follow=True)
    assert response.status_code in (200, 404)
    match.refresh_from_db()
    assert match.archived is None


# --- delete ---------------------------------------------------------------------------------


def delete_url(match: Match, query: str = "") -> str:
    return reverse("match_delete", args=[match.pk]) + (f"?{query}" if query else "")


def test_the_deletion_page_offers_the_export_first(auth_client, make_match):
    match = make_match("burraco", deals=3)
    row = auth_client.get(LIST, {"game": "burraco"}).content.decode()
    assert f'href="{delete_url(match, "game=burraco")}" data-delete-match="{match.pk}"' in row
    response = auth_client.get(delete_url(match, "game=burraco"))
    page = response.content.decode()
    export = reverse("match_export", args=[match.pk])
    assert f'href="{export}" download data-export-match' in page
    assert page.index("data-export-match") < page.index("data-delete-match")
    assert "its 3 deals" in text(response)
    assert f'name="version" value="{match.version}"' in page
    assert f'href="{LIST}?game=burraco"' in page  # back where it came from
    htmx = auth_client.get(delete_url(match), headers=HTMX)
    assert is_partial(htmx) and 'id="delete-match"' in htmx.content.decode()


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_the_owner_deletes_a_match_with_everything_in_it(
    auth_client, make_match, other_user, headers
):
    match = make_match("barbu", deals=2)
    kept = make_match("biriba", deals=1)
    joined(match, other_user)
    match.refresh_from_db()
    players = set(Player.objects.values_list("pk", flat=True))
    response = auth_client.post(
        delete_url(match, "game=barbu"),
        {"action": "delete", "version": match.version},
        headers=headers,
    )
    back = f"{LIST}?game=barbu"
    if headers:
        assert response["HX-Redirect"] == back
    else:
        assert response.status_code == 302 and response["Location"] == back
    assert not Match.objects.filter(pk=match.pk).exists()
    assert not Deal.objects.filter(match_id=match.pk).exists()
    assert not MatchChange.objects.filter(match_id=match.pk).exists()
    assert Match.objects.filter(pk=kept.pk).exists()
    assert set(Player.objects.values_list("pk", flat=True)) == players  # the players stay
    page = auth_client.get(back)
    assert 'data-message="match_deleted"' in page.content.decode()
    assert "The Barbu match of Anna, Babis, Chris, Dora was deleted, with its 2 deals." in text(
        page
    )
    assert auth_client.get(match.get_absolute_url()).status_code == 404


def test_a_deletion_drawn_before_a_deal_was_saved_deletes_nothing(auth_client, make_match):
    match = make_match("biriba", deals=1)
    drawn = match.version
    services.deal_record(match=match, data=deal_for("biriba", 1))
    response = auth_client.post(
        delete_url(match), {"action": "delete", "version": drawn}, follow=True
    )
    assert 'data-message="match_changed_before_delete"' in response.content.decode()
    assert Match.objects.get(pk=match.pk).deal_count == 2
    # drawn anew, it goes
    match.refresh_from_db()
    auth_client.post(delete_url(match), {"action": "delete", "version": match.version})
    assert not Match.objects.filter(pk=match.pk).exists()


@pytest.mark.parametrize(
    "data", [{}, {"action": "delete"}, {"action": "delete", "version": "٣"}, {"version": "1"}]
)
def test_a_deletion_that_does_not_say_deletes_nothing(auth_client, make_match, data):
    match = make_match("biriba", deals=1)
    for headers in ({}, HTMX):
        response = auth_client.post(delete_url(match), data, headers=headers)
        assert response.status_code in (200, 302)
    assert Match.objects.filter(pk=match.pk).exists()


def test_only_the_owner_reaches_the_deletion_page(client, make_match, other_user):
    match = make_match("biriba", deals=1)
    joined(match, other_user)
    client.force_login(other_user)
    for method in (client.get, client.post):
        response = method(delete_url(match), {"action": "delete", "version": match.version})
        assert response.status_code == 404
    assert Match.objects.filter(pk=match.pk).exists()
    assert f'data-delete-match="{match.pk}"' not in client.get(LIST).content.decode()


def test_the_deletion_page_offers_to_archive_instead(auth_client, make_match):
    match = make_match("biriba")
    page = auth_client.get(delete_url(match, "status=in_progress")).content.decode()
    form = page[page.index('class="archive-instead"') - 200 : page.index("Archive instead")]
    assert f'action="{LIST}?status=in_progress"' in form and f'data-archive="{match.pk}"' in page
    response = auth_client.post(
        f"{LIST}?status=in_progress", {"action": "archive", "match": match.pk}
    )
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.archived is not None
    assert "archive-instead" not in auth_client.get(delete_url(match)).content.decode()


# --- home and the top bar -------------------------------------------------------------------


def test_home_shows_what_is_in_progress_and_the_latest_finished(auth_client, make_match):
    going = [make_match("barbu") for _ in range(3)]
    done = [finished(make_match) for _ in range(HOME_FINISHED + 2)]
    put_away = matches_services.match_archive(match=make_match("burraco"))
    response = auth_client.get("/")
    page = response.content.decode()
    shown = {int(pk) for pk in re.findall(r'href="/matches/(\d+)/"', page)}
    assert {m.pk for m in going} <= shown
    assert {m.pk for m in done[-HOME_FINISHED:]} <= shown  # the newest ten
    assert not {m.pk for m in done[:2]} & shown and put_away.pk not in shown
    assert f'href="{LIST}" data-all-matches' in page
    assert "Only the latest finished matches are shown here." in text(response)


def test_home_keeps_its_order_and_says_when_all_is_archived(auth_client, make_match):
    match = make_match("biriba")
    page = auth_client.get("/").content.decode()
    assert "In progress" in page and "Only the latest" not in page and "data-all-matches" in page
    matches_services.match_archive(match=match)
    response = auth_client.get("/")
    assert "Every match is archived" in text(response) and "No matches yet" not in text(response)
    assert "data-all-matches" in response.content.decode()
    assert 'id="matches"' in auth_client.get("/", headers=HTMX).content.decode()


def test_the_top_bar_leads_to_the_matches_and_the_players(auth_client):
    page = auth_client.get("/").content.decode()
    bar = page[page.index('<nav class="topnav">') : page.index("</nav>")]
    assert f'href="{LIST}"' in bar and f'href="{reverse("player_list")}"' in bar
    bar = Client().get("/").content.decode()
    assert f'href="{LIST}"' not in bar.split("</header>")[0]


def test_a_guest_s_home_links_to_the_list_of_its_matches(client, make_match):
    match = make_match("burraco")
    link = sharing.share_link_get_or_create(match=match, kind="score")
    key = guest_key_new()
    client.cookies[GUEST_COOKIE] = key
    sharing.member_join(link=link, guest_key=guest_key_digest_of(key), name="Eleni")
    page = client.get("/").content.decode()
    assert "data-all-matches" in page and f"/matches/{match.pk}/" in page
