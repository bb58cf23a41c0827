"""Writes: load → rules core → save, each inside one transaction.

Every change to a match's deals is judged by the rules core on the whole match document
first; a :class:`~scorekeeper.rules.errors.RuleError` refuses it and nothing is stored. The
match row is locked (``select_for_update``) for the length of the change, so two phones
entering deals at once are serialised on PostgreSQL.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Sequence
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext

from scorekeeper import names
from scorekeeper.confirmation.selectors import counted_result, on_save
from scorekeeper.history.document import changes_import
from scorekeeper.history.record import Actor, actor_of, change_record, deal_points
from scorekeeper.history.selectors import change_undoable
from scorekeeper.matches.playable import match_check_playable
from scorekeeper.models import (
    MAX_DEALS,
    Deal,
    DealDraft,
    Match,
    MatchChange,
    MatchSeat,
    Player,
    name_key,
)
from scorekeeper.rules import barbu, incremental
from scorekeeper.rules import match as rules_match
from scorekeeper.rules.base import MatchResult, Standing
from scorekeeper.rules.errors import Place, RuleError
from scorekeeper.selectors import match_document
from scorekeeper.standing import kept, match_state, state_after

__all__ = [
    "deal_correct",
    "deal_fingerprint",
    "deal_delete",
    "deal_delete_last",
    "deal_restore",
    "deal_swap",
    "change_undo",
    "deal_record",
    "deal_scores_keep",
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
    :func:`scorekeeper.names.key`), created if new. The account's row is locked first, as a
    merge or removal of a player locks it (:func:`scorekeeper.players.services.
    lock_players_of`): a match naming a player being merged away waits for the merge and then
    makes the name anew, or the merge waits for the match and moves its seat too."""
    from scorekeeper.players.services import lock_players_of

    name = _clean_name(name)
    lock_players_of(owner.pk)
    player, _ = Player.objects.get_or_create(
        owner=owner, key=name_key(name), defaults={"name": name}
    )
    return player


def _lock(match: Match) -> Match:
    """The match's row, locked for the change; refused when the match was deleted meanwhile
    (another phone of its owner)."""
    locked = Match.objects.select_for_update().filter(pk=match.pk).first()
    if locked is None:
        raise RuleError("match_gone", gettext("this match has been deleted: nothing was changed"))
    return locked


def _store_result(
    locked: Match,
    result: MatchResult,
    *,
    caller: Match,
    by: Actor | str | None = None,
    steps: Sequence[incremental.Step] | None = None,
) -> None:
    """Refresh the match's cache from the rules' result, on the row and on the caller's copy;
    the match's history says when it finished (or went on again after a change). Under the
    confirmation by the other side, the totals leave out the deals not accepted yet.
    ``steps``: every deal's step (:func:`_score_whole`), whose states are kept with the
    scores; without them, a deal whose score moved loses its kept state, and those after."""
    _keep_scores(locked, result, steps)
    state = steps[-1].state if steps else None
    if locked.confirmation:
        skip = locked.deals.exclude(status=Deal.Status.COUNTED).values_list("number", flat=True)
        result = counted_result(result, set(skip))
    standing = Standing(
        deals=len(result.deal_scores),
        totals=tuple(result.totals),
        finished=result.finished,
        winner=result.winner,
        next_deal=result.next_deal,
    )
    _store(locked, standing, caller=caller, by=by, state=state)


def _keep_scores(
    locked: Match, result: MatchResult, steps: Sequence[incremental.Step] | None = None
) -> None:
    """Keep each deal's score, running totals and state from the rules' result (those that
    moved); see :func:`_store_result` for ``steps``."""
    deals = list(Deal.objects.filter(match=locked).order_by("number"))
    moved = []
    stale = False  # a score moved without its state: the kept states from there on are stale
    for i, (deal, score, running) in enumerate(
        zip(deals, result.deal_scores, result.running, strict=True)
    ):
        changed = deal.score != score or deal.running != list(running)
        if steps is not None:
            state = incremental.state_json(steps[i].state)
        else:
            stale = stale or changed
            state = None if stale else deal.state
        if changed or deal.state != state:
            deal.score, deal.running, deal.state = score, list(running), state
            moved.append(deal)
    Deal.objects.bulk_update(moved, ["score", "running", "state"], batch_size=500)


def _keep_steps(deals: Sequence[Deal], steps: Sequence[incremental.Step]) -> None:
    """Keep on ``deals`` (the deals from a changed one on, in order) what ``steps`` scored."""
    for deal, step in zip(deals, steps, strict=True):
        deal.score, deal.running = step.score, list(step.state.totals)
        deal.state = incremental.state_json(step.state)
    Deal.objects.bulk_update(deals, ["score", "running", "state"], batch_size=500)


def _score_whole(
    document: object,
) -> tuple[rules_match.Match, MatchResult, tuple[incremental.Step, ...]]:
    """Read and score a whole document deal by deal: the match read, its result and every
    deal's step (the state after it, kept on the deal). The same result as scoring the
    document whole (``rules.incremental``), with the states."""
    parsed = rules_match.parse_document(document)
    return (parsed, *_steps_of(parsed))


def _steps_of(parsed: rules_match.Match) -> tuple[MatchResult, tuple[incremental.Step, ...]]:
    start = incremental.score_start(parsed.header, parsed.rules)
    steps = incremental.score_deals(start, parsed.deals)
    return incremental.result_of(steps[-1].state if steps else start, steps), steps


def _store(
    locked: Match,
    standing: Standing,
    *,
    caller: Match,
    by: Actor | str | None = None,
    state: incremental.State | None = None,
) -> None:
    """:func:`_store_result` from where the match stands; ``state``: the rules' scoring state
    after its last deal, kept at the version this change makes (else the kept one is stale)."""
    was_finished = locked.status == Match.Status.FINISHED
    if by is not None and standing.finished != was_finished:
        kind = MatchChange.Kind.FINISHED if standing.finished else MatchChange.Kind.REOPENED
        change_record(
            match=locked,
            kind=kind,
            by=by,
            detail={"winner": standing.winner, "totals": list(standing.totals)},
        )
    locked.status = Match.Status.FINISHED if standing.finished else Match.Status.IN_PROGRESS
    if not standing.finished:
        locked.finished_at = None
    elif locked.finished_at is None:
        locked.finished_at = timezone.now()
    locked.winner = standing.winner
    locked.totals = list(standing.totals)
    locked.deal_count = standing.deals
    locked.version += 1  # the row is locked: every phone's live view sees the change
    locked.deals_version += 1  # and the scoring state kept for the deals before is stale
    fields = [*_CACHE_FIELDS, "deals_version", "updated"]
    if state is not None:
        locked.scoring_state = kept(state, locked.deals_version)
        fields.append("scoring_state")
    locked.save(update_fields=fields)
    if caller is not locked:
        for field in (*_CACHE_FIELDS, "updated", "deals_version", "scoring_state"):
            setattr(caller, field, getattr(locked, field))
        # The caller's prefetched deals are stale now.
        getattr(caller, "_prefetched_objects_cache", {}).pop("deals", None)


def _create(
    *,
    owner: AbstractBaseUser,
    parsed: rules_match.Match,
    confirmation: bool = False,
) -> Match:
    match_check_playable(parsed)  # nothing stored that the pages cannot draw
    result, steps = _steps_of(parsed)
    header = parsed.header
    players = [player_get_or_create(owner=owner, name=name) for name in header.players]
    match = Match.objects.create(
        owner=owner,
        game=header.game,
        rules=parsed.engine.rules_json(parsed.rules),
        first_dealer=header.first_dealer,
        confirmation=confirmation,
    )
    MatchSeat.objects.bulk_create(
        MatchSeat(match=match, seat=seat, player=player) for seat, player in enumerate(players)
    )
    Deal.objects.bulk_create(
        Deal(
            match=match,
            number=i,
            data=parsed.engine.deal_json(step.deal),
            score=step.score,
            running=list(step.state.totals),
            state=incremental.state_json(step.state),
        )
        for i, step in enumerate(steps, start=1)
    )
    _store_result(match, result, caller=match, steps=steps)
    return match


@transaction.atomic
def match_create(
    *,
    owner: AbstractBaseUser,
    game: str,
    players: list[str],
    first_dealer: int,
    rules: dict[str, Any],
    confirmation: bool = False,
) -> Match:
    """Start a match: ``players`` in seat order (clockwise); ``rules`` as the table chose them
    (any option left out takes its default; the match stores every option resolved);
    ``confirmation``: the house rule that a deal saved by one side waits for another side's
    acceptance (scorekeeper/confirmation/).

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
    return _create(owner=owner, parsed=parsed, confirmation=confirmation)


@transaction.atomic
def match_import(*, owner: AbstractBaseUser, document: object) -> Match:
    """Store a match document (with or without scores) as a new match of ``owner``.

    A document the rules refuse raises :class:`RuleError` and stores nothing. Its history
    (``changes``) is stored with it, without accounts.
    """
    if isinstance(document, dict) and isinstance(document.get("players"), list):
        _check_names(document["players"])
        document = {
            **document,
            "players": [_clean_name(p) if isinstance(p, str) else p for p in document["players"]],
        }
    parsed = rules_match.parse_document(document)
    match = _create(owner=owner, parsed=parsed)
    Match.objects.filter(pk=match.pk).update(imported=timezone.now())
    changes_import(match, list(parsed.changes))
    return match


@transaction.atomic
def deal_scores_keep(*, match: Match) -> None:
    """Work out and keep every deal's score, running totals and state (``Deal.score``,
    ``Deal.running``, ``Deal.state``), for deals stored before they were kept; under the
    match's lock, so a change made meanwhile is not overwritten with what came before it."""
    locked = _lock(match)
    _, result, steps = _score_whole(match_document(locked))
    _keep_scores(locked, result, steps)


@transaction.atomic
def deal_record(
    *, match: Match, data: dict[str, Any], number: int | None = None, by: Actor | str = ""
) -> Deal:
    """Add the next deal. ``number``, when given, is the deal the caller believes is next: if
    someone else has stored it meanwhile, the deal is refused rather than stored twice.
    ``by``: who saved it, as the table knows them (and their account).

    Raises :class:`RuleError` when the rules refuse the deal (nothing is stored).
    """
    locked = _lock(match)
    state = match_state(locked)  # the deals so far, scored once and kept: O(1) a deal
    next_number = state.deals + 1
    if number is not None and number != next_number:
        raise refusal_already_entered(number, next_number)
    if next_number > MAX_DEALS:
        raise RuleError(
            "too_many_deals",
            gettext("a match holds at most {limit} deals: start a new match to go on"),
            limit=MAX_DEALS,
        )
    step = incremental.score_next(state, data)
    deal = _deal_add(
        locked,
        number=next_number,
        data=state.engine.deal_json(step.deal),
        kind=MatchChange.Kind.ENTERED,
        points=[a - b for a, b in zip(step.state.totals, state.totals, strict=True)],
        by=by,
        score=(step.score, list(step.state.totals)),
        state=step.state,
    )
    if locked.confirmation:  # the totals leave out what is not accepted: the whole match
        _, result, steps = _score_whole(match_document(locked))
        _store_result(locked, result, caller=match, by=by, steps=steps)
    else:
        _store(locked, incremental.standing(step.state), caller=match, by=by, state=step.state)
    return deal


def _deal_add(
    locked: Match,
    *,
    number: int,
    data: dict[str, Any],
    kind: str,
    points: list[int],
    by: Actor | str,
    detail: dict[str, Any] | None = None,
    score: tuple[dict[str, Any], list[int]] | None = None,
    state: incremental.State | None = None,
) -> Deal:
    """Store deal ``number`` as the rules wrote it (waiting for the other side, when the match
    asks for confirmation), with its ``score`` and running totals when known, and its entry in
    the history."""
    actor = actor_of(by)
    deal = Deal.objects.create(
        match=locked,
        number=number,
        data=data,
        saved_by=actor.name,
        score=score[0] if score else None,
        running=score[1] if score else None,
        state=incremental.state_json(state) if state is not None else None,
        **on_save(locked, actor),
    )
    change_record(
        match=locked,
        kind=kind,
        by=by,
        number=number,
        after=deal.data,
        points_after=points,
        detail=detail,
    )
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
    by: Actor | str = "",
    undo_of: int | None = None,
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
    # scored from the state deal number - 1 left, with the deals after it (never those before)
    rest = list(Deal.objects.filter(match=locked, number__gt=number).order_by("number"))
    try:
        start = state_after(locked, number - 1)
        steps = incremental.score_deals(start, [data, *(later.data for later in rest)])
    except RuleError as error:
        later = error.place.deal
        if later is not None and later > number:
            raise RuleError(
                "correction_breaks_later_deal",
                gettext("this correction would make deal {later} illegal ({reason})"),
                later=later,
                reason=error,  # shown in the page's language (scorekeeper/rule_messages.py)
                where=(f"deal {number}",),
                place=Place(deal=number),
            ) from error
        raise
    before, points_before = deal.data, _points_now(locked, number)
    deal.data = start.engine.deal_json(steps[0].deal)
    deal.saved_by = actor_of(by).name
    saved = on_save(locked, actor_of(by))  # a correction waits for the other side again
    for field, value in saved.items():
        setattr(deal, field, value)
    deal.save(update_fields=["data", "updated", "saved_by", *saved])
    change_record(
        match=locked,
        kind=MatchChange.Kind.CORRECTED,
        by=by,
        number=number,
        before=before,
        after=deal.data,
        points_before=points_before,
        points_after=_points_of(steps[0], start),
        detail=_undoing(undo_of),
    )
    _keep_steps([deal, *rest], steps)
    _store_rescored(locked, steps[-1].state, caller=match, by=by)
    return deal


def _points_of(step: incremental.Step, before: incremental.State) -> list[int]:
    """The points one deal brought each column: its step's totals less the state before."""
    return [a - b for a, b in zip(step.state.totals, before.totals, strict=True)]


def _store_rescored(
    locked: Match, state: incremental.State, *, caller: Match, by: Actor | str
) -> None:
    """:func:`_store` after deals rescored from a changed one on (their scores and states are
    kept already): the match stands where ``state``, after its last deal, says. Under the
    confirmation by the other side, whose totals leave out the deals not accepted yet, the
    whole match (as the saving of a deal there)."""
    if locked.confirmation:
        _, result, steps = _score_whole(match_document(locked))
        _store_result(locked, result, caller=caller, by=by, steps=steps)
        return
    _store(locked, incremental.standing(state), caller=caller, by=by, state=state)


def _undoing(undo_of: int | None) -> dict[str, int]:
    return {} if undo_of is None else {"undo_of": undo_of}


def _points_now(locked: Match, number: int) -> list[int] | None:
    """Deal ``number``'s points as the match stands (before the change being made), from the
    running totals kept on it and the deal before; None if the stored match no longer passes
    the rules."""
    kept_running = dict(
        Deal.objects.filter(match=locked, number__in=(number - 1, number)).values_list(
            "number", "running"
        )
    )
    after, before = kept_running.get(number), kept_running.get(number - 1)
    if after is not None and (number == 1 or before is not None):
        return [a - b for a, b in zip(after, before or [0] * len(after), strict=True)]
    try:
        _, result, _ = rules_match.score_document_full(match_document(locked))
    except RuleError:
        return None
    return deal_points(result, number)


def _shift(locked: Match, *, after: int, by: int) -> None:
    """Renumber the deals after deal ``after`` (and their corrections in progress, and the next
    deal's) by ``by`` (+1 or -1), in two steps so that no two deals ever share a number."""
    far = MAX_DEALS + 1
    for model, rows in (
        (Deal, Deal.objects.filter(match=locked, number__gt=after)),
        (DealDraft, DealDraft.objects.filter(match=locked, number__gt=after)),
    ):
        rows.update(number=F("number") + far)
        model.objects.filter(match=locked, number__gt=after + far).update(
            number=F("number") - far + by
        )


def _refusal_breaks_later(error: RuleError, *, verb: str, number: int, shifted: int) -> RuleError:
    """The rules refused the match once deal ``number`` is deleted (``shifted`` -1) or put
    back (+1): the refusal named a later deal in the new numbering. Say which deal that is
    now, the number it would take, and the rule (whose words count the deals the new way)."""
    later = error.place.deal
    if later is None or later < number:
        return error
    now = later - shifted
    rest = error.where[1:] if error.where[:1] == (f"deal {later}",) else error.where
    # the rule and its place without the deal (shown in the page's language)
    reason = RuleError(
        error.code,
        error.template,
        where=rest,
        place=dataclasses.replace(error.place, deal=None),
        **error.params,
    )
    if verb == "delete":
        template = gettext(
            "deal {number} cannot be deleted: deal {now} would become deal {then} and no "
            "longer fit ({reason})"
        )
    else:
        template = gettext(
            "deal {number} cannot be put back: deal {now} would become deal {then} and no "
            "longer fit ({reason})"
        )
    return RuleError(
        f"{verb}_breaks_later_deal",
        template,
        number=number,
        now=now,
        then=later,
        reason=reason,
        place=dataclasses.replace(error.place, deal=now),
    )


@transaction.atomic
def deal_delete(
    *,
    match: Match,
    number: int,
    drawn_from: str | None = None,
    by: Actor | str = "",
    undo_of: int | None = None,
) -> int:
    """Delete deal ``number``, any deal: the later deals move up one and are scored again (the
    dealer or declarer of each follows its new place). Returns the number deleted.

    ``drawn_from``, when given, is the :func:`deal_fingerprint` of the deal as the caller saw
    it: if the deal at that number is another now, or was corrected since, nothing is deleted
    (the correction was acknowledged to whoever made it; deleting it unseen would lose it).
    Raises :class:`RuleError` when there is no such deal, it changed meanwhile, or the rest of
    the match would not pass the rules without it (the later deal that would not fit is named:
    in Barbu, a declarer or contract that no longer follows the schedule).
    """
    locked = _lock(match)
    deal = locked.deals.filter(number=number).first()
    if deal is None:
        if not locked.deals.exists():
            raise RuleError("no_deal", gettext("there is no deal to delete"))
        raise _deal_gone(number)
    if drawn_from and deal_fingerprint(deal.data) != drawn_from:
        raise RuleError(
            "deal_changed_before_delete",
            gettext(
                "deal {number} was changed elsewhere since this page was drawn: look at it "
                "again before deleting it"
            ),
            number=number,
        )
    points_before = _points_now(locked, number)
    # the deals after it, scored from the state the deal before it left (in their new places)
    rest = list(Deal.objects.filter(match=locked, number__gt=number).order_by("number"))
    try:
        start = state_after(locked, number - 1)
        steps = incremental.score_deals(start, [later.data for later in rest])
    except RuleError as error:
        raise _refusal_breaks_later(error, verb="delete", number=number, shifted=-1) from error
    before = deal.data
    deal.delete()
    # its correction in progress goes with it; the later ones, and the next deal's, follow
    DealDraft.objects.filter(match=locked, number=number, editing=True).delete()
    _shift(locked, after=number, by=-1)
    change_record(
        match=locked,
        kind=MatchChange.Kind.DELETED,
        by=by,
        number=number,
        before=before,
        points_before=points_before,
        detail=_undoing(undo_of),
    )
    _keep_steps(rest, steps)
    _store_rescored(locked, steps[-1].state if steps else start, caller=match, by=by)
    return number


@transaction.atomic
def deal_delete_last(
    *,
    match: Match,
    number: int | None = None,
    drawn_from: str | None = None,
    by: Actor | str = "",
) -> int:
    """Delete the last deal; returns its number. ``number``, when given, is the deal the
    caller means: if it is no longer the last one (someone else added or deleted a deal
    meanwhile), nothing is deleted. Otherwise as :func:`deal_delete`."""
    locked = _lock(match)
    last = locked.deals.order_by("-number").values_list("number", flat=True).first()
    if last is None:
        raise RuleError("no_deal", gettext("there is no deal to delete"))
    if number is not None and number != last:
        raise RuleError(
            "not_last_deal",
            gettext("deal {number} is not the last deal any more (the last is deal {last})"),
            number=number,
            last=last,
        )
    return deal_delete(match=match, number=last, drawn_from=drawn_from, by=by)


@transaction.atomic
def deal_restore(
    *, match: Match, change: int, by: Actor | str = "", undo_of: int | None = None
) -> int:
    """Put back the deal that the history's change ``change`` deleted, in its place (its number
    then, or after the last deal when the match is shorter now); the later deals move down
    one. Returns its number. Raises :class:`RuleError` when that change deleted no deal of
    this match, the deal is back already, or the rules do not accept it back there."""
    locked = _lock(match)
    deleted = MatchChange.objects.filter(
        pk=change, match=locked, kind=MatchChange.Kind.DELETED
    ).first()
    if deleted is None or deleted.before is None:
        raise RuleError("no_deleted_deal", gettext("that change deleted no deal of this match"))
    if MatchChange.objects.filter(match=locked, detail__restores=deleted.pk).exists():
        raise RuleError(
            "deal_restored_already",
            gettext("that deal has been restored already: look at the match's history"),
        )
    document = match_document(locked)
    number = min(deleted.number or 1, len(document["deals"]) + 1)
    document["deals"].insert(number - 1, deleted.before)
    try:
        parsed, result, steps = _score_whole(document)
    except RuleError as error:
        if error.place.deal == number:
            raise  # the deal itself no longer fits there: the rules say why
        raise _refusal_breaks_later(error, verb="restore", number=number, shifted=1) from error
    _shift(locked, after=number - 1, by=1)
    _deal_add(
        locked,
        number=number,
        data=parsed.engine.deal_json(parsed.deals[number - 1]),
        kind=MatchChange.Kind.RESTORED,
        points=deal_points(result, number),
        by=by,
        detail={"restores": deleted.pk, **_undoing(undo_of)},
    )
    _store_result(locked, result, caller=match, by=by, steps=steps)
    return number


@transaction.atomic
def deal_swap(
    *,
    match: Match,
    number: int,
    other: int,
    drawn_from: tuple[str, str] | None = None,
    by: Actor | str = "",
    undo_of: int | None = None,
    back: tuple[dict[str, Any], dict[str, Any]] | None = None,
) -> tuple[int, int]:
    """Swap the contracts of Barbu deals ``number`` and ``other`` of one declarer's series, in
    one step: each takes the other's contract and waits for its contract data to be entered
    again (``to_enter``: it counts in the schedule and scores nothing until then); each keeps
    its doubles the new contract allows. Both are in the history (kind ``swapped``, each
    naming the other deal), with what they were.

    ``drawn_from``: the :func:`deal_fingerprint` of the two deals as the page showed them
    (refused if either changed since). ``back`` (an undo of a swap, ``undo_of``): the two
    deals as they were before it, put back instead. Returns the two numbers. Raises
    :class:`RuleError` (no such deal, changed meanwhile, not two deals of one declarer)."""
    locked = _lock(match)
    stored = {d.number: d for d in locked.deals.filter(number__in=(number, other))}
    for n in (number, other):
        if n not in stored:
            raise _deal_gone(n)
    if drawn_from is not None:
        for n, seen in zip((number, other), drawn_from, strict=True):
            if deal_fingerprint(stored[n].data) != seen:
                raise refusal_deal_changed(n)
    document = match_document(locked)
    before_result = rules_match.score_match(parsed := rules_match.parse_document(document))
    if back is None:
        first, second = barbu.swapped_deals(parsed, number, other)
        new = {number: first.deal, other: second.deal}
    else:
        new = {number: back[0], other: back[1]}
    for n, data in new.items():
        document["deals"][n - 1] = data
    parsed, result, steps = _score_whole(document)
    actor = actor_of(by)
    for n, m in ((number, other), (other, number)):
        deal, before = stored[n], stored[n].data
        deal.data = parsed.engine.deal_json(parsed.deals[n - 1])
        deal.saved_by = actor.name
        deal.save(update_fields=["data", "updated", "saved_by"])
        change_record(
            match=locked,
            kind=MatchChange.Kind.SWAPPED,
            by=by,
            number=n,
            before=before,
            after=deal.data,
            points_before=deal_points(before_result, n),
            points_after=deal_points(result, n),
            detail={"other_deal": m, **_undoing(undo_of)},
        )
    _store_result(locked, result, caller=match, by=by, steps=steps)
    return number, other


def _swap_back(match: Match, newest: MatchChange, *, by: Actor | str) -> None:
    """Undo the swap whose second record is ``newest``: both deals back as they were."""
    pair = (
        MatchChange.objects.filter(match=match, kind=MatchChange.Kind.SWAPPED, pk__lt=newest.pk)
        .order_by("-pk")
        .first()
    )
    if pair is None or pair.number != newest.detail.get("other_deal"):
        raise RuleError("undo_overtaken", gettext("nothing was undone: the swap is not whole"))
    deal_swap(
        match=match,
        number=pair.number,
        other=newest.number,
        drawn_from=(deal_fingerprint(pair.after), deal_fingerprint(newest.after)),
        by=by,
        undo_of=newest.pk,
        back=(pair.before, newest.before),
    )


@transaction.atomic
def change_undo(*, match: Match, change: int, by: Actor | str = "") -> MatchChange:
    """Take back the match's newest change to a deal, ``change`` (the one the page showed): a
    deal entered or restored is deleted, a correction put back as it was, a deleted deal
    restored. It is a change of its own in the history (``undo_of``). Returns the change
    taken back. Raises :class:`RuleError` when ``change`` is no longer the newest (another
    phone changed a deal since), or the rules refuse the way back. A swap of two deals'
    contracts is taken back whole: both deals as they were."""
    locked = _lock(match)
    newest = change_undoable(locked)  # the history's newest change to a deal
    if newest is None or newest.pk != change:
        raise RuleError(
            "undo_overtaken",
            gettext("nothing was undone: a deal was changed since this page was drawn"),
        )
    kind, number = newest.kind, newest.number
    if kind in (MatchChange.Kind.ENTERED, MatchChange.Kind.RESTORED):
        deal_delete(
            match=match,
            number=number,
            drawn_from=deal_fingerprint(newest.after),
            by=by,
            undo_of=newest.pk,
        )
    elif kind == MatchChange.Kind.CORRECTED:
        deal_correct(
            match=match,
            number=number,
            data=newest.before,
            drawn_from=deal_fingerprint(newest.after),
            by=by,
            undo_of=newest.pk,
        )
    elif kind == MatchChange.Kind.SWAPPED:
        _swap_back(match, newest, by=by)
    else:
        deal_restore(match=match, change=newest.pk, by=by, undo_of=newest.pk)
    return newest
