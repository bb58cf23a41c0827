"""Writes of sharing: the links, joining through a score link, removing a co-scorer.

Each is one transaction that locks the match's row first (so a join and a regeneration, or a
removal and a join, never cross) and bumps ``Match.version`` when it changes what a phone
shows (the share page's link and list, the access of a co-scorer).
"""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext

from scorekeeper import names
from scorekeeper.access import may_rejoin
from scorekeeper.confirmation.selectors import seats_taken
from scorekeeper.history.record import Actor, change_record
from scorekeeper.models import Match, MatchChange, MatchMember, ShareLink
from scorekeeper.rules.errors import RuleError
from scorekeeper.sharing import codes

__all__ = [
    "member_join",
    "member_remove",
    "share_link_get_or_create",
    "share_link_regenerate",
]


def _lock(match_pk: int) -> Match:
    return Match.objects.select_for_update().get(pk=match_pk)


def _bump(locked: Match, *, caller: Match | None = None) -> None:
    Match.objects.filter(pk=locked.pk).update(version=F("version") + 1)
    locked.version += 1
    if caller is not None and caller is not locked:
        caller.version = locked.version


def _kind(kind: str) -> str:
    if kind not in ShareLink.Kind.values:
        raise ValueError(f"no such kind of link: {kind!r}")
    return kind


def _unused(field: str, make) -> str:
    """A new value for a unique column that no link holds (a clash is all but impossible; the
    unique constraint stays the guard)."""
    for _ in range(8):
        value = make()
        if not ShareLink.objects.filter(**{field: value}).exists():
            return value
    raise RuntimeError(f"no unused {field} found")  # pragma: no cover - 8 clashes in a row


def _new_link(match: Match, kind: str) -> ShareLink:
    return ShareLink.objects.create(
        match=match,
        kind=kind,
        token=_unused("token", codes.token_new),
        code=_unused("code", codes.code_new),
    )


@transaction.atomic
def share_link_get_or_create(*, match: Match, kind: str) -> ShareLink:
    """The match's link of ``kind`` (``"score"`` or ``"watch"``), made if it has none yet."""
    _kind(kind)
    locked = _lock(match.pk)
    link = ShareLink.objects.filter(match=locked, kind=kind).first()
    if link is None:
        link = _new_link(locked, kind)
        _bump(locked, caller=match)
    return link


@transaction.atomic
def share_link_regenerate(*, match: Match, kind: str, by: Actor | str = "") -> ShareLink:
    """A new link of ``kind`` in place of the old one, whose token and code stop working at
    once. Co-scorers who joined keep their access (the owner removes them one by one); one
    the owner removed may join again through the new link."""
    _kind(kind)
    locked = _lock(match.pk)
    ShareLink.objects.filter(match=locked, kind=kind).delete()
    link = _new_link(locked, kind)
    change_record(match=locked, kind=MatchChange.Kind.LINK, by=by, detail={"link": kind})
    _bump(locked, caller=match)
    return link


def _refusal_link_gone() -> RuleError:
    return RuleError(
        "link_gone",
        gettext("this link does not work any more: the owner made a new one. Ask for it"),
    )


def _refusal_removed() -> RuleError:
    return RuleError(
        "member_removed",
        gettext("the owner removed you from this match: you cannot keep its score any more"),
    )


def _guest_name(name: str) -> str:
    name = names.normalize(name)
    if not name:
        raise RuleError(
            "name_missing", gettext("give the name the table knows you by"), where=("name",)
        )
    problem = names.refusal(name, where=("name",))
    if problem is not None:
        raise problem
    if len(name) > names.NAME_MAX:
        raise RuleError(
            "name_too_long",
            gettext("a name may have at most {limit} characters"),
            limit=names.NAME_MAX,
            where=("name",),
        )
    return name


@transaction.atomic
def member_join(
    *,
    link: ShareLink,
    user: AbstractBaseUser | None = None,
    guest_key: str | None = None,
    name: str = "",
) -> MatchMember:
    """Make whoever opened the score ``link`` a co-scorer of its match: the account ``user``,
    or the phone whose guest key has the digest ``guest_key`` under the display ``name``
    (normalised and checked as a player's name is). Joining again is harmless: the same
    membership comes back, unchanged.

    Raises :class:`RuleError`: ``link_gone`` (the link was replaced meanwhile),
    ``member_removed`` (the owner removed this co-scorer, and has not made a new link since),
    or a refused name.
    """
    if link.kind != ShareLink.Kind.SCORE:
        raise ValueError("only a score link makes co-scorers")
    if (user is None) == (guest_key is None):
        raise ValueError("an account or a phone joins, one of the two")
    locked = _lock(link.match_id)
    current = ShareLink.objects.filter(pk=link.pk, token=link.token).first()
    if current is None:
        raise _refusal_link_gone()
    if user is not None and user.pk == locked.owner_id:
        raise ValueError("the owner does not join their own match")
    mine = {"user": user} if user is not None else {"guest_key": guest_key}
    member = MatchMember.objects.filter(match=locked, **mine).first()
    if member is not None and member.removed is None:
        return member
    if member is not None:
        if not may_rejoin(member, current):
            raise _refusal_removed()
        member.removed = None  # removed before the owner made this link: welcome back
        member.save(update_fields=["removed"])
    else:
        shown = user.get_username()[: names.NAME_MAX] if user is not None else _guest_name(name)
        seat = _seat_named(locked, shown)
        member = MatchMember.objects.create(match=locked, name=shown, seat=seat, **mine)
    change_record(
        match=locked,
        kind=MatchChange.Kind.JOINED,
        by=Actor(name=member.name, user_id=member.user_id),
        detail={"member": member.name},
    )
    match_field = ShareLink._meta.get_field("match")
    _bump(locked, caller=link.match if match_field.is_cached(link) else None)
    return member


def _seat_named(locked: Match, name: str) -> int | None:
    """The seat of the player a new co-scorer's name is (the same name, ignoring case and
    spacing), if nobody has said it is theirs: for the confirmation by the other side."""
    key = names.key(name)
    for seat, player in enumerate(locked.seated_players):
        if player.key == key:
            return None if seat in seats_taken(locked) else seat
    return None


@transaction.atomic
def member_remove(*, member: MatchMember, by: Actor | str = "") -> MatchMember:
    """Remove a co-scorer: they lose access at once (their next request is refused with a
    page that says so). Removing one already removed changes nothing."""
    locked = _lock(member.match_id)
    row = MatchMember.objects.select_for_update().get(pk=member.pk, match=locked)
    if row.removed is None:
        row.removed = timezone.now()
        row.save(update_fields=["removed"])
        change_record(
            match=locked, kind=MatchChange.Kind.REMOVED, by=by, detail={"member": row.name}
        )
        _bump(locked)
    member.removed = row.removed
    return row
