"""Writes of the owner's matches after the game: archive, unarchive, delete.

Each is one transaction. Deleting locks the match's row first, so that a deal being saved
meanwhile either is stored before (and the deletion then sees it: refused when the page that
asked was drawn before it) or waits and finds no match; the deal, its seats, its history, its
links and its co-scorers go with it. Archiving changes nothing a phone shows of the match (its
scoreboard, its deals): only where it is listed.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from scorekeeper.models import Match
from scorekeeper.rules.errors import RuleError

__all__ = ["MatchDeleted", "match_archive", "match_delete", "match_unarchive"]


@dataclass(frozen=True)
class MatchDeleted:
    """What a deleted match was, for the message that says so."""

    pk: int
    game: str
    columns: tuple[str, ...]  # its sides (rummy) or players (Barbu)
    players: tuple[str, ...]
    deal_count: int


@transaction.atomic
def match_archive(*, match: Match) -> Match:
    """Put the match away: no longer on home, still in the history (with its mark), every page
    of it as before. Archiving an archived match changes nothing."""
    if match.archived is None:
        now = timezone.now()
        Match.objects.filter(pk=match.pk, archived__isnull=True).update(archived=now)
        match.archived = now
    return match


@transaction.atomic
def match_unarchive(*, match: Match) -> Match:
    """Bring an archived match back to home."""
    Match.objects.filter(pk=match.pk).update(archived=None)
    match.archived = None
    return match


def _refusal_changed(match: Match) -> RuleError:
    return RuleError(
        "match_changed_before_delete",
        gettext(
            "the match changed since this page was drawn (a deal was saved or corrected, or "
            "someone joined): look at it again before deleting it"
        ),
        match=match.pk,
    )


@transaction.atomic
def match_delete(*, match: Match, version: int | None = None) -> MatchDeleted:
    """Delete the match with its deals, seats, history, links and co-scorers, for good. The
    players stay (the players page removes one who sits in no match any more).

    ``version``, when given, is the match's ``version`` as the page that asked showed it: if
    it moved since (a deal saved meanwhile), nothing is deleted (:class:`RuleError`
    ``match_changed_before_delete``). Raises ``match_gone`` when it is deleted already."""
    locked = Match.objects.select_for_update().filter(pk=match.pk).first()
    if locked is None:
        raise RuleError("match_gone", gettext("this match is no longer there: it was deleted"))
    if version is not None and locked.version != version:
        raise _refusal_changed(locked)
    deleted = MatchDeleted(
        pk=locked.pk,
        game=locked.game,
        columns=tuple(locked.column_names),
        players=tuple(player.name for player in locked.seated_players),
        deal_count=locked.deal_count,
    )
    locked.delete()
    return deleted
