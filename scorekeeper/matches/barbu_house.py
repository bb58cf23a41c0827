"""Barbu's house values on the new-match page (issue 12): which contracts are played, Chinese
Poker and what a net is worth, each contract's unit values, and the check of what they add up to.

A plain form beside the match's (:class:`HouseForm`, prefix ``house``): every field may be left
blank, and then the variant's list or values stand. Its "Check" button redraws the new-match
page with the form's data (a GET, as the game and seat switches are), so the check works without
JavaScript; with it, htmx redraws the form in place. The rules core has the last word on every
value (:func:`house_check`): what it refuses is shown on the field it names.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scorekeeper import rule_messages
from scorekeeper.forms import TABLE_RULES
from scorekeeper.labels import contract_name, unit_name
from scorekeeper.models import Game
from scorekeeper.rules import barbu
from scorekeeper.rules.barbu.contracts import FIVE, SEATS
from scorekeeper.rules.barbu.house import LIST_UNITS, UNITS
from scorekeeper.rules.errors import RuleError
from scorekeeper.templatetags.score_tags import points

PREFIX = "house"
#: The options of the match's own form the check reads with the house values.
BASE_OPTIONS = ("variant", "rotation", "compulsory_doubles", "undoubled_negative")
#: A unit value is a whole number within these (what a table writes on a score pad).
MOST = 100_000
CHECK = "check_house"


def table_contracts(seats: int) -> tuple[barbu.Contract, ...]:
    """The contracts a table may list (five players: Salade's six; Chinese Poker has its own
    field, as it is played beside the variant's contracts)."""
    if seats == FIVE:
        return barbu.contracts_of(barbu.Variant.SALADE)
    return tuple(c for c in barbu.HOUSE_CONTRACTS if c is not barbu.Contract.CHINESE_POKER)


def _value_field(label: str) -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        required=False,
        min_value=-MOST,
        max_value=MOST,
        # a number with its sign: a phone's numeric keypad may hide the minus
        widget=forms.NumberInput(attrs={"step": 1, "class": "house-value"}),
    )


@dataclass(frozen=True)
class UnitBox:
    """One number to enter: a unit's value, or one place of a list unit (``last_two``,
    ``payouts``)."""

    contract: barbu.Contract
    unit: str
    index: int | None

    @property
    def name(self) -> str:
        suffix = "" if self.index is None else f"__{self.index}"
        return f"v_{self.contract.value}__{self.unit}{suffix}"


def _boxes(contract: barbu.Contract) -> list[UnitBox]:
    out = []
    for unit in UNITS[contract]:
        places = LIST_UNITS.get(unit)
        if places is None:
            out.append(UnitBox(contract, unit, None))
        else:
            out += [UnitBox(contract, unit, i) for i in range(places)]
    return out


class HouseForm(forms.Form):
    """The house values of a Barbu match; blank fields leave the variant's list and values."""

    def __init__(self, *args: Any, seats: int = SEATS, **kwargs: Any):
        kwargs.setdefault("prefix", PREFIX)
        super().__init__(*args, **kwargs)
        self.seats = seats
        self.played = table_contracts(seats)
        self.fields["contracts"] = forms.MultipleChoiceField(
            label=_("Contracts played"),
            help_text=_("Tick the ones your table plays; none ticked: the variant's own."),
            choices=[(c.value, contract_name(c.value)) for c in self.played],
            required=False,
            widget=forms.CheckboxSelectMultiple,
        )
        if seats == SEATS:
            self.fields["chinese_poker"] = forms.ChoiceField(
                label=_("Chinese Poker"),
                help_text=_(
                    "A contract of its own: each player's net result, times the multiplier."
                ),
                choices=[
                    ("", _("%(choice)s · default") % {"choice": _("No")}),
                    ("true", _("Yes")),
                ],
                required=False,
                widget=forms.RadioSelect,
            )
            self.fields["multiplier"] = forms.IntegerField(
                label=_("Chinese Poker multiplier"),
                help_text=_("What each point of a net is worth; blank: 4."),
                required=False,
                min_value=1,
                max_value=MOST,
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "placeholder": "4"}),
            )
        self.boxes: dict[barbu.Contract, list[UnitBox]] = {c: _boxes(c) for c in self.played}
        for boxes in self.boxes.values():
            for box in boxes:
                label = unit_name(box.unit)
                if box.index is not None:
                    label = f"{label} {box.index + 1}"
                self.fields[box.name] = _value_field(label)

    # -- what was entered ---------------------------------------------------------------------

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        # what was entered, kept whole: a refusal of the rules shown on a field later does
        # not take it out of the check
        self.entered = dict(data)
        return data

    def _data(self) -> dict[str, Any]:
        """What was entered and reads (a number that does not read is left out)."""
        if not self.is_bound:
            return {}
        self.is_valid()
        return getattr(self, "entered", self.cleaned_data)

    def rules(self) -> dict[str, Any]:
        """The house keys of the match's rules from what was entered (nothing: none)."""
        data = self._data()
        out: dict[str, Any] = {}
        listed = [c for c in self.played if c.value in (data.get("contracts") or ())]
        chinese = data.get("chinese_poker") == "true"
        if listed:
            out["contracts"] = [c.value for c in listed] + (
                [barbu.Contract.CHINESE_POKER.value] if chinese else []
            )
        elif chinese:
            out["chinese_poker"] = True
        if data.get("multiplier") is not None:
            out["chinese_poker_multiplier"] = data["multiplier"]
        values: dict[str, dict[str, Any]] = {}
        for contract, boxes in self.boxes.items():
            units: dict[str, Any] = {}
            for box in boxes:
                value = data.get(box.name)
                if value is None:
                    continue
                if box.index is None:
                    units[box.unit] = value
                else:
                    units.setdefault(box.unit, []).append(value)
            if units:
                values[contract.value] = units
        if values:
            out["contract_values"] = values
        return out

    # -- the rules' refusals ------------------------------------------------------------------

    def field_for(self, where: tuple[str, ...]) -> str | None:
        """The field of a refusal of the rules (its ``where``, with or without ``rules``)."""
        if where and where[0] == "rules":
            where = where[1:]
        if not where:
            return None
        head = where[0]
        if head == "contracts" or head.startswith("contracts["):
            return "contracts"
        if head in ("chinese_poker", "chinese_poker_multiplier") and head in self.fields:
            return "chinese_poker" if head == "chinese_poker" else "multiplier"
        if head == "contract_values" and len(where) > 1:
            contract, _sep, unit = where[1].strip('"').partition(".")
            unit = unit.partition("[")[0]
            for boxes in self.boxes.values():
                for box in boxes:
                    if box.contract.value == contract and (box.unit == unit or not unit):
                        return box.name
        return None

    def add_rule_error(self, error: RuleError) -> bool:
        """Show ``error`` on the field it names; False when it names none of this form's."""
        name = self.field_for(error.where)
        if name is None:
            return False
        if not hasattr(self, "cleaned_data"):
            self.is_valid()
        if error.code in {e.code for e in self.errors.as_data().get(name, [])}:
            return True  # said already (the check after a refused start)
        self.add_error(name, forms.ValidationError(rule_messages.text(error), code=error.code))
        return True

    # -- the page -----------------------------------------------------------------------------

    def contract_rows(self) -> list[dict[str, Any]]:
        """Each contract with its unit fields, for the page."""
        return [
            {
                "code": contract.value,
                "label": contract_name(contract.value),
                "fields": [self[box.name] for box in boxes],
            }
            for contract, boxes in self.boxes.items()
        ]


def base_rules(source: Any, seats: int) -> dict[str, Any]:
    """The match's own options the check reads (as the page sent them, the rules judge), and
    what the table is held to (five play Salade)."""
    sent = {
        key: source[f"opt_{key}"]
        for key in BASE_OPTIONS
        if source.get(f"opt_{key}") not in (None, "")
    }
    # a variant chosen for four is not five's (the page shows Salade, as it will send)
    return sent | TABLE_RULES.get((Game.BARBU, seats), {})


def house_form(source: Any, *, seats: int, bound: bool) -> HouseForm:
    """The house form, bound to ``source`` when the page sent it (a start, a check, a switch
    of seats carrying what was entered)."""
    sent = bound or CHECK in source or any(k.startswith(f"{PREFIX}-") for k in source)
    return HouseForm(source if sent else None, seats=seats)


def _shown(value: Any) -> str:
    """A unit value as the page shows it: −2, or −10 / −20 for a list."""
    if isinstance(value, tuple | list):
        return " / ".join(points(v) for v in value)
    return points(value)


def house_check(form: HouseForm, base: dict[str, Any]) -> dict[str, Any]:
    """What the values add up to under the match's options: each contract's total, their
    sum, what a complete match adds up to and whether it is checked for zero; or the rules'
    refusal, shown on its field too."""
    house = form.rules()
    # open on the page once something was entered, or refused
    shown = {"open": form.is_bound and (bool(house) or bool(form.errors))}
    try:
        rules = barbu.parse_rules({**base, **house}, form.seats)
    except RuleError as error:
        if form.is_bound:
            form.add_rule_error(error)
        message = rule_messages.message(error)
        return {**shown, "open": True, "ok": False, "message": message, "code": error.code}
    values = barbu.match_values(rules)
    return {
        **shown,
        "ok": True,
        "lines": [
            {
                "label": contract_name(line.contract.value),
                "units": [
                    {"name": unit_name(unit), "value": _shown(value)}
                    for unit, value in line.units.items()
                    if unit != "multiplier"
                ],
                "multiplier": line.units.get("multiplier"),
                "total": line.total,
                "house": line.house,
            }
            for line in values.contracts
        ],
        "total": values.total,
        "match_total": values.match_total,
        "zero_sum": values.zero_sum,
        "deals": barbu.match_length(rules),
        "king": rules.variant is barbu.Variant.KING,
    }
