"""The settings module is driven by the environment and secure by default."""

import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from django.core.management.utils import get_random_secret_key

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
import json, django
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
try:
    key = settings.SECRET_KEY
except ImproperlyConfigured as e:
    key = "REFUSED: " + str(e)
print(json.dumps({
    "debug": settings.DEBUG, "key": key, "hosts": settings.ALLOWED_HOSTS,
    "engine": settings.DATABASES["default"]["ENGINE"],
    "name": str(settings.DATABASES["default"]["NAME"]),
    "storage": settings.STORAGES["staticfiles"]["BACKEND"],
    "middleware": settings.MIDDLEWARE,
}))
"""


def probe(**env: str) -> dict:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "PYTEST_VERSION"}
    }
    clean.update(env, DJANGO_SETTINGS_MODULE="scorekeeper.settings")
    run = subprocess.run(
        [sys.executable, "-c", PROBE],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=clean,
        check=True,
    )
    return json.loads(run.stdout)


def test_debug_is_off_and_secret_key_is_required_by_default():
    s = probe()
    assert s["debug"] is False
    assert s["key"].startswith("REFUSED")
    assert s["hosts"] == []
    assert s["storage"] == "whitenoise.storage.CompressedManifestStaticFilesStorage"


def test_debug_gives_a_development_key_and_local_hosts():
    s = probe(DEBUG="1")
    assert s["debug"] is True
    assert s["key"] and not s["key"].startswith("REFUSED")
    assert "127.0.0.1" in s["hosts"]


def test_environment_sets_key_hosts_and_database():
    s = probe(
        SECRET_KEY="k" * 50,
        ALLOWED_HOSTS="a.example, b.example",
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/test",
    )
    assert s["key"] == "k" * 50
    assert s["hosts"] == ["a.example", "b.example"]
    assert s["engine"] == "django.db.backends.postgresql"
    assert s["name"] == "test"


def test_sqlite_is_the_default_database():
    s = probe(DEBUG="1")
    assert s["engine"] == "django.db.backends.sqlite3"
    assert s["name"].endswith("db.sqlite3")


def test_whitenoise_follows_security_and_htmx_middleware_is_on():
    mw = probe()["middleware"]
    assert mw[0] == "django.middleware.security.SecurityMiddleware"
    assert mw[1] == "whitenoise.middleware.WhiteNoiseMiddleware"
    assert "django_htmx.middleware.HtmxMiddleware" in mw


#: Set for the test run only (the browser tests' conftest allows the ORM next to Playwright's
#: event loop): no production environment has it, and check --deploy refuses it.
TEST_ONLY = {"DJANGO_ALLOW_ASYNC_UNSAFE"}

PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": get_random_secret_key(),  # 50 random characters
    "ALLOWED_HOSTS": "scores.example.org",
    "SECURE_SSL_REDIRECT": "1",
}


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "SECURE_", "PYTEST_"))
        and k not in {"DATABASE_URL", "CLIENT_IP_HEADER", *TEST_ONLY}
    }
    clean.update(env, DJANGO_SETTINGS_MODULE="scorekeeper.settings")
    return subprocess.run(
        [sys.executable, "manage.py", *args], capture_output=True, text=True, cwd=ROOT, env=clean
    )


def test_check_deploy_is_clean_with_the_production_variables():
    assert len(PRODUCTION["SECRET_KEY"]) == 50
    run = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "System check identified no issues (0 silenced)." in run.stdout
    assert "WARNING" not in run.stderr and "security.W" not in run.stderr


def test_check_deploy_warns_without_the_https_redirect():
    """The check above can fail: without the redirect, check --deploy says so."""
    env = {**PRODUCTION, "SECURE_SSL_REDIRECT": "0"}
    run = manage("check", "--deploy", "--fail-level", "WARNING", **env)
    assert run.returncode != 0 and "security.W008" in run.stderr


SECURITY_PROBE = """
import json, django
from django.conf import settings
django.setup()
print(json.dumps({
    "hsts": settings.SECURE_HSTS_SECONDS,
    "subdomains": settings.SECURE_HSTS_INCLUDE_SUBDOMAINS,
    "preload": settings.SECURE_HSTS_PRELOAD,
    "redirect": settings.SECURE_SSL_REDIRECT,
    "exempt": settings.SECURE_REDIRECT_EXEMPT,
    "proxy": getattr(settings, "SECURE_PROXY_SSL_HEADER", None),
    "cookies": [settings.SESSION_COOKIE_SECURE, settings.CSRF_COOKIE_SECURE],
    "csp": {k: [str(v) for v in vs] for k, vs in settings.SECURE_CSP.items()},
    "axes": [settings.AXES_FAILURE_LIMIT, settings.AXES_COOLOFF_TIME.total_seconds()],
    "backends": settings.AUTHENTICATION_BACKENDS,
    "context": settings.TEMPLATES[0]["OPTIONS"]["context_processors"],
    "csrf_view": settings.CSRF_FAILURE_VIEW,
}))
"""


def security(**env: str) -> dict:
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DEBUG", "SECRET_KEY", "SECURE_", "PYTEST_", "LOGIN_"))
        and k not in TEST_ONLY
    }
    clean.update(env, DJANGO_SETTINGS_MODULE="scorekeeper.settings")
    run = subprocess.run(
        [sys.executable, "-c", SECURITY_PROBE],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=clean,
        check=True,
    )
    return json.loads(run.stdout)


def test_hsts_is_on_without_debug_and_off_with_it():
    s = security()
    assert s["hsts"] == 31_536_000 and s["subdomains"] is True and s["preload"] is True
    assert s["cookies"] == [True, True]
    assert security(DEBUG="1")["hsts"] == 0


def test_hsts_and_its_options_follow_the_environment():
    s = security(
        SECURE_HSTS_SECONDS="3600", SECURE_HSTS_INCLUDE_SUBDOMAINS="0", SECURE_HSTS_PRELOAD="0"
    )
    assert (s["hsts"], s["subdomains"], s["preload"]) == (3600, False, False)


def test_the_tls_proxy_header_is_a_variable_and_off_by_default():
    assert security()["proxy"] is None
    assert security(SECURE_PROXY_SSL_HEADER="X-Forwarded-Proto")["proxy"] == [
        "HTTP_X_FORWARDED_PROTO",
        "https",
    ]


def test_the_health_check_is_exempt_from_the_https_redirect():
    s = security(SECURE_SSL_REDIRECT="1")
    assert s["redirect"] is True
    assert s["exempt"] == ["^healthz$"]


def test_the_content_security_policy_allows_no_inline_script_nor_eval():
    csp = security()["csp"]
    assert csp["script-src"] == ["'self'", "<CSP_NONCE_SENTINEL>"]
    assert csp["style-src"] == ["'self'"]
    assert csp["object-src"] == ["'none'"] and csp["frame-ancestors"] == ["'none'"]
    flat = [value for values in csp.values() for value in values]
    assert "'unsafe-inline'" not in flat and "'unsafe-eval'" not in flat
    assert "django.template.context_processors.csp" in security()["context"]


def test_the_login_limit_follows_the_environment():
    s = security()
    assert s["axes"] == [5, 900.0]
    assert s["backends"][0] == "axes.backends.AxesStandaloneBackend"
    assert security(LOGIN_FAILURE_LIMIT="3", LOGIN_COOLOFF_MINUTES="60")["axes"] == [3, 3600.0]
    assert s["csrf_view"] == "scorekeeper.errors.csrf_failure"


def test_the_middleware_order_keeps_the_size_limit_last():
    mw = probe()["middleware"]
    assert mw[-1] == "scorekeeper.limits.request_size_limit"
    assert "django.middleware.csp.ContentSecurityPolicyMiddleware" in mw
    assert "axes.middleware.AxesMiddleware" in mw
    # pages are compressed after WhiteNoise (which serves static files compressed already)
    assert mw.index("django.middleware.gzip.GZipMiddleware") == 3
    # every middleware that draws or changes a page sits inside the compression
    assert mw.index("scorekeeper.middleware.private_pages") > 3
    assert mw.index("scorekeeper.middleware.htmx_errors") > mw.index(
        "django_htmx.middleware.HtmxMiddleware"
    )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_make_serve_migrates_collects_and_starts_gunicorn(tmp_path):
    """The documented production command, as a club would run it (SQLite, two workers, behind
    a TLS proxy): the health check answers over plain http, pages are sent to https."""
    port = _free_port()
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DEBUG", "SECURE_", "PYTEST_", "GUNICORN", "MAKE"))
        and k not in {"DATABASE_URL", "MAKEFLAGS", "MFLAGS", *TEST_ONLY}
    }
    env.update(
        SECRET_KEY=get_random_secret_key(),
        ALLOWED_HOSTS="scores.example.org",
        SECURE_SSL_REDIRECT="1",
        SECURE_PROXY_SSL_HEADER="X-Forwarded-Proto",
        DATABASE_URL=f"sqlite:///{tmp_path / 'club.sqlite3'}",
        HOST="127.0.0.1",
        PORT=str(port),
        WEB_CONCURRENCY="2",
    )
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        # -o: the virtualenv counts as installed (the test runs in it), nothing is reinstalled
        server = subprocess.Popen(
            ["make", "--no-print-directory", "-o", ".venv/.installed", "serve"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            answer = None
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline and server.poll() is None:
                try:
                    request = urllib.request.Request(
                        f"http://127.0.0.1:{port}/healthz", headers={"Host": "scores.example.org"}
                    )
                    with urllib.request.urlopen(request, timeout=5) as response:
                        answer = (response.status, response.headers["Server"], response.read())
                        break
                except OSError:
                    time.sleep(0.5)
            home = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            home.request("GET", "/", headers={"Host": "scores.example.org"})
            redirect = home.getresponse()
            proxied = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            proxied.request(
                "GET", "/", headers={"Host": "scores.example.org", "X-Forwarded-Proto": "https"}
            )
            served = proxied.getresponse()
        finally:
            if server.poll() is None:
                os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)
    output = log.read_text()
    assert answer is not None, output
    status, software, body = answer
    assert (status, body) == (200, b"ok\n")
    assert software.startswith("gunicorn")
    assert "Applying scorekeeper.0001_initial... OK" in output
    # "1 static file copied" when only one changed since the last run in this checkout
    assert re.search(r"\d+ static files? copied", output), output
    assert "System check identified no issues" in output  # check --deploy
    assert redirect.status == 301
    assert redirect.getheader("Location") == "https://scores.example.org/"
    assert served.status == 200 and "max-age=31536000" in served.getheader(
        "Strict-Transport-Security"
    )
    assert output.count("Booting worker with pid") == 2
    assert f"Listening at: http://127.0.0.1:{port}" in output
