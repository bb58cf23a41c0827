"""Scoring a match one deal at a time: the state the deals so far leave, and the next deal
scored against it, without reading or scoring the deals before it again.

    state = score_start(header, rules)            # or state_from_json(stored, header, rules)
    state, score, notices, deal = score_next(state, raw_deal)    # RuleError as a document's
    standing(state).totals, standing(state).next_deal            # no deal walked again
    stored = state_json(state)                    # JSON: keep it beside the match

A :class:`State` is what the deals so far leave for the next one: the totals, how many deals
there are, and the engine's own tally (rummy: nothing more, since the dealer and the end follow
from the number of deals, the totals and the target or ``match_deals``; Burraco for three: the
deal from which every player plays alone, which the totals cannot say; Barbu: the contracts
each declarer has named, the doubles each player has made on each declarer, the players
already flagged for compulsory doubles, the deals still to enter and the sum the totals must
have). It is frozen and small, and :func:`state_json` / :func:`state_from_json` write and read
it exactly.

Every engine's ``score`` (so :func:`~scorekeeper.rules.match.score_match`) is the fold of the
same ``step`` that :func:`score_next` calls (:func:`~scorekeeper.rules.base.fold`): a deal
scored here is scored, checked and refused exactly as in the whole document (the same deal
score, notices, totals; the same :class:`RuleError` code, message and place, the deal counted
from 1), and :func:`result_of` over the steps from the start is the whole document's
:class:`MatchResult`. A correction of deal k is the state after deal k − 1 and
:func:`score_deals` over deals k .. n.

Every notice of today's engines is found at a deal (Barbu's compulsory doubles under
``warn``, placed at that deal) and belongs to that deal's step: a match's notices are those of
its steps, in order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from .barbu import BarbuDeal
from .base import GameEngine, MatchHeader, MatchResult, Standing
from .errors import Notice, Place
from .match import Match, engine, parse_deal
from .rummy import RummyDeal

#: The version of :func:`state_json`'s shape and of the scoring it stands for: a state
#: written under another is refused (:class:`StateMismatch`), and scored again from the deals.
STATE_FORMAT = "scorekeeper-state/1"


class StateMismatch(ValueError):
    """A stored state that is not one of this match's (another game, seats, first dealer or
    rules), not of this program's :data:`STATE_FORMAT`, or not a state at all: score the
    match's deals again (:func:`state_of`) and store the new state."""


@dataclass(frozen=True)
class State:
    """What the deals so far leave for the next one (see the module docstring)."""

    header: MatchHeader
    rules: Any  # the engine's resolved rules value
    tally: Any  # the engine's: rummy.RummyTally, barbu.BarbuTally

    @property
    def engine(self) -> GameEngine:
        return engine(self.header.game)

    @property
    def deals(self) -> int:
        """How many deals the state has counted."""
        return self.tally.deals

    @property
    def totals(self) -> tuple[int, ...]:
        """The running totals after them, one a side."""
        return self.tally.totals


class Step(NamedTuple):
    """One deal scored: the state after it, its score as ``MatchResult.deal_scores`` holds it,
    the notices found at it, and the deal as the engine read it (``deal_json`` writes it)."""

    state: State
    score: dict[str, Any]
    notices: tuple[Notice, ...]
    deal: Any


def score_start(header: MatchHeader, rules: Any) -> State:
    """The state of a match before its first deal."""
    return State(header, rules, engine(header.game).start(header, rules))


def score_next(state: State, deal: object) -> Step:
    """Read and score the next deal (number ``state.deals + 1``) against ``state``.

    ``deal`` is the deal as the document writes it (a dict), or as the engine read it (a
    ``RummyDeal`` or ``BarbuDeal``, read for this place in the match). Raises the
    :class:`RuleError` the whole document raises for this deal."""
    header, rules = state.header, state.rules
    eng = state.engine
    if not _is_read(deal):
        deal = parse_deal(deal, header=header, rules=rules, index=state.deals)
    scored = eng.step(header, rules, state.tally, deal)
    return Step(State(header, rules, scored.tally), scored.score, scored.notices, deal)


def score_deals(state: State, deals: Iterable[object]) -> tuple[Step, ...]:
    """Score ``deals`` in order after ``state`` (each raw or read, as :func:`score_next`
    takes it): a correction of deal k is the state after deal k − 1 and deals k .. n. Raises
    at the first deal refused."""
    steps = []
    for deal in deals:
        step = score_next(state, deal)
        steps.append(step)
        state = step.state
    return tuple(steps)


def _is_read(deal: object) -> bool:
    return isinstance(deal, RummyDeal | BarbuDeal)


def standing(state: State) -> Standing:
    """Totals, finished, winner and what comes next (``next_deal``), from the state alone."""
    return state.engine.standing(state.header, state.rules, state.tally)


def result_of(
    state: State, steps: Sequence[Step] = (), *, before: MatchResult | None = None
) -> MatchResult:
    """The :class:`MatchResult` of the match ``state`` ends: the deals of ``before`` (the
    result kept from an earlier scoring, e.g. read back from where the site keeps each deal's
    score, running totals and notices) that come before the first of ``steps``, then
    ``steps``, then where ``state`` stands. ``result_of(state, steps)`` with the steps of every
    deal from :func:`score_start` is the whole document's result; a correction of deal k is
    ``result_of(steps[-1].state, steps, before=old)`` with the steps of deals k .. n.

    Raises ``ValueError`` when the deals do not add up to ``state``'s."""
    kept = state.deals - len(steps)
    if kept < 0 or (kept and (before is None or len(before.deal_scores) < kept)):
        raise ValueError(
            f"{len(steps)} deals scored and {kept} kept do not make the state's {state.deals}"
        )
    if steps and steps[-1].state != state:
        raise ValueError("the state is not the one the last step left")
    deal_scores: list[dict[str, Any]] = []
    running: list[list[int]] = []
    notices: list[Notice] = []
    if kept and before is not None:
        deal_scores = list(before.deal_scores[:kept])
        running = [list(r) for r in before.running[:kept]]
        notices = [n for n in before.notices if n.place.deal is not None and n.place.deal <= kept]
    for step in steps:
        deal_scores.append(step.score)
        running.append(list(step.state.totals))
        notices.extend(step.notices)
    end = standing(state)
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


def state_of(match: Match, deals: int | None = None) -> State:
    """The state after the first ``deals`` deals of a read document (all of them by
    default): what to store for a match that has none, or whose stored one is refused."""
    chosen = match.deals if deals is None else match.deals[:deals]
    steps = score_deals(score_start(match.header, match.rules), chosen)
    return steps[-1].state if steps else score_start(match.header, match.rules)


# --- JSON -------------------------------------------------------------------------------------


def state_json(state: State) -> dict[str, Any]:
    """The state as JSON, with what it belongs to: the game, the number of seats, the first
    dealer and every option of the rules (player names do not count: a renamed player keeps
    the state)."""
    eng = state.engine
    return {
        "format": STATE_FORMAT,
        **_belongs_to(state.header, state.rules),
        "tally": eng.tally_json(state.tally),
    }


def _belongs_to(header: MatchHeader, rules: Any) -> dict[str, Any]:
    return {
        "game": header.game,
        "seats": header.seats,
        "first_dealer": header.first_dealer,
        "rules": engine(header.game).rules_json(rules),
    }


def state_from_json(data: object, header: MatchHeader, rules: Any) -> State:
    """Read a state :func:`state_json` wrote for this match (``header``, ``rules``): equal to
    the state written. Raises :class:`StateMismatch` for one of another match, rules or
    format, or anything that is not a state."""
    if not isinstance(data, Mapping) or set(data) != {"format", *_KEYS, "tally"}:
        raise StateMismatch("not a stored scoring state")
    if data["format"] != STATE_FORMAT:
        raise StateMismatch(f"a state of format {data['format']!r}, not {STATE_FORMAT!r}")
    belongs = _belongs_to(header, rules)
    for key in _KEYS:
        if data[key] != belongs[key]:
            raise StateMismatch(f"a state of another match: its {key} is {data[key]!r}")
    try:
        tally = engine(header.game).tally_from_json(data["tally"], header, rules)
    except ValueError as e:  # a RuleError, read strictly
        raise StateMismatch(f"not a stored scoring state: {e}") from None
    return State(header, rules, tally)


_KEYS = ("game", "seats", "first_dealer", "rules")


def notice_json(notice: Notice) -> dict[str, Any]:
    """A notice as JSON, to keep beside its deal's score (:func:`notice_from_json` reads it
    back equal): its code, template, parameters, place in words and as values."""
    return {
        "code": notice.code,
        "template": notice.template,
        "where": list(notice.where),
        "params": dict(notice.params),
        "place": notice.place.as_dict(),
    }


def notice_from_json(data: Mapping[str, Any]) -> Notice:
    return Notice(
        code=data["code"],
        template=data["template"],
        where=tuple(data["where"]),
        params=dict(data["params"]),
        place=Place(**data["place"]),
    )
