"""A Burraco tournament round on the site (issue 12): the new-match page offers a round of 3 or
4 deals with FIBUR's victory points, the scoreboard counts its deals and shows each side's
victory points when it ends."""

from __future__ import annotations

import json
import pathlib

import pytest

from scorekeeper import services
from scorekeeper.models import Match
from tests.conftest import text
from tests.test_views import new_match_data

pytestmark = pytest.mark.django_db

DATA = pathlib.Path(__file__).resolve().parent / "data" / "rummy"


def example(name: str) -> dict:
    return json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))["doc"]


def test_the_new_match_page_offers_a_round_of_three_or_four_deals(auth_client):
    page = auth_client.get("/matches/new/?game=burraco").content.decode()
    assert 'name="opt_match_deals"' in page
    assert "Play to the target · default" in page and "3 deals, FIBUR" in page
    assert (
        'name="opt_match_deals"'
        not in auth_client.get("/matches/new/?game=biriba").content.decode()
    )


def test_a_round_of_three_deals_is_made_without_a_target(auth_client):
    data = new_match_data("burraco", opt_preset="fibur", opt_target="", opt_match_deals="3")
    response = auth_client.post("/matches/new/", data)
    match = Match.objects.get()
    assert response.status_code == 302
    assert match.rules["match_deals"] == 3 and match.rules["vp_table"] == "fibur"
    assert "target" not in match.rules
    # left at its default: the match plays to the target, as before
    data = new_match_data("burraco", opt_preset="fibur", opt_target="", opt_match_deals="")
    auth_client.post("/matches/new/", data)
    assert "match_deals" not in Match.objects.latest("pk").rules


def test_a_target_beside_a_round_is_refused_on_the_target(auth_client):
    data = new_match_data("burraco", opt_preset="classic", opt_target="1500", opt_match_deals="4")
    response = auth_client.post("/matches/new/", data)
    assert response.status_code == 200 and Match.objects.count() == 0
    assert "has no target" in text(response)


def test_the_scoreboard_counts_the_round_and_shows_its_victory_points(auth_client, user):
    document = example("burraco-vp-ex1-three-deals")
    ongoing = services.match_import(
        owner=user, document={**document, "deals": document["deals"][:2]}
    )
    page = text(auth_client.get(f"/matches/{ongoing.pk}/"))
    assert "Deal 3 of 3" in page and "Victory points:" not in page
    done = services.match_import(owner=user, document=document)
    response = auth_client.get(f"/matches/{done.pk}/")
    html = response.content.decode()
    assert "data-victory-points" in html
    line = text(response).split("Victory points:")[1][:60]
    assert "Anna & Chris 17" in line and "Babis & Dora 3" in line
    # the printed sheet and the CSV carry them too (the round's result, beside its totals)
    sheet = auth_client.get(f"/matches/{done.pk}/sheet/").content.decode()
    assert "data-sheet-victory-points" in sheet
    assert "VP" in text(auth_client.get(f"/matches/{done.pk}/sheet/"))
    csv = auth_client.get(f"/matches/{done.pk}/export.csv").content.decode("utf-8-sig")
    assert csv.strip().splitlines()[-1] == "Victory points,17,3"
    unfinished = auth_client.get(f"/matches/{ongoing.pk}/export.csv").content.decode()
    assert "Victory points" not in unfinished


def test_the_entry_page_of_a_round_shows_no_points_to_go(auth_client):
    """A round ends after its deals: the entry page's bar has no target to count down to, as
    the scoreboard has none (the preset's own target is not the match's)."""
    from django.urls import reverse

    from tests.conftest import press

    data = new_match_data("burraco", opt_preset="fibur", opt_target="", opt_match_deals="4")
    auth_client.post("/matches/new/", data)
    match = Match.objects.get()
    url = reverse("deal_new", args=[match.pk])
    page = text(press(auth_client, url, "", "mode:points", "digit:1", "digit:2", "digit:5"))
    assert "125" in page and "to go" not in page
    # a match to a target counts down to it on the same bar
    data = new_match_data("burraco", opt_preset="fibur", opt_target="2005")
    auth_client.post("/matches/new/", data)
    other = Match.objects.exclude(pk=match.pk).get()
    url = reverse("deal_new", args=[other.pk])
    page = text(press(auth_client, url, "", "mode:points", "digit:1", "digit:2", "digit:5"))
    assert "1 880 to go" in page.replace("\u2009", " ")
