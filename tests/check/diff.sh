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

# JSON summaries: a trace against its own says no change; JSON against
# JSON and trace against JSON print what the traces' diff prints.
$XA --format=json "$F" > "$TMP/f.json" 2> /dev/null
$XA diff --fail-above=0 "$F" "$TMP/f.json" > "$TMP/self"
grep -q "^No change: [0-9]* rows compared, every number equal." "$TMP/self"
$XA --format=json "$TMP/a.xt" > "$TMP/a.json" 2> /dev/null
$XA --format=json "$TMP/b.xt" > "$TMP/b.json" 2> /dev/null
for fmt in text json; do
    $XA diff --format=$fmt "$TMP/a.xt" "$TMP/b.xt" > "$TMP/tt.$fmt"
    $XA diff --format=$fmt "$TMP/a.json" "$TMP/b.json" > "$TMP/jj.$fmt"
    $XA diff --format=$fmt "$TMP/a.xt" "$TMP/b.json" > "$TMP/tj.$fmt"
done
grep -v '^[AB]: ' "$TMP/tt.text" > "$TMP/tt"
for x in jj tj; do
    grep -v '^[AB]: ' "$TMP/$x.text" | cmp -s - "$TMP/tt" ||
        { echo "$x: text differs from the traces' diff"; exit 1; }
done
python3 - "$TMP/tt.json" "$TMP/jj.json" "$TMP/tj.json" <<'PY'
import json, sys
d = [json.load(open(f)) for f in sys.argv[1:]]
for x in d:
    del x["a"], x["b"]
if d[1] != d[0] or d[2] != d[0]:
    sys.exit("JSON diff of JSON summaries differs from the traces'")
print("JSON summaries: %d rows as the traces'" % len(d[0]["rows"]))
PY
rc=0; $XA diff --fail-above=50 "$TMP/a.json" "$TMP/b.json" > /dev/null || rc=$?
[ $rc -eq 2 ] || { echo "--fail-above=50 on JSON: status $rc"; exit 1; }
# Damaged summaries: refused, saying where.
head -c 3000 "$TMP/a.json" > "$TMP/cut.json"
rc=0; $XA diff "$TMP/cut.json" "$TMP/b.json" > /dev/null 2> "$TMP/err" || rc=$?
[ $rc -eq 1 ] && grep -q "cut.json: line [0-9]*, column [0-9]*: " "$TMP/err" ||
    { echo "a cut summary: status $rc"; cat "$TMP/err"; exit 1; }
echo '{"schema": "xenalyze.summary/1", "trace": {}}' > "$TMP/bad.json"
rc=0; $XA diff "$TMP/bad.json" "$TMP/b.json" > /dev/null 2> "$TMP/err" || rc=$?
[ $rc -eq 1 ] && grep -q "trace: no cpu_hz" "$TMP/err" ||
    { echo "a summary without a clock: status $rc"; cat "$TMP/err"; exit 1; }
sed 's/"code":/"kode":/' "$TMP/a.json" > "$TMP/bad.json"
rc=0; $XA diff "$TMP/bad.json" "$TMP/b.json" > /dev/null 2> "$TMP/err" || rc=$?
[ $rc -eq 1 ] && grep -q "domain [0-9]*: an exit without reason or code" "$TMP/err" ||
    { echo "an exit without code: status $rc"; cat "$TMP/err"; exit 1; }
echo ok
