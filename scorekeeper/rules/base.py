"""What every game engine shares: the match header, the result, and the engine protocol."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from .errors import Notice

#: The games played in pairs when four play: Biriba and Burraco (partners sit opposite, seats
#: 0 and 2 against 1 and 3). Barbu is every player for themselves; so is a rummy game of 2 or 3.
PAIR_GAMES = frozenset({"biriba", "burraco"})


def plays_in_pairs(game: str, seats: int) -> bool:
    """Whether the players of ``game`` at a table of ``seats`` play as two pairs."""
    return game in PAIR_GAMES and seats == 4


def side_count(game: str, seats: int) -> int:
    """How many sides score: 2 pairs, or one side a player."""
    return 2 if plays_in_pairs(game, seats) else seats


def side_of_seat(game: str, seats: int, seat: int) -> int:
    """The side the player in ``seat`` plays for (seats 0 and 2 are side 0 when in pairs)."""
    return seat % 2 if plays_in_pairs(game, seats) else seat


def seats_of_side(game: str, seats: int, side: int) -> tuple[int, ...]:
    """The seats of ``side``: ``(side, side + 2)`` when in pairs, else ``(side,)``."""
    return (side, side + 2) if plays_in_pairs(game, seats) else (side,)


def partners(game: str, seats: int, seat: int) -> tuple[int, ...]:
    """The other seats of the side of ``seat``: its partner when in pairs, else none.

    This is what the new-match page asks before any match exists (its form knows the game and
    the number of seats); a match's :class:`MatchHeader` answers the same."""
    side = side_of_seat(game, seats, seat)
    return tuple(s for s in seats_of_side(game, seats, side) if s != seat)


@dataclass(frozen=True)
class MatchHeader:
    """The parts of a match document that do not depend on the game's rules."""

    game: str
    players: tuple[str, ...]
    first_dealer: int = 0

    @property
    def seats(self) -> int:
        return len(self.players)

    @property
    def in_pairs(self) -> bool:
        """Four players of a rummy game play as two pairs (see :data:`PAIR_GAMES`)."""
        return plays_in_pairs(self.game, self.seats)

    @property
    def side_count(self) -> int:
        """Rummy games: 4 players are 2 pairs (seats 0+2, 1+3); otherwise one side a player."""
        return side_count(self.game, self.seats)

    def side_seats(self, side: int) -> tuple[int, ...]:
        return seats_of_side(self.game, self.seats, side)

    def side_of_seat(self, seat: int) -> int:
        return side_of_seat(self.game, self.seats, seat)

    def partners(self, seat: int) -> tuple[int, ...]:
        """The seats that play with ``seat`` (none in Barbu, nor in a rummy game of 2 or 3)."""
        return partners(self.game, self.seats, seat)

    def is_one_player(self, side: int) -> bool:
        """Whether ``side`` is one player (who holds no card once out, in the rummy games)."""
        return len(self.side_seats(side)) == 1

    def side_name(self, side: int) -> str:
        return " & ".join(self.players[s] for s in self.side_seats(side))

    def seat_name(self, seat: int) -> str:
        return self.players[seat]


@dataclass
class MatchResult:
    """Everything derived from the deals. ``deal_scores[i]`` is the JSON ``score`` of deal i."""

    deal_scores: list[dict[str, Any]]
    totals: list[int]
    finished: bool
    winner: int | None
    notices: list[Notice] = field(default_factory=list)
    running: list[list[int]] = field(default_factory=list)  # totals after each deal
    next_deal: dict[str, Any] = field(default_factory=dict)  # who deals / declares next, ...
    #: top-level keys the export adds beside totals, finished and winner (Burraco with
    #: ``match_deals``: ``victory_points``); none for most matches
    export: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class DealStep:
    """One deal scored against what the deals before it left: the engine's ``tally`` after
    it, its JSON ``score`` (as ``MatchResult.deal_scores`` holds it) and the notices found at
    it (each placed at the deal)."""

    tally: Any
    score: dict[str, Any]
    notices: tuple[Notice, ...] = ()


@dataclass(frozen=True)
class Standing:
    """Where a match stands after its deals: what :class:`MatchResult` says beside the deals."""

    deals: int
    totals: tuple[int, ...]
    finished: bool
    winner: int | None
    next_deal: dict[str, Any]
    export: dict[str, Any] = field(default_factory=dict)  # see MatchResult.export


def fold(
    header: MatchHeader,
    rules: Any,
    deals: Sequence[Any],
    *,
    start: Callable[[MatchHeader, Any], Any],
    step: Callable[[MatchHeader, Any, Any, Any], DealStep],
    standing: Callable[[MatchHeader, Any, Any], Standing],
) -> MatchResult:
    """Score a match deal by deal: ``step`` each deal against the tally the deals before it
    left (from ``start``), then say where the match stands. A tally has ``deals`` (how many
    it has counted) and ``totals`` (the running totals after them). Every engine's ``score`` is this
    fold of its own ``step``, the function :mod:`.incremental` calls one deal at a time, so
    the whole match and the match scored deal by deal cannot disagree."""
    tally = start(header, rules)
    deal_scores: list[dict[str, Any]] = []
    running: list[list[int]] = []
    notices: list[Notice] = []
    for deal in deals:
        scored = step(header, rules, tally, deal)
        tally = scored.tally
        deal_scores.append(scored.score)
        notices.extend(scored.notices)
        running.append(list(tally.totals))
    end = standing(header, rules, tally)
    return MatchResult(
        deal_scores=deal_scores,
        totals=list(end.totals),
        finished=end.finished,
        winner=end.winner,
        notices=notices,
        running=running,
        next_deal=end.next_deal,
        export=dict(end.export),
    )


def json_object(raw: object, keys: Sequence[str]) -> Mapping[str, Any]:
    """A stored JSON object with exactly ``keys`` (reading a tally back: a ``ValueError``
    on anything else; no message for a player, the program wrote it)."""
    if not isinstance(raw, dict) or set(raw) != set(keys):
        raise ValueError(f"expected an object with the keys {', '.join(keys)}")
    return raw


def json_ints(
    raw: object, *, length: int | None = None, low: int | None = None, high: int | None = None
) -> tuple[int, ...]:
    """A stored list of whole numbers (``length`` of them, each in ``low .. high``)."""
    if not isinstance(raw, list) or (length is not None and len(raw) != length):
        raise ValueError(f"expected a list of {length or 'any number of'} whole numbers")
    for value in raw:
        if type(value) is not int or (low is not None and value < low):
            raise ValueError(f"{value!r} is not a whole number of at least {low}")
        if high is not None and value > high:
            raise ValueError(f"{value!r} is more than {high}")
    return tuple(raw)


def json_int(raw: object, *, low: int | None = None, high: int | None = None) -> int:
    return json_ints([raw], low=low, high=high)[0]


class GameEngine(Protocol):
    """A game module (``biriba``, ``burraco``, ``barbu``) exposes these names; one whose
    options depend on the number of players also has ``rules_at_table(rules, seats)``, which
    match.py calls once the players are read (refusing what that table cannot play)."""

    NAME: str
    PLAYER_COUNTS: tuple[int, ...]

    def parse_rules(self, raw: Mapping[str, Any]) -> Any:
        """Validate the ``rules`` object; errors have ``where=("rules", key)``."""

    def rules_json(self, rules: Any) -> dict[str, Any]:
        """Every option with its resolved value."""

    def parse_deal(self, raw: object, *, header: MatchHeader, rules: Any, index: int) -> Any:
        """Read one deal structurally (0-based ``index``); errors carry the path inside the deal."""

    def deal_json(self, deal: Any) -> dict[str, Any]:
        """The deal as the document writes it (canonical cards, no score)."""

    def score(self, header: MatchHeader, rules: Any, deals: Sequence[Any]) -> MatchResult:
        """Validate every deal against the rules and score the match (:func:`fold` of
        :meth:`step`).

        Raises :class:`RuleError` whose ``where`` starts with ``deal N`` (1-based)."""

    def start(self, header: MatchHeader, rules: Any) -> Any:
        """The tally before any deal: a frozen value holding everything that scoring carries
        from one deal to the next."""

    def step(self, header: MatchHeader, rules: Any, tally: Any, deal: Any) -> DealStep:
        """Check and score the next deal (number ``tally.deals + 1``) against ``tally``; a
        refusal is the one :meth:`score` raises for that deal."""

    def standing(self, header: MatchHeader, rules: Any, tally: Any) -> Standing:
        """Totals, whether the match is finished, its winner and what comes next."""

    def tally_json(self, tally: Any) -> dict[str, Any]:
        """The tally as JSON (``tally_from_json`` reads it back equal)."""

    def tally_from_json(self, data: object, header: MatchHeader, rules: Any) -> Any:
        """Read a tally written by ``tally_json``; raises ``ValueError`` on anything else."""
