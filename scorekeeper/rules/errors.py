"""One exception type for every rule violation, and a notice type for warnings.

Each carries a stable ``code`` (for tests, forms and translations), an English ``template``
with ``{named}`` placeholders, its ``params`` and ``where``: the place it concerns, most
general first (``("deal 3", "Anna & Chris", "meld 2 (5C 6C JK 2D)")``). A translation layer
replaces the template by code; nothing else in the text is fixed.

A message may quote what it refuses (a key, a name, a meld's cards), and what it refuses may be
a megabyte long or hold text that cannot be written out: every parameter and every place is
shown through :func:`excerpt`, the one place that bounds what a message quotes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

#: The most characters a message shows of one parameter or one place (``meld 1 (AD 2D …)``):
#: room for the longest list of choices a message names, far less than a hostile input.
EXCERPT_MAX = 200
_ELLIPSIS = "…"
_CLOSING = {'"': '"', "'": "'", ")": "(", "]": "["}


def excerpt(value: object, limit: int = EXCERPT_MAX) -> str:
    """``value`` as text fit for a message: at most ``limit`` characters, the cut marked with
    ``…`` (a quoted value keeps its closing quote, a bracket its bracket), and a character that
    cannot be written out (a lone surrogate such as ``\\ud800``) shown as its escape."""
    text = value if isinstance(value, str) else str(value)
    cut = len(text) > limit
    # a quoted value, or a place such as "meld 1 (AD 2D …)", keeps its closing mark
    opening = _CLOSING.get(text[-1]) if cut else None
    quote = text[-1] if opening is not None and opening in text[: limit - 1] else ""
    if cut:
        text = text[:limit]
    if not text.isascii():
        text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    if cut or len(text) > limit:
        text = text[: max(limit - 1 - len(quote), 0)] + _ELLIPSIS + quote
    return text


def shown_where(where: tuple[str, ...]) -> tuple[str, ...]:
    """The places as a message shows them (each cut to an excerpt)."""
    return tuple(excerpt(piece) for piece in where)


def join_where(where: tuple[str, ...]) -> str:
    """``("deal 2", "side 0", "hand", "[3]")`` → ``deal 2, side 0, hand[3]``."""
    out = ""
    for piece in shown_where(where):
        if out and not piece.startswith("["):
            out += ", "
        out += piece
    return out


def _format(template: str, params: Mapping[str, Any]) -> str:
    if not params:
        return template
    return template.format(**{key: excerpt(value) for key, value in params.items()})


def _render(where: tuple[str, ...], template: str, params: Mapping[str, Any]) -> str:
    text = _format(template, params)
    return f"{join_where(where)}: {text}" if where else text


class RuleError(ValueError):
    """Something that cannot have happened under the rules, or a document that is malformed."""

    def __init__(self, code: str, template: str, *, where: tuple[str, ...] = (), **params: Any):
        self.code = code
        self.template = template
        self.where = tuple(where)
        self.params = params
        super().__init__(self.message)

    @property
    def text(self) -> str:
        """The rule alone, without the place."""
        return _format(self.template, self.params)

    @property
    def message(self) -> str:
        return _render(self.where, self.template, self.params)

    def at(self, *where: str) -> RuleError:
        """Prefix the place (outer callers add the deal, the side, ...). Returns self."""
        self.where = tuple(w for w in where if w) + self.where
        self.args = (self.message,)
        return self

    def __str__(self) -> str:
        return self.message

    @property
    def shown_where(self) -> tuple[str, ...]:
        """The places as the message shows them (each an excerpt)."""
        return shown_where(self.where)

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "where": list(self.shown_where), "message": self.message}


@dataclass(frozen=True)
class Notice:
    """A warning that does not refuse the document (e.g. Barbu ``compulsory_doubles: warn``)."""

    code: str
    template: str
    where: tuple[str, ...] = ()
    params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def message(self) -> str:
        return _render(self.where, self.template, self.params)

    def __str__(self) -> str:
        return self.message

    @property
    def shown_where(self) -> tuple[str, ...]:
        """The places as the message shows them (each an excerpt)."""
        return shown_where(self.where)

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "where": list(self.shown_where), "message": self.message}
