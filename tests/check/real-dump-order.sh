# SPDX-License-Identifier: GPL-2.0-only
# The dump lists the real traces' records in upstream's global order, with
# the same times (upstream's truncated rate reproduced from our raw TSCs).
. tests/check/lib.sh
need_shared
need_python
$XA -a --show-tsc --cpu-hz=2.4G "$T/x86-vmx-credit2-8cpu.xentrace" > "$TMP/vmx" 2> "$TMP/err" || exit 1
grep -qx "Anomalies: none" "$TMP/err" || { cat "$TMP/err"; exit 1; }
[ "$(wc -l < "$TMP/vmx")" -eq 180493 ] || { echo "vmx: want 180493 lines"; exit 1; }
python3 tests/tools/compare-dump.py "$R/x86-vmx-credit2-8cpu.dump-all.txt.xz" "$TMP/vmx" 2400000000 || exit 1
$XA -a --show-tsc --cpu-hz=62.5M "$T/arm64-qemu-credit2-2dom.xentrace" > "$TMP/arm" 2> "$TMP/err" || exit 1
grep -qx "Anomalies: none" "$TMP/err" || { cat "$TMP/err"; exit 1; }
[ "$(wc -l < "$TMP/arm")" -eq 19458 ] || { echo "arm: want 19458 lines"; exit 1; }
python3 tests/tools/compare-dump.py "$R/arm64-qemu-credit2-2dom.dump-all.txt.xz" "$TMP/arm" 62500000 || exit 1
# At 62.5 MHz a tick is exactly 16 ns: the last line's time is exact.
last=$(tail -1 "$TMP/arm"); first=$(awk '$1 > 0 {print $1; exit}' "$TMP/arm")
tsc=$(echo "$last" | awk '{print $1}'); t=$(echo "$last" | awk '{print $2}')
want=$(awk -v a="$tsc" -v b="$first" 'BEGIN { ns = (a - b) * 16; printf "%d.%09d", ns / 1e9, ns % 1e9 }')
[ "$t" = "$want" ] || { echo "arm last time $t, want $want"; exit 1; }
