#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Guest page tables (the model's cr3 tracking, --with-cr3-enumeration):
#  - a known answer: d1v0 loads gmfn 0x10000 at 3,000 (at 1 GHz; the
#    entry after the exit that wrote it), 0x20000 at 401,000, 0x10000
#    again at 1,201,000, 0x20000 at 2,501,000, each exit 1,000 cycles and
#    one reload (a flush) of 0x20000: the lines upstream prints for it,
#    without its percentiles (0x20000: guest 799,000 + 99,000 cycles,
#    in Xen 3 exits of 1,000, two of them its CR3 writes; the switch
#    away from it is the exit's time under the value it loads);
#  - --interval-cr3-schedule-ordered (upstream crashes at the first page
#    table it sees: it reads its table of listed values, which this option
#    leaves NULL), 1 ms rows: each value's time counts in the row of the
#    switch from it: 398,000 cycles of 0x10000 (first seen in that row:
#    "*"), 800,000 of 0x20000, 1,300,000 of 0x10000, and a last row
#    without any;
#  - bounded: 6,000 page tables under a 1 MiB budget, of which keys may
#    take 512 KiB, at 834 bytes each (CR3_COST: the model's entry in
#    arrays that double, its index entry, the summary's copy): at most
#    628 tracked; those past it are not tracked, their loads counted,
#    MEMORY_BUDGET said.
set -u
. tests/check/lib.sh
need_python
bad=0
fail() { echo "FAIL: $*"; bad=$((bad + 1)); }

PYTHONPATH=tests/tools python3 - "$TMP/k.xentrace" "$TMP/many.xentrace" <<'PY' || exit 1
import sys
from tracebuild import rec, rs, write
EXIT, ENTRY, CRW = 0x00081002, 0x00081001, 0x00082009
def cr3(t, val, dur=1000):
    return [rec(EXIT, t, 0x1c, 0x1234), rec(CRW, t + 10, 3, val),
            rec(ENTRY, t + dur)]
c0 = [rs(1000, 1, 0, 1, 0)]
c0 += cr3(2000, 0x10000000) + cr3(400000, 0x20000000)
c0 += cr3(1200000, 0x10000000) + cr3(2500000, 0x20000000)
c0 += cr3(2600000, 0x20000000)
c0 += [rs(3500000, 1, 0, 0, 2), rs(4700000, 1, 0, 2, 1)]
write(sys.argv[1], ((0, c0),))
c0 = [rs(1000, 1, 0, 1, 0)]
for i in range(6000):
    c0 += cr3(10000 + 5000 * i, (0x10000 + i) << 12)
write(sys.argv[2], ((0, c0),))
PY

printf '%s\n' '0.000000000    10000: 39.80 *' '0.001000000    20000: 80.00  ' \
    '0.002000000    10000: 130.00  ' '0.003000000' > "$TMP/kwant"
"$XA" --cpu-hz=1G -i 0.001 --interval-cr3-schedule-ordered "$TMP/k.xentrace" \
    > "$TMP/got" 2> /dev/null
diff -u "$TMP/kwant" "$TMP/got" || fail "--interval-cr3-schedule-ordered"

cat > "$TMP/want" <<'W'
    cr3 values:
     10000 (id 0):       2  0.00s 849000
          guest:       2  0.00s 99.88% 848000
          hv   :       2  0.00s  0.12%   1000
           + cr3:       2  0.00s  0.12%   1000
            Seen:    0.000002000-   0.002500000 switch 2 flush 0
     20000 (id 1):       1  0.00s 800000
          guest:       2  0.00s 99.67% 449000
          hv   :       3  0.00s  0.33%   1000
           + cr3:       2  0.00s  0.22%   1000
            Seen:    0.000400000-   0.001200000 switch 2 flush 1
W
"$XA" --cpu-hz=1G --with-cr3-enumeration "$TMP/k.xentrace" 2> /dev/null |
    sed -n '/^    cr3 values:/,/^--- Legend/p' | grep -v '^--- Legend' \
    > "$TMP/got"
diff -u "$TMP/want" "$TMP/got" || fail "the cr3 list of the known answer"
"$XA" --cpu-hz=1G "$TMP/k.xentrace" 2> /dev/null | grep -q 'cr3 values' &&
    fail "a cr3 list without --with-cr3-enumeration"

"$XA" --cpu-hz=1G --memory-budget=1 --with-cr3-enumeration \
    "$TMP/many.xentrace" > "$TMP/out" 2> "$TMP/err"
n=$(grep -c '^  [ 0-9a-f]\{8\} (id [0-9]*):' "$TMP/out")
u=$(sed -n 's/^    (\([0-9]*\) loads of values past the memory budget, not tracked)$/\1/p' "$TMP/out")
# Each value is loaded once; the last one's time is not counted (no
# switch from it), so it has no line of its own if tracked.
[ "$n" -gt 400 ] && [ "$n" -le 628 ] && [ -n "$u" ] && [ "$u" -gt 0 ] &&
    [ $((n + u)) -ge 5999 ] && [ $((n + u)) -le 6000 ] ||
    fail "budget: $n listed, ${u:-no} untracked loads"
grep -q 'MEMORY_BUDGET' "$TMP/out" "$TMP/err" ||
    fail "budget: no MEMORY_BUDGET anomaly"
"$XA" --cpu-hz=1G --with-cr3-enumeration "$TMP/many.xentrace" \
    > "$TMP/out" 2> /dev/null
[ "$(grep -c '^  [ 0-9a-f]\{8\} (id [0-9]*):' "$TMP/out")" = 5999 ] &&
    ! grep -q 'not tracked' "$TMP/out" || fail "6,000 page tables in 1 GiB"

[ $bad = 0 ] || exit 1
echo "cr3 list known answer; $n of 6,000 page tables in 1 MiB, $u loads untracked"
