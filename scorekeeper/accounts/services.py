"""Deleting an account with everything it holds.

Matches go first (their seats and deals with them), then the players, then the account, then
what the login limit noted under its name. A seat holds on to its player (``MatchSeat.player``
was protected, is restricted now), so the order matters while such a protection stands and
does no harm after. All in one transaction: an account is deleted whole or not at all.
"""

from __future__ import annotations

from dataclasses import dataclass

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction

from scorekeeper.models import Match, Player


@dataclass(frozen=True)
class AccountDeleted:
    username: str
    matches: int
    players: int


@transaction.atomic
def account_delete(*, user: AbstractBaseUser) -> AccountDeleted:
    User = get_user_model()
    # The account's row is locked first: a match being created for it meanwhile either
    # commits before (and is deleted here) or waits and then finds no account.
    account = User.objects.select_for_update().get(pk=user.pk)
    matches = Match.objects.filter(owner=account)
    match_count = matches.count()
    matches.delete()
    players = Player.objects.filter(owner=account)
    player_count = players.count()
    players.delete()
    username = account.get_username()
    account.delete()
    # what the login limit kept about the name (addresses, browsers) goes with it
    for log in (AccessAttempt, AccessFailureLog, AccessLog):
        log.objects.filter(username=username).delete()
    return AccountDeleted(username=username, matches=match_count, players=player_count)
