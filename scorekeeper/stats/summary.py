"""What one match brings to its players' statistics, read from the rules core's scored
document: nothing here scores.

:func:`match_summary` turns the scored document (each deal as entered with the ``score`` the
rules core gave it, and the rules' totals, end and winner) into plain JSON, one entry a
*column* (a side in the rummy games, a player in Barbu), which the match keeps in
``Match.stats`` with the ``deals_version`` it is of (:mod:`scorekeeper.stats.selectors`).

Rummy column: ``points`` (the side's total), ``deals``, ``went_out`` (deals a player of the side
closed), ``pots_missed`` (deals the side never took its pot), ``bonuses`` (each meld bonus's
kind with its count: the score's ``bonus_counts``).

Barbu column: ``points``, ``deals`` (scored: a deal still to enter counts nothing), ``contracts``
(each contract's code with ``[deals, points]``), ``made`` and ``received`` (doubles), ``redoubled``
(redoubles said), ``won`` and ``lost`` (businesses settled in the player's favour or not, the
rules' :attr:`SettlementLine.gainer`), ``net`` (the score's ``doubles``: what they brought),
``compulsory`` (``[met, of]``: the other declarers' series in which the player doubled the
declarer as often as the rules ask; ``[0, 0]`` when the match's rules ask for none).
"""

from __future__ import annotations

from typing import Any

from scorekeeper.models import Game
from scorekeeper.rules import barbu, burraco_three, rummy
from scorekeeper.rules.barbu.scoring import COMPULSORY_DOUBLES
from scorekeeper.rules.base import MatchHeader

__all__ = ["FORMAT", "match_summary", "winners"]

#: The shape of a summary; another is stale (worked out again), as another ``deals_version`` is.
#: 2: a side counted by its points alone no longer counts as a pot missed.
FORMAT = 2


def winners(
    header: MatchHeader, rules: Any, totals: list[int], *, finished: bool, winner: int | None
) -> list[int]:
    """The columns that won a finished match: the rules' ``winner``; on a tie at the top every
    column tied first (the rules name no winner then); in Barbu King everyone the rules say
    wins (each player with a positive total)."""
    if not finished:
        return []
    if header.game == Game.BARBU:
        won = barbu.winners(rules, totals)
        if won or rules.variant is barbu.Variant.KING:
            return list(won)
    elif winner is not None:
        return [winner]
    best = max(totals)
    return [column for column, total in enumerate(totals) if total == best]


def match_summary(
    header: MatchHeader,
    rules: Any,
    deals: list[dict[str, Any]],
    *,
    totals: list[int],
    finished: bool,
    winner: int | None,
) -> dict[str, Any]:
    """The match's figures a column: ``deals`` as the scored document writes them (each with
    its ``score``), ``totals``, ``finished`` and ``winner`` as the rules' result says."""
    if header.game == Game.BARBU:
        columns = _barbu_columns(header, rules, deals)
        seat_column = list(range(header.seats))
    else:
        columns = _rummy_columns(header, deals)
        seat_column = [header.side_of_seat(seat) for seat in range(header.seats)]
    return {
        "game": header.game,
        "deals": len(deals),
        "finished": finished,
        "totals": list(totals),
        "winners": winners(header, rules, list(totals), finished=finished, winner=winner),
        "seat_column": seat_column,
        "columns": columns,
    }


def _rummy_columns(header: MatchHeader, deals: list[dict[str, Any]]) -> list[dict[str, Any]]:
    columns: list[dict[str, Any]] = [
        {"points": 0, "deals": 0, "went_out": 0, "pots_missed": 0, "bonuses": {}}
        for _ in range(header.side_count)
    ]
    for deal in deals:
        score = deal["score"]
        solo = score.get("solo")
        # Burraco for three: a deal's sides are the solo player and the pair (each of its
        # players credited with what the pair did), or one a player; points are the players'
        seating = burraco_three.solo_and_pair(header, solo) if isinstance(solo, int) else header
        players = score.get("players")
        for k, (side_score, side) in enumerate(
            zip(score["sides"], deal.get("sides", []), strict=True)
        ):
            for seat_or_side in seating.side_seats(k) if players else (k,):
                column = columns[seat_or_side]
                column["points"] += players[seat_or_side] if players else side_score["total"]
                column["deals"] += 1
                column["went_out"] += bool(side.get("went_out"))
                column["pots_missed"] += rummy.pot_taken(side) is False
                for kind, count in side_score.get("bonus_counts", {}).items():
                    column["bonuses"][kind] = column["bonuses"].get(kind, 0) + count
    return columns


def _barbu_columns(
    header: MatchHeader, rules: Any, deals: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    seats = range(header.seats)
    columns: list[dict[str, Any]] = [
        {
            "points": 0,
            "deals": 0,
            "contracts": {},
            "made": 0,
            "received": 0,
            "redoubled": 0,
            "won": 0,
            "lost": 0,
            "net": 0,
            "compulsory": [0, 0],
        }
        for _ in seats
    ]
    # (declarer, seat): how often seat doubled the declarer in the declarer's deals
    doubled: dict[tuple[int, int], int] = {}
    declarers: set[int] = set()
    for deal in deals:
        score = deal["score"]
        declarer = score.get("declarer")
        if isinstance(declarer, int):
            declarers.add(declarer)
        for double in deal.get("doubles", []):
            by, on = double["by"], double["on"]
            columns[by]["made"] += 1
            columns[on]["received"] += 1
            if double.get("redoubled"):
                columns[on]["redoubled"] += 1
            if on == declarer:
                doubled[declarer, by] = doubled.get((declarer, by), 0) + 1
        if score.get("to_enter"):
            continue  # named, what was taken still to enter: it scores nothing yet
        contract = score.get("contract", deal.get("contract", ""))
        for seat in seats:
            column = columns[seat]
            column["points"] += score["total"][seat]
            column["deals"] += 1
            column["net"] += score["doubles"][seat]
            count, points = column["contracts"].get(contract, (0, 0))
            column["contracts"][contract] = [count + 1, points + score["total"][seat]]
        for raw in score.get("settlement", []):
            line = barbu.SettlementLine.from_json(raw)
            if line.gainer is None:
                continue
            columns[line.gainer]["won"] += 1
            columns[line.on if line.gainer == line.by else line.by]["lost"] += 1
    if rules.compulsory_doubles is not barbu.CompulsoryDoubles.OFF:
        for declarer in sorted(declarers):
            for seat in seats:
                if seat == declarer:
                    continue
                met = doubled.get((declarer, seat), 0) >= COMPULSORY_DOUBLES
                columns[seat]["compulsory"][0] += met
                columns[seat]["compulsory"][1] += 1
    return columns
