#!/usr/bin/env bash
# shellcheck shell=bash
# The contract test's fuzzer, schemathesis, in a virtualenv of its own under .build/, at the
# exact versions of scripts/lib/schemathesis-requirements.txt: scripts/test needs no global
# `pip install` (a fresh clone's run skips nothing) and every machine runs the same fuzzer.
# Usable as a command and as a sourced library.
#
#   scripts/lib/schemathesis.sh install [VENV_DIR]
#
#   source scripts/lib/schemathesis.sh
#   st_bin=$(schemathesis_install) || exit 1      # the venv's bin folder, where `st` is
#   PATH="$st_bin:$PATH" Server/scripts/contract-test
#
# install creates the virtualenv (default: $SCHEMATHESIS_VENV, else .build/schemathesis-venv
# in the repository) with `python3 -m venv` and pip-installs the requirements into it; it does
# nothing when the venv already holds exactly those (their hash, with the python's version, is
# kept in the venv). Two installs at once take turns. Prints the venv's bin folder on stdout;
# on failure prints why to stderr and returns non-zero. The library sets no shell options.
#
# Environment: SCHEMATHESIS_VENV (the virtualenv), SCHEMATHESIS_PYTHON (the python that
# creates it, default python3).

_schemathesis_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
_schemathesis_requirements="$_schemathesis_root/scripts/lib/schemathesis-requirements.txt"

# The hash of what the venv must hold: the requirements and the python that runs them.
_schemathesis_wanted_hash() {
    { cat "$_schemathesis_requirements"; "$1" -c 'import sys; print(sys.version)'; } | sha256sum | cut -d' ' -f1
}

_schemathesis_ready() {
    local venv=$1
    [ -x "$venv/bin/st" ] && [ -f "$venv/.requirements.sha256" ] \
        && [ "$(cat "$venv/.requirements.sha256")" = "$(_schemathesis_wanted_hash "$venv/bin/python" 2>/dev/null)" ]
}

schemathesis_install() {
    local venv python
    venv=${1:-${SCHEMATHESIS_VENV:-$_schemathesis_root/.build/schemathesis-venv}}
    python=${SCHEMATHESIS_PYTHON:-python3}
    if ! _schemathesis_ready "$venv"; then
        if ! command -v "$python" >/dev/null 2>&1; then
            echo "schemathesis: $python not found (Debian: apt-get install python3 python3-venv)" >&2
            return 1
        fi
        if ! "$python" -c 'import venv, ensurepip' 2>/dev/null; then
            echo "schemathesis: $python has no venv/ensurepip module (Debian: apt-get install python3-venv)" >&2
            return 1
        fi
        mkdir -p "$(dirname "$venv")" || return 1
        (
            if command -v flock >/dev/null 2>&1; then
                exec 9>"$venv.lock" && flock 9
            fi
            _schemathesis_ready "$venv" && exit 0 # another install did it meanwhile
            echo "schemathesis: installing schemathesis into $venv" >&2
            # A venv of another python (or a broken one) is made anew.
            if [ -e "$venv" ] && ! "$venv/bin/python" -c '' 2>/dev/null; then
                rm -rf "$venv"
            fi
            if [ ! -x "$venv/bin/python" ]; then
                "$python" -m venv "$venv" || {
                    echo "schemathesis: $python -m venv $venv failed (Debian: apt-get install python3-venv)" >&2
                    exit 1
                }
            fi
            rm -f "$venv/.requirements.sha256"
            "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input \
                -r "$_schemathesis_requirements" >&2 || {
                echo "schemathesis: pip install -r scripts/lib/schemathesis-requirements.txt failed" >&2
                exit 1
            }
            _schemathesis_wanted_hash "$venv/bin/python" >"$venv/.requirements.sha256"
        ) || return 1
    fi
    printf '%s\n' "$venv/bin"
}

# As a command.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    case "${1:-}" in
    install) shift; schemathesis_install "$@" ;;
    *) echo "usage: $0 install [VENV_DIR]" >&2; exit 2 ;;
    esac
fi
