#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# ClickHouse servers as plain processes on loopback, with the repository's
# config (server.xml, users.xml); no service manager, no root needed.
#
#   server.sh start DIR PORT [SHARD1_PORT SHARD2_PORT]
#       a server with its data, logs and pid in DIR, TCP on PORT, HTTP on
#       PORT+1, interserver on PORT+2; the cluster "xenalyze_2shards" is the
#       servers on SHARD1_PORT and SHARD2_PORT (default: PORT twice).
#       Returns when it answers a query (at most 60 s).
#   server.sh stop DIR
#       stops the server of DIR and waits for it to exit.
#   server.sh run [--shards] COMMAND [ARG...]
#       starts one server (and with --shards, a two-shard pair) on free
#       loopback ports in a temporary directory, runs COMMAND with
#       CH_PORT (the single server) and CH_SHARDS ("P1,P2") in its
#       environment, then stops every server it started and removes the
#       directory, whatever COMMAND's fate; exits with COMMAND's status.
set -u
CONF=$(cd "$(dirname "$0")" && pwd)
SERVER=${CLICKHOUSE_SERVER:-$(command -v clickhouse-server || echo /usr/sbin/clickhouse-server)}
CLIENT=${CLICKHOUSE_CLIENT:-clickhouse-client}

die() { echo "server.sh: $*" >&2; exit 1; }

start() {   # DIR PORT [SHARD1 SHARD2]
    dir=$1 port=$2 s1=${3:-$2} s2=${4:-$2}
    [ -x "$SERVER" ] || die "no clickhouse-server"
    mkdir -p "$dir/log" "$dir/data" "$dir/tmp" "$dir/user_files" \
        "$dir/format_schemas" || die "cannot make $dir"
    dir=$(cd "$dir" && pwd)
    sed -e "s|@DIR@|$dir|g" -e "s|@CONF@|$CONF|g" -e "s|@TCP@|$port|g" \
        -e "s|@HTTP@|$((port + 1))|g" -e "s|@INTER@|$((port + 2))|g" \
        -e "s|@SHARD1@|$s1|g" -e "s|@SHARD2@|$s2|g" \
        "$CONF/server.xml" > "$dir/config.xml"
    (cd "$dir" && exec "$SERVER" --config-file="$dir/config.xml" \
        > "$dir/log/stdout" 2>&1) &
    echo $! > "$dir/pid"
    echo "$port" > "$dir/port"
    i=0
    while [ $i -lt 600 ]; do
        if ! kill -0 "$(cat "$dir/pid")" 2>/dev/null; then
            echo "server.sh: the server on port $port exited:" >&2
            tail -5 "$dir/log/server.err.log" "$dir/log/stdout" >&2 2>/dev/null
            return 1
        fi
        "$CLIENT" --port "$port" -q 'SELECT 1' >/dev/null 2>&1 && return 0
        sleep 0.1
        i=$((i + 1))
    done
    echo "server.sh: the server on port $port did not answer in 60 s" >&2
    stop "$dir"
    return 1
}

stop() {    # DIR
    [ -f "$1/pid" ] || return 0
    pid=$(cat "$1/pid")
    if kill "$pid" 2>/dev/null; then
        i=0
        while kill -0 "$pid" 2>/dev/null && [ $i -lt 300 ]; do
            sleep 0.1
            i=$((i + 1))
        done
        kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null
    fi
    rm -f "$1/pid"
}

# A base port whose next 9 ports seem free (nothing listening); the
# server's own failure to bind is caught by start and retried.
free_base() {
    b=$(( 20000 + ($$ * 37 + $(date +%N | sed 's/^0*//;s/^$/0/') % 997 * 10) % 30000 ))
    echo $((b - b % 10))
}

run() {
    shards=0
    [ "${1:-}" = --shards ] && { shards=1; shift; }
    [ $# -gt 0 ] || die "run: no command"
    top=$(mktemp -d "${TMPDIR:-/tmp}/xa-clickhouse.XXXXXX") || die "mktemp"
    trap 'for d in "$top"/*/; do stop "$d"; done; rm -rf "$top"' EXIT
    trap 'exit 130' INT TERM HUP
    tries=0
    while :; do
        tries=$((tries + 1))
        [ $tries -le 5 ] || die "could not start the servers"
        base=$(free_base)
        start "$top/single" "$base" || { stop "$top/single"; continue; }
        if [ $shards = 1 ]; then
            if ! start "$top/shard1" $((base + 3)) $((base + 3)) $((base + 6)) ||
               ! start "$top/shard2" $((base + 6)) $((base + 3)) $((base + 6)); then
                for d in "$top"/*/; do stop "$d"; done
                continue
            fi
            CH_SHARDS="$((base + 3)),$((base + 6))"
            export CH_SHARDS
        fi
        break
    done
    CH_PORT=$base
    export CH_PORT
    "$@"
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case "$cmd" in
start) [ $# -ge 2 ] || die "usage: start DIR PORT [SHARD1 SHARD2]"; start "$@" ;;
stop)  [ $# -eq 1 ] || die "usage: stop DIR"; stop "$1" ;;
run)   run "$@" ;;
*)     die "usage: server.sh start|stop|run ..." ;;
esac
