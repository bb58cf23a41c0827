"""Writes of the confirmation by the other side: a player says which seat they play in, a
waiting deal is accepted or rejected. Each in one transaction, the match's row locked, its
entry in the match's history written with it.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext

from scorekeeper.confirmation.selectors import Right, review_right, seats_taken, waiting_for
from scorekeeper.history.record import Actor, change_record, deal_points
from scorekeeper.models import Deal, DealDraft, Match, MatchChange, MatchMember
from scorekeeper.rules import match as rules_match
from scorekeeper.rules.changes import REASON_MAX
from scorekeeper.rules.errors import RuleError
from scorekeeper.selectors import match_document
from scorekeeper.services import (
    _deal_gone,
    _lock,
    _store_result,
    deal_fingerprint,
    refusal_deal_changed,
)

__all__ = ["deal_confirm", "deal_reject", "seat_claim"]


@transaction.atomic
def seat_claim(*, match: Match, member: MatchMember | None, seat: int | None) -> None:
    """Say which seat the owner (``member`` None) or the co-scorer ``member`` plays in
    (``seat`` None: none, they keep score without playing). Raises :class:`RuleError` for a
    seat the match has not, or one someone else said already."""
    locked = _lock(match)
    players = [p.name for p in locked.seated_players]
    if seat is not None:
        if not 0 <= seat < len(players):
            raise RuleError("no_such_seat", gettext("this match has no such player"))
        taken = seats_taken(locked, but=[member.pk if member is not None else None])
        if seat in taken:
            raise RuleError(
                "seat_taken",
                gettext("{who} already plays as {player} on their phone"),
                who=taken[seat],
                player=players[seat],
            )
    if member is None:
        locked.owner_seat = seat
        locked.save(update_fields=["owner_seat"])
        match.owner_seat = seat
    else:
        MatchMember.objects.filter(pk=member.pk, match=locked).update(seat=seat)
        member.seat = seat


def _waiting_deal(locked: Match, number: int, drawn_from: str | None) -> Deal:
    deal = locked.deals.filter(number=number).first()
    if deal is None:
        raise _deal_gone(number)
    if drawn_from and deal_fingerprint(deal.data) != drawn_from:
        raise refusal_deal_changed(number)
    if deal.status != Deal.Status.WAITING:
        raise _not_waiting(locked, deal)
    return deal


def _not_waiting(locked: Match, deal: Deal) -> RuleError:
    """The refusal of an answer to ``deal``, no longer waiting: which answer came first, and
    whose (the rejection on the deal, the acceptance in the match's history, of the deal as it
    is stored); without them (a deal that never waited), that it does not wait."""
    number = deal.number
    if deal.status == Deal.Status.REJECTED and deal.rejected_by:
        return RuleError(
            "deal_not_waiting",
            gettext("deal {number} was rejected by {who} meanwhile"),
            number=number,
            who=deal.rejected_by,
        )
    accepted = (
        locked.changes.filter(kind=MatchChange.Kind.CONFIRMED, number=number)
        .order_by("-pk")
        .only("by", "after")
        .first()
    )
    if deal.status == Deal.Status.COUNTED and accepted is not None and accepted.after == deal.data:
        return RuleError(
            "deal_not_waiting",
            gettext("deal {number} was accepted by {who} meanwhile"),
            number=number,
            who=accepted.by,
        )
    return RuleError(
        "deal_not_waiting",
        gettext(
            "deal {number} is not waiting for confirmation any more: it was accepted "
            "or rejected meanwhile"
        ),
        number=number,
    )


def _right(locked: Match, deal: Deal, by: Actor, as_owner: bool) -> Right:
    header = locked.header
    right = review_right(header, deal, by, is_owner=as_owner)
    if right is None:
        raise RuleError(
            "not_for_you_to_confirm",
            gettext("deal {number} waits for {players}: one of them accepts or rejects it"),
            number=deal.number,
            players=" · ".join(waiting_for(header, deal)),
        )
    return right


def _behalf(right: Right) -> dict[str, bool]:
    return {"on_behalf": True} if right == Right.BEHALF else {}


@transaction.atomic
def deal_confirm(
    *, match: Match, number: int, by: Actor, as_owner: bool = False, drawn_from: str | None = None
) -> Right:
    """Accept waiting deal ``number``: it counts in the totals from now on (and may finish the
    match). ``by`` plays on another side than whoever saved it, or is the owner
    (``as_owner``) accepting on behalf of the table. ``drawn_from``: the
    :func:`~scorekeeper.services.deal_fingerprint` of the deal the page showed (refused if it
    was corrected since). Returns why ``by`` could. Raises :class:`RuleError`."""
    locked = _lock(match)
    deal = _waiting_deal(locked, number, drawn_from)
    right = _right(locked, deal, by, as_owner)
    deal.status = Deal.Status.COUNTED
    deal.save(update_fields=["status", "updated"])
    _, result, _ = rules_match.score_document_full(match_document(locked))
    change_record(
        match=locked,
        kind=MatchChange.Kind.CONFIRMED,
        by=by,
        number=number,
        after=deal.data,
        points_after=deal_points(result, number),
        detail=_behalf(right),
    )
    _store_result(locked, result, caller=match, by=by)
    return right


@transaction.atomic
def deal_reject(
    *,
    match: Match,
    number: int,
    reason: str,
    by: Actor,
    as_owner: bool = False,
    drawn_from: str | None = None,
) -> Right:
    """Reject waiting deal ``number`` with ``reason``: it stays in its place but out of the
    totals until someone corrects it (the correction starts from the deal as stored and shows
    the reason; saving it makes the deal wait again). Who may: as :func:`deal_confirm`.
    Raises :class:`RuleError` (no reason, too long a reason, or as :func:`deal_confirm`)."""
    reason = " ".join((reason or "").split())
    if not reason:
        raise RuleError(
            "reason_needed",
            gettext("say what is wrong with deal {number}, so that it can be corrected"),
            number=number,
        )
    if len(reason) > REASON_MAX:
        raise RuleError(
            "reason_too_long",
            gettext("a reason has at most {limit} characters"),
            limit=REASON_MAX,
        )
    locked = _lock(match)
    deal = _waiting_deal(locked, number, drawn_from)
    right = _right(locked, deal, by, as_owner)
    deal.status = Deal.Status.REJECTED
    deal.rejected_by = by.name
    deal.reason = reason
    deal.save(update_fields=["status", "rejected_by", "reason", "updated"])
    # the correction begins again from the deal as stored, with the reason beside it
    DealDraft.objects.filter(match=locked, number=number, editing=True).delete()
    _, result, _ = rules_match.score_document_full(match_document(locked))
    change_record(
        match=locked,
        kind=MatchChange.Kind.REJECTED,
        by=by,
        number=number,
        after=deal.data,
        points_after=deal_points(result, number),
        detail={"reason": reason, **_behalf(right)},
    )
    _store_result(locked, result, caller=match, by=by)
    return right
