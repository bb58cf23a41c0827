"""What the scoreboard shows, read from the rules core's values: each notice under the deal its
place names, and each business of a Barbu deal with the gainer the rules name (nobody when the
two players are even)."""

from __future__ import annotations

import pytest

from scorekeeper import services
from scorekeeper.rules.barbu import SettlementLine
from scorekeeper.scoreboard import scoreboard
from scorekeeper.selectors import match_scored

pytestmark = pytest.mark.django_db

UNDOUBLED = ("no_tricks", "no_hearts", "no_queens", "barbu", "no_last_two")


def board_of(match):
    parsed, result, exported = match_scored(match)
    return scoreboard(match, parsed.header, result, exported), result, exported


def test_a_notice_is_shown_under_the_deal_its_place_names(make_match):
    match = make_match("barbu", rules={"compulsory_doubles": "warn"})
    for contract in UNDOUBLED:
        services.deal_record(match=match, data={"contract": contract, "doubles": []})
    services.deal_record(
        match=match,
        data={"contract": "trumps", "doubles": [], "trump": "S", "tricks": [4, 3, 3, 3]},
    )
    board, result, _ = board_of(match)
    assert [n.place.deal for n in result.notices] == [6, 6, 6]
    shown = {row["number"]: [n["code"] for n in row["notices"]] for row in board["rows"]}
    assert shown == {1: [], 2: [], 3: [], 4: [], 5: [], 6: ["compulsory_doubles"] * 3}
    assert board["notices"] == []
    assert "Babis must double Anna" in board["rows"][5]["notices"][0]["message"]


def test_a_business_between_two_players_who_took_the_same_has_no_gainer(make_match):
    match = make_match("barbu")
    services.deal_record(
        match=match,
        data={
            "contract": "no_tricks",
            # Babis and Chris take 3 tricks each: their business moves nothing
            "doubles": [{"by": 1, "on": 0}, {"by": 1, "on": 2}, {"by": 3, "on": 1}],
            "tricks": [4, 3, 3, 3],
        },
    )
    board, _, exported = board_of(match)
    lines = {(s["by"], s["on"]): s for s in board["rows"][0]["settlement"]}
    assert lines[("Babis", "Anna")] == {
        "by": "Babis",
        "on": "Anna",
        "factor": 1,
        "amount": 2,
        "winner": "Babis",
        "gain": 2,
    }
    assert (lines[("Babis", "Chris")]["winner"], lines[("Babis", "Chris")]["gain"]) == ("", 0)
    assert lines[("Babis", "Chris")]["amount"] == 0
    assert (lines[("Dora", "Babis")]["winner"], lines[("Dora", "Babis")]["gain"]) == ("", 0)
    # the scoreboard names whom the rules name, line by line
    for shown, raw in zip(
        board["rows"][0]["settlement"], exported["deals"][0]["score"]["settlement"], strict=True
    ):
        gainer = SettlementLine.from_json(raw).gainer
        assert shown["winner"] == (
            "" if gainer is None else ["Anna", "Babis", "Chris", "Dora"][gainer]
        )


def test_the_payer_of_a_business_is_never_shown_as_its_gainer(make_match):
    match = make_match("barbu")
    services.deal_record(
        match=match,
        data={
            "contract": "no_queens",
            "doubles": [{"by": 1, "on": 0}, {"by": 2, "on": 3, "redoubled": True}],
            "queens": [0, 3, 0, 1],
        },
    )
    board, _, _ = board_of(match)
    lines = {(s["by"], s["on"]): s for s in board["rows"][0]["settlement"]}
    # Babis doubled Anna and took 3 queens to her none: Anna gains 18 (6 × 3)
    assert (lines[("Babis", "Anna")]["winner"], lines[("Babis", "Anna")]["gain"]) == ("Anna", 18)
    assert lines[("Babis", "Anna")]["amount"] == -18
    # Chris doubled Dora, Dora redoubled, Dora took the queen: Chris gains 12 (2 × 6)
    assert (lines[("Chris", "Dora")]["winner"], lines[("Chris", "Dora")]["gain"]) == ("Chris", 12)


@pytest.mark.parametrize(("game", "pot"), [("biriba", "biribaki"), ("burraco", "pozzetto")])
def test_the_breakdown_names_the_pot_by_its_game(auth_client, make_match, game, pot):
    from django.urls import reverse

    from scorekeeper import services

    match = make_match(game)
    sides = [
        {"totals": {"melded": 300, "in_hand": 0, "bonuses": {}}, "took_pot": True},
        {"totals": {"melded": 100, "in_hand": 20, "bonuses": {}}, "took_pot": False},
    ]
    deal = {"sides": sides, **({"trump": None} if game == "biriba" else {})}
    services.deal_record(match=match, data=deal, by="Anna")
    page = auth_client.get(reverse("deal_breakdown", args=[match.pk, 1])).content.decode()
    assert f"{pot} never taken" in page and "pot never taken" not in page
    assert f"Never took the {pot}." in page
