"""One side of a rummy deal (Biriba, Burraco) as tapped so far: its melds, its hand, its totals,
and where this phone's next tap on it goes (:class:`SideDraft`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from scorekeeper.entry.drafts.common import (
    BONUS_KINDS,
    JOKER,
    MAX_CARDS,
    MAX_DIGITS,
    MAX_MELD_ID,
    MAX_MELDS,
    MAX_NUMBER,
    NEW_MELD,
    RANKS,
    _cards,
    _int,
    _meld_id,
    is_card,
)

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
