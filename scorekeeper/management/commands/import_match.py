"""``python manage.py import_match FILE --owner USERNAME``: store a match document as a new match.

Prints the new match's id. A document the rules refuse stores nothing: exit 1 with the reason
(naming the deal, the side or seat and the rule) on standard error, in ``--language`` (English
by default).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import translation
from django.utils.translation import gettext

from scorekeeper import rule_messages
from scorekeeper.management.commands.score import add_language_argument, read_json_source
from scorekeeper.rules.errors import RuleError
from scorekeeper.services import match_import


class Command(BaseCommand):
    help = "Import a match document (JSON) as a new match of a user; print the match id."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the match document, or - for standard input")
        parser.add_argument("--owner", required=True, help="the username the match belongs to")
        add_language_argument(parser)

    def handle(self, *args: object, **options: object) -> None:
        User = get_user_model()
        username = str(options["owner"])
        try:
            owner = User.objects.get(**{User.USERNAME_FIELD: username})
        except User.DoesNotExist:
            raise CommandError(f"there is no user {username!r}") from None
        document = read_json_source(str(options["file"]))
        try:
            match = match_import(owner=owner, document=document)
        except RuleError as e:
            with translation.override(str(options["language"])):
                refused = gettext("refused, nothing stored: {reason}")
                reason = rule_messages.message(e)
            raise CommandError(refused.format(reason=reason)) from None
        self.stdout.write(str(match.pk))
