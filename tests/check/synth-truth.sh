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
