"""The house rules of a Barbu match: the ``rules`` object of the match document.

Every option has a default (rules.md); the resolved value is what a match stores, so a score can
always be recomputed under the rules it was played with. ``rules_json`` writes the effective
value of every option, and ``parse_rules(rules_json(r)) == r``.

King (Rıfkı) fixes three options whatever the document says: the deal passes every hand
(``rotation`` resolves to ``"quick"``), there is no doubling (``compulsory_doubles`` resolves to
``"off"``) and so every negative contract is played (``undoubled_negative`` resolves to
``"play"``). Salade and King have no Domino: ``domino_payouts`` resolves to null there, and a
list given for them is refused as a probable mistake.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .. import schema
from ..cards import _quote
from ..errors import Place, RuleError, Term, Words


class Variant(StrEnum):
    CLASSIC = "classic"
    RAVAGE_CITY = "ravage_city"
    SALADE = "salade"
    KING = "king"

    @property
    def label(self) -> str:
        """The variant's English name (messages use the code ``value``)."""
        return _VARIANT_LABELS[self]


_VARIANT_LABELS = {
    Variant.CLASSIC: "Barbu",
    Variant.RAVAGE_CITY: "Ravage City",
    Variant.SALADE: "Salade",
    Variant.KING: "King",
}


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
)


@dataclass(frozen=True)
class BarbuRules:
    """Resolved options (every one has its effective value)."""

    variant: Variant = Variant.CLASSIC
    rotation: Rotation = Rotation.SERIES
    domino_payouts: tuple[int, int, int, int] | None = DOMINO_DEFAULTS[Variant.CLASSIC]
    compulsory_doubles: CompulsoryDoubles = CompulsoryDoubles.ENFORCE
    undoubled_negative: UndoubledNegative = UndoubledNegative.SPLIT

    @property
    def doubling(self) -> bool:
        """Whether players may double at all (not in King)."""
        return self.variant is not Variant.KING


DEFAULT_RULES = BarbuRules()


def _choice[E: StrEnum](raw: Mapping[str, Any], key: str, enum: type[E], default: E) -> E:
    if key not in raw:
        return default
    return enum(schema.string(raw[key], key, choices=[e.value for e in enum], terms=key))


def parse_rules(raw: Mapping[str, Any]) -> BarbuRules:
    """Read the ``rules`` object; an unknown key or a bad value is refused, naming the key."""
    schema.obj(dict(raw), allowed=OPTION_KEYS, what=Words("a rules object"), keys="option")
    variant = _choice(raw, "variant", Variant, Variant.CLASSIC)
    rotation = _choice(raw, "rotation", Rotation, Rotation.SERIES)
    compulsory = _choice(raw, "compulsory_doubles", CompulsoryDoubles, CompulsoryDoubles.ENFORCE)
    undoubled = _choice(raw, "undoubled_negative", UndoubledNegative, UndoubledNegative.SPLIT)
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
    )


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
    """Every option with its effective value."""
    return {
        "variant": rules.variant.value,
        "rotation": rules.rotation.value,
        "domino_payouts": None if rules.domino_payouts is None else list(rules.domino_payouts),
        "compulsory_doubles": rules.compulsory_doubles.value,
        "undoubled_negative": rules.undoubled_negative.value,
    }
