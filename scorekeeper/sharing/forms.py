"""The forms of sharing: joining a match (a display name where there is no account) and the
short code typed at ``/join/``."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from scorekeeper import names
from scorekeeper.sharing import codes


class JoinForm(forms.Form):
    """Joining through a score link. A phone without an account gives the name the table
    knows it by; an account joins as itself (the form has no field then)."""

    name = forms.CharField(
        label=_("Your name at the table"),
        # generous: the name's own limit is checked on the normalised name (with its reason)
        max_length=names.NAME_MAX * 4,
        help_text=_("The others see it beside the deals you save."),
        widget=forms.TextInput(attrs={"autocomplete": "nickname", "autocapitalize": "words"}),
    )

    def __init__(self, *args, guest: bool, **kwargs):
        super().__init__(*args, **kwargs)
        if not guest:
            del self.fields["name"]

    def field_for(self, where: tuple[str, ...]) -> str | None:
        """The field a refusal of the name lands on (``forms.add_rule_error``)."""
        return "name" if "name" in self.fields and where[:1] == ("name",) else None


class CodeForm(forms.Form):
    code = forms.CharField(
        label=_("The match's code"),
        max_length=4 * codes.CODE_LENGTH,
        help_text=_("Ten letters and digits, as the owner's phone shows them (like K7PMQ-2XRZT)."),
        widget=forms.TextInput(
            attrs={
                "autocomplete": "off",
                "autocapitalize": "characters",
                "spellcheck": "false",
                "autofocus": True,
                "class": "code-input",
            }
        ),
    )

    def clean_code(self) -> str:
        code = codes.code_read(self.cleaned_data["code"])
        if code is None:
            raise forms.ValidationError(
                _(
                    "That is not a code: a code is ten letters and digits, and never has a 0, "
                    "an O, a 1, an I or an L."
                ),
                code="code_malformed",
            )
        return code
