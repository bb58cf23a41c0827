"""What both pads share: the match scored with the deal in progress in it, the suits as the
pad draws them, a card chip, and the confirmation a correction asks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scorekeeper.entry import drafts as st
from scorekeeper.models import Match
from scorekeeper.rules import incremental
from scorekeeper.rules import match as rules_match
from scorekeeper.rules.errors import RuleError
from scorekeeper.selectors import match_document
from scorekeeper.standing import match_state

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
    """The deal in progress scored in the match, or why the rules refuse it: its score (as
    ``MatchResult.deal_scores`` holds it), the running totals after it, and whether the match
    ends with it (and who wins)."""

    score: dict[str, Any] | None = None
    running: list[int] | None = None
    finished: bool = False
    winner: int | None = None
    error: RuleError | None = None

    @property
    def ok(self) -> bool:
        return self.error is None and self.score is not None


def score_with(match: Match, number: int | None, deal: dict[str, Any]) -> Scored:
    """``deal`` scored as the next deal (``number`` None: against the state the deals so far
    left, kept on the match, so at the same cost at any length) or in place of deal ``number``
    (the whole match scored again with it): nothing is stored."""
    try:
        if number is None:
            step = incremental.score_next(match_state(match), deal)
            now = incremental.standing(step.state)
            return Scored(
                score=step.score,
                running=list(step.state.totals),
                finished=now.finished,
                winner=now.winner,
            )
        document = match_document(match, replace=(number, deal))
        result = rules_match.score_match(rules_match.parse_document(document))
    except RuleError as e:
        return Scored(error=e)
    return Scored(
        score=result.deal_scores[number - 1],
        running=list(result.running[number - 1]),
        finished=result.finished,
        winner=result.winner,
    )


def replacing(number: int | None) -> list[str]:
    """What a player agrees to before a correction is saved."""
    if number is None:
        return []
    return [_("Replace deal %(n)s? The totals after it are worked out again.") % {"n": number}]
