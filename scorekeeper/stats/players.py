"""A player's statistics, each game on its own (Biriba, Burraco and Barbu are never blended),
from the summaries their finished matches keep (:mod:`scorekeeper.stats.summary`).

A player's *column* in a match is their side in the rummy games (the figures of a deal are
the side's: who of the pair went out is not written down) and their own seat in Barbu. A match
is *won* by every column :func:`~scorekeeper.stats.summary.winners` names: on a tie at the top
every player tied first wins it. A match's *result* (what makes it the best or the worst) is
the lead over the best other column in the rummy games (a win by 600 beats a win by 20, what
ever the target) and the player's own total in Barbu (the points are zero-sum there already).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.utils.translation import gettext_lazy as _

from scorekeeper.labels import BONUSES, CONTRACTS, bonus_name, contract_name
from scorekeeper.models import Game, Match, Player
from scorekeeper.stats.selectors import finished_matches_of, summaries_of

__all__ = ["HEAD_TO_HEAD_MIN", "RESULTS_SHOWN", "player_stats"]

#: Head-to-head lists every other player met in at least this many finished matches of a game.
HEAD_TO_HEAD_MIN = 3
#: The player's chart of results over time shows the latest this many matches of a game.
RESULTS_SHOWN = 30

GAME_ORDER = (Game.BIRIBA, Game.BURRACO, Game.BARBU)
GAME_LABELS = {Game.BIRIBA: _("Biriba"), Game.BURRACO: _("Burraco"), Game.BARBU: _("Barbu")}


def _half_up(exact: Decimal, places: str) -> Decimal:
    """Rounded as a player rounds by hand: a half goes away from zero (196.25 → 196.3), where
    Python's round() takes a half to the even digit (196.2)."""
    return exact.quantize(Decimal(places), rounding=ROUND_HALF_UP)


def _percent(part: int, whole: int) -> int | None:
    return int(_half_up(Decimal(100 * part) / Decimal(whole), "1")) if whole else None


def _average(points: int, count: int) -> float | None:
    return float(_half_up(Decimal(points) / Decimal(count), "0.1")) if count else None


@dataclass
class _Met:
    """Another player across the matches of one game."""

    player: Player
    met: int = 0
    won: int = 0
    lost: int = 0
    partners: int = 0
    partners_won: int = 0
    opponents: int = 0
    ahead: int = 0
    behind: int = 0


@dataclass
class _Game:
    game: str
    played: int = 0
    won: int = 0
    longest: int = 0
    current: int = 0
    best: tuple[int, int, Match] | None = None  # (result, order, match)
    worst: tuple[int, int, Match] | None = None
    results: list[dict[str, Any]] = field(default_factory=list)
    met: dict[int, _Met] = field(default_factory=dict)
    points: int = 0
    deals: int = 0
    went_out: int = 0
    pots_missed: int = 0
    bonuses: dict[str, int] = field(default_factory=dict)
    contracts: dict[str, list[int]] = field(default_factory=dict)
    doubles: dict[str, int] = field(
        default_factory=lambda: dict.fromkeys(
            ("made", "received", "redoubled", "won", "lost", "net"), 0
        )
    )
    compulsory: list[int] = field(default_factory=lambda: [0, 0])


def _result(game: str, totals: list[int], column: int) -> int:
    if game == Game.BARBU:
        return totals[column]
    others = [t for c, t in enumerate(totals) if c != column]
    return totals[column] - max(others) if others else totals[column]


def _add(stats: _Game, match: Match, summary: dict[str, Any], seat: int, order: int) -> None:
    column = summary["seat_column"][seat]
    totals = summary["totals"]
    mine = summary["columns"][column]
    won = column in summary["winners"]
    result = _result(stats.game, totals, column)
    stats.played += 1
    stats.won += won
    stats.current = stats.current + 1 if won else 0
    stats.longest = max(stats.longest, stats.current)
    # the latest of equal results stands for them
    if stats.best is None or result >= stats.best[0]:
        stats.best = (result, order, match)
    if stats.worst is None or result <= stats.worst[0]:
        stats.worst = (result, order, match)
    stats.results.append({"match": match, "value": result, "won": won})
    stats.points += mine["points"]
    stats.deals += mine["deals"]
    if stats.game == Game.BARBU:
        for code, (count, points) in mine["contracts"].items():
            kept = stats.contracts.setdefault(code, [0, 0])
            kept[0] += count
            kept[1] += points
        for key in stats.doubles:
            stats.doubles[key] += mine[key]
        stats.compulsory[0] += mine["compulsory"][0]
        stats.compulsory[1] += mine["compulsory"][1]
    else:
        stats.went_out += mine["went_out"]
        stats.pots_missed += mine["pots_missed"]
        for kind, count in mine["bonuses"].items():
            stats.bonuses[kind] = stats.bonuses.get(kind, 0) + count
    for other in match.seats.all():
        if other.seat == seat:
            continue
        met = stats.met.setdefault(other.player_id, _Met(player=other.player))
        their = summary["seat_column"][other.seat]
        met.met += 1
        met.won += won
        met.lost += not won
        if their == column:
            met.partners += 1
            met.partners_won += won
        else:
            met.opponents += 1
            met.ahead += totals[column] > totals[their]
            met.behind += totals[column] < totals[their]


def _ordered(table: dict[str, Any], known: dict[str, Any]) -> list[str]:
    """The codes of ``table`` in the order the site lists them (``known``), others after."""
    return [c for c in known if c in table] + sorted(c for c in table if c not in known)


def _figures(stats: _Game) -> dict[str, Any]:
    out: dict[str, Any] = {
        "game": stats.game,
        "label": GAME_LABELS[stats.game],
        "played": stats.played,
        "won": stats.won,
        "lost": stats.played - stats.won,
        "rate": _percent(stats.won, stats.played),
        "longest": stats.longest,
        "current": stats.current,
        "best": {"match": stats.best[2], "result": stats.best[0]} if stats.best else None,
        "worst": {"match": stats.worst[2], "result": stats.worst[0]} if stats.worst else None,
        "head_to_head": sorted(
            (vars(m) for m in stats.met.values() if m.met >= HEAD_TO_HEAD_MIN),
            key=lambda m: (-m["met"], m["player"].key, m["player"].pk),
        ),
        "results": stats.results[-RESULTS_SHOWN:],
        "deals": stats.deals,
        "points": stats.points,
        "per_deal": _average(stats.points, stats.deals),
    }
    if stats.game == Game.BARBU:
        out["contracts"] = [
            {
                "code": code,
                "name": contract_name(code),
                "deals": stats.contracts[code][0],
                "average": _average(stats.contracts[code][1], stats.contracts[code][0]),
            }
            for code in _ordered(stats.contracts, CONTRACTS)
        ]
        out["doubles"] = dict(stats.doubles)
        out["compulsory"] = {"met": stats.compulsory[0], "of": stats.compulsory[1]}
    else:
        out["went_out"] = stats.went_out
        out["going_out_rate"] = _percent(stats.went_out, stats.deals)
        out["pots_missed"] = stats.pots_missed
        out["bonuses"] = [
            {"code": kind, "name": bonus_name(kind), "count": stats.bonuses[kind]}
            for kind in _ordered(stats.bonuses, BONUSES)
            if stats.bonuses[kind]
        ]
    return out


def player_stats(player: Player) -> list[dict[str, Any]]:
    """The player's figures, one entry a game they finished a match of (in the order Biriba,
    Burraco, Barbu), from their finished matches: four queries at most, whatever their
    number (the matches, their seats, and for matches whose summary is stale their deals and
    the summaries kept)."""
    matches = finished_matches_of(player)
    found = summaries_of(matches)
    games: dict[str, _Game] = {}
    for order, match in enumerate(matches):
        summary = found.get(match.pk)
        if summary is None or not summary["finished"]:
            continue
        seat = next(s.seat for s in match.seats.all() if s.player_id == player.pk)
        stats = games.setdefault(match.game, _Game(game=match.game))
        _add(stats, match, summary, seat, order)
    return [_figures(games[game]) for game in GAME_ORDER if game in games]
