"""The fewest taps any pad could take for the card-by-card rummy deals of benchmarks/taps_data/.

    .venv/bin/python benchmarks/taps_floor.py

No browser: this counts, deal by deal, what a player must tell the pad at the least, granting
the pad every guess it could make. It is the floor under ``rummy-cards`` in benchmarks/taps.py.

Granted to the pad: it always knows where a meld begins (no "+ meld" tap ever), the suit stays
chosen from one meld to the next and from one side to the other, a run is its first and its
last card (the cards between filled in), a wild two is one key, a hand is one key to go to it
and then its value's digits (a hand of one card of the suit chosen: that card's key). Still to
be told: the trump, each run's suit, first and last rank (the last again after a wild inside
it), a set's rank and the suit of each of its cards, each wild, the hand, for each side whether
it went out or took its pot (one tap: going out takes the pot with it), the other side's tab
and Save.

Two pads are counted: one with a key per suit and a key per rank (ours), and one with a key for
each of the 52 cards (a card is one tap: at 360 px its keys would be 27 px wide). Prints each
game's median and maximum, then ``floor: rummy-cards suit+rank M/X 52-keys M/X``.
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from taps_rummy import _is_set, _segments  # noqa: E402

from scorekeeper.rules import match as rules_match  # noqa: E402

DATA = HERE / "taps_data"


def _wild(card: str, suit: str | None) -> bool:
    return card == "JK" or (card[:-1] == "2" and card[-1] != suit)


class Floor:
    """The taps of one deal on a pad, the suit chosen carried from meld to meld."""

    def __init__(self, *, card_keys: bool):
        self.card_keys = card_keys  # a key for each of the 52 cards
        self.suit: str | None = None
        self.taps = 0

    def card(self, card: str) -> None:
        """One natural card, its suit chosen first when the pad needs it."""
        if not self.card_keys and card[-1] != self.suit:
            self.taps += 1
            self.suit = card[-1]
        self.taps += 1

    def meld(self, meld: list[str]) -> None:
        if _is_set(meld):
            naturals = [c for c in meld if c != "JK" and c[:-1] != "2"]
            if self.card_keys:
                self.taps += len(naturals)
            else:
                # the rank, then a suit key for each card (the suit chosen counts for one)
                self.taps += 1 + len(naturals) - (self.suit in {c[-1] for c in naturals})
            self.taps += len(meld) - len(naturals)  # each wild, one key
            return
        suit = next((c[-1] for c in meld if not _wild(c, None) and c[:-1] != "2"), None)
        after_wild = False
        for seg in _segments(meld):
            if _wild(seg[0], suit):
                self.taps += 1
                after_wild = True
                continue
            if after_wild:
                self.taps += 1  # the wild stood for the rank before: the last rank says the rest
            else:
                self.card(seg[0])
                self.taps += len(seg) > 1  # the last rank (or card): the ranks between follow
            after_wild = False

    def hand(self, cards: list[str], value: int) -> None:
        """A key to go to the hand, then its value's digits (or its one card, if fewer)."""
        if not cards:
            return
        self.taps += 1
        if len(cards) == 1 and cards[0] == "JK":
            self.taps += 1
        elif len(cards) == 1 and (self.card_keys or cards[0][-1] == self.suit):
            self.card(cards[0])
        else:
            self.taps += len(str(value))


def deal_floor(doc: dict[str, Any], deal: dict[str, Any], *, card_keys: bool) -> int:
    scored = rules_match.score_document({**doc, "deals": [deal]})["deals"][0]["score"]
    floor = Floor(card_keys=card_keys)
    floor.taps += bool(deal.get("trump")) + 1  # the trump; Save
    for k, side in enumerate(deal["sides"]):
        floor.taps += k > 0  # the side's tab
        for meld in side["melds"]:
            floor.meld(meld)
        floor.hand(side.get("hand") or [], -scored["sides"][k]["in_hand"])
        floor.taps += 1  # went out (the pot with it), or the pot's answer
    return floor.taps


def summary(taps: list[int]) -> str:
    return f"{statistics.median(taps):g}/{max(taps)}"


def main() -> None:
    pads = {"suit+rank": False, "52-keys": True}
    everything: dict[str, list[int]] = {name: [] for name in pads}
    for game in ("biriba", "burraco"):
        doc = json.loads((DATA / f"{game}_cards.json").read_text())
        for name, card_keys in pads.items():
            taps = [deal_floor(doc, deal, card_keys=card_keys) for deal in doc["deals"]]
            everything[name] += taps
            print(f"{game}_cards.json, {name} pad: floor median/max {summary(taps)}")
    print("floor: rummy-cards " + " ".join(f"{n} {summary(t)}" for n, t in everything.items()))


if __name__ == "__main__":
    main()
