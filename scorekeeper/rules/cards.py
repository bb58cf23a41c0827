"""Cards and their notation.

A card is rank then suit: ranks ``A 2 3 4 5 6 7 8 9 10 J Q K`` (``T`` also means 10), suits
``S H D C`` (``♠ ♥ ♦ ♣`` also accepted), case-insensitive; a joker is ``JK`` (or ``joker``).
Output is always canonical: ``"10H"``, ``"QS"``, ``"JK"``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from .errors import Cards, RuleError, Words


class Suit(Enum):
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def symbol(self) -> str:
        return _SYMBOLS[self.value]

    def __str__(self) -> str:
        return self.value


_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_SUIT_ALIASES = {"S": "S", "H": "H", "D": "D", "C": "C", "♠": "S", "♥": "H", "♦": "D", "♣": "C"}
_SUIT_ALIASES.update({"♤": "S", "♡": "H", "♢": "D", "♧": "C"})

SUITS: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)

ACE, JACK, QUEEN, KING = 1, 11, 12, 13
RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"} | {n: str(n) for n in range(2, 11)}
_RANK_ALIASES = {v: k for k, v in RANK_NAMES.items()} | {"T": 10, "1": 1}
del _RANK_ALIASES["1"]  # "1H" is not a card: the ace is "A"


@dataclass(frozen=True)
class Card:
    """A playing card. ``rank`` 1 (ace) .. 13 (king); a joker has rank 0 and no suit."""

    rank: int
    suit: Suit | None

    @property
    def is_joker(self) -> bool:
        return self.rank == 0

    @property
    def is_two(self) -> bool:
        return self.rank == 2

    @property
    def is_wild(self) -> bool:
        """Jokers and twos are wild in the rummy games (a two may still stand as itself)."""
        return self.rank in (0, 2)

    def __str__(self) -> str:
        if self.is_joker:
            return "JK"
        assert self.suit is not None
        return f"{RANK_NAMES[self.rank]}{self.suit.value}"

    def __repr__(self) -> str:
        return f"Card({self})"

    @property
    def pretty(self) -> str:
        """With the suit symbol: ``10♥``; a joker is ``JK``."""
        if self.is_joker:
            return "JK"
        assert self.suit is not None
        return f"{RANK_NAMES[self.rank]}{self.suit.symbol}"

    def __lt__(self, other: object) -> bool:  # sort: by suit order, then rank; jokers last
        if not isinstance(other, Card):
            return NotImplemented
        return _sort_key(self) < _sort_key(other)


def _sort_key(card: Card) -> tuple[int, int]:
    if card.is_joker:
        return (9, 0)
    assert card.suit is not None
    return (SUITS.index(card.suit), card.rank)


JOKER = Card(0, None)


def parse_suit(text: object) -> Suit:
    if isinstance(text, str):
        key = _SUIT_ALIASES.get(text.strip().upper())
        if key:
            return Suit(key)
    raise RuleError("bad_suit", "{text} is not a suit (use S, H, D or C)", text=_quote(text))


def parse_card(text: object) -> Card:
    """Read one card; a bad string is refused, quoting it."""
    if not isinstance(text, str):
        raise RuleError(
            "bad_card", '{text} is not a card (a card is a string such as "10H")', text=_quote(text)
        )
    s = text.strip().upper()
    if s in ("JK", "JOKER", "🃏"):
        return JOKER
    if len(s) >= 2:
        suit_key = _SUIT_ALIASES.get(s[-1])
        rank = _RANK_ALIASES.get(s[:-1])
        if suit_key and rank:
            return Card(rank, Suit(suit_key))
    raise RuleError(
        "bad_card",
        "{text} is not a card (ranks A 2-10 J Q K, suits S H D C, or JK)",
        text=_quote(text),
    )


def parse_cards(items: object) -> list[Card]:
    """A list of card strings; the error names the index of the bad one (``[3]``)."""
    if not isinstance(items, list):
        raise RuleError("bad_type", "expected a list of cards, got {got}", got=_type_name(items))
    cards = []
    for i, item in enumerate(items):
        try:
            cards.append(parse_card(item))
        except RuleError as e:
            raise e.at(f"[{i}]", card=i) from None
    return cards


def cards_text(cards: Iterable[Card]) -> Cards:
    """``5S 6C JK``, as a message's parameter (the site shows the suits' symbols)."""
    return Cards(" ".join(str(c) for c in cards))


def standard_pack() -> list[Card]:
    """One pack of 52, no jokers."""
    return [Card(rank, suit) for suit in SUITS for rank in range(1, 14)]


def _quote(value: object) -> str:
    if isinstance(value, str):
        return f'"{value}"'
    import json

    try:
        return json.dumps(value)
    except TypeError:
        return repr(value)


def _type_name(value: object) -> str:
    return {
        str: Words("a string"),
        int: Words("a number"),
        float: Words("a number"),
        bool: Words("true/false"),
        list: Words("a list"),
        dict: Words("an object"),
        type(None): Words("null"),
    }.get(type(value), type(value).__name__)
