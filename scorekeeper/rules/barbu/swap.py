"""Swapping the contracts of two deals of one declarer: a correction made in one step.

A table corrects a deal whose contract was tapped wrongly. When the contract it should have is
one its declarer already names in another deal of their series (each declarer names each
contract once), correcting that deal alone would name it twice. Instead the two deals swap
their contracts: each takes the other's, and both are then still to enter (``"to_enter":
true``): their contract data is gone, since it was taken under the other contract, and is
entered again.

- :func:`swap_partner`: the deal to swap with, or ``None`` when the correction is an ordinary one;
- :func:`swap_contracts`: the two deals after the swap, as the document writes them;
- :func:`swapped_deals`: the same, with the doubles each deal loses and why.

What a swapped deal keeps: its place in the match, its declarer (stated or not, as it was),
and its doubles where the rules still allow them under its new contract, in their order. The
only doubles a swap can drop are those between two players who do not declare, when the new
contract is positive (in Trumps and Domino only the declarer may be doubled). A double on the
declarer is never dropped, so the doubles the declarer receives in their series, and so the
compulsory doubles, are the same after a swap as before it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .. import schema
from ..errors import Place, RuleError, Term
from .contracts import Contract
from .deal import BarbuDeal, check_deal, deal_json, parse_contract
from .doubles import Double, Refusal, double_refusal
from .options import BarbuRules
from .schedule import declarer_of
from .scoring import contracts_for_deal

if TYPE_CHECKING:
    from ..match import Match


@dataclass(frozen=True)
class DroppedDouble:
    """A double a swapped deal loses: the rules forbid it under the deal's new contract."""

    double: Double
    reason: Refusal


@dataclass(frozen=True)
class SwappedDeal:
    """One of the two deals after a swap: deal ``number`` (counted from 1) now names
    ``contract``; ``deal`` is the deal as the document writes it (``to_enter``, no contract
    data); ``dropped``: the doubles it lost, each with the rule's reason."""

    number: int
    contract: Contract
    deal: dict[str, Any]
    dropped: tuple[DroppedDouble, ...] = ()


def _rules_of(match: Match) -> BarbuRules:
    if match.header.game != "barbu" or not isinstance(match.rules, BarbuRules):
        raise RuleError(
            "swap_not_barbu",
            "contracts are swapped in Barbu only, and this match is {game}",
            game=Term("game", match.header.game),
        )
    return match.rules


def _index(match: Match, number: int) -> int:
    """The 0-based index of deal ``number`` (counted from 1), refused when there is none."""
    count = len(match.deals)
    number = schema.integer(number, "number")
    if not 1 <= number <= count:
        raise RuleError(
            "no_such_deal",
            "there is no deal {number}: the match has {count} deals so far",
            number=number,
            count=count,
        )
    return number - 1


def swap_partner(match: Match, number: int, contract: str) -> int | None:
    """The deal to swap contracts with when deal ``number`` (counted from 1) is corrected to
    ``contract``: the deal of the same declarer (in their series) that names ``contract``,
    counted from 1. ``None`` when the correction is an ordinary one: the deal already names
    ``contract``, or its declarer may name it there (no other deal of theirs names it; in King,
    its quotas leave room), or no deal of the declarer names it (in King, when other
    declarers used up its plays: the ordinary correction is then refused as such). In King,
    where a declarer may name a negative twice, the first such deal."""
    rules = _rules_of(match)
    index = _index(match, number)
    header, deals = match.header, match.deals
    declarer = declarer_of(header, rules, index)
    wanted = parse_contract(contract, rules=rules, names=header.players, declarer=declarer)
    if deals[index].contract is wanted:
        return None
    if wanted in contracts_for_deal(header, rules, deals, index):
        return None
    for other, deal in enumerate(deals):
        same = declarer_of(header, rules, other) == declarer
        if other != index and same and deal.contract is wanted:
            return other + 1
    return None


def swap_contracts(match: Match, number: int, other: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """Deals ``number`` and ``other`` (counted from 1) after swapping their contracts, as the
    document writes them (:func:`~.deal.deal_json`): each takes the other's contract, is
    still to enter, has no contract data, keeps its declarer and the doubles the rules still
    allow under its new contract (see :func:`swapped_deals` for those it drops). Refused
    (``swap_same_deal``, ``swap_other_declarer``) unless they are two deals of one declarer."""
    first, second = swapped_deals(match, number, other)
    return first.deal, second.deal


def swapped_deals(match: Match, number: int, other: int) -> tuple[SwappedDeal, SwappedDeal]:
    """:func:`swap_contracts` with, for each deal, the doubles it drops and why."""
    rules = _rules_of(match)
    i, j = _index(match, number), _index(match, other)
    header = match.header
    names = header.players
    declarer = declarer_of(header, rules, i)
    if i == j:
        raise RuleError(
            "swap_same_deal",
            "deal {number} cannot swap its contract with itself: choose another deal "
            "{declarer} declares",
            number=i + 1,
            declarer=names[declarer],
            place=Place(deal=i + 1),
        )
    if declarer_of(header, rules, j) != declarer:
        raise RuleError(
            "swap_other_declarer",
            "deal {number} is declared by {declarer} and deal {other} by {other_declarer}: "
            "contracts are swapped only between two deals of one declarer",
            number=i + 1,
            declarer=names[declarer],
            other=j + 1,
            other_declarer=names[declarer_of(header, rules, j)],
            place=Place(deal=i + 1),
        )
    deals = match.deals
    return (
        _swapped(match, rules, i, deals[j].contract),
        _swapped(match, rules, j, deals[i].contract),
    )


def _swapped(match: Match, rules: BarbuRules, index: int, contract: Contract) -> SwappedDeal:
    """Deal ``index`` (0-based) naming ``contract`` instead, still to enter."""
    header = match.header
    old: BarbuDeal = match.deals[index]
    declarer = declarer_of(header, rules, index)
    kept: list[Double] = []
    dropped: list[DroppedDouble] = []
    for d in old.doubles:
        reason = double_refusal(
            d.by,
            d.on,
            declarer=declarer,
            contract=contract,
            existing=kept,
            rules=rules,
            names=header.players,
        )
        if reason is None:
            kept.append(d)
        else:
            dropped.append(DroppedDouble(d, reason))
    deal = BarbuDeal(contract=contract, doubles=tuple(kept), declarer=old.declarer, to_enter=True)
    check_deal(deal, header=header, rules=rules, index=index)  # never refused: a fault if so
    return SwappedDeal(index + 1, contract, deal_json(deal), tuple(dropped))
