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
echo "$n records, one per layout, decode as their Xen version wrote them"
