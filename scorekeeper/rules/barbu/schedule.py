"""Who declares each deal, and when the match ends.

Series rotation (default): each player declares ``k`` deals in a row (``k`` = the number of
contracts of the match: the variant's, or the house list's), then the deal passes left: the
declarer of deal ``n`` (0-based) is ``(first_dealer + n // k) % players``. Quick rotation, and
always in King: the declarer changes every deal, ``(first_dealer + n) % players``. Either way
each player declares ``k`` deals in the match (King: five) and the match has ``players × k``
deals (``players``: 4, or 5 in Salade).

A declarer's deals (their *series*) are the deals they declare: ``k`` deals in a row under
series rotation, every fourth (fifth) deal under quick rotation. Compulsory doubles are
counted over them.
"""

from __future__ import annotations

from ..base import MatchHeader
from ..errors import RuleError, Term
from .contracts import SEATS, contracts_per_declarer, deal_count
from .options import BarbuRules, Rotation


def declarer_of(header: MatchHeader, rules: BarbuRules, index: int) -> int:
    """The declarer (and dealer) of deal ``index`` (0-based)."""
    if rules.rotation is Rotation.QUICK:
        step = index
    else:
        step = index // contracts_per_declarer(rules)
    return (header.first_dealer + step) % header.seats


def series_position(rules: BarbuRules, index: int) -> int:
    """Which of its declarer's deals deal ``index`` is (0-based)."""
    if rules.rotation is Rotation.QUICK:
        return index // rules.seats
    return index % contracts_per_declarer(rules)


def deals_left_in_series(rules: BarbuRules, index: int) -> int:
    """How many deals the declarer of deal ``index`` still declares after it."""
    return contracts_per_declarer(rules) - series_position(rules, index) - 1


def completes_series(rules: BarbuRules, index: int) -> bool:
    """Series rotation: deal ``index`` is the last of its declarer's series."""
    return rules.rotation is Rotation.SERIES and deals_left_in_series(rules, index) == 0


def match_length(rules: BarbuRules) -> int:
    return deal_count(rules)


def check_in_match(rules: BarbuRules, index: int) -> None:
    """Refuse deal ``index`` (0-based) when the match has already ended before it."""
    length = match_length(rules)
    if index < length:
        return
    if rules.contracts is None and rules.seats == SEATS and rules.chinese_poker_multiplier is None:
        raise RuleError(
            "match_over",
            "the match is over: the variant {variant} is played in {count} deals",
            variant=Term("variant", rules.variant.value),
            count=length,
        )
    raise RuleError(
        "match_over",
        "the match is over: it is played in {count} deals ({each} declared by each of the "
        "{players} players)",
        count=length,
        each=contracts_per_declarer(rules),
        players=rules.seats,
    )
