"""The two secrets of a share link: a token for the address and the QR code, and a short code
to read across a table and type at ``/join/``.

The code's alphabet has no character that reads as another: no 0/O, no 1/I/L, so 31
characters (the digits 2-9 and 23 capitals). Ten of them, shown as two groups of five
("K7PMQ-2XRZT", the way product keys are written), make 31¹⁰ ≈ 8.2 × 10¹⁴ codes (49 bits).
With wrong tries limited per address (:mod:`scorekeeper.sharing.tries`: 20 an hour), one
address finding any one of even 100,000 live codes would take about 47,000 years of trying on
average, ten thousand addresses together about five years; the token (128 bits) is beyond any
guessing.
"""

from __future__ import annotations

import secrets
import unicodedata

#: Digits and capitals without 0, O, 1, I and L.
ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 10
#: How the code is shown: groups of this many, joined by a hyphen.
GROUP = 5
#: What a typed code may hold besides its characters: spaces and hyphens between groups.
_SEPARATORS = str.maketrans("", "", " -\u2010\u2011\u2012\u2013\u2014\u2212_.")


def token_new() -> str:
    """A link's token: 16 random bytes, URL-safe (22 characters)."""
    return secrets.token_urlsafe(16)


def code_new() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def code_shown(code: str) -> str:
    """``K7PMQ2XRZT`` → ``K7PMQ-2XRZT``."""
    return "-".join(code[i : i + GROUP] for i in range(0, len(code), GROUP))


def code_read(text: object) -> str | None:
    """A code as typed (any case, fullwidth forms, spaces or hyphens between groups) → the
    code as stored, or None when it cannot be one (wrong length, a character not in the
    alphabet: a 0, an O, a 1, an I or an L is never part of a code)."""
    if not isinstance(text, str) or len(text) > 4 * CODE_LENGTH:
        return None
    code = unicodedata.normalize("NFKC", text).translate(_SEPARATORS).upper()
    if len(code) != CODE_LENGTH or any(c not in ALPHABET for c in code):
        return None
    return code
