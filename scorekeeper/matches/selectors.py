"""Reading the matches of an account or a phone: the history's page, the names to filter by,
and what home shows.

Every list reads the cache the services keep on :class:`~scorekeeper.models.Match` (status,
winner, totals, deal count), never a scoring, and costs a fixed number of queries however many
matches there are: the page's count, its rows, their seats with their players.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from types import SimpleNamespace

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.core.paginator import Page, Paginator
from django.db.models import Exists, F, OuterRef, QuerySet
from django.utils.http import urlencode

from scorekeeper import names
from scorekeeper.models import Game, Match, MatchSeat, Player
from scorekeeper.selectors import matches_for_guest, matches_for_user

__all__ = [
    "HISTORY_PAGE_SIZE",
    "HOME_FINISHED",
    "STATUSES",
    "Filters",
    "HomeMatches",
    "history_matches",
    "history_page",
    "history_player_names",
    "home_matches",
    "matches_visible",
    "row_columns",
]

#: Matches to a page of the history.
HISTORY_PAGE_SIZE = 25
#: The finished matches home shows (the newest); the rest are in the history.
HOME_FINISHED = 10
#: The history's status filter: a match's status, or put away by its owner.
STATUSES = SimpleNamespace(
    IN_PROGRESS=Match.Status.IN_PROGRESS.value,
    FINISHED=Match.Status.FINISHED.value,
    ARCHIVED="archived",
)


@dataclass(frozen=True)
class Filters:
    """What the history is narrowed to; an empty value narrows nothing. ``player`` is a whole
    name (the same person: :func:`scorekeeper.names.key`), ``search`` a part of one."""

    search: str = ""
    game: str = ""
    player: str = ""
    status: str = ""
    since: date | None = None
    until: date | None = None

    @property
    def active(self) -> bool:
        return any((self.search, self.game, self.player, self.status, self.since, self.until))

    def query(self, **extra: object) -> str:
        """The filters as an address's query (without ``?``), with ``extra`` parameters."""
        params = {
            "q": self.search,
            "game": self.game,
            "player": self.player,
            "status": self.status,
            "since": self.since.isoformat() if self.since else "",
            "until": self.until.isoformat() if self.until else "",
            **extra,
        }
        return urlencode({k: v for k, v in params.items() if v not in ("", None)})


def matches_visible(
    user: AbstractBaseUser | AnonymousUser, guest_key: str | None
) -> QuerySet[Match]:
    """Every match the visitor may open: an account's own and those it joined (each marked
    ``joined``), or, without an account, those this phone joined (``guest_key``: the digest of
    its key). Seats and players prefetched, the owner at hand."""
    if user.is_authenticated:
        return matches_for_user(user, joined=True)
    return matches_for_guest(guest_key)


def _seated(**lookup: object) -> Exists:
    return Exists(MatchSeat.objects.filter(match=OuterRef("pk"), **lookup))


def history_matches(matches: QuerySet[Match], filters: Filters) -> QuerySet[Match]:
    """``matches`` narrowed to ``filters``, newest first (by the day each began here)."""
    if filters.game:
        matches = matches.filter(game=filters.game)
    if filters.status == STATUSES.ARCHIVED:
        matches = matches.filter(archived__isnull=False)
    elif filters.status:
        matches = matches.filter(status=filters.status)
    if filters.player:
        matches = matches.filter(_seated(player__key=names.key(filters.player)))
    search = names.key(filters.search) if filters.search else ""
    if search:
        matches = matches.filter(_seated(player__key__contains=search))
    if filters.since:
        matches = matches.filter(created__date__gte=filters.since)
    if filters.until:
        matches = matches.filter(created__date__lte=filters.until)
    return matches.order_by("-created", "-pk")


def history_page(matches: QuerySet[Match], filters: Filters, number: int | None) -> Page:
    """Page ``number`` (from 1) of the filtered matches: a number that is no page gives the
    first, one past the end the last. Three queries: the count, the rows, their seats."""
    return Paginator(history_matches(matches, filters), HISTORY_PAGE_SIZE).get_page(number)


def history_player_names(matches: QuerySet[Match]) -> list[str]:
    """The names of everyone who sits in ``matches``, one a person (by key), in key order:
    what the player filter offers. One query."""
    rows = (
        Player.objects.filter(seats__match__in=matches.values("pk"))
        .values_list("key", "name")
        .distinct()
        .order_by("key", "name")
    )
    shown: dict[str, str] = {}
    for key, name in rows:
        shown.setdefault(key, name)
    return list(shown.values())


@dataclass(frozen=True)
class HomeMatches:
    """What home lists: every match in progress, the newest finished ones, and whether older
    finished ones wait in the history. Archived matches are in none of them."""

    in_progress: list[Match]
    finished: list[Match]
    more: bool
    #: Nothing to list, but archived matches in the history.
    only_archived: bool = False


def home_matches(user: AbstractBaseUser | AnonymousUser, guest_key: str | None) -> HomeMatches:
    """Four queries whatever the number of matches (two lists, each with its seats), a fifth
    when both are empty (whether any match is archived)."""
    visible = matches_visible(user, guest_key)
    shown = visible.filter(archived__isnull=True)
    in_progress = list(shown.filter(status=Match.Status.IN_PROGRESS))
    newest = F("finished_at").desc(nulls_last=True)
    finished = list(
        shown.filter(status=Match.Status.FINISHED).order_by(newest, "-updated", "-pk")[
            : HOME_FINISHED + 1
        ]
    )
    return HomeMatches(
        in_progress=in_progress,
        finished=finished[:HOME_FINISHED],
        more=len(finished) > HOME_FINISHED,
        only_archived=not in_progress
        and not finished
        and visible.filter(archived__isnull=False).exists(),
    )


def row_columns(
    match: Match, *, viewer: AbstractBaseUser | AnonymousUser
) -> list[dict[str, object]]:
    """A history row's sides (rummy) or players (Barbu), in order, each with its players, its
    total (the match's cache) and whether it won; ``linked``: the players are the viewer's own
    (their pages, /players/<id>/, are the owner's alone). Reads the seats as loaded."""
    players = match.seated_players
    header = match.header
    if header.game == Game.BARBU:
        seats = [(seat,) for seat in range(header.seats)]
    else:
        seats = [header.side_seats(side) for side in range(header.side_count)]
    totals = list(match.totals) or [0] * len(seats)
    linked = bool(viewer.is_authenticated) and match.owner_id == viewer.pk
    return [
        {
            "players": [players[seat] for seat in column],
            "total": total,
            "winner": match.winner == k,
            "linked": linked,
        }
        for k, (column, total) in enumerate(zip(seats, totals, strict=False))
    ]
