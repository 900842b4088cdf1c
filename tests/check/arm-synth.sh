# SPDX-License-Identifier: GPL-2.0-only
# Arm known answers at 62.5 MHz, 24 MHz and 1 GHz: counts and cycles per
# exception class and sub-key equal the synthesizer's truth, the clock
# record sets the rate (no --cpu-hz), and dump times are exact.  Then a
# trace mixing x86, Arm and unknown classes is analysed without error.
. tests/check/lib.sh
need_python
[ -x "$SYNTH" ] || { echo "no $SYNTH"; exit 77; }
for hz in 62500000 24000000 1000000000; do
    for seed in 1 2 3 4 5; do
        "$SYNTH" -s examples/arm.scn -S "$seed" --hz "$hz" -o "$TMP/t" \
            -t "$TMP/t.json" || exit 1
        $XA --format=json "$TMP/t" > "$TMP/x.json" || exit 1
        "$SYNTH" --compare "$TMP/t.json" "$TMP/x.json" || {
            echo "arm hz=$hz seed=$seed differs"; exit 1; }
        grep -q "\"cpu_hz\":$hz,\"cpu_hz_source\":\"trace\"" "$TMP/x.json" || {
            echo "hz=$hz: clock record not used"; exit 1; }
    done
    $XA -a --show-tsc "$TMP/t" > "$TMP/dump" 2>/dev/null || exit 1
    python3 - "$TMP/dump" "$hz" <<'PY' || exit 1
import sys
hz = int(sys.argv[2])
first = None
n = 0
for line in open(sys.argv[1]):
    f = line.split()
    tsc = int(f[0])
    if first is None and tsc:
        first = tsc
    if first is None:
        continue
    ns = (tsc - first) * 10**9 // hz
    want = "%d.%09d" % (ns // 10**9, ns % 10**9)
    if f[1] != want:
        print("time %s, want %s at tsc %d" % (f[1], want, tsc))
        sys.exit(1)
    n += 1
print("%d lines with exact times at %d Hz" % (n, hz))
PY
done
# The text report names exception classes and sub-keys.
$XA "$TMP/t" > "$TMP/txt" || exit 1
for want in "HVC64 \[0x16\]" "DABT_LOW \[0x24\]" "SYSREG \[0x18\]" "IRQ \[0x100\]" \
            "hypercall:" "mmio:0x" "sysreg:0x" "irq:" "Architecture: arm"; do
    grep -q "$want" "$TMP/txt" || { echo "text report lacks '$want'"; exit 1; }
done

# Mixed classes: x86 HVM + PV, Arm records and unknown classes in one trace.
"$SYNTH" -s examples/mixed.scn -S 7 -o "$TMP/m" -t "$TMP/m.json" || exit 1
python3 - "$TMP/m" <<'PY' || exit 1
import struct, sys
# One window on CPU 0 with 5 records of classes no table knows (0x0200f,
# 0x0400f, an unknown HVM sub-class) and 2 guest-class records.
recs = b""
for ev in (0x0200f001, 0x0400f123, 0x0400f124, 0x0008f001, 0x0002ffff):
    recs += struct.pack("<IQI", ev | 1 << 28 | 1 << 31, 1 << 62, 7)
for ev in (0x0800f001, 0x0800f002):
    recs += struct.pack("<II", ev | 1 << 28, 9)
# And an Arm exit (HVC64, hypercall 24), its detail record and the entry.
t = (1 << 62) + 100
recs += struct.pack("<IQ5I", 0x01001001 | 5 << 28 | 1 << 31, t,
                    0x16 << 26 | 1 << 25, 0, 0x1000, 0, 0)
recs += struct.pack("<I3I", 0x01002001 | 3 << 28, 24, 0, 0)
recs += struct.pack("<IQ", 0x01001002 | 1 << 31, t + 500)
open(sys.argv[1], "ab").write(struct.pack("<IiI", 0x2001f003, 0, len(recs)) + recs)
PY
$XA --format=json --cpu-hz=2.4G "$TMP/m" > "$TMP/mx.json" || { echo "mixed: status $?"; exit 1; }
python3 - "$TMP/mx.json" <<'PY' || exit 1
import json, sys
d = json.load(open(sys.argv[1]))
assert d["trace"]["arch"] == "mixed", d["trace"]["arch"]
n = d["anomalies"].get("UNKNOWN_EVENT", 0)
assert n == 5, "UNKNOWN_EVENT %d, want 5" % n
print("mixed trace: %s, 5 unknown records counted" % d["trace"]["arch"])
PY
$XA -a --cpu-hz=2.4G "$TMP/m" > "$TMP/md" 2>/dev/null || exit 1
[ "$(grep -c 'UNKNOWN(0x' "$TMP/md")" -eq 5 ] || { grep -c 'UNKNOWN(0x' "$TMP/md"; exit 1; }
