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

from _server import BARBU_MATCH, BIRIBA_DEAL, BURRACO_DEAL, ROOT, rummy_doc

sys.path.insert(0, str(ROOT))

from scorekeeper.rules.match import score_document  # noqa: E402


def barbu_doc() -> dict:
    return json.loads(BARBU_MATCH.read_text())


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
    if BARBU_MATCH.exists():
        cases.append(("barbu, 28 deals", barbu_doc()))
    print(f"{'match':<20} {'median ms':>10} {'best ms':>10} {'peak KiB':>10}")
    for name, doc in cases:
        median, best, peak = measure(doc, args.repeat)
        print(f"{name:<20} {median:>10.2f} {best:>10.2f} {peak:>10.0f}")


if __name__ == "__main__":
    main()
