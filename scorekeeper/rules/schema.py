"""Strict reading of JSON values with the path of every error (``deal 2, side 0, hand[3]``).

Game modules read their part of the match document with these helpers; each raises
:class:`RuleError` with ``where`` set to the key or index and ``place`` to the same as values
(``field=key``, or the ``place`` a caller passes for an entry such as ``players[1]``:
``Place(field="players", index=1)``), and callers prefix the outer places with
:meth:`RuleError.at`.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping
from dataclasses import replace
from typing import Any

from .cards import _quote, _type_name
from .errors import OneOf, Place, RuleError, Term, Words


def obj(
    raw: object,
    *,
    allowed: Collection[str],
    required: Collection[str] = (),
    what: str = Words("an object"),
    keys: str | None = None,
) -> Mapping[str, Any]:
    """An object with only ``allowed`` keys and every ``required`` key. ``keys``: the kind of
    :class:`Term` the keys are, where they are names rather than the document's own keys
    (``"option"`` for a rules object, ``"bonus"`` for the bonuses): a page names them so."""
    if not isinstance(raw, dict):
        raise RuleError("bad_type", "expected {what}, got {got}", what=what, got=_type_name(raw))
    for key in raw:
        if key not in allowed:
            raise RuleError(
                "unknown_key",
                "unknown key {key} (expected one of: {allowed})",
                key=_quote(key),
                allowed=OneOf(Term(keys, k) if keys else k for k in sorted(allowed, key=str)),
                where=(str(key),),
                place=Place(field=str(key)),
            )
    for key in required:
        if key not in raw:
            raise RuleError("missing_key", "the required key {key} is missing", key=_quote(key))
    return raw


def _place(key: str, place: Place | None) -> Place:
    """The place of ``key`` as values: the caller's, else the key itself as the field."""
    return Place(field=key) if place is None else place


def integer(
    raw: object,
    key: str,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
    place: Place | None = None,
) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise RuleError(
            "bad_type",
            "expected a whole number, got {got}",
            got=_type_name(raw),
            where=(key,),
            place=_place(key, place),
        )
    if minimum is not None and raw < minimum or maximum is not None and raw > maximum:
        if maximum is None:
            raise RuleError(
                "out_of_range",
                "{value} is too small: the least is {lo}",
                value=raw,
                lo=minimum,
                where=(key,),
                place=_place(key, place),
            )
        if minimum is None:
            raise RuleError(
                "out_of_range",
                "{value} is too large: the most is {hi}",
                value=raw,
                hi=maximum,
                where=(key,),
                place=_place(key, place),
            )
        raise RuleError(
            "out_of_range",
            "{value} is out of range: from {lo} to {hi}",
            value=raw,
            lo=minimum,
            hi=maximum,
            where=(key,),
            place=_place(key, place),
        )
    return raw


def boolean(raw: object, key: str) -> bool:
    if not isinstance(raw, bool):
        raise RuleError(
            "bad_type",
            "expected true or false, got {got}",
            got=_type_name(raw),
            where=(key,),
            place=Place(field=key),
        )
    return raw


def string(
    raw: object,
    key: str,
    *,
    choices: Collection[str] | None = None,
    place: Place | None = None,
    terms: str | None = None,
) -> str:
    """A string, one of ``choices`` if given; ``terms``: the kind of :class:`Term` the choices
    are (an option's key: its values are named by the option's choices)."""
    if not isinstance(raw, str):
        raise RuleError(
            "bad_type",
            "expected a string, got {got}",
            got=_type_name(raw),
            where=(key,),
            place=_place(key, place),
        )
    if choices is not None and raw not in choices:
        raise RuleError(
            "bad_choice",
            "{value} is not one of: {choices}",
            value=_quote(raw),
            choices=OneOf(Term(terms, c) if terms else c for c in choices),
            where=(key,),
            place=_place(key, place),
        )
    return raw


def array(
    raw: object, key: str, *, length: int | None = None, place: Place | None = None
) -> list[Any]:
    if not isinstance(raw, list):
        raise RuleError(
            "bad_type",
            "expected a list, got {got}",
            got=_type_name(raw),
            where=(key,),
            place=_place(key, place),
        )
    if length is not None and len(raw) != length:
        raise RuleError(
            "bad_length",
            "expected {length} entries, got {got}",
            length=length,
            got=len(raw),
            where=(key,),
            place=_place(key, place),
        )
    return raw


def seat(raw: object, key: str, players: int, *, place: Place | None = None) -> int:
    """A seat index 0 .. players-1."""
    return integer(raw, key, minimum=0, maximum=players - 1, place=place)


def int_list(
    raw: object,
    key: str,
    *,
    length: int,
    minimum: int = 0,
    maximum: int | None = None,
    place: Place | None = None,
    per_seat: bool = False,
) -> list[int]:
    """A list of ``length`` whole numbers. An entry's error is at ``key[i]``: ``index=i`` of
    the list's place, or ``seat=i`` when entry i belongs to seat i (``per_seat``)."""
    whole = _place(key, place)
    items = array(raw, key, length=length, place=whole)
    return [
        integer(
            v,
            f"{key}[{i}]",
            minimum=minimum,
            maximum=maximum,
            place=replace(whole, seat=i) if per_seat else replace(whole, index=i),
        )
        for i, v in enumerate(items)
    ]


def encodable(raw: object, *, top: str = "deals") -> None:
    """Every string of a JSON value, keys included, is text that can be written out.

    JSON's ``\\ud800`` escape reads as half of a character (a lone surrogate), which no file,
    page or database can hold. The first one found is refused with its place: the document's
    own keys and indexes (``players[1]``), the entries of ``top`` named as the rules name
    them (``deal 2, sides[0], hand[3]``); a key that holds one is shown escaped.
    """
    try:
        json.dumps(raw, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        pass  # somewhere: find it, with its place
    except (TypeError, ValueError, RecursionError):
        return  # not a JSON value: the strict reading refuses it
    else:
        return
    found = _unencodable(raw, top=top)
    if found is not None:
        where, path, text, is_key = found
        char = next(c for c in text if 0xD800 <= ord(c) <= 0xDFFF)
        if is_key:
            raise RuleError(
                "bad_text",
                "this key holds \\u{hex}, half of a character (a lone surrogate) that cannot "
                "be written out: write the whole character, or remove it",
                hex=f"{ord(char):04X}",
                where=where,
                place=place_of_path(path, top=top),
            )
        raise RuleError(
            "bad_text",
            "this text holds \\u{hex}, half of a character (a lone surrogate) that cannot "
            "be written out: write the whole character, or remove it",
            hex=f"{ord(char):04X}",
            where=where,
            place=place_of_path(path, top=top),
        )


type Path = tuple[str | int, ...]


def _unencodable(raw: object, *, top: str) -> tuple[tuple[str, ...], Path, str, bool] | None:
    """The first string (place in words, its path of keys and indexes, the text, whether it
    is a key) that cannot be written as UTF-8."""
    stack: list[tuple[object, tuple[str, ...], Path]] = [(raw, (), ())]
    while stack:
        value, place, path = stack.pop()
        if isinstance(value, str):
            if not _writable(value):
                return place, path, value, False
        elif isinstance(value, dict):
            items = []
            for key, item in value.items():
                if isinstance(key, str) and not _writable(key):
                    return (*place, json.dumps(key)), (*path, key), key, True
                items.append((item, (*place, str(key)), (*path, str(key))))
            stack.extend(reversed(items))
        elif isinstance(value, list):
            deals = place == (top,)
            stack.extend(
                (item, (f"deal {i + 1}",) if deals else _indexed(place, i), (*path, i))
                for i, item in reversed(list(enumerate(value)))
            )
    return None


#: Barbu contract data holding one entry per seat (entry i is what seat i took).
PER_SEAT_KEYS = frozenset({"tricks", "hearts", "queens", "boys", "suits", "net"})
#: Fields whose keys are names (an option, a bonus kind), not parts of the document.
NAMED_KEYS = frozenset({"rules", "bonuses"})


def place_of_path(path: Path, *, top: str = "deals") -> Place:
    """The :class:`Place` of the value at ``path`` (keys and indexes from the top of a match
    document, or of a draft shaped like one): ``("deals", 1, "sides", 0, "melds", 2, 4)`` is
    ``Place(deal=2, side=0, meld=3, card=4, field="melds")``."""
    fields: dict[str, int | str] = {}
    rest = list(path)
    if len(rest) >= 2 and rest[0] == top and isinstance(rest[1], int):
        fields["deal"] = rest[1] + 1
        rest = rest[2:]
    if len(rest) >= 2 and rest[0] == "sides" and isinstance(rest[1], int):
        fields["side"] = rest[1]
        rest = rest[2:]
    if rest and rest[0] == "totals" and len(rest) > 1:
        rest = rest[1:]  # melded, in_hand, bonuses: each names its own part of the totals
    if not rest:
        return Place(**fields)  # type: ignore[arg-type]
    head, tail = str(rest[0]), rest[1:]
    fields["field"] = head
    numbers = [t for t in tail if isinstance(t, int)]
    names = [t for t in tail if isinstance(t, str)]
    if head == "melds" and numbers:
        fields["meld"] = numbers[0] + 1
        numbers = numbers[1:]
        if numbers:
            fields["card"] = numbers[0]
    elif head == "hand" and numbers:
        fields["card"] = numbers[0]
    elif head in PER_SEAT_KEYS and numbers:
        fields["seat"] = numbers[0]
        if len(numbers) > 1:
            fields["index"] = numbers[1]
    elif numbers:
        fields["index"] = numbers[0]
    if names:
        fields["key"] = names[0]
    return Place(**fields)  # type: ignore[arg-type]


def _indexed(place: tuple[str, ...], i: int) -> tuple[str, ...]:
    """The place of entry ``i`` of the list at ``place``: ``players`` → ``players[1]``."""
    return (*place[:-1], f"{place[-1]}[{i}]") if place else (f"[{i}]",)


def _writable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
