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
