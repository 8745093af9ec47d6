#!/usr/bin/env bash
# shellcheck shell=bash
# Simulated machines for the fleet test and benchmark: one Linux network namespace per host,
# each with an address of its own on a private bridge, and the bridge's address for the
# servers the hosts talk to. Usable as a command and as a sourced library.
#
#   scripts/lib/netns.sh up   DIR HOSTS
#   scripts/lib/netns.sh down DIR
#
#   source scripts/lib/netns.sh
#   netns_up "$work/netns" 3 || echo "no namespaces: $NETNS_REASON"   # exports APP_FLEET_*
#   trap 'netns_down "$work/netns"' EXIT
#
# Commands (functions netns_up, netns_down):
#   up DIR HOSTS
#       Picks a free /24 in 10.77.0.0/16 (one not routed on this machine yet), creates the
#       bridge asdkbrK with address 10.77.K.1 (the "gateway": servers the hosts must reach
#       listen there), and HOSTS namespaces appsdk-K-h1 ... each holding a veth interface
#       eth0 with address 10.77.K.(10+i)/24 plugged into the bridge, and its own loopback.
#       Nothing is routed beyond the bridge: the hosts reach the gateway address and each
#       other, not the machine's other networks. Writes DIR/env and exports:
#           APP_FLEET_GATEWAY=10.77.K.1
#           APP_FLEET_NAMESPACES=appsdk-K-h1,appsdk-K-h2,...
#           APP_FLEET_ADDRESSES=10.77.K.11,10.77.K.12,...
#       Needs root (CAP_NET_ADMIN, CAP_SYS_ADMIN) and iproute2's `ip`. When the machine
#       refuses (a container without those capabilities, say), it removes what it made for
#       its subnet, sets NETNS_REASON to why (printed too) and returns 1: callers then fall
#       back to hosts as process groups.
#   down DIR
#       Kills the processes still inside the namespaces (workers of an interrupted run),
#       deletes the namespaces (their veth pairs go with them) and the bridge that `up` made
#       for DIR, and waits until the kernel has removed the interfaces. Does nothing when
#       there is none.
#
# Runs of the library take turns through flock on /run/appsdk-netns/.lock while they sweep,
# claim or remove a subnet, so two runs at once never take or delete each other's.
#
# Namespaces and bridges left by a run that was killed (its owner's pid, recorded in
# /run/appsdk-netns/K, no longer runs) are removed by the next `up`. The owner is the shell
# that sourced the library, or the command's caller (NETNS_OWNER_PID overrides).
#
# The library sets no shell options.

NETNS_REASON=""
_netns_state_root=${NETNS_STATE_ROOT:-/run/appsdk-netns}

_netns_err() {
    echo "netns: $*" >&2
}

# Says why namespaces cannot be had (NETNS_REASON, and on stderr); returns 1.
_netns_refuse() {
    NETNS_REASON=$1
    _netns_err "$NETNS_REASON"
    return 1
}

_netns_ip() {
    command -v ip 2>/dev/null || { [ -x /usr/sbin/ip ] && echo /usr/sbin/ip; } || { [ -x /sbin/ip ] && echo /sbin/ip; }
}

# Runs a command under the library's lock (flock on $_netns_state_root/.lock, up to 30 s), so
# that two runs never sweep, pick or remove the same subnet at once.
_netns_locked() {
    local fd status
    mkdir -p "$_netns_state_root" || return 1
    exec {fd}>"$_netns_state_root/.lock" || return 1
    if command -v flock >/dev/null 2>&1 && ! flock -w 30 "$fd"; then
        exec {fd}>&-
        _netns_err "could not take $_netns_state_root/.lock within 30 s"
        return 1
    fi
    "$@"
    status=$?
    exec {fd}>&-
    return "$status"
}

# Removes everything of subnet index K: the processes still in its namespaces (workers left
# by an interrupted run), its namespaces, its bridge, its record. Call it under the lock.
_netns_remove_index() {
    local k=$1 ip ns namespaces links tries=0
    ip=$(_netns_ip) || return 0
    namespaces=$("$ip" netns list 2>/dev/null | awk '{print $1}') || :
    for ns in $(grep -E "^appsdk-$k-h[0-9]+$" <<<"$namespaces"); do
        # shellcheck disable=SC2046  # one pid per word
        kill -KILL $("$ip" netns pids "$ns" 2>/dev/null) 2>/dev/null || :
        "$ip" netns delete "$ns" 2>/dev/null || :
    done
    "$ip" link delete "asdkbr$k" 2>/dev/null || :
    # The kernel destroys a deleted namespace's interfaces a moment later: wait for it, so
    # that the names are free again.
    while [ "$tries" -lt 50 ]; do
        links=$("$ip" -o link show 2>/dev/null) || :
        grep -q ": asdk${k}h[0-9]*@" <<<"$links" || break
        sleep 0.1
        tries=$((tries + 1))
    done
    rm -f "$_netns_state_root/$k"
    return 0
}

# Removes what runs that no longer live left behind. Call it under the lock.
_netns_sweep() {
    local record k pid
    for record in "$_netns_state_root"/*; do
        [ -f "$record" ] || continue
        k=${record##*/}
        case $k in *[!0-9]*) continue ;; esac
        pid=$(cat "$record" 2>/dev/null) || :
        if [ -z "$pid" ] || ! kill -0 "$pid" 2>/dev/null; then
            _netns_remove_index "$k"
        fi
    done
    return 0
}

# Sweeps, then records the first free subnet index for the owner and prints it. Call it
# under the lock: a free index is one with no record, no route, no interface and no
# namespace named for it.
_netns_claim() {
    local ip=$1 i routes links namespaces
    _netns_sweep
    routes=$("$ip" -4 route show 2>/dev/null) || :
    links=$("$ip" -o link show 2>/dev/null) || :
    namespaces=$("$ip" netns list 2>/dev/null) || :
    for i in $(seq 1 254); do
        [ -e "$_netns_state_root/$i" ] && continue
        grep -q "^10\.77\.$i\." <<<"$routes" && continue
        grep -q ": asdk\(br$i:\|${i}h[0-9]*@\)" <<<"$links" && continue
        grep -q "^appsdk-$i-" <<<"$namespaces" && continue
        printf '%s\n' "${NETNS_OWNER_PID:-$$}" >"$_netns_state_root/$i" || return 1
        printf '%s' "$i"
        return 0
    done
    return 1
}

netns_up() {
    local dir=${1:?usage: netns_up DIR HOSTS} hosts=${2:?usage: netns_up DIR HOSTS} ip k i ns veth names="" addresses=""
    NETNS_REASON=""
    if ! [[ $hosts =~ ^[0-9]+$ ]] || [ "$hosts" -lt 1 ] || [ "$hosts" -gt 200 ]; then
        _netns_refuse "HOSTS must be a number from 1 to 200, not '$hosts'"; return
    fi
    if [ "$(id -u)" != 0 ]; then
        _netns_refuse "not root: network namespaces need CAP_NET_ADMIN and CAP_SYS_ADMIN"; return
    fi
    if ! ip=$(_netns_ip); then
        _netns_refuse "no ip command (Debian: apt-get install iproute2)"; return
    fi
    if ! mkdir -p "$dir" "$_netns_state_root"; then
        _netns_refuse "cannot create $dir or $_netns_state_root"; return
    fi

    # A /24 that nothing on this machine routes yet, and that no other run holds.
    if ! k=$(_netns_locked _netns_claim "$ip") || [ -z "$k" ]; then
        _netns_refuse "no free subnet in 10.77.0.0/16 (or $_netns_state_root/.lock is held)"; return
    fi
    printf '%s\n' "$k" >"$dir/index"

    local step
    _netns_try() {
        step="$*"
        "$@" >/dev/null 2>"$dir/error" || return 1
    }
    if ! {
        _netns_try "$ip" link add "asdkbr$k" type bridge &&
            _netns_try "$ip" addr add "10.77.$k.1/24" dev "asdkbr$k" &&
            _netns_try "$ip" link set "asdkbr$k" up
    }; then
        _netns_refuse "'${step}' failed: $(cat "$dir/error" 2>/dev/null)"
        netns_down "$dir"
        return 1
    fi
    for i in $(seq 1 "$hosts"); do
        ns="appsdk-$k-h$i" veth="asdk${k}h$i"
        if ! {
            _netns_try "$ip" netns add "$ns" &&
                _netns_try "$ip" link add "$veth" type veth peer name eth0 netns "$ns" &&
                _netns_try "$ip" link set "$veth" master "asdkbr$k" &&
                _netns_try "$ip" link set "$veth" up &&
                _netns_try "$ip" -n "$ns" addr add "10.77.$k.$((10 + i))/24" dev eth0 &&
                _netns_try "$ip" -n "$ns" link set eth0 up &&
                _netns_try "$ip" -n "$ns" link set lo up
        }; then
            _netns_refuse "'${step}' failed: $(cat "$dir/error" 2>/dev/null)"
            netns_down "$dir"
            return 1
        fi
        names="${names:+$names,}$ns"
        addresses="${addresses:+$addresses,}10.77.$k.$((10 + i))"
    done
    rm -f "$dir/error"
    {
        printf 'APP_FLEET_GATEWAY=10.77.%s.1\n' "$k"
        printf 'APP_FLEET_NAMESPACES=%s\n' "$names"
        printf 'APP_FLEET_ADDRESSES=%s\n' "$addresses"
    } >"$dir/env"
    APP_FLEET_GATEWAY="10.77.$k.1" APP_FLEET_NAMESPACES=$names APP_FLEET_ADDRESSES=$addresses
    export APP_FLEET_GATEWAY APP_FLEET_NAMESPACES APP_FLEET_ADDRESSES
}

netns_down() {
    local dir=${1:?usage: netns_down DIR} k
    [ -f "$dir/index" ] || return 0
    k=$(cat "$dir/index" 2>/dev/null) || :
    [ -z "$k" ] || _netns_locked _netns_remove_index "$k" || :
    rm -f "$dir/index" "$dir/env" "$dir/error"
    return 0
}

# As a command.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    case "${1:-}" in
    up)
        NETNS_OWNER_PID=${NETNS_OWNER_PID:-$PPID}
        if [ $# -ne 3 ]; then
            echo "usage: $0 up DIR HOSTS" >&2
            exit 2
        fi
        netns_up "$2" "$3"
        ;;
    down)
        if [ $# -ne 2 ]; then
            echo "usage: $0 down DIR" >&2
            exit 2
        fi
        netns_down "$2"
        ;;
    *)
        echo "usage: $0 up DIR HOSTS | down DIR" >&2
        exit 2
        ;;
    esac
fi
