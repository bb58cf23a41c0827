"""Who may do what with a match, checked in the views (never in a template).

Three roles: the **owner** (the account that started or imported the match: everything), a
**scorer** (a co-scorer who joined through the score link, with an account or on a phone
without one: enter, correct and delete deals, export) and a **watcher** (whoever has the watch
link: the read-only live view, nothing else). A view asks for what it needs:

- :func:`match_for_scorer`: the owner or an active co-scorer;
- :func:`match_for_owner`: the owner alone (sharing, the players, the house rules);
- :func:`match_for_watch_token`: the match a watch link shows.

The first two return an :class:`Access` (the match with its seats, players and deals
prefetched, who is acting and as whom) or raise :class:`AccessDenied`, whose
:func:`denied_response` is the standard answer: a login page for a phone a login could help,
a page that says so for a co-scorer the owner removed, the 404 page otherwise (the match does
not exist or is someone else's: the two are never told apart).

A phone without an account is known by its **guest key**: a long random value in a long-lived
cookie (HttpOnly, SameSite=Lax, Secure as the session cookie is), one per phone, reused for
every match it joins; the database keeps only its digest (``MatchMember.guest_key``).
"""

from __future__ import annotations

import datetime
import hashlib
import json
import re
import secrets
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import redirect_to_login
from django.db import connection, models
from django.db.models import JSONField
from django.db.models.expressions import RawSQL
from django.http import Http404, HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from scorekeeper.errors import page_not_found, reload_url
from scorekeeper.history.record import Actor
from scorekeeper.middleware import retarget_to_page
from scorekeeper.models import Match, MatchMember, ShareLink
from scorekeeper.selectors import match_queryset

__all__ = [
    "GUEST_COOKIE",
    "Access",
    "AccessDenied",
    "Role",
    "denied_response",
    "guest_cookie_set",
    "guest_key_digest",
    "guest_key_new",
    "match_for_owner",
    "match_for_scorer",
    "match_for_watch_token",
    "may_rejoin",
]

#: The cookie that holds a phone's guest key.
GUEST_COOKIE = "scorekeeper_guest"
#: How long a phone keeps its key: the most a browser keeps a cookie (Chrome caps at 400 days).
GUEST_COOKIE_AGE = 400 * 24 * 3600
#: What :func:`guest_key_new` makes (32 random bytes, URL-safe base64): anything else in the
#: cookie is no key of ours and is ignored.
_GUEST_KEY = re.compile(r"[A-Za-z0-9_-]{43}")
#: The longest token a link of ours has (``ShareLink.token``): anything longer is no link.
TOKEN_MAX = 64


class Role(StrEnum):
    OWNER = "owner"
    SCORER = "scorer"
    WATCHER = "watcher"


@dataclass(frozen=True)
class Access:
    """A match and who is acting on it: ``label`` is how the table knows them (the account's
    username, or a guest co-scorer's display name), for "saved by"."""

    match: Match
    role: Role
    member: MatchMember | None
    label: str

    @property
    def can_score(self) -> bool:
        """May enter, correct and delete deals."""
        return self.role in (Role.OWNER, Role.SCORER)

    @property
    def is_owner(self) -> bool:
        return self.role == Role.OWNER

    @property
    def actor(self) -> Actor:
        """Who acts, for the match's history: the label, the account when there is one, and
        the seat they said they play in."""
        if self.role == Role.OWNER:
            return Actor(name=self.label, user_id=self.match.owner_id, seat=self.match.owner_seat)
        if self.member is None:
            return Actor(name=self.label)
        return Actor(name=self.label, user_id=self.member.user_id, seat=self.member.seat)


class AccessDenied(Exception):
    """Not allowed. ``reason``: ``"login"`` (nobody is logged in and this phone is no
    co-scorer: a login could help), ``"removed"`` (a co-scorer the owner removed) or
    ``"not_found"`` (no such match, or someone else's)."""

    REASONS = frozenset({"login", "removed", "not_found"})

    def __init__(self, reason: str):
        if reason not in self.REASONS:
            raise ValueError(f"no such reason: {reason!r}")
        super().__init__(reason)
        self.reason = reason


# ---------------------------------------------------------------------------------------------
# The guest key of a phone without an account


def guest_key_new() -> str:
    return secrets.token_urlsafe(32)


def _digest(key: str) -> str:
    # The key is 256 random bits: a plain digest cannot be reversed or guessed, and needs no
    # secret that a rotation of SECRET_KEY would invalidate.
    return hashlib.sha256(key.encode("ascii")).hexdigest()


def guest_key(request: HttpRequest) -> str | None:
    """This phone's guest key, if its cookie holds one of ours."""
    value = request.COOKIES.get(GUEST_COOKIE, "")
    return value if _GUEST_KEY.fullmatch(value) else None


def guest_key_digest(request: HttpRequest) -> str | None:
    """The digest of this phone's guest key (what ``MatchMember.guest_key`` holds), or None."""
    key = guest_key(request)
    return None if key is None else _digest(key)


def guest_key_digest_of(key: str) -> str:
    return _digest(key)


def guest_cookie_set(response: HttpResponse, key: str) -> None:
    """Give the phone its key (again: each join renews its lifetime)."""
    response.set_cookie(
        GUEST_COOKIE,
        key,
        max_age=GUEST_COOKIE_AGE,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


# ---------------------------------------------------------------------------------------------
# Loading a match for someone

_MEMBER_FIELDS = [field for field in MatchMember._meta.concrete_fields]
_ANNOTATION = "_access_member"


def _with_membership(queryset: Any, *, user_id: int | None, digest: str | None) -> Any:
    """The queryset with the caller's membership of each match (an active one first, an
    account's before a phone's) as one JSON object of its columns, loaded with the match
    itself in the same query, so that a co-scorer's scoreboard costs no more queries than the
    owner's. The subquery is written out (:func:`_membership_sql`): compiling it through the
    ORM was a fifth of a tap."""
    sql, params = _membership_sql(user_id=user_id, digest=digest)
    return queryset.annotate(**{_ANNOTATION: RawSQL(sql, params, output_field=JSONField())})


def _membership_sql(*, user_id: int | None, digest: str | None) -> tuple[str, list[Any]]:
    """The membership subquery as SQL: the columns as a JSON object, as ``JSONObject`` writes
    it on each backend, of the first membership of the caller (by account ``user_id``, by
    phone ``digest``) in the outer query's match."""
    quote = connection.ops.quote_name
    member = MatchMember._meta
    table = quote(member.db_table)
    builder = "JSONB_BUILD_OBJECT" if connection.vendor == "postgresql" else "JSON_OBJECT"
    pairs = ", ".join(f"'{f.attname}', {table}.{quote(f.column)}" for f in _MEMBER_FIELDS)
    who, params = [], []
    if user_id is not None:
        who.append(f"{table}.{quote(member.get_field('user').column)} = %s")
        params.append(user_id)
    if digest is not None:
        who.append(f"{table}.{quote(member.get_field('guest_key').column)} = %s")
        params.append(digest)
    removed = f"{table}.{quote(member.get_field('removed').column)}"
    user = f"{table}.{quote(member.get_field('user').column)}"
    outer = f"{quote(Match._meta.db_table)}.{quote(Match._meta.pk.column)}"
    sql = (
        f"SELECT {builder}({pairs}) FROM {table}"
        f" WHERE {table}.{quote(member.get_field('match').column)} = {outer}"
        f" AND ({' OR '.join(who) or '1 = 0'})"
        f" ORDER BY ({removed} IS NOT NULL), {removed}, ({user} IS NULL), {user},"
        f" {table}.{quote(member.pk.column)} LIMIT 1"
    )
    return f"({sql})", params


def _membership_of(match: Match) -> MatchMember | None:
    row = getattr(match, _ANNOTATION)
    if isinstance(row, str):  # a backend that hands the JSON back as text
        row = json.loads(row)
    if not row:
        return None
    values = [_member_value(field, row.get(field.attname)) for field in _MEMBER_FIELDS]
    member = MatchMember.from_db(match._state.db, [f.attname for f in _MEMBER_FIELDS], values)
    member.match = match
    return member


def _member_value(field: Any, value: Any) -> Any:
    """A column of the membership as its field holds it (JSON gives a time as text)."""
    if value is None or not isinstance(field, models.DateTimeField):
        return value
    moment = parse_datetime(str(value))
    if moment is not None and timezone.is_naive(moment):
        moment = timezone.make_aware(moment, datetime.UTC)
    return moment


def _pk(pk: Any) -> int | None:
    return pk if isinstance(pk, int) and 0 < pk < 2**63 else None


def match_for_scorer(request: HttpRequest, pk: int, *, deals: bool = True) -> Access:
    """The match ``pk`` for its owner or an active co-scorer (with an account, or this phone's
    guest key), with its deals unless ``deals`` is False. Raises :class:`AccessDenied`."""
    user = request.user
    logged_in = user.is_authenticated
    digest = guest_key_digest(request)
    if not logged_in and digest is None:
        raise AccessDenied("login")
    denied = AccessDenied("not_found" if logged_in else "login")
    if _pk(pk) is None:
        raise denied
    queryset = _with_membership(
        match_queryset(deals=deals), user_id=user.pk if logged_in else None, digest=digest
    )
    match = queryset.filter(pk=pk).first()
    if match is None:
        raise denied
    if logged_in and match.owner_id == user.pk:
        return Access(match=match, role=Role.OWNER, member=None, label=user.get_username())
    member = _membership_of(match)
    if member is None:
        raise denied
    if member.removed is not None:
        raise AccessDenied("removed")
    label = user.get_username() if logged_in else member.name
    return Access(match=match, role=Role.SCORER, member=member, label=label)


def match_for_owner(request: HttpRequest, pk: int) -> Access:
    """The match ``pk`` for its owner alone. Raises :class:`AccessDenied`: ``"login"`` when
    nobody is logged in, ``"not_found"`` for anyone else (a co-scorer too)."""
    user = request.user
    if not user.is_authenticated:
        raise AccessDenied("login")
    match = match_queryset().filter(pk=pk, owner=user).first() if _pk(pk) else None
    if match is None:
        raise AccessDenied("not_found")
    return Access(match=match, role=Role.OWNER, member=None, label=user.get_username())


def match_for_watch_token(token: str) -> Match:
    """The match a watch link shows, with its seats and players (its deals are read as the
    board needs them: the last one); Http404 for a token that is no watch link's (unknown,
    or replaced when the owner made a new link)."""
    if not isinstance(token, str) or not 0 < len(token) <= TOKEN_MAX:
        raise Http404
    match = (
        match_queryset(deals=False)
        .filter(links__kind=ShareLink.Kind.WATCH, links__token=token)
        .select_related("owner")
        .first()
    )
    if match is None:
        raise Http404
    return match


def may_rejoin(member: MatchMember, link: ShareLink) -> bool:
    """Whether ``member`` may join through the score ``link``: one the owner removed may not,
    unless the owner made this link after removing them (sharing anew is letting in)."""
    return member.removed is None or member.removed < link.created


# ---------------------------------------------------------------------------------------------
# The answer to a request that is not allowed


def denied_response(request: HttpRequest, denied: AccessDenied) -> HttpResponse:
    """The standard answer to :class:`AccessDenied`.

    ``"login"``: a redirect to the login page, back here afterwards (for htmx: the login page
    in place of the page's main element, coming back to the page the phone was on);
    ``"removed"``: a page that says the owner removed this phone's co-scorer (403);
    ``"not_found"``: the 404 page. For htmx each replaces the page's main element."""
    if denied.reason == "login":
        back = reload_url(request)
        if not getattr(request, "htmx", False):
            return redirect_to_login(back)
        context = {"form": AuthenticationForm(request), "next": back}
        response = TemplateResponse(request, "sharing/login_needed.html", context, status=403)
        return retarget_to_page(response)
    if denied.reason == "removed":
        response = TemplateResponse(request, "sharing/removed.html", {}, status=403)
        if getattr(request, "htmx", False):
            retarget_to_page(response)
        return response
    return page_not_found(request)
