"""The worked examples of rules.md (Biriba and Burraco) as match documents, scored exactly.

The documents are kept in the repository (tests/data/rummy/, copied from the shared examples):
each is ``{"name", "doc", "expect"}`` where ``expect`` holds the deal totals, totals, finished
and winner (and the victory points of a Burraco match of ``match_deals`` deals), or
``{"refused": true, "mention": ...}``. Burraco for three has its examples in
test_burraco_three.py (its sides change from deal to deal, which test_places' sweep of these
files does not know).
"""

import copy
import json
import pathlib

import pytest

from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.match import score_document

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "rummy"
EXAMPLES = sorted(DATA.glob("*.json"))

#: The code each refused example must be refused with.
REFUSED_CODES = {"biriba-ex3-two-wilds": "two_wilds", "biriba-ex4-sets-off": "sets_off"}


def load(path: pathlib.Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def test_every_worked_example_is_here():
    names = {p.stem for p in EXAMPLES}
    assert {f"biriba-ex{n}" for n in (1, 2, 3, 5)} <= names
    assert {"biriba-ex3-two-wilds", "biriba-ex4-sets", "biriba-ex4-sets-off"} <= names
    assert {"burraco-ex1", "burraco-ex2-classic", "burraco-ex2-fibur"} <= names
    assert {"burraco-ex3", "burraco-ex4"} <= names
    assert {"burraco-vp-ex1-three-deals", "burraco-vp-ex2-four-deals-edge"} <= names
    assert "burraco-vp-ex3-custom-table" in names
    assert {"burraco-house-ex1-values", "burraco-house-ex2-bonuses"} <= names


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_worked_example(path):
    case = load(path)
    expect = case["expect"]
    if expect.get("refused"):
        with pytest.raises(RuleError) as e:
            score_document(case["doc"])
        assert expect["mention"] in e.value.message
        assert e.value.code == REFUSED_CODES[case["name"]]
        return
    out = score_document(case["doc"])
    deal_totals = [[s["total"] for s in d["score"]["sides"]] for d in out["deals"]]
    assert deal_totals == expect["deal_totals"]
    assert out["totals"] == expect["totals"]
    assert out["finished"] == expect["finished"]
    assert out["winner"] == expect["winner"]
    if "victory_points" in expect:
        assert out["victory_points"] == expect["victory_points"]


@pytest.mark.parametrize(
    "path", [p for p in EXAMPLES if "refused" not in load(p)["expect"]], ids=lambda p: p.stem
)
def test_worked_example_scores_again_the_same(path):
    doc = load(path)["doc"]
    once = score_document(copy.deepcopy(doc))
    again = score_document(copy.deepcopy(once))
    assert again == once


def test_example_3_reports_what_each_wild_stands_for():
    out = score_document(load(DATA / "biriba-ex3.json")["doc"])
    melds = out["deals"][0]["score"]["sides"][0]["melds"]
    assert [(m["wild"], m["stands_for"], m["purity"]) for m in melds] == [
        ("2H", "8S", "dirty"),
        ("JK", "4D", "dirty"),
    ]
    assert [(m["points"], m["bonus"], m["bonus_points"]) for m in melds] == [
        (55, "dirty_trump_biriba", 200),
        (65, "dirty_biriba", 100),
    ]


def test_example_2_fibur_reports_the_semipulito():
    out = score_document(load(DATA / "burraco-ex2-fibur.json")["doc"])
    first, second = (s["melds"][0] for s in out["deals"][0]["score"]["sides"])
    assert (first["purity"], first["wild_place"], first["stands_for"]) == (
        "semi_clean",
        "above",
        "QD",
    )
    assert (second["purity"], second["wild_place"], second["stands_for"]) == (
        "dirty",
        "gap",
        "8S",
    )
