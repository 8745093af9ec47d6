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

# Django's own login form (conformance/templates/registration/login.html): the user the
# conformance tests play signs in here before DOT's consent and device views.
LOGIN_URL = "/accounts/login/"

# Where the server listens (scripts/lib/oauth-server.sh), for the absolute URLs DOT hands
# out without a request at hand: the device flow's verification URI.
SERVER_PORT = _env_int("OAUTH_SERVER_PORT", 0)
SERVER_URL = f"http://127.0.0.1:{SERVER_PORT}" if SERVER_PORT else ""


def _oidc_private_key():
    """The PEM of the RSA key that signs ID tokens: generated per state directory by
    scripts/lib/oauth-server.sh start (never committed), its path in OAUTH_OIDC_KEY_FILE."""
    path = os.environ.get("OAUTH_OIDC_KEY_FILE", "")
    if not path:
        raise ImproperlyConfigured(
            "OAUTH_OIDC_KEY_FILE is not set: give the path of the RSA private key (PEM) that signs "
            "ID tokens (scripts/lib/oauth-server.sh start generates one in the state directory)"
        )
    try:
        with open(path) as f:
            return f.read()
    except OSError as e:
        raise ImproperlyConfigured(f"OAUTH_OIDC_KEY_FILE {path!r} cannot be read: {e.strerror}")

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
    "SCOPES": {"openid": "OpenID Connect", "profile": "Profile", "read": "Read scope", "write": "Write scope"},
    # What a token request without `scope` gets (the password-grant client's tokens stay
    # "read write"; `openid` is asked for explicitly).
    "DEFAULT_SCOPES": ["read", "write"],
    # OpenID Connect: ID tokens signed RS256 with the generated key, discovery at
    # /o/.well-known/openid-configuration, userinfo at /o/userinfo/.
    "OIDC_ENABLED": True,
    "OIDC_RSA_PRIVATE_KEY": _oidc_private_key(),
    "OAUTH2_VALIDATOR_CLASS": "conformance.validators.ConformanceValidator",
    # The authorization-code grant needs PKCE, S256 only (RFC 9700 2.1.1).
    "PKCE_REQUIRED": True,
    "COMPLIANT_BCP_RFC9700_PKCE_METHOD": True,
    # The device authorization grant (RFC 8628): the polling interval in seconds (1 unless
    # OAUTH_DEVICE_INTERVAL_SECONDS says otherwise), the verification URI the device shows,
    # and the one with the code filled in. Codes live 30 minutes (oauthlib's fixed default);
    # the tests expire one with POST /test/expire-device-codes instead of waiting.
    "DEVICE_FLOW_INTERVAL": _env_int("OAUTH_DEVICE_INTERVAL_SECONDS", 1),
    "OAUTH_DEVICE_VERIFICATION_URI": f"{SERVER_URL}/o/device/",
    "OAUTH_DEVICE_VERIFICATION_URI_COMPLETE": f"{SERVER_URL}/o/device/?user_code={{user_code}}",
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
