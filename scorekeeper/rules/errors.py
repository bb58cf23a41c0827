"""One exception type for every rule violation, and a notice type for warnings.

Each carries a stable ``code`` (for tests, forms and translations), an English ``template``
with ``{named}`` placeholders, its ``params`` and ``where``: the place it concerns, most
general first (``("deal 3", "Anna & Chris", "meld 2 (5C 6C JK 2D)")``). A translation layer
replaces the template by code; nothing else in the text is fixed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


def join_where(where: tuple[str, ...]) -> str:
    """``("deal 2", "side 0", "hand", "[3]")`` → ``deal 2, side 0, hand[3]``."""
    out = ""
    for piece in where:
        if out and not piece.startswith("["):
            out += ", "
        out += piece
    return out


def _render(where: tuple[str, ...], template: str, params: Mapping[str, Any]) -> str:
    text = template.format(**params) if params else template
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
        return self.template.format(**self.params) if self.params else self.template

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

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "where": list(self.where), "message": self.message}


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

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "where": list(self.where), "message": self.message}
