"""What the benchmarks that serve the site print alike: sizes in KB, lines counted, the server's
exceptions, and the summary at the end of history.py and lengths.py (_server.py holds the rest
of what they share)."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from _server import LABELS, STARTED, say


def kb(n: float) -> str:
    return f"{n / 1024:.1f}"


def say_counts(counts: Iterable[tuple[str, int]], width: int | None = 300) -> None:
    """Each line with how many times it came (``   n × line``), cut at ``width`` characters."""
    for line, n in counts:
        say(f"     {n:>5} × {line[:width]}")


def say_exceptions(exceptions: Counter[str], most: int = 10, width: int | None = 300) -> None:
    """The server's exceptions (:meth:`_server.Server.exceptions`), the ``most`` frequent, under
    a heading; nothing when there were none."""
    if exceptions:
        say("   server exceptions (from gunicorn's log):")
        say_counts(exceptions.most_common(most), width)


def say_summary(
    summaries: list[dict[str, Any]], failed: list[str], line: Callable[[dict[str, Any]], str]
) -> int:
    """The summary of a run: ``line`` of each database's summary (``db``: its label), those
    that did not run, whether all went well (no database failed, none had ``errors``) and how
    long the run took; returns the exit status."""
    say()
    say("== summary")
    for s in summaries:
        say(f"   {s['db']:<11} {line(s)}")
    for name in failed:
        say(f"   {LABELS[name]:<11} did not run (see above)")
    bad = bool(failed) or any(s["errors"] for s in summaries)
    say(f"   {'FAILED' if bad else 'done'} ({took()})")
    return 1 if bad else 0


def took() -> str:
    """How long the whole run has taken so far, as the last line says it."""
    return f"the whole run took {time.monotonic() - STARTED:.0f} s"
