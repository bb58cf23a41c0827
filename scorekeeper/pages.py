"""What every view does the same way after a POST: go to another page, or draw the same page
again as a GET (view restart), for a plain request and for htmx alike."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseBase
from django.shortcuts import redirect
from django_htmx.http import HttpResponseClientRedirect


def page_redirect(request: HttpRequest, url: str) -> HttpResponseBase:
    """Go to another page: a plain redirect, or a full-page navigation for htmx."""
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


def as_get(request: HttpRequest) -> HttpRequest:
    """The same request as a GET, to draw the page again after a POST (view restart)."""
    request.method = "GET"
    request.POST = request.POST.copy()
    request.POST.clear()
    return request
