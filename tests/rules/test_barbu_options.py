"""Barbu house rules: defaults, every option resolved, refusals that name the option."""

import pytest

from scorekeeper.rules import barbu
from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.match import parse_document, rules_with_defaults

DEFAULTS = {
    "variant": "classic",
    "rotation": "series",
    "domino_payouts": [45, 20, 5, -5],
    "compulsory_doubles": "enforce",
    "undoubled_negative": "split",
}


def test_defaults():
    assert barbu.rules_json(barbu.parse_rules({})) == DEFAULTS
    assert rules_with_defaults("barbu") == DEFAULTS


def test_ravage_city_has_its_own_domino_payouts():
    rules = barbu.parse_rules({"variant": "ravage_city"})
    assert rules.domino_payouts == (50, 25, 10, 0)


@pytest.mark.parametrize(
    ("raw", "expect"),
    [
        ({"variant": "salade"}, {"variant": "salade", "domino_payouts": None}),
        (
            {"variant": "king", "rotation": "series", "compulsory_doubles": "enforce"},
            {
                "variant": "king",
                "rotation": "quick",
                "domino_payouts": None,
                "compulsory_doubles": "off",
                "undoubled_negative": "play",
            },
        ),
        ({"rotation": "quick", "compulsory_doubles": "warn"}, {"rotation": "quick"}),
        ({"undoubled_negative": "play", "compulsory_doubles": "off"}, {}),
        ({"domino_payouts": [40, 20, 5, 0]}, {"domino_payouts": [40, 20, 5, 0]}),
        ({"domino_payouts": None}, {}),
    ],
)
def test_options_resolve_and_round_trip(raw, expect):
    rules = barbu.parse_rules(raw)
    written = barbu.rules_json(rules)
    assert written == DEFAULTS | {k: v for k, v in raw.items() if v is not None} | expect
    assert barbu.parse_rules(written) == rules


@pytest.mark.parametrize(
    ("raw", "code", "where"),
    [
        ({"colour": "red"}, "unknown_key", ("rules", "colour")),
        ({"variant": "chinese_poker"}, "bad_choice", ("rules", "variant")),
        ({"rotation": "slow"}, "bad_choice", ("rules", "rotation")),
        ({"compulsory_doubles": True}, "bad_type", ("rules", "compulsory_doubles")),
        ({"undoubled_negative": "skip"}, "bad_choice", ("rules", "undoubled_negative")),
        ({"domino_payouts": [45, 20, 5]}, "bad_length", ("rules", "domino_payouts")),
        ({"domino_payouts": [45, 20, 5, "x"]}, "bad_type", ("rules", "domino_payouts[3]")),
        ({"domino_payouts": [45, 20, 5, 0]}, "domino_payouts_total", ("rules", "domino_payouts")),
        ({"domino_payouts": [5, 20, 45, -5]}, "domino_payouts_order", ("rules", "domino_payouts")),
        (
            {"variant": "ravage_city", "domino_payouts": [45, 20, 5, -5]},
            "domino_payouts_total",
            ("rules", "domino_payouts"),
        ),
        (
            {"variant": "salade", "domino_payouts": [45, 20, 5, -5]},
            "domino_payouts_unused",
            ("rules", "domino_payouts"),
        ),
    ],
)
def test_bad_options_are_refused_naming_the_key(raw, code, where):
    doc = {
        "format": "scorekeeper-match/1",
        "game": "barbu",
        "rules": raw,
        "players": ["Anna", "Babis", "Chris", "Dora"],
        "deals": [],
    }
    with pytest.raises(RuleError) as caught:
        parse_document(doc)
    assert caught.value.code == code
    assert caught.value.where == where


def test_ravage_city_payouts_keep_its_total():
    rules = barbu.parse_rules({"variant": "ravage_city", "domino_payouts": [55, 25, 5, 0]})
    assert rules.domino_payouts == (55, 25, 5, 0)


def test_barbu_is_played_by_four():
    doc = {
        "format": "scorekeeper-match/1",
        "game": "barbu",
        "players": ["Anna", "Babis", "Chris"],
        "deals": [],
    }
    with pytest.raises(RuleError) as caught:
        parse_document(doc)
    assert caught.value.code == "player_count"
