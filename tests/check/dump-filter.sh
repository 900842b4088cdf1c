# SPDX-License-Identifier: GPL-2.0-only
# --from/--to/--domain/--vcpu in the dump select exactly the lines of the
# full dump whose time is in the window and whose running vCPU is chosen.
. tests/check/lib.sh
need_shared
set -e
V=$T/x86-vmx-credit2-8cpu.xentrace
A=$T/arm64-qemu-credit2-2dom.xentrace
$XA -a "$V" > "$TMP/all" 2>/dev/null
$XA -a --from=1 --to=1.25 "$V" > "$TMP/win" 2>/dev/null
awk '$1 >= 1.0 && $1 < 1.25' "$TMP/all" > "$TMP/want"
cmp "$TMP/want" "$TMP/win"
n=$(wc -l < "$TMP/win")
[ "$n" -gt 1000 ] || { echo "window too small: $n"; exit 1; }
$XA -a --domain=14 "$V" > "$TMP/d14" 2>/dev/null
awk '$3 ~ /^d14v/' "$TMP/all" > "$TMP/want"
cmp "$TMP/want" "$TMP/d14"
$XA -a --vcpu=d14v2,d0v1 --from=0.5 "$V" > "$TMP/v" 2>/dev/null
awk '$1 >= 0.5 && ($3 == "d14v2" || $3 == "d0v1")' "$TMP/all" > "$TMP/want"
cmp "$TMP/want" "$TMP/v"
# 62.5 MHz: a window edge between two ticks (16 ns apart) is exact.
$XA -a --cpu-hz=62.5M "$A" > "$TMP/all" 2>/dev/null
t=$(awk 'NR == 5000 {print $1}' "$TMP/all")
$XA -a --cpu-hz=62.5M --from="$t" "$A" > "$TMP/win" 2>/dev/null
awk -v t="$t" '$1 >= t' "$TMP/all" | cmp - "$TMP/win"
# Refused where meaningless (--count), and a reversed window.
if $XA --count --from=1 "$V" >/dev/null 2>&1; then echo "--count took --from"; exit 1; fi
if $XA -a --from=2 --to=1 "$V" >/dev/null 2>&1; then echo "reversed window"; exit 1; fi
echo ok
