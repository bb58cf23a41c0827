"""The statistics' charts and figures in templates: ``{% match_chart match board as chart %}``
(the score progression the scoreboard folds under its deals: one query, the same at any
length), ``{% results_chart figures as chart %}`` (a player's results in one game), and the
filters ``average`` (``-12.5`` → ``−12.5``) and ``percent`` (``67`` → ``67 %``)."""

from __future__ import annotations

from typing import Any

from django import template
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
    value = round(float(value), 1)
    if value == int(value):
        return points(int(value))
    text = points(int(abs(value))) + f"{abs(value):.1f}"[-2:]
    return f"{MINUS}{text}" if value < 0 else text


@register.filter
def percent(value: Any) -> str:
    if value is None:
        return "—"
    return gettext("%(value)s %%") % {"value": value}
