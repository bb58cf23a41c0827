"""Every match of an account in one download: a zip of match documents.

Each file is what ``/matches/<id>/export.json`` sends for that match (with its scores and its
history; a match whose stored deals no longer pass the rules is written as it is stored), under
the same name, so ``import_match`` reads each one back: both are
:func:`scorekeeper.history.document.match_export_document`.
"""

from __future__ import annotations

import io
import json
import zipfile

from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import Prefetch

from scorekeeper.history.document import match_export_document
from scorekeeper.models import Deal, Match
from scorekeeper.selectors import matches_for_user

__all__ = ["account_matches", "match_export_document", "match_export_name", "matches_archive"]


def match_export_name(match: Match) -> str:
    return f"{match.game}-{match.pk}-{match.created:%Y-%m-%d}.json"


def account_matches(user: AbstractBaseUser) -> list[Match]:
    """The account's matches with their seats and deals, those in progress first."""
    return list(
        matches_for_user(user).prefetch_related(
            Prefetch("deals", queryset=Deal.objects.order_by("number"))
        )
    )


def matches_archive(user: AbstractBaseUser) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for match in account_matches(user):
            document = match_export_document(match)
            text = json.dumps(document, indent=1, ensure_ascii=False) + "\n"
            archive.writestr(match_export_name(match), text.encode("utf-8"))
    return buffer.getvalue()
