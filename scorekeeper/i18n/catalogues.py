"""Which languages the site can really speak: those with a compiled catalogue of ours."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from django.conf import settings
from django.core.signals import setting_changed
from django.utils.translation import to_locale


def language_codes() -> set[str]:
    """The site's languages (``settings.LANGUAGES``)."""
    return {code for code, _name in settings.LANGUAGES}


def has_catalogue(language: str) -> bool:
    """Whether ``locale/<language>/LC_MESSAGES/django.mo`` was compiled (``make install``).
    English, the source language, needs none."""
    if language == settings.LANGUAGE_CODE:
        return True
    return _compiled(language, tuple(str(p) for p in settings.LOCALE_PATHS))


@cache
def _compiled(language: str, paths: tuple[str, ...]) -> bool:
    name = to_locale(language)
    return any((Path(p) / name / "LC_MESSAGES" / "django.mo").is_file() for p in paths)


def _forget(*, setting: str, **kwargs: object) -> None:
    if setting == "LOCALE_PATHS":
        _compiled.cache_clear()


setting_changed.connect(_forget, dispatch_uid="scorekeeper.i18n.catalogues")
