"""The scoreboard's buttons of the confirmation by the other side (posted to the scoreboard,
``scorekeeper.views.match_detail``, as its other buttons are): say which player this phone
is, accept a waiting deal, reject it with a reason. Each says what it did, or why not; a
rejection refused (the deal accepted or rejected by someone else meanwhile, or changed) says
so with the reason that was typed, so that nothing typed is lost."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest
from django.utils.translation import gettext as _

from scorekeeper import rule_messages
from scorekeeper.access import Access
from scorekeeper.confirmation import services
from scorekeeper.confirmation.selectors import Right
from scorekeeper.inputs import parse_int
from scorekeeper.models import MAX_DEALS
from scorekeeper.rules.errors import RuleError

__all__ = ["ACTIONS", "scoreboard_action"]

#: The scoreboard actions this module answers.
ACTIONS = ("seat", "confirm", "reject")


def scoreboard_action(request: HttpRequest, access: Access, action: str) -> None:
    """Carry out ``action`` (one of :data:`ACTIONS`); a refusal raises RuleError."""
    match = access.match
    if action == "seat":
        raw = request.POST.get("seat", "")
        seat = None if raw == "none" else parse_int(raw, lo=0, hi=len(match.seated_players) - 1)
        if seat is None and raw != "none":
            messages.error(request, _("Nothing was changed: the page did not say which player."))
            return
        services.seat_claim(match=match, member=access.member, seat=seat)
        if seat is None:
            messages.success(request, _("Saved: you keep score without playing."))
        else:
            messages.success(
                request,
                _("Saved: on this match you play as %(name)s.")
                % {"name": match.seated_players[seat].name},
                extra_tags="seat_saved",
            )
        return
    number = parse_int(request.POST.get("number"), lo=1, hi=MAX_DEALS)
    if number is None:
        messages.error(request, _("Nothing was changed: the page did not say which deal."))
        return
    common = {
        "match": match,
        "number": number,
        "by": access.actor,
        "as_owner": access.is_owner,
        "drawn_from": request.POST.get("base") or None,
    }
    if action == "confirm":
        right = services.deal_confirm(**common)
        text = (
            _("Deal %(number)s accepted on behalf of the table: it counts now.")
            if right == Right.BEHALF
            else _("Deal %(number)s accepted: it counts now.")
        )
        messages.success(request, text % {"number": number}, extra_tags="deal_confirmed")
    else:
        reason = request.POST.get("reason", "")
        try:
            services.deal_reject(**common, reason=reason)
        except RuleError as error:
            _reason_kept(request, error, number, reason)
            return
        messages.success(
            request,
            _("Deal %(number)s rejected: it waits for its correction, your reason beside it.")
            % {"number": number},
            extra_tags="deal_rejected",
        )


def _reason_kept(request: HttpRequest, error: RuleError, number: int, reason: str) -> None:
    """Why a rejection of deal ``number`` was refused, then the reason typed for it (the page
    is drawn again without it: the deal no longer waits, or waits as changed since): to say at
    the table, or to correct the deal with."""
    messages.error(request, rule_messages.message(error), extra_tags=error.code)
    typed = " ".join(reason.split())
    if typed:
        messages.warning(
            request,
            _("Your rejection of deal %(number)s was not sent. Your reason: “%(reason)s”")
            % {"number": number, "reason": typed},
            extra_tags="reason_not_sent",
        )
