"""Writes of deal entry: the deal in progress, shared by every phone of the match.

One :class:`~scorekeeper.models.DealDraft` per deal being entered: the next deal (``editing``
False, one per match) or the correction of deal ``number``. Its ``data`` is
``{"content": <the shared draft>, "base": <digest of the deal being corrected>}``. Every
change happens under the draft's row lock (``select_for_update``; SQLite's IMMEDIATE
transactions serialise the same way), so taps from several phones are applied one after the
other, none lost; a tap carries an id, and a tap whose id was applied already (a resend, a
retry) changes nothing.

The pages never send the shared part: a tap is an action applied to the draft as stored now
(``change``, given by the page), and a save builds the deal from the stored draft.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from scorekeeper import services
from scorekeeper.entry.selectors import draft_content
from scorekeeper.history.record import Actor
from scorekeeper.models import Deal, DealDraft, Match
from scorekeeper.rules.errors import RuleError

#: How many recent taps a draft remembers, to apply a resent one only once.
TAPS_KEPT = 64

Content = dict[str, Any]


class DraftGone(Exception):
    """The deal in progress is no longer there: it was saved (or its deal deleted) meanwhile."""


def _locked(match: Match, *, number: int, editing: bool) -> DealDraft:
    query = DealDraft.objects.select_for_update().filter(match=match, editing=editing)
    if editing:
        query = query.filter(number=number)
    draft = query.first()
    if draft is None or draft.number != number:
        raise DraftGone(number)
    return draft


def _changed(draft: DealDraft, content: Content, *, by: str) -> None:
    draft.data = {**(draft.data or {}), "content": content}
    draft.version += 1
    draft.updated_by = by


@transaction.atomic
def draft_open(
    *,
    match: Match,
    number: int,
    editing: bool,
    initial: Callable[[], Content],
    base: str = "",
) -> DealDraft:
    """The deal in progress for deal ``number`` (the next deal when not ``editing``), begun
    from ``initial()`` when there is none. ``base``: the digest of the deal being corrected,
    kept with a correction so that saving it after someone else changed that deal is refused.

    The next deal has one draft per match: when the deals before it change (the last one
    deleted), the draft in progress stays the next deal's.
    """
    # one opener at a time; the deal count its services keep with the deals, under the lock
    locked = Match.objects.select_for_update().filter(pk=match.pk).only("deal_count").first()
    if locked is not None and not editing and locked.deal_count + 1 != number:
        # the deal was stored (or one before it deleted) since the caller read the match:
        # it is not the next deal, and no deal in progress begins under its number
        raise DraftGone(number)
    if editing:
        draft, _ = DealDraft.objects.get_or_create(
            match=match,
            number=number,
            editing=True,
            defaults={"data": {"content": initial(), "base": base}},
        )
        return draft
    draft = DealDraft.objects.filter(match=match, editing=False).first()
    if draft is None:
        return DealDraft.objects.create(
            match=match, number=number, editing=False, data={"content": initial()}
        )
    if draft.number != number:
        # The last deal was deleted (the next deal is an earlier number now), or a deal was
        # stored past this draft without it (an import, a command): it is the next deal's.
        if draft.number > number:
            draft.number = number
            draft.version += 1
            draft.save(update_fields=["number", "version", "updated"])
        else:
            draft.number = number
            draft.data = {"content": initial()}
            draft.version += 1
            draft.taps = []
            draft.save()
    return draft


@transaction.atomic
def draft_tap(
    *,
    match: Match,
    number: int,
    editing: bool,
    tap: str,
    change: Callable[[Content], tuple[Content, Any]],
    by: str,
) -> tuple[DealDraft, bool, Any]:
    """Apply one tap: ``change(content)`` gives the draft after it, computed from the draft
    as stored now, under its row lock, and the tapping phone's own view after it. ``tap``
    identifies the tap (empty: none): a tap already applied changes nothing, and gives the
    view it gave then (so a resent tap leaves its phone where the first one did).
    Returns the draft, whether the tap changed it, and the phone's view after it.

    Raises :class:`DraftGone` when the deal in progress was saved meanwhile.
    """
    draft = _locked(match, number=number, editing=editing)
    taps = [t for t in (draft.taps or []) if isinstance(t, list) and len(t) == 2]
    for key, view in taps:
        if tap and key == tap:
            return draft, False, view
    before = draft_content(draft)
    after, view = change(before)
    changed = after != before
    if changed:
        _changed(draft, after, by=by)
    if tap:
        draft.taps = [*taps, [tap, view]][-TAPS_KEPT:]
    if changed or tap:
        draft.save()
    return draft, changed, view


@transaction.atomic
def draft_reset(
    *, match: Match, number: int, editing: bool, initial: Callable[[], Content], by: str
) -> DealDraft:
    """Start over: the deal in progress becomes ``initial()`` again, for every phone."""
    draft = _locked(match, number=number, editing=editing)
    if draft_content(draft) != initial():
        _changed(draft, initial(), by=by)
        draft.save()
    return draft


@transaction.atomic
def draft_offer(*, match: Match, number: int, content: Content, base: str, by: str) -> DealDraft:
    """A phone's own entry of deal ``number``, stored by someone else meanwhile, offered as
    the correction of that deal: the correction in progress becomes what that phone had."""
    draft, created = DealDraft.objects.select_for_update().get_or_create(
        match=match,
        number=number,
        editing=True,
        defaults={"data": {"content": content, "base": base}, "updated_by": by},
    )
    if not created:
        _changed(draft, content, by=by)
        draft.data["base"] = base
        draft.save()
    return draft


@transaction.atomic
def draft_rebase(*, match: Match, number: int, base: str) -> None:
    """The correction in progress of deal ``number`` now replaces that deal as it is stored
    (``base``): after a phone was told another changed the deal, saving again replaces it."""
    draft = _locked(match, number=number, editing=True)
    draft.data = {**(draft.data or {}), "base": base}
    draft.version += 1
    draft.save(update_fields=["data", "version", "updated"])


@transaction.atomic
def deal_save(
    *,
    match: Match,
    number: int,
    editing: bool,
    version: int | None,
    build: Callable[[Content], dict[str, Any]],
    by: Actor | str,
    shown: Callable[[Content], bool] | None = None,
) -> tuple[Deal, Content]:
    """Save the deal in progress as deal ``number`` (the next deal) or as the correction of
    deal ``number``, once: the draft is consumed by the save, in the same transaction.

    ``version``: the draft's version the phone's screen showed; if another phone has changed
    the draft since, nothing is saved (the phone sees the draft as it is now, then saves),
    unless ``shown(content)`` says the draft as stored still shows what that screen had open
    (the other phones' steps were elsewhere: the deal is saved with them).
    ``build(content)`` gives the deal as the match document writes it (it may refuse).
    Returns the deal and the draft's content it was built from.
    Raises :class:`DraftGone` when someone else saved it first, and :class:`RuleError` when
    the rules refuse the deal, or it changed meanwhile (nothing is saved).
    """
    # the match first, then the draft: the order draft_open takes them in (no deadlock)
    Match.objects.select_for_update().filter(pk=match.pk).first()
    draft = _locked(match, number=number, editing=editing)
    content = draft_content(draft)
    if version is not None and version != draft.version and not (shown and shown(content)):
        raise RuleError(
            "draft_changed",
            gettext(
                "deal {number} was changed on another phone since your screen was drawn: "
                "check it, then save it"
            ),
            number=number,
        )
    data = build(content)
    if editing:
        base = (draft.data or {}).get("base") or None
        deal = services.deal_correct(match=match, number=number, data=data, drawn_from=base, by=by)
    else:
        deal = services.deal_record(match=match, data=data, number=number, by=by)
    draft.delete()
    return deal, content
