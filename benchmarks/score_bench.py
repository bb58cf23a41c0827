#!/usr/bin/env python3
"""How long scoring a match document takes: a 40-deal Biriba and Burraco match, a 28-deal
Barbu match. Prints the median and best of repeated runs, and the peak memory of one run.

    .venv/bin/python benchmarks/score_bench.py [--repeat N]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scorekeeper.rules.match import score_document  # noqa: E402

BIRIBA_DEAL = {
    "trump": "C",
    "sides": [
        {
            "melds": [
                ["3C", "4C", "5C", "6C", "7C", "8C", "9C"],
                ["8H", "9H", "10H", "JH", "QH", "KH", "JK"],
                ["QS", "KS", "AS"],
            ],
            "hand": ["5D", "7S"],
            "took_pot": True,
        },
        {
            "melds": [["AD", "2D", "3D", "4D", "5D", "6D", "7D"], ["5S", "6S", "2H", "8S"]],
            "hand": ["KS", "QS"],
            "took_pot": True,
            "went_out": False,
        },
    ],
}
BURRACO_DEAL = {
    "sides": [
        {
            "melds": [["3H", "4H", "5H", "6H", "7H", "8H", "9H"], ["KS", "KD", "KC"]],
            "hand": ["4C", "QD"],
            "took_pot": True,
            "went_out": True,
        },
        {
            "melds": [["10S", "JS", "QS", "JK"], ["7S", "7D", "7C"]],
            "hand": ["AH", "2C", "5D", "KS"],
            "took_pot": True,
        },
    ]
}
PLAYERS = ["Anna", "Babis", "Chris", "Dora"]


def rummy_doc(game: str, deal: dict, n: int) -> dict:
    return {
        "format": "scorekeeper-match/1",
        "game": game,
        "rules": {"target": 1_000_000},
        "players": PLAYERS,
        "deals": [json.loads(json.dumps(deal)) for _ in range(n)],
    }


def barbu_doc() -> dict:
    path = ROOT / "tests" / "data" / "barbu" / "classic-28.json"
    return json.loads(path.read_text())


def measure(doc: dict, repeat: int) -> tuple[float, float, float]:
    score_document(doc)  # warm up imports and caches
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        score_document(doc)
        times.append((time.perf_counter() - t0) * 1000)
    tracemalloc.start()
    score_document(doc)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return statistics.median(times), min(times), peak / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()
    cases = [
        ("biriba, 40 deals", rummy_doc("biriba", BIRIBA_DEAL, 40)),
        ("burraco, 40 deals", rummy_doc("burraco", BURRACO_DEAL, 40)),
    ]
    if (ROOT / "tests" / "data" / "barbu" / "classic-28.json").exists():
        cases.append(("barbu, 28 deals", barbu_doc()))
    print(f"{'match':<20} {'median ms':>10} {'best ms':>10} {'peak KiB':>10}")
    for name, doc in cases:
        median, best, peak = measure(doc, args.repeat)
        print(f"{name:<20} {median:>10.2f} {best:>10.2f} {peak:>10.0f}")


if __name__ == "__main__":
    main()
