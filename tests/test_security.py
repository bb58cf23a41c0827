"""What every response carries for safety: the Content-Security-Policy and its nonce, who may
cache a page, compression (and what masks secrets in it), and the error pages, plain and htmx.

The login limit and account deletion are in ``test_accounts``; the health check in
``test_health``; the settings themselves (HSTS, ``check --deploy``) in ``test_settings``.
"""

from __future__ import annotations

import gzip
import json
import re
import zlib

import pytest
from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.http import HttpResponse
from django.middleware.csrf import _unmask_cipher_token
from django.test import Client
from django.urls import path

from scorekeeper import urls as site_urls
from scorekeeper.limits import BODY_MAX
from tests.conftest import HTMX, draft_of

pytestmark = pytest.mark.django_db


# A urlconf with views that fail on purpose, and the site's own pages and error handlers.
def _suspicious(request):
    raise SuspiciousOperation("a test")


def _forbidden(request):
    raise PermissionDenied


def _broken(request):
    raise RuntimeError("a bug")


def _plain(request):
    return HttpResponse("x" * 500)


urlpatterns = [
    path("test/suspicious/", _suspicious),
    path("test/forbidden/", _forbidden),
    path("test/broken/", _broken),
    path("test/plain/", _plain),
    *site_urls.urlpatterns,
]
handler400 = site_urls.handler400
handler403 = site_urls.handler403
handler404 = site_urls.handler404
handler500 = site_urls.handler500


@pytest.fixture
def failing(settings):
    settings.ROOT_URLCONF = __name__


def pages(client, make_match) -> dict[str, str]:
    """Every page a logged-in player reaches, by name."""
    biriba = make_match("biriba", deals=2)
    barbu = make_match("barbu", deals=1)
    return {
        "home": "/",
        "new match": "/matches/new/",
        "scoreboard": f"/matches/{biriba.pk}/",
        "rummy pad": f"/matches/{biriba.pk}/deals/new/",
        "rummy correction": f"/matches/{biriba.pk}/deals/1/edit/",
        "barbu pad": f"/matches/{barbu.pk}/deals/new/",
        "import": "/matches/import/",
        "account": "/accounts/",
        "delete account": "/accounts/delete/",
    }


ANONYMOUS_PAGES = ["/", "/accounts/login/", "/accounts/signup/"]

NONCE = re.compile(r"'nonce-([A-Za-z0-9_-]+)'")


def policy(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    return {
        directive.split()[0]: directive.split()[1:]
        for directive in header.split(";")
        if directive.strip()
    }


def assert_no_inline_code(html: str, where: str) -> None:
    """Nothing the policy would block: no inline script or style, no event attribute."""
    for tag in re.findall(r"<script\b[^>]*>", html):
        assert "src=" in tag, f"{where}: an inline script {tag}"
    assert "<style" not in html, f"{where}: an inline <style>"
    assert not re.search(r"\sstyle=", html), f"{where}: a style attribute"
    assert not re.search(r"\son[a-z]+=", html), f"{where}: an event handler attribute"
    assert "javascript:" not in html, f"{where}: a javascript: address"


def assert_csp(response, where: str) -> None:
    csp = policy(response)
    assert csp["script-src"][0] == "'self'", where
    assert "'unsafe-inline'" not in response["Content-Security-Policy"], where
    assert "'unsafe-eval'" not in response["Content-Security-Policy"], where
    assert csp["style-src"] == ["'self'"] and csp["object-src"] == ["'none'"], where
    html = response.content.decode()
    scripts = re.findall(r"<script\b[^>]*>", html)
    assert scripts, where
    nonce = NONCE.search(response["Content-Security-Policy"])
    htmx = [tag for tag in scripts if "django_htmx/htmx" in tag]
    assert len(htmx) == 1, where
    assert nonce and f'nonce="{nonce.group(1)}"' in htmx[0], f"{where}: htmx without the nonce"
    assert_no_inline_code(html, where)


# --- Content-Security-Policy -------------------------------------------------------------------


def test_every_page_is_sent_with_the_policy_and_htmx_with_its_nonce(auth_client, make_match):
    for name, url in pages(auth_client, make_match).items():
        response = auth_client.get(url)
        assert response.status_code == 200, name
        assert_csp(response, name)


@pytest.mark.parametrize("url", ANONYMOUS_PAGES)
def test_every_anonymous_page_is_sent_with_the_policy(client, url):
    response = client.get(url)
    assert response.status_code == 200
    assert_csp(response, url)


def test_htmx_fragments_carry_no_inline_code_either(auth_client, make_match):
    for name, url in pages(auth_client, make_match).items():
        response = auth_client.get(url, headers=HTMX)
        assert response.status_code == 200, name
        assert_no_inline_code(response.content.decode(), name)
        assert "Content-Security-Policy" in response, name


def test_each_response_has_its_own_nonce(client):
    nonces = {NONCE.search(client.get("/")["Content-Security-Policy"]).group(1) for _ in range(3)}
    assert len(nonces) == 3


def test_htmx_is_configured_to_need_no_inline_style_nor_eval_and_to_swap_errors(client):
    html = client.get("/").content.decode()
    meta = re.search(r"<meta name=\"htmx-config\" content='([^']+)'>", html)
    assert meta, "no htmx-config"
    config = json.loads(meta.group(1))
    assert config["includeIndicatorStyles"] is False
    assert config["allowEval"] is False
    handling = {rule["code"]: rule for rule in config["responseHandling"]}
    assert handling["204"]["swap"] is False
    assert handling["[45].."]["swap"] is True and handling["[45].."]["error"] is True
    # the config comes before htmx reads it
    assert html.index('name="htmx-config"') < html.index("django_htmx/htmx")


def test_our_scripts_are_files_and_htmx_is_ours(client):
    html = client.get("/").content.decode()
    sources = re.findall(r'<script src="([^"]+)"', html)
    assert "/static/scorekeeper/site.js" in sources
    assert all(src.startswith("/static/") for src in sources)


# --- caching ----------------------------------------------------------------------------------


def test_private_pages_are_private_and_asked_for_again(auth_client, make_match):
    for name, url in pages(auth_client, make_match).items():
        for headers in ({}, HTMX):
            response = auth_client.get(url, headers=headers)
            cache = {part.strip() for part in response["Cache-Control"].split(",")}
            assert {"private", "no-cache"} <= cache, (name, headers)
            assert "public" not in cache and "max-age" not in response["Cache-Control"]


def test_a_pad_tap_is_private(auth_client, make_match):
    match = make_match("biriba")
    url = f"/matches/{match.pk}/deals/new/"
    draft = draft_of(auth_client.get(url))
    response = auth_client.post(url, {"draft": draft, "action": "suit:H"}, headers=HTMX)
    assert response.status_code == 200
    assert "private" in response["Cache-Control"] and "no-cache" in response["Cache-Control"]


@pytest.mark.parametrize("url", ANONYMOUS_PAGES)
def test_anonymous_pages_are_private_too(client, url):
    """They hold a CSRF token of their own."""
    assert "private" in client.get(url)["Cache-Control"]


def test_static_files_are_not_marked_private(client):
    response = client.get("/static/scorekeeper/site.css")
    assert response.status_code == 200
    assert "private" not in response.get("Cache-Control", "")


def test_error_pages_are_private(client):
    assert "private" in client.get("/no-such-page/")["Cache-Control"]


# --- compression and BREACH -------------------------------------------------------------------

GZIP = {"Accept-Encoding": "gzip, deflate, br"}


def test_pages_are_gzipped_when_the_client_accepts_it(auth_client, make_match):
    match = make_match("biriba", deals=3)
    url = f"/matches/{match.pk}/"
    response = auth_client.get(url, headers=GZIP)
    assert response["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in response["Vary"]
    html = gzip.decompress(response.content).decode()
    assert "data-deal-count" in html
    plain = auth_client.get(url)
    assert "Content-Encoding" not in plain
    assert len(response.content) < len(plain.content) / 3


def test_a_pad_tap_answer_is_gzipped(auth_client, make_match):
    match = make_match("biriba")
    url = f"/matches/{match.pk}/deals/new/"
    draft = draft_of(auth_client.get(url))
    response = auth_client.post(url, {"draft": draft, "action": "suit:H"}, headers={**HTMX, **GZIP})
    assert response["Content-Encoding"] == "gzip"
    assert 'id="entry"' in gzip.decompress(response.content).decode()


def _gzip_filename(body: bytes) -> bytes:
    """The FNAME field of a gzip member (RFC 1952): where Django puts random bytes."""
    assert body[:3] == b"\x1f\x8b\x08", "not gzip"
    flags = body[3]
    assert flags & 0x08, "no file name field"
    start = 10 + (2 + int.from_bytes(body[10:12], "little") if flags & 0x04 else 0)
    return body[start : body.index(b"\0", start)]


def test_gzip_hides_the_length_of_a_page_with_random_bytes(failing, client):
    """BREACH guesses a secret from how the compressed length changes: Django's GZipMiddleware
    pads each response with a random number of random bytes (gzip's file name field). The same
    unchanging content gives different lengths."""
    bodies = [client.get("/test/plain/", headers=GZIP).content for _ in range(12)]
    assert all(gzip.decompress(body) == b"x" * 500 for body in bodies)
    names = [_gzip_filename(body) for body in bodies]
    assert len(set(names)) > 1 and len({len(name) for name in names}) > 1
    assert len({len(body) for body in bodies}) > 1
    # deflate alone, without the padding, is always the same length
    assert len({len(zlib.compress(b"x" * 500)) for _ in range(12)}) == 1


TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def test_the_csrf_token_is_masked_differently_in_every_response(user):
    """The other half of the BREACH defence: the secret never appears twice the same way."""
    client = Client(enforce_csrf_checks=True)
    first = client.get("/accounts/login/", headers=GZIP)
    cookie = client.cookies["csrftoken"].value
    second = client.get("/accounts/login/", headers=GZIP)
    tokens = [TOKEN.search(gzip.decompress(r.content).decode()).group(1) for r in (first, second)]
    assert tokens[0] != tokens[1]
    assert _unmask_cipher_token(tokens[0]) == _unmask_cipher_token(tokens[1])
    assert client.cookies["csrftoken"].value == cookie  # one secret, masked twice
    assert cookie not in gzip.decompress(second.content).decode()
    # either masked token is accepted
    login = client.post(
        "/accounts/login/",
        {"username": "anna", "password": "pass-word-1234", "csrfmiddlewaretoken": tokens[0]},
    )
    assert login.status_code == 302


# --- error pages ------------------------------------------------------------------------------


def assert_error_page(response, status: int, code: str, *, htmx: bool) -> str:
    assert response.status_code == status
    html = response.content.decode()
    assert f'data-message="{code}"' in html
    assert '<main class="page" id="page">' in html  # the element htmx reselects
    assert_csp(response, code)
    if htmx:
        assert response["HX-Retarget"] == "#page"
        assert response["HX-Reswap"] == "outerHTML"
        assert response["HX-Reselect"] == "#page"
    else:
        assert "HX-Retarget" not in response
    return html


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_400_for_a_request_the_site_cannot_read(failing, client, htmx):
    response = client.get("/test/suspicious/", headers=HTMX if htmx else {})
    html = assert_error_page(response, 400, "bad_request", htmx=htmx)
    assert "The site could not read that" in html
    assert 'href="/test/suspicious/"' in html  # reload the same page


def test_400_for_a_host_the_site_does_not_serve(client):
    response = client.get("/", HTTP_HOST="evil.example")
    html = assert_error_page(response, 400, "bad_request", htmx=False)
    assert "evil.example" not in html
    assert 'href="/"' in html


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_403_for_what_the_account_may_not_do(failing, auth_client, htmx):
    response = auth_client.get("/test/forbidden/", headers=HTMX if htmx else {})
    html = assert_error_page(response, 403, "forbidden", htmx=htmx)
    assert "so nothing was done" in html


def test_403_csrf_says_to_reload_and_that_nothing_kept_is_lost(user, make_match):
    match = make_match("biriba")
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    page = f"http://testserver/matches/{match.pk}/"
    response = client.post(
        f"/matches/{match.pk}/deals/new/", {"action": "suit:H"}, HTTP_REFERER=page
    )
    html = assert_error_page(response, 403, "csrf_failed", htmx=False)
    assert "This page was open from before you last logged in or out" in html
    assert "Reload it and do it again" in html and "is still there" in html
    assert f'href="{page}"' in html  # back to the page that sent it
    assert match.deals.count() == 0


def test_403_csrf_for_htmx_replaces_the_page_and_reloads_where_it_was(user, make_match):
    match = make_match("biriba")
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    entry = f"http://testserver/matches/{match.pk}/deals/new/"
    response = client.post(
        f"/matches/{match.pk}/deals/new/",
        {"action": "suit:H"},
        headers={**HTMX, "HX-Current-URL": entry},
    )
    html = assert_error_page(response, 403, "csrf_failed", htmx=True)
    assert f'href="{entry}"' in html


def test_403_csrf_never_sends_the_player_to_another_site(user):
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    response = client.post(
        "/matches/new/", {}, headers={**HTMX, "HX-Current-URL": "https://evil.example/"}
    )
    html = assert_error_page(response, 403, "csrf_failed", htmx=True)
    assert "evil.example" not in html and 'href="/"' in html


def test_403_csrf_without_a_cookie_mentions_cookies(client):
    strict = Client(enforce_csrf_checks=True)
    html = strict.post("/accounts/login/", {"username": "a", "password": "b"}).content.decode()
    assert "your browser may be refusing this site" in html


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_404(auth_client, htmx):
    response = auth_client.get("/matches/999999/", headers=HTMX if htmx else {})
    html = assert_error_page(response, 404, "not_found", htmx=htmx)
    assert "Nothing here" in html


def test_413_for_a_pad_tap_replaces_the_page(auth_client, make_match):
    match = make_match("biriba")
    response = auth_client.post(
        f"/matches/{match.pk}/deals/new/",
        {"draft": "x" * (BODY_MAX + 1), "action": "suit:H"},
        headers=HTMX,
    )
    html = assert_error_page(response, 413, "request_too_large", htmx=True)
    assert "it accepts at most 256.0\xa0KB" in html


def test_413_for_the_import_form_stays_in_the_form(auth_client):
    """The import page's refusal is its own form again: swapped where the form is."""
    response = auth_client.post("/matches/import/", {"text": "x" * (3 * 1024 * 1024)}, headers=HTMX)
    assert response.status_code == 413
    assert "HX-Retarget" not in response
    assert response.content.decode().lstrip().startswith('<form id="import-form"')


def test_429_on_a_page_other_than_the_login_replaces_the_page(auth_client, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        response = auth_client.post("/accounts/delete/", {"password": "no"}, headers=HTMX)
    html = assert_error_page(response, 429, "login_locked", htmx=True)
    assert "Too many wrong passwords" in html


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_500_says_nothing_was_half_saved(failing, user, htmx):
    client = Client(raise_request_exception=False)
    client.force_login(user)
    response = client.get("/test/broken/", headers=HTMX if htmx else {})
    html = assert_error_page(response, 500, "server_error", htmx=htmx)
    assert "Something went wrong on our side" in html
    assert "nothing of it was half saved" in html
    assert "private" in response["Cache-Control"]


def test_500_is_drawn_even_when_the_request_context_cannot_be(failing, user, monkeypatch):
    """The page uses no context processor: a broken session or database cannot break it."""

    def broken(request):
        raise RuntimeError("the context processor fails too")

    monkeypatch.setattr("django.contrib.auth.context_processors.auth", broken)
    client = Client(raise_request_exception=False)
    response = client.get("/test/broken/")
    assert response.status_code == 500
    assert 'data-message="server_error"' in response.content.decode()
