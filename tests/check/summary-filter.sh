# SPDX-License-Identifier: GPL-2.0-only
# --from/--to/--domain/--vcpu in the summary, checked against what the
# dump's records say, independently of the model:
#  - exits: a Python pairing of the dump's vmexit records with the next
#    vmentry of the same vCPU (or its runstate change to runnable) gives,
#    for each window, per vCPU and reason, the count of exits that begin
#    in it and their cycles cut at --to: the summary's, exactly;
#  - runstates and pCPU times are additive: three adjacent windows add up
#    to the whole trace, state by state, cycle for cycle, and no vCPU has
#    more time in a window than the window holds;
#  - --domain/--vcpu list only those, with the same numbers;
#  - the plots keep only points of the window and of the selected vCPUs.
# The same on a synthesized VMX host.
. tests/check/lib.sh
need_shared
need_python
set -e
check() {   # trace hz from to
    tr=$1 hz=$2
    $XA -a --show-tsc --cpu-hz=$hz "$tr" > "$TMP/dump" 2>/dev/null
    $XA --format=json --cpu-hz=$hz "$tr" > "$TMP/all.json"
    $XA --format=json --cpu-hz=$hz --to=$3 "$tr" > "$TMP/w1.json"
    $XA --format=json --cpu-hz=$hz --from=$3 --to=$4 "$tr" > "$TMP/w2.json"
    $XA --format=json --cpu-hz=$hz --from=$4 "$tr" > "$TMP/w3.json"
    python3 - "$TMP" $hz $3 $4 <<'PY'
import json, sys
from fractions import Fraction
tmp, hz, t1, t2 = sys.argv[1], int(float(sys.argv[2].rstrip("G")) * 1e9) if sys.argv[2].endswith("G") else int(sys.argv[2]), sys.argv[3], sys.argv[4]
def fail(msg):
    print(msg)
    sys.exit(1)
def ns(s):
    a, _, b = s.partition(".")
    return int(a) * 10**9 + int((b + "000000000")[:9])
# Exits from the dump: vmexit .. next vmentry of that vCPU, or its change
# to runnable.
exits = []          # (vcpu, reason, exit_tsc, close_tsc)
opened = {}
first = None
for line in open(tmp + "/dump"):
    f = line.split()
    if len(f) < 5 or not f[0].isdigit():
        continue
    tsc, cur, name = int(f[0]), f[3], f[4]
    if first is None:
        first = tsc
    if name == "vmexit" and cur != "d?v?":
        opened[cur] = (tsc, f[5].split("=")[1])
    elif name == "vmentry" and cur in opened:
        t0, r = opened.pop(cur)
        exits.append((cur, r, t0, tsc))
    elif name == "runstate_change" and f[6].endswith("->runnable") and f[5] in opened:
        t0, r = opened.pop(f[5])
        exits.append((f[5], r, t0, tsc))
def lo_tick(n):     # the first tick at or after n ns
    return first + -(-n * hz // 10**9)
windows = {"w1": (first, lo_tick(ns(t1))), "w2": (lo_tick(ns(t1)), lo_tick(ns(t2))),
           "w3": (lo_tick(ns(t2)), 1 << 64), "all": (0, 1 << 64)}
def summary(name):
    d = json.load(open("%s/%s.json" % (tmp, name)))
    ex, rs, pc = {}, {}, {}
    for dm in d["domains"]:
        for v in dm["vcpus"]:
            vid = "d%dv%d" % (dm["id"], v["id"])
            for e in v["exits"]:
                ex[(vid, e["reason"])] = (e["count"], e["cycles"])
            for k, st in v["runstates"].items():
                rs[(vid, k)] = st["cycles"]
            tot = sum(v["runstates"].get(k, {"cycles": 0})["cycles"] for k in
                      ("running", "runnable", "blocked", "offline", "lost"))
            lo, hi = d["trace"].get("window", {}).get("first_tsc"), d["trace"].get("window", {}).get("last_tsc")
            if lo is not None and tot > hi - lo:
                fail("%s %s: %d cycles of runstates in a window of %d" % (name, vid, tot, hi - lo))
        for k, st in dm["runstates"].items():
            rs[("d%d" % dm["id"], k)] = st["cycles"]
    for p in d["pcpus"]:
        for k in ("running", "idle", "lost"):
            pc[(p["id"], k)] = p[k]["cycles"]
    return ex, rs, pc
n = 0
for w, (lo, hi) in windows.items():
    want = {}
    for vid, r, t0, t1_ in exits:
        if lo <= t0 < hi:
            c = want.setdefault((vid, r), [0, 0])
            c[0] += 1
            c[1] += min(t1_, hi) - t0
    want = {k: tuple(x) for k, x in want.items()}
    got = summary(w)[0]
    if got != want:
        for k in sorted(set(got) | set(want)):
            if got.get(k) != want.get(k):
                print(w, k, "summary", got.get(k), "dump", want.get(k))
        fail("%s: exits differ from the dump's" % w)
    n += sum(c for c, _ in want.values())
whole = summary("all")
parts = [summary(w) for w in ("w1", "w2", "w3")]
for i in (1, 2):
    tot = {}
    for p in parts:
        for k, c in p[i].items():
            tot[k] = tot.get(k, 0) + c
    diff = {k: (whole[i].get(k, 0), tot.get(k, 0)) for k in set(whole[i]) | set(tot)
            if whole[i].get(k, 0) != tot.get(k, 0)}
    if diff:
        fail("windows do not add up to the whole: %r" % sorted(diff.items())[:5])
print("%d exits in 3 windows equal the dump's; runstates and pCPU times add up" % n)
PY
}
V=$T/x86-vmx-credit2-8cpu.xentrace
check "$V" 2.4G 1.25 2.5
"$SYNTH" -s examples/vmx.scn -S 3 -o "$TMP/s.xentrace" -t "$TMP/s.truth" >/dev/null
check "$TMP/s.xentrace" 2.4G 0.05 0.1
# --domain/--vcpu: only those, numbers unchanged.
$XA --format=json --cpu-hz=2.4G --from=1 --to=3 "$V" > "$TMP/a.json"
$XA --format=json --cpu-hz=2.4G --from=1 --to=3 --domain=14 "$V" > "$TMP/d.json"
$XA --format=json --cpu-hz=2.4G --from=1 --to=3 --vcpu=d14v2,d0v1 "$V" > "$TMP/v.json"
python3 - "$TMP" <<'PY'
import json, sys
t = sys.argv[1]
a, d, v = (json.load(open(t + f)) for f in ("/a.json", "/d.json", "/v.json"))
da = {x["id"]: x for x in a["domains"]}
if [x["id"] for x in d["domains"]] != [14] or d["domains"][0] != da[14]:
    sys.exit("--domain=14 differs")
got = sorted((x["id"], [y["id"] for y in x["vcpus"]]) for x in v["domains"])
if got != [(0, [1]), (14, [2])]:
    sys.exit("--vcpu: %r" % got)
for x in v["domains"]:
    want = [y for y in da[x["id"]]["vcpus"] if y["id"] == x["vcpus"][0]["id"]]
    if x["vcpus"] != want:
        sys.exit("--vcpu numbers differ")
print("--domain and --vcpu select without changing numbers")
PY
# Plots: only the window's points of the selected vCPUs.
$XA --cpu-hz=2.4G --scatterplot-runstate "$V" > "$TMP/p.all" 2>/dev/null
$XA --cpu-hz=2.4G --scatterplot-runstate --from=1 --to=2 --vcpu=d14v1 "$V" > "$TMP/p.sel" 2>/dev/null
awk '$1 == "14v1" && $2 >= 1 && $2 < 2' "$TMP/p.all" | cmp - "$TMP/p.sel"
[ "$(wc -l < "$TMP/p.sel")" -gt 10 ] || { echo "too few plot points"; exit 1; }
# The text says which window and selection it shows.
$XA --cpu-hz=2.4G --from=1 --to=3 --domain=14 "$V" > "$TMP/t.txt"
grep -q "^Window: 1.000000000 s to 3.000000000 s" "$TMP/t.txt"
grep -q "^Selection: only the domains" "$TMP/t.txt"
! grep -q "Domain 0 " "$TMP/t.txt"
echo ok
