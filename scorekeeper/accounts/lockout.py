"""The limit on login attempts (django-axes, configured in settings): whose address a request
comes from, and the page that says an account is locked from it.

The login page is drawn again with its form and the reason (only the form for htmx, which
swaps it in place); any other page that checks a password (the admin's login, the password
that confirms deleting an account) gets the 429 page. The status is 429 either way.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from axes.helpers import get_cool_off
from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

LOCKED = "login_locked"


def client_address(request: HttpRequest) -> str | None:
    """The player's address: ``REMOTE_ADDR``, or behind a proxy the last entry of the header
    named by ``CLIENT_IP_HEADER`` (the address the proxy itself saw; earlier entries were
    written by the client and prove nothing)."""
    header = settings.CLIENT_IP_HEADER
    if header:
        value = request.META.get("HTTP_" + header.upper().replace("-", "_"), "")
        last = value.split(",")[-1].strip()
        try:
            return str(ipaddress.ip_address(last))
        except ValueError:  # not an address (a proxy that did not set it): the connection's
            pass
    return request.META.get("REMOTE_ADDR")


def client_username(request: HttpRequest, credentials: Any = None) -> str | None:
    """The name a login attempt is counted under: as typed, cut to what the attempts' column
    holds (255 characters; no account's name is longer than 150) and without NUL, which
    PostgreSQL refuses (a longer name was a server error there, the admin's login too)."""
    field = settings.AXES_USERNAME_FORM_FIELD
    source = credentials or getattr(request, "data", request.POST)
    username = source.get(field)
    return username.replace("\x00", "")[:255] if isinstance(username, str) else username


def lockout_message(request: HttpRequest) -> str:
    cool_off = get_cool_off(request)
    minutes = max(1, round(cool_off.total_seconds() / 60)) if cool_off else 0
    if not minutes:
        return _(
            "Too many wrong passwords for this account from here: logging in to it from this "
            "device is locked. Ask the site's administrator to unlock it."
        )
    return ngettext(
        "Too many wrong passwords for this account from here: logging in to it from this "
        "device is paused for %(minutes)d minute. Other accounts are not affected.",
        "Too many wrong passwords for this account from here: logging in to it from this "
        "device is paused for %(minutes)d minutes. Other accounts are not affected.",
        minutes,
    ) % {"minutes": minutes}


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None, credentials: Any = None
) -> HttpResponse:
    message = lockout_message(request)
    status = settings.AXES_HTTP_RESPONSE_CODE
    if request.path == reverse("login"):
        # An unbound form: a bound one would check the password again, which counts as a try.
        username = (request.POST.get("username") or "")[:150]
        context = {
            "form": AuthenticationForm(request, initial={"username": username}),
            "next": request.POST.get("next", ""),
            "locked": message,
        }
        template = "registration/login.html" + ("#auth-form" if request.htmx else "")
    else:
        context = {"message": message, "code": LOCKED}
        template = "429.html"
    response = TemplateResponse(request, template, context, status=status)
    return response.render()
