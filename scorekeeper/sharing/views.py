"""The pages of sharing: the owner's share page (one per kind of link), joining through a score
link, the page that takes a short code, and the read-only watch view.

Function views returning ``TemplateResponse``; each page's htmx fragment is an inline partial
(``#share``, ``#join-form``, ``#code-form``, ``#watch``), and after an htmx POST the view runs
again as a GET. Who may do what is :mod:`scorekeeper.access`'s.
"""

from __future__ import annotations

from typing import Any

import segno
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponseBase
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods

from scorekeeper import names
from scorekeeper.access import (
    TOKEN_MAX,
    Access,
    AccessDenied,
    denied_response,
    guest_cookie_set,
    guest_key,
    guest_key_digest_of,
    guest_key_new,
    match_for_owner,
    match_for_watch_token,
    may_rejoin,
)
from scorekeeper.forms import add_rule_error
from scorekeeper.inputs import parse_int
from scorekeeper.live import live_watch
from scorekeeper.models import Match, MatchMember, ShareLink
from scorekeeper.pages import as_get, page_redirect
from scorekeeper.rules.errors import RuleError
from scorekeeper.scoreboard import board_whole, board_window
from scorekeeper.sharing import codes, services, tries
from scorekeeper.sharing.forms import CodeForm, JoinForm


def qr_svg(url: str, title: str) -> SafeString:
    """The QR code of ``url`` as inline SVG: drawn with attributes only (no style attribute,
    which the Content-Security-Policy refuses), black on white whatever the page's colours,
    with the quiet zone a reader needs and no size of its own (the page's CSS sizes it)."""
    code = segno.make(url, error="m", micro=False)
    svg = code.svg_inline(
        scale=1,
        border=4,
        dark="#000",
        light="#fff",
        svgclass="qr",
        lineclass=None,
        omitsize=True,
        title=title,
    )
    return mark_safe(svg)  # segno escapes the title; the rest is its own markup


# ---------------------------------------------------------------------------------------------
# The owner's share page

KIND_LABELS = {
    ShareLink.Kind.SCORE: gettext_lazy("Score together"),
    ShareLink.Kind.WATCH: gettext_lazy("Watch"),
}


def _link_url(request: HttpRequest, link: ShareLink) -> str:
    name = "join" if link.kind == ShareLink.Kind.SCORE else "watch"
    return request.build_absolute_uri(reverse(name, args=[link.token]))


def _share_action(request: HttpRequest, access: Access, kind: str) -> None:
    """One of the share page's buttons: make the link, make a new one, remove a co-scorer."""
    match = access.match
    action = request.POST.get("action")
    if action == "create":
        services.share_link_get_or_create(match=match, kind=kind)
        messages.success(request, _("The link is ready: show it to the table."))
    elif action == "regenerate":
        services.share_link_regenerate(match=match, kind=kind, by=access.actor)
        messages.success(
            request, _("Here is a new link and a new code. The old ones no longer work.")
        )
    elif action == "remove" and kind == ShareLink.Kind.SCORE:
        pk = parse_int(request.POST.get("member"), lo=1, hi=2**63 - 1)
        member = match.members.filter(pk=pk).first() if pk else None
        if member is None:
            messages.error(request, _("Nobody was removed: that co-scorer is not in this match."))
        elif member.removed is not None:
            messages.info(
                request, names.sentence(_("%(name)s was already removed."), name=member.name)
            )
        else:
            services.member_remove(member=member, by=access.actor)
            messages.success(
                request,
                names.sentence(
                    _("%(name)s was removed and can no longer keep this match's score."),
                    name=member.name,
                ),
            )
    else:
        messages.error(request, _("Nothing was done: the page did not say what to do."))


@require_http_methods(["GET", "POST"])
def match_share(request: HttpRequest, pk: int, kind: str) -> HttpResponseBase:
    """The owner's page for one kind of link: its QR code, short code and address, a new link
    in place of it, and (for the score link) who has joined, each with a Remove button."""
    try:
        access = match_for_owner(request, pk)
    except AccessDenied as denied:
        return denied_response(request, denied)
    match = access.match
    if request.method == "POST":
        _share_action(request, access, kind)
        if request.htmx:
            return match_share(as_get(request), pk, kind)
        return redirect("match_share", pk=match.pk, kind=kind)
    link = match.links.filter(kind=kind).first()
    context: dict[str, Any] = {
        "match": match,
        "kind": kind,
        "kinds": [
            {"kind": k, "label": label, "current": k == kind} for k, label in KIND_LABELS.items()
        ],
        "link": link,
    }
    if link is not None:
        url = _link_url(request, link)
        context |= {
            "url": url,
            "code": codes.code_shown(link.code),
            "qr": qr_svg(url, _("QR code of the link")),
            "join_url": request.build_absolute_uri(reverse("join_code")),
        }
    if kind == ShareLink.Kind.SCORE:
        members = list(match.members.select_related("user").order_by("joined", "pk"))
        context["members"] = [m for m in members if m.removed is None]
        context["removed"] = [m for m in members if m.removed is not None]
    template_name = "sharing/share.html"
    if request.htmx:
        template_name += "#share"
    return TemplateResponse(request, template_name, context)


# ---------------------------------------------------------------------------------------------
# Joining through a score link


def _score_link(token: str) -> ShareLink:
    if not 0 < len(token) <= TOKEN_MAX:
        raise Http404
    link = (
        ShareLink.objects.select_related("match", "match__owner")
        .filter(kind=ShareLink.Kind.SCORE, token=token)
        .first()
    )
    if link is None:
        raise Http404
    return link


def _membership(request: HttpRequest, match: Match) -> MatchMember | None:
    """The membership this link would make or find: the account's when logged in (a phone
    that joined as a guest before can still join as the account, to find the match among its
    own), else this phone's."""
    if request.user.is_authenticated:
        return match.members.filter(user=request.user).first()
    key = guest_key(request)
    if key is None:
        return None
    return match.members.filter(guest_key=guest_key_digest_of(key)).first()


def _link_gone(request: HttpRequest) -> TemplateResponse:
    """A score link that leads nowhere now (replaced, or its match deleted): said so, 404."""
    return TemplateResponse(request, "sharing/link_gone.html", {}, status=404)


@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, token: str) -> HttpResponseBase:
    """The score link: join the match as a co-scorer, as your account or, without one, under
    the name you give (on this phone). Already in (the owner, or joined before): straight to
    the scoreboard. Removed by the owner: a page that says so, until the owner makes a new
    link."""
    try:
        link = _score_link(token)
    except Http404:
        return _link_gone(request)
    match = link.match
    user = request.user if request.user.is_authenticated else None
    if user is not None and user.pk == match.owner_id:
        messages.info(request, _("This is your own match: you keep its score already."))
        return page_redirect(request, match.get_absolute_url())
    member = _membership(request, match)
    if member is not None and member.removed is None:
        return page_redirect(request, match.get_absolute_url())
    if member is not None and not may_rejoin(member, link):
        return denied_response(request, AccessDenied("removed"))
    form = JoinForm(request.POST if request.method == "POST" else None, guest=user is None)
    if request.method == "POST" and form.is_valid():
        key = guest_key(request)
        if user is None and key is None:
            key = guest_key_new()
        try:
            services.member_join(
                link=link,
                user=user,
                guest_key=None if user is not None else guest_key_digest_of(key),
                name=form.cleaned_data.get("name", ""),
            )
        except RuleError as error:
            if error.code == "member_removed":
                return denied_response(request, AccessDenied("removed"))
            if error.code == "link_gone":
                return _link_gone(request)
            add_rule_error(form, error)
        else:
            messages.success(
                request,
                _("You keep score of this match now: enter, correct and delete its deals."),
            )
            response = page_redirect(request, match.get_absolute_url())
            if user is None:
                guest_cookie_set(response, key)  # a new key, or a longer life for this one
            return response
    context = {
        "match": match,
        "form": form,
        "guest": user is None,
        "owner": match.owner.get_username(),
        "login_url": f"{reverse('login')}?{urlencode({'next': request.path})}",
    }
    template_name = "sharing/join.html"
    if request.htmx:
        template_name += "#join-form"
    return TemplateResponse(request, template_name, context)


@require_http_methods(["GET", "POST"])
def join_code(request: HttpRequest) -> HttpResponseBase:
    """Type the short code another phone shows: on to its score link or watch link. Wrong
    codes are limited per address (:mod:`scorekeeper.sharing.tries`)."""
    locked = tries.tries_left(request) == 0
    form = CodeForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and not locked and form.is_valid():
        link = ShareLink.objects.filter(code=form.cleaned_data["code"]).first()
        if link is not None:
            name = "join" if link.kind == ShareLink.Kind.SCORE else "watch"
            return page_redirect(request, reverse(name, args=[link.token]))
        tries.try_count(request)
        locked = tries.tries_left(request) == 0
        if not locked:
            form.add_error(
                "code",
                ValidationError(
                    _("No match has that code. Check it against the phone that shows it."),
                    code="code_unknown",
                ),
            )
    status = 200
    if locked:
        status = 429
        form = CodeForm()
    template_name = "sharing/join_code.html"
    if request.htmx:
        template_name += "#code-form"
    context = {"form": form, "locked": locked}
    return TemplateResponse(request, template_name, context, status=status)


# ---------------------------------------------------------------------------------------------
# The watch view


def watch_board(match: Match) -> dict[str, Any]:
    """What the watch view shows: the scoreboard's columns with how far each is from the
    target, what comes next and the last deal's breakdown (or why the match cannot be shown)."""
    try:
        if match.confirmation:  # its totals leave out the deals not accepted: scored whole
            board = board_whole(match)
        else:  # the last deal from its kept score, the rest from the kept state
            board = board_window(match, match.deal_count, match.deal_count)
    except RuleError as error:
        return {"broken": error}
    last = board["rows"][-1] if board["rows"] else None
    board["last"] = last
    board["last_points"] = (
        [
            {"index": column["index"], "name": column["name"], "points": cell["points"]}
            for column, cell in zip(board["columns"], last["cells"], strict=True)
        ]
        if last
        else []
    )
    return {"board": board}


@require_GET
def watch(request: HttpRequest, token: str) -> TemplateResponse:
    """The watch link: the match read-only, for a tablet on the table. Nothing on it leads
    anywhere else. With htmx, only ``#watch`` (what a poller redraws)."""
    match = match_for_watch_token(token)
    context = {"match": match, "live": live_watch(match, token), **watch_board(match)}
    template_name = "watch.html"
    if request.htmx:
        template_name += "#watch"
    return TemplateResponse(request, template_name, context)
