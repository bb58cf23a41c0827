"""The contracts of each variant, what they are worth, and the data a deal records for them.

A contract's *raw* score is what each seat took, before any double is settled. Its total is a
constant of the variant (the sum of the raw scores of any deal of that contract): zero-sum
variants are built so that the totals of one declarer's contracts add up to nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from .options import BarbuRules, Variant

SEATS = 4
TRICKS = 13
HEARTS = 13
QUEENS = 4
BOYS = 8  # jacks and kings (King variant)
CARDS_PER_TRICK = 4
SUIT_CARDS = 13  # cards of one suit in the pack (Ravage City counts them by suit)

#: The contract data that counts something for each seat, and what the four seats take
#: together in a deal of one pack of 52.
COUNTS: dict[str, int] = {"tricks": TRICKS, "hearts": HEARTS, "queens": QUEENS, "boys": BOYS}


class Contract(StrEnum):
    NO_TRICKS = "no_tricks"
    NO_HEARTS = "no_hearts"
    NO_QUEENS = "no_queens"
    BARBU = "barbu"  # no king of hearts
    NO_LAST_TWO = "no_last_two"
    TRUMPS = "trumps"
    DOMINO = "domino"
    RAVAGE_CITY = "ravage_city"
    NO_LAST_TRICK = "no_last_trick"  # Salade variant
    SALADE = "salade"
    NO_KING = "no_king"  # King variant: the king of hearts
    NO_GIRLS = "no_girls"  # King variant: queens
    NO_BOYS = "no_boys"  # King variant: jacks and kings

    @property
    def positive(self) -> bool:
        """Trumps and Domino score points; every other contract costs them."""
        return self in (Contract.TRUMPS, Contract.DOMINO)

    @property
    def data_keys(self) -> tuple[str, ...]:
        """The keys of contract data this contract records (``start_rank`` is optional)."""
        return DATA_KEYS[self]


DATA_KEYS: dict[Contract, tuple[str, ...]] = {
    Contract.NO_TRICKS: ("tricks",),
    Contract.NO_HEARTS: ("hearts", "ace_of_hearts"),
    Contract.NO_QUEENS: ("queens",),
    Contract.BARBU: ("king_of_hearts",),
    Contract.NO_LAST_TWO: ("last_two",),
    Contract.TRUMPS: ("trump", "tricks"),
    Contract.DOMINO: ("finish_order", "start_rank"),
    Contract.RAVAGE_CITY: ("suits",),
    Contract.NO_LAST_TRICK: ("last_trick",),
    Contract.SALADE: (
        "tricks",
        "hearts",
        "ace_of_hearts",
        "queens",
        "king_of_hearts",
        "last_trick",
    ),
    Contract.NO_KING: ("king_of_hearts",),
    Contract.NO_GIRLS: ("queens",),
    Contract.NO_BOYS: ("boys",),
}
OPTIONAL_DATA_KEYS = frozenset({"start_rank"})
ALL_DATA_KEYS: tuple[str, ...] = tuple(dict.fromkeys(k for ks in DATA_KEYS.values() for k in ks))

_C = Contract
CONTRACTS: dict[Variant, tuple[Contract, ...]] = {
    Variant.CLASSIC: (
        _C.NO_TRICKS,
        _C.NO_HEARTS,
        _C.NO_QUEENS,
        _C.BARBU,
        _C.NO_LAST_TWO,
        _C.TRUMPS,
        _C.DOMINO,
    ),
    Variant.RAVAGE_CITY: (
        _C.NO_TRICKS,
        _C.NO_HEARTS,
        _C.NO_QUEENS,
        _C.BARBU,
        _C.NO_LAST_TWO,
        _C.RAVAGE_CITY,
        _C.TRUMPS,
        _C.DOMINO,
    ),
    Variant.SALADE: (
        _C.NO_TRICKS,
        _C.NO_LAST_TRICK,
        _C.NO_HEARTS,
        _C.NO_QUEENS,
        _C.BARBU,
        _C.SALADE,
    ),
    Variant.KING: (
        _C.NO_KING,
        _C.NO_GIRLS,
        _C.NO_BOYS,
        _C.NO_HEARTS,
        _C.NO_LAST_TWO,
        _C.NO_TRICKS,
        _C.TRUMPS,
    ),
}

ZERO_SUM: frozenset[Variant] = frozenset({Variant.CLASSIC, Variant.RAVAGE_CITY, Variant.KING})

# King: each player declares three negative contracts and two trumps; every negative contract
# is played twice in the match.
KING_NEGATIVES_PER_PLAYER = 3
KING_TRUMPS_PER_PLAYER = 2
KING_NEGATIVE_PLAYS = 2


@dataclass(frozen=True)
class Values:
    """What one card or trick is worth in a variant (0: the variant has no such contract)."""

    trick: int = 0  # no_tricks, each trick
    heart: int = 0  # no_hearts, each heart
    ace_of_hearts: int = 0  # no_hearts, the ace of hearts (instead of ``heart``)
    queen: int = 0  # no_queens / no_girls, each queen
    king_of_hearts: int = 0  # barbu / no_king
    trick_12: int = 0  # no_last_two, the last but one trick
    trick_13: int = 0  # no_last_two (and no_last_trick), the last trick
    trump_trick: int = 0  # trumps, each trick
    ravage: int = 0  # ravage_city, shared by the seats with most cards of one suit
    boy: int = 0  # no_boys, each jack or king


VALUES: dict[Variant, Values] = {
    Variant.CLASSIC: Values(
        trick=-2,
        heart=-2,
        ace_of_hearts=-6,
        queen=-6,
        king_of_hearts=-20,
        trick_12=-10,
        trick_13=-20,
        trump_trick=5,
    ),
    Variant.RAVAGE_CITY: Values(
        trick=-3,
        heart=-2,
        ace_of_hearts=-6,
        queen=-8,
        king_of_hearts=-21,
        trick_12=-10,
        trick_13=-20,
        trump_trick=7,
        ravage=-24,
    ),
    Variant.SALADE: Values(
        trick=-5,
        heart=-10,
        ace_of_hearts=-10,
        queen=-20,
        king_of_hearts=-50,
        trick_13=-30,
    ),
    Variant.KING: Values(
        trick=-50,
        heart=-30,
        ace_of_hearts=-30,
        queen=-100,
        king_of_hearts=-320,
        trick_12=-180,
        trick_13=-180,
        trump_trick=50,
        boy=-60,
    ),
}


def contracts_of(variant: Variant) -> tuple[Contract, ...]:
    return CONTRACTS[variant]


def contracts_per_declarer(variant: Variant) -> int:
    """Deals each player declares in a match (King: three negatives and two trumps)."""
    if variant is Variant.KING:
        return KING_NEGATIVES_PER_PLAYER + KING_TRUMPS_PER_PLAYER
    return len(CONTRACTS[variant])


def deal_count(variant: Variant) -> int:
    """Deals in a whole match: 28 classic, 32 Ravage City, 24 Salade, 20 King."""
    return SEATS * contracts_per_declarer(variant)


def contract_total(rules: BarbuRules, contract: Contract) -> int:
    """The sum of the four raw scores of any deal of ``contract``."""
    v = VALUES[rules.variant]
    totals = {
        Contract.NO_TRICKS: TRICKS * v.trick,
        Contract.NO_HEARTS: (HEARTS - 1) * v.heart + v.ace_of_hearts,
        Contract.NO_QUEENS: QUEENS * v.queen,
        Contract.NO_GIRLS: QUEENS * v.queen,
        Contract.BARBU: v.king_of_hearts,
        Contract.NO_KING: v.king_of_hearts,
        Contract.NO_LAST_TWO: v.trick_12 + v.trick_13,
        Contract.NO_LAST_TRICK: v.trick_13,
        Contract.TRUMPS: TRICKS * v.trump_trick,
        Contract.DOMINO: sum(rules.domino_payouts or ()),
        Contract.RAVAGE_CITY: v.ravage,
        Contract.NO_BOYS: BOYS * v.boy,
    }
    if contract is Contract.SALADE:
        parts = (Contract.NO_TRICKS, Contract.NO_HEARTS, Contract.NO_QUEENS, Contract.BARBU)
        return sum(totals[c] for c in parts) + v.trick_13
    return totals[contract]


def split_scores(total: int, declarer: int) -> tuple[int, ...]:
    """An undoubled negative contract that is not played: each of the other three players
    scores a third of the total rounded away from zero; the declarer gets what is left."""
    share = -((-total + 2) // 3) if total < 0 else (total + 2) // 3
    return tuple(total - 3 * share if seat == declarer else share for seat in range(SEATS))


def ravage_scores(suits: Sequence[Sequence[int]], value: int) -> tuple[int, ...]:
    """The seats with the most cards of any one suit share ``value`` (ties split evenly)."""
    most = [max(row) for row in suits]
    top = max(most)
    losers = [seat for seat in range(SEATS) if most[seat] == top]
    return tuple(value // len(losers) if seat in losers else 0 for seat in range(SEATS))
