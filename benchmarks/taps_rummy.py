"""Enter one rummy deal (Biriba, Burraco) on the open entry page, as a player who knows the
pad would, and count the taps: ``play(page, deal) -> int``, Save included (the caller presses
Save, as with benchmarks/taps_barbu.py).

The player uses what the page offers (so the same code measures an older pad too): a run's
natural cards by suit then ranks: the first and the last rank where a rank that skips fills
the run in (``data-run-fill``; one rank between two is never filled: it is tapped too), else
"…" (``data-thru``) for four cards or more in a row, a set rank first then one suit key a
card when the page adds by suit (``data-set-rank``), the hand by its value when the page can
(``data-hand-as-points``) and it holds two cards or more, the pot answered yes / no
(``data-pot`` / ``data-pot-no``), going out. A side given as ``totals`` is entered on the
number keys: by its points for the deal alone where the page offers it (``data-mode-points``:
what a table that counts by hand writes, the figure the rules core gives the side), else
melded, in hand and the bonuses.
"""

from __future__ import annotations

from typing import Any

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


class Pad:
    def __init__(self, page: Any):
        self.page = page
        self.taps = 0

    def has(self, selector: str) -> bool:
        return self.page.locator(f"#entry {selector}").count() > 0

    def tap(self, action: str) -> None:
        self.page.locator(f'#entry button[name="action"][value="{action}"]').first.click()
        self.taps += 1
        self.page.wait_for_selector("#entry-form:not([data-busy])", state="attached")
        self.page.wait_for_load_state("networkidle")

    def attr(self, name: str) -> str | None:
        return self.page.locator("#entry").get_attribute(name)

    def digits(self, value: int) -> None:
        for d in str(value):
            self.tap(f"digit:{d}")


def _segments(meld: list[str]) -> list[list[str]]:
    """The meld in runs of natural cards of one suit in rising order, and single cards."""
    out: list[list[str]] = []
    for card in meld:
        last = out[-1][-1] if out else None
        if (
            last is not None
            and card != "JK"
            and last != "JK"
            and card[-1] == last[-1]
            and (
                RANKS.index(card[:-1]) == RANKS.index(last[:-1]) + 1
                or (card[:-1] == "A" and last[:-1] == "K")
            )
        ):
            out[-1].append(card)
        else:
            out.append([card])
    return out


def _is_set(meld: list[str]) -> bool:
    naturals = [c[:-1] for c in meld if c != "JK" and c[:-1] != "2"]
    return len(set(naturals)) == 1 and len(naturals) >= 2


def _card(pad: Pad, card: str, *, wild_key: bool = False) -> None:
    """One card by suit and rank (the suit chosen first when it is not)."""
    if card == "JK":
        pad.tap("joker")
        return
    rank, suit = card[:-1], card[-1]
    if wild_key:
        pad.tap(f"card:{card}")
        return
    if pad.attr("data-chosen-suit") != suit:
        pad.tap(f"suit:{suit}")
    pad.tap(f"rank:{rank}")


def _meld(pad: Pad, meld: list[str]) -> None:
    by_suit = pad.has("#pad-thru")
    if _is_set(meld) and by_suit:
        naturals = [c for c in meld if c != "JK" and c[:-1] != "2"]
        wilds = [c for c in meld if c not in naturals]
        # another suit second where there is one: over one card, its own suit's key only
        # chooses that suit
        rest = sorted(naturals[1:], key=lambda c: c[-1] == naturals[0][-1])
        _card(pad, naturals[0])
        for k, card in enumerate(rest):
            if pad.attr("data-set-rank") and (k or card[-1] != naturals[0][-1]):
                pad.tap(f"suit:{card[-1]}")
            else:
                _card(pad, card)
        for card in wilds:
            _card(pad, card, wild_key=card != "JK")
        return
    suit = next((c[-1] for c in meld if c != "JK" and c[:-1] != "2"), None)
    fills = pad.has("[data-run-fill]")
    after_wild = False  # the card before was a wild that follows a natural of the run's suit
    for i, seg in enumerate(_segments(meld)):
        first = seg[0]
        wild = first == "JK" or (first[:-1] == "2" and first[-1] != suit)
        if wild:
            _card(pad, first, wild_key=first != "JK")
            after_wild = i > 0
            continue
        rest = seg[1:]
        if fills and after_wild and rest and pad.attr("data-chosen-suit") == first[-1]:
            # the wild stands for the rank before this segment: its last rank fills it in
            # (one rank between is not filled: it is tapped too)
            if len(seg) == 2:
                pad.tap(f"rank:{first[:-1]}")
            pad.tap(f"rank:{seg[-1][:-1]}")
            after_wild = False
            continue
        after_wild = False
        _card(pad, first)
        if fills and rest:
            # the first card, then the last: the ranks between are filled in (an ace high
            # after a card under eight: up to the king first, then the ace); one rank between
            # is not (a wild's place): it is tapped too
            if rest[-1][:-1] == "A" and RANKS.index(first[:-1]) < 7:
                if len(rest) > 1:
                    pad.tap("rank:K")
                pad.tap("rank:A")
            else:
                if len(rest) == 2:
                    pad.tap(f"rank:{rest[0][:-1]}")
                pad.tap(f"rank:{rest[-1][:-1]}")
            continue
        end_high = rest and rest[-1][:-1] == "A" and RANKS.index(first[:-1]) < 7
        if by_suit and len(rest) >= 3 and not end_high:
            pad.tap("thru")
            pad.tap(f"rank:{rest[-1][:-1]}")
        else:
            for card in rest:
                _card(pad, card)


def _starts_itself(pad: Pad, before: list[str], meld: list[str]) -> bool:
    """Whether the meld's first card starts a new meld by itself on this pad (a card that
    cannot belong to the meld before: a run of another suit or at a rank it holds, a set of
    another rank)."""
    if not pad.has("#pad-thru") or len(before) < 3:
        return False
    first = meld[0]
    if first == "JK" or first[:-1] == "2":
        return False
    if _is_set(before):
        if pad.attr("data-chosen-suit") != first[-1]:
            return False  # its suit key would add to the set: "+ meld" first
        rank = next(c[:-1] for c in before if c != "JK" and c[:-1] != "2")
        return first[:-1] != rank
    naturals = [c for c in before if c != "JK" and c[:-1] != "2"]
    if {c[-1] for c in naturals} != {first[-1]}:
        return True
    # a rank the run holds already starts a run of its own (an ace may be in it twice)
    return first[:-1] != "A" and first[:-1] in {c[:-1] for c in naturals}


def _hand(pad: Pad, side: dict[str, Any], value: int | None) -> None:
    hand = side.get("hand") or []
    if not hand:
        return
    if value is not None and len(hand) >= 2 and pad.has("[data-hand-as-points]"):
        pad.tap("hand:points")
        pad.digits(value)
        return
    pad.tap("target:hand")
    for card in hand:
        _card(pad, card)


def _pot(pad: Pad, k: int, side: dict[str, Any]) -> None:
    if side["went_out"]:
        pad.tap(f"went_out:{k}")  # the pot with it
        return
    if side["took_pot"]:
        pad.tap(f"pot:{k}")
    elif pad.has(f'[data-pot-no="{k}"]'):
        pad.tap(f"pot_no:{k}")


def play(
    page: Any,
    deal: dict[str, Any],
    hand_values: list[int] | None = None,
    side_points: list[int] | None = None,
) -> int:
    """Enter ``deal`` (a deal of the match document) on the open entry page; the taps made.
    ``hand_values``: what each side's hand is worth (the table's figure, when it counts so);
    ``side_points``: each side's points for the deal (a side counted by hand, by its figure)."""
    pad = Pad(page)
    if deal.get("trump"):
        pad.tap(f"trump:{deal['trump']}")
    for k, side in enumerate(deal["sides"]):
        if k and not pad.has(f'[data-side="{k}"][aria-selected="true"]'):
            pad.tap(f"side:{k}")  # its tab, unless it is open already
        if "totals" in side and side_points is not None and pad.has("[data-mode-points]"):
            if pad.attr("data-mode") != "points":
                pad.tap("mode:points")
            if side_points[k]:
                pad.digits(abs(side_points[k]))
            if side_points[k] < 0:
                pad.tap("sign")
            if side["went_out"]:
                pad.tap(f"went_out:{k}")  # the pot is in the figure: not asked
            continue
        if "totals" in side:
            if pad.attr("data-mode") != "totals":
                pad.tap("mode:totals")
            totals = side["totals"]
            if totals["melded"]:
                pad.digits(totals["melded"])
            if totals["in_hand"]:
                pad.tap("next_field")
                pad.digits(totals["in_hand"])
            for kind, count in (totals.get("bonuses") or {}).items():
                for _ in range(count):
                    pad.tap(f"bonus:{kind}:+1")
        else:
            for i, meld in enumerate(side["melds"]):
                if i and not _starts_itself(pad, side["melds"][i - 1], meld):
                    pad.tap("new_meld")
                _meld(pad, meld)
            _hand(pad, side, None if hand_values is None else hand_values[k])
        _pot(pad, k, side)
    return pad.taps + 1  # the caller's Save
