"""Django's own words its catalogues do not have in our languages yet: Django 6.1 rewrote the
short-password message (``%d`` where it had ``%(min_length)d``), and its Greek and Italian
catalogues still carry the old one, so a sign-up page said it in English. And the months:
Django's Italian writes them with a capital ("2 Dicembre"), where Italian writes "2 dicembre".
Named here, they are collected into ours (``makemessages``) and translated there; ours come
first."""

from __future__ import annotations

from django.utils.translation import gettext_lazy, ngettext_lazy

WORDS = (
    ngettext_lazy(
        "This password is too short. It must contain at least %d character.",
        "This password is too short. It must contain at least %d characters.",
        "min_length",
    ),
)

MONTHS = (
    gettext_lazy("January"),
    gettext_lazy("February"),
    gettext_lazy("March"),
    gettext_lazy("April"),
    gettext_lazy("May"),
    gettext_lazy("June"),
    gettext_lazy("July"),
    gettext_lazy("August"),
    gettext_lazy("September"),
    gettext_lazy("October"),
    gettext_lazy("November"),
    gettext_lazy("December"),
)
