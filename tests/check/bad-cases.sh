#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Known-answer bad-input cases, tests/bad/<case>/ (see tests/bad/README.md):
#   trace.xentrace   a tiny synthetic trace with one known defect, made by
#                    tests/tools/trace-mangle.py case <case>
#   anomalies.json   the exact "anomalies" object of --summary --format=json
#   expect.json      optional: {"a/0/b": value} values the summary JSON must
#                    hold at those paths (list indices are numbers)
#   status           exit status without --strict (default 0)
#   expected-stderr  standard error, the trace's path written TRACE
#   strict           lines "OPTION STATUS": exit status with that option
# Every run must end within 20 s, without a signal or sanitizer report.
set -u
. tests/check/lib.sh
need_python

nr=0
bad=0
fail() { echo "FAIL: $*"; bad=$((bad + 1)); }

# run NAME ARGS...: runs $XA, status in $rc, output in $TMP/{out,err}.
run() {
    name=$1
    shift
    timeout 20 "$XA" "$@" > "$TMP/out" 2> "$TMP/err"
    rc=$?
    if grep -qE 'Sanitizer|runtime error:' "$TMP/err"; then
        fail "$name $*: sanitizer report"; head -20 "$TMP/err"
        return 1
    fi
    return 0
}

for d in tests/bad/*/; do
    d=${d%/}
    case=$(basename "$d")
    trace=$d/trace.xentrace
    [ -f "$trace" ] || continue
    nr=$((nr + 1))

    # The committed trace is the one the tool makes (its provenance).
    if python3 tests/tools/trace-mangle.py case "$case" "$TMP/made" &&
       ! cmp -s "$TMP/made" "$trace"; then
        fail "$case: trace.xentrace differs from trace-mangle.py case $case"
    fi

    want=0
    [ -f "$d/status" ] && want=$(cat "$d/status")
    run "$case" --summary --format=json "$trace" || continue
    if [ "$rc" != "$want" ]; then
        fail "$case: exit status $rc, want $want"; head -5 "$TMP/err"
        continue
    fi
    if [ -f "$d/expected-stderr" ]; then
        sed "s|$trace|TRACE|g" "$TMP/err" > "$TMP/err2"
        diff -u "$d/expected-stderr" "$TMP/err2" ||
            fail "$case: standard error differs"
    fi
    if [ -f "$d/anomalies.json" ] &&
       ! python3 - "$d" "$TMP/out" <<'EOF'
import json, os, sys
d, out = sys.argv[1], json.load(open(sys.argv[2]))
ok = True
want = json.load(open(os.path.join(d, 'anomalies.json')))
if out.get('anomalies') != want:
    print('anomalies %s, want %s' % (json.dumps(out.get('anomalies')),
                                     json.dumps(want)))
    ok = False
if os.path.exists(os.path.join(d, 'expect.json')):
    for path, want in json.load(open(os.path.join(d, 'expect.json'))).items():
        v = out
        try:
            for k in path.split('/'):
                v = v[int(k)] if isinstance(v, list) else v[k]
        except (KeyError, IndexError, ValueError, TypeError):
            v = None
        if v != want:
            print('%s: %s, want %s' % (path, json.dumps(v), json.dumps(want)))
            ok = False
sys.exit(0 if ok else 1)
EOF
    then
        fail "$case: summary"
    fi
    run "$case" --dump-all "$trace" || continue
    [ "$rc" = "$want" ] || fail "$case: --dump-all exit status $rc, want $want"

    # --strict[=LEVEL] turns anomalies at or above LEVEL into status 2.
    [ -f "$d/strict" ] || continue
    while read -r opt st; do
        for mode in --summary --dump-all; do
            run "$case" "$opt" "$mode" "$trace" || continue
            [ "$rc" = "$st" ] ||
                fail "$case: $opt $mode: exit status $rc, want $st"
        done
    done < "$d/strict"
done
echo "$nr cases, $bad failures"
[ "$nr" -gt 0 ] && [ "$bad" -eq 0 ]
