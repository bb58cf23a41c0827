"""Writes of the exports: an account's data file (``scorekeeper-data/1``) imported back.

The file is imported whole or not at all: every match document in it goes through the one
import of a match (:func:`scorekeeper.services.match_import`), in the file's order, inside one
transaction; the first the rules refuse refuses the file (:class:`MatchRefused`, naming that
match by its position, game and players, and the reason) and nothing is stored.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext

from scorekeeper import names, services
from scorekeeper.exports.selectors import DATA_FORMAT
from scorekeeper.models import Game, Match
from scorekeeper.rules.errors import RuleError, excerpt

__all__ = ["DATA_KEYS", "MATCHES_MAX", "MatchRefused", "account_data_import"]

#: The keys of a data file; any other is refused (as the match document refuses one).
DATA_KEYS = ("format", "exported", "players", "matches")
#: The most matches one file may carry: far beyond any account, a bound on what one request
#: may make the database do.
MATCHES_MAX = 10_000


class MatchRefused(RuleError):
    """A match of a data file the rules refused: the refusal (``refusal``) with the match
    named before its place: ``position`` (counted from 1), ``game`` and ``players`` as the
    document gives them (what a player recognises it by)."""

    def __init__(self, *, position: int, document: object, refusal: RuleError):
        game, players = _described(document)
        label = gettext("match {number} ({game}: {players})").format(
            number=position, game=game or "?", players=", ".join(players) or "?"
        )
        super().__init__(
            refusal.code,
            refusal.template,
            where=(label, *refusal.where),
            place=refusal.place,
            **refusal.params,
        )
        self.position = position
        self.game = game
        self.players = players
        self.refusal = refusal


def _described(document: object) -> tuple[str, list[str]]:
    """The game (its name) and the players of a match document, as far as it says them."""
    if not isinstance(document, dict):
        return "", []
    game = document.get("game")
    shown = Game(game).label if game in Game.values else excerpt(game) if game else ""
    players = document.get("players")
    seated = (
        [excerpt(p, 60) for p in players if isinstance(p, str)] if isinstance(players, list) else []
    )
    return shown, seated


def _refusal(code: str, template: str, **params: Any) -> RuleError:
    return RuleError(code, template, **params)


def _checked(document: object) -> tuple[list[str], list[Any]]:
    """The players and the match documents of a data file, or a refusal of the file as a
    whole (its format, its keys, the types of its parts)."""
    if not isinstance(document, dict):
        raise _refusal("data_not_object", gettext("a data file is one JSON object"))
    if document.get("format") != DATA_FORMAT:
        if document.get("format") == "scorekeeper-match/1":
            raise _refusal(
                "data_is_a_match",
                gettext("this is one match's document, not a data file: import it as a match"),
            )
        raise _refusal(
            "data_format",
            gettext("format: {found} is not {want}"),
            found=repr(document.get("format")),
            want=f'"{DATA_FORMAT}"',
        )
    for key in document:
        if key not in DATA_KEYS:
            raise _refusal(
                "data_unknown_key",
                gettext("{key}: unknown key (a data file has {keys})"),
                key=f'"{key}"',
                keys=", ".join(DATA_KEYS),
            )
    if "exported" in document and not isinstance(document["exported"], str):
        raise _refusal("data_bad_type", gettext("exported: not a text"))
    matches = document.get("matches")
    if not isinstance(matches, list):
        raise _refusal("data_bad_type", gettext("matches: not a list of match documents"))
    if len(matches) > MATCHES_MAX:
        raise _refusal(
            "data_too_many_matches",
            gettext("a data file carries at most {limit} matches, this one {count}"),
            limit=MATCHES_MAX,
            count=len(matches),
        )
    players = document.get("players", [])
    if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
        raise _refusal("data_bad_type", gettext("players: not a list of names"))
    if len(players) > MATCHES_MAX * 5:
        raise _refusal("data_bad_type", gettext("players: more names than any account keeps"))
    names.check(players)  # as a table's names: characters, length, nobody twice
    return players, matches


@transaction.atomic
def account_data_import(*, owner: AbstractBaseUser, document: object) -> list[Match]:
    """Store every match of a data file (``scorekeeper-data/1``) as a new match of ``owner``,
    in the file's order, and its players (those who sit in no match too). All or nothing:
    a refused file raises :class:`RuleError` (a refused match :class:`MatchRefused`) and
    stores nothing."""
    players, documents = _checked(document)
    imported: list[Match] = []
    for position, match_document in enumerate(documents, start=1):
        try:
            imported.append(services.match_import(owner=owner, document=match_document))
        except RuleError as refusal:
            raise MatchRefused(
                position=position, document=match_document, refusal=refusal
            ) from None
    for name in players:
        services.player_get_or_create(owner=owner, name=name)
    return imported
