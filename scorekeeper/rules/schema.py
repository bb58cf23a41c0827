"""Strict reading of JSON values with the path of every error (``deal 2, side 0, hand[3]``).

Game modules read their part of the match document with these helpers; each raises
:class:`RuleError` with ``where`` set to the key or index, and callers prefix the outer
places with :meth:`RuleError.at`.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping
from typing import Any

from .cards import _quote, _type_name
from .errors import RuleError


def obj(
    raw: object,
    *,
    allowed: Collection[str],
    required: Collection[str] = (),
    what: str = "an object",
) -> Mapping[str, Any]:
    """An object with only ``allowed`` keys and every ``required`` key."""
    if not isinstance(raw, dict):
        raise RuleError("bad_type", "expected {what}, got {got}", what=what, got=_type_name(raw))
    for key in raw:
        if key not in allowed:
            raise RuleError(
                "unknown_key",
                "unknown key {key} (expected one of: {allowed})",
                key=_quote(key),
                allowed=", ".join(sorted(allowed)),
                where=(str(key),),
            )
    for key in required:
        if key not in raw:
            raise RuleError("missing_key", "the required key {key} is missing", key=_quote(key))
    return raw


def integer(
    raw: object, key: str, *, minimum: int | None = None, maximum: int | None = None
) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise RuleError(
            "bad_type", "expected a whole number, got {got}", got=_type_name(raw), where=(key,)
        )
    if minimum is not None and raw < minimum or maximum is not None and raw > maximum:
        lo = "" if minimum is None else str(minimum)
        hi = "" if maximum is None else str(maximum)
        raise RuleError(
            "out_of_range",
            "{value} is out of range ({lo}..{hi})",
            value=raw,
            lo=lo,
            hi=hi,
            where=(key,),
        )
    return raw


def boolean(raw: object, key: str) -> bool:
    if not isinstance(raw, bool):
        raise RuleError(
            "bad_type", "expected true or false, got {got}", got=_type_name(raw), where=(key,)
        )
    return raw


def string(raw: object, key: str, *, choices: Collection[str] | None = None) -> str:
    if not isinstance(raw, str):
        raise RuleError(
            "bad_type", "expected a string, got {got}", got=_type_name(raw), where=(key,)
        )
    if choices is not None and raw not in choices:
        raise RuleError(
            "bad_choice",
            "{value} is not one of: {choices}",
            value=_quote(raw),
            choices=", ".join(choices),
            where=(key,),
        )
    return raw


def array(raw: object, key: str, *, length: int | None = None) -> list[Any]:
    if not isinstance(raw, list):
        raise RuleError("bad_type", "expected a list, got {got}", got=_type_name(raw), where=(key,))
    if length is not None and len(raw) != length:
        raise RuleError(
            "bad_length",
            "expected {length} entries, got {got}",
            length=length,
            got=len(raw),
            where=(key,),
        )
    return raw


def seat(raw: object, key: str, players: int) -> int:
    """A seat index 0 .. players-1."""
    return integer(raw, key, minimum=0, maximum=players - 1)


def int_list(
    raw: object, key: str, *, length: int, minimum: int = 0, maximum: int | None = None
) -> list[int]:
    items = array(raw, key, length=length)
    return [
        integer(v, f"{key}[{i}]", minimum=minimum, maximum=maximum) for i, v in enumerate(items)
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
    found = _unencodable(raw, (), top=top)
    if found is not None:
        where, text, is_key = found
        char = next(c for c in text if 0xD800 <= ord(c) <= 0xDFFF)
        raise RuleError(
            "bad_text",
            "this {what} holds \\u{hex}, half of a character (a lone surrogate) that cannot "
            "be written out: write the whole character, or remove it",
            what="key" if is_key else "text",
            hex=f"{ord(char):04X}",
            where=where,
        )


def _unencodable(
    raw: object, where: tuple[str, ...], *, top: str
) -> tuple[tuple[str, ...], str, bool] | None:
    """The first string (place, text, whether it is a key) that cannot be written as UTF-8."""
    stack: list[tuple[object, tuple[str, ...]]] = [(raw, where)]
    while stack:
        value, place = stack.pop()
        if isinstance(value, str):
            if not _writable(value):
                return place, value, False
        elif isinstance(value, dict):
            items = []
            for key, item in value.items():
                if isinstance(key, str) and not _writable(key):
                    return (*place, json.dumps(key)), key, True
                items.append((item, (*place, str(key))))
            stack.extend(reversed(items))
        elif isinstance(value, list):
            deals = place == (top,)
            stack.extend(
                (item, (f"deal {i + 1}",) if deals else _indexed(place, i))
                for i, item in reversed(list(enumerate(value)))
            )
    return None


def _indexed(place: tuple[str, ...], i: int) -> tuple[str, ...]:
    """The place of entry ``i`` of the list at ``place``: ``players`` → ``players[1]``."""
    return (*place[:-1], f"{place[-1]}[{i}]") if place else (f"[{i}]",)


def _writable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
