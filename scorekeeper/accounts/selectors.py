"""Every match of an account in one download: a zip of match documents.

Each file is what ``/matches/<id>/export.json`` sends for that match (with its scores; a match
whose stored deals no longer pass the rules is written as it is stored), under the same name,
so ``import_match`` reads each one back.
"""

from __future__ import annotations

import io
import json
import zipfile
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import Prefetch

from scorekeeper.models import Deal, Match
from scorekeeper.rules.errors import RuleError
from scorekeeper.selectors import match_document, match_scored, matches_for_user


def match_export_document(match: Match) -> dict[str, Any]:
    try:
        _parsed, _result, exported = match_scored(match)
    except RuleError:
        exported = match_document(match)
    return exported


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
