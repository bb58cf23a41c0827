"""Doubles and redoubles: who may double whom, the shortcuts, and the settlement.

A *business* is a side bet between two players on the difference of their scores for the deal:
``by`` doubled ``on`` (factor 1), and ``on`` may redouble (factor 2). There is at most one
business per pair of players.

- Nobody doubles themselves.
- The declarer cannot double; they may only redouble a player who doubled them.
- Any doubled player may redouble the player who doubled them.
- In a positive contract (Trumps, Domino) only the declarer may be doubled. Chinese Poker is
  not one: any two players may do business there, as in a negative contract.
- King has no doubling at all.
- Five players (Salade) make ten pairs; everything else is as with four.

The document records the businesses, not the auction: the order of the ``doubles`` list does
not matter, and neither does the order in which players spoke (see the module ``__init__``).

What the score sheet asks while the doubles are entered, answered here: which double or
redouble each player may make on each other one, and why not (:func:`allowed_doubles`,
:func:`double_refusal`); which shortcut each player may say, what it would change, and why not
(:func:`shortcut_choices`, :func:`shortcut_refusal`, :func:`expand_shortcut`); which doubles
stand when the contract changes (:func:`keep_allowed_doubles`); who gains on each pair once the
deal is scored (:attr:`SettlementLine.gainer`).

Settlement, with m(i, j) the factor of the business between i and j (0 when there is none):
``total_i = raw_i + Σ_j m(i, j) × (raw_i − raw_j)``. Each business moves the same amount from
one player to the other, so a deal's sum never changes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from .. import schema
from ..cards import _quote
from ..errors import Place, RuleError, Term
from .contracts import Contract
from .options import DEFAULT_RULES, BarbuRules


@dataclass(frozen=True)
class Double:
    """One business: ``by`` doubled ``on``; ``redoubled`` when ``on`` redoubled ``by``."""

    by: int
    on: int
    redoubled: bool = False

    @property
    def factor(self) -> int:
        return 2 if self.redoubled else 1

    @property
    def pair(self) -> frozenset[int]:
        return frozenset((self.by, self.on))

    def involves(self, seat: int) -> bool:
        return seat in (self.by, self.on)


class Action(StrEnum):
    DOUBLE = "double"
    REDOUBLE = "redouble"


class Shortcut(StrEnum):
    """What a player may say instead of naming each player.

    ``maximum`` (also "table"): double everyone one may double and redouble every double
    received; said by the declarer, it only redoubles. ``family`` (also "sides"): a
    non-declarer doubles the other non-declarers, two of them (three with five players), in
    a contract that is not positive."""

    MAXIMUM = "maximum"
    FAMILY = "family"


SHORTCUT_ALIASES = {
    "maximum": Shortcut.MAXIMUM,
    "table": Shortcut.MAXIMUM,
    "family": Shortcut.FAMILY,
    "sides": Shortcut.FAMILY,
}


@dataclass(frozen=True)
class Refusal:
    """Why a double may not be made: a stable code and an English template with its params."""

    code: str
    template: str
    params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def text(self) -> str:
        return RuleError(self.code, self.template, **self.params).text

    def error(self, *where: str, **place: Any) -> RuleError:
        """The refusal as a :class:`RuleError` at ``where`` (words) and ``place`` (values:
        the fields of :class:`~scorekeeper.rules.errors.Place`)."""
        return RuleError(self.code, self.template, where=where, place=Place(**place), **self.params)


def _names(names: Sequence[str] | None, seats: int) -> Sequence[str]:
    return names if names is not None else [f"seat {s}" for s in range(seats)]


def business_between(existing: Iterable[Double], a: int, b: int) -> Double | None:
    pair = frozenset((a, b))
    return next((d for d in existing if d.pair == pair), None)


def double_refusal(
    by: int,
    on: int,
    *,
    declarer: int,
    contract: Contract,
    existing: Iterable[Double] = (),
    rules: BarbuRules = DEFAULT_RULES,
    names: Sequence[str] | None = None,
) -> Refusal | None:
    """Why ``by`` may not double ``on`` now (``None``: they may). ``names``: the players."""
    n = _names(names, rules.seats)
    if not rules.doubling:
        return Refusal(
            "no_doubling",
            "there is no doubling in the variant {variant}",
            {"variant": Term("variant", rules.variant.value)},
        )
    if by == on:
        return Refusal("double_self", "{player} cannot double themselves", {"player": n[by]})
    if by == declarer:
        return Refusal(
            "declarer_cannot_double",
            "{player} declares this deal and cannot double, only redouble a player who "
            "doubled them",
            {"player": n[by]},
        )
    if contract.positive and on != declarer:
        return Refusal(
            "positive_only_declarer",
            "in the positive contract {contract} only the declarer {declarer} may be doubled, "
            "not {player}",
            {
                "contract": Term("contract", contract.value),
                "declarer": n[declarer],
                "player": n[on],
            },
        )
    found = business_between(existing, by, on)
    if found is not None:
        return Refusal(
            "one_business_per_pair",
            "{player} and {other} are already in business ({doubler} doubled {doubled}): "
            "one business per pair of players",
            {"player": n[by], "other": n[on], "doubler": n[found.by], "doubled": n[found.on]},
        )
    return None


def check_doubles(
    doubles: Sequence[Double],
    *,
    declarer: int,
    contract: Contract,
    rules: BarbuRules,
    names: Sequence[str],
) -> None:
    """Refuse the first illegal entry of a deal's ``doubles`` list, naming the doubling seat."""
    for i, d in enumerate(doubles):
        refusal = double_refusal(
            d.by,
            d.on,
            declarer=declarer,
            contract=contract,
            existing=doubles[:i],
            rules=rules,
            names=names,
        )
        if refusal is not None:
            raise refusal.error(names[d.by], f"doubles[{i}]", seat=d.by, field="doubles", index=i)


@dataclass(frozen=True)
class DoubleChoice:
    """What ``by`` can do to ``on`` in this deal: double them, or redouble them after they
    doubled ``by``. ``made``: already in the list; ``reason``: why not, when not allowed."""

    by: int
    on: int
    action: Action
    made: bool
    reason: Refusal | None = None

    @property
    def allowed(self) -> bool:
        return self.reason is None


def allowed_doubles(
    declarer: int,
    contract: Contract,
    existing: Sequence[Double] = (),
    *,
    rules: BarbuRules = DEFAULT_RULES,
    names: Sequence[str] | None = None,
) -> tuple[DoubleChoice, ...]:
    """For every ordered pair of players (``by`` ≠ ``on``), the one action ``by`` could take
    on ``on`` given the doubles already made: a double, or a redouble of ``on``'s double.

    Made choices have ``made=True``; a choice that the rules forbid carries its ``reason``.
    The site offers the allowed ones and shows the reason beside the others. A double already
    in ``existing`` that the rules forbid (the contract changed to a positive one, say) carries
    its reason too, and so does the redouble of it: see :func:`keep_allowed_doubles`."""
    choices = []
    for by in range(rules.seats):
        for on in range(rules.seats):
            if by == on:
                continue
            found = business_between(existing, by, on)
            if found is None:
                reason = double_refusal(
                    by,
                    on,
                    declarer=declarer,
                    contract=contract,
                    existing=existing,
                    rules=rules,
                    names=names,
                )
                choices.append(DoubleChoice(by, on, Action.DOUBLE, made=False, reason=reason))
                continue
            others = [d for d in existing if d is not found]
            reason = double_refusal(
                found.by,
                found.on,
                declarer=declarer,
                contract=contract,
                existing=others,
                rules=rules,
                names=names,
            )
            if found.by == by:
                choices.append(DoubleChoice(by, on, Action.DOUBLE, made=True, reason=reason))
            else:
                choices.append(
                    DoubleChoice(by, on, Action.REDOUBLE, made=found.redoubled, reason=reason)
                )
    return tuple(choices)


def keep_allowed_doubles(
    doubles: Iterable[Double],
    *,
    declarer: int,
    contract: Contract,
    rules: BarbuRules = DEFAULT_RULES,
) -> tuple[Double, ...]:
    """The doubles of ``doubles`` that the rules allow in ``contract``, in their order, each
    judged beside those kept before it: what stands when the declarer names another contract
    (in a positive contract only the declarer may be doubled; in King nobody doubles)."""
    kept: list[Double] = []
    for d in doubles:
        refusal = double_refusal(
            d.by, d.on, declarer=declarer, contract=contract, existing=kept, rules=rules
        )
        if refusal is None:
            kept.append(d)
    return tuple(kept)


def parse_shortcut(kind: str | Shortcut) -> Shortcut:
    found = SHORTCUT_ALIASES.get(str(kind).strip().lower())
    if found is None:
        raise RuleError(
            "bad_shortcut",
            "{kind} is not a doubling shortcut (maximum, family)",
            kind=_quote(str(kind)),
        )
    return found


def expand_shortcut(
    kind: str | Shortcut,
    by: int,
    declarer: int,
    contract: Contract,
    existing: Sequence[Double] = (),
    *,
    rules: BarbuRules = DEFAULT_RULES,
    names: Sequence[str] | None = None,
) -> tuple[Double, ...]:
    """The doubles list after ``by`` says ``kind``: ``existing`` with the redoubles marked and
    the new doubles appended (in seat order from ``by``'s left). Pairs already in business
    otherwise stay as they are. Refuses a shortcut that the rules do not allow here."""
    shortcut = parse_shortcut(kind)
    seats = rules.seats
    by = schema.seat(by, "by", seats)
    declarer = schema.seat(declarer, "declarer", seats)
    n = _names(names, rules.seats)
    refusal = shortcut_refusal(shortcut, by, declarer, contract, rules=rules, names=names)
    if refusal is not None:
        raise refusal.error(n[by], seat=by)
    others = [(by + k) % seats for k in range(1, seats)]
    if shortcut is Shortcut.FAMILY:
        targets = [s for s in others if s != declarer]
        redouble = False
    else:
        targets = others
        redouble = True
    out = list(existing)
    for on in targets:
        found = business_between(out, by, on)
        if found is None:
            if double_refusal(by, on, declarer=declarer, contract=contract, rules=rules) is None:
                out.append(Double(by, on))
        elif redouble and found.on == by and not found.redoubled:
            out[out.index(found)] = replace(found, redoubled=True)
    return tuple(out)


def shortcut_refusal(
    kind: str | Shortcut,
    by: int,
    declarer: int,
    contract: Contract,
    *,
    rules: BarbuRules = DEFAULT_RULES,
    names: Sequence[str] | None = None,
) -> Refusal | None:
    """Why ``by`` may not say the shortcut ``kind`` in this deal (``None``: they may)."""
    shortcut = parse_shortcut(kind)
    n = _names(names, rules.seats)
    if not rules.doubling:
        return Refusal(
            "no_doubling",
            "there is no doubling in the variant {variant}",
            {"variant": Term("variant", rules.variant.value)},
        )
    if shortcut is Shortcut.FAMILY and by == declarer:
        return Refusal(
            "family_by_declarer",
            "{player} declares this deal and cannot say family: the declarer only redoubles",
            {"player": n[by]},
        )
    if shortcut is Shortcut.FAMILY and contract.positive:
        return Refusal(
            "family_in_positive",
            "{player} cannot say family in the positive contract {contract}: only the "
            "declarer may be doubled",
            {"player": n[by], "contract": Term("contract", contract.value)},
        )
    return None


@dataclass(frozen=True)
class ShortcutChoice:
    """What saying ``kind`` would do for ``by`` now: ``doubles``, the list it would leave
    (``existing`` when refused), or ``reason``, why the rules forbid it."""

    by: int
    kind: Shortcut
    doubles: tuple[Double, ...]
    existing: tuple[Double, ...]
    reason: Refusal | None = None

    @property
    def allowed(self) -> bool:
        return self.reason is None

    @property
    def changes(self) -> bool:
        """Saying it would change something (a new double, or a redouble): worth offering."""
        return self.allowed and self.doubles != self.existing


def shortcut_choices(
    declarer: int,
    contract: Contract,
    existing: Sequence[Double] = (),
    *,
    rules: BarbuRules = DEFAULT_RULES,
    names: Sequence[str] | None = None,
) -> tuple[ShortcutChoice, ...]:
    """For every player and every shortcut (``maximum``, then ``family``), in seat order:
    what saying it now would leave, or why it may not be said."""
    existing = tuple(existing)
    out = []
    for by in range(rules.seats):
        for kind in Shortcut:
            reason = shortcut_refusal(kind, by, declarer, contract, rules=rules, names=names)
            after = (
                existing
                if reason is not None
                else expand_shortcut(
                    kind, by, declarer, contract, existing, rules=rules, names=names
                )
            )
            out.append(ShortcutChoice(by, kind, after, existing, reason))
    return tuple(out)


@dataclass(frozen=True)
class SettlementLine:
    """One business settled: ``by`` gains ``amount`` (negative: pays it) and ``on`` loses it."""

    by: int
    on: int
    factor: int
    amount: int

    @property
    def gainer(self) -> int | None:
        """Who gains on this pair: ``by`` when ``amount`` is positive, ``on`` when it is
        negative, nobody (``None``) when the two took the same and the business moves nothing."""
        if self.amount > 0:
            return self.by
        if self.amount < 0:
            return self.on
        return None

    @property
    def payer(self) -> int | None:
        """Who pays on this pair (``None`` when nothing moves)."""
        if self.amount == 0:
            return None
        return self.on if self.amount > 0 else self.by

    @property
    def gain(self) -> int:
        """What the gainer gains and the payer pays (0 when they are even)."""
        return abs(self.amount)

    @property
    def seats(self) -> tuple[int, int]:
        """The two players of the business, in seat order."""
        low, high = sorted((self.by, self.on))
        return (low, high)

    def as_json(self) -> dict[str, int]:
        return {"by": self.by, "on": self.on, "factor": self.factor, "amount": self.amount}

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> SettlementLine:
        """A line as a deal's ``score`` writes it (``{"by", "on", "factor", "amount"}``)."""
        return cls(int(raw["by"]), int(raw["on"]), int(raw["factor"]), int(raw["amount"]))


def settle(
    raw: Sequence[int], doubles: Iterable[Double]
) -> tuple[tuple[int, ...], tuple[SettlementLine, ...]]:
    """The doubles part of each seat's score and one line per business (ordered by pair, so
    that the order of the doubles list does not show)."""
    part = [0] * len(raw)
    lines = []
    for d in doubles:
        amount = d.factor * (raw[d.by] - raw[d.on])
        part[d.by] += amount
        part[d.on] -= amount
        lines.append(SettlementLine(d.by, d.on, d.factor, amount))
    lines.sort(key=lambda line: sorted((line.by, line.on)))
    return tuple(part), tuple(lines)
