"""The deal in progress as the pads hold it: what the table shares, and where one phone's taps go.

Plain JSON values, no game rule (the few facts they need, such as the bonus kinds or the data a
Barbu contract records, come from the engines).

- **Shared** (stored once for the match, :class:`~scorekeeper.models.DealDraft`): the cards,
  counts and choices entered so far (:meth:`RummyDraft.content_json`,
  :meth:`BarbuDraft.to_json`).
- **This phone's own** (carried by its page, never shared): the open side, the meld or field
  its taps go to and the suit chosen on the pad (:meth:`RummyDraft.view_json`).

The page carries both together as the draft it drew (:meth:`RummyDraft.to_json`): the view is
read back from it, the shared part always comes from the database. Every key of the pads is a
submit button whose value is an *action* (``"rank:8"``, ``"suit:H"``, ``"joker"``,
``"new_meld"``, ``"remove:m2:3"`` ...), applied by :func:`rummy_apply` / :func:`barbu_apply` to
the draft as stored *now*, read through what the phone saw (``seen``): a toggle sets what the
phone's screen showed the other way ("took the pot" seen off: on), a card tapped away is that
card, so a tap made on a screen another phone has overtaken never undoes their work.

Melds have ids (``"m3"`` is the meld with id 3, in a target or an action), so a tap on one meld
still reaches it after another phone has removed an earlier one.

A draft read back from a form is never trusted: ``from_json`` keeps what is well formed and
drops the rest; every number an action or a draft carries as text is read by
:func:`~scorekeeper.inputs.parse_int`: ASCII digits within bounds, never ``²`` or ``٣``.
"""

from __future__ import annotations

from scorekeeper.entry.drafts.barbu import (
    BARBU_DATA_KEYS,
    BARBU_SEATS,
    COUNTERS,
    NET_DIGITS,
    NET_MAX,
    SEAT_PICKS,
    TYPED_KEYS,
    BarbuDraft,
    cell_auto,
    cell_focus,
    count_auto,
    count_focus,
    counter_total,
    net_auto,
    net_focus,
)
from scorekeeper.entry.drafts.barbu_keys import barbu_apply
from scorekeeper.entry.drafts.common import (
    BONUS_KINDS,
    JOKER,
    MAX_CARDS,
    MAX_DIGITS,
    MAX_MELD_ID,
    MAX_MELDS,
    MAX_NAME,
    MAX_NUMBER,
    MAX_RESTARTS,
    NEW_MELD,
    NOBODY,
    RANKS,
    RED_SUITS,
    SUIT_SYMBOLS,
    SUITS,
    VERSION,
    UnknownAction,
    UnreadableDraft,
    card_colour,
    card_label,
    is_card,
)
from scorekeeper.entry.drafts.rummy import RummyDraft, rummy_apply
from scorekeeper.entry.drafts.side import SIDE_VIEW, SideDraft

__all__ = [
    "BARBU_DATA_KEYS",
    "BARBU_SEATS",
    "BONUS_KINDS",
    "BarbuDraft",
    "COUNTERS",
    "JOKER",
    "MAX_CARDS",
    "MAX_DIGITS",
    "MAX_MELDS",
    "MAX_MELD_ID",
    "MAX_NAME",
    "MAX_NUMBER",
    "MAX_RESTARTS",
    "NET_DIGITS",
    "NET_MAX",
    "NEW_MELD",
    "NOBODY",
    "RANKS",
    "RED_SUITS",
    "RummyDraft",
    "SEAT_PICKS",
    "SIDE_VIEW",
    "SUITS",
    "SUIT_SYMBOLS",
    "SideDraft",
    "TYPED_KEYS",
    "UnknownAction",
    "UnreadableDraft",
    "VERSION",
    "barbu_apply",
    "card_colour",
    "card_label",
    "cell_auto",
    "cell_focus",
    "count_auto",
    "count_focus",
    "counter_total",
    "is_card",
    "net_auto",
    "net_focus",
    "rummy_apply",
]
