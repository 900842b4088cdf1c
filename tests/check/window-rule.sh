#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# --window-rule=begin: the JSON summaries of the two halves of a trace
# (--to=T and --from=T, T its middle) add up to the whole trace's, on
# every real trace: for every statistic (runstates, exits, sub-keys, pCPU
# times, CPU stays, wake-to-halt times) count, cycles and every histogram
# bucket add, min and max are the halves' extremes, so percentiles read
# from the summed histogram are the whole's; every counter adds.  Under
# the default rule (cut) the totals of intervals add too (checked as
# well), while counts do not (an interval crossing T counts on each side)
# nor do exit times (an exit crossing T is cut there).
. tests/check/lib.sh
need_python
set -e
real_traces > "$TMP/list"
n=0
while read -r f hz; do
    o=""
    [ "$hz" = - ] || o="--cpu-hz=$hz"
    # shellcheck disable=SC2086
    $XA --format=json $o "$f" > "$TMP/w.json"
    mid=$(python3 -c 'import json,sys; t = json.load(open(sys.argv[1]))["trace"]
ns = (t["last_tsc"] - t["first_tsc"]) * 10**9 // t["cpu_hz"] // 2
print("%d.%09d" % (ns // 10**9, ns % 10**9))' "$TMP/w.json")
    for rule in begin cut; do
        # shellcheck disable=SC2086
        $XA --format=json $o --window-rule=$rule --to="$mid" "$f" > "$TMP/a.json"
        # shellcheck disable=SC2086
        $XA --format=json $o --window-rule=$rule --from="$mid" "$f" > "$TMP/b.json"
        python3 tests/tools/sumcheck.py halves $rule "$TMP/w.json" "$TMP/a.json" "$TMP/b.json" ||
            { echo "$f at $mid s, rule $rule"; exit 1; }
    done
    n=$((n + 1))
done < "$TMP/list"
echo "$n traces: halves add up to the whole"
