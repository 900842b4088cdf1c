# SPDX-License-Identifier: GPL-2.0-only
# A domain id reused (DOMAIN_REUSED), known answers: two synthesized
# traces end to end, domain 1 a PV guest in the first and a VMX guest in
# the second.  Every output keys domains by id and incarnation, as the
# text does: the JSON summary (d1, then d1 "incarnation": 2), the CSV
# summary (its incarnation column: 1, 2), xenalyze merge (the two kept
# apart, each doubled when a summary is merged with itself), xenalyze
# diff (scopes d1 and d1#2, from traces and from JSON summaries alike),
# the per-exit and runstate rows (--exits, --runstates: their incarnation
# column, CSV and JSON Lines) and the Perfetto timeline (processes "d1
# (PV)" and "d1#2 (HVM)", threads d1v0 and d1#2v0, each adding up to its
# incarnation in the summary; needs protoc and Perfetto's schema).
# The first incarnation's hypercalls are the first trace's truth, the
# second's exits (count, cycles, min, max, sub-keys) the second's.
. tests/check/lib.sh
need_python
set -e
cat > "$TMP/pv.scn" <<'EOF'
pcpus = 2
duration = 5ms
domain = 1
kind = pv
vcpus = 1
run = exp 20us
EOF
# The VMX guest starts after the PV one's last record.
cat > "$TMP/vmx.scn" <<'EOF'
pcpus = 2
duration = 5ms
start_tsc = 1100000000
domain = 1
kind = vmx
vcpus = 1
run = exp 20us
exit = io 3 exp 5us
exit = hlt 1 exp 3us
EOF
sed 's/^exit = io 3 exp 5us/exit = io 3 exp 15us/' "$TMP/vmx.scn" > "$TMP/slow.scn"
"$SYNTH" -s "$TMP/pv.scn" -S 3 -o "$TMP/pv.xt" -t "$TMP/pv.truth" >/dev/null
"$SYNTH" -s "$TMP/vmx.scn" -S 4 -o "$TMP/vmx.xt" -t "$TMP/vmx.truth" >/dev/null
"$SYNTH" -s "$TMP/slow.scn" -S 4 -o "$TMP/slow.xt" -t "$TMP/slow.truth" \
    >/dev/null
cat "$TMP/pv.xt" "$TMP/vmx.xt" > "$TMP/a.xt"
cat "$TMP/pv.xt" "$TMP/slow.xt" > "$TMP/b.xt"
for x in a b; do
    $XA --format=json "$TMP/$x.xt" > "$TMP/$x.json" 2> /dev/null
done
$XA --format=csv "$TMP/a.xt" > "$TMP/a.csv" 2> /dev/null
$XA merge "$TMP/a.json" "$TMP/a.json" > "$TMP/m.json"
$XA merge --format=csv "$TMP/a.json" "$TMP/a.json" > "$TMP/m.csv"
$XA diff --format=json "$TMP/a.xt" "$TMP/b.xt" > "$TMP/d.json"
$XA diff --format=json "$TMP/a.json" "$TMP/b.json" > "$TMP/dj.json"
$XA diff "$TMP/a.xt" "$TMP/b.xt" > "$TMP/d.txt"
$XA --exits="$TMP/ex.csv" --runstates="$TMP/rs.csv" "$TMP/a.xt" 2> /dev/null
$XA --exits="$TMP/ex.jsonl" --runstates="$TMP/rs.jsonl" --exits-format=jsonl \
    "$TMP/a.xt" 2> /dev/null
P=$SHARED/reference/perfetto
if command -v protoc > /dev/null 2>&1 && [ -f "$P/perfetto_trace.proto" ]; then
    $XA --perfetto="$TMP/a.pb" "$TMP/a.xt" 2> /dev/null
    protoc --decode=perfetto.protos.Trace -I "$P" "$P/perfetto_trace.proto" \
        < "$TMP/a.pb" > "$TMP/a.pbtxt"
    python3 tests/tools/perfetto-check.py "$TMP/a.pbtxt" \
        --summary "$TMP/a.json"
else
    echo "perfetto: not checked (no protoc or no $P)"
fi
python3 - "$TMP" <<'PY'
import csv, json, sys
t = sys.argv[1]
ld = lambda n: json.load(open("%s/%s" % (t, n)))
pv, vmx, slow = ld("pv.truth"), ld("vmx.truth"), ld("slow.truth")
def dom1(j):
    return [d for d in j["domains"] if d["id"] == 1][0]["vcpus"][0]
hyp = {h["name"]: h["count"] for h in dom1(pv)["hypercalls"]}
F = ("count", "cycles", "min", "max")
def exits(v, k=1):
    r = {}
    for e in v["exits"]:
        r[(e["code"], "")] = tuple(e[f] * (k if f in ("count", "cycles") else 1) for f in F)
        for s in e["sub"]:
            r[(e["code"], s["key"])] = tuple(s[f] * (k if f in ("count", "cycles") else 1) for f in F)
    return r
want_ex = exits(dom1(vmx))
bad = []
def ok(c, what):
    if not c:
        bad.append(what)

def check_summary(j, k, name):
    d1 = [d for d in j["domains"] if d["id"] == 1]
    ok([(d.get("incarnation", 1), d["kind"]) for d in d1] ==
       [(1, "pv"), (2, "hvm")], "%s: d1's incarnations %r" %
       (name, [(d.get("incarnation"), d["kind"]) for d in d1]))
    if len(d1) != 2:
        return d1
    ok(all(not v["exits"] for v in d1[0]["vcpus"]), "%s: exits in d1" % name)
    got = {h["name"]: h["count"] for v in d1[0]["vcpus"] for h in v["hypercalls"]}
    ok(got == {n: c * k for n, c in hyp.items()}, "%s: d1's hypercalls %r" % (name, got))
    got = {h["name"] for v in d1[1]["vcpus"] for h in v["hypercalls"]}
    ok(not got, "%s: hypercalls in d1#2 %r" % (name, got))
    got = exits(d1[1]["vcpus"][0])
    ok(got == exits(dom1(vmx), k), "%s: d1#2's exits %r" % (name, got))
    return d1

a = ld("a.json")
d1 = check_summary(a, 1, "a.json")
ok(a["anomalies"].get("DOMAIN_REUSED") == 1, "anomalies %r" % a["anomalies"])
check_summary(ld("m.json"), 2, "merge")

# CSV: 25 columns, the incarnation last; the JSON's numbers per incarnation.
def check_csv(path, k, name):
    rows = list(csv.reader(open(path)))
    ok(rows[0][-1] == "incarnation" and len(rows[0]) == 25 and
       all(len(r) == 25 for r in rows), "%s: columns %r" % (name, rows[0]))
    rows = [dict(zip(rows[0], r)) for r in rows[1:]]
    ok(all((r["incarnation"] != "") == (r["domain"] != "") for r in rows),
       "%s: a domain's row without its incarnation" % name)
    kinds = [(r["domain"], r["incarnation"], r["value"]) for r in rows
             if r["table"] == "domain" and r["domain"] == "1"]
    ok(kinds == [("1", "1", "pv"), ("1", "2", "hvm")], "%s: domain rows %r" % (name, kinds))
    got = {}
    for r in rows:
        if r["domain"] == "1" and r["vcpu"] == "0" and r["table"] in ("exit", "exit_sub"):
            got[(r["incarnation"], int(r["code"]), r["key"])] = tuple(int(r[f]) for f in F)
    ok(got == {("2",) + x: y for x, y in exits(dom1(vmx), k).items()},
       "%s: exits %r" % (name, got))
    got = {r["name"]: int(r["count"]) for r in rows if r["table"] == "hypercall"
           and r["domain"] == "1" and r["vcpu"] == "0" and r["key"] == ""}
    ok(got == {n: c * k for n, c in hyp.items()} and
       {r["incarnation"] for r in rows if r["table"] == "hypercall"} == {"1"},
       "%s: hypercalls %r" % (name, got))
    return rows

rows = check_csv(t + "/a.csv", 1, "csv")
for inc, d in ((1, d1[0]), (2, d1[1])):
    got = [int(r["count"]) for r in rows if r["table"] == "vcpu_runstate" and
           r["domain"] == "1" and r["incarnation"] == str(inc) and
           r["vcpu"] == "0" and r["name"] == "running"]
    ok(got == [d["vcpus"][0]["runstates"]["running"]["count"]],
       "csv: d1 incarnation %d running %r" % (inc, got))
check_csv(t + "/m.csv", 2, "merge csv")

# diff: d1 (PV) and d1#2 (VMX) paired with their own, not combined.
dd = ld("d.json")
ok(dd["pairs"].split() == ["d1", "d1#2", "d32767"], "diff: pairs %r" % dd["pairs"])
rs = {(r["scope"], r["kind"], r["what"]): r for r in dd["rows"]}
b1 = [d for d in ld("b.json")["domains"] if d["id"] == 1]
for inc, da, db in ((1, d1[0], b1[0]), (2, d1[1], b1[1])):
    sc = "d1" if inc == 1 else "d1#2"
    r = rs.get((sc, "runstate", "running"))
    ok(r and r["a"]["count"] == da["all_vcpus"]["runstates"]["running"]["count"]
       and r["b"]["count"] == db["all_vcpus"]["runstates"]["running"]["count"],
       "diff: %s running %r" % (sc, r and (r["a"]["count"], r["b"]["count"])))
ok(not [r for r in dd["rows"] if r["scope"] == "d1" and r["kind"] != "runstate"],
   "diff: exits under d1")
for e in dom1(vmx)["exits"]:
    x = [s for s in dom1(slow)["exits"] if s["code"] == e["code"]][0]
    r = [r for r in dd["rows"] if r["scope"] == "d1#2" and r["kind"] == "exit"
         and r["what"].endswith("[0x%x]" % e["code"])]
    ok(len(r) == 1 and (r[0]["a"]["count"], r[0]["a"]["cycles"], r[0]["b"]["count"],
                        r[0]["b"]["cycles"]) == (e["count"], e["cycles"], x["count"], x["cycles"]),
       "diff: d1#2 exit 0x%x %r" % (e["code"], r))
io = [r for r in dd["rows"] if r["scope"] == "d1#2" and r["what"] == "IO_INSTRUCTION [0x1e]"]
ok(io and io[0]["changed"] and not io[0]["within_chance"] and io[0]["d_mean"] > 100,
   "diff: d1#2's I/O %r" % io)
dj = ld("dj.json")
for x in (dd, dj):
    x.pop("a"); x.pop("b")
ok(dd == dj, "diff of the JSON summaries differs from the traces'")

# --exits: d1#2's rows are the second trace's exits, d1's none; JSON
# Lines the same rows as the CSV.
def rows_of(name):
    if name.endswith(".csv"):
        r = list(csv.reader(open(t + "/" + name)))
        return [dict(zip(r[0], [int(x) if x.lstrip("-").isdigit() else x
                                for x in row])) for row in r[1:]], r[0]
    r = [json.loads(l) for l in open(t + "/" + name)]
    return r, list(r[0]) if r else []
ex, hdr = rows_of("ex.csv")
ok(hdr[-1] == "incarnation", "exits: columns %r" % hdr)
ok(rows_of("ex.jsonl")[0] == ex, "exits: JSON Lines and CSV differ")
got = {}
for r in ex:
    if r.get("domain") == 1:
        g = got.setdefault((r.get("incarnation"), r["vcpu"], r["reason"]),
                           [0, 0, None, 0])
        g[0] += 1
        g[1] += r["cycles"]
        g[2] = r["cycles"] if g[2] is None else min(g[2], r["cycles"])
        g[3] = max(g[3], r["cycles"])
want = {(2, 0, c): list(v) for (c, k), v in exits(dom1(vmx)).items() if not k}
ok(got == want, "exits: d1's rows %r, want %r" % (got, want))
# --runstates: per incarnation, the summary's runstates.
rs, hdr = rows_of("rs.csv")
ok(hdr[-1] == "incarnation", "runstates: columns %r" % hdr)
ok(rows_of("rs.jsonl")[0] == rs, "runstates: JSON Lines and CSV differ")
got = {}
for r in rs:
    if r.get("domain") == 1:
        g = got.setdefault((r.get("incarnation"), r["state"]), [0, 0])
        g[0] += 1
        g[1] += r["cycles"]
want = {}
for inc, d in ((1, d1[0]), (2, d1[1])):
    for st, v in d["vcpus"][0]["runstates"].items():
        if v["count"] and st in ("running", "runnable", "blocked", "offline", "lost"):
            want[(inc, st)] = [v["count"], v["cycles"]]
ok(got == want, "runstates: d1's rows %r, want %r" % (got, want))
ok(len({k[0] for k in got}) == 2, "runstates: incarnations %r" % got)
# The timeline: a process and a thread per incarnation (its sums are
# checked against the summary by perfetto-check.py above).
import os, re
if os.path.exists(t + "/a.pbtxt"):
    txt = open(t + "/a.pbtxt", encoding="latin-1").read()
    procs = sorted(set(re.findall(r'process_name: "(d1[ #][^"]*)"', txt)))
    threads = sorted(set(re.findall(r'thread_name: "(d1[v#][^"]*)"', txt)))
    ok(procs == ["d1 (PV)", "d1#2 (HVM)"], "perfetto: processes %r" % procs)
    ok(threads == ["d1#2v0", "d1v0"], "perfetto: threads %r" % threads)
    exits_tracks = sorted(set(re.findall(r'name: "(d1\S* exits)"', txt)))
    ok(exits_tracks == ["d1#2v0 exits"], "perfetto: exit tracks %r" % exits_tracks)
if bad:
    sys.exit("\n".join(bad))
print("d1: %d hypercalls; d1#2: %d exits, in JSON, CSV, merge, diff, "
      "--exits, --runstates and the timeline" %
      (sum(hyp.values()), sum(e["count"] for e in dom1(vmx)["exits"])))
PY
grep -q "^ d1#2 *IO_INSTRUCTION \[0x1e\] *!" "$TMP/d.txt"
