"""Salade for five players (rules.md, "Additions"): 50 cards (the black twos out), 10 tricks
of 5 cards, 30 deals, the rotations over five, the undoubled split in four, ten pairs of
doubles and the compulsory doubles of four other players.

Each refusal comes with a near miss that is accepted; a refusal names the players, the field
or the deal (counted from 1) and the seat."""

import pytest

from scorekeeper.rules import barbu
from scorekeeper.rules.barbu import Contract, Double
from scorekeeper.rules.base import MatchHeader
from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.match import (
    parse_document,
    rules_with_defaults,
    score_document,
    score_document_full,
)

PLAYERS = ["Anna", "Babis", "Chris", "Dora", "Eleni"]
SALADE = {"variant": "salade"}
OFF = {"variant": "salade", "compulsory_doubles": "off"}
HEADER = MatchHeader(game="barbu", players=tuple(PLAYERS))
RULES = barbu.parse_rules(SALADE, 5)

#: Played data for each of Salade's contracts at a table of five (10 tricks).
DATA = {
    "no_tricks": {"tricks": [2, 2, 2, 2, 2]},
    "no_last_trick": {"last_trick": 4},
    "no_hearts": {"hearts": [3, 3, 3, 2, 2], "ace_of_hearts": 0},
    "no_queens": {"queens": [1, 0, 2, 0, 1]},
    "barbu": {"king_of_hearts": 2},
    "salade": {
        "tricks": [2, 2, 2, 2, 2],
        "hearts": [3, 3, 3, 2, 2],
        "ace_of_hearts": 0,
        "queens": [1, 0, 2, 0, 1],
        "king_of_hearts": 2,
        "last_trick": 4,
    },
}


def doc(deals, rules=None, players=PLAYERS, first_dealer=0):
    out = {
        "format": "scorekeeper-match/1",
        "game": "barbu",
        "players": list(players),
        "first_dealer": first_dealer,
        "deals": deals,
    }
    if rules is not None:
        out["rules"] = rules
    return out


def deal(contract, declarer=0, doublers=None, **data):
    """A played deal in which ``doublers`` (default: the four others) double the declarer."""
    if doublers is None:
        doublers = [s for s in range(5) if s != declarer]
    doubles = [{"by": s, "on": declarer} for s in doublers]
    return {"contract": contract, "doubles": doubles, **DATA[contract], **data}


def refused(document) -> RuleError:
    with pytest.raises(RuleError) as caught:
        score_document(document)
    return caught.value


# -- who plays --


@pytest.mark.parametrize("variant", ["classic", "ravage_city", "king"])
def test_five_players_play_salade_only(variant):
    error = refused(doc([], {"variant": variant}))
    assert error.code == "five_players_salade" and error.where == ("players",)
    assert error.place.field == "players" and error.place.deal is None
    assert "salade" in error.message
    assert refused(doc([])).code == "five_players_salade"  # classic by default
    parse_document(doc([], SALADE))


@pytest.mark.parametrize("count", [3, 6])
def test_barbu_is_played_by_four_or_five(count):
    names = [f"P{i}" for i in range(count)]
    error = refused(doc([], SALADE, players=names))
    assert error.code == "player_count" and "4 or 5" in error.message


def test_the_rules_alone_at_a_table_of_five():
    assert rules_with_defaults("barbu", SALADE, seats=5)["variant"] == "salade"
    with pytest.raises(RuleError) as caught:
        rules_with_defaults("barbu", {}, seats=5)
    assert caught.value.code == "five_players_salade" and caught.value.where[0] == "rules"
    assert barbu.parse_rules(barbu.rules_json(RULES), 5) == RULES
    assert barbu.rules_at_table(barbu.parse_rules(SALADE), 5) == RULES


@pytest.mark.parametrize("contract", ["domino", "trumps", "no_last_two", "ravage_city"])
def test_five_players_list_only_salades_contracts(contract):
    rules = SALADE | {"contracts": ["no_tricks", contract]}
    error = refused(doc([], rules))
    assert error.code == "contracts_five_players" and error.where == ("rules", "contracts[1]")
    assert error.place.key == "contracts" and error.place.index == 1
    # four players may (given values, where Salade has none)
    four = rules | {"undoubled_negative": "play"}
    if contract != "no_last_two":
        units = {"domino": {"payouts": [40, 20, -20, -40]}, "trumps": {"trump_trick": 5}}
        units["ravage_city"] = {"most_cards": -24}
        four["contract_values"] = {contract: units[contract]}
        parse_document(doc([], four, players=PLAYERS[:4]))


def test_house_values_apply_with_ten_tricks():
    rules = SALADE | {
        "contracts": ["no_tricks", "salade", "barbu"],
        "contract_values": {"no_tricks": {"trick": -3}, "salade": {"trick": -1, "queen": -5}},
    }
    parsed = parse_document(doc([], rules)).rules
    assert parsed.seats == 5 and barbu.match_length(parsed) == 15
    assert barbu.contract_total(parsed, Contract.NO_TRICKS) == -30
    assert barbu.contract_total(parsed, Contract.SALADE) == -10 - 20
    assert barbu.match_values(parsed).match_total == 5 * (-30 - 30 - 50)


# -- the schedule --


def test_declarers_over_five_players():
    header = MatchHeader(game="barbu", players=tuple(PLAYERS), first_dealer=3)
    got = [barbu.declarer_of(header, RULES, n) for n in range(30)]
    assert got == [3] * 6 + [4] * 6 + [0] * 6 + [1] * 6 + [2] * 6
    quick = barbu.parse_rules(SALADE | {"rotation": "quick"}, 5)
    assert [barbu.declarer_of(header, quick, n) for n in range(7)] == [3, 4, 0, 1, 2, 3, 4]
    assert barbu.match_length(RULES) == 30 == barbu.match_length(quick)
    assert barbu.deals_left_in_series(quick, 0) == 5 and barbu.deals_left_in_series(quick, 29) == 0


def full_match(rotation="series", first_dealer=0):
    rules = SALADE | {"rotation": rotation}
    parsed = barbu.parse_rules(rules, 5)
    header = MatchHeader(game="barbu", players=tuple(PLAYERS), first_dealer=first_dealer)
    contracts = [c.value for c in barbu.match_contracts(parsed)]
    seen = dict.fromkeys(range(5), 0)
    deals = []
    for index in range(30):
        declarer = barbu.declarer_of(header, parsed, index)
        contract = contracts[(seen[declarer] + declarer) % 6]
        seen[declarer] += 1
        deals.append(deal(contract, declarer))
    return doc(deals, rules, first_dealer=first_dealer)


@pytest.mark.parametrize("rotation", ["series", "quick"])
def test_a_whole_match_is_30_deals_and_not_zero_sum(rotation):
    document = full_match(rotation, first_dealer=2)
    _, result, out = score_document_full(document)
    assert out["finished"] is True and len(out["totals"]) == 5
    assert sum(out["totals"]) == 5 * (-50 - 30 - 130 - 80 - 50 - 340)
    assert result.next_deal["finished"] is True
    error = refused(document | {"deals": [*document["deals"], document["deals"][0]]})
    assert error.code == "match_over" and error.place.deal == 31 and "30 deals" in error.message


# -- undoubled, doubled --


def test_example_1_undoubled_contracts_are_split_in_four():
    order = ["no_tricks", "no_hearts", "salade", "no_last_trick", "no_queens", "barbu"]
    out = score_document(doc([{"contract": c, "doubles": []} for c in order], OFF))
    totals = [d["score"]["total"] for d in out["deals"]]
    assert totals == [
        [2, -13, -13, -13, -13],
        [2, -33, -33, -33, -33],
        [0, -85, -85, -85, -85],
        [2, -8, -8, -8, -8],
        [0, -20, -20, -20, -20],
        [2, -13, -13, -13, -13],
    ]
    assert out["totals"] == [8, -172, -172, -172, -172]
    assert barbu.split_scores(-50, 3, 5) == (-13, -13, -13, 2, -13)


def test_example_2_no_queens_doubled_by_all_four():
    doubles = [{"by": s, "on": 0} for s in (1, 2, 3)] + [{"by": 4, "on": 0, "redoubled": True}]
    deal_ = {"contract": "no_queens", "doubles": doubles, "queens": [1, 0, 2, 0, 1]}
    score = score_document(doc([deal_], SALADE))["deals"][0]["score"]
    assert score["raw"] == [-20, 0, -40, 0, -20]
    assert score["total"] == [-40, 20, -60, 20, -20] and sum(score["total"]) == -80


def test_ten_pairs_of_doubles():
    choices = barbu.allowed_doubles(0, Contract.NO_HEARTS, rules=RULES, names=PLAYERS)
    assert len(choices) == 20
    assert {(c.by, c.on) for c in choices if c.allowed} == {
        (b, o) for b in range(1, 5) for o in range(5) if o != b
    }
    family = barbu.expand_shortcut("family", 1, 0, Contract.NO_HEARTS, rules=RULES)
    assert set(family) == {Double(1, 2), Double(1, 3), Double(1, 4)}
    maximum = barbu.expand_shortcut("maximum", 1, 0, Contract.NO_HEARTS, rules=RULES)
    assert len(maximum) == 4
    every = ()
    for by in range(1, 5):
        every = barbu.expand_shortcut("maximum", by, 0, Contract.NO_HEARTS, every, rules=RULES)
    every = barbu.expand_shortcut("maximum", 0, 0, Contract.NO_HEARTS, every, rules=RULES)
    assert len(every) == 10 and all(d.redoubled for d in every if d.on == 0)
    shortcuts = barbu.shortcut_choices(0, Contract.NO_HEARTS, rules=RULES, names=PLAYERS)
    assert len(shortcuts) == 10


def test_all_ten_pairs_in_business_keep_the_deals_sum():
    doubles = [{"by": b, "on": o} for b in range(5) for o in range(b + 1, 5) if b != 0]
    doubles += [{"by": o, "on": 0} for o in range(1, 5)]
    assert len(doubles) == 10
    score = score_document(doc([deal("no_hearts", doublers=[]) | {"doubles": doubles}], SALADE))
    assert sum(score["deals"][0]["score"]["total"]) == -130
    assert len(score["deals"][0]["score"]["settlement"]) == 10


def test_each_of_the_four_others_owes_two_doubles():
    """Anna's series of six: Eleni doubles her only in the first deal, then never."""
    order = ["no_tricks", "no_hearts", "no_queens", "barbu", "no_last_trick", "salade"]
    deals = [deal(c, 0, doublers=[1, 2, 3] + ([4] if i == 0 else [])) for i, c in enumerate(order)]
    error = refused(doc(deals, SALADE))
    assert error.code == "compulsory_doubles" and error.place.deal == 6
    assert error.place.seat == 4 and "Eleni" in error.where
    deals[5] = deal("salade", 0)
    out = score_document(doc(deals, SALADE))
    status = parse_document(doc(deals, SALADE))
    nxt = barbu.next_deal(status.header, status.rules, status.deals)
    assert nxt["declarer"] == 1 and [o["seat"] for o in nxt["doubles_owed"]] == [2, 3, 4, 0]
    assert len(out["deals"]) == 6


# -- the deal's data --


@pytest.mark.parametrize(
    ("data", "code", "field"),
    [
        ({"tricks": [4, 3, 3, 0]}, "bad_length", "tricks"),
        ({"tricks": [4, 3, 3, 3, 0]}, "tricks_sum", "tricks"),
        ({"tricks": [11, 0, 0, 0, 0]}, "out_of_range", "tricks"),
    ],
)
def test_a_five_player_deal_has_five_entries_and_ten_tricks(data, code, field):
    error = refused(doc([deal("no_tricks") | data], SALADE))
    assert error.code == code and error.place.deal == 1 and error.place.field == field
    score_document(doc([deal("no_tricks") | {"tricks": [10, 0, 0, 0, 0]}], SALADE))


def test_a_seat_five_or_more_is_refused():
    error = refused(doc([deal("barbu") | {"king_of_hearts": 5}], SALADE))
    assert error.code == "out_of_range" and error.place.field == "king_of_hearts"
    error = refused(doc([deal("barbu") | {"doubles": [{"by": 5, "on": 0}]}], SALADE))
    assert error.code == "out_of_range" and error.place.field == "doubles"
    score_document(doc([deal("barbu") | {"king_of_hearts": 4}], SALADE))


def test_five_cards_a_trick_carry_the_hearts_and_queens():
    """Two tricks of five cards carry ten hearts (four a trick would carry eight)."""
    fits = {
        "tricks": [2, 2, 2, 2, 2],
        "hearts": [10, 1, 1, 1, 0],
        "queens": [0, 1, 1, 1, 1],
        "ace_of_hearts": 0,
        "king_of_hearts": 0,
        "last_trick": 0,
    }
    score_document(doc([deal("salade") | fits], SALADE))
    too_many = fits | {"hearts": [10, 1, 1, 0, 1], "queens": [2, 1, 1, 0, 0]}
    error = refused(doc([deal("salade") | too_many], SALADE))
    assert error.code == "cards_exceed_tricks" and error.place.seat == 0
    assert error.place.deal == 1 and "Anna" in error.where


def test_the_sheet_counts_ten_tricks():
    assert barbu.count_total("tricks", seats=5) == 10 == barbu.tricks_in_deal(5)
    assert barbu.count_total("hearts", seats=5) == 13 and barbu.count_total("tricks") == 13
    tallies = barbu.count_tallies(Contract.SALADE, {"tricks": [2, 2, 2, 2, 2]}, seats=5)
    assert [(t.what, t.ok) for t in tallies] == [
        ("tricks", True),
        ("hearts", False),
        ("queens", False),
    ]
    assert barbu.count_rest("tricks", [2, 2, 2, 2, 0], 4, seats=5) == 2
    match = parse_document(doc([deal("no_tricks")], SALADE))
    score = score_document(doc([deal("no_tricks")], SALADE))["deals"][0]["score"]
    check = barbu.deal_sum(match.rules, Contract.NO_TRICKS, score)
    assert check.ok and check.want == -50 and not check.zero_sum
