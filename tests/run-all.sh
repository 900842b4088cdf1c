#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Runs every test: unit binaries (TAP), golden cases, script checks and the
# fuzz-corpus replay.  Ends with one line "N passed, N failed".
#   BUILD   build directory (build or build-san)
#   SHARED  the shared material (real traces, upstream references)
#   UPDATE=1 rewrites golden expectations instead of comparing.
set -u
BUILD=${BUILD:-build}
SHARED=${SHARED:-../shared}
export BUILD SHARED
XA=$BUILD/xenalyze
SYNTH=$BUILD/xentrace-synth
export XA SYNTH
passed=0
failed=0
failures=""
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); failures="$failures $1"; echo "FAIL: $1"; }

# Unit tests: every "ok" and "not ok" line counts.
for t in "$@"; do
    "$t" > "$tmp/out" 2>&1
    rc=$?
    ok=$(grep -c '^ok ' "$tmp/out")
    nok=$(grep -c '^not ok ' "$tmp/out")
    passed=$((passed + ok))
    if [ "$nok" -gt 0 ] || [ "$rc" -ne 0 ]; then
        grep -A3 '^not ok ' "$tmp/out" | head -40
        [ "$nok" -eq 0 ] && { tail -20 "$tmp/out"; nok=1; }
        failed=$((failed + nok))
        failures="$failures $(basename "$t")"
    fi
done

# Golden cases: tests/golden/<case>/{args,expected[,status]}.
# args may name $SHARED and $GOLDEN (the case directory).
for d in tests/golden/*/; do
    [ -f "$d/args" ] || continue
    name=golden/$(basename "$d")
    GOLDEN=${d%/}
    export GOLDEN
    args=$(eval "echo $(cat "$d/args")")
    want_status=0
    [ -f "$d/status" ] && want_status=$(cat "$d/status")
    # shellcheck disable=SC2086
    $XA $args > "$tmp/out" 2> "$tmp/err"
    rc=$?
    if [ "${UPDATE:-0}" = 1 ]; then
        cp "$tmp/out" "$d/expected"
        [ -f "$d/expected-stderr" ] && cp "$tmp/err" "$d/expected-stderr"
        pass
        continue
    fi
    if [ "$rc" != "$want_status" ]; then
        echo "$name: exit status $rc, want $want_status"; cat "$tmp/err" | head -5
        fail "$name"
    elif ! diff -u "$d/expected" "$tmp/out" > "$tmp/diff"; then
        head -40 "$tmp/diff"
        fail "$name"
    elif [ -f "$d/expected-stderr" ] && ! diff -u "$d/expected-stderr" "$tmp/err"; then
        fail "$name"
    else
        pass
    fi
done

# Script checks: tests/check/*.sh, each one test; exit 0 passes, 77 skips.
# CHECK_JOBS of them at once (default: the CPUs present); each has its own
# temporary directory (lib.sh), and results are read back in name order.
jobs=${CHECK_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
mkdir "$tmp/checks"
for s in tests/check/*.sh; do
    case "$s" in */lib*.sh) ;; *) [ -f "$s" ] && echo "$s" ;; esac
done | xargs -P "$jobs" -n 1 sh -c '
    n=$(basename "$1" .sh) t0=$(date +%s)
    sh "$1" > "$0/$n.out" 2>&1
    echo $? > "$0/$n.rc"
    echo "$(($(date +%s) - t0)) check/$n" > "$0/$n.time"' "$tmp/checks"
for s in tests/check/*.sh; do
    case "$s" in */lib*.sh) continue ;; esac
    n=$(basename "$s" .sh)
    name=check/$n
    rc=$(cat "$tmp/checks/$n.rc" 2>/dev/null || echo 1)
    cat "$tmp/checks/$n.time" >> "$tmp/times" 2>/dev/null
    if [ "$rc" -eq 0 ]; then
        pass
    elif [ "$rc" -eq 77 ]; then
        echo "SKIP: $name"; tail -3 "$tmp/checks/$n.out"
    else
        tail -30 "$tmp/checks/$n.out"
        fail "$name"
    fi
done

# Fuzz corpus replay: every saved input runs clean under the same harness.
if [ -x "$BUILD/tests/fuzz-replay" ]; then
    if "$BUILD/tests/fuzz-replay" tests/fuzz/corpus tests/bad > "$tmp/out" 2>&1; then
        pass
    else
        tail -20 "$tmp/out"
        fail fuzz-replay
    fi
fi

# Where the time goes (CI has a budget: README.md, "Tests").
echo "slowest checks (s): $(sort -rn "$tmp/times" | head -8 | tr '\n' ' ')"
[ -n "$failures" ] && echo "failed:$failures"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
