"""The rules core's scoring state after a match's last deal, kept on the match
(``Match.scoring_state``) so that a tap or a save of the next deal scores that one deal
against it (:mod:`scorekeeper.rules.incremental`), whatever the length of the match.

The state is kept with the match's ``deals_version`` it was worked out at. Every change to a
match's deals moves it (the services, under the match's lock), so a state kept at another is
stale: it is worked out again from the deals, and kept if the deals have not changed since. A
save of the next deal keeps the state after it, at the ``deals_version`` it makes.

Each deal also keeps the state after it (``Deal.state``, written with its score by every
change): :func:`state_after` reads the state a correction of a later deal starts from.
"""

from __future__ import annotations

from typing import Any

from scorekeeper.models import Deal, Match
from scorekeeper.rules import incremental
from scorekeeper.rules import match as rules_match

__all__ = ["kept", "match_state", "state_after"]


def _rules(match: Match, header: Any) -> Any:
    # as the match's table plays them (Barbu's five play Salade with 10 tricks a deal)
    return rules_match.rules_at_table(match.game, match.rules, len(header.players))


def match_state(match: Match) -> incremental.State:
    """The state after ``match``'s last deal, as its deals stand at ``match.deals_version``.

    Read once for the match object at that version: a request that asks again (the page, its
    verdict, its next deal) is given the same state (it is immutable)."""
    read = getattr(match, "_state_read", None)
    if read is not None and read[0] == match.deals_version and read[1] is match.scoring_state:
        return read[2]
    state = _match_state(match)
    match._state_read = (match.deals_version, match.scoring_state, state)  # type: ignore[attr-defined]
    return state


def _match_state(match: Match) -> incremental.State:
    header = match.header
    rules = _rules(match, header)
    stored = match.scoring_state
    if isinstance(stored, dict) and stored.get("version") == match.deals_version:
        try:
            return incremental.state_from_json(stored.get("state"), header, rules)
        except incremental.StateMismatch:
            pass  # another format, or rules changed: worked out again below
    deals = Deal.objects.filter(match=match).order_by("number").values_list("data", flat=True)
    steps = incremental.score_deals(incremental.score_start(header, rules), list(deals))
    state = steps[-1].state if steps else incremental.score_start(header, rules)
    # kept unless the match changed since it was read (then the state would not be its own)
    Match.objects.filter(pk=match.pk, deals_version=match.deals_version).update(
        scoring_state=kept(state, match.deals_version)
    )
    match.scoring_state = kept(state, match.deals_version)
    return state


def state_after(match: Match, deals: int) -> incremental.State:
    """The state after ``match``'s first ``deals`` deals: from the state kept on deal
    ``deals`` (``Deal.state``), else worked out from those deals. A correction or a deletion
    of deal k scores from the state after deal k − 1 on, never the deals before it."""
    header = match.header
    rules = _rules(match, header)
    start = incremental.score_start(header, rules)
    if deals <= 0:
        return start
    stored = Deal.objects.filter(match=match, number=deals).values_list("state", flat=True).first()
    if stored is not None:
        try:
            return incremental.state_from_json(stored, header, rules)
        except incremental.StateMismatch:
            pass  # another format, or rules changed: worked out again below
    earlier = Deal.objects.filter(match=match, number__lte=deals).order_by("number")
    steps = incremental.score_deals(start, list(earlier.values_list("data", flat=True)))
    return steps[-1].state if steps else start


def kept(state: incremental.State, version: int) -> dict[str, Any]:
    """What ``Match.scoring_state`` holds: the state and the ``deals_version`` it is of."""
    return {"version": version, "state": incremental.state_json(state)}
