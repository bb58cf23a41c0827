"""What every page's response gets on its way out: who may keep a copy, and where an error goes.

``private_pages``: a page is drawn for the person who asked (their matches, their token), and
a score changes with every deal, so no shared cache keeps it and a browser asks again each
time it shows it (``Cache-Control: private, no-cache``). Static files never pass through here
(WhiteNoise, listed before, answers them with its own long-lived headers); a response that
says its own ``Cache-Control`` (the health check) keeps it.

``htmx_errors``: htmx 2 swaps a 4xx or 5xx answer too (base.html's ``htmx-config``), into the
element the request was aimed at. That is right for a form drawn again with its refusal (the
import form's 413, the login form's 429); an error page instead replaces the page's main
element, so a tap never fails silently and never leaves half a pad in place.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control

#: The pages that stand for the whole page when a request fails (each extends base.html).
ERROR_TEMPLATES = frozenset(
    {"400.html", "403.html", "403_csrf.html", "404.html", "413.html", "429.html", "500.html"}
)
#: The main element of every page (base.html).
MAIN = "#page"


def private_pages(get_response: Callable[[HttpRequest], HttpResponse]):
    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        if "Cache-Control" not in response:
            patch_cache_control(response, private=True, no_cache=True)
        return response

    return middleware


def is_error_page(response: HttpResponse) -> bool:
    names = getattr(response, "template_name", None)
    if isinstance(names, str):
        names = [names]
    return bool(names) and any(name in ERROR_TEMPLATES for name in names)


def retarget_to_page(response: HttpResponse) -> HttpResponse:
    """Tell htmx to put the error page's main element in place of the current one."""
    response["HX-Retarget"] = MAIN
    response["HX-Reswap"] = "outerHTML"
    response["HX-Reselect"] = MAIN
    return response


def htmx_errors(get_response: Callable[[HttpRequest], HttpResponse]):
    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        if (
            getattr(request, "htmx", False)
            and response.status_code >= 400
            and "HX-Retarget" not in response
            and is_error_page(response)
        ):
            retarget_to_page(response)
        return response

    return middleware
