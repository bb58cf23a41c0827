"""Barbu house values (rules.md, "Additions": family rules): a house list of ``contracts``,
``contract_values`` per unit, the salade's ``last_two``, signs, multiples of 12, the
zero-sum check only when the contracts' totals add up to 0, and what the site shows
(``match_values``).

Each refusal comes with a near miss that is accepted; a refusal about the rules names the
field (``rules``, the key, and inside ``contract_values`` the contract and unit as written),
a refusal about a deal names the deal."""

import pytest

from scorekeeper.rules import barbu
from scorekeeper.rules.barbu import Contract
from scorekeeper.rules.base import MatchHeader
from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.match import parse_document, score_document, score_document_full
from tests.rules.test_barbu_deals import DATA, PLAYERS, doc

OFF = {"compulsory_doubles": "off"}
SALADE_LAST_TWO = {
    "contracts": ["salade", "no_tricks"],
    "contract_values": {"salade": {"trick": -1, "last_two": [-10, -20]}},
    "undoubled_negative": "play",
    **OFF,
}
SALADE_DATA = {
    "tricks": [1, 4, 4, 4],
    "hearts": [1, 4, 4, 4],
    "ace_of_hearts": 0,
    "queens": [0, 1, 1, 2],
    "king_of_hearts": 1,
}


def refused(document) -> RuleError:
    with pytest.raises(RuleError) as caught:
        score_document(document)
    return caught.value


def rules_refused(rules) -> RuleError:
    error = refused(doc([], rules))
    assert error.where[0] == "rules" and error.place.deal is None, error.message
    assert error.place.field == "rules", error.place
    return error


# -- the house list --


def test_a_house_list_sets_the_schedule():
    rules = barbu.parse_rules({"contracts": ["trumps", "no_queens", "barbu"]})
    assert barbu.match_contracts(rules) == (Contract.TRUMPS, Contract.NO_QUEENS, Contract.BARBU)
    assert barbu.contracts_per_declarer(rules) == 3 and barbu.match_length(rules) == 12
    header = MatchHeader(game="barbu", players=tuple(PLAYERS), first_dealer=1)
    assert [barbu.declarer_of(header, rules, n) for n in range(12)] == [1] * 3 + [2] * 3 + [
        3
    ] * 3 + [0] * 3
    quick = barbu.parse_rules({"contracts": ["trumps", "no_queens"], "rotation": "quick"})
    assert [barbu.declarer_of(header, quick, n) for n in range(8)] == [1, 2, 3, 0] * 2
    status = barbu.next_deal(header, rules, ())
    assert status["contracts"] == ["trumps", "no_queens", "barbu"] and status["of"] == 12


def test_a_contract_outside_the_list_is_refused_naming_the_deal():
    rules = {"contracts": ["no_tricks", "no_hearts"], **OFF}
    deal = {"contract": "no_queens", "doubles": [{"by": 1, "on": 0}], **DATA["no_queens"]}
    error = refused(doc([deal], rules))
    assert error.code == "bad_contract" and error.place.deal == 1 and error.place.seat == 0
    assert "not one of this match's contracts" in error.message
    ok = {"contract": "no_hearts", "doubles": [{"by": 1, "on": 0}], **DATA["no_hearts"]}
    score_document(doc([ok], rules))


def test_a_whole_match_of_a_house_list_ends_after_players_times_contracts():
    rules = {"contracts": ["no_queens", "barbu"]}
    header = MatchHeader(game="barbu", players=tuple(PLAYERS))
    parsed = barbu.parse_rules(rules)
    deals = []
    for index in range(8):
        declarer = barbu.declarer_of(header, parsed, index)
        contract = ["no_queens", "barbu"][index % 2]
        doubles = [{"by": s, "on": declarer} for s in range(4) if s != declarer]
        deals.append({"contract": contract, "doubles": doubles, **DATA[contract]})
    out = score_document(doc(deals, rules))
    assert out["finished"] is True and sum(out["totals"]) == 4 * (-24 - 20)
    error = refused(doc([*deals, deals[0]], rules))
    assert error.code == "match_over" and error.place.deal == 9 and "8 deals" in error.message


@pytest.mark.parametrize(
    ("contracts", "code", "index"),
    [
        ([], "contracts_empty", None),
        ("no_tricks", "bad_type", None),
        (["no_tricks", 3], "bad_type", 1),
        (["no_tricks", "no_spades"], "contracts_unknown", 1),
        (["no_tricks", "no_tricks"], "contracts_twice", 1),
        (["no_tricks", "no_girls"], "contracts_king", 1),
        (["no_tricks", "salade"], "contracts_without_values", 1),
        (["ravage_city", "no_tricks"], "contracts_without_values", 0),
        (["no_last_trick", "trumps"], "contracts_without_values", 0),
        (["no_tricks"], "contracts_one_compulsory", None),
    ],
)
def test_bad_house_lists_are_refused_naming_the_field(contracts, code, index):
    error = rules_refused({"contracts": contracts})
    assert error.code == code, error.message
    assert error.place.key == "contracts" and error.place.index == index


@pytest.mark.parametrize(
    "rules",
    [
        {"contracts": ["no_tricks"], **OFF},
        {"contracts": ["no_tricks"], "compulsory_doubles": "warn"},
        {"contracts": ["no_tricks", "salade"], "contract_values": {"salade": {"trick": -5}}},
        {"variant": "ravage_city", "contracts": ["ravage_city", "no_tricks"]},
        {"variant": "salade", "contracts": ["no_last_trick", "salade"]},
        {"contracts": ["domino", "trumps"]},
        {"contracts": ["no_tricks", "no_hearts"], "contract_values": {}},
        {"contracts": None, "contract_values": None},
    ],
)
def test_house_list_near_misses_are_accepted(rules):
    parse_document(doc([], rules))


def test_the_king_variant_takes_no_house_rules():
    for key, value in (
        ("contracts", ["no_tricks", "trumps"]),
        ("contract_values", {"trumps": {"trump_trick": 40}}),
    ):
        error = rules_refused({"variant": "king", key: value})
        assert error.code == "king_no_house_values" and error.place.key == key
    parse_document(doc([], {"variant": "king", "contract_values": {}}))


# -- contract values --


@pytest.mark.parametrize(
    ("values", "code", "piece", "index"),
    [
        ([], "bad_type", None, None),
        ({"barbu": 80}, "bad_type", '"barbu"', None),
        ({"no_spades": {"trick": -1}}, "contract_values_unknown", '"no_spades"', None),
        ({"salade": {"trick": -1}}, "contract_values_not_played", '"salade"', None),
        ({"no_queens": {"quen": -8}}, "contract_values_unknown_unit", "no_queens.quen", None),
        ({"no_queens": {}}, "contract_values_missing_unit", '"no_queens"', None),
        ({"no_hearts": {"ace_of_hearts": -6}}, "contract_values_missing_unit", '"no_hearts"', None),
        ({"barbu": {"king_of_hearts": 80}}, "contract_values_sign", "barbu.king_of_hearts", None),
        ({"no_queens": {"queen": -7.5}}, "bad_type", "no_queens.queen", None),
        ({"no_queens": {"queen": "10"}}, "bad_type", "no_queens.queen", None),
        ({"no_queens": {"queen": True}}, "bad_type", "no_queens.queen", None),
        ({"trumps": {"trump_trick": -5}}, "contract_values_sign", "trumps.trump_trick", None),
        ({"no_last_two": {"last_two": [-10]}}, "bad_length", "no_last_two.last_two", None),
        (
            {"no_last_two": {"last_two": [-10, 20]}},
            "contract_values_sign",
            "no_last_two.last_two[1]",
            1,
        ),
        (
            {"no_last_two": {"last_two": [-10, "x"]}},
            "bad_type",
            "no_last_two.last_two[1]",
            1,
        ),
        ({"domino": {"payouts": [120, 60, 20]}}, "bad_length", "domino.payouts", None),
        ({"domino": {"payouts": [120, 60, 20, 0.5]}}, "bad_type", "domino.payouts[3]", 3),
    ],
)
def test_bad_contract_values_are_refused_naming_the_contract_and_unit(values, code, piece, index):
    error = rules_refused({"contract_values": values})
    assert error.code == code, error.message
    assert error.place.key == "contract_values" and error.place.index == index
    want = ("rules", "contract_values") + ((piece,) if piece else ())
    assert error.where == want


def test_a_sign_turned_is_shown_turned_back():
    error = rules_refused({"contract_values": {"barbu": {"king_of_hearts": 80}}})
    assert "king_of_hearts" in error.message and "write 80 as -80" in error.message
    trumps = rules_refused({"contract_values": {"trumps": {"trump_trick": -5}}})
    assert "write -5 as 5" in trumps.message


@pytest.mark.parametrize(
    ("rules", "code", "key"),
    [
        (
            {"variant": "ravage_city", "contract_values": {"ravage_city": {"most_cards": -30}}},
            "contract_values_most_cards",
            "contract_values",
        ),
        (
            {"contracts": ["salade", "trumps"], "contract_values": {"salade": {}}},
            "contract_values_empty_salade",
            "contract_values",
        ),
        (
            {
                "contracts": ["salade", "trumps"],
                "contract_values": {"salade": {"last_trick": -30, "last_two": [-10, -20]}},
            },
            "contract_values_salade_last",
            "contract_values",
        ),
        (
            {"chinese_poker": True, "contract_values": {"chinese_poker": {"multiplier": 2}}},
            "contract_values_chinese_poker",
            "contract_values",
        ),
        (
            {
                "contract_values": {"domino": {"payouts": [1, 2, 3, 4]}},
                "domino_payouts": [45, 20, 5, -5],
            },
            "domino_payouts_beside_values",
            "domino_payouts",
        ),
    ],
)
def test_more_bad_contract_values(rules, code, key):
    error = rules_refused(rules)
    assert error.code == code, error.message
    assert error.place.key == key


@pytest.mark.parametrize(
    "rules",
    [
        {"variant": "ravage_city", "contract_values": {"ravage_city": {"most_cards": -36}}},
        {"variant": "ravage_city", "contract_values": {"ravage_city": {"most_cards": 0}}},
        {"contract_values": {"barbu": {"king_of_hearts": -80}}},
        {"contract_values": {"barbu": {"king_of_hearts": 0}}},
        {"contract_values": {"trumps": {"trump_trick": 0}}},
        {"contract_values": {"no_hearts": {"heart": -10, "ace_of_hearts": 0}}},
        {"contract_values": {"domino": {"payouts": [-5, 5, 45, 20]}}},
        {"contract_values": {"domino": {"payouts": [1, 2, 3, 4]}}, "domino_payouts": None},
        {
            "contracts": ["salade", "no_tricks"],
            "contract_values": {"salade": {"last_two": [0, -20]}},
        },
        {"contracts": ["salade", "no_tricks"], "contract_values": {"salade": {"last_trick": 0}}},
    ],
)
def test_contract_values_near_misses_are_accepted(rules):
    parse_document(doc([], rules))


def test_house_values_replace_a_contracts_values_as_a_whole_and_round_trip():
    raw = {
        "contract_values": {
            "no_hearts": {"heart": -10},
            "domino": {"payouts": [120, 60, 20, 0]},
        }
    }
    rules = barbu.parse_rules(raw)
    assert rules.domino_payouts is None  # the payouts are the house's
    assert barbu.units_of(rules, Contract.NO_HEARTS) == {"heart": -10, "ace_of_hearts": -10}
    assert barbu.units_of(rules, Contract.DOMINO) == {"payouts": (120, 60, 20, 0)}
    assert barbu.units_of(rules, Contract.NO_QUEENS) == {"queen": -6}  # the variant's
    written = barbu.rules_json(rules)
    assert written["contract_values"] == {
        "no_hearts": {"heart": -10},
        "domino": {"payouts": [120, 60, 20, 0]},
    }
    assert written["domino_payouts"] is None
    assert barbu.parse_rules(written) == rules


# -- the salade's last two tricks --


def test_a_salade_counting_the_last_two_tricks_records_them():
    rules = barbu.parse_rules(SALADE_LAST_TWO)
    assert barbu.data_keys(rules, Contract.SALADE)[-1] == "last_two"
    deal = {"contract": "salade", "doubles": [], **SALADE_DATA, "last_two": [0, 1]}
    out = score_document(doc([deal], SALADE_LAST_TWO))
    # tricks −1 each; trick before last −10 to Anna, last trick −20 to Babis
    assert out["deals"][0]["score"]["total"] == [-11, -24, -4, -4]
    assert out["deals"][0]["last_two"] == [0, 1] and "last_trick" not in out["deals"][0]


@pytest.mark.parametrize(
    ("change", "code", "field"),
    [
        ({"last_two": [0, 0]}, "last_two_without_tricks", "last_two"),
        (
            {
                "tricks": [0, 5, 4, 4],
                "hearts": [0, 5, 4, 4],
                "ace_of_hearts": 1,
                "last_two": [0, 1],
            },
            "last_two_without_tricks",
            "last_two",
        ),
        ({"last_two": [0, 1], "last_trick": 1}, "key_not_used", "last_trick"),
        ({"last_trick": 1}, "key_not_used", "last_trick"),
        ({}, "missing_key", "last_two"),
    ],
)
def test_a_salade_last_two_that_does_not_fit_is_refused(change, code, field):
    deal = {"contract": "salade", "doubles": [], **SALADE_DATA} | change
    error = refused(doc([deal], SALADE_LAST_TWO))
    assert error.code == code, error.message
    assert error.place.deal == 1 and error.place.field == field
    if code == "last_two_without_tricks":
        assert error.place.seat == 0 and "Anna" in error.where


def test_a_seat_with_two_tricks_may_take_both_of_the_last_two():
    deal = {"contract": "salade", "doubles": [], **SALADE_DATA, "tricks": [2, 3, 4, 4]}
    score_document(doc([deal | {"last_two": [0, 0]}], SALADE_LAST_TWO))


# -- the worked examples, and the zero-sum check --


def test_house_values_set_the_totals_and_the_zero_sum_check():
    viv1bin = barbu.parse_rules(
        {
            "contracts": ["barbu", "no_hearts", "no_queens"],
            "contract_values": {"barbu": {"king_of_hearts": -80}, "no_hearts": {"heart": -10}},
        }
    )
    values = barbu.match_values(viv1bin)
    assert [(v.contract.value, v.total, v.house) for v in values.contracts] == [
        ("barbu", -80, True),
        ("no_hearts", -130, True),
        ("no_queens", -24, False),
    ]
    assert values.total == -234 and values.match_total == -936 and not values.zero_sum
    classic = barbu.match_values(barbu.DEFAULT_RULES)
    assert classic.total == 0 == classic.match_total and classic.zero_sum
    assert len(classic.contracts) == 7 and not any(v.house for v in classic.contracts)
    king = barbu.match_values(barbu.parse_rules({"variant": "king"}))
    assert king.zero_sum and king.match_total == 0


def test_a_house_set_that_stays_zero_sum_is_checked_as_the_classic_game_is():
    """rules.md's example: classic with no_queens −8 (−32) and domino 50, 20, 5, −2 (73)."""
    zero = barbu.parse_rules(
        {
            "contract_values": {
                "no_queens": {"queen": -8},
                "domino": {"payouts": [50, 20, 5, -2]},
            }
        }
    )
    assert barbu.zero_sum(zero) and barbu.match_values(zero).total == 0
    ravage = barbu.parse_rules(
        {"variant": "ravage_city", "contract_values": {"ravage_city": {"most_cards": -36}}}
    )
    assert not barbu.zero_sum(ravage) and barbu.match_values(ravage).total == -12


def test_a_whole_match_of_a_house_set_that_is_not_zero_sum_is_scored_as_entered():
    rules = {
        "rotation": "quick",
        "contracts": ["barbu", "no_queens"],
        "contract_values": {"barbu": {"king_of_hearts": -80}},
        **OFF,
    }
    deals = []
    header = MatchHeader(game="barbu", players=tuple(PLAYERS))
    parsed = barbu.parse_rules(rules)
    for index in range(8):
        contract = "barbu" if index < 4 else "no_queens"
        declarer = barbu.declarer_of(header, parsed, index)
        doubles = [{"by": (declarer + 2) % 4, "on": declarer}]
        deals.append({"contract": contract, "doubles": doubles, **DATA[contract]})
    _, result, out = score_document_full(doc(deals, rules))
    assert out["finished"] is True and sum(out["totals"]) == 4 * (-80 - 24)
    assert result.running[3] and sum(result.running[3]) == 4 * -80


def test_the_worked_examples_show_in_the_deals():
    """rules.md's Viv1bin deal 1: dealer 20, contre 40 → 0 / 60 in penalties."""
    rules = {
        "rotation": "quick",
        "compulsory_doubles": "off",
        "undoubled_negative": "play",
        "contracts": ["no_tricks", "barbu"],
        "contract_values": {"no_tricks": {"trick": -10}, "barbu": {"king_of_hearts": -80}},
    }
    deal = {"contract": "no_tricks", "doubles": [{"by": 1, "on": 0}], "tricks": [2, 4, 5, 2]}
    score = score_document(doc([deal], rules))["deals"][0]["score"]
    assert score["raw"] == [-20, -40, -50, -20] and score["total"] == [0, -60, -50, -20]
    split = rules | {"undoubled_negative": "split"}
    undoubled = score_document(doc([{"contract": "no_tricks", "doubles": []}], split))
    assert undoubled["deals"][0]["score"]["total"] == [2, -44, -44, -44]  # −130 split
