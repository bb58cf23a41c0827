"""Signing up from a share link keeps the match (scorekeeper/views.py ``signup``): the join page
offers "Sign up to join" beside "Log in", the login page's Sign up link carries ``next``, the
signup form keeps it in a hidden field, and the new account goes there, when it is a page of
this site (never an open redirect), plain and htmx."""

from __future__ import annotations

import html
import re
from urllib.parse import parse_qs, quote, urlsplit

import pytest
from django.urls import reverse

from scorekeeper.models import MatchMember
from scorekeeper.sharing import services as sharing
from tests.conftest import HTMX

pytestmark = pytest.mark.django_db

SIGNUP = reverse("signup")
PASSWORD = "a-long-pass-phrase"


def account(username: str = "chris", **extra: str) -> dict[str, str]:
    return {"username": username, "password1": PASSWORD, "password2": PASSWORD} | extra


def hrefs(response) -> list[str]:
    return [html.unescape(h) for h in re.findall(r'href="([^"]*)"', response.content.decode())]


def nexts(response, path: str) -> list[str | None]:
    """The ``next`` of each link of the page to ``path`` (None: a link without one)."""
    found = []
    for href in hrefs(response):
        parts = urlsplit(href)
        if parts.path == path:
            found.append(parse_qs(parts.query).get("next", [None])[0])
    return found


def hidden_next(response) -> str | None:
    """The ``next`` the signup form sends (the language picker's own is not it)."""
    form = response.content.decode().split('id="auth-form"', 1)[1].split("</form>", 1)[0]
    found = re.search(r'<input type="hidden" name="next" value="([^"]*)"', form)
    return html.unescape(found.group(1)) if found else None


@pytest.fixture
def join_path(make_match) -> str:
    match = make_match("biriba")
    link = sharing.share_link_get_or_create(match=match, kind="score")
    return reverse("join", args=[link.token])


def test_the_join_page_offers_sign_up_to_join_beside_log_in(client, join_path):
    page = client.get(join_path)
    assert page.status_code == 200
    assert join_path in nexts(page, reverse("login"))
    assert join_path in nexts(page, SIGNUP)  # beside the top bar's own (without next)
    assert "Sign up to join" in page.content.decode()


def test_the_login_pages_sign_up_link_carries_next(client, join_path):
    page = client.get(reverse("login"), {"next": join_path})
    assert join_path in nexts(page, SIGNUP)
    assert None in nexts(client.get(reverse("login")), SIGNUP)  # without next: plain


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_signing_up_from_a_share_link_goes_back_to_the_match(
    client, join_path, django_user_model, headers
):
    form = client.get(SIGNUP, {"next": join_path})
    assert hidden_next(form) == join_path
    assert join_path in nexts(form, reverse("login"))  # and back to log in with it
    response = client.post(SIGNUP, account(next=join_path), headers=headers)
    if headers:
        assert response["HX-Redirect"] == join_path
    else:
        assert response.status_code == 302 and response["Location"] == join_path
    user = django_user_model.objects.get(username="chris")
    page = client.get(join_path)
    text = page.content.decode()
    assert "Welcome, <bdi>chris</bdi>! Your account is ready." in text
    assert "Start your first match" not in text
    assert "You join as" in text  # the join page, as the new account
    joined = client.post(join_path, {})
    assert joined.status_code == 302
    assert MatchMember.objects.filter(user=user).exists()


def test_a_refused_signup_keeps_next(client, join_path):
    data = account(next=join_path) | {"password2": "something-else"}
    for headers in ({}, HTMX):
        refused = client.post(SIGNUP, data, headers=headers)
        assert refused.status_code == 200 and refused.context["form"].errors
        assert hidden_next(refused) == join_path


def test_signing_up_without_next_still_starts_a_first_match(client):
    response = client.post(SIGNUP, account())
    assert response["Location"] == reverse("match_new")
    page = client.get(reverse("match_new"))
    assert "Welcome, <bdi>chris</bdi>! Start your first match." in page.content.decode()


OUTSIDE = [
    "https://evil.example/join/x/",
    "//evil.example/join/x/",
    "///evil.example/",
    "/\\evil.example/",
    "\\\\evil.example/",
    "http:evil.example",
    "javascript:alert(1)",
    "https://testserver.evil.example/",
    " https://evil.example/",
]


@pytest.mark.parametrize("target", OUTSIDE)
@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_a_next_outside_the_site_is_never_followed(client, target, headers):
    form = client.get(SIGNUP, {"next": target})
    assert hidden_next(form) is None
    assert "evil" not in "".join(hrefs(form))
    for sent in ({"next": target}, {}):  # in the form, or in the address it was posted to
        client.logout()
        name = f"u{len(target)}{'q' if sent else 'f'}"
        url = SIGNUP if sent else f"{SIGNUP}?next={quote(target)}"
        response = client.post(url, account(name, **sent), headers=headers)
        where = response["HX-Redirect"] if headers else response["Location"]
        assert where == reverse("match_new"), target


def test_the_login_page_never_offers_a_next_outside_the_site(client):
    page = client.get(reverse("login"), {"next": "https://evil.example/"})
    assert "evil" not in "".join(hrefs(page))


def test_a_logged_in_visitor_on_the_signup_page_goes_on_to_next(auth_client, join_path):
    response = auth_client.get(SIGNUP, {"next": join_path})
    assert response.status_code == 302 and response["Location"] == join_path
    response = auth_client.get(SIGNUP, {"next": "//evil.example/"})
    assert response["Location"] == reverse("home")


def test_a_next_that_is_the_signup_page_itself_is_no_loop(client):
    response = client.post(SIGNUP, account(next=SIGNUP))
    assert response["Location"] == reverse("match_new")


@pytest.mark.parametrize("target", ["0", "home", "match_new", "matches/1/"])
def test_a_next_that_is_no_path_goes_home_never_to_a_view_by_its_name(client, user, target):
    """The fuzz test: a logged-in visitor posting next=0 got a server error (redirect() took
    "0" for a view's name)."""
    client.force_login(user)
    response = client.post(reverse("signup"), {"next": target})
    assert response.status_code == 302 and response["Location"] == reverse("home")
