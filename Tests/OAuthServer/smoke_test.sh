#!/usr/bin/env bash
# Installs the conformance OAuth server if needed, starts it in a temporary state
# directory, runs smoke_test.py against it (behaviour, stop/resume, 200 concurrent token
# requests) and stops it. Extra arguments go to smoke_test.py (e.g. --load 600, --quiet).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=/dev/null
source "$root/scripts/lib/oauth-server.sh"

state=$(mktemp -d "${TMPDIR:-/tmp}/oauth-smoke.XXXXXX")
cleanup() {
    oauth_server_stop "$state"
    rm -rf "$state"
}
trap cleanup EXIT

started=$SECONDS
oauth_server_install
echo "install: $((SECONDS - started)) s"
started=$SECONDS
OAUTH_ACCESS_TOKEN_SECONDS=5 oauth_server_start "$state"
echo "start: $((SECONDS - started)) s, $(grep APP_OAUTH_SERVER_URL "$state/env")"
"$(_oauth_server_venv)/bin/python" "$here/smoke_test.py" "$state" "$@"
