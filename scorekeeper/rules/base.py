"""What every game engine shares: the match header, the result, and the engine protocol."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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


class GameEngine(Protocol):
    """A game module (``biriba``, ``burraco``, ``barbu``) exposes these names."""

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
        """Validate every deal against the rules and score the match.

        Raises :class:`RuleError` whose ``where`` starts with ``deal N`` (1-based)."""
