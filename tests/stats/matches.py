"""Finished matches of each game built through the services, with figures easy to work out by
hand: rummy deals entered as totals (what each side melded, kept in hand, which bonuses, who
went out, who took the pot), Barbu's classic 28 deals where the others double the declarer."""

from __future__ import annotations

from typing import Any

from scorekeeper import services
from scorekeeper.models import Match
from tests.conftest import BARBU_CLASSIC, BARBU_DATA

#: The target of the rummy matches built here: :func:`win_deal` (500) finishes one.
TARGET = 500


def side(
    melded: int,
    *,
    in_hand: int = 0,
    bonuses: dict[str, int] | None = None,
    took_pot: bool = True,
    went_out: bool = False,
) -> dict[str, Any]:
    """A side of a rummy deal entered as totals."""
    return {
        "totals": {"melded": melded, "in_hand": in_hand, "bonuses": dict(bonuses or {})},
        "took_pot": took_pot,
        "went_out": went_out,
    }


def rummy_deal(game: str, *sides: dict[str, Any], index: int = 0) -> dict[str, Any]:
    deal: dict[str, Any] = {"sides": list(sides)}
    if game == "biriba":
        deal["trump"] = "SHDC"[index % 4]
    return deal


def win_deal(game: str, winner: int, *, sides: int = 2, index: int = 0) -> dict[str, Any]:
    """One deal that finishes a match at :data:`TARGET`: ``winner`` melds 400 with a clean
    biriba (burraco) and goes out (700), every other side melds 100 and keeps 20 in hand
    (80)."""
    clean = {"clean_biriba": 1} if game == "biriba" else {"clean_burraco": 1}
    return rummy_deal(
        game,
        *(
            side(400, bonuses=clean, went_out=True) if s == winner else side(100, in_hand=20)
            for s in range(sides)
        ),
        index=index,
    )


def rummy_match(
    owner, game: str, players: list[str], deals: list[dict[str, Any]], *, target: int = TARGET
) -> Match:
    match = services.match_create(
        owner=owner,
        game=game,
        players=list(players),
        first_dealer=0,
        rules={"target": target},
    )
    for deal in deals:
        services.deal_record(match=match, data=deal)
    match.refresh_from_db()
    return match


def barbu_deal(index: int, *, rotate: bool) -> dict[str, Any]:
    """Deal ``index`` of a classic series match (as tests/conftest.py's), the three others
    doubling the declarer. ``rotate``: what each player takes follows the declarer round the
    table, so that every player ends on the same total (a tie of all four)."""
    declarer = index // 7
    contract = BARBU_CLASSIC[index % 7]
    shift = declarer if rotate else 0
    data: dict[str, Any] = {}
    for key, value in BARBU_DATA[contract].items():
        if key in ("tricks", "hearts", "queens"):
            data[key] = [value[(seat - shift) % 4] for seat in range(4)]
        elif key in ("last_two", "finish_order"):
            data[key] = [(seat + shift) % 4 for seat in value]
        elif key in ("ace_of_hearts", "king_of_hearts"):
            data[key] = (value + shift) % 4
        else:
            data[key] = value
    doubles = [{"by": seat, "on": declarer} for seat in range(4) if seat != declarer]
    return {"contract": contract, "doubles": doubles, **data}


def barbu_match(
    owner,
    players: list[str],
    *,
    rotate: bool = False,
    deals: int = 28,
    rules: dict[str, Any] | None = None,
) -> Match:
    match = services.match_create(
        owner=owner, game="barbu", players=list(players), first_dealer=0, rules=rules or {}
    )
    for i in range(deals):
        services.deal_record(match=match, data=barbu_deal(i, rotate=rotate))
    match.refresh_from_db()
    return match
