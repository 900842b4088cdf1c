# SPDX-License-Identifier: GPL-2.0-only
# --sort and --top on the real VMX trace: the arrays follow the order, the
# text's "other (K keys)" row carries exactly the keys beyond --top, each
# vCPU's "all exits" row and each domain's "all vCPUs" add up.
. tests/check/lib.sh
need_shared
need_python
V=$T/x86-vmx-credit2-8cpu.xentrace
for sort in time count mean p99 code; do
    $XA --cpu-hz=2.4G --sort=$sort --format=json "$V" > "$TMP/$sort.json" || exit 1
done
$XA --cpu-hz=2.4G --sort=count --top=3 "$V" > "$TMP/top3.txt" || exit 1
python3 - "$TMP" <<'PY' || exit 1
import json, re, sys
tmp = sys.argv[1]
F = ("count", "cycles")
def fail(msg):
    print(msg)
    sys.exit(1)
key = {"time": lambda s: s["cycles"], "count": lambda s: s["count"],
       "mean": lambda s: s["mean"], "p99": lambda s: s["p99"]}
ref = json.load(open(tmp + "/time.json"))
for sort in ("time", "count", "mean", "p99", "code"):
    d = json.load(open("%s/%s.json" % (tmp, sort)))
    if d["trace"]["sort"] != sort:
        fail("trace.sort %r" % d["trace"]["sort"])
    for dom in d["domains"]:
        for v in dom["vcpus"] + ([dom["all_vcpus"]] if "all_vcpus" in dom else []):
            ex = v["exits"]
            vals = [e["code"] for e in ex] if sort == "code" else [key[sort](e) for e in ex]
            if vals != sorted(vals, reverse=sort != "code"):
                fail("d%d %s: exits not sorted by %s: %r" % (dom["id"], v.get("id"), sort, vals))
            for e in ex:
                subs = [s for s in e["sub"] if not s.get("capped")]
                vals = [s["key"] for s in subs] if sort == "code" else [key[sort](s) for s in subs]
                if vals != sorted(vals, reverse=sort != "code"):
                    fail("%s: subs not sorted by %s" % (e["reason"], sort))
            if ex:
                tot = v["exit_totals"]
                if (tot["count"], tot["cycles"]) != (sum(e["count"] for e in ex), sum(e["cycles"] for e in ex)):
                    fail("d%d v%s exit_totals %r" % (dom["id"], v.get("id"), tot))
        # the aggregate is the sum of the vCPUs, reason by reason
        if "all_vcpus" in dom:
            agg = {e["code"]: (e["count"], e["cycles"]) for e in dom["all_vcpus"]["exits"]}
            want = {}
            for v in dom["vcpus"]:
                for e in v["exits"]:
                    c = want.setdefault(e["code"], [0, 0])
                    c[0] += e["count"]; c[1] += e["cycles"]
            if agg != {k: tuple(x) for k, x in want.items()}:
                fail("d%d all_vcpus %r != %r" % (dom["id"], agg, want))
            for k in ("running", "runnable", "blocked"):
                got = dom["all_vcpus"]["runstates"].get(k, {}).get("cycles", 0)
                want_c = sum(v["runstates"].get(k, {}).get("cycles", 0) for v in dom["vcpus"])
                if got != want_c:
                    fail("d%d all_vcpus %s %d != %d" % (dom["id"], k, got, want_c))
# The text with --top=3: every exit shows its first 3 keys by count, then
# "other (K keys...)" with the count and seconds of the rest.
d = json.load(open(tmp + "/count.json"))
text = open(tmp + "/top3.txt").read().splitlines()
dom = vcpu = cur = None
exits = {}
for line in text:
    if line.startswith(" ") and not line.startswith("  "):
        cur = None          # a table's header line
    m = re.match(r"\|-- Domain (\d+)", line)
    if m:
        dom = int(m.group(1)); vcpu = None; continue
    m = re.match(r"-- v(\d+) --", line)
    if m:
        vcpu = int(m.group(1)); continue
    if line.startswith("-- all"):
        vcpu = None; continue
    m = re.match(r"^   (\S+) \[0x([0-9a-f]+)\] +(\d+) ", line)
    if m and vcpu is not None:
        cur = exits.setdefault((dom, vcpu, int(m.group(2), 16)), [])
        continue
    m = re.match(r"^      (.+?) +(\d+) +([0-9.]+) ", line)
    if m and vcpu is not None and cur is not None:
        cur.append((m.group(1), int(m.group(2))))
checked = 0
for dm in d["domains"]:
    for v in dm["vcpus"]:
        for e in v["exits"]:
            got = exits.get((dm["id"], v["id"], e["code"]))
            subs = e["sub"]
            if len(subs) <= 4:
                want = [(s["key"] + (" " + s["name"] if "name" in s else ""), s["count"]) for s in subs]
            else:
                rest = subs[3:]
                capped = any(s.get("capped") for s in rest)
                k = sum(1 for s in rest if not s.get("capped"))
                want = [(s["key"] + (" " + s["name"] if "name" in s else ""), s["count"]) for s in subs[:3]]
                want.append(("other (%d keys%s)" % (k, " and more" if capped else ""),
                             sum(s["count"] for s in rest)))
                checked += 1
            if got != want:
                fail("d%d v%d %s: text %r, want %r" % (dm["id"], v["id"], e["reason"], got, want))
if checked < 3:
    fail("only %d folded exits" % checked)
print("sort orders, totals, aggregates and %d folded exits agree" % checked)
PY
