#!/usr/bin/env bash
# shellcheck shell=bash
# A private PostgreSQL cluster for tests (the PostgresTokenStore package, the fleet test):
# Debian's postgresql binaries, a fresh cluster in a folder, loopback only. Usable as a
# command and as a sourced library.
#
#   scripts/lib/postgres.sh start   DIR
#   scripts/lib/postgres.sh stop    DIR
#   scripts/lib/postgres.sh restart DIR     # stop, then start again on the same port
#   scripts/lib/postgres.sh destroy DIR     # stop and delete the cluster's files
#   scripts/lib/postgres.sh status  DIR     # exit 0 when it runs
#
#   source scripts/lib/postgres.sh
#   postgres_start "$work/postgres" || exit 1      # exports APP_POSTGRES_URL
#   trap 'postgres_destroy "$work/postgres"' EXIT
#
# Commands (functions postgres_start, _stop, _restart, _destroy, _status):
#   start DIR
#       initdb's a new cluster (superuser `appsdk`, a random 32-character password,
#       scram-sha-256 for every connection: no trust, also not on loopback), creates the
#       database `appsdk`, starts the server on a free 127.0.0.1 port (no other address;
#       its unix socket in the cluster's folder) and waits until it accepts connections.
#       Writes DIR/env (mode 0600):
#           APP_POSTGRES_URL=postgres://appsdk:PASSWORD@127.0.0.1:PORT/appsdk
#       and exports APP_POSTGRES_URL when sourced. The log is DIR/postgres.log (or the
#       cluster folder's, see below: `postgres_status` prints where).
#       With POSTGRES_EXTRA_ADDRESS set (the fleet's bridge address, scripts/lib/netns.sh),
#       the server listens on that address too and accepts scram-sha-256 logins from its
#       /24 (the fleet's simulated hosts); DIR/env then also holds
#           APP_POSTGRES_FLEET_URL=postgres://appsdk:PASSWORD@ADDRESS:PORT/appsdk
#       Restarts keep the address.
#   stop DIR
#       Stops the server (fast mode: open connections are closed, as when a database
#       restarts). Does nothing when it is not running.
#   restart DIR
#       Stops it and starts it again on the same port with the same data and password, as
#       a database restart looks to its clients.
#   destroy DIR
#       Stops it and removes the cluster's data (also a folder outside DIR, see below).
#
# As root: PostgreSQL refuses to run as root, so the cluster belongs to the system user
# `appsdk-pg` (POSTGRES_USER), created with `useradd --system` when missing, and every
# server program runs through `runuser -u appsdk-pg`. When that user cannot reach DIR (a
# `mktemp -d` folder is 0700), the cluster lives in a private folder of its own,
# ${TMPDIR:-/tmp}/appsdk-pg.XXXXXX (0700, owned by that user), named in DIR/cluster; DIR
# keeps env and the state; `destroy` removes both.
#
# Environment:
#   POSTGRES_BIN            folder of initdb, pg_ctl, postgres (default: the newest
#                           /usr/lib/postgresql/*/bin, else `pg_config --bindir`)
#   POSTGRES_USER           the system user that runs the cluster as root (default appsdk-pg)
#   POSTGRES_START_TIMEOUT  seconds to wait for the server (default 30)
#   POSTGRES_EXTRA_ADDRESS  an IPv4 address to listen on besides 127.0.0.1 (see start)
#   POSTGRES_MAX_CONNECTIONS  the cluster's max_connections (default 300: the 4 × 16 fleet of
#                           scripts/bench opens a few connections per process)
#
# Debian packages: postgresql (and postgresql-client for psql, pulled in by it). On failure
# a function prints why (and the log's last lines) to stderr and returns non-zero. The
# library sets no shell options.

_postgres_err() {
    echo "postgres: $*" >&2
}

# The folder of the server programs.
_postgres_bin() {
    local dir
    if [ -n "${POSTGRES_BIN:-}" ]; then
        printf '%s' "$POSTGRES_BIN"
        return 0
    fi
    dir=$(find /usr/lib/postgresql -mindepth 2 -maxdepth 2 -name bin -type d 2>/dev/null | sort -V | tail -n 1)
    if [ -z "$dir" ] && command -v pg_config >/dev/null 2>&1; then
        dir=$(pg_config --bindir)
    fi
    if [ -z "$dir" ] || [ ! -x "$dir/initdb" ] || [ ! -x "$dir/pg_ctl" ]; then
        _postgres_err "no PostgreSQL server programs (initdb, pg_ctl) found (Debian: apt-get install postgresql)"
        return 1
    fi
    printf '%s' "$dir"
}

# Runs a command as the cluster's owner: the caller itself unless it is root.
_postgres_as_owner() {
    if [ "$(id -u)" = 0 ]; then
        runuser -u "${POSTGRES_USER:-appsdk-pg}" -- "$@"
    else
        "$@"
    fi
}

# Makes sure the system user exists when running as root.
_postgres_owner_ready() {
    [ "$(id -u)" = 0 ] || return 0
    local user=${POSTGRES_USER:-appsdk-pg}
    id -u "$user" >/dev/null 2>&1 && return 0
    if ! command -v useradd >/dev/null 2>&1 || ! command -v runuser >/dev/null 2>&1; then
        _postgres_err "running as root needs useradd and runuser (util-linux, passwd) to run PostgreSQL as $user"
        return 1
    fi
    useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$user" 2>/dev/null \
        || id -u "$user" >/dev/null 2>&1 || {
        _postgres_err "cannot create the system user $user"
        return 1
    }
}

# The folder holding the cluster's data, log and socket.
_postgres_home() {
    local dir=$1
    if [ -f "$dir/cluster" ]; then
        cat "$dir/cluster"
    else
        printf '%s' "$dir"
    fi
}

_postgres_log_tail() {
    local log
    log="$(_postgres_home "$1")/postgres.log"
    if [ -f "$log" ]; then
        echo "---- last 30 lines of $log ----" >&2
        tail -n 30 "$log" >&2
        echo "----" >&2
    fi
}

postgres_status() {
    local dir=${1:?usage: postgres_status DIR} home bin
    home=$(_postgres_home "$dir")
    bin=$(_postgres_bin) || return 1
    if [ -f "$home/data/postmaster.pid" ] && _postgres_as_owner "$bin/pg_ctl" -D "$home/data" status >/dev/null 2>&1; then
        echo "running on port $(cat "$dir/port" 2>/dev/null) (data $home/data, log $home/postgres.log)"
        return 0
    fi
    echo "not running"
    return 1
}

# Whether something listens on 127.0.0.1:PORT.
_postgres_port_taken() {
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# Starts the server of DIR on its port and waits until it accepts connections.
_postgres_launch() {
    local dir=$1 home bin port deadline listen address
    home=$(_postgres_home "$dir")
    bin=$(_postgres_bin) || return 1
    port=$(cat "$dir/port")
    listen=127.0.0.1
    [ ! -s "$dir/extra-address" ] || listen="127.0.0.1,$(cat "$dir/extra-address")"
    if ! _postgres_as_owner "$bin/pg_ctl" -D "$home/data" -l "$home/postgres.log" -w \
        -t "${POSTGRES_START_TIMEOUT:-30}" \
        -o "-c listen_addresses='$listen' -p $port -c unix_socket_directories='$home/data' -c max_connections=${POSTGRES_MAX_CONNECTIONS:-300}" \
        start >/dev/null 2>&1; then
        return 1
    fi
    deadline=$((SECONDS + ${POSTGRES_START_TIMEOUT:-30}))
    # Every address: PostgreSQL only warns when one of several cannot be bound.
    for address in ${listen//,/ }; do
        until "$bin/pg_isready" -q -h "$address" -p "$port" -d appsdk -U appsdk; do
            if grep -q "could not create listen socket for \"$address\"" "$home/postgres.log" 2>/dev/null; then
                _postgres_err "the server cannot listen on $address (see the log); stopping it"
                postgres_stop "$dir"
                return 1
            fi
            if [ "$SECONDS" -ge "$deadline" ]; then
                _postgres_err "the server did not accept connections on $address:$port within ${POSTGRES_START_TIMEOUT:-30} s; stopping it"
                postgres_stop "$dir"
                return 1
            fi
            sleep 0.1
        done
    done
}

postgres_start() {
    local dir=${1:?usage: postgres_start DIR} bin home user password port tries
    bin=$(_postgres_bin) || return 1
    _postgres_owner_ready || return 1
    mkdir -p "$dir" || return 1
    dir=$(cd "$dir" && pwd) || return 1
    if postgres_status "$dir" >/dev/null 2>&1; then
        _postgres_err "a server already runs for $dir; stop it first"
        return 1
    fi
    postgres_destroy "$dir" >/dev/null 2>&1
    user=${POSTGRES_USER:-appsdk-pg}

    # Where the cluster lives: DIR, unless its owner (as root: the system user) cannot reach it.
    home=$dir
    if [ "$(id -u)" = 0 ] && ! runuser -u "$user" -- test -x "$dir"; then
        home=$(mktemp -d "${TMPDIR:-/tmp}/appsdk-pg.XXXXXX") || return 1
        chmod 0700 "$home"
        printf '%s\n' "$home" >"$dir/cluster"
    fi
    mkdir -p "$home/data" || return 1
    chmod 0700 "$home/data"
    : >"$home/postgres.log"
    if [ "$(id -u)" = 0 ]; then
        chown "$user" "$home/data" "$home/postgres.log" || return 1
        [ "$home" = "$dir" ] || chown "$user" "$home" || return 1
    fi

    password=$(LC_ALL=C tr -dc 'A-Za-z0-9' </dev/urandom | head -c 32)
    # The password reaches initdb through a file only its owner reads, never a command line.
    (umask 077 && printf '%s\n' "$password" >"$home/.pwfile") || return 1
    [ "$(id -u)" != 0 ] || chown "$user" "$home/.pwfile"
    if ! _postgres_as_owner "$bin/initdb" -D "$home/data" -U appsdk --pwfile="$home/.pwfile" \
        --auth=scram-sha-256 --encoding=UTF8 --locale=C.UTF-8 --no-instructions >>"$home/postgres.log" 2>&1; then
        rm -f "$home/.pwfile"
        _postgres_err "initdb failed"
        _postgres_log_tail "$dir"
        return 1
    fi
    rm -f "$home/.pwfile"
    if [ -n "${POSTGRES_EXTRA_ADDRESS:-}" ]; then
        if ! [[ $POSTGRES_EXTRA_ADDRESS =~ ^[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
            _postgres_err "POSTGRES_EXTRA_ADDRESS must be an IPv4 address, not '$POSTGRES_EXTRA_ADDRESS'"
            return 1
        fi
        printf '%s\n' "$POSTGRES_EXTRA_ADDRESS" >"$dir/extra-address"
        printf 'host all all %s/24 scram-sha-256\n' "${POSTGRES_EXTRA_ADDRESS%.*}.0" >>"$home/data/pg_hba.conf" || return 1
    fi

    # A free port: try random ones until the server binds one.
    for tries in 1 2 3 4 5 6 7 8; do
        port=$((20000 + RANDOM % 40000))
        _postgres_port_taken "$port" && continue
        printf '%s\n' "$port" >"$dir/port"
        if _postgres_launch "$dir"; then
            break
        fi
        if [ "$tries" -eq 8 ] || ! grep -q 'Address already in use' "$home/postgres.log"; then
            _postgres_err "the server did not start"
            _postgres_log_tail "$dir"
            return 1
        fi
    done

    if ! PGPASSWORD=$password "$bin/psql" -q -X -h 127.0.0.1 -p "$port" -U appsdk -d postgres \
        -c 'CREATE DATABASE appsdk' >>"$home/postgres.log" 2>&1; then
        _postgres_err "creating the database appsdk failed"
        _postgres_log_tail "$dir"
        return 1
    fi
    (umask 077 && printf 'APP_POSTGRES_URL=postgres://appsdk:%s@127.0.0.1:%s/appsdk\n' "$password" "$port" >"$dir/env") || return 1
    APP_POSTGRES_URL="postgres://appsdk:$password@127.0.0.1:$port/appsdk"
    export APP_POSTGRES_URL
    if [ -s "$dir/extra-address" ]; then
        APP_POSTGRES_FLEET_URL="postgres://appsdk:$password@$(cat "$dir/extra-address"):$port/appsdk"
        printf 'APP_POSTGRES_FLEET_URL=%s\n' "$APP_POSTGRES_FLEET_URL" >>"$dir/env" || return 1
        export APP_POSTGRES_FLEET_URL
    fi
}

postgres_stop() {
    local dir=${1:?usage: postgres_stop DIR} home bin
    home=$(_postgres_home "$dir")
    bin=$(_postgres_bin) || return 1
    [ -f "$home/data/postmaster.pid" ] || return 0
    _postgres_as_owner "$bin/pg_ctl" -D "$home/data" -m fast -w -t 30 stop >/dev/null 2>&1 && return 0
    # Not stopped within 30 s (or pg_ctl failed): stop the postmaster for good.
    local pid
    pid=$(head -n 1 "$home/data/postmaster.pid" 2>/dev/null)
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
        _postgres_err "the server (pid $pid) did not stop within 30 s; killing it"
        kill -KILL "$pid" 2>/dev/null
    fi
    return 0
}

postgres_restart() {
    local dir=${1:?usage: postgres_restart DIR}
    if [ ! -f "$dir/env" ] || [ ! -f "$dir/port" ]; then
        _postgres_err "$dir holds no cluster (run start first)"
        return 1
    fi
    postgres_stop "$dir" || return 1
    if ! _postgres_launch "$dir"; then
        _postgres_err "the server did not start again on port $(cat "$dir/port")"
        _postgres_log_tail "$dir"
        return 1
    fi
}

postgres_destroy() {
    local dir=${1:?usage: postgres_destroy DIR} home
    [ -d "$dir" ] || return 0
    home=$(_postgres_home "$dir")
    postgres_stop "$dir" >/dev/null 2>&1
    if [ "$home" != "$dir" ]; then
        case $home in
        "${TMPDIR:-/tmp}"/appsdk-pg.*) rm -rf "$home" ;;
        esac
    fi
    rm -rf "$dir/data" "$dir/postgres.log" "$dir/cluster" "$dir/env" "$dir/port" "$dir/extra-address"
    return 0
}

# As a command.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    cmd=${1:-}
    shift || true
    case "$cmd" in
    start | stop | restart | destroy | status)
        if [ $# -ne 1 ]; then
            echo "usage: $0 $cmd DIR" >&2
            exit 2
        fi
        "postgres_$cmd" "$@"
        ;;
    *)
        echo "usage: $0 start|stop|restart|destroy|status DIR" >&2
        exit 2
        ;;
    esac
fi
