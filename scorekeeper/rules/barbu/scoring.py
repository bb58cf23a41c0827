"""Scoring a Barbu match: each deal's raw scores and settlement, the schedule, compulsory
doubles, the zero-sum check and what may happen next.

A deal still to enter (``to_enter``) counts in the schedule (its declarer has named its
contract) and its doubles count towards the compulsory doubles, but it scores nothing yet: its
raw scores, doubles and totals are zeros, its settlement is empty and its score says
``"to_enter": true``. While any deal is to enter the match is not finished, and the zero-sum
check of a complete series or match waits for it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .. import schema
from ..base import (
    DealStep,
    MatchHeader,
    MatchResult,
    Standing,
    fold,
    json_int,
    json_ints,
    json_object,
)
from ..errors import Notice, Place, RuleError, Term
from .contracts import (
    KING_NEGATIVE_PLAYS,
    KING_NEGATIVES_PER_PLAYER,
    KING_TRUMPS_PER_PLAYER,
    Contract,
    contract_total,
    ravage_scores,
    split_scores,
    values_of,
    zero_sum,
)
from .deal import BarbuDeal, check_deal, is_split
from .doubles import settle
from .options import BarbuRules, CompulsoryDoubles, Variant
from .schedule import completes_series, deals_left_in_series, declarer_of, match_length

COMPULSORY_DOUBLES = 2  # each other player doubles the declarer at least twice in their deals


class ScoringFault(AssertionError):
    """The program broke one of its own invariants (a deal's sum, a zero-sum match).

    This is a fault in the program, never in the document: report it as a bug."""

    def __init__(self, what: str, *, where: str, got: int, want: int) -> None:
        super().__init__(
            f"internal error, please report it: {where}: {what} is {got}, it must be {want}. "
            "The document is not at fault; the program has broken its own rule."
        )
        self.where = where
        self.got = got
        self.want = want


# -- one deal ---------------------------------------------------------------------------------


def raw_scores(deal: BarbuDeal, rules: BarbuRules) -> tuple[int, ...]:
    """What each seat took in a played deal, before doubles, at the match's values."""
    v = values_of(rules, deal.contract)
    c = deal.contract
    seats = rules.seats
    zero = [0] * seats

    def at(seat: int | None, value: int) -> list[int]:
        out = list(zero)
        if seat is not None:
            out[seat] += value
        return out

    def add(*parts: Sequence[int]) -> tuple[int, ...]:
        return tuple(sum(p[s] for p in parts) for s in range(seats))

    def hearts() -> list[int]:
        assert deal.hearts is not None and deal.ace_of_hearts is not None
        out = [v.heart * h for h in deal.hearts]
        out[deal.ace_of_hearts] += v.ace_of_hearts - v.heart
        return out

    def per(values: Sequence[int] | None, unit: int) -> list[int]:
        assert values is not None
        return [unit * n for n in values]

    def last_two() -> list[int]:
        assert deal.last_two is not None
        return list(add(at(deal.last_two[0], v.trick_12), at(deal.last_two[1], v.trick_13)))

    if c is Contract.NO_TRICKS:
        return add(per(deal.tricks, v.trick))
    if c is Contract.NO_HEARTS:
        return add(hearts())
    if c in (Contract.NO_QUEENS, Contract.NO_GIRLS):
        return add(per(deal.queens, v.queen))
    if c in (Contract.BARBU, Contract.NO_KING):
        return add(at(deal.king_of_hearts, v.king_of_hearts))
    if c is Contract.NO_LAST_TWO:
        return add(last_two())
    if c is Contract.NO_LAST_TRICK:
        return add(at(deal.last_trick, v.trick_13))
    if c is Contract.TRUMPS:
        return add(per(deal.tricks, v.trump_trick))
    if c is Contract.DOMINO:
        assert deal.finish_order is not None and v.payouts
        out = list(zero)
        for place, seat in enumerate(deal.finish_order):
            out[seat] = v.payouts[place]
        return tuple(out)
    if c is Contract.RAVAGE_CITY:
        assert deal.suits is not None
        return ravage_scores(deal.suits, v.ravage)
    if c is Contract.NO_BOYS:
        return add(per(deal.boys, v.boy))
    if c is Contract.CHINESE_POKER:
        assert rules.chinese_poker_multiplier is not None
        return add(per(deal.net, rules.chinese_poker_multiplier))
    assert c is Contract.SALADE
    return add(
        per(deal.tricks, v.trick),
        hearts(),
        per(deal.queens, v.queen),
        at(deal.king_of_hearts, v.king_of_hearts),
        last_two() if v.last_two else at(deal.last_trick, v.trick_13),
    )


def _to_enter_score(declarer: int, seats: int) -> dict[str, Any]:
    """The score of a deal still to enter: nothing yet, and no business settled."""
    zero = [0] * seats
    return {
        "declarer": declarer,
        "raw": list(zero),
        "doubles": list(zero),
        "total": list(zero),
        "settlement": [],
        "to_enter": True,
    }


def _deal_score(deal: BarbuDeal, rules: BarbuRules, declarer: int, where: str) -> dict[str, Any]:
    if deal.to_enter:
        return _to_enter_score(declarer, rules.seats)
    want = contract_total(rules, deal.contract)
    split = is_split(rules, deal.contract, deal.doubles)
    raw = split_scores(want, declarer, rules.seats) if split else raw_scores(deal, rules)
    part, lines = settle(raw, deal.doubles)
    total = [r + p for r, p in zip(raw, part, strict=True)]
    if sum(raw) != want:
        raise ScoringFault(
            f"the raw scores of {deal.contract.value} add up", where=where, got=sum(raw), want=want
        )
    if sum(total) != want:
        raise ScoringFault("the deal's total after doubles", where=where, got=sum(total), want=want)
    out: dict[str, Any] = {
        "declarer": declarer,
        "raw": list(raw),
        "doubles": list(part),
        "total": total,
        "settlement": [line.as_json() for line in lines],
    }
    if split:
        out["split"] = True
    return out


def score_deal(
    header: MatchHeader, rules: BarbuRules, deal: BarbuDeal, *, index: int
) -> dict[str, Any]:
    """Preview one deal on its own (deal ``index``, 0-based): its score as ``score`` writes it.

    Checks the deal against itself but not against the deals before it (contracts already
    named, compulsory doubles): for that, score the match with the deal appended."""
    where = f"deal {index + 1}"
    try:
        check_deal(deal, header=header, rules=rules, index=index)
    except RuleError as e:
        raise e.at(where, deal=index + 1) from None
    return _deal_score(deal, rules, declarer_of(header, rules, index), where)


# -- the match --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ledger:
    """What the deals so far have used up: contracts named, doubles on each declarer. The
    header and rules are what it is read with (names for messages), not part of its value.
    A new one is :meth:`empty` (one entry a player)."""

    header: MatchHeader = field(compare=False, repr=False)
    rules: BarbuRules = field(compare=False, repr=False)
    #: declarer → the (contract, 0-based deal index) of each deal they declared, in order
    named: tuple[tuple[tuple[Contract, int], ...], ...] = ()
    #: declarer → seat → doubles on the declarer in the declarer's deals
    doubled: tuple[tuple[int, ...], ...] = ()
    #: (declarer, seat): a player flagged for compulsory doubles (flagged once)
    hopeless: frozenset[tuple[int, int]] = frozenset()

    @classmethod
    def empty(cls, header: MatchHeader, rules: BarbuRules) -> Ledger:
        """The ledger before the first deal: nothing named, nothing doubled."""
        seats = header.seats
        return cls(header, rules, named=((),) * seats, doubled=((0,) * seats,) * seats)

    @property
    def plays(self) -> Counter[Contract]:
        """Contract → deals of the match that named it."""
        return Counter(c for own in self.named for c, _ in own)

    def contracts_left(self, declarer: int) -> tuple[Contract, ...]:
        """What ``declarer`` may still name."""
        own = [c for c, _ in self.named[declarer]]
        every = self.rules.played
        if self.rules.variant is not Variant.KING:
            return tuple(c for c in every if c not in own)
        trumps = sum(c is Contract.TRUMPS for c in own)
        negatives = len(own) - trumps
        plays = self.plays
        out = []
        for c in every:
            if c is Contract.TRUMPS:
                if trumps < KING_TRUMPS_PER_PLAYER:
                    out.append(c)
            elif negatives < KING_NEGATIVES_PER_PLAYER and plays[c] < KING_NEGATIVE_PLAYS:
                out.append(c)
        return tuple(out)

    def check_contract(self, contract: Contract, declarer: int) -> None:
        if contract in self.contracts_left(declarer):
            return
        player = self.header.seat_name(declarer)
        where = (player, "contract")
        place = Place(seat=declarer, field="contract")
        own = [c for c, _ in self.named[declarer]]
        if self.rules.variant is not Variant.KING:
            first = next(i for c, i in self.named[declarer] if c is contract)
            raise RuleError(
                "contract_already_named",
                "{player} already declared {contract} in deal {deal}: each player names each "
                "contract once",
                player=player,
                contract=Term("contract", contract.value),
                deal=first + 1,
                where=where,
                place=place,
            )
        if contract is Contract.TRUMPS:
            raise RuleError(
                "king_trumps_used",
                "{player} has already declared trumps {limit} times",
                player=player,
                limit=KING_TRUMPS_PER_PLAYER,
                where=where,
                place=place,
            )
        if len(own) - sum(c is Contract.TRUMPS for c in own) >= KING_NEGATIVES_PER_PLAYER:
            raise RuleError(
                "king_negatives_used",
                "{player} has already declared {limit} negative contracts and must declare trumps",
                player=player,
                limit=KING_NEGATIVES_PER_PLAYER,
                where=where,
                place=place,
            )
        raise RuleError(
            "king_contract_used",
            "{contract} has already been played {limit} times in this match; {player} must "
            "name another contract",
            contract=Term("contract", contract.value),
            limit=KING_NEGATIVE_PLAYS,
            player=player,
            where=where,
            place=place,
        )

    def recorded(self, deal: BarbuDeal, declarer: int, index: int) -> Ledger:
        """The ledger with deal ``index`` (0-based), declared by ``declarer``, counted."""
        named = list(self.named)
        named[declarer] = (*named[declarer], (deal.contract, index))
        on_declarer = list(self.doubled[declarer])
        for d in deal.doubles:
            if d.on == declarer:
                on_declarer[d.by] += 1
        doubled = list(self.doubled)
        doubled[declarer] = tuple(on_declarer)
        return replace(self, named=tuple(named), doubled=tuple(doubled))

    def owed(self, declarer: int, seat: int) -> int:
        return max(0, COMPULSORY_DOUBLES - self.doubled[declarer][seat])

    def compulsory(self, declarer: int, index: int) -> tuple[Ledger, tuple[Notice, ...]]:
        """After deal ``index``: refuse (enforce) or flag (warn) each player who can no longer
        double the declarer twice in the declarer's deals left; the ledger remembers whom it
        flagged, so that a player is flagged once."""
        mode = self.rules.compulsory_doubles
        if mode is CompulsoryDoubles.OFF:
            return self, ()
        left = deals_left_in_series(self.rules, index)
        notices = []
        hopeless = set(self.hopeless)
        seats = self.header.seats
        for k in range(1, seats):
            seat = (declarer + k) % seats
            owed = self.owed(declarer, seat)
            if owed <= left or (declarer, seat) in hopeless:
                continue
            hopeless.add((declarer, seat))
            player = self.header.seat_name(seat)
            params = {
                "player": player,
                "declarer": self.header.seat_name(declarer),
                "required": COMPULSORY_DOUBLES,
                "done": self.doubled[declarer][seat],
                "left": left,
            }
            notice = Notice(
                "compulsory_doubles",
                "{player} must double {declarer} at least {required} times in the deals "
                "{declarer} declares (doubles so far: {done}), and {left} of those deals are "
                "left",
                (player, "doubles"),
                params,
                Place(seat=seat, field="doubles"),
            )
            if mode is CompulsoryDoubles.ENFORCE:
                # refused at the first deal after which the doubles can no longer be made: a
                # double in this very deal mends it, and the refusal says so (a probe read "1
                # of those deals is left" as impossible, under a banner saying "double now")
                raise RuleError(
                    notice.code,
                    "{player} must double {declarer} in this deal: {player} owes {owed} of "
                    "the {required} compulsory doubles on {declarer}, and after this one {left} "
                    "of the deals {declarer} declares are left",
                    where=notice.where,
                    place=notice.place,
                    owed=self.owed(declarer, seat),
                    **notice.params,
                )
            notices.append(notice)
        if not notices:
            return self, ()
        return replace(self, hopeless=frozenset(hopeless)), tuple(notices)

    def as_json(self) -> dict[str, Any]:
        return {
            "named": [[[c.value, i] for c, i in own] for own in self.named],
            "doubled": [list(row) for row in self.doubled],
            "hopeless": [list(pair) for pair in sorted(self.hopeless)],
        }

    @classmethod
    def from_json(cls, data: object, header: MatchHeader, rules: BarbuRules) -> Ledger:
        """Read what :meth:`as_json` wrote (a ``ValueError`` on anything else)."""
        raw = json_object(data, _LEDGER_KEYS)
        every = rules.played
        seats = header.seats
        named = []
        for own in _json_list(raw["named"], seats):
            pairs = []
            for pair in _json_list(own):
                contract, index = _json_list(pair, 2)
                if contract not in every:
                    raise ValueError(f"{contract!r} is not a contract of {rules.variant.value}")
                pairs.append((Contract(contract), json_int(index, low=0)))
            named.append(tuple(pairs))
        doubled = tuple(
            json_ints(row, length=seats, low=0) for row in _json_list(raw["doubled"], seats)
        )
        hopeless = set()
        for pair in _json_list(raw["hopeless"]):
            declarer, seat = json_ints(pair, length=2, low=0, high=seats - 1)
            hopeless.add((declarer, seat))
        return cls(header, rules, named=tuple(named), doubled=doubled, hopeless=frozenset(hopeless))


def _json_list(raw: object, length: int | None = None) -> list[Any]:
    if not isinstance(raw, list) or (length is not None and len(raw) != length):
        raise ValueError(f"expected a list of {length or 'any number of'} entries")
    return raw


_LEDGER_KEYS = ("named", "doubled", "hopeless")


@dataclass(frozen=True)
class BarbuTally:
    """What the deals so far leave for the next one: how many there are, the running totals,
    the sum those must have (the contract totals of the deals played, for the zero-sum
    check), the deals still to enter (counted from 1) and the :class:`Ledger`."""

    deals: int
    totals: tuple[int, ...]
    expected: int
    to_enter: tuple[int, ...]
    ledger: Ledger


def start(header: MatchHeader, rules: BarbuRules) -> BarbuTally:
    """The tally before the first deal."""
    return BarbuTally(
        deals=0,
        totals=(0,) * header.seats,
        expected=0,
        to_enter=(),
        ledger=Ledger.empty(header, rules),
    )


def step(header: MatchHeader, rules: BarbuRules, tally: BarbuTally, deal: BarbuDeal) -> DealStep:
    """Check the next deal (number ``tally.deals + 1``) against itself and the deals before it,
    score it, and check the sums: its declarer's contracts, the compulsory doubles at it, the
    running sum, and the zero-sum of a complete series or match."""
    index = tally.deals
    where = f"deal {index + 1}"
    try:
        check_deal(deal, header=header, rules=rules, index=index)
        declarer = declarer_of(header, rules, index)
        tally.ledger.check_contract(deal.contract, declarer)
        result = _deal_score(deal, rules, declarer, where)
        ledger = tally.ledger.recorded(deal, declarer, index)
        ledger, found = ledger.compulsory(declarer, index)
    except RuleError as e:
        raise e.at(where, deal=index + 1) from None
    found = tuple(n.at(where, deal=index + 1) for n in found)
    if found:
        # as docs/match-format.md writes a warning: {code, where, message}
        result["warnings"] = [
            {"code": n.code, "where": list(n.shown_where), "message": n.message} for n in found
        ]
    totals = tuple(t + d for t, d in zip(tally.totals, result["total"], strict=True))
    expected = tally.expected + (0 if deal.to_enter else contract_total(rules, deal.contract))
    if sum(totals) != expected:
        raise ScoringFault(
            "the sum of the running totals", where=where, got=sum(totals), want=expected
        )
    # a deal so far still to enter: its series does not add up yet
    to_enter = (*tally.to_enter, index + 1) if deal.to_enter else tally.to_enter
    whole = completes_series(rules, index) or index == match_length(rules) - 1
    if zero_sum(rules) and whole and not to_enter:
        if sum(totals) != 0:
            raise ScoringFault(
                "the sum of a complete series or match", where=where, got=sum(totals), want=0
            )
    after = BarbuTally(
        deals=index + 1, totals=totals, expected=expected, to_enter=to_enter, ledger=ledger
    )
    return DealStep(tally=after, score=result, notices=found)


def standing(header: MatchHeader, rules: BarbuRules, tally: BarbuTally) -> Standing:
    """The totals; finished once every deal of the match is there and none is still to
    enter; the winner; and :func:`next_deal`'s answer."""
    finished = tally.deals == match_length(rules) and not tally.to_enter
    return Standing(
        deals=tally.deals,
        totals=tally.totals,
        finished=finished,
        winner=_winner(rules, tally.totals, finished),
        next_deal=_next(header, rules, tally),
    )


def tally_json(tally: BarbuTally) -> dict[str, Any]:
    return {
        "deals": tally.deals,
        "totals": list(tally.totals),
        "expected": tally.expected,
        "to_enter": list(tally.to_enter),
        "ledger": tally.ledger.as_json(),
    }


_TALLY_KEYS = ("deals", "totals", "expected", "to_enter", "ledger")


def tally_from_json(data: object, header: MatchHeader, rules: BarbuRules) -> BarbuTally:
    """Read what :func:`tally_json` wrote (a ``ValueError`` on anything else)."""
    raw = json_object(data, _TALLY_KEYS)
    deals = json_int(raw["deals"], low=0, high=match_length(rules))
    tally = BarbuTally(
        deals=deals,
        totals=json_ints(raw["totals"], length=header.seats),
        expected=json_int(raw["expected"]),
        to_enter=json_ints(raw["to_enter"], low=1, high=deals),
        ledger=Ledger.from_json(raw["ledger"], header, rules),
    )
    if sum(len(own) for own in tally.ledger.named) != deals:
        raise ValueError("the ledger names contracts for another number of deals")
    return tally


def _walk(header: MatchHeader, rules: BarbuRules, deals: Sequence[BarbuDeal]) -> BarbuTally:
    """The tally after ``deals``, each checked against the ones before it."""
    tally = start(header, rules)
    for deal in deals:
        tally = step(header, rules, tally, deal).tally
    return tally


def winners(rules: BarbuRules, totals: Sequence[int]) -> list[int]:
    """Everyone who wins a finished match: in King every player with a positive total; else
    the one highest total (none on a tie)."""
    if rules.variant is Variant.KING:
        return [s for s, t in enumerate(totals) if t > 0]
    best = max(totals)
    top = [s for s, t in enumerate(totals) if t == best]
    return top if len(top) == 1 else []


def _winner(rules: BarbuRules, totals: Sequence[int], finished: bool) -> int | None:
    """The document's ``winner``: the single highest total of a finished match."""
    if not finished:
        return None
    best = max(totals)
    top = [s for s, t in enumerate(totals) if t == best]
    return top[0] if len(top) == 1 else None


def _next(header: MatchHeader, rules: BarbuRules, tally: BarbuTally) -> dict[str, Any]:
    length = match_length(rules)
    index = tally.deals
    to_enter = list(tally.to_enter)
    if index >= length:
        # every deal is there: finished, unless some are still to enter (no new deal then)
        return {
            "finished": not to_enter,
            "number": None,
            "of": length,
            "declarer": None,
            "contracts": [],
            "deals_left": 0,
            "doubles_owed": [],
            "to_enter": to_enter,
        }
    ledger = tally.ledger
    declarer = declarer_of(header, rules, index)
    left = deals_left_in_series(rules, index) + 1  # counting the next deal
    owed = []
    seats = header.seats
    if rules.compulsory_doubles is not CompulsoryDoubles.OFF:
        for k in range(1, seats):
            seat = (declarer + k) % seats
            n = ledger.owed(declarer, seat)
            owed.append({"seat": seat, "owed": n, "deals_left": left, "must_double": n >= left})
    return {
        "finished": False,
        "number": index + 1,
        "of": length,
        "declarer": declarer,
        "contracts": [c.value for c in ledger.contracts_left(declarer)],
        "deals_left": left,  # the declarer's deals still to declare, the next one counted
        "doubles_owed": owed,
        "to_enter": to_enter,
    }


def score(header: MatchHeader, rules: BarbuRules, deals: Sequence[BarbuDeal]) -> MatchResult:
    """Validate every deal against the rules and the deals before it, and score the match:
    the fold of :func:`step`."""
    return fold(header, rules, deals, start=start, step=step, standing=standing)


def next_deal(header: MatchHeader, rules: BarbuRules, deals: Sequence[BarbuDeal]) -> dict[str, Any]:
    """What may happen next: ``{"finished", "number" (1-based), "of", "declarer", "contracts"
    (what the declarer may name), "deals_left" (the deals the declarer still declares, the
    next one counted), "doubles_owed": [{"seat", "owed", "deals_left",
    "must_double"}], "to_enter"}`` (``doubles_owed`` is empty when compulsory doubles are off;
    ``to_enter`` lists the deals still to enter, counted from 1). When every deal of the match
    is there but some are still to enter, the match is not finished and there is no next
    deal: ``finished`` is false and ``number``, ``declarer`` are ``None``."""
    return _next(header, rules, _walk(header, rules, deals))


def contracts_left(
    header: MatchHeader,
    rules: BarbuRules,
    deals: Sequence[BarbuDeal],
    declarer: int | None = None,
) -> tuple[Contract, ...]:
    """The contracts ``declarer`` (default: the next deal's) may still name after ``deals``."""
    if declarer is None:
        declarer = declarer_of(header, rules, len(deals))
    declarer = schema.seat(declarer, "declarer", header.seats)
    return _walk(header, rules, deals).ledger.contracts_left(declarer)


def contracts_for_deal(
    header: MatchHeader, rules: BarbuRules, deals: Sequence[BarbuDeal], index: int
) -> tuple[Contract, ...]:
    """The contracts the declarer of deal ``index`` (0-based) may name there, given every other
    deal of the match: for correcting a past deal, a contract the declarer names in a later
    deal is not offered, nor one whose King quota the other deals already fill."""
    index = schema.integer(index, "index", minimum=0, maximum=len(deals))
    declarer = declarer_of(header, rules, index)
    ledger = Ledger.empty(header, rules)
    for other, deal in enumerate(deals):
        if other != index:
            ledger = ledger.recorded(deal, declarer_of(header, rules, other), other)
    return ledger.contracts_left(declarer)


def preview_deal(
    header: MatchHeader, rules: BarbuRules, deals: Sequence[BarbuDeal], deal: BarbuDeal
) -> dict[str, Any]:
    """The score of ``deal`` played after ``deals``, checked against everything before it
    (with its warnings under ``compulsory_doubles: warn``)."""
    return step(header, rules, _walk(header, rules, deals), deal).score
