"""What the exports read: the whole scoreboard of a match, its CSV rows, the history's CSV
rows, and an account's data file.

Nothing here scores a second time: the match's CSV and its score sheet are drawn from the
scoreboard of the whole match (:func:`scorekeeper.scoreboard.scoreboard` over
:func:`scorekeeper.selectors.match_scored`), the history's CSV from the cache the services keep
on each match (as the history page), and the data file from the match documents every export
writes (:func:`scorekeeper.history.document.match_export_document`).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import Prefetch, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from scorekeeper.history import document as history_document
from scorekeeper.history.record import Actor
from scorekeeper.models import Deal, Game, Match, MatchChange, Player
from scorekeeper.rules import changes as rules_changes
from scorekeeper.rules import match as rules_match
from scorekeeper.rules.errors import RuleError
from scorekeeper.scoreboard import scoreboard
from scorekeeper.selectors import match_document, match_scored, matches_for_user
from scorekeeper.templatetags.score_tags import MINUS

__all__ = [
    "DATA_FORMAT",
    "csv_bytes",
    "data_document",
    "data_matches",
    "history_csv_rows",
    "match_board",
    "match_csv_rows",
    "safe_cell",
]

#: The name and version of the file "Download all my data" writes (docs/match-format.md).
DATA_FORMAT = "scorekeeper-data/1"
#: What makes a spreadsheet read a cell as a formula (OWASP, "CSV injection"): such a text
#: cell is written with a leading apostrophe, which a spreadsheet shows as text.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def match_board(match: Match, *, viewer: Actor | None = None, is_owner: bool = False) -> dict:
    """The scoreboard of the whole match: every deal with its breakdown, the totals, the
    house rules, the end. ``match`` with its seats and deals prefetched (what
    :mod:`scorekeeper.access` loads): no further query. Raises
    :class:`~scorekeeper.rules.errors.RuleError` when the stored deals no longer pass the
    rules."""
    parsed, result, exported = match_scored(match)
    return scoreboard(match, parsed.header, result, exported, viewer=viewer, is_owner=is_owner)


# --- CSV ------------------------------------------------------------------------------------


def safe_cell(value: Any) -> Any:
    """A cell as written: a text a spreadsheet would take for a formula gets a leading ``'``;
    numbers stay numbers (a negative score is no formula)."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def csv_bytes(rows: Iterable[Sequence[Any]]) -> bytes:
    """``rows`` as CSV in UTF-8 with a byte order mark (a spreadsheet then reads Greek names
    right), every text cell guarded by :func:`safe_cell`."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    for row in rows:
        writer.writerow([safe_cell(cell) for cell in row])
    return ("\ufeff" + buffer.getvalue()).encode("utf-8")


def match_csv_rows(match: Match, board: dict[str, Any]) -> list[list[Any]]:
    """A row per deal: its number, each column's points (a side's, or a player's in Barbu),
    who dealt (rummy) or declared and the contract (Barbu), and a note for a deal not counted
    yet (under confirmation by the other side); then the totals, and a tournament round's
    victory points once it ends."""
    names = [column["name"] for column in board["columns"]]
    barbu = board["barbu"]
    head = [_("Deal"), *names]
    head += [_("Declarer"), _("Contract")] if barbu else [_("Dealer")]
    head.append(_("Note"))
    rows: list[list[Any]] = [head]
    for row in board["rows"]:
        line: list[Any] = [row["number"], *(cell["points"] for cell in row["cells"])]
        line += [row["who"], row["title"]] if barbu else [row["who"]]
        notes = []
        if row.get("pending"):
            notes.append(_("not counted yet"))
        if barbu and row.get("split"):
            notes.append(_("not played"))
        if barbu and row.get("to_enter"):
            notes.append(_("still to enter"))
        line.append("; ".join(notes))
        rows.append(line)
    total: list[Any] = [_("Total"), *(column["total"] for column in board["columns"])]
    total += ["", ""] if barbu else [""]
    if board["finished"]:
        total.append(_("Winner: %(name)s") % {"name": board["winner"]} if board["winner"] else "")
    else:
        total.append(_("in progress"))
    rows.append(total)
    victory = board.get("victory_points")
    if victory and len(victory) == len(board["columns"]):  # a tournament round, ended
        rows.append([_("Victory points"), *(side["points"] for side in victory)])
    return rows


def _day(moment: datetime | None) -> str:
    return timezone.localtime(moment).date().isoformat() if moment else ""


def history_csv_rows(matches: QuerySet[Match]) -> list[list[Any]]:
    """The history's rows as CSV: a match a row, as the history page shows them (from the
    cache kept on each match, never a scoring): two queries, the matches and their seats,
    however many there are. ``matches``: the history's matches, filtered and ordered."""
    rows: list[list[Any]] = [
        [
            _("Match"),
            _("Game"),
            _("Date"),
            _("Status"),
            _("Deals"),
            _("Sides or players"),
            _("Totals"),
            _("Winner"),
            pgettext("a CSV column: the date the match was imported", "Imported"),
            pgettext("a CSV column: the date the match was archived", "Archived"),
        ]
    ]
    for match in matches:
        standings = match.standings
        winner = next((s["name"] for s in standings if s["winner"]), "")
        if match.is_finished and not winner:
            winner = _("a tie at the top")
        rows.append(
            [
                match.pk,
                Game(match.game).label,
                _day(match.created),
                _("finished") if match.is_finished else _("in progress"),
                match.deal_count,
                " / ".join(str(s["name"]) for s in standings),
                # a text: a minus sign, not a hyphen, so that no spreadsheet takes "-87 / 131"
                # for a formula (and no guard's apostrophe shows before it)
                " / ".join(str(s["total"]).replace("-", MINUS) for s in standings),
                winner,
                _day(match.imported),
                _day(match.archived),
            ]
        )
    return rows


# --- the account's data file ----------------------------------------------------------------


def _exported(match: Match) -> dict[str, Any]:
    """As :func:`~scorekeeper.history.document.match_export_document`, from the prefetched
    deals and changes: the document with its scores and history, or as stored when its deals
    no longer pass the rules."""
    document = match_document(match)
    changes = history_document.changes_of_rows(list(match.changes.all()))
    if changes:
        document["changes"] = changes
    try:
        return rules_match.score_document(document)
    except RuleError:
        return document


def data_matches(user: AbstractBaseUser) -> list[Match]:
    """The account's own matches (not those it joined: their owner's data), oldest first,
    with their seats, deals and history: four queries however many there are."""
    return list(
        matches_for_user(user)
        .prefetch_related(
            Prefetch("deals", queryset=Deal.objects.order_by("number")),
            Prefetch("changes", queryset=MatchChange.objects.order_by("id")),
        )
        .order_by("created", "pk")
    )


def data_document(user: AbstractBaseUser) -> dict[str, Any]:
    """Every match document the account owns and its players, as one ``scorekeeper-data/1``
    document (docs/match-format.md, "All of an account's data")."""
    return {
        "format": DATA_FORMAT,
        "exported": rules_changes.moment_text(timezone.now()),
        "players": list(
            Player.objects.filter(owner=user).order_by("key").values_list("name", flat=True)
        ),
        "matches": [_exported(match) for match in data_matches(user)],
    }
