"""The one form behind each deal-entry page: the draft so far and the key that was pressed.

Every key of the pads is a submit button ``name="action"``; the draft (``entry_state``) rides
along as a hidden JSON field with the number of the deal the page was drawn for, and
``confirm=yes`` says a correction or a side with nothing entered has been agreed to. Nothing
here judges a rule.

Each field is read on its own: a field the form cannot read never takes the others with it
(a deal number that is not one leaves the draft and the key as they were posted).
"""

from __future__ import annotations

from django import forms

from scorekeeper.inputs import parse_int
from scorekeeper.models import MAX_DEALS

#: A draft holds at most a few hundred short strings; anything much longer is not ours.
DRAFT_MAX = 20_000


class EntryForm(forms.Form):
    draft = forms.CharField(required=False, max_length=DRAFT_MAX, widget=forms.HiddenInput)
    action = forms.CharField(required=False, max_length=60)
    # the deal the page was drawn for: a save from a page drawn before someone else stored
    # that deal (another phone, a second tab, a resubmitted form) is refused, not stored twice.
    # Read strictly (ASCII digits) up to the deal after the last a match may hold, whose save
    # deal_record refuses with the reason.
    deal = forms.CharField(required=False, max_length=20, strip=False)
    # a correction: the digest of the deal as stored when the page was drawn; a save after
    # someone else changed that deal is refused, not written over theirs
    base = forms.CharField(required=False, max_length=64)
    # "yes" once the player has agreed to a correction or to a side with nothing entered
    confirm = forms.CharField(required=False, max_length=10)

    def _field(self, name: str) -> str | None:
        """The field's cleaned text ("" when not sent), or None when it cannot be read."""
        self.is_valid()
        if name in self.errors:
            return None
        return self.cleaned_data.get(name) or ""

    def cleaned(self) -> tuple[str | None, str]:
        """``(draft_json, action)``: the draft is "" when none was sent and None when what was
        sent is not one a page of ours sends (too long, a NUL); an unreadable key is no key."""
        return self._field("draft"), (self._field("action") or "").strip()

    def deal_number(self) -> int | None:
        """The deal number the page was drawn for, if it sent one it can read."""
        return parse_int(self._field("deal"), lo=1, hi=MAX_DEALS + 1)

    def deal_unreadable(self) -> bool:
        """The page sent a deal number that is not one (``²``, ``-1``, ``10**30``)."""
        sent = self._field("deal")
        return sent != "" and self.deal_number() is None

    def drawn_from(self) -> str:
        """The digest of the deal under correction as the page saw it ("" if not sent); one
        the form cannot read matches no stored deal."""
        base = self._field("base")
        return "?" if base is None else base

    def confirmed(self) -> bool:
        return self._field("confirm") == "yes"
