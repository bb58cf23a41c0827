"""The Barbu sheet's keys: :func:`barbu_apply`, one key's action applied to the sheet."""

from __future__ import annotations

from scorekeeper.entry.drafts.barbu import (
    BARBU_DATA_KEYS,
    COUNTERS,
    NET_DIGITS,
    SEAT_PICKS,
    BarbuDraft,
    _column,
    _fill,
    _filled,
    _next_cell,
    _totals,
    cell_focus,
    count_focus,
    net_focus,
)
from scorekeeper.entry.drafts.common import (
    SUITS,
    UnknownAction,
    _index,
    _split,
)
from scorekeeper.inputs import parse_int


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
