"""The account page, the download of every match, and deleting the account.

Deleting asks for the password on a page that lists the matches and offers their download
first; then the account, its matches and its players are removed (one transaction), the
player is logged out and the home page says so.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods
from django_htmx.http import HttpResponseClientRedirect

from scorekeeper.accounts import services
from scorekeeper.accounts.forms import AccountDeleteForm
from scorekeeper.accounts.selectors import account_matches, matches_archive
from scorekeeper.i18n.selectors import account_language
from scorekeeper.models import Player


@login_required
@require_GET
def account(request: HttpRequest) -> TemplateResponse:
    context = {
        "match_count": len(account_matches(request.user)),
        "player_count": Player.objects.filter(owner=request.user).count(),
        # the language the account chose ("": the browser's), kept by the picker too
        "account_language": account_language(request.user),
    }
    return TemplateResponse(request, "accounts/account.html", context)


@login_required
@require_GET
def account_export(request: HttpRequest) -> HttpResponse:
    """Every match of the account as one zip of match documents."""
    response = HttpResponse(matches_archive(request.user), content_type="application/zip")
    filename = f"scorekeeper-matches-{timezone.localdate():%Y-%m-%d}.zip"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    patch_cache_control(response, private=True, no_store=True)
    return response


def _deleted_message(deleted: services.AccountDeleted) -> str:
    matches = ngettext("%(count)d match", "%(count)d matches", deleted.matches) % {
        "count": deleted.matches
    }
    players = ngettext("%(count)d player", "%(count)d players", deleted.players) % {
        "count": deleted.players
    }
    return _(
        "Your account %(name)s was deleted, with its %(matches)s and %(players)s. "
        "You are logged out."
    ) % {"name": deleted.username, "matches": matches, "players": players}


@login_required
@require_http_methods(["GET", "POST"])
def account_delete(request: HttpRequest) -> HttpResponseBase:
    if request.method == "POST":
        form = AccountDeleteForm(request.POST, request=request, user=request.user)
        if form.is_valid():
            deleted = services.account_delete(user=request.user)
            logout(request)
            messages.success(request, _deleted_message(deleted), extra_tags="account_deleted")
            if request.htmx:
                return HttpResponseClientRedirect(reverse("home"))
            return redirect("home")
    else:
        form = AccountDeleteForm(request=request, user=request.user)
    template_name = "accounts/delete.html"
    if request.htmx:
        template_name += "#delete-form"
    context = {"form": form, "matches": account_matches(request.user)}
    return TemplateResponse(request, template_name, context)
