"""Reading an account's players: the list with how many matches each sits in, one player, the
matches a player sits in (for the merge's confirmation), the matches two players share."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import Count, Prefetch, QuerySet

from scorekeeper.models import Match, MatchSeat, Player

__all__ = ["MERGE_SHOWN", "matches_shared", "player_matches", "player_of", "players_of"]

#: The matches of each player the merge's confirmation lists (the newest; the rest counted).
MERGE_SHOWN = 25
#: The largest id a row may have (a bigint): anything beyond is no player of ours.
ID_MAX = 2**63 - 1


def players_of(owner: AbstractBaseUser) -> QuerySet[Player]:
    """The account's players in the order of their names, each with ``match_count``: the
    matches they sit in (one query)."""
    return (
        Player.objects.filter(owner=owner)
        .annotate(match_count=Count("seats"))
        .order_by("key", "pk")
    )


def player_of(owner: AbstractBaseUser, pk: int | None) -> Player | None:
    """The account's player ``pk`` with ``match_count``, or None (none such, or another's)."""
    if pk is None or not 0 < pk <= ID_MAX:
        return None
    return players_of(owner).filter(pk=pk).first()


def player_matches(player: Player, *, limit: int = MERGE_SHOWN) -> list[Match]:
    """The newest ``limit`` matches ``player`` sits in, with their seats and players (two
    queries)."""
    seats = MatchSeat.objects.select_related("player").order_by("seat")
    return list(
        Match.objects.filter(seats__player=player)
        .prefetch_related(Prefetch("seats", queryset=seats))
        .order_by("-created", "-pk")[:limit]
    )


def matches_shared(player: Player, other: Player) -> list[int]:
    """The ids of the matches where both sit at the table (one query)."""
    both = Match.objects.filter(seats__player=player).filter(seats__player=other)
    return list(both.order_by("pk").values_list("pk", flat=True))
