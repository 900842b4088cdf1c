# SPDX-License-Identifier: GPL-2.0-only
# The real Arm traces of tests/fixtures/arm64 (patched Xen 4.17 under QEMU)
# against what lab/arm64/check.py counted independently in the raw files:
# the rate comes from the trace, exits per domain, hypercalls, PSCI calls,
# IRQs and exception classes agree, and time adds up.
. tests/check/lib.sh
need_python
# Format 1 (TRC_ARM class) captures only; the Xen 4.20 captures
# (arm64-xen420-*, format 2) get their cross-checks with the analyzer's
# format-2 support.
for f in tests/fixtures/arm64/arm64-patched-*.xentrace; do
    n=${f%.xentrace}
    $XA --format=json "$f" > "$TMP/s.json" 2> "$TMP/err" || { cat "$TMP/err"; exit 1; }
    python3 - "$TMP/s.json" "$n.check.json" "$(basename "$n")" <<'PY' || exit 1
import json, sys
s = json.load(open(sys.argv[1]))
c = json.load(open(sys.argv[2]))
name = sys.argv[3]
def fail(msg):
    print("%s: %s" % (name, msg))
    sys.exit(1)
t = s["trace"]
if (t["cpu_hz"], t["cpu_hz_source"], t["arch"]) != (62500000, "trace", "arm"):
    fail("trace %r" % t)
if t["records"] != c["records"]:
    fail("records %d, check.py %d" % (t["records"], c["records"]))
if s["anomalies"]:
    fail("anomalies %r" % s["anomalies"])
span = t["last_tsc"] - t["first_tsc"]
exits = {}
hcalls = {}
irqs = {}
smcs = {}
ecs = {}
for d in s["domains"]:
    for v in d["vcpus"]:
        total = sum(v["runstates"][k]["cycles"] for k in
                    ("running", "runnable", "blocked", "offline", "lost")
                    if k in v["runstates"])
        if total > span:
            fail("d%dv%d runstates %d > trace span %d" % (d["id"], v["id"], total, span))
        for e in v["exits"]:
            exits[d["id"]] = exits.get(d["id"], 0) + e["count"]
            ecs[e["code"]] = ecs.get(e["code"], 0) + e["count"]
            for sub in e["sub"]:
                k = sub["key"]
                if k.startswith("hypercall:"):
                    op = k.split(":")[1]    # hypercall:OP[:SUBOP]
                    hcalls[op] = hcalls.get(op, 0) + sub["count"]
                elif k.startswith("irq:"):
                    irqs[k[4:]] = irqs.get(k[4:], 0) + sub["count"]
                elif k.startswith("smc:"):
                    smcs[k[4:]] = smcs.get(k[4:], 0) + sub["count"]
    drs = sum(x["cycles"] for x in d["runstates"].values())
    if drs > span:
        fail("domain %d runstates %d > span %d" % (d["id"], drs, span))
# Exits: check.py attributes an exit to a domain from the scheduler's
# switch records ('?' before a CPU's first one); we know the running vCPU
# from runstate changes, which may come earlier.  Every exit is counted but
# the ones still open when a CPU's data ends (at most one per vCPU).
unknown = c["exits_by_domain"].get("?", 0)
total = sum(exits.values())
if not (c["arm"]["exit"] - unknown - 4 <= total <= c["arm"]["exit"]):
    fail("%d exits, check.py %d (%d unattributed)" % (total, c["arm"]["exit"], unknown))
for dom, want in c["exits_by_domain"].items():
    if dom == "?":
        continue
    got = exits.get(int(dom[1:]), 0)
    if not (want - 4 <= got <= want + unknown):
        fail("d%s exits %d, check.py %d" % (dom[1:], got, want))
names = {"17": "xen_version", "18": "console_io", "32": "event_channel_op",
         "35": "sysctl", "24": "vcpu_op", "29": "sched_op", "12": "memory_op",
         "34": "physdev_op", "13": "multicall", "20": "grant_table_op",
         "36": "domctl", "38": "hvm_op"}
for nr, want in c["hypercalls"].items():
    got = hcalls.get(names.get(nr, nr), 0)
    if not (want - 1 <= got <= want):
        fail("hypercall %s: %d, check.py %d" % (nr, got, want))
for fid, want in c["smccc"].items():
    got = smcs.get("0x%08x" % int(fid, 16), 0)
    if not (want - 1 <= got <= want):
        fail("smc %s: %d, check.py %d" % (fid, got, want))
# An interrupt exit may acknowledge several IRQs; its key is the first.
if sum(irqs.values()) > sum(c["irq"].values()):
    fail("irq keys %r exceed IRQ records %r" % (irqs, c["irq"]))
for irq in irqs:
    if irq not in c["irq"]:
        fail("irq %s not in the trace" % irq)
print("%s: %d exits, hypercalls %r, smc %r agree with check.py" %
      (name, sum(exits.values()), hcalls, smcs))
PY
done
