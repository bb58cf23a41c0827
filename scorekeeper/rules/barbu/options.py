"""The house rules of a Barbu match: the ``rules`` object of the match document.

Every option has a default (rules.md); the resolved value is what a match stores, so a score can
always be recomputed under the rules it was played with. ``rules_json`` writes the effective
value of every option, and ``parse_rules(rules_json(r)) == r``.

King (Rıfkı) fixes three options whatever the document says: the deal passes every hand
(``rotation`` resolves to ``"quick"``), there is no doubling (``compulsory_doubles`` resolves to
``"off"``) and so every negative contract is played (``undoubled_negative`` resolves to
``"play"``). Salade and King have no Domino: ``domino_payouts`` resolves to null there, and a
list given for them is refused as a probable mistake.

The additions of issue 12 (:mod:`.house` reads them): ``chinese_poker`` and its multiplier,
a house list of ``contracts`` and house ``contract_values``. Left out (or null), they resolve
to false, no multiplier (4 when Chinese Poker is played), the variant's list and the
variant's values; ``rules_json`` writes each only where it applies. With house values for
Domino, ``domino_payouts`` resolves to null: the payouts are the house's.

The number of players is not an option but the rules depend on it (five play Salade, with 10
tricks a deal): ``parse_rules(raw, seats)`` keeps it in :attr:`BarbuRules.seats`, which
``rules_json`` does not write (the document's ``players`` say it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .. import schema
from ..cards import _quote
from ..errors import Place, RuleError, Term, Words
from . import house
from .contracts import FIVE, SEATS, Contract, default_contracts
from .variants import Variant


class Rotation(StrEnum):
    SERIES = "series"  # each declarer declares all their contracts in a row
    QUICK = "quick"  # the declarer changes every deal


class CompulsoryDoubles(StrEnum):
    ENFORCE = "enforce"
    WARN = "warn"
    OFF = "off"


class UndoubledNegative(StrEnum):
    SPLIT = "split"  # not played: the contract's total is split, no contract data
    PLAY = "play"  # played and scored from its data like any other deal


# The positive points of each variant that has a Domino; the payouts must keep this total.
DOMINO_DEFAULTS: dict[Variant, tuple[int, int, int, int]] = {
    Variant.CLASSIC: (45, 20, 5, -5),
    Variant.RAVAGE_CITY: (50, 25, 10, 0),
}

OPTION_KEYS = (
    "variant",
    "rotation",
    "domino_payouts",
    "compulsory_doubles",
    "undoubled_negative",
    *house.HOUSE_KEYS,
)


@dataclass(frozen=True)
class BarbuRules:
    """Resolved options (every one has its effective value), and the number of players."""

    variant: Variant = Variant.CLASSIC
    rotation: Rotation = Rotation.SERIES
    domino_payouts: tuple[int, int, int, int] | None = DOMINO_DEFAULTS[Variant.CLASSIC]
    compulsory_doubles: CompulsoryDoubles = CompulsoryDoubles.ENFORCE
    undoubled_negative: UndoubledNegative = UndoubledNegative.SPLIT
    chinese_poker: bool = False  # the option: the variant's list with Chinese Poker added
    chinese_poker_multiplier: int | None = None  # None: Chinese Poker is not played
    contracts: tuple[Contract, ...] | None = None  # the house list (None: the variant's)
    contract_values: house.HouseValues = ()  # house values, contract by contract, as given
    seats: int = SEATS  # four players, or five (Salade)

    @property
    def doubling(self) -> bool:
        """Whether players may double at all (not in King)."""
        return self.variant is not Variant.KING

    @property
    def played(self) -> tuple[Contract, ...]:
        """The contracts of the match: the house list, else the variant's (with Chinese
        Poker when the option adds it)."""
        if self.contracts is not None:
            return self.contracts
        return default_contracts(self.variant, self.chinese_poker)

    def house_units(self, contract: Contract) -> Mapping[str, int | tuple[int, ...]] | None:
        """The house values given for ``contract`` (unit → value), or ``None``."""
        return next((dict(units) for c, units in self.contract_values if c is contract), None)


DEFAULT_RULES = BarbuRules()


def _choice[E: StrEnum](raw: Mapping[str, Any], key: str, enum: type[E], default: E) -> E:
    if key not in raw:
        return default
    return enum(schema.string(raw[key], key, choices=[e.value for e in enum], terms=key))


def parse_rules(raw: Mapping[str, Any], seats: int = SEATS) -> BarbuRules:
    """Read the ``rules`` object of a match of ``seats`` players; an unknown key or a bad
    value is refused, naming the key."""
    schema.obj(dict(raw), allowed=OPTION_KEYS, what=Words("a rules object"), keys="option")
    variant = _choice(raw, "variant", Variant, Variant.CLASSIC)
    if seats == FIVE and variant is not Variant.SALADE:
        # a document's players are refused before (check_players); this is the rules alone
        raise RuleError(
            "five_players_salade",
            "{count} players play only the variant {variant}, not {got}",
            count=FIVE,
            variant=Term("variant", Variant.SALADE.value),
            got=Term("variant", variant.value),
            where=("variant",),
            place=Place(field="variant"),
        )
    rotation = _choice(raw, "rotation", Rotation, Rotation.SERIES)
    compulsory = _choice(raw, "compulsory_doubles", CompulsoryDoubles, CompulsoryDoubles.ENFORCE)
    undoubled = _choice(raw, "undoubled_negative", UndoubledNegative, UndoubledNegative.SPLIT)
    found = house.read_house(
        raw, variant=variant, seats=seats, enforce=compulsory is CompulsoryDoubles.ENFORCE
    )
    if any(c is Contract.DOMINO for c, _ in found.values):
        house.check_no_domino_payouts(raw.get("domino_payouts"))
        payouts = None  # the house's payouts are the Domino's values
    else:
        payouts = _payouts(raw.get("domino_payouts"), variant)
    if variant is Variant.KING:
        rotation = Rotation.QUICK
        compulsory = CompulsoryDoubles.OFF
        undoubled = UndoubledNegative.PLAY
    return BarbuRules(
        variant=variant,
        rotation=rotation,
        domino_payouts=payouts,
        compulsory_doubles=compulsory,
        undoubled_negative=undoubled,
        chinese_poker=found.chinese_poker,
        chinese_poker_multiplier=found.multiplier,
        contracts=found.contracts,
        contract_values=found.values,
        seats=seats,
    )


def rules_at_table(rules: BarbuRules, seats: int) -> BarbuRules:
    """``rules`` (read for four) as a table of ``seats`` plays them: read again for five, so
    that what five players may not play is refused as the rules' own (``match`` calls it)."""
    if seats == rules.seats:
        return rules
    return parse_rules(rules_json(rules), seats)


def check_players(seats: int, raw: Mapping[str, Any]) -> None:
    """What the number of players refuses before the ``rules`` are read (``match`` calls it):
    five players outside Salade, naming the players (a variant that is no variant is left for
    the rules to refuse), and with five a house list naming a contract they do not play,
    naming the rules' ``contracts`` (before the rules, read for four, miss its values)."""
    if seats != FIVE:
        return
    variant = raw.get("variant", Variant.CLASSIC.value)
    known = isinstance(variant, str) and variant in {v.value for v in Variant}
    if known and variant != Variant.SALADE.value:
        raise RuleError(
            "five_players_salade",
            "{count} players play only the variant {variant}, not {got}",
            count=FIVE,
            variant=Term("variant", Variant.SALADE.value),
            got=Term("variant", variant),
            where=("players",),
            place=Place(field="players"),
        )
    if raw.get("contracts") is not None:
        try:
            house.read_contracts(raw["contracts"], seats)
        except RuleError as e:
            raise e.under("rules", "rules") from None


def _payouts(raw: object, variant: Variant) -> tuple[int, int, int, int] | None:
    key = "domino_payouts"
    default = DOMINO_DEFAULTS.get(variant)
    if raw is None:
        return default
    if default is None:
        raise RuleError(
            "domino_payouts_unused",
            "the variant {variant} has no Domino contract, so it takes no Domino payouts",
            variant=Term("variant", variant.value),
            where=(key,),
            place=Place(field=key),
        )
    values = schema.array(raw, key, length=4)
    a, b, c, d = (
        schema.integer(v, f"{key}[{i}]", place=Place(field=key, index=i))
        for i, v in enumerate(values)
    )
    payouts = (a, b, c, d)
    if sum(payouts) != sum(default):
        raise RuleError(
            "domino_payouts_total",
            "the Domino payouts add up to {got}, but the variant {variant} needs {want} to stay "
            "zero-sum",
            got=sum(payouts),
            want=sum(default),
            variant=Term("variant", variant.value),
            where=(key,),
            place=Place(field=key),
        )
    if list(payouts) != sorted(payouts, reverse=True):
        raise RuleError(
            "domino_payouts_order",
            "the Domino payouts {payouts} must not pay a later finisher more than an earlier one",
            payouts=_quote(list(payouts)),
            where=(key,),
            place=Place(field=key),
        )
    return payouts


def rules_json(rules: BarbuRules) -> dict[str, Any]:
    """Every option with its effective value (``parse_rules(rules_json(r), r.seats) == r``).
    Issue 12's keys are written where they apply (as Burraco's additions are): Chinese Poker
    and its multiplier when it is played, the house list and values when given. So the
    rules of a match without them are written as before, and a scoring state kept for it
    (which carries them) stays its own."""
    out: dict[str, Any] = {
        "variant": rules.variant.value,
        "rotation": rules.rotation.value,
        "domino_payouts": None if rules.domino_payouts is None else list(rules.domino_payouts),
        "compulsory_doubles": rules.compulsory_doubles.value,
        "undoubled_negative": rules.undoubled_negative.value,
    }
    if rules.chinese_poker:
        out["chinese_poker"] = True
    if rules.chinese_poker_multiplier is not None:
        out["chinese_poker_multiplier"] = rules.chinese_poker_multiplier
    if rules.contracts is not None:
        out["contracts"] = [c.value for c in rules.contracts]
    if rules.contract_values:
        out["contract_values"] = house.values_json(rules.contract_values)
    return out
