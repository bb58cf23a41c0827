"""The limit on wrong codes typed at ``/join/``, per address.

Only a code that could be one (ten characters of the alphabet) and matches no link counts: a
typo of the wrong length is said at once and costs nothing, since it cannot be a guess. After
``JOIN_TRIES`` wrong codes from one address within an hour (counted per hour of the clock) the
page refuses every code from it until the next hour begins; a table behind one address (a
café's wifi) still has room for its typos.

The count lives in Django's cache (the way django-ratelimit counts), not in the database: a
wrong try is a refusal and writes no row. With the default cache each server process counts
on its own, so with ``WEB_CONCURRENCY`` processes an address gets at most that many times the
limit, still far too few to guess a code (:mod:`scorekeeper.sharing.codes`); a shared cache
(``CACHES`` with Django's database or Redis backend) makes the count exact across processes
and hosts.
"""

from __future__ import annotations

import time

from django.core.cache import cache
from django.http import HttpRequest

from scorekeeper.accounts.lockout import client_address

#: Wrong codes an address may type in ``JOIN_WINDOW`` seconds.
JOIN_TRIES = 20
JOIN_WINDOW = 3600


def _key(request: HttpRequest) -> str:
    window = int(time.time() // JOIN_WINDOW)
    return f"scorekeeper:join-tries:{window}:{client_address(request) or 'unknown'}"


def tries_left(request: HttpRequest) -> int:
    """How many more wrong codes this request's address may type in this hour."""
    try:
        used = int(cache.get(_key(request), 0))
    except (TypeError, ValueError):
        used = 0
    return max(0, JOIN_TRIES - used)


def try_count(request: HttpRequest) -> None:
    """Count one wrong code from this request's address."""
    key = _key(request)
    cache.add(key, 0, timeout=JOIN_WINDOW)
    try:
        cache.incr(key)  # atomic where the cache can do it (the default one, Redis)
    except ValueError:  # expired between the two calls
        cache.add(key, 1, timeout=JOIN_WINDOW)
    # some backends' incr() gives the key their default lifetime: it must last its hour
    cache.touch(key, timeout=JOIN_WINDOW)
