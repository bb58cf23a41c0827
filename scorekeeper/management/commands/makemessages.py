"""``makemessages`` that also finds the rules core's words: the English template of every
refusal and notice (``RuleError(code, template, ...)``, ``Notice(code, template, ...)``), which
the site translates by its text (the rules core has no Django in it, so it marks nothing)."""

from __future__ import annotations

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [
        *makemessages.Command.xgettext_options,
        "--keyword=RuleError:2",
        "--keyword=Notice:2",
    ]
