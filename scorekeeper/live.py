"""Pages that follow their match: the scoreboard, the entry page and the watch view redraw
themselves when another phone changes something.

A page that follows its match carries one element ``[data-live]``: the address of its check
and the state it was drawn from (``data-live-state``). ``site.js`` asks that address every
:data:`EVERY_MS` while the tab is visible (never while it is hidden), with the state; the
answer is ``204`` while nothing changed, ``200`` with the new state when something did (the
page then redraws its element, the entry page through its tap queue), ``404`` with the plain
body ``gone`` (:data:`GONE`) when the address no longer leads anywhere (the watch link was
replaced, the match deleted): the page stops asking and says so (the watch view), or is drawn
again (the scoreboard, the entry page: the page's own answer says why). A key that is not ours
gets the site's 404 page, as any address that leads nowhere.

The check costs one small query and nothing else: the address carries a signed key (the match,
what the page shows) so that no session, user or membership is read; the state is
``Match.version`` (every stored change bumps it under the match's lock), and for the entry
page also the version of its deal in progress (every tap bumps it). So it holds with several
server processes and several hosts with nothing but the database. What a removed co-scorer
or a logged-out phone can learn from it is that something changed; the redraw that follows
goes through the access checks like any page.

A push channel (server-sent events or WebSockets behind ASGI, or PostgreSQL's LISTEN/NOTIFY)
would slot in here: the same key names what a phone follows, the same state says whether it
is out of date, and the page's redraw stays as it is; only the asking would become listening.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core import signing
from django.db.models import OuterRef, Subquery
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotFound
from django.urls import reverse
from django.views.decorators.http import require_GET

from scorekeeper.models import DealDraft, Match, ShareLink

#: How often a visible page asks (site.js reads it from the page).
EVERY_MS = 2000

#: The body of the answer to a key of ours that leads nowhere now (with 404): what the page
#: followed is gone, for good (a watch link replaced, a match deleted).
GONE = "gone"

_SALT = "scorekeeper.live"
_BOARD, _ENTRY, _WATCH = "b", "e", "w"


@dataclass(frozen=True)
class Live:
    """What a page carries to follow its match: where to ask, and what it was drawn from."""

    url: str
    state: str
    every_ms: int = EVERY_MS


def _live(key: list[object], state: str) -> Live:
    signed = signing.Signer(salt=_SALT).sign_object(key)  # no timestamp: the same every time
    return Live(url=reverse("live", args=[signed]), state=state)


def board_state(version: int) -> str:
    return str(version)


def entry_state(version: int, draft_version: int) -> str:
    return f"{version}.{draft_version}"


def live_board(match: Match) -> Live:
    """The scoreboard of ``match`` (for its owner and co-scorers)."""
    return _live([_BOARD, match.pk], board_state(match.version))


def live_watch(match: Match, token: str) -> Live:
    """The watch view reached with the watch link ``token``: it stops when the link is
    replaced."""
    return _live([_WATCH, match.pk, token], board_state(match.version))


def live_entry(match: Match, *, number: int, editing: bool, draft_version: int) -> Live:
    """The entry page of deal ``number`` (its correction when ``editing``), drawn from the
    deal in progress at ``draft_version`` (0 when none has begun)."""
    key: list[object] = [_ENTRY, match.pk, number, 1 if editing else 0]
    return _live(key, entry_state(match.version, draft_version))


def _state_now(key: object) -> str | None:
    """The state of what ``key`` follows, in one query; None when it leads nowhere now.
    Raises Http404 for a key of no shape this module makes."""
    if not isinstance(key, list) or not key:
        raise Http404
    kind = key[0]
    if kind == _BOARD and len(key) == 2:
        version = Match.objects.filter(pk=key[1]).values_list("version", flat=True).first()
        return None if version is None else board_state(version)
    if kind == _WATCH and len(key) == 3:
        version = (
            ShareLink.objects.filter(match_id=key[1], token=key[2], kind=ShareLink.Kind.WATCH)
            .values_list("match__version", flat=True)
            .first()
        )
        return None if version is None else board_state(version)
    if kind == _ENTRY and len(key) == 4:
        draft = DealDraft.objects.filter(
            match=OuterRef("pk"), number=key[2], editing=bool(key[3])
        ).values("version")[:1]
        row = (
            Match.objects.filter(pk=key[1])
            .annotate(draft_version=Subquery(draft))
            .values_list("version", "draft_version")
            .first()
        )
        return None if row is None else entry_state(row[0], row[1] or 0)
    raise Http404


@require_GET
def live_check(request: HttpRequest, key: str) -> HttpResponse:
    """204 while the page's state is the match's, 200 with the new state when not; 404 with
    :data:`GONE` when the key leads nowhere now (answered without a template, so without a
    session or a cookie, as every other answer), the site's 404 page when it is not ours."""
    try:
        unsigned = signing.Signer(salt=_SALT).unsign_object(key)
    except signing.BadSignature:
        raise Http404 from None
    now = _state_now(unsigned)
    if now is None:
        return HttpResponseNotFound(GONE, content_type="text/plain; charset=utf-8")
    if request.GET.get("state") == now:
        return HttpResponse(status=204)
    return HttpResponse(now, content_type="text/plain; charset=utf-8")
