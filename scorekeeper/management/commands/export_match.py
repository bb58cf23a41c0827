"""``python manage.py export_match ID``: print a stored match as its document, with scores."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scorekeeper.models import Match
from scorekeeper.rules.errors import RuleError
from scorekeeper.selectors import match_scored


class Command(BaseCommand):
    help = "Print a stored match as a scorekeeper-match/1 document with scores."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("id", type=int, help="the match id")
        parser.add_argument("--indent", type=int, default=1, help="JSON indent (default 1)")

    def handle(self, *args: object, **options: object) -> None:
        try:
            match = Match.objects.get(pk=options["id"])
        except Match.DoesNotExist:
            raise CommandError(f"there is no match {options['id']}") from None
        try:
            _, _, exported = match_scored(match)
        except RuleError as e:
            raise CommandError(f"the stored match does not pass the rules: {e.message}") from None
        self.stdout.write(json.dumps(exported, indent=options["indent"], ensure_ascii=False))
