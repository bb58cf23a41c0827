"""How much a request may carry, refused from its ``Content-Length`` before anything reads it.

Django reads a POST body whole the first time ``request.POST`` or ``request.FILES`` is touched
(the CSRF check does it before any view), streaming an upload to disk: a 100 MB upload would be
read to the end and only then refused. This middleware sits before the CSRF check and answers a
body over its page's limit at once with a page that says the limit; nothing is read or stored.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.template.defaultfilters import filesizeformat
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext as _

from scorekeeper.exports.forms import DataImportForm
from scorekeeper.forms import ImportForm
from scorekeeper.inputs import parse_int

#: A match document may be ``ImportForm.MAX_BYTES``; its form (the multipart envelope, the
#: token) adds a few hundred bytes, for which this leaves room.
IMPORT_BODY_MAX = ImportForm.MAX_BYTES + 64 * 1024
#: The same for a file of all an account's data (every match it owns).
DATA_BODY_MAX = DataImportForm.MAX_BYTES + 64 * 1024
#: Every other form of the site sends a few kilobytes at most (a deal's draft is capped at
#: ``entry.forms.DRAFT_MAX`` characters).
BODY_MAX = 256 * 1024


def body_limit(request: HttpRequest) -> int:
    if request.path == reverse("match_import"):
        return IMPORT_BODY_MAX
    if request.path == reverse("account_data_import"):
        return DATA_BODY_MAX
    return BODY_MAX


def request_size_limit(get_response: Callable[[HttpRequest], HttpResponse]):
    def middleware(request: HttpRequest) -> HttpResponse:
        # An unreadable length is Django's own business: it then reads no body at all.
        length = parse_int(request.META.get("CONTENT_LENGTH") or "0", lo=0, hi=10**17) or 0
        limit = body_limit(request)
        if length > limit:
            return too_large(request, sent=length, limit=limit)
        return get_response(request)

    return middleware


def too_large(request: HttpRequest, *, sent: int, limit: int) -> HttpResponse:
    """The page that says the limit (the import page, with its form, for a document)."""
    if request.path == reverse("match_import"):
        message = _(
            "This document is %(sent)s; a match document may be at most %(limit)s. "
            "Nothing was stored."
        ) % {"sent": filesizeformat(sent), "limit": filesizeformat(ImportForm.MAX_BYTES)}
        template = "match_import.html" + ("#import-form" if request.htmx else "")
        context = {"form": ImportForm(), "refusal": None, "too_large": message}
    else:
        message = _(
            "What this page sent is %(sent)s; it accepts at most %(limit)s. Nothing was stored."
        ) % {"sent": filesizeformat(sent), "limit": filesizeformat(limit)}
        template = "413.html"
        context = {"message": message}
    response = TemplateResponse(request, template, context, status=413)
    # the body was not read: the connection cannot carry another request after it
    response["Connection"] = "close"
    return response.render()
