"""What the Barbu score sheet asks while a deal is entered, answered by the rules.

The sheet counts for each seat what it took (tricks, hearts, queens, jacks and kings, Ravage
City's cards by suit), offers "rest" (give a seat whatever is not counted yet), checks that
the counts add up, and shows the deal's scores with their sum. These functions answer those
questions, so that no page or draft holds a rule:

- :func:`count_total`, :func:`counted_keys`: what the four seats take together for each
  counted key of a contract (tricks 13, hearts 13, queens 4, jacks and kings 8; with five
  players, ``seats=5``, 10 tricks);
- :func:`count_tally` / :func:`count_tallies`: whether what is entered adds up;
- :func:`count_rest`: what a seat would have if it took everything not yet counted;
- :func:`suit_tallies`, :func:`suit_rest`, :func:`whole_tricks`: the same for the Ravage
  City table of cards by suit (13 of each suit; a seat takes whole tricks of 4 cards);
- :func:`deal_sum`: the sum check of a scored deal: the raw scores add up to the contract's
  total, the doubles move points without making or losing any, and so the totals add up to
  the contract's total too (the contract totals of a declarer's series add up to 0 in a
  zero-sum match: a single deal's do not). A deal still to enter scores nothing yet, so
  its sums are all 0, and so is what they must be.

The doubles are :mod:`.doubles`'s (``allowed_doubles``, ``shortcut_choices``,
``keep_allowed_doubles``, ``SettlementLine.gainer``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import SUITS, Suit, parse_suit
from .contracts import (
    CARDS_PER_TRICK,
    COUNTS,
    SEATS,
    SUIT_CARDS,
    Contract,
    contract_total,
    zero_sum,
)
from .contracts import counts as pack_counts
from .options import BarbuRules


def count_total(key: str, *, seats: int = SEATS) -> int:
    """What the seats take together of the counted ``key`` (``"tricks"``: 13, or 10 with
    five players)."""
    return pack_counts(seats)[key]


def counted_keys(contract: Contract) -> tuple[str, ...]:
    """The data keys of ``contract`` that count something per seat, in the contract's order
    (Salade: tricks, hearts, queens)."""
    return tuple(key for key in contract.data_keys if key in COUNTS)


@dataclass(frozen=True)
class Tally:
    """A count checked against what it must add up to: ``what`` is the counted key
    (``"tricks"``) or the suit (``"H"``), ``want`` what the seats take together, ``got`` the
    sum of what is entered."""

    what: str
    want: int
    got: int

    @property
    def ok(self) -> bool:
        return self.got == self.want

    @property
    def missing(self) -> int:
        """What is not counted yet (negative: counted too many)."""
        return self.want - self.got


def count_tally(key: str, values: Sequence[int], *, seats: int = SEATS) -> Tally:
    """Whether the seats' ``values`` of the counted ``key`` add up."""
    return Tally(key, count_total(key, seats=seats), sum(values))


def count_tallies(
    contract: Contract, counts: Mapping[str, Sequence[int]], *, seats: int = SEATS
) -> tuple[Tally, ...]:
    """One tally for each counted key of ``contract``; a key not entered yet counts 0 each."""
    return tuple(
        count_tally(key, counts.get(key) or [0] * seats, seats=seats)
        for key in counted_keys(contract)
    )


def count_rest(key: str, values: Sequence[int], seat: int, *, seats: int = SEATS) -> int:
    """What ``seat`` would have if it took everything the other seats' ``values`` leave of
    the counted ``key`` (0 when the others already have it all, or more)."""
    others = sum(v for s, v in enumerate(values) if s != seat)
    return max(0, count_total(key, seats=seats) - others)


def _suit_index(suit: int | str | Suit) -> int:
    if isinstance(suit, int) and not isinstance(suit, bool):
        return suit
    found = suit if isinstance(suit, Suit) else parse_suit(suit)
    return SUITS.index(found)


def suit_tallies(suits: Sequence[Sequence[int]]) -> tuple[Tally, ...]:
    """Ravage City: for each suit (``S H D C``, the columns of ``suits``, a row per seat),
    whether the cards the seats took add up to the 13 of the suit."""
    return tuple(
        Tally(suit.value, SUIT_CARDS, sum(row[k] for row in suits)) for k, suit in enumerate(SUITS)
    )


def suit_rest(suits: Sequence[Sequence[int]], seat: int, suit: int | str | Suit) -> int:
    """Ravage City: what ``seat`` would have of ``suit`` (its column, ``"H"`` or a Suit) if it
    took every card of the suit the other seats leave."""
    k = _suit_index(suit)
    others = sum(row[k] for s, row in enumerate(suits) if s != seat)
    return max(0, SUIT_CARDS - others)


def whole_tricks(row: Sequence[int]) -> bool:
    """Ravage City: whether the cards of one seat's row are whole tricks (of 4 cards)."""
    return sum(row) % CARDS_PER_TRICK == 0


@dataclass(frozen=True)
class DealSum:
    """The sum check of a scored deal: ``want`` is the contract's total (what the raw scores,
    and so the totals, of any deal of that contract add up to); ``raw``, ``doubles`` and
    ``total`` the sums of the deal's three rows. ``zero_sum``: the match's totals add up to
    0 over each declarer's contracts (classic, Ravage City, King, and house values whose
    totals add up to 0), not over one deal.
    ``to_enter``: the deal is still to enter, so it scores nothing yet and ``want`` is 0."""

    want: int
    raw: int
    doubles: int
    total: int
    zero_sum: bool
    to_enter: bool = False

    @property
    def ok(self) -> bool:
        return self.raw == self.want and self.doubles == 0 and self.total == self.want


def deal_sum(rules: BarbuRules, contract: Contract, score: Mapping[str, Any]) -> DealSum:
    """Check the sums of ``score``, a deal's score as the rules write it (``raw``,
    ``doubles``, ``total``: four numbers each, and ``"to_enter": true`` for a deal still to
    enter), under ``contract``."""
    to_enter = bool(score.get("to_enter"))
    return DealSum(
        want=0 if to_enter else contract_total(rules, contract),
        raw=sum(score["raw"]),
        doubles=sum(score["doubles"]),
        total=sum(score["total"]),
        zero_sum=zero_sum(rules),
        to_enter=to_enter,
    )
