"""A new match naming a player while that player is merged away, at the same moment, with real
transactions and two connections (as tests/test_concurrency.py): neither a server error nor a
seat left on a removed player, whichever of the two gets there first.

Each order is forced: one writer is held at the point where the race hurts (the new match has
read its players and is about to seat them; the merge has moved the seats and removed the
player, not committed yet) until the other has gone as far as it can, or for a moment when the
other waits on a lock (what the fix makes it do). On PostgreSQL the rows are locked; SQLite
serialises every write (IMMEDIATE transactions), and the same outcomes hold.
"""

from __future__ import annotations

import threading

import pytest

from scorekeeper import services
from scorekeeper.models import Match, MatchSeat, Player
from scorekeeper.players import services as players_services
from tests.conftest import rummy_deal
from tests.test_concurrency import at_once

pytestmark = pytest.mark.django_db(transaction=True)

#: How long a held writer waits for the other before going on (the other waits on its lock).
HOLD = 1.5


def _setup(user) -> tuple[Player, Player]:
    """Ana (a misspelling, in one match) and Anna (in another)."""
    for players in (["Ana", "Babis"], ["Anna", "Chris"]):
        match = services.match_create(
            owner=user, game="biriba", players=players, first_dealer=0, rules={}
        )
        services.deal_record(match=match, data=rummy_deal("biriba"))
    return Player.objects.get(owner=user, name="Ana"), Player.objects.get(owner=user, name="Anna")


def _new_match(user) -> Match:
    return services.match_create(
        owner=user, game="biriba", players=["Dora", "Ana"], first_dealer=0, rules={}
    )


def _check(user) -> Match:
    """The new match is stored, each seat on a player of the account that is there."""
    match = Match.objects.get(owner=user, seats__player__name="Dora")
    seats = list(MatchSeat.objects.filter(match=match).select_related("player"))
    assert len(seats) == 2
    assert all(seat.player.owner_id == user.pk for seat in seats)
    assert (
        not Player.objects.filter(owner=user, key="ana")
        .exclude(pk__in=[s.player_id for s in seats])
        .exists()
    )  # no Ana left with nothing: merged, or named anew by the new match alone
    assert not MatchSeat.objects.exclude(player__in=Player.objects.all()).exists()
    return match


def test_a_new_match_that_read_its_players_then_a_merge(user, monkeypatch):
    """The new match has read Ana's row and is about to seat her when Ana is merged into
    Anna: the merge waits for the match, then moves its seat too."""
    ana, anna = _setup(user)
    read, merged = threading.Event(), threading.Event()
    bulk_create = MatchSeat.objects.bulk_create

    def seats_held(objs, *args, **kwargs):
        if threading.current_thread().name == "new-match":
            read.set()
            merged.wait(HOLD)
        return bulk_create(objs, *args, **kwargs)

    monkeypatch.setattr(MatchSeat.objects, "bulk_create", seats_held)

    def new_match():
        threading.current_thread().name = "new-match"
        return _new_match(user)

    def merge():
        assert read.wait(10)
        try:
            return players_services.player_merge(player=ana, into=anna)
        finally:
            merged.set()

    results, errors = at_once(new_match, merge)
    assert errors == []
    match = _check(user)
    # the merge came second: the new match's seat moved with the others
    assert [p.name for p in match.seated_players] == ["Dora", "Anna"]
    assert not Player.objects.filter(pk=ana.pk).exists()


def test_a_merge_under_way_then_a_new_match_naming_the_player(user, monkeypatch):
    """Ana is merged away (seats moved, row removed, not committed) when a new match names
    her; the merge is held until the match is about to seat its players (or for a moment, if
    the match waits on a lock): the match waits for the merge, then makes Ana anew; never a
    seat on the row gone."""
    ana, anna = _setup(user)
    removed, seating = threading.Event(), threading.Event()
    bump, bulk_create = players_services._bump, MatchSeat.objects.bulk_create

    def bump_held(match_ids):
        if threading.current_thread().name == "merge":
            removed.set()
            seating.wait(HOLD)
        return bump(match_ids)

    def seats_seen(objs, *args, **kwargs):
        if threading.current_thread().name == "new-match":
            seating.set()
        return bulk_create(objs, *args, **kwargs)

    monkeypatch.setattr(players_services, "_bump", bump_held)
    monkeypatch.setattr(MatchSeat.objects, "bulk_create", seats_seen)

    def merge():
        threading.current_thread().name = "merge"
        return players_services.player_merge(player=ana, into=anna)

    def new_match():
        threading.current_thread().name = "new-match"
        assert removed.wait(10)
        return _new_match(user)

    results, errors = at_once(merge, new_match)
    assert errors == []
    match = _check(user)
    assert [p.name for p in match.seated_players] == ["Dora", "Ana"]
    assert match.seated_players[1].pk != ana.pk  # Ana made anew, her old row is gone
    assert Player.objects.get(owner=user, key="ana").seats.count() == 1


@pytest.mark.parametrize("rounds", [6])
def test_many_at_once(user, rounds):
    """Merges and new matches released together, both ways round, a few times over: no error
    but the merge's own refusals, every seat on a player that is there."""
    for i in range(rounds):
        source, target = f"Ana{i}", f"Anna{i}"
        for name in (source, target):
            services.match_create(
                owner=user, game="burraco", players=[name, f"X{i}{name}"], first_dealer=0, rules={}
            )
        ana = Player.objects.get(owner=user, name=source)
        anna = Player.objects.get(owner=user, name=target)
        pair = [
            lambda ana=ana, anna=anna: players_services.player_merge(player=ana, into=anna),
            lambda seat=source, other=f"Y{i}": services.match_create(
                owner=user, game="biriba", players=[seat, other], first_dealer=0, rules={}
            ),
        ]
        _, errors = at_once(*(pair if i % 2 else pair[::-1]))
        assert errors == []
    assert not MatchSeat.objects.exclude(player__in=Player.objects.all()).exists()
