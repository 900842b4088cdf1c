# SPDX-License-Identifier: GPL-2.0-only
# xenalyze diff: a trace against itself reports no change (real traces);
# two synthesized hosts that differ only in the cost of one guest's I/O
# exits (lognormal mean 5 us, then 15 us) report that change first, beyond
# chance, with the mean about tripled; --fail-above exits 2 above it and 0
# below; --guests and --map pair domains as asked.
. tests/check/lib.sh
need_python
set -e
F=tests/fixtures/arm64/arm64-xen420-credit2-dom0-domu.xentrace
$XA diff --fail-above=0 "$F" "$F" > "$TMP/self"
grep -q "^No change: [0-9]* rows compared, every number equal." "$TMP/self"
if [ -d "$T" ]; then
    V=$T/x86-vmx-credit2-8cpu.xentrace
    $XA diff --cpu-hz=2.4G --fail-above=0 "$V" "$V" | grep -q "^No change"
fi
sed 's/^exit = io 20 lognormal 5us 0.6/exit = io 20 lognormal 15us 0.6/' \
    examples/vmx.scn > "$TMP/b.scn"
! cmp -s examples/vmx.scn "$TMP/b.scn"
"$SYNTH" -s examples/vmx.scn -S 5 -o "$TMP/a.xt" -t "$TMP/a.truth" >/dev/null
"$SYNTH" -s "$TMP/b.scn" -S 5 -o "$TMP/b.xt" -t "$TMP/b.truth" >/dev/null
$XA diff --format=json "$TMP/a.xt" "$TMP/b.xt" > "$TMP/d.json"
python3 - "$TMP/d.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = d["rows"][0]
if (r["scope"], r["kind"], r["what"]) != ("d1", "exit", "IO_INSTRUCTION [0x1e]"):
    sys.exit("first row %r" % ((r["scope"], r["kind"], r["what"]),))
if not (150 <= r["d_mean"] <= 260) or r["within_chance"] or not r["changed"]:
    sys.exit("I/O mean change %r, within chance %r" % (r["d_mean"], r["within_chance"]))
# every I/O sub-key of d1 changed beyond chance; d2's I/O did not change cost
for x in d["rows"]:
    if x["scope"] == "d1" and x["what"].startswith("IO_INSTRUCTION [0x1e] io:") and \
       x["a"] and x["b"] and x["a"]["count"] > 30 and x["within_chance"]:
        sys.exit("%s within chance" % x["what"])
    if x["scope"] == "d2" and x["what"] == "IO_INSTRUCTION [0x1e]" and abs(x["d_mean"]) > 60:
        sys.exit("d2 I/O changed %r" % x["d_mean"])
print("first: %s %s, mean %+.1f%%" % (r["scope"], r["what"], r["d_mean"]))
PY
$XA diff "$TMP/a.xt" "$TMP/b.xt" > "$TMP/d.txt"
sed -n 6p "$TMP/d.txt" | grep -q "^ d1 *IO_INSTRUCTION \[0x1e\] *!"
rc=0; $XA diff --fail-above=50 "$TMP/a.xt" "$TMP/b.xt" > /dev/null || rc=$?
[ $rc -eq 2 ] || { echo "--fail-above=50: status $rc"; exit 1; }
$XA diff --fail-above=1000 "$TMP/a.xt" "$TMP/b.xt" > /dev/null
$XA diff --guests "$TMP/a.xt" "$TMP/b.xt" | grep -q "^ guests *IO_INSTRUCTION"
$XA diff --map=1:2,2:1 "$TMP/a.xt" "$TMP/b.xt" | grep -q "d1=d2 d2=d1"
echo ok
