"""``/i18n/setlang/``: Django's ``set_language`` (the language cookie, then back to ``next``),
which also keeps the choice of the account logged in, and takes ``""`` for the browser's
language again (the account page offers it)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseBase
from django.views.decorators.http import require_POST
from django.views.i18n import LANGUAGE_QUERY_PARAMETER, set_language

from scorekeeper.i18n import services
from scorekeeper.i18n.catalogues import language_codes
from scorekeeper.i18n.middleware import remember


@require_POST
def language_set(request: HttpRequest) -> HttpResponseBase:
    language = request.POST.get(LANGUAGE_QUERY_PARAMETER, "")
    response = set_language(request)
    if language and language not in language_codes():
        return response  # not one of ours: Django changed nothing either
    if not language:
        remember(response, "")
    if request.user.is_authenticated:
        services.account_language_set(user=request.user, language=language)
    return response
