# SPDX-License-Identifier: GPL-2.0-only
# Arm format 2 (docs/arm-trace-events.md), known answers by construction:
# a hand-built trace whose every exit, key and cycle total is stated below.
#  The file starts with xentrace's clock record (62,500 kHz) alone in a
#  window of CPU 0, before CPU 0's data: the rate comes from it, and CPU 1
#  is still known before the first record is ordered.
#  pCPU 0: d1v0 runs at 1000; an interrupt (virq 27) is injected before its
#  first entry at 1010.  Then, each exit closed by an entry:
#   SYSREG write of ICC_SGI1R_EL1 (100 cycles) with its value record;
#   DABT, 64-bit MMIO read at 0x4010000000 + stage-2 record (200);
#   DABT resolved by the P2M, stage-2 record only (50);
#   WFI that found an event pending (HLT 1) (30);
#   IRQ exit (short form), physical IRQ 27, virq 27 injected (40);
#   HVC64 hypercall 32 with a 64-bit a0 (60);
#   HVC64 used for PSCI CPU_OFF (SMCCC record) (70);
#   CP15 MCR p15,0,c1,c0,0 (SCTLR) from an AArch32 guest (80);
#   WFI that blocks (HLT 0): running->blocked 10 cycles later, woken 1000
#   cycles after the exit: the exit closes at the wake (1000).
#  pCPU 1: d2v0 runs at 1000 and makes one exit whose record has fewer
#  words than its id needs: counted as a short record, not an exit.
. tests/check/lib.sh
need_python
PYTHONPATH=tests/tools python3 - "$TMP/a2.xentrace" <<'PY' || exit 1
import struct, sys
from tracebuild import rec, rs
EXIT, EXIT_IRQ, ENTRY = 0x81004, 0x81005, 0x81001
INJ, HLT = 0x82004, 0x82013
HCALL, SMCCC, SYSREG, MMIO, S2, IRQ = 0x82030, 0x82031, 0x82032, 0x82033, 0x82034, 0x82036
W64 = 0x100
pc = 0xffff800010001000
lo, hi = pc & 0xffffffff, pc >> 32
def ex(tsc, esr):
    return rec(EXIT | W64, tsc, esr, lo, hi)
c0 = [rs(1000, 1, 0, 1, 0), rec(INJ, None, 27, 0), rec(ENTRY, 1010)]
t = 2000
sgi1r = 3 << 20 | 5 << 17 | 0 << 14 | 12 << 10 | 11 << 1       # ICC_SGI1R_EL1
c0 += [ex(t, 0x18 << 26 | 1 << 25 | sgi1r | 3 << 5), rec(SYSREG, None, 0x1234),
       rec(ENTRY, t + 100)]
t += 1000
c0 += [ex(t, 0x24 << 26 | 1 << 25 | 1 << 24 | 2 << 22 | 0x06),
       rec(MMIO | W64, None, 0x10000000, 0x40, 0xab, 0, 2),
       rec(S2 | W64, None, 0x10000000, 0x40, 0x8f00000, 0xffff8000, 2),
       rec(ENTRY, t + 200)]
t += 1000
c0 += [ex(t, 0x24 << 26 | 1 << 25 | 0x06), rec(S2, None, 0x48000000, 0x1000, 1),
       rec(ENTRY, t + 50)]
t += 1000
c0 += [ex(t, 0x01 << 26 | 1 << 25), rec(HLT, None, 1), rec(ENTRY, t + 30)]
t += 1000
c0 += [rec(EXIT_IRQ, t, 0x10002000), rec(IRQ, None, 27), rec(INJ, None, 27, 0),
       rec(ENTRY, t + 40)]
t += 1000
c0 += [ex(t, 0x16 << 26 | 1 << 25 | 0xea1), rec(HCALL | W64, None, 32, 5, 1),
       rec(ENTRY, t + 60)]
t += 1000
c0 += [ex(t, 0x16 << 26 | 1 << 25), rec(SMCCC, None, 0x84000002, 0),
       rec(ENTRY, t + 70)]
t += 1000
mcr = 0 << 17 | 0 << 14 | 1 << 10 | 2 << 5 | 0 << 1 | 0    # p15, 0, r2, c1, c0, 0
c0 += [rec(EXIT, t, 0x03 << 26 | 1 << 25 | mcr, 0x8000), rec(SYSREG, None, 0xc5187d),
       rec(ENTRY, t + 80)]
t += 1000
c0 += [ex(t, 0x01 << 26 | 1 << 25), rec(HLT, None, 0), rs(t + 10, 1, 0, 0, 2),
       rs(t + 10, 32767, 0, 1, 0), rs(t + 1000, 1, 0, 2, 1)]
c1 = [rs(1000, 2, 0, 1, 0), rec(ENTRY, 1005), rec(EXIT, 1500, 0x16 << 26), rs(20000, 2, 0, 0, 2)]
out = struct.pack("<IiI", 0x2001f003, 0, 8) + rec(0x1f005, None, 62500)
for cpu, recs in ((0, c0), (1, c1)):
    data = b"".join(recs)
    out += struct.pack("<IiI", 0x2001f003, cpu, len(data)) + data
open(sys.argv[1], "wb").write(out)
PY
$XA --format=json "$TMP/a2.xentrace" > "$TMP/a2.json" || exit 1
python3 - "$TMP/a2.json" <<'PY' || exit 1
import json, sys
d = json.load(open(sys.argv[1]))
def check(what, got, want):
    if got != want:
        print("%s: got %r, want %r" % (what, got, want))
        sys.exit(1)
check("rate", (d["trace"]["cpu_hz"], d["trace"]["cpu_hz_source"]), (62500000, "trace"))
check("arch", d["trace"]["arch"], "arm")
dom = {x["id"]: x for x in d["domains"]}
v = dom[1]["vcpus"][0]
ex = {e["code"]: e for e in v["exits"]}
def subs(code):
    return sorted((s["key"], s["count"], s["cycles"]) for s in ex[code].get("sub", []))
check("exit codes", sorted(ex), [0x01, 0x03, 0x16, 0x18, 0x24, 0x100])
check("SYSREG", (ex[0x18]["count"], ex[0x18]["cycles"]), (1, 100))
check("SYSREG key", subs(0x18), [("sysreg:0x3a3016:w", 1, 100)])
check("SYSREG name", ex[0x18]["sub"][0].get("name"), "ICC_SGI1R_EL1")
check("DABT", (ex[0x24]["count"], ex[0x24]["cycles"]), (2, 250))
check("DABT keys", subs(0x24), [("mmio:0x4010000000:r", 1, 200), ("s2:p2m", 1, 50)])
check("WFx", (ex[0x01]["count"], ex[0x01]["cycles"]), (2, 1030))
check("WFx keys", subs(0x01), [("wfi", 1, 1000), ("wfi:pending", 1, 30)])
check("IRQ", subs(0x100), [("irq:27", 1, 40)])
check("HVC keys", subs(0x16), [("hypercall:event_channel_op:status", 1, 60),
                               ("smc:0x84000002", 1, 70)])
check("CP15", subs(0x03), [("cp:p15,0,c1,c0,0:w", 1, 80)])
girq = {g["vector"]: g for g in v.get("guest_interrupts", [])}
check("virq 27 injected", girq.get(27, {}).get("count"), 2)
check("d2 exits", dom[2]["vcpus"][0].get("exits", []), [])
check("short record", d["anomalies"].get("SHORT_RECORD"), 1)
print("Arm format 2 known answers: all equal")
PY
$XA "$TMP/a2.xentrace" > "$TMP/a2.txt" || exit 1
grep -q "Clock: 62.500000 MHz (from the trace's clock record)" "$TMP/a2.txt" || {
    grep Clock "$TMP/a2.txt"; exit 1; }
# The dump decodes every record; its times are exact at the stated rate.
$XA -a "$TMP/a2.xentrace" > "$TMP/a2.dump" 2>&1 || exit 1
for want in "trace_clock khz=62500" "arm_exit ec=SYSREG" "msr x3, ICC_SGI1R_EL1" \
            "arm_sysreg value=0x1234" "arm_mmio gpa=0x4010000000 read size=4 data=0xab" \
            "arm_s2_fault ipa=0x4010000000 far=0xffff800008f00000 outcome=mmio" \
            "outcome=p2m" "hlt pending=1" "arm_exit_irq pc=0x10002000" "arm_irq irq=27" \
            "arm_hypercall op=event_channel_op cmd=status" \
            "arm_smccc fid=0x84000002(CPU_OFF)" "mcr p15, 0, r2, c1, c0, 0" \
            " 0.000016000 p0 d1v0 arm_exit"; do
    grep -qF "$want" "$TMP/a2.dump" || { echo "dump lacks '$want'"; exit 1; }
done
grep -c UNKNOWN "$TMP/a2.dump" | grep -qx 0 || { grep UNKNOWN "$TMP/a2.dump"; exit 1; }
echo ok
