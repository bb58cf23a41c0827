"""The settings module is driven by the environment and secure by default."""

import json
import os
import subprocess
import sys
from pathlib import Path

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
