"""The pages a player sees when a request fails: 400, 403 (and a refused CSRF token), 404, 500.

Each is a whole page that says what happened in a card player's words, with a way back and the
stable ``data-message`` hook. For htmx the same page is sent with ``HX-Retarget`` (see
:mod:`scorekeeper.middleware`): it replaces the page's main element, so a tap that fails shows
why instead of doing nothing. The 413 page is drawn by :mod:`scorekeeper.limits` and the 429
page by :mod:`scorekeeper.accounts.lockout`.
"""

from __future__ import annotations

import logging

from django.http import HttpRequest, HttpResponse, HttpResponseServerError
from django.middleware.csp import get_nonce
from django.middleware.csrf import REASON_NO_CSRF_COOKIE
from django.template import loader
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from scorekeeper.middleware import retarget_to_page

log = logging.getLogger(__name__)


def reload_url(request: HttpRequest) -> str:
    """The page the player was on: what a reload should fetch again.

    For htmx that is the page's address (``HX-Current-URL``), for a plain form the page that
    sent it (``Referer``), for a GET the address itself; only ever one of this site's own.
    """
    try:
        host = request.get_host()
    except Exception:  # a 400 for a host the site does not serve: its address is no place
        return reverse("home")
    candidates = [
        request.headers.get("HX-Current-URL", "") if getattr(request, "htmx", False) else "",
        request.headers.get("Referer", "") if request.method != "GET" else "",
        request.get_full_path() if request.method == "GET" else "",
    ]
    for url in candidates:
        if url and url_has_allowed_host_and_scheme(
            url, allowed_hosts={host}, require_https=request.is_secure()
        ):
            return url
    return reverse("home")


def _page(request: HttpRequest, template: str, status: int, **context: object) -> HttpResponse:
    response = TemplateResponse(request, template, context, status=status)
    if getattr(request, "htmx", False):
        retarget_to_page(response)
    return response


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _page(request, "400.html", 400, reload_url=reload_url(request))


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _page(request, "403.html", 403)


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _page(request, "404.html", 404)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form sent with a token the site no longer accepts: almost always a page opened before
    the player logged in again (or out) in another tab. Nothing was done; a reload draws the
    page with the current token, and whatever the site had kept (matches, deals, a deal's
    draft) is still there."""
    log.warning("CSRF refused on %s: %s", request.path, reason)
    return _page(
        request,
        "403_csrf.html",
        403,
        reload_url=reload_url(request),
        no_cookie=reason == REASON_NO_CSRF_COOKIE,
    )


def server_error(request: HttpRequest) -> HttpResponse:
    """Drawn without the request's context: whatever broke (the database, a context
    processor) must not break this page too."""
    try:
        body = loader.get_template("500.html").render({"csp_nonce": get_nonce(request)})
    except Exception:  # the page itself failed: a plain sentence still says it
        log.exception("The 500 page could not be drawn")
        body = _("Something went wrong on our side. Reload the page and try again.")
        return HttpResponseServerError(body, content_type="text/plain; charset=utf-8")
    response = HttpResponseServerError(body)
    if getattr(request, "htmx", False):
        retarget_to_page(response)
    return response
