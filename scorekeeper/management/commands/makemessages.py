"""``makemessages`` that also finds the rules core's words: the English template of every
refusal and notice (``RuleError(code, template, ...)``, ``Notice(code, template, ...)``,
``Refusal(code, template, ...)``) and the words given as a parameter (``Words("a list")``), which
the site translates by its text (the rules core has no Django in it, so it marks nothing)."""

from __future__ import annotations

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [
        *makemessages.Command.xgettext_options,
        "--keyword=RuleError:2",
        "--keyword=Notice:2",
        "--keyword=Refusal:2",  # a Barbu double's refusal (rules/barbu/doubles.py)
        "--keyword=Words",  # English words given as a parameter (rules/errors.py: Words)
    ]

    #: Only the site's own words: the tests' and the benchmarks' strings are not shown to anyone.
    NOT_THE_SITE = ["tests/*", "benchmarks/*", "docs/*", "staticfiles/*", "locale/*"]

    def handle(self, *args, **options):
        options["ignore_patterns"] = [*(options.get("ignore_patterns") or []), *self.NOT_THE_SITE]
        return super().handle(*args, **options)
