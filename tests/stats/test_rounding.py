"""A player's averages and rates are rounded as a player rounds by hand: a half away from zero
(a probe: 785 points in 4 deals showed 196.2, Python's round() taking the half to the even)."""

from __future__ import annotations

import pytest

from scorekeeper.stats.players import _average, _percent


@pytest.mark.parametrize(
    ("points", "count", "shown"),
    [(785, 4, 196.3), (-53, 4, -13.3), (65, 4, 16.3), (75, 4, 18.8), (-1, 4, -0.3), (7, 3, 2.3)],
)
def test_an_average_rounds_a_half_away_from_zero(points: int, count: int, shown: float) -> None:
    assert _average(points, count) == shown


def test_a_rate_rounds_a_half_up_and_nothing_counted_is_none() -> None:
    assert _percent(1, 8) == 13  # 12.5 %
    assert _percent(3, 8) == 38  # 37.5 %
    assert _percent(1, 3) == 33
    assert _percent(0, 0) is None and _average(0, 0) is None
