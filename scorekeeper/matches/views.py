"""The history of matches at ``/matches/`` (with its actions: archive and unarchive), the
scoreboard's way back to home for an archived match, and the page that deletes a match after
offering its export.

Function views returning ``TemplateResponse``; the history's htmx fragment is its inline
partial ``#history-list``, and after an htmx POST the view runs again as a GET (view restart)
at the same address, so the filters and the page stay. Archiving and deleting are the owner's:
for anyone else a match named in a POST or an address does not exist (the 404 page), and a
phone without an account is asked to log in (:mod:`scorekeeper.access`).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponseBase
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from scorekeeper import names, rule_messages
from scorekeeper.access import AccessDenied, denied_response, guest_key_digest, match_for_owner
from scorekeeper.errors import page_not_found
from scorekeeper.inputs import parse_int
from scorekeeper.matches import selectors, services
from scorekeeper.matches.forms import history_filters
from scorekeeper.models import Game, Match
from scorekeeper.pages import as_get, page_redirect
from scorekeeper.rules.errors import RuleError

#: The highest page number or version an address or a form may carry.
NUMBER_MAX = 2**63 - 1


def history_url(query: str) -> str:
    return reverse("match_list") + (f"?{query}" if query else "")


def _list_action(request: HttpRequest) -> HttpResponseBase | None:
    """Archive or unarchive one of the account's own matches; a response when the POST is
    refused as a whole (nobody logged in, not the owner's match), else None."""
    if not request.user.is_authenticated:
        return denied_response(request, AccessDenied("login"))
    action = request.POST.get("action")
    if action not in ("archive", "unarchive"):
        messages.error(request, _("Nothing was done: the page did not say what to do."))
        return None
    pk = parse_int(request.POST.get("match"), lo=1, hi=NUMBER_MAX)
    match = Match.objects.filter(pk=pk, owner=request.user).first() if pk else None
    if match is None:
        return page_not_found(request)
    if action == "archive":
        services.match_archive(match=match)
        messages.success(
            request,
            _("Archived: the match no longer shows on the home page. It stays in this list."),
            extra_tags="match_archived",
        )
    else:
        services.match_unarchive(match=match)
        messages.success(
            request, _("The match is back on the home page."), extra_tags="match_unarchived"
        )
    return None


@require_http_methods(["GET", "POST"])
def match_list(request: HttpRequest) -> HttpResponseBase:
    """Every match the visitor owns or joined (a phone without an account: those it joined),
    newest first, 25 a page, narrowed by the address's filters (game, player, dates, status,
    a search by player name); the owner's Archive / Unarchive and Delete on each of theirs."""
    form, filters = history_filters(request.GET)
    number = parse_int(request.GET.get("page"), lo=1, hi=NUMBER_MAX)
    if request.method == "POST":
        refused = _list_action(request)
        if refused is not None:
            return refused
        if request.htmx:
            return match_list(as_get(request))
        return redirect(history_url(filters.query(page=number) if number else filters.query()))
    visible = selectors.matches_visible(request.user, guest_key_digest(request))
    page = selectors.history_page(visible, filters, number)
    query = filters.query()
    matches = list(page.object_list)
    for match in matches:  # each name links to the player's page when the player is yours
        match.row_columns = selectors.row_columns(match, viewer=request.user)

    def page_url(n: int) -> str:
        return history_url(filters.query(page=n) if n > 1 else query)

    context: dict[str, Any] = {
        "form": form,
        "filters": filters,
        "page": page,
        "matches": matches,
        "query": query,
        "here": page_url(page.number),  # where the page's forms post: the filters stay
        "previous_url": page_url(page.previous_page_number()) if page.has_previous() else "",
        "next_url": page_url(page.next_page_number()) if page.has_next() else "",
        "player_names": selectors.history_player_names(visible),
    }
    template_name = "matches/history.html"
    if request.htmx:
        template_name += "#history-list"
    return TemplateResponse(request, template_name, context)


@require_http_methods(["POST"])
def match_unarchive(request: HttpRequest, pk: int) -> HttpResponseBase:
    """Bring an archived match back to home from its scoreboard (the owner alone), then show
    the scoreboard again (a match not archived is left as it is)."""
    try:
        access = match_for_owner(request, pk)
    except AccessDenied as denied:
        return denied_response(request, denied)
    if access.match.archived is not None:
        services.match_unarchive(match=access.match)
        messages.success(
            request, _("The match is back on the home page."), extra_tags="match_unarchived"
        )
    return page_redirect(request, reverse("match_detail", args=[access.match.pk]))


def _deleted_message(deleted: services.MatchDeleted) -> str:
    parts = {
        "game": Game(deleted.game).label,
        "players": ", ".join(deleted.columns),
        "count": deleted.deal_count,
    }
    if deleted.deal_count:
        message = ngettext(
            "The %(game)s match of %(players)s was deleted, with its %(count)d deal.",
            "The %(game)s match of %(players)s was deleted, with its %(count)d deals.",
            deleted.deal_count,
        )
    else:
        message = _("The %(game)s match of %(players)s was deleted.")
    return names.isolate(message % parts, deleted.players)


@require_http_methods(["GET", "POST"])
def match_delete(request: HttpRequest, pk: int) -> HttpResponseBase:
    """Delete a match, the owner alone: the page says what goes (its deals, its history, the
    co-scorers' and watchers' access) and offers the match's download first; its Delete
    carries the match's version as drawn, so a deal saved meanwhile stops it. Afterwards, back
    to the history with the filters it came from."""
    try:
        access = match_for_owner(request, pk)
    except AccessDenied as denied:
        return denied_response(request, denied)
    match = access.match
    _form, filters = history_filters(request.GET)
    query = filters.query()
    back = history_url(query)
    here = reverse("match_delete", args=[match.pk]) + (f"?{query}" if query else "")
    if request.method == "POST":
        if request.POST.get("action") == "delete":
            version = parse_int(request.POST.get("version"), lo=0, hi=NUMBER_MAX)
            if version is None:
                messages.error(request, _("Nothing was deleted: the page did not say which match."))
            else:
                try:
                    deleted = services.match_delete(match=match, version=version)
                except RuleError as error:
                    messages.error(request, rule_messages.message(error), extra_tags=error.code)
                else:
                    messages.success(request, _deleted_message(deleted), extra_tags="match_deleted")
                    return page_redirect(request, back)
        else:
            messages.error(request, _("Nothing was deleted: the page did not say to."))
        if request.htmx:
            return match_delete(as_get(request), pk)
        return redirect(here)
    context = {
        "match": match,
        "back": back,
        "here": here,
        "members": match.members.filter(removed__isnull=True).count(),
        "links": match.links.count(),
    }
    template_name = "matches/delete.html"
    if request.htmx:
        template_name += "#delete-match"
    return TemplateResponse(request, template_name, context)
