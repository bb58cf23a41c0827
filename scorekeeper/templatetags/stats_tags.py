"""The statistics' charts and figures in templates: ``{% match_chart match board as chart %}``
(the score progression the scoreboard folds under its deals: one query, the same at any
length), ``{% results_chart figures as chart %}`` (a player's results in one game), and the
filters ``average`` (``-12.5`` → ``−12.5``, ``−12,5`` in French) and ``percent`` (``67`` →
``67 %``)."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django import template
from django.utils.formats import get_format
from django.utils.translation import gettext

from scorekeeper.stats import charts
from scorekeeper.stats.selectors import match_progress
from scorekeeper.templatetags.score_tags import MINUS, points

register = template.Library()


@register.simple_tag
def match_chart(match: Any, board: Any) -> dict[str, Any] | None:
    """The score progression of ``match`` for the scoreboard (``board``: its columns and
    target), or None (no deal yet, a board that could not be drawn)."""
    if not board or not match.deal_count:
        return None
    progress = match_progress(match)
    if progress is None:
        return None
    names = [column["name"] for column in board["columns"]]
    return charts.progression(
        names,
        progress["numbers"],
        progress["running"],
        target=board.get("target"),
        deals=progress["deals"],
    )


@register.simple_tag
def results_chart(figures: dict[str, Any]) -> dict[str, Any]:
    """A player's results in the matches of one game (``player_stats``'s entry)."""
    shown = figures["results"]
    return charts.results([r["value"] for r in shown], [r["won"] for r in shown])


@register.filter
def average(value: Any) -> str:
    """An average as the page writes it: one decimal when it has one, a real minus sign."""
    if value is None:
        return "—"
    # a half goes away from zero, as a player rounding by hand does (13.25 → 13.3)
    tenths = Decimal(str(float(value))).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
    if tenths == tenths.to_integral_value():
        return points(int(tenths))
    whole, tenth = divmod(int(abs(tenths) * 10), 10)
    text = f"{points(whole)}{get_format('DECIMAL_SEPARATOR')}{tenth}"
    return f"{MINUS}{text}" if tenths < 0 else text


@register.filter
def percent(value: Any) -> str:
    if value is None:
        return "—"
    return gettext("%(value)s %%") % {"value": value}
