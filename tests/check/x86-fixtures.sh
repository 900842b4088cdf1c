# SPDX-License-Identifier: GPL-2.0-only
# The real x86 traces of tests/fixtures/x86 (Debian Xen 4.17 under QEMU)
# against what their workloads did and what lab/x86/check.py counted
# (tests/fixtures/x86/README.md): SVM found without an option, every
# CPUID leaf of the workload exactly 100 times, the port and MSR counts,
# and the PV dom0's hypercalls and page faults.
. tests/check/lib.sh
need_python
F=tests/fixtures/x86
$XA --format=json --cpu-hz=2100M "$F/x86-qemu-xen417-pvh-svm.xentrace" > "$TMP/pvh.json" || exit 1
$XA --format=json --cpu-hz=2100M "$F/x86-qemu-xen417-pv-dom0.xentrace" > "$TMP/pv.json" || exit 1
python3 - "$TMP/pvh.json" "$TMP/pv.json" <<'PY' || exit 1
import json, sys
def fail(msg):
    print(msg)
    sys.exit(1)
s = json.load(open(sys.argv[1]))
t = s["trace"]
if (t["arch"], t.get("hvm_mode"), t["records"]) != ("x86-svm", "svm", 48195):
    fail("pvh trace: %r" % t)
exits, subs = {}, {}
for d in s["domains"]:
    for v in d["vcpus"]:
        for e in v["exits"]:
            exits[e["reason"]] = exits.get(e["reason"], 0) + e["count"]
            for x in e["sub"]:
                subs[x["key"]] = subs.get(x["key"], 0) + x["count"]
# Totals from check.py; an exit still open when the trace ends is not
# counted, so allow one per vCPU.
for name, want in (("CPUID", 2033), ("RDTSC", 3803), ("IOIO", 400),
                   ("VMMCALL", 441), ("MSR", 100), ("NPF", 300), ("HLT", 67)):
    got = exits.get("VMEXIT_" + name, 0)
    if not want - 2 <= got <= want:
        fail("%s exits %d, check.py %d" % (name, got, want))
for loop in range(20):
    leaf = "cpuid:0x%08x" % (0x5eed0000 | loop)
    if subs.get(leaf) != 100:
        fail("%s: %r, the workload ran 100" % (leaf, subs.get(leaf)))
    hc = "hypercall:%d" % (0x5eed0000 | loop)
    if subs.get(hc) != 5:
        fail("%s: %r, the workload made 5" % (hc, subs.get(hc)))
for key, want in (("io:0x0084:w", 200), ("io:0x0061:r", 200),
                  ("msr:0x0000001b:r", 100)):
    if subs.get(key) != want:
        fail("%s: %r, want %d" % (key, subs.get(key), want))
mmio = sum(n for k, n in subs.items() if k.startswith("mmio:"))
if mmio != 300:
    fail("MMIO keys %d, check.py 300 xAPIC EOIs" % mmio)

p = json.load(open(sys.argv[2]))
if p["trace"]["arch"] != "x86-pv":
    fail("pv trace: %r" % p["trace"])
hc, ev = {}, {}
for d in p["domains"]:
    for v in d["vcpus"]:
        for x in v["hypercalls"]:
            hc[x["name"]] = hc.get(x["name"], 0) + x["count"]
        for x in v["pv_events"]:
            ev[x["name"]] = ev.get(x["name"], 0) + x["count"]
for name, want in (("vcpu_op", 3550), ("mmu_update", 10657), ("iret", 6740),
                   ("set_segment_base", 1524)):
    if hc.get(name) != want:
        fail("PV hypercall %s: %r, check.py %d" % (name, hc.get(name), want))
if sum(hc.values()) - sum(n for k, n in hc.items() if k.startswith("multicall:")) != 24472:
    fail("PV hypercalls %d, check.py 24472" % sum(hc.values()))
if ev.get("page_fault") != 2077:
    fail("PV page faults %r, check.py 2077" % ev.get("page_fault"))
print("x86 fixtures agree with their workloads and check.py")
PY

# Xen 4.20 (Debian 13's hypervisor, xen-patches/4.20's xentrace): no
# --cpu-hz; the rate is the clock record's, as Xen's boot log detected it,
# and the PV dom0's hypercalls and page faults are check.py's.
g=$F/x86-qemu-xen420-pv-dom0
$XA --format=json "$g.xentrace" > "$TMP/420.json" || exit 1
$XA "$g.xentrace" > "$TMP/420.txt" || exit 1
grep -qx "Clock: 2445.402000 MHz (from the trace's clock record)" "$TMP/420.txt" || {
    grep Clock "$TMP/420.txt"; exit 1; }
grep -q "(XEN) Detected 2445.402 MHz processor." "$g.bootlog.txt" || exit 1
python3 - "$TMP/420.json" "$g.check.txt" <<'PY' || exit 1
import json, re, sys
s = json.load(open(sys.argv[1]))
c = open(sys.argv[2]).read()
def fail(msg):
    print("xen420 pv dom0: " + msg)
    sys.exit(1)
t = s["trace"]
want_khz = int(re.search(r"^clock_khz (\d+)", c, re.M).group(1))
if (t["cpu_hz"], t["cpu_hz_source"], t["arch"]) != (want_khz * 1000, "trace", "x86-pv"):
    fail("trace %r, clock record %d kHz" % (t, want_khz))
if t["records"] != int(re.search(r"^records (\d+)", c, re.M).group(1)) or s["anomalies"]:
    fail("records %d, anomalies %r" % (t["records"], s["anomalies"]))
hc, pf = {}, 0
for d in s["domains"]:
    for v in d["vcpus"]:
        for x in v["hypercalls"]:
            if not x["name"].startswith("multicall:"):
                hc[x["name"]] = hc.get(x["name"], 0) + x["count"]
        pf += sum(x["count"] for x in v["pv_events"] if x["name"] == "page_fault")
want = {m.group(2): int(m.group(3)) for m in
        re.finditer(r"^  d0 op +(\d+) (\S+) +(\d+)$", c, re.M)}
if hc != want:
    fail("hypercalls %r, check.py %r" % (hc, want))
wpf = sum(int(n) for n in re.findall(r"d0 \w+ (\d+)", re.search(
    r"^PV page faults .*RIP: (.*)$", c, re.M).group(1)))
if pf != wpf:
    fail("page faults %d, check.py %d" % (pf, wpf))
print("xen420 pv dom0: %d hypercalls of %d kinds, %d page faults, %d kHz from the clock record"
      % (sum(hc.values()), len(hc), pf, want_khz))
PY

# Xen 4.20, a PVH guest on (nested) SVM: its exits come as the separate SVM
# exit records of Xen 4.19+ (0x00081103), read with no option; the rate is
# the clock record's (no --cpu-hz).  Against lab/x86/check.py: the exits per
# exit code and per vCPU of d1, every workload loop's markers, and the
# balloon's TRC_MEM decrease_reservation records (4.18+ layout: d, order),
# whose page count the guest printed.
g=$F/x86-qemu-xen420-pvh-svm
$XA --format=json "$g.xentrace" > "$TMP/420pvh.json" || exit 1
$XA "$g.xentrace" > "$TMP/420pvh.txt" || exit 1
khz=$(sed -n 's/^clock_khz \([0-9]*\) .*/\1/p' "$g.check.txt")
mhz=$(awk -v k="$khz" 'BEGIN { printf "%.6f", k / 1000 }')
grep -qx "Clock: $mhz MHz (from the trace's clock record)" "$TMP/420pvh.txt" || {
    grep Clock "$TMP/420pvh.txt"; exit 1; }
grep -q "(XEN) Detected $(awk -v k="$khz" 'BEGIN { printf "%.3f", k / 1000 }') MHz processor." \
    "$g.bootlog.txt" || { echo "xen420 pvh: boot log rate is not the clock record's"; exit 1; }
$XA --dump-all "$g.xentrace" 2> /dev/null | grep ' decrease_reservation ' > "$TMP/420dec"
python3 - "$TMP/420pvh.json" "$g.check.txt" "$TMP/420dec" "$g.bootlog.txt" <<'PY' || exit 1
import json, re, sys
s = json.load(open(sys.argv[1]))
c = open(sys.argv[2]).read()
def fail(msg):
    print("xen420 pvh: " + msg)
    sys.exit(1)
def num(pattern):
    return int(re.search(pattern, c, re.M).group(1))
t = s["trace"]
khz = num(r"^clock_khz (\d+)")
if (t["cpu_hz"], t["cpu_hz_source"], t["arch"], t["hvm_mode"]) != (khz * 1000, "trace", "x86-svm", "svm") \
        or "4.19+" not in t["hvm_mode_reason"]:
    fail("trace %r, clock record %d kHz" % (t, khz))
if t["records"] != num(r"^records (\d+)") or s["anomalies"]:
    fail("records %d, anomalies %r" % (t["records"], s["anomalies"]))
# check.py: every exit is an SVM_EXIT64 record, none the generic VMEXIT64
n_svm = num(r"^  0x00081103 +(\d+) .*HVM_SVM_EXIT64$")
if re.search(r"^  0x0008110[02] ", c, re.M):
    fail("generic VMEXIT records in a Xen 4.20 SVM trace")
# exits per exit code of d1: the analyzer's against check.py's; an exit still
# open when the trace ends is not counted, at most one per vCPU
sec = re.search(r"^  d1: (\d+) exits.*?\n((?:    0x.*\n)+)", c, re.M)
want = {int(m.group(1), 16): int(m.group(2))
        for m in re.finditer(r"^    (0x[0-9a-f]+) \S+ +(\d+) ", sec.group(2), re.M)}
if int(sec.group(1)) != n_svm or sum(want.values()) != n_svm:
    fail("check.py: d1 %s exits, %d SVM_EXIT64 records" % (sec.group(1), n_svm))
d1 = [d for d in s["domains"] if d["id"] == 1]
if len(d1) != 1:
    fail("domains %r" % [d["id"] for d in s["domains"]])
got, subs, per_vcpu = {}, {}, {}
for v in d1[0]["vcpus"]:
    per_vcpu[v["id"]] = sum(e["count"] for e in v["exits"])
    for e in v["exits"]:
        got[e["code"]] = got.get(e["code"], 0) + e["count"]
        for x in e["sub"]:
            subs[x["key"]] = subs.get(x["key"], 0) + x["count"]
nv = len(per_vcpu)
if set(got) != set(want) or any(not want[k] - nv <= got[k] <= want[k] for k in want) \
        or sum(want.values()) - sum(got.values()) > nv:
    fail("exits by code %r, check.py %r" % (got, want))
wv = {int(m.group(1)): int(m.group(2)) for m in re.finditer(r"d1 v(\d+) (\d+)", re.search(
    r"^  exits per vcpu: (.*)$", c, re.M).group(1))}
if set(wv) != set(per_vcpu) or any(not wv[k] - 1 <= per_vcpu[k] <= wv[k] for k in wv):
    fail("exits per vCPU %r, check.py %r" % (per_vcpu, wv))
# the workload: every loop complete in the trace, as check.py found it
loops = num(r"^  CPUID leaf 0x5eedLLLL: \d+ records; loops 0\.\.\d+ seen, (\d+) complete")
if not re.search(r"^  VMMCALL eax 0x5eedLLLL: %d records; loops 0\.\.%d seen, %d complete" % (
        5 * loops, loops - 1, loops), c, re.M) or loops < 1:
    fail("check.py's loops")
for loop in range(loops):
    if subs.get("cpuid:0x%08x" % (0x5eed0000 | loop)) != 100:
        fail("CPUID leaf loop %d: %r" % (loop, subs.get("cpuid:0x%08x" % (0x5eed0000 | loop))))
    if subs.get("hypercall:%d" % (0x5eed0000 | loop)) != 5:
        fail("VMMCALL loop %d: %r" % (loop, subs.get("hypercall:%d" % (0x5eed0000 | loop))))
ports = {("in" if m.group(1) == "in" else "out", int(m.group(2), 16)): int(m.group(3))
         for m in re.finditer(r"(in|out) (0x[0-9a-f]+) (\d+)", re.search(r"^  I/O ports: (.*)$", c, re.M).group(1))}
if (subs.get("io:0x0084:w"), subs.get("io:0x0061:r")) != (ports[("out", 0x84)], ports[("in", 0x61)]) \
        or ports[("out", 0x84)] != 10 * loops:
    fail("ports %r, check.py %r" % ({k: v for k, v in subs.items() if k.startswith("io:")}, ports))
if subs.get("msr:0x0000001b:r") != num(r"^  MSR reads by index: 0x1b (\d+)") or subs.get("msr:0x0000001b:r") != 5 * loops:
    fail("MSR 0x1b reads %r" % subs.get("msr:0x0000001b:r"))
mmio = sum(n for k, n in subs.items() if k.startswith("mmio:"))
if mmio != num(r"^  MMIO: write (\d+)"):
    fail("MMIO keys %d" % mmio)
# TRC_MEM decrease_reservation, Xen 4.18+ layout: d1, order 0, one record per
# page the guest's balloon gave back
dec = open(sys.argv[3]).read().splitlines()
wdec = num(r"^  words 0x1 0x0: (\d+) records \(as 4\.18\+: d1 order 0")
pages = int(re.search(r"GUEST BALLOON .*: (\d+) pages released", open(sys.argv[4]).read()).group(1))
good = [l for l in dec if re.search(r" d1 order=0$", l)]
if len(dec) != wdec or len(good) != wdec or wdec != pages or pages < 1:
    fail("decrease_reservation: %d records, %d as d1 order 0 (check.py %d, the guest %d pages): %r"
         % (len(dec), len(good), wdec, pages, dec[:2]))
print("xen420 pvh: %d SVM exits of %d codes, %d loops, %d balloon pages, %d kHz from the clock record"
      % (sum(got.values()), len(got), loops, pages, khz))
PY
