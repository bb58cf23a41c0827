"""Reads of deal entry: the deal in progress as a page load shows it (writing nothing)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from scorekeeper.models import DealDraft, Match

Content = dict[str, Any]


def draft_content(draft: DealDraft) -> Content:
    """The shared draft a deal in progress holds."""
    data = draft.data if isinstance(draft.data, dict) else {}
    content = data.get("content")
    return content if isinstance(content, dict) else {}


def draft_peek(
    *, match: Match, number: int, editing: bool, initial: Callable[[], Content]
) -> DealDraft:
    """The deal in progress for deal ``number`` as stored, or (unsaved) the one that would
    begin from ``initial()``: what a page load shows, writing nothing."""
    query = DealDraft.objects.filter(match=match, editing=editing)
    draft = (query.filter(number=number) if editing else query).first()
    # (the next deal's draft begun for a later number is still the next deal's: draft_open)
    if draft is None or draft.number < number:
        return DealDraft(match=match, number=number, editing=editing, data={"content": initial()})
    return draft
