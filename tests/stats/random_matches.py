"""Random but legal finished matches of every game, made through the services.

Rummy deals are entered mostly as totals (what each side melded, kept in hand, which bonuses,
who went out, who took the pot), now and then as cards (deals of the worked examples of
rules.md, for two pairs under the default rules). Barbu deals come from a pack dealt into
thirteen tricks won by random seats, so that every contract's data is what a real deal gives;
the doubles are random among those the rules allow, the compulsory ones made in time under
``enforce``. The rules themselves vary: targets, closing and pot options, Burraco presets;
Barbu classic (series or quick, compulsory doubles enforced, warned or off, negative contracts
split or played), Ravage City, Salade and King.

A deal the rules refuse anyway (a combination this generator does not foresee) is drawn
again: the rules core is the judge of what is legal, and every match made here is finished.
"""

from __future__ import annotations

import json
import random
from typing import Any

from scorekeeper import services
from scorekeeper.models import Match
from scorekeeper.rules.errors import RuleError

NAMES = ["Anna", "Babis", "Chris", "Dora", "Eleni", "Fotis"]
TRIES = 60

# --- rummy -------------------------------------------------------------------------------------

RUMMY_KINDS = {
    "biriba": ("clean_biriba", "dirty_biriba", "clean_trump_biriba", "dirty_trump_biriba"),
    "burraco": ("clean_burraco", "dirty_burraco", "semi_clean_burraco"),
}
#: Deals entered as cards, from the worked examples of rules.md (four players, the default
#: rules): biriba-ex2 and -ex5, burraco-ex1 and -ex3.
CARD_DEALS: dict[str, list[dict[str, Any]]] = {
    "biriba": [
        {"trump": "C", "sides": [
            {"melds": [["3C", "4C", "5C", "6C", "7C", "8C", "9C"],
                       ["8H", "9H", "10H", "JH", "QH", "KH", "JK"]],
             "hand": ["5D", "7S"], "took_pot": True, "went_out": False},
            {"melds": [["AD", "2D", "3D", "4D", "5D", "6D", "7D"]],
             "hand": ["KS", "QS"], "took_pot": True, "went_out": True}]},
        {"trump": "D", "sides": [
            {"melds": [["2H", "9S", "10S", "JS", "QS", "KS", "AS"]],
             "hand": ["4C", "4C", "7D", "AH", "JK", "KD", "8H", "3S", "3S", "6C", "QC"],
             "took_pot": False, "went_out": False},
            {"melds": [["3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H"], ["JD", "QD", "KD"]],
             "hand": [], "took_pot": True, "went_out": True}]},
    ],
    "burraco": [
        {"sides": [
            {"melds": [["3H", "4H", "5H", "6H", "7H", "8H", "9H"], ["KS", "KD", "KC"]],
             "hand": ["4C", "QD"], "took_pot": True, "went_out": True},
            {"melds": [["10S", "JS", "QS", "JK"], ["7S", "7D", "7C"]],
             "hand": ["AH", "2C", "5D", "KS"], "took_pot": True, "went_out": False}]},
        {"sides": [
            {"melds": [["AC", "2C", "3C", "4C", "5C", "6C", "7C"]],
             "hand": [], "took_pot": True, "went_out": False},
            {"melds": [["AS", "2S", "3S", "2H", "5S", "6S", "7S"]],
             "hand": [], "took_pot": True, "went_out": False}]},
    ],
}  # fmt: skip


def _totals_side(rng: random.Random, game: str, *, out: bool, one_player: bool) -> dict:
    kinds = RUMMY_KINDS[game]
    bonuses: dict[str, int] = {}
    count = rng.choice([0, 0, 1, 1, 2, 3])
    if out and not count:
        count = 1
    for _ in range(count):
        kind = rng.choice(kinds)
        bonuses[kind] = bonuses.get(kind, 0) + 1
    if out and not any(k.startswith("clean") for k in bonuses):
        bonuses[kinds[0]] = bonuses.get(kinds[0], 0) + 1
    melded = 5 * rng.randint(0, 30) + 60 * sum(bonuses.values())
    if 0 < melded < 30:
        melded = 30
    in_hand = 0 if out and one_player else 5 * rng.randint(0, 20)
    took_pot = True if out else rng.random() < 0.75
    return {
        "totals": {"melded": melded, "in_hand": in_hand, "bonuses": bonuses},
        "took_pot": took_pot,
        "went_out": out,
    }


def _rummy_deal(
    rng: random.Random, game: str, sides: int, *, one_player: bool, cards: bool
) -> dict[str, Any]:
    if cards and rng.random() < 0.25:
        return json.loads(json.dumps(rng.choice(CARD_DEALS[game])))
    out = rng.randrange(-1, sides)  # -1: nobody went out
    deal: dict[str, Any] = {
        "sides": [
            _totals_side(rng, game, out=side == out, one_player=one_player) for side in range(sides)
        ]
    }
    if game == "biriba":
        deal["trump"] = rng.choice("SHDC")
    return deal


def rummy_match(rng: random.Random, owner, game: str) -> Match:
    seats = rng.choice([2, 3, 4] if game == "biriba" else [2, 4])
    players = rng.sample(NAMES, seats)
    rules: dict[str, Any] = {"target": rng.choice([600, 900, 1200])}
    if game == "biriba":
        rules["close_needs_clean_biriba"] = rng.random() < 0.5
        rules["pot_needs_biriba"] = rng.random() < 0.3
    elif rng.random() < 0.5:
        rules["preset"] = rng.choice(["classic", "fibur"])
    match = services.match_create(
        owner=owner, game=game, players=players, first_dealer=rng.randrange(seats), rules=rules
    )
    sides = 2 if seats == 4 else seats
    # the worked examples' deals are for two pairs under the default rules
    cards = seats == 4 and set(rules) <= {"target"}
    while not match.is_finished:
        assert match.deal_count < 80, f"{game} match unfinished after 80 deals ({rules})"
        for _ in range(TRIES):
            deal = _rummy_deal(rng, game, sides, one_player=seats != 4, cards=cards)
            try:
                services.deal_record(match=match, data=deal)
                break
            except RuleError:
                continue
        else:
            raise AssertionError(f"no legal {game} deal drawn in {TRIES} tries ({rules})")
        match.refresh_from_db()
    return match


# --- Barbu -------------------------------------------------------------------------------------

CONTRACTS = {
    "classic": ["no_tricks", "no_hearts", "no_queens", "barbu", "no_last_two", "trumps", "domino"],
    "ravage_city": [
        "no_tricks", "no_hearts", "no_queens", "barbu", "no_last_two", "ravage_city", "trumps",
        "domino",
    ],
    "salade": ["no_tricks", "no_last_trick", "no_hearts", "no_queens", "barbu", "salade"],
}  # fmt: skip
KING_NEGATIVES = ["no_king", "no_girls", "no_boys", "no_hearts", "no_last_two", "no_tricks"]
POSITIVE = ("trumps", "domino")
SUITS = "SHDC"


def _tricks(rng: random.Random) -> list[list[tuple[int, str]]]:
    """A pack of 52 dealt into the 13 tricks of a deal, as (winner, cards) would be: here each
    trick a list of (rank, suit) and its winner drawn at random."""
    pack = [(rank, suit) for suit in SUITS for rank in range(2, 15)]
    rng.shuffle(pack)
    return [pack[4 * t : 4 * t + 4] for t in range(13)]


def barbu_data(rng: random.Random, contract: str) -> dict[str, Any]:
    tricks = _tricks(rng)
    winners = [rng.randrange(4) for _ in tricks]
    taken: list[list[tuple[int, str]]] = [[] for _ in range(4)]
    for winner, trick in zip(winners, tricks, strict=True):
        taken[winner].extend(trick)

    def count(test) -> list[int]:
        return [sum(1 for card in cards if test(card)) for cards in taken]

    def holder(card) -> int:
        return next(seat for seat in range(4) if card in taken[seat])

    trick_counts = [winners.count(seat) for seat in range(4)]
    hearts = count(lambda c: c[1] == "H")
    queens = count(lambda c: c[0] == 12)
    king = holder((13, "H"))
    ace = holder((14, "H"))
    data: dict[str, Any] = {
        "no_tricks": {"tricks": trick_counts},
        "no_hearts": {"hearts": hearts, "ace_of_hearts": ace},
        "no_queens": {"queens": queens},
        "barbu": {"king_of_hearts": king},
        "no_king": {"king_of_hearts": king},
        "no_girls": {"queens": queens},
        "no_boys": {"boys": count(lambda c: c[0] in (11, 13))},
        "no_last_two": {"last_two": [winners[11], winners[12]]},
        "no_last_trick": {"last_trick": winners[12]},
        "trumps": {"trump": rng.choice(SUITS), "tricks": trick_counts},
        "domino": {"finish_order": rng.sample(range(4), 4)},
        "ravage_city": {
            "suits": [[sum(1 for c in cards if c[1] == s) for s in SUITS] for cards in taken]
        },
        "salade": {
            "tricks": trick_counts,
            "hearts": hearts,
            "ace_of_hearts": ace,
            "queens": queens,
            "king_of_hearts": king,
            "last_trick": winners[12],
        },
    }[contract]
    return data


def _schedule(rng: random.Random, variant: str) -> dict[int, list[str]]:
    """Each declarer's contracts in the order they name them."""
    if variant == "king":
        negatives = rng.sample(KING_NEGATIVES, 6)
        halves = [negatives[:3], negatives[3:]]
        out = {}
        for seat in range(4):
            mine = [*halves[seat % 2], "trumps", "trumps"]
            rng.shuffle(mine)
            out[seat] = mine
        return out
    return {seat: rng.sample(CONTRACTS[variant], len(CONTRACTS[variant])) for seat in range(4)}


def barbu_match(rng: random.Random, owner) -> Match:
    variant = rng.choice(["classic", "classic", "classic", "ravage_city", "salade", "king"])
    rules: dict[str, Any] = {"variant": variant}
    if variant != "king":
        rules["rotation"] = rng.choice(["series", "quick"])
        rules["compulsory_doubles"] = rng.choice(["enforce", "enforce", "warn", "off"])
        rules["undoubled_negative"] = rng.choice(["split", "play"])
    first = rng.randrange(4)
    match = services.match_create(
        owner=owner, game="barbu", players=rng.sample(NAMES, 4), first_dealer=first, rules=rules
    )
    schedule = _schedule(rng, variant)
    per_declarer = len(schedule[0])
    quick = variant == "king" or rules.get("rotation") == "quick"
    doubled: dict[tuple[int, int], int] = {}  # (declarer, seat): doubles on the declarer so far
    for index in range(4 * per_declarer):
        step = index if quick else index // per_declarer
        declarer = (first + step) % 4
        position = index // 4 if quick else index % per_declarer
        contract = schedule[declarer][position]
        left = per_declarer - position  # this deal and the declarer's after it
        for _ in range(TRIES):
            doubles = []
            if variant != "king":
                for seat in range(4):
                    if seat == declarer:
                        continue
                    need = 2 - doubled.get((declarer, seat), 0)
                    forced = rules["compulsory_doubles"] == "enforce" and need >= left
                    if forced or rng.random() < 0.4:
                        doubles.append(
                            {"by": seat, "on": declarer, "redoubled": rng.random() < 0.2}
                        )
                if contract not in POSITIVE:
                    others = [s for s in range(4) if s != declarer]
                    for a in others:
                        for b in others:
                            if a < b and rng.random() < 0.15:
                                by, on = (a, b) if rng.random() < 0.5 else (b, a)
                                doubles.append(
                                    {"by": by, "on": on, "redoubled": rng.random() < 0.2}
                                )
            for double in doubles:
                if not double["redoubled"]:
                    del double["redoubled"]
            deal: dict[str, Any] = {"contract": contract, "doubles": doubles}
            split = (
                not doubles
                and contract not in POSITIVE
                and rules.get("undoubled_negative", "play") == "split"
            )
            if not split:
                deal.update(barbu_data(rng, contract))
            try:
                services.deal_record(match=match, data=deal)
                break
            except RuleError:
                continue
        else:
            raise AssertionError(f"no legal Barbu deal {index + 1} drawn ({rules})")
        for double in doubles:
            if double["on"] == declarer:
                key = (declarer, double["by"])
                doubled[key] = doubled.get(key, 0) + 1
    match.refresh_from_db()
    assert match.is_finished, rules
    return match
