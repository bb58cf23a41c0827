"""The players page and the merge (scorekeeper/players/views.py): each player with the matches
they sit in; rename in place (a refusal drawn at its field, a name taken offering the merge),
remove one in no match, merge after a page that shows the matches of each; plain and htmx;
an account's own players only."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scorekeeper.models import MatchSeat, Player
from tests.conftest import HTMX, text
from tests.test_names import RTL4, assert_isolated
from tests.test_views import is_partial

pytestmark = pytest.mark.django_db

PLAYERS = reverse("player_list")


def player(user, name: str) -> Player:
    return Player.objects.get(owner=user, name=name)


def merge_url(one: Player, into: Player | None = None) -> str:
    url = reverse("player_merge", args=[one.pk])
    return f"{url}?into={into.pk}" if into else url


def test_the_page_lists_the_players_with_the_matches_each_sits_in(auth_client, make_match, user):
    make_match("biriba", players=["Anna", "Babis"])
    make_match("barbu", players=["Anna", "Chris", "Dora", "Eleni"])
    nobody = Player.objects.create(owner=user, name="Zoe")
    response = auth_client.get(PLAYERS)
    page = response.content.decode()
    words = text(response)
    assert words.index("Anna in 2 of your matches") < words.index("Babis in 1 of your matches")
    assert "Zoe in no match" in words
    assert f'href="{reverse("match_list")}?player=Anna"' in page
    # Remove only for the one who sits in no match
    assert page.count("data-remove-player=") == 1 and f'data-remove-player="{nobody.pk}"' in page
    assert page.count("data-rename-player=") == 6 and page.count("data-merge=") == 6
    htmx = auth_client.get(PLAYERS, headers=HTMX)
    assert is_partial(htmx) and 'id="players"' in htmx.content.decode()


def test_another_account_s_players_are_not_shown(auth_client, make_match, other_user):
    make_match("biriba", owner=other_user, players=["Zoe", "Yannis"])
    assert "Zoe" not in auth_client.get(PLAYERS).content.decode()


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_a_rename_in_place(auth_client, make_match, user, headers):
    match = make_match("biriba", players=["Ana", "Babis"])
    ana = player(user, "Ana")
    response = auth_client.post(
        PLAYERS, {"action": "rename", "player": ana.pk, "name": "Anastasia"}, headers=headers
    )
    if headers:
        assert response.status_code == 200 and is_partial(response)
        page = response.content.decode()
    else:
        assert response.status_code == 302 and response["Location"] == PLAYERS
        page = auth_client.get(PLAYERS).content.decode()
    assert 'data-message="player_renamed"' in page
    assert "Ana is Anastasia now, in every match." in text(
        type("R", (), {"content": page.encode()})
    )
    assert player(user, "Anastasia").pk == ana.pk
    assert "Anastasia" in auth_client.get(match.get_absolute_url()).content.decode()


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_a_rename_onto_a_name_taken_is_refused_at_its_field_with_the_merge(
    auth_client, make_match, user, headers
):
    make_match("biriba", players=["Ana", "Babis"])
    make_match("biriba", players=["Anna", "Chris"])
    ana, anna = player(user, "Ana"), player(user, "Anna")
    response = auth_client.post(
        PLAYERS, {"action": "rename", "player": ana.pk, "name": "ANNA"}, headers=headers
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert 'data-message="player_name_taken"' in page
    assert "<bdi>Anna</bdi>&quot; is already one of your players" in page
    assert f'href="{merge_url(ana, anna)}"' in page  # merge them instead
    assert f'id="rename-{ana.pk}" name="name" value="ANNA"' in page  # what was typed
    assert page.count('<details class="rename" open>') == 1
    assert player(user, "Ana").pk == ana.pk


@pytest.mark.parametrize(
    ("name", "code"),
    [("", "name_missing"), ("x" * 30_000, "name_too_long"), ("An\u202ena", "name_direction")],
)
def test_a_name_the_site_refuses_is_said_at_its_field(auth_client, make_match, user, name, code):
    make_match("biriba", players=["Anna", "Babis"])
    anna = player(user, "Anna")
    response = auth_client.post(PLAYERS, {"action": "rename", "player": anna.pk, "name": name})
    assert response.status_code == 200
    page = response.content.decode()
    assert f'data-message="{code}"' in page and len(page) < 40_000
    assert player(user, "Anna").pk == anna.pk


def test_removing_a_player_in_no_match(auth_client, make_match, user):
    make_match("biriba", players=["Anna", "Babis"])
    zoe = Player.objects.create(owner=user, name="Zoe")
    response = auth_client.post(PLAYERS, {"action": "remove", "player": zoe.pk}, headers=HTMX)
    assert 'data-message="player_removed"' in response.content.decode()
    assert not Player.objects.filter(pk=zoe.pk).exists()
    # one who sits in a match stays, and the page says why
    anna = player(user, "Anna")
    response = auth_client.post(PLAYERS, {"action": "remove", "player": anna.pk}, follow=True)
    assert 'data-message="player_in_matches"' in response.content.decode()
    assert Player.objects.filter(pk=anna.pk).exists()


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"action": "rename"},
        {"action": "rename", "player": "٣", "name": "x"},
        {"action": "burn", "player": "OWN"},
        {"action": "remove", "player": "OTHER"},
        {"action": "rename", "player": "OTHER", "name": "Mine now"},
    ],
)
def test_a_post_that_is_not_one_of_the_page_s_does_nothing(
    auth_client, make_match, user, other_user, data
):
    make_match("biriba", players=["Anna", "Babis"])
    make_match("biriba", owner=other_user, players=["Zoe", "Yannis"])
    ids = {"OWN": player(user, "Anna").pk, "OTHER": player(other_user, "Zoe").pk}
    data = {k: str(ids.get(v, v)) for k, v in data.items()}
    before = sorted(Player.objects.values_list("pk", "name"))
    response = auth_client.post(PLAYERS, data, follow=True)
    assert response.status_code == 200 and "error" in response.content.decode()
    assert sorted(Player.objects.values_list("pk", "name")) == before


def test_the_players_are_an_account_s(client):
    for url in (PLAYERS, reverse("player_merge", args=[1])):
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


# --- merge ----------------------------------------------------------------------------------


def test_the_merge_asks_whom_then_shows_the_matches_of_each(auth_client, make_match, user):
    misspelt = make_match("biriba", players=["Ana", "Babis"])
    right = [make_match("burraco", players=["Anna", name]) for name in ("Chris", "Dora")]
    ana, anna = player(user, "Ana"), player(user, "Anna")
    choice = auth_client.get(merge_url(ana))
    page = choice.content.decode()
    assert f'name="into" value="{anna.pk}"' in page and f'value="{ana.pk}"' not in page
    assert 'method="get"' in page
    confirm = auth_client.get(merge_url(ana, anna))
    page = confirm.content.decode()
    sides = page.split("data-merge-side=")
    assert sides[1].startswith(f'"{ana.pk}"') and sides[2].startswith(f'"{anna.pk}"')
    assert f"/matches/{misspelt.pk}/" in sides[1]
    assert all(f"/matches/{m.pk}/" in sides[2] for m in right)
    words = text(confirm)
    assert "Ana becomes Anna in every match: one player, Anna, who sits in 3 matches." in words
    assert "data-merge-confirm" in page and "Keep the name Ana instead" in words
    assert f'href="{merge_url(anna, ana)}"' in page
    htmx = auth_client.get(merge_url(ana, anna), headers=HTMX)
    assert is_partial(htmx) and 'id="merge"' in htmx.content.decode()


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_merging(auth_client, make_match, user, headers):
    make_match("biriba", players=["Ana", "Babis"])
    make_match("burraco", players=["Anna", "Chris"])
    ana, anna = player(user, "Ana"), player(user, "Anna")
    response = auth_client.post(merge_url(ana, anna), {"action": "merge"}, headers=headers)
    if headers:
        assert response["HX-Redirect"] == PLAYERS
    else:
        assert response.status_code == 302 and response["Location"] == PLAYERS
    page = auth_client.get(PLAYERS)
    assert 'data-message="player_merged"' in page.content.decode()
    assert "Ana and Anna are one player now: Anna, in 1 more match." in text(page)
    assert not Player.objects.filter(pk=ana.pk).exists()
    assert MatchSeat.objects.filter(player=anna).count() == 2


def test_two_at_one_table_cannot_be_merged_and_the_page_says_where(auth_client, make_match, user):
    together = make_match("biriba", players=["Ana", "Anna"])
    make_match("burraco", players=["Ana", "Babis"])
    ana, anna = player(user, "Ana"), player(user, "Anna")
    response = auth_client.get(merge_url(ana, anna))
    page = response.content.decode()
    assert 'data-message="players_share_a_match"' in page and "data-merge-confirm" not in page
    assert "sit at the same table in 1 match: they are two people." in text(response)
    assert page.count("data-shared") == 2  # the match, in the list of each
    assert f"/matches/{together.pk}/" in page
    response = auth_client.post(merge_url(ana, anna), {"action": "merge"}, follow=True)
    assert 'data-message="players_share_a_match"' in response.content.decode()
    assert Player.objects.filter(pk=ana.pk).exists()


@pytest.mark.parametrize("into", ["x", "٣", "0", "99999", "9" * 40, "SELF", "OTHER"])
def test_a_player_to_merge_with_that_is_not_one_is_told(
    auth_client, make_match, user, other_user, into
):
    make_match("biriba", players=["Ana", "Babis"])
    make_match("biriba", owner=other_user, players=["Zoe", "Yannis"])
    ana = player(user, "Ana")
    into = {"SELF": str(ana.pk), "OTHER": str(player(other_user, "Zoe").pk)}.get(into, into)
    url = f"{reverse('player_merge', args=[ana.pk])}?into={into}"
    response = auth_client.get(url)
    assert response.status_code == 200
    page = response.content.decode()
    assert 'data-message="player_gone"' in page and "data-merge-confirm" not in page
    assert "Zoe" not in page
    response = auth_client.post(url, {"action": "merge"}, follow=True)
    assert response.status_code == 200
    assert Player.objects.filter(pk=ana.pk).exists() and Player.objects.count() == 4


def test_another_account_s_player_has_no_merge_page(client, make_match, user, other_user):
    make_match("biriba", players=["Ana", "Anna"])
    ana = player(user, "Ana")
    client.force_login(other_user)
    for send in (client.get, client.post):
        response = send(merge_url(ana), {"action": "merge"})
        assert (
            response.status_code == 404 and 'data-message="not_found"' in response.content.decode()
        )
    assert Player.objects.filter(pk=ana.pk).exists()


def test_a_merge_without_the_word_merges_nothing(auth_client, make_match, user):
    make_match("biriba", players=["Ana", "Babis"])
    make_match("biriba", players=["Anna", "Chris"])
    ana, anna = player(user, "Ana"), player(user, "Anna")
    response = auth_client.post(merge_url(ana, anna), {"action": "go"}, follow=True)
    assert 'class="msg error"' in response.content.decode()
    assert response.status_code == 200 and Player.objects.filter(pk=ana.pk).exists()


def test_names_are_drawn_isolated(auth_client, make_match, user):
    make_match("biriba", players=list(RTL4))
    make_match("burraco", players=[RTL4[0], "Zoe"])
    first, second = (player(user, name) for name in RTL4[:2])
    for url in (PLAYERS, merge_url(first), merge_url(first, second)):
        for headers in ({}, HTMX):
            assert_isolated(auth_client.get(url, headers=headers).content.decode())
    response = auth_client.post(
        PLAYERS, {"action": "rename", "player": first.pk, "name": RTL4[1]}, follow=True
    )
    assert_isolated(response.content.decode())
    response = auth_client.post(PLAYERS, {"action": "remove", "player": first.pk}, follow=True)
    assert_isolated(response.content.decode())
