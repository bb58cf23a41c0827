"""``python manage.py score FILE`` (or ``-``): print the scored match document as JSON.

Exit 0 with the document on standard output; exit 1 with the reason on standard error when
the document is refused. Warnings (e.g. Barbu ``compulsory_doubles: warn``) go to standard
error too, and both are written in ``--language`` (``en``, ``el``, ``it``, ``fr``: the site's
languages; English by default), as the site shows them (scorekeeper/rule_messages.py). The
document itself is the same in every language. No database is touched.

Whatever the input, the command ends with the document or a refusal, never a traceback: a file
that cannot be read, text that is not UTF-8 or JSON, a string that cannot be written out (a lone
surrogate, ``"\\ud800"``), a document the rules refuse.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser, OutputWrapper
from django.utils import translation
from django.utils.translation import gettext

from scorekeeper import rule_messages
from scorekeeper.inputs import parse_int
from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.match import score_document_full

#: ``--indent`` above this is no layout, only a way to print gigabytes of spaces.
INDENT_MAX = 8


def indent_arg(text: str) -> int:
    """``--indent N``: 0 .. INDENT_MAX spaces (argparse refuses anything else, exit 2)."""
    value = parse_int(text, lo=0, hi=INDENT_MAX)
    if value is None:
        raise argparse.ArgumentTypeError(f"a number of spaces from 0 to {INDENT_MAX}")
    return value


def write_json(stream: OutputWrapper, value: Any, *, indent: int) -> None:
    """Print ``value`` as JSON, every character as itself where the output can show it and as
    JSON's ``\\uXXXX`` escape where it cannot (a terminal or pipe that is not UTF-8)."""
    try:
        stream.write(json.dumps(value, indent=indent, ensure_ascii=False))
    except UnicodeEncodeError:
        stream.write(json.dumps(value, indent=indent, ensure_ascii=True))


def _read_stdin() -> str:
    # bytes, decoded as UTF-8 whatever the locale says (as a file is); a replaced stdin
    # without bytes (a test's StringIO) is read as text
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is None:
        return sys.stdin.read()
    return buffer.read().decode("utf-8-sig")


def read_json_source(path: str) -> object:
    try:
        if path == "-":
            text = _read_stdin()
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
        parser.add_argument("--indent", type=indent_arg, default=1, help="JSON indent (default 1)")
        add_language_argument(parser)

    def handle(self, *args: object, **options: Any) -> None:
        doc = read_json_source(str(options["file"]))
        with translation.override(options["language"]):
            try:
                _, result, scored = score_document_full(doc)
            except RuleError as e:
                refused = gettext("refused: {reason}")
                raise CommandError(refused.format(reason=rule_messages.message(e))) from None
            for notice in result.notices:
                warning = gettext("warning: {notice}")
                self.stderr.write(warning.format(notice=rule_messages.message(notice)))
        write_json(self.stdout, scored, indent=options["indent"])


def add_language_argument(parser: CommandParser) -> None:
    """``--language CODE``: the language of the refusals and warnings (the site's)."""
    codes = [code for code, _name in settings.LANGUAGES]
    parser.add_argument(
        "--language",
        choices=codes,
        default="en",
        help=f"the language of refusals and warnings: {', '.join(codes)} (default en)",
    )
