"""What both pads share: the match scored with the deal in progress in it, the suits as the
pad draws them, a card chip, and the confirmation a correction asks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scorekeeper.entry import drafts as st
from scorekeeper.models import Match
from scorekeeper.rules import match as rules_match
from scorekeeper.rules.base import MatchResult
from scorekeeper.rules.errors import RuleError
from scorekeeper.selectors import match_document

SUIT_NAMES = {
    "S": gettext_lazy("spades"),
    "H": gettext_lazy("hearts"),
    "D": gettext_lazy("diamonds"),
    "C": gettext_lazy("clubs"),
}


def suits() -> list[dict[str, Any]]:
    return [
        {
            "code": s,
            "symbol": st.SUIT_SYMBOLS[s],
            "colour": "red" if s in st.RED_SUITS else "black",
            "name": SUIT_NAMES[s],
        }
        for s in st.SUITS
    ]


def chip(card: str, action: str) -> dict[str, str]:
    return {"label": st.card_label(card), "colour": st.card_colour(card), "action": action}


@dataclass
class Scored:
    """The match scored with the deal in progress in it, or why the rules refuse it."""

    result: MatchResult | None = None
    error: RuleError | None = None

    @property
    def ok(self) -> bool:
        return self.error is None and self.result is not None


def score_with(match: Match, number: int | None, deal: dict[str, Any]) -> Scored:
    """The whole match scored with ``deal`` as the next deal (``number`` None) or in place of
    deal ``number``: nothing is stored."""
    if number is None:
        document = match_document(match, append=deal)
    else:
        document = match_document(match, replace=(number, deal))
    try:
        return Scored(result=rules_match.score_match(rules_match.parse_document(document)))
    except RuleError as e:
        return Scored(error=e)


def replacing(number: int | None) -> list[str]:
    """What a player agrees to before a correction is saved."""
    if number is None:
        return []
    return [_("Replace deal %(n)s? The totals after it are worked out again.") % {"n": number}]
