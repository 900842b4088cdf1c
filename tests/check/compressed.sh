# SPDX-License-Identifier: GPL-2.0-only
# Compressed traces (gzip, xz, zstd), told by their first bytes whatever
# the name, from a file and from standard input: the summary (text and
# JSON) and the counts equal the plain trace's, also across concatenated
# members; a damaged or cut stream is an anomaly (DAMAGED_COMPRESSED) with
# what came before read, never a crash.  A build without a format's library
# says how to read such a file (and the check of that format skips).
. tests/check/lib.sh
fail() { echo "FAIL: $*"; exit 1; }
F=tests/fixtures/x86/x86-qemu-xen417-pvh-svm.xentrace
$XA --cpu-hz=2.1G "$F" > "$TMP/plain.txt" 2>&1 || fail plain
$XA --cpu-hz=2.1G --format=json "$F" > "$TMP/plain.json" || fail plain json
$XA --count "$F" > "$TMP/plain.count" || fail plain count
size=$(stat -c %s "$F")
half=$((size / 2 + 3))
head -c "$half" "$F" > "$TMP/a"
tail -c +"$((half + 1))" "$F" > "$TMP/b"
tested=""
for fmt in gzip xz zstd; do
    command -v $fmt >/dev/null 2>&1 || { echo "SKIP: no $fmt tool"; continue; }
    c="$TMP/trace-$fmt.bin"                  # no telling extension
    $fmt -c < "$F" > "$c" || fail "$fmt"
    if ! $XA --count "$c" > "$TMP/out" 2> "$TMP/err"; then
        grep -q "built without" "$TMP/err" ||
            { cat "$TMP/err"; fail "$fmt: refused without saying why"; }
        grep -q "cat FILE | xenalyze -" "$TMP/err" || fail "$fmt: no hint"
        echo "SKIP: built without $fmt: $(cat "$TMP/err")"
        continue
    fi
    diff -u "$TMP/plain.count" "$TMP/out" || fail "$fmt: --count differs"
    $XA --cpu-hz=2.1G "$c" > "$TMP/out" 2>&1 || fail "$fmt: summary"
    diff -u "$TMP/plain.txt" "$TMP/out" || fail "$fmt: summary differs"
    $XA --cpu-hz=2.1G --format=json - < "$c" > "$TMP/out" ||
        fail "$fmt: from standard input"
    cmp "$TMP/plain.json" "$TMP/out" || fail "$fmt: stdin JSON differs"
    cat "$c" | $XA --count - > "$TMP/out" || fail "$fmt: from a pipe"
    diff -u "$TMP/plain.count" "$TMP/out" || fail "$fmt: pipe --count differs"
    # Two members, cut mid-record: one stream once decompressed.
    { $fmt -c < "$TMP/a"; $fmt -c < "$TMP/b"; } > "$TMP/two"
    $XA --count "$TMP/two" > "$TMP/out" || fail "$fmt: two members"
    diff -u "$TMP/plain.count" "$TMP/out" || fail "$fmt: two members differ"
    # Cut short: what came before is read, the cut is an anomaly.
    csize=$(stat -c %s "$c")
    head -c $((csize * 2 / 3)) "$c" > "$TMP/cut"
    $XA --count "$TMP/cut" > "$TMP/out" 2> "$TMP/err" || fail "$fmt: cut: status"
    grep -q "DAMAGED_COMPRESSED *1 " "$TMP/err" ||
        { cat "$TMP/err"; fail "$fmt: cut: no anomaly"; }
    n=$(awk '/^data_records/ {print $2}' "$TMP/out")
    all=$(awk '/^data_records/ {print $2}' "$TMP/plain.count")
    [ "$n" -gt $((all / 3)) ] && [ "$n" -lt "$all" ] ||
        fail "$fmt: cut: $n of $all records read"
    # Bytes changed in the middle: an anomaly or records read, no crash.
    python3 -c '
import sys
b = bytearray(open(sys.argv[1], "rb").read())
for i in range(len(b) // 2, len(b) // 2 + 64):
    b[i] ^= 0x5a
open(sys.argv[2], "wb").write(b)' "$c" "$TMP/bad" || fail python
    $XA --cpu-hz=2.1G "$TMP/bad" > "$TMP/out" 2>&1
    rc=$?
    [ $rc -eq 0 ] || { tail -5 "$TMP/out"; fail "$fmt: damaged: status $rc"; }
    grep -q "DAMAGED_COMPRESSED" "$TMP/out" ||
        { tail -20 "$TMP/out"; fail "$fmt: damaged: no anomaly"; }
    tested="$tested $fmt"
done
echo "compressed input read alike:$tested"
