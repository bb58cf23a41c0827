"""The match's history in its document: ``changes``, written by every export and read back by
the import (see docs/match-format.md, "The match's history").

A change is written as the document writes it (:mod:`scorekeeper.rules.changes`): ``at`` in
UTC, ``by`` the name (never the account), the deal as ``deal``, what the row's ``detail`` says
under its own keys, and the changes it refers to (``undo_of``, ``restores``) as their index in
the list, oldest first, never as database ids. Export → import → export gives the same
document.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import connection

from scorekeeper.models import Match, MatchChange
from scorekeeper.rules import changes as rules_changes
from scorekeeper.rules import match as rules_match
from scorekeeper.rules.errors import RuleError
from scorekeeper.selectors import match_document

__all__ = ["changes_export", "changes_import", "match_export_document"]

#: The keys of a change's ``detail`` the document writes as they are, and those that name
#: another change (a database id in the row, an index in the document).
DETAIL_KEYS = ("other_deal", "member", "link", "winner", "totals", "reason", "on_behalf")
REFERENCE_KEYS = ("undo_of", "restores")
#: The key of an imported change's detail that says so (never written into a document).
IMPORTED = "imported"
_ROW_KEYS = ("before", "after", "points_before", "points_after")


def changes_export(match: Match) -> list[dict[str, Any]]:
    """The match's history as the document writes it, oldest first (one query).

    Only the keys the format gives the change's kind are written: a key a later change of the
    site adds to ``detail`` without adding it to the format stays out, so that the document
    is always one the import reads back.
    """
    return changes_of_rows(list(MatchChange.objects.filter(match=match).order_by("id")))


def changes_of_rows(rows: list[MatchChange]) -> list[dict[str, Any]]:
    """:func:`changes_export` from a match's history rows read already (oldest first): for a
    page that reads the rows of many matches at once."""
    position = {row.pk: i for i, row in enumerate(rows)}
    out: list[dict[str, Any]] = []
    for row in rows:
        keys = rules_changes.KIND_KEYS.get(row.kind)
        if keys is None:  # pragma: no cover - the model's kinds are the format's (tested)
            continue
        allowed = {*rules_changes.COMMON_KEYS, *keys[0], *keys[1]}
        entry: dict[str, Any] = {
            "at": rules_changes.moment_text(row.at),
            "by": row.by,
            "kind": row.kind,
        }
        if row.number is not None:
            entry["deal"] = row.number
        for key in _ROW_KEYS:
            if getattr(row, key) is not None:
                entry[key] = getattr(row, key)
        detail = row.detail or {}
        for key in DETAIL_KEYS:
            if key in detail:
                entry[key] = detail[key]
        for key in REFERENCE_KEYS:
            if detail.get(key) in position:
                entry[key] = position[detail[key]]
        out.append({k: entry[k] for k in rules_changes.KEY_ORDER if k in entry and k in allowed})
    return out


def changes_import(match: Match, changes: list[dict[str, Any]]) -> None:
    """Store ``changes`` (as :func:`scorekeeper.rules.changes.parse_changes` read them) as the
    history of ``match``, in their order, without an account (``by_user`` None). Only inside
    the transaction that creates the match.

    The rows are created together, a batch ending before each change that names one of the
    same batch (its id is known only once it is stored): a few queries, however long."""
    if not connection.in_atomic_block:
        raise RuntimeError("a history is imported in the transaction that creates its match")
    ids: list[int] = []
    batch: list[MatchChange] = []

    def flush() -> None:
        for row in MatchChange.objects.bulk_create(batch):
            if row.pk is None:  # pragma: no cover - a database that returns no ids
                raise RuntimeError("the database gave the imported changes no ids")
            ids.append(row.pk)
        batch.clear()

    for change in changes:
        if any(change.get(key, -1) >= len(ids) for key in REFERENCE_KEYS):
            flush()
        batch.append(_row(match, change, ids))
    if batch:
        flush()


def _row(match: Match, change: dict[str, Any], ids: list[int]) -> MatchChange:
    detail: dict[str, Any] = {key: change[key] for key in DETAIL_KEYS if key in change}
    detail[IMPORTED] = True  # made where the document came from: no Undo offered here
    for key in REFERENCE_KEYS:
        if key in change:
            detail[key] = ids[change[key]]
    return MatchChange(
        match=match,
        at=_moment(change["at"]),
        kind=MatchChange.Kind(change["kind"]),
        by=change.get("by", ""),
        by_user=None,
        number=change.get("deal"),
        before=change.get("before"),
        after=change.get("after"),
        points_before=change.get("points_before"),
        points_after=change.get("points_after"),
        detail=detail,
    )


def _moment(text: str) -> datetime:
    moment = rules_changes.moment_of(text)
    if moment is None:
        raise ValueError(f"not a moment the rules read: {text!r}")
    return moment


def match_export_document(match: Match, *, strict: bool = False) -> dict[str, Any]:
    """The match as every export writes it: the document with its scores and its history
    (``changes``, when it has one). A match whose stored deals no longer pass the rules is
    written as it is stored, without scores (its data stays the table's); ``strict``: refused
    instead (:class:`RuleError`).

    The one place that builds an exported document: the download of one match, the zip of
    an account's matches and ``manage.py export_match``."""
    document = match_document(match)
    changes = changes_export(match)
    if changes:
        document["changes"] = changes
    try:
        return rules_match.score_document(document)
    except RuleError:
        if strict:
            raise
        return document
