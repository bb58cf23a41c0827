"""The players page (rename and remove in place), a player's own page (their statistics in
each game, scorekeeper/stats/) and the merge of two players after a page that shows what will
be merged.

Function views returning ``TemplateResponse``, for a logged-in account and its own players
only (another's player, or none, is the 404 page); the htmx fragments are the inline partials
``#players`` and ``#merge``, and after an htmx POST the view runs again as a GET. A refused
rename is drawn with its field, what was typed and why; every other action says what it did
or why nothing was done. Names are drawn isolated, in messages too.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponseBase
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods

from scorekeeper import names, rule_messages
from scorekeeper.errors import page_not_found
from scorekeeper.inputs import parse_int
from scorekeeper.models import Player
from scorekeeper.pages import as_get, page_redirect
from scorekeeper.players import selectors, services
from scorekeeper.rules.errors import RuleError
from scorekeeper.stats.players import HEAD_TO_HEAD_MIN, RESULTS_SHOWN, player_stats

#: What a refused rename shows again of what was typed (the refusal says the limit).
TYPED_SHOWN = names.NAME_MAX * 4


def _player_posted(request: HttpRequest) -> Player | None:
    pk = parse_int(request.POST.get("player"), lo=1, hi=selectors.ID_MAX)
    return selectors.player_of(request.user, pk)


def _rename(request: HttpRequest, player: Player) -> dict[str, Any] | None:
    """Rename ``player`` as the form asks; what to draw again when refused, else None."""
    typed = request.POST.get("name", "")
    old = player.name
    try:
        renamed = services.player_rename(player=player, name=typed)
    except RuleError as error:
        other = error.params.get("other") if error.code == "player_name_taken" else None
        # the names the refusal may quote: what was typed, the player's, the one that has it
        quoted = [names.normalize(typed), old, str(error.params.get("name", "")).strip('"')]
        return {
            "pk": player.pk,
            "typed": typed[:TYPED_SHOWN],
            "error": names.isolate(rule_messages.message(error), quoted),
            "code": error.code,
            "merge_with": other,
        }
    if renamed.name == old:
        messages.info(request, names.sentence(_("%(name)s kept their name."), name=old))
    else:
        messages.success(
            request,
            names.sentence(_("%(old)s is %(new)s now, in every match."), old=old, new=renamed.name),
            extra_tags="player_renamed",
        )
    return None


def _remove(request: HttpRequest, player: Player) -> None:
    try:
        name = services.player_remove(player=player)
    except RuleError as error:
        shown = names.isolate(rule_messages.message(error), [player.name])
        messages.error(request, shown, extra_tags=error.code)
    else:
        messages.success(
            request,
            names.sentence(_("%(name)s was removed from your players."), name=name),
            extra_tags="player_removed",
        )


def _player_action(request: HttpRequest) -> dict[str, Any] | None:
    """One of the page's buttons; a refused rename to draw again, else None (the messages say
    what was done)."""
    action = request.POST.get("action")
    if action not in ("rename", "remove"):
        messages.error(request, _("Nothing was done: the page did not say what to do."))
        return None
    player = _player_posted(request)
    if player is None:
        messages.error(
            request,
            _("Nothing was done: that player is not among yours any more."),
            extra_tags="player_gone",
        )
        return None
    if action == "rename":
        return _rename(request, player)
    _remove(request, player)
    return None


@login_required
@require_http_methods(["GET", "POST"])
def player_list(request: HttpRequest) -> HttpResponseBase:
    """The account's players, each with the matches they sit in; Rename, Merge and (for one
    who sits in no match) Remove on each."""
    renaming = None
    if request.method == "POST":
        renaming = _player_action(request)
        if renaming is None:
            if request.htmx:
                return player_list(as_get(request))
            return redirect("player_list")
    context = {"players": list(selectors.players_of(request.user)), "renaming": renaming}
    template_name = "players/players.html"
    if request.htmx:
        template_name += "#players"
    return TemplateResponse(request, template_name, context)


@login_required
@require_GET
def player_detail(request: HttpRequest, pk: int) -> HttpResponseBase:
    """One of the account's players and their statistics, each game on its own, from their
    finished matches (the same few queries whatever their number)."""
    player = selectors.player_of(request.user, pk)
    if player is None:
        return page_not_found(request)
    context = {
        "player": player,
        "games": player_stats(player),
        "head_to_head_min": HEAD_TO_HEAD_MIN,
        "results_shown": RESULTS_SHOWN,
    }
    template_name = "players/player.html"
    if request.htmx:
        template_name += "#player"
    return TemplateResponse(request, template_name, context)


def _merged_message(merged: services.PlayerMerged) -> str:
    text = ngettext(
        "%(name)s and %(into)s are one player now: %(into)s, in %(count)d more match.",
        "%(name)s and %(into)s are one player now: %(into)s, in %(count)d more matches.",
        merged.matches,
    ) % {"name": merged.name, "into": merged.into.name, "count": merged.matches}
    return names.isolate(text, [merged.name, merged.into.name])


def _side(player: Player, *, swap: str) -> dict[str, Any]:
    """One player of a merge: their newest matches, how many more, the address that merges
    the other way round (this one keeping the name)."""
    matches = selectors.player_matches(player)
    return {
        "player": player,
        "matches": matches,
        "more": player.match_count - len(matches),
        "swap": swap,
    }


def merge_url(player: Player, into: Player | None = None) -> str:
    url = reverse("player_merge", args=[player.pk])
    return f"{url}?into={into.pk}" if into is not None else url


@login_required
@require_http_methods(["GET", "POST"])
def player_merge(request: HttpRequest, pk: int) -> HttpResponseBase:
    """Merge the player ``pk`` into another of the account's players (``?into=ID``), who
    keeps their name: first the choice of that player, then a page with the matches of each
    (refused, and said so, when both sit at the table of one match), then the merge."""
    player = selectors.player_of(request.user, pk)
    if player is None:
        return page_not_found(request)
    asked = request.GET.get("into")
    into_pk = parse_int(asked, lo=1, hi=selectors.ID_MAX)
    into = selectors.player_of(request.user, into_pk) if into_pk != player.pk else None
    if request.method == "POST":
        if into is None:
            messages.error(request, _("Nothing was merged: choose the player to merge with."))
        elif request.POST.get("action") != "merge":
            messages.error(request, _("Nothing was merged: the page did not say to."))
        else:
            try:
                merged = services.player_merge(player=player, into=into)
            except RuleError as error:
                shown = names.isolate(rule_messages.message(error), [player.name, into.name])
                messages.error(request, shown, extra_tags=error.code)
            else:
                messages.success(request, _merged_message(merged), extra_tags="player_merged")
                return page_redirect(request, reverse("player_list"))
        if request.htmx:
            return player_merge(as_get(request), pk)
        return redirect(merge_url(player, into))
    context: dict[str, Any] = {
        "player": player,
        "into": into,
        "unknown": asked is not None and into is None,
        "here": merge_url(player, into),
    }
    if into is None:
        others = selectors.players_of(request.user).exclude(pk=player.pk)
        context["others"] = list(others)
    else:
        shared = selectors.matches_shared(player, into)
        context |= {
            "shared": shared,
            "sides": [_side(p, swap=merge_url(o, p)) for p, o in ((player, into), (into, player))],
            "together": player.match_count + into.match_count,
        }
    template_name = "players/merge.html"
    if request.htmx:
        template_name += "#merge"
    return TemplateResponse(request, template_name, context)
