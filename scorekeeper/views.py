"""The site's own pages: home, accounts, new match, scoreboard, import and export.

Function views returning ``TemplateResponse``; each page's htmx fragment is an inline partial
of its template, chosen with ``template_name += "#partial"`` when the request comes from htmx.
After an htmx POST the view runs again as a GET ("view restart") so the fragment is drawn from
fresh data. Deal entry lives in :mod:`scorekeeper.entry`, sharing in
:mod:`scorekeeper.sharing`. Who may see or change a match is :mod:`scorekeeper.access`'s: the
owner and the co-scorers see the scoreboard, delete the last deal and export; a method a page
does not take is refused (405) before anything is looked up.
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login as auth_login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods
from django_htmx.http import HttpResponseClientRedirect, push_url

from scorekeeper import names, rule_messages, services
from scorekeeper.access import (
    Access,
    AccessDenied,
    denied_response,
    guest_key_digest,
    match_for_scorer,
)
from scorekeeper.confirmation import views as confirmation
from scorekeeper.forms import (
    GAME_BLURBS,
    PLAYER_COUNTS,
    ImportForm,
    MatchForm,
    SignupForm,
    add_rule_error,
)
from scorekeeper.history.document import match_export_document
from scorekeeper.history.selectors import change_undoable
from scorekeeper.i18n.catalogues import language_codes
from scorekeeper.i18n.services import account_language_set
from scorekeeper.inputs import parse_int
from scorekeeper.labels import contract_name
from scorekeeper.live import live_board
from scorekeeper.matches.barbu_house import base_rules, house_check, house_form
from scorekeeper.matches.burraco_house import burraco_house_form
from scorekeeper.matches.carry import carried, kept_fields, table_choice
from scorekeeper.matches.selectors import home_matches
from scorekeeper.models import MAX_DEALS, Deal, Game, Match, MatchChange, Player
from scorekeeper.pages import as_get, page_redirect
from scorekeeper.rules.base import side_of_seat
from scorekeeper.rules.errors import RuleError
from scorekeeper.scoreboard import board_whole, board_window, deals_shown

# ---------------------------------------------------------------------------------------------
# Home and accounts


@require_GET
def home(request: HttpRequest) -> TemplateResponse:
    """The account's matches and those it keeps score of (marked as joined); without an
    account, the pitch, and the matches this phone keeps score of. Every match in progress,
    the newest finished ones; the rest, and the archived, in the history (/matches/)."""
    context: dict[str, Any] = {}
    if request.user.is_authenticated:
        context["import_form"] = ImportForm()
    shown = home_matches(request.user, guest_key_digest(request))
    context["in_progress"] = shown.in_progress
    context["finished"] = shown.finished
    context["more_finished"] = shown.more
    context["only_archived"] = shown.only_archived
    template_name = "home.html"
    if request.htmx:
        template_name += "#matches"
    return TemplateResponse(request, template_name, context)


def _next_url(request: HttpRequest) -> str:
    """Where the visitor was going (``next``, as the login takes it: a share link's join page),
    when it is a page of this site; else ""."""
    url = request.POST.get("next") or request.GET.get("next") or ""
    safe = url_has_allowed_host_and_scheme(
        url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    # a path of this site only: "0" or "home" would be taken for a view's name (a server error)
    return url if safe and url.startswith("/") and url != request.path else ""


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponseBase:
    """A new account, logged in at once: on to ``next`` when it is a page of this site (the
    match a share link led to), else to its first match."""
    next_url = _next_url(request)
    if request.user.is_authenticated:
        return page_redirect(request, next_url or reverse("home"))
    if request.method == "POST":
        form = SignupForm(request.POST)
        if form.is_valid():
            with transaction.atomic():
                user = form.save()
                # the language the visitor chose before signing up is the account's from now
                chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
                if chosen in language_codes():
                    account_language_set(user=user, language=chosen)
            auth_login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            welcome = (
                _("Welcome, %(name)s! Your account is ready.")
                if next_url
                else _("Welcome, %(name)s! Start your first match.")
            )
            messages.success(request, names.sentence(welcome, name=user.get_username()))
            return page_redirect(request, next_url or reverse("match_new"))
    else:
        form = SignupForm()
    template_name = "registration/signup.html"
    if request.htmx:
        template_name += "#auth-form"
    return TemplateResponse(request, template_name, {"form": form, "next": next_url})


class LoginView(auth_views.LoginView):
    """Django's login, with the form alone for htmx and a full-page redirect after it."""

    redirect_authenticated_user = True

    def get_template_names(self) -> list[str]:
        name = "registration/login.html"
        return [name + "#auth-form" if self.request.htmx else name]

    def get_success_url(self) -> str:
        # A `next` that is this very page (a logged-in visitor sent back to the login) goes to
        # the default instead: Django refuses it as a redirection loop, a server error.
        url = super().get_success_url()
        return self.get_default_redirect_url() if url == self.request.path else url

    def form_valid(self, form: Any) -> HttpResponseBase:
        response = super().form_valid(form)
        if self.request.htmx:
            return HttpResponseClientRedirect(response["Location"])
        return response


login = LoginView.as_view()


# ---------------------------------------------------------------------------------------------
# A new match


@login_required
@require_http_methods(["GET", "POST"])
def match_new(request: HttpRequest) -> HttpResponseBase:
    """Game, players in their seats, first dealer, house rules.

    Switching the game or the number of players, and a known player's chip (into the first
    empty seat), are a GET of this page carrying what was typed so far (those buttons submit
    the form with ``formmethod="get"``; what the new drawing has no box for rides along in
    hidden fields, :mod:`scorekeeper.matches.carry`). Enter in a box starts the match, as
    Start does (the form's first submit button is a hidden Start).
    """
    clean_url = None
    if request.method == "GET" and request.GET:
        # A switch button submits the whole form as a GET: keep the token out of the address.
        query = request.GET.copy()
        query.pop("csrfmiddlewaretoken", None)
        clean_url = f"{request.path}?{query.urlencode()}"
        if not request.htmx and "csrfmiddlewaretoken" in request.GET:
            return redirect(clean_url)
    source = request.POST if request.method == "POST" else request.GET
    game, seats = table_choice(source)
    known = list(Player.objects.filter(owner=request.user).values_list("name", flat=True))
    # Barbu's house values: a form of their own beside the match's, checked on the page
    posted = request.method == "POST"
    house = house_form(source, seats=seats, bound=posted) if game == Game.BARBU else None
    # Burraco's house values (card values, burraco bonuses): the same, without a check
    burraco_house = burraco_house_form(source, bound=posted) if game == Game.BURRACO else None
    houses = [h for h in (house, burraco_house) if h is not None]
    if posted:
        form = MatchForm(request.POST, game=game, seats=seats)
        # every form checked, so that each shows its errors at once
        if all([form.is_valid(), *(h.is_valid() for h in houses)]):
            kwargs = form.match_kwargs()
            for h in houses:
                kwargs["rules"].update(h.rules())
            try:
                match = services.match_create(owner=request.user, **kwargs)
            except RuleError as error:
                if not any(h.add_rule_error(error) for h in houses):
                    add_rule_error(form, error)
            else:
                return page_redirect(request, match.get_absolute_url())
    else:
        initial = carried(request.GET, game=game, seats=seats)
        form = MatchForm(initial=initial, game=game, seats=seats)
    template_name = "match_new.html"
    if request.htmx:
        template_name += "#match-form"
    context = {
        "form": form,
        "game": game,
        "seats": seats,
        "games": [(g, GAME_BLURBS[g]) for g in Game],
        "player_counts": PLAYER_COUNTS[game],
        "known_players": known,
        "table": _table_seats(form),
        "kept": kept_fields(source, form=form),
        "house": house,
        "burraco_house": burraco_house,
        "house_check": house_check(house, base_rules(source, seats)) if house is not None else None,
    }
    response = TemplateResponse(request, template_name, context)
    if clean_url and request.htmx:
        push_url(response, clean_url)
    return response


def _table_seats(form: MatchForm) -> list[dict[str, Any]]:
    """The seats around the table for the diagram: place, side (partners), bound fields."""
    positions = {
        2: ("south", "north"),
        3: ("south", "west", "east"),
        4: ("south", "west", "north", "east"),
        5: ("south", "west", "northwest", "northeast", "east"),
    }[form.seats]
    first_dealer = list(form["first_dealer"])
    return [
        {
            "seat": seat,
            "position": positions[seat],
            "side": side_of_seat(form.game, form.seats, seat),
            "field": form[f"player_{seat}"],
            "dealer": first_dealer[seat],
        }
        for seat in range(form.seats)
    ]


# ---------------------------------------------------------------------------------------------
# The scoreboard


def _undone_message(undone: MatchChange) -> str:
    """What Undo says it did, by the kind of change it took back."""
    n = {"number": undone.number}
    if undone.kind == MatchChange.Kind.CORRECTED:
        return _("Undone: deal %(number)s is back as it was before its correction.") % n
    if undone.kind == MatchChange.Kind.DELETED:
        return _("Undone: deal %(number)s is back in its place.") % n
    if undone.kind == MatchChange.Kind.SWAPPED:
        n["other"] = undone.detail.get("other_deal")
        return _("Undone: deals %(other)s and %(number)s are back as they were.") % n
    return _("Undone: deal %(number)s is taken off again.") % n


def _scoreboard_action(request: HttpRequest, access: Access) -> None:
    """The scoreboard's buttons: delete a deal (after a confirm step), undo the newest change
    to a deal; under the confirmation by the other side, say which player this phone is,
    accept or reject a waiting deal (:mod:`scorekeeper.confirmation.views`). Each says what
    it did, or why nothing was done."""
    match, action = access.match, request.POST.get("action")
    try:
        if action in ("delete", "delete_last"):
            # The confirm step sends the deal it showed and its digest; a post that does not
            # say which deal it means deletes nothing.
            number = parse_int(request.POST.get("number"), lo=1, hi=MAX_DEALS)
            if number is None:
                messages.error(request, _("Nothing was deleted: the page did not say which deal."))
                return
            delete = services.deal_delete_last if action == "delete_last" else services.deal_delete
            deleted = delete(
                match=match,
                number=number,
                drawn_from=request.POST.get("base") or None,
                by=access.actor,
            )
            messages.success(
                request,
                _("Deal %(number)s deleted. The history keeps it: Undo puts it back.")
                % {"number": deleted},
                extra_tags="deal_deleted",
            )
        elif action == "undo":
            change = parse_int(request.POST.get("change"), lo=1, hi=2**63 - 1)
            if change is None:
                messages.error(request, _("Nothing was undone: the page did not say what."))
                return
            undone = services.change_undo(match=match, change=change, by=access.actor)
            messages.success(request, _undone_message(undone), extra_tags="change_undone")
        elif action == "swap":
            number = parse_int(request.POST.get("number"), lo=1, hi=MAX_DEALS)
            other = parse_int(request.POST.get("other"), lo=1, hi=MAX_DEALS)
            if number is None or other is None:
                messages.error(request, _("Nothing was swapped: the page did not say which deals."))
                return
            seen = (request.POST.get("base", ""), request.POST.get("other_base", ""))
            services.deal_swap(
                match=match, number=number, other=other, drawn_from=seen, by=access.actor
            )
            messages.success(
                request,
                _(
                    "Contracts of deals %(number)s and %(other)s swapped: enter what was taken "
                    "in each of them."
                )
                % {"number": number, "other": other},
                extra_tags="deals_swapped",
            )
        elif action in confirmation.ACTIONS:
            confirmation.scoreboard_action(request, access, action)
    except RuleError as error:
        messages.error(request, rule_messages.message(error), extra_tags=error.code)


def _data_of(match: Match, *numbers: int) -> dict[int, dict[str, Any]]:
    """Deals ``numbers`` of ``match`` as stored (one query)."""
    rows = Deal.objects.filter(match=match, number__in=numbers).values_list("number", "data")
    return dict(rows)


def _swap_asked(request: HttpRequest, match: Match, count: int) -> dict[str, Any] | None:
    """The swap of two Barbu deals' contracts a correction page asked for (``?swap=N&with=M``),
    to confirm: the two deals, their contracts and digests (refused if either changes)."""
    if match.game != Game.BARBU or not count:
        return None
    number = parse_int(request.GET.get("swap"), lo=1, hi=count)
    other = parse_int(request.GET.get("with"), lo=1, hi=count)
    if number is None or other is None or number == other:
        return None
    data = _data_of(match, number, other)
    if len(data) != 2:
        return None
    first, second = data[number], data[other]
    return {
        "number": number,
        "other": other,
        "contract": contract_name(first.get("contract", "")),
        "other_contract": contract_name(second.get("contract", "")),
        "base": services.deal_fingerprint(first),
        "other_base": services.deal_fingerprint(second),
    }


#: The deals the scoreboard draws: the latest ones, or every deal a page at a time.
RECENT_DEALS = 10
DEALS_A_PAGE = 50


def _window(request: HttpRequest, count: int) -> dict[str, Any]:
    """Which deals the scoreboard draws: the latest :data:`RECENT_DEALS`, or with
    ``?deals=all`` every deal, :data:`DEALS_A_PAGE` a page (``&page=N``)."""
    if request.GET.get("deals") != "all" or count <= RECENT_DEALS:
        return {"all": False, "first": max(1, count - RECENT_DEALS + 1), "last": count}
    pages = (count + DEALS_A_PAGE - 1) // DEALS_A_PAGE
    page = parse_int(request.GET.get("page"), lo=1, hi=pages) or 1
    first = (page - 1) * DEALS_A_PAGE + 1
    return {
        "all": True,
        "first": first,
        "last": min(count, first + DEALS_A_PAGE - 1),
        "page": page,
        "pages": pages,
        "previous": page - 1 if page > 1 else None,
        "next": page + 1 if page < pages else None,
    }


@require_http_methods(["GET", "POST"])
def match_detail(request: HttpRequest, pk: int) -> HttpResponseBase:
    """The scoreboard, and its actions (:func:`_scoreboard_action`): delete a deal, undo. The
    owner and the co-scorers; the owner also gets the share controls. It draws the latest
    deals (every deal a page at a time with ``?deals=all``) from their kept scores, so it
    costs the same at deal 1 and at deal 300."""
    try:
        access = match_for_scorer(request, pk, deals=False)
    except AccessDenied as denied:
        return denied_response(request, denied)
    match = access.match
    if request.method == "POST":
        _scoreboard_action(request, access)
        if request.htmx:
            return match_detail(as_get(request), pk)
        return redirect(match)
    count = match.deal_count
    asked = parse_int(request.GET.get("delete"), lo=1, hi=count) if count else None
    window = _window(request, count)
    shown = [] if match.confirmation else deals_shown(match, window["first"], window["last"])
    # the deal whose Delete was asked for (?delete=N), else the last deal's is offered; the
    # digests it sends: refused if another phone changed that deal since
    bases = {deal.number: deal.data for deal in shown}
    missing = {n for n in (asked, count) if n and n not in bases}
    if missing:
        bases |= _data_of(match, *missing)
    context: dict[str, Any] = {
        "match": match,
        "access": access,
        "last_base": services.deal_fingerprint(bases[count]) if count in bases else "",
        "undoable": change_undoable(match),
        "asked": asked,
        "delete_base": services.deal_fingerprint(bases[asked or count])
        if (asked or count) in bases
        else "",
        "live": live_board(match),
        "swap": _swap_asked(request, match, count),
        "window": window,
    }
    try:
        if match.confirmation:
            context["board"] = board_whole(match, viewer=access.actor, is_owner=access.is_owner)
            context["window"] = {"all": False, "first": 1, "last": count}
        else:
            context["board"] = board_window(
                match,
                window["first"],
                window["last"],
                viewer=access.actor,
                is_owner=access.is_owner,
                shown=shown,
            )
    except RuleError as error:
        context["broken"] = error
    template_name = "match_detail.html"
    if request.htmx:
        template_name += "#scoreboard"
    return TemplateResponse(request, template_name, context)


@require_GET
def deal_breakdown(request: HttpRequest, pk: int, number: int) -> HttpResponseBase:
    """One deal's breakdown: what a row of the scoreboard loads when it is opened (htmx: the
    partial alone), and a page of its own without JavaScript (the row's link). The owner and
    the co-scorers, as the scoreboard."""
    try:
        access = match_for_scorer(request, pk, deals=False)
    except AccessDenied as denied:
        return denied_response(request, denied)
    match = access.match
    if not 1 <= number <= match.deal_count:
        raise Http404
    try:
        who = {"viewer": access.actor, "is_owner": access.is_owner}
        if match.confirmation:  # its board is drawn whole (board_whole): so is its breakdown
            rows = board_whole(match, **who)["rows"][number - 1 : number]
        else:
            rows = board_window(match, number, number, **who)["rows"]
    except RuleError as error:  # the stored deals no longer pass the rules: the scoreboard says
        messages.error(request, error.message, extra_tags=error.code)
        return page_redirect(request, reverse("match_detail", args=[match.pk]))
    if not rows:  # deleted since the count was read
        raise Http404
    context = {"match": match, "access": access, "row": rows[0], "barbu": match.game == Game.BARBU}
    template_name = "deal_breakdown.html"
    if request.htmx:
        template_name += "#breakdown"
    return TemplateResponse(request, template_name, context)


@require_GET
def match_chart(request: HttpRequest, pk: int) -> HttpResponseBase:
    """The match's score progression: what the scoreboard's folded chart loads when it is
    opened (htmx: the partial alone), and a page of its own without JavaScript. The owner and
    the co-scorers, as the scoreboard; drawn from the last deal's board (its columns, target)."""
    try:
        access = match_for_scorer(request, pk, deals=False)
    except AccessDenied as denied:
        return denied_response(request, denied)
    match = access.match
    count = match.deal_count
    try:
        who = {"viewer": access.actor, "is_owner": access.is_owner}
        if not count:
            board = None
        elif match.confirmation:  # its board is drawn whole (board_whole), as the scoreboard's
            board = board_whole(match, **who)
        else:
            board = board_window(match, count, count, **who)
    except RuleError as error:  # the stored deals no longer pass the rules: the scoreboard says
        messages.error(request, error.message, extra_tags=error.code)
        return page_redirect(request, reverse("match_detail", args=[match.pk]))
    template_name = "stats/match_chart.html"
    if request.htmx:
        template_name += "#chart"
    return TemplateResponse(request, template_name, {"match": match, "board": board})


# ---------------------------------------------------------------------------------------------
# Export and import


@require_GET
def match_export(request: HttpRequest, pk: int) -> HttpResponseBase:
    """The match document with scores and history, as a download (the owner and the
    co-scorers: :func:`~scorekeeper.history.document.match_export_document`); a match
    whose stored deals no longer pass the rules is downloaded as it is stored, without scores
    (its data stays the table's)."""
    try:
        match = match_for_scorer(request, pk).match
    except AccessDenied as denied:
        return denied_response(request, denied)
    exported = match_export_document(match)
    response = HttpResponse(
        json.dumps(exported, indent=1, ensure_ascii=False) + "\n",
        content_type="application/json; charset=utf-8",
    )
    filename = f"{match.game}-{match.pk}-{match.created:%Y-%m-%d}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def match_import(request: HttpRequest) -> HttpResponseBase:
    """Upload a match document; a refused document stores nothing and the page says why."""
    refusal: RuleError | None = None
    if request.method == "POST":
        form = ImportForm(request.POST, request.FILES)
        if form.is_valid():
            try:
                match = services.match_import(
                    owner=request.user, document=form.cleaned_data["document"]
                )
            except RuleError as error:
                refusal = error
            else:
                messages.success(request, _("Match imported."))
                return page_redirect(request, match.get_absolute_url())
    else:
        form = ImportForm()
    # the names a refusal may quote (drawn isolated): the refused document's players
    document = form.cleaned_data.get("document") if refusal is not None else None
    players = document.get("players") if isinstance(document, dict) else None
    template_name = "match_import.html"
    if request.htmx:
        template_name += "#import-form"
    context = {
        "form": form,
        "refusal": refusal,
        "refused": [p for p in players if isinstance(p, str)] if isinstance(players, list) else [],
    }
    return TemplateResponse(request, template_name, context)
