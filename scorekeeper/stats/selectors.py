"""Reading the statistics: each match's summary as kept, a player's figures across their
finished matches, and a match's running totals for its chart.

A match keeps its summary (:func:`scorekeeper.stats.summary.match_summary`) in ``Match.stats``
with the ``deals_version`` it was worked out at, as :mod:`scorekeeper.standing` keeps the
scoring state: every change to the deals moves that version, so a summary kept at another is
stale and is worked out again when read, from the rules core's scores of the deals (as the
services keep them with each deal; a match whose deals have none kept is scored again by the
rules core), for every stale match at once (their deals in one query, the summaries written in
one), then kept. A summary worked out while the deals changed carries the version read before
them: stale at the next read, never taken for the new deals'.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, prefetch_related_objects

from scorekeeper.confirmation.selectors import counted_result
from scorekeeper.models import Deal, Match, MatchSeat, Player
from scorekeeper.rules import match as rules_match
from scorekeeper.rules.base import MatchResult
from scorekeeper.rules.errors import RuleError
from scorekeeper.selectors import match_scored
from scorekeeper.stats import summary as summaries

__all__ = ["CHART_POINTS", "finished_matches_of", "match_progress", "summaries_of"]

#: The most points a match's chart draws a line (a long match is sampled evenly, its first
#: and last deals always in): what 360 px can show, at the same cost at any length.
CHART_POINTS = 40


def _kept(match: Match) -> dict[str, Any] | None:
    stored = match.stats
    if (
        isinstance(stored, dict)
        and stored.get("version") == match.deals_version
        and stored.get("format") == summaries.FORMAT
        and isinstance(stored.get("summary"), dict)
    ):
        return stored["summary"]
    return None


def summaries_of(matches: list[Match]) -> dict[int, dict[str, Any]]:
    """Each match's summary by its id (those kept, and the stale ones worked out and kept: two
    queries for all of them). A match whose stored deals no longer pass the rules has none.
    The matches carry their seats with players (as :func:`finished_matches_of` loads them)."""
    out: dict[int, dict[str, Any]] = {}
    stale = []
    for match in matches:
        kept = _kept(match)
        if kept is None:
            stale.append(match)
        else:
            out[match.pk] = kept
    if not stale:
        return out
    # one query for the deals of every stale match
    prefetch_related_objects(stale, Prefetch("deals", queryset=Deal.objects.order_by("number")))
    worked_out = []
    for match in stale:
        found = _worked_out(match)
        if found is None:
            continue  # its deals no longer pass the rules: no figures from it
        match.stats = {"format": summaries.FORMAT, "version": match.deals_version, "summary": found}
        out[match.pk] = found
        worked_out.append(match)
    Match.objects.bulk_update(worked_out, ["stats"])
    return out


def _worked_out(match: Match) -> dict[str, Any] | None:
    """The summary of ``match`` (its deals and seats loaded) from the scores the rules core
    gave its deals, as the services keep them (``Deal.score``, and the match's totals, end
    and winner), or, when some deal's score is not kept, from the match scored again."""
    deals = list(match.deals.all())
    header = match.header
    if all(deal.score is not None for deal in deals):
        rules = rules_match.rules_at_table(match.game, match.rules, len(header.players))
        return summaries.match_summary(
            header,
            rules,
            [{**deal.data, "score": deal.score} for deal in deals],
            totals=list(match.totals),
            finished=match.is_finished,
            winner=match.winner,
        )
    try:
        parsed, result, exported = match_scored(match)
    except RuleError:
        return None
    return summaries.match_summary(
        parsed.header,
        parsed.rules,
        exported["deals"],
        totals=list(result.totals),
        finished=result.finished,
        winner=result.winner,
    )


def finished_matches_of(player: Player) -> list[Match]:
    """The finished matches ``player`` sits in, oldest finished first, with their seats and
    players (two queries); without the scoring state (not needed here)."""
    seats = MatchSeat.objects.select_related("player").order_by("seat")
    return list(
        Match.objects.filter(seats__player=player, status=Match.Status.FINISHED)
        .defer("scoring_state")
        .prefetch_related(Prefetch("seats", queryset=seats))
        .order_by("finished_at", "created", "pk")
    )


def _sampled(count: int, most: int) -> list[int]:
    """Deal numbers 1..count, or ``most`` of them evenly spread (first and last always in)."""
    if count <= most:
        return list(range(1, count + 1))
    return sorted({1 + round(i * (count - 1) / (most - 1)) for i in range(most)})


def match_progress(match: Match) -> dict[str, Any] | None:
    """The running totals after each deal, as the deals keep them (``Deal.running``, one
    query): ``{"numbers": [...], "running": [[...], ...], "deals": count}``, a long match
    sampled to :data:`CHART_POINTS`; under the confirmation by the other side the deals not
    counted add nothing (as the totals leave them out). None when there is no deal yet, or
    some deal's totals are not kept yet (the scoreboard keeps them once)."""
    count = match.deal_count
    if not count:
        return None
    deals = Deal.objects.filter(match=match)
    if match.confirmation:
        rows = list(deals.order_by("number").values_list("number", "running", "status"))
        if len(rows) != count or any(running is None for _, running, _ in rows):
            return None
        skip = {number for number, _, status in rows if status != Deal.Status.COUNTED}
        whole = MatchResult(
            deal_scores=[],
            totals=list(rows[-1][1]),
            finished=False,
            winner=None,
            running=[list(running) for _, running, _ in rows],
        )
        running = counted_result(whole, skip).running
        numbers = _sampled(count, CHART_POINTS)
        return {
            "numbers": numbers,
            "running": [running[n - 1] for n in numbers],
            "deals": count,
        }
    numbers = _sampled(count, CHART_POINTS)
    rows = list(
        deals.filter(number__in=numbers).order_by("number").values_list("number", "running")
    )
    if len(rows) != len(numbers) or any(running is None for _, running in rows):
        return None
    return {
        "numbers": [number for number, _ in rows],
        "running": [list(running) for _, running in rows],
        "deals": count,
    }
