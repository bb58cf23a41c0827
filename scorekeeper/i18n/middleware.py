"""The language of each response, after ``LocaleMiddleware`` chose one from the request.

* A language the site cannot speak yet (its catalogue not compiled: ``make install`` compiles
  them) is not claimed: the page is drawn in English and says ``<html lang="en">``.
* When an account logs in (on any device, any login page), its choice is spoken from that
  response on and put in the language cookie, which carries it on every later request of the
  device: no request reads the account for its language (the scoreboard's and the live
  check's queries stay what they were).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.http import HttpRequest, HttpResponse
from django.utils import translation

from scorekeeper.i18n.catalogues import has_catalogue
from scorekeeper.i18n.selectors import account_language

#: The attribute of the request that holds the language of the account that just logged in.
LOGGED_IN_LANGUAGE = "logged_in_language"


def speak(request: HttpRequest, language: str) -> None:
    """Draw the rest of the request in ``language`` (English if it has no catalogue)."""
    if not has_catalogue(language):
        language = settings.LANGUAGE_CODE
    translation.activate(language)
    request.LANGUAGE_CODE = language


def remember(response: HttpResponse, language: str) -> None:
    """The visitor's language in Django's language cookie (as ``set_language`` writes it);
    ``""``: none, the browser's language again."""
    if not language:
        response.delete_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            path=settings.LANGUAGE_COOKIE_PATH,
            domain=settings.LANGUAGE_COOKIE_DOMAIN,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        )
        return
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


def language(get_response: Callable[[HttpRequest], HttpResponse]):
    def middleware(request: HttpRequest) -> HttpResponse:
        speak(request, translation.get_language() or settings.LANGUAGE_CODE)
        response = get_response(request)
        chosen = getattr(request, LOGGED_IN_LANGUAGE, "")
        if chosen and request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) != chosen:
            remember(response, chosen)
        return response

    return middleware


def _on_login(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    if request is None:
        return
    chosen = account_language(user)
    if chosen:
        setattr(request, LOGGED_IN_LANGUAGE, chosen)
        speak(request, chosen)


user_logged_in.connect(_on_login, dispatch_uid="scorekeeper.i18n.account_language")
