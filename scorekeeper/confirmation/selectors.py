"""Reading where the deals stand under the confirmation by the other side: which deals the
totals leave out, who may accept or reject a waiting deal, and whom it waits for.

Nothing here scores: the totals that leave the waiting and rejected deals out are the rules
core's result with those deals' points taken away (:func:`counted_result`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Sequence
from enum import StrEnum

from scorekeeper.history.record import Actor
from scorekeeper.models import Deal, Match
from scorekeeper.rules.base import MatchHeader, MatchResult
from scorekeeper.selectors import match_scored

__all__ = [
    "Right",
    "counted_result",
    "left_out",
    "on_save",
    "review_right",
    "seats_taken",
    "uncounted",
    "waiting_for",
]


class Right(StrEnum):
    """Why someone may accept or reject a waiting deal: they play on another side, or they
    are the owner acting on behalf of a table that has one phone."""

    SIDE = "side"
    BEHALF = "behalf"


def uncounted(match: Match) -> set[int]:
    """The numbers of the deals the totals leave out: those waiting for the other side, or
    rejected by it (from the match's prefetched deals: no query when they are loaded)."""
    if not match.confirmation:
        return set()
    return {deal.number for deal in match.deals.all() if deal.status != Deal.Status.COUNTED}


def left_out(match: Match, *, before: int | None = None) -> list[int] | None:
    """What the deals the totals leave out (waiting for the other side, or rejected by it)
    bring per column (side or player): those numbered before ``before``, every one when
    ``before`` is None. None when the totals leave none of them out.

    Read from each deal's kept running totals (``Deal.running``): from the match's prefetched
    deals, else in two small queries whatever the match's length; the match is scored whole
    only when one of them was stored before its running totals were kept."""
    if not match.confirmation:
        return None
    if "deals" in getattr(match, "_prefetched_objects_cache", {}):
        deals = list(match.deals.all())
        numbers = [d.number for d in deals if d.status != Deal.Status.COUNTED]
        running = {d.number: d.running for d in deals}
    else:
        out = Deal.objects.filter(match=match).exclude(status=Deal.Status.COUNTED)
        if before is not None:
            out = out.filter(number__lt=before)
        numbers = list(out.values_list("number", flat=True))
        wanted = {n for n in numbers} | {n - 1 for n in numbers}
        kept = Deal.objects.filter(match=match, number__in=wanted)
        running = dict(kept.values_list("number", "running")) if numbers else {}
    numbers = sorted(n for n in numbers if before is None or n < before)
    if not numbers:
        return None
    if any(running.get(n) is None for n in numbers) or any(
        running.get(n - 1) is None for n in numbers if n > 1
    ):
        _, result, _ = match_scored(match)  # stored before running totals were kept
        running = {n: list(r) for n, r in enumerate(result.running, start=1)}
    width = len(running[numbers[0]])
    total = [0] * width
    for n in numbers:
        previous = running[n - 1] if n > 1 else [0] * width
        total = [t + a - p for t, a, p in zip(total, running[n], previous, strict=True)]
    return total


def counted_result(result: MatchResult, skip: Collection[int]) -> MatchResult:
    """``result`` with deals ``skip`` (counted from 1) left out of the totals and the running
    totals: each left-out deal adds nothing. While any deal is left out the match is not
    finished (accepting it may finish it) and has no winner."""
    if not skip:
        return result
    running: list[list[int]] = []
    previous = [0] * len(result.totals)
    now = list(previous)
    for number, after in enumerate(result.running, start=1):
        if number not in skip:
            now = [n + a - p for n, a, p in zip(now, after, previous, strict=True)]
        running.append(list(now))
        previous = after
    left_out = [t - r for t, r in zip(result.totals, previous, strict=True)]
    totals = [n + extra for n, extra in zip(now, left_out, strict=True)]
    return dataclasses.replace(result, totals=totals, running=running, finished=False, winner=None)


def _side(header: MatchHeader, seat: int) -> int:
    return header.side_of_seat(seat) if 0 <= seat < header.seats else -1


def review_right(header: MatchHeader, deal: Deal, actor: Actor, *, is_owner: bool) -> Right | None:
    """Whether ``actor`` may accept or reject ``deal`` (waiting), and why: a player of another
    side than whoever saved it (in Barbu, any other player); a player who said no seat may
    review a deal saved by someone else who said none either; the owner always, on behalf."""
    if deal.status != Deal.Status.WAITING:
        return None
    if actor.seat is not None and deal.saved_seat is not None:
        if _side(header, actor.seat) != _side(header, deal.saved_seat):
            return Right.SIDE
    elif actor.seat is not None and deal.saved_by != actor.name:
        return Right.SIDE
    return Right.BEHALF if is_owner else None


def waiting_for(header: MatchHeader, deal: Deal) -> list[str]:
    """Whom ``deal`` waits for, by name: the players of the other sides than whoever saved
    it; everyone when they said no seat."""
    saved = deal.saved_seat
    if saved is None or not 0 <= saved < header.seats:
        return list(header.players)
    side = _side(header, saved)
    return [name for seat, name in enumerate(header.players) if _side(header, seat) != side]


def seats_taken(match: Match, *, but: Sequence[int | None] = ()) -> dict[int, str]:
    """The seats someone said they play in, with who said it (the owner, each co-scorer not
    removed), leaving out the ids in ``but`` (a co-scorer's own, ``None`` for the owner's)."""
    taken: dict[int, str] = {}
    if match.owner_seat is not None and None not in but:
        taken[match.owner_seat] = match.owner.get_username()
    for member in match.members.filter(removed__isnull=True, seat__isnull=False):
        if member.pk not in but:
            taken[member.seat] = member.name
    return taken


def on_save(match: Match, actor: Actor) -> dict[str, object]:
    """Where a deal stands once ``actor`` saves it (entered, corrected or put back): waiting
    for the other side when the match asks for confirmation, counted otherwise."""
    waiting = Deal.Status.WAITING if match.confirmation else Deal.Status.COUNTED
    return {"status": waiting, "saved_seat": actor.seat, "rejected_by": "", "reason": ""}
