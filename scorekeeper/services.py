"""Writes: load → rules core → save, each inside one transaction.

Every change to a match's deals is judged by the rules core on the whole match document
first; a :class:`~scorekeeper.rules.errors.RuleError` refuses it and nothing is stored. The
match row is locked (``select_for_update``) for the length of the change, so two phones
entering deals at once are serialised on PostgreSQL.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from scorekeeper import names
from scorekeeper.models import MAX_DEALS, Deal, DealDraft, Match, MatchSeat, Player, name_key
from scorekeeper.rules import match as rules_match
from scorekeeper.rules.base import MatchResult
from scorekeeper.rules.errors import Place, RuleError
from scorekeeper.selectors import match_document

__all__ = [
    "deal_correct",
    "deal_fingerprint",
    "deal_delete_last",
    "deal_record",
    "match_create",
    "match_import",
    "player_get_or_create",
    "refusal_already_entered",
    "refusal_deal_changed",
]

_CACHE_FIELDS = ("status", "finished_at", "winner", "totals", "deal_count", "version")


def _clean_name(name: str) -> str:
    return names.normalize(name)


def _check_names(players: list[Any]) -> None:
    """What the site asks of the names beyond the rules (:func:`scorekeeper.names.check`): no
    control, invisible or direction character, a length it stores, nobody twice by key."""
    names.check(players)


@transaction.atomic
def player_get_or_create(*, owner: AbstractBaseUser, name: str) -> Player:
    """The owner's player of that name (ignoring case, spacing and compatibility forms:
    :func:`scorekeeper.names.key`), created if new."""
    name = _clean_name(name)
    player, _ = Player.objects.get_or_create(
        owner=owner, key=name_key(name), defaults={"name": name}
    )
    return player


def _lock(match: Match) -> Match:
    return Match.objects.select_for_update().get(pk=match.pk)


def _store_result(locked: Match, result: MatchResult, *, caller: Match) -> None:
    """Refresh the match's cache from the rules' result, on the row and on the caller's copy."""
    locked.status = Match.Status.FINISHED if result.finished else Match.Status.IN_PROGRESS
    if not result.finished:
        locked.finished_at = None
    elif locked.finished_at is None:
        locked.finished_at = timezone.now()
    locked.winner = result.winner
    locked.totals = list(result.totals)
    locked.deal_count = len(result.deal_scores)
    locked.version += 1  # the row is locked: every phone's live view sees the change
    locked.save(update_fields=[*_CACHE_FIELDS, "updated"])
    if caller is not locked:
        for field in (*_CACHE_FIELDS, "updated"):
            setattr(caller, field, getattr(locked, field))
        # The caller's prefetched deals are stale now.
        getattr(caller, "_prefetched_objects_cache", {}).pop("deals", None)


def _create(*, owner: AbstractBaseUser, parsed: rules_match.Match, result: MatchResult) -> Match:
    header = parsed.header
    players = [player_get_or_create(owner=owner, name=name) for name in header.players]
    match = Match.objects.create(
        owner=owner,
        game=header.game,
        rules=parsed.engine.rules_json(parsed.rules),
        first_dealer=header.first_dealer,
    )
    MatchSeat.objects.bulk_create(
        MatchSeat(match=match, seat=seat, player=player) for seat, player in enumerate(players)
    )
    Deal.objects.bulk_create(
        Deal(match=match, number=i, data=parsed.engine.deal_json(deal))
        for i, deal in enumerate(parsed.deals, start=1)
    )
    _store_result(match, result, caller=match)
    return match


@transaction.atomic
def match_create(
    *,
    owner: AbstractBaseUser,
    game: str,
    players: list[str],
    first_dealer: int,
    rules: dict[str, Any],
) -> Match:
    """Start a match: ``players`` in seat order (clockwise); ``rules`` as the table chose them
    (any option left out takes its default; the match stores every option resolved).

    Raises :class:`RuleError` for an unknown game or option, a bad value, or the wrong players.
    """
    _check_names(players)
    document = {
        "format": rules_match.FORMAT,
        "game": game,
        "rules": dict(rules),
        "players": [_clean_name(p) if isinstance(p, str) else p for p in players],
        "first_dealer": first_dealer,
        "deals": [],
    }
    parsed = rules_match.parse_document(document)
    return _create(owner=owner, parsed=parsed, result=rules_match.score_match(parsed))


@transaction.atomic
def match_import(*, owner: AbstractBaseUser, document: object) -> Match:
    """Store a match document (with or without scores) as a new match of ``owner``.

    A document the rules refuse raises :class:`RuleError` and stores nothing.
    """
    if isinstance(document, dict) and isinstance(document.get("players"), list):
        _check_names(document["players"])
        document = {
            **document,
            "players": [_clean_name(p) if isinstance(p, str) else p for p in document["players"]],
        }
    parsed = rules_match.parse_document(document)
    return _create(owner=owner, parsed=parsed, result=rules_match.score_match(parsed))


@transaction.atomic
def deal_record(
    *, match: Match, data: dict[str, Any], number: int | None = None, by: str = ""
) -> Deal:
    """Add the next deal. ``number``, when given, is the deal the caller believes is next: if
    someone else has stored it meanwhile, the deal is refused rather than stored twice.
    ``by``: who saved it, as the table knows them.

    Raises :class:`RuleError` when the rules refuse the deal (nothing is stored).
    """
    locked = _lock(match)
    document = match_document(locked, append=data)
    next_number = len(document["deals"])
    if number is not None and number != next_number:
        raise refusal_already_entered(number, next_number)
    if next_number > MAX_DEALS:
        raise RuleError(
            "too_many_deals",
            gettext("a match holds at most {limit} deals: start a new match to go on"),
            limit=MAX_DEALS,
        )
    parsed, result, _ = rules_match.score_document_full(document)
    deal = Deal.objects.create(
        match=locked,
        number=next_number,
        data=parsed.engine.deal_json(parsed.deals[-1]),
        saved_by=by,
    )
    _store_result(locked, result, caller=match)
    return deal


def deal_fingerprint(data: Any) -> str:
    """A short digest of a stored deal, to tell whether it changed since a page was drawn."""
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]


def _deal_gone(number: int) -> RuleError:
    return RuleError(
        "deal_gone",
        gettext("deal {number} is no longer there (it was deleted): nothing was changed"),
        number=number,
    )


def refusal_already_entered(number: int, next_number: int) -> RuleError:
    """A new deal saved from a page drawn before someone else stored that deal."""
    return RuleError(
        "deal_already_entered",
        gettext("deal {number} has already been entered (the next deal is {next})"),
        number=number,
        next=next_number,
    )


def refusal_deal_changed(number: int) -> RuleError:
    """A correction saved from a page drawn before someone else changed that deal."""
    return RuleError(
        "deal_changed",
        gettext(
            "deal {number} was changed elsewhere while you were correcting it: check "
            "your correction, then save it again to replace that deal"
        ),
        number=number,
    )


@transaction.atomic
def deal_correct(
    *,
    match: Match,
    number: int,
    data: dict[str, Any],
    drawn_from: str | None = None,
    by: str = "",
) -> Deal:
    """Replace deal ``number`` (counted from 1) and re-score the whole match.

    ``drawn_from``, when given, is the :func:`deal_fingerprint` of the deal as the caller saw
    it: if the stored deal has changed since (another phone corrected it), nothing is changed.
    It is compared under the match's row lock, so two corrections cannot both pass.
    Raises :class:`RuleError` when the deal is not there (``deal_gone``: deleted meanwhile),
    changed meanwhile (``deal_changed``), or the corrected deal is illegal or makes a later
    deal illegal (nothing is changed).
    """
    locked = _lock(match)
    deal = locked.deals.filter(number=number).first()
    if deal is None:
        raise _deal_gone(number)
    if drawn_from and deal_fingerprint(deal.data) != drawn_from:
        raise refusal_deal_changed(number)
    document = match_document(locked, replace=(number, data))
    try:
        parsed, result, _ = rules_match.score_document_full(document)
    except RuleError as error:
        later = error.place.deal
        if later is not None and later > number:
            raise RuleError(
                "correction_breaks_later_deal",
                gettext("this correction would make deal {later} illegal ({reason})"),
                later=later,
                reason=error.message,
                where=(f"deal {number}",),
                place=Place(deal=number),
            ) from error
        raise
    deal.data = parsed.engine.deal_json(parsed.deals[number - 1])
    deal.saved_by = by
    deal.save(update_fields=["data", "updated", "saved_by"])
    _store_result(locked, result, caller=match)
    return deal


@transaction.atomic
def deal_delete_last(
    *, match: Match, number: int | None = None, drawn_from: str | None = None
) -> int:
    """Delete the last deal (undo); returns its number.

    ``number``, when given, is the deal the caller means to delete: if it is no longer the
    last one (someone else added or deleted a deal meanwhile), nothing is deleted.
    ``drawn_from``, when given, is the :func:`deal_fingerprint` of that deal as the caller
    saw it: if it was corrected since, nothing is deleted (the correction was acknowledged
    to whoever made it; deleting it unseen would lose it). Raises :class:`RuleError` when
    there is no deal, or not that one, to delete, or it changed meanwhile.
    """
    locked = _lock(match)
    last = locked.deals.order_by("-number").first()
    if last is None:
        raise RuleError("no_deal", gettext("there is no deal to delete"))
    if number is not None and number != last.number:
        raise RuleError(
            "not_last_deal",
            gettext("deal {number} is not the last deal any more (the last is deal {last})"),
            number=number,
            last=last.number,
        )
    if drawn_from and deal_fingerprint(last.data) != drawn_from:
        raise RuleError(
            "deal_changed_before_delete",
            gettext(
                "deal {number} was changed elsewhere since this page was drawn: look at it "
                "again before deleting it"
            ),
            number=last.number,
        )
    number = last.number
    last.delete()
    # its correction in progress goes with it; the next deal's in progress stays the next
    DealDraft.objects.filter(match=locked, number=number, editing=True).delete()
    _, result, _ = rules_match.score_document_full(match_document(locked))
    _store_result(locked, result, caller=match)
    return number
