# SPDX-License-Identifier: GPL-2.0-only
# The inputs the parallel paths are checked on (threads.sh, apart.sh), in
# $traces: every real trace, the fixtures, the bad inputs, damaged copies
# of the real VMX trace, hostile attacks that put anomalies anywhere, and
# a host synthesized from every scenario of the tests.  Sourced after
# lib.sh.
: "${SYNTH:=build/xentrace-synth}"
traces=""
[ -d "$T" ] && traces="$T/x86-vmx-credit2-8cpu.xentrace $T/x86-qemu-svm-pvh.xentrace $T/x86-qemu-pv-dom0.xentrace $T/arm64-qemu-credit2-2dom.xentrace"
traces="$traces $(ls tests/fixtures/*/*.xentrace) $(ls tests/bad/*/trace.xentrace)"
if command -v python3 > /dev/null 2>&1; then
    if [ -d "$T" ]; then
        for k in tsc-flip tsc-reset garbage truncate; do
            python3 tests/tools/damage.py "$T/x86-vmx-credit2-8cpu.xentrace" \
                "$TMP/vmx-$k.xentrace" $k || { echo "damage.py $k failed"; exit 1; }
            traces="$traces $TMP/vmx-$k.xentrace"
        done
    fi
    for a in "tsc-reset 2000" "tsc-first-high 2000" "tsc-wrap 3000" "skew 200" \
             "silent-cpu 1000" "lost-blocked 20"; do
        # shellcheck disable=SC2086
        set -- $a
        python3 tests/hostile/hostile.py attack "$1" "$2" "$TMP/h-$1.xentrace" ||
            { echo "hostile.py $1 failed"; exit 1; }
        traces="$traces $TMP/h-$1.xentrace"
    done
fi
if [ -x "$SYNTH" ]; then
    "$SYNTH" -s examples/mixed.scn --records 150000 -o "$TMP/synth.xentrace" > /dev/null 2>&1 ||
        { echo "xentrace-synth failed"; exit 1; }
    traces="$traces $TMP/synth.xentrace"
    # Every other scenario of the tests, smaller: Arm (both formats), SVM,
    # VMX, the demo host, guest page tables.
    for s in examples/*.scn tests/compat/cr3.scn; do
        [ "$s" = examples/mixed.scn ] && continue
        b=$(basename "$s" .scn)
        "$SYNTH" -s "$s" --records 20000 -o "$TMP/synth-$b.xentrace" > /dev/null 2>&1 ||
            { echo "xentrace-synth failed on $s"; exit 1; }
        traces="$traces $TMP/synth-$b.xentrace"
    done
fi

# same_as_ref LABEL: a run ($TMP/got, got.err, status $rc) against the
# single pass's ($TMP/ref, ref.err, $ref_rc); counts it in $n, and on a
# difference says so and sets fail=1.
same_as_ref() {
    n=$((n + 1))
    if [ "$rc" != "$ref_rc" ] || ! cmp -s "$TMP/ref" "$TMP/got" ||
       ! cmp -s "$TMP/ref.err" "$TMP/got.err"; then
        echo "FAIL: $1 (status $rc, want $ref_rc)"
        diff "$TMP/ref" "$TMP/got" | head -5
        diff "$TMP/ref.err" "$TMP/got.err" | head -5
        fail=1
    fi
}
