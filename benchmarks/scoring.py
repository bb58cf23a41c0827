#!/usr/bin/env python3
"""Scoring the whole document against scoring one deal on the state the earlier deals left.

For Biriba and Burraco at 1, 40 and 300 deals, and Barbu at 1, 14 and 28 deals (a whole
classic match: Barbu is played in 28 deals, at most 32), with the rules core alone (no Django,
no database), what the site pays to score a match on a tap or a save:

- ``whole``: ``score_document_full`` of the document with its n deals, as the site does today
  (parse every deal, score every deal, export);
- ``parse 1``: reading the last deal alone (``match.parse_deal``);
- ``step``: ``incremental.score_next`` of the last deal, raw, on the state after the n − 1
  before it (parse and score that deal);
- ``tap``: what a tap costs with the state kept as JSON beside the match: the header read
  (``parse_header``), the state read back (``state_from_json``), the step, where the match
  stands (``standing``) and the new state written (``state_json``).

Each figure is the median time of one call, as a multiple of ``whole`` at 1 deal of the same
game in the same run, milliseconds in brackets. Nothing here is asserted: the machines are
shared.

    .venv/bin/python benchmarks/scoring.py [--repeat N]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from _server import BARBU_MATCH, BIRIBA_DEAL, BURRACO_DEAL, ROOT, rummy_doc

sys.path.insert(0, str(ROOT))

from scorekeeper.rules import incremental  # noqa: E402
from scorekeeper.rules.match import (  # noqa: E402
    parse_deal,
    parse_document,
    parse_header,
    score_document_full,
)


def barbu_doc(n: int) -> dict[str, Any]:
    """The first ``n`` deals of a whole classic match, without what scoring derives."""
    whole = json.loads(BARBU_MATCH.read_text())
    deals = [{k: v for k, v in deal.items() if k != "score"} for deal in whole["deals"]]
    keys = ("format", "game", "rules", "players", "first_dealer")
    return {**{k: whole[k] for k in keys if k in whole}, "deals": deals[:n]}


def per_call(fn: Callable[[], object], repeat: int) -> float:
    """The median time of one call in ms, over ``repeat`` batches of at least 20 ms."""
    fn()  # warm up imports and caches
    t0 = time.perf_counter()
    fn()
    once = max(time.perf_counter() - t0, 1e-6)
    number = max(1, int(0.02 / once))
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - t0) / number * 1000)
    return statistics.median(times)


def measure(doc: dict[str, Any], repeat: int) -> dict[str, float]:
    n = len(doc["deals"])
    last = doc["deals"][-1]
    before = parse_document({**doc, "deals": doc["deals"][:-1]})
    stored = incremental.state_json(incremental.state_of(before))
    head = {**doc, "deals": []}
    header, _, rules = parse_header(head)
    state = incremental.state_from_json(stored, header, rules)

    def tap() -> None:
        h, _, r = parse_header(head)
        step = incremental.score_next(incremental.state_from_json(stored, h, r), last)
        incremental.standing(step.state)
        incremental.state_json(step.state)

    return {
        "whole": per_call(lambda: score_document_full(doc), repeat),
        "parse 1": per_call(
            lambda: parse_deal(last, header=header, rules=rules, index=n - 1), repeat
        ),
        "step": per_call(lambda: incremental.score_next(state, last), repeat),
        "tap": per_call(tap, repeat),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=9, help="batches per figure (default 9)")
    args = parser.parse_args()
    games: list[tuple[str, Callable[[int], dict[str, Any]], tuple[int, ...]]] = [
        ("biriba", lambda n: rummy_doc("biriba", BIRIBA_DEAL, n), (1, 40, 300)),
        ("burraco", lambda n: rummy_doc("burraco", BURRACO_DEAL, n), (1, 40, 300)),
        ("barbu", barbu_doc, (1, 14, 28)),
    ]
    columns = ("whole", "parse 1", "step", "tap")
    print("each figure: one call, as a multiple of `whole` at 1 deal of the game [ms]")
    print(f"{'game':<9} {'deals':>5} " + " ".join(f"{c:>16}" for c in columns))
    for game, make, sizes in games:
        base = None
        for n in sizes:
            figures = measure(make(n), args.repeat)
            if base is None:
                base = figures["whole"]
            cells = " ".join(
                f"{f'{figures[c] / base:.2f}x [{figures[c]:.2f}]':>16}" for c in columns
            )
            print(f"{game:<9} {n:>5} {cells}")


if __name__ == "__main__":
    main()
