"""Keeping the language an account chose."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction

from scorekeeper.i18n.catalogues import language_codes
from scorekeeper.models import AccountSettings


@transaction.atomic
def account_language_set(*, user: AbstractBaseUser, language: str) -> AccountSettings:
    """The account's language: one of ``settings.LANGUAGES``, or ``""`` for the browser's."""
    if language and language not in language_codes():
        raise ValueError(f"not one of the site's languages: {language!r}")
    chosen, _created = AccountSettings.objects.update_or_create(
        user=user, defaults={"language": language}
    )
    return chosen
