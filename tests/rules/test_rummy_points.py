"""A side given by its points for the deal alone (``{"totals": {"points": N}}``): what a table
that keeps only the score writes. Scored as it is, checked as far as a figure can be (a
multiple of 5, within what a side can score in a deal, not beside other totals, going out
with its pot), written back as it came; each refusal beside a near miss."""

from __future__ import annotations

import pytest

from scorekeeper.rules import biriba, burraco, rummy
from scorekeeper.rules.errors import RuleError, english
from scorekeeper.rules.match import parse_document, score_document

FOUR = ["Anna", "Babis", "Chris", "Dora"]


def document(game: str, *sides: dict, rules: dict | None = None) -> dict:
    deal: dict = {"sides": list(sides)}
    if game == "biriba":
        deal["trump"] = None
    return {
        "format": "scorekeeper-match/1",
        "game": game,
        "players": FOUR,
        "rules": rules or {"target": 3000},
        "deals": [deal],
    }


def counted(points: int, **extra) -> dict:
    return {"totals": {"points": points}} | extra


CARDS = {"melds": [["3H", "4H", "5H"]], "hand": ["KD"], "took_pot": True, "went_out": False}


@pytest.mark.parametrize("game", ["biriba", "burraco"])
def test_a_side_scores_its_figure_and_nothing_else(game):
    scored = score_document(document(game, counted(445, went_out=True), counted(-35)))
    assert scored["totals"] == [445, -35]
    first, second = scored["deals"][0]["score"]["sides"]
    assert first["form"] == second["form"] == "points"
    assert (first["counted"], first["going_out"], first["no_pot"]) == (445, 0, 0)
    assert (second["counted"], second["no_pot"]) == (-35, 0)  # the pot is in the figure


@pytest.mark.parametrize("game", ["biriba", "burraco"])
def test_a_figure_beside_a_side_given_as_cards(game):
    scored = score_document(document(game, counted(150), CARDS))
    assert scored["totals"][0] == 150
    assert scored["deals"][0]["score"]["sides"][1]["form"] == "cards"


def test_the_document_is_written_back_as_it_came():
    doc = document("biriba", counted(445, went_out=True, took_pot=True), counted(-35))
    parsed = parse_document(doc)
    sides = parsed.deals[0].sides
    assert sides[0] == rummy.CountedSide(445, True, True)
    assert sides[1] == rummy.CountedSide(-35, None, False)  # the pot not said
    assert [rummy.side_json(s) for s in sides] == [
        {"totals": {"points": 445}, "took_pot": True, "went_out": True},
        {"totals": {"points": -35}, "went_out": False},
    ]


@pytest.mark.parametrize(
    ("bad", "good", "code", "mentions"),
    [
        (counted(447), counted(445), "not_multiple_of_5", ["447", "multiple of 5"]),
        (counted(-17), counted(-15), "not_multiple_of_5", ["-17"]),
        (
            {"totals": {"points": 445, "melded": 445}},
            counted(445),
            "points_and_totals",
            ["melded", "not both"],
        ),
        (
            {"totals": {"points": 445, "bonuses": {}}},
            counted(445),
            "points_and_totals",
            ["bonuses"],
        ),
        (
            counted(445, went_out=True, took_pot=False),
            counted(445, went_out=True),
            "went_out_without_pot",
            ["went out", "biribaki"],
        ),
        ({"totals": {"points": "445"}}, counted(445), "bad_type", ["points"]),
    ],
)
def test_each_refusal_beside_a_near_miss(bad, good, code, mentions):
    with pytest.raises(RuleError) as refused:
        score_document(document("biriba", bad, counted(-35)))
    assert refused.value.code == code
    message = english(refused.value)
    assert message.startswith("deal 1, Anna & Chris")
    for word in mentions:
        assert word in message
    score_document(document("biriba", good, counted(-35)))


@pytest.mark.parametrize(
    ("game", "scoring"),
    [
        ("biriba", biriba.Scoring(biriba.parse_rules({}))),
        ("burraco", burraco.Scoring(burraco.parse_rules({}))),
    ],
)
def test_a_figure_out_of_any_deals_reach_is_refused_and_the_edges_are_not(game, scoring):
    least, most = rummy.counted_limits(scoring)
    assert least == -(rummy.pack_points(scoring) + scoring.no_pot_penalty)
    assert most > rummy.pack_points(scoring)
    for points in (least, most):
        score_document(document(game, counted(points), counted(0)))
    for points in (least - 5, most + 5):
        with pytest.raises(RuleError) as refused:
            score_document(document(game, counted(points), counted(0)))
        assert refused.value.code == "points_out_of_reach"
        assert str(points) in english(refused.value)


def test_a_figure_records_no_closing_discard():
    bad = counted(445, went_out=True, final_discard="KD")
    with pytest.raises(RuleError) as refused:
        score_document(document("burraco", bad, counted(-35)))
    assert refused.value.code == "counted_and_discard"
    score_document(document("burraco", counted(445, went_out=True), counted(-35)))


def test_two_sides_out_is_refused_with_figures_too():
    with pytest.raises(RuleError) as refused:
        score_document(document("biriba", counted(445, went_out=True), counted(5, went_out=True)))
    assert refused.value.code == "two_sides_out"


def test_whether_a_side_took_its_pot_as_its_document_says_it():
    from scorekeeper.rules.rummy import pot_taken

    assert pot_taken({"totals": {"points": 120}}) is None  # the figure holds it: not said
    assert pot_taken({"totals": {"points": 120}, "took_pot": False}) is False
    assert pot_taken({"totals": {"points": 120}, "took_pot": True}) is True
    assert pot_taken({"totals": {"melded": 100, "in_hand": 0}}) is False  # left out: not taken
    assert pot_taken({"melds": [], "hand": [], "took_pot": True}) is True
