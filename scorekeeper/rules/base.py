"""What every game engine shares: the match header, the result, and the engine protocol."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from .errors import Notice


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
    def side_count(self) -> int:
        """Rummy games: 4 players are 2 pairs (seats 0+2, 1+3); otherwise one side a player."""
        return 2 if self.seats == 4 else self.seats

    def side_seats(self, side: int) -> tuple[int, ...]:
        if self.seats == 4:
            return (side, side + 2)
        return (side,)

    def side_of_seat(self, seat: int) -> int:
        return seat % 2 if self.seats == 4 else seat

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
