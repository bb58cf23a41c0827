"""House rules of issue 12: Chinese Poker, a house list of contracts, house values.

Reading (``parse_rules`` calls :func:`read_house`): ``chinese_poker`` adds the contract to the
classic or Ravage City list; ``contracts`` replaces the list (each contract once, Salade's six
only with five players); ``contract_values`` replaces the values of some contracts played,
each as a whole, in the units of rules.md's table; ``chinese_poker_multiplier`` is what a net
is worth, when Chinese Poker is played. Every refusal names the field (``rules``, the key,
and inside ``contract_values`` the contract and unit as written: ``"barbu.king_of_hearts"``).

Showing (for the site): :func:`units_of` (what each unit of a contract is worth in the match)
and :func:`match_values` (each contract's values and total, their sum, what a complete match
adds up to, and whether it is checked for zero).

Decisions where the documents are silent (docs/decisions.md, "Barbu: Chinese Poker, house
values, five players"):

- ``null`` is a key left out, and so is an empty ``contract_values`` object;
  ``chinese_poker: false`` is not "given" (beside ``contracts``, or in King, it is accepted).
  ``rules_json`` writes these keys only where they apply.
- A house value set is kept as given (units in the table's order); a salade or a No hearts
  that leaves out the ace of hearts is worth what its hearts are, as rules.md says, and
  :func:`units_of` shows that value.
- Chinese Poker may be listed in ``contracts`` with any variant but King (with four players):
  it adds 0, so it never changes whether a match is zero-sum.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .. import schema
from ..cards import _quote, _type_name
from ..errors import AllOf, OneOf, Place, RuleError, Term, Words
from .contracts import (
    CHINESE_POKER_MULTIPLIER,
    CHINESE_POKER_VARIANTS,
    CONTRACTS,
    FIVE,
    HOUSE_CONTRACTS,
    KING_CONTRACTS,
    KING_NEGATIVE_PLAYS,
    KING_TRUMPS_PER_PLAYER,
    Contract,
    contract_total,
    default_contracts,
    values_of,
    zero_sum,
)
from .variants import Variant

if TYPE_CHECKING:
    from .options import BarbuRules

HOUSE_KEYS = ("chinese_poker", "chinese_poker_multiplier", "contracts", "contract_values")

type UnitValue = int | tuple[int, ...]
#: House values as the rules keep them: (contract, ((unit, value), ...)), in the match's order.
type HouseValues = tuple[tuple[Contract, tuple[tuple[str, UnitValue], ...]], ...]

_C = Contract
#: The units of each contract that may have house values (rules.md's table), in its order.
UNITS: dict[Contract, tuple[str, ...]] = {
    _C.NO_TRICKS: ("trick",),
    _C.NO_HEARTS: ("heart", "ace_of_hearts"),
    _C.NO_QUEENS: ("queen",),
    _C.BARBU: ("king_of_hearts",),
    _C.NO_LAST_TWO: ("last_two",),
    _C.NO_LAST_TRICK: ("last_trick",),
    _C.TRUMPS: ("trump_trick",),
    _C.DOMINO: ("payouts",),
    _C.RAVAGE_CITY: ("most_cards",),
    _C.SALADE: (
        "trick",
        "heart",
        "ace_of_hearts",
        "queen",
        "king_of_hearts",
        "last_trick",
        "last_two",
    ),
}
#: Units that hold a list, and its length.
LIST_UNITS = {"last_two": 2, "payouts": 4}
#: Ravage City's value is shared by 2, 3 or 4 tied players: it must divide by each.
MOST_CARDS_DIVISOR = 12


@dataclass(frozen=True)
class House:
    """What :func:`read_house` found: the Chinese Poker option and its multiplier (``None``
    when it is not played), the house list (``None``: the variant's) and the house values."""

    chinese_poker: bool
    multiplier: int | None
    contracts: tuple[Contract, ...] | None
    values: HouseValues


def read_house(raw: Mapping[str, Any], *, variant: Variant, seats: int, enforce: bool) -> House:
    """Read the house keys of the ``rules`` object (``enforce``: compulsory doubles are
    enforced, which a series of one deal cannot satisfy)."""
    chinese_poker = raw.get("chinese_poker")
    chinese_poker = (
        False if chinese_poker is None else schema.boolean(chinese_poker, "chinese_poker")
    )
    given = {
        "chinese_poker": chinese_poker,
        "chinese_poker_multiplier": raw.get("chinese_poker_multiplier") is not None,
        "contracts": raw.get("contracts") is not None,
        "contract_values": raw.get("contract_values") not in (None, {}),
    }
    if variant is Variant.KING:
        for key in HOUSE_KEYS:
            if given[key]:
                raise RuleError(
                    "king_no_house_values",
                    "the variant {variant} has its own contracts and values: {option} does "
                    "not apply to it",
                    variant=Term("variant", variant.value),
                    option=Term("option", key),
                    where=(key,),
                    place=Place(field=key),
                )
    if chinese_poker and variant not in CHINESE_POKER_VARIANTS:
        raise RuleError(
            "chinese_poker_variant",
            "{contract} is added to the variants {variants}, not to {variant}",
            contract=Term("contract", Contract.CHINESE_POKER.value),
            variants=OneOf(Term("variant", v.value) for v in CHINESE_POKER_VARIANTS),
            variant=Term("variant", variant.value),
            where=("chinese_poker",),
            place=Place(field="chinese_poker"),
        )
    contracts = None
    if given["contracts"]:
        if chinese_poker:
            raise RuleError(
                "chinese_poker_beside_contracts",
                "{contracts} lists every contract played: list {contract} there rather than "
                "setting {option}",
                contracts=Term("option", "contracts"),
                contract=Term("contract", Contract.CHINESE_POKER.value),
                option=Term("option", "chinese_poker"),
                where=("chinese_poker",),
                place=Place(field="chinese_poker"),
            )
        contracts = read_contracts(raw["contracts"], seats)
    played = contracts if contracts is not None else default_contracts(variant, chinese_poker)
    values = _values(raw.get("contract_values"), played)
    _check_valued(played, variant, values, listed=contracts is not None)
    if enforce and len(played) == 1:
        raise RuleError(
            "contracts_one_compulsory",
            "with one contract a declarer's series is one deal, which leaves no room for the "
            "compulsory doubles: list more contracts, or set {option} to warn or off",
            option=Term("option", "compulsory_doubles"),
            where=("contracts",),
            place=Place(field="contracts"),
        )
    multiplier = _multiplier(raw.get("chinese_poker_multiplier"), played)
    return House(chinese_poker, multiplier, contracts, values)


def read_contracts(raw: object, seats: int) -> tuple[Contract, ...]:
    """The house list: contract names, each once, none of King's (five players: Salade's)."""
    items = schema.array(raw, "contracts")
    if not items:
        raise RuleError(
            "contracts_empty",
            "the list of contracts played is empty: list at least one",
            where=("contracts",),
            place=Place(field="contracts"),
        )
    names = {c.value for c in Contract}
    allowed = CONTRACTS[Variant.SALADE] if seats == FIVE else HOUSE_CONTRACTS
    out: list[Contract] = []
    for i, item in enumerate(items):
        key = f"contracts[{i}]"
        place = Place(field="contracts", index=i)
        name = schema.string(item, key, place=place)
        if name not in names:
            raise RuleError(
                "contracts_unknown",
                "{name} is not a contract: a match may play {choices}",
                name=_quote(name),
                choices=AllOf(Term("contract", c.value) for c in allowed),
                where=(key,),
                place=place,
            )
        contract = Contract(name)
        if contract in KING_CONTRACTS:
            raise RuleError(
                "contracts_king",
                "{contract} is played only in the variant {variant}, which has its own list",
                contract=Term("contract", contract.value),
                variant=Term("variant", Variant.KING.value),
                where=(key,),
                place=place,
            )
        if contract in out:
            raise RuleError(
                "contracts_twice",
                "{contract} is listed twice: each declarer names each contract once, so it is "
                "listed once",
                contract=Term("contract", contract.value),
                where=(key,),
                place=place,
            )
        if contract not in allowed:
            raise RuleError(
                "contracts_five_players",
                "{count} players play only the contracts of the variant {variant} ({choices}), "
                "not {contract}",
                count=seats,
                variant=Term("variant", Variant.SALADE.value),
                choices=AllOf(Term("contract", c.value) for c in allowed),
                contract=Term("contract", contract.value),
                where=(key,),
                place=place,
            )
        out.append(contract)
    return tuple(out)


def _check_valued(
    played: Sequence[Contract], variant: Variant, values: HouseValues, *, listed: bool
) -> None:
    """Every contract played has values: the variant's, the house's, or (Chinese Poker) the
    multiplier."""
    house = {c for c, _ in values}
    for i, contract in enumerate(played):
        if contract is Contract.CHINESE_POKER or contract in CONTRACTS[variant]:
            continue
        if contract in house:
            continue
        key = f"contracts[{i}]" if listed else "contracts"
        raise RuleError(
            "contracts_without_values",
            "the variant {variant} has no values for {contract}: give them in {option}",
            variant=Term("variant", variant.value),
            contract=Term("contract", contract.value),
            option=Term("option", "contract_values"),
            where=(key,),
            place=Place(field="contracts", index=i if listed else None),
        )


def _multiplier(raw: object, played: Sequence[Contract]) -> int | None:
    key = "chinese_poker_multiplier"
    if Contract.CHINESE_POKER not in played:
        if raw is not None:
            raise RuleError(
                "chinese_poker_multiplier_unused",
                "{contract} is not played in this match, so it takes no multiplier",
                contract=Term("contract", Contract.CHINESE_POKER.value),
                where=(key,),
                place=Place(field=key),
            )
        return None
    if raw is None:
        return CHINESE_POKER_MULTIPLIER
    return schema.integer(raw, key, minimum=1)


def check_no_domino_payouts(raw: object) -> None:
    """``domino_payouts`` beside house values for Domino is refused: the payouts twice."""
    if raw is not None:
        raise RuleError(
            "domino_payouts_beside_values",
            "the house values of {contract} give its payouts: leave out {option}",
            contract=Term("contract", Contract.DOMINO.value),
            option=Term("option", "domino_payouts"),
            where=("domino_payouts",),
            place=Place(field="domino_payouts"),
        )


# -- contract_values ----------------------------------------------------------------------------

_FIELD = Place(field="contract_values")


def _piece(contract: str, unit: str | None = None, index: int | None = None) -> str:
    """The place of a contract (``"barbu"``, quoted as written), of one of its units
    (``barbu.king_of_hearts``) or of an entry of a unit's list (``salade.last_two[1]``) inside
    ``contract_values``: a page shows them as written, an entry counted from 1."""
    if unit is None:
        return json.dumps(contract)
    return f"{contract}.{unit}" + ("" if index is None else f"[{index}]")


def _values(raw: object, played: Sequence[Contract]) -> HouseValues:
    """Read ``contract_values`` (``None`` or ``{}``: none), in the order of ``played``."""
    if raw is None:
        return ()
    if not isinstance(raw, dict):
        raise RuleError(
            "bad_type",
            "expected {what}, got {got}",
            what=Words("an object of house values ({contract: {unit: value}})"),
            got=_type_name(raw),
            where=("contract_values",),
            place=_FIELD,
        )
    found: dict[Contract, tuple[tuple[str, UnitValue], ...]] = {}
    for name, units in raw.items():
        try:
            contract = _valued_contract(name, played)
            found[contract] = _units(contract, units)
        except RuleError as e:
            raise e.at("contract_values", field="contract_values") from None
    return tuple((c, found[c]) for c in played if c in found)


def _valued_contract(name: str, played: Sequence[Contract]) -> Contract:
    choices = AllOf(Term("contract", c.value) for c in played)
    if name not in {c.value for c in Contract}:
        raise RuleError(
            "contract_values_unknown",
            "{name} is not a contract (this match plays {choices})",
            name=_quote(name),
            choices=choices,
            where=(_piece(name),),
            place=_FIELD,
        )
    contract = Contract(name)
    if contract is Contract.CHINESE_POKER:
        raise RuleError(
            "contract_values_chinese_poker",
            "{contract} has no unit values: a net is worth {option} times itself",
            contract=Term("contract", contract.value),
            option=Term("option", "chinese_poker_multiplier"),
            where=(_piece(name),),
            place=_FIELD,
        )
    if contract not in played:
        raise RuleError(
            "contract_values_not_played",
            "{contract} is not played in this match, so it takes no values (this match plays "
            "{choices})",
            contract=Term("contract", contract.value),
            choices=choices,
            where=(_piece(name),),
            place=_FIELD,
        )
    return contract


def _units(contract: Contract, raw: object) -> tuple[tuple[str, UnitValue], ...]:
    """One contract's house values: its units (rules.md's table), each a whole number of the
    contract's sign, in the table's order."""
    name = contract.value
    units = UNITS[contract]
    term = Term("contract", name)
    every = OneOf(Term("unit", u) for u in units)
    if not isinstance(raw, dict):
        raise RuleError(
            "bad_type",
            "expected {what}, got {got}",
            what=Words("an object of unit values ({unit: value})"),
            got=_type_name(raw),
            where=(_piece(name),),
            place=_FIELD,
        )
    for unit in raw:
        if unit not in units:
            raise RuleError(
                "contract_values_unknown_unit",
                "{contract} has no unit {unit}: its units are {units}",
                contract=term,
                unit=_quote(unit),
                units=every,
                where=(_piece(name, str(unit)),),
                place=_FIELD,
            )
    if contract is not Contract.SALADE and units[0] not in raw:
        raise RuleError(
            "contract_values_missing_unit",
            "the house values of {contract} must give its {unit}",
            contract=term,
            unit=Term("unit", units[0]),
            where=(_piece(name),),
            place=_FIELD,
        )
    if contract is Contract.SALADE:
        if not raw:
            raise RuleError(
                "contract_values_empty_salade",
                "the house values of {contract} give no unit: give at least one of {units}",
                contract=term,
                units=every,
                where=(_piece(name),),
                place=_FIELD,
            )
        if "last_trick" in raw and "last_two" in raw:
            raise RuleError(
                "contract_values_salade_last",
                "{contract} counts {last_trick} or {last_two}, not both",
                contract=term,
                last_trick=Term("unit", "last_trick"),
                last_two=Term("unit", "last_two"),
                where=(_piece(name),),
                place=_FIELD,
            )
    return tuple((unit, _unit_value(contract, unit, raw[unit])) for unit in units if unit in raw)


def _unit_value(contract: Contract, unit: str, raw: object) -> UnitValue:
    piece = _piece(contract.value, unit)
    length = LIST_UNITS.get(unit)
    if length is None:
        value = schema.integer(raw, piece, place=_FIELD)
        _check_sign(contract, unit, value, piece)
        return value
    items = schema.array(raw, piece, length=length, place=_FIELD)
    out = []
    for i, item in enumerate(items):
        entry = _piece(contract.value, unit, i)
        place = Place(field="contract_values", index=i)
        value = schema.integer(item, entry, place=place)
        _check_sign(contract, unit, value, entry, place)
        out.append(value)
    return tuple(out)


def _check_sign(
    contract: Contract, unit: str, value: int, piece: str, place: Place = _FIELD
) -> None:
    """A negative contract's values are 0 or less, a trump trick 0 or more (a table copying
    penalty points cannot get the sign wrong unnoticed); Ravage City's divides by 12."""
    params = {
        "contract": Term("contract", contract.value),
        "unit": Term("unit", unit),
        "value": value,
        "turned": -value,
    }
    if contract.negative and value > 0:
        raise RuleError(
            "contract_values_sign",
            "{contract} costs points, so its {unit} is worth 0 or less: write {value} as {turned}",
            where=(piece,),
            place=place,
            **params,
        )
    if contract is Contract.TRUMPS and value < 0:
        raise RuleError(
            "contract_values_sign",
            "{contract} scores points, so its {unit} is worth 0 or more: write {value} as {turned}",
            where=(piece,),
            place=place,
            **params,
        )
    if unit == "most_cards" and value % MOST_CARDS_DIVISOR:
        raise RuleError(
            "contract_values_most_cards",
            "the {unit} of {contract} is shared by 2, 3 or 4 tied players, so it is a "
            "multiple of 12: {value} is not",
            contract=params["contract"],
            unit=params["unit"],
            value=value,
            where=(piece,),
            place=place,
        )


def values_json(values: HouseValues) -> dict[str, dict[str, Any]]:
    """The house values as the document writes them."""
    return {
        contract.value: {u: list(v) if isinstance(v, tuple) else v for u, v in units}
        for contract, units in values
    }


# -- what the site shows ------------------------------------------------------------------------


def units_of(rules: BarbuRules, contract: Contract) -> dict[str, UnitValue]:
    """What each unit of ``contract`` is worth in the match, in rules.md's words (Chinese
    Poker: its ``multiplier``; King's contracts: their own units, ``boy`` for a jack or king),
    the house's or the variant's: a No hearts or salade that leaves out the ace of hearts shows
    it at a heart's value."""
    if contract is Contract.CHINESE_POKER:
        assert rules.chinese_poker_multiplier is not None
        return {"multiplier": rules.chinese_poker_multiplier}
    v = values_of(rules, contract)
    last = {"last_two": (v.trick_12, v.trick_13)} if v.last_two else {"last_trick": v.trick_13}
    c = Contract
    table: dict[Contract, dict[str, UnitValue]] = {
        c.NO_TRICKS: {"trick": v.trick},
        c.NO_HEARTS: {"heart": v.heart, "ace_of_hearts": v.ace_of_hearts},
        c.NO_QUEENS: {"queen": v.queen},
        c.NO_GIRLS: {"queen": v.queen},
        c.BARBU: {"king_of_hearts": v.king_of_hearts},
        c.NO_KING: {"king_of_hearts": v.king_of_hearts},
        c.NO_LAST_TWO: {"last_two": (v.trick_12, v.trick_13)},
        c.NO_LAST_TRICK: {"last_trick": v.trick_13},
        c.TRUMPS: {"trump_trick": v.trump_trick},
        c.DOMINO: {"payouts": v.payouts},
        c.RAVAGE_CITY: {"most_cards": v.ravage},
        c.NO_BOYS: {"boy": v.boy},
        c.SALADE: {
            "trick": v.trick,
            "heart": v.heart,
            "ace_of_hearts": v.ace_of_hearts,
            "queen": v.queen,
            "king_of_hearts": v.king_of_hearts,
            **last,
        },
    }
    return table[contract]


@dataclass(frozen=True)
class ContractValue:
    """One contract of a match: what its units are worth, what any deal of it adds up to
    (``total``), and whether the values are the house's (``contract_values``) or the variant's."""

    contract: Contract
    units: Mapping[str, UnitValue]
    total: int
    house: bool


@dataclass(frozen=True)
class MatchValues:
    """The values a match uses (rules.md, "house values"): each contract's, in the match's
    order; ``total``, what they add up to (what each declarer's series adds up to, each
    contract named once; King: each contract once, which no series is); ``match_total``, what
    a complete match adds up to (players × ``total``; King: by its quotas, 0); ``zero_sum``,
    whether the match is checked for zero (after every complete series and at the end)."""

    contracts: tuple[ContractValue, ...]
    total: int
    match_total: int
    zero_sum: bool


def match_values(rules: BarbuRules) -> MatchValues:
    """The values of the match played under ``rules`` (a pure function of the rules)."""
    house = {c for c, _ in rules.contract_values}
    lines = tuple(
        ContractValue(c, units_of(rules, c), contract_total(rules, c), c in house)
        for c in rules.played
    )
    total = sum(line.total for line in lines)
    if rules.variant is Variant.KING:
        negatives = sum(line.total for line in lines if line.contract is not Contract.TRUMPS)
        trumps = contract_total(rules, Contract.TRUMPS)
        match_total = KING_NEGATIVE_PLAYS * negatives + (
            KING_TRUMPS_PER_PLAYER * rules.seats * trumps
        )
    else:
        match_total = rules.seats * total
    return MatchValues(lines, total, match_total, zero_sum(rules))
