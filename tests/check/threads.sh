# SPDX-License-Identifier: GPL-2.0-only
# --threads=N changes nothing but the speed: the summary (text and JSON),
# the plots and interval tables, the exit rows (--exits), and the dump
# (whole, windowed, filtered by domain) of every real trace, the fixtures,
# the damaged inputs and a host synthesized from every scenario of the
# tests (examples/*.scn, tests/compat/cr3.scn) are byte for byte those of
# --threads=1, with the batches at their default size and forced small
# (--slice=N: a batch of the merge, and a job of the dump's formatting
# threads, ends every N records, so that every trace crosses thousands of
# boundaries; --slice=1 also takes the merge's per-record path instead of
# its runs).  A file and the same bytes on standard input give the same
# answers too.
#
# With more than one thread a file is read and merged in time slices
# (docs/parallel-summary.md); --slice-records=N forces slices of about N
# records, so that every trace crosses tens to thousands of cuts: the
# summary (text, JSON, CSV), plots, rows, dump and --count's counters
# must still be the single pass's.  Damaged copies of the real VMX trace
# and hostile attacks (TSC resets, outliers, skew, a silent CPU, lost
# records) put anomalies near cuts: there a slice that does not start in
# the state the slice before ends in is merged on from that one.
. tests/check/lib.sh
. tests/check/lib-inputs.sh
fail=0
n=0
for t in $traces; do
    [ -f "$t" ] || { echo "missing $t"; exit 1; }
    i=0
    for mode in "--cpu-hz=2.4G" \
                "--cpu-hz=2.4G --format=json" \
                "--format=csv" \
                "--cpu-hz=2.4G --scatterplot-runstate --scatterplot-pcpu --interval-domain-total-time-all -s" \
                "--exits=-" \
                "--dump-all --show-tsc" \
                "--dump-all --cpu-hz=1G --from=0.001 --to=0.02" \
                "--dump-all --domain=0" \
                "--count"; do
        i=$((i + 1))
        # shellcheck disable=SC2086
        $XA --threads=1 $mode "$t" > "$TMP/ref" 2> "$TMP/ref.err"
        ref_rc=$?
        for th in "--threads=2" "--threads=2 --slice=5" "--threads=3 --slice=64" \
                  "--threads=1 --slice=1" "--threads=2 --slice-records=1000" \
                  "--threads=4 --slice-records=100 --slice=64"; do
            # shellcheck disable=SC2086
            $XA $th $mode "$t" > "$TMP/got" 2> "$TMP/got.err"
            rc=$?
            same_as_ref "$th $mode $t"
        done
        # Standard input: the summaries (the dump of a file takes hints
        # from a first look at it, which a stream cannot give).
        if [ $i -le 5 ]; then
            # shellcheck disable=SC2086
            $XA --threads=2 --slice=5 $mode - < "$t" > "$TMP/got" 2> /dev/null
            n=$((n + 1))
            cmp -s "$TMP/ref" "$TMP/got" ||
                { echo "FAIL: standard input: $mode $t"; fail=1; }
        fi
    done
done
# The comparisons above must not be between empty outputs: the real VMX
# trace's dump has a line per record, its summary its domains.
if [ -d "$T" ]; then
    lines=$($XA --threads=2 --slice=5 -a "$T/x86-vmx-credit2-8cpu.xentrace" 2>/dev/null | wc -l)
    [ "$lines" -eq 180493 ] || { echo "vmx dump: $lines lines, want 180493"; fail=1; }
    $XA --threads=2 --slice=5 "$T/x86-vmx-credit2-8cpu.xentrace" 2>/dev/null |
        grep -q "^|-- Domain 0 " || { echo "vmx summary: no domain 0"; fail=1; }
fi
# The slices are real: the real VMX trace (180,493 records) at 1,000
# records a slice crosses over 100 cuts, and all but the first few slices
# are read apart (before a CPU found after the first round of windows
# joins the single pass's merge, a slice is merged on);
# with a TSC reset on a CPU halfway, the slices after it are merged on
# from the one before (their start is not where the single pass is).
slice_stats() {
    $XA --threads=2 --slice-records=1000 --slice-stats --count "$1" 2>&1 >/dev/null |
        sed -n 's/^xenalyze: slices \([0-9]*\) .*: \([0-9]*\) read apart, \([0-9]*\) merged on$/\1 \2 \3/p'
}
if [ -d "$T" ]; then
    # shellcheck disable=SC2046
    set -- $(slice_stats "$T/x86-vmx-credit2-8cpu.xentrace")
    { [ "${1:-0}" -ge 100 ] && [ "$3" -le 5 ] && [ $(($2 + $3)) = "$1" ]; } ||
        { echo "vmx slices: '$*', want over 100, at most 5 merged on"; fail=1; }
    if [ -f "$TMP/vmx-tsc-reset.xentrace" ]; then
        # shellcheck disable=SC2046
        set -- $(slice_stats "$TMP/vmx-tsc-reset.xentrace")
        { [ "${3:-0}" -ge 10 ] && [ "$2" -ge 10 ]; } ||
            { echo "vmx tsc-reset slices: '$*', want some read apart, some merged on"; fail=1; }
    fi
fi
echo "$n comparisons"
exit $fail
