"""The admin deletes a user through :func:`account_delete`, with their matches and players.

The site's admin shows matches, deals and players read-only (nobody deletes them one by one,
``scorekeeper/admin.py``), which would make the admin refuse to delete their owner ("your
account doesn't have permission to delete … player, deal, match"). Deleting a user is the one
way they go, all of them at once, as the account page does it.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.db.models import QuerySet
from django.http import HttpRequest

from scorekeeper.accounts.services import account_delete
from scorekeeper.models import Deal, Match, MatchSeat, Player

#: What goes with a user, whatever the admin lets anyone delete on its own.
OWNED = {Match, Deal, MatchSeat, Player}


class AccountUserAdmin(UserAdmin):
    def get_deleted_objects(self, objs: Any, request: HttpRequest) -> tuple[Any, ...]:
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        owned = {model._meta.verbose_name for model in OWNED}
        return deleted, counts, {p for p in perms_needed if p not in owned}, protected

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        account_delete(user=obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        for user in queryset:
            account_delete(user=user)


User = get_user_model()
if admin.site.is_registered(User):
    admin.site.unregister(User)
admin.site.register(User, AccountUserAdmin)
