#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Records whose layout changed between Xen 4.7 and master
# (docs/record-layouts.md), built to each version's layout by
# tests/tools/layouts.py: the dump prints each with the fields of its own
# layout, no record is [short] or UNKNOWN, and the summary reads them all.
set -u
. tests/check/lib.sh
need_python

python3 tests/tools/layouts.py "$TMP/t.xentrace" "$TMP/want" || exit 1
"$XA" --dump-all "$TMP/t.xentrace" > "$TMP/dump" 2> "$TMP/err" || {
    cat "$TMP/err"; exit 1; }
# "  TIME pN d?v? NAME ARGS" -> "NAME ARGS"
sed 's/^ *[0-9.]* p[0-9]* d[^ ]* //' "$TMP/dump" > "$TMP/got"
cut -f2 "$TMP/want" > "$TMP/want2"
n=$(wc -l < "$TMP/want2")
[ "$n" -ge 20 ] || { echo "only $n layouts"; exit 1; }
if ! diff -u "$TMP/want2" "$TMP/got"; then
    echo "FAIL: a layout decodes wrong (versions: $(cut -f1 "$TMP/want" |
        sort -u | tr '\n' ' '))"
    exit 1
fi
if grep -E '\[short\]|UNKNOWN' "$TMP/dump"; then
    echo "FAIL: short or unknown records"; exit 1
fi
"$XA" --summary --strict=record "$TMP/t.xentrace" > /dev/null 2> "$TMP/err" || {
    echo "FAIL: summary: anomalies at level record or above"
    cat "$TMP/err"; exit 1; }
# PoD by page order from both TRC_MEM layouts (4.17: d:16/order:16 and a
# padding word; 4.18: d, order), as upstream breaks it down: populated
# 2M twice (4.17, 4.18) and 4k once (4.18); reclaimed 1G twice and 4k once
# (4.17 order 0, its padding not read as an order).
PYTHONPATH=tests/tools python3 - "$TMP/pod.xentrace" <<'PY' || exit 1
import sys
from tracebuild import rec, rs, write
G = [0x1000, 0, 0x2000, 0]
c0 = [rs(1000, 2, 0, 1, 0),
      rec(0x10f010, 2000, *G, 2 | 9 << 16, 0xffff8300),
      rec(0x10f010, 3000, *G, 2, 9), rec(0x10f010, 4000, *G, 2, 0),
      rec(0x10f011, 5000, *G, 2 | 18 << 16, 0), rec(0x10f011, 6000, *G, 2, 18),
      rec(0x10f011, 7000, *G, 2, 0x82d04000),
      rs(9000, 2, 0, 0, 2)]
write(sys.argv[1], ((0, c0),))
PY
"$XA" "$TMP/pod.xentrace" 2> /dev/null | grep -A2 '^ Populate-on-demand' > "$TMP/pod"
cat > "$TMP/podwant" <<'OUT'
 Populate-on-demand: populate 3, zero reclaim 3, superpage splinter 0
  populated by order: 4k 1, 2M 2
  reclaimed by order: 4k 1, 1G 2
OUT
diff -u "$TMP/podwant" "$TMP/pod" || { echo "FAIL: PoD by order"; exit 1; }
# The same in the JSON and CSV summaries (docs/summary-json.md, csv.md).
"$XA" --format=json "$TMP/pod.xentrace" 2> /dev/null | python3 -c '
import json, sys
d = [d for d in json.load(sys.stdin)["domains"] if d["id"] == 2][0]["pod"]
for k in ("populate_by_order", "zero_reclaim_by_order"):
    print(k, " ".join("%s %d" % (o, d[k][o]) for o in ("4k", "2M", "1G", "other")))
' > "$TMP/podj"
"$XA" --format=csv "$TMP/pod.xentrace" 2> /dev/null |
    awk -F, '$1 == "pod_order" && $2 == 2 { n[$5] = n[$5] " " $7 " " $10 }
             END { print "populate_by_order" n["populate"]
                   print "zero_reclaim_by_order" n["zero_reclaim"] }' > "$TMP/podc"
printf '%s\n' "populate_by_order 4k 1 2M 2 1G 0 other 0" \
    "zero_reclaim_by_order 4k 1 2M 0 1G 2 other 0" > "$TMP/podwant"
diff -u "$TMP/podwant" "$TMP/podj" && diff -u "$TMP/podwant" "$TMP/podc" ||
    { echo "FAIL: PoD by order in JSON or CSV"; exit 1; }
echo "$n records, one per layout, decode as their Xen version wrote them; PoD by order from both TRC_MEM layouts, in text, JSON and CSV"
