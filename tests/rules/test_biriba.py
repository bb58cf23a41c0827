"""Biriba: options, meld values and bonuses, deal scoring, the match."""

import pytest

from scorekeeper.rules import biriba
from scorekeeper.rules.base import MatchHeader
from scorekeeper.rules.biriba import BiribaRules, CardValues, WholeSuit, meld_score
from scorekeeper.rules.cards import Suit, parse_card
from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.match import rules_with_defaults, score_document
from scorekeeper.rules.rummy import CardSide, RummyDeal, TotalsSide

RULES = BiribaRules()
PLAYERS = ["Anna", "Babis", "Chris", "Dora"]


def doc(deals, rules=None, players=PLAYERS, **extra):
    d = {"format": "scorekeeper-match/1", "game": "biriba", "players": players, "deals": deals}
    if rules is not None:
        d["rules"] = rules
    return d | extra


def side(melds=(), hand="", took_pot=True, went_out=False):
    return {
        "melds": [m.split() for m in melds],
        "hand": hand.split(),
        "took_pot": took_pot,
        "went_out": went_out,
    }


def totals(deals, rules=None, players=PLAYERS):
    return score_document(doc(deals, rules, players))["totals"]


def points(cards, rules=RULES, trump=None):
    m = meld_score(cards, rules, trump)
    return m.card_points, m.bonus, m.bonus_points


# --- options ------------------------------------------------------------------------------------


def test_defaults():
    assert rules_with_defaults("biriba") == {
        "target": 3000,
        "sets": False,
        "card_values": "standard",
        "trump_doubles": True,
        "whole_suit": "replaces",
        "close_needs_clean_biriba": False,
        "pot_needs_biriba": False,
        "going_out_bonus": 100,
        "no_pot_penalty": 100,
    }


def test_every_option_parses_and_round_trips():
    raw = {
        "target": 1500,
        "sets": True,
        "card_values": "greek_wikipedia",
        "trump_doubles": False,
        "whole_suit": "adds",
        "close_needs_clean_biriba": True,
        "pot_needs_biriba": True,
        "going_out_bonus": 50,
        "no_pot_penalty": 0,
    }
    rules = biriba.parse_rules(raw)
    assert rules.card_values is CardValues.GREEK_WIKIPEDIA and rules.whole_suit is WholeSuit.ADDS
    assert biriba.rules_json(rules) == raw
    assert biriba.parse_rules(biriba.rules_json(rules)) == rules


@pytest.mark.parametrize(
    ("raw", "code", "key"),
    [
        ({"sets": "yes"}, "bad_type", "sets"),
        ({"target": 0}, "out_of_range", "target"),
        ({"target": "3000"}, "bad_type", "target"),
        ({"going_out_bonus": 55.0}, "bad_type", "going_out_bonus"),
        ({"going_out_bonus": 101}, "not_multiple_of_5", "going_out_bonus"),
        ({"no_pot_penalty": -100}, "out_of_range", "no_pot_penalty"),
        ({"whole_suit": "doubles"}, "bad_choice", "whole_suit"),
        ({"card_values": "greek"}, "bad_choice", "card_values"),
        ({"semipulito": True}, "unknown_key", "semipulito"),
        ({"preset": "classic"}, "unknown_key", "preset"),
    ],
)
def test_bad_options_are_refused_naming_the_key(raw, code, key):
    with pytest.raises(RuleError) as e:
        score_document(doc([], raw))
    assert e.value.code == code
    assert e.value.where == ("rules", key)
    assert e.value.message.startswith(f"rules, {key}: ")


# --- meld values: the worked examples of rules.md, meld by meld ------------------------------


def test_example_1_melds():
    assert points("4H 5H 6H 7H 8H 9H 10H", trump=Suit.DIAMONDS) == (50, "clean_biriba", 200)
    assert points("QS KS AS", trump=Suit.DIAMONDS) == (35, None, 0)
    assert points("5C 6C JK 8C", trump=Suit.DIAMONDS) == (40, None, 0)
    assert points("9D 10D JD", trump=Suit.DIAMONDS) == (30, None, 0)  # trump, but no biriba


def test_example_2_melds():
    assert points("3C 4C 5C 6C 7C 8C 9C", trump=Suit.CLUBS) == (45, "clean_trump_biriba", 400)
    assert points("8H 9H 10H JH QH KH JK", trump=Suit.CLUBS) == (80, "dirty_biriba", 100)
    assert points("AD 2D 3D 4D 5D 6D 7D", trump=Suit.CLUBS) == (50, "clean_biriba", 200)


def test_example_3_melds():
    m = meld_score("5S 6S 7S 2H 9S 10S JS", RULES, Suit.SPADES)
    assert (m.card_points, m.bonus, m.bonus_points) == (55, "dirty_trump_biriba", 200)
    assert str(m.reading.stands_for) == "8S"
    m = meld_score("AD 2D 3D JK 5D 6D 7D", RULES, Suit.SPADES)
    assert (m.card_points, m.bonus, m.bonus_points) == (65, "dirty_biriba", 100)
    assert str(m.reading.stands_for) == "4D"
    with pytest.raises(RuleError) as e:
        meld_score("AD 2D 3D JK 5D 2C 7D", RULES, Suit.SPADES)
    assert e.value.code == "two_wilds"


def test_example_4_melds_sets_on_and_off():
    on = BiribaRules(sets=True)
    assert points("8S 8S 8H 8H 8D 8D 8C", on) == (70, "clean_set_biriba", 300)
    assert points("5S 5S 5H 5H 5D 5C JK", on) == (50, "dirty_set_biriba", 150)
    for cards in ("8S 8S 8H 8H 8D 8D 8C", "5S 5S 5H 5H 5D 5C JK"):
        with pytest.raises(RuleError) as e:
            meld_score(cards, RULES)
        assert e.value.code == "sets_off"


def test_example_5_meld():
    assert points("2H 9S 10S JS QS KS AS", trump=Suit.DIAMONDS) == (75, "dirty_biriba", 100)


def test_a_set_biriba_is_never_doubled_by_trump():
    on = BiribaRules(sets=True)
    assert points("8S 8S 8H 8H 8D 8D 8C", on, Suit.SPADES) == (70, "clean_set_biriba", 300)


def test_no_trump_recorded_doubles_nothing():
    assert points("3C 4C 5C 6C 7C 8C 9C", trump=None) == (45, "clean_biriba", 200)


def test_trump_doubles_off():
    rules = BiribaRules(trump_doubles=False)
    assert points("3C 4C 5C 6C 7C 8C 9C", rules, Suit.CLUBS) == (45, "clean_trump_biriba", 200)


WHOLE = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"
WHOLE_DIRTY = "AH 2H 3H 4H 5H 6H JK 8H 9H 10H JH QH KH"


@pytest.mark.parametrize(
    ("option", "clean", "dirty"),
    [
        (WholeSuit.REPLACES, 1000, 500),
        (WholeSuit.ADDS, 1200, 600),
        (WholeSuit.ORDINARY, 200, 100),
    ],
)
def test_whole_suit_options(option, clean, dirty):
    rules = BiribaRules(whole_suit=option)
    assert points(WHOLE, rules) == (110, "clean_whole_suit", clean)
    assert points(WHOLE_DIRTY, rules) == (125, "dirty_whole_suit", dirty)
    # trump doubles the meld's whole bonus, whichever option
    assert points(WHOLE, rules, Suit.HEARTS) == (110, "clean_trump_whole_suit", 2 * clean)
    assert points(WHOLE_DIRTY, rules, Suit.HEARTS)[2] == 2 * dirty


def test_whole_suit_two_to_ace():
    assert points("2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS")[1:] == ("clean_whole_suit", 1000)


def test_greek_wikipedia_card_values():
    rules = BiribaRules(card_values=CardValues.GREEK_WIKIPEDIA)
    # JK 30, A 15, 2 10, 10-K 10, 3-9 5
    assert points("7H 8H 9H JK", rules)[0] == 15 + 30
    assert points("10H JH QH KH AH", rules)[0] == 55
    assert points("AD 2D 3D", rules)[0] == 30
    assert biriba.card_value(parse_card("9C"), rules) == 5
    assert biriba.card_value(parse_card("9C"), RULES) == 10


def test_meld_score_describes_the_meld():
    m = meld_score("4H 5H 6H 7H 8H 9H 10H", RULES, Suit.DIAMONDS)
    assert m.describe() == "run of hearts 4H-10H, clean · clean biriba · 50 + 200"
    assert meld_score("QS KS AS", RULES).describe() == "run of spades QS-AS, clean · 35"


# --- deals ------------------------------------------------------------------------------------


def test_example_1_deal():
    d = doc(
        [
            {
                "trump": "D",
                "sides": [
                    side(["4H 5H 6H 7H 8H 9H 10H", "QS KS AS"], "3C KD", went_out=True),
                    side(["5C 6C JK 8C", "9D 10D JD"], "2S AH 4D"),
                ],
            }
        ]
    )
    out = score_document(d)
    s0, s1 = out["deals"][0]["score"]["sides"]
    assert (s0["total"], s1["total"]) == (370, 40)
    assert s0 | {"melds": None} == {
        "total": 370,
        "form": "cards",
        "melded": 85,
        "bonuses": 200,
        "going_out": 100,
        "in_hand": -15,
        "no_pot": 0,
        "bonus_counts": {"clean_biriba": 1},
        "melds": None,
    }
    assert [m["points"] for m in s0["melds"]] == [50, 35]
    assert s1["melds"][0]["stands_for"] == "7C"


def test_example_5_deal_no_biribaki():
    d = doc(
        [
            {
                "trump": "D",
                "sides": [
                    side(
                        ["2H 9S 10S JS QS KS AS"],
                        "4C 4C 7D AH JK KD 8H 3S 3S 6C QC",
                        took_pot=False,
                    ),
                    side(["3H 4H 5H 6H 7H 8H 9H 10H", "JD QD KD"], went_out=True),
                ],
            }
        ]
    )
    s0 = score_document(d)["deals"][0]["score"]["sides"][0]
    assert (s0["melded"], s0["bonuses"], s0["in_hand"], s0["no_pot"]) == (75, 100, -95, -100)
    assert s0["total"] == -20


def test_going_out_bonus_and_no_pot_penalty_options():
    deal = {"trump": None, "sides": [side(["3C 4C 5C"], went_out=True), side(took_pot=False)]}
    assert totals([deal]) == [115, -100]
    rules = {"going_out_bonus": 200, "no_pot_penalty": 50}
    assert totals([deal], rules) == [215, -50]


def test_three_players_each_a_side_with_a_pot():
    deal = {
        "trump": "H",
        "sides": [
            side(["3C 4C 5C"], went_out=True),
            side(["6D 7D 8D"], "KS"),
            side([], "QS", took_pot=False),
        ],
    }
    assert totals([deal], players=["Anna", "Babis", "Chris"]) == [115, 20 - 10, -110]


def test_totals_form_side():
    deal = {
        "trump": "C",
        "sides": [
            {
                "totals": {"melded": 235, "in_hand": 15, "bonuses": {"clean_trump_biriba": 1}},
                "took_pot": True,
            },
            side(["3H 4H 5H"], "KD", went_out=True),
        ],
    }
    out = score_document(doc([deal]))
    s0 = out["deals"][0]["score"]["sides"][0]
    assert s0["form"] == "totals" and "melds" not in s0
    assert s0["total"] == 235 + 400 - 15
    assert out["totals"] == [620, 15 + 100 - 10]


def test_totals_form_bonus_points_follow_the_options():
    deal = {
        "trump": "C",
        "sides": [
            {
                "totals": {
                    "melded": 400,
                    "in_hand": 0,
                    "bonuses": {"clean_trump_whole_suit": 1, "dirty_biriba": 1},
                },
            },
            side(),
        ],
    }
    assert totals([deal])[0] == 400 + 2000 + 100 - 100
    assert totals([deal], {"whole_suit": "adds"})[0] == 400 + 2400 + 100 - 100
    assert totals([deal], {"trump_doubles": False})[0] == 400 + 1000 + 100 - 100


def test_score_side_and_score_deal_for_a_preview():
    header = MatchHeader(game="biriba", players=tuple(PLAYERS))
    card_side = CardSide(
        melds=(tuple(parse_card(c) for c in "4H 5H 6H 7H 8H 9H 10H".split()),),
        hand=(parse_card("3C"),),
        took_pot=True,
        went_out=True,
    )
    assert biriba.score_side(card_side, RULES, trump=Suit.DIAMONDS).total == 50 + 200 + 100 - 5
    deal = RummyDeal(sides=(card_side, TotalsSide(melded=30, in_hand=20)), trump=Suit.DIAMONDS)
    scored = biriba.score_deal(header, RULES, deal, number=4)
    assert scored.totals == (345, 30 - 20 - 100)
    bad = RummyDeal(sides=(card_side, card_side))
    with pytest.raises(RuleError) as e:
        biriba.score_deal(header, RULES, bad, number=4)
    assert e.value.where[0] == "deal 4"


# --- the match --------------------------------------------------------------------------------


def _deal(score0: int) -> dict:
    """A deal worth ``score0`` to side 0 (it goes out) and -100 to side 1 (no biribaki).

    Side 0's figures stay possible (the 108 cards are worth 960): a big score is made of
    bonuses, a clean whole suit (1000) or three clean biribas (600)."""
    bonus = 1000 if score0 >= 1210 else 600 if score0 >= 835 else 0
    bonuses = {1000: {"clean_whole_suit": 1}, 600: {"clean_biriba": 3}, 0: {}}[bonus]
    totals = {"melded": score0 - 100 - bonus, "in_hand": 0, "bonuses": bonuses}
    return {
        "sides": [
            {"totals": totals, "took_pot": True, "went_out": True},
            {"totals": {"melded": 0, "in_hand": 0}, "took_pot": False},
        ]
    }


def test_the_match_finishes_when_a_side_reaches_the_target_alone_in_the_lead():
    out = score_document(doc([_deal(1500), _deal(1500)]))
    assert out["totals"] == [3000, -200]
    assert out["finished"] is True and out["winner"] == 0


def test_the_match_plays_on_below_the_target():
    out = score_document(doc([_deal(1500), _deal(1495)]))
    assert out["finished"] is False and out["winner"] is None


def test_equal_leaders_above_the_target_play_on():
    whole_trump = {"melded": 400, "in_hand": 0, "bonuses": {"clean_trump_whole_suit": 1}}
    even = {
        "trump": "H",
        "sides": [
            {"totals": whole_trump, "took_pot": True},
            {"totals": whole_trump, "took_pot": True},
        ],
    }
    out = score_document(doc([even], {"target": 2000}))
    assert out["totals"] == [2400, 2400] and out["finished"] is False and out["winner"] is None
    nudge = {
        "sides": [
            {"totals": {"melded": 0, "in_hand": 5}, "took_pot": True},
            {"totals": {"melded": 0, "in_hand": 0}, "took_pot": True},
        ]
    }
    out = score_document(doc([even, nudge], {"target": 2000}))
    assert out["finished"] is True and out["winner"] == 1


def test_the_target_option():
    assert score_document(doc([_deal(1000)], {"target": 1000}))["winner"] == 0
    assert score_document(doc([_deal(995)], {"target": 1000}))["winner"] is None


def test_a_deal_after_the_end_is_refused():
    with pytest.raises(RuleError) as e:
        score_document(doc([_deal(1500), _deal(1500), _deal(200)]))
    assert e.value.code == "match_finished"
    assert e.value.where == ("deal 3",)
    assert "Anna & Chris" in e.value.message


def test_running_totals_and_next_dealer():
    header = MatchHeader(game="biriba", players=("Anna", "Babis", "Chris"), first_dealer=2)
    deal = RummyDeal(sides=(TotalsSide(melded=50), TotalsSide(), TotalsSide(in_hand=10)))
    result = biriba.score(header, RULES, [deal, deal])
    assert result.running == [[-50, -100, -110], [-100, -200, -220]]
    assert result.totals == [-100, -200, -220]
    assert result.next_deal == {"number": 3, "dealer": 1}  # seats 2, 0 dealt; seat 1 next
    finished = biriba.score(
        header,
        BiribaRules(target=40),
        [RummyDeal(sides=(TotalsSide(melded=150, took_pot=True), TotalsSide(), TotalsSide()))],
    )
    assert finished.finished and finished.winner == 0 and finished.next_deal == {}


def test_every_total_is_a_multiple_of_5():
    out = score_document(
        doc(
            [
                {
                    "trump": "S",
                    "sides": [
                        side(["5S 6S 7S 2H 9S 10S JS", "AD 2D 3D JK 5D 6D 7D"], went_out=True),
                        side(["QC KC AC"], "4H 4H 9C", took_pot=False),
                    ],
                }
            ]
        )
    )
    assert all(t % 5 == 0 for t in out["totals"])
