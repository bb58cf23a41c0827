"""The rules core's scoring state after a match's last deal, kept on the match
(``Match.scoring_state``) so that a tap or a save of the next deal scores that one deal
against it (:mod:`scorekeeper.rules.incremental`), whatever the length of the match.

The state is kept with the match's ``deals_version`` it was worked out at. Every change to a
match's deals moves it (the services, under the match's lock), so a state kept at another is
stale: it is worked out again from the deals, and kept if the deals have not changed since. A
save of the next deal keeps the state after it, at the ``deals_version`` it makes.
"""

from __future__ import annotations

from typing import Any

from scorekeeper.models import Deal, Match
from scorekeeper.rules import incremental
from scorekeeper.rules import match as rules_match

__all__ = ["kept", "match_state"]


def _rules(match: Match) -> Any:
    return rules_match.engine(match.game).parse_rules(dict(match.rules))


def match_state(match: Match) -> incremental.State:
    """The state after ``match``'s last deal, as its deals stand at ``match.deals_version``."""
    header, rules = match.header, _rules(match)
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


def kept(state: incremental.State, version: int) -> dict[str, Any]:
    """What ``Match.scoring_state`` holds: the state and the ``deals_version`` it is of."""
    return {"version": version, "state": incremental.state_json(state)}
