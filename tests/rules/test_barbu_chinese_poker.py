"""Barbu's Chinese Poker contract (rules.md, "Additions": the ninth contract): the options, the
deal's ``net``, doubles between any two players, never split, the schedule of 32 or 36 deals.

Each refusal comes with a near miss that is accepted; a refusal names the deal (counted from
1) or the field, as match-format's "Additions" say."""

import pytest

from scorekeeper.rules import barbu
from scorekeeper.rules.barbu import Contract, Double
from scorekeeper.rules.base import MatchHeader
from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.match import parse_document, rules_with_defaults, score_document
from tests.rules.test_barbu_deals import DATA, PLAYERS, doc

CP = {"chinese_poker": True}
MULTIPLIER = "chinese_poker_multiplier"


def cp_deal(net, doubles=(), **more):
    return {"contract": "chinese_poker", "doubles": list(doubles), "net": net, **more}


def refused(document) -> RuleError:
    with pytest.raises(RuleError) as caught:
        score_document(document)
    return caught.value


# -- the options --


def test_chinese_poker_adds_a_contract_to_classic_and_ravage_city():
    classic = barbu.parse_rules(CP)
    assert barbu.match_contracts(classic)[-1] is Contract.CHINESE_POKER
    assert barbu.match_length(classic) == 32 and classic.chinese_poker_multiplier == 4
    ravage = barbu.parse_rules(CP | {"variant": "ravage_city"})
    assert len(barbu.match_contracts(ravage)) == 9 and barbu.match_length(ravage) == 36
    # the other contracts keep their values: the match stays zero-sum
    assert barbu.zero_sum(classic) and barbu.zero_sum(ravage)
    assert barbu.contract_total(classic, Contract.CHINESE_POKER) == 0
    # without the option, nothing changes
    assert barbu.match_length(barbu.parse_rules({})) == 28
    assert Contract.CHINESE_POKER not in barbu.match_contracts(barbu.DEFAULT_RULES)


def test_the_options_are_written_where_they_apply_and_round_trip():
    assert "chinese_poker" not in rules_with_defaults("barbu")
    rules = barbu.parse_rules(CP | {"chinese_poker_multiplier": 2})
    written = barbu.rules_json(rules)
    assert written["chinese_poker"] is True and written["chinese_poker_multiplier"] == 2
    assert barbu.parse_rules(written) == rules
    default = barbu.rules_json(barbu.parse_rules(CP))
    assert default["chinese_poker_multiplier"] == 4
    # null is a key left out; false is no Chinese Poker
    assert barbu.parse_rules({"chinese_poker": False, "chinese_poker_multiplier": None}) == (
        barbu.DEFAULT_RULES
    )


@pytest.mark.parametrize(
    ("rules", "code", "key"),
    [
        (CP | {"variant": "salade"}, "chinese_poker_variant", "chinese_poker"),
        (CP | {"variant": "king"}, "king_no_house_values", "chinese_poker"),
        (
            CP | {"contracts": ["no_tricks", "chinese_poker"]},
            "chinese_poker_beside_contracts",
            "chinese_poker",
        ),
        ({"chinese_poker_multiplier": 3}, "chinese_poker_multiplier_unused", MULTIPLIER),
        (CP | {"chinese_poker_multiplier": 0}, "out_of_range", MULTIPLIER),
        (CP | {"chinese_poker_multiplier": 2.5}, "bad_type", MULTIPLIER),
        (CP | {"chinese_poker_multiplier": True}, "bad_type", MULTIPLIER),
        ({"chinese_poker": "yes"}, "bad_type", "chinese_poker"),
        ({"variant": "king", "chinese_poker_multiplier": 4}, "king_no_house_values", MULTIPLIER),
    ],
)
def test_bad_options_are_refused_naming_the_field(rules, code, key):
    error = refused(doc([], rules))
    assert error.code == code, error.message
    assert error.where == ("rules", key) and error.place.deal is None
    assert error.place.field == "rules" and error.place.key == key


@pytest.mark.parametrize(
    "rules",
    [
        CP | {"variant": "ravage_city"},
        CP | {"chinese_poker_multiplier": 1},
        {"contracts": ["no_tricks", "chinese_poker"], "chinese_poker_multiplier": 3},
        {"contracts": ["no_tricks", "chinese_poker"], "chinese_poker": False},
        {"variant": "king", "chinese_poker": False},
        {"variant": "salade", "contracts": ["no_tricks", "chinese_poker"]},
    ],
)
def test_near_misses_are_accepted(rules):
    parse_document(doc([], rules))


# -- the deal --


def test_example_1_undoubled_nets_times_four():
    out = score_document(doc([cp_deal([1, 0, -6, 5])], CP))
    score = out["deals"][0]["score"]
    assert score["raw"] == [4, 0, -24, 20] == score["total"]
    assert "split" not in score and out["deals"][0]["net"] == [1, 0, -6, 5]


def test_example_2_doubles_between_any_two_players():
    doubles = [{"by": 1, "on": 0, "redoubled": True}, {"by": 2, "on": 3}]
    score = score_document(doc([cp_deal([2, -1, 3, -4], doubles)], CP))["deals"][0]["score"]
    assert score["raw"] == [8, -4, 12, -16]
    assert score["total"] == [32, -28, 40, -44] and sum(score["total"]) == 0


def test_the_multiplier_is_what_a_net_is_worth():
    rules = CP | {"chinese_poker_multiplier": 10}
    score = score_document(doc([cp_deal([2, -1, 3, -4])], rules))["deals"][0]["score"]
    assert score["total"] == [20, -10, 30, -40]


def test_an_undoubled_chinese_poker_deal_is_never_split():
    assert not barbu.is_split(barbu.parse_rules(CP), Contract.CHINESE_POKER, ())
    error = refused(doc([{"contract": "chinese_poker", "doubles": []}], CP))
    assert error.code == "missing_key" and error.place.field == "net"
    assert error.where[0] == "deal 1"


@pytest.mark.parametrize(
    ("net", "code", "seat"),
    [
        ([1, 0, -6, 4], "net_sum", None),
        ([1, 0, -1], "bad_length", None),
        ([1, 0, -1, 0, 0], "bad_length", None),
        ([1, 0, -1, 0.5], "bad_type", 3),
        ([1, "0", -1, 0], "bad_type", 1),
        (7, "bad_type", None),
    ],
)
def test_bad_nets_are_refused_naming_the_deal(net, code, seat):
    error = refused(doc([cp_deal(net)], CP))
    assert error.code == code, error.message
    assert error.place.deal == 1 and error.place.field == "net" and error.place.seat == seat
    if seat is not None:
        assert PLAYERS[seat] in error.where


def test_nets_that_add_up_to_zero_with_big_numbers_are_accepted():
    score_document(doc([cp_deal([-1000, 999, 0, 1])], CP))


def test_chinese_poker_when_it_is_not_played_is_refused_naming_the_deal():
    error = refused(doc([cp_deal([1, -1, 0, 0])]))
    assert error.code == "bad_contract" and error.place.deal == 1
    assert "the contracts of the variant classic" in error.message
    salade = refused(doc([cp_deal([1, -1, 0, 0])], {"variant": "salade"}))
    assert salade.code == "bad_contract"


def test_net_belongs_to_chinese_poker_only():
    deal = {"contract": "no_tricks", "doubles": [{"by": 1, "on": 0}], "tricks": [4, 3, 3, 3]}
    error = refused(doc([deal | {"net": [0, 0, 0, 0]}], CP))
    assert error.code == "key_not_used" and error.place.field == "net"
    score_document(doc([deal], CP))


def test_a_second_chinese_poker_in_one_series_is_refused():
    deals = [cp_deal([1, -1, 0, 0]), cp_deal([1, -1, 0, 0], [{"by": 2, "on": 0}])]
    error = refused(doc(deals, CP | {"compulsory_doubles": "off"}))
    assert error.code == "contract_already_named" and error.place.deal == 2
    # under quick rotation deal 2 is Babis's: he may name it
    quick = CP | {"compulsory_doubles": "off", "rotation": "quick"}
    score_document(doc(deals, quick))


def test_the_declarer_only_redoubles():
    bad = cp_deal([1, -1, 0, 0], [{"by": 0, "on": 1}])
    error = refused(doc([bad], CP))
    assert error.code == "declarer_cannot_double" and error.place.seat == 0
    choices = barbu.allowed_doubles(0, Contract.CHINESE_POKER, rules=barbu.parse_rules(CP))
    allowed = {(c.by, c.on) for c in choices if c.allowed}
    # any two non-declarers, and any of them on the declarer: as in a negative contract
    assert allowed == {(b, o) for b in (1, 2, 3) for o in range(4) if o != b}
    after = barbu.expand_shortcut("family", 1, 0, Contract.CHINESE_POKER)
    assert set(after) == {Double(1, 2), Double(1, 3)}


def test_it_counts_toward_the_compulsory_doubles():
    """Anna's series of 8: Chinese Poker last; Babis doubles her only in deals 1 and 8."""
    contracts = ["no_tricks", "no_hearts", "no_queens", "barbu", "no_last_two", "trumps", "domino"]
    deals = []
    for i, contract in enumerate(contracts):
        doublers = [2, 3] + ([1] if i == 0 else [])
        doubles = [{"by": s, "on": 0} for s in doublers]
        deals.append({"contract": contract, "doubles": doubles, **DATA[contract]})
    last = cp_deal([1, -1, 0, 0], [{"by": s, "on": 0} for s in (1, 2, 3)])
    score_document(doc([*deals, last], CP))
    error = refused(doc([*deals, cp_deal([1, -1, 0, 0], [{"by": 2, "on": 0}])], CP))
    # Babis now owes Anna a double with no deal of hers left
    assert error.code == "compulsory_doubles" and error.place.deal == 8 and error.place.seat == 1


def test_a_chinese_poker_deal_round_trips_and_reads_to_enter():
    match = parse_document(doc([cp_deal([1, 0, -6, 5], [{"by": 2, "on": 3}])], CP))
    (deal,) = match.deals
    written = barbu.deal_json(deal)
    assert written["net"] == [1, 0, -6, 5]
    again = barbu.parse_deal(written, header=match.header, rules=match.rules, index=0)
    assert again == deal
    assert barbu.data_keys(match.rules, Contract.CHINESE_POKER) == ("net",)
    to_enter = {"contract": "chinese_poker", "doubles": [], "to_enter": True}
    out = score_document(doc([to_enter], CP))
    assert out["deals"][0]["score"]["to_enter"] is True


def test_a_whole_ravage_city_match_with_chinese_poker_has_36_deals_and_sums_to_zero():
    rules = CP | {"variant": "ravage_city", "compulsory_doubles": "off"}
    parsed = barbu.parse_rules(rules)
    header = MatchHeader(game="barbu", players=tuple(PLAYERS))
    data = DATA | {"chinese_poker": {"net": [3, -1, -1, -1]}}
    deals = []
    for index in range(36):
        declarer = barbu.declarer_of(header, parsed, index)
        contract = barbu.match_contracts(parsed)[index % 9]
        deals.append(
            {"contract": contract.value, "doubles": [{"by": (declarer + 1) % 4, "on": declarer}]}
            | data[contract.value]
        )
    out = score_document(doc(deals, rules))
    assert out["finished"] is True and sum(out["totals"]) == 0
    assert [d["score"]["declarer"] for d in out["deals"][::9]] == [0, 1, 2, 3]
    error = refused(doc([*deals, deals[0]], rules))
    assert error.code == "match_over" and "36 deals" in error.message
