"""``python manage.py export_match ID``: print a stored match as its document, with scores and
its history (``changes``), as the site's export writes it."""

from __future__ import annotations

import argparse
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import translation
from django.utils.translation import gettext

from scorekeeper import rule_messages
from scorekeeper.history.document import match_export_document
from scorekeeper.inputs import parse_int
from scorekeeper.management.commands.score import add_language_argument, indent_arg, write_json
from scorekeeper.models import Match
from scorekeeper.rules.errors import RuleError


def match_id(text: str) -> int:
    """A match id as the site numbers them (argparse refuses anything else, exit 2)."""
    value = parse_int(text, lo=1, hi=2**63 - 1)
    if value is None:
        raise argparse.ArgumentTypeError("a match id is a whole number from 1")
    return value


class Command(BaseCommand):
    help = "Print a stored match as a scorekeeper-match/1 document with scores and history."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("id", type=match_id, help="the match id")
        parser.add_argument("--indent", type=indent_arg, default=1, help="JSON indent (default 1)")
        add_language_argument(parser)

    def handle(self, *args: object, **options: Any) -> None:
        try:
            match = Match.objects.get(pk=options["id"])
        except Match.DoesNotExist:
            raise CommandError(f"there is no match {options['id']}") from None
        try:
            exported = match_export_document(match, strict=True)
        except RuleError as e:
            with translation.override(options["language"]):
                refused = gettext("the stored match does not pass the rules: {reason}")
                reason = rule_messages.message(e)
            raise CommandError(refused.format(reason=reason)) from None
        write_json(self.stdout, exported, indent=options["indent"])
