#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Upstream xenalyze's options (tests/compat/upstream-options.txt): no option
# silently does nothing.
#  - compared: our output on the real traces equals upstream's, kept in
#    tests/compat/expected/ (tests/compat/make-reference.sh), line for line
#    with times to upstream's scale (tests/tools/compare-compat.py);
#  - refused: exit 1, the reason on standard error, nothing on standard
#    output; no-effect: the summary unchanged and one note for both;
#  - mapped: --tolerance and --tsc-loop-fatal give --strict's status;
#  - -s -a: the dump, then the summary; -i is --interval; --progress
#    writes nothing when standard error is not a terminal.
set -u
. tests/check/lib.sh
need_shared
need_python
bad=0
fail() { echo "FAIL: $*"; bad=$((bad + 1)); }
E=tests/compat/expected
SYM=tests/compat/symbols.map
VMX=$T/x86-vmx-credit2-8cpu.xentrace

# Every upstream option is listed, and every listed one is ours.
n=$(grep -vc '^#' tests/compat/upstream-options.txt)
[ "$n" = 46 ] || fail "upstream-options.txt lists $n options, upstream has 46"
"$XA" --help > "$TMP/help"
grep -v '^#' tests/compat/upstream-options.txt | while read -r name class arg; do
    grep -q -- "--$name\\b" "$TMP/help" || echo "--$name"
done > "$TMP/missing"
[ -s "$TMP/missing" ] && fail "not in --help: $(tr '\n' ' ' < "$TMP/missing")"

# compared: the options of list $4 on trace $1 (expected files $2) at $3
compare() {
    path=$1 name=$2 hz=$3 list=$4
    grep -v '^#' "$list" | while read -r n kind opts; do
        [ -n "$n" ] || continue
        want=$E/$name/$n.txt
        [ -f "$want" ] || want=$want.xz
        [ -f "$want" ] || { echo "FAIL: no $E/$name/$n.txt"; continue; }
        opts=$(echo "$opts" | sed "s|\$SYM|$SYM|g")
        # shellcheck disable=SC2086
        "$XA" --cpu-hz="$hz" $opts "$path" > "$TMP/out" \
            2> "$TMP/err" || { echo "FAIL: $name $opts: status $?"; continue; }
        python3 tests/tools/compare-compat.py "$kind" "$hz" "$want" \
            "$TMP/out" > "$TMP/cmp" || {
            echo "FAIL: $name $opts:"; cat "$TMP/cmp"; continue; }
        echo "$name $opts: $(cat "$TMP/cmp")"
    done
}
for tr in x86-vmx-credit2-8cpu:2400000000 x86-qemu-pv-dom0:2299999000 \
          arm64-qemu-credit2-2dom:62500000; do
    compare "$T/${tr%%:*}.xentrace" "${tr%%:*}" "${tr#*:}" \
        tests/compat/options.txt
done > "$TMP/compared"
# The synthetic traces (tests/compat/*.scn), made as make-reference.sh
# made them: guest page-table switches and shadow paging, which the real
# traces lack; each with its options-NAME.txt, else options-synth.txt.
for scn in tests/compat/*.scn; do
    name=synth-$(basename "$scn" .scn)
    list=tests/compat/options-$(basename "$scn" .scn).txt
    [ -f "$list" ] || list=tests/compat/options-synth.txt
    "$SYNTH" -s "$scn" -o "$TMP/$name.xentrace" ||
        { echo "FAIL: $SYNTH -s $scn"; continue; }
    # The trace upstream's outputs were made from (make-reference.sh):
    # otherwise every comparison below fails for a different trace.
    sum=$(cksum < "$TMP/$name.xentrace")
    [ "$sum" = "$(cat "$E/$name/trace.cksum")" ] ||
        echo "FAIL: $SYNTH -s $scn: not the trace of $E/$name (cksum $sum)"
    compare "$TMP/$name.xentrace" "$name" 2400000000 "$list"
done >> "$TMP/compared"
cat "$TMP/compared"
grep -q FAIL "$TMP/compared" && bad=$((bad + 1))
compared=$(grep -c "lines equal" "$TMP/compared")
# Not compared for nothing: the VMX trace has lines in each of these.
for o in scatterplot-wake-to-halt scatterplot-interrupt-eip=0xfa with-interrupt-eip-enumeration=0xfa \
         histogram-interrupt-eip=0xfa symbol-file scatterplot-runstate; do
    grep -q "^x86-vmx-credit2-8cpu .*--$o.*: [1-9][0-9]* lines equal" \
        "$TMP/compared" || fail "--$o: no line compared on the VMX trace"
done
grep -q "scatterplot-wake-to-halt: 385 lines equal" "$TMP/compared" ||
    fail "--scatterplot-wake-to-halt: not 385 lines equal to upstream's"
# The cr3 options on the synthetic trace: its 699 page-table switches,
# 8 page tables listed (65 lines), rows of each interval table
for o in "--scatterplot-cr3-switch: 699" \
         "--scatterplot-cr3-switch --with-cr3-enumeration: 699" \
         "--with-cr3-enumeration: 65" "--interval-cr3-schedule-time-all -i 0.002: 15" \
         "--interval-cr3-short-summary=66049 -i 0.001: 30" \
         "--interval-domain-short-summary=1 -i 0.002: 15"; do
    grep -q "^synth-cr3 ${o%%:*}: ${o##*: } lines equal" "$TMP/compared" ||
        fail "synth-cr3 ${o%%:*}: not ${o##*: } lines equal to upstream's"
done

# Shadow paging on the synthetic trace (tests/compat/shadow.scn): 356
# early unshadows, unpins and promotions; 353 with page-table ids (3
# promotions before a page table is loaded have none)
for o in "--scatterplot-unpin-promote: 356" \
         "--scatterplot-unpin-promote --with-cr3-enumeration: 353"; do
    grep -q "^synth-shadow ${o%%:*}: ${o##*: } lines equal" "$TMP/compared" ||
        fail "synth-shadow ${o%%:*}: not ${o##*: } lines equal to upstream's"
done

# --scatterplot-unpin-promote, known answers as upstream's rules give them:
# the exit's first page-fault record decides (emulate: early unshadow -10,
# unpin 0, promote 2; fixup: unpin, promote; other: nothing), the flags are
# the record's last word; an unpin alone, a shadow record outside an exit
# or without its flags word plot nothing.  Exits at 1..9 us: 2-level
# emulate (unpin, early + promote), fixup (early + promote: no -10),
# unpin alone, unshadow then fixup, 4-level emulate (promote; upstream
# stops at it: it expects 8 words), 4.19 unshadow with flags, a short
# fixup, a CR3 load of gmfn 0x10500, a fixup with promote.
PYTHONPATH=tests/tools python3 - "$TMP/sh.xentrace" <<'PY' || exit 1
import sys
from tracebuild import rec, rs, write
EXIT, ENTRY, CRW = 0x00081102, 0x00081001, 0x00082109
SH, UNPIN, P, E = 0x0040f000, 0x0040f00d, 0x200, 0x2000
def ex(t, *recs, code=0):
    return [rec(EXIT, t, code, 0x1000, 0)] + list(recs) + [rec(ENTRY, t + 500)]
c0 = [rs(1000, 5, 0, 1, 0)]
c0 += ex(2000, rec(UNPIN, None, 0x10500, 0), rec(SH + 8, None, 1, 2, 3, E | P))
c0 += ex(3000, rec(SH + 6, None, 1, 2, E | P))
c0 += ex(4000, rec(UNPIN, None, 0x10500, 0))
c0 += ex(5000, rec(SH + 9, None, 7, 8), rec(SH + 6, None, 1, 2, P))
c0 += ex(6000, rec(SH + 0x208, None, 1, 0, 2, 0, 3, 0, P))
c0 += ex(7000, rec(SH + 9, None, 7, 8, E | P))
c0 += [rec(SH + 6, None, 1, 2, P)]
c0 += ex(8000, rec(SH + 6, None, 1, 2))
c0 += ex(9000, rec(CRW, None, 3, 0x10500000, 0), code=28)
c0 += ex(10000, rec(SH + 6, None, 1, 2, P))
c0 += [rs(11000, 5, 0, 0, 2)]
write(sys.argv[1], ((0, c0),))
PY
printf '%s\n' "0.000001000 -10" "0.000001000 0" "0.000001000 2" \
    "0.000002000 2" "0.000005000 2" "0.000009000 2" > "$TMP/shwant"
printf '%s\n' "0.000001000 -10" "0.000001000 0" "0.000009000 0" \
    > "$TMP/shwant-ids"
"$XA" --cpu-hz=1G --scatterplot-unpin-promote "$TMP/sh.xentrace" \
    > "$TMP/got" 2> /dev/null
diff -u "$TMP/shwant" "$TMP/got" || fail "--scatterplot-unpin-promote"
"$XA" --cpu-hz=1G --scatterplot-unpin-promote --with-cr3-enumeration \
    "$TMP/sh.xentrace" > "$TMP/got" 2> /dev/null
diff -u "$TMP/shwant-ids" "$TMP/got" ||
    fail "--scatterplot-unpin-promote --with-cr3-enumeration"

# The same guests with Xen 4.19's unshadow records (a flags word more,
# which upstream master stops at): the same plot, and the dump prints the
# flags of every unshadow record
"$SYNTH" -s tests/compat/shadow.scn --set xen=4.19 -o "$TMP/sh419.xentrace"
"$SYNTH" -s tests/compat/shadow.scn -o "$TMP/sh418.xentrace"
for v in 418 419; do
    "$XA" --scatterplot-unpin-promote "$TMP/sh$v.xentrace" > "$TMP/p$v" 2>&1
    "$XA" -a "$TMP/sh$v.xentrace" 2> /dev/null | grep unshadow_ > "$TMP/u$v"
done
n=$(wc -l < "$TMP/u418")
[ "$n" -gt 10 ] && cmp -s "$TMP/p418" "$TMP/p419" &&
[ "$(grep -c ' flags=0x[0-9a-f]*$' "$TMP/u419")" = "$n" ] &&
[ "$(grep -c 'flags=' "$TMP/u418")" = 0 ] ||
    fail "Xen 4.19 unshadow records: plot or dump differs ($n records)"

# The log-volume table, line for line as upstream's summary prints it
# (../shared/reference: upstream's summaries at these rates)
for tr in x86-vmx-credit2-8cpu:2.4G x86-qemu-pv-dom0:2299.999M \
          arm64-qemu-credit2-2dom:62.5M; do
    name=${tr%%:*}
    ref=$R/$name.summary.txt
    [ -f "$ref" ] || { echo "no $ref: log volume not compared"; continue; }
    vol() { sed -n '/^--- Log volume summary ---$/,/^[^ -]/p' "$1" |
            grep -v '^[^ -]'; }
    "$XA" --cpu-hz="${tr#*:}" "$T/$name.xentrace" > "$TMP/sum" 2> /dev/null
    vol "$TMP/sum" > "$TMP/v1"
    vol "$ref" > "$TMP/v2"
    if [ "$(grep -c '^ hvm \|^ sched ' "$TMP/v2")" = 0 ] ||
       ! diff -u "$TMP/v2" "$TMP/v1"; then
        fail "$name: log volume table differs from upstream's"
    else
        echo "$name: log volume table equal to upstream's ($(wc -l < "$TMP/v1") lines)"
    fi
done

# refused
grep -v '^#' tests/compat/upstream-options.txt |
while read -r name class arg; do
    [ "$class" = refused ] || continue
    opt=--$name
    [ "$arg" != - ] && opt="$opt=$arg"
    "$XA" "$opt" "$VMX" > "$TMP/out" 2> "$TMP/err"
    rc=$?
    if [ $rc != 1 ] || [ -s "$TMP/out" ] ||
       ! grep -q -- "--$name (upstream xenalyze) is not supported: ." "$TMP/err"
    then
        echo "FAIL: $opt: status $rc, $(wc -l < "$TMP/out") lines out, err: $(head -1 "$TMP/err")"
    fi
done > "$TMP/refused"
[ -s "$TMP/refused" ] && { cat "$TMP/refused"; bad=$((bad + 1)); }

# no-effect: said once, summary unchanged
"$XA" "$VMX" > "$TMP/plain" 2> /dev/null
"$XA" --sample-size=1024 --sample-max=0 "$VMX" > "$TMP/out" 2> "$TMP/err"
cmp -s "$TMP/plain" "$TMP/out" || fail "--sample-size changes the summary"
[ "$(grep -c 'has no effect' "$TMP/err")" = 1 ] ||
    fail "--sample-size/--sample-max: not one note"

# -s -a: the dump, then the summary (either order)
"$XA" -a "$VMX" > "$TMP/dump" 2> /dev/null
cat "$TMP/dump" "$TMP/plain" > "$TMP/both"
for o in "-s -a" "-a -s"; do
    # shellcheck disable=SC2086
    "$XA" $o "$VMX" > "$TMP/out" 2> /dev/null
    cmp -s "$TMP/both" "$TMP/out" || fail "$o: not the dump then the summary"
done

# -i
"$XA" -i 0.25 --interval-domain-total-time-all "$VMX" > "$TMP/a" 2>/dev/null
"$XA" --interval=0.25 --interval-domain-total-time-all "$VMX" > "$TMP/b" 2>/dev/null
[ "$(wc -l < "$TMP/a")" -gt 10 ] && cmp -s "$TMP/a" "$TMP/b" || fail "-i"

# --dump-raw-reads reads as the rest does: from a pipe the file's lines;
# on the damaged traces of tests/bad the records --count counts (and
# windows, but for the windows of an impossible CPU, skipped whole)
for f in "$VMX" tests/bad/*/trace.xentrace; do
    "$XA" --dump-raw-reads "$f" > "$TMP/ra" 2> /dev/null
    "$XA" --dump-raw-reads - < "$f" > "$TMP/rb" 2> /dev/null
    cmp -s "$TMP/ra" "$TMP/rb" || fail "--dump-raw-reads of $f from a pipe"
    "$XA" --count "$f" > "$TMP/rc" 2> /dev/null
    r=$(sed -n 's/^data_records //p' "$TMP/rc")
    w=$(sed -n 's/^windows //p' "$TMP/rc")
    case $f in *bad-cpu*) w=$((w - 1)) ;; esac
    [ "$(grep -vc ' 1f003 ' "$TMP/ra") $(grep -c ' 1f003 ' "$TMP/ra")" = "$r $w" ] ||
        fail "--dump-raw-reads of $f: not --count's $r records, $w windows"
done
# --dump-raw-process with -a: each record's raw line before its dump
# line; with -s: the summary after them
"$XA" --dump-raw-process -a "$VMX" 2> /dev/null | grep -v '^\* ' > "$TMP/out"
cmp -s "$TMP/dump" "$TMP/out" || fail "--dump-raw-process -a: not the dump"
"$XA" --dump-raw-process -a "$VMX" 2> /dev/null | head -4 |
    sed 's/^\(.\).*/\1/' | tr -d '\n' > "$TMP/out"
[ "$(cat "$TMP/out")" = "* * " ] || fail "--dump-raw-process -a: order $(cat "$TMP/out")"
"$XA" --dump-raw-process -s "$VMX" 2> /dev/null > "$TMP/out"
grep -v '^\* ' "$TMP/out" | cmp -s - "$TMP/plain" &&
[ "$(grep -c '^\* ' "$TMP/out")" = 180493 ] ||
    fail "--dump-raw-process -s: not the 180,493 records, then the summary"
"$XA" --dump-raw-reads -s "$VMX" > "$TMP/out" 2> "$TMP/err"
[ $? = 1 ] && [ ! -s "$TMP/out" ] || fail "--dump-raw-reads -s accepted"

# --progress: not a terminal, so nothing more on standard error
"$XA" --progress "$VMX" > "$TMP/out" 2> "$TMP/err"
"$XA" "$VMX" > /dev/null 2> "$TMP/err0"
cmp -s "$TMP/plain" "$TMP/out" && cmp -s "$TMP/err0" "$TMP/err" ||
    fail "--progress without a terminal"

# --symbol-file in System.map's three columns, in any order: the dump
# names the guest rip of exits (the VMX trace's first exit: 0x55ef67783d61)
printf '7f0000000000 T libc_thing\n55ef67783d00 t bar\nnot a symbol\n' \
    > "$TMP/System.map"
"$XA" -a --symbol-file="$TMP/System.map" "$VMX" 2> /dev/null |
    grep -m1 'vmexit' > "$TMP/line"
grep -q 'rip=0x55ef67783d61 (bar +61)$' "$TMP/line" ||
    fail "--symbol-file in the dump: $(cat "$TMP/line")"
"$XA" --symbol-file="$TMP/none" "$VMX" > "$TMP/out" 2> "$TMP/err"
[ $? = 1 ] && [ ! -s "$TMP/out" ] || fail "--symbol-file of a missing file"

# --interval-domain-grant-maps: upstream's counter is never incremented
# (its mem_page_grant() only dumps), so the real traces' zeros are all it
# can be compared on; here a known answer: grant maps done for d5 while a
# vCPU runs, 3 in the first millisecond, 2 in the second (d6's not)
PYTHONPATH=tests/tools python3 - "$TMP/g.xentrace" <<'PY' || exit 1
import sys
from tracebuild import rec, rs, write
GM = 0x0010f001
c0 = [rs(1000, 0, 0, 1, 0),
      rec(GM, 2000, 5), rec(GM, 3000, 5), rec(GM, 4000, 6),
      rec(GM, 500000, 5), rec(GM, 1500000, 5), rec(GM, 1600000, 5),
      rec(GM, 3200000, 5), rs(3500000, 0, 0, 0, 2)]
c1 = [rs(1500, 5, 0, 1, 0), rs(3400000, 5, 0, 0, 2)]
write(sys.argv[1], ((0, c0), (1, c1)))
PY
printf '0.000000000 3\n0.001000000 2\n0.002000000 0\n' > "$TMP/gwant"
"$XA" --cpu-hz=1G -i 0.001 --interval-domain-grant-maps=5 "$TMP/g.xentrace" \
    > "$TMP/got" 2> /dev/null
diff -u "$TMP/gwant" "$TMP/got" || fail "--interval-domain-grant-maps"

# --with-pio-enumeration, --with-mmio-enumeration: every port's and
# address's row, as --top=0 (the VMX trace's EPT violations: hundreds of
# guest-physical pages, 10 rows per exit by default)
"$XA" --top=0 "$VMX" > "$TMP/top0" 2> /dev/null
for o in --with-pio-enumeration --with-mmio-enumeration; do
    "$XA" $o "$VMX" > "$TMP/out" 2> /dev/null
    cmp -s "$TMP/top0" "$TMP/out" || fail "$o: not the summary of --top=0"
done
[ "$(grep -c '^ *npf:0x' "$TMP/top0")" -gt 100 ] &&
[ "$(grep -c '^ *npf:0x' "$TMP/plain")" -le 30 ] ||
    fail "--with-mmio-enumeration lists no more addresses than the default"

# --mmio-enumeration-skip-vga=1: MMIO exits to upstream's VGA range
# [0xa0000, 0xbffff) get no row (upstream's default); 0: they do (ours).
# Four EPT exits writing 0xa0010, 0xbfffe, 0xbffff, 0xfee00300.
PYTHONPATH=tests/tools python3 - "$TMP/vga.xentrace" <<'PY' || exit 1
import sys
from tracebuild import rec, rs, write
EXIT, ENTRY, NPF, MMW = 0x00081002, 0x00081001, 0x00082021, 0x00082217
def mmio(t, gpa):
    return [rec(EXIT, t, 48, 0x1234), rec(NPF, t + 5, gpa, 0, 0, 0, 0x182, 5),
            rec(MMW, t + 10, gpa, 0x55), rec(ENTRY, t + 1000)]
c0 = [rs(1000, 1, 0, 1, 0)]
c0 += mmio(2000, 0xa0010) + mmio(4000, 0xbfffe) + mmio(6000, 0xbffff)
c0 += mmio(8000, 0xfee00300) + [rs(9000, 1, 0, 0, 2)]
write(sys.argv[1], ((0, c0),))
PY
for v in 0 1; do
    "$XA" --cpu-hz=1G --mmio-enumeration-skip-vga=$v "$TMP/vga.xentrace" \
        2> /dev/null | sed -n 's/^   EPT_VIOLATION \[0x30\] *\([0-9]*\) .*/exits \1/p
                              s/^      \(mmio:0x[0-9a-f]*\):w .*/\1/p' |
        tr '\n' ' ' > "$TMP/vga$v"
done
[ "$(cat "$TMP/vga0")" = "exits 4 mmio:0x000a0010 mmio:0x000bfffe mmio:0x000bffff mmio:0xfee00300 " ] &&
[ "$(cat "$TMP/vga1")" = "exits 4 mmio:0x000bffff mmio:0xfee00300 " ] ||
    fail "--mmio-enumeration-skip-vga: $(cat "$TMP/vga0") / $(cat "$TMP/vga1")"

# --show-default-domain-summary: the default domain is listed, with the
# eight vCPUs upstream lists under it on the VMX trace
"$XA" --show-default-domain-summary "$VMX" > "$TMP/out" 2> /dev/null
sed -n '/^|-- Domain 32768 /,/^--- Legend/p' "$TMP/out" > "$TMP/dd"
[ "$(grep -c '^-- v[0-9]* --$' "$TMP/dd")" = 8 ] && ! grep -q '^|-- Domain 32768 ' "$TMP/plain" ||
    fail "--show-default-domain-summary"

# mapped: tolerance N fails (2) on anomalies above N; tsc-loop-fatal on TSCs
B=tests/bad/tsc-backwards/trace.xentrace
st() { "$XA" "$@" > /dev/null 2>&1; echo $?; }
[ "$(st --tolerance=2 "$B")" = 2 ] || fail "--tolerance=2: TSC_BACKWARDS (sanity) is above warn"
[ "$(st --tolerance=3 "$B")" = 0 ] || fail "--tolerance=3 on sanity anomalies"
[ "$(st --strict --tolerance=6 "$B")" = 0 ] || fail "--tolerance=6 after --strict"
[ "$(st --tsc-loop-fatal "$B")" = 2 ] || fail "--tsc-loop-fatal on TSC_BACKWARDS"
[ "$(st --tsc-loop-fatal "$VMX")" = 0 ] || fail "--tsc-loop-fatal on the VMX trace"
[ "$(st --tolerance=7 "$VMX")" = 1 ] || fail "--tolerance=7 accepted"

[ $bad = 0 ] || exit 1
echo "$compared option runs equal to upstream's; refused, no-effect, mapped, -s -a, -i, --progress as documented"
