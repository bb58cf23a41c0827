"""Reading a match's history."""

from __future__ import annotations

from scorekeeper.models import Match, MatchChange

#: The changes "Undo" takes back: a deal entered, corrected, deleted or restored.
UNDOABLE = (
    MatchChange.Kind.ENTERED,
    MatchChange.Kind.CORRECTED,
    MatchChange.Kind.DELETED,
    MatchChange.Kind.RESTORED,
)


def change_undoable(match: Match) -> MatchChange | None:
    """The change "Undo" would take back: the match's newest change to a deal."""
    return match.changes.filter(kind__in=UNDOABLE).order_by("-id").first()
