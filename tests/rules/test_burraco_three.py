"""Burraco for three players (rules.md "Burraco for three players"): the options and their
refusals, the seating of each deal (a solo player against a pair, then each alone), halving the
pair's score, the switch to each alone, the end of the match, the export, and the pure
functions a page uses (scorekeeper.rules.burraco_three, burraco.outlook)."""

from __future__ import annotations

import copy
import json
from collections import Counter
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules import burraco
from scorekeeper.rules import burraco_three as three
from scorekeeper.rules.base import MatchHeader
from scorekeeper.rules.burraco_three import PairRounding, Phase, ThreePlayers, half
from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.incremental import score_next, score_start, standing, state_of
from scorekeeper.rules.match import (
    parse_document,
    parse_header,
    rules_with_defaults,
    score_document,
)

from .test_places import check_place, header_of, mutations, paths, refusal

THREE = ["Anna", "Babis", "Chris"]
FIBUR = {"three_players": "fibur"}
ALONE = {"three_players": "each_alone"}


def doc(deals: list, rules: dict | None = None, players=THREE, **top: Any) -> dict:
    d: dict[str, Any] = {
        "format": "scorekeeper-match/1",
        "game": "burraco",
        "rules": FIBUR if rules is None else rules,
        "players": list(players),
        "deals": deals,
    }
    return d | top


def totals(melded=0, in_hand=0, bonuses=None, took_pot=True, went_out=False) -> dict:
    return {
        "totals": {"melded": melded, "in_hand": in_hand, "bonuses": bonuses or {}},
        "took_pot": took_pot,
        "went_out": went_out,
    }


def out(melded: int) -> dict:
    """A side that went out: ``melded`` + a clean burraco 200 + going out 100."""
    return totals(melded, 0, {"clean_burraco": 1}, went_out=True)


def solo_deal(solo: int, solo_side: dict, pair_side: dict, **extra: Any) -> dict:
    return {"solo": solo, "sides": [solo_side, pair_side]} | extra


def alone_deal(*sides: dict, **extra: Any) -> dict:
    return {"sides": list(sides)} | extra


def refused(d: dict) -> RuleError:
    with pytest.raises(RuleError) as e:
        score_document(copy.deepcopy(d))
    return e.value


#: Anna solo reaches 1000 in deal 1 (rules.md, example 2): every later deal is each alone.
DEAL_1000 = solo_deal(
    0,
    totals(500, 0, {"clean_burraco": 2}, went_out=True),
    totals(235, 60, {"dirty_burraco": 1}),
)
PLAIN3 = alone_deal(totals(60), totals(60), totals(60))


# --- options ------------------------------------------------------------------------------------


def test_three_players_is_required_and_named_with_the_players():
    error = refused(doc([], {}))
    assert error.code == "three_players_missing"
    assert error.where == ("rules", "three_players")
    assert error.place.field == "rules" and error.place.key == "three_players"
    assert "3 players" in error.message and "fibur" in error.message
    assert error.place.deal is None
    assert score_document(doc([], FIBUR))["totals"] == [0, 0, 0]
    assert score_document(doc([], ALONE))["totals"] == [0, 0, 0]


@pytest.mark.parametrize(
    ("rules", "players"),
    [
        ({"three_players": "fibur"}, 4),
        ({"three_players": "each_alone"}, 2),
        ({"alone_from": 1500}, 4),
        ({"alone_from": None}, 2),
        ({"pair_rounding": "up"}, 4),
    ],
)
def test_the_three_player_options_are_refused_with_two_or_four(rules, players):
    names = ["Anna", "Babis", "Chris", "Dora"][:players]
    error = refused(doc([], rules, players=names))
    (key,) = rules
    assert error.code == "three_players_option_seats"
    assert error.where == ("rules", key)
    assert f"not for {players}" in error.message
    assert score_document(doc([], {}, players=names))["totals"] == [0, 0]


@pytest.mark.parametrize("key", ["alone_from", "pair_rounding"])
def test_fibur_only_options_are_refused_beside_each_alone(key):
    value = {"alone_from": 1500, "pair_rounding": "truncate"}[key]
    error = refused(doc([], {"three_players": "each_alone", key: value}))
    assert error.code == "option_only_fibur"
    assert error.where == ("rules", key)
    assert score_document(doc([], {"three_players": "fibur", key: value}))["totals"] == [0, 0, 0]


@pytest.mark.parametrize(
    ("rules", "key"),
    [
        ({"match_deals": 3}, "match_deals"),
        ({"match_deals": 3, "vp_table": "fibur"}, "match_deals"),
    ],
)
def test_victory_points_are_refused_with_three_players(rules, key):
    error = refused(doc([], FIBUR | rules))
    assert error.code == "vp_three_players"
    assert error.where == ("rules", key)
    assert "3 players" in error.message
    four = ["Anna", "Babis", "Chris", "Dora"]
    assert score_document(doc([], rules, players=four))["victory_points"] is None


@pytest.mark.parametrize(
    ("rules", "code", "key"),
    [
        ({"three_players": "solo"}, "bad_choice", "three_players"),
        ({"three_players": None}, "bad_type", "three_players"),
        (FIBUR | {"alone_from": -5}, "out_of_range", "alone_from"),
        (FIBUR | {"alone_from": "1000"}, "bad_type", "alone_from"),
        (FIBUR | {"alone_from": 2.5}, "bad_type", "alone_from"),
        (FIBUR | {"pair_rounding": "down"}, "bad_choice", "pair_rounding"),
        (FIBUR | {"target": 0}, "out_of_range", "target"),
    ],
)
def test_bad_values_are_refused_naming_the_option(rules, code, key):
    error = refused(doc([], rules))
    assert error.code == code
    assert error.where == ("rules", key)


def test_the_target_is_1505_with_three_whatever_the_preset():
    for preset in ("classic", "fibur", "international"):
        _, _, rules = parse_header(doc([], FIBUR | {"preset": preset}))
        assert rules.target == 1505
    _, _, rules = parse_header(doc([], FIBUR | {"preset": "fibur", "target": 2005}))
    assert rules.target == 2005
    assert rules_with_defaults("burraco", FIBUR, seats=3)["target"] == 1505
    assert rules_with_defaults("burraco", FIBUR)["target"] == 2000  # the table unknown


def test_the_rules_written_for_three_players():
    _, _, rules = parse_header(doc([], FIBUR))
    written = burraco.rules_json(rules)
    assert written == rules_with_defaults("burraco", {}) | {
        "target": 1505,
        "three_players": "fibur",
        "alone_from": 1000,
        "pair_rounding": "up",
    }
    _, _, again = parse_header(doc([], written))
    assert again == rules and burraco.rules_json(again) == written
    _, _, alone = parse_header(doc([], ALONE | {"preset": "fibur"}))
    assert burraco.rules_json(alone)["three_players"] == "each_alone"
    assert "alone_from" not in burraco.rules_json(alone)
    assert "pair_rounding" not in burraco.rules_json(alone)
    _, _, never = parse_header(doc([], FIBUR | {"alone_from": None}))
    assert burraco.rules_json(never)["alone_from"] is None


# --- the worked examples ---------------------------------------------------------------------

EX1_SOLO = {
    "melds": [["3S", "4S", "5S", "6S", "7S", "8S", "9S"], ["KH", "KD", "KC", "KS"]]
    + [["AD", "AC", "JK"]],
    "hand": [],
    "took_pot": True,
    "went_out": True,
}
EX1_PAIR = {
    "melds": [["5H", "6H", "7H", "8H", "9H", "10H", "JH", "2C"], ["4D", "5D", "6D"]],
    "hand": ["QS", "3D", "7C", "7C", "2D"],
    "took_pot": True,
}


@pytest.mark.parametrize(("rounding", "half_"), [(None, 98), ("up", 98), ("truncate", 97)])
def test_example_1_the_solo_player_in_full_each_of_the_pair_half(rounding, half_):
    rules = {"preset": "fibur", "three_players": "fibur"}
    if rounding:
        rules["pair_rounding"] = rounding
    scored = score_document(doc([solo_deal(1, EX1_SOLO, EX1_PAIR)], rules))
    score = scored["deals"][0]["score"]
    assert [s["total"] for s in score["sides"]] == [445, 195]
    assert score["players"] == [half_, 445, half_]
    assert score["solo"] == 1
    assert scored["totals"] == [half_, 445, half_]
    assert (scored["finished"], scored["winner"]) == (False, None)
    pair_melds = score["sides"][1]["melds"]
    assert (pair_melds[0]["purity"], pair_melds[0]["stands_for"]) == ("semi_clean", "QH")


def test_example_2_each_alone_after_1000():
    deals = [
        DEAL_1000,
        alone_deal(
            totals(150, 20),
            totals(400, 0, {"clean_burraco": 1, "dirty_burraco": 1}, went_out=True),
            totals(60, 90, took_pot=False),
        ),
        alone_deal(
            totals(300, 0, {"clean_burraco": 1}, went_out=True),
            totals(100, 35),
            totals(45, 50, took_pot=False),
        ),
    ]
    scored = score_document(doc(deals))
    assert [d["score"]["players"] for d in scored["deals"]] == [
        [1000, 138, 138],
        [130, 800, -130],
        [600, 65, -105],
    ]
    assert [d["score"]["solo"] for d in scored["deals"]] == [0, None, None]
    assert scored["totals"] == [1730, 1003, -97]
    assert (scored["finished"], scored["winner"]) == (True, 0)
    # the same deal 2 with a solo player is refused, naming deal 2 and from when
    deals[1] = {**deals[1], "solo": 1}
    error = refused(doc(deals))
    assert error.code == "solo_when_each_alone"
    assert error.where == ("deal 2", "solo")
    assert error.place.deal == 2 and error.place.field == "solo"
    assert "Babis" in error.message and "from deal 2" in error.message
    assert "1000 in deal 1" in error.message


# --- the phases ------------------------------------------------------------------------------


def test_the_switch_comes_after_the_deal_that_reaches_alone_from_and_never_goes_back():
    low = solo_deal(1, out(100), totals(0, 200))  # Babis 400, Anna and Chris -100 each
    sink = alone_deal(totals(0, 300), totals(0, 300), totals(0, 300))  # everyone -300
    rules = FIBUR | {"alone_from": 400}
    scored = score_document(doc([low, sink, sink], rules))
    assert scored["totals"] == [-100 - 600, 400 - 600, -100 - 600]
    assert [d["score"]["solo"] for d in scored["deals"]] == [1, None, None]
    # 400 does not reach 405: deal 2 is still solo and pair
    assert refused(doc([low, sink], FIBUR | {"alone_from": 405})).code == "solo_missing"


def test_alone_from_null_never_switches_and_zero_plays_every_deal_alone():
    big = solo_deal(0, out(700), totals(0, 0))
    never = FIBUR | {"alone_from": None, "target": 100_000}
    assert score_document(doc([big, big, big], never))["totals"] == [3000, 0, 0]
    zero = FIBUR | {"alone_from": 0}
    assert score_document(doc([PLAIN3], zero))["totals"] == [60, 60, 60]
    error = refused(doc([big], zero))
    assert error.code == "solo_when_each_alone" and "from the first deal" in error.message
    error = refused(doc([big], ALONE))
    assert error.code == "solo_when_each_alone" and "from the first deal" in error.message
    assert score_document(doc([PLAIN3, PLAIN3], ALONE))["totals"] == [120, 120, 120]


def test_nobody_took_a_pozzetto_each_alone_for_one_deal():
    nobody = {"solo": None, "sides": [totals(60, 10, took_pot=False)] * 3}
    scored = score_document(doc([nobody, DEAL_1000]))
    assert scored["deals"][0]["score"]["players"] == [-50, -50, -50]
    assert scored["deals"][0]["score"]["solo"] is None
    assert scored["deals"][1]["score"]["solo"] == 0  # still solo and pair
    assert scored["totals"] == [950, 88, 88]


def test_the_dealer_rotates_among_three():
    deals = [{**PLAIN3, "dealer": (2 + n) % 3} for n in range(4)]
    assert score_document(doc(deals, ALONE, first_dealer=2))["totals"] == [240, 240, 240]
    error = refused(doc([PLAIN3, {**PLAIN3, "dealer": 2}], ALONE, first_dealer=2))
    assert error.code == "wrong_dealer" and error.where == ("deal 2", "dealer")
    assert "Anna" in error.message  # deal 2 is dealt by seat (2 + 1) % 3


# --- the deal's seating and its refusals -----------------------------------------------------


def _case(deals: list, rules: dict = FIBUR) -> RuleError:
    return refused(doc(deals, rules))


def test_the_solo_player_must_be_named_while_solo_and_pair():
    error = _case([{"sides": [out(100), totals()]}])
    assert error.code == "solo_missing"
    assert error.where == ("deal 1", "solo") and error.place.field == "solo"
    assert score_document(doc([solo_deal(0, out(100), totals())]))


@pytest.mark.parametrize(("solo", "code"), [(3, "out_of_range"), ("Anna", "bad_type")])
def test_solo_is_a_seat(solo, code):
    error = _case([solo_deal(solo, out(100), totals())])
    assert error.code == code and error.where == ("deal 1", "solo")
    assert score_document(doc([solo_deal(2, out(100), totals())]))


def test_two_sides_with_a_solo_player():
    error = _case([{"solo": 0, "sides": [out(100), totals(), totals()]}])
    assert error.code == "side_count_solo_pair"
    assert error.where == ("deal 1", "sides")
    assert "2 sides (the solo player, then the pair), not 3" in error.message
    assert _case([{"solo": 0, "sides": [out(100)]}]).code == "side_count_solo_pair"


def test_three_sides_each_alone_or_without_a_solo_player():
    two = {"sides": [totals(60), totals(60)]}
    error = _case([DEAL_1000, two])
    assert error.code == "side_count_each_alone"
    assert error.where == ("deal 2", "sides") and "not 2" in error.message
    nobody = {"solo": None, "sides": [totals(took_pot=False)] * 2}
    error = _case([nobody])
    assert error.code == "side_count_no_solo" and error.where == ("deal 1", "sides")
    error = _case([{"sides": [totals()] * 4}], ALONE)
    assert error.code == "side_count_no_solo" and "not 4" in error.message


def test_the_solo_player_took_the_pozzetto():
    error = _case([solo_deal(2, totals(60, took_pot=False), totals())])
    assert error.code == "solo_without_pot"
    assert error.where == ("deal 1", "Chris", "took_pot")
    assert error.place.side == 0 and error.place.field == "took_pot"
    assert "Chris" in error.message


def test_without_a_solo_player_nobody_took_a_pozzetto():
    sides = [totals(took_pot=False), totals(took_pot=True), totals(took_pot=False)]
    error = _case([{"solo": None, "sides": sides}])
    assert error.code == "pot_without_solo"
    assert error.where == ("deal 1", "Babis", "took_pot") and error.place.side == 1
    assert "Babis took a pozzetto" in error.message


def test_solo_belongs_to_three_player_deals_only():
    four = ["Anna", "Babis", "Chris", "Dora"]
    error = refused(doc([solo_deal(0, totals(), totals())], {}, players=four))
    assert error.code == "unknown_key" and error.where == ("deal 1", "solo")
    assert score_document(doc([{"sides": [totals(), totals()]}], {}, players=four))


def test_sides_are_named_by_their_players():
    bad_meld = {"melds": [["3H", "4H", "2S", "JK"]], "hand": [], "took_pot": True}
    error = _case([solo_deal(1, out(100), bad_meld)])
    assert error.code == "two_wilds" and error.where[:2] == ("deal 1", "Anna & Chris")
    assert error.place.side == 1
    error = _case([solo_deal(1, bad_meld, totals())])
    assert error.where[:2] == ("deal 1", "Babis")
    error = _case([DEAL_1000, alone_deal(totals(), totals(), bad_meld)])
    assert error.where[:2] == ("deal 2", "Chris") and error.place.side == 2
    # two sides and no solo player: who they are is not said, the side is counted
    typo = {"totals": {"melded": 60, "in_hand": 0}, "took_pot": True, "went_ot": True}
    error = _case([{"sides": [totals(), typo]}])
    assert error.code == "unknown_key" and error.where[:2] == ("deal 1", "sides[1]")


def test_a_one_player_side_that_went_out_holds_no_cards_the_pair_may():
    holding = totals(100, 20, {"clean_burraco": 1}, went_out=True)
    error = _case([solo_deal(0, holding, totals())])
    assert error.code == "went_out_holding_cards" and error.where[:2] == ("deal 1", "Anna")
    scored = score_document(doc([solo_deal(0, totals(), holding)]))
    assert scored["deals"][0]["score"]["players"] == [0, 190, 190]
    error = _case([DEAL_1000, alone_deal(totals(), holding, totals())])
    assert error.code == "went_out_holding_cards" and error.where[:2] == ("deal 2", "Babis")


def test_no_deal_after_the_end():
    ended = [DEAL_1000, alone_deal(out(700), totals(), totals())]
    scored = score_document(doc(ended))
    assert scored["totals"] == [2000, 138, 138] and scored["winner"] == 0
    error = _case([*ended, PLAIN3])
    assert error.code == "match_finished" and error.where == ("deal 3",)
    assert "won by Anna with 2000" in error.message


def test_equal_highest_totals_play_on():
    five_hundred = totals(100, 0, {"clean_burraco": 2})
    level = alone_deal(five_hundred, five_hundred, totals())
    scored = score_document(doc([level], ALONE | {"target": 500}))
    assert scored["totals"] == [500, 500, 0]
    assert (scored["finished"], scored["winner"]) == (False, None)
    scored = score_document(doc([level, alone_deal(totals(15), totals(), totals())], ALONE))
    assert scored["totals"] == [515, 500, 0] and not scored["finished"]  # target 1505
    scored = score_document(
        doc([level, alone_deal(totals(15), totals(), totals())], ALONE | {"target": 500})
    )
    assert (scored["finished"], scored["winner"]) == (True, 0)


# --- export ----------------------------------------------------------------------------------


def test_the_export_keeps_solo_as_written_and_scores_again_the_same():
    nobody = {"solo": None, "sides": [totals(took_pot=False)] * 3}
    null = {"solo": None, "sides": [totals()] * 3}  # null in the each-alone phase: the same
    deals = [nobody, DEAL_1000, alone_deal(totals(), totals(), totals()), null]
    scored = score_document(doc(deals, FIBUR | {"alone_from": 900}))
    assert [("solo" in d, d.get("solo")) for d in scored["deals"]] == [
        (True, None),
        (True, 0),
        (False, None),
        (True, None),
    ]
    assert scored["deals"][2]["score"] == scored["deals"][3]["score"]
    assert score_document(json.loads(json.dumps(scored))) == scored
    assert len(scored["totals"]) == 3 and "victory_points" not in scored


def test_the_state_carries_the_phase():
    match = parse_document(doc([DEAL_1000]))
    state = state_of(match)
    assert state.tally == three.ThreeTally(1, (1000, 138, 138), alone_since=2)
    assert standing(state).next_deal == {
        "number": 2,
        "dealer": 1,
        "phase": "each_alone",
        "each_alone_from": 2,
    }
    before = score_start(match.header, match.rules)
    assert standing(before).next_deal["phase"] == "solo_pair"
    assert standing(before).next_deal["each_alone_from"] is None
    assert score_next(before, DEAL_1000).state == state


# --- halves ----------------------------------------------------------------------------------


def test_half_as_the_sources_round():
    assert [half(t, PairRounding.UP) for t in (195, -305, 200, -200, 5, -5, 0)] == [
        98,
        -152,
        100,
        -100,
        3,
        -2,
        0,
    ]
    assert [half(t, PairRounding.TRUNCATE) for t in (195, -305, 200, -200, 5, -5, 0)] == [
        97,
        -152,
        100,
        -100,
        2,
        -2,
        0,
    ]


@given(total=st.integers(-(10**6), 10**6).map(lambda n: 5 * n))
def test_the_halves_of_a_pair_differ_from_its_total_by_rounding_only(total):
    up, truncated = half(total, PairRounding.UP), half(total, PairRounding.TRUNCATE)
    assert 2 * up - total in (0, 1)  # rounded up
    assert 2 * truncated - total in ((0, -1) if total > 0 else (0, 1))  # towards 0
    assert abs(2 * truncated) <= abs(total)
    assert up == truncated or (total > 0 and total % 2 and up == truncated + 1)


@given(
    solo=st.integers(0, 2),
    melded=st.integers(0, 200).map(lambda n: 5 * n),
    in_hand=st.integers(0, 200).map(lambda n: 5 * n),
    took_pot=st.booleans(),
    rounding=st.sampled_from(["up", "truncate"]),
)
def test_each_player_of_the_pair_scores_the_same_half(solo, melded, in_hand, took_pot, rounding):
    melded = min(max(melded, 15), 500) if melded else 0  # a meld is worth 15 at least
    pair = totals(melded, min(in_hand, 500), took_pot=took_pot)
    scored = score_document(
        doc([solo_deal(solo, totals(15), pair)], FIBUR | {"pair_rounding": rounding})
    )
    score = scored["deals"][0]["score"]
    pair_total = score["sides"][1]["total"]
    mates = [score["players"][s] for s in range(3) if s != solo]
    assert mates[0] == mates[1] == half(pair_total, PairRounding(rounding))
    assert score["players"][solo] == score["sides"][0]["total"]
    assert 2 * mates[0] - pair_total in (0, 1, -1)


# --- every refusal points where its words say --------------------------------------------------


def _seating_of(mutated: dict, deal: int | None) -> MatchHeader | None:
    """The header whose sides a refusal at ``deal`` names: the deal's own seating (a solo
    player against the pair, when it names one and has two sides), else the match's."""
    header = header_of(mutated)
    if header is None or deal is None:
        return header
    raw = mutated["deals"][deal - 1] if deal <= len(mutated["deals"]) else None
    solo = raw.get("solo") if isinstance(raw, dict) else None
    sides = raw.get("sides") if isinstance(raw, dict) else None
    if type(solo) is int and 0 <= solo < 3 and isinstance(sides, list) and len(sides) == 2:
        return three.solo_and_pair(header, solo)
    return header


def test_every_mutation_of_the_examples_points_where_its_words_say():
    """test_places' sweep (each value replaced, each key dropped, a key added) over the
    three-player examples, the sides named by each deal's seating."""
    ex1 = doc([solo_deal(1, EX1_SOLO, EX1_PAIR)], {"preset": "fibur", "three_players": "fibur"})
    ex2 = doc([DEAL_1000, alone_deal(totals(150, 20), out(200), totals(60, 90, took_pot=False))])
    nobody = {"solo": None, "sides": [totals(60, 10, took_pot=False)] * 3}
    null = {"solo": None, "sides": [totals(60), out(100), totals(30, 5)]}
    ex3 = doc([nobody, DEAL_1000, null], FIBUR | {"alone_from": 900})
    codes: Counter[str] = Counter()
    for example in (ex1, ex2, ex3):
        for path in paths(example):
            for mutated in mutations(example, path):
                error = refusal(mutated)
                if error is not None:
                    check_place(error, _seating_of(mutated, error.place.deal))
                    codes[error.code] += 1
    assert {"solo_missing", "side_count_solo_pair", "solo_without_pot"} <= set(codes)
    assert {"side_count_each_alone", "pot_without_solo", "solo_when_each_alone"} <= set(codes)
    assert {"three_players_missing", "bad_choice", "out_of_range"} <= set(codes)


# --- what a page uses -------------------------------------------------------------------------


def test_the_outlook_of_a_three_player_match():
    match = parse_document(doc([DEAL_1000]))
    seen = burraco.outlook(match.header, match.rules, state_of(match).tally)
    assert seen == burraco.Outlook(
        player_totals=(1000, 138, 138), phase=Phase.EACH_ALONE, each_alone_from=2
    )
    start = score_start(match.header, match.rules)
    assert three.phase_of(start.tally) is Phase.SOLO_PAIR
    assert burraco.player_totals(match.header, start.tally) == (0, 0, 0)
    alone = parse_document(doc([], ALONE))
    assert three.phase_of(state_of(alone).tally) is Phase.EACH_ALONE
    assert ThreePlayers("fibur") is ThreePlayers.FIBUR
