"""Settings of the conformance OAuth 2.0 server (django-oauth-toolkit on SQLite).

A test server for loopback only: see ../README.md for what it is and the
environment variables read here.
"""
import os
import secrets

from django.core.exceptions import ImproperlyConfigured


def _env_int(name, default):
    value = os.environ.get(name, "")
    try:
        return int(value) if value else default
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, not {value!r}")


# The database must live where the harness says (its state directory), never in the
# source tree.
DATABASE_PATH = os.environ.get("OAUTH_SERVER_DB", "")
if not DATABASE_PATH:
    raise ImproperlyConfigured(
        "OAUTH_SERVER_DB is not set: give the path of the SQLite database file "
        "(scripts/lib/oauth-server.sh start puts it in the state directory)"
    )

# Only sessions and CSRF tokens (neither of which the tests use) depend on it; OAuth
# tokens are random strings stored in the database.
SECRET_KEY = os.environ.get("OAUTH_SERVER_SECRET_KEY") or secrets.token_urlsafe(50)
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "rest_framework",
    "oauth2_provider",
    "conformance",
]

MIDDLEWARE = [
    # First, so that it sees every request and the final response (counters).
    "conformance.middleware.CountingMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",  # APPEND_SLASH: /o/token -> 301 /o/token/
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
]

ROOT_URLCONF = "conformance_server.urls"
WSGI_APPLICATION = "conformance_server.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {"context_processors": ["django.template.context_processors.request"]},
    }
]

# SQLite under concurrent requests: WAL lets readers run beside the one writer, the
# 20 s busy timeout makes a writer wait for the lock instead of failing with
# "database is locked", and IMMEDIATE transactions take the write lock when the
# transaction starts (a deferred transaction that first reads and then writes can
# fail at once, busy timeout or not).
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": DATABASE_PATH,
        "CONN_MAX_AGE": 600,
        "OPTIONS": {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        },
    }
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Django's default (PBKDF2, about a million rounds) costs ~0.3 s of CPU per check, and
# DOT checks the hashed client secret on every token request and the user's password
# on every password grant. A test server on 2 shared cores uses the fast salted MD5
# hasher Django's docs recommend for tests; what goes over the wire does not change.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

USE_TZ = True
TIME_ZONE = "UTC"
LANGUAGE_CODE = "en-us"
USE_I18N = False

# Kept at Django's default on purpose: a slash-less URL answers 301 to the slashed one.
APPEND_SLASH = True

LOGIN_URL = "/accounts/login/"  # not served: only the token endpoint's grants are tested

OAUTH2_PROVIDER = {
    "ACCESS_TOKEN_EXPIRE_SECONDS": _env_int("OAUTH_ACCESS_TOKEN_SECONDS", 5),
    # None: refresh tokens do not expire by age (they die by rotation or revocation).
    "REFRESH_TOKEN_EXPIRE_SECONDS": _env_int("OAUTH_REFRESH_TOKEN_SECONDS", 0) or None,
    "ROTATE_REFRESH_TOKEN": True,
    # Presenting a refresh token that was already rotated revokes its whole family
    # (every refresh token descended from the same password grant).
    "REFRESH_TOKEN_REUSE_PROTECTION": True,
    # No grace period: a rotated refresh token is dead at once, even for a retry.
    "REFRESH_TOKEN_GRACE_PERIOD_SECONDS": 0,
    "SCOPES": {"read": "Read scope", "write": "Write scope"},
    # The resource owner password grant stays allowed (RFC 9700 discourages it; DOT
    # 3.x allows it while this gate is False and says it will flip in 4.0).
    "COMPLIANT_BCP_RFC9700_PASSWORD_GRANT": False,
}

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "oauth2_provider.contrib.rest_framework.OAuth2Authentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
}

# Errors (a 500's traceback) go to stderr, i.e. the server log; DOT's per-request
# "password grant is discouraged" warning does not.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"stderr": {"class": "logging.StreamHandler"}},
    "loggers": {
        "django": {"handlers": ["stderr"], "level": "ERROR"},
        "oauth2_provider": {"handlers": ["stderr"], "level": "ERROR", "propagate": False},
    },
}
