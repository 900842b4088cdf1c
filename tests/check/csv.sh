# SPDX-License-Identifier: GPL-2.0-only
# --format=csv: one header, 25 columns on every row, and every statistic
# of the JSON summary (exits, sub-keys, runstates, pCPUs, hypercalls, PV
# events) present in the CSV with the same numbers, on the real traces.
. tests/check/lib.sh
need_python
set -e
for f in tests/fixtures/arm64/arm64-xen420-credit2-dom0-domu.xentrace \
         tests/fixtures/x86/x86-qemu-xen417-pv-dom0.xentrace \
         tests/fixtures/x86/x86-qemu-xen417-pvh-svm.xentrace \
         tests/fixtures/x86/x86-qemu-xen420-pvh-svm.xentrace; do
    $XA --cpu-hz=2100M --format=json "$f" > "$TMP/s.json"
    $XA --cpu-hz=2100M --format=csv "$f" > "$TMP/s.csv"
    python3 - "$TMP/s.json" "$TMP/s.csv" "$f" <<'PY'
import csv, json, sys
d = json.load(open(sys.argv[1]))
rows = list(csv.reader(open(sys.argv[2])))
head = rows[0]
if head[:5] != ["table", "domain", "vcpu", "pcpu", "name"] or len(head) != 25 or head[-1] != "incarnation":
    sys.exit("header %r" % head)
if any(len(r) != 25 for r in rows):
    sys.exit("a row without 25 columns")
rows = [dict(zip(head, r)) for r in rows[1:]]
F = ("count", "cycles", "min", "max", "mean", "p5", "p50", "p90", "p95", "p99", "p999")
def st(r):
    return tuple(int(r[k]) for k in F)
got, want = {}, {}
for r in rows:
    t = r["table"]
    if t in ("exit", "exit_sub", "vcpu_runstate", "domain_runstate", "pcpu", "exit_total") and r["cycles"] != "":
        got[(t, r["domain"], r["incarnation"], r["vcpu"], r["pcpu"], r["name"], r["key"])] = st(r)
    elif t in ("hypercall", "pv_event"):
        got[(t, r["domain"], r["incarnation"], r["vcpu"], r["name"], r["key"])] = int(r["count"])
def vc(dom, v):
    vid = str(v["id"]) if "id" in v else "all"
    for k, s in v["runstates"].items():
        want[("vcpu_runstate", *dom, vid, "", k, "")] = tuple(s[x] for x in F)
    if "exit_totals" in v:
        want[("exit_total", *dom, vid, "", "all exits", "")] = tuple(v["exit_totals"][x] for x in F)
    for e in v["exits"]:
        want[("exit", *dom, vid, "", e["reason"], "")] = tuple(e[x] for x in F)
        for s in e["sub"]:
            want[("exit_sub", *dom, vid, "", e["reason"], s["key"])] = tuple(s[x] for x in F)
    for h in v["hypercalls"]:
        want[("hypercall", *dom, vid, h["name"], "")] = h["count"]
        for s in h.get("sub", []):
            want[("hypercall", *dom, vid, h["name"], s["name"])] = s["count"]
    for h in v["pv_events"]:
        want[("pv_event", *dom, vid, h["name"], "")] = h["count"]
for dm in d["domains"]:
    dom = (str(dm["id"]), str(dm.get("incarnation", 1)))
    for k, s in dm["runstates"].items():
        want[("domain_runstate", *dom, "", "", k, "")] = tuple(s[x] for x in F)
    for v in dm["vcpus"] + ([dm["all_vcpus"]] if "all_vcpus" in dm else []):
        vc(dom, v)
for p in d["pcpus"]:
    for k in ("running", "idle", "lost"):
        want[("pcpu", "", "", "", str(p["id"]), k, "")] = tuple(p[k][x] for x in F)
if got != want:
    for k in sorted(set(got) | set(want), key=str)[:400]:
        if got.get(k) != want.get(k):
            print(k, "csv", got.get(k), "json", want.get(k))
    sys.exit("%s: CSV differs from JSON" % sys.argv[3])
print("%s: %d CSV rows agree with the JSON" % (sys.argv[3].split("/")[-1], len(got)))
PY
done
