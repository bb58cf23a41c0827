from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import authenticate
from django.contrib.auth.base_user import AbstractBaseUser
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _


class AccountDeleteForm(forms.Form):
    """The account's password, asked once more before everything is deleted.

    Checked through ``authenticate`` with the request, so wrong passwords here count towards
    the same limit on attempts as the login page's."""

    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        max_length=4096,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, *args: Any, request: HttpRequest, user: AbstractBaseUser, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.request = request
        self.user = user

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        checked = authenticate(self.request, username=self.user.get_username(), password=password)
        if checked is None or checked.pk != self.user.pk:
            raise forms.ValidationError(
                _("That is not your password. Nothing was deleted."), code="wrong_password"
            )
        return password
