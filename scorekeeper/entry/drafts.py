"""The deal in progress as the pads hold it: what the table shares, and where one phone's taps go.

Plain JSON values, no game rule (the few facts they need, such as the bonus kinds or the data a
Barbu contract records, come from the engines).

- **Shared** (stored once for the match, :class:`~scorekeeper.models.DealDraft`): the cards,
  counts and choices entered so far (:meth:`RummyDraft.content_json`,
  :meth:`BarbuDraft.to_json`).
- **This phone's own** (carried by its page, never shared): the open side, the meld or field
  its taps go to and the suit chosen on the pad (:meth:`RummyDraft.view_json`).

The page carries both together as the draft it drew (:meth:`RummyDraft.to_json`): the view is
read back from it, the shared part always comes from the database. Every key of the pads is a
submit button whose value is an *action* (``"rank:8"``, ``"suit:H"``, ``"joker"``,
``"new_meld"``, ``"remove:m2:3"`` ...), applied by :func:`rummy_apply` / :func:`barbu_apply` to
the draft as stored *now*, read through what the phone saw (``seen``): a toggle sets what the
phone's screen showed the other way ("took the pot" seen off: on), a card tapped away is that
card, so a tap made on a screen another phone has overtaken never undoes their work.

Melds have ids (``"m3"`` is the meld with id 3, in a target or an action), so a tap on one meld
still reaches it after another phone has removed an earlier one.

A draft read back from a form is never trusted: ``from_json`` keeps what is well formed and
drops the rest; every number an action or a draft carries as text is read by
:func:`~scorekeeper.inputs.parse_int`: ASCII digits within bounds, never ``²`` or ``٣``.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.inputs import parse_int
from scorekeeper.rules import biriba, burraco, burraco_three, schema
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


# ---------------------------------------------------------------------------------------------
# Rummy (Biriba, Burraco)

#: What of a side its phone's view holds (everything else is shared).
SIDE_VIEW = ("target",)


@dataclass
class SideDraft:
    """What one side had at the end of the deal, as tapped so far, and where this phone's next
    tap on it goes (``target``)."""

    # "cards" (meld by meld), "totals" (counted by hand: melded, in hand, bonuses) or
    # "points" (the side's points for the deal alone, as the table counted them)
    mode: str = "cards"
    melds: list[list[str]] = field(default_factory=list)
    ids: list[int] = field(default_factory=list)  # each meld's id, in the melds' order
    next_id: int = 0  # the id the next new meld gets
    hand: list[str] = field(default_factory=list)
    # whether the side took its pot: None until the pad's question is answered (a save asks)
    took_pot: bool | None = None
    went_out: bool = False
    final_discard: str | None = None
    # card by card, the cards in hand given as their value instead (None: as cards)
    hand_points: int | None = None
    # this phone's: where the next card goes: "m<id>" (a meld), "new" (a new meld), "hand",
    # "discard", or "hand_points" (the keypad writes the hand's value); in totals mode where
    # the keypad writes: "melded" or "in_hand"
    target: str = NEW_MELD
    melded: int = 0
    in_hand: int = 0
    bonuses: dict[str, int] = field(default_factory=dict)
    points: int = 0  # the points mode's figure (signed)
    # the points mode's "±" pressed before any digit: the figure typed next is negative (a
    # minus on 0 would be lost: ± 5 5 stored +55, issue 24)
    minus: bool = False

    def content_json(self) -> dict[str, Any]:
        """The side as the table shares it."""
        return {
            "mode": self.mode,
            "melds": [list(m) for m in self.melds],
            "ids": list(self.ids),
            "next_id": self.next_id,
            "hand": list(self.hand),
            "took_pot": self.took_pot,
            "went_out": self.went_out,
            "final_discard": self.final_discard,
            "hand_points": self.hand_points,
            "melded": self.melded,
            "in_hand": self.in_hand,
            "bonuses": dict(self.bonuses),
            "points": self.points,
            "minus": self.minus,
        }

    def to_json(self) -> dict[str, Any]:
        return {**self.content_json(), "target": self.target}

    @classmethod
    def from_json(cls, raw: Any, *, game: str) -> SideDraft:
        if not isinstance(raw, dict):
            return cls()
        melds = raw.get("melds")
        side = cls(
            mode=raw["mode"] if raw.get("mode") in ("totals", "points") else "cards",
            melds=[_cards(m) for m in melds[:MAX_MELDS]] if isinstance(melds, list) else [],
            hand=_cards(raw.get("hand")),
            took_pot=raw["took_pot"] if isinstance(raw.get("took_pot"), bool) else None,
            went_out=raw.get("went_out") is True,
            melded=_int(raw.get("melded"), lo=-MAX_NUMBER, hi=MAX_NUMBER),
            in_hand=_int(raw.get("in_hand"), lo=-MAX_NUMBER, hi=MAX_NUMBER),
            points=_int(raw.get("points"), lo=-MAX_NUMBER, hi=MAX_NUMBER),
        )
        side.minus = raw.get("minus") is True and side.mode == "points" and not side.points
        ids = raw.get("ids")
        if (
            isinstance(ids, list)
            and len(ids) == len(side.melds)
            and all(_int(i, -1, lo=0, hi=MAX_MELD_ID) >= 0 for i in ids)
            and len(set(ids)) == len(ids)
        ):
            side.ids = list(ids)
        else:
            side.ids = list(range(len(side.melds)))
        side.next_id = max(
            _int(raw.get("next_id"), lo=0, hi=MAX_MELD_ID), max(side.ids, default=-1) + 1
        )
        discard = raw.get("final_discard")
        if game == "burraco" and isinstance(discard, str) and is_card(discard):
            side.final_discard = discard
        if raw.get("hand_points") is not None:
            side.hand_points = _int(raw.get("hand_points"), lo=0, hi=MAX_NUMBER)
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
        side.drop_empty_melds()
        side.fix_target()
        return side

    # -- the melds by id ----------------------------------------------------------------------

    def position(self, meld_id: int | None) -> int | None:
        """Where the meld ``meld_id`` stands among the side's melds (None if it is not there)."""
        if meld_id is None:
            return None
        try:
            return self.ids.index(meld_id)
        except ValueError:
            return None

    def meld(self, meld_id: int | None) -> list[str] | None:
        at = self.position(meld_id)
        return None if at is None else self.melds[at]

    def target_position(self) -> int | None:
        """The position of the meld this phone's taps go to (None: the hand, a new meld...)."""
        return self.position(_meld_id(self.target))

    def drop_empty_melds(self) -> None:
        kept = [(i, m) for i, m in zip(self.ids, self.melds, strict=True) if m]
        self.ids = [i for i, _ in kept]
        self.melds = [m for _, m in kept]

    # -- where the taps go --------------------------------------------------------------------

    def fix_target(self) -> None:
        """Keep ``target`` pointing somewhere that exists (a meld removed, maybe by another
        phone, gives way to a new meld)."""
        if self.mode == "points":
            self.target = "points"
            return
        if self.mode == "totals":
            if self.target not in ("melded", "in_hand"):
                self.target = "melded"
            return
        if self.target in ("hand", "discard", NEW_MELD):
            return
        if self.target == "hand_points":
            if self.hand_points is None:
                self.target = "hand"
            return
        if self.target_position() is None:
            self.target = NEW_MELD

    def add_card(self, card: str) -> None:
        if self.mode != "cards":
            return
        if self.card_count() >= MAX_CARDS:
            return
        if self.target == "hand_points":
            return  # the keypad is out: no card key is there to send this
        if self.target == "hand":
            self.hand.append(card)
        elif self.target == "discard":
            self.final_discard = card
        else:
            at = self.target_position()
            if at is None:
                if len(self.melds) >= MAX_MELDS or self.next_id > MAX_MELD_ID:
                    return
                self.melds.append([])
                self.ids.append(self.next_id)
                self.target = f"m{self.next_id}"
                self.next_id += 1
                at = len(self.melds) - 1
            self.melds[at].append(card)

    def card_count(self) -> int:
        return sum(len(m) for m in self.melds) + len(self.hand)

    @property
    def untouched(self) -> bool:
        """Nothing has been entered for this side yet (its score would only be a penalty)."""
        if self.took_pot or self.went_out:
            return False
        if self.mode == "totals":
            return not (self.melded or self.in_hand or self.bonuses)
        if self.mode == "points":
            return not self.points
        return not self.card_count() and not self.final_discard and not self.hand_points

    def backspace(self) -> None:
        if self.mode in ("totals", "points"):
            value = self._number()
            sign = -1 if value < 0 else 1
            self._set_number(sign * (abs(value) // 10))
            if self.mode == "points":  # −5 taken back to nothing still shows its minus
                self.minus = (value < 0 or self.minus) and not self._number()
            return
        if self.target == "hand_points":
            self.hand_points = (self.hand_points or 0) // 10
            return
        if self.target == "hand":
            if self.hand:
                self.hand.pop()
        elif self.target == "discard":
            self.final_discard = None
        else:
            at = self.target_position()
            if at is None and self.melds:
                # nothing in the new meld yet: back to the last meld, and its last card goes
                at = len(self.melds) - 1
                self.target = f"m{self.ids[at]}"
            if at is not None:
                self.melds[at].pop()
                if not self.melds[at]:
                    del self.melds[at], self.ids[at]
                    self.target = NEW_MELD

    def remove(self, where: str, position: int, card: str | None = None) -> None:
        """Take away the card at ``position`` of the meld, the hand or the discard; ``card``,
        when given, is the card that was there on the phone's screen: if the table has moved
        it since, that card is taken wherever it now stands in that place (and nothing if it
        is gone)."""
        if where == "discard":
            if card is None or self.final_discard == card:
                self.final_discard = None
            return
        if where == "hand":
            cards = self.hand
        elif (at := self.position(_meld_id(where))) is not None:
            cards = self.melds[at]
        else:
            return
        if card is not None and not (0 <= position < len(cards) and cards[position] == card):
            position = cards.index(card) if card in cards else -1
        if 0 <= position < len(cards):
            del cards[position]
        if where != "hand":
            self.drop_empty_melds()
            self.fix_target()

    # -- totals -------------------------------------------------------------------------------

    def _number(self) -> int:
        """The figure the keypad writes: the points, the melded cards or the hand's."""
        if self.mode == "points":
            return self.points
        return self.melded if self.target == "melded" else self.in_hand

    def _set_number(self, value: int) -> None:
        if self.mode == "points":
            self.points = value
        elif self.target == "in_hand":
            self.in_hand = value
        else:
            self.melded = value

    def hand_digit(self, d: int) -> None:
        """The keypad writes the hand's value (card by card, the hand counted by its value)."""
        value = self.hand_points or 0
        if len(str(value)) < MAX_DIGITS:
            self.hand_points = value * 10 + d

    def set_run_end(self, suit: str, rank: str) -> bool:
        """``first … last``: the run of ``suit`` from the meld's last card of that suit to
        ``rank`` is filled in (ace high after an eight or more, else low; either
        direction); False when the meld has no card of that suit to start from."""
        at = self.target_position()
        if at is None:
            return False
        start = next((c for c in reversed(self.melds[at]) if c[-1:] == suit and c != JOKER), None)
        if start is None:
            return False
        low = RANKS.index(start[:-1])  # A = 0 ... K = 12
        high = RANKS.index(rank)
        if rank == "A" and low >= RANKS.index("8"):
            high = 13  # the ace after the king
        step = 1 if high > low else -1
        cards = [RANKS[i % 13] + suit for i in range(low + step, high + step, step)]
        room = MAX_CARDS - self.card_count()
        self.melds[at].extend(cards[: max(0, min(room, 13))])
        return True

    def fill_run_to(self, suit: str, rank: str) -> bool:
        """A rank key that skips ranks fills the run in: after ``4♥``, ``J♥`` enters
        ``5♥ … J♥`` (a run is entered by its first and its last card). Only when the meld taps
        go to is a run of ``suit`` so far whose last card is a natural of that suit (or a wild
        right after one: the wild stands for the next rank), the skipped ranks are not in it
        already, and nothing is left to guess: a set, another suit, a rank beside the last
        card or the same rank add the card as it is. One rank skipped is a wild's place, never
        filled in: ``4♥ 5♥ 6♥ 8♥`` leaves 7♥ out for the 2♣ tapped last, and so does a wild
        tapped first (probes: a 7♥ nobody held made a biriba); two ranks or more are no one
        wild's. False when nothing was filled."""
        at = self.target_position()
        if self.mode != "cards" or at is None or not self.melds[at]:
            return False
        meld = self.melds[at]
        naturals = [c for c in meld if c != JOKER and not (c[:-1] == "2" and c[-1] != suit)]
        ranks = {c[:-1] for c in naturals}
        if any(c[-1] != suit for c in naturals) or len(naturals) > len(ranks):
            return False  # another suit, or a rank twice: a set (K♠ K♦ …)
        last, wilds = meld[-1], 0
        if last == JOKER or last[-1] != suit:
            if len(meld) < 2 or meld[-2] == JOKER or meld[-2][-1] != suit:
                return False
            last, wilds = meld[-2], 1
        low = RANKS.index(last[:-1])
        high = RANKS.index(rank)
        if low == 0 and (any(c[:-1] == "K" for c in naturals) or len(meld) == 1 and high >= 7):
            low = 13  # the ace above the king (a lone ace, then an eight or more: A K Q …)
        if rank == "A" and low >= RANKS.index("8"):
            high = 13  # the ace after the king
        step = 1 if high > low else -1
        first = low + step * (1 + wilds)
        if (high - first) * step <= 0:
            return False  # beside the last card (or its wild), or the same rank
        cards = [RANKS[i % 13] + suit for i in range(first, high + step, step)]
        held = {c[:-1] for c in naturals}
        if any(c[:-1] in held for c in cards) or len(meld) + len(cards) > 14:
            return False
        if len(cards) == 2:
            return False  # the one rank skipped (cards: it, then the key's) may be a wild's
        if MAX_CARDS - self.card_count() < len(cards):
            return False
        meld.extend(cards)
        return True

    def takes(self, card: str) -> bool:
        """Whether ``card`` may belong to the meld taps go to: a meld begun (one or two cards)
        takes a card of its naturals' suit or rank (or a wild); a meld of three cards or more
        that is a run of one suit takes that suit (or a wild) at a rank it does not hold yet,
        a set its rank (or a wild); anything else starts a new meld (one tap saved, and the
        card is shown where it went)."""
        at = self.target_position()
        if at is None or card == JOKER or card[:-1] == "2":
            return True
        naturals = [c for c in self.melds[at] if c != JOKER and c[:-1] != "2"]
        if len(self.melds[at]) < 3:
            # begun: a card that is of neither its suit nor its rank can be in no run nor set
            # with it (a desk's "10c" after a lone A♦); anything else may yet belong
            return (
                not naturals
                or {c[-1] for c in naturals} == {card[-1]}
                or {c[:-1] for c in naturals} == {card[:-1]}
            )
        rank = self.set_rank()
        if rank is not None:
            return card[:-1] == rank
        if {c[-1] for c in naturals} != {card[-1]}:
            return False
        # a rank the run holds already cannot be in it twice (an ace may: low and high)
        return card[:-1] == "A" or card[:-1] not in {c[:-1] for c in naturals}

    def add_to_meld(self, card: str) -> None:
        """A card of the pad's keys: into the meld taps go to, or a new one if it cannot
        belong there (:meth:`takes`)."""
        if self.mode == "cards" and self.target_position() is not None and not self.takes(card):
            self.target = NEW_MELD
        self.add_card(card)

    def set_rank(self) -> str | None:
        """The rank of the set this phone's taps are building: the meld taps go to holds
        natural cards (no joker, no two) of that one rank alone, beside one wild at most."""
        at = self.target_position()
        if at is None:
            return None
        naturals = [c[:-1] for c in self.melds[at] if c != JOKER and c[:-1] != "2"]
        if not naturals or len(set(naturals)) != 1 or len(self.melds[at]) - len(naturals) > 1:
            return None
        return naturals[0]

    def digit(self, d: int) -> None:
        value = self._number()
        if len(str(abs(value))) >= MAX_DIGITS:
            return
        sign = -1 if value < 0 or self.minus else 1
        self._set_number(sign * (abs(value) * 10 + d))
        self.minus = self.minus and not self._number()  # "− 0" is still a minus waiting

    def flip_sign(self) -> None:
        """ "±": the figure the other way; on no figure yet (the points mode's 0), the digits
        typed next are negative."""
        value = self._number()
        if value == 0 and self.mode == "points":
            self.minus = not self.minus
        else:
            self._set_number(-value)

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
        if self.mode == "points":
            # the figure holds the pot: asked of no side, said only when answered
            out["totals"] = {"points": self.points}
            if self.took_pot is not None:
                out["took_pot"] = self.took_pot
            out["went_out"] = self.went_out
            return out
        if self.mode == "totals":
            totals: dict[str, Any] = {"melded": self.melded, "in_hand": abs(self.in_hand)}
            if self.bonuses:
                totals["bonuses"] = dict(self.bonuses)
            out["totals"] = totals
        else:
            out["melds"] = [list(m) for m in self.melds if m]
            if self.hand_points is not None and not self.hand:
                out["in_hand"] = self.hand_points
            elif self.hand_points is not None:  # both: the rules say which to keep
                out["hand"], out["in_hand"] = list(self.hand), self.hand_points
            else:
                out["hand"] = list(self.hand)
        # an unanswered pot is drawn as taken (no penalty shown); a save asks first
        out["took_pot"] = self.took_pot is not False
        out["went_out"] = self.went_out
        if game == "burraco" and self.final_discard and self.mode == "cards":
            out["final_discard"] = self.final_discard
        return out


_SIDE_DEFAULTS: dict[str, Any] = {
    "mode": "cards",
    "took_pot": None,
    "went_out": False,
    "final_discard": None,
    "hand_points": None,
    "melded": 0,
    "in_hand": 0,
    "bonuses": {},
    "points": 0,
    "minus": False,
    "target": NEW_MELD,
}


def _side_compact(raw: dict[str, Any]) -> dict[str, Any]:
    """A side's JSON without the keys :meth:`SideDraft.from_json` reads back as they were: the
    defaults, meld ids 0, 1, 2… and the next id after them (the cards always stay)."""
    out = {k: v for k, v in raw.items() if k not in _SIDE_DEFAULTS or v != _SIDE_DEFAULTS[k]}
    if out["ids"] == list(range(len(out["melds"]))):
        del out["ids"]
        if out["next_id"] == len(out["melds"]):
            del out["next_id"]
    return out


@dataclass
class RummyDraft:
    game: str
    sides: list[SideDraft]
    side: int = 0  # this phone's open tab
    suit: str = "H"  # the suit chosen on this phone's pad
    trump: str | None = None  # Biriba
    thru: bool = False  # this phone's: the next rank ends a run ("…" pressed)
    # this phone's, for the next key only: the card a suit key just added to a set (K♦ after
    # K♠): the rank key a player taps next out of habit ("♦ K") names it, it adds no other
    by_suit: str | None = None
    # Burraco for three: who played alone (a seat: side 0 is that player, side 1 the pair,
    # the third side unused), NOBODY (nobody took a pozzetto: a side a seat), None: not said
    solo: int | str | None = None
    # how often the table started this deal over ("Start over"): a phone's view drawn before
    # the last start is not this deal's any more (its taps went to a hand or a meld now gone)
    restarted: int = 0
    # who started it over last (shared, with ``restarted``), for the other phones' notice
    restarted_by: str = ""
    # this phone's, for the page drawn now only: its view was drawn before the table last
    # started the deal over (another phone did): its side and suit are kept, the page says so
    restarted_since: bool = False

    @classmethod
    def new(cls, *, game: str, side_count: int) -> RummyDraft:
        return cls(game=game, sides=[SideDraft() for _ in range(side_count)])

    # -- shared and own -----------------------------------------------------------------------

    def content_json(self) -> dict[str, Any]:
        """What the table shares (stored once for the match)."""
        out = {
            "v": VERSION,
            "game": self.game,
            "trump": self.trump,
            "sides": [s.content_json() for s in self.sides],
        }
        if self.solo is not None:
            out["solo"] = self.solo
        if self.restarted:
            out["restarted"] = self.restarted
        if self.restarted_by:
            out["restarted_by"] = self.restarted_by
        return out

    def view_json(self) -> dict[str, Any]:
        """Where this phone's taps go: its open side, its chosen suit, each side's target."""
        return {
            "side": self.side,
            "suit": self.suit,
            "thru": self.thru,
            "by_suit": self.by_suit,
            "targets": [s.target for s in self.sides],
            "restarted": self.restarted,
        }

    def with_view(self, view: Any) -> RummyDraft:
        """This draft seen from a phone whose view is ``view`` (kept where it still fits). A
        view from before the table last started the deal over keeps the phone's own choices,
        its open side and its suit (another phone's Start over never moves it to another
        side: issue 24), not where its taps went (a hand, a meld now gone): they go to a new
        meld, and :attr:`restarted_since` says so for the page."""
        if not isinstance(view, dict):
            return self
        self.side = _int(view.get("side"), lo=0, hi=len(self.sides) - 1)
        if view.get("suit") in SUITS:
            self.suit = view["suit"]
        if _int(view.get("restarted"), lo=0, hi=MAX_RESTARTS) != self.restarted:
            self.restarted_since = True
            return self
        self.thru = view.get("thru") is True
        self.by_suit = view["by_suit"] if is_card(view.get("by_suit") or "") else None
        targets = view.get("targets")
        if isinstance(targets, list) and len(targets) == len(self.sides):
            for side, target in zip(self.sides, targets, strict=True):
                if isinstance(target, str):
                    side.target = target
                    side.fix_target()
        return self

    @classmethod
    def compose(cls, content: Any, view: Any = None, *, game: str, side_count: int) -> RummyDraft:
        """The stored deal in progress (``content``) with a phone's own ``view``."""
        return cls.from_json(content, game=game, side_count=side_count).with_view(view)

    def copy(self) -> RummyDraft:
        return copy.deepcopy(self)

    # -- the page's JSON ----------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The draft as a page draws it and posts it back: shared and own together."""
        return {
            "v": VERSION,
            "game": self.game,
            "side": self.side,
            "suit": self.suit,
            "thru": self.thru,
            "by_suit": self.by_suit,
            "trump": self.trump,
            "sides": [s.to_json() for s in self.sides],
            **({"solo": self.solo} if self.solo is not None else {}),
            "restarted": self.restarted,
        }

    def dumps(self) -> str:
        """The page's copy, its keys at their default value left out (``from_json`` reads
        them back as those defaults): every tap's answer carries it."""
        raw = self.to_json()
        for key, default in (("thru", False), ("by_suit", None), ("trump", None), ("restarted", 0)):
            if raw[key] == default:
                del raw[key]
        raw["sides"] = [_side_compact(s) for s in raw["sides"]]
        return json.dumps(raw, separators=(",", ":"))

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
        draft.thru = raw.get("thru") is True
        draft.by_suit = raw["by_suit"] if is_card(raw.get("by_suit") or "") else None
        if game == "biriba" and raw.get("trump") in SUITS:
            draft.trump = raw["trump"]
        draft.solo = _solo(raw.get("solo"), game, side_count)
        draft.restarted = _int(raw.get("restarted"), lo=0, hi=MAX_RESTARTS)
        by = raw.get("restarted_by")
        draft.restarted_by = by[:MAX_NAME] if isinstance(by, str) and draft.restarted else ""
        return draft

    @classmethod
    def loads(cls, text: str | None, *, game: str, side_count: int) -> RummyDraft:
        return cls.from_json(_json_object(text), game=game, side_count=side_count)

    @classmethod
    def read(cls, text: str | None, *, game: str, side_count: int) -> RummyDraft:
        """The draft a page posted: unlike :meth:`loads`, which keeps what it can, anything
        that is not a whole draft of this game raises :class:`UnreadableDraft`."""
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
            _same({"trump": None, **raw}, draft.to_json(), ("trump",))
        _same({"solo": None, **raw}, {"solo": draft.solo}, ("solo",))
        for posted, side in zip(sides, draft.sides, strict=True):
            posted = {**_SIDE_DEFAULTS, **posted}  # as dumps() leaves them out
            melds = posted.get("melds")
            if not isinstance(melds, list):
                raise UnreadableDraft("melds")
            clean = side.to_json()
            keys = ("mode", "melds", "hand", "took_pot", "went_out", "melded", "in_hand")
            keys += ("hand_points", "points")
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
        if "solo" in deal:  # Burraco for three: null when nobody took a pozzetto
            draft.solo = _solo(NOBODY if deal["solo"] is None else deal["solo"], game, side_count)
        for side, raw in zip(draft.sides, deal.get("sides") or [], strict=False):
            if not isinstance(raw, dict):
                continue
            side.took_pot = raw.get("took_pot") is True
            side.went_out = raw.get("went_out") is True
            totals = raw.get("totals")
            if isinstance(totals, dict) and "points" in totals:
                side.mode, side.target = "points", "points"
                side.points = _int(totals.get("points"), lo=-MAX_NUMBER, hi=MAX_NUMBER)
                if not isinstance(raw.get("took_pot"), bool):
                    side.took_pot = None  # not said: the figure holds it
            elif isinstance(totals, dict):
                side.mode = "totals"
                side.target = "melded"
                side.melded = _int(totals.get("melded"))
                side.in_hand = _int(totals.get("in_hand"))
                bonuses = totals.get("bonuses")
                if isinstance(bonuses, dict):
                    side.bonuses = {k: v for k, v in bonuses.items() if _int(v, lo=1)}
            else:
                side.melds = [_cards(m) for m in raw.get("melds") or []]
                side.ids = list(range(len(side.melds)))
                side.next_id = len(side.melds)
                side.hand = _cards(raw.get("hand"))
                if raw.get("in_hand") is not None:
                    side.hand_points = _int(raw.get("in_hand"), lo=0, hi=MAX_NUMBER)
                discard = raw.get("final_discard")
                if game == "burraco" and isinstance(discard, str) and is_card(discard):
                    side.final_discard = discard
                side.target = NEW_MELD
        return draft

    @property
    def open_side(self) -> SideDraft:
        return self.sides[self.side]

    def deal_json(self, *, each_alone: bool = False) -> dict[str, Any]:
        """The deal as the match document writes it (match-format.md). Burraco for three:
        ``solo`` (null when nobody took a pozzetto) and the two sides of a solo player and a
        pair, unless every player plays ``each_alone`` in this deal (the answer is left out)."""
        deal: dict[str, Any] = {}
        sides = self.sides
        if self.game == "biriba":
            deal["trump"] = self.trump
        if self.solo is not None and not each_alone:
            deal["solo"] = None if self.solo == NOBODY else self.solo
            if self.solo != NOBODY:
                sides = sides[:2]
        deal["sides"] = [s.deal_json(game=self.game) for s in sides]
        return deal


def _solo(value: Any, game: str, side_count: int) -> int | str | None:
    """Who played alone, as a draft holds it (Burraco for three only), or None."""
    if game != "burraco" or side_count != burraco_three.SEATS:
        return None
    if value == NOBODY:
        return NOBODY
    return _seat(value, side_count)


def _split(action: str) -> list[str]:
    return action.split(":") if action else [""]


def _index(text: str, upper: int) -> int:
    """The seat, side or position ``0 .. upper-1`` an action names, or :class:`UnknownAction`."""
    value = parse_int(text, lo=0, hi=upper - 1)
    if value is None:
        raise UnknownAction(text)
    return value


def _seen_card(seen: SideDraft, where: str, position: int) -> str | None:
    """The card at ``position`` of a meld, the hand or the discard on the phone's screen."""
    if where == "hand":
        cards = seen.hand
    elif where == "discard":
        return seen.final_discard
    else:
        cards = seen.meld(_meld_id(where)) or []
    return cards[position] if 0 <= position < len(cards) else None


def rummy_apply(
    draft: RummyDraft, action: str, *, seen: RummyDraft | None = None, sets: bool = True
) -> RummyDraft:
    """Apply one pad action to the draft (in place) and return it.

    ``seen``: the draft as the phone's screen showed it when the key was pressed (the draft
    itself when not given): a toggle sets the other way what the screen showed, a card tapped
    away is the card the screen showed there.
    ``sets``: whether the rules allow sets; then a suit key pressed while the meld is a set so
    far (``K♠``, ``K♠ K♦``...) adds a card of that rank in that suit (a set is entered rank
    first, then one tap per suit); otherwise a suit key only chooses the suit.
    Raises :class:`UnknownAction` for anything the pad would not send.
    """
    if seen is None:
        seen = draft.copy()
    parts = _split(action)
    verb, args = parts[0], parts[1:]
    side = draft.open_side
    seen_side = seen.sides[draft.side]
    n = len(draft.sides)
    thru, draft.thru = draft.thru, False  # "…" holds for the next key only
    by_suit, draft.by_suit = draft.by_suit, None  # so does the card a suit key added

    def rank_key(rank: str) -> None:
        if by_suit == rank + draft.suit and side.mode == "cards":
            return  # "♦ K" after K♠: the suit key added K♦, its rank names that card again
        if thru and side.mode == "cards" and side.set_run_end(draft.suit, rank):
            pass
        elif not side.fill_run_to(draft.suit, rank):
            side.add_to_meld(rank + draft.suit)

    match verb, args:
        case "card", [card] if is_card(card) and card != JOKER and card[:-1] != "2":
            # a natural card named whole (a desk's "7h"): its suit chosen, then as its rank key
            draft.suit = card[-1]
            rank_key(card[:-1])
        case "card", [card] if is_card(card):  # a two (natural or wild as it stands), the joker
            side.add_to_meld(card)
        case "rank", [rank] if rank in RANKS:
            rank_key(rank)
        case "thru", []:
            # "first … last": the next rank key ends the run begun by the meld's last card
            draft.thru = not thru and side.mode == "cards" and side.target_position() is not None
        case "suit", [suit] if suit in SUITS:
            draft.suit = suit
            at = side.target_position()
            lone = side.melds[at] if at is not None and len(side.melds[at]) == 1 else [JOKER]
            if lone[0] != JOKER and lone[0][-1] == suit:
                pass  # the suit of the one card there: chosen (♥ 3 ♥ 4 is a run, not 3♥ 3♥)
            elif sets and side.mode == "cards" and (rank := side.set_rank()) is not None:
                side.add_card(rank + suit)
                draft.by_suit = rank + suit
        case "hand", ["points"]:
            if side.mode == "cards":
                if side.hand_points is None:
                    side.hand_points = 0
                side.target = "hand_points"
        case "hand", ["cards"]:
            if side.mode == "cards":
                side.hand_points = None
                side.target = "hand"
        case "joker", []:
            side.add_card(JOKER)
        case "back", []:
            side.backspace()
        case "new_meld", []:
            if side.mode == "cards":
                side.target = NEW_MELD
        case "target", [where]:
            if side.mode == "totals" and where in ("melded", "in_hand"):
                side.target = where
            elif side.mode == "points" and where == "points":
                side.target = where
            elif side.mode == "cards" and where == "hand" and side.hand_points is not None:
                side.target = "hand_points"  # the hand is counted by its value: the keypad
            elif side.mode == "cards" and where in ("hand", "discard", NEW_MELD):
                if where == "discard" and draft.game != "burraco":
                    raise UnknownAction(action)
                side.target = where
            elif side.mode == "cards" and side.position(_meld_id(where)) is not None:
                side.target = where
            elif side.mode == "cards" and _meld_id(where) is not None:
                side.target = NEW_MELD  # a meld another phone has removed meanwhile
            else:
                raise UnknownAction(action)
        case "remove", [where, position] if (
            at := parse_int(position, lo=0, hi=MAX_CARDS)
        ) is not None and (where in ("hand", "discard") or _meld_id(where) is not None):
            side.remove(where, at, _seen_card(seen_side, where, at))
        case "remove", ["discard"]:
            side.remove("discard", 0, seen_side.final_discard)
        case "side", [k]:
            draft.side = _index(k, n)
        case "solo", [k] if draft.game == "burraco" and n == burraco_three.SEATS:
            # Burraco for three: who played alone (one tap answers the pots it implies)
            if k == NOBODY:
                draft.solo = NOBODY
                for s in draft.sides:  # nobody took a pozzetto
                    s.took_pot, s.went_out = False, False
            else:
                was = draft.solo
                draft.solo = _index(k, n)
                draft.sides[0].took_pot = True  # the solo player took the 18 cards
                if was == NOBODY:  # the answers "nobody" gave are not the pair's
                    for s in draft.sides[1:]:
                        s.took_pot = None
                draft.side = min(draft.side, 1)
        case "pot", [k]:  # "took it": an answer, the same however often it is pressed
            draft.sides[_index(k, n)].took_pot = True
        case "pot_no", [k]:  # "did not take it"
            draft.sides[_index(k, n)].took_pot = False
        case "went_out", [k]:
            chosen = _index(k, n)
            out = not seen.sides[chosen].went_out
            for i, s in enumerate(draft.sides):
                if i == chosen:
                    s.went_out = out
                elif out:
                    s.went_out = False
            if out:
                # going out needs the pot: tick it too (the rules still judge it)
                draft.sides[chosen].took_pot = True
        case "trump", [suit] if draft.game == "biriba" and suit in SUITS:
            # sets, never toggles: a second phone tapping the trump its screen shows chosen
            # keeps it (issue 24: it cleared it for everyone); "no trump" is its own key
            draft.trump = suit
        case "trump", ["none"] if draft.game == "biriba":
            draft.trump = None
        case "mode", [mode] if mode in ("cards", "totals", "points"):
            # a table counts every side one way: the sides with nothing entered follow
            for other in draft.sides:
                if other is side or (other.untouched and other.took_pot is None):
                    other.mode = mode
                    other.target = {"totals": "melded", "points": "points"}.get(mode, NEW_MELD)
        case "digit", [d] if len(d) == 1 and (digit := parse_int(d, lo=0, hi=9)) is not None:
            if side.mode in ("totals", "points"):
                side.digit(digit)
            elif side.target == "hand_points":
                side.hand_digit(digit)
        case "sign", []:
            if side.mode in ("totals", "points"):
                side.flip_sign()
        case "next_field", []:
            # the keypad writes to the other number (melded cards / cards in hand)
            if side.mode == "totals":
                side.target = "in_hand" if side.target == "melded" else "melded"
            elif side.target == "hand_points":
                side.target = NEW_MELD  # back to the cards' keys
        case "clear", []:
            if side.mode in ("totals", "points"):
                side._set_number(0)
                side.minus = False
            elif side.target == "hand_points":
                side.hand_points = 0
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
    for s in draft.sides:
        s.fix_target()
    return draft


# ---------------------------------------------------------------------------------------------
# Barbu

#: The contract data each contract records (the Barbu engine's list; ``start_rank`` is
#: optional and not asked). A match's own may differ (a salade counting the last two tricks):
#: the page passes them to :meth:`BarbuDraft.deal_json`.
BARBU_DATA_KEYS: dict[str, tuple[str, ...]] = {
    c.value: tuple(k for k in keys if k not in barbu_contracts.OPTIONAL_DATA_KEYS)
    for c, keys in barbu_contracts.DATA_KEYS.items()
}
#: Per-seat counters and what the four seats take together in a deal (a pack of 52): a
#: stepper stops there, and the sum check shows it (tricks 13/13 ✓). Five players take 10
#: tricks (:func:`counter_total`).
COUNTERS: dict[str, int] = {
    "tricks": barbu_contracts.TRICKS,
    "hearts": barbu_contracts.HEARTS,
    "queens": barbu_contracts.QUEENS,
    "boys": barbu_contracts.BOYS,
}
SEAT_PICKS = ("ace_of_hearts", "king_of_hearts", "last_trick")
#: The players a Barbu table may have (four, or five in Salade).
BARBU_SEATS = (barbu_contracts.SEATS, barbu_contracts.FIVE)
#: Chinese Poker: the digits a net may have, as typed ("-12": a minus and two digits).
NET_DIGITS = 4
NET_MAX = 10**NET_DIGITS - 1


def _net_text(value: Any) -> str | None:
    """A net as typed: "" (nothing yet), "-" (a minus so far), or a whole number of at most
    :data:`NET_DIGITS` digits, without leading zeros; None for anything else."""
    if not isinstance(value, str):
        return None
    digits = value[1:] if value.startswith("-") else value
    if not digits:
        return value
    if len(digits) > NET_DIGITS or not digits.isascii() or not digits.isdigit():
        return None
    if digits != str(int(digits)):
        return None
    return value


def _net_value(text: str) -> int:
    return int(text) if text not in ("", "-") else 0


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
    #: Chinese Poker: each seat's net as typed ("" not yet, "-" a minus so far, "-12"); once
    #: every seat but one is typed, that one's follows from the zero sum (:func:`net_auto`)
    nets: list[str] = field(default_factory=list)
    #: the seats whose count was typed on the number keys, by counter ("tricks") or Ravage
    #: City column ("suits:H"): once all but one are typed, the last is the rest of the total
    typed: dict[str, list[int]] = field(default_factory=dict)
    # -- this phone's own view: where its number keys go, and whether the doubles are open
    #: "tricks:2" (a counter's seat), "net:2" (a Chinese Poker net) or "suits:2:H" (a Ravage
    #: City cell); None: the next one
    focus: str | None = None
    doubles_open: bool = False
    #: the players at the table (four, or five in Salade): the match says it, never the draft
    players: int = barbu_contracts.SEATS

    def __post_init__(self) -> None:
        if len(self.nets) != self.players:
            self.nets = [""] * self.players

    def to_json(self) -> dict[str, Any]:
        """The whole sheet as the table shares it (this phone's view is :meth:`view_json`)."""
        return {
            "v": VERSION,
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
            "nets": list(self.nets),
            "typed": {k: list(v) for k, v in sorted(self.typed.items())},
        }

    def view_json(self) -> dict[str, Any]:
        """Where this phone's number keys go, and whether it has the doubles open."""
        return {"focus": self.focus, "open": self.doubles_open}

    def with_view(self, view: Any) -> BarbuDraft:
        """This sheet seen from a phone whose view is ``view`` (kept where it still reads)."""
        if isinstance(view, dict):
            focus = view.get("focus")
            self.focus = focus if isinstance(focus, str) and _focus(focus, self.players) else None
            self.doubles_open = view.get("open") is True
        return self

    @classmethod
    def compose(
        cls,
        content: Any,
        view: Any = None,
        *,
        contracts: tuple[str, ...] = (),
        players: int = barbu_contracts.SEATS,
    ) -> BarbuDraft:
        """The stored sheet (``content``) with a phone's own ``view``."""
        return cls.from_json(content, contracts=contracts, players=players).with_view(view)

    def dumps(self) -> str:
        """The sheet as a page draws it and posts it back: shared and own together."""
        return json.dumps({**self.to_json(), "view": self.view_json()}, separators=(",", ":"))

    @classmethod
    def from_json(
        cls, raw: Any, *, contracts: tuple[str, ...] = (), players: int = barbu_contracts.SEATS
    ) -> BarbuDraft:
        n = players if players in BARBU_SEATS else barbu_contracts.SEATS
        draft = cls(players=n)
        if not isinstance(raw, dict):
            return draft
        totals = _totals(n)
        contract = raw.get("contract")
        if isinstance(contract, str) and (contract in contracts or not contracts):
            draft.contract = contract if contract in BARBU_DATA_KEYS else None
        doubles = raw.get("doubles")
        if isinstance(doubles, list):
            for d in doubles[: n * (n - 1) // 2]:
                if not isinstance(d, dict):
                    continue
                by, on = _seat(d.get("by"), n), _seat(d.get("on"), n)
                level = _int(d.get("level"), lo=1, hi=2)
                if by is not None and on is not None and by != on and level:
                    if (on, by) not in draft.doubles:
                        draft.doubles[(by, on)] = level
        counts = raw.get("counts")
        if isinstance(counts, dict):
            for key, most in totals.items():
                values = counts.get(key)
                if isinstance(values, list) and len(values) == n:
                    draft.counts[key] = [_int(v, lo=0, hi=most) for v in values]
        seats = raw.get("seats")
        if isinstance(seats, dict):
            for key in SEAT_PICKS:
                seat = _seat(seats.get(key), n)
                if seat is not None:
                    draft.seats[key] = seat
        last_two = raw.get("last_two")
        if isinstance(last_two, list) and len(last_two) == 2:
            draft.last_two = [_seat(s, n) for s in last_two]
        if raw.get("trump") in SUITS:
            draft.trump = raw["trump"]
        order = raw.get("finish_order")
        if isinstance(order, list):
            for s in order:
                seat = _seat(s, n)
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
        nets = raw.get("nets")
        if isinstance(nets, list) and len(nets) == n:
            draft.nets = [_net_text(v) or "" for v in nets]
        typed = raw.get("typed")
        if isinstance(typed, dict):
            for key in TYPED_KEYS:
                seats = typed.get(key)
                if isinstance(seats, list):
                    clean = [s for s in seats if _seat(s, n) is not None]
                    draft.typed[key] = sorted(set(clean))
        return draft

    @classmethod
    def loads(
        cls,
        text: str | None,
        *,
        contracts: tuple[str, ...] = (),
        players: int = barbu_contracts.SEATS,
    ) -> BarbuDraft:
        return cls.from_json(_json_object(text), contracts=contracts, players=players)

    @classmethod
    def read(
        cls,
        text: str | None,
        *,
        contracts: tuple[str, ...] = (),
        players: int = barbu_contracts.SEATS,
    ) -> BarbuDraft:
        """The draft a page posted, to be saved: unlike :meth:`loads`, which keeps what it
        can, anything that does not survive cleaning whole raises :class:`UnreadableDraft`."""
        raw = _strict_object(text)
        draft = cls.from_json(raw, contracts=contracts, players=players)
        keys = ("contract", "doubles", "counts", "seats", "last_two", "trump", "finish_order")
        _same(raw, draft.to_json(), (*keys, "suits"))
        if "nets" in raw:  # a page drawn before Chinese Poker posts none
            _same(raw, draft.to_json(), ("nets",))
        return draft.with_view(raw.get("view"))

    @classmethod
    def from_deal(cls, deal: dict[str, Any], *, players: int = barbu_contracts.SEATS) -> BarbuDraft:
        """The draft of a stored deal (to correct it)."""
        n = players if players in BARBU_SEATS else barbu_contracts.SEATS
        draft = cls(players=n)
        if isinstance(deal.get("contract"), str):
            draft.contract = deal["contract"]
        for d in deal.get("doubles") or []:
            if isinstance(d, dict):
                by, on = _seat(d.get("by"), n), _seat(d.get("on"), n)
                if by is not None and on is not None and by != on:
                    draft.doubles[(by, on)] = 2 if d.get("redoubled") else 1
        for key in COUNTERS:
            values = deal.get(key)
            if isinstance(values, list) and len(values) == n:
                draft.counts[key] = [_int(v) for v in values]
        for key in SEAT_PICKS:
            seat = _seat(deal.get(key), n)
            if seat is not None:
                draft.seats[key] = seat
        last_two = deal.get("last_two")
        if isinstance(last_two, list) and len(last_two) == 2:
            draft.last_two = [_seat(s, n) for s in last_two]
        if deal.get("trump") in SUITS:
            draft.trump = deal["trump"]
        order = deal.get("finish_order")
        if isinstance(order, list):
            draft.finish_order = [s for s in order if _seat(s, n) is not None]
        suits = deal.get("suits")
        if isinstance(suits, list) and len(suits) == 4:
            draft.suits = [[_int(v) for v in row] for row in suits if isinstance(row, list)]
        nets = deal.get("net")
        if isinstance(nets, list) and len(nets) == n:
            # every seat typed but the last, whose net follows from the others (as entered)
            draft.nets = [_net_text(str(_int(v))) or "" for v in nets[:-1]] + [""]
        return draft

    # -- reading ------------------------------------------------------------------------------

    def count(self, key: str) -> list[int]:
        return self.counts.get(key, [0] * self.players)

    def level(self, by: int, on: int) -> int:
        return self.doubles.get((by, on), 0)

    def net_values(self) -> list[int]:
        """Each seat's net as entered, the last one left following from the zero sum."""
        values = [_net_value(t) for t in self.nets]
        auto = net_auto(self)
        if auto is not None:
            values[auto] = -sum(values)
        return values

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

    def data_json(self, contract: str, keys: tuple[str, ...] | None = None) -> dict[str, Any]:
        """The contract data keys the contract needs (``keys``, the match's own; else the
        engine's list), from what has been entered."""
        out: dict[str, Any] = {}
        for key in BARBU_DATA_KEYS.get(contract, ()) if keys is None else keys:
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
            elif key == "net":
                out[key] = self.net_values()
        return out

    def deal_json(
        self, *, with_data: bool = True, keys: tuple[str, ...] | None = None
    ) -> dict[str, Any]:
        deal: dict[str, Any] = {"contract": self.contract, "doubles": self.doubles_json()}
        if with_data and self.contract:
            deal.update(self.data_json(self.contract, keys))
        return deal

    def copy(self) -> BarbuDraft:
        return copy.deepcopy(self)


#: What :attr:`BarbuDraft.typed` is kept for: each counter, and each Ravage City column.
TYPED_KEYS: tuple[str, ...] = (*COUNTERS, *(f"suits:{k}" for k in SUITS))


def _totals(players: int) -> dict[str, int]:
    """:data:`COUNTERS` at a table of ``players``: five take 10 tricks (hearts, queens stay)."""
    return COUNTERS | {"tricks": barbu_contracts.tricks_in_deal(players)}


def _focus(text: str, players: int = barbu_contracts.SEATS) -> tuple[str, int, int | None] | None:
    """``"tricks:2"`` → ("tricks", 2, None), ``"net:2"`` → ("net", 2, None), ``"suits:2:H"``
    → ("suits", 2, 1); None when the text names no counter's seat, net nor Ravage City cell."""
    parts = text.split(":")
    seat = parse_int(parts[1], lo=0, hi=players - 1) if len(parts) > 1 else None
    if seat is None:
        return None
    if len(parts) == 2 and (parts[0] in COUNTERS or parts[0] == "net"):
        return parts[0], seat, None
    if len(parts) == 3 and parts[0] == "suits" and parts[2] in SUITS:
        return "suits", seat, SUITS.index(parts[2])
    return None


def _filled(typed: list[int], values: list[int], total: int, players: int = 4) -> bool:
    """Whether the seats not typed follow from those typed: all but one are typed (the last
    has the rest), or those typed hold the whole total (the others have none)."""
    return len(typed) >= players - 1 or bool(typed) and sum(values[s] for s in typed) >= total


def count_auto(draft: BarbuDraft, key: str) -> list[int]:
    """The seats of counter ``key`` whose count follows from the seats typed."""
    typed = draft.typed.get(key, [])
    if not _filled(typed, draft.count(key), counter_total(key, draft.players), draft.players):
        return []
    return [s for s in range(draft.players) if s not in typed]


def count_focus(draft: BarbuDraft, key: str) -> int | None:
    """The seat the number keys of counter ``key`` go to: the one tapped, else the first seat
    not typed yet; None once the others follow from those typed and none is tapped."""
    focus = _focus(draft.focus, draft.players) if draft.focus else None
    if focus is not None and focus[0] == key:
        return focus[1]
    typed = draft.typed.get(key, [])
    if count_auto(draft, key):
        return None
    return next((s for s in range(draft.players) if s not in typed), None)


def net_auto(draft: BarbuDraft) -> int | None:
    """Chinese Poker: the one seat whose net is not typed, once every other one is (its net
    is what makes the sum 0); None while two or more are left, or none."""
    left = [s for s, t in enumerate(draft.nets) if t == ""]
    return left[0] if len(left) == 1 else None


def net_focus(draft: BarbuDraft) -> int | None:
    """The seat the number keys of the nets go to: the one tapped, else the first seat not
    typed yet; None once only the last one is left (it follows) and none is tapped."""
    focus = _focus(draft.focus, draft.players) if draft.focus else None
    if focus is not None and focus[0] == "net":
        return focus[1]
    left = [s for s, t in enumerate(draft.nets) if t == ""]
    return left[0] if len(left) > 1 else None


def _fill(values: list[int], typed: list[int], total: int, players: int = 4) -> None:
    """The seats not typed, when they follow from those typed: the rest, or none."""
    if not _filled(typed, values, total, players):
        return
    left = max(0, total - sum(values[s] for s in typed))
    for s in range(players):
        if s not in typed:
            values[s] = left if len(typed) == players - 1 else 0


def _column(draft: BarbuDraft, suit: int) -> list[int]:
    return [draft.suits[s][suit] for s in range(4)]


def cell_auto(draft: BarbuDraft, seat: int, suit: int) -> bool:
    """A Ravage City cell that follows from its suit's cells typed."""
    typed = draft.typed.get(f"suits:{SUITS[suit]}", [])
    return seat not in typed and _filled(typed, _column(draft, suit), 13)


def _column_open(draft: BarbuDraft, seat: int, suit: int) -> bool:
    """A Ravage City cell still to type: not typed, nor following from those typed."""
    typed = draft.typed.get(f"suits:{SUITS[suit]}", [])
    return seat not in typed and not cell_auto(draft, seat, suit)


def cell_focus(draft: BarbuDraft) -> tuple[int, int] | None:
    """The Ravage City cell (seat, suit index) the number keys go to: the one tapped, else
    the first still to type, player by player, suit by suit; None when every one is."""
    focus = _focus(draft.focus, draft.players) if draft.focus else None
    if focus is not None and focus[0] == "suits" and focus[2] is not None and focus[1] < 4:
        return focus[1], focus[2]
    return _next_cell(draft, -1)


def _next_cell(draft: BarbuDraft, after: int) -> tuple[int, int] | None:
    """The first cell still to type after cell number ``after`` (row by row), wrapping."""
    for step in range(1, 17):
        n = (after + step) % 16
        if _column_open(draft, n // 4, n % 4):
            return n // 4, n % 4
    return None


def _typed(draft: BarbuDraft, key: str, seat: int) -> list[int]:
    """Mark ``seat`` typed under ``key``; the seats typed so far."""
    typed = sorted({*draft.typed.get(key, []), seat})
    draft.typed[key] = typed
    return typed


def _net_key(draft: BarbuDraft, key: str, action: str) -> None:
    """A key of the nets' pad (a digit, ``sign``, ``back``) for the seat it goes to."""
    s = net_focus(draft)
    if s is None:
        raise UnknownAction(action)
    text = draft.nets[s]
    negative, digits = text.startswith("-"), text.lstrip("-")
    if key == "sign":
        negative = not negative
    elif key == "back":
        if digits:
            digits = digits[:-1]
        else:
            negative = False
    else:
        digit = parse_int(key, lo=0, hi=9)
        if digit is None or len(digits) >= NET_DIGITS:
            raise UnknownAction(action)
        digits = str(int(digits + key)) if digits else key
    draft.nets[s] = ("-" if negative else "") + digits
    # the keys stay with this player until another is tapped (a net has several digits)
    draft.focus = f"net:{s}"


def barbu_apply(
    draft: BarbuDraft,
    action: str,
    *,
    contracts: tuple[str, ...] = (),
    seen: BarbuDraft | None = None,
) -> BarbuDraft:
    """Apply one action to the Barbu draft (in place) and return it.

    ``contracts``: the contracts the declarer may name (others are refused). ``seen``: the
    sheet as the phone's screen showed it (the draft itself when not given): a choice tapped
    again is taken back only if the screen showed it chosen. Doubling shortcuts (maximum,
    family) need the rules and are expanded by the page.
    Raises :class:`UnknownAction` for anything the page would not send.
    """
    if seen is None:
        seen = draft.copy()
    n = draft.players
    totals = _totals(n)
    parts = _split(action)
    verb, args = parts[0], parts[1:]
    match verb, args:
        case "contract", [name] if name in BARBU_DATA_KEYS and (not contracts or name in contracts):
            # tapped again: taken back, unless it is the only contract left to name
            draft.contract = None if seen.contract == name and len(contracts) != 1 else name
        case "double", [by, on, level]:
            b, o, lv = _index(by, n), _index(on, n), _index(level, 3)
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
            s = _index(seat, n)
            values = list(draft.count(key))
            values[s] = max(0, min(totals[key], values[s] + int(delta)))
            draft.counts[key] = values
        case "rest", [key, seat] if key in COUNTERS:
            # the rest of the contract's cards go to this seat
            s = _index(seat, n)
            values = list(draft.count(key))
            total = totals[key]
            values[s] = max(0, total - (sum(values) - values[s]))
            draft.counts[key] = values
        case "zero", [key] if key in COUNTERS:
            draft.counts[key] = [0] * n
            draft.typed.pop(key, None)
        case "focus", [key, seat] if key in COUNTERS or key == "net":
            draft.focus = f"{key}:{_index(seat, n)}"
        case "focus", ["suits", seat, suit] if suit in SUITS:
            draft.focus = f"suits:{_index(seat, 4)}:{suit}"
        case "count", [key, number] if key in COUNTERS:
            # the number keys: this count for the seat they go to; once all but one seat are
            # typed, the last has the rest of the total
            total = totals[key]
            value = parse_int(number, lo=0, hi=total)
            s = count_focus(draft, key)
            if value is None or s is None:
                raise UnknownAction(action)
            values = list(draft.count(key))
            values[s] = value
            typed = _typed(draft, key, s)
            _fill(values, typed, total, n)
            draft.counts[key] = values
            following = [r for r in (*range(s + 1, n), *range(s)) if r not in typed]
            filled = _filled(typed, values, total, n)
            draft.focus = f"{key}:{following[0]}" if following and not filled else None
        case "net", [key]:
            _net_key(draft, key, action)
        case "count", ["suits", number]:
            value = parse_int(number, lo=0, hi=13)
            cell = cell_focus(draft)
            if value is None or cell is None:
                raise UnknownAction(action)
            s, k = cell
            draft.suits[s][k] = value
            typed = _typed(draft, f"suits:{SUITS[k]}", s)
            column = _column(draft, k)
            _fill(column, typed, 13)
            for r in range(4):
                draft.suits[r][k] = column[r]
            nxt = _next_cell(draft, s * 4 + k)
            draft.focus = None if nxt is None else f"suits:{nxt[0]}:{SUITS[nxt[1]]}"
        case "doubles", ["open"]:
            draft.doubles_open = True
        case "doubles", ["fold"]:
            draft.doubles_open = False
        case "seat", [key, seat] if key in SEAT_PICKS:
            s = _index(seat, n)
            if seen.seats.get(key) == s:
                draft.seats.pop(key, None)
            else:
                draft.seats[key] = s
        case "last_two", [which, seat]:
            i, s = _index(which, 2), _index(seat, n)
            draft.last_two[i] = None if seen.last_two[i] == s else s
        case "trump", [suit] if suit in SUITS:
            draft.trump = suit  # sets, as Biriba's trump key does: another is another tap
        case "domino", [seat]:
            s = _index(seat, n)
            if s in seen.finish_order:
                # tapping a placed player takes them (and everyone after them) off; the last
                # place, which followed from the one before, stays: a player taps it out of
                # habit (a probe: both went, "Giorgos and Sophie not placed"); tapping the
                # one before takes both off
                if s in draft.finish_order and draft.finish_order.index(s) < n - 1:
                    draft.finish_order = draft.finish_order[: draft.finish_order.index(s)]
            elif s not in draft.finish_order:
                draft.finish_order.append(s)
                if len(draft.finish_order) == n - 1:
                    draft.finish_order += [x for x in range(n) if x not in draft.finish_order]
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


def counter_total(key: str, players: int = barbu_contracts.SEATS) -> int:
    """What the seats of a table of ``players`` take of counter ``key`` in a deal."""
    return _totals(players)[key]
