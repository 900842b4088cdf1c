# SPDX-License-Identifier: GPL-2.0-only
# --scatterplot-* and --interval-*: upstream's formats with known answers.
# Part 1, a hand-built trace at 1 GHz whose every line is stated below
# (upstream xenalyze prints the same lines, but for --scatterplot-runstate-
# time, whose durations it offsets by the first TSC).  Part 2, the real
# VMX trace: counts upstream prints, and sums equal to our JSON summary.
. tests/check/lib.sh
need_python
PYTHONPATH=tests/tools python3 - "$TMP/p.xentrace" <<'PY' || exit 1
import sys
from tracebuild import rec, rs, write
# pCPU 0: d1v0 runs from 1000 to 1001000.
c0 = [rs(1000, 1, 0, 1, 0),
      rec(0x81002, 2000, 1, 0x1234), rec(0x8200f, None, 0xfa),
      rec(0x81001, 2500),                               # extint 0xfa: 500
      rec(0x81102, 3000, 30, 0x81000000, 0xffffffff),  # I/O, 64-bit rip
      rec(0x82016, None, 0x60, 0x1c), rec(0x81001, 3700),   # read 0x60: 700
      rec(0x81002, 4000, 16, 0x5678), rec(0x8201a, 4010, 123456789, 0),
      rec(0x81001, 4050),                               # rdtsc exit
      rec(0x82004, 4100, 0x30, 0), rec(0x82004, 4200, 0x30, 0),
      rec(0x802008, 5000, 0x1c, 4000, 4900),            # irq 0x1c handled
      rs(1001000, 1, 0, 0, 2), rs(1001000, 32767, 0, 1, 0),
      rs(2001000, 1, 0, 2, 1)]
# pCPU 1: d1v0 runs there from 2002000 to 2602000.
c1 = [rs(1500, 32767, 1, 1, 0),
      rs(2002000, 32767, 1, 0, 1), rs(2002000, 1, 0, 1, 0),
      rec(0x82004, 2100000, 0x31, 0),
      rs(2602000, 1, 0, 0, 2), rs(2602000, 32767, 1, 1, 0),
      rec(0x802008, 3000000, 0x1d, 0, 0)]
write(sys.argv[1], ((0, c0), (1, c1)))
PY
plot() {    # expected-file options...
    want=$1
    shift
    $XA "$@" "$TMP/p.xentrace" > "$TMP/got" 2> "$TMP/err" || { cat "$TMP/err"; exit 1; }
    diff -u "$want" "$TMP/got" || { echo "FAIL: $*"; exit 1; }
}
cat > "$TMP/rs" <<'OUT'
1v0 0.000000000 -2
1v0 0.000000000 3
32767v1 0.000000500 -2
32767v1 0.000000500 3
1v0 0.001000000 3
1v0 0.001000000 0
32767v0 0.001000000 -2
32767v0 0.001000000 3
1v0 0.002000000 0
1v0 0.002000000 2
32767v0 0.002000000 3
32767v0 0.002000000 -1
32767v1 0.002001000 3
32767v1 0.002001000 2
1v0 0.002001000 2
1v0 0.002001000 3
1v0 0.002601000 3
1v0 0.002601000 0
32767v1 0.002601000 2
32767v1 0.002601000 3
32767v1 0.002999000 3
32767v1 0.002999000 -1
OUT
plot "$TMP/rs" --cpu-hz=1G --scatterplot-runstate
cat > "$TMP/rst" <<'OUT'
1v0 0.001000000 0.001000000
1v0 0.002000000 0.001000000
32767v0 0.002000000 0.001000000
32767v1 0.002001000 0.002000500
1v0 0.002001000 0.000001000
1v0 0.002601000 0.000600000
32767v1 0.002601000 0.000600000
32767v1 0.002999000 0.000398000
OUT
plot "$TMP/rst" --cpu-hz=1G --scatterplot-runstate-time
cat > "$TMP/pcpu" <<'OUT'
1v0 0.002001000 0
1v0 0.002001000 1
OUT
plot "$TMP/pcpu" --cpu-hz=1G --scatterplot-pcpu
cat > "$TMP/ext" <<'OUT'
d1v0 0.000001500 500
OUT
plot "$TMP/ext" --cpu-hz=1G --scatterplot-extint-cycles=250
cat > "$TMP/io" <<'OUT'
0.000002000 700
OUT
plot "$TMP/io" --cpu-hz=1G --scatterplot-io=0x60
cat > "$TMP/eip" <<'OUT'
0.000001000 4660
0.000002000 -2130706432
0.000003000 22136
OUT
plot "$TMP/eip" --cpu-hz=1G --scatterplot-vmexit-eip
cat > "$TMP/rdtsc" <<'OUT'
1v0 0.000003010 123456789
OUT
plot "$TMP/rdtsc" --cpu-hz=1G --scatterplot-rdtsc
cat > "$TMP/irq" <<'OUT'
i1c 0.000004000 0
i1d 0.002999000 1
OUT
plot "$TMP/irq" --cpu-hz=1G --scatterplot-irq
cat > "$TMP/dtt" <<'OUT'
0.000000000 0.00 0.0
0.005000000 200.00 0.0
0.010000000 0.00 0.0
0.015000000 0.00 0.0
0.020000000 0.00 0.0
OUT
plot "$TMP/dtt" --cpu-hz=100M --interval=0.005 --interval-domain-total-time=1,5
cat > "$TMP/dtta" <<'OUT'
0.000000000 0.00 0.00 0.00
0.005000000 0.00 200.00 0.00
0.010000000 0.00 0.00 0.00
0.015000000 0.00 0.00 200.00
0.020000000 0.00 0.00 400.10
time 32768 1 32767
OUT
plot "$TMP/dtta" --cpu-hz=100M --interval=0.005 --interval-domain-total-time-all
cat > "$TMP/dgi" <<'OUT'
0.000000000 2
0.005000000 0
0.010000000 0
0.015000000 0
0.020000000 0 1
time running 48 49
OUT
plot "$TMP/dgi" --cpu-hz=100M --interval=0.005 --interval-domain-guest-interrupt=1
# With -s the summary follows the plot.
$XA --cpu-hz=1G -s --scatterplot-irq "$TMP/p.xentrace" > "$TMP/got" 2>&1 || exit 1
grep -q "^i1d 0.002999000 1$" "$TMP/got" && grep -q "^Total time:" "$TMP/got" || { cat "$TMP/got"; exit 1; }

# Part 2: the real VMX trace (upstream prints the same counts).
[ -d "$T" ] || { echo "plots: synthetic checks passed; no $T"; exit 0; }
V="$T/x86-vmx-credit2-8cpu.xentrace"
count() {   # want options...
    want=$1
    shift
    n=$($XA --cpu-hz=2.4G "$@" "$V" 2>/dev/null | wc -l)
    [ "$n" -eq "$want" ] || { echo "$*: $n lines, want $want"; exit 1; }
}
count 50614 --scatterplot-runstate
count 25278 --scatterplot-runstate-time
count 10064 --scatterplot-pcpu
count 5873 --scatterplot-vmexit-eip
count 1188 --scatterplot-extint-cycles=0xfa
$XA --cpu-hz=2.4G --format=json "$V" > "$TMP/s.json" || exit 1
$XA --cpu-hz=2.4G --scatterplot-extint-cycles=250 "$V" > "$TMP/ext" 2>/dev/null || exit 1
$XA --cpu-hz=2.4G --scatterplot-runstate-time "$V" > "$TMP/rst" 2>/dev/null || exit 1
python3 - "$TMP/s.json" "$TMP/ext" "$TMP/rst" <<'PY' || exit 1
import json, sys
j = json.load(open(sys.argv[1]))
n = cyc = 0
rs = {}
for d in j["domains"]:
    for v in d["vcpus"]:
        for e in v["exits"]:
            for s in e.get("sub", []):
                if e["code"] == 1 and s["key"] == "vector:0xfa":
                    n += s["count"]
                    cyc += s["cycles"]
        rs["%dv%d" % (d["id"], v["id"])] = sum(
            v["runstates"].get(k, {}).get("count", 0)
            for k in ("running", "runnable", "blocked", "offline", "lost"))
lines = [l.split() for l in open(sys.argv[2])]
got = (len(lines), sum(int(l[2]) for l in lines))
if got != (n, cyc) or n != 1188 or any(l[0][0] != "d" for l in lines):
    print("extint 0xfa: plot %r, summary %r" % (got, (n, cyc)))
    sys.exit(1)
per = {}
for l in open(sys.argv[3]):
    k = l.split()[0]
    per[k] = per.get(k, 0) + 1
for k, c in rs.items():
    if per.get(k, 0) != c:
        print("runstate-time %s: %d lines, summary %d intervals" % (k, per.get(k, 0), c))
        sys.exit(1)
PY
# Upstream's rows, but for its truncated interval start times.
cat > "$TMP/dtta" <<'OUT'
0.000000000 0.00 9.64 341.47 112.28
0.250000000 0.00 34.72 616.03 63.04
0.500000000 0.00 7.71 652.97 0.55
0.750000000 0.00 8.57 523.63 1.23
1.000000000 0.00 7.34 488.85 0.41
1.250000000 0.00 7.62 338.25 0.08
1.500000000 0.00 5.29 1197.71 72.71
1.750000000 0.00 5.72 678.89 103.13
2.000000000 0.00 5.55 417.56 63.02
2.250000000 0.00 7.87 597.14 0.34
2.500000000 0.00 7.25 438.99 0.12
2.750000000 0.00 16.32 1965.39 0.25
3.000000000 0.00 10.82 478.90 0.25
time 32768 0 32767 14
OUT
$XA --cpu-hz=2.4G --interval=0.25 --interval-domain-total-time-all "$V" > "$TMP/got" 2>/dev/null || exit 1
diff -u "$TMP/dtta" "$TMP/got" || exit 1
cat > "$TMP/dgi" <<'OUT'
0.000000000 500
0.500000000 41
1.000000000 11
1.500000000 447 2
2.000000000 200 0
2.500000000 7 0
time running 243 33
OUT
$XA --cpu-hz=2.4G --interval=0.5 --interval-domain-guest-interrupt=14 "$V" > "$TMP/got" 2>/dev/null || exit 1
diff -u "$TMP/dgi" "$TMP/got" || exit 1
echo "plots: all equal"
