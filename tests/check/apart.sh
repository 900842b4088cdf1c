# SPDX-License-Identifier: GPL-2.0-only
# Chunks analysed apart (docs/parallel-summary.md): with --apart-records=N
# the summary's model takes the records in chunks of N, each analysed by a
# model of its own warmed up on the N records before it, cut where the
# chunk begins and absorbed when its state at the cut is the summary
# model's, else taken by the summary's model itself.  The summary (text,
# JSON, CSV) and the anomalies must be the single pass's, byte for byte,
# on every input of threads.sh, at chunks of 100, 1,000 and 5,000 records.
#
# And the chunks must really be analysed apart where the warm-up tells the
# state: on the PV dom0 trace, 44 of its 45 chunks of 5,000 (the first has
# no warm-up); on 4 time-shifted copies of the real VMX trace (722 k
# records), every chunk of 100,000 after the first; while damage (a TSC
# reset halfway) and small warm-ups on a busy host send most back to the
# summary's model (the path that redoes them).
. tests/check/lib.sh
. tests/check/lib-inputs.sh
fail=0
n=0
for t in $traces; do
    [ -f "$t" ] || { echo "missing $t"; exit 1; }
    for mode in "--cpu-hz=2.4G" "--cpu-hz=2.4G --format=json" \
                "--format=csv"; do
        # shellcheck disable=SC2086
        $XA --threads=1 $mode "$t" > "$TMP/ref" 2> "$TMP/ref.err"
        ref_rc=$?
        for size in 100 1000 5000; do
            # shellcheck disable=SC2086
            $XA --threads=1 --apart-records=$size $mode "$t" > "$TMP/got" \
                2> "$TMP/got.err"
            rc=$?
            same_as_ref "--apart-records=$size $mode $t"
        done
    done
done

# "chunks apart redone" of a run.
apart_stats() {
    f=$1
    shift
    # shellcheck disable=SC2068
    $XA --threads=1 --slice-stats $@ "$f" 2>&1 >/dev/null |
        sed -n 's/^xenalyze: apart \([0-9]*\) chunks of [0-9]*: \([0-9]*\) analysed apart, \([0-9]*\) redone$/\1 \2 \3/p'
}
if [ -d "$T" ]; then
    # shellcheck disable=SC2046
    set -- $(apart_stats "$T/x86-qemu-pv-dom0.xentrace" --apart-records=5000)
    [ "$*" = "45 44 0" ] ||
        { echo "pv dom0 chunks: '$*', want 45 44 0"; fail=1; }
    if [ -x "$BUILD/trace-repeat" ]; then
        "$BUILD/trace-repeat" "$T/x86-vmx-credit2-8cpu.xentrace" \
            "$TMP/vmx-x4.xentrace" 4 > /dev/null || { echo "trace-repeat failed"; exit 1; }
        for mode in "--cpu-hz=2.4G" "--format=json"; do
            # shellcheck disable=SC2086
            $XA --threads=1 $mode "$TMP/vmx-x4.xentrace" > "$TMP/ref" 2>&1
            # shellcheck disable=SC2086
            $XA --threads=1 --apart-records=100000 $mode \
                "$TMP/vmx-x4.xentrace" > "$TMP/got" 2>&1
            n=$((n + 1))
            cmp -s "$TMP/ref" "$TMP/got" ||
                { echo "FAIL: vmx x4 $mode"; fail=1; }
        done
        # shellcheck disable=SC2046
        set -- $(apart_stats "$TMP/vmx-x4.xentrace" --apart-records=100000)
        [ "$*" = "8 7 0" ] ||
            { echo "vmx x4 chunks: '$*', want 8 7 0"; fail=1; }
    else
        echo "no $BUILD/trace-repeat"
        fail=1
    fi
    # shellcheck disable=SC2046
    set -- $(apart_stats "$TMP/vmx-tsc-reset.xentrace" --apart-records=1000)
    { [ "${1:-0}" -ge 150 ] && [ "$3" -ge 150 ]; } ||
        { echo "vmx tsc-reset chunks: '$*', want most of 150+ redone"; fail=1; }
fi
echo "$n comparisons"
exit $fail
