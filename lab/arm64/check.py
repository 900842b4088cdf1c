#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Independent cross-check of a raw xentrace file from Xen on Arm (format 2).

Parses the binary trace written by `xentrace` (no xenalyze code involved)
and checks it against docs/arm-trace-events.md, format 2: Arm exits under
TRC_HVM_ENTRYEXIT (TRC_HVM_ARM_EXIT[_IRQ][64]), TRC_HVM_VMENTRY, the Arm
handler records and TRC_TRACE_CLOCK_KHZ at the head of the file:

  * the file starts with the clock record in a window of its own;
  * every Arm record has the documented word count, TSC flag and flags;
  * detail records come on a pCPU between an exit and the next entry, and
    fit the exit's syndrome (hypercall and SMCCC records after HVC/SMC,
    sysreg values after system register traps, MMIO and stage-2 records
    after aborts, HLT after WFI, physical IRQs after interrupt exits);
  * the MMIO record's address is the stage-2 record's IPA;
  * TSCs never go backwards within a pCPU.

It counts, per pCPU and in total: exits by reason (ESR.EC or IRQ), entries,
hypercalls by number, SMCCC calls by function id, MMIO accesses by address,
direction and size with the sum of their data, system register values by
register with their sum, stage-2 outcomes, injected virtual interrupts and
exceptions, physical IRQs, WFI pending states, and exits per domain.

Exit status: 0 = trace decodes and all checks pass, 1 = a check failed,
2 = usage / I/O error.  --json prints the counts (stable keys, for tests);
--expect FILE fails unless they equal a file written earlier by --json;
--require exit,entry,mmio,... demands records; --clock-khz checks the rate.
Format 1 traces (TRC_ARM class, Xen 4.17 series): check417.py.

Python 3 standard library only.
"""

import argparse
import collections
import json
import struct
import sys

TRC_LOST_RECORDS = 0x0001f001
TRC_TRACE_WRAP_BUFFER = 0x0001f002
TRC_TRACE_CPU_CHANGE = 0x0001f003
TRC_TRACE_CLOCK_KHZ = 0x0001f005
TRC_SCHED_SWITCH = 0x0002800a      # prev dom, prev vcpu, next dom, next vcpu
TRC_64_FLAG = 0x100

TRC_HVM_VMENTRY = 0x00081001
TRC_HVM_ARM_EXIT = 0x00081004
TRC_HVM_ARM_EXIT_IRQ = 0x00081005
TRC_HVM_INJ_VIRQ = 0x00082004
TRC_HVM_HLT = 0x00082013
TRC_HVM_ARM_HYPERCALL = 0x00082030
TRC_HVM_ARM_SMCCC = 0x00082031
TRC_HVM_ARM_SYSREG = 0x00082032
TRC_HVM_ARM_MMIO = 0x00082033
TRC_HVM_ARM_S2_FAULT = 0x00082034
TRC_HVM_ARM_INJ_EXC = 0x00082035
TRC_HVM_ARM_IRQ = 0x00082036

# base id -> (short name, has TSC, words without / with TRC_64_FLAG or None)
ARM_EVENTS = {
    TRC_HVM_ARM_EXIT: ("exit", True, 2, 3),
    TRC_HVM_ARM_EXIT_IRQ: ("exit_irq", True, 1, 2),
    TRC_HVM_VMENTRY: ("entry", True, 0, None),
    TRC_HVM_ARM_HYPERCALL: ("hypercall", False, 2, 3),
    TRC_HVM_ARM_SMCCC: ("smccc", False, 2, 3),
    TRC_HVM_ARM_SYSREG: ("sysreg", False, 1, 2),
    TRC_HVM_ARM_MMIO: ("mmio", False, 3, 5),
    TRC_HVM_ARM_S2_FAULT: ("s2_fault", False, 3, 5),
    TRC_HVM_ARM_INJ_EXC: ("inj_exc", False, 2, None),
    TRC_HVM_ARM_IRQ: ("irq", False, 1, None),
    TRC_HVM_INJ_VIRQ: ("inj_virq", False, 2, None),
    TRC_HVM_HLT: ("hlt", False, 1, None),
}
SHORT = {v[0]: k for k, v in ARM_EVENTS.items()}

EC_NAMES = {
    0x00: "UNKNOWN", 0x01: "WFI_WFE", 0x03: "CP15_32", 0x04: "CP15_64",
    0x05: "CP14_32", 0x06: "CP14_DBG", 0x07: "SIMD_FP", 0x08: "CP10",
    0x0c: "CP14_64", 0x0e: "ILLEGAL", 0x11: "SVC32", 0x12: "HVC32",
    0x13: "SMC32", 0x15: "SVC64", 0x16: "HVC64", 0x17: "SMC64",
    0x18: "SYSREG", 0x19: "SVE", 0x20: "IABT_LOWER", 0x22: "PC_ALIGN",
    0x24: "DABT_LOWER", 0x26: "SP_ALIGN", 0x2f: "SERROR",
    0x30: "BRKPT_LOWER", 0x32: "SSTEP_LOWER", 0x34: "WPT_LOWER",
    0x3c: "BRK64",
}
SYSREG_ECS = (0x03, 0x04, 0x05, 0x08, 0x0c, 0x18)
S2_OUTCOMES = {0: "retry", 1: "p2m", 2: "mmio", 3: "ioreq", 4: "mem_access",
               5: "inject", 6: "serror"}
INJ_KINDS = {0: "undef", 1: "iabt", 2: "dabt", 3: "serror"}
XEN_HYPERCALL_TAG = 0xea1

HYPERCALLS = {
    1: "mmu_update", 6: "sched_op_compat", 7: "platform_op", 12: "memory_op",
    13: "multicall", 15: "set_timer_op", 17: "xen_version", 18: "console_io",
    20: "grant_table_op", 21: "vm_assist", 24: "vcpu_op", 29: "sched_op",
    31: "xenoprof_op", 32: "event_channel_op", 33: "physdev_op",
    34: "hvm_op", 35: "sysctl", 36: "domctl", 39: "argo_op", 41: "dm_op",
    42: "hypfs_op",
}
SMCCC_NAMES = {
    0x84000000: "PSCI_VERSION", 0xc4000001: "PSCI_CPU_SUSPEND64",
    0x84000002: "PSCI_CPU_OFF", 0xc4000003: "PSCI_CPU_ON64",
    0xc4000004: "PSCI_AFFINITY_INFO64", 0x84000008: "PSCI_SYSTEM_OFF",
    0x8400000a: "PSCI_FEATURES", 0x80000000: "SMCCC_VERSION",
    0x80000001: "SMCCC_ARCH_FEATURES",
}


def sysreg_name(esr):
    """Name of the register of a trapped access, from the exit's ESR."""
    ec = esr >> 26
    iss = esr & 0x1ffffff
    if ec == 0x18:
        op0, op2, op1 = (iss >> 20) & 3, (iss >> 17) & 7, (iss >> 14) & 7
        crn, crm = (iss >> 10) & 15, (iss >> 1) & 15
        names = {
            (3, 0, 12, 11, 5): "ICC_SGI1R_EL1", (3, 0, 12, 11, 6): "ICC_ASGI1R_EL1",
            (3, 0, 12, 11, 7): "ICC_SGI0R_EL1", (3, 3, 14, 2, 0): "CNTP_TVAL_EL0",
            (3, 3, 14, 2, 1): "CNTP_CTL_EL0", (3, 3, 14, 2, 2): "CNTP_CVAL_EL0",
            (3, 3, 14, 0, 1): "CNTPCT_EL0", (3, 0, 1, 0, 0): "SCTLR_EL1",
            (3, 0, 1, 0, 1): "ACTLR_EL1", (2, 0, 0, 2, 2): "MDSCR_EL1",
            (2, 3, 0, 1, 0): "MDCCSR_EL0", (2, 0, 1, 0, 4): "OSLAR_EL1",
            (2, 0, 1, 3, 4): "OSDLR_EL1", (3, 3, 9, 14, 0): "PMUSERENR_EL0",
        }
        key = (op0, op1, crn, crm, op2)
        if key in names:
            name = names[key]
        elif op0 == 2 and op1 == 0 and crn == 0 and 4 <= op2 <= 7:
            name = "DBG%s%d_EL1" % (("BVR", "BCR", "WVR", "WCR")[op2 - 4], crm)
        elif op0 == 3 and op1 == 0 and crn == 0 and crm >= 1:
            name = "ID_C%d_%d" % (crm, op2)     # ID registers (HCR_EL2.TID3)
        else:
            name = "S%d_%d_C%d_C%d_%d" % (op0, op1, crn, crm, op2)
        return name, "read" if iss & 1 else "write"
    # AArch32 MRC/MCR (cp32 layout) and MRRC/MCRR (cp64 layout)
    cp = {0x03: 15, 0x04: 15, 0x05: 14, 0x0c: 14, 0x08: 10}[ec]
    rd = "read" if iss & 1 else "write"
    if ec in (0x04, 0x0c):
        return "p%d_%d_c%d" % (cp, (iss >> 16) & 15, (iss >> 1) & 15), rd
    return ("p%d_%d_c%d_c%d_%d" % (cp, (iss >> 14) & 7, (iss >> 10) & 15,
                                   (iss >> 1) & 15, (iss >> 17) & 7), rd)


class Problem(Exception):
    pass


def parse(data):
    """Yield (offset, cpu, event, tsc or None, words) for every record."""
    off = 0
    n = len(data)
    cpu = None
    while off + 4 <= n:
        (hdr,) = struct.unpack_from("<I", data, off)
        event = hdr & 0x0fffffff
        nwords = (hdr >> 28) & 7
        has_tsc = bool(hdr >> 31)
        size = 4 + (8 if has_tsc else 0) + 4 * nwords
        if off + size > n:
            raise Problem("truncated record at offset %d (event %#x)" %
                          (off, event))
        p = off + 4
        tsc = None
        if has_tsc:
            lo, hi = struct.unpack_from("<II", data, p)
            tsc = lo | (hi << 32)
            p += 8
        words = list(struct.unpack_from("<%dI" % nwords, data, p))
        if event == TRC_TRACE_CPU_CHANGE:
            if nwords < 1:
                raise Problem("CPU_CHANGE without payload at %d" % off)
            cpu = words[0]
        yield off, cpu, event, tsc, words
        off += size
    if off != n:
        raise Problem("%d trailing bytes" % (n - off))


def u64(words, i, wide):
    """A 64-bit field at word i: two words if wide, else one."""
    return words[i] | (words[i + 1] << 32) if wide else words[i]


def analyse(data):
    C = collections.Counter
    problems = []
    st = {"bytes": len(data), "records": 0, "cpu_change": 0,
          "lost_records_events": 0, "lost_records": 0, "wrap_buffer": 0,
          "no_tsc_records": 0, "arm_records": 0, "events": C(),
          "clock_khz": None, "clock_first": False}
    per_cpu = collections.defaultdict(lambda: {
        "records": 0, "arm": C(), "reasons": C(), "first_tsc": None,
        "last_tsc": None, "unpaired_entry": 0, "double_exit": 0,
        "orphan_detail": 0})
    d = {k: C() for k in ("reasons", "hypercalls", "smccc", "mmio",
                          "mmio_data_sum", "mmio_flags", "sysreg",
                          "sysreg_value_sum", "s2_outcome", "inj_virq",
                          "inj_exc", "irq", "hlt", "exits_by_domain",
                          "variants")}
    running = {}          # pcpu -> "dN" running there (scheduler records)
    state = {}            # pcpu -> None (unknown) | "exit" | "entry"
    esr_of = {}           # pcpu -> ESR of the open exit (None for IRQ exits)
    last_mmio = {}        # pcpu -> gpa of the last MMIO record of the exit

    first = True
    for off, cpu, ev, tsc, w in parse(data):
        st["records"] += 1
        st["events"][ev] += 1
        if ev == TRC_TRACE_CPU_CHANGE:
            st["cpu_change"] += 1
            continue
        if ev == TRC_TRACE_CLOCK_KHZ:
            if len(w) != 1 or tsc is not None:
                problems.append("clock record at %d: %d words, tsc %s" %
                                (off, len(w), tsc is not None))
            elif st["clock_khz"] is None:
                st["clock_khz"] = w[0]
                st["clock_first"] = first and off == 12
            else:
                problems.append("second clock record at %d" % off)
            first = False
            continue
        first = False
        if cpu is None:
            problems.append("record %#x at %d before any CPU_CHANGE" % (ev, off))
            continue
        pc = per_cpu[cpu]
        pc["records"] += 1
        if tsc is None:
            st["no_tsc_records"] += 1
        else:
            if pc["last_tsc"] is not None and tsc < pc["last_tsc"]:
                problems.append("cpu%d: TSC goes backwards at offset %d "
                                "(%d < %d)" % (cpu, off, tsc, pc["last_tsc"]))
            if pc["first_tsc"] is None:
                pc["first_tsc"] = tsc
            pc["last_tsc"] = tsc
        if ev == TRC_LOST_RECORDS:
            st["lost_records_events"] += 1
            st["lost_records"] += w[0] if w else 0
            state[cpu] = None         # records were lost: state unknown
            continue
        if ev == TRC_TRACE_WRAP_BUFFER:
            st["wrap_buffer"] += 1
            continue
        if ev == TRC_SCHED_SWITCH and len(w) >= 4:
            running[cpu] = "idle" if w[2] == 0x7fff else "d%d" % w[2]
            continue
        base = ev & ~TRC_64_FLAG
        if base not in ARM_EVENTS:
            if (ev & 0x0fff0000) == 0x00080000:
                problems.append("cpu%d: HVM record %#x at %d not in format 2"
                                % (cpu, ev, off))
            continue
        name, want_tsc, n32, n64 = ARM_EVENTS[base]
        wide = bool(ev & TRC_64_FLAG)
        st["arm_records"] += 1
        pc["arm"][name] += 1
        want = n64 if wide else n32
        if want is None or (tsc is not None) != want_tsc or len(w) != want:
            problems.append("cpu%d: %s %#x at %d: tsc=%s words=%d, expected "
                            "tsc=%s words=%s" % (cpu, name, ev, off,
                                                 tsc is not None, len(w),
                                                 want_tsc, want))
            continue
        if wide:
            d["variants"][name + "64"] += 1
            # The wide form only when a high word is not zero.
            highs = {"exit": [2], "exit_irq": [1], "hypercall": [2],
                     "smccc": [2], "sysreg": [1], "mmio": [1, 3],
                     "s2_fault": [1, 3]}[name]
            if not any(w[i] for i in highs):
                problems.append("cpu%d: %s at %d: 64-bit form with zero "
                                "high words" % (cpu, name, off))

        if base in (TRC_HVM_ARM_EXIT, TRC_HVM_ARM_EXIT_IRQ):
            if state.get(cpu) == "exit":
                pc["double_exit"] += 1
            state[cpu] = "exit"
            if base == TRC_HVM_ARM_EXIT:
                esr = w[0]
                reason = "%#04x %s" % (esr >> 26, EC_NAMES.get(esr >> 26, "?"))
                esr_of[cpu] = esr
            else:
                reason = "IRQ"
                esr_of[cpu] = None
            last_mmio[cpu] = None
            pc["reasons"][reason] += 1
            d["reasons"][reason] += 1
            d["exits_by_domain"][running.get(cpu, "?")] += 1
            continue
        if base == TRC_HVM_VMENTRY:
            if state.get(cpu) != "exit":
                pc["unpaired_entry"] += 1
            state[cpu] = "entry"
            continue

        # Detail records: inside an exit of this pCPU, fitting its syndrome.
        if state.get(cpu) is None:
            pass            # before the first exit, or after lost records
        elif state.get(cpu) != "exit":
            pc["orphan_detail"] += 1
        esr = esr_of.get(cpu)
        ec = None if esr is None else esr >> 26
        where = "cpu%d: %s at %d" % (cpu, name, off)

        def expect(ok, what):
            if state.get(cpu) == "exit" and not ok:
                problems.append("%s after %s: %s" % (
                    where, "IRQ exit" if esr is None else "ESR %#x" % esr, what))

        if base == TRC_HVM_ARM_HYPERCALL:
            expect(ec in (0x12, 0x16) and (esr & 0xffff) == XEN_HYPERCALL_TAG,
                   "not an HVC #0xea1")
            d["hypercalls"][str(w[0])] += 1
        elif base == TRC_HVM_ARM_SMCCC:
            expect(ec in (0x13, 0x17) or (ec in (0x12, 0x16) and
                                          (esr & 0xffff) == 0),
                   "not an SMC or HVC #0")
            d["smccc"]["%#x" % w[0]] += 1
        elif base == TRC_HVM_ARM_SYSREG:
            expect(ec in SYSREG_ECS, "not a system register trap")
            if ec in SYSREG_ECS:
                reg, rd = sysreg_name(esr)
                key = "%s %s" % (reg, rd)
                d["sysreg"][key] += 1
                d["sysreg_value_sum"][key] += u64(w, 0, wide)
        elif base == TRC_HVM_ARM_MMIO:
            gpa = u64(w, 0, wide)
            data_ = u64(w, 2, True) if wide else w[1]
            flags = w[4] if wide else w[2]
            if flags & ~0x1f:
                problems.append("%s: reserved flag bits %#x" % (where, flags))
            if not flags & 8:
                expect(ec == 0x24, "not a data abort")
            size = 1 << (flags & 3)
            if data_ >> (8 * size):
                problems.append("%s: data %#x wider than %d bytes" %
                                (where, data_, size))
            key = "%#x %s%d" % (gpa, "W" if flags & 4 else "R", size)
            d["mmio"][key] += 1
            d["mmio_data_sum"][key] += data_
            d["mmio_flags"]["ioreq" if flags & 8 else "xen"] += 1
            if flags & 0x10:
                d["mmio_flags"]["failed"] += 1
            last_mmio[cpu] = gpa
        elif base == TRC_HVM_ARM_S2_FAULT:
            expect(ec in (0x20, 0x24), "not a stage-2 abort")
            ipa = u64(w, 0, wide)
            outcome = w[4] if wide else w[2]
            if outcome not in S2_OUTCOMES:
                problems.append("%s: outcome %d" % (where, outcome))
            o = S2_OUTCOMES.get(outcome, str(outcome))
            d["s2_outcome"][o] += 1
            if o == "mmio" and last_mmio.get(cpu) not in (None, ipa):
                problems.append("%s: IPA %#x, MMIO record %#x" %
                                (where, ipa, last_mmio[cpu]))
        elif base == TRC_HVM_ARM_INJ_EXC:
            if w[0] not in INJ_KINDS:
                problems.append("%s: kind %d" % (where, w[0]))
            d["inj_exc"][INJ_KINDS.get(w[0], str(w[0]))] += 1
        elif base == TRC_HVM_ARM_IRQ:
            expect(esr is None, "not an IRQ exit")
            d["irq"][str(w[0])] += 1
        elif base == TRC_HVM_INJ_VIRQ:
            if w[1] != 0:
                problems.append("%s: fake = %d" % (where, w[1]))
            d["inj_virq"][str(w[0])] += 1
        elif base == TRC_HVM_HLT:
            expect(ec == 0x01 and not (esr & 1), "not a WFI")
            if w[0] not in (0, 1):
                problems.append("%s: pending = %d" % (where, w[0]))
            d["hlt"]["pending" if w[0] else "blocked"] += 1

    for cpu in sorted(per_cpu):
        pc = per_cpu[cpu]
        if pc["orphan_detail"]:
            problems.append("cpu%d: %d detail records outside an exit" %
                            (cpu, pc["orphan_detail"]))
        if pc["double_exit"]:
            problems.append("cpu%d: %d exits without an entry in between" %
                            (cpu, pc["double_exit"]))
    if st["clock_khz"] is None:
        problems.append("no TRC_TRACE_CLOCK_KHZ record")
    elif not st["clock_first"]:
        problems.append("the clock record is not the head of the file")
    return st, per_cpu, d, problems


def to_json(st, per_cpu, d, problems):
    def srt(c):
        return dict(sorted(c.items()))
    out = {
        "format": 2,
        "bytes": st["bytes"], "records": st["records"],
        "cpu_change": st["cpu_change"], "wrap_buffer": st["wrap_buffer"],
        "lost_records_events": st["lost_records_events"],
        "lost_records": st["lost_records"],
        "no_tsc_records": st["no_tsc_records"],
        "arm_records": st["arm_records"],
        "clock_khz": st["clock_khz"],
        "events": {"%#x" % k: v for k, v in sorted(st["events"].items())},
        "arm": {n: sum(pc["arm"][n] for pc in per_cpu.values())
                for n in sorted(SHORT)},
        "cpus": {},
        "problems": problems,
    }
    for k, v in d.items():
        out[k] = srt(v)
    for cpu in sorted(per_cpu):
        pc = per_cpu[cpu]
        out["cpus"][str(cpu)] = {
            "records": pc["records"], "exit": pc["arm"]["exit"],
            "exit_irq": pc["arm"]["exit_irq"], "entry": pc["arm"]["entry"],
            "unpaired_entry": pc["unpaired_entry"],
            "reasons": srt(pc["reasons"]),
            "first_tsc": pc["first_tsc"], "last_tsc": pc["last_tsc"],
        }
    return out


def print_text(st, per_cpu, d, problems, f=sys.stdout):
    def p(*a):
        print(*a, file=f)

    def line(title, c, fmt=lambda k: k):
        p("%s: %s" % (title, "  ".join("%s:%d" % (fmt(k), v)
                                       for k, v in sorted(c.items()))))
    khz = st["clock_khz"]
    p("bytes %d  records %d  cpu_change %d  wrap_buffer %d  lost %d (%d events)"
      % (st["bytes"], st["records"], st["cpu_change"], st["wrap_buffer"],
         st["lost_records"], st["lost_records_events"]))
    p("records without TSC %d  Arm/HVM records %d  clock %s" %
      (st["no_tsc_records"], st["arm_records"],
       "%d kHz (head of file: %s)" % (khz, st["clock_first"]) if khz else "none"))
    for cpu in sorted(per_cpu):
        pc = per_cpu[cpu]
        span = ""
        if pc["first_tsc"] is not None and khz:
            span = "  span %.3f s" % ((pc["last_tsc"] - pc["first_tsc"]) /
                                      (khz * 1000.0))
        p("cpu%d: records %d  exits %d (+%d IRQ)  entries %d  (entry without "
          "exit %d)%s" % (cpu, pc["records"], pc["arm"]["exit"],
                          pc["arm"]["exit_irq"], pc["arm"]["entry"],
                          pc["unpaired_entry"], span))
        line("  reasons", pc["reasons"])
        line("  records", pc["arm"])
    line("exits by domain (sched switch records; ? = before the first)",
         d["exits_by_domain"])
    line("hypercalls", d["hypercalls"],
         lambda k: "%s(%s)" % (k, HYPERCALLS.get(int(k), "?")))
    line("smccc", d["smccc"],
         lambda k: "%s(%s)" % (k, SMCCC_NAMES.get(int(k, 16), "?")))
    line("mmio", d["mmio_flags"])
    for k, v in sorted(d["mmio"].items(), key=lambda kv: -kv[1])[:12]:
        p("  %s: %d (data sum %#x)" % (k, v, d["mmio_data_sum"][k]))
    line("stage-2 outcomes", d["s2_outcome"])
    line("sysreg", d["sysreg"])
    line("wfi", d["hlt"])
    line("virtual IRQs injected", d["inj_virq"])
    line("exceptions injected", d["inj_exc"])
    line("physical IRQs", d["irq"])
    line("64-bit forms", d["variants"])
    if problems:
        p("PROBLEMS (%d):" % len(problems))
        for x in problems[:50]:
            p("  " + x)
    else:
        p("OK: all format checks passed")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("trace")
    ap.add_argument("--json", action="store_true", help="print JSON")
    ap.add_argument("--require", default="",
                    help="comma-separated record names that must occur: " +
                    ",".join(sorted(SHORT)))
    ap.add_argument("--clock-khz", type=int, default=None,
                    help="expected TRC_TRACE_CLOCK_KHZ value (e.g. 62500)")
    ap.add_argument("--expect", metavar="JSON",
                    help="fail unless the --json counts equal this file's")
    a = ap.parse_args(argv)
    try:
        with open(a.trace, "rb") as fh:
            data = fh.read()
    except OSError as e:
        print("check.py: %s" % e, file=sys.stderr)
        return 2
    try:
        st, per_cpu, d, problems = analyse(data)
    except Problem as e:
        print("check.py: cannot decode %s: %s" % (a.trace, e), file=sys.stderr)
        return 1
    for name in filter(None, a.require.split(",")):
        if name not in SHORT:
            print("check.py: unknown record name %r" % name, file=sys.stderr)
            return 2
        if not sum(pc["arm"][name] for pc in per_cpu.values()):
            problems.append("required record %s not found" % name)
    if a.clock_khz is not None and st["clock_khz"] != a.clock_khz:
        problems.append("clock %s kHz, expected %d" % (st["clock_khz"],
                                                       a.clock_khz))
    if a.expect:
        try:
            with open(a.expect) as fh:
                want = json.load(fh)
        except (OSError, ValueError) as e:
            print("check.py: %s: %s" % (a.expect, e), file=sys.stderr)
            return 2
        got = json.loads(json.dumps(to_json(st, per_cpu, d, [])))
        want.pop("problems", None)
        got.pop("problems", None)
        for key in sorted(set(want) | set(got)):
            if want.get(key) != got.get(key):
                problems.append("differs from %s: %s: expected %s, got %s" %
                                (a.expect, key,
                                 json.dumps(want.get(key))[:200],
                                 json.dumps(got.get(key))[:200]))
    if a.json:
        json.dump(to_json(st, per_cpu, d, problems), sys.stdout, indent=1,
                  sort_keys=True)
        print()
    else:
        print_text(st, per_cpu, d, problems)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
