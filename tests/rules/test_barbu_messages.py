"""Issue 12's Barbu refusals as a player reads them (scorekeeper/rule_messages.py): every new
template renders with its parameters in each of the site's languages (English until the lead
translates them), its place said again with numbers counted from 1 and no JSON key the site
has a word for. The renderer is the site's (Django's translation), so this file imports it;
the rules core itself stays free of Django."""

from __future__ import annotations

import ast
import pathlib
import re

import pytest
from django.utils import translation

from scorekeeper import rule_messages as rm
from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.match import rules_with_defaults, score_document

PLACEHOLDER = re.compile(r"\{[a-z_]+\}")
FOUR = ["Anna", "Babis", "Chris", "Dora"]
FIVE = [*FOUR, "Eleni"]
CP = {"chinese_poker": True}
OFF = {"compulsory_doubles": "off"}
LAST_TWO = {
    "contracts": ["salade", "no_tricks"],
    "contract_values": {"salade": {"trick": -1, "last_two": [-10, -20]}},
    "undoubled_negative": "play",
    **OFF,
}
SALADE = {
    "contract": "salade",
    "doubles": [],
    "tricks": [1, 4, 4, 4],
    "hearts": [1, 4, 4, 4],
    "ace_of_hearts": 0,
    "queens": [0, 1, 1, 2],
    "king_of_hearts": 1,
}


def doc(rules, deals=(), players=FOUR):
    return {
        "format": "scorekeeper-match/1",
        "game": "barbu",
        "rules": rules,
        "players": players,
        "deals": list(deals),
    }


#: A whole match of two contracts (8 deals), and a ninth deal
OVER = [
    {"contract": "no_tricks", "doubles": [], "tricks": [4, 3, 3, 3]},
    {"contract": "barbu", "doubles": [], "king_of_hearts": 0},
] * 4 + [{"contract": "no_tricks", "doubles": [], "tricks": [4, 3, 3, 3]}]


def cp(net, doubles=()):
    return {"contract": "chinese_poker", "doubles": list(doubles), "net": net}


#: One document for each new refusal (code, a word its English message shows).
CASES = {
    "five players": (doc({}, players=FIVE), "five_players_salade"),
    "five players, rules alone": (None, "five_players_salade"),
    "five, a contract they do not play": (
        doc({"variant": "salade", "contracts": ["no_tricks", "domino"]}, players=FIVE),
        "contracts_five_players",
    ),
    "king": (doc({"variant": "king", "contracts": ["no_tricks"]}), "king_no_house_values"),
    "chinese poker in salade": (doc(CP | {"variant": "salade"}), "chinese_poker_variant"),
    "chinese poker beside contracts": (
        doc(CP | {"contracts": ["no_tricks", "barbu"]}),
        "chinese_poker_beside_contracts",
    ),
    "one contract": (doc({"contracts": ["barbu"]}), "contracts_one_compulsory"),
    "no contract": (doc({"contracts": []}), "contracts_empty"),
    "unknown contract": (doc({"contracts": ["barbu", "no_spades"]}), "contracts_unknown"),
    "king contract": (doc({"contracts": ["barbu", "no_boys"]}), "contracts_king"),
    "twice": (doc({"contracts": ["barbu", "barbu"]}), "contracts_twice"),
    "no values": (doc({"contracts": ["barbu", "salade"]}), "contracts_without_values"),
    "multiplier unused": (doc({"chinese_poker_multiplier": 2}), "chinese_poker_multiplier_unused"),
    "payouts twice": (
        doc({"contract_values": {"domino": {"payouts": [1, 2, 3, 4]}}, "domino_payouts": [1] * 4}),
        "domino_payouts_beside_values",
    ),
    "values not an object": (doc({"contract_values": 3}), "bad_type"),
    "units not an object": (doc({"contract_values": {"barbu": -80}}), "bad_type"),
    "unknown contract values": (
        doc({"contract_values": {"bogus": {"trick": -1}}}),
        "contract_values_unknown",
    ),
    "chinese poker values": (
        doc(CP | {"contract_values": {"chinese_poker": {"net": 2}}}),
        "contract_values_chinese_poker",
    ),
    "not played": (
        doc({"contract_values": {"salade": {"trick": -1}}}),
        "contract_values_not_played",
    ),
    "unknown unit": (
        doc({"contract_values": {"barbu": {"kh": -80}}}),
        "contract_values_unknown_unit",
    ),
    "missing unit": (doc({"contract_values": {"barbu": {}}}), "contract_values_missing_unit"),
    "empty salade": (
        doc({"contracts": ["salade", "barbu"], "contract_values": {"salade": {}}}),
        "contract_values_empty_salade",
    ),
    "both lasts": (
        doc(
            {
                "contracts": ["salade", "barbu"],
                "contract_values": {"salade": {"last_trick": -1, "last_two": [-1, -2]}},
            }
        ),
        "contract_values_salade_last",
    ),
    "penalty sign": (
        doc({"contract_values": {"barbu": {"king_of_hearts": 80}}}),
        "contract_values_sign",
    ),
    "trump sign": (
        doc({"contract_values": {"trumps": {"trump_trick": -5}}}),
        "contract_values_sign",
    ),
    "entry sign": (
        doc({"contract_values": {"no_last_two": {"last_two": [-10, 20]}}}),
        "contract_values_sign",
    ),
    "most cards": (
        doc({"variant": "ravage_city", "contract_values": {"ravage_city": {"most_cards": -30}}}),
        "contract_values_most_cards",
    ),
    "outside the list": (
        doc({"contracts": ["no_tricks", "barbu"], **OFF}, [{"contract": "trumps", "doubles": []}]),
        "bad_contract",
    ),
    "nets": (doc(CP, [cp([1, 0, 0, 0])]), "net_sum"),
    "last two, no trick": (
        doc(
            LAST_TWO,
            [
                SALADE
                | {"tricks": [0, 5, 4, 4], "hearts": [0, 5, 4, 4]}
                | {"ace_of_hearts": 1, "last_two": [0, 1]}
            ],
        ),
        "last_two_without_tricks",
    ),
    "last two, one trick": (
        doc(LAST_TWO, [SALADE | {"last_two": [0, 0]}]),
        "last_two_without_tricks",
    ),
    "over": (
        doc({"contracts": ["no_tricks", "barbu"], "undoubled_negative": "play", **OFF}, OVER),
        "match_over",
    ),
}


def refusal(case: str) -> RuleError:
    document, _code = CASES[case]
    if document is None:  # the rules alone, at a table of five
        with pytest.raises(RuleError) as caught:
            rules_with_defaults("barbu", {}, seats=5)
        return caught.value
    with pytest.raises(RuleError) as caught:
        score_document(document)
    return caught.value


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("language", ["en", "el", "it", "fr"])
def test_each_new_refusal_reads_as_a_player_would(case, language):
    error = refusal(case)
    assert error.code == CASES[case][1], error.message
    with translation.override(language):
        shown = rm.message(error)
        places = rm.places(error)
    assert shown and not PLACEHOLDER.search(shown), shown  # every parameter filled in
    assert not any("[" in piece for piece in places), places  # entries counted from 1
    if error.place.deal is not None:
        assert places[0] != "deal" and str(error.place.deal) in places[0]


def test_every_template_of_the_house_rules_is_rendered_by_a_case():
    """Each template written in barbu/house.py is met by one of the cases above."""
    source = pathlib.Path(rm.__file__).parent / "rules" / "barbu" / "house.py"
    templates = set()
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "RuleError":
            template = node.args[1]
            if (
                isinstance(template, ast.Constant)
                and template.value != "expected {what}, got {got}"
            ):
                templates.add(template.value)
    met = {refusal(case).template for case in CASES}
    assert templates <= met, templates - met


def test_a_house_value_refusal_names_the_unit_as_written():
    error = refusal("penalty sign")
    with translation.override("en"):
        shown = rm.message(error)
    assert "king_of_hearts" in shown and "\u221280" in shown  # the pages' minus
    entry = refusal("entry sign")
    with translation.override("en"):
        assert rm.places(entry)[-1] == '"no_last_two.last_two", entry 2'


def test_an_enforced_compulsory_double_is_asked_of_the_deal_it_refuses():
    """A probe: deal 6 was refused with "… (doubles so far: 0), and 1 of those deals is left",
    which read as impossible, under a banner that said "must double now". The refusal names
    this deal as the one to mend, and what is owed."""
    from tests.rules.test_barbu_chinese_poker import DATA

    contracts = ["no_tricks", "no_hearts", "no_queens", "barbu", "no_last_two", "trumps"]
    # Anna declares; Chris and Dora double her each deal, Babis never
    deals = [
        {"contract": c, "doubles": [{"by": 2, "on": 0}, {"by": 3, "on": 0}], **DATA[c]}
        for c in contracts
    ]
    with pytest.raises(RuleError) as refused:
        score_document(doc({}, deals))
    error = refused.value
    assert error.code == "compulsory_doubles" and error.place.deal == 6
    with translation.override("en"):
        text = rm.text(error)
    assert "Babis must double Anna in this deal: Babis owes 2 of the 2 compulsory doubles" in text
    assert text.endswith("and after this one 1 of the deals Anna declares is left")
    # the double it asks for mends it
    deals[-1]["doubles"].append({"by": 1, "on": 0})
    score_document(doc({}, deals))
