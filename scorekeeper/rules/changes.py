"""The match's history in the document: the optional top-level ``changes`` list.

Each entry is one change to the match as the table made it (a deal entered, corrected,
deleted, restored; a co-scorer joined or removed; a link made anew; the match finished or
going on again), oldest first: when (``at``, UTC), who (``by``, a name), what (``kind``) and,
for a deal, the deal before and after with its points per column. References between changes
(``undo_of``, ``restores``) are indexes into the list, counted from 0, and point back only.

The history is read strictly (the kinds and keys of ``scorekeeper-match/1`` and no others) and
written back as it was read, keys in :data:`KEY_ORDER`, ``at`` canonical. Scoring never looks
at it: a deal in ``before`` or ``after`` was judged when the change was made, and is kept as
written. Refusals name the change: ``changes[3], at: ...`` (``Place(field="changes",
index=3, key="at")``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from . import schema
from .base import MatchHeader
from .cards import _quote, _type_name
from .errors import Place, RuleError, Words

#: The kinds of change of format version 1, as the site's history names them.
KINDS = (
    "entered",
    "corrected",
    "deleted",
    "restored",
    "confirmed",
    "rejected",
    "swapped",
    "joined",
    "removed",
    "link",
    "finished",
    "reopened",
)

#: Every key a change may hold, in the order a change is written.
KEY_ORDER = (
    "at",
    "by",
    "kind",
    "deal",
    "other_deal",
    "before",
    "after",
    "points_before",
    "points_after",
    "member",
    "link",
    "winner",
    "totals",
    "reason",
    "on_behalf",
    "undo_of",
    "restores",
)

#: The keys every change has (``by`` may be left out: nobody named, written ``""``).
COMMON_KEYS = ("at", "by", "kind")

_DEAL_DATA = ("before", "after", "points_before", "points_after")

#: Each kind: the keys it must carry and those it may carry, beside :data:`COMMON_KEYS`.
KIND_KEYS: Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "entered": (("deal", "after"), ("points_after",)),
    "corrected": (("deal", "before", "after"), ("points_before", "points_after", "undo_of")),
    "deleted": (("deal", "before"), ("points_before", "undo_of")),
    "restored": (("deal", "after", "restores"), ("points_after", "undo_of")),
    "confirmed": (("deal",), (*_DEAL_DATA, "on_behalf")),
    "rejected": (("deal",), (*_DEAL_DATA, "reason", "on_behalf")),
    "swapped": (("deal",), ("other_deal", *_DEAL_DATA, "undo_of")),
    "joined": (("member",), ()),
    "removed": (("member",), ()),
    "link": (("link",), ()),
    "finished": (("winner", "totals"), ()),
    "reopened": (("winner", "totals"), ()),
}

#: The changes an undo takes back, and so the kinds ``undo_of`` may point at.
UNDOABLE = ("entered", "corrected", "deleted", "restored", "swapped")
#: The links a change of kind ``link`` makes anew.
LINKS = ("score", "watch")

#: Bounds of what a change holds: a name as long as an account's, a reason of a few lines,
#: deal numbers and points far beyond any match.
NAME_MAX = 150
REASON_MAX = 1000
DEAL_MAX = 1_000_000
POINTS_MAX = 10**12

_MOMENT = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]{1,6}))?Z"
)


def moment_of(text: str) -> datetime | None:
    """``2026-12-01T20:14:03Z`` (or with up to six decimals of a second) as a UTC datetime;
    None if it is not one."""
    found = _MOMENT.fullmatch(text)
    if found is None:
        return None
    *parts, fraction = found.groups()
    micro = int((fraction or "").ljust(6, "0"))
    try:
        return datetime(*(int(p) for p in parts), micro, tzinfo=UTC)  # type: ignore[misc]
    except ValueError:
        return None  # no such day or time (2026-02-30, 24:00:00, a leap second)


def moment_text(moment: datetime) -> str:
    """A datetime as ``at`` writes it: UTC, to the second, with six decimals when they are not
    all zero (a naive datetime is taken as UTC)."""
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    moment = moment.replace(tzinfo=None)
    return moment.isoformat(timespec="microseconds" if moment.microsecond else "seconds") + "Z"


def parse_changes(raw: object, header: MatchHeader) -> tuple[dict[str, Any], ...]:
    """The ``changes`` list read strictly, each change as it is written back (keys in
    :data:`KEY_ORDER`, ``at`` canonical). Raises :class:`RuleError` naming the change."""
    items = schema.array(raw, "changes")
    out: list[dict[str, Any]] = []
    for i, item in enumerate(items):
        try:
            out.append(_change(item, i, header, out))
        except RuleError as e:
            raise e.under("changes", f"changes[{i}]", index=i) from None
    return tuple(out)


def _change(
    raw: object, index: int, header: MatchHeader, earlier: list[dict[str, Any]]
) -> dict[str, Any]:
    what = Words("a change (an object with at, by, kind)")
    if not isinstance(raw, dict) or "kind" not in raw:
        schema.obj(raw, allowed=KEY_ORDER, required=("at", "kind"), what=what)
    kind = schema.string(raw["kind"], "kind", choices=KINDS)  # type: ignore[index]
    required, optional = KIND_KEYS[kind]
    entry = schema.obj(
        raw,
        allowed=(*COMMON_KEYS, *required, *optional),
        required=("at", "kind", *required),
        what=what,
    )
    out: dict[str, Any] = {}
    for key in KEY_ORDER:
        if key == "by":
            out["by"] = _text(entry.get("by", ""), "by", limit=NAME_MAX)
        elif key in entry:
            out[key] = _read(key, entry[key], index=index, header=header, earlier=earlier)
    return out


def _read(
    key: str, raw: object, *, index: int, header: MatchHeader, earlier: list[dict[str, Any]]
) -> Any:
    if key == "at":
        return _moment(raw)
    if key == "kind":
        return raw
    if key in ("deal", "other_deal"):
        return schema.integer(raw, key, minimum=1, maximum=DEAL_MAX)
    if key in ("before", "after"):
        return _deal(raw, key)
    if key in ("points_before", "points_after", "totals"):
        return _points(raw, key, header)
    if key == "member":
        return _text(raw, key, limit=NAME_MAX, empty=False)
    if key == "link":
        return schema.string(raw, key, choices=LINKS)
    if key == "winner":
        return None if raw is None else schema.seat(raw, key, header.seats)
    if key == "reason":
        return _text(raw, key, limit=REASON_MAX)
    if key == "on_behalf":  # the owner accepted or rejected for the other side
        return schema.boolean(raw, key)
    if key == "undo_of":
        return _reference(raw, key, index, earlier, UNDOABLE, Words("a change to a deal"))
    if key == "restores":
        return _reference(raw, key, index, earlier, ("deleted",), Words("a deal deleted"))
    raise AssertionError(key)  # pragma: no cover - every key of KEY_ORDER is read above


def _moment(raw: object) -> str:
    text = schema.string(raw, "at")
    moment = moment_of(text)
    if moment is None:
        raise RuleError(
            "bad_moment",
            "{value} is not a moment in UTC written as 2026-12-01T20:14:03Z (a second may "
            "have up to six decimals)",
            value=_quote(text),
            where=("at",),
            place=Place(field="at"),
        )
    return moment_text(moment)


def _text(raw: object, key: str, *, limit: int, empty: bool = True) -> str:
    text = schema.string(raw, key)
    if not empty and not text.strip():
        raise RuleError(
            "empty_name", "a name may not be empty", where=(key,), place=Place(field=key)
        )
    if len(text) > limit:
        raise RuleError(
            "text_too_long",
            "at most {limit} characters, got {got}",
            limit=limit,
            got=len(text),
            where=(key,),
            place=Place(field=key),
        )
    return text


def _deal(raw: object, key: str) -> dict[str, Any]:
    """A deal as the document writes it, kept as written: an object of JSON values."""
    if not isinstance(raw, dict):
        raise RuleError(
            "bad_type",
            "expected a deal as the document writes it (an object), got {got}",
            got=_type_name(raw),
            where=(key,),
            place=Place(field=key),
        )
    try:
        text = json.dumps(raw, allow_nan=False, ensure_ascii=False)
    except ValueError:
        raise RuleError(
            "bad_number",
            "this deal holds a number JSON cannot write (NaN or Infinity)",
            where=(key,),
            place=Place(field=key),
        ) from None
    except (TypeError, RecursionError):
        raise RuleError(
            "bad_type",
            "this deal holds something that is not a JSON value",
            where=(key,),
            place=Place(field=key),
        ) from None
    return json.loads(text)  # a copy of its own


def _points(raw: object, key: str, header: MatchHeader) -> list[int]:
    """One whole number per column (side or player), as ``totals`` counts them."""
    whole = Place(field=key)
    items = schema.array(raw, key)
    if not 1 <= len(items) <= header.seats:
        raise RuleError(
            "bad_length",
            "expected one number per side or player (1 to {most}), got {got}",
            most=header.seats,
            got=len(items),
            where=(key,),
            place=whole,
        )
    return [
        schema.integer(v, f"{key}[{j}]", minimum=-POINTS_MAX, maximum=POINTS_MAX, place=whole)
        for j, v in enumerate(items)
    ]


def _reference(
    raw: object,
    key: str,
    index: int,
    earlier: list[dict[str, Any]],
    kinds: tuple[str, ...],
    want: str,
) -> int:
    """The index of an earlier change of one of ``kinds``."""
    if index == 0:
        raise RuleError(
            "no_earlier_change",
            "the first change cannot refer to another: there is none before it",
            where=(key,),
            place=Place(field=key),
        )
    target = schema.integer(raw, key, minimum=0, maximum=index - 1)
    kind = earlier[target]["kind"]
    if kind not in kinds:
        raise RuleError(
            "bad_reference",
            "change {number} is a change of kind {kind}, not {want}",
            target=target,
            number=target + 1,
            kind=_quote(kind),
            want=want,
            where=(key,),
            place=Place(field=key),
        )
    return target
