"""``/healthz``: 200 and a tiny body while the database answers, 503 when it does not; no
session, no cookie, never cached, reachable over plain http when https is enforced."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import OperationalError
from django.test import Client

from scorekeeper import health

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.django_db


def test_the_database_answers(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.content == b"ok\n"
    assert response["Content-Type"].startswith("text/plain")
    assert "no-cache" in response["Cache-Control"] and "no-store" in response["Cache-Control"]


def test_no_session_and_no_cookie_even_for_a_logged_in_player(auth_client):
    response = auth_client.get("/healthz")
    assert response.status_code == 200
    assert not response.cookies
    assert "Set-Cookie" not in response
    assert "Cookie" not in response.get("Vary", "")


def test_head_is_answered_and_a_post_is_not(client):
    assert client.head("/healthz").status_code == 200
    assert client.post("/healthz").status_code == 405


def test_it_is_not_redirected_to_https(client, settings):
    settings.SECURE_SSL_REDIRECT = True
    assert client.get("/healthz").status_code == 200
    home = client.get("/")
    assert home.status_code == 301 and home["Location"].startswith("https://")


def test_a_database_that_fails_gives_503(client, monkeypatch):
    class Broken:
        def __enter__(self):
            raise OperationalError("could not connect to server")

        def __exit__(self, *args):
            return False

    monkeypatch.setattr(health.connection, "cursor", lambda: Broken())
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.content == b"database unavailable\n"


def test_a_sqlite_database_without_its_tables_is_unavailable(client, monkeypatch):
    """``SELECT 1`` alone would pass on any SQLite file, even an empty one made by mistake."""

    def query(sql):
        assert "django_migrations" in sql
        raise OperationalError("no such table: django_migrations")

    class Cursor:
        def __enter__(self):
            return self

        def __exit__(self, *args):
            return False

        execute = staticmethod(query)

    monkeypatch.setattr(health.connection, "cursor", lambda: Cursor())
    assert client.get("/healthz").status_code == 503


PROBE = """
import django
django.setup()
from django.test import Client
response = Client().get("/healthz")
print(response.status_code, response.content.decode().strip())
"""


@pytest.mark.parametrize(
    "url, expected",
    [
        # nothing listens on port 9: the database does not answer
        ("postgres://postgres@127.0.0.1:9/nowhere", "503 database unavailable"),
        # a database with no tables is not one this site can serve from
        ("sqlite:///:memory:", "503 database unavailable"),
    ],
)
def test_a_real_database_that_does_not_answer_gives_503(url, expected):
    env = {k: v for k, v in os.environ.items() if k not in {"PYTEST_VERSION", "DATABASE_URL"}}
    env.update(DEBUG="1", DATABASE_URL=url, DJANGO_SETTINGS_MODULE="scorekeeper.settings")
    run = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, cwd=ROOT, env=env, timeout=60
    )
    assert run.stdout.strip().splitlines()[-1] == expected, run.stderr


def test_a_fresh_client_gets_no_csrf_cookie():
    response = Client().get("/healthz")
    assert response.status_code == 200 and not response.cookies
