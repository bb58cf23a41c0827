"""What the rummy and the Barbu drafts share: the cards, the bounds, reading a draft's JSON and a
key's action (the package's docstring says what a draft is)."""

from __future__ import annotations

import json
from typing import Any

from scorekeeper.inputs import parse_int
from scorekeeper.rules import biriba, burraco, schema
from scorekeeper.rules.errors import RuleError

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
JOKER = "JK"
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED_SUITS = frozenset({"H", "D"})

#: The meld bonus kinds a side entered as totals may count, by game (the engines' lists).
BONUS_KINDS: dict[str, tuple[str, ...]] = {
    "biriba": biriba.SPEC.bonus_kinds,
    "burraco": burraco.SPEC.bonus_kinds,
}

#: The most a deal's start over is counted (then it stays there; a view is never that old).
MAX_RESTARTS = 10**6
#: The longest name a draft keeps (who started it over): an account's name or a label.
MAX_NAME = 150
#: A number typed on the totals keypad has at most this many digits.
MAX_DIGITS = 5
#: The largest number the totals keypad holds (melded cards, cards in hand).
MAX_NUMBER = 10**MAX_DIGITS - 1
#: Cards a side may hold in its melds or hand before the pad stops adding (two packs + jokers).
MAX_CARDS = 108
#: Melds a side may hold (a meld has three cards at least) and the highest meld id.
MAX_MELDS = MAX_CARDS // 3
MAX_MELD_ID = 10_000
#: Where a phone's next card goes when it starts a meld.
NEW_MELD = "new"
#: The version of the drafts' JSON (1: drafts kept in the form and the session, no meld ids).
VERSION = 2
#: Burraco for three: the answer "nobody took a pozzetto" to who played alone (``solo``).
NOBODY = "none"


class UnknownAction(ValueError):
    """An action the pad does not know (a stale or hand-made form): ignored by the view."""


class UnreadableDraft(ValueError):
    """A posted draft that is not one a page sent (not JSON, another game, parts that do not
    survive cleaning): the view applies no key to it and saves nothing.
    ``refusal``: the rule it breaks, with its place, when there is one to tell (half a
    character in its text)."""

    def __init__(self, reason: str, *, refusal: RuleError | None = None):
        super().__init__(reason)
        self.refusal = refusal


def is_card(text: str) -> bool:
    if text == JOKER:
        return True
    return len(text) >= 2 and text[-1] in SUITS and text[:-1] in RANKS


def card_label(card: str) -> str:
    """``"10H"`` → ``"10♥"``; the joker stays ``JK``."""
    if card == JOKER:
        return "JK"
    return card[:-1] + SUIT_SYMBOLS[card[-1]]


def card_colour(card: str) -> str:
    if card == JOKER:
        return "joker"
    return "red" if card[-1] in RED_SUITS else "black"


def _int(value: Any, default: int = 0, *, lo: int | None = None, hi: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        return default
    if lo is not None and value < lo or hi is not None and value > hi:
        return default
    return value


def _seat(value: Any, seats: int) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < seats:
        return None
    return value


def _cards(value: Any) -> list[str]:
    if not isinstance(value, list):
        return []
    return [c for c in value if isinstance(c, str) and is_card(c)][:MAX_CARDS]


def _json_object(text: str | None) -> dict[str, Any]:
    if not text:
        return {}
    try:
        raw = json.loads(text)
    except (ValueError, TypeError, RecursionError):  # RecursionError: valid but too deep
        return {}
    return raw if isinstance(raw, dict) else {}


def _strict_object(text: str | None) -> dict[str, Any]:
    """The posted draft as a JSON object of this version, or :class:`UnreadableDraft`."""
    try:
        raw = json.loads(text or "")
    except (ValueError, TypeError, RecursionError) as e:  # RecursionError: valid but too deep
        raise UnreadableDraft("not JSON") from e
    if not isinstance(raw, dict) or raw.get("v") != VERSION:
        raise UnreadableDraft("not a draft")
    try:
        schema.encodable(raw)  # JSON's "\ud800": text no page sends, nor can show
    except RuleError as e:
        raise UnreadableDraft("not text", refusal=e) from e
    return raw


def _same(raw: dict[str, Any], clean: dict[str, Any], keys: tuple[str, ...]) -> None:
    """Cleaning kept every part of the draft that ``keys`` name, or :class:`UnreadableDraft`."""
    for key in keys:
        if raw.get(key) != clean[key]:
            raise UnreadableDraft(key)


def _meld_id(where: str) -> int | None:
    """``"m2"`` → 2: the meld a target or an action names (None for anything else)."""
    if not where.startswith("m"):
        return None
    return parse_int(where[1:], lo=0, hi=MAX_MELD_ID)


def _split(action: str) -> list[str]:
    return action.split(":") if action else [""]


def _index(text: str, upper: int) -> int:
    """The seat, side or position ``0 .. upper-1`` an action names, or :class:`UnknownAction`."""
    value = parse_int(text, lo=0, hi=upper - 1)
    if value is None:
        raise UnknownAction(text)
    return value
