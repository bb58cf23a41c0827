"""Reading what a request carries, strictly: a number is ASCII digits within bounds or nothing.

``str.isdigit()`` accepts ``²`` and ``①``, which ``int()`` then refuses, and ``int()`` accepts
``٣`` (an Arabic-Indic three) and ``" 3 "``: neither is what a page of ours sends. Every number
read from a form, an address or an action goes through :func:`parse_int`.
"""

from __future__ import annotations

import json
import re

from django.utils.translation import gettext, gettext_lazy

__all__ = ["json_problem", "parse_int"]

_DIGITS = re.compile(r"[0-9]{1,18}")  # 18 digits: far beyond any bound, never a slow int()
_SIGNED = re.compile(r"[+-]?[0-9]{1,18}")


def parse_int(text: object, *, lo: int, hi: int, signed: bool = False) -> int | None:
    """``text`` as an int in ``lo..hi``, or None when it is not ASCII digits in that range.

    ``signed``: a leading ``+`` or ``-`` is allowed (``"+1"``, ``"-1"``).
    """
    if not isinstance(text, str):
        return None
    if not (_SIGNED if signed else _DIGITS).fullmatch(text):
        return None
    value = int(text)
    return value if lo <= value <= hi else None


#: What Python's JSON reader says of a text it cannot read (the start of its message), in
#: words a player reads in the page's language.
_JSON_REASONS = {
    "Expecting property name enclosed in double quotes": gettext_lazy(
        "a key must be in double quotes"
    ),
    "Expecting value": gettext_lazy("a value is missing"),
    "Expecting ',' delimiter": gettext_lazy("a comma is missing"),
    "Expecting ':' delimiter": gettext_lazy("a colon is missing"),
    "Unterminated string": gettext_lazy("a text is not closed by its double quote"),
    "Extra data": gettext_lazy("something follows the end of the document"),
    "Invalid control character": gettext_lazy("a text holds a line break or a tab"),
    "Invalid \\escape": gettext_lazy("a backslash is not followed by an escape JSON knows"),
}


def json_problem(error: json.JSONDecodeError) -> str:
    """Where a text is not JSON and why, in the page's language (never Python's English)."""
    reason = next((str(v) for k, v in _JSON_REASONS.items() if error.msg.startswith(k)), "")
    where = {"line": error.lineno, "column": error.colno}
    if reason:
        return gettext("This is not valid JSON (line %(line)s, column %(column)s: %(reason)s).") % {
            **where,
            "reason": reason,
        }
    return gettext("This is not valid JSON (line %(line)s, column %(column)s).") % where
