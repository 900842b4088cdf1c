# SPDX-License-Identifier: GPL-2.0-only
# The real traces are read completely, with no anomaly.
. tests/check/lib.sh
need_shared
check() {   # trace records windows wraps tscless pcpus
    $XA --count "$T/$1.xentrace" > "$TMP/out" 2> "$TMP/err" || exit 1
    for kv in "records $2 " "windows $3" "wraps $4" "tscless $5" "pcpus $6"; do
        grep -q "^$kv" "$TMP/out" || { echo "$1: want '$kv'"; cat "$TMP/out"; exit 1; }
    done
    grep -qx "Anomalies: none" "$TMP/err" || { echo "$1:"; cat "$TMP/err"; exit 1; }
}
check x86-vmx-credit2-8cpu 180680 187 27 7548 8
check arm64-qemu-credit2-2dom 19557 99 1 1 2
check x86-qemu-svm-pvh 237736 108 24 73530 2
check x86-qemu-pv-dom0 222795 130 27 27 2
# The same through a pipe (streamed, not mapped).
cat "$T/x86-vmx-credit2-8cpu.xentrace" | $XA --count - > "$TMP/pipe" 2>&1 || exit 1
grep -q "^records 180680 " "$TMP/pipe" || { cat "$TMP/pipe"; exit 1; }
