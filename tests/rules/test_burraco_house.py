"""Burraco house values (rules.md "Burraco house values"): ``card_values`` and
``burraco_bonuses``, how they count on the table, in hand and in a side entered as totals, the
checks that depend on them, every refusal, and how the rules are written back."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules import burraco
from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.match import score_document

FOUR = ["Anna", "Babis", "Chris", "Dora"]


def doc(deals: list, rules: dict, players=FOUR) -> dict:
    return {
        "format": "scorekeeper-match/1",
        "game": "burraco",
        "rules": rules,
        "players": list(players),
        "deals": deals,
    }


def side(melds=(), hand="", took_pot=True, went_out=False, **extra: Any) -> dict:
    return {
        "melds": [m.split() for m in melds],
        "hand": hand.split(),
        "took_pot": took_pot,
        "went_out": went_out,
    } | extra


def refused(d: dict) -> RuleError:
    with pytest.raises(RuleError) as e:
        score_document(copy.deepcopy(d))
    return e.value


EX1 = {
    "sides": [
        side(["3H 4H 5H 6H 7H 8H 9H", "KS KD KC"], "4C QD", went_out=True),
        side(["10S JS QS JK", "7S 7D 7C"], "AH 2C 5D KS"),
    ]
}


def totals_of(d: dict) -> list[list[int]]:
    return [[s["total"] for s in deal["score"]["sides"]] for deal in d["deals"]]


# --- the worked examples -------------------------------------------------------------------------


def test_example_1_house_card_values_and_bonuses():
    rules = {
        "card_values": {"JK": 50, "2": 25},
        "burraco_bonuses": {"clean_burraco": 300, "dirty_burraco": 150},
    }
    scored = score_document(doc([EX1], rules))
    assert totals_of(scored) == [[460, 40]]
    first, second = scored["deals"][0]["score"]["sides"]
    assert (first["melded"], first["bonuses"], first["in_hand"]) == (75, 300, -15)
    assert (second["melded"], second["in_hand"]) == (95, -55)
    assert second["melds"][0]["points"] == 80  # 10S JS QS and the joker at 50
    assert score_document(doc([EX1], {}))["totals"] == [360, 25]


def test_example_2_house_bonuses_beside_the_preset():
    rules = {
        "preset": "fibur",
        "burraco_bonuses": {"semi_clean_burraco": 175},
        "going_out_bonus": 150,
        "no_pot_penalty": 200,
    }
    deal = {
        "sides": [
            side(["5D 6D 7D 8D 9D 10D JD JK", "QS KS AS"], went_out=True),
            side(["4C 5C 6C"], "KH 9H", took_pot=False),
        ]
    }
    scored = score_document(doc([deal], rules))
    assert totals_of(scored) == [[445, -205]]
    meld = scored["deals"][0]["score"]["sides"][0]["melds"][0]
    assert (meld["bonus"], meld["bonus_points"]) == ("semi_clean_burraco", 175)


# --- how they count --------------------------------------------------------------------------


def test_standard_is_the_default_and_equal_values_are_standard():
    assert burraco.parse_rules({"card_values": "standard"}) == burraco.parse_rules({})
    same = {"card_values": {"JK": 30, "A": 15}, "burraco_bonuses": {"clean_burraco": 200}}
    assert burraco.parse_rules(same) == burraco.parse_rules({})
    assert burraco.rules_json(burraco.parse_rules(same)) == burraco.rules_json(
        burraco.parse_rules({})
    )


def test_a_two_is_worth_its_value_wild_or_natural_on_the_table_and_in_hand():
    rules = burraco.parse_rules({"card_values": {"2": 40, "A": 25, "3": 0}})
    natural = burraco.meld_score("AC 2C 3C", rules)
    wild = burraco.meld_score("AC 2H 3C", rules)
    assert natural.card_points == wild.card_points == 25 + 40 + 0
    assert burraco.hand_points(["2D", "AS", "3S", "KD"], rules) == -(40 + 25 + 0 + 10)


def test_a_semi_clean_bonus_counts_only_with_semipulito():
    rules = {"burraco_bonuses": {"semi_clean_burraco": 175}}
    deal = {"sides": [side(["5D 6D 7D 8D 9D 10D JD JK"]), side()]}
    meld = score_document(doc([deal], rules))["deals"][0]["score"]["sides"][0]["melds"][0]
    assert (meld["bonus"], meld["bonus_points"]) == ("dirty_burraco", 100)
    on = score_document(doc([deal], rules | {"semipulito": True}))
    meld = on["deals"][0]["score"]["sides"][0]["melds"][0]
    assert (meld["bonus"], meld["bonus_points"]) == ("semi_clean_burraco", 175)


def test_a_side_entered_as_totals_counts_its_bonuses_at_the_house_values():
    rules = {"burraco_bonuses": {"clean_burraco": 250, "dirty_burraco": 0}}
    entered = {
        "totals": {
            "melded": 200,
            "in_hand": 10,
            "bonuses": {"clean_burraco": 1, "dirty_burraco": 2},
        },
        "took_pot": True,
    }
    scored = score_document(doc([{"sides": [entered, side()]}], rules))
    assert scored["totals"] == [200 + 250 - 10, 0]


def test_the_checks_follow_the_house_values():
    """The pack is worth more with a dearer joker; the least meld behind a bonus is cheaper
    with cheaper cards."""
    dear = {"card_values": {"JK": 100}}  # 1080 + 4 x 70
    many = {"totals": {"melded": 1300, "in_hand": 0}, "took_pot": True}
    assert refused(doc([{"sides": [many, side()]}], {})).code == "totals_exceed_pack"
    assert score_document(doc([{"sides": [many, side()]}], dear))["totals"] == [1300, 0]
    cheap = {"card_values": {r: 0 for r in ("3", "4", "5", "6", "7", "8", "9")}}
    burraco_for_nothing = {
        "totals": {"melded": 0, "in_hand": 0, "bonuses": {"clean_burraco": 1}},
        "took_pot": True,
    }
    deal = {"sides": [burraco_for_nothing, side()]}
    assert refused(doc([deal], {})).code == "totals_bonuses_exceed_melded"
    assert score_document(doc([deal], cheap))["totals"] == [200, 0]


@given(
    values=st.dictionaries(
        st.sampled_from(burraco.RANK_CODES), st.integers(0, 40).map(lambda n: 5 * n)
    ),
    hand=st.lists(st.sampled_from(["JK", "2S", "AH", "KD", "10C", "9S", "3D"]), unique=True),
)
def test_house_values_keep_every_total_a_multiple_of_5(values, hand):
    rules = {"card_values": values}
    deal = {"sides": [side(["3H 4H 5H 6H 7H 8H 9H", "KS KD JK"], " ".join(hand)), side()]}
    scored = score_document(doc([deal], rules))
    total = scored["totals"][0]
    assert total % 5 == 0
    worth = burraco.card_values(burraco.parse_rules(rules))
    melded = sum(worth[r] for r in ("3", "4", "5", "6", "7", "8", "9", "K", "K", "JK"))
    held = sum(worth[c[:-1] if c != "JK" else "JK"] for c in hand)
    assert total == melded + 200 - held


# --- writing the rules back --------------------------------------------------------------------


def test_the_rules_written_with_house_values():
    rules = burraco.parse_rules(
        {"card_values": {"JK": 50, "2": 25}, "burraco_bonuses": {"dirty_burraco": 150}}
    )
    written = burraco.rules_json(rules)
    assert written["card_values"] == {
        "JK": 50,
        "2": 25,
        "A": 15,
        "K": 10,
        "Q": 10,
        "J": 10,
        "10": 10,
        "9": 10,
        "8": 10,
        "7": 5,
        "6": 5,
        "5": 5,
        "4": 5,
        "3": 5,
    }
    assert list(written["card_values"]) == list(burraco.RANK_CODES)
    assert written["burraco_bonuses"] == {
        "clean_burraco": 200,
        "semi_clean_burraco": 150,
        "dirty_burraco": 150,
    }
    assert burraco.parse_rules(written) == rules
    plain = burraco.rules_json(burraco.parse_rules({}))
    assert "card_values" not in plain and "burraco_bonuses" not in plain


# --- refusals ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "code", "where", "mention", "good"),
    [
        (
            {"card_values": "greek_wikipedia"},
            "bad_card_values",
            ("card_values",),
            '"greek_wikipedia"',
            {"card_values": "standard"},
        ),
        (
            {"card_values": "house"},
            "bad_card_values",
            ("card_values",),
            '"house"',
            {"card_values": {}},
        ),
        ({"card_values": 5}, "bad_type", ("card_values",), "a number", {"card_values": {"5": 5}}),
        (
            {"card_values": {"1": 10}},
            "unknown_key",
            ("card_values",),
            '"1"',
            {"card_values": {"A": 10}},
        ),
        (
            {"card_values": {"T": 10}},
            "unknown_key",
            ("card_values",),
            '"T"',
            {"card_values": {"10": 10}},
        ),
        (
            {"card_values": {"JK": -5}},
            "bad_house_value",
            ("card_values",),
            "-5",
            {"card_values": {"JK": 0}},
        ),
        (
            {"card_values": {"K": 12}},
            "bad_house_value",
            ("card_values",),
            "12 cannot be the value of kings",
            {"card_values": {"K": 15}},
        ),
        (
            {"card_values": {"K": 12.5}},
            "bad_house_value",
            ("card_values",),
            "12.5",
            {"card_values": {"K": 10}},
        ),
        (
            {"card_values": {"K": "10"}},
            "bad_house_value",
            ("card_values",),
            '"10"',
            {"card_values": {"K": 10}},
        ),
        (
            {"card_values": {"K": True}},
            "bad_house_value",
            ("card_values",),
            "true",
            {"card_values": {"K": 10}},
        ),
        (
            {"card_values": {"K": None}},
            "bad_house_value",
            ("card_values",),
            "null",
            {"card_values": {"K": 10}},
        ),
        (
            {"burraco_bonuses": {"pulito": 300}},
            "unknown_key",
            ("burraco_bonuses",),
            '"pulito"',
            {"burraco_bonuses": {"clean_burraco": 300}},
        ),
        (
            {"burraco_bonuses": {"clean_burraco": 303}},
            "bad_house_value",
            ("burraco_bonuses",),
            "clean burraco",
            {"burraco_bonuses": {"clean_burraco": 305}},
        ),
        (
            {"burraco_bonuses": {"dirty_burraco": -100}},
            "bad_house_value",
            ("burraco_bonuses",),
            "-100",
            {"burraco_bonuses": {"dirty_burraco": 0}},
        ),
        (
            {"burraco_bonuses": "standard"},
            "bad_type",
            ("burraco_bonuses",),
            "a string",
            {"burraco_bonuses": {}},
        ),
    ],
)
def test_every_refusal_names_the_field(rules, code, where, mention, good):
    error = refused(doc([EX1], rules))
    assert error.code == code
    assert error.where == ("rules", *where)
    assert error.place.field == "rules" and error.place.key == where[0]
    assert error.place.deal is None
    assert mention in error.message, error.message
    assert score_document(doc([EX1], good))["finished"] is False
