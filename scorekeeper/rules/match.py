"""The match document (format ``scorekeeper-match/1``): parse → validate → score → export.

    doc = json.load(f)
    scored = score_document(doc)          # raises RuleError naming the place and the rule

or step by step: ``m = parse_document(doc)``, ``result = score_match(m)``,
``export_document(m, result)``. One deal at a time, on the state the deals before it left:
``parse_deal`` reads a deal alone as the document would, and :mod:`.incremental` scores it.
"""

from __future__ import annotations

import copy
import importlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from . import changes as history
from . import schema
from .base import GameEngine, MatchHeader, MatchResult
from .cards import _quote
from .errors import OneOf, Place, RuleError, Term, Words

FORMAT = "scorekeeper-match/1"
GAMES = ("biriba", "burraco", "barbu")
EXPORT_KEYS = ("score", "totals", "finished", "winner", "victory_points")
TOP_KEYS = (
    "format",
    "game",
    "rules",
    "players",
    "first_dealer",
    "deals",
    *EXPORT_KEYS,
    "changes",
)


def engine(game: str) -> GameEngine:
    if game not in GAMES:
        raise RuleError(
            "bad_game",
            "{game} is not a game (biriba, burraco or barbu)",
            game=_quote(game),
            where=("game",),
            place=Place(field="game"),
        )
    return importlib.import_module(f"scorekeeper.rules.{game}")  # type: ignore[return-value]


@dataclass(frozen=True)
class Match:
    header: MatchHeader
    rules_input: dict[str, Any]  # the rules object as written
    rules: Any  # the engine's resolved rules value
    deals: tuple[Any, ...]
    #: the match's history (``changes``), each change as the document writes it; scoring
    #: never reads it (see :mod:`.changes`)
    changes: tuple[dict[str, Any], ...] = ()

    @property
    def engine(self) -> GameEngine:
        return engine(self.header.game)


def parse_header(doc: object) -> tuple[MatchHeader, dict[str, Any], Any]:
    raw = schema.obj(
        doc,
        allowed=TOP_KEYS,
        required=("format", "game", "players", "deals"),
        what=Words("a match document (a JSON object)"),
    )
    if raw["format"] != FORMAT:
        raise RuleError(
            "bad_format",
            "{got} is not a format this program reads (expected {want})",
            got=_quote(raw["format"]),
            want=_quote(FORMAT),
            where=("format",),
            place=Place(field="format"),
        )
    game = schema.string(raw["game"], "game")
    eng = engine(game)
    players_raw = schema.array(raw["players"], "players")
    players = []
    seen: set[str] = set()
    for i, p in enumerate(players_raw):
        seat = Place(field="players", index=i)
        name = schema.string(p, f"players[{i}]", place=seat).strip()
        if not name:
            raise RuleError(
                "empty_name",
                "a player's name may not be empty",
                where=(f"players[{i}]",),
                place=seat,
            )
        if name.casefold() in seen:
            raise RuleError(
                "duplicate_player",
                "{name} is named twice",
                name=_quote(name),
                where=(f"players[{i}]",),
                place=seat,
            )
        seen.add(name.casefold())
        players.append(name)
    counts = _player_counts(eng)
    if len(players) not in counts:
        raise RuleError(
            "player_count",
            "{game} is played by {allowed} players, not {got}",
            game=Term("game", game),
            allowed=OneOf(counts),
            got=len(players),
            where=("players",),
            place=Place(field="players"),
        )
    first = schema.seat(raw.get("first_dealer", 0), "first_dealer", len(players))
    rules_raw = raw.get("rules", {})
    if rules_raw is None:
        rules_raw = {}
    rules_obj = schema.obj(rules_raw, allowed=_AnyKey(), what=Words("a rules object"))
    check_players = getattr(eng, "check_players", None)
    if check_players is not None:
        check_players(len(players), rules_obj)  # Barbu: five players play Salade only
    try:
        rules = _at_table(eng, eng.parse_rules(rules_obj), len(players))
    except RuleError as e:
        raise e.under("rules", "rules") from None
    header = MatchHeader(game=game, players=tuple(players), first_dealer=first)
    return header, dict(rules_obj), rules


def _player_counts(eng: GameEngine) -> tuple[int, ...]:
    """The numbers of players a document of the game may have: the engine's
    ``PLAYER_COUNTS`` (what a new match offers), or more where some rules need them (Barbu's
    ``DOCUMENT_PLAYER_COUNTS``: five play Salade; ``check_players`` refuses the rest)."""
    return getattr(eng, "DOCUMENT_PLAYER_COUNTS", eng.PLAYER_COUNTS)


def _at_table(eng: GameEngine, rules: Any, seats: int) -> Any:
    """The rules as a table of ``seats`` plays them, for an engine whose options depend on the
    number of players (Burraco's ``rules_at_table``: three players; Barbu's: five, Salade);
    others' as they are."""
    at_table = getattr(eng, "rules_at_table", None)
    return rules if at_table is None else at_table(rules, seats)


def rules_at_table(game: str, raw: Mapping[str, Any], seats: int) -> Any:
    """The resolved rules of a stored match of ``game`` with ``seats`` players, as
    :func:`parse_header` reads them (Barbu's five play Salade with 10 tricks a deal)."""
    eng = engine(game)
    return _at_table(eng, eng.parse_rules(dict(raw)), seats)


class _AnyKey:
    """``allowed`` for an object whose keys the engine checks itself."""

    def __contains__(self, item: object) -> bool:
        return True

    def __iter__(self):  # pragma: no cover - never listed
        return iter(())


def parse_document(doc: object) -> Match:
    if isinstance(doc, dict):
        # first of all: every string of it may be stored, shown or quoted in a refusal, and
        # only text can be
        schema.encodable(doc)
    header, rules_input, rules = parse_header(doc)
    assert isinstance(doc, dict)
    eng = engine(header.game)
    deals_raw = schema.array(doc["deals"], "deals")
    deals = [
        _parse_deal(eng, d, header=header, rules=rules, index=i) for i, d in enumerate(deals_raw)
    ]
    changes = history.parse_changes(doc.get("changes", []), header)
    return Match(
        header=header, rules_input=rules_input, rules=rules, deals=tuple(deals), changes=changes
    )


def _parse_deal(
    eng: GameEngine, raw: object, *, header: MatchHeader, rules: Any, index: int
) -> Any:
    try:
        return eng.parse_deal(raw, header=header, rules=rules, index=index)
    except RuleError as e:
        raise e.at(f"deal {index + 1}", deal=index + 1) from None


def parse_deal(raw: object, *, header: MatchHeader, rules: Any, index: int) -> Any:
    """Deal ``index`` (0-based) of a match read on its own, refused as :func:`parse_document`
    refuses it in a whole document (its text first, then its reading, at ``deal N``)."""
    try:
        json.dumps(raw, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        # somewhere in it: find it with its place in a document (the deals before it stand
        # for nothing there)
        schema.encodable({"deals": [None] * index + [raw]})
    except (TypeError, ValueError, RecursionError):
        pass  # not a JSON value: the strict reading refuses it
    return _parse_deal(engine(header.game), raw, header=header, rules=rules, index=index)


def score_match(match: Match) -> MatchResult:
    return match.engine.score(match.header, match.rules, match.deals)


def document_json(match: Match) -> dict[str, Any]:
    """The document as written (canonical cards), without anything derived; its history
    (``changes``) last, when it has one."""
    eng = match.engine
    doc: dict[str, Any] = {"format": FORMAT, "game": match.header.game}
    if match.rules_input:
        doc["rules"] = dict(match.rules_input)
    doc["players"] = list(match.header.players)
    doc["first_dealer"] = match.header.first_dealer
    doc["deals"] = [eng.deal_json(d) for d in match.deals]
    if match.changes:
        doc["changes"] = _changes_json(match)
    return doc


def _changes_json(match: Match) -> list[dict[str, Any]]:
    """The history as it was read (a copy: the match's own stays as it is)."""
    return [
        {key: copy.deepcopy(value) for key, value in change.items()} for change in match.changes
    ]


def export_document(match: Match, result: MatchResult) -> dict[str, Any]:
    """The document with what the rules derive from its deals; the history, untouched by the
    scoring, after them."""
    doc = document_json(match)
    changes = doc.pop("changes", None)
    for deal, score in zip(doc["deals"], result.deal_scores, strict=True):
        deal["score"] = score
    doc["totals"] = list(result.totals)
    doc["finished"] = result.finished
    doc["winner"] = result.winner
    doc.update(result.export)
    if changes is not None:
        doc["changes"] = changes
    return doc


def score_document(doc: object) -> dict[str, Any]:
    """Parse, validate and score a match document; return it with scores."""
    match = parse_document(doc)
    return export_document(match, score_match(match))


def score_document_full(doc: object) -> tuple[Match, MatchResult, dict[str, Any]]:
    match = parse_document(doc)
    result = score_match(match)
    return match, result, export_document(match, result)


def rules_with_defaults(
    game: str, rules: Mapping[str, Any] | None = None, *, seats: int | None = None
) -> dict[str, Any]:
    """Every option of ``game`` with its value (defaults filled in); ``seats``: for a table of
    that many players (Burraco for three has options of its own and another target)."""
    eng = engine(game)
    try:
        parsed = eng.parse_rules(dict(rules or {}))
        return eng.rules_json(parsed if seats is None else _at_table(eng, parsed, seats))
    except RuleError as e:
        raise e.under("rules", "rules") from None
