"""What both pads share: the match scored with the deal in progress in it (the totals, as the
scoreboard's, without the deals waiting for the other side or rejected by it), the suits as
the pad draws them, a card chip, and the confirmation a correction asks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from scorekeeper.confirmation.selectors import left_out
from scorekeeper.entry import drafts as st
from scorekeeper.models import Deal, Match
from scorekeeper.rules import incremental
from scorekeeper.rules.errors import RuleError
from scorekeeper.standing import match_state, state_after

SUIT_NAMES = {
    "S": pgettext_lazy("suit", "spades"),
    "H": pgettext_lazy("suit", "hearts"),
    "D": pgettext_lazy("suit", "diamonds"),
    "C": pgettext_lazy("suit", "clubs"),
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
    ends with it (and who wins). Under the confirmation by the other side the running totals
    leave out the deals before it not accepted yet, as the scoreboard's do, and while any is
    left out the match does not end with it (accepting them may end it)."""

    score: dict[str, Any] | None = None
    running: list[int] | None = None
    finished: bool = False
    winner: int | None = None
    error: RuleError | None = None

    @property
    def ok(self) -> bool:
        return self.error is None and self.score is not None


def score_with(
    match: Match,
    number: int | None,
    deal: dict[str, Any],
    *,
    document: dict[str, Any] | None = None,
) -> Scored:
    """``deal`` scored as the next deal (``number`` None: against the state the deals so far
    left, kept on the match, so at the same cost at any length) or in place of deal ``number``
    (from the state kept on the deal before it, with the deals after it: never those before;
    ``document``: the match's document, when the caller has read it): nothing is stored."""
    try:
        if number is None:
            step = incremental.score_next(match_state(match), deal)
            steps = [step]
        else:
            if document is not None:
                later = document["deals"][number:]
            else:
                later = list(
                    Deal.objects.filter(match=match, number__gt=number)
                    .order_by("number")
                    .values_list("data", flat=True)
                )
            steps = incremental.score_deals(state_after(match, number - 1), [deal, *later])
            step = steps[0]
        now = incremental.standing(steps[-1].state)
    except RuleError as e:
        return Scored(error=e)
    running = list(step.state.totals)
    skip = left_out(match, before=number)
    if skip is not None:
        running = [r - s for r, s in zip(running, skip, strict=True)]
        return Scored(score=step.score, running=running)
    return Scored(score=step.score, running=running, finished=now.finished, winner=now.winner)


def counted_totals(match: Match, number: int | None) -> list[int]:
    """The match totals before the next deal (``number`` None) or before deal ``number``, as
    the scoreboard counts them: without the deals waiting for the other side or rejected."""
    state = match_state(match) if number is None else state_after(match, number - 1)
    totals = list(state.totals)
    skip = left_out(match, before=number)
    if skip is None:
        return totals
    return [t - s for t, s in zip(totals, skip, strict=True)]


def replacing(number: int | None) -> list[str]:
    """What a player agrees to before a correction is saved."""
    if number is None:
        return []
    return [_("Replace deal %(n)s? The totals after it are worked out again.") % {"n": number}]
