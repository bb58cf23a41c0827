"""Writes of an account's players: rename, merge two into one, remove one.

A player's name lives on :class:`~scorekeeper.models.Player` alone, so every match they sit in
follows a rename or a merge; each bumps those matches' ``version``, so a phone showing one of
them draws the names anew. Each write is one transaction that locks the account's row and then
the players' rows (in the order of their ids: two merges of the same pair never wait on each
other crosswise), so two phones renaming, merging or removing at once are serialised, and so is
a new match that seats one of the players (:func:`lock_players_of`); the one that comes second
finds what the first left and is refused by name when it no longer applies (a new match naming
a player merged away meanwhile makes that name anew).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils.translation import gettext, ngettext

from scorekeeper import names
from scorekeeper.models import Match, MatchSeat, Player
from scorekeeper.players.selectors import matches_shared
from scorekeeper.rules.errors import RuleError

__all__ = ["PlayerMerged", "player_merge", "player_remove", "player_rename"]


@dataclass(frozen=True)
class PlayerMerged:
    """Who was merged into whom, and how many matches changed hands."""

    name: str  # the player merged away
    into: Player  # the one who stays, under their name
    matches: int


def _refusal_gone() -> RuleError:
    return RuleError(
        "player_gone",
        gettext("that player is no longer among yours (merged or removed meanwhile)"),
    )


def lock_players_of(owner_id: int) -> None:
    """Lock the account's row, which stands for all its players: taken first by every write
    that seats one of them (a new or imported match, :func:`scorekeeper.services.
    player_get_or_create`) or changes one (rename, merge, remove), so that those of one account
    come one after the other. Without it, a match naming a player being merged away at the
    same moment could seat them just as their row goes (a server error at the seat's insert or
    the merge's commit), and locking the players themselves, in seat order on one side and id
    order on the other, could deadlock. One row, one order. (SQLite serialises every write
    already: no lock there.)"""
    owners = get_user_model()._default_manager.select_for_update(no_key=True)
    list(owners.filter(pk=owner_id).values_list("pk", flat=True))


def _lock(*players: Player) -> list[Player]:
    """The players' rows, locked, in the order of their ids (the account's row first:
    :func:`lock_players_of`); refused if one has gone."""
    owner = players[0].owner_id
    if any(player.owner_id != owner for player in players):
        raise ValueError("the players of one account only")
    lock_players_of(owner)
    pks = sorted({player.pk for player in players})
    rows = Player.objects.select_for_update().filter(pk__in=pks, owner_id=owner)
    locked = list(rows.order_by("pk"))
    if len(locked) != len(pks):
        raise _refusal_gone()
    return locked


def _refusal_taken(other: Player) -> RuleError:
    return RuleError(
        "player_name_taken",
        gettext(
            "{name} is already one of your players: if they are the same person, merge the "
            "two instead"
        ),
        name=f'"{other.name}"',
        other=other.pk,
    )


def _new_name(name: str) -> str:
    """``name`` as the site stores it, or refused with the reason (as a seat's name is)."""
    name = names.normalize(name)
    if not name:
        raise RuleError("name_missing", gettext("give the player a name"))
    problem = names.refusal(name)
    if problem is not None:
        raise problem
    if len(name) > names.NAME_MAX:
        raise RuleError(
            "name_too_long",
            gettext("a name may have at most {limit} characters"),
            limit=names.NAME_MAX,
        )
    return name


def _bump(match_ids: list[int]) -> None:
    """The matches whose names changed: a phone showing one draws it anew."""
    Match.objects.filter(pk__in=match_ids).update(version=F("version") + 1)


def _matches_of(player: Player) -> list[int]:
    return list(MatchSeat.objects.filter(player=player).values_list("match_id", flat=True))


@transaction.atomic
def player_rename(*, player: Player, name: str) -> Player:
    """Give ``player`` a new ``name`` (normalised and checked as a seat's name is); every match
    they sit in shows it. Another spelling of the same name (capitals, spacing) is a rename
    too. Raises :class:`RuleError`: a name the site refuses, ``player_name_taken`` when
    another of the account's players has that name (they may be merged instead, the
    refusal's ``other`` names them), ``player_gone``."""
    name = _new_name(name)
    (locked,) = _lock(player)
    key = names.key(name)
    other = Player.objects.filter(owner_id=locked.owner_id, key=key).exclude(pk=locked.pk).first()
    if other is not None:
        raise _refusal_taken(other)
    if locked.name != name:
        locked.name = name
        try:
            with transaction.atomic():
                locked.save(update_fields=["name", "key"])
        except IntegrityError:
            # another player took the name between the check and the save (a player made
            # meanwhile by a new match): the unique key refused it
            taken = Player.objects.filter(owner_id=locked.owner_id, key=key).first()
            if taken is None:  # pragma: no cover - the key's only constraint is that one
                raise
            raise _refusal_taken(taken) from None
        _bump(_matches_of(locked))
    player.name, player.key = locked.name, locked.key
    return locked


@transaction.atomic
def player_merge(*, player: Player, into: Player) -> PlayerMerged:
    """Make ``player`` and ``into`` one person: every seat of ``player`` becomes ``into``'s,
    who keeps their name, and ``player`` is removed. Raises :class:`RuleError`:
    ``same_player``, ``players_share_a_match`` (both sit at the table of a match: two
    people), ``player_gone``."""
    if player.pk == into.pk:
        raise RuleError("same_player", gettext("a player cannot be merged with themselves"))
    locked = {p.pk: p for p in _lock(player, into)}
    source, target = locked[player.pk], locked[into.pk]
    shared = len(matches_shared(source, target))
    if shared:
        raise RuleError(
            "players_share_a_match",
            ngettext(
                "{name} and {other} sit at the same table in {count} match: they are two "
                "people, and cannot be merged",
                "{name} and {other} sit at the same table in {count} matches: they are two "
                "people, and cannot be merged",
                shared,
            ),
            name=f'"{source.name}"',
            other=f'"{target.name}"',
            count=shared,
        )
    moved = _matches_of(source)
    MatchSeat.objects.filter(player=source).update(player=target)
    name = source.name
    source.delete()
    _bump(moved)
    return PlayerMerged(name=name, into=target, matches=len(moved))


@transaction.atomic
def player_remove(*, player: Player) -> str:
    """Remove a player who sits in no match; returns their name. Raises :class:`RuleError`:
    ``player_in_matches`` (merge them instead, if they are another name of someone),
    ``player_gone``."""
    (locked,) = _lock(player)
    count = MatchSeat.objects.filter(player=locked).count()
    if count:
        raise RuleError(
            "player_in_matches",
            ngettext(
                "{name} sits in {count} match: only a player who sits in none can be removed",
                "{name} sits in {count} matches: only a player who sits in none can be removed",
                count,
            ),
            name=f'"{locked.name}"',
            count=count,
        )
    name = locked.name
    locked.delete()
    return name
