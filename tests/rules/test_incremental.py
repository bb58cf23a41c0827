"""Scoring deal by deal (scorekeeper.rules.incremental) is scoring the whole document.

For random matches of every game and variant (Biriba and Burraco of 2, 3 and 4 players under
several rules, targets that end them or not; Burraco for three as a solo player against a pair
then each alone, or each alone throughout, a match of a set number of deals for victory
points, house card values and bonuses; Barbu classic, Ravage City, Salade and King under
each rotation, compulsory doubles mode and undoubled negative rule, with deals still to enter,
and issue 12's forms: Chinese Poker, random house sets of contracts and values, five players),
mostly legal and now and then with an illegal deal (too many copies, two sides out, a wrong
dealer or declarer, a contract named twice, compulsory doubles missed, a deal after the end,
text that cannot be written, ...):

- the match scored deal by deal from the raw deals, its state written as JSON and read back
  after every deal (exactly), gives the whole document's result: every deal's score, running
  totals and notices, and the totals, finished, winner and next deal at the end;
- after a deal k (two drawn in each match, and before the first), the state's result is the
  whole match of its first k deals': across the matches, every place of a match;
- the first deal refused is refused as the whole document refuses it (code, message, place);
- a correction of a random deal k, re-scored from the state after deal k − 1, gives the
  corrected document's result or refusal;
- a deal given as read scores as the same deal given raw.

The matches are drawn with a seeded ``random.Random`` (hypothesis draws the seed and the
variant), which keeps each example cheap: 2,200 matches (700 Biriba, 700 Burraco, 800 Barbu)
in about 45 s on a shared 2-core machine, and 500 more of Burraco's issue 12 forms (300 for
three, 200 for victory points) in about 10 s. Half the matches hold one illegal deal, and a
third of the corrections are illegal.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from scorekeeper.rules import barbu, incremental
from scorekeeper.rules.base import MatchHeader, MatchResult
from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.incremental import (
    State,
    StateMismatch,
    notice_from_json,
    notice_json,
    result_of,
    score_deals,
    score_next,
    score_start,
    standing,
    state_from_json,
    state_json,
    state_of,
)
from scorekeeper.rules.match import (
    parse_document,
    parse_header,
    score_document_full,
    score_match,
)
from tests.profiles import examples

PLAYERS = ["Anna", "Babis", "Chris", "Dora"]
SEEDS = st.integers(min_value=0, max_value=2**64 - 1)


def _examples(n: int) -> settings:
    return settings(
        max_examples=examples(n),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


# --- what is compared ------------------------------------------------------------------------


def _refusal(e: RuleError) -> tuple[Any, ...]:
    return (e.code, e.message, e.where, e.place, e.template, e.params)


def _whole(doc: dict[str, Any], deals: list[Any]) -> MatchResult | tuple[Any, ...]:
    """The whole document with ``deals``: its result, or its refusal."""
    try:
        _, result, _ = score_document_full({**doc, "deals": deals})
    except RuleError as e:
        return _refusal(e)
    return result


def _round_trip(state: State) -> State:
    data = state_json(state)
    again = state_from_json(json.loads(json.dumps(data)), state.header, state.rules)
    assert again == state
    assert state_json(again) == data
    return again


def check_match(doc: dict[str, Any], correct: Any, rng: random.Random) -> None:
    """Score ``doc`` deal by deal and compare (see the module docstring). ``correct(deals,
    index)`` makes another deal for deal ``index`` (0-based) after ``deals``."""
    written = json.dumps(doc)
    note(written)
    header, _, rules = parse_header(doc)
    raws = doc["deals"]
    state = _round_trip(score_start(header, rules))
    states = [state]
    steps: list[incremental.Step] = []
    refused = None
    for raw in raws:
        try:
            step = score_next(state, raw)
        except RuleError as e:
            refused = _refusal(e)
            break
        steps.append(step)
        state = _round_trip(step.state)
        states.append(state)
        for notice in step.notices:
            assert notice_from_json(json.loads(json.dumps(notice_json(notice)))) == notice
    accepted = raws[: len(steps)]

    # every deal's score, running totals and notices; the totals, finished, winner, next deal
    whole = _whole(doc, accepted)
    assert isinstance(whole, MatchResult), whole
    result = result_of(state, steps)
    assert result == whole
    end = standing(state)
    assert (list(end.totals), end.finished, end.winner, end.next_deal) == (
        whole.totals,
        whole.finished,
        whole.winner,
        whole.next_deal,
    )
    # after deal k (two k of each match, and none): the whole match of its first k deals (the
    # document was read as a whole above, with every deal)
    read = parse_document({**doc, "deals": accepted})
    for k in {0, rng.randint(0, len(steps)), rng.randint(0, len(steps))}:
        assert result_of(states[k], steps[:k]) == score_match(replace(read, deals=read.deals[:k]))
    # the first deal refused, as the whole document refuses it
    if refused is not None:
        assert _whole(doc, raws[: len(steps) + 1]) == refused

    if steps:
        # a deal as read scores as the deal written
        i = rng.randrange(len(steps))
        assert score_next(states[i], read.deals[i]) == steps[i]
        assert state_of(read, i) == states[i]

        # a correction of deal k (1-based), scored again from the state after deal k - 1
        k = rng.randint(1, len(steps))
        corrected = [*accepted[: k - 1], correct(accepted[: k - 1], k - 1), *accepted[k:]]
        note(f"deal {k} corrected to {json.dumps(corrected[k - 1])}")
        whole = _whole(doc, corrected)
        try:
            again = score_deals(states[k - 1], corrected[k - 1 :])
        except RuleError as e:
            assert _refusal(e) == whole
        else:
            assert result_of(again[-1].state, again, before=result) == whole
    assert json.dumps(doc) == written  # nothing above changed the document


# --- rummy matches -----------------------------------------------------------------------------

RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"} | {n: str(n) for n in range(2, 11)}
NATURALS = [f"{RANK_NAMES[r]}{s}" for s in "SHDC" for r in range(1, 14)]
BIRIBA_RULES: list[dict[str, Any]] = [
    {},
    {"sets": True},
    {
        "sets": True,
        "close_needs_clean_biriba": True,
        "pot_needs_biriba": True,
        "whole_suit": "adds",
        "card_values": "greek_wikipedia",
    },
    {"trump_doubles": False, "whole_suit": "ordinary", "going_out_bonus": 0},
]
BURRACO_RULES: list[dict[str, Any]] = [
    {},
    {"preset": "fibur"},
    {"preset": "international"},
    {"preset": "classic", "semipulito": True, "close_needs": "clean", "no_pot_penalty": 55},
]
TARGETS = [300, 1500, 5000, 100_000]


def _card(rank: int, suit: str) -> str:
    return f"{RANK_NAMES[1 if rank == 14 else rank]}{suit}"


def _run(rng: random.Random, game: str) -> list[str]:
    suit = rng.choice("SHDC")
    wild = rng.random() < 0.4
    max_len = 14 if game == "burraco" else 13
    n = rng.randint(2 if wild else 3, min(13, max_len - (1 if wild else 0)))
    low = rng.randint(1, 14 - n + 1)
    cards = [_card(p, suit) for p in range(low, low + n)]
    if wild:
        if n >= 3 and rng.random() < 0.5:
            cards.pop(rng.randint(1, n - 2))  # the wild fills this gap
        cards.append(rng.choice(["JK", *(f"2{s}" for s in "SHDC" if s != suit)]))
    rng.shuffle(cards)
    return cards


def _set(rng: random.Random, ranks: list[int]) -> list[str]:
    rank = rng.choice(ranks)
    wild = rng.random() < 0.4
    n = rng.randint(2 if wild else 3, 7 if wild else 8)
    suits = list("SHDC" * 2)
    rng.shuffle(suits)
    cards = [_card(rank, s) for s in suits[:n]]
    if wild:
        cards.append(rng.choice(["JK", "2C"]))
    return cards


def _totals_side(rng: random.Random, game: str, rules: dict[str, Any]) -> dict[str, Any]:
    kinds = ["clean_biriba", "dirty_biriba"] if game == "biriba" else ["clean_burraco"]
    bonuses = {rng.choice(kinds): 1} if rng.random() < 0.5 else {}
    melded = 5 * rng.randint(40, 80) if bonuses else rng.choice([0, 5 * rng.randint(3, 60)])
    took_pot = rng.random() < 0.6 and (bool(bonuses) or not rules.get("pot_needs_biriba"))
    return {
        "totals": {"melded": melded, "in_hand": 5 * rng.randint(0, 20), "bonuses": bonuses},
        "took_pot": took_pot,
        "went_out": False,
    }


def rummy_deal(
    rng: random.Random, game: str, rules: dict[str, Any], seats: int, dealer: int
) -> dict[str, Any]:
    """A deal built from a double pack, legal but for what the checks here overlook."""
    pool = Counter(dict.fromkeys(NATURALS, 2)) + Counter({"JK": 4})

    def take(cards: list[str]) -> bool:
        need = Counter(cards)
        if any(pool[c] < n for c, n in need.items()):
            return False
        pool.subtract(need)
        return True

    intl = game == "burraco" and rules.get("preset") == "international"
    needs_clean = bool(
        rules.get("close_needs_clean_biriba")
        or rules.get("close_needs") == "clean"
        or (intl and "close_needs" not in rules)
    )
    sets = game == "burraco" or rules.get("sets", False)
    sides_count = 2 if seats == 4 else seats
    out = rng.choice([None, *range(sides_count)])
    sides = []
    for k in range(sides_count):
        if rng.random() < 0.12:
            sides.append(_totals_side(rng, game, rules))
            continue
        if rng.random() < 0.08:  # the side's points alone, as the table counted them
            sides.append({"totals": {"points": 5 * rng.randint(-60, 200)}, "went_out": False})
            continue
        melds: list[list[str]] = []
        set_ranks: set[str] = set()
        for _ in range(rng.randint(0, 4)):
            if sets and rng.random() < 0.35:
                meld = _set(rng, [1, 3] if intl else [1, *range(3, 14)])
                rank = next(c[:-1] for c in meld if c != "JK" and not c.startswith("2"))
                if rules.get("preset") == "fibur" and rank in set_ranks:
                    continue
                set_ranks.add(rank)
            else:
                meld = _run(rng, game)
            if take(meld):
                melds.append(meld)
        big = [m for m in melds if len(m) >= 7]
        clean = [m for m in big if not any(c == "JK" or c.startswith("2") for c in m)]
        went_out = out == k and (game == "biriba" or bool(big)) and (clean or not needs_clean)
        took_pot = went_out or rng.random() < 0.6
        if took_pot and rules.get("pot_needs_biriba") and not big:
            took_pot = went_out = False
        hand: list[str] = []
        if not (went_out and seats < 4):
            left = [c for c, n in pool.items() for _ in range(n)]
            hand = rng.sample(left, rng.randint(0, 11))
            take(hand)
        side: dict[str, Any] = {
            "melds": melds,
            "hand": hand,
            "took_pot": bool(took_pot),
            "went_out": bool(went_out),
        }
        if game == "burraco" and went_out and rng.random() < 0.5:
            discard = [c for c in NATURALS if pool[c] and not c.startswith("2")]
            if discard:
                side["final_discard"] = rng.choice(discard)
                take([side["final_discard"]])
        sides.append(side)
    deal: dict[str, Any] = {"sides": sides}
    if game == "biriba":
        deal["trump"] = rng.choice([None, "S", "H", "D", "C"])
    if rng.random() < 0.2:
        deal["dealer"] = dealer
    return deal


def spoil_rummy(rng: random.Random, deal: dict[str, Any], seats: int, dealer: int) -> None:
    """Make ``deal`` illegal, one way or another."""
    sides = deal["sides"]
    k = rng.randrange(len(sides))
    kind = rng.randrange(10)
    if kind == 0:
        sides[k] = {"melds": [], "hand": ["7C", "7C", "7C"], "took_pot": True}
    elif kind == 1:
        for side in sides[:2]:
            side.update(took_pot=True, went_out=True)
    elif kind == 2:
        sides[k]["bogus"] = 1
    elif kind == 3:
        sides[k] = {"melds": [["3H", "4H", "5H"]], "hand": ["KD", "1H"], "took_pot": True}
    elif kind == 4:
        deal["dealer"] = (dealer + 1) % seats
    elif kind == 5:
        sides[k] = {"melds": [], "hand": ["KD", "\ud800H"]}
    elif kind == 6:
        del sides[k]
    elif kind == 7:
        sides[k] = rng.choice(
            [{"totals": {"melded": 17, "in_hand": 0}}, {"totals": {"points": -17}}]
        )
    elif kind == 8:
        for side in sides:
            side.update(went_out=False)
        sides[k].update(took_pot=False, went_out=True)
    else:
        deal["trump"] = "X"


def rummy_document(
    rng: random.Random, game: str, rules: dict[str, Any], seats: int, target: int
) -> tuple[dict[str, Any], Any]:
    """A match of up to 10 deals; in half of them one deal is illegal (and so is a third of
    the corrections)."""
    first = rng.randrange(seats)
    count = rng.randint(1, 10)
    spoilt = rng.randrange(2 * count)  # a deal of the match, or none

    def deal_at(index: int, spoil: bool) -> dict[str, Any]:
        dealer = (first + index) % seats
        deal = rummy_deal(rng, game, rules, seats, dealer)
        if spoil:
            spoil_rummy(rng, deal, seats, dealer)
        return deal

    doc = {
        "format": "scorekeeper-match/1",
        "game": game,
        "rules": rules | {"target": target},
        "players": PLAYERS[:seats],
        "first_dealer": first,
        "deals": [deal_at(i, i == spoilt) for i in range(count)],
    }
    return doc, lambda deals, index: deal_at(index, rng.random() < 0.3)


@_examples(700)
@given(
    rules=st.sampled_from(BIRIBA_RULES),
    seats=st.sampled_from([2, 3, 4]),
    target=st.sampled_from(TARGETS),
    seed=SEEDS,
)
def test_biriba_scored_deal_by_deal_is_the_whole_document(rules, seats, target, seed):
    rng = random.Random(seed)
    doc, correct = rummy_document(rng, "biriba", rules, seats, target)
    check_match(doc, correct, rng)


@_examples(700)
@given(
    rules=st.sampled_from(BURRACO_RULES),
    seats=st.sampled_from([2, 4]),
    target=st.sampled_from(TARGETS),
    seed=SEEDS,
)
def test_burraco_scored_deal_by_deal_is_the_whole_document(rules, seats, target, seed):
    rng = random.Random(seed)
    doc, correct = rummy_document(rng, "burraco", rules, seats, target)
    check_match(doc, correct, rng)


# --- Burraco for three, victory points, house values ---------------------------------------------

HOUSE_VALUES: list[dict[str, Any]] = [
    {},
    {"card_values": {"JK": 50, "2": 25}, "burraco_bonuses": {"clean_burraco": 300}},
    {"card_values": {"3": 0, "A": 20}, "burraco_bonuses": {"dirty_burraco": 0}},
]
THREE_RULES: list[dict[str, Any]] = [
    {"three_players": "fibur"},
    {"three_players": "fibur", "preset": "fibur", "pair_rounding": "truncate"},
    {"three_players": "fibur", "alone_from": 300},
    {"three_players": "fibur", "alone_from": 0},
    {"three_players": "fibur", "alone_from": None},
    {"three_players": "each_alone", "preset": "international"},
]


def three_deal(
    rng: random.Random, rules: dict[str, Any], phase: str, dealer: int, spoil: bool
) -> dict[str, Any]:
    """A deal of Burraco for three for ``phase`` (as the deals before it leave it): a solo
    player and the pair, nobody with a pozzetto, or each alone; now and then one of another
    phase or another count of sides, and illegal when ``spoil``."""
    if phase == "each_alone" or rng.random() < 0.05:
        deal = rummy_deal(rng, "burraco", rules, 3, dealer)
        if rng.random() < 0.3:
            deal["solo"] = None
    elif rng.random() < 0.15:  # nobody took a pozzetto
        deal = rummy_deal(rng, "burraco", rules, 3, dealer)
        for side in deal["sides"]:
            side.update(took_pot=False, went_out=False)
            side.pop("final_discard", None)
        deal["solo"] = None
    else:
        deal = rummy_deal(rng, "burraco", rules, 2, dealer)
        deal["sides"][0]["took_pot"] = True
        deal["solo"] = rng.randrange(3)
    if spoil:
        kind = rng.randrange(6)
        if kind == 0:
            deal["solo"] = rng.choice([0, 1, 2, None, 3, "Anna"])
        elif kind == 1:
            deal.pop("solo", None)
        elif kind == 2:
            deal["sides"].append(copy.deepcopy(deal["sides"][0]))
        elif kind == 3:
            deal["sides"][0].update(took_pot=False, went_out=False)
        else:
            spoil_rummy(rng, deal, 3, dealer)
    return deal


@_examples(300)
@given(
    rules=st.sampled_from(THREE_RULES),
    house=st.sampled_from(HOUSE_VALUES),
    target=st.sampled_from([None, 500, 1505, 100_000]),
    seed=SEEDS,
)
def test_burraco_for_three_scored_deal_by_deal_is_the_whole_document(rules, house, target, seed):
    """The phase of each deal (solo and pair, then each alone) follows from the deals before
    it: the state carries it, and a correction of a deal can move the switch."""
    rng = random.Random(seed)
    rules = rules | house | ({} if target is None else {"target": target})
    first = rng.randrange(3)
    base = {
        "format": "scorekeeper-match/1",
        "game": "burraco",
        "rules": rules,
        "players": PLAYERS[:3],
        "first_dealer": first,
    }
    header, _, parsed = parse_header({**base, "deals": []})
    count = rng.randint(1, 10)
    spoilt = rng.randrange(2 * count)

    def deals_after(deals: list[dict[str, Any]], index: int, spoil: bool) -> dict[str, Any]:
        state = score_start(header, parsed)
        for raw in deals:  # the phase the deals before it leave (as far as they are legal)
            try:
                state = score_next(state, raw).state
            except RuleError:
                break
        phase = standing(state).next_deal.get("phase", "each_alone")
        return three_deal(rng, rules, phase, (first + index) % 3, spoil)

    deals: list[dict[str, Any]] = []
    for i in range(count):
        deals.append(deals_after(deals, i, i == spoilt))
    doc = {**base, "deals": deals}
    check_match(doc, lambda before, index: deals_after(before, index, rng.random() < 0.3), rng)


VP_RULES: list[dict[str, Any]] = [
    {"match_deals": 3},
    {"match_deals": 4, "preset": "fibur"},
    {"match_deals": 2, "vp_table": [[30, 10, 10], [100, 12, 8], [300, 15, 5], [None, 20, 0]]},
    {"match_deals": 1, "vp_table": [[None, 3, 3]], "preset": "international"},
]


@_examples(200)
@given(
    rules=st.sampled_from(VP_RULES),
    house=st.sampled_from(HOUSE_VALUES),
    seats=st.sampled_from([2, 4]),
    seed=SEEDS,
)
def test_burraco_for_victory_points_scored_deal_by_deal_is_the_whole_document(
    rules, house, seats, seed
):
    """A match of ``match_deals`` deals ends after its last (and its export's VP with it),
    whatever the totals; a deal after it is refused."""
    rng = random.Random(seed)
    rules = rules | house
    first = rng.randrange(seats)
    count = rng.randint(1, rules["match_deals"] + 1)
    spoilt = rng.randrange(2 * count)

    def deal_at(index: int, spoil: bool) -> dict[str, Any]:
        dealer = (first + index) % seats
        deal = rummy_deal(rng, "burraco", rules, seats, dealer)
        if spoil:
            spoil_rummy(rng, deal, seats, dealer)
        return deal

    doc = {
        "format": "scorekeeper-match/1",
        "game": "burraco",
        "rules": rules,
        "players": PLAYERS[:seats],
        "first_dealer": first,
        "deals": [deal_at(i, i == spoilt) for i in range(count)],
    }
    check_match(doc, lambda deals, index: deal_at(index, rng.random() < 0.3), rng)


# --- Barbu matches ---------------------------------------------------------------------------


def _played(rng: random.Random, seats: int = 4) -> dict[str, Any]:
    """Every count a real deal gives (card c: suit ``"SHDC"[c // 13]``, rank ``c % 13 + 1``):
    52 cards in 13 tricks, or for five players 50 (the black twos out) in 10; and Chinese
    Poker's nets, each pair's comparisons won by one and lost by the other."""
    cards = [c for c in range(52) if not (seats == 5 and c % 13 == 1 and c // 13 in (0, 3))]
    rng.shuffle(cards)
    count = len(cards) // seats
    winners = [rng.randrange(seats) for _ in range(count)]
    taken: list[list[int]] = [[] for _ in range(seats)]
    for trick, seat in enumerate(winners):
        taken[seat].extend(cards[seats * trick : seats * trick + seats])
    holder = {c: s for s in range(seats) for c in taken[s]}

    def count_of(test: Any) -> list[int]:
        return [sum(1 for c in taken[s] if test(c)) for s in range(seats)]

    net = [0] * seats
    for a in range(seats):
        for b in range(a + 1, seats):
            won = rng.randint(-6, 6)
            net[a] += won
            net[b] -= won
    return {
        "tricks": [winners.count(s) for s in range(seats)],
        "hearts": count_of(lambda c: c // 13 == 1),
        "ace_of_hearts": holder[13],
        "king_of_hearts": holder[13 + 12],
        "queens": count_of(lambda c: c % 13 == 11),
        "boys": count_of(lambda c: c % 13 in (10, 12)),
        "last_trick": winners[-1],
        "last_two": winners[-2:],
        "suits": [
            [sum(1 for c in taken[s] if c // 13 == k) for k in range(4)] for s in range(seats)
        ],
        "net": net,
    }


def contract_data(
    rng: random.Random, contract: str, rules: barbu.BarbuRules = barbu.DEFAULT_RULES
) -> dict[str, Any]:
    data = _played(rng, rules.seats)
    if contract == "trumps":
        return {"trump": rng.choice("SHDC"), "tricks": data["tricks"]}
    if contract == "domino":
        order = list(range(4))
        rng.shuffle(order)
        return {"finish_order": order} | ({"start_rank": "J"} if rng.random() < 0.3 else {})
    keys = barbu.data_keys(rules, barbu.Contract(contract))
    return {key: data[key] for key in keys}


#: The Barbu forms of a match: each variant as it comes, and issue 12's: Chinese Poker, a
#: random house set (a list of contracts with house values), and Salade for five players.
BARBU_VARIANTS = [
    "classic",
    "ravage_city",
    "salade",
    "king",
    "chinese_poker",
    "house",
    "salade5",
]


def _house_units(rng: random.Random, contract: str) -> dict[str, Any]:
    """Random house values for ``contract``, of the signs rules.md asks."""

    def penalty() -> int:
        return rng.randint(-60, 0)

    ace = {"ace_of_hearts": penalty()} if rng.random() < 0.5 else {}
    units: dict[str, Any] = {
        "no_tricks": {"trick": penalty()},
        "no_hearts": {"heart": penalty()} | ace,
        "no_queens": {"queen": penalty()},
        "barbu": {"king_of_hearts": penalty()},
        "no_last_two": {"last_two": [penalty(), penalty()]},
        "no_last_trick": {"last_trick": penalty()},
        "trumps": {"trump_trick": rng.randint(0, 10)},
        "domino": {"payouts": [rng.randint(-60, 150) for _ in range(4)]},
        "ravage_city": {"most_cards": 12 * rng.randint(-5, 0)},
    }
    if contract != "salade":
        return units[contract]
    parts = ["trick", "heart", "ace_of_hearts", "queen", "king_of_hearts"]
    out = {part: penalty() for part in parts if rng.random() < 0.5}
    last = rng.choice(["last_trick", "last_two", None])
    if last == "last_two":
        out["last_two"] = [penalty(), penalty()]
    elif last == "last_trick" or not out:
        out["last_trick"] = penalty()
    return out


def _house_rules(rng: random.Random, seats: int) -> dict[str, Any]:
    """A random house set: two contracts or more (five players: Salade's), values where the
    variant has none and now and then where it has some, now and then a Domino that brings
    the totals to 0 (so that the zero-sum checks run)."""
    if seats == 5:
        variant, every = "salade", [c.value for c in barbu.contracts_of(barbu.Variant.SALADE)]
    else:
        variant = rng.choice(["classic", "ravage_city", "salade"])
        every = [c.value for c in barbu.HOUSE_CONTRACTS]
    chosen = rng.sample(every, rng.randint(2, len(every)))
    own = {c.value for c in barbu.contracts_of(barbu.Variant(variant))}
    values = {
        c: _house_units(rng, c)
        for c in chosen
        if c != "chinese_poker" and (c not in own or rng.random() < 0.3)
    }
    raw: dict[str, Any] = {"variant": variant, "contracts": chosen}
    if "domino" in chosen and seats == 4 and rng.random() < 0.5:
        values["domino"] = {"payouts": [0, 0, 0, 0]}
        rest = barbu.match_values(barbu.parse_rules(raw | {"contract_values": values})).total
        values["domino"] = {"payouts": [30, 20, 10, -rest - 60]}
    if values:
        raw["contract_values"] = values
    if "chinese_poker" in chosen and rng.random() < 0.5:
        raw["chinese_poker_multiplier"] = rng.randint(1, 6)
    return raw


def _left(rules: barbu.BarbuRules, own: list[str], plays: Counter[str]) -> list[str]:
    every = [c.value for c in barbu.match_contracts(rules)]
    if rules.variant is not barbu.Variant.KING:
        return [c for c in every if c not in own]
    trumps = own.count("trumps")
    out = []
    for c in every:
        if c == "trumps":
            if trumps < 2:
                out.append(c)
        elif len(own) - trumps < 3 and plays[c] < 2:
            out.append(c)
    return out


def barbu_deal(
    rng: random.Random,
    rules: barbu.BarbuRules,
    header: MatchHeader,
    deals: list[dict[str, Any]],
    diligence: float,
    *,
    to_enter: float = 0.0,
    spoil: bool = False,
) -> dict[str, Any]:
    """Deal ``len(deals)`` after ``deals``: a contract its declarer may still name (in King
    there may be none left), the others doubling the declarer with probability
    ``diligence``, still to enter with probability ``to_enter``; illegal when ``spoil``."""
    index = len(deals)
    seats = header.seats
    declarer = barbu.declarer_of(header, rules, min(index, barbu.match_length(rules) - 1))
    own = [
        d["contract"]
        for i, d in enumerate(deals)
        if barbu.declarer_of(header, rules, i) == declarer
    ]
    plays = Counter(d["contract"] for d in deals)
    left = _left(rules, own, plays)
    every = [c.value for c in barbu.match_contracts(rules)]
    contract = rng.choice(left or every)
    positive = barbu.Contract(contract).positive
    doubles: list[dict[str, Any]] = []
    if rules.doubling:
        others = [s for s in range(seats) if s != declarer]
        for by in others:
            if rng.random() < diligence:
                doubles.append({"by": by, "on": declarer, "redoubled": rng.random() < 0.3})
        if not positive:
            for a in others:
                for b in others:
                    if a < b and rng.random() < 0.2:
                        by, on = (a, b) if rng.random() < 0.5 else (b, a)
                        doubles.append({"by": by, "on": on, "redoubled": rng.random() < 0.3})
        rng.shuffle(doubles)
    deal: dict[str, Any] = {"contract": contract, "doubles": doubles}
    split = barbu.is_split(rules, barbu.Contract(contract), doubles)
    if rng.random() < to_enter:
        deal["to_enter"] = True
    elif not split:
        deal.update(contract_data(rng, contract, rules))
    if rng.random() < 0.15:
        deal["declarer"] = declarer
    if spoil:
        spoil_barbu(rng, deal, declarer, own, seats)
    return deal


def spoil_barbu(
    rng: random.Random, deal: dict[str, Any], declarer: int, own: list[str], seats: int = 4
) -> None:
    """Make ``deal`` illegal, one way or another (a contract named again is legal in King
    while its quotas allow it)."""
    kind = rng.randrange(10)
    if kind == 0 and own:
        deal["contract"] = rng.choice(own)
    elif kind == 1:
        deal["declarer"] = (declarer + 1) % seats
    elif kind == 2 and "tricks" in deal:
        deal["tricks"] = [13, 1, 0, 0] if seats == 4 else [10, 1, 0, 0, 0]
    elif kind == 3:
        deal["to_enter"] = True
        deal["tricks"] = [4, 3, 3, 3]
    elif kind == 4:
        deal["doubles"].append({"by": declarer, "on": (declarer + 1) % seats})
    elif kind == 5:
        deal["contract"] = "\ud800"
    elif kind == 6:
        deal["contract"] = "no_spades"
    elif kind == 7 and "net" in deal:
        deal["net"] = [*deal["net"][:-1], deal["net"][-1] + 1]  # adds up to 1
    elif kind == 8:
        deal["contract"] = rng.choice(["chinese_poker", "salade", "domino"])  # maybe not played
    else:
        deal["bogus"] = True


@_examples(1000)
@given(
    variant=st.sampled_from(BARBU_VARIANTS),
    rotation=st.sampled_from(["series", "quick"]),
    compulsory=st.sampled_from(["enforce", "warn", "off"]),
    undoubled=st.sampled_from(["split", "play"]),
    diligence=st.sampled_from([1.0, 0.5, 0.2]),
    seed=SEEDS,
)
def test_barbu_scored_deal_by_deal_is_the_whole_document(
    variant, rotation, compulsory, undoubled, diligence, seed
):
    rng = random.Random(seed)
    seats = 5 if variant == "salade5" else 4
    rules_raw: dict[str, Any] = {
        "variant": variant,
        "rotation": rotation,
        "compulsory_doubles": compulsory,
        "undoubled_negative": undoubled,
    }
    if variant == "classic" and rng.random() < 0.2:
        rules_raw["domino_payouts"] = [40, 25, 5, -5]
    if variant == "chinese_poker":
        rules_raw |= {"variant": rng.choice(["classic", "ravage_city"]), "chinese_poker": True}
        if rng.random() < 0.5:
            rules_raw["chinese_poker_multiplier"] = rng.randint(1, 6)
    if variant == "salade5":
        rules_raw["variant"] = "salade"
    if variant == "house" or (variant == "salade5" and rng.random() < 0.5):
        rules_raw |= _house_rules(rng, seats)
    rules = barbu.parse_rules(rules_raw, seats)
    players = [*PLAYERS, "Eleni"][:seats]
    first = rng.randrange(seats)
    header = MatchHeader(game="barbu", players=tuple(players), first_dealer=first)
    length = barbu.match_length(rules)
    count = rng.choice([length, length, length + 1, rng.randint(1, length)])
    spoilt = rng.randrange(2 * count)  # a deal of the match, or none
    to_enter = rng.choice([0.0, 0.1])
    deals: list[dict[str, Any]] = []
    for i in range(count):
        deal = barbu_deal(
            rng, rules, header, deals, diligence, to_enter=to_enter, spoil=i == spoilt
        )
        deals.append(deal)
    doc = {
        "format": "scorekeeper-match/1",
        "game": "barbu",
        "rules": rules_raw,
        "players": players,
        "first_dealer": first,
        "deals": deals,
    }

    def correct(before: list[dict[str, Any]], index: int) -> dict[str, Any]:
        spoil = rng.random() < 0.3
        return barbu_deal(rng, rules, header, before, diligence, to_enter=0.2, spoil=spoil)

    check_match(doc, correct, rng)


# --- the state as JSON, and what is refused --------------------------------------------------


def _state_after(doc: dict[str, Any], deals: list[dict[str, Any]]) -> State:
    match = parse_document({**doc, "deals": deals})
    return state_of(match)


RUMMY_DEAL = {
    "sides": [
        {"melds": [["3H", "4H", "5H"]], "hand": ["KD"], "took_pot": True},
        {"melds": [["3S", "4S", "5S"]], "hand": [], "took_pot": True},
    ]
}


def test_a_state_of_another_match_rules_or_format_is_refused():
    doc = {"format": "scorekeeper-match/1", "game": "burraco", "players": PLAYERS}
    state = _state_after(doc, [RUMMY_DEAL, RUMMY_DEAL])
    data = json.loads(json.dumps(state_json(state)))
    header, rules = state.header, state.rules
    assert state_from_json(data, header, rules) == state
    other_rules = parse_document({**doc, "rules": {"target": 500}, "deals": []}).rules
    other_dealer = MatchHeader(game="burraco", players=tuple(PLAYERS), first_dealer=1)
    two = MatchHeader(game="burraco", players=tuple(PLAYERS[:2]))
    for header_, rules_, changed in [
        (header, other_rules, data),
        (other_dealer, rules, data),
        (two, rules, data),
        (header, rules, {**data, "format": "scorekeeper-state/0"}),
        (header, rules, {**data, "tally": {"deals": 2, "totals": [1, 2, 3]}}),
        (header, rules, {**data, "tally": {"deals": "2", "totals": [1, 2]}}),
        (header, rules, {key: v for key, v in data.items() if key != "tally"}),
        (header, rules, [data]),
    ]:
        with pytest.raises(StateMismatch):
            state_from_json(changed, header_, rules_)


def test_a_renamed_player_keeps_the_state():
    doc = {"format": "scorekeeper-match/1", "game": "biriba", "players": PLAYERS}
    state = _state_after(doc, [RUMMY_DEAL])
    renamed = MatchHeader(game="biriba", players=("Anna", "Babis", "Chris", "Eleni"))
    again = state_from_json(state_json(state), renamed, state.rules)
    assert again.tally == state.tally and again.header == renamed


def test_a_barbu_ledger_that_does_not_add_up_is_refused():
    rules = barbu.parse_rules({})
    header = MatchHeader(game="barbu", players=tuple(PLAYERS))
    deal = {"contract": "barbu", "doubles": [{"by": s, "on": 0} for s in (1, 2, 3)]}
    deal |= {"king_of_hearts": 2}
    step = score_next(score_start(header, rules), deal)
    data = json.loads(json.dumps(state_json(step.state)))
    assert state_from_json(data, header, rules) == step.state
    data["tally"]["deals"] = 2
    with pytest.raises(StateMismatch):
        state_from_json(data, header, rules)
    data["tally"]["deals"] = 1
    data["tally"]["ledger"]["named"][0][0][0] = "ravage_city"  # not a classic contract
    with pytest.raises(StateMismatch):
        state_from_json(data, header, rules)


def test_result_of_refuses_steps_that_do_not_make_the_state():
    doc = {"format": "scorekeeper-match/1", "game": "biriba", "players": PLAYERS}
    match = parse_document({**doc, "deals": [RUMMY_DEAL, RUMMY_DEAL]})
    steps = score_deals(score_start(match.header, match.rules), match.deals)
    assert result_of(steps[-1].state, steps).totals == list(steps[-1].state.totals)
    with pytest.raises(ValueError):
        result_of(steps[-1].state, steps[1:])  # deal 1 neither scored nor kept
    with pytest.raises(ValueError):
        result_of(steps[0].state, steps)  # more deals than the state counts
    with pytest.raises(ValueError):
        result_of(steps[-1].state, steps[:1], before=result_of(steps[0].state, steps[:1]))


def test_a_deal_after_the_end_is_refused_as_in_the_whole_document():
    doc = {
        "format": "scorekeeper-match/1",
        "game": "biriba",
        "rules": {"target": 10},
        "players": PLAYERS,
    }
    deals = [RUMMY_DEAL, RUMMY_DEAL]
    state = _state_after(doc, deals[:1])
    assert standing(state).finished and standing(state).winner == 1  # 15 to 5
    with pytest.raises(RuleError) as caught:
        score_next(state, RUMMY_DEAL)
    assert _whole(doc, deals) == _refusal(caught.value)
    assert caught.value.code == "match_finished" and caught.value.place.deal == 2


def test_a_barbu_deal_after_a_whole_match_is_refused_as_in_the_whole_document():
    rng = random.Random(3)
    negatives = [["no_king", "no_girls", "no_boys"], ["no_hearts", "no_last_two", "no_tricks"]]
    series = {s: [*negatives[s % 2], "trumps", "trumps"] for s in range(4)}
    deals = [
        {"contract": c, **contract_data(rng, c)} for c in (series[i % 4][i // 4] for i in range(20))
    ]
    doc = {
        "format": "scorekeeper-match/1",
        "game": "barbu",
        "rules": {"variant": "king"},
        "players": PLAYERS,
    }
    state = _state_after(doc, deals)
    assert standing(state).finished and standing(state).next_deal["number"] is None
    with pytest.raises(RuleError) as caught:
        score_next(state, deals[0])
    assert caught.value.code == "match_over" and caught.value.place.deal == 21
    assert _whole(doc, [*deals, deals[0]]) == _refusal(caught.value)
