#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The analyzer's JSON summary equals the synthesizer's truth, exactly:
# 20 seeds of each example scenario.  Skipped while the analyzer has no
# --format=json.
set -u
: "${SYNTH:=build/xentrace-synth}"
: "${XA:=build/xenalyze}"
[ -x "$SYNTH" ] || { echo "no $SYNTH"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$SYNTH" -s examples/demo.scn -o "$tmp/probe" || exit 1
if ! "$XA" --format=json --cpu-hz=2400000000 "$tmp/probe" \
        > "$tmp/probe.json" 2> /dev/null ||
   ! grep -q '"schema": *"xenalyze.summary/1"' "$tmp/probe.json"; then
    echo "analyzer has no --format=json summary yet"
    exit 77
fi
fail=0
# The comparison itself: a changed count, a missing exit and bad JSON are
# each found (status 1 naming the path; 2 for a file it cannot read).
"$SYNTH" -s examples/vmx.scn -S 1 -o "$tmp/t" -t "$tmp/t.json" || exit 1
"$XA" --format=json --cpu-hz=2400000000 "$tmp/t" > "$tmp/x.json" || exit 1
"$SYNTH" --compare "$tmp/t.json" "$tmp/x.json" > "$tmp/cmp" || {
    echo "vmx/1: the unchanged summary differs"; cat "$tmp/cmp"; fail=1; }
mutate() {  # $1: what to change in d1v0's CPUID exit (code 10)
    python3 - "$1" "$tmp/x.json" > "$tmp/bad.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[2]))
d = [d for d in doc["domains"] if d["id"] == 1][0]
v = [v for v in d["vcpus"] if v["id"] == 0][0]
e = [e for e in v["exits"] if e["code"] == 10][0]
if sys.argv[1] == "count":
    e["count"] = 999999
else:
    e["code"] = 9999
json.dump(doc, sys.stdout)
PY
}
mutate count || exit 1
"$SYNTH" --compare "$tmp/t.json" "$tmp/bad.json" > "$tmp/cmp"
rc=$?
if [ $rc -ne 1 ] ||
   ! grep -q '^domains\[id=1\]\.vcpus\[id=0\]\.exits\[code=10\]\.count: truth [0-9]*, analyzer 999999$' "$tmp/cmp"; then
    echo "a changed exit count was not found (status $rc)"; cat "$tmp/cmp"; fail=1
fi
mutate code || exit 1
"$SYNTH" --compare "$tmp/t.json" "$tmp/bad.json" > "$tmp/cmp"
rc=$?
if [ $rc -ne 1 ] || ! grep -q 'exits\[code=10\]: truth present, analyzer missing' "$tmp/cmp" ||
   ! grep -q 'exits\[code=9999\]: truth missing, analyzer present' "$tmp/cmp"; then
    echo "a renamed exit was not found (status $rc)"; cat "$tmp/cmp"; fail=1
fi
head -c 100 "$tmp/x.json" > "$tmp/bad.json"
"$SYNTH" --compare "$tmp/t.json" "$tmp/bad.json" > "$tmp/cmp"
rc=$?
if [ $rc -ne 2 ] || ! grep -q 'not valid JSON' "$tmp/cmp"; then
    echo "truncated JSON was not refused (status $rc)"; cat "$tmp/cmp"; fail=1
fi
for scn in vmx svm arm arm-format1 mixed; do
    f=examples/$scn.scn
    hz=$(sed -n 's/^hz *= *\([0-9]*\).*/\1/p' "$f")
    for seed in $(seq 1 20); do
        "$SYNTH" -s "$f" -S "$seed" -o "$tmp/t" -t "$tmp/t.json" || {
            echo "$scn/$seed: synth failed"; fail=1; continue; }
        if ! "$XA" --format=json --cpu-hz="$hz" "$tmp/t" > "$tmp/x.json"; then
            echo "$scn/$seed: analyzer failed"; fail=1; continue
        fi
        if ! "$SYNTH" --compare "$tmp/t.json" "$tmp/x.json" > "$tmp/cmp"; then
            echo "$scn/$seed: analyzer differs from the truth"
            head -20 "$tmp/cmp"
            fail=1
        fi
    done
done
exit $fail
