"""The site speaks each language once its catalogues are compiled: the browser's language
first, the picker's choice over it (remembered in the language cookie), an account's choice
on every device it logs in on; ``<html lang>`` always the language the page was drawn in,
and the numbers and dates in that language's form."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import formats, timezone, translation
from django.utils.translation import gettext

from scorekeeper.models import AccountSettings
from scorekeeper.templatetags.score_tags import points, signed
from tests.i18n.catalogues import TRANSLATED

pytestmark = pytest.mark.django_db

COOKIE = "django_language"


def said(language: str, message: str) -> str:
    """``message`` in ``language``, from the compiled catalogue."""
    with translation.override(language):
        return gettext(message)


def lang_of(response) -> str:
    found = re.search(r'<html lang="([^"]*)" dir="(ltr|rtl)">', response.content.decode())
    assert found, "no <html lang dir>"
    return found.group(1)


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_browser_s_language_first(client, speaking, language):
    response = client.get("/", headers={"accept-language": f"{language},en;q=0.5"})
    assert lang_of(response) == language
    assert response["Content-Language"] == language
    page = response.content.decode()
    for message in ("Log in", "Sign up"):
        assert said(language, message) != message
        assert said(language, message) in page


def test_a_language_the_site_does_not_speak_is_english(client, speaking):
    response = client.get("/", headers={"accept-language": "de-DE,de;q=0.9"})
    assert lang_of(response) == "en"
    assert "Log in" in response.content.decode()


def test_a_language_without_its_compiled_catalogue_is_not_claimed(client, settings, tmp_path):
    """Before ``make install`` compiles them, a Greek phone gets an English page that says
    it is English (Django's own catalogue for Greek alone would make it claim ``el``)."""
    settings.LOCALE_PATHS = [tmp_path]
    response = client.get("/", headers={"accept-language": "el"})
    assert lang_of(response) == "en"
    assert "Log in" in response.content.decode()


def test_the_picker_is_a_plain_form_of_every_language(client, speaking):
    page = client.get("/", headers={"accept-language": "el"}).content.decode()
    form = re.search(r"<form[^>]*data-language-picker.*?</form>", page, re.S).group(0)
    assert 'method="post"' in form and f'action="{reverse("set_language")}"' in form
    assert 'name="csrfmiddlewaretoken"' in form and 'name="next" value="/"' in form
    assert re.findall(r'data-language="(\w+)"', form) == ["en", "el", "it", "fr"]
    assert re.findall(r'value="(\w+)"[^>]*aria-current="true"', form) == ["el"]
    assert 'lang="el" title="Ελληνικά"' in form  # each named in its own language


def test_the_picker_switches_and_remembers(client, speaking):
    page = reverse("signup")
    response = client.post(
        reverse("set_language"),
        {"language": "it", "next": page},
        headers={"accept-language": "el"},
    )
    assert response.status_code == 302 and response["Location"] == page
    assert client.cookies[COOKIE].value == "it"
    response = client.get("/", headers={"accept-language": "el"})  # the choice over the browser's
    assert lang_of(response) == "it"
    assert said("it", "Log in") in response.content.decode()


def test_the_language_picked_before_signing_up_is_the_new_account_s(client, speaking):
    from django.contrib.auth import get_user_model

    client.post(reverse("set_language"), {"language": "it", "next": reverse("signup")})
    password = "a-long-enough-password-1"
    response = client.post(
        reverse("signup"), {"username": "marco", "password1": password, "password2": password}
    )
    assert response.status_code == 302
    marco = get_user_model().objects.get(username="marco")
    assert AccountSettings.objects.get(user=marco).language == "it"
    # on another device, a Greek browser: the account's language
    device = Client()
    device.post(reverse("login"), {"username": "marco", "password": password})
    assert lang_of(device.get("/", headers={"accept-language": "el"})) == "it"
    # a visitor who chose nothing keeps the browser's language, the account none of its own
    Client().post(
        reverse("signup"), {"username": "eleni", "password1": password, "password2": password}
    )
    eleni = get_user_model().objects.get(username="eleni")
    assert not AccountSettings.objects.filter(user=eleni, language__gt="").exists()


def test_the_picker_is_checked_against_forgery(speaking):
    client = Client(enforce_csrf_checks=True)
    response = client.post(reverse("set_language"), {"language": "it", "next": "/"})
    assert response.status_code == 403
    assert COOKIE not in client.cookies


def test_the_picker_never_leads_elsewhere(client, speaking):
    response = client.post(
        reverse("set_language"), {"language": "fr", "next": "https://example.com/"}
    )
    assert response.status_code == 302 and response["Location"] == "/"


def test_the_picker_keeps_an_account_s_choice(auth_client, user, speaking):
    auth_client.post(reverse("set_language"), {"language": "fr", "next": "/"})
    assert AccountSettings.objects.get(user=user).language == "fr"
    assert lang_of(auth_client.get("/")) == "fr"


def test_an_unknown_language_changes_nothing(auth_client, user, speaking):
    auth_client.post(reverse("set_language"), {"language": "fr", "next": "/"})
    response = auth_client.post(reverse("set_language"), {"language": "xx", "next": "/"})
    assert response.status_code == 302
    assert AccountSettings.objects.get(user=user).language == "fr"
    assert auth_client.cookies[COOKIE].value == "fr"


def _log_in(client: Client):
    return client.post(
        reverse("login"),
        {"username": "anna", "password": "pass-word-1234"},
        headers={"accept-language": "el"},
    )


def test_an_account_s_choice_on_any_device_it_logs_in_on(user, speaking):
    AccountSettings.objects.create(user=user, language="it")
    for device in (Client(), Client()):  # no cookie on either, a Greek browser
        response = _log_in(device)
        assert response.status_code == 302
        assert device.cookies[COOKIE].value == "it"
        response = device.get("/", headers={"accept-language": "el"})
        assert lang_of(response) == "it"
        assert said("it", "New match") in response.content.decode()


def test_an_account_without_a_choice_keeps_the_browser_s_language(user, speaking):
    device = Client()
    _log_in(device)
    assert COOKIE not in device.cookies
    assert lang_of(device.get("/", headers={"accept-language": "el"})) == "el"


def test_the_account_page_takes_back_the_choice(auth_client, user, speaking):
    auth_client.post(reverse("set_language"), {"language": "el", "next": "/"})
    page = auth_client.get(reverse("account")).content.decode()
    assert re.search(r'<option value="el" lang="el" selected>Ελληνικά</option>', page)
    response = auth_client.post(
        reverse("set_language"), {"language": "", "next": reverse("account")}
    )
    assert response["Location"] == reverse("account")
    assert AccountSettings.objects.get(user=user).language == ""
    assert auth_client.cookies[COOKIE].value == ""  # deleted: the browser's language again
    assert lang_of(auth_client.get("/", headers={"accept-language": "fr"})) == "fr"


@pytest.mark.parametrize(
    ("language", "expected"),
    [("en", "−1\u2009245"), ("el", "−1.245"), ("it", "−1.245"), ("fr", "−1\xa0245")],
)
def test_numbers_in_the_language_s_form_with_a_real_minus(speaking, language, expected):
    with translation.override(language):
        assert points(-1245) == expected
        assert signed(1245) == "+" + expected[1:]
        assert points(999) == "999" and signed(-20) == "−20" and signed(0) == "0"


def test_a_page_s_dates_are_in_its_language(auth_client, make_match, speaking):
    match = make_match("biriba", deals=1)
    with translation.override("it"):
        day = formats.date_format(timezone.localtime(match.updated), "MONTH_DAY_FORMAT")
    assert re.search(r"[a-z]", day)  # the month by its Italian name
    page = auth_client.get("/", headers={"accept-language": "it"}).content.decode()
    assert day in page
    with translation.override("en"):
        assert formats.date_format(timezone.localtime(match.updated), "MONTH_DAY_FORMAT") in (
            auth_client.get("/").content.decode()
        )


@pytest.mark.parametrize(
    ("language", "date", "month_day", "date_time"),
    [
        ("el", "2 Δεκεμβρίου 2026", "2 Δεκεμβρίου", "2 Δεκεμβρίου 2026 13:38"),
        ("it", "2 dicembre 2026", "2 dicembre", "2 dicembre 2026 13:38"),
        ("fr", "2 décembre 2026", "2 décembre", "2 décembre 2026 13:38"),
        ("en", "2 Dec 2026", "2 Dec", "2 Dec 2026 13:38"),
    ],
)
def test_a_date_as_the_language_writes_it(speaking, language, date, month_day, date_time):
    """The month in Greek's genitive, in Italian's lower case, never a leading zero; the
    24-hour clock in every language (Django's Greek 12-hour time ended a sentence in '..')."""
    import datetime

    when = datetime.datetime(2026, 12, 2, 13, 38)
    with translation.override(language):
        assert formats.date_format(when, "DATE_FORMAT") == date
        assert formats.date_format(when, "MONTH_DAY_FORMAT") == month_day
        assert formats.date_format(when, "DATETIME_FORMAT") == date_time


@pytest.mark.parametrize("language", ["el", "it", "fr"])
def test_a_short_password_is_refused_in_the_page_s_language(client, speaking, language):
    response = client.post(
        reverse("signup"),
        {"username": "marco", "password1": "ab1", "password2": "ab1"},
        headers={"accept-language": language},
    )
    assert response.status_code == 200
    assert "This password is too short" not in response.content.decode()
