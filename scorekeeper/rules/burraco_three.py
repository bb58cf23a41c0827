"""Burraco for three players: a solo player against a pair in each deal, then each alone.

Sources (rules.md, "Burraco for three players"): the Italian federation's three-player rules
as eburraco.com, biska.com and ilburraco.com state them; two apps for the rounding.

- ``three_players: "fibur"``: the first player to finish his 11 cards takes the 18-card
  pozzetto and plays **solo** for the rest of the deal; the other two are a **pair** (one side,
  as partners are). The solo player scores his side's total, each player of the pair half the
  pair's (:func:`half`: ``pair_rounding`` ``"up"`` or ``"truncate"``). A deal in which nobody
  took a pozzetto has no solo player: the three play it each alone (``solo: null``, 3 sides).
  Once, after a deal, some player's total has reached ``alone_from``, every later deal is
  played **each alone**, three pozzetti of 11, to the end (it never switches back).
- ``three_players: "each_alone"``: each alone from the first deal.

The deal's sides depend on its **phase**, which depends on the totals of the deals before it:
the deal is read on its own (:func:`parse_deal`: its ``solo`` seat, 2 or 3 sides), and its
sides are checked against the phase when it is scored (:func:`seating`). A deal's seating is a
:class:`~scorekeeper.rules.base.MatchHeader` (:class:`SoloAndPair`, or the match's own header
when every side is one player), so the rummy core scores it as any deal and names its sides by
their players. The totals are one a seat (:class:`ThreeTally`), and the tally keeps from which
deal every player plays alone: the totals alone cannot say it (they may fall back below
``alone_from``).

Pure functions for the pages: :func:`phase_of` (the phase of the next deal, and from which deal
each alone), :func:`player_points` (a deal's points of each seat), :func:`half`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from . import rummy, schema
from .base import DealStep, MatchHeader, Standing, json_int, json_ints, json_object
from .errors import Place, RuleError, Words
from .rummy import DealScore, GameSpec, RummyDeal, RummyScoring

SEATS = 3
#: FIBUR: "portando la partita a chiudersi sempre a 1505", whatever the preset.
TARGET = 1505
#: FIBUR: each alone once a player's total has reached 1000.
ALONE_FROM = 1000


class ThreePlayers(StrEnum):
    FIBUR = "fibur"  # solo against a pair, then each alone
    EACH_ALONE = "each_alone"  # each alone throughout


class PairRounding(StrEnum):
    UP = "up"  # a half ending in .5 goes to the next whole number above
    TRUNCATE = "truncate"  # the .5 is dropped (towards 0)


class Phase(StrEnum):
    SOLO_PAIR = "solo_pair"
    EACH_ALONE = "each_alone"


# --- the seating of a deal ------------------------------------------------------------------


@dataclass(frozen=True)
class SoloAndPair(MatchHeader):
    """A deal's seating while solo and pair are played: side 0 is the solo player, side 1 the
    two others (in seat order), who play as partners do."""

    solo: int = 0

    @property
    def in_pairs(self) -> bool:
        return False

    @property
    def side_count(self) -> int:
        return 2

    def side_seats(self, side: int) -> tuple[int, ...]:
        if side == 0:
            return (self.solo,)
        return tuple(s for s in range(self.seats) if s != self.solo)

    def side_of_seat(self, seat: int) -> int:
        return 0 if seat == self.solo else 1

    def partners(self, seat: int) -> tuple[int, ...]:
        return tuple(s for s in self.side_seats(self.side_of_seat(seat)) if s != seat)


def solo_and_pair(header: MatchHeader, solo: int) -> SoloAndPair:
    return SoloAndPair(
        game=header.game, players=header.players, first_dealer=header.first_dealer, solo=solo
    )


# --- points ---------------------------------------------------------------------------------


def half(total: int, rounding: PairRounding) -> int:
    """What each player of the pair scores of the pair's ``total``: half of it, a half that
    ends in .5 rounded up (``195`` → 98, ``-305`` → -152) or with the .5 dropped (``195`` →
    97, ``-305`` → -152). The two differ only for a positive odd total."""
    if rounding is PairRounding.UP:
        return -(-total // 2)
    shared = abs(total) // 2
    return shared if total >= 0 else -shared


def player_points(
    seating: MatchHeader, scored: DealScore, rounding: PairRounding
) -> tuple[int, ...]:
    """A deal's points of each seat: a one-player side's total in full, each player of the pair
    half the pair's (:func:`half`)."""
    points = [0] * seating.seats
    for side, score in enumerate(scored.sides):
        seats = seating.side_seats(side)
        share = score.total if len(seats) == 1 else half(score.total, rounding)
        for seat in seats:
            points[seat] = share
    return tuple(points)


# --- reading a deal -------------------------------------------------------------------------

DEAL_KEYS = (*rummy.DEAL_KEYS, "solo")


def parse_deal(raw: object, *, spec: GameSpec, header: MatchHeader, index: int) -> RummyDeal:
    """Read one deal of Burraco for three on its own: its ``solo`` (left out, null or a seat)
    and 2 or 3 sides; which of them the deal's phase wants is checked when it is scored."""
    d = schema.obj(raw, allowed=DEAL_KEYS, required=("sides",), what=Words("a deal (an object)"))
    dealer, dealer_stated = rummy.parse_dealer(d, header, index)
    solo_stated = "solo" in d
    solo = None if d.get("solo") is None else schema.seat(d["solo"], "solo", header.seats)
    sides_raw = schema.array(d["sides"], "sides")
    if len(sides_raw) not in (2, SEATS):
        raise _side_count(solo, len(sides_raw))
    names: Callable[[int], str]
    if len(sides_raw) == SEATS:
        names = header.side_name
    elif solo is not None:
        names = solo_and_pair(header, solo).side_name
    else:
        names = _unnamed  # 2 sides and no solo player: who they are is not said
    return RummyDeal(
        sides=rummy.parse_sides(sides_raw, spec=spec, names=names),
        dealer=dealer,
        dealer_stated=dealer_stated,
        solo=solo,
        solo_stated=solo_stated,
    )


def _unnamed(side: int) -> str:
    return f"sides[{side}]"


def _side_count(solo: int | None, got: int) -> RuleError:
    """Neither 2 sides nor 3: the count a deal with (or without) a solo player has."""
    if solo is not None:
        return _two_sides_due(got)
    return RuleError(
        "side_count_no_solo",
        "a deal without a solo player has 3 sides, one a player, not {got}",
        got=got,
        where=("sides",),
        place=Place(field="sides"),
    )


def _two_sides_due(got: int) -> RuleError:
    return RuleError(
        "side_count_solo_pair",
        "a deal with a solo player has 2 sides (the solo player, then the pair), not {got}",
        got=got,
        where=("sides",),
        place=Place(field="sides"),
    )


# --- the tally ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ThreeTally:
    """What the deals so far leave for the next one: how many, each seat's total, and the deal
    (counted from 1) from which every player plays alone (None while solo and pair)."""

    deals: int
    totals: tuple[int, ...]
    alone_since: int | None


def reached(totals: Sequence[int], alone_from: int | None) -> bool:
    """Some player's total has reached ``alone_from`` (never, when it is None)."""
    return alone_from is not None and max(totals) >= alone_from


def start(header: MatchHeader, *, form: ThreePlayers, alone_from: int | None) -> ThreeTally:
    """Before the first deal: each alone from deal 1 under ``"each_alone"``, or when
    ``alone_from`` is 0 (every total has reached it)."""
    totals = (0,) * header.seats
    alone = form is ThreePlayers.EACH_ALONE or reached(totals, alone_from)
    return ThreeTally(deals=0, totals=totals, alone_since=1 if alone else None)


def phase_of(tally: ThreeTally) -> Phase:
    """The phase of the next deal (number ``tally.deals + 1``)."""
    return Phase.SOLO_PAIR if tally.alone_since is None else Phase.EACH_ALONE


def seating(
    header: MatchHeader, tally: ThreeTally, deal: RummyDeal, *, alone_from: int | None
) -> MatchHeader:
    """The seating deal ``tally.deals + 1`` is played in, from its phase and its ``solo``;
    refused (without the deal's place: the caller adds it) when the deal's ``solo`` or sides
    are not those of its phase."""
    count = len(deal.sides)
    if tally.alone_since is not None:
        if deal.solo is not None:
            raise _solo_when_alone(header, tally, deal.solo, alone_from)
        if count != SEATS:
            raise RuleError(
                "side_count_each_alone",
                "every player plays alone in this deal: 3 sides, one a player, not {got}",
                got=count,
                where=("sides",),
                place=Place(field="sides"),
            )
        return header
    if deal.solo is None and not deal.solo_stated:
        raise RuleError(
            "solo_missing",
            "who played solo is not said: the player who took the 18-card pozzetto plays "
            "alone against the other two (if nobody took a pozzetto, say that nobody did)",
            where=("solo",),
            place=Place(field="solo"),
        )
    if deal.solo is None:
        if count != SEATS:
            raise _side_count(None, count)
        for k, side in enumerate(deal.sides):
            if side.took_pot:
                raise RuleError(
                    "pot_without_solo",
                    "{player} took a pozzetto, so {player} played solo: name the solo player "
                    "(a deal has none only when nobody took a pozzetto)",
                    player=header.seat_name(k),
                    where=(header.side_name(k), "took_pot"),
                    place=Place(side=k, field="took_pot"),
                )
        return header
    if count != 2:
        raise _two_sides_due(count)
    seated = solo_and_pair(header, deal.solo)
    if deal.sides[0].took_pot is False:  # None: a side given by its points alone
        raise RuleError(
            "solo_without_pot",
            "{player} played solo without taking the pozzetto: the solo player is the one who "
            "took the 18 cards",
            player=header.seat_name(deal.solo),
            where=(seated.side_name(0), "took_pot"),
            place=Place(side=0, field="took_pot"),
        )
    return seated


def _solo_when_alone(
    header: MatchHeader, tally: ThreeTally, solo: int, alone_from: int | None
) -> RuleError:
    first = tally.alone_since
    assert first is not None
    if first == 1:
        return RuleError(
            "solo_when_each_alone",
            "{player} is named the solo player, but in this match every player plays alone "
            "from the first deal",
            player=header.seat_name(solo),
            where=("solo",),
            place=Place(field="solo"),
        )
    return RuleError(
        "solo_when_each_alone",
        "{player} is named the solo player, but every player plays alone from deal {first}: "
        "a total reached {alone_from} in deal {reached}",
        player=header.seat_name(solo),
        first=first,
        alone_from=alone_from,
        reached=first - 1,
        where=("solo",),
        place=Place(field="solo"),
    )


# --- the match ------------------------------------------------------------------------------


def step(
    header: MatchHeader,
    tally: ThreeTally,
    deal: RummyDeal,
    scoring: RummyScoring,
    *,
    alone_from: int | None,
    rounding: PairRounding,
    target: int,
) -> DealStep:
    """Check and score the next deal against the phase the deals before it left; its score
    has the sides' (as every rummy deal's), ``players`` (each seat's points) and ``solo``."""
    number = tally.deals + 1
    rummy.check_not_finished(header, tally.deals, tally.totals, target)
    try:
        seated = seating(header, tally, deal, alone_from=alone_from)
    except RuleError as e:
        raise e.at(f"deal {number}", deal=number) from None
    scored = rummy.score_deal(seated, deal, scoring, number=number)
    points = player_points(seated, scored, rounding)
    totals = tuple(t + p for t, p in zip(tally.totals, points, strict=True))
    alone_since = tally.alone_since
    if alone_since is None and reached(totals, alone_from):
        alone_since = number + 1
    score = scored.to_json() | {"players": list(points), "solo": deal.solo}
    return DealStep(tally=ThreeTally(number, totals, alone_since), score=score)


def standing(header: MatchHeader, tally: ThreeTally, *, target: int) -> Standing:
    """The totals (one a seat), the winner (a seat), and while the match goes on who deals
    next and how: ``phase`` (``"solo_pair"`` or ``"each_alone"``) and ``each_alone_from``
    (the deal from which every player plays alone, or None)."""
    winner = rummy.match_end(tally.totals, target)
    next_deal: dict[str, Any] = {}
    if winner is None:
        next_deal = {
            "number": tally.deals + 1,
            "dealer": rummy.dealer_of(header, tally.deals),
            "phase": phase_of(tally).value,
            "each_alone_from": tally.alone_since,
        }
    return Standing(
        deals=tally.deals,
        totals=tally.totals,
        finished=winner is not None,
        winner=winner,
        next_deal=next_deal,
    )


def tally_json(tally: ThreeTally) -> dict[str, Any]:
    return {"deals": tally.deals, "totals": list(tally.totals), "alone_since": tally.alone_since}


def tally_from_json(data: object, header: MatchHeader) -> ThreeTally:
    """Read what :func:`tally_json` wrote; a ``ValueError`` on anything else."""
    raw: Mapping[str, Any] = json_object(data, ("deals", "totals", "alone_since"))
    deals = json_int(raw["deals"], low=0)
    since = raw["alone_since"]
    return ThreeTally(
        deals=deals,
        totals=json_ints(raw["totals"], length=header.seats),
        alone_since=None if since is None else json_int(since, low=1, high=deals + 1),
    )
