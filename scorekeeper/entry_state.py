"""The deal-entry pads' state: what has been tapped so far, as plain JSON values.

Pure UI state, no game rule (the few facts it needs, such as the bonus kinds or the data a
Barbu contract records, come from the engines): which side's tab is open, which suit is chosen
on the pad, where the next tapped card goes, the cards and numbers tapped so far. The draft
travels in the entry form as a hidden JSON field; every key of the pad is a submit button whose
value is an *action* (``"rank:8"``, ``"suit:H"``, ``"joker"``, ``"new_meld"``, ``"remove:m2:3"``
...), and :func:`rummy_apply` / :func:`barbu_apply` return the draft with the action applied.
The deal built from a draft (``RummyDraft.deal_json``, ``BarbuDraft.deal_json``) is then judged
by the rules core, never here.

A draft read back from a form is never trusted: :meth:`RummyDraft.from_json` and
:meth:`BarbuDraft.from_json` keep what is well formed and drop the rest. Every number an action
or a draft carries as text (``"remove:m2:3"``, a target ``"m2"``) is read by
:func:`~scorekeeper.inputs.parse_int`: ASCII digits within bounds, never ``²`` or ``٣``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.inputs import parse_int
from scorekeeper.rules import biriba, burraco, schema
from scorekeeper.rules.barbu import contracts as barbu_contracts
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

#: A number typed on the totals keypad has at most this many digits.
MAX_DIGITS = 5
#: The largest number the totals keypad holds (melded cards, cards in hand).
MAX_NUMBER = 10**MAX_DIGITS - 1
#: Cards a side may hold in its melds or hand before the pad stops adding (two packs + jokers).
MAX_CARDS = 108


class UnknownAction(ValueError):
    """An action the pad does not know (a stale or hand-made form): ignored by the view."""


class UnreadableDraft(ValueError):
    """A posted draft that is not one a page sent (not JSON, another game, parts that do not
    survive cleaning): the view refuses to save it, never saves what is left of it.
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
    if not isinstance(raw, dict) or raw.get("v") != 1:
        raise UnreadableDraft("not a draft")
    try:
        schema.encodable(raw)  # JSON's "\ud800": text no page sends, nor can show
    except RuleError as e:
        raise UnreadableDraft("not text", refusal=e) from e
    return raw


def _same(raw: dict[str, Any], clean: dict[str, Any], keys: tuple[str, ...]) -> None:
    """Cleaning kept every part of the deal that ``keys`` name, or :class:`UnreadableDraft`."""
    for key in keys:
        if raw.get(key) != clean[key]:
            raise UnreadableDraft(key)


# ---------------------------------------------------------------------------------------------
# Rummy (Biriba, Burraco)


@dataclass
class SideDraft:
    """What one side had at the end of the deal, as tapped so far."""

    mode: str = "cards"  # "cards" (meld by meld) or "totals" (counted by hand)
    melds: list[list[str]] = field(default_factory=list)
    hand: list[str] = field(default_factory=list)
    took_pot: bool = False
    went_out: bool = False
    final_discard: str | None = None
    # where the next card goes: "m<i>" (meld i, a new one when i == len(melds)), "hand",
    # "discard"; in totals mode where the keypad writes: "melded" or "in_hand"
    target: str = "m0"
    melded: int = 0
    in_hand: int = 0
    bonuses: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "melds": [list(m) for m in self.melds],
            "hand": list(self.hand),
            "took_pot": self.took_pot,
            "went_out": self.went_out,
            "final_discard": self.final_discard,
            "target": self.target,
            "melded": self.melded,
            "in_hand": self.in_hand,
            "bonuses": dict(self.bonuses),
        }

    @classmethod
    def from_json(cls, raw: Any, *, game: str) -> SideDraft:
        if not isinstance(raw, dict):
            return cls()
        melds = raw.get("melds")
        side = cls(
            mode="totals" if raw.get("mode") == "totals" else "cards",
            melds=[_cards(m) for m in melds[:60]] if isinstance(melds, list) else [],
            hand=_cards(raw.get("hand")),
            took_pot=raw.get("took_pot") is True,
            went_out=raw.get("went_out") is True,
            melded=_int(raw.get("melded"), lo=-(10**MAX_DIGITS), hi=10**MAX_DIGITS),
            in_hand=_int(raw.get("in_hand"), lo=-(10**MAX_DIGITS), hi=10**MAX_DIGITS),
        )
        discard = raw.get("final_discard")
        if game == "burraco" and isinstance(discard, str) and is_card(discard):
            side.final_discard = discard
        bonuses = raw.get("bonuses")
        if isinstance(bonuses, dict):
            side.bonuses = {
                k: _int(v, lo=0, hi=99)
                for k, v in bonuses.items()
                if k in BONUS_KINDS.get(game, ()) and _int(v, lo=0, hi=99)
            }
        target = raw.get("target")
        if isinstance(target, str):
            side.target = target
        side.fix_target()
        return side

    # -- where the taps go --------------------------------------------------------------------

    def meld_index(self) -> int | None:
        return _meld_index(self.target)

    def fix_target(self) -> None:
        """Keep ``target`` pointing somewhere that exists; drop empty melds not being built."""
        if self.mode == "totals":
            if self.target not in ("melded", "in_hand"):
                self.target = "melded"
            return
        index = self.meld_index()
        if index is None and self.target not in ("hand", "discard"):
            index = len(self.melds)
        kept = []
        new_index = None
        for i, meld in enumerate(self.melds):
            if meld or i == index:
                if i == index:
                    new_index = len(kept)
                kept.append(meld)
        self.melds = kept
        if index is not None:
            self.target = f"m{len(kept) if new_index is None else new_index}"

    def add_card(self, card: str) -> None:
        if self.mode != "cards":
            return
        if self.card_count() >= MAX_CARDS:
            return
        if self.target == "hand":
            self.hand.append(card)
        elif self.target == "discard":
            self.final_discard = card
        else:
            index = self.meld_index()
            if index is None or index >= len(self.melds):
                self.melds.append([])
                index = len(self.melds) - 1
                self.target = f"m{index}"
            self.melds[index].append(card)

    def card_count(self) -> int:
        return sum(len(m) for m in self.melds) + len(self.hand)

    @property
    def untouched(self) -> bool:
        """Nothing has been entered for this side yet (its score would only be a penalty)."""
        if self.took_pot or self.went_out:
            return False
        if self.mode == "totals":
            return not (self.melded or self.in_hand or self.bonuses)
        return not self.card_count() and not self.final_discard

    def backspace(self) -> None:
        if self.mode == "totals":
            value = self.melded if self.target == "melded" else self.in_hand
            sign = -1 if value < 0 else 1
            self._set_number(sign * (abs(value) // 10))
            return
        if self.target == "hand":
            if self.hand:
                self.hand.pop()
        elif self.target == "discard":
            self.final_discard = None
        else:
            index = self.meld_index()
            if index is not None and index < len(self.melds) and self.melds[index]:
                self.melds[index].pop()
            elif self.melds and index is not None and index >= len(self.melds):
                # nothing in the new meld yet: go back to the last meld
                self.target = f"m{len(self.melds) - 1}"
                self.melds[-1].pop()

    def remove(self, where: str, position: int) -> None:
        if where == "hand":
            if 0 <= position < len(self.hand):
                del self.hand[position]
        elif where == "discard":
            self.final_discard = None
        elif (index := _meld_index(where)) is not None:
            if index < len(self.melds) and 0 <= position < len(self.melds[index]):
                del self.melds[index][position]
                if not self.melds[index] and self.target != f"m{index}":
                    # a meld whose last card is taken away is gone; the target follows
                    del self.melds[index]
                    current = self.meld_index()
                    if current is not None and current > index:
                        self.target = f"m{current - 1}"

    # -- totals -------------------------------------------------------------------------------

    def _set_number(self, value: int) -> None:
        if self.target == "in_hand":
            self.in_hand = value
        else:
            self.melded = value

    def digit(self, d: int) -> None:
        value = self.melded if self.target == "melded" else self.in_hand
        if len(str(abs(value))) >= MAX_DIGITS:
            return
        sign = -1 if value < 0 else 1
        self._set_number(sign * (abs(value) * 10 + d))

    def flip_sign(self) -> None:
        self._set_number(-(self.melded if self.target == "melded" else self.in_hand))

    def step(self, target: str, delta: int) -> None:
        if target == "melded":
            self.melded = max(0, min(MAX_NUMBER, self.melded + delta))
        elif target == "in_hand":
            self.in_hand = max(0, min(MAX_NUMBER, abs(self.in_hand) + delta))

    def bonus(self, kind: str, delta: int) -> None:
        count = max(0, min(99, self.bonuses.get(kind, 0) + delta))
        if count:
            self.bonuses[kind] = count
        else:
            self.bonuses.pop(kind, None)

    # -- the deal -----------------------------------------------------------------------------

    def deal_json(self, *, game: str) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.mode == "totals":
            totals: dict[str, Any] = {"melded": self.melded, "in_hand": abs(self.in_hand)}
            if self.bonuses:
                totals["bonuses"] = dict(self.bonuses)
            out["totals"] = totals
        else:
            out["melds"] = [list(m) for m in self.melds if m]
            out["hand"] = list(self.hand)
        out["took_pot"] = self.took_pot
        out["went_out"] = self.went_out
        if game == "burraco" and self.final_discard and self.mode == "cards":
            out["final_discard"] = self.final_discard
        return out


@dataclass
class RummyDraft:
    game: str
    sides: list[SideDraft]
    side: int = 0  # the open tab
    suit: str = "H"  # the suit chosen on the pad
    trump: str | None = None  # Biriba

    @classmethod
    def new(cls, *, game: str, side_count: int) -> RummyDraft:
        return cls(game=game, sides=[SideDraft() for _ in range(side_count)])

    def to_json(self) -> dict[str, Any]:
        return {
            "v": 1,
            "game": self.game,
            "side": self.side,
            "suit": self.suit,
            "trump": self.trump,
            "sides": [s.to_json() for s in self.sides],
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), separators=(",", ":"))

    @classmethod
    def from_json(cls, raw: Any, *, game: str, side_count: int) -> RummyDraft:
        draft = cls.new(game=game, side_count=side_count)
        if not isinstance(raw, dict) or raw.get("game") != game:
            return draft
        sides = raw.get("sides")
        if isinstance(sides, list) and len(sides) == side_count:
            draft.sides = [SideDraft.from_json(s, game=game) for s in sides]
        draft.side = _int(raw.get("side"), lo=0, hi=side_count - 1)
        if raw.get("suit") in SUITS:
            draft.suit = raw["suit"]
        if game == "biriba" and raw.get("trump") in SUITS:
            draft.trump = raw["trump"]
        return draft

    @classmethod
    def loads(cls, text: str | None, *, game: str, side_count: int) -> RummyDraft:
        return cls.from_json(_json_object(text), game=game, side_count=side_count)

    @classmethod
    def read(cls, text: str | None, *, game: str, side_count: int) -> RummyDraft:
        """The draft a page posted, to be saved: unlike :meth:`loads`, which keeps what it
        can, anything that is not a whole draft of this game raises :class:`UnreadableDraft`."""
        raw = _strict_object(text)
        sides = raw.get("sides")
        if (
            raw.get("game") != game
            or not isinstance(sides, list)
            or len(sides) != side_count
            or not all(isinstance(s, dict) for s in sides)
        ):
            raise UnreadableDraft("not a draft of this game")
        draft = cls.from_json(raw, game=game, side_count=side_count)
        if game == "biriba":
            _same(raw, draft.to_json(), ("trump",))
        for posted, side in zip(sides, draft.sides, strict=True):
            melds = posted.get("melds")
            if not isinstance(melds, list):
                raise UnreadableDraft("melds")
            posted = {**posted, "melds": [m for m in melds if m != []]}
            clean = side.to_json()
            clean["melds"] = [m for m in clean["melds"] if m]
            keys = ("mode", "melds", "hand", "took_pot", "went_out", "melded", "in_hand")
            _same(posted, clean, (*keys, "bonuses"))
            if game == "burraco":
                _same(posted, clean, ("final_discard",))
        return draft

    @classmethod
    def from_deal(cls, deal: dict[str, Any], *, game: str, side_count: int) -> RummyDraft:
        """The draft of a stored deal (to correct it)."""
        draft = cls.new(game=game, side_count=side_count)
        if game == "biriba" and deal.get("trump") in SUITS:
            draft.trump = deal["trump"]
        for side, raw in zip(draft.sides, deal.get("sides") or [], strict=False):
            if not isinstance(raw, dict):
                continue
            side.took_pot = raw.get("took_pot") is True
            side.went_out = raw.get("went_out") is True
            totals = raw.get("totals")
            if isinstance(totals, dict):
                side.mode = "totals"
                side.target = "melded"
                side.melded = _int(totals.get("melded"))
                side.in_hand = _int(totals.get("in_hand"))
                bonuses = totals.get("bonuses")
                if isinstance(bonuses, dict):
                    side.bonuses = {k: v for k, v in bonuses.items() if _int(v, lo=1)}
            else:
                side.melds = [_cards(m) for m in raw.get("melds") or []]
                side.hand = _cards(raw.get("hand"))
                discard = raw.get("final_discard")
                if game == "burraco" and isinstance(discard, str) and is_card(discard):
                    side.final_discard = discard
                side.target = f"m{len(side.melds)}"
        return draft

    @property
    def open_side(self) -> SideDraft:
        return self.sides[self.side]

    def deal_json(self) -> dict[str, Any]:
        """The deal as the match document writes it (match-format.md)."""
        deal: dict[str, Any] = {}
        if self.game == "biriba":
            deal["trump"] = self.trump
        deal["sides"] = [s.deal_json(game=self.game) for s in self.sides]
        return deal


def _split(action: str) -> list[str]:
    return action.split(":") if action else [""]


def _index(text: str, upper: int) -> int:
    """The seat, side or position ``0 .. upper-1`` an action names, or :class:`UnknownAction`."""
    value = parse_int(text, lo=0, hi=upper - 1)
    if value is None:
        raise UnknownAction(text)
    return value


def _meld_index(where: str) -> int | None:
    """``"m2"`` → 2: a meld a target or an action names (None for anything else)."""
    if not where.startswith("m"):
        return None
    return parse_int(where[1:], lo=0, hi=MAX_CARDS)


def rummy_apply(draft: RummyDraft, action: str) -> RummyDraft:
    """Apply one pad action to the draft (in place) and return it.

    Raises :class:`UnknownAction` for anything the pad would not send.
    """
    parts = _split(action)
    verb, args = parts[0], parts[1:]
    side = draft.open_side
    n = len(draft.sides)
    match verb, args:
        case "card", [card] if is_card(card):
            side.add_card(card)
        case "rank", [rank] if rank in RANKS:
            side.add_card(rank + draft.suit)
        case "suit", [suit] if suit in SUITS:
            draft.suit = suit
        case "joker", []:
            side.add_card(JOKER)
        case "back", []:
            side.backspace()
        case "new_meld", []:
            if side.mode == "cards":
                if side.melds and not side.melds[-1]:
                    side.target = f"m{len(side.melds) - 1}"
                else:
                    side.target = f"m{len(side.melds)}"
        case "target", [where]:
            if side.mode == "totals" and where in ("melded", "in_hand"):
                side.target = where
            elif side.mode == "cards" and where in ("hand", "discard"):
                if where == "discard" and draft.game != "burraco":
                    raise UnknownAction(action)
                side.target = where
            elif side.mode == "cards" and where.startswith("m"):
                side.target = f"m{_index(where[1:], len(side.melds) + 1)}"
            else:
                raise UnknownAction(action)
        case "remove", [where, position] if (
            at := parse_int(position, lo=0, hi=MAX_CARDS)
        ) is not None:
            side.remove(where, at)
        case "remove", ["discard"]:
            side.remove("discard", 0)
        case "side", [k]:
            draft.side = _index(k, n)
        case "pot", [k]:
            target = draft.sides[_index(k, n)]
            target.took_pot = not target.took_pot
        case "went_out", [k]:
            chosen = _index(k, n)
            was = draft.sides[chosen].went_out
            for i, s in enumerate(draft.sides):
                s.went_out = i == chosen and not was
            if not was:
                # going out needs the pot: tick it too (the rules still judge it)
                draft.sides[chosen].took_pot = True
        case "trump", [suit] if draft.game == "biriba" and suit in SUITS:
            draft.trump = None if draft.trump == suit else suit
        case "trump", ["none"] if draft.game == "biriba":
            draft.trump = None
        case "mode", [mode] if mode in ("cards", "totals"):
            side.mode = mode
            side.target = "melded" if mode == "totals" else f"m{len(side.melds)}"
        case "digit", [d] if len(d) == 1 and (digit := parse_int(d, lo=0, hi=9)) is not None:
            if side.mode == "totals":
                side.digit(digit)
        case "sign", []:
            if side.mode == "totals":
                side.flip_sign()
        case "next_field", []:
            # the keypad writes to the other number (melded cards / cards in hand)
            if side.mode == "totals":
                side.target = "in_hand" if side.target == "melded" else "melded"
        case "clear", []:
            if side.mode == "totals":
                side._set_number(0)
        case "step", [("melded" | "in_hand") as target, delta] if (
            amount := parse_int(delta, lo=-MAX_NUMBER, hi=MAX_NUMBER, signed=True)
        ) is not None:
            side.step(target, amount)
        case "bonus", [kind, delta] if kind in BONUS_KINDS.get(draft.game, ()) and delta in (
            "+1",
            "-1",
        ):
            side.bonus(kind, int(delta))
        case _:
            raise UnknownAction(action)
    side.fix_target()
    return draft


# ---------------------------------------------------------------------------------------------
# Barbu

#: The contract data each contract records (the Barbu engine's list; ``start_rank`` is
#: optional and not asked).
BARBU_DATA_KEYS: dict[str, tuple[str, ...]] = {
    c.value: tuple(k for k in keys if k not in barbu_contracts.OPTIONAL_DATA_KEYS)
    for c, keys in barbu_contracts.DATA_KEYS.items()
}
#: Per-seat counters and what the four seats take together in a deal (a pack of 52): a
#: stepper stops there, and the sum check shows it (tricks 13/13 ✓).
COUNTERS: dict[str, int] = {
    "tricks": barbu_contracts.TRICKS,
    "hearts": barbu_contracts.HEARTS,
    "queens": barbu_contracts.QUEENS,
    "boys": barbu_contracts.BOYS,
}
SEAT_PICKS = ("ace_of_hearts", "king_of_hearts", "last_trick")


@dataclass
class BarbuDraft:
    contract: str | None = None
    # (by, on) -> 1 doubled, 2 redoubled (``on`` redoubled ``by``)
    doubles: dict[tuple[int, int], int] = field(default_factory=dict)
    counts: dict[str, list[int]] = field(default_factory=dict)  # tricks, hearts, queens, boys
    seats: dict[str, int] = field(default_factory=dict)  # ace_of_hearts, king_of_hearts, ...
    last_two: list[int | None] = field(default_factory=lambda: [None, None])
    trump: str | None = None
    finish_order: list[int] = field(default_factory=list)
    suits: list[list[int]] = field(default_factory=lambda: [[0] * 4 for _ in range(4)])

    def to_json(self) -> dict[str, Any]:
        return {
            "v": 1,
            "contract": self.contract,
            "doubles": [
                {"by": by, "on": on, "level": level}
                for (by, on), level in sorted(self.doubles.items())
            ],
            "counts": {k: list(v) for k, v in self.counts.items()},
            "seats": dict(self.seats),
            "last_two": list(self.last_two),
            "trump": self.trump,
            "finish_order": list(self.finish_order),
            "suits": [list(r) for r in self.suits],
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), separators=(",", ":"))

    @classmethod
    def from_json(cls, raw: Any, *, contracts: tuple[str, ...] = ()) -> BarbuDraft:
        draft = cls()
        if not isinstance(raw, dict):
            return draft
        contract = raw.get("contract")
        if isinstance(contract, str) and (contract in contracts or not contracts):
            draft.contract = contract if contract in BARBU_DATA_KEYS else None
        doubles = raw.get("doubles")
        if isinstance(doubles, list):
            for d in doubles[:12]:
                if not isinstance(d, dict):
                    continue
                by, on = _seat(d.get("by"), 4), _seat(d.get("on"), 4)
                level = _int(d.get("level"), lo=1, hi=2)
                if by is not None and on is not None and by != on and level:
                    if (on, by) not in draft.doubles:
                        draft.doubles[(by, on)] = level
        counts = raw.get("counts")
        if isinstance(counts, dict):
            for key, most in COUNTERS.items():
                values = counts.get(key)
                if isinstance(values, list) and len(values) == 4:
                    draft.counts[key] = [_int(v, lo=0, hi=most) for v in values]
        seats = raw.get("seats")
        if isinstance(seats, dict):
            for key in SEAT_PICKS:
                seat = _seat(seats.get(key), 4)
                if seat is not None:
                    draft.seats[key] = seat
        last_two = raw.get("last_two")
        if isinstance(last_two, list) and len(last_two) == 2:
            draft.last_two = [_seat(s, 4) for s in last_two]
        if raw.get("trump") in SUITS:
            draft.trump = raw["trump"]
        order = raw.get("finish_order")
        if isinstance(order, list):
            for s in order:
                seat = _seat(s, 4)
                if seat is not None and seat not in draft.finish_order:
                    draft.finish_order.append(seat)
        suits = raw.get("suits")
        if isinstance(suits, list) and len(suits) == 4:
            draft.suits = [
                [_int(v, lo=0, hi=13) for v in row][:4] + [0] * (4 - len(row[:4]))
                if isinstance(row, list)
                else [0] * 4
                for row in suits
            ]
        return draft

    @classmethod
    def loads(cls, text: str | None, *, contracts: tuple[str, ...] = ()) -> BarbuDraft:
        return cls.from_json(_json_object(text), contracts=contracts)

    @classmethod
    def read(cls, text: str | None, *, contracts: tuple[str, ...] = ()) -> BarbuDraft:
        """The draft a page posted, to be saved: unlike :meth:`loads`, which keeps what it
        can, anything that does not survive cleaning whole raises :class:`UnreadableDraft`."""
        raw = _strict_object(text)
        draft = cls.from_json(raw, contracts=contracts)
        keys = ("contract", "doubles", "counts", "seats", "last_two", "trump", "finish_order")
        _same(raw, draft.to_json(), (*keys, "suits"))
        return draft

    @classmethod
    def from_deal(cls, deal: dict[str, Any]) -> BarbuDraft:
        """The draft of a stored deal (to correct it)."""
        draft = cls()
        if isinstance(deal.get("contract"), str):
            draft.contract = deal["contract"]
        for d in deal.get("doubles") or []:
            if isinstance(d, dict):
                by, on = _seat(d.get("by"), 4), _seat(d.get("on"), 4)
                if by is not None and on is not None and by != on:
                    draft.doubles[(by, on)] = 2 if d.get("redoubled") else 1
        for key in COUNTERS:
            values = deal.get(key)
            if isinstance(values, list) and len(values) == 4:
                draft.counts[key] = [_int(v) for v in values]
        for key in SEAT_PICKS:
            seat = _seat(deal.get(key), 4)
            if seat is not None:
                draft.seats[key] = seat
        last_two = deal.get("last_two")
        if isinstance(last_two, list) and len(last_two) == 2:
            draft.last_two = [_seat(s, 4) for s in last_two]
        if deal.get("trump") in SUITS:
            draft.trump = deal["trump"]
        order = deal.get("finish_order")
        if isinstance(order, list):
            draft.finish_order = [s for s in order if _seat(s, 4) is not None]
        suits = deal.get("suits")
        if isinstance(suits, list) and len(suits) == 4:
            draft.suits = [[_int(v) for v in row] for row in suits if isinstance(row, list)]
        return draft

    # -- reading ------------------------------------------------------------------------------

    def count(self, key: str) -> list[int]:
        return self.counts.get(key, [0, 0, 0, 0])

    def level(self, by: int, on: int) -> int:
        return self.doubles.get((by, on), 0)

    def doubles_json(self) -> list[dict[str, Any]]:
        out = []
        for (by, on), level in sorted(self.doubles.items()):
            entry: dict[str, Any] = {"by": by, "on": on}
            if level == 2:
                entry["redoubled"] = True
            out.append(entry)
        return out

    def set_doubles(self, pairs: list[dict[str, Any]]) -> None:
        """Replace the doubles by a list in the document's form (``by``, ``on``, ``redoubled``)."""
        self.doubles = {}
        for d in pairs:
            self.doubles[(d["by"], d["on"])] = 2 if d.get("redoubled") else 1

    def data_json(self, contract: str) -> dict[str, Any]:
        """The contract data keys the contract needs, from what has been entered."""
        out: dict[str, Any] = {}
        for key in BARBU_DATA_KEYS.get(contract, ()):
            if key in COUNTERS:
                out[key] = list(self.count(key))
            elif key in SEAT_PICKS:
                if key in self.seats:
                    out[key] = self.seats[key]
            elif key == "last_two":
                if None not in self.last_two:
                    out[key] = list(self.last_two)
            elif key == "trump":
                if self.trump:
                    out[key] = self.trump
            elif key == "finish_order":
                out[key] = list(self.finish_order)
            elif key == "suits":
                out[key] = [list(r) for r in self.suits]
        return out

    def deal_json(self, *, with_data: bool = True) -> dict[str, Any]:
        deal: dict[str, Any] = {"contract": self.contract, "doubles": self.doubles_json()}
        if with_data and self.contract:
            deal.update(self.data_json(self.contract))
        return deal


def barbu_apply(draft: BarbuDraft, action: str, *, contracts: tuple[str, ...] = ()) -> BarbuDraft:
    """Apply one action to the Barbu draft (in place) and return it.

    ``contracts``: the contracts the declarer may name (others are refused). Doubling
    shortcuts (maximum, family) need the rules and are expanded by the view.
    Raises :class:`UnknownAction` for anything the page would not send.
    """
    parts = _split(action)
    verb, args = parts[0], parts[1:]
    match verb, args:
        case "contract", [name] if name in BARBU_DATA_KEYS and (not contracts or name in contracts):
            # tapped again: taken back, unless it is the only contract left to name
            draft.contract = None if draft.contract == name and len(contracts) != 1 else name
        case "double", [by, on, level]:
            b, o, lv = _index(by, 4), _index(on, 4), _index(level, 3)
            if b == o:
                raise UnknownAction(action)
            draft.doubles.pop((o, b), None)
            if lv:
                draft.doubles[(b, o)] = lv
            else:
                draft.doubles.pop((b, o), None)
        case "no_doubles", []:
            draft.doubles = {}
        case "step", [key, seat, delta] if key in COUNTERS and delta in ("+1", "-1"):
            s = _index(seat, 4)
            values = list(draft.count(key))
            values[s] = max(0, min(COUNTERS[key], values[s] + int(delta)))
            draft.counts[key] = values
        case "rest", [key, seat] if key in COUNTERS:
            # the rest of the contract's cards go to this seat
            s = _index(seat, 4)
            values = list(draft.count(key))
            total = COUNTERS[key]
            values[s] = max(0, total - (sum(values) - values[s]))
            draft.counts[key] = values
        case "zero", [key] if key in COUNTERS:
            draft.counts[key] = [0, 0, 0, 0]
        case "seat", [key, seat] if key in SEAT_PICKS:
            s = _index(seat, 4)
            if draft.seats.get(key) == s:
                del draft.seats[key]
            else:
                draft.seats[key] = s
        case "last_two", [which, seat]:
            i, s = _index(which, 2), _index(seat, 4)
            draft.last_two[i] = None if draft.last_two[i] == s else s
        case "trump", [suit] if suit in SUITS:
            draft.trump = None if draft.trump == suit else suit
        case "domino", [seat]:
            s = _index(seat, 4)
            if s in draft.finish_order:
                # tapping a placed player takes them (and everyone after them) off
                draft.finish_order = draft.finish_order[: draft.finish_order.index(s)]
            else:
                draft.finish_order.append(s)
                if len(draft.finish_order) == 3:
                    draft.finish_order += [x for x in range(4) if x not in draft.finish_order]
        case "domino_clear", []:
            draft.finish_order = []
        case "ravage", [seat, suit, delta] if suit in SUITS and delta in ("+1", "-1"):
            s, k = _index(seat, 4), SUITS.index(suit)
            draft.suits[s][k] = max(0, min(13, draft.suits[s][k] + int(delta)))
        case "ravage_rest", [seat, suit] if suit in SUITS:
            s, k = _index(seat, 4), SUITS.index(suit)
            others = sum(draft.suits[r][k] for r in range(4) if r != s)
            draft.suits[s][k] = max(0, 13 - others)
        case _:
            raise UnknownAction(action)
    return draft


def counter_total(key: str) -> int:
    return COUNTERS[key]
