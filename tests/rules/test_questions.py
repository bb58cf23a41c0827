"""The questions deal entry asks the rules while a deal is entered, answered by the rules core:
a rummy hand as points, a rummy side scored on its own, who plays with whom, who gains on a
Barbu pair, the Barbu sheet's sums and "rest", and which doubles and shortcuts each player may
use (and why not)."""

from __future__ import annotations

import copy
import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import barbu, base, biriba, burraco, rummy
from scorekeeper.rules import match as rules_match
from scorekeeper.rules.barbu import Contract, Double, Shortcut
from scorekeeper.rules.base import MatchHeader
from scorekeeper.rules.cards import Card, Suit
from scorekeeper.rules.errors import Place, RuleError
from tests.profiles import examples

from .test_barbu_properties import matches, suit_tables
from .test_rummy_properties import legal_documents

NAMES = ["Anna", "Babis", "Chris", "Dora"]
BIRIBA = biriba.parse_rules({})
BURRACO = burraco.parse_rules({})
KING = barbu.parse_rules({"variant": "king"})


def refused(call, *args, **kwargs) -> RuleError:
    with pytest.raises(RuleError) as caught:
        call(*args, **kwargs)
    return caught.value


# --- a rummy hand as points ------------------------------------------------------------------


def test_the_cards_left_in_hand_count_minus_their_value():
    assert biriba.hand_points(["KD", "7C", "8C"], BIRIBA) == -25  # 10 + 5 + 10
    greek = biriba.parse_rules({"card_values": "greek_wikipedia"})
    assert biriba.hand_points(["KD", "7C", "8C", "JK"], greek) == -50  # 10 + 5 + 5 + 30
    assert burraco.hand_points(["JK", "2C", "AH"], BURRACO) == -65  # 30 + 20 + 15
    assert burraco.hand_points([Card(13, Suit.SPADES), "3h"], BURRACO) == -15
    assert biriba.hand_points([], BIRIBA) == 0


def test_a_bad_card_in_hand_is_refused_with_its_place():
    error = refused(burraco.hand_points, ["3S", "4S", "1H"], BURRACO)
    assert error.code == "bad_card" and error.where == ("hand", "[2]")
    assert error.place == Place(card=2, field="hand")


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=legal_documents())
def test_a_hand_counts_what_the_deal_scores_for_it_and_a_side_alone_what_the_deal_scores(doc):
    match = rules_match.parse_document(doc)
    out = rules_match.score_document(copy.deepcopy(doc))
    engine = match.engine
    for raw, scored in zip(doc["deals"], out["deals"], strict=True):
        for k, side in enumerate(raw["sides"]):
            want = scored["score"]["sides"][k]
            assert engine.hand_points(side["hand"], match.rules) == want["in_hand"]
            kwargs = {"trump": raw.get("trump")} if doc["game"] == "biriba" else {}
            alone = engine.score_side_alone(
                side, match.rules, one_player=match.header.is_one_player(k), **kwargs
            )
            assert alone.to_json() == want


# --- a rummy side on its own -----------------------------------------------------------------


def test_a_side_alone_is_scored_from_the_side_as_the_document_writes_it():
    side = {
        "melds": [["4H", "5H", "6H", "7H", "8H", "9H", "10H"], ["QS", "KS", "AS"]],
        "hand": ["3C", "KD"],
        "took_pot": True,
        "went_out": True,
    }
    plain = biriba.score_side_alone(side, BIRIBA)
    assert (plain.melded, plain.bonuses, plain.going_out, plain.in_hand) == (85, 200, 100, -15)
    trump = biriba.score_side_alone(side, BIRIBA, trump="H")  # the trump biriba scores twice
    assert trump.bonuses == 400 and trump.total == plain.total + 200
    assert biriba.score_side_alone(side, BIRIBA, trump=Suit.HEARTS) == trump
    totals = {"totals": {"melded": 85, "in_hand": 15, "bonuses": {"clean_biriba": 1}}}
    assert (
        biriba.score_side_alone(totals | {"took_pot": False}, BIRIBA).total == 85 + 200 - 15 - 100
    )


def test_a_side_alone_is_refused_as_the_deal_would_refuse_it_with_its_place():
    two_wilds = {"melds": [["3S", "4S", "5S"], ["5C", "6C", "JK", "2D"]], "took_pot": True}
    error = refused(biriba.score_side_alone, two_wilds, BIRIBA)
    assert error.code == "two_wilds" and error.place == Place(meld=2, field="melds")
    assert error.message == "meld 2 (5C 6C JK 2D): two wild cards in one meld (JK 2D)"
    bad = {"melds": [["3S", "4S", "XX"]]}
    assert refused(burraco.score_side_alone, bad, BURRACO).place == Place(
        meld=1, card=2, field="melds"
    )
    out = {"hand": ["3S"], "took_pot": True, "went_out": True}
    error = refused(biriba.score_side_alone, out, BIRIBA, one_player=True)
    assert error.code == "went_out_holding_cards" and error.place == Place(field="hand")
    # a pair's side holds its partner's cards: going out, one of them may still hold some
    pair = biriba.score_side_alone(out, BIRIBA, one_player=False)
    assert (pair.going_out, pair.in_hand) == (100, -5)
    error = refused(biriba.score_side_alone, {"hand": []}, BIRIBA, trump="X")
    assert error.code == "bad_suit" and error.place == Place(field="trump")
    error = refused(burraco.score_side_alone, {"hand": []}, BURRACO, trump="H")
    assert error.code == "no_trump" and error.place == Place(field="trump")
    error = refused(burraco.score_side_alone, {"hand": [], "colour": 1}, BURRACO)
    assert error.code == "unknown_key" and error.place == Place(field="colour")


def test_a_side_alone_does_not_see_the_copies_of_the_other_sides():
    """Three 8♠ across the deal: each side alone is fine; the deal is refused."""
    one = {"melds": [["8S", "9S", "10S"]], "hand": ["8S"], "took_pot": True}
    two = {"hand": ["8S"], "took_pot": True}
    assert biriba.score_side_alone(one, BIRIBA).total == 30 - 10
    assert biriba.score_side_alone(two, BIRIBA).total == -10
    doc = {
        "format": "scorekeeper-match/1",
        "game": "biriba",
        "players": NAMES,
        "deals": [{"sides": [one, two]}],
    }
    assert refused(rules_match.score_document, doc).code == "too_many_copies"


# --- who plays with whom ---------------------------------------------------------------------


def test_four_players_of_a_rummy_game_play_in_pairs_opposite_each_other():
    for game in ("biriba", "burraco"):
        assert base.plays_in_pairs(game, 4)
        assert [base.side_of_seat(game, 4, s) for s in range(4)] == [0, 1, 0, 1]
        assert [base.partners(game, 4, s) for s in range(4)] == [(2,), (3,), (0,), (1,)]
        assert base.seats_of_side(game, 4, 1) == (1, 3) and base.side_count(game, 4) == 2


def test_barbu_and_rummy_tables_of_two_or_three_have_no_partners():
    for game, seats in (("barbu", 4), ("biriba", 2), ("biriba", 3), ("burraco", 2)):
        assert not base.plays_in_pairs(game, seats)
        assert [base.side_of_seat(game, seats, s) for s in range(seats)] == list(range(seats))
        assert all(base.partners(game, seats, s) == () for s in range(seats))
        assert base.side_count(game, seats) == seats


def test_a_match_header_answers_the_same():
    pairs = MatchHeader(game="burraco", players=tuple(NAMES))
    assert pairs.in_pairs and pairs.partners(1) == (3,) and pairs.side_of_seat(2) == 0
    assert pairs.side_name(0) == "Anna & Chris" and not pairs.is_one_player(0)
    alone = MatchHeader(game="barbu", players=tuple(NAMES))
    assert not alone.in_pairs and alone.partners(1) == () and alone.side_of_seat(2) == 2
    assert alone.side_count == 4 and alone.side_name(3) == "Dora" and alone.is_one_player(3)
    three = MatchHeader(game="biriba", players=("Anna", "Babis", "Chris"))
    assert three.side_count == 3 and three.is_one_player(2) and three.side_seats(2) == (2,)


# --- Barbu: who gains on a pair --------------------------------------------------------------


def test_the_gainer_of_a_settlement_line_is_nobody_when_the_two_are_even():
    _, lines = barbu.settle([-6, 0, -6, -12], [Double(1, 0), Double(2, 0, True), Double(3, 1)])
    by_pair = {line.seats: line for line in lines}
    assert by_pair[(0, 1)].gainer == 1 and by_pair[(0, 1)].payer == 0
    assert by_pair[(0, 1)].gain == 6
    assert by_pair[(0, 2)].amount == 0
    assert by_pair[(0, 2)].gainer is None and by_pair[(0, 2)].payer is None
    assert by_pair[(0, 2)].gain == 0
    assert by_pair[(1, 3)].amount == -12  # Dora doubled Babis and took 12 more
    assert by_pair[(1, 3)].gainer == 1 and by_pair[(1, 3)].payer == 3
    for line in lines:
        assert barbu.SettlementLine.from_json(line.as_json()) == line


@settings(max_examples=examples(20), deadline=None)
@given(matches(compulsory=False))
def test_the_gainer_gains_what_the_payer_pays_in_every_scored_deal(document):
    out = rules_match.score_document(document)
    for deal in out["deals"]:
        score = deal["score"]
        part = [0, 0, 0, 0]
        for raw in score["settlement"]:
            line = barbu.SettlementLine.from_json(raw)
            assert (line.gainer is None) == (line.gain == 0)
            if line.gainer is not None:
                assert {line.gainer, line.payer} == {line.by, line.on}
                part[line.gainer] += line.gain
                part[line.payer] -= line.gain
        assert part == score["doubles"]


# --- Barbu: the sheet's sums and "rest" ------------------------------------------------------


def test_what_the_four_seats_take_together():
    assert {k: barbu.count_total(k) for k in barbu.COUNTS} == {
        "tricks": 13,
        "hearts": 13,
        "queens": 4,
        "boys": 8,
    }
    assert barbu.counted_keys(Contract.SALADE) == ("tricks", "hearts", "queens")
    assert barbu.counted_keys(Contract.TRUMPS) == ("tricks",)
    assert barbu.counted_keys(Contract.NO_BOYS) == ("boys",)
    assert barbu.counted_keys(Contract.DOMINO) == ()


def test_a_count_tally_says_whether_what_is_entered_adds_up():
    tally = barbu.count_tally("hearts", [4, 3, 3, 3])
    assert tally.ok and (tally.what, tally.want, tally.got, tally.missing) == ("hearts", 13, 13, 0)
    short = barbu.count_tally("queens", [1, 0, 1, 0])
    assert not short.ok and short.missing == 2
    over = barbu.count_tally("tricks", [4, 4, 4, 4])
    assert not over.ok and over.missing == -3
    tallies = barbu.count_tallies(
        Contract.SALADE, {"tricks": [4, 3, 3, 3], "hearts": [13, 0, 0, 0]}
    )
    assert [(t.what, t.ok, t.got) for t in tallies] == [
        ("tricks", True, 13),
        ("hearts", True, 13),
        ("queens", False, 0),  # not entered yet
    ]


def test_the_rest_of_a_count_is_what_the_others_leave():
    assert barbu.count_rest("tricks", [4, 3, 0, 0], 2) == 6
    assert barbu.count_rest("tricks", [4, 3, 5, 0], 2) == 6  # its own count does not matter
    assert barbu.count_rest("queens", [2, 2, 0, 0], 3) == 0
    assert barbu.count_rest("queens", [3, 2, 0, 0], 3) == 0  # never less than nothing


@given(
    key=st.sampled_from(list(barbu.COUNTS)),
    values=st.lists(st.integers(0, 13), min_size=4, max_size=4),
    seat=st.integers(0, 3),
)
def test_taking_the_rest_makes_a_count_add_up_whenever_it_can(key, values, seat):
    others = sum(values) - values[seat]
    values[seat] = barbu.count_rest(key, values, seat)
    assert barbu.count_tally(key, values).ok == (others <= barbu.count_total(key))


def test_ravage_city_suits_each_add_up_to_13_and_a_seat_takes_whole_tricks():
    suits = [[13, 0, 0, 3], [0, 13, 0, 3], [0, 0, 12, 3], [0, 0, 0, 4]]
    tallies = barbu.suit_tallies(suits)
    assert [(t.what, t.got, t.ok) for t in tallies] == [
        ("S", 13, True),
        ("H", 13, True),
        ("D", 12, False),
        ("C", 13, True),
    ]
    assert barbu.suit_rest(suits, 3, "D") == 1 and barbu.suit_rest(suits, 2, 2) == 13
    assert barbu.suit_rest(suits, 0, Suit.SPADES) == 13 and barbu.suit_rest(suits, 1, "S") == 0
    assert [barbu.whole_tricks(row) for row in suits] == [True, True, False, True]


@given(table=suit_tables(), seat=st.integers(0, 3), suit=st.integers(0, 3))
def test_a_real_suit_table_adds_up_and_its_rest_is_what_it_holds(table, seat, suit):
    assert all(t.ok for t in barbu.suit_tallies(table))
    assert all(barbu.whole_tricks(row) for row in table)
    assert barbu.suit_rest(table, seat, suit) == table[seat][suit]


@settings(max_examples=examples(20), deadline=None)
@given(matches(compulsory=False))
def test_every_scored_deal_passes_its_sum_check_and_a_wrong_sum_fails(document):
    match = rules_match.parse_document(document)
    out = rules_match.score_document(document)
    for deal, scored in zip(match.deals, out["deals"], strict=True):
        check = barbu.deal_sum(match.rules, deal.contract, scored["score"])
        assert check.ok and check.zero_sum
        assert check.want == barbu.contract_total(match.rules, deal.contract) == check.total
        assert check.doubles == 0
        wrong = copy.deepcopy(scored["score"])
        wrong["total"][0] += 1
        assert not barbu.deal_sum(match.rules, deal.contract, wrong).ok
    assert sum(out["totals"]) == 0


def test_a_salade_deal_does_not_sum_to_zero_and_says_so():
    salade = barbu.parse_rules({"variant": "salade"})
    score = {"raw": [-100, -100, -100, -110], "doubles": [0, 0, 0, 0], "total": [-100] * 3 + [-110]}
    check = barbu.deal_sum(salade, Contract.NO_TRICKS, score)
    assert not check.zero_sum and check.want == -65 and not check.ok
    assert barbu.deal_sum(barbu.DEFAULT_RULES, Contract.NO_TRICKS, score).want == -26


# --- Barbu: doubles and shortcuts ------------------------------------------------------------


def shortcuts(declarer, contract, existing=(), rules=barbu.DEFAULT_RULES):
    found = barbu.shortcut_choices(declarer, contract, existing, rules=rules, names=NAMES)
    return {(c.by, c.kind): c for c in found}


def test_each_player_may_say_maximum_and_the_others_family_in_a_negative_contract():
    got = shortcuts(0, Contract.NO_HEARTS)
    assert len(got) == 8
    declarer_family = got[(0, Shortcut.FAMILY)]
    assert declarer_family.reason.code == "family_by_declarer" and not declarer_family.changes
    assert declarer_family.reason.text.startswith("Anna declares this deal")
    declarer_maximum = got[(0, Shortcut.MAXIMUM)]
    assert declarer_maximum.allowed and not declarer_maximum.changes  # nothing to redouble
    assert got[(2, Shortcut.FAMILY)].doubles == (Double(2, 3), Double(2, 1))
    assert got[(1, Shortcut.MAXIMUM)].doubles == (Double(1, 2), Double(1, 3), Double(1, 0))
    assert all(got[(by, kind)].changes for by in (1, 2, 3) for kind in Shortcut)


def test_shortcut_choices_follow_the_doubles_already_made():
    existing = (Double(1, 0), Double(2, 0))
    got = shortcuts(0, Contract.NO_QUEENS, existing)
    assert got[(0, Shortcut.MAXIMUM)].doubles == (Double(1, 0, True), Double(2, 0, True))
    done = got[(0, Shortcut.MAXIMUM)].doubles
    assert not shortcuts(0, Contract.NO_QUEENS, done)[(0, Shortcut.MAXIMUM)].changes
    assert got[(3, Shortcut.MAXIMUM)].existing == existing


def test_shortcut_choices_in_a_positive_contract_and_in_king():
    got = shortcuts(2, Contract.TRUMPS)
    assert got[(1, Shortcut.FAMILY)].reason.code == "family_in_positive"
    assert got[(1, Shortcut.MAXIMUM)].doubles == (Double(1, 2),)
    king = shortcuts(0, Contract.NO_BOYS, rules=KING)
    assert all(c.reason.code == "no_doubling" and c.doubles == () for c in king.values())


@settings(max_examples=examples(50), deadline=None)
@given(
    declarer=st.integers(0, 3),
    contract=st.sampled_from(list(barbu.contracts_of(barbu.Variant.RAVAGE_CITY))),
    data=st.data(),
)
def test_a_shortcut_choice_is_what_saying_it_does(declarer, contract, data):
    existing = []
    for a, b in itertools.combinations(range(4), 2):
        by, on = data.draw(st.sampled_from([(a, b), (b, a)]))
        if data.draw(st.booleans()):
            if barbu.double_refusal(by, on, declarer=declarer, contract=contract) is None:
                existing.append(Double(by, on, redoubled=data.draw(st.booleans())))
    for choice in barbu.shortcut_choices(declarer, contract, existing):
        if choice.allowed:
            said = barbu.expand_shortcut(choice.kind, choice.by, declarer, contract, existing)
            assert choice.doubles == said
        else:
            error = refused(
                barbu.expand_shortcut, choice.kind, choice.by, declarer, contract, existing
            )
            assert error.code == choice.reason.code and error.place == Place(seat=choice.by)


def test_a_new_contract_keeps_only_the_doubles_it_allows():
    doubles = (Double(1, 0, True), Double(1, 2), Double(3, 0), Double(2, 3, True))
    assert barbu.keep_allowed_doubles(doubles, declarer=0, contract=Contract.NO_QUEENS) == doubles
    assert barbu.keep_allowed_doubles(doubles, declarer=0, contract=Contract.DOMINO) == (
        Double(1, 0, True),
        Double(3, 0),
    )
    assert (
        barbu.keep_allowed_doubles(doubles, declarer=0, contract=Contract.NO_BOYS, rules=KING) == ()
    )
    twice = (Double(1, 0), Double(0, 1))  # one business per pair: the second one goes
    assert barbu.keep_allowed_doubles(twice, declarer=2, contract=Contract.BARBU) == (Double(1, 0),)


def test_a_made_double_the_contract_forbids_says_why():
    existing = (Double(1, 0), Double(1, 2, True))
    got = {
        (c.by, c.on): c for c in barbu.allowed_doubles(0, Contract.DOMINO, existing, names=NAMES)
    }
    assert got[(1, 0)].made and got[(1, 0)].allowed
    assert got[(1, 2)].made and got[(1, 2)].reason.code == "positive_only_declarer"
    assert got[(2, 1)].made and got[(2, 1)].reason.code == "positive_only_declarer"  # redoubled
    assert "Anna" in got[(1, 2)].reason.text and "Chris" in got[(1, 2)].reason.text
    legal = {(c.by, c.on): c for c in barbu.allowed_doubles(0, Contract.NO_QUEENS, existing)}
    assert legal[(1, 2)].allowed and legal[(2, 1)].allowed


def test_a_refusals_text_is_its_message_without_a_place():
    refusal = barbu.double_refusal(1, 1, declarer=0, contract=Contract.BARBU, names=NAMES)
    error = refusal.error("deal 2", "Babis", deal=2, seat=1, field="doubles")
    assert refusal.text == error.text == "Babis cannot double themselves"
    assert error.place == Place(deal=2, seat=1, field="doubles")


def test_the_rummy_questions_use_the_games_own_values():
    """The generic functions take the game's scoring, as the game's own ones do."""
    scoring = burraco.Scoring(BURRACO)
    assert rummy.hand_points(["JK"], scoring) == burraco.hand_points(["JK"], BURRACO) == -30
    side = {"melds": [["3S", "4S", "5S"]], "took_pot": True}
    assert rummy.score_side_alone(side, scoring, trump=None, one_player=False).total == 15


def test_the_bonus_kinds_a_side_entered_as_totals_may_count():
    plain = ("clean_biriba", "dirty_biriba", "clean_whole_suit", "dirty_whole_suit")
    assert biriba.bonus_kinds(BIRIBA) == plain
    trump = biriba.bonus_kinds(BIRIBA, trump="H")
    assert trump == biriba.BONUS_KINDS[:8] and "clean_trump_biriba" in trump
    sets = biriba.bonus_kinds(biriba.parse_rules({"sets": True}), trump=Suit.SPADES)
    assert sets == biriba.BONUS_KINDS
    assert burraco.bonus_kinds(BURRACO) == ("clean_burraco", "dirty_burraco")
    fibur = burraco.parse_rules({"preset": "fibur"})
    assert burraco.bonus_kinds(fibur) == burraco.BONUS_KINDS
    error = refused(biriba.bonus_kinds, BIRIBA, trump="X")
    assert error.code == "bad_suit" and error.place == Place(field="trump")
    # what is offered is exactly what a totals side may count
    for kind in biriba.BONUS_KINDS:
        side = {"totals": {"melded": 1000, "in_hand": 0, "bonuses": {kind: 1}}, "took_pot": True}
        try:
            biriba.score_side_alone(side, BIRIBA, trump="H")
        except RuleError as e:
            assert e.code == "bonus_not_in_rules" and kind not in trump
        else:
            assert kind in trump
