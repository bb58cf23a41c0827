"""The exports' pages: a match as CSV and as a printable score sheet, the history as CSV with
its filters, and "Download all my data" with its import back.

A match's CSV and score sheet are for whoever may see its scoreboard, as its JSON download
(the owner and the co-scorers: :func:`scorekeeper.access.match_for_scorer`); the history's
CSV is the visitor's own history (owned or joined); the data file and its import are the
account's own.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods

from scorekeeper.access import AccessDenied, denied_response, guest_key_digest, match_for_scorer
from scorekeeper.exports import selectors, services
from scorekeeper.exports.forms import DataImportForm
from scorekeeper.matches.forms import history_filters
from scorekeeper.matches.selectors import history_matches, matches_visible
from scorekeeper.pages import page_redirect
from scorekeeper.rules.errors import RuleError


def _download(content: bytes, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    patch_cache_control(response, private=True, no_store=True)
    return response


def _broken(request: HttpRequest, match: Any, error: RuleError) -> TemplateResponse:
    """A match whose stored deals no longer pass the rules has no scores to write: the page
    says so and offers its document (downloaded as stored)."""
    return TemplateResponse(
        request, "exports/broken.html", {"match": match, "broken": error}, status=409
    )


@require_GET
def match_csv(request: HttpRequest, pk: int) -> HttpResponseBase:
    """The match as CSV: a row per deal (each column's points, the dealer, or the declarer and
    the contract), then the totals; UTF-8 with a byte order mark."""
    try:
        match = match_for_scorer(request, pk).match
    except AccessDenied as denied:
        return denied_response(request, denied)
    try:
        board = selectors.match_board(match)
    except RuleError as error:
        return _broken(request, match, error)
    content = selectors.csv_bytes(selectors.match_csv_rows(match, board))
    filename = f"{match.game}-{match.pk}-{match.created:%Y-%m-%d}.csv"
    return _download(content, "text/csv; charset=utf-8", filename)


@require_GET
def match_sheet(request: HttpRequest, pk: int) -> HttpResponseBase:
    """The whole match on one printable page, as a paper score pad: the players, every deal
    with its breakdown, the house rules, the result."""
    try:
        access = match_for_scorer(request, pk)
    except AccessDenied as denied:
        return denied_response(request, denied)
    match = access.match
    try:
        board = selectors.match_board(match)
    except RuleError as error:
        return _broken(request, match, error)
    context = {"match": match, "access": access, "board": board, "printed": timezone.now()}
    template_name = "exports/sheet.html"
    if request.htmx:
        template_name += "#sheet"
    return TemplateResponse(request, template_name, context)


@require_GET
def history_csv(request: HttpRequest) -> HttpResponseBase:
    """The history (``/matches/``) as CSV, narrowed by the same filters from the address; every
    match that fits, not one page of them."""
    _form, filters = history_filters(request.GET)
    visible = matches_visible(request.user, guest_key_digest(request))
    rows = selectors.history_csv_rows(history_matches(visible, filters))
    filename = f"scorekeeper-matches-{timezone.localdate():%Y-%m-%d}.csv"
    return _download(selectors.csv_bytes(rows), "text/csv; charset=utf-8", filename)


@login_required
@require_GET
def account_data(request: HttpRequest) -> HttpResponseBase:
    """Every match the account owns, as its document, and its players: one
    ``scorekeeper-data/1`` file."""
    document = selectors.data_document(request.user)
    content = (json.dumps(document, indent=1, ensure_ascii=False) + "\n").encode("utf-8")
    filename = f"scorekeeper-data-{timezone.localdate():%Y-%m-%d}.json"
    return _download(content, "application/json; charset=utf-8", filename)


@login_required
@require_http_methods(["GET", "POST"])
def account_data_import(request: HttpRequest) -> HttpResponseBase:
    """Upload a data file: every match in it imported, or none (the page names the refused
    match and the reason)."""
    refusal: RuleError | None = None
    if request.method == "POST":
        form = DataImportForm(request.POST, request.FILES)
        if form.is_valid():
            try:
                imported = services.account_data_import(
                    owner=request.user, document=form.cleaned_data["document"]
                )
            except RuleError as error:
                refusal = error
            else:
                count = len(imported)
                messages.success(
                    request,
                    ngettext(
                        "%(count)d match imported, with your players.",
                        "%(count)d matches imported, with your players.",
                        count,
                    )
                    % {"count": count},
                    extra_tags="data_imported",
                )
                return page_redirect(request, reverse("match_list"))
    else:
        form = DataImportForm()
    refused = refusal if isinstance(refusal, services.MatchRefused) else None
    document = form.cleaned_data.get("document") if refusal is not None else None
    context = {
        "form": form,
        "refusal": refusal,
        "refused": refused,
        # the names a refusal may quote (drawn isolated): the refused match's players
        "refused_names": refused.players if refused else [],
        "count": len(document["matches"]) if refused and isinstance(document, dict) else None,
    }
    template_name = "exports/data_import.html"
    if request.htmx:
        template_name += "#data-import-form"
    return TemplateResponse(request, template_name, context)
