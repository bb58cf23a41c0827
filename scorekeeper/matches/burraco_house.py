"""Burraco's house values on the new-match page (issue 12): what each rank and each burraco is
worth, when a table plays other values than the standard ones.

A plain form beside the match's (:class:`BurracoHouseForm`, prefix ``burraco_house``), folded
as Barbu's house values are (:mod:`.barbu_house`): every box may be left blank, and then the
standard value stands (it is the box's placeholder). The rules core judges every value
(``burraco.parse_card_values``, ``parse_bonuses``): what it refuses is shown on the box of that
rank or bonus, and the match is not started. Only the values that differ from the standard
ones are sent (the rules core says which they are).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scorekeeper import rule_messages
from scorekeeper.labels import bonus_name
from scorekeeper.rules import burraco
from scorekeeper.rules.errors import RuleError

PREFIX = "burraco_house"
CARDS = "card_values"
BONUSES = "burraco_bonuses"
#: A house value is a whole number up to this (what a table writes on a score pad); the rules
#: core has the last word below it.
MOST = 10_000


def _value_field(label: str, standard: int) -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        required=False,
        max_value=MOST,
        # the rules core refuses what is not a multiple of 5, 0 or more: the browser's hints
        # only (a value refused is shown on its box, in the rules' words)
        widget=forms.NumberInput(
            attrs={
                "class": "house-value",
                "inputmode": "numeric",
                "min": 0,
                "step": 5,
                "placeholder": str(standard),
            }
        ),
    )


def card_field(code: str) -> str:
    return f"card_{code}"


def bonus_field(kind: str) -> str:
    return f"bonus_{kind}"


class BurracoHouseForm(forms.Form):
    """The house values of a Burraco match; a blank box keeps the standard value."""

    def __init__(self, *args: Any, **kwargs: Any):
        kwargs.setdefault("prefix", PREFIX)
        super().__init__(*args, **kwargs)
        for code in burraco.RANK_CODES:
            standard = burraco.VALUES[burraco.RANK_OF[code]]
            self.fields[card_field(code)] = _value_field(code, standard)
        for kind in burraco.BONUS_KINDS:
            self.fields[bonus_field(kind)] = _value_field(bonus_name(kind), burraco.BONUS[kind])
        self.fields[bonus_field("semi_clean_burraco")].help_text = _(
            "Counts only where semipulito is played: the FIBUR rules, or Semipulito: Yes."
        )

    # -- what was entered ---------------------------------------------------------------------

    def _entered(self, names: dict[str, str]) -> dict[str, int]:
        """The values typed in ``names`` (their key in the rules: their field), blanks left out."""
        data = getattr(self, "cleaned_data", {})
        return {key: data[name] for key, name in names.items() if data.get(name) is not None}

    @staticmethod
    def _card_names() -> dict[str, str]:
        return {code: card_field(code) for code in burraco.RANK_CODES}

    @staticmethod
    def _bonus_names() -> dict[str, str]:
        return {kind: bonus_field(kind) for kind in burraco.BONUS_KINDS}

    def _refusal(self, option: str, key: str, value: int) -> RuleError | None:
        """The rules core's word on one value (None: accepted)."""
        read = burraco.parse_card_values if option == CARDS else burraco.parse_bonuses
        try:
            read({key: value}, option)
        except RuleError as error:
            return error
        return None

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        for option, names in ((CARDS, self._card_names()), (BONUSES, self._bonus_names())):
            for key, value in self._entered(names).items():
                error = self._refusal(option, key, value)
                if error is not None:
                    self.add_error(names[key], self._validation_error(error))
        return data

    @staticmethod
    def _validation_error(error: RuleError) -> forms.ValidationError:
        return forms.ValidationError(rule_messages.text(error), code=error.code)

    def rules(self) -> dict[str, Any]:
        """The house keys of the match's rules: only the values that differ from the standard
        ones (none: no key). Call once the form is valid."""
        out: dict[str, Any] = {}
        cards = burraco.parse_card_values(self._entered(self._card_names()), CARDS)
        bonuses = burraco.parse_bonuses(self._entered(self._bonus_names()), BONUSES)
        if cards:
            out[CARDS] = dict(cards)
        if bonuses:
            out[BONUSES] = dict(bonuses)
        return out

    # -- the rules' refusals ------------------------------------------------------------------

    def add_rule_error(self, error: RuleError) -> bool:
        """Show ``error`` on the box it is about; False when it names none of this form's
        options."""
        where = error.where[1:] if error.where[:1] == ("rules",) else error.where
        if not where or where[0] not in (CARDS, BONUSES):
            return False
        names = self._card_names() if where[0] == CARDS else self._bonus_names()
        entered = self._entered(names)
        refused = [k for k, v in entered.items() if self._refusal(where[0], k, v) is not None]
        keys = refused or list(entered) or list(names)
        self.add_error(names[keys[0]], self._validation_error(error))
        return True

    # -- the page -----------------------------------------------------------------------------

    @property
    def card_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self._card_names().values()]

    @property
    def bonus_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self._bonus_names().values()]

    def changed(self) -> list[str]:
        """The values that differ from the standard ones, as the folded summary says them
        (``JK 50``, ``burraco pulito 300``); none while a value is refused."""
        if not self.is_bound or not self.is_valid():
            return []
        rules = self.rules()
        return [f"{code} {v}" for code, v in rules.get(CARDS, {}).items()] + [
            f"{bonus_name(kind)} {v}" for kind, v in rules.get(BONUSES, {}).items()
        ]

    @property
    def open(self) -> bool:
        """Unfolded on the page: something was entered, or refused."""
        return self.is_bound and (bool(self.errors) or bool(self.changed()))


def burraco_house_form(source: Any, *, bound: bool) -> BurracoHouseForm:
    """The form, bound to ``source`` when the page sent it (a start, or a switch of the number
    of players carrying what was entered)."""
    sent = bound or any(key.startswith(f"{PREFIX}-") for key in source)
    return BurracoHouseForm(source if sent else None)
