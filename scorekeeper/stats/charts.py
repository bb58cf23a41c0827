"""Charts drawn on the server: plain values for an SVG template (templates/stats/), no
JavaScript and no library.

Every chart is drawn in a box of :data:`WIDTH` × :data:`HEIGHT` units, scaled to the width of
its place (at 360 px about one unit a pixel), with the values' axis on the left; colours come
from the stylesheet's classes (``col-N``: the scoreboard's colour of column N). Each function
returns the numbers beside the geometry, for the table that says them to a screen reader.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

__all__ = ["HEIGHT", "WIDTH", "progression", "results"]

WIDTH = 320
HEIGHT = 180
LEFT, RIGHT, TOP, BOTTOM = 44, 10, 10, 22  # room for the labels of the axes


def _nice_step(span: float, ticks: int = 4) -> int:
    """A round step (1, 2, 5 times a power of ten) that cuts ``span`` in about ``ticks``."""
    raw = max(span / ticks, 1)
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if raw <= factor * power:
            return int(factor * power)
    return int(10 * power)  # pragma: no cover - 10 × power always covers raw


def _scale(values: Sequence[int]) -> tuple[int, int, list[int]]:
    """The axis's low and high ends (0 always in) and its ticks."""
    low, high = min(0, *values), max(0, *values)
    step = _nice_step(high - low or 1)
    low = math.floor(low / step) * step
    high = math.ceil(high / step) * step
    if low == high:
        high = low + step
    return low, high, list(range(low, high + 1, step))


class _Frame:
    """Where a value and a position fall in the box."""

    def __init__(self, low: int, high: int, slots: int) -> None:
        self.low, self.high, self.slots = low, high, max(slots, 1)
        self.plot_width = WIDTH - LEFT - RIGHT
        self.plot_height = HEIGHT - TOP - BOTTOM

    def y(self, value: float) -> float:
        return round(TOP + (self.high - value) / (self.high - self.low) * self.plot_height, 1)

    def x(self, slot: float) -> float:
        return round(LEFT + slot / self.slots * self.plot_width, 1)


def _n(value: float) -> str:
    """A coordinate as SVG reads it, whatever the language of the page (never ``12,5``)."""
    return f"{value:g}"


def _ticks(frame: _Frame, ticks: list[int]) -> list[dict[str, Any]]:
    return [{"y": _n(frame.y(t)), "value": t} for t in ticks]


def _box(frame: _Frame, ticks: list[int], count: int, first: int) -> dict[str, Any]:
    """What every chart draws around its data: the box, the values' axis, the ends of the
    other axis (``first`` .. ``count``)."""
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "left": LEFT,
        "right": WIDTH - RIGHT,
        "bottom": HEIGHT - BOTTOM,
        "label_y": HEIGHT - 6,
        "ticks": _ticks(frame, ticks),
        "zero": _n(frame.y(0)),
        "first": {"x": _n(frame.x(0)), "label": first},
        "last": {"x": _n(frame.x(count)), "label": count},
    }


def progression(
    names: Sequence[str],
    numbers: Sequence[int],
    running: Sequence[Sequence[int]],
    *,
    target: int | None = None,
    deals: int | None = None,
) -> dict[str, Any]:
    """The score progression of a match: a line a column (side or player) through its running
    totals after each deal of ``numbers`` (from 0 before the first deal), and the target as a
    line when the match has one. ``deals``: how many the match has (more than ``numbers`` when
    sampled)."""
    deals = deals if deals is not None else (numbers[-1] if numbers else 0)
    values = [v for row in running for v in row] + ([target] if target else [])
    low, high, ticks = _scale(values or [0])
    frame = _Frame(low, high, deals)
    lines = []
    for column, name in enumerate(names):
        points = [(frame.x(0), frame.y(0))] + [
            (frame.x(number), frame.y(row[column]))
            for number, row in zip(numbers, running, strict=True)
        ]
        lines.append(
            {
                "column": column,
                "name": name,
                "points": " ".join(f"{_n(x)},{_n(y)}" for x, y in points),
                "end": {"x": _n(points[-1][0]), "y": _n(points[-1][1])},
                "total": running[-1][column] if running else 0,
            }
        )
    return {
        **_box(frame, ticks, deals, 0),
        "target": {"y": _n(frame.y(target)), "value": target} if target else None,
        "lines": lines,
        "names": list(names),
        "rows": [
            {"number": number, "values": list(row)}
            for number, row in zip(numbers, running, strict=True)
        ],
        "deals": deals,
        "sampled": len(numbers) < deals,
    }


def results(values: Sequence[int], won: Sequence[bool]) -> dict[str, Any]:
    """A player's results over time: a bar a match, oldest first, up from the zero line for a
    result above zero and down for one below, a won match marked (``won``)."""
    low, high, ticks = _scale(list(values) or [0])
    frame = _Frame(low, high, len(values))
    slot = frame.plot_width / max(len(values), 1)
    width = round(max(slot * 0.7, 1), 1)
    bars = []
    for i, (value, win) in enumerate(zip(values, won, strict=True)):
        top, bottom = sorted((frame.y(value), frame.y(0)))
        bars.append(
            {
                "x": _n(round(frame.x(i) + (slot - width) / 2, 1)),
                "y": _n(top),
                "width": _n(width),
                "height": _n(round(max(bottom - top, 1), 1)),
                "value": value,
                "won": win,
            }
        )
    return {**_box(frame, ticks, len(values), 1), "bars": bars, "count": len(values)}
