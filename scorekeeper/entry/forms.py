"""The one form behind each deal-entry page: the key that was pressed, and what the page drew.

Every key of the pads is a submit button ``name="action"``. Beside it the page sends:

- ``draft``: the draft as its screen showed it (:mod:`.drafts`): this phone's own view (open
  side, target, suit) is read from it, and what it showed explains a toggle or a card tapped
  away; the shared part always comes from the database, never from here;
- ``version``: the version of the shared draft the page was drawn from (a save from a screen
  another phone has overtaken is refused);
- ``deal``: the deal the page was drawn for (a page of a deal stored meanwhile is told so);
- ``tap``: an id for this tap (a tap sent twice is applied once);
- ``confirm``: ``yes`` once the player has agreed to a correction or an empty side.

Each field is read on its own: a field the form cannot read never takes the others with it.
Nothing here judges a rule.
"""

from __future__ import annotations

import re

from django import forms

from scorekeeper.inputs import parse_int
from scorekeeper.models import MAX_DEALS
from scorekeeper.templatetags.keep_tags import held_parts

#: A draft holds at most a few hundred short strings; anything much longer is not ours.
DRAFT_MAX = 20_000
#: A tap's id: what the page or its script makes (letters, digits, - and _).
_TAP = re.compile(r"[A-Za-z0-9_-]{1,40}")
#: The largest draft version a page can carry.
VERSION_MAX = 10**15


class EntryForm(forms.Form):
    draft = forms.CharField(required=False, max_length=DRAFT_MAX, widget=forms.HiddenInput)
    action = forms.CharField(required=False, max_length=60)
    deal = forms.CharField(required=False, max_length=20, strip=False)
    version = forms.CharField(required=False, max_length=20, strip=False)
    tap = forms.CharField(required=False, max_length=40, strip=False)
    confirm = forms.CharField(required=False, max_length=10)
    # the parts of the page the phone holds ({% keep %}: NAME:DIGEST,…), sent by entry.js
    # when its swap keeps them
    kept = forms.CharField(required=False, max_length=2000, strip=False)

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

    def drawn_version(self) -> int | None:
        """The version of the shared draft the page was drawn from (None: not sent, or not a
        number)."""
        return parse_int(self._field("version"), lo=0, hi=VERSION_MAX)

    def tap_id(self) -> str:
        """This tap's id ("" when there is none the form can read)."""
        tap = self._field("tap") or ""
        return tap if _TAP.fullmatch(tap) else ""

    def from_a_page(self) -> bool:
        """Whether the post says what page it came from: a pad sends its draft, deal and version
        with every key. A post with none of them (a tap queued on a page that has since become
        another, a hand-made request) applies nothing and begins no deal in progress."""
        return any(name in self.data for name in ("draft", "deal", "version"))

    def kept_held(self) -> frozenset[str]:
        """The parts of the page it holds already (``templatetags.keep_tags``)."""
        return held_parts(self._field("kept"))

    def confirmed(self) -> bool:
        return self._field("confirm") == "yes"
