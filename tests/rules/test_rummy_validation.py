"""Every refusal of the rummy games: a document that is refused (its code, and a message that
names the deal, the side, meld or card, and the rule) beside a near miss that is accepted."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

import pytest

from scorekeeper.rules.errors import RuleError, english
from scorekeeper.rules.match import score_document

FOUR = ["Anna", "Babis", "Chris", "Dora"]
TWO = ["Anna", "Babis"]
AC = "Anna & Chris"
BD = "Babis & Dora"

RUN7 = "3H 4H 5H 6H 7H 8H 9H"
BIRIBAS_15 = {"clean_biriba": 15}  # 105 cards at least
HAND3, HAND4 = "KD 7C 8C", "KD 7C 8C 9C"  # a clean biriba / burraco
DIRTY7 = "3H 4H 5H JK 7H 8H 9H"


def doc(game: str, deals: list, rules: dict | None = None, players=FOUR) -> dict:
    d: dict[str, Any] = {
        "format": "scorekeeper-match/1",
        "game": game,
        "players": list(players),
        "deals": deals,
    }
    if rules is not None:
        d["rules"] = rules
    return d


def side(melds=(), hand="", took_pot=True, went_out=False, **extra) -> dict:
    return {
        "melds": [m.split() for m in melds],
        "hand": hand.split(),
        "took_pot": took_pot,
        "went_out": went_out,
    } | extra


def deal(*sides, **extra) -> dict:
    return {"sides": list(sides)} | extra


def refused(d: dict) -> RuleError:
    with pytest.raises(RuleError) as e:
        score_document(d)
    return e.value


@dataclass
class Case:
    """``bad`` is refused with ``code`` and a message containing each of ``mentions``;
    ``good`` differs from it in the one point and is accepted."""

    bad: dict
    code: str
    mentions: list[str]
    good: dict
    where: tuple[str, ...] | None = None
    extra: dict = field(default_factory=dict)


CASES: dict[str, Case] = {
    # --- copies ---
    "third copy of a card": Case(
        bad=doc("biriba", [deal(side(["8S 9S 10S"], "8S"), side([], "8S"))]),
        code="too_many_copies",
        mentions=["deal 1", "8S", "3 times", "Anna & Chris meld 1", "Babis & Dora hand"],
        good=doc("biriba", [deal(side(["8S 9S 10S"], "8S"), side([], "8H"))]),
    ),
    "five jokers": Case(
        bad=doc("burraco", [deal(side(["3H 4H JK", "5S 6S JK"], "JK JK"), side([], "JK"))]),
        code="too_many_copies",
        mentions=["deal 1", "JK", "5 times", "hold 4"],
        good=doc("burraco", [deal(side(["3H 4H JK", "5S 6S JK"], "JK JK"), side([], "2S"))]),
    ),
    "closing discard counts as a copy": Case(
        bad=doc(
            "burraco",
            [
                deal(
                    side([RUN7, "KS KD KC"], went_out=True, final_discard="KC"),
                    side([], "KC"),
                )
            ],
        ),
        code="too_many_copies",
        mentions=["deal 1", "KC", "closing discard"],
        good=doc(
            "burraco",
            [deal(side([RUN7, "KS KD KC"], went_out=True, final_discard="KC"), side([], "KH"))],
        ),
    ),
    "copies counted in the second deal": Case(
        bad=doc(
            "biriba",
            [deal(side(), side()), deal(side(["QS KS AS", "QS KS AS"]), side([], "AS"))],
        ),
        code="too_many_copies",
        mentions=["deal 2", "AS"],
        good=doc(
            "biriba",
            [deal(side(), side()), deal(side(["QS KS AS", "QS KS AS"]), side([], "AH"))],
        ),
    ),
    "a meld holding a card three times": Case(
        bad=doc("burraco", [deal(side(["9C 9C 9C"]), side())]),
        code="meld_too_many_copies",
        mentions=["deal 1", "Anna & Chris", "meld 1", "9C", "3 times", "hold 2"],
        good=doc("burraco", [deal(side(["9C 9C 9H"]), side())]),
    ),
    # --- sides and going out ---
    "wrong number of sides": Case(
        bad=doc("biriba", [deal(side(), side(), side())]),
        code="side_count",
        mentions=["deal 1", "sides", "3 sides", "4 players make 2 sides"],
        good=doc("biriba", [deal(side(), side(), side())], players=["Anna", "Babis", "Chris"]),
    ),
    "two sides going out": Case(
        bad=doc("biriba", [deal(side(["3C 4C 5C"], went_out=True), side(went_out=True))]),
        code="two_sides_out",
        mentions=["deal 1", AC, BD, "at most one side goes out"],
        good=doc("biriba", [deal(side(["3C 4C 5C"], went_out=True), side())]),
    ),
    "going out without the biribaki": Case(
        bad=doc("biriba", [deal(side(["3C 4C 5C"], took_pot=False, went_out=True), side())]),
        code="went_out_without_pot",
        mentions=["deal 1", AC, "biribaki"],
        good=doc("biriba", [deal(side(["3C 4C 5C"], went_out=True), side())]),
    ),
    "going out without the pozzetto": Case(
        bad=doc("burraco", [deal(side([RUN7], took_pot=False, went_out=True), side())]),
        code="went_out_without_pot",
        mentions=["deal 1", AC, "pozzetto"],
        good=doc("burraco", [deal(side([RUN7], went_out=True), side())]),
    ),
    "biriba: going out without a clean biriba": Case(
        bad=doc(
            "biriba",
            [deal(side([DIRTY7], went_out=True), side())],
            {"close_needs_clean_biriba": True},
        ),
        code="went_out_without_clean_biriba",
        mentions=["deal 1", AC, "clean biriba"],
        good=doc(
            "biriba",
            [deal(side([RUN7], went_out=True), side())],
            {"close_needs_clean_biriba": True},
        ),
    ),
    "biriba: a clean set biriba is a clean biriba for going out": Case(
        bad=doc(
            "biriba",
            [deal(side(["8S 8S 8H 8H 8D 8D JK"], went_out=True), side())],
            {"close_needs_clean_biriba": True, "sets": True},
        ),
        code="went_out_without_clean_biriba",
        mentions=["deal 1", AC],
        good=doc(
            "biriba",
            [deal(side(["8S 8S 8H 8H 8D 8D 8C"], went_out=True), side())],
            {"close_needs_clean_biriba": True, "sets": True},
        ),
    ),
    "biriba: pot needs a biriba": Case(
        bad=doc(
            "biriba", [deal(side(["3C 4C 5C"]), side(took_pot=False))], {"pot_needs_biriba": True}
        ),
        code="pot_without_biriba",
        mentions=["deal 1", AC, "pot_needs_biriba"],
        good=doc(
            "biriba", [deal(side([DIRTY7]), side(took_pot=False))], {"pot_needs_biriba": True}
        ),
    ),
    "burraco: going out without a burraco": Case(
        bad=doc("burraco", [deal(side(["3H 4H 5H 6H 7H 8H"], went_out=True), side())]),
        code="went_out_without_burraco",
        mentions=["deal 1", AC, "burraco"],
        good=doc("burraco", [deal(side([DIRTY7], went_out=True), side())]),
    ),
    "burraco international: going out needs a clean burraco": Case(
        bad=doc(
            "burraco",
            [deal(side([DIRTY7], went_out=True), side())],
            {"preset": "international"},
        ),
        code="went_out_without_clean_burraco",
        mentions=["deal 1", AC, "clean burraco"],
        good=doc(
            "burraco", [deal(side([RUN7], went_out=True), side())], {"preset": "international"}
        ),
    ),
    "burraco: a semipulito is not clean for close_needs clean": Case(
        bad=doc(
            "burraco",
            [deal(side(["3H 4H 5H 6H 7H 8H 9H JK"], went_out=True), side())],
            {"preset": "fibur", "close_needs": "clean"},
        ),
        code="went_out_without_clean_burraco",
        mentions=["deal 1", AC],
        good=doc(
            "burraco",
            [deal(side(["3H 4H 5H 6H 7H 8H 9H 10H"], went_out=True), side())],
            {"preset": "fibur", "close_needs": "clean"},
        ),
    ),
    "burraco: a wild closing discard": Case(
        bad=doc("burraco", [deal(side([RUN7], went_out=True, final_discard="JK"), side())]),
        code="wild_closing_discard",
        mentions=["deal 1", AC, "final_discard", "JK", "wild"],
        good=doc("burraco", [deal(side([RUN7], went_out=True, final_discard="QS"), side())]),
    ),
    "burraco: a two is a wild closing discard": Case(
        bad=doc("burraco", [deal(side([RUN7], went_out=True, final_discard="2H"), side())]),
        code="wild_closing_discard",
        mentions=["deal 1", AC, "2H"],
        good=doc("burraco", [deal(side([RUN7], went_out=True, final_discard="3S"), side())]),
    ),
    "burraco: a closing discard on a side that did not go out": Case(
        bad=doc("burraco", [deal(side([RUN7]), side(final_discard="QS"))]),
        code="discard_without_going_out",
        mentions=["deal 1", BD, "QS", "did not go out"],
        good=doc("burraco", [deal(side([RUN7]), side())]),
    ),
    "one player who went out holds no cards": Case(
        bad=doc("biriba", [deal(side(["3C 4C 5C"], "KD", went_out=True), side())], players=TWO),
        code="went_out_holding_cards",
        mentions=["deal 1", "Anna", "hand", "KD"],
        good=doc("biriba", [deal(side(["3C 4C 5C"], "KD", went_out=True), side())]),
    ),
    "one player who went out holds no cards (totals)": Case(
        bad=doc(
            "burraco",
            [
                deal(
                    {
                        "totals": {"melded": 90, "in_hand": 10, "bonuses": {"clean_burraco": 1}},
                        "took_pot": True,
                        "went_out": True,
                    },
                    side(),
                )
            ],
            players=TWO,
        ),
        code="went_out_holding_cards",
        mentions=["deal 1", "Anna", "in_hand", "10"],
        good=doc(
            "burraco",
            [
                deal(
                    {
                        "totals": {"melded": 90, "in_hand": 0, "bonuses": {"clean_burraco": 1}},
                        "took_pot": True,
                        "went_out": True,
                    },
                    side(),
                )
            ],
            players=TWO,
        ),
    ),
    # --- melds ---
    "two wilds in a meld": Case(
        bad=doc("biriba", [deal(side(), side(["5C 6C JK 2D", "9D 10D JD"]))]),
        code="two_wilds",
        mentions=["deal 1", BD, "meld 1 (5C 6C JK 2D)", "two wild cards in one meld"],
        where=("deal 1", BD, "meld 1 (5C 6C JK 2D)"),
        good=doc("biriba", [deal(side(), side(["5C 6C JK 8C", "9D 10D JD"]))]),
    ),
    "a set when sets are off": Case(
        bad=doc("biriba", [deal(side(["QS KS AS", "8S 8H 8D"]), side())]),
        code="sets_off",
        mentions=["deal 1", AC, "meld 2 (8S 8H 8D)", 'the option "sets" is off'],
        good=doc("biriba", [deal(side(["QS KS AS", "8S 8H 8D"]), side())], {"sets": True}),
    ),
    "biriba: a run of 14 cards": Case(
        bad=doc("biriba", [deal(side(["AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK"]), side())]),
        code="run_too_long",
        mentions=["deal 1", AC, "meld 1", "13 cards"],
        good=doc("burraco", [deal(side(["AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK"]), side())]),
    ),
    "burraco: two sets of one rank with duplicate_sets off": Case(
        bad=doc(
            "burraco",
            [deal(side(["KS KD KC", "QH QS QD", "KH KD JK"]), side())],
            {"preset": "fibur"},
        ),
        code="duplicate_set",
        mentions=["deal 1", AC, "meld 3 (KH KD JK)", "kings", "meld 1"],
        good=doc("burraco", [deal(side(["KS KD KC", "QH QS QD", "KH KD JK"]), side())]),
    ),
    "burraco international: a set of kings": Case(
        bad=doc("burraco", [deal(side(["KS KD KC"]), side())], {"preset": "international"}),
        code="set_rank_not_allowed",
        mentions=["deal 1", AC, "meld 1 (KS KD KC)", "aces or 3s"],
        good=doc("burraco", [deal(side(["AS AD AC"]), side())], {"preset": "international"}),
    ),
    "a meld of two cards": Case(
        bad=doc("burraco", [deal(side(["QS KS"]), side())]),
        code="meld_too_short",
        mentions=["deal 1", AC, "meld 1 (QS KS)", "at least 3"],
        good=doc("burraco", [deal(side(["QS KS AS"]), side())]),
    ),
    "the ace turning the corner": Case(
        bad=doc("biriba", [deal(side(["KS AS 2S"]), side(["QH KH AH 2H 3H"]))]),
        code="run_around_corner",
        mentions=["deal 1", BD, "meld 1 (QH KH AH 2H 3H)", "corner"],
        good=doc("biriba", [deal(side(["KS AS 2S"]), side(["QH KH AH JK"]))]),
    ),
    # --- totals form ---
    "totals: not a multiple of 5": Case(
        bad=doc("biriba", [deal({"totals": {"melded": 42, "in_hand": 0}}, side())]),
        code="not_multiple_of_5",
        mentions=["deal 1", AC, "totals, melded", "42"],
        good=doc("biriba", [deal({"totals": {"melded": 40, "in_hand": 0}}, side())]),
    ),
    "totals: negative melded points": Case(
        bad=doc("biriba", [deal({"totals": {"melded": -20, "in_hand": 0}}, side())]),
        code="out_of_range",
        mentions=["deal 1", AC, "melded", "-20"],
        good=doc("biriba", [deal({"totals": {"melded": 20, "in_hand": 0}}, side())]),
    ),
    "totals: more bonuses than the melded cards allow": Case(
        bad=doc(
            "biriba",
            [
                deal(
                    {"totals": {"melded": 85, "in_hand": 0, "bonuses": {"clean_biriba": 2}}}, side()
                )
            ],
        ),
        code="totals_bonuses_exceed_melded",
        mentions=["deal 1", AC, "clean biriba ×2", "at least 90", "85"],
        good=doc(
            "biriba",
            [
                deal(
                    {"totals": {"melded": 90, "in_hand": 0, "bonuses": {"clean_biriba": 2}}}, side()
                )
            ],
        ),
    ),
    "totals: a whole suit needs 13 cards": Case(
        bad=doc(
            "biriba",
            [
                deal(
                    {"totals": {"melded": 100, "in_hand": 0, "bonuses": {"clean_whole_suit": 1}}},
                    side(),
                )
            ],
        ),
        code="totals_bonuses_exceed_melded",
        mentions=["deal 1", AC, "(clean whole suit)", "110"],
        good=doc(
            "biriba",
            [
                deal(
                    {"totals": {"melded": 110, "in_hand": 0, "bonuses": {"clean_whole_suit": 1}}},
                    side(),
                )
            ],
        ),
    ),
    "totals: more points than all the cards are worth (a slip: 2350 for 235)": Case(
        bad=doc("biriba", [deal({"totals": {"melded": 2350, "in_hand": 15}}, side())]),
        code="totals_exceed_pack",
        mentions=["deal 1", AC, "totals", "melded 2350", "more than all 108 cards", "960"],
        where=("deal 1", AC, "totals"),
        good=doc("biriba", [deal({"totals": {"melded": 235, "in_hand": 15}}, side())]),
    ),
    "totals: with the other side's cards, more points than the cards are worth": Case(
        bad=doc(
            "burraco",
            [deal({"totals": {"melded": 1025, "in_hand": 0}}, side(["KS KD KC"], "JK"))],
            players=TWO,
        ),
        code="totals_exceed_pack",
        mentions=["deal 1", "Anna", "melded 1025", "60 recorded elsewhere", "1085", "1080"],
        where=("deal 1", "Anna", "totals"),
        good=doc(
            "burraco",
            [deal({"totals": {"melded": 1020, "in_hand": 0}}, side(["KS KD KC"], "JK"))],
            players=TWO,
        ),
    ),
    "totals: more bonus melds than the 108 cards can make": Case(
        bad=doc(
            "biriba",
            [
                deal(
                    {"totals": {"melded": 675, "in_hand": 0, "bonuses": BIRIBAS_15}},
                    side([], HAND4),
                )
            ],
        ),
        code="totals_bonuses_exceed_cards",
        mentions=["deal 1", AC, "clean biriba ×15", "at least 105 cards", "4 cards", "108"],
        where=("deal 1", AC, "totals", "bonuses"),
        good=doc(
            "biriba",
            [
                deal(
                    {"totals": {"melded": 675, "in_hand": 0, "bonuses": BIRIBAS_15}},
                    side([], HAND3),
                )
            ],
        ),
    ),
    "totals: melded less than the cheapest meld": Case(
        bad=doc("burraco", [deal({"totals": {"melded": 10, "in_hand": 0}}, side())]),
        code="totals_melded_too_small",
        mentions=["deal 1", AC, "10", "15"],
        good=doc("burraco", [deal({"totals": {"melded": 15, "in_hand": 0}}, side())]),
    ),
    "totals: a set biriba with sets off": Case(
        bad=doc(
            "biriba",
            [
                deal(
                    {"totals": {"melded": 70, "in_hand": 0, "bonuses": {"clean_set_biriba": 1}}},
                    side(),
                )
            ],
        ),
        code="bonus_not_in_rules",
        mentions=["deal 1", AC, "clean_set_biriba", 'the option "sets" is off'],
        good=doc(
            "biriba",
            [
                deal(
                    {"totals": {"melded": 70, "in_hand": 0, "bonuses": {"clean_set_biriba": 1}}},
                    side(),
                )
            ],
            {"sets": True},
        ),
    ),
    "totals: a trump biriba with no trump recorded": Case(
        bad=doc(
            "biriba",
            [
                deal(
                    {"totals": {"melded": 70, "in_hand": 0, "bonuses": {"clean_trump_biriba": 1}}},
                    side(),
                )
            ],
        ),
        code="bonus_not_in_rules",
        mentions=["deal 1", AC, "clean_trump_biriba", "trump"],
        good=doc(
            "biriba",
            [
                deal(
                    {"totals": {"melded": 70, "in_hand": 0, "bonuses": {"clean_trump_biriba": 1}}},
                    side(),
                    trump="H",
                )
            ],
        ),
    ),
    "totals: going out needs a burraco in the counts": Case(
        bad=doc(
            "burraco",
            [
                deal(
                    {"totals": {"melded": 60, "in_hand": 0}, "took_pot": True, "went_out": True},
                    side(),
                )
            ],
        ),
        code="went_out_without_burraco",
        mentions=["deal 1", AC],
        good=doc(
            "burraco",
            [
                deal(
                    {
                        "totals": {"melded": 60, "in_hand": 0, "bonuses": {"dirty_burraco": 1}},
                        "took_pot": True,
                        "went_out": True,
                    },
                    side(),
                )
            ],
        ),
    ),
    # --- structure ---
    "a typo in a side's key": Case(
        bad=doc("biriba", [deal(side(), {"melds": [], "went_ot": True})]),
        code="unknown_key",
        mentions=["deal 1", BD, "went_ot"],
        good=doc("biriba", [deal(side(), {"melds": [], "went_out": False})]),
    ),
    "trump in a Burraco deal": Case(
        bad=doc("burraco", [deal(side(), side(), trump="H")]),
        code="unknown_key",
        mentions=["deal 1", "trump"],
        good=doc("biriba", [deal(side(), side(), trump="H")]),
    ),
    "final_discard on a Biriba side": Case(
        bad=doc("biriba", [deal(side(["3C 4C 5C"], went_out=True, final_discard="KD"), side())]),
        code="unknown_key",
        mentions=["deal 1", AC, "final_discard"],
        good=doc("burraco", [deal(side([RUN7], went_out=True, final_discard="KD"), side())]),
    ),
    "a bad card string": Case(
        bad=doc("biriba", [deal(side(["3C 4C 5C"], "KD 11H"), side())]),
        code="bad_card",
        mentions=["deal 1", AC, "hand[1]", '"11H"'],
        good=doc("biriba", [deal(side(["3C 4C 5C"], "KD JH"), side())]),
    ),
    "a bad card in a meld": Case(
        bad=doc("burraco", [deal(side(["3C 4C 5X"]), side())]),
        code="bad_card",
        mentions=["deal 1", AC, "melds[0][2]", '"5X"'],
        good=doc("burraco", [deal(side(["3C 4C 5C"]), side())]),
    ),
    "a bad trump": Case(
        bad=doc("biriba", [deal(side(), side(), trump="X")]),
        code="bad_suit",
        mentions=["deal 1", "trump", '"X"'],
        good=doc("biriba", [deal(side(), side(), trump="♦")]),
    ),
    "took_pot must be true or false": Case(
        bad=doc("biriba", [deal(side(), {"took_pot": "yes"})]),
        code="bad_type",
        mentions=["deal 1", BD, "took_pot"],
        good=doc("biriba", [deal(side(), {"took_pot": True})]),
    ),
    "a deal without sides": Case(
        bad=doc("burraco", [{"dealer": 0}]),
        code="missing_key",
        mentions=["deal 1", "sides"],
        good=doc("burraco", [{"dealer": 0, "sides": [{}, {}]}]),
    ),
    "cards and totals on one side": Case(
        bad=doc("biriba", [deal({"hand": ["KD"], "totals": {"melded": 0, "in_hand": 10}}, side())]),
        code="totals_and_cards",
        mentions=["deal 1", AC, "hand"],
        good=doc("biriba", [deal({"totals": {"melded": 0, "in_hand": 10}}, side())]),
    ),
    "totals missing in_hand": Case(
        bad=doc("biriba", [deal({"totals": {"melded": 0}}, side())]),
        code="missing_key",
        mentions=["deal 1", AC, "totals", "in_hand"],
        good=doc("biriba", [deal({"totals": {"melded": 0, "in_hand": 0}}, side())]),
    ),
    "an unknown bonus kind": Case(
        bad=doc(
            "burraco",
            [
                deal(
                    {"totals": {"melded": 45, "in_hand": 0, "bonuses": {"clean_biriba": 1}}}, side()
                )
            ],
        ),
        code="unknown_key",
        mentions=["deal 1", AC, "bonuses", "clean_biriba"],
        good=doc(
            "burraco",
            [
                deal(
                    {"totals": {"melded": 45, "in_hand": 0, "bonuses": {"clean_burraco": 1}}},
                    side(),
                )
            ],
        ),
    ),
    # --- the match ---
    "a dealer out of rotation": Case(
        bad=doc("biriba", [deal(side(), side(), dealer=0), deal(side(), side(), dealer=0)]),
        code="wrong_dealer",
        mentions=["deal 2", "dealer", "Anna", "Babis"],
        good=doc("biriba", [deal(side(), side(), dealer=0), deal(side(), side(), dealer=1)]),
    ),
    "a deal after the end of the match": Case(
        bad=doc(
            "burraco",
            [
                deal({"totals": {"melded": 500, "in_hand": 0}, "took_pot": True}, side()),
                deal(side(), side()),
            ],
            {"target": 500},
        ),
        code="match_finished",
        mentions=["deal 2", AC, "deal 1"],
        good=doc(
            "burraco",
            [
                deal({"totals": {"melded": 495, "in_hand": 0}, "took_pot": True}, side()),
                deal(side(), side()),
            ],
            {"target": 500},
        ),
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_refused_with_code_and_place(name):
    case = CASES[name]
    error = refused(copy.deepcopy(case.bad))
    assert error.code == case.code, error.message
    for text in case.mentions:
        assert text in error.message, (text, error.message)
    if case.where is not None:
        assert error.where == case.where
    assert error.where and error.where[0].startswith(("deal ", "rules"))


@pytest.mark.parametrize("name", list(CASES))
def test_near_miss_is_accepted(name):
    out = score_document(copy.deepcopy(CASES[name].good))
    assert all(t % 5 == 0 for t in out["totals"])


def test_a_rule_error_names_the_side_by_its_players():
    e = refused(doc("biriba", [deal(side(), side(["5C 6C JK 2D"]))]))
    assert e.message == f"deal 1, {BD}, meld 1 (5C 6C JK 2D): two wild cards in one meld (JK 2D)"
    assert e.where == ("deal 1", BD, "meld 1 (5C 6C JK 2D)")
    assert e.as_dict()["code"] == "two_wilds"


def test_a_template_has_no_baked_text():
    """Every message is its template filled with its params, each as English shows it (a
    card code, a contract or an option in words): translations replace templates."""
    for case in CASES.values():
        error = refused(copy.deepcopy(case.bad))
        shown = {key: english(value) for key, value in error.params.items()}
        assert error.text == error.template.format(**shown)


def test_the_export_key_score_is_accepted_on_a_deal_and_recomputed():
    d = doc("biriba", [deal(side(["3C 4C 5C"]), side(), score={"sides": [{"total": 999}]})])
    out = score_document(d)
    assert out["deals"][0]["score"]["sides"][0]["total"] == 15


def test_defaults_of_a_side():
    out = score_document(doc("burraco", [deal({}, {"hand": ["KD"]})]))
    assert out["deals"][0]["sides"][0] == {
        "melds": [],
        "hand": [],
        "took_pot": False,
        "went_out": False,
    }
    assert out["totals"] == [-100, -110]


def test_player_counts():
    with pytest.raises(RuleError) as e:
        score_document(doc("burraco", [], players=["Anna", "Babis", "Chris", "Dora", "Eleni"]))
    assert e.value.code == "player_count"
    score_document(doc("biriba", [], players=["Anna", "Babis", "Chris"]))
    # three play Burraco in a form of their own, which the rules must name
    with pytest.raises(RuleError) as e:
        score_document(doc("burraco", [], players=["Anna", "Babis", "Chris"]))
    assert e.value.code == "three_players_missing"
    three = doc("burraco", [], {"three_players": "fibur"}, players=["Anna", "Babis", "Chris"])
    assert score_document(three)["totals"] == [0, 0, 0]
