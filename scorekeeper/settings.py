"""The one settings module, driven by environment variables and secure by default.

DEBUG           off unless set to 1/true/yes/on
SECRET_KEY      required unless DEBUG is on (a development key is used then)
ALLOWED_HOSTS   comma-separated; with DEBUG on, localhost names are allowed by default
DATABASE_URL    e.g. postgres://postgres@127.0.0.1:5432/test; default: SQLite file db.sqlite3

Behind HTTPS (README, "Running in production", lists every variable with its default):
SECURE_SSL_REDIRECT             1 to redirect plain http to https (off by default)
SECURE_PROXY_SSL_HEADER         the header a TLS-terminating proxy sets, e.g. X-Forwarded-Proto
SECURE_HSTS_SECONDS             Strict-Transport-Security max-age (a year without DEBUG)
SECURE_HSTS_INCLUDE_SUBDOMAINS  on by default
SECURE_HSTS_PRELOAD             on by default
SECURE_COOKIES                  cookies sent over https only (on without DEBUG)
CLIENT_IP_HEADER                the header the proxy puts the player's address in, e.g.
                                X-Forwarded-For (its last entry is taken), for the login limit
LOGIN_FAILURE_LIMIT             wrong passwords in a row that lock an account from an address (5)
LOGIN_COOLOFF_MINUTES           how long such a lock lasts (15)
"""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.utils.csp import CSP

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name, "")
    if not value.strip():
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    return int(value) if value else default


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name, "")
    if not value.strip():
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DEBUG = env_bool("DEBUG")

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY and (DEBUG or "PYTEST_VERSION" in os.environ):
    SECRET_KEY = "django-insecure-development-key-only-used-when-DEBUG-is-on"
# Otherwise it stays empty: Django then refuses anything that signs (sessions, CSRF, the site)
# with "The SECRET_KEY setting must not be empty", while commands that sign nothing (score,
# migrate) still run.

ALLOWED_HOSTS = env_list(
    "ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"] if DEBUG else []
)
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "axes",
    "scorekeeper.apps.ScorekeeperConfig",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    # After WhiteNoise, which serves static files compressed ahead of time: the pages are
    # compressed here, with Django's random gzip file name against BREACH.
    "django.middleware.gzip.GZipMiddleware",
    "scorekeeper.middleware.private_pages",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # The language as spoken: English where a catalogue is not compiled, an account's own
    # choice from its login on (scorekeeper/i18n/).
    "scorekeeper.i18n.middleware.language",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "scorekeeper.middleware.htmx_errors",
    # Turns a login refused by the limit on attempts into the page that says so.
    "axes.middleware.AxesMiddleware",
    # An oversized body is refused before anything reads it: the CSRF check reads the body
    # in process_view, which runs after every middleware's own call has begun.
    "scorekeeper.limits.request_size_limit",
]

ROOT_URLCONF = "scorekeeper.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.csp",
            ],
        },
    },
]

WSGI_APPLICATION = "scorekeeper.wsgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        # Persistent connections (a PostgreSQL connection costs 4-5 ms a request to open),
        # each checked before a request reuses it: a connection the server closed meanwhile
        # is opened anew instead of failing the request. CONN_MAX_AGE=0 opens one a request.
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite as a real embedded database for several server processes: write-ahead logging
    # (readers never wait for the writer), a writer waits up to 20 s for the lock instead of
    # failing with "database is locked", and every transaction takes the write lock when it
    # begins (IMMEDIATE): a transaction that reads and then writes can never be refused the
    # lock halfway, which the busy timeout cannot cure.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
        }
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTHENTICATION_BACKENDS = [
    # Refuses a login while its account is locked from that address (django-axes).
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("el", "Ελληνικά"), ("it", "Italiano"), ("fr", "Français")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Numbers and dates in each language's form (Django's), but English groups thousands with a
# thin space as a score pad does (1 245): scorekeeper/formats/.
FORMAT_MODULE_PATH = ["scorekeeper.formats"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = DEBUG

SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
# The visitor's language (the picker, scorekeeper/i18n/), sent like the other cookies.
LANGUAGE_COOKIE_SECURE = SESSION_COOKIE_SECURE
LANGUAGE_COOKIE_SAMESITE = "Lax"
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
# A proxy or a load balancer asks for /healthz over plain http.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
# HTTPS only, remembered by the browser: on whenever DEBUG is off (a browser ignores it over
# plain http, so a club serving its own network without TLS loses nothing).
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 365 * 24 * 3600)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
# A TLS-terminating proxy in front (nginx, Caddy, a platform's router) tells the site that the
# request came over https with this header; set it only when the proxy always sets or strips it.
_proxy_ssl_header = os.environ.get("SECURE_PROXY_SSL_HEADER", "").strip()
if _proxy_ssl_header:
    SECURE_PROXY_SSL_HEADER = (
        "HTTP_" + _proxy_ssl_header.upper().replace("-", "_"),
        "https",
    )
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
CSRF_FAILURE_VIEW = "scorekeeper.errors.csrf_failure"

# Content-Security-Policy, enforced: scripts only from our own files, htmx with the page's
# nonce (django-htmx's {% htmx_script %}); no inline script, no eval, no inline style (htmx is
# told not to insert its indicator style, base.html's htmx-config).
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "font-src": [CSP.SELF],
    "connect-src": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "object-src": [CSP.NONE],
}

# Login attempts (django-axes): an account is locked from one address after
# LOGIN_FAILURE_LIMIT wrong passwords in a row, for LOGIN_COOLOFF_MINUTES; the same account
# from another address, and other accounts from that address, can still log in. The lock
# counts in the database, so every server process sees it.
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("LOGIN_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# A try while locked does not push the end of the lock further: the page can say when it ends.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
# Failed attempts are kept (for the lock) until they expire; successful logins are not logged:
# the site has no use for a list of every player's addresses.
AXES_DISABLE_ACCESS_LOG = True
AXES_LOCKOUT_CALLABLE = "scorekeeper.accounts.lockout.lockout_response"
AXES_CLIENT_IP_CALLABLE = "scorekeeper.accounts.lockout.client_address"
AXES_USERNAME_CALLABLE = "scorekeeper.accounts.lockout.client_username"
CLIENT_IP_HEADER = os.environ.get("CLIENT_IP_HEADER", "").strip()

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
