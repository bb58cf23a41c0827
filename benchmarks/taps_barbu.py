"""Barbu deal entry for the taps benchmark: one deal of a match document entered through the
real page, every tap counted (issue 13).

``play(page, deal)``: ``page`` is a Playwright page open on the Barbu entry page of the deal
(``/matches/<id>/deals/new/``), ``deal`` the deal as the match document holds it (contract,
doubles, its data). It taps what a player would, the fewest taps the page allows, and returns
how many it took, **Save included**: it leaves the Save key to the caller
(``benchmarks/taps.py``), which presses it and checks the stored deal, and counts it here as
the deal's last tap. Taps are clicks on the page's keys, each answered before the next.

How a deal goes in:

- the contract (no tap when it is the only one left: it is already chosen);
- each double on the declarer with its key in the folded doubles' line (one tap); the other
  doubles with the doubles opened (one tap) and a name each; a redouble with its key once
  the double is there;
- counts (tricks, hearts, queens): a number key a player in seat order, until the others
  follow (three typed: the fourth has the rest; the whole total typed: the others none);
  a seat pick (A♥, K♥) one tap; the last two tricks two; the trump suit one;
  Domino the first three places (the fourth follows); Ravage City a number key a cell,
  player by player and suit by suit, until a suit's others follow (at most twelve);
- an undoubled negative contract is not played (split): nothing more to enter.

The benchmark's data are whole match documents, replayed in order (``taps_data/``).
"""

from __future__ import annotations

import json
from typing import Any

from scorekeeper.rules.barbu import contracts as barbu_contracts

COUNTS = ("tricks", "hearts", "queens", "boys")


class Taps:
    def __init__(self, page: Any):
        self.page = page
        self.count = 0

    def key(self, action: str) -> Any:
        return self.page.locator(f'#entry button[name="action"][value="{action}"]')

    def has(self, action: str) -> bool:
        return self.key(action).count() > 0

    def tap(self, action: str) -> None:
        self.key(action).first.click()
        self.count += 1
        self.settled()

    def settled(self) -> None:
        """Every tap answered and drawn: no tap queued, no htmx request, swap or settle."""
        self.page.wait_for_function(
            "() => !document.querySelector("
            "'#entry-form[data-busy], .htmx-request, .htmx-swapping, .htmx-settling')",
            polling=20,
        )

    def draft(self) -> dict[str, Any]:
        return json.loads(self.page.locator('#entry input[name="draft"]').input_value())


def _doubles(t: Taps, deal: dict[str, Any]) -> None:
    wanted = [(d["by"], d["on"], bool(d.get("redoubled"))) for d in deal.get("doubles") or []]
    later = []
    for by, on, redoubled in wanted:
        quick = t.page.locator(f'#entry [data-double-on-declarer="{by}"]')
        if (
            quick.count()
            and quick.get_attribute("aria-pressed") == "false"
            and (quick.get_attribute("value") == f"double:{by}:{on}:1")
        ):
            t.tap(f"double:{by}:{on}:1")  # a double on the declarer: in sight, folded
            if redoubled:
                t.tap(f"double:{by}:{on}:2")  # and the declarer's ×2 beside it
        else:
            later.append((by, on, redoubled))
    if not later:
        return
    if t.page.locator('#entry [data-doubles="folded"]').count():
        t.tap("doubles:open")
    made = {(d["by"], d["on"]): d["level"] for d in t.draft()["doubles"]}
    for by, on, redoubled in later:
        if (by, on) not in made:
            t.tap(f"double:{by}:{on}:1")
        if redoubled:
            t.tap(f"double:{by}:{on}:2")  # the redoubler's key (row of ``on``)


def _counts(t: Taps, key: str, values: list[int]) -> None:
    """The number keys seat by seat until the others follow (the fourth has the rest; once
    the whole total is in, the others have none)."""
    for seat in range(4):
        key_of_seat = t.key(f"focus:{key}:{seat}")
        if "auto" in (key_of_seat.get_attribute("class") or "").split():
            continue  # follows from the seats typed
        if key_of_seat.get_attribute("aria-pressed") != "true":
            t.tap(f"focus:{key}:{seat}")
        t.tap(f"count:{key}:{values[seat]}")


def _ravage(t: Taps, suits: list[list[int]]) -> None:
    """Twelve number keys, player by player, suit by suit: the fourth of each suit follows."""
    for seat in range(4):
        for k, suit in enumerate("SHDC"):
            cell = t.page.locator(f'#entry [data-cell="{seat}:{suit}"]')
            if "auto" in (cell.get_attribute("class") or "").split():
                continue  # follows from its suit's cells typed
            if cell.get_attribute("aria-pressed") != "true":
                t.tap(f"focus:suits:{seat}:{suit}")
            t.tap(f"count:suits:{suits[seat][k]}")


def play(page: Any, deal: dict[str, Any]) -> int:
    """Enter ``deal`` on the Barbu entry page ``page`` shows; the taps it took, Save included
    (the caller presses Save)."""
    t = Taps(page)
    contract = deal["contract"]
    chosen = page.locator(f'#entry button[data-contract="{contract}"]')
    if "on" not in (chosen.get_attribute("class") or "").split():
        t.tap(f"contract:{contract}")
    _doubles(t, deal)
    keys = [k for k in barbu_contracts.DATA_KEYS[barbu_contracts.Contract(contract)]]
    split = not deal.get("doubles") and not any(k in deal for k in keys)
    if not split:
        for key in keys:
            if key not in deal:
                continue  # an optional key the deal does not carry
            value = deal[key]
            if key in COUNTS:
                _counts(t, key, value)
            elif key in ("ace_of_hearts", "king_of_hearts", "last_trick"):
                t.tap(f"seat:{key}:{value}")
            elif key == "last_two":
                t.tap(f"last_two:0:{value[0]}")
                t.tap(f"last_two:1:{value[1]}")
            elif key == "trump":
                t.tap(f"trump:{value}")
            elif key == "finish_order":
                for seat in value[:3]:
                    t.tap(f"domino:{seat}")
            elif key == "suits":
                _ravage(t, value)
            else:
                raise ValueError(f"no way to enter {key!r}")
    return t.count + 1  # the caller's Save
