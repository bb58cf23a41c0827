"""The one form behind each deal-entry page: the draft so far and the key that was pressed.

Every key of the pads is a submit button ``name="action"``; the draft (``entry_state``) rides
along as a hidden JSON field with the number of the deal the page was drawn for, and
``confirm=yes`` says a correction or a side with nothing entered has been agreed to. Nothing
here judges a rule.
"""

from __future__ import annotations

from django import forms

#: A draft holds at most a few hundred short strings; anything much longer is not ours.
DRAFT_MAX = 20_000


class EntryForm(forms.Form):
    draft = forms.CharField(required=False, max_length=DRAFT_MAX, widget=forms.HiddenInput)
    action = forms.CharField(required=False, max_length=60)
    # the deal the page was drawn for: a save from a page drawn before someone else stored
    # that deal (another phone, a second tab, a resubmitted form) is refused, not stored twice
    deal = forms.IntegerField(required=False, min_value=1, max_value=10_000)
    # a correction: the digest of the deal as stored when the page was drawn; a save after
    # someone else changed that deal is refused, not written over theirs
    base = forms.CharField(required=False, max_length=64)
    # "yes" once the player has agreed to a correction or to a side with nothing entered
    confirm = forms.CharField(required=False, max_length=10)

    def cleaned(self) -> tuple[str, str]:
        """``(draft_json, action)``; a malformed form gives an empty draft and no action."""
        if not self.is_valid():
            return "", ""
        return self.cleaned_data["draft"], self.cleaned_data["action"].strip()

    def deal_number(self) -> int | None:
        """The deal number the page was drawn for, if it sent one."""
        if not self.is_valid():
            return None
        return self.cleaned_data["deal"]

    def drawn_from(self) -> str:
        """The digest of the deal under correction as the page saw it ("" if not sent)."""
        if not self.is_valid():
            return ""
        return self.cleaned_data["base"]

    def confirmed(self) -> bool:
        return self.is_valid() and self.cleaned_data["confirm"] == "yes"
