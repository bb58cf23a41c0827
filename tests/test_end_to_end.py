"""Whole matches through the test client, as a table plays them: sign up, start a match, enter
deals on the deal-entry pages, correct one, read the scoreboard, export and import."""

import io
import json
import re

import pytest
from django.urls import reverse

from scorekeeper.entry import services as entry_services
from scorekeeper.entry.drafts import BarbuDraft, RummyDraft
from scorekeeper.models import Match
from tests.conftest import BARBU_DATA, HTMX, PLAYERS4, posted_by
from tests.test_views import new_match_data

pytestmark = pytest.mark.django_db


def sign_up(client, name="anna"):
    password = "a-long-pass-phrase"
    response = client.post(
        "/accounts/signup/", {"username": name, "password1": password, "password2": password}
    )
    assert response.status_code == 302


def start(client, game, players=PLAYERS4, **options) -> Match:
    data = new_match_data(game, players, **{f"opt_{k}": v for k, v in options.items()})
    response = client.post("/matches/new/", data)
    assert response.status_code == 302, response.context["form"].errors
    match = Match.objects.latest("created")
    assert response["Location"] == reverse("match_detail", args=[match.pk])
    return match


def content_of(match: Match, deal: dict) -> dict:
    """The deal as the pad's deal in progress holds it."""
    if match.game == "barbu":
        return BarbuDraft.from_deal(deal).to_json()
    sides = 2 if len(match.seated_players) == 4 else len(match.seated_players)
    return RummyDraft.from_deal(deal, game=match.game, side_count=sides).content_json()


def enter(client, match: Match, deal: dict, *, number: int | None = None, htmx=False):
    """Save a deal on the deal-entry page (a new one, or a correction of deal ``number``):
    the deal in progress holds it (as if tapped in: the pads' keys are tested key by key in
    tests/test_entry_*.py), then Save is pressed on the page."""
    url = (
        reverse("deal_new", args=[match.pk])
        if number is None
        else reverse("deal_edit", args=[match.pk, number])
    )
    editing = number is not None
    deal_number = number if editing else match.deals.count() + 1
    entry_services.draft_open(
        match=match, number=deal_number, editing=editing, initial=lambda: {}, base=""
    )
    entry_services.draft_tap(
        match=match,
        number=deal_number,
        editing=editing,
        tap="",
        change=lambda _content: (content_of(match, deal), None),
        by="test",
    )
    page = client.get(url)
    # "confirm": the player answers yes when a correction or an empty side asks first
    data = {**posted_by(page, "save"), "confirm": "yes"}
    return client.post(url, data, headers=HTMX if htmx else {})


def saved(response, match: Match) -> bool:
    scoreboard = reverse("match_detail", args=[match.pk])
    return response.get("Location") == scoreboard or response.get("HX-Redirect") == scoreboard


def board(client, match: Match) -> dict:
    response = client.get(reverse("match_detail", args=[match.pk]))
    assert response.status_code == 200
    return response.context["board"]


def export(client, match: Match) -> dict:
    return json.loads(client.get(reverse("match_export", args=[match.pk])).content)


def test_a_short_biriba_match_played_until_a_winner(client):
    sign_up(client)
    match = start(
        client,
        "biriba",
        target=500,
        sets="false",
        trump_doubles="true",
        card_values="standard",
        whole_suit="replaces",
        close_needs_clean_biriba="false",
        pot_needs_biriba="false",
        going_out_bonus=100,
        no_pot_penalty=100,
    )
    first = {
        "trump": "D",
        "sides": [
            {
                "melds": [["4H", "5H", "6H", "7H", "8H", "9H", "10H"], ["QS", "KS", "AS"]],
                "hand": ["3C", "KD"],
                "took_pot": True,
                "went_out": True,
            },
            {
                "melds": [["5C", "6C", "JK", "8C"], ["9D", "10D", "JD"]],
                "hand": ["2S", "AH", "4D"],
                "took_pot": True,
            },
        ],
    }
    assert saved(enter(client, match, first), match)
    shown = board(client, match)
    assert [c["total"] for c in shown["columns"]] == [370, 40]
    assert shown["next"]["dealer"] == "Babis" and not shown["finished"]

    second = {
        "trump": "C",
        "sides": [
            {"melds": [["3H", "4H", "5H"]], "hand": ["KD"], "took_pot": True},
            {
                "melds": [["3C", "4C", "5C", "6C", "7C", "8C", "9C"]],  # clean trump biriba
                "hand": [],
                "took_pot": True,
                "went_out": True,
            },
        ],
    }
    assert saved(enter(client, match, second, htmx=True), match)
    shown = board(client, match)
    assert [c["total"] for c in shown["columns"]] == [370 + 5, 40 + 545]
    assert shown["finished"] and shown["winner"] == "Babis & Dora"
    html = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    assert "<bdi>Babis</bdi> &amp; <bdi>Dora</bdi> won the match" in html
    assert "Enter deal" not in html

    # no deal after the end: the entry page sends the table back to the scoreboard
    response = client.get(reverse("deal_new", args=[match.pk]))
    assert response.status_code == 302
    document = export(client, match)
    assert document["finished"] is True and document["winner"] == 1
    assert document["totals"] == [375, 585]
    assert document["rules"]["target"] == 500
    home = client.get("/").content.decode()
    assert home.index("Finished") < home.index("<bdi>Babis</bdi> &amp; <bdi>Dora</bdi>")


def burraco_burraco(suit: str) -> list[str]:
    return [f"{r}{suit}" for r in ("3", "4", "5", "6", "7", "8", "9")]


def test_a_burraco_match_with_corrections(client):
    sign_up(client)
    match = start(client, "burraco", preset="classic", target=600)
    deal1 = {
        "sides": [
            {
                "melds": [burraco_burraco("H")],
                "hand": [],
                "took_pot": True,
                "went_out": True,
                "final_discard": "KD",
            },
            {"melds": [["10S", "JS", "QS", "JK"]], "hand": ["AH", "5D"], "took_pot": True},
        ]
    }
    deal2 = {
        "sides": [
            {"melds": [["7S", "7D", "7C"]], "hand": ["4C"], "took_pot": True},
            {"melds": [["KS", "KD", "KC"]], "hand": [], "took_pot": True},
        ]
    }
    assert saved(enter(client, match, deal1), match)
    assert saved(enter(client, match, deal2), match)
    # deal 1: 45 + 200 + 100 | 60 - 20; deal 2: 15 - 5 | 30
    assert [c["total"] for c in board(client, match)["columns"]] == [345 + 10, 40 + 30]

    # a correction of deal 1: the hand of side 1 was AH and 6D, not 5D
    deal1["sides"][1]["hand"] = ["AH", "6D"]
    response = enter(client, match, deal1, number=1, htmx=True)
    assert saved(response, match)
    shown = board(client, match)
    assert [c["total"] for c in shown["columns"]] == [355, 70]
    assert [row["cells"][1]["running"] for row in shown["rows"]] == [40, 70]

    # refused: a second burraco in deal 1 would have ended the match (620 >= 600) before
    # deal 2 was played
    too_much = json.loads(json.dumps(deal1))
    too_much["sides"][0]["melds"] += [burraco_burraco("S"), ["KS", "KD", "KC"]]
    response = enter(client, match, too_much, number=1)
    assert response.status_code == 200
    html = response.content.decode()
    assert "this correction would make deal 2 illegal" in html
    assert "no deal may be added" in html

    # refused: a third copy of a card in one deal
    copies = json.loads(json.dumps(deal1))
    copies["sides"][1]["melds"].append(["KS", "KS", "KC"])
    copies["sides"][1]["hand"].append("KS")
    response = enter(client, match, copies, number=1)
    assert response.status_code == 200
    html = response.content.decode()
    assert "K♠ is recorded 3 times" in html and "the 2 packs hold 2" in html
    assert [c["total"] for c in board(client, match)["columns"]] == [355, 70]

    # delete the last deal, with its confirm step; then Undo puts it back
    url = reverse("match_detail", args=[match.pk])
    assert "Delete deal 2? The deals after it move up one" in client.get(url).content.decode()
    client.post(url, {"action": "delete", "number": 2})
    assert [c["total"] for c in board(client, match)["columns"]] == [345, 40]
    undo = re.search(r'name="change" value="(\d+)"', client.get(url).content.decode())
    client.post(url, {"action": "undo", "change": undo.group(1)})
    assert [c["total"] for c in board(client, match)["columns"]] == [355, 70]


def barbu_series() -> list[dict]:
    """Anna's series: doubles everywhere, a redouble in two deals."""
    everyone_on_anna = [{"by": s, "on": 0} for s in (1, 2, 3)]
    return [
        {  # worked example 2 of rules.md: a maximum, a double and a redouble
            "contract": "no_queens",
            "doubles": [
                {"by": 1, "on": 0},
                {"by": 1, "on": 2},
                {"by": 1, "on": 3},
                {"by": 2, "on": 0, "redoubled": True},
            ],
            "queens": [1, 0, 1, 2],
        },
        {"contract": "no_tricks", "doubles": everyone_on_anna, **BARBU_DATA["no_tricks"]},
        {"contract": "no_hearts", "doubles": everyone_on_anna, **BARBU_DATA["no_hearts"]},
        {"contract": "barbu", "doubles": everyone_on_anna, **BARBU_DATA["barbu"]},
        {"contract": "no_last_two", "doubles": everyone_on_anna, **BARBU_DATA["no_last_two"]},
        {  # worked example 3: trumps, two doubles on the declarer, one redoubled
            "contract": "trumps",
            "doubles": [
                {"by": 1, "on": 0, "redoubled": True},
                {"by": 2, "on": 0},
                {"by": 3, "on": 0},
            ],
            "trump": "H",
            "tricks": [6, 3, 2, 2],
        },
        {"contract": "domino", "doubles": everyone_on_anna, **BARBU_DATA["domino"]},
    ]


def test_a_barbu_series_with_doubles_and_redoubles(client):
    sign_up(client)
    match = start(
        client,
        "barbu",
        variant="classic",
        rotation="series",
        compulsory_doubles="enforce",
        undoubled_negative="split",
    )
    series = barbu_series()
    assert saved(enter(client, match, series[0]), match)
    shown = board(client, match)
    assert [c["total"] for c in shown["columns"]] == [-12, 24, -12, -24]
    assert shown["next"]["declarer"] == "Anna"
    assert "No queens" not in [str(c) for c in shown["next"]["contracts"]]
    for deal in series[1:]:
        assert saved(enter(client, match, deal, htmx=True), match)

    shown = board(client, match)
    document = export(client, match)
    assert sum(document["totals"]) == -26 - 30 - 24 - 20 - 30 + 65 + 65
    assert [c["total"] for c in shown["columns"]] == document["totals"]
    assert document["deals"][5]["score"]["doubles"][0] == 2 * (30 - 15) + (30 - 10) + (30 - 10)
    assert shown["next"]["number"] == 8 and shown["next"]["of"] == 28
    assert shown["next"]["declarer"] == "Babis"
    assert len(shown["next"]["contracts"]) == 7
    html = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    html = html.replace("<bdi>", "").replace("</bdi>", "")  # names are isolated: test_names.py
    assert "Deal 8 of 28" in html and "<strong>Babis</strong> declares" in html
    # the doubles of each deal are in its breakdown, which its row loads when opened
    shown_doubles = ""
    for number in range(1, 8):
        answer = client.get(reverse("deal_breakdown", args=[match.pk, number]), headers=HTMX)
        shown_doubles += answer.content.decode().replace("<bdi>", "").replace("</bdi>", "")
    assert "Chris doubled Anna, Anna redoubled" in shown_doubles
    assert "Babis doubled Anna, Anna redoubled" in shown_doubles

    # a contract Anna already named is refused on the entry page, and nothing is stored
    response = enter(client, match, series[1])
    assert response.status_code == 200
    assert Match.objects.get(pk=match.pk).deal_count == 7

    # the exported series imports back as the same document
    upload = io.BytesIO(json.dumps(document).encode())
    upload.name = "barbu.json"
    response = client.post("/matches/import/", {"file": upload})
    copy = Match.objects.latest("created")
    assert response["Location"] == reverse("match_detail", args=[copy.pk])
    assert export(client, copy) == document
