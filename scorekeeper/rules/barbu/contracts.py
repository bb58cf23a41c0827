"""The contracts of each variant, what they are worth, and the data a deal records for them.

A contract's *raw* score is what each seat took, before any double is settled. Its total is a
constant of the match's rules (the sum of the raw scores of any deal of that contract):
zero-sum variants are built so that the totals of one declarer's contracts add up to nothing.

What a contract is worth comes from the variant (:data:`VALUES`), or from the match's house
values (``contract_values``, read by :mod:`.house`), which replace one contract's values as a
whole: :func:`values_of` is the one place that chooses. A match is checked for zero exactly
when the totals of its contracts add up to 0 (:func:`zero_sum`): every declarer names each
contract once, so a series, and so the match, then adds up to nothing.

Four players play with 52 cards (13 tricks of 4); five play Salade with 50, the black twos
out (10 tricks of 5): :func:`tricks_in_deal` and :func:`counts` say what a table of ``seats``
takes in a deal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import TYPE_CHECKING

from .variants import Variant

if TYPE_CHECKING:
    from .options import BarbuRules

SEATS = 4  # the table of every variant; five play Salade (FIVE)
FIVE = 5
TRICKS = 13
HEARTS = 13
QUEENS = 4
BOYS = 8  # jacks and kings (King variant)
CARDS_PER_TRICK = 4
SUIT_CARDS = 13  # cards of one suit in the pack (Ravage City counts them by suit)
#: The cards a table of four or five plays with: five leave the black twos out (2S, 2C).
PACK: dict[int, int] = {SEATS: 52, FIVE: 50}

#: The contract data that counts something for each seat, and what the four seats take
#: together in a deal of one pack of 52 (five players: :func:`counts`).
COUNTS: dict[str, int] = {"tricks": TRICKS, "hearts": HEARTS, "queens": QUEENS, "boys": BOYS}


def tricks_in_deal(seats: int = SEATS) -> int:
    """The tricks of a deal: 13 of 4 cards at four, 10 of 5 cards at five."""
    return PACK[seats] // seats


def counts(seats: int = SEATS) -> dict[str, int]:
    """:data:`COUNTS` for a table of ``seats``: every heart and queen stays in the pack of 50,
    only the tricks are fewer."""
    return COUNTS | {"tricks": tricks_in_deal(seats)}


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
    CHINESE_POKER = "chinese_poker"  # rules.chinese_poker: each seat's net, times a multiplier

    @property
    def positive(self) -> bool:
        """Trumps and Domino score points: only the declarer may be doubled in them."""
        return self in (Contract.TRUMPS, Contract.DOMINO)

    @property
    def negative(self) -> bool:
        """Every contract but the two positive ones and Chinese Poker costs points: its values
        are 0 or less, and undoubled it may be split. Chinese Poker is neither: what one player
        wins on a comparison another loses, so it adds up to 0 and there is nothing to split."""
        return not self.positive and self is not Contract.CHINESE_POKER

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
    Contract.CHINESE_POKER: ("net",),
}
#: A salade whose house values count the last two tricks records them in place of the last one.
SALADE_LAST_TWO_KEYS: tuple[str, ...] = tuple(
    "last_two" if key == "last_trick" else key for key in DATA_KEYS[Contract.SALADE]
)
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

#: The variants whose own values are zero-sum (with house values: :func:`zero_sum`).
ZERO_SUM: frozenset[Variant] = frozenset({Variant.CLASSIC, Variant.RAVAGE_CITY, Variant.KING})
#: The variants that may add Chinese Poker (``rules.chinese_poker``), and its default multiplier.
CHINESE_POKER_VARIANTS: tuple[Variant, ...] = (Variant.CLASSIC, Variant.RAVAGE_CITY)
CHINESE_POKER_MULTIPLIER = 4
#: The contracts a house list (``rules.contracts``) may name, in rules.md's order.
HOUSE_CONTRACTS: tuple[Contract, ...] = (
    _C.NO_TRICKS,
    _C.NO_HEARTS,
    _C.NO_QUEENS,
    _C.BARBU,
    _C.NO_LAST_TWO,
    _C.NO_LAST_TRICK,
    _C.TRUMPS,
    _C.DOMINO,
    _C.RAVAGE_CITY,
    _C.SALADE,
    _C.CHINESE_POKER,
)
KING_CONTRACTS = frozenset({_C.NO_KING, _C.NO_GIRLS, _C.NO_BOYS})

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
    payouts: tuple[int, ...] = ()  # domino, first out to last
    last_two: bool = False  # salade counts the last two tricks (trick_12, trick_13), recorded


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
    """The contracts of ``variant`` as it comes (a match's own: :func:`match_contracts`)."""
    return CONTRACTS[variant]


def default_contracts(variant: Variant, chinese_poker: bool = False) -> tuple[Contract, ...]:
    """The contracts a match plays when ``rules.contracts`` is not given: the variant's, and
    Chinese Poker last when ``rules.chinese_poker`` adds it."""
    extra = (Contract.CHINESE_POKER,) if chinese_poker else ()
    return (*CONTRACTS[variant], *extra)


def match_contracts(rules: BarbuRules) -> tuple[Contract, ...]:
    """The contracts of the match, in order: each declarer names each of them once (King: as
    its quotas say)."""
    return rules.played


def _played(rules: BarbuRules | Variant) -> tuple[Variant, tuple[Contract, ...], int]:
    if isinstance(rules, Variant):
        return rules, CONTRACTS[rules], SEATS
    return rules.variant, rules.played, rules.seats


def contracts_per_declarer(rules: BarbuRules | Variant) -> int:
    """Deals each player declares in a match: one a contract of the match (King: three
    negatives and two trumps). A variant alone: as it comes, at four."""
    variant, played, _ = _played(rules)
    if variant is Variant.KING:
        return KING_NEGATIVES_PER_PLAYER + KING_TRUMPS_PER_PLAYER
    return len(played)


def deal_count(rules: BarbuRules | Variant) -> int:
    """Deals in a whole match, players × contracts: 28 classic, 32 Ravage City or with Chinese
    Poker, 36 with both, 24 Salade (30 with five players), 20 King."""
    return _played(rules)[2] * contracts_per_declarer(rules)


def values_of(rules: BarbuRules, contract: Contract) -> Values:
    """What ``contract`` is worth in the match: its house values when ``contract_values``
    gives them (they replace the variant's as a whole), else the variant's (Domino: the
    ``domino_payouts``)."""
    house = rules.house_units(contract)
    if house is not None:
        return house_values(contract, house)
    v = VALUES[rules.variant]
    if contract is Contract.DOMINO:
        return replace(v, payouts=tuple(rules.domino_payouts or ()))
    return v


def house_values(contract: Contract, units: Mapping[str, int | tuple[int, ...]]) -> Values:
    """The :class:`Values` of ``contract`` from its house units (rules.md, "house values"): a
    unit a salade leaves out is worth 0, the ace of hearts left out is worth any heart."""

    def unit(name: str) -> int:
        value = units.get(name, 0)
        assert isinstance(value, int)
        return value

    def pair(name: str) -> tuple[int, int]:
        value = units[name]
        assert isinstance(value, tuple)
        first, last = value
        return first, last

    heart = unit("heart")
    ace = unit("ace_of_hearts") if "ace_of_hearts" in units else heart
    c = Contract
    if contract is c.NO_TRICKS:
        return Values(trick=unit("trick"))
    if contract is c.NO_HEARTS:
        return Values(heart=heart, ace_of_hearts=ace)
    if contract is c.NO_QUEENS:
        return Values(queen=unit("queen"))
    if contract is c.BARBU:
        return Values(king_of_hearts=unit("king_of_hearts"))
    if contract is c.NO_LAST_TWO:
        before, last = pair("last_two")
        return Values(trick_12=before, trick_13=last)
    if contract is c.NO_LAST_TRICK:
        return Values(trick_13=unit("last_trick"))
    if contract is c.TRUMPS:
        return Values(trump_trick=unit("trump_trick"))
    if contract is c.DOMINO:
        payouts = units["payouts"]
        assert isinstance(payouts, tuple)
        return Values(payouts=payouts)
    if contract is c.RAVAGE_CITY:
        return Values(ravage=unit("most_cards"))
    assert contract is c.SALADE, contract
    before, last = pair("last_two") if "last_two" in units else (0, unit("last_trick"))
    return Values(
        trick=unit("trick"),
        heart=heart,
        ace_of_hearts=ace,
        queen=unit("queen"),
        king_of_hearts=unit("king_of_hearts"),
        trick_12=before,
        trick_13=last,
        last_two="last_two" in units,
    )


def data_keys(rules: BarbuRules, contract: Contract) -> tuple[str, ...]:
    """The contract data a deal of ``contract`` records in this match (``start_rank`` is
    optional): a salade whose house values count the last two tricks records ``last_two`` in
    place of ``last_trick``."""
    if contract is Contract.SALADE and values_of(rules, contract).last_two:
        return SALADE_LAST_TWO_KEYS
    return contract.data_keys


def contract_total(rules: BarbuRules, contract: Contract) -> int:
    """The sum of the raw scores of any deal of ``contract`` (10 tricks with five players)."""
    if contract is Contract.CHINESE_POKER:
        return 0  # every comparison is won by one player and lost by another
    v = values_of(rules, contract)
    tricks = tricks_in_deal(rules.seats)
    hearts = (HEARTS - 1) * v.heart + v.ace_of_hearts
    last_two = v.trick_12 + v.trick_13
    totals = {
        Contract.NO_TRICKS: tricks * v.trick,
        Contract.NO_HEARTS: hearts,
        Contract.NO_QUEENS: QUEENS * v.queen,
        Contract.NO_GIRLS: QUEENS * v.queen,
        Contract.BARBU: v.king_of_hearts,
        Contract.NO_KING: v.king_of_hearts,
        Contract.NO_LAST_TWO: last_two,
        Contract.NO_LAST_TRICK: v.trick_13,
        Contract.TRUMPS: tricks * v.trump_trick,
        Contract.DOMINO: sum(v.payouts),
        Contract.RAVAGE_CITY: v.ravage,
        Contract.NO_BOYS: BOYS * v.boy,
        Contract.SALADE: tricks * v.trick + hearts + QUEENS * v.queen + v.king_of_hearts + last_two,
    }
    return totals[contract]


def zero_sum(rules: BarbuRules) -> bool:
    """Whether a complete match (and each complete series) adds up to 0, and so is checked
    for it: King by its quotas; every other match exactly when the totals of its contracts,
    each named once by each declarer, add up to 0 (classic and Ravage City as they come,
    Chinese Poker adding 0; house values when they keep that sum)."""
    if rules.variant is Variant.KING:
        return True
    return sum(contract_total(rules, c) for c in rules.played) == 0


def split_scores(total: int, declarer: int, seats: int = SEATS) -> tuple[int, ...]:
    """An undoubled negative contract that is not played: each other player scores the total
    divided by their number (3, or 4 with five players) rounded away from zero; the declarer
    gets what is left, so the sum is the total."""
    others = seats - 1
    share = -((-total + others - 1) // others) if total < 0 else (total + others - 1) // others
    return tuple(total - others * share if seat == declarer else share for seat in range(seats))


def ravage_scores(suits: Sequence[Sequence[int]], value: int) -> tuple[int, ...]:
    """The seats with the most cards of any one suit share ``value`` (ties split evenly)."""
    seats = range(len(suits))
    most = [max(row) for row in suits]
    top = max(most)
    losers = [seat for seat in seats if most[seat] == top]
    return tuple(value // len(losers) if seat in losers else 0 for seat in seats)
