# SPDX-License-Identifier: GPL-2.0-only
# The real Arm traces of tests/fixtures/arm64 (Xen 4.20.4 + xen-patches/4.20
# under QEMU, format 2) against what lab/arm64/check.py counted on its own
# in the raw files (their .check.json): the clock comes from the trace's
# clock record; exits per exception class and IRQ exits, per domain;
# hypercalls and SMCCC calls; stage-2 outcomes; system register accesses
# per register and the values moved; MMIO accesses and the data moved;
# vIRQ injections; WFI pending or blocking; physical IRQs; lost records
# counted as such; and time adds up.
. tests/check/lib.sh
need_python
n=0
for f in tests/fixtures/arm64/arm64-xen420-*.xentrace; do
    [ -f "$f" ] || continue
    n=$((n + 1))
    b=${f%.xentrace}
    $XA --format=json "$f" > "$TMP/s.json" 2> "$TMP/err" || { cat "$TMP/err"; exit 1; }
    $XA "$f" > "$TMP/s.txt" 2> "$TMP/err" || { cat "$TMP/err"; exit 1; }
    $XA -a "$f" > "$TMP/d.txt" 2> "$TMP/err" || { cat "$TMP/err"; exit 1; }
    PYTHONPATH=lab/arm64 python3 - "$TMP/s.json" "$b.check.json" "$(basename "$b")" \
        "$TMP/s.txt" "$TMP/d.txt" <<'PY' || exit 1
import json, re, sys
from check import sysreg_name, HYPERCALLS
s = json.load(open(sys.argv[1]))
c = json.load(open(sys.argv[2]))
name = sys.argv[3]
text = open(sys.argv[4]).read()
def fail(msg):
    print("%s: %s" % (name, msg))
    sys.exit(1)
if c["problems"]:
    fail("check.py found problems: %r" % c["problems"][:3])
t = s["trace"]
if (t["cpu_hz"], t["cpu_hz_source"], t["arch"]) != (c["clock_khz"] * 1000, "trace", "arm"):
    fail("trace %r, clock record %r kHz" % (t, c["clock_khz"]))
want = "Clock: %.6f MHz (from the trace's clock record)" % (c["clock_khz"] / 1000.0)
if want not in text:
    fail("the text summary lacks %r" % want)
if t["records"] != c["records"]:
    fail("records %d, check.py %d" % (t["records"], c["records"]))
# Lost records are counted as the trace says.  The only other anomalies,
# at most once per loss: a vCPU leaving a pCPU it was never seen to enter
# (every pCPU's records start at the same moment: the lab runs xentrace
# without -D, lab/arm64/README.md), and the exit open at a loss discarded.
an = dict(s["anomalies"])
lost = an.pop("LOST_RECORDS", 0)
if an.pop("RUNSTATE_MISMATCH", 0) > lost or \
   an.pop("EXITS_DISCARDED", 0) > lost:
    fail("anomalies %r" % s["anomalies"])
if an or lost != c["lost_records_events"]:
    fail("anomalies %r, check.py %d lost-records records" % (s["anomalies"], c["lost_records_events"]))
# An exit is counted when it closes: not the ones still open when a pCPU's
# data ends or records are lost after it (one per pCPU and per loss), nor,
# with no scheduler record yet, the exits of a vCPU not known.
slack = len(c["cpus"]) + 2 * c["lost_records_events"]
unknown = sum(v for k, v in c["exits_by_domain"].items() if not k.startswith("d"))
def near(what, got, want, extra=0, over=0):
    if not (want - slack - extra <= got <= want + over):
        fail("%s: %d, check.py %d" % (what, got, want))
span = t["last_tsc"] - t["first_tsc"]
# pCPU time (a loss that began before the trace counts from time 0).
for p in s["pcpus"]:
    total = sum(p[k]["cycles"] for k in ("running", "idle", "lost") if k in p)
    if total > span:
        fail("p%d running+idle+lost %d > trace span %d" % (p["id"], total, span))
ecs, doms, subs, girq = {}, {}, {}, {}
for d in s["domains"]:
    for v in d["vcpus"]:
        total = sum(v["runstates"][k]["cycles"] for k in
                    ("running", "runnable", "blocked", "offline", "lost")
                    if k in v["runstates"])
        if total > span:
            fail("d%dv%d runstates %d > trace span %d" % (d["id"], v["id"], total, span))
        for e in v["exits"]:
            doms[d["id"]] = doms.get(d["id"], 0) + e["count"]
            ecs[e["code"]] = ecs.get(e["code"], 0) + e["count"]
            for x in e["sub"]:
                subs[x["key"]] = subs.get(x["key"], 0) + x["count"]
        for g in v.get("guest_interrupts", []):
            girq[g["vector"]] = girq.get(g["vector"], 0) + g["count"]
    if sum(x["cycles"] for x in d["runstates"].values()) > span:
        fail("domain %d runstates exceed the span" % d["id"])
nexits = sum(doms.values())
# Exits per exception class ("0x18 SYSREG" in check.py) and IRQ exits.
for reason, want in c["reasons"].items():
    code = 0x100 if reason == "IRQ" else int(reason.split()[0], 16)
    near("exits %s" % reason, ecs.pop(code, 0), want, unknown)
if ecs:
    fail("exit codes %r not in check.py's" % ecs)
if sum(c["reasons"].values()) != c["arm"]["exit"] + c["arm"]["exit_irq"]:
    fail("check.json: reasons do not add up to the exit records")
# Exits per domain (check.py: from the scheduler's switch records; we
# know the running vCPU from runstate changes too, which may come earlier,
# and after lost records check.py's stays stale until the next switch).
for dom, want in c["exits_by_domain"].items():
    if dom.startswith("d"):
        near("d%s exits" % dom[1:], doms.pop(int(dom[1:]), 0), want, unknown, unknown + slack - len(c["cpus"]))
if unknown == 0 and doms:
    fail("exits of domains %r that check.py did not see" % doms)
def keyed(prefix):
    return {k[len(prefix):]: v for k, v in subs.items() if k.startswith(prefix)}
# Hypercalls by number (the key names them), SMCCC calls by function id.
hc = {}
for k, v in keyed("hypercall:").items():
    hc[k.split(":")[0]] = hc.get(k.split(":")[0], 0) + v
for nr, want in c["hypercalls"].items():
    near("hypercall %s" % nr, hc.pop(HYPERCALLS.get(int(nr), nr), 0), want)
if hc:
    fail("hypercalls %r not in check.py's" % hc)
smc = keyed("smc:")
for fid, want in c["smccc"].items():
    near("smccc %s" % fid, smc.pop("0x%08x" % int(fid, 16), 0), want)
if smc:
    fail("SMCCC calls %r not in check.py's" % smc)
# Stage-2 outcomes: an abort emulated as MMIO is keyed by its access.
s2 = keyed("s2:")
mmio = {}
for k, v in keyed("mmio:").items():
    gpa, rw = k.split(":")
    mmio["%#x:%s" % (int(gpa, 16), rw)] = mmio.get("%#x:%s" % (int(gpa, 16), rw), 0) + v
for o, want in c["s2_outcome"].items():
    got = sum(mmio.values()) if o == "mmio" else s2.pop(o, 0)
    near("stage-2 %s" % o, got, want)
if s2:
    fail("stage-2 outcomes %r not in check.py's" % s2)
if not lost and sum(c["mmio"].values()) != c["s2_outcome"].get("mmio", 0):
    fail("check.json: MMIO records %d, stage-2 mmio %d" %
         (sum(c["mmio"].values()), c["s2_outcome"].get("mmio", 0)))
# MMIO accesses per address and direction ("0x22000000 W4" in check.py).
want_mmio = {}
for k, v in c["mmio"].items():
    gpa, ds = k.split()
    key = "%#x:%s" % (int(gpa, 16), ds[0].lower())
    want_mmio[key] = want_mmio.get(key, 0) + v
for key, want in want_mmio.items():
    near("mmio %s" % key, mmio.pop(key, 0), want)
if mmio:
    fail("MMIO keys %r not in check.py's" % mmio)
# System register accesses, named by check.py from the key's ISS.
sr = {}
for k, v in keyed("sysreg:").items():
    iss, rw = k.split(":")
    reg, rd = sysreg_name(0x18 << 26 | int(iss, 16) | (rw == "r"))
    sr[reg + " " + rd] = sr.get(reg + " " + rd, 0) + v
for key, want in c["sysreg"].items():
    near("sysreg %s" % key, sr.pop(key, 0), want)
if sr:
    fail("system registers %r not in check.py's" % sr)
# WFI: blocked or an event pending (HLT records).
wfi = keyed("wfi")
for st, key in (("blocked", ""), ("pending", ":pending")):
    near("wfi %s" % st, wfi.pop(key, 0), c["hlt"].get(st, 0))
# Physical IRQs: an interrupt exit is keyed by the first IRQ it took.
irq = keyed("irq:")
if sum(irq.values()) > sum(c["irq"].values()):
    fail("irq keys %r exceed the IRQ records %r" % (irq, c["irq"]))
for k in irq:
    if k not in c["irq"]:
        fail("irq %s not in the trace" % k)
# vIRQ injections, per vIRQ (one made before a pCPU's running vCPU is
# known belongs to no vCPU).  One recorded where the scheduler's records
# already have the idle vCPU running (the dump's d32767) is the switched-out
# vCPU's: Xen took its timer interrupt between writing those records and
# switching `current`; the model credits it.  So every injection counts,
# exactly, even in the lossy trace.
for v, want in c["inj_virq"].items():
    got = girq.pop(int(v), 0)
    if got != want:
        fail("vIRQ %s injected: %d, check.py %d" % (v, got, want))
if girq:
    fail("vIRQs %r not in check.py's" % girq)
# Values moved, from the dump: every MMIO access's data and every system
# register value, summed per key as check.py sums them.
mdata, sdata, nmmio, nsys = {}, {}, 0, 0
for line in open(sys.argv[5]):
    m = re.search(r"arm_mmio gpa=(0x[0-9a-f]+) (read|write) size=(\d+) data=(0x[0-9a-f]+)", line)
    if m:
        key = "%s %s%s" % (m.group(1), "W" if m.group(2) == "write" else "R", m.group(3))
        mdata[key] = mdata.get(key, 0) + int(m.group(4), 16)
        nmmio += 1
        continue
    m = re.search(r"arm_sysreg value=(0x[0-9a-f]+)", line)
    if m:
        sdata[0] = sdata.get(0, 0) + int(m.group(1), 16)
        nsys += 1
if nmmio != sum(c["mmio"].values()) or mdata != c["mmio_data_sum"]:
    fail("dump: %d MMIO records, data %r; check.py %r" % (nmmio, mdata, c["mmio_data_sum"]))
if nsys != c["arm"]["sysreg"] or sdata.get(0, 0) != sum(c["sysreg_value_sum"].values()):
    fail("dump: %d sysreg values summing to %#x; check.py %d, %#x" %
         (nsys, sdata.get(0, 0), c["arm"]["sysreg"], sum(c["sysreg_value_sum"].values())))
print("%s: %d exits, %d hypercalls, %d MMIO, %d vIRQs, %s lost: agree with check.py" %
      (name, nexits, sum(c["hypercalls"].values()), nmmio, sum(c["inj_virq"].values()), lost))
PY
done
[ "$n" -ge 3 ] || { echo "only $n Xen 4.20 Arm fixtures"; exit 1; }
