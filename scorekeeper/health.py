"""``/healthz``: whether this server process can answer, database included.

For a proxy, a load balancer or a container's health check: a plain ``ok`` (200) when the
database answers a query, ``database unavailable`` (503) when it does not. It touches no
session and sets no cookie, is never cached, and is exempt from the https redirect
(``SECURE_REDIRECT_EXEMPT``) so that it can be asked over plain http from next door. It still
needs one of ``ALLOWED_HOSTS`` as its Host.
"""

from __future__ import annotations

import logging

from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse
from django.utils.cache import add_never_cache_headers
from django.views.decorators.http import require_safe

log = logging.getLogger(__name__)


def database_answers() -> bool:
    """A query on a table every migrated database has: SQLite would answer a bare ``SELECT 1``
    without reading its file."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1 FROM django_migrations LIMIT 1")
            cursor.fetchone()
    except DatabaseError:
        log.exception("Health check: the database does not answer")
        return False
    return True


@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    if database_answers():
        response = HttpResponse("ok\n", content_type="text/plain; charset=utf-8")
    else:
        response = HttpResponse(
            "database unavailable\n", status=503, content_type="text/plain; charset=utf-8"
        )
    add_never_cache_headers(response)
    return response
