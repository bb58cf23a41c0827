"""Reads that need care: the match document built from the database, and the scored match.

A match loaded with :func:`match_for_owner_or_404` carries its seats (with players) and deals
prefetched, so building and scoring its document costs no further query.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db.models import Case, IntegerField, Prefetch, QuerySet, Value, When
from django.http import Http404

from scorekeeper.models import Deal, Match, MatchSeat
from scorekeeper.rules import match as rules_match
from scorekeeper.rules.base import MatchResult

__all__ = [
    "match_document",
    "match_for_owner_or_404",
    "match_scored",
    "matches_for_user",
]


def _with_seats(queryset: QuerySet[Match]) -> QuerySet[Match]:
    return queryset.prefetch_related(
        Prefetch("seats", queryset=MatchSeat.objects.select_related("player").order_by("seat"))
    )


def match_document(
    match: Match,
    *,
    append: dict[str, Any] | None = None,
    replace: tuple[int, dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The match as a ``scorekeeper-match/1`` document (without scores).

    ``append``: a deal to add after the last one (what ``deal_record`` would store);
    ``replace``: ``(number, deal)`` with ``number`` counted from 1 (what ``deal_correct`` would
    store). Neither touches the database: the rules core then judges the document.
    """
    deals = [deal.data for deal in sorted(match.deals.all(), key=lambda d: d.number)]
    if replace is not None:
        number, data = replace
        if not 1 <= number <= len(deals):
            raise ValueError(f"there is no deal {number} to replace")
        deals[number - 1] = data
    if append is not None:
        deals.append(append)
    return {
        "format": rules_match.FORMAT,
        "game": match.game,
        "rules": dict(match.rules),
        "players": [player.name for player in match.seated_players],
        "first_dealer": match.first_dealer,
        "deals": deals,
    }


def match_scored(match: Match) -> tuple[rules_match.Match, MatchResult, dict[str, Any]]:
    """The rules' match, its result and the exported document (with scores).

    Raises :class:`scorekeeper.rules.errors.RuleError` if the stored deals no longer pass the
    rules (they did when they were stored).
    """
    return rules_match.score_document_full(match_document(match))


def matches_for_user(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Match]:
    """The user's matches, those in progress first, each group most recently changed first."""
    if not user.is_authenticated:
        return Match.objects.none()
    in_progress_first = Case(
        When(status=Match.Status.IN_PROGRESS, then=Value(0)),
        default=Value(1),
        output_field=IntegerField(),
    )
    return _with_seats(Match.objects.filter(owner=user)).order_by(in_progress_first, "-updated")


def match_for_owner_or_404(user: AbstractBaseUser | AnonymousUser, pk: int) -> Match:
    """The match ``pk`` if ``user`` owns it, with seats, players and deals prefetched; else 404."""
    if not user.is_authenticated:
        raise Http404
    queryset = _with_seats(Match.objects.filter(owner=user)).prefetch_related(
        Prefetch("deals", queryset=Deal.objects.order_by("number"))
    )
    try:
        return queryset.get(pk=pk)
    except Match.DoesNotExist:
        raise Http404 from None
