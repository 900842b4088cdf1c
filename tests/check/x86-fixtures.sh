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
