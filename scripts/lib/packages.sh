#!/usr/bin/env bash
# The Debian packages the scripts need, in one place: scripts/demo, scripts/test and .ci/run
# source this file and call `packages_ensure NEED...`; run by hand it installs them:
#
#   scripts/lib/packages.sh install [NEED...]    (as root or through sudo; default: test)
#   scripts/lib/packages.sh missing [NEED...]    (prints what is missing, one line; exit 1 if any)
#
# NEEDs (each includes what it needs to build the SDK):
#   build   what any build of the SDK and its packages needs: pkg-config and libsodium-dev
#   demo    scripts/demo: build, and curl
#   unit    scripts/test unit: build, and python3 (scripts/lib/test-results.py)
#   test    scripts/test: unit, demo, and every server and tool its phases start:
#           python3-venv (the OAuth server's and schemathesis' virtualenvs), postgresql (the
#           PostgreSQL store's private cluster), iproute2 (the fleet test's network namespaces),
#           spin and gcc (docs/model/check), glewlwyd (the second conformance server), git
#           (app-oauth's git credential helper, run by the real git in CredentialHelperTests),
#           kubernetes-client and openssl (the real kubectl against an https loopback API in
#           KubectlCredentialTests; Debian's kubectl 1.20 speaks ExecCredential v1beta1 only)
#
# As root (CI, a fresh machine) packages_ensure installs what is missing with apt-get; as another
# user it names every missing package and the one command that installs them, and fails.
# glewlwyd's post-install step exits 2 with the package's defaults (it falls into its PostgreSQL
# branch) unless debconf is told first that there is no configuration to make: packages_install
# preseeds that.

# packages_missing NEED...: prints the missing packages (space-separated, each once).
packages_missing() {
    local need missing=()
    local -A wanted=()
    for need in "${@:-test}"; do
        case "$need" in
        build) wanted[build]=1 ;;
        demo) wanted[build]=1 wanted[demo]=1 ;;
        unit) wanted[build]=1 wanted[unit]=1 ;;
        test) wanted[build]=1 wanted[demo]=1 wanted[unit]=1 wanted[test]=1 ;;
        *) echo "scripts/lib/packages.sh: unknown need '$need' (build, demo, unit, test)" >&2; return 2 ;;
        esac
    done
    command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
    pkg-config --exists libsodium 2>/dev/null || missing+=(libsodium-dev)
    if [ -n "${wanted[demo]:-}" ] || [ -n "${wanted[test]:-}" ]; then
        command -v curl >/dev/null 2>&1 || missing+=(curl)
    fi
    if [ -n "${wanted[unit]:-}" ]; then
        command -v python3 >/dev/null 2>&1 || missing+=(python3)
    fi
    if [ -n "${wanted[test]:-}" ]; then
        python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || missing+=(python3-venv)
        compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || missing+=(postgresql)
        command -v ip >/dev/null 2>&1 || [ -x /usr/sbin/ip ] || [ -x /sbin/ip ] || missing+=(iproute2)
        command -v spin >/dev/null 2>&1 || missing+=(spin)
        command -v gcc >/dev/null 2>&1 || missing+=(gcc)
        command -v glewlwyd >/dev/null 2>&1 || [ -x /usr/bin/glewlwyd ] || missing+=(glewlwyd)
        command -v git >/dev/null 2>&1 || missing+=(git)
        command -v kubectl >/dev/null 2>&1 || missing+=(kubernetes-client)
        command -v openssl >/dev/null 2>&1 || missing+=(openssl)
    fi
    echo "${missing[*]}"
}

# packages_install PACKAGE...: apt-get installs them (root, or sudo when there), preseeding glewlwyd.
packages_install() {
    [ $# -gt 0 ] || return 0
    local sudo=()
    [ "$(id -u)" = 0 ] || sudo=(sudo)
    echo "==> installing Debian packages: $*"
    if [[ " $* " == *" glewlwyd "* ]]; then
        printf '%s\n' 'glewlwyd glewlwyd/config_type select No configuration' \
            'glewlwyd glewlwyd/dbconfig-install boolean false' | "${sudo[@]}" debconf-set-selections || return 1
    fi
    "${sudo[@]}" apt-get update -qq || return 1
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"
}

# packages_ensure WHO NEED...: installs what NEEDs miss when root (with apt-get), else prints
# every missing package and the command that installs them, and returns 1. WHO names the caller.
packages_ensure() {
    local who=$1 missing
    shift
    missing=$(packages_missing "$@") || return 2
    [ -n "$missing" ] || return 0
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        # shellcheck disable=SC2086  # one word per package
        packages_install $missing || { echo "$who: installing $missing failed" >&2; return 1; }
        missing=$(packages_missing "$@")
        [ -z "$missing" ] || { echo "$who: still missing after the install: $missing" >&2; return 1; }
        return 0
    fi
    echo "$who: missing Debian packages: $missing" >&2
    echo "  install them (as root, or with sudo) with:" >&2
    echo "    sudo scripts/lib/packages.sh install $*" >&2
    return 1
}

# Run as a command rather than sourced.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    set -uo pipefail
    command=${1:-install}
    shift || true
    case "$command" in
    install)
        missing=$(packages_missing "$@") || exit 2
        # shellcheck disable=SC2086
        packages_install $missing
        ;;
    missing)
        missing=$(packages_missing "$@") || exit 2
        echo "$missing"
        [ -z "$missing" ]
        ;;
    *) sed -n '2,8s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
    esac
fi
