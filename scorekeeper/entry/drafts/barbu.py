"""The Barbu sheet (:class:`BarbuDraft`): the contract, the doubles, the counts as typed, and
what follows from them (the count or net the zero sum gives, where the number keys go next).
The sheet's keys are :mod:`~scorekeeper.entry.drafts.barbu_keys`."""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.entry.drafts.common import (
    SUITS,
    VERSION,
    _int,
    _json_object,
    _same,
    _seat,
    _strict_object,
)
from scorekeeper.inputs import parse_int
from scorekeeper.rules.barbu import contracts as barbu_contracts

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


def counter_total(key: str, players: int = barbu_contracts.SEATS) -> int:
    """What the seats of a table of ``players`` take of counter ``key`` in a deal."""
    return _totals(players)[key]
