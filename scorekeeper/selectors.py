"""Reads that need care: the match document built from the database, and the scored match.

A match loaded with :func:`match_for_owner_or_404` or from :func:`match_queryset` (what
:mod:`scorekeeper.access` loads) carries its seats (with players) and deals prefetched, so
building and scoring its document costs no further query.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db.models import (
    BooleanField,
    Case,
    Exists,
    ExpressionWrapper,
    IntegerField,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Value,
    When,
)
from django.http import Http404

from scorekeeper.models import Deal, Match, MatchMember, MatchSeat
from scorekeeper.rules import match as rules_match
from scorekeeper.rules.base import MatchResult

__all__ = [
    "match_document",
    "match_for_owner_or_404",
    "match_queryset",
    "match_scored",
    "matches_for_guest",
    "matches_for_user",
]


def _with_seats(queryset: QuerySet[Match]) -> QuerySet[Match]:
    return queryset.prefetch_related(
        Prefetch("seats", queryset=MatchSeat.objects.select_related("player").order_by("seat"))
    )


def _in_order(game: str, rules: dict[str, Any]) -> dict[str, Any]:
    ordered = rules_match.rules_with_defaults(game, {})
    return {**{k: rules[k] for k in ordered if k in rules}, **rules}


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
        # in the rules core's order of the options, whatever order the database keeps
        # (PostgreSQL's jsonb does not keep it): every export of a match reads the same
        "rules": _in_order(match.game, match.rules),
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


def _in_progress_first(queryset: QuerySet[Match]) -> QuerySet[Match]:
    in_progress_first = Case(
        When(status=Match.Status.IN_PROGRESS, then=Value(0)),
        default=Value(1),
        output_field=IntegerField(),
    )
    return queryset.order_by(in_progress_first, "-updated")


def matches_for_user(
    user: AbstractBaseUser | AnonymousUser, *, joined: bool = False
) -> QuerySet[Match]:
    """The user's matches, those in progress first, each group most recently changed first.

    ``joined``: also the matches they keep score of as a co-scorer (joined through a score
    link, not removed since), each marked ``joined`` (True) with its ``owner`` at hand; the
    account's own matches alone otherwise (what the account page downloads and deletes).
    """
    if not user.is_authenticated:
        return Match.objects.none()
    if not joined:
        return _in_progress_first(_with_seats(Match.objects.filter(owner=user)))
    member = MatchMember.objects.filter(match=OuterRef("pk"), user=user, removed__isnull=True)
    queryset = (
        Match.objects.filter(Q(owner=user) | Exists(member))
        .annotate(joined=ExpressionWrapper(~Q(owner=user), output_field=BooleanField()))
        .select_related("owner")
    )
    return _in_progress_first(_with_seats(queryset))


def matches_for_guest(guest_key: str | None) -> QuerySet[Match]:
    """The matches a phone without an account keeps score of (``guest_key``: the digest of its
    key, :func:`scorekeeper.access.guest_key_digest`), marked ``joined`` like those of
    :func:`matches_for_user`."""
    if not guest_key:
        return Match.objects.none()
    member = MatchMember.objects.filter(
        match=OuterRef("pk"), guest_key=guest_key, removed__isnull=True
    )
    queryset = (
        Match.objects.filter(Exists(member))
        .annotate(joined=Value(True, output_field=BooleanField()))
        .select_related("owner")
    )
    return _in_progress_first(_with_seats(queryset))


def match_queryset(*, deals: bool = True) -> QuerySet[Match]:
    """Matches with their owner, seats (and players) and deals: a scoreboard, an export or a
    deal entry drawn from one costs no further query. ``deals`` False: without the deals (the
    next deal's entry, which reads only the scoring state they left: the same cost at any
    length)."""
    queryset = _with_seats(Match.objects.all()).select_related("owner")
    if not deals:
        return queryset
    return queryset.prefetch_related(Prefetch("deals", queryset=Deal.objects.order_by("number")))


def match_for_owner_or_404(user: AbstractBaseUser | AnonymousUser, pk: int) -> Match:
    """The match ``pk`` if ``user`` owns it, with seats, players and deals prefetched; else 404."""
    if not user.is_authenticated:
        raise Http404
    queryset = match_queryset().filter(owner=user)
    try:
        return queryset.get(pk=pk)
    except Match.DoesNotExist:
        raise Http404 from None
