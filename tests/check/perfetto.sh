#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# --perfetto: every export decodes against Perfetto's schema with protoc,
# tests/tools/perfetto-check.py finds its tracks, sequence, interning and
# slices sound, and its exit, runstate and pCPU slices add up to the JSON
# summary of the same run (real traces) or to the synthesizer's truth
# (synthesized traces, with lost records).  Skipped (77) without protoc
# or the shared schema.
set -u
. tests/check/lib.sh
need_python
P=$SHARED/reference/perfetto
[ -f "$P/perfetto_trace.proto" ] || { echo "no $P/perfetto_trace.proto"; exit 77; }
command -v protoc >/dev/null 2>&1 || { echo "no protoc (protobuf-compiler)"; exit 77; }
fail=0

decode() {  # FILE.pb -> FILE.txt; protoc must read it without a word
    if ! protoc --decode=perfetto.protos.Trace -I "$P" \
            "$P/perfetto_trace.proto" < "$1" > "${1%.pb}.txt" \
            2> "$TMP/protoc.err" || [ -s "$TMP/protoc.err" ]; then
        echo "$2: protoc cannot decode the export"
        head -5 "$TMP/protoc.err"
        return 1
    fi
}

# Real traces: the timeline and the summary of one run agree.
for t in "$T"/*.xentrace tests/fixtures/*/*.xentrace; do
    [ -f "$t" ] || continue
    name=$(basename "$t" .xentrace)
    if ! "$XA" --perfetto="$TMP/$name.pb" -s --format=json "$t" \
            > "$TMP/$name.json" 2> "$TMP/$name.err"; then
        echo "$name: xenalyze failed"; cat "$TMP/$name.err"; fail=1; continue
    fi
    decode "$TMP/$name.pb" "$name" || { fail=1; continue; }
    printf '%s: ' "$name"
    python3 tests/tools/perfetto-check.py "$TMP/$name.txt" \
        --summary "$TMP/$name.json" || fail=1
done

# A window and a domain: nothing else drawn, slices cut at the edges.
v=$T/x86-vmx-credit2-8cpu.xentrace
if [ -f "$v" ]; then
    if "$XA" --cpu-hz=2.4G --from=0.01 --to=0.02 --domain=14 \
            --perfetto="$TMP/w.pb" "$v" 2> /dev/null &&
       decode "$TMP/w.pb" window; then
        printf 'window: '
        python3 tests/tools/perfetto-check.py "$TMP/w.txt" --hz 2400000000 \
            --window 10000000,20000000 --domains 14 || fail=1
    else
        fail=1
    fi
fi

# Damage met by the reader and the merge (a TSC off its timeline, a TSC
# reset, noise between windows, a window size that lies): each anomaly the
# summary counts is an instant on its CPU's track.
if [ -f "$v" ]; then
    for k in tsc-flip tsc-reset garbage truncate; do
        python3 tests/tools/damage.py "$v" "$TMP/d-$k.xt" "$k" || { fail=1; continue; }
        "$XA" --perfetto="$TMP/d-$k.pb" -s --format=json "$TMP/d-$k.xt" \
            > "$TMP/d-$k.json" 2> /dev/null
        decode "$TMP/d-$k.pb" "damaged $k" || { fail=1; continue; }
        printf 'damaged %s: ' "$k"
        python3 tests/tools/perfetto-check.py "$TMP/d-$k.txt" \
            --summary "$TMP/d-$k.json" --anomalies || fail=1
    done
fi

# Synthesized hosts (VMX, SVM, Arm at 62.5 MHz, mixed), with lost-records
# gaps: the timeline equals the truth the synthesizer wrote.
if [ -x "$SYNTH" ]; then
    for scn in vmx svm arm mixed; do
        f=examples/$scn.scn
        hz=$(sed -n 's/^hz *= *\([0-9]*\).*/\1/p' "$f")
        "$SYNTH" -s "$f" -S 5 --lost 3 -o "$TMP/$scn.xt" \
            -t "$TMP/$scn.truth.json" || { fail=1; continue; }
        "$XA" --cpu-hz="$hz" --perfetto="$TMP/$scn.pb" "$TMP/$scn.xt" \
            2> /dev/null || { echo "synth $scn: xenalyze failed"; fail=1; continue; }
        decode "$TMP/$scn.pb" "synth $scn" || { fail=1; continue; }
        printf 'synth %s: ' "$scn"
        python3 tests/tools/perfetto-check.py "$TMP/$scn.txt" \
            --summary "$TMP/$scn.truth.json" || fail=1
    done
fi
exit $fail
