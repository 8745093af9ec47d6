#!/usr/bin/env bash
# shellcheck shell=bash
# shellcheck disable=SC1091  # it sources state files written at run time
# The conformance test's real OAuth 2.0 server: django-oauth-toolkit (Tests/OAuthServer)
# served by gunicorn on loopback. Usable as a command and as a sourced library.
#
#   scripts/lib/oauth-server.sh install [VENV_DIR]
#   scripts/lib/oauth-server.sh start   STATE_DIR
#   scripts/lib/oauth-server.sh stop    STATE_DIR
#   scripts/lib/oauth-server.sh resume  STATE_DIR
#   scripts/lib/oauth-server.sh restart STATE_DIR      # stop, then resume
#   scripts/lib/oauth-server.sh status  STATE_DIR      # exit 0 when it runs
#
#   source scripts/lib/oauth-server.sh
#   oauth_server_start "$work/oauth" || exit 1
#   . "$work/oauth/env"                 # APP_OAUTH_SERVER_URL, APP_OAUTH_CLIENT_ID, ...
#   trap 'oauth_server_stop "$work/oauth"' EXIT
#
# Commands (functions oauth_server_install, _start, _stop, _resume, _restart, _status):
#   install [VENV_DIR]
#       Creates the virtualenv (default: $OAUTH_SERVER_VENV, else .build/oauth-venv in
#       the repository) with `python3 -m venv` and pip-installs
#       Tests/OAuthServer/requirements.txt into it. Does nothing when the venv already
#       holds exactly those requirements (their hash is kept in the venv). Also migrates
#       an empty database that `start` copies (VENV_DIR/db-templates), remade whenever a
#       .py file of Tests/OAuthServer changes.
#   start STATE_DIR
#       Installs if needed, makes a fresh SQLite database in STATE_DIR, generates the RSA
#       key that signs ID tokens (STATE_DIR/oidc-key.pem, mode 600), creates the user
#       `conformance` (random password), the confidential password-grant client
#       `sdk-conformance` (random secret), the public authorization-code client
#       `sdk-browser` (redirect URI http://127.0.0.1/callback, any port), the public device
#       client `sdk-device` and the confidential client-credentials client `sdk-service`
#       (random secret), starts the server on a free 127.0.0.1 port in the background and
#       waits until it answers. Writes STATE_DIR/env:
#           APP_OAUTH_SERVER_URL=http://127.0.0.1:PORT
#           APP_OAUTH_ISSUER=http://127.0.0.1:PORT/o   (OpenID Connect discovery below it)
#           APP_OAUTH_CLIENT_ID=sdk-conformance
#           APP_OAUTH_CLIENT_SECRET=...
#           APP_OAUTH_USERNAME=conformance
#           APP_OAUTH_PASSWORD=...
#           APP_OAUTH_BROWSER_CLIENT_ID=sdk-browser
#           APP_OAUTH_DEVICE_CLIENT_ID=sdk-device
#           APP_OAUTH_SERVICE_CLIENT_ID=sdk-service
#           APP_OAUTH_SERVICE_CLIENT_SECRET=...
#       and the server's pid to STATE_DIR/pid; the log is STATE_DIR/server.log.
#   stop STATE_DIR
#       TERM, up to 5 s, then KILL. Does nothing when the server is not running.
#   resume STATE_DIR
#       Starts the stopped server again on the same port with the same database (tokens
#       issued before stay valid; no migration, no new user) and waits until it answers.
#
# Environment:
#   OAUTH_ACCESS_TOKEN_SECONDS   access token lifetime at `start` (default 5; kept on resume)
#   OAUTH_REFRESH_TOKEN_SECONDS  refresh token lifetime (default: none, they never expire)
#   OAUTH_DEVICE_INTERVAL_SECONDS the device grant's polling interval (default 1)
#   OAUTH_SERVER_VENV            the virtualenv (default .build/oauth-venv)
#   OAUTH_SERVER_PYTHON          the python that creates it (default python3)
#   OAUTH_SERVER_WORKERS         gunicorn worker processes (default 2)
#   OAUTH_SERVER_THREADS         threads per worker (default 16)
#   OAUTH_SERVER_START_TIMEOUT   seconds to wait for the server to answer (default 30)
#
# On failure a function prints why (and the server log's last lines) to stderr and
# returns non-zero. The library sets no shell options.

_oauth_server_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
_oauth_server_project="$_oauth_server_root/Tests/OAuthServer"

_oauth_server_err() {
    echo "oauth-server: $*" >&2
}

_oauth_server_venv() {
    printf '%s' "${1:-${OAUTH_SERVER_VENV:-$_oauth_server_root/.build/oauth-venv}}"
}

# The hash of what the venv must hold: the requirements and the python that runs them.
_oauth_server_wanted_hash() {
    local python=$1
    {
        cat "$_oauth_server_project/requirements.txt"
        "$python" -c 'import sys; print(sys.version)'
    } | sha256sum | cut -d' ' -f1
}

oauth_server_install() {
    local venv python
    venv=$(_oauth_server_venv "${1:-}")
    python=${OAUTH_SERVER_PYTHON:-python3}

    if [ -x "$venv/bin/python" ] && [ -f "$venv/.requirements.sha256" ] \
        && [ "$(cat "$venv/.requirements.sha256")" = "$(_oauth_server_wanted_hash "$venv/bin/python" 2>/dev/null)" ]; then
        return 0
    fi

    if ! command -v "$python" >/dev/null 2>&1; then
        _oauth_server_err "$python not found (Debian: apt-get install python3 python3-venv)"
        return 1
    fi
    if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 10))'; then
        _oauth_server_err "$python is $("$python" -c 'import sys; print(sys.version.split()[0])'); Django 5.2 needs Python 3.10 or later"
        return 1
    fi
    if ! "$python" -c 'import venv, ensurepip' 2>/dev/null; then
        _oauth_server_err "$python has no venv/ensurepip module (Debian: apt-get install python3-venv)"
        return 1
    fi

    mkdir -p "$(dirname "$venv")" || return 1
    (
        # Two installs at once (parallel test runs) take turns.
        if command -v flock >/dev/null 2>&1; then
            exec 9>"$venv.lock" && flock 9
        fi
        if [ -x "$venv/bin/python" ] && [ -f "$venv/.requirements.sha256" ] \
            && [ "$(cat "$venv/.requirements.sha256")" = "$(_oauth_server_wanted_hash "$venv/bin/python" 2>/dev/null)" ]; then
            exit 0 # the other one did it
        fi
        echo "oauth-server: installing the OAuth server into $venv" >&2
        # A venv of another python (or a broken one) is made anew.
        if [ -e "$venv" ] && ! "$venv/bin/python" -c '' 2>/dev/null; then
            rm -rf "$venv"
        fi
        if [ ! -x "$venv/bin/python" ]; then
            "$python" -m venv "$venv" || {
                _oauth_server_err "python3 -m venv $venv failed (Debian: apt-get install python3-venv)"
                exit 1
            }
        fi
        rm -f "$venv/.requirements.sha256"
        "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input \
            -r "$_oauth_server_project/requirements.txt" || {
            _oauth_server_err "pip install -r Tests/OAuthServer/requirements.txt failed"
            exit 1
        }
        _oauth_server_wanted_hash "$venv/bin/python" >"$venv/.requirements.sha256"
        _oauth_server_template "$venv" /dev/stderr >/dev/null || {
            _oauth_server_err "migrating a database with the new server failed"
            exit 1
        }
    )
}

_oauth_server_pid() {
    local dir=$1 pid
    [ -f "$dir/pid" ] || return 1
    pid=$(cat "$dir/pid" 2>/dev/null)
    [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && printf '%s' "$pid"
}

oauth_server_status() {
    local dir=${1:?usage: oauth_server_status STATE_DIR} pid
    if pid=$(_oauth_server_pid "$dir"); then
        echo "running (pid $pid) at $(grep '^APP_OAUTH_SERVER_URL=' "$dir/env" 2>/dev/null | cut -d= -f2-)"
        return 0
    fi
    echo "not running"
    return 1
}

_oauth_server_log_tail() {
    local dir=$1
    if [ -f "$dir/server.log" ]; then
        echo "---- last 30 lines of $dir/server.log ----" >&2
        tail -n 30 "$dir/server.log" >&2
        echo "----" >&2
    fi
}

# Runs the server of STATE_DIR (its server.env says port, database and settings) in the
# background and waits until it answers.
_oauth_server_launch() {
    local dir=$1 venv port url launcher deadline pid
    venv=$(. "$dir/server.env" && printf '%s' "$OAUTH_SERVER_VENV")
    port=$(. "$dir/server.env" && printf '%s' "$OAUTH_SERVER_PORT")
    url="http://127.0.0.1:$port"

    rm -f "$dir/pid"
    echo "==== $(date -u +%FT%TZ) starting on $url" >>"$dir/server.log"
    # In a session (and process group) of its own: stop can KILL master and workers
    # together, and a Ctrl-C meant for the caller does not reach it. Its output goes to
    # the log only, so a caller that reads this script's output is not kept waiting.
    (
        set -a
        . "$dir/server.env"
        set +a
        cd "$_oauth_server_project" || exit 1
        exec setsid --wait "$venv/bin/gunicorn" \
            --bind "127.0.0.1:$port" \
            --worker-class gthread \
            --workers "${OAUTH_SERVER_WORKERS:-2}" \
            --threads "${OAUTH_SERVER_THREADS:-16}" \
            --preload \
            --graceful-timeout 3 \
            --timeout 60 \
            --pid "$dir/pid" \
            --no-control-socket \
            --access-logfile - \
            --access-logformat '%(h)s "%(r)s" %(s)s %(b)s %(M)sms' \
            --error-logfile - \
            conformance_server.wsgi:application
    ) </dev/null >>"$dir/server.log" 2>&1 &
    launcher=$!

    deadline=$((SECONDS + ${OAUTH_SERVER_START_TIMEOUT:-30}))
    while :; do
        if [ -f "$dir/pid" ] && pid=$(cat "$dir/pid" 2>/dev/null) && [ -n "$pid" ] \
            && "$venv/bin/python" - "$url/test/counters" <<'EOF' 2>/dev/null; then
import sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=2) as r:
    sys.exit(r.status != 200)
EOF
            return 0
        fi
        if ! kill -0 "$launcher" 2>/dev/null; then
            _oauth_server_err "the server exited while starting on $url"
            _oauth_server_log_tail "$dir"
            return 1
        fi
        if [ "$SECONDS" -ge "$deadline" ]; then
            _oauth_server_err "the server did not answer on $url within ${OAUTH_SERVER_START_TIMEOUT:-30} s"
            _oauth_server_log_tail "$dir"
            pid=$(cat "$dir/pid" 2>/dev/null) || pid=$launcher
            kill -TERM "$pid" 2>/dev/null
            sleep 1
            kill -KILL -- "-$pid" 2>/dev/null
            kill -KILL "$launcher" 2>/dev/null
            rm -f "$dir/pid"
            return 1
        fi
        sleep 0.2
    done
}

# Prints the path of an empty, migrated database to copy, made once per version of the
# server's code and requirements (migrating anew costs a few seconds on every start).
_oauth_server_template() {
    local venv=$1 log=$2 hash template tmp
    hash=$(cd "$_oauth_server_project" && find . -name '*.py' -not -path '*/__pycache__/*' -print0 \
        | sort -z | xargs -0 cat requirements.txt | sha256sum | cut -c1-16)
    template="$venv/db-templates/$hash.sqlite3"
    if [ ! -f "$template" ]; then
        mkdir -p "$venv/db-templates" || return 1
        tmp="$venv/db-templates/$hash.$$.tmp"
        rm -f "$tmp"
        # Migrating signs nothing: an empty key file will do.
        if ! (cd "$_oauth_server_project" && OAUTH_SERVER_DB=$tmp OAUTH_OIDC_KEY_FILE=/dev/null PYTHONDONTWRITEBYTECODE=1 \
            "$venv/bin/python" manage.py migrate --noinput -v 0) >>"$log" 2>&1; then
            rm -f "$tmp" "$tmp-wal" "$tmp-shm"
            return 1
        fi
        mv -f "$tmp" "$template" || return 1
    fi
    printf '%s\n' "$template"
}

oauth_server_start() {
    local dir=${1:?usage: oauth_server_start STATE_DIR} venv port secret password client_secret service_secret template
    venv=$(_oauth_server_venv)
    oauth_server_install "$venv" || return 1
    mkdir -p "$dir" || return 1
    dir=$(cd "$dir" && pwd) || return 1
    if _oauth_server_pid "$dir" >/dev/null; then
        _oauth_server_err "a server already runs for $dir (pid $(cat "$dir/pid")); stop it first"
        return 1
    fi

    rm -f "$dir/db.sqlite3" "$dir/db.sqlite3-wal" "$dir/db.sqlite3-shm" "$dir/env" "$dir/pid" "$dir/oidc-key.pem"
    : >"$dir/server.log"
    # A free port, and random letters and digits for the secrets.
    read -r port secret password client_secret service_secret < <("$venv/bin/python" -c '
import secrets, socket, string
s = socket.socket()
s.bind(("127.0.0.1", 0))
r = lambda n: "".join(secrets.choice(string.ascii_letters + string.digits) for _ in range(n))
print(s.getsockname()[1], r(50), r(24), r(40), r(40))
')
    [ -n "$service_secret" ] || { _oauth_server_err "could not pick a port"; return 1; }
    # The key that signs ID tokens: new for every state directory, readable by us only.
    if ! (umask 077 && "$venv/bin/python" -c '
import sys
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
with open(sys.argv[1], "wb") as f:
    f.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
' "$dir/oidc-key.pem"); then
        _oauth_server_err "could not generate the RSA key that signs ID tokens"
        return 1
    fi

    # What the server process reads, also on resume (no __pycache__ in the source tree).
    cat >"$dir/server.env" <<EOF
OAUTH_SERVER_VENV=$venv
OAUTH_SERVER_PORT=$port
OAUTH_SERVER_DB=$dir/db.sqlite3
OAUTH_SERVER_SECRET_KEY=$secret
OAUTH_ACCESS_TOKEN_SECONDS=${OAUTH_ACCESS_TOKEN_SECONDS:-5}
OAUTH_REFRESH_TOKEN_SECONDS=${OAUTH_REFRESH_TOKEN_SECONDS:-}
OAUTH_DEVICE_INTERVAL_SECONDS=${OAUTH_DEVICE_INTERVAL_SECONDS:-1}
OAUTH_OIDC_KEY_FILE=$dir/oidc-key.pem
DJANGO_SETTINGS_MODULE=conformance_server.settings
PYTHONDONTWRITEBYTECODE=1
EOF

    if ! template=$(_oauth_server_template "$venv" "$dir/server.log") \
        || ! cp "$template" "$dir/db.sqlite3" || ! (
        set -a
        . "$dir/server.env"
        set +a
        cd "$_oauth_server_project" &&
            "$venv/bin/python" manage.py setup_conformance --username=conformance \
                --password="$password" --client-id=sdk-conformance --client-secret="$client_secret" \
                --service-client-secret="$service_secret"
    ) >>"$dir/server.log" 2>&1; then
        _oauth_server_err "migrating the database or creating the user and client failed"
        _oauth_server_log_tail "$dir"
        return 1
    fi

    _oauth_server_launch "$dir" || return 1
    cat >"$dir/env" <<EOF
APP_OAUTH_SERVER_URL=http://127.0.0.1:$port
APP_OAUTH_ISSUER=http://127.0.0.1:$port/o
APP_OAUTH_CLIENT_ID=sdk-conformance
APP_OAUTH_CLIENT_SECRET=$client_secret
APP_OAUTH_USERNAME=conformance
APP_OAUTH_PASSWORD=$password
APP_OAUTH_BROWSER_CLIENT_ID=sdk-browser
APP_OAUTH_DEVICE_CLIENT_ID=sdk-device
APP_OAUTH_SERVICE_CLIENT_ID=sdk-service
APP_OAUTH_SERVICE_CLIENT_SECRET=$service_secret
EOF
}

oauth_server_stop() {
    local dir=${1:?usage: oauth_server_stop STATE_DIR} pid i
    pid=$(_oauth_server_pid "$dir") || { rm -f "$dir/pid"; return 0; }
    kill -TERM "$pid" 2>/dev/null
    for ((i = 0; i < 50; i++)); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    # Still there after 5 s: KILL it and its workers (its own process group, from setsid).
    if kill -0 "$pid" 2>/dev/null; then
        kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null
        for ((i = 0; i < 20; i++)); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
    fi
    rm -f "$dir/pid"
    echo "==== $(date -u +%FT%TZ) stopped" >>"$dir/server.log"
    return 0
}

oauth_server_resume() {
    local dir=${1:?usage: oauth_server_resume STATE_DIR}
    if [ ! -f "$dir/server.env" ] || [ ! -f "$dir/env" ]; then
        _oauth_server_err "$dir holds no server (run start first)"
        return 1
    fi
    dir=$(cd "$dir" && pwd) || return 1
    if _oauth_server_pid "$dir" >/dev/null; then
        return 0 # already running
    fi
    _oauth_server_launch "$dir"
}

oauth_server_restart() {
    local dir=${1:?usage: oauth_server_restart STATE_DIR}
    oauth_server_stop "$dir" && oauth_server_resume "$dir"
}

# As a command.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    cmd=${1:-}
    shift || true
    case "$cmd" in
    install | start | stop | resume | restart | status)
        if [ "$cmd" != install ] && [ $# -ne 1 ]; then
            echo "usage: $0 $cmd STATE_DIR" >&2
            exit 2
        fi
        "oauth_server_$cmd" "$@"
        ;;
    *)
        echo "usage: $0 install [VENV_DIR] | start|stop|resume|restart|status STATE_DIR" >&2
        exit 2
        ;;
    esac
fi
