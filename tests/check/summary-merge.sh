#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# xenalyze merge, on every real trace:
#  - the merge of the summaries of the trace's two halves (--to=T and
#    --from=T with --window-rule=begin, T its middle) equals the whole
#    trace's summary: every statistic (count, total, min, max, mean,
#    percentiles, histogram) and counter of pCPUs and domains, vCPUs'
#    aggregates included, in the same order; and so does the merge of
#    three pieces given in another order;
#  - a trace at two clock rates (the same file summarised at 2.4 GHz and
#    at 1.2 GHz) merges in ns: counts exact, totals and extremes as each
#    input converted, histograms as their buckets' midpoints converted;
#    at 2.4 GHz and 1 Hz more (the same samples twice), every merged
#    percentile is within 1.6% of the trace's own;
#  - --group=host keeps each host's domains apart, with their numbers,
#    and "guests" adds every guest's exits;
#  - bad inputs (not JSON, an older summary without histograms, a merged
#    summary) are refused with status 1 and a reason.
. tests/check/lib.sh
need_python
set -e
real_traces > "$TMP/list"
at() {  # fraction of the trace's span in s, from the whole summary
    python3 -c 'import json,sys; t = json.load(open(sys.argv[1]))["trace"]
ns = (t["last_tsc"] - t["first_tsc"]) * 10**9 // t["cpu_hz"] * int(sys.argv[2]) // int(sys.argv[3])
print("%d.%09d" % (ns // 10**9, ns % 10**9))' "$TMP/w.json" "$1" "$2"
}
n=0
while read -r f hz; do
    o="--window-rule=begin"
    [ "$hz" = - ] || o="$o --cpu-hz=$hz"
    # shellcheck disable=SC2086
    $XA --format=json $o "$f" > "$TMP/w.json"
    mid=$(at 1 2) t1=$(at 1 3) t2=$(at 2 3)
    # shellcheck disable=SC2086
    { $XA --format=json $o --to="$mid" "$f" > "$TMP/a.json"
      $XA --format=json $o --from="$mid" "$f" > "$TMP/b.json"
      $XA --format=json $o --to="$t1" "$f" > "$TMP/p1.json"
      $XA --format=json $o --from="$t1" --to="$t2" "$f" > "$TMP/p2.json"
      $XA --format=json $o --from="$t2" "$f" > "$TMP/p3.json"; }
    $XA merge "$TMP/a.json" "$TMP/b.json" > "$TMP/m.json"
    python3 tests/tools/sumcheck.py equal "$TMP/w.json" "$TMP/m.json" ||
        { echo "$f: halves at $mid s"; exit 1; }
    $XA merge "$TMP/p3.json" "$TMP/p1.json" "$TMP/p2.json" > "$TMP/m3.json"
    python3 tests/tools/sumcheck.py equal "$TMP/w.json" "$TMP/m3.json" ||
        { echo "$f: thirds at $t1 and $t2 s"; exit 1; }
    n=$((n + 1))
done < "$TMP/list"
echo "$n traces: the merge of the halves, and of three thirds, is the whole"

# Clock rates: one trace at 2.4 GHz and at 1.2 GHz.
f=tests/fixtures/x86/x86-qemu-xen417-pvh-svm.xentrace
$XA --format=json --cpu-hz=2.4G "$f" > "$TMP/c1.json"
$XA --format=json --cpu-hz=1.2G "$f" > "$TMP/c2.json"
$XA merge "$TMP/c1.json" "$TMP/c2.json" > "$TMP/mc.json"
python3 tests/tools/sumcheck.py clocks "$TMP/mc.json" "$TMP/c1.json" "$TMP/c2.json"
# The same samples at two rates 1 Hz apart: the merged percentiles (ns)
# within 1.6% of the trace's own (each within 0.8% of the true sample).
$XA --format=json --cpu-hz=2400000001 "$f" > "$TMP/c3.json"
$XA merge "$TMP/c1.json" "$TMP/c3.json" > "$TMP/mc3.json"
python3 tests/tools/sumcheck.py pct "$TMP/mc3.json" "$TMP/c1.json"

# Hosts: two traces (at one clock rate) as two hosts.
g=tests/fixtures/arm64/arm64-xen420-credit2-dom0-domu.xentrace
$XA --format=json "$g" > "$TMP/h1.json"
$XA --format=json tests/fixtures/arm64/arm64-xen420-credit-domu-burn.xentrace > "$TMP/h2.json"
$XA merge --group=host --host=a "$TMP/h1.json" --host=b "$TMP/h2.json" > "$TMP/mh.json"
python3 tests/tools/sumcheck.py hosts "$TMP/mh.json" a="$TMP/h1.json" b="$TMP/h2.json"
# Text and CSV of a merged summary.
$XA merge --format=text "$TMP/h1.json" "$TMP/h2.json" | grep -q "all exits"
$XA merge --format=csv "$TMP/h1.json" "$TMP/h2.json" | grep -q "^exit,"

# Bad inputs.
refuse() {  # WHY FILE...
    why=$1
    shift
    if $XA merge "$@" > "$TMP/out" 2> "$TMP/err"; then
        echo "merge accepted $why"; exit 1
    fi
    grep -q "xenalyze merge: " "$TMP/err" || { echo "no reason for $why"; cat "$TMP/err"; exit 1; }
}
printf '{"schema":' > "$TMP/bad.json"
refuse "cut JSON" "$TMP/a.json" "$TMP/bad.json"
python3 -c 'import json,sys
d = json.load(open(sys.argv[1])); del d["histograms"]
json.dump(d, open(sys.argv[2], "w"))' "$TMP/a.json" "$TMP/old.json"
refuse "a summary without histograms" "$TMP/old.json"
refuse "a merged summary" "$TMP/m.json"
refuse "a missing file" "$TMP/none.json"
echo ok
