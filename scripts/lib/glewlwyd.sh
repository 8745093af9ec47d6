#!/usr/bin/env bash
# shellcheck shell=bash
# shellcheck disable=SC1091  # it sources the state file it writes at run time
# The conformance tests' second third-party server: glewlwyd, Debian's OpenID Connect
# provider (a C program, package `glewlwyd`, 2.7.5 in bookworm), run on loopback with a
# configuration and a SQLite database of its own. Usable as a command and as a sourced library.
#
#   scripts/lib/glewlwyd.sh start  STATE_DIR
#   scripts/lib/glewlwyd.sh stop   STATE_DIR
#   scripts/lib/glewlwyd.sh status STATE_DIR       # exit 0 when it runs
#
#   source scripts/lib/glewlwyd.sh
#   glewlwyd_start "$work/glewlwyd" || exit 1
#   . "$work/glewlwyd/env"                 # APP_GLEWLWYD_ISSUER, APP_GLEWLWYD_USERNAME, ...
#   trap 'glewlwyd_stop "$work/glewlwyd"' EXIT
#
# Installing it (as root; `.ci/run` does this when it is missing): its post-install step exits
# 2 with the package's defaults (it falls into its PostgreSQL branch), unless debconf is told
# first that there is no configuration to make:
#
#   echo 'glewlwyd glewlwyd/config_type select No configuration' | debconf-set-selections
#   echo 'glewlwyd glewlwyd/dbconfig-install boolean false' | debconf-set-selections
#   DEBIAN_FRONTEND=noninteractive apt-get install -y glewlwyd
#
# Commands (functions glewlwyd_start, _stop, _status):
#   start STATE_DIR
#       Makes a fresh SQLite database in STATE_DIR from the package's init.sqlite3.sql and a
#       configuration file (STATE_DIR/glewlwyd.conf), starts `glewlwyd` in the foreground of a
#       process of its own on a free 127.0.0.1 port, waits until it answers, then, through its
#       admin REST API as the default admin of the init SQL: creates the OpenID Connect plugin
#       instance `oidc` (tokens signed HS256 with a random key; access tokens live
#       $GLEWLWYD_ACCESS_TOKEN_SECONDS; one-use refresh tokens, `refresh-token-one-use:
#       always`, so a refresh token presented twice disables its chain; PKCE S256; the device
#       grant polled every second; `allow-non-oidc` for client credentials), the scope
#       `conformance`, the user `conformance` (random password), the public
#       authorization-code client `sdk-browser` (redirect URI exactly
#       http://127.0.0.1:REDIRECT_PORT/callback, REDIRECT_PORT a port that was free, below the
#       ephemeral range), the public device client `sdk-device` and the confidential
#       client-credentials client `sdk-service` (random secret, scope `conformance`); then
#       gives the admin a random password (STATE_DIR/admin-password, mode 600) and waits for
#       the discovery document.
#       Writes STATE_DIR/env:
#           APP_GLEWLWYD_URL=http://127.0.0.1:PORT
#           APP_GLEWLWYD_ISSUER=http://127.0.0.1:PORT/api/oidc
#           APP_GLEWLWYD_USERNAME=conformance
#           APP_GLEWLWYD_PASSWORD=...
#           APP_GLEWLWYD_BROWSER_CLIENT_ID=sdk-browser
#           APP_GLEWLWYD_REDIRECT_PORT=REDIRECT_PORT
#           APP_GLEWLWYD_DEVICE_CLIENT_ID=sdk-device
#           APP_GLEWLWYD_SERVICE_CLIENT_ID=sdk-service
#           APP_GLEWLWYD_SERVICE_CLIENT_SECRET=...
#           APP_GLEWLWYD_SERVICE_SCOPE=conformance
#           APP_GLEWLWYD_ACCESS_TOKEN_LIFETIME=SECONDS
#       and the server's pid to STATE_DIR/pid; its log is STATE_DIR/server.log.
#       With GLEWLWYD_DPOP=1, two more instances of the plugin, on the same clients and user:
#       `oidc-dpop` (DPoP allowed: a proof's `iat` from 60 s before to 5 s after the server's
#       clock; revocation and introspection for confidential clients) and `oidc-dpop-nonce`
#       (the same, nonces required; the nonce, one per client, changes after
#       GLEWLWYD_DPOP_NONCE_COUNTER + 1 accepted proofs), and STATE_DIR/env gains:
#           APP_GLEWLWYD_DPOP_ISSUER=http://127.0.0.1:PORT/api/oidc-dpop
#           APP_GLEWLWYD_DPOP_NONCE_ISSUER=http://127.0.0.1:PORT/api/oidc-dpop-nonce
#       What glewlwyd's DPoP does with RFC 9449 proofs: docs/OTHER-SERVERS.md, "glewlwyd and
#       DPoP"; scripts/lib/glewlwyd-dpop-probe.py checks it against a running server, and
#       Tests/ConformanceTests/GlewlwydDPoPConformanceTests.swift runs the SDK's DPoP-bound
#       sessions against both instances (scripts/test starts the server this way, one start
#       for the glewlwyd and glewlwyd-dpop phases).
#   stop STATE_DIR
#       TERM, up to 5 s, then KILL. Does nothing when the server is not running.
#
# Environment:
#   GLEWLWYD_BIN                    the program (default: glewlwyd on PATH, else /usr/bin/glewlwyd)
#   GLEWLWYD_INIT_SQL               the SQLite init script (default: the package's, found below)
#   GLEWLWYD_ACCESS_TOKEN_SECONDS   access token lifetime (default 3)
#   GLEWLWYD_START_TIMEOUT          seconds to wait for the server to answer (default 15)
#   GLEWLWYD_DPOP                   1: the DPoP instances too (default 0: only `oidc`)
#   GLEWLWYD_DPOP_NONCE_COUNTER     oidc-dpop-nonce makes a new nonce every COUNTER + 1 accepted proofs (default 3)
#
# Needs sqlite3 (a dependency of the package), curl and python3 (a free port, random secrets).
# No secret is passed on a command line (curl reads request bodies from its standard input)
# or printed. On failure a function prints why (and the server log's last lines) to stderr
# and returns non-zero. The library sets no shell options.

_glewlwyd_err() {
    echo "glewlwyd: $*" >&2
}

_glewlwyd_bin() {
    if [ -n "${GLEWLWYD_BIN:-}" ]; then
        printf '%s' "$GLEWLWYD_BIN"
    elif command -v glewlwyd >/dev/null 2>&1; then
        command -v glewlwyd
    else
        printf '%s' /usr/bin/glewlwyd
    fi
}

# The package's SQLite init script: the documentation's copy (gzipped), else dbconfig's.
_glewlwyd_init_sql() {
    local candidate
    for candidate in "${GLEWLWYD_INIT_SQL:-}" \
        /usr/share/doc/glewlwyd/database/init.sqlite3.sql \
        /usr/share/doc/glewlwyd/database/init.sqlite3.sql.gz \
        /usr/share/dbconfig-common/data/glewlwyd/install/sqlite3; do
        if [ -n "$candidate" ] && [ -f "$candidate" ]; then
            printf '%s' "$candidate"
            return 0
        fi
    done
    return 1
}

_glewlwyd_pid() {
    local dir=$1 pid
    [ -f "$dir/pid" ] || return 1
    pid=$(cat "$dir/pid" 2>/dev/null)
    [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && printf '%s' "$pid"
}

glewlwyd_status() {
    local dir=${1:?usage: glewlwyd_status STATE_DIR} pid
    if pid=$(_glewlwyd_pid "$dir"); then
        echo "running (pid $pid) at $(grep '^APP_GLEWLWYD_URL=' "$dir/env" 2>/dev/null | cut -d= -f2-)"
        return 0
    fi
    echo "not running"
    return 1
}

_glewlwyd_log_tail() {
    local dir=$1
    if [ -f "$dir/server.log" ]; then
        echo "---- last 30 lines of $dir/server.log ----" >&2
        tail -n 30 "$dir/server.log" >&2
        echo "----" >&2
    fi
}

# _glewlwyd_call DIR METHOD PATH [EXPECTED_STATUS]: an admin API call with the session cookie
# of DIR/admin-cookies, its JSON body read from standard input (no body for GET). Fails, saying
# what answered, unless the status is EXPECTED_STATUS (default 200).
_glewlwyd_call() {
    local dir=$1 method=$2 path=$3 expected=${4:-200} url status
    url=$(. "$dir/server.env" && printf '%s' "$GLEWLWYD_URL")
    if [ "$method" = GET ]; then
        status=$(curl -sS -o "$dir/admin-answer" -w '%{http_code}' --max-time 10 \
            -b "$dir/admin-cookies" -c "$dir/admin-cookies" "$url/api$path")
    else
        status=$(curl -sS -o "$dir/admin-answer" -w '%{http_code}' --max-time 10 \
            -b "$dir/admin-cookies" -c "$dir/admin-cookies" -X "$method" \
            -H 'Content-Type: application/json' --data-binary @- "$url/api$path")
    fi
    if [ "$status" != "$expected" ]; then
        _glewlwyd_err "$method /api$path answered ${status:-nothing}, not $expected: $(head -c 300 "$dir/admin-answer" 2>/dev/null)"
        return 1
    fi
}

# Waits until GET URL answers 200 while the server runs (at most GLEWLWYD_START_TIMEOUT s).
_glewlwyd_wait_for() {
    local dir=$1 url=$2 pid deadline
    pid=$(cat "$dir/pid")
    deadline=$((SECONDS + ${GLEWLWYD_START_TIMEOUT:-15}))
    while :; do
        if [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$url")" = 200 ]; then
            return 0
        fi
        if ! kill -0 "$pid" 2>/dev/null; then
            _glewlwyd_err "the server exited while starting (waiting for $url)"
            return 1
        fi
        if [ "$SECONDS" -ge "$deadline" ]; then
            _glewlwyd_err "$url did not answer 200 within ${GLEWLWYD_START_TIMEOUT:-15} s"
            return 1
        fi
        sleep 0.1
    done
}

glewlwyd_start() {
    local dir=${1:?usage: glewlwyd_start STATE_DIR} bin init_sql port redirect_port url issuer lifetime
    local password service_secret admin_password signing_key tool
    bin=$(_glewlwyd_bin)
    if [ ! -x "$bin" ]; then
        _glewlwyd_err "$bin not found: install Debian's package glewlwyd (as root: bash .ci/run, or the preseeding in scripts/lib/glewlwyd.sh)"
        return 1
    fi
    for tool in sqlite3 curl python3; do
        command -v "$tool" >/dev/null 2>&1 || { _glewlwyd_err "$tool not found"; return 1; }
    done
    if ! init_sql=$(_glewlwyd_init_sql); then
        _glewlwyd_err "the package's init.sqlite3.sql was not found (dpkg -L glewlwyd; or set GLEWLWYD_INIT_SQL)"
        return 1
    fi
    lifetime=${GLEWLWYD_ACCESS_TOKEN_SECONDS:-3}
    mkdir -p "$dir" || return 1
    dir=$(cd "$dir" && pwd) || return 1
    if _glewlwyd_pid "$dir" >/dev/null; then
        _glewlwyd_err "a server already runs for $dir (pid $(cat "$dir/pid")); stop it first"
        return 1
    fi
    chmod 700 "$dir" || return 1
    rm -f "$dir/glewlwyd.sqlite3" "$dir/env" "$dir/pid" "$dir/admin-cookies" "$dir/admin-answer" "$dir/admin-password"
    : >"$dir/server.log"

    # Two free ports and random letters and digits for the secrets. The server's port is one
    # the system picks; the browser client's redirect port, which the tests bind again and
    # again, lies below the ephemeral range, so no outgoing connection can be holding it then.
    read -r port redirect_port password service_secret admin_password signing_key < <(python3 -c '
import random, secrets, socket, string
def free(port):
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", port))
        return s.getsockname()[1]
    except OSError:
        return None
    finally:
        s.close()
try:
    low = int(open("/proc/sys/net/ipv4/ip_local_port_range").read().split()[0])
except (OSError, ValueError, IndexError):
    low = 32768
candidates = random.sample(range(10000, low), min(200, max(0, low - 10000)))
redirect = next((p for p in candidates if free(p)), None) or free(0)
r = lambda n: "".join(secrets.choice(string.ascii_letters + string.digits) for _ in range(n))
print(free(0), redirect, r(24), r(40), r(32), r(64))
')
    [ -n "$signing_key" ] || { _glewlwyd_err "could not pick ports"; return 1; }
    url="http://127.0.0.1:$port"
    issuer="$url/api/oidc"

    # The database: the package's init SQL (tables, the scopes g_admin, g_profile and openid,
    # the database user and client backends, the user admin with the password "password"), in
    # one transaction without syncing (statement by statement it takes 2 s).
    if ! {
        echo 'PRAGMA synchronous=OFF; BEGIN;'
        case "$init_sql" in
        *.gz) gzip -dc "$init_sql" ;;
        *) cat "$init_sql" ;;
        esac
        echo 'COMMIT;'
    } | sqlite3 -bail "$dir/glewlwyd.sqlite3" >>"$dir/server.log" 2>&1; then
        _glewlwyd_err "making the database from $init_sql failed"
        _glewlwyd_log_tail "$dir"
        return 1
    fi

    # No `use_secure_connection` line at all: with one, even `false`, glewlwyd refuses to
    # start unless the secure_connection_key_file and _pem_file settings are there too.
    # Cookies not Secure (plain http on loopback), for 127.0.0.1. No static files: the login
    # page (a JavaScript application) is not used.
    cat >"$dir/glewlwyd.conf" <<EOF
port=$port
bind_address="127.0.0.1"
external_url="$url"
login_url="login.html"
api_prefix="api"
log_mode="console"
log_level="WARNING"
cookie_domain="127.0.0.1"
cookie_secure=0
session_key="GLEWLWYD2_SESSION_ID"
admin_session_authentication="cookie"
hash_algorithm="SHA512"
user_module_path="/usr/lib/glewlwyd/user"
client_module_path="/usr/lib/glewlwyd/client"
user_auth_scheme_module_path="/usr/lib/glewlwyd/scheme"
plugin_module_path="/usr/lib/glewlwyd/plugin"
database = { type = "sqlite3"; path = "$dir/glewlwyd.sqlite3"; };
EOF
    cat >"$dir/server.env" <<EOF
GLEWLWYD_URL=$url
EOF

    echo "==== $(date -u +%FT%TZ) starting on $url" >>"$dir/server.log"
    # In a session of its own (unless this shell's job control already made it a process
    # group leader), so a Ctrl-C meant for the caller does not reach it; stop stops it. Its
    # output goes to the log only, so a caller that reads this script's output is not kept
    # waiting.
    (
        read -r _ _ _ _ pgrp _ </proc/$BASHPID/stat
        if [ "$pgrp" = "$BASHPID" ]; then
            exec "$bin" --config-file="$dir/glewlwyd.conf"
        fi
        exec setsid "$bin" --config-file="$dir/glewlwyd.conf"
    ) </dev/null >>"$dir/server.log" 2>&1 &
    echo $! >"$dir/pid"

    if ! _glewlwyd_wait_for "$dir" "$url/config" || ! _glewlwyd_setup "$dir" "$issuer" "$redirect_port" "$lifetime" \
        "$password" "$service_secret" "$admin_password" "$signing_key" \
        || ! _glewlwyd_wait_for "$dir" "$issuer/.well-known/openid-configuration"; then
        _glewlwyd_log_tail "$dir"
        glewlwyd_stop "$dir"
        rm -f "$dir/admin-cookies" "$dir/admin-answer"
        return 1
    fi
    rm -f "$dir/admin-cookies" "$dir/admin-answer"

    (umask 077 && cat >"$dir/env" <<EOF
APP_GLEWLWYD_URL=$url
APP_GLEWLWYD_ISSUER=$issuer
APP_GLEWLWYD_USERNAME=conformance
APP_GLEWLWYD_PASSWORD=$password
APP_GLEWLWYD_BROWSER_CLIENT_ID=sdk-browser
APP_GLEWLWYD_REDIRECT_PORT=$redirect_port
APP_GLEWLWYD_DEVICE_CLIENT_ID=sdk-device
APP_GLEWLWYD_SERVICE_CLIENT_ID=sdk-service
APP_GLEWLWYD_SERVICE_CLIENT_SECRET=$service_secret
APP_GLEWLWYD_SERVICE_SCOPE=conformance
APP_GLEWLWYD_ACCESS_TOKEN_LIFETIME=$lifetime
EOF
    )
    if [ "${GLEWLWYD_DPOP:-0}" = 1 ]; then
        cat >>"$dir/env" <<EOF
APP_GLEWLWYD_DPOP_ISSUER=$issuer-dpop
APP_GLEWLWYD_DPOP_NONCE_ISSUER=$issuer-dpop-nonce
EOF
    fi
}

# _glewlwyd_plugin DIR NAME DISPLAY_NAME ISSUER LIFETIME SIGNING_KEY EXTRA: makes the OpenID
# Connect plugin instance NAME (served under /api/NAME); EXTRA is a JSON fragment of more
# parameters, each followed by a comma.
_glewlwyd_plugin() {
    local dir=$1 name=$2 display_name=$3 issuer=$4 lifetime=$5 signing_key=$6 extra=$7
    _glewlwyd_call "$dir" POST /mod/plugin/ <<EOF
{"module": "oidc", "name": "$name", "display_name": "$display_name", "enabled": true, "parameters": {
  "iss": "$issuer",
  "jwt-type": "sha", "jwt-key-size": "256", "key": "$signing_key",
  "access-token-duration": $lifetime, "refresh-token-duration": 1209600, "code-duration": 600,
  "refresh-token-rolling": true, "refresh-token-one-use": "always",
  "allow-non-oidc": true,
  "auth-type-code-enabled": true, "auth-type-code-revoke-replayed": true,
  "auth-type-token-enabled": false, "auth-type-password-enabled": false,
  "auth-type-client-enabled": true, "auth-type-device-enabled": true, "auth-type-refresh-enabled": true,
  "device-authorization-expiration": 600, "device-authorization-interval": 1,
  "pkce-allowed": true, "pkce-method-plain-allowed": false,
  "name-claim": "mandatory", "email-claim": "no", "scope-claim": "no",
  $extra
  "jwks-show": true
}}
EOF
}

# The plugin instances, scope, user and clients, made through the admin API as the init SQL's
# admin, whose password is then made random.
_glewlwyd_setup() {
    local dir=$1 issuer=$2 redirect_port=$3 lifetime=$4 password=$5 service_secret=$6 admin_password=$7 signing_key=$8
    (umask 077 && : >"$dir/admin-cookies" && printf '%s\n' "$admin_password" >"$dir/admin-password") || return 1
    _glewlwyd_call "$dir" POST /auth/ <<<'{"username":"admin","password":"password"}' || return 1

    # The OpenID Connect plugin. Its parameter names are those of glewlwyd's
    # src/plugin/protocol_oidc.c (the admin page's "Parameters/Plugins" form writes the same).
    _glewlwyd_plugin "$dir" oidc "OpenID Connect" "$issuer" "$lifetime" "$signing_key" '' || return 1
    # With GLEWLWYD_DPOP=1, two more instances of it on the same clients, users and database:
    # DPoP allowed (proofs checked whenever a DPoP header comes, `dpop_jkt` read from
    # authorization requests, `dpop_signing_alg_values_supported` in the discovery document),
    # and the same with nonces required. glewlwyd's DPoP settings: `oauth-dpop-iat-duration`,
    # how old a proof's `iat` may be (it is mandatory once DPoP is allowed), and
    # `-iat-gap-duration`, how far ahead of the server's clock; `-nonce-mandatory` with
    # `-nonce-counter`: a new nonce every counter + 1 accepted proofs (the count is per client).
    if [ "${GLEWLWYD_DPOP:-0}" = 1 ]; then
        local dpop='"oauth-dpop-allowed": true, "oauth-dpop-iat-duration": 60, "oauth-dpop-iat-gap-duration": 5,
  "introspection-revocation-allowed": true, "introspection-revocation-allow-target-client": true,'
        _glewlwyd_plugin "$dir" oidc-dpop "OpenID Connect with DPoP" "${issuer}-dpop" "$lifetime" "$signing_key" \
            "$dpop" || return 1
        _glewlwyd_plugin "$dir" oidc-dpop-nonce "OpenID Connect with DPoP nonces" "${issuer}-dpop-nonce" "$lifetime" \
            "$signing_key" "$dpop \"oauth-dpop-nonce-mandatory\": true, \"oauth-dpop-nonce-counter\": ${GLEWLWYD_DPOP_NONCE_COUNTER:-3}," \
            || return 1
    fi
    _glewlwyd_call "$dir" POST /scope/ <<'EOF' || return 1
{"name": "conformance", "display_name": "Conformance", "description": "The SDK's conformance tests",
 "password_required": false, "scheme": {}}
EOF
    _glewlwyd_call "$dir" POST /user/ <<EOF || return 1
{"username": "conformance", "name": "Conformance User", "password": "$password",
 "scope": ["openid", "conformance"], "enabled": true}
EOF
    _glewlwyd_call "$dir" POST /client/ <<EOF || return 1
{"client_id": "sdk-browser", "name": "SDK browser flow", "confidential": false, "enabled": true, "scope": [],
 "redirect_uri": ["http://127.0.0.1:$redirect_port/callback"], "authorization_type": ["code", "refresh_token"]}
EOF
    _glewlwyd_call "$dir" POST /client/ <<'EOF' || return 1
{"client_id": "sdk-device", "name": "SDK device flow", "confidential": false, "enabled": true, "scope": [],
 "redirect_uri": [], "authorization_type": ["device_authorization", "refresh_token"]}
EOF
    _glewlwyd_call "$dir" POST /client/ <<EOF || return 1
{"client_id": "sdk-service", "name": "SDK client credentials", "confidential": true, "client_secret": "$service_secret",
 "enabled": true, "scope": ["conformance"], "redirect_uri": [], "authorization_type": ["client_credentials"],
 "token_endpoint_auth_method": ["client_secret_basic", "client_secret_post"]}
EOF
    # Last, the admin's known password replaced by a random one.
    _glewlwyd_call "$dir" PUT /user/admin <<EOF || return 1
{"username": "admin", "name": "The Administrator", "scope": ["g_admin", "g_profile"],
 "password": "$admin_password", "enabled": true}
EOF
}

glewlwyd_stop() {
    local dir=${1:?usage: glewlwyd_stop STATE_DIR} pid i
    pid=$(_glewlwyd_pid "$dir") || { rm -f "$dir/pid"; return 0; }
    kill -TERM "$pid" 2>/dev/null
    for ((i = 0; i < 50; i++)); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then
        kill -KILL "$pid" 2>/dev/null
        for ((i = 0; i < 20; i++)); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
    fi
    rm -f "$dir/pid"
    echo "==== $(date -u +%FT%TZ) stopped" >>"$dir/server.log"
    return 0
}

# As a command.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    cmd=${1:-}
    case "$cmd" in
    start | stop | status)
        if [ $# -ne 2 ]; then
            echo "usage: $0 $cmd STATE_DIR" >&2
            exit 2
        fi
        "glewlwyd_$cmd" "$2"
        ;;
    *)
        echo "usage: $0 start|stop|status STATE_DIR" >&2
        exit 2
        ;;
    esac
fi
