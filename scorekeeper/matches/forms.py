"""The history's filters, read from the address (a filtered view is a bookmark).

Every field is optional. A value that is not one of the field's (a game that does not exist,
a date that is no date, a text longer than any name) is said beside its field and that filter
alone is left out: the page never fails for what its address carries.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from scorekeeper import names
from scorekeeper.forms import CHOICE_ERRORS
from scorekeeper.matches.selectors import STATUSES, Filters
from scorekeeper.models import Game

#: The longest text a name filter takes: a name is at most ``NAME_MAX`` once normalised, and
#: its spaces collapse; anything much longer is no name and is refused beside its field.
TEXT_MAX = names.NAME_MAX * 4

STATUS_CHOICES = [
    ("", _("Any")),
    (STATUSES.IN_PROGRESS, _("In progress")),
    (STATUSES.FINISHED, _("Finished")),
    (STATUSES.ARCHIVED, _("Archived")),
]


class DayInput(forms.DateInput):
    input_type = "date"

    def __init__(self) -> None:
        super().__init__(format="%Y-%m-%d")


class HistoryFilterForm(forms.Form):
    q = forms.CharField(
        label=_("Search by player name"),
        required=False,
        max_length=TEXT_MAX,
        widget=forms.SearchInput(attrs={"autocomplete": "off", "enterkeyhint": "search"}),
    )
    game = forms.ChoiceField(
        label=_("Game"),
        choices=[("", _("Every game")), *Game.choices],
        required=False,
        error_messages=CHOICE_ERRORS,
    )
    player = forms.CharField(
        label=_("With the player"),
        required=False,
        max_length=TEXT_MAX,
        help_text=_("The whole name; capitals do not matter."),
        widget=forms.TextInput(attrs={"list": "history-players", "autocomplete": "off"}),
    )
    status = forms.ChoiceField(
        label=_("Status"), choices=STATUS_CHOICES, required=False, error_messages=CHOICE_ERRORS
    )
    since = forms.DateField(label=_("From"), required=False, widget=DayInput())
    until = forms.DateField(label=_("To"), required=False, widget=DayInput())

    def clean(self) -> dict:
        cleaned = super().clean()
        since, until = cleaned.get("since"), cleaned.get("until")
        if since and until and since > until:
            self.add_error(
                "until",
                forms.ValidationError(
                    _("The last day is before the first: the dates were left out."),
                    code="dates_reversed",
                ),
            )
            cleaned.pop("since", None)
        return cleaned

    def filters(self) -> Filters:
        """The filters whose values are good (call after :meth:`is_valid`)."""
        data = self.cleaned_data if hasattr(self, "cleaned_data") else {}
        return Filters(
            search=names.normalize(data.get("q") or ""),
            game=data.get("game") or "",
            player=names.normalize(data.get("player") or ""),
            status=data.get("status") or "",
            since=data.get("since"),
            until=data.get("until"),
        )


def history_filters(query: object) -> tuple[HistoryFilterForm, Filters]:
    """The filter form bound to the address's parameters, and the filters it lets through."""
    form = HistoryFilterForm(query)
    form.is_valid()
    return form, form.filters()
