"""Writing a match's history: one :class:`~scorekeeper.models.MatchChange` per change, in the
transaction of the change (the services call :func:`change_record` after their write, before
they return), so that a change and its record are stored together or not at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection

from scorekeeper.models import Match, MatchChange
from scorekeeper.rules.base import MatchResult

__all__ = ["Actor", "actor_of", "change_record", "deal_points"]


@dataclass(frozen=True)
class Actor:
    """Who makes a change: the name the table knows them by, their account if any, and the
    seat they play in when they said (the confirmation by the other side asks for it)."""

    name: str = ""
    user_id: int | None = None
    seat: int | None = None


def actor_of(by: Actor | str | None) -> Actor:
    """``by`` as an :class:`Actor` (a bare name has no account)."""
    if isinstance(by, Actor):
        return by
    return Actor(name=by or "")


def deal_points(result: MatchResult, number: int) -> list[int]:
    """Deal ``number``'s points per column (side or player), from the running totals."""
    running = result.running
    after = running[number - 1]
    before = running[number - 2] if number >= 2 else [0] * len(after)
    return [a - b for a, b in zip(after, before, strict=True)]


def change_record(
    *,
    match: Match,
    kind: str,
    by: Actor | str | None,
    number: int | None = None,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    points_before: Sequence[int] | None = None,
    points_after: Sequence[int] | None = None,
    detail: dict[str, Any] | None = None,
) -> MatchChange:
    """Record one change of ``match``; only inside the transaction that makes the change."""
    if not connection.in_atomic_block:
        raise RuntimeError("a change is recorded in the transaction that makes it")
    actor = actor_of(by)
    return MatchChange.objects.create(
        match=match,
        kind=MatchChange.Kind(kind),
        by=actor.name,
        by_user_id=actor.user_id,
        number=number,
        before=before,
        after=after,
        points_before=list(points_before) if points_before is not None else None,
        points_after=list(points_after) if points_after is not None else None,
        detail=detail or {},
    )
