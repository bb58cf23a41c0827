"""The language an account chose: kept by the picker and the account page, read back where
it is applied (scorekeeper/i18n/; the pages in each language: tests/i18n/test_speaking.py)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from scorekeeper.i18n.selectors import account_language
from scorekeeper.i18n.services import account_language_set
from scorekeeper.models import AccountSettings

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english_after():
    yield
    translation.activate("en")


def test_the_account_page_offers_every_language_and_the_browser_s(auth_client):
    page = auth_client.get(reverse("account")).content.decode()
    form = re.search(r"<form[^>]*data-account-language.*?</form>", page, re.S).group(0)
    assert f'action="{reverse("set_language")}"' in form
    assert f'name="next" value="{reverse("account")}"' in form
    assert re.findall(r'<option value="(\w*)"', form) == ["", "en", "el", "it", "fr"]
    assert re.search(r'<option value="" selected>', form)  # no choice yet: the browser's
    assert '<label for="account-language">' in form


def test_the_choice_is_kept_and_shown_as_chosen(auth_client, user):
    response = auth_client.post(
        reverse("set_language"), {"language": "fr", "next": reverse("account")}
    )
    assert response.status_code == 302 and response["Location"] == reverse("account")
    assert AccountSettings.objects.get(user=user).language == "fr"
    assert account_language(user) == "fr"
    page = auth_client.get(reverse("account")).content.decode()
    assert re.search(r'<option value="fr" lang="fr" selected>Français</option>', page)


def test_a_visitor_s_choice_keeps_no_account(client):
    client.post(reverse("set_language"), {"language": "it", "next": "/"})
    assert client.cookies["django_language"].value == "it"
    assert not AccountSettings.objects.exists()


def test_the_picker_only_takes_a_post(auth_client, user):
    assert auth_client.get(reverse("set_language"), {"language": "it"}).status_code == 405
    assert not AccountSettings.objects.filter(user=user).exists()


def test_the_service_takes_the_site_s_languages_only(user):
    assert account_language_set(user=user, language="el").language == "el"
    assert account_language_set(user=user, language="").language == ""  # the browser's
    with pytest.raises(ValueError):
        account_language_set(user=user, language="de")
    assert AccountSettings.objects.get(user=user).language == ""


def test_a_language_the_site_no_longer_speaks_is_no_choice(user, settings):
    account_language_set(user=user, language="fr")
    settings.LANGUAGES = [("en", "English"), ("el", "Ελληνικά")]
    assert account_language(user) == ""


def test_an_account_without_settings_has_no_choice(user):
    assert account_language(user) == ""


def test_a_logged_in_visitor_sent_back_to_the_login_goes_home(auth_client):
    """Every page's picker carries ``next``: the login page's own address, sent back to the
    login by someone already logged in, leads home (Django would call it a redirection loop
    and fail with a server error)."""
    login = reverse("login")
    for response in (
        auth_client.get(login, {"next": login}),
        auth_client.post(login, {"next": login}),
    ):
        assert response.status_code == 302 and response["Location"] == reverse("home")
