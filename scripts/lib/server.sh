# shellcheck shell=bash
# Starting and stopping the reference server (app-server) from scripts: one way for
# scripts/test, scripts/bench, scripts/demo and Server/scripts/contract-test.
#
#   source "$root/scripts/lib/server.sh"
#
#   cleanup() { server_stop_all; rm -rf "$work"; }      # the script's own cleanup
#   trap cleanup EXIT
#
#   server_start "$bin" "$work" --database :memory: --test-mode || exit 1
#   echo "listening on $SERVER_URL (pid $SERVER_PID)"
#
# Functions:
#   server_start [--name NAME] BINARY WORK_DIR [APP_SERVER_FLAGS...]
#       Starts BINARY --host HOST --port 0 APP_SERVER_FLAGS... in the background (HOST is
#       SERVER_HOST, 127.0.0.1 unless set: the fleet's servers listen on the address of its
#       private bridge, scripts/lib/netns.sh), its
#       stdout in WORK_DIR/NAME.out and its stderr (the log) in WORK_DIR/NAME.log (NAME is
#       "server" unless given), and waits up to SERVER_START_TIMEOUT seconds (default 30)
#       for its "app-server listening on http://..." line. On success it sets SERVER_URL,
#       SERVER_PID, SERVER_LOG and SERVER_OUT to the new server's; with --name NAME it also
#       sets NAME_URL, NAME_PID, NAME_LOG and NAME_OUT (NAME upper-cased, other characters
#       than letters, digits and _ turned into _), so that several servers can run at once:
#           server_start --name first  "$bin" "$work" ...   # FIRST_URL, FIRST_PID
#           server_start --name second "$bin" "$work" ...   # SECOND_URL, SECOND_PID
#       When the server exits before saying where it listens, or does not say it in time,
#       it prints why and the last 30 lines of the server's log to stderr, stops the server
#       if it still runs, and returns 1. Every server started is remembered for
#       server_stop_all.
#   server_stop PID
#       Sends TERM, waits up to 5 s for the process to end, then sends KILL; reaps it.
#       Returns 0 also when the process had already ended.
#   server_stop_all
#       Stops every server server_start started that is still running (latest first).
#       Meant for the script's own cleanup function (EXIT trap).
#   server_stop_on_exit
#       For a script without a cleanup function of its own: adds server_stop_all in front
#       of the EXIT trap already set (if any, which still runs afterwards with the same
#       exit status), and makes INT and TERM exit (130, 143) when they have no trap yet, so
#       that the EXIT trap runs on Ctrl-C too.
#   server_running PID
#       Whether the process is still running.
#
# The library sets no shell options and works under `set -euo pipefail` as well as without.

# shellcheck disable=SC2034  # read by the scripts that source this library
SERVER_URL="" SERVER_PID="" SERVER_LOG="" SERVER_OUT=""
_server_pids=()
_server_exit_command=""

# Where error messages come from: the script's name, as scripts/test and contract-test print.
_server_who() {
    printf '%s' "${SERVER_LIB_LABEL:-${0##*/}}"
}

server_running() {
    [ -n "${1:-}" ] && kill -0 "$1" 2>/dev/null
}

server_start() {
    local name="" prefix=""
    if [ "${1:-}" = "--name" ]; then
        name=${2:?server_start: --name needs a value}
        shift 2
        prefix=$(printf '%s' "$name" | tr '[:lower:]' '[:upper:]' | tr -c 'A-Z0-9_' '_')
    fi
    if [ $# -lt 2 ]; then
        echo "usage: server_start [--name NAME] BINARY WORK_DIR [APP_SERVER_FLAGS...]" >&2
        return 2
    fi
    local binary=$1 work=$2
    shift 2
    local base=${name:-server}
    local out="$work/$base.out" log="$work/$base.log"
    local timeout=${SERVER_START_TIMEOUT:-30}

    if [ ! -x "$binary" ]; then
        echo "$(_server_who): the server binary $binary is missing or not executable" >&2
        return 1
    fi
    mkdir -p "$work" || return 1
    : >"$out"
    : >"$log"

    "$binary" --host "${SERVER_HOST:-127.0.0.1}" --port 0 "$@" >"$out" 2>"$log" &
    local pid=$!
    _server_pids+=("$pid")

    local url="" exited="" deadline=$((SECONDS + timeout))
    while :; do
        url=$(sed -n 's/.*listening on \(http:\/\/[^ ]*\).*/\1/p' "$out" 2>/dev/null | head -n 1)
        [ -n "$url" ] && break
        if ! server_running "$pid"; then
            # It may have printed the line just before exiting: look once more.
            url=$(sed -n 's/.*listening on \(http:\/\/[^ ]*\).*/\1/p' "$out" 2>/dev/null | head -n 1)
            exited=yes
            break
        fi
        [ "$SECONDS" -lt "$deadline" ] || break
        sleep 0.1
    done

    if [ -z "$url" ] || [ -n "$exited" ]; then
        if [ -n "$exited" ]; then
            local status=0
            wait "$pid" 2>/dev/null || status=$?
            echo "$(_server_who): the server ($binary) exited while starting (exit $status); the last lines of its log ($log):" >&2
        else
            echo "$(_server_who): the server ($binary) did not say where it listens within ${timeout} s; the last lines of its log ($log):" >&2
            server_stop "$pid"
        fi
        tail -n 30 "$log" >&2
        return 1
    fi

    # shellcheck disable=SC2034  # read by the scripts that source this library
    SERVER_URL=$url SERVER_PID=$pid SERVER_LOG=$log SERVER_OUT=$out
    if [ -n "$prefix" ]; then
        printf -v "${prefix}_URL" '%s' "$url"
        printf -v "${prefix}_PID" '%s' "$pid"
        printf -v "${prefix}_LOG" '%s' "$log"
        printf -v "${prefix}_OUT" '%s' "$out"
    fi
    return 0
}

server_stop() {
    local pid=${1:-}
    [ -n "$pid" ] || return 0
    if server_running "$pid"; then
        kill -TERM "$pid" 2>/dev/null || true
        local tries=50
        while [ "$tries" -gt 0 ] && server_running "$pid"; do
            sleep 0.1
            tries=$((tries - 1))
        done
        if server_running "$pid"; then
            echo "$(_server_who): the server (pid $pid) did not stop within 5 s of TERM; killing it" >&2
            kill -KILL "$pid" 2>/dev/null || true
        fi
    fi
    # Reap it when it is a child of this shell (a no-op otherwise).
    wait "$pid" 2>/dev/null || true
    return 0
}

server_stop_all() {
    local i
    for ((i = ${#_server_pids[@]} - 1; i >= 0; i--)); do
        server_stop "${_server_pids[i]}"
    done
    _server_pids=()
    return 0
}

server_stop_on_exit() {
    local existing=""
    existing=$(trap -p EXIT)
    case $existing in *_server_on_exit*) return 0 ;; esac   # already done
    _server_exit_command=""
    if [ -n "$existing" ]; then
        # `trap -p` prints `trap -- 'COMMAND' EXIT`, quoted for the shell: let it unquote.
        eval "set -- ${existing#trap }"
        _server_exit_command=$2
    fi
    trap '_server_on_exit "$?"' EXIT
    [ -n "$(trap -p INT)" ] || trap 'exit 130' INT
    [ -n "$(trap -p TERM)" ] || trap 'exit 143' TERM
}

# The EXIT trap of server_stop_on_exit: stops the servers, then runs the trap that was there
# before with $? still the script's exit status (also under `set -e`).
_server_on_exit() {
    local status=$1
    server_stop_all
    [ -n "$_server_exit_command" ] || return 0
    if [ "$status" -eq 0 ]; then
        eval "$_server_exit_command"
    else
        (exit "$status") || eval "$_server_exit_command"
    fi
}
