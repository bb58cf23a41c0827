"""Reading a match's history."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.core.paginator import Page, Paginator
from django.db.models import Q

from scorekeeper.models import Match, MatchChange

#: The changes "Undo" takes back: a deal entered, corrected, deleted or restored, and a swap
#: of two Barbu deals' contracts (both at once).
UNDOABLE = (
    MatchChange.Kind.ENTERED,
    MatchChange.Kind.CORRECTED,
    MatchChange.Kind.DELETED,
    MatchChange.Kind.RESTORED,
    MatchChange.Kind.SWAPPED,
)
#: The history's changes to a page.
PAGE_SIZE = 25
#: The largest id a change may have (a bigint): anything beyond is no change of ours.
CHANGE_ID_MAX = 2**63 - 1


def change_undoable(match: Match) -> MatchChange | None:
    """The change "Undo" would take back: the match's newest change to a deal made here (a
    change that came in with an imported document was made elsewhere: nothing to undo)."""
    changes = match.changes.filter(kind__in=UNDOABLE, detail__imported__isnull=True)
    return changes.order_by("-id").first()


def history_page(match: Match, number: int | None) -> Page:
    """Page ``number`` (from 1) of the match's changes, newest first: a number that is no page
    is the first page, one past the end the last (two queries: the count and the page)."""
    changes = match.changes.order_by("-id")
    return Paginator(changes, PAGE_SIZE).get_page(number)


def change_get(match: Match, change: int) -> MatchChange | None:
    """The change ``change`` of ``match``, or None (none such, or another match's)."""
    if not 0 < change <= CHANGE_ID_MAX:
        return None
    return match.changes.filter(pk=change).first()


@dataclass(frozen=True)
class Related:
    """What the changes shown need of the others: the change each undo took back, by id, and
    the deletions that have been restored since (by id)."""

    undone: dict[int, MatchChange]
    restored: frozenset[int]


def changes_related(match: Match, changes: Sequence[MatchChange]) -> Related:
    """:class:`Related` for ``changes`` (a page of them): one query at most, whatever their
    number."""
    undo_of = {c.detail.get("undo_of") for c in changes if isinstance(c.detail, dict)}
    undo_of = {pk for pk in undo_of if isinstance(pk, int)}
    deleted = [c.pk for c in changes if c.kind == MatchChange.Kind.DELETED]
    if not undo_of and not deleted:
        return Related(undone={}, restored=frozenset())
    wanted = Q(pk__in=sorted(undo_of)) | Q(
        kind=MatchChange.Kind.RESTORED, detail__restores__in=deleted
    )
    undone: dict[int, MatchChange] = {}
    restored: set[int] = set()
    rows = match.changes.filter(wanted).only("id", "kind", "number", "detail")
    for row in rows:
        if row.pk in undo_of:
            undone[row.pk] = row
        restores = row.detail.get("restores") if isinstance(row.detail, dict) else None
        if row.kind == MatchChange.Kind.RESTORED and restores in deleted:
            restored.add(restores)
    return Related(undone=undone, restored=frozenset(restored))
