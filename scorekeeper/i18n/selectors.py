"""Reading the language an account chose."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser

from scorekeeper.i18n.catalogues import language_codes
from scorekeeper.models import AccountSettings


def account_language(user: AbstractBaseUser) -> str:
    """The account's choice, ``""`` when it has none (or one the site no longer speaks)."""
    language = AccountSettings.objects.filter(user=user).values_list("language", flat=True).first()
    return language if language in language_codes() else ""
