"""Meld reading (scorekeeper.rules.melds): runs, sets, wilds, natural twos, the chosen reading."""

import pytest

from scorekeeper.rules.cards import parse_card
from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.melds import (
    MeldKind,
    MeldRules,
    Purity,
    WildPlace,
    read_meld,
    readings,
)

BIRIBA = MeldRules(sets=False)  # Biriba's default: no sets, runs up to 13 cards
BIRIBA_SETS = MeldRules(sets=True)
BURRACO = MeldRules(run_extra_wild=True)
FIBUR = MeldRules(run_extra_wild=True, semi_clean=True)
INTERNATIONAL = MeldRules(run_extra_wild=True, set_ranks=frozenset({1, 3}))


def refused(cards: str, rules: MeldRules = BIRIBA) -> RuleError:
    with pytest.raises(RuleError) as e:
        read_meld(cards, rules=rules)
    return e.value


# --- runs -------------------------------------------------------------------------------------


def test_a_clean_run_in_order():
    r = read_meld("4H 5H 6H 7H 8H 9H 10H", rules=BIRIBA)
    assert r.kind is MeldKind.RUN
    assert r.purity is Purity.CLEAN and r.wild is None
    assert str(r.suit) == "H" and (r.low, r.high) == (4, 10)
    assert r.text == "4H 5H 6H 7H 8H 9H 10H"


def test_an_unordered_run_is_read_in_order():
    r = read_meld("KS AS QS", rules=BIRIBA)
    assert r.text == "QS KS AS"
    assert (r.low, r.high) == (12, 14)  # ace high


def test_ace_low():
    r = read_meld("3C AC 2C", rules=BIRIBA)
    assert r.text == "AC 2C 3C" and r.is_clean


def test_two_of_the_suit_in_its_own_place_is_natural():
    r = read_meld("AD 2D 3D 4D 5D 6D 7D", rules=BIRIBA)
    assert r.is_clean and r.wild is None and r.length == 7


def test_two_in_place_plus_another_two_as_the_wild():
    """rules.md: `AC 2C 3C 2H` is legal (one wild)."""
    r = read_meld("AC 2C 3C 2H", rules=BIRIBA)
    assert r.purity is Purity.DIRTY
    assert str(r.wild) == "2H" and str(r.stands_for) == "4C"
    assert r.wild_place is WildPlace.ABOVE
    assert r.text == "AC 2C 3C 2H"


def test_natural_two_and_a_joker():
    """rules.md: `AC 2C 3C JK 5C` is legal (the joker is the only wild)."""
    r = read_meld("AC 2C 3C JK 5C", rules=BIRIBA)
    assert str(r.wild) == "JK" and str(r.stands_for) == "4C"
    assert r.wild_place is WildPlace.GAP


def test_the_wild_in_a_gap_is_named():
    r = read_meld("5S 6S 7S 2H 9S 10S JS", rules=BIRIBA)
    assert str(r.wild) == "2H" and str(r.stands_for) == "8S"
    assert r.describe() == "run of spades 5S-JS, dirty: 2H stands for 8S"
    assert r.text == "5S 6S 7S 2H 9S 10S JS"


def test_a_wild_at_the_end_stands_above_when_it_can():
    r = read_meld("5D 6D 7D 8D 9D 10D JD JK", rules=BIRIBA)
    assert str(r.stands_for) == "QD" and r.wild_place is WildPlace.ABOVE
    assert r.text.endswith("JD JK")


def test_a_wild_at_the_end_stands_below_when_above_is_the_end():
    r = read_meld("2H 9S 10S JS QS KS AS", rules=BIRIBA)  # rules.md Biriba example 5
    assert str(r.stands_for) == "8S" and r.wild_place is WildPlace.BELOW
    assert r.text == "2H 9S 10S JS QS KS AS"
    assert "below" in r.describe()


def test_a_wild_after_a_king_stands_for_the_ace_high():
    r = read_meld("QH KH JK", rules=BIRIBA)
    assert str(r.stands_for) == "AH" and r.high == 14


def test_a_wild_after_an_ace_low_run_stands_above():
    r = read_meld("AH 2H 3H JK", rules=BIRIBA)
    assert str(r.stands_for) == "4H"


def test_a_two_out_of_place_of_its_own_suit_is_a_wild():
    r = read_meld("2H 4H 5H 6H", rules=BIRIBA)
    assert str(r.wild) == "2H" and str(r.stands_for) == "7H"


def test_a_two_before_k_a_is_a_wild_not_a_corner():
    r = read_meld("KH AH 2H", rules=BIRIBA)
    assert str(r.wild) == "2H" and str(r.stands_for) == "QH"


def test_whole_suit_ace_to_king_and_two_to_ace():
    low = read_meld("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", rules=BIRIBA)
    assert low.length == 13 and low.is_clean
    high = read_meld("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", rules=BIRIBA)
    assert high.length == 13 and high.is_clean


def test_dirty_whole_suit():
    r = read_meld("AH 2H 3H 4H 5H 6H JK 8H 9H 10H JH QH KH", rules=BIRIBA)
    assert r.length == 13 and str(r.stands_for) == "7H"


def test_biriba_run_is_at_most_13_cards():
    e = refused("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK", BIRIBA)
    assert e.code == "run_too_long"


def test_burraco_allows_a_wild_as_a_14th_card():
    r = read_meld("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK", rules=BURRACO)
    assert r.length == 14 and r.wild_place is WildPlace.EXTRA and r.stands_for is None
    assert r.text.endswith("KH JK")
    assert "14th" in r.describe()


def test_two_wilds_in_a_run_are_refused():
    e = refused("AD 2D 3D JK 5D 2C 7D")  # rules.md Biriba example 3
    assert e.code == "two_wilds"
    assert e.message == "two wild cards in one meld (JK 2C)"
    assert refused("5C 6C JK 2D").code == "two_wilds"


def test_three_wilds():
    assert refused("5C 6C JK 2D 2S").code == "too_many_wilds"


def test_the_ace_never_turns_the_corner():
    assert refused("QH KH AH 2H 3H").code == "run_around_corner"
    assert refused("KH AH 2S 3H").code == "run_around_corner"


def test_a_gap_is_named():
    e = refused("5H 9H JK")
    assert e.code == "run_gap"
    assert "6H 7H 8H missing" in e.message


def test_a_card_twice_in_a_run():
    e = refused("5H 6H 6H 7H")
    assert e.code == "card_twice_in_run" and "6H" in e.message


def test_two_aces_cannot_be_low_and_high():
    assert refused("AH 2H 3H QH KH AH").code == "card_twice_in_run"


def test_mixed_suits_and_ranks():
    e = refused("5H 6S 7H")
    assert e.code == "not_a_meld" and "neither a run" in e.message


# --- sets and what is never a meld ------------------------------------------------------------


def test_a_set_with_sets_on():
    r = read_meld("8S 8S 8H 8H 8D 8D 8C", rules=BIRIBA_SETS)
    assert r.kind is MeldKind.SET and r.rank == 8 and r.is_clean


def test_a_dirty_set():
    r = read_meld("5S JK 5H 5S 5H 5D 5C", rules=BIRIBA_SETS)
    assert r.kind is MeldKind.SET and str(r.wild) == "JK" and r.wild_place is WildPlace.SET
    assert r.text.endswith("JK")
    assert r.describe() == "set of 5s, dirty: JK stands for one more 5"


def test_sets_off_refuses_a_set():
    e = refused("8S 8S 8H 8H 8D 8D 8C", BIRIBA)
    assert e.code == "sets_off"
    assert refused("8S 8S 2C", BIRIBA).code == "sets_off"


def test_a_set_holds_one_wild():
    assert refused("8S 8H 2C JK", BIRIBA_SETS).code == "two_wilds"


def test_a_set_holds_at_most_8_naturals():
    e = refused("8S 8S 8H 8H 8D 8D 8C 8C 8C", BIRIBA_SETS)
    assert e.code == "set_too_long"


def test_a_burraco_set_holds_at_most_9_cards():
    assert read_meld("8S 8S 8H 8H 8D 8D 8C 8C JK", rules=BURRACO).length == 9
    assert refused("8S 8S 8H 8H 8D 8D 8C 8C 8C JK", BURRACO).code in (
        "set_too_long",
        "set_too_long_cards",
    )


def test_a_set_of_twos_is_not_a_meld():
    assert refused("2H 2S 2D", BIRIBA_SETS).code == "set_of_twos"
    assert refused("2H 2S 2D 2C", BURRACO).code == "set_of_twos"


def test_a_meld_of_only_wilds_is_not_a_meld():
    assert refused("JK JK JK", BURRACO).code == "only_wilds"
    assert refused("2H JK 2S", BURRACO).code == "only_wilds"


def test_a_meld_has_three_cards():
    assert refused("5H 6H").code == "meld_too_short"


def test_international_sets_only_of_aces_and_threes():
    assert read_meld("AS AH AD", rules=INTERNATIONAL).rank == 1
    assert read_meld("3S 3H JK", rules=INTERNATIONAL).rank == 3
    e = refused("KS KH KD", INTERNATIONAL)
    assert e.code == "set_rank_not_allowed"
    assert "aces or 3s" in e.message
    # runs are not affected
    assert read_meld("KS QS JS", rules=INTERNATIONAL).kind is MeldKind.RUN


# --- semi-clean -------------------------------------------------------------------------------


def test_semi_clean_run_wild_at_an_end_of_seven():
    r = read_meld("5D 6D 7D 8D 9D 10D JD JK", rules=FIBUR)
    assert r.purity is Purity.SEMI_CLEAN
    r = read_meld("5D 6D 7D 8D 9D 10D JD JK", rules=BURRACO)
    assert r.purity is Purity.DIRTY and r.semi_clean_shape


def test_a_wild_inside_is_never_semi_clean():
    r = read_meld("5S 6S 7S JK 9S 10S JS QS", rules=FIBUR)
    assert r.purity is Purity.DIRTY and not r.semi_clean_shape


def test_six_naturals_and_a_wild_at_the_end_is_dirty():
    assert read_meld("5D 6D 7D 8D 9D 10D JK", rules=FIBUR).purity is Purity.DIRTY


def test_semi_clean_set_of_eight_with_the_wild():
    r = read_meld("9S 9S 9H 9H 9D 9D 9C 2C", rules=FIBUR)
    assert r.purity is Purity.SEMI_CLEAN
    assert read_meld("9S 9S 9H 9H 9D 9D 2C", rules=FIBUR).purity is Purity.DIRTY


def test_semi_clean_fourteenth_card():
    r = read_meld("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK", rules=FIBUR)
    assert r.purity is Purity.SEMI_CLEAN


# --- choosing the reading ---------------------------------------------------------------------


def test_the_reading_with_fewest_wilds_wins():
    # 2H could be a wild (standing for 5H) or natural in its place: natural wins, clean.
    r = read_meld("2H 3H 4H", rules=BIRIBA)
    assert r.is_clean and r.wild is None
    assert len(readings("2H 3H 4H", rules=BIRIBA)) == 2


def test_the_reading_worth_most_wins_among_equal_wilds():
    # A value function that prefers the ace-high reading of a 13-card run.
    cards = "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"
    found = readings(cards, rules=BIRIBA)
    assert {r.low for r in found} == {1, 2}
    best = read_meld(cards, rules=BIRIBA, value=lambda r: r.high or 0)
    assert best.high == 14


def test_cards_may_be_given_as_card_values_strings_or_one_string():
    cards = ["5s", "6♠", "7S"]
    assert read_meld(cards) == read_meld([parse_card(c) for c in cards]) == read_meld("5S 6S 7S")


def test_a_bad_card_names_its_index():
    with pytest.raises(RuleError) as e:
        read_meld(["5S", "6S", "7X"])
    assert e.value.code == "bad_card" and e.value.where == ("[2]",)


def test_reading_json():
    r = read_meld("5S 6S 7S 2H 9S 10S JS", rules=BIRIBA)
    assert r.to_json() == {
        "kind": "run",
        "cards": ["5S", "6S", "7S", "2H", "9S", "10S", "JS"],
        "purity": "dirty",
        "suit": "S",
        "wild": "2H",
        "wild_place": "gap",
        "stands_for": "8S",
    }


# --- every reading, and only legal ones ---------------------------------------------------------


def test_a_two_in_its_own_place_is_never_read_as_a_wild_standing_for_itself():
    """rules.md: a two of the run's own suit in its own place is natural, not a wild. The list
    of readings used to offer "2C stands for 2C" beside the clean reading."""
    for cards in ("AC 2C 3C", "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC", "2C 3C 4C 5C 6C 7C AC"):
        for r in readings(cards, rules=BIRIBA):
            assert not (r.wild is not None and r.stands_for == r.wild), r.describe()
    (only,) = readings("AC 2C 3C", rules=BIRIBA)
    assert only.is_clean and only.text == "AC 2C 3C"
    # the ace-low and ace-high readings of the whole suit, both clean
    whole = readings("AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC", rules=BIRIBA)
    assert sorted((r.low, r.high) for r in whole) == [(1, 13), (2, 14)]
    assert all(r.is_clean for r in whole)


def test_a_wild_at_an_end_has_a_reading_at_either_end():
    """A joker beside 4H 5H 6H may be 7H or 3H: both readings are listed, and the chosen one
    (values equal) is the card above."""
    found = readings("JK 4H 5H 6H", rules=BIRIBA)
    assert {(str(r.stands_for), r.wild_place) for r in found} == {
        ("7H", WildPlace.ABOVE),
        ("3H", WildPlace.BELOW),
    }
    assert str(read_meld("JK 4H 5H 6H", rules=BIRIBA).stands_for) == "7H"
    # no room above the ace: only below
    (below,) = readings("JK QH KH AH", rules=BIRIBA)
    assert str(below.stands_for) == "JH" and below.wild_place is WildPlace.BELOW
    # Burraco: 13 naturals leave the wild only the 14th place
    assert {r.wild_place for r in readings(f"{WHOLE_CLUBS} JK", rules=BURRACO)} == {WildPlace.EXTRA}


WHOLE_CLUBS = "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC"
