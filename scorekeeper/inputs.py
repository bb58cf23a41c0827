"""Reading what a request carries, strictly: a number is ASCII digits within bounds or nothing.

``str.isdigit()`` accepts ``²`` and ``①``, which ``int()`` then refuses, and ``int()`` accepts
``٣`` (an Arabic-Indic three) and ``" 3 "``: neither is what a page of ours sends. Every number
read from a form, an address or an action goes through :func:`parse_int`.
"""

from __future__ import annotations

import re

__all__ = ["parse_int"]

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
