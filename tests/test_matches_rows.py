"""A row of the history (templates/matches/_row.html): the game and the day link to the match,
each name beside them to the player's page when the player is the viewer's own, and never a
link inside a link."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from scorekeeper.models import Player
from scorekeeper.sharing import services as sharing
from tests.conftest import HTMX

pytestmark = pytest.mark.django_db


class _Links(HTMLParser):
    """Each link's address and text; ``nested``: a link opened inside another."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[dict] = []
        self.links: list[dict] = []
        self.nested = False

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            self.nested = self.nested or bool(self.open)
            link = {"href": dict(attrs).get("href"), "attrs": dict(attrs), "text": ""}
            self.open.append(link)
            self.links.append(link)

    def handle_endtag(self, tag):
        if tag == "a" and self.open:
            self.open.pop()

    def handle_data(self, data):
        for link in self.open:
            link["text"] += data


def row_links(html: str, pk: int) -> _Links:
    found = re.search(rf'<li class="history-row[^"]*" data-match="{pk}".*?</li>', html, re.S)
    assert found, f"no row for match {pk}"
    parser = _Links()
    parser.feed(found.group(0))
    return parser


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
@pytest.mark.parametrize("game", ["biriba", "barbu"])
def test_each_name_links_to_the_player_page(auth_client, user, make_match, game, headers):
    match = make_match(game, deals=1)
    html = auth_client.get(reverse("match_list"), headers=headers).content.decode()
    links = row_links(html, match.pk)
    assert not links.nested
    assert links.links[0]["href"] == match.get_absolute_url()
    assert "Biriba" in links.links[0]["text"] or "Barbu" in links.links[0]["text"]
    players = {
        link["attrs"]["data-row-player"]: link
        for link in links.links
        if "data-row-player" in link["attrs"]
    }
    for player in Player.objects.filter(owner=user):
        link = players[str(player.pk)]
        assert link["href"] == reverse("player_detail", args=[player.pk])
        assert link["text"] == player.name
    assert len(players) == 4
    # the page a name leads to is there
    assert auth_client.get(links.links[1]["href"]).status_code == 200


def test_names_of_a_match_joined_are_not_linked(client, make_match, other_user):
    """A co-scorer's players are the owner's: their pages are not the co-scorer's to see."""
    match = make_match("burraco", deals=1)
    link = sharing.share_link_get_or_create(match=match, kind="score")
    sharing.member_join(link=link, user=other_user)
    client.force_login(other_user)
    html = client.get(reverse("match_list")).content.decode()
    links = row_links(html, match.pk)
    assert [link["href"] for link in links.links] == [match.get_absolute_url()]
    assert "Anna" in re.search(rf'data-match="{match.pk}".*?</li>', html, re.S).group(0)
