"""``python manage.py score FILE`` (or ``-``): print the scored match document as JSON.

Exit 0 with the document on standard output; exit 1 with the reason on standard error when
the document is refused. Warnings (e.g. Barbu ``compulsory_doubles: warn``) go to standard
error too. No database is touched.
"""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.match import score_document_full


def read_json_source(path: str) -> object:
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            # utf-8-sig: a byte order mark (Windows editors write one) is read as the import
            # page reads it
            with open(path, encoding="utf-8-sig") as f:
                text = f.read()
    except OSError as e:
        raise CommandError(f"{path}: cannot read the file ({e.strerror})") from None
    except UnicodeDecodeError:
        raise CommandError(f"{path}: not UTF-8 text") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise CommandError(
            f"{path}: not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})"
        ) from None
    except (ValueError, RecursionError):
        # valid JSON Python will not read: nested too deeply, or a number too long to convert
        raise CommandError(
            f"{path}: JSON nested too deeply or with a number too long to read"
        ) from None


class Command(BaseCommand):
    help = "Validate and score a match document; print it with scores as JSON."
    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the match document, or - for standard input")
        parser.add_argument("--indent", type=int, default=1, help="JSON indent (default 1)")

    def handle(self, *args: object, **options: object) -> None:
        doc = read_json_source(str(options["file"]))
        try:
            _, result, scored = score_document_full(doc)
        except RuleError as e:
            raise CommandError(f"refused: {e.message}") from None
        for notice in result.notices:
            self.stderr.write(f"warning: {notice.message}")
        self.stdout.write(json.dumps(scored, indent=options["indent"], ensure_ascii=False))
