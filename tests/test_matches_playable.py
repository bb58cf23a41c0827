"""What the site's pages play (scorekeeper/matches/playable.py): a form the rules core scores
but the pages cannot draw yet is refused wherever a match is made, naming the form, and stores
nothing; every form they play can be imported and every page of it drawn."""

from __future__ import annotations

import json
import pathlib
import re

import pytest

from scorekeeper import services
from scorekeeper.models import Match
from scorekeeper.rules.errors import RuleError
from tests.conftest import HTMX

pytestmark = pytest.mark.django_db

DATA = pathlib.Path(__file__).resolve().parent / "data"


def example(name: str) -> dict:
    folder = "barbu" if name.startswith("barbu") else "rummy"
    return json.loads((DATA / folder / f"{name}.json").read_text(encoding="utf-8"))["doc"]


THREE = {
    "format": "scorekeeper-match/1",
    "game": "burraco",
    "rules": {"three_players": "each_alone"},
    "players": ["Anna", "Babis", "Chris"],
    "deals": [],
}

NOT_YET = [
    (THREE, "Burraco for three players cannot be played on this site yet"),
    (example("barbu-salade5-ex1-splits"), "Salade for five players cannot be played"),
    (example("barbu-chinese-ex1"), "The Chinese Poker contract cannot be played"),
    (example("barbu-house-ex1-viv1bin"), "A salade that counts the last two tricks cannot"),
]


@pytest.mark.parametrize(("document", "message"), NOT_YET)
def test_a_form_the_pages_cannot_draw_is_refused_at_import_naming_it(
    auth_client, document, message
):
    for headers in ({}, HTMX):
        response = auth_client.post(
            "/matches/import/", {"text": json.dumps(document)}, headers=headers
        )
        html = response.content.decode()
        assert response.status_code == 200
        assert "Refused, nothing was stored." in html and message in html
    assert Match.objects.count() == 0


@pytest.mark.parametrize(("document", "message"), NOT_YET)
def test_the_service_refuses_it_too(user, document, message):
    with pytest.raises(RuleError) as refused:
        services.match_import(owner=user, document=document)
    assert refused.value.code == "not_on_site" and message in refused.value.message
    assert Match.objects.count() == 0


PLAYED = [
    "burraco-vp-ex1-three-deals",
    "burraco-vp-ex2-four-deals-edge",
    "burraco-vp-ex3-custom-table",
    "burraco-house-ex1-values",
    "burraco-house-ex2-bonuses",
    "barbu-house-ex2-zigotote",
    "barbu-house-ex3-ravage-36",
]


@pytest.mark.parametrize("name", PLAYED)
def test_every_page_of_a_form_the_pages_play_is_drawn(auth_client, user, name):
    match = services.match_import(owner=user, document=example(name))
    base = f"/matches/{match.pk}"
    for url in (
        f"{base}/",
        f"{base}/deals/new/",
        f"{base}/deals/1/",
        f"{base}/deals/1/edit/",
        f"{base}/history/",
        f"{base}/sheet/",
        f"{base}/export.csv",
        f"{base}/export.json",
        "/",
        "/matches/",
        "/players/",
    ):
        response = auth_client.get(url)
        assert response.status_code in (200, 302), (url, response.status_code)


def test_a_new_burraco_match_offers_two_or_four_players(auth_client):
    page = auth_client.get("/matches/new/?game=burraco").content.decode()
    assert sorted(set(re.findall(r'name="switch_seats" value="(\d)"', page))) == ["2", "4"]
    # three asked for by hand: the page seats four
    page = auth_client.get("/matches/new/?game=burraco&seats=3").content.decode()
    assert len(re.findall(r'name="player_\d"', page)) == 4
