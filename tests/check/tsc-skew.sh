#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# TSC skew between pCPUs (docs/bad-input.md, "TSC skew"): known answers.
#  - xentrace-synth's tsc_skew shifts one pCPU's TSCs (10 us and 100 us
#    behind, 100 us ahead, 1 ms behind) without changing the simulation:
#    the truth is the unskewed trace's.  Every vCPU's running time (count
#    and cycles) equals the truth exactly, and up to 100 us every exit
#    count and every exit's cycles but HLT's (a HLT exit ends at the wake,
#    written on another pCPU: its length straddles two clocks); TSC_SKEW
#    is counted.  (At 1 ms, 50 times the guest's mean run, both pCPUs
#    hold records at once; 2 of 105 HLT exits and one I/O exit's end are
#    missed there.)
#  - the hostile 'skew' trace: a vCPU ping-ponging between two pCPUs 5000
#    cycles apart, 2000-cycle stays (shorter than the skew): 200 stays of
#    2000 cycles, 200 exits (before: 101 stays, 101 exits).
set -u
. tests/check/lib.sh
need_python
[ -x "$SYNTH" ] || { echo "no $SYNTH"; exit 77; }
bad=0
fail() { echo "FAIL: $*"; bad=$((bad + 1)); }
cat > "$TMP/skew.scn" <<'EOF'
pcpus = 2
duration = 20ms
domain = 1
kind = vmx
vcpus = 3
run = exp 20us
sleep = exp 40us
EOF
"$SYNTH" -s "$TMP/skew.scn" -o "$TMP/plain.xt" -t "$TMP/plain.json" || exit 1
for sk in -24000 -240000 240000 -2400000; do
    "$SYNTH" -s "$TMP/skew.scn" --set "tsc_skew=1 $sk" -o "$TMP/s.xt" \
        -t "$TMP/s.json" || { fail "tsc_skew=1 $sk"; continue; }
    cmp -s "$TMP/plain.json" "$TMP/s.json" ||
        fail "tsc_skew=1 $sk: the truth changed"
    cmp -s "$TMP/plain.xt" "$TMP/s.xt" && fail "tsc_skew=1 $sk: same trace"
    "$XA" --format=json "$TMP/s.xt" > "$TMP/got.json" 2> /dev/null ||
        { fail "skew $sk: status $?"; continue; }
    python3 - "$TMP/s.json" "$TMP/got.json" "$sk" <<'PY' || bad=$((bad + 1))
import json, sys
truth, got = (json.load(open(p)) for p in sys.argv[1:3])
def vcpus(doc):
    return {(d['id'], v['id']): v for d in doc['domains'] for v in d['vcpus']}
t, g = vcpus(truth), vcpus(got)
bad = []
for k, tv in t.items():
    gv = g.get(k, {'runstates': {}, 'exits': []})
    for f in ('count', 'cycles'):
        a = tv['runstates'].get('running', {}).get(f)
        b = gv['runstates'].get('running', {}).get(f)
        if a != b:
            bad.append('d%dv%d running %s: truth %s, got %s' % (k + (f, a, b)))
    ge = {e['code']: e for e in gv['exits']}
    for e in tv['exits'] if abs(int(sys.argv[3])) <= 240000 else ():
        x = ge.get(e['code'], {})
        for f in ('count',) + (('cycles',) if e['code'] != 12 else ()):
            if e[f] != x.get(f):
                bad.append('d%dv%d exit %d %s: truth %s, got %s'
                           % (k + (e['code'], f, e[f], x.get(f))))
n = got['anomalies'].get('TSC_SKEW', 0)
if not n:
    bad.append('no TSC_SKEW')
run = sum(v['runstates']['running']['cycles'] for k, v in t.items()
          if k[0] == 1)
for b in bad:
    print('FAIL: skew %s: %s' % (sys.argv[3], b))
print('skew %s: %d vCPUs, running %d cycles equal to the truth; '
      'TSC_SKEW %d' % (sys.argv[3], len(t), run, n))
sys.exit(1 if bad else 0)
PY
done

python3 tests/hostile/hostile.py attack skew 200 "$TMP/h.xt" || exit 1
"$XA" --format=json --cpu-hz=1G "$TMP/h.xt" 2> /dev/null |
python3 -c '
import json, sys
doc = json.load(sys.stdin)
v = [v for d in doc["domains"] if d["id"] == 1 for v in d["vcpus"]][0]
r = v["runstates"]["running"]
print(r["count"], r["cycles"], v["exits"][0]["count"],
      doc["anomalies"].get("TSC_SKEW", 0))' > "$TMP/h.out"
[ "$(cat "$TMP/h.out")" = "200 400000 200 99" ] ||
    fail "hostile skew: stays, cycles, exits, TSC_SKEW: $(cat "$TMP/h.out")"

[ $bad = 0 ] || exit 1
echo "TSC skew: running times of 4 skewed traces equal the truth, exits of 3; hostile skew: 200 stays, 400000 cycles"
