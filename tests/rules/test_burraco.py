"""Burraco: presets and options, meld values and bonuses, deal scoring, the match."""

import pytest

from scorekeeper.rules import burraco
from scorekeeper.rules.burraco import BurracoRules, CloseNeeds, Preset, SetRanks, meld_score
from scorekeeper.rules.cards import parse_card
from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.match import rules_with_defaults, score_document
from scorekeeper.rules.melds import Purity, WildPlace
from scorekeeper.rules.rummy import CardSide

CLASSIC = BurracoRules()
FIBUR = burraco.parse_rules({"preset": "fibur"})
INTERNATIONAL = burraco.parse_rules({"preset": "international"})
PLAYERS = ["Anna", "Babis", "Chris", "Dora"]


def doc(deals, rules=None, players=PLAYERS):
    d = {"format": "scorekeeper-match/1", "game": "burraco", "players": players, "deals": deals}
    if rules is not None:
        d["rules"] = rules
    return d


def side(melds=(), hand="", took_pot=True, went_out=False, **extra):
    return {
        "melds": [m.split() for m in melds],
        "hand": hand.split(),
        "took_pot": took_pot,
        "went_out": went_out,
    } | extra


def points(cards, rules=CLASSIC):
    m = meld_score(cards, rules)
    return m.card_points, m.bonus, m.bonus_points


# --- presets and options ------------------------------------------------------------------------


def test_classic_is_the_default():
    assert rules_with_defaults("burraco") == {
        "preset": "classic",
        "target": 2000,
        "semipulito": False,
        "close_needs": "any",
        "set_ranks": "all",
        "duplicate_sets": True,
        "going_out_bonus": 100,
        "no_pot_penalty": 100,
    }


def test_fibur_preset():
    assert burraco.rules_json(FIBUR) == {
        "preset": "fibur",
        "target": 2005,
        "semipulito": True,
        "close_needs": "any",
        "set_ranks": "all",
        "duplicate_sets": False,
        "going_out_bonus": 100,
        "no_pot_penalty": 100,
    }


def test_international_preset():
    assert INTERNATIONAL == BurracoRules(
        preset=Preset.INTERNATIONAL,
        target=2000,
        semipulito=False,
        close_needs=CloseNeeds.CLEAN,
        set_ranks=SetRanks.ACES_AND_THREES,
        duplicate_sets=True,
    )


def test_a_key_beside_the_preset_overrides_it():
    rules = burraco.parse_rules({"preset": "international", "semipulito": True, "target": 1505})
    assert rules.semipulito and rules.target == 1505
    assert rules.close_needs is CloseNeeds.CLEAN and rules.set_ranks is SetRanks.ACES_AND_THREES
    assert burraco.parse_rules({"duplicate_sets": False, "preset": "fibur"}).target == 2005
    assert burraco.parse_rules({"preset": "fibur", "duplicate_sets": True}).duplicate_sets


def test_rules_json_round_trips():
    for rules in (CLASSIC, FIBUR, INTERNATIONAL):
        assert burraco.parse_rules(burraco.rules_json(rules)) == rules


@pytest.mark.parametrize(
    ("raw", "code", "key"),
    [
        ({"preset": "italian"}, "bad_choice", "preset"),
        ({"close_needs": "pulito"}, "bad_choice", "close_needs"),
        ({"set_ranks": "aces"}, "bad_choice", "set_ranks"),
        ({"semipulito": 1}, "bad_type", "semipulito"),
        ({"target": -5}, "out_of_range", "target"),
        ({"going_out_bonus": 99}, "not_multiple_of_5", "going_out_bonus"),
        ({"no_pot_penalty": 12}, "not_multiple_of_5", "no_pot_penalty"),
        ({"sets": True}, "unknown_key", "sets"),
        ({"trump_doubles": True}, "unknown_key", "trump_doubles"),
    ],
)
def test_bad_options_are_refused_naming_the_key(raw, code, key):
    with pytest.raises(RuleError) as e:
        score_document(doc([], raw))
    assert e.value.code == code
    assert e.value.where == ("rules", key)


# --- meld values: the worked examples of rules.md ---------------------------------------------


def test_example_1_melds():
    assert points("3H 4H 5H 6H 7H 8H 9H") == (45, "clean_burraco", 200)
    assert points("KS KD KC") == (30, None, 0)
    assert points("10S JS QS JK") == (60, None, 0)
    assert points("7S 7D 7C") == (15, None, 0)


def test_example_2_semipulito_under_fibur_sporco_under_classic():
    end = "5D 6D 7D 8D 9D 10D JD JK"
    assert points(end, FIBUR) == (85, "semi_clean_burraco", 150)
    assert points(end, CLASSIC) == (85, "dirty_burraco", 100)
    assert points(end, INTERNATIONAL) == (85, "dirty_burraco", 100)
    inside = "5D 6D 7D JK 9D 10D JD QD"
    for rules in (CLASSIC, FIBUR, INTERNATIONAL):
        assert points(inside, rules) == (85, "dirty_burraco", 100)


def test_example_3_natural_two_and_wild_two():
    assert points("AC 2C 3C 4C 5C 6C 7C") == (60, "clean_burraco", 200)
    assert points("AC 2C 3C 2H 5C 6C 7C") == (75, "dirty_burraco", 100)


def test_example_4_melds():
    assert points("AC 2C 3C 4C 5C 6C 7C 8C") == (70, "clean_burraco", 200)
    assert points("QH QS JK") == (50, None, 0)
    assert points("4D 5D 6D") == (15, None, 0)


def test_card_values():
    values = {"JK": 30, "2H": 20, "AS": 15, "KD": 10, "8C": 10, "7C": 5, "3S": 5}
    for card, value in values.items():
        assert burraco.card_value(parse_card(card)) == value


def test_semipulito_set_of_eight_with_the_wild():
    m = meld_score("9S 9S 9H 9H 9D 9D 9C 2C", FIBUR)
    assert (m.bonus, m.bonus_points) == ("semi_clean_burraco", 150)
    assert m.reading.purity is Purity.SEMI_CLEAN


def test_a_run_of_13_naturals_and_a_14th_wild():
    m = meld_score("JK AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", CLASSIC)
    assert m.reading.wild_place is WildPlace.EXTRA
    assert (m.card_points, m.bonus) == (15 + 20 + 25 + 60 + 30, "dirty_burraco")
    assert meld_score("JK AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", FIBUR).bonus == (
        "semi_clean_burraco"
    )


def test_international_sets_only_of_aces_and_threes():
    assert points("AS AH AD 2C", INTERNATIONAL) == (65, None, 0)
    assert points("3S 3H 3D", INTERNATIONAL) == (15, None, 0)
    with pytest.raises(RuleError) as e:
        meld_score("KS KD KC", INTERNATIONAL)
    assert e.value.code == "set_rank_not_allowed"


def test_a_set_holds_at_most_nine_cards():
    assert points("8S 8S 8H 8H 8D 8D 8C 8C JK")[1] == "dirty_burraco"
    with pytest.raises(RuleError):
        meld_score("8S 8S 8H 8H 8D 8D 8C 8C 8C", CLASSIC)


# --- deals ------------------------------------------------------------------------------------


def test_example_1_deal():
    out = score_document(
        doc(
            [
                {
                    "sides": [
                        side(["3H 4H 5H 6H 7H 8H 9H", "KS KD KC"], "4C QD", went_out=True),
                        side(["10S JS QS JK", "7S 7D 7C"], "AH 2C 5D KS"),
                    ]
                }
            ]
        )
    )
    s0, s1 = out["deals"][0]["score"]["sides"]
    assert (s0["melded"], s0["bonuses"], s0["going_out"], s0["in_hand"]) == (75, 200, 100, -15)
    assert (s0["total"], s1["total"]) == (360, 25)
    assert "trump" not in out["deals"][0]


def test_example_4_deal_no_pozzetto():
    out = score_document(
        doc(
            [
                {
                    "sides": [
                        side(["AC 2C 3C 4C 5C 6C 7C 8C", "QH QS JK"], "6S", went_out=True),
                        side(["4D 5D 6D"], "KS KH 9C 9C 3D JK AS AD 8H 2S", took_pot=False),
                    ]
                }
            ]
        )
    )
    assert out["totals"] == [415, -220]
    s1 = out["deals"][0]["score"]["sides"][1]
    assert (s1["melded"], s1["in_hand"], s1["no_pot"]) == (15, -135, -100)


def test_closing_discard_is_recorded_and_exported():
    deal = {
        "sides": [
            side(["3H 4H 5H 6H 7H 8H 9H"], went_out=True, final_discard="kd"),
            side(["4D 5D 6D"]),
        ]
    }
    out = score_document(doc([deal]))
    assert out["deals"][0]["sides"][0]["final_discard"] == "KD"
    assert out["totals"] == [45 + 200 + 100, 15]


def test_two_players():
    deal = {
        "sides": [
            side(["3H 4H 5H 6H 7H 8H 9H"], went_out=True, final_discard="KD"),
            side(["4D 5D 6D"], "JK"),
        ]
    }
    out = score_document(doc([deal], players=["Anna", "Babis"]))
    assert out["totals"] == [345, -15]


def test_totals_form_side():
    deal = {
        "sides": [
            {
                "totals": {"melded": 90, "in_hand": 0, "bonuses": {"clean_burraco": 1}},
                "took_pot": True,
                "went_out": True,
                "final_discard": "9S",
            },
            {"totals": {"melded": 0, "in_hand": 40}},
        ]
    }
    out = score_document(doc([deal]))
    assert out["totals"] == [390, -140]
    assert out["deals"][0]["sides"][0]["totals"]["bonuses"] == {"clean_burraco": 1}


def test_semi_clean_totals_need_semipulito():
    deal = {
        "sides": [
            {"totals": {"melded": 90, "in_hand": 0, "bonuses": {"semi_clean_burraco": 1}}},
            {"totals": {"melded": 0, "in_hand": 0}},
        ]
    }
    assert score_document(doc([deal], {"preset": "fibur"}))["totals"] == [90 + 150 - 100, -100]
    with pytest.raises(RuleError) as e:
        score_document(doc([deal]))
    assert e.value.code == "bonus_not_in_rules"
    assert e.value.where == ("deal 1", "Anna & Chris", "totals", "bonuses", "semi_clean_burraco")


def test_score_side_preview():
    s = CardSide(
        melds=(tuple(parse_card(c) for c in "5D 6D 7D 8D 9D 10D JD JK".split()),),
        took_pot=True,
    )
    assert burraco.score_side(s, FIBUR).total == 85 + 150
    assert burraco.score_side(s, CLASSIC).total == 85 + 100


# --- the match --------------------------------------------------------------------------------


def _deal(score0: int) -> dict:
    return {
        "sides": [
            {
                "totals": {"melded": score0 - 300, "in_hand": 0, "bonuses": {"clean_burraco": 1}},
                "took_pot": True,
                "went_out": True,
            },
            {"totals": {"melded": 0, "in_hand": 0}, "took_pot": True},
        ]
    }


def test_the_match_ends_at_the_target_of_the_preset():
    out = score_document(doc([_deal(1000), _deal(1000)]))
    assert out["finished"] and out["winner"] == 0 and out["totals"] == [2000, 0]
    out = score_document(doc([_deal(1000), _deal(1000)], {"preset": "fibur"}))
    assert not out["finished"] and out["winner"] is None  # fibur plays to 2005


def test_both_sides_past_the_target_the_higher_wins():
    deal = {
        "sides": [
            {
                "totals": {"melded": 300, "in_hand": 0, "bonuses": {"clean_burraco": 4}},
                "took_pot": True,
            },
            {
                "totals": {"melded": 400, "in_hand": 0, "bonuses": {"clean_burraco": 4}},
                "took_pot": True,
            },
        ]
    }
    out = score_document(doc([deal], {"target": 1000}))
    assert out["totals"] == [1100, 1200]
    assert out["finished"] and out["winner"] == 1


def test_a_closing_discard_counts_among_the_cards_of_the_deal():
    """105 cards behind 15 burracos, the closing discard and 3 cards in the other hand: 109."""
    out = {
        "totals": {"melded": 525, "in_hand": 0, "bonuses": {"clean_burraco": 15}},
        "took_pot": True,
        "went_out": True,
        "final_discard": "KD",
    }
    with pytest.raises(RuleError) as e:
        score_document(doc([{"sides": [out, side(hand="KS QS JS")]}], players=["Anna", "Babis"]))
    assert e.value.code == "totals_bonuses_exceed_cards"
    assert e.value.where == ("deal 1", "Anna", "totals", "bonuses")
    assert "need at least 105 cards" in e.value.message and "with 4 cards" in e.value.message
    assert score_document(doc([{"sides": [out, side(hand="KS QS")]}], players=["Anna", "Babis"]))
