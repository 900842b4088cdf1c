# SPDX-License-Identifier: GPL-2.0-only
# Known answers by construction: a hand-built trace whose every count and
# cycle total is stated below, checked in JSON and text.
#  pCPU 0: d1v0 starts running at 1000; 10 CPUID exits of 500 cycles each
#  (closed by VMENTRY); an I/O exit (port 0x84 write) closed after 700
#  cycles by preemption (running->runnable); d1v0 runs again at 20000; a
#  CPUID exit at 20100 is still open when the buffer overflows (lost
#  records from 20200 to 30000, naming d1v0): discarded; after the gap
#  d1v0 runs from 30000 (lost 9800 cycles), one more CPUID exit of 300.
#  pCPU 1: d0v0 runs from 1000 and does 3 grant maps and 1 unmap (which
#  upstream does not count).
. tests/check/lib.sh
need_python
PYTHONPATH=tests/tools python3 - "$TMP/ka.xentrace" <<'PY' || exit 1
import sys
from tracebuild import rec, rs, write
c0 = [rs(1000, 1, 0, 1, 0)]
t = 2000
for i in range(10):
    c0 += [rec(0x81102, t, 10, 0x1000 + i, 0), rec(0x8200e, None, 1, 0, 0, 0, 0),
           rec(0x81001, t + 500)]
    t += 1000
c0 += [rec(0x81102, 15000, 30, 0x2000, 0), rec(0x82216, None, 0x84, 1),
       rs(15700, 1, 0, 0, 1), rs(15700, 32767, 0, 1, 0),
       rs(20000, 32767, 0, 0, 1), rs(20000, 1, 0, 1, 0),
       rec(0x81102, 20100, 10, 0x3000, 0)]
lost = rec(0x1f001, 30000, 5, 0 << 16 | 1, 20200, 0)   # vcpu 0 << 16 | dom 1
c0 += [lost, rec(0x81102, 30100, 10, 0x4000, 0), rec(0x81001, 30400),
       rs(40000, 1, 0, 0, 2)]
c1 = [rs(1000, 0, 0, 1, 0)]
for i in range(3):
    c1.append(rec(0x10f001, 2000 + i * 100, 7, 1))
c1 += [rec(0x10f002, 2500, 7, 1), rs(41000, 0, 0, 0, 2)]
write(sys.argv[1], ((0, c0), (1, c1)))
PY
$XA --format=json --cpu-hz=1G "$TMP/ka.xentrace" > "$TMP/ka.json" || exit 1
python3 - "$TMP/ka.json" <<'PY' || exit 1
import json, sys
d = json.load(open(sys.argv[1]))
dom = {x["id"]: x for x in d["domains"]}
v = dom[1]["vcpus"][0]
ex = {e["code"]: e for e in v["exits"]}
def check(what, got, want):
    if got != want:
        print("%s: got %r, want %r" % (what, got, want))
        sys.exit(1)
check("CPUID count", ex[10]["count"], 11)
check("CPUID cycles", ex[10]["cycles"], 10 * 500 + 300)
check("CPUID min/max", (ex[10]["min"], ex[10]["max"]), (300, 500))
check("CPUID sub", [(s["key"], s["count"], s["cycles"]) for s in ex[10]["sub"]],
      [("cpuid:0x00000001", 10, 5000)])
check("IO count/cycles", (ex[30]["count"], ex[30]["cycles"]), (1, 700))
check("IO sub", [(s["key"], s["cycles"]) for s in ex[30]["sub"]], [("io:0x0084:w", 700)])
check("exit codes", sorted(ex), [10, 30])
rs = v["runstates"]
check("running", (rs["running"]["count"], rs["running"]["cycles"]),
      (3, (15700 - 1000) + (20200 - 20000) + (40000 - 30000)))
check("runnable preempt", (rs["runnable_preempt"]["count"], rs["runnable_preempt"]["cycles"]),
      (1, 20000 - 15700))
check("lost", (rs["lost"]["count"], rs["lost"]["cycles"]), (1, 30000 - 20200))
check("grant ops d0", dom[0]["grant_ops"], {"map": 3, "unmap": 1, "transfer": 0})
check("anomalies", d["anomalies"], {"LOST_RECORDS": 1, "EXITS_DISCARDED": 1})
check("lost records", d["diagnostics"]["lost_records"], 5)
print("known answers: all equal")
PY
$XA --cpu-hz=1G "$TMP/ka.xentrace" > "$TMP/ka.txt" || exit 1
# count, total(s), %trace, %count, %time, mean(cyc), mean(us), min(us)...
grep -Eq "^   CPUID \[0xa\] +11 +0\.000005 +[0-9.]+ +91\.67 +88\.33 +481 +0\.481 +0\.300 " "$TMP/ka.txt" || { grep -A1 CPUID "$TMP/ka.txt"; exit 1; }
grep -Eq "^      io:0x0084:w +1 +0\.000001 +[0-9.]+ +8\.33 +11\.67 +700 +0\.700 +0\.700 " "$TMP/ka.txt" || { grep io: "$TMP/ka.txt"; exit 1; }
grep -Eq "^   all exits +12 +0\.000006 " "$TMP/ka.txt" || { grep "all exits" "$TMP/ka.txt"; exit 1; }
grep -q "Grant table ops: map 3, unmap 1, transfer 0" "$TMP/ka.txt" || exit 1
