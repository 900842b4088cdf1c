#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Independent cross-check of a raw xentrace file with TRC_ARM records.

Parses the binary trace written by `xentrace` (no xenalyze code involved)
and reports, per physical CPU: record counts, TRC_ARM_GUEST_EXIT /
TRC_ARM_GUEST_ENTRY counts, exit kinds and exception classes, hypercall
numbers, SMCCC function ids, MMIO (data abort) addresses, system register
encodings, WFx kinds, physical IRQs, and the TRC_ARM_CLOCK frequency.
It also checks the record format of docs/arm-trace-events.md:

  * every TRC_ARM record has the documented word count and TSC flag;
  * detail (TRC_ARM_HANDLER) records only occur on a pCPU between a
    GUEST_EXIT and the next GUEST_ENTRY;
  * TSCs never go backwards within a pCPU;
  * each pCPU that wrote TRC_ARM records has a TRC_ARM_CLOCK record.

Exit status: 0 = trace decodes and all checks pass, 1 = a check failed,
2 = usage / I/O error.  --require lets a test demand records, e.g.
  check.py --require exit,entry,clock,hvc,dabt,sysreg,wfx,irq trace.xentrace
--json prints the counts as JSON (stable keys, for tests); --expect FILE
compares them with a JSON file written earlier by --json (e.g. the
committed tests/fixtures/arm64/*.check.json) and fails on any difference.

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
TRC_SCHED_SWITCH = 0x0002800a      # prev dom, prev vcpu, next dom, next vcpu

TRC_ARM_CLASS = 0x0100f000
TRC_ARM_GUEST_EXIT = 0x01001001
TRC_ARM_GUEST_ENTRY = 0x01001002
TRC_ARM_HVC = 0x01002001
TRC_ARM_SMC = 0x01002002
TRC_ARM_DABT = 0x01002003
TRC_ARM_SYSREG = 0x01002004
TRC_ARM_CP = 0x01002005
TRC_ARM_WFX = 0x01002006
TRC_ARM_IRQ = 0x01002007
TRC_ARM_VGIC_MAINT = 0x01002008
TRC_ARM_CLOCK = 0x01004001

# id -> (short name, has TSC, number of words)
ARM_EVENTS = {
    TRC_ARM_GUEST_EXIT: ("exit", True, 5),
    TRC_ARM_GUEST_ENTRY: ("entry", True, 0),
    TRC_ARM_HVC: ("hvc", False, 3),
    TRC_ARM_SMC: ("smc", False, 3),
    TRC_ARM_DABT: ("dabt", False, 3),
    TRC_ARM_SYSREG: ("sysreg", False, 2),
    TRC_ARM_CP: ("cp", False, 2),
    TRC_ARM_WFX: ("wfx", False, 1),
    TRC_ARM_IRQ: ("irq", False, 1),
    TRC_ARM_VGIC_MAINT: ("vgic_maint", False, 1),
    TRC_ARM_CLOCK: ("clock", True, 2),
}
SHORT = {v[0]: k for k, v in ARM_EVENTS.items()}

KINDS = {0: "sync", 1: "irq", 2: "fiq", 3: "serror"}

EC_NAMES = {
    0x00: "UNKNOWN", 0x01: "WFI_WFE", 0x03: "CP15_32", 0x04: "CP15_64",
    0x05: "CP14_32", 0x06: "CP14_DBG", 0x07: "SIMD_FP", 0x08: "CP10",
    0x0c: "CP14_64", 0x0e: "ILLEGAL", 0x11: "SVC32", 0x12: "HVC32",
    0x13: "SMC32", 0x15: "SVC64", 0x16: "HVC64", 0x17: "SMC64",
    0x18: "SYSREG", 0x19: "SVE", 0x20: "IABT_LOWER", 0x21: "IABT_CUR",
    0x22: "PC_ALIGN", 0x24: "DABT_LOWER", 0x25: "DABT_CUR",
    0x26: "SP_ALIGN", 0x2f: "SERROR", 0x30: "BRKPT_LOWER",
    0x32: "SSTEP_LOWER", 0x34: "WPT_LOWER", 0x3c: "BRK64",
}

HYPERCALLS = {
    0: "set_trap_table", 1: "mmu_update", 2: "set_gdt", 3: "stack_switch",
    4: "set_callbacks", 5: "fpu_taskswitch", 6: "sched_op_compat",
    7: "platform_op", 8: "set_debugreg", 9: "get_debugreg",
    10: "update_descriptor", 12: "memory_op", 13: "multicall",
    14: "update_va_mapping", 15: "set_timer_op", 16: "event_channel_op_compat",
    17: "xen_version", 18: "console_io", 19: "physdev_op_compat",
    20: "grant_table_op", 21: "vm_assist", 22: "update_va_mapping_otherdomain",
    23: "iret", 24: "vcpu_op", 25: "set_segment_base", 26: "mmuext_op",
    27: "xsm_op", 28: "nmi_op", 29: "sched_op", 30: "callback_op",
    31: "xenoprof_op", 32: "event_channel_op", 33: "physdev_op",
    34: "hvm_op", 35: "sysctl", 36: "domctl", 37: "kexec_op", 38: "tmem_op",
    39: "argo_op", 40: "xenpmu_op", 41: "dm_op", 42: "hypfs_op",
}

SMCCC_NAMES = {
    0x84000000: "PSCI_VERSION", 0x84000001: "PSCI_CPU_SUSPEND32",
    0xc4000001: "PSCI_CPU_SUSPEND64", 0x84000002: "PSCI_CPU_OFF",
    0x84000003: "PSCI_CPU_ON32", 0xc4000003: "PSCI_CPU_ON64",
    0x84000004: "PSCI_AFFINITY_INFO32", 0xc4000004: "PSCI_AFFINITY_INFO64",
    0x84000008: "PSCI_SYSTEM_OFF", 0x84000009: "PSCI_SYSTEM_RESET",
    0x8400000a: "PSCI_FEATURES", 0x80000000: "SMCCC_VERSION",
    0x80000001: "SMCCC_ARCH_FEATURES", 0x80008000: "SMCCC_ARCH_WORKAROUND_1",
    0x80007fff: "SMCCC_ARCH_WORKAROUND_2",
}

# ISS encoding (op0/op1/CRn/CRm/op2 as in ESR; Rt and direction masked)
def sysreg_key(op0, op1, crn, crm, op2):
    return (op0 << 20) | (op2 << 17) | (op1 << 14) | (crn << 10) | (crm << 1)


SYSREG_NAMES = {
    sysreg_key(3, 0, 12, 11, 5): "ICC_SGI1R_EL1",
    sysreg_key(3, 0, 12, 11, 6): "ICC_ASGI1R_EL1",
    sysreg_key(3, 0, 12, 11, 7): "ICC_SGI0R_EL1",
    sysreg_key(3, 3, 14, 2, 0): "CNTP_TVAL_EL0",
    sysreg_key(3, 3, 14, 2, 1): "CNTP_CTL_EL0",
    sysreg_key(3, 3, 14, 2, 2): "CNTP_CVAL_EL0",
    sysreg_key(3, 3, 14, 0, 1): "CNTPCT_EL0",
    sysreg_key(3, 0, 1, 0, 1): "ACTLR_EL1",
    sysreg_key(3, 0, 1, 0, 0): "SCTLR_EL1",
    sysreg_key(3, 0, 2, 0, 0): "TTBR0_EL1",
    sysreg_key(3, 0, 2, 0, 1): "TTBR1_EL1",
    sysreg_key(3, 0, 2, 0, 2): "TCR_EL1",
    sysreg_key(3, 0, 5, 1, 0): "AFSR0_EL1",
    sysreg_key(3, 0, 5, 1, 1): "AFSR1_EL1",
    sysreg_key(3, 0, 5, 2, 0): "ESR_EL1",
    sysreg_key(3, 0, 6, 0, 0): "FAR_EL1",
    sysreg_key(3, 0, 10, 2, 0): "MAIR_EL1",
    sysreg_key(3, 0, 10, 3, 0): "AMAIR_EL1",
    sysreg_key(3, 0, 13, 0, 1): "CONTEXTIDR_EL1",
    sysreg_key(1, 0, 7, 6, 2): "DC_ISW",
    sysreg_key(1, 0, 7, 10, 2): "DC_CSW",
    sysreg_key(1, 0, 7, 14, 2): "DC_CISW",
    sysreg_key(2, 0, 0, 2, 2): "MDSCR_EL1",
    sysreg_key(2, 3, 0, 1, 0): "MDCCSR_EL0",
    sysreg_key(2, 0, 1, 0, 4): "OSLAR_EL1",
    sysreg_key(2, 0, 1, 3, 4): "OSDLR_EL1",
}


def sysreg_name(enc):
    if enc in SYSREG_NAMES:
        return SYSREG_NAMES[enc]
    op0 = (enc >> 20) & 3
    op2 = (enc >> 17) & 7
    op1 = (enc >> 14) & 7
    crn = (enc >> 10) & 15
    crm = (enc >> 1) & 15
    if op0 == 2 and op1 == 0 and crn == 0 and 4 <= op2 <= 7:
        # Breakpoint/watchpoint value/control registers (MDCR_EL2.TDA)
        return "DBG%s%d_EL1" % (("BVR", "BCR", "WVR", "WCR")[op2 - 4], crm)
    if op0 == 3 and op1 == 0 and crn == 0 and crm >= 1:
        # ID registers trapped via HCR_EL2.TID3
        aa64 = {(4, 0): "ID_AA64PFR0_EL1", (4, 1): "ID_AA64PFR1_EL1",
                (4, 4): "ID_AA64ZFR0_EL1", (4, 5): "ID_AA64SMFR0_EL1",
                (5, 0): "ID_AA64DFR0_EL1",
                (5, 1): "ID_AA64DFR1_EL1", (5, 4): "ID_AA64AFR0_EL1",
                (5, 5): "ID_AA64AFR1_EL1", (6, 0): "ID_AA64ISAR0_EL1",
                (6, 1): "ID_AA64ISAR1_EL1", (6, 2): "ID_AA64ISAR2_EL1",
                (7, 0): "ID_AA64MMFR0_EL1", (7, 1): "ID_AA64MMFR1_EL1",
                (7, 2): "ID_AA64MMFR2_EL1"}
        aa32 = {(1, 0): "ID_PFR0_EL1", (1, 1): "ID_PFR1_EL1",
                (1, 2): "ID_DFR0_EL1", (1, 3): "ID_AFR0_EL1",
                (1, 4): "ID_MMFR0_EL1", (1, 5): "ID_MMFR1_EL1",
                (1, 6): "ID_MMFR2_EL1", (1, 7): "ID_MMFR3_EL1",
                (2, 0): "ID_ISAR0_EL1", (2, 1): "ID_ISAR1_EL1",
                (2, 2): "ID_ISAR2_EL1", (2, 3): "ID_ISAR3_EL1",
                (2, 4): "ID_ISAR4_EL1", (2, 5): "ID_ISAR5_EL1",
                (2, 6): "ID_MMFR4_EL1", (2, 7): "ID_ISAR6_EL1",
                (3, 0): "MVFR0_EL1", (3, 1): "MVFR1_EL1", (3, 2): "MVFR2_EL1",
                (3, 4): "ID_PFR2_EL1", (3, 5): "ID_DFR1_EL1",
                (3, 6): "ID_MMFR5_EL1"}
        name = aa64.get((crm, op2)) or aa32.get((crm, op2))
        if name:
            return name
    if (op0, op1, crn, crm, op2) == (3, 3, 9, 14, 0):
        return "PMUSERENR_EL0"
    return "S%d_%d_C%d_C%d_%d" % (op0, op1, crn, crm, op2)


class Problem(Exception):
    pass


def parse(data):
    """Yield (cpu, event, tsc or None, words) for every record."""
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


def u64(lo, hi):
    return lo | (hi << 32)


def analyse(data):
    problems = []
    c = collections.Counter  # shorthand
    st = {
        "bytes": len(data),
        "records": 0,
        "cpu_change": 0,
        "lost_records_events": 0,
        "lost_records": 0,
        "wrap_buffer": 0,
        "no_tsc_records": 0,
        "arm_records": 0,
        "classes": c(),
        "events": c(),
    }
    per_cpu = collections.defaultdict(lambda: {
        "records": 0, "arm": c(), "exit_kind": c(), "ec": c(),
        "clock_hz": [], "orphan_detail": 0, "first_tsc": None,
        "last_tsc": None, "unpaired_entry": 0, "double_exit": 0,
    })
    hvc = c()
    smc = c()
    dabt = c()
    dabt_flags = c()
    sysreg = c()
    cp = c()
    wfx = c()
    irq = c()
    vgic = c()
    exits_by_dom = c()
    running = {}          # pcpu -> "dN" of the vCPU running there
    state = {}            # pcpu -> "exit" | "entry" | None

    for off, cpu, ev, tsc, w in parse(data):
        st["records"] += 1
        st["events"][ev] += 1
        st["classes"][ev & 0x0fff0000] += 1
        if ev == TRC_TRACE_CPU_CHANGE:
            st["cpu_change"] += 1
            continue
        if cpu is None:
            problems.append("record %#x at %d before any CPU_CHANGE" %
                            (ev, off))
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
            # Records were lost: the exit/entry state is unknown.
            state[cpu] = None
            continue
        if ev == TRC_TRACE_WRAP_BUFFER:
            st["wrap_buffer"] += 1
            continue
        if ev == TRC_SCHED_SWITCH and len(w) >= 4:
            dom = w[2]
            running[cpu] = "idle" if dom == 0x7fff else "d%d" % dom
            continue
        if (ev & 0x0fff0000) != (TRC_ARM_CLASS & 0x0fff0000):
            continue

        st["arm_records"] += 1
        if ev not in ARM_EVENTS:
            problems.append("cpu%d: unknown TRC_ARM event %#x at %d" %
                            (cpu, ev, off))
            continue
        name, want_tsc, want_words = ARM_EVENTS[ev]
        pc["arm"][name] += 1
        if (tsc is not None) != want_tsc or len(w) != want_words:
            problems.append("cpu%d: %s at %d: tsc=%s words=%d, expected "
                            "tsc=%s words=%d" % (cpu, name, off,
                                                 tsc is not None, len(w),
                                                 want_tsc, want_words))
            continue

        if ev == TRC_ARM_GUEST_EXIT:
            esr = u64(w[0], w[1])
            kind = w[4]
            if state.get(cpu) == "exit":
                pc["double_exit"] += 1
            state[cpu] = "exit"
            pc["exit_kind"][KINDS.get(kind, "kind%d" % kind)] += 1
            if kind not in KINDS:
                problems.append("cpu%d: exit kind %d at %d" % (cpu, kind, off))
            if kind in (1, 2):
                if esr != 0:
                    problems.append("cpu%d: IRQ/FIQ exit with ESR %#x at %d" %
                                    (cpu, esr, off))
                pc["ec"]["(%s)" % KINDS[kind]] += 1
            else:
                ec = (w[0] >> 26) & 0x3f
                pc["ec"]["%#04x %s" % (ec, EC_NAMES.get(ec, "?"))] += 1
            exits_by_dom[running.get(cpu, "?")] += 1
        elif ev == TRC_ARM_GUEST_ENTRY:
            if state.get(cpu) != "exit":
                pc["unpaired_entry"] += 1
            state[cpu] = "entry"
        elif ev == TRC_ARM_CLOCK:
            pc["clock_hz"].append(u64(w[0], w[1]))
        else:
            # Detail record: must belong to an exit in progress.
            if state.get(cpu) != "exit":
                pc["orphan_detail"] += 1
            if ev == TRC_ARM_HVC:
                hvc[w[0]] += 1
            elif ev == TRC_ARM_SMC:
                smc[w[0]] += 1
            elif ev == TRC_ARM_DABT:
                ipa = u64(w[0], w[1])
                f = w[2]
                if f & ~0x31f07:
                    problems.append("cpu%d: DABT reserved flag bits %#x" %
                                    (cpu, f))
                dabt["%#x %s%d" % (ipa, "W" if f & 4 else "R",
                                   8 << (f & 3))] += 1
                dabt_flags["ioreq" if f & 0x10000 else "xen"] += 1
                if f & 0x20000:
                    dabt_flags["failed"] += 1
            elif ev == TRC_ARM_SYSREG:
                sysreg["%s %s" % (sysreg_name(w[0]),
                                  "read" if w[1] & 1 else "write")] += 1
            elif ev == TRC_ARM_CP:
                cp["cp%d%s iss=%#x" % (w[0] & 0xff,
                                       "/64" if w[0] >> 8 else "", w[1])] += 1
            elif ev == TRC_ARM_WFX:
                wfx[{0: "WFI", 1: "WFE", 2: "WFIT", 3: "WFET"}.get(
                    w[0], str(w[0]))] += 1
            elif ev == TRC_ARM_IRQ:
                irq[w[0]] += 1
            elif ev == TRC_ARM_VGIC_MAINT:
                vgic[w[0]] += 1

    cpus = sorted(per_cpu)
    for cpu in cpus:
        pc = per_cpu[cpu]
        if sum(pc["arm"].values()) and not pc["clock_hz"]:
            problems.append("cpu%d: TRC_ARM records but no TRC_ARM_CLOCK" % cpu)
        if len(set(pc["clock_hz"])) > 1:
            problems.append("cpu%d: several clock rates %s" %
                            (cpu, sorted(set(pc["clock_hz"]))))
        if pc["orphan_detail"]:
            problems.append("cpu%d: %d detail records outside an exit" %
                            (cpu, pc["orphan_detail"]))
        if pc["double_exit"]:
            problems.append("cpu%d: %d exits without an entry in between" %
                            (cpu, pc["double_exit"]))

    return st, per_cpu, {
        "hvc": hvc, "smc": smc, "dabt": dabt, "dabt_flags": dabt_flags,
        "sysreg": sysreg, "cp": cp, "wfx": wfx, "irq": irq,
        "vgic_maint": vgic, "exits_by_domain": exits_by_dom,
    }, problems


def to_json(st, per_cpu, details, problems):
    clocks = sorted({hz for pc in per_cpu.values() for hz in pc["clock_hz"]})
    out = {
        "bytes": st["bytes"],
        "records": st["records"],
        "cpu_change": st["cpu_change"],
        "wrap_buffer": st["wrap_buffer"],
        "lost_records_events": st["lost_records_events"],
        "lost_records": st["lost_records"],
        "no_tsc_records": st["no_tsc_records"],
        "arm_records": st["arm_records"],
        "clock_hz": clocks,
        "events": {"%#x" % k: v for k, v in sorted(st["events"].items())},
        "arm": {name: sum(pc["arm"][name] for pc in per_cpu.values())
                for name in SHORT},
        "cpus": {},
        "hypercalls": {str(k): v for k, v in sorted(details["hvc"].items())},
        "smccc": {"%#x" % k: v for k, v in sorted(details["smc"].items())},
        "dabt": dict(sorted(details["dabt"].items())),
        "dabt_flags": dict(sorted(details["dabt_flags"].items())),
        "sysreg": dict(sorted(details["sysreg"].items())),
        "cp": dict(sorted(details["cp"].items())),
        "wfx": dict(sorted(details["wfx"].items())),
        "irq": {str(k): v for k, v in sorted(details["irq"].items())},
        "vgic_maint": {"%#x" % k: v
                       for k, v in sorted(details["vgic_maint"].items())},
        "exits_by_domain": dict(sorted(details["exits_by_domain"].items())),
        "problems": problems,
    }
    for cpu in sorted(per_cpu):
        pc = per_cpu[cpu]
        out["cpus"][str(cpu)] = {
            "records": pc["records"],
            "exit": pc["arm"]["exit"],
            "entry": pc["arm"]["entry"],
            "unpaired_entry": pc["unpaired_entry"],
            "exit_kind": dict(sorted(pc["exit_kind"].items())),
            "ec": dict(sorted(pc["ec"].items())),
            "clock_hz": pc["clock_hz"],
            "first_tsc": pc["first_tsc"],
            "last_tsc": pc["last_tsc"],
        }
    return out


def print_text(st, per_cpu, details, problems, f=sys.stdout):
    p = lambda *a: print(*a, file=f)
    clocks = sorted({hz for pc in per_cpu.values() for hz in pc["clock_hz"]})
    p("bytes %d  records %d  cpu_change %d  wrap_buffer %d  lost %d (%d events)"
      % (st["bytes"], st["records"], st["cpu_change"], st["wrap_buffer"],
         st["lost_records"], st["lost_records_events"]))
    p("records without TSC %d  TRC_ARM records %d  clock %s" %
      (st["no_tsc_records"], st["arm_records"],
       ", ".join("%d Hz" % hz for hz in clocks) or "none"))
    p("classes: " + "  ".join("%#x:%d" % (k, v)
                              for k, v in sorted(st["classes"].items())))
    for cpu in sorted(per_cpu):
        pc = per_cpu[cpu]
        span = ""
        if pc["first_tsc"] is not None and clocks:
            span = "  span %.3f s" % ((pc["last_tsc"] - pc["first_tsc"]) /
                                      clocks[0])
        p("cpu%d: records %d  exit %d  entry %d  (entry without exit %d)%s"
          % (cpu, pc["records"], pc["arm"]["exit"], pc["arm"]["entry"],
             pc["unpaired_entry"], span))
        p("  kinds: " + "  ".join("%s:%d" % kv for kv in
                                  sorted(pc["exit_kind"].items())))
        p("  EC:    " + "  ".join("%s:%d" % kv for kv in
                                  sorted(pc["ec"].items())))
        p("  arm:   " + "  ".join("%s:%d" % kv for kv in
                                  sorted(pc["arm"].items())))
    p("exits by domain (from sched switch records; ? = before the first): " +
      "  ".join("%s:%d" % kv for kv in
                sorted(details["exits_by_domain"].items())))
    p("hypercalls: " + "  ".join(
        "%d(%s):%d" % (k, HYPERCALLS.get(k, "?"), v)
        for k, v in sorted(details["hvc"].items())))
    p("smccc: " + "  ".join("%#x(%s):%d" % (k, SMCCC_NAMES.get(k, "?"), v)
                            for k, v in sorted(details["smc"].items())))
    p("dabt: " + "  ".join("%s:%d" % kv for kv in
                           sorted(details["dabt_flags"].items())))
    for k, v in sorted(details["dabt"].items(), key=lambda kv: -kv[1])[:12]:
        p("  %s: %d" % (k, v))
    p("sysreg: " + "  ".join("%s:%d" % kv for kv in
                             sorted(details["sysreg"].items())))
    if details["cp"]:
        p("cp: " + "  ".join("%s:%d" % kv for kv in
                             sorted(details["cp"].items())))
    p("wfx: " + "  ".join("%s:%d" % kv for kv in
                          sorted(details["wfx"].items())))
    p("irq: " + "  ".join("%d:%d" % kv for kv in
                          sorted(details["irq"].items())))
    p("vgic_maint: " + "  ".join("%#x:%d" % kv for kv in
                                 sorted(details["vgic_maint"].items())))
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
                    ",".join(SHORT))
    ap.add_argument("--clock", type=float, default=None,
                    help="expected TRC_ARM_CLOCK rate in Hz (e.g. 62.5e6)")
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
        st, per_cpu, details, problems = analyse(data)
    except Problem as e:
        print("check.py: cannot decode %s: %s" % (a.trace, e), file=sys.stderr)
        return 1
    for name in filter(None, a.require.split(",")):
        if name not in SHORT:
            print("check.py: unknown record name %r" % name, file=sys.stderr)
            return 2
        if not sum(pc["arm"][name] for pc in per_cpu.values()):
            problems.append("required record %s not found" % name)
    if a.clock is not None:
        for cpu, pc in sorted(per_cpu.items()):
            if any(hz != int(a.clock) for hz in pc["clock_hz"]):
                problems.append("cpu%d: clock %s != %d" %
                                (cpu, pc["clock_hz"], int(a.clock)))
    if a.expect:
        try:
            with open(a.expect) as fh:
                want = json.load(fh)
        except (OSError, ValueError) as e:
            print("check.py: %s: %s" % (a.expect, e), file=sys.stderr)
            return 2
        got = json.loads(json.dumps(to_json(st, per_cpu, details, [])))
        want.pop("problems", None)
        got.pop("problems", None)
        for key in sorted(set(want) | set(got)):
            if want.get(key) != got.get(key):
                problems.append("differs from %s: %s: expected %s, got %s" %
                                (a.expect, key,
                                 json.dumps(want.get(key))[:200],
                                 json.dumps(got.get(key))[:200]))
    if a.json:
        json.dump(to_json(st, per_cpu, details, problems), sys.stdout,
                  indent=1, sort_keys=True)
        print()
    else:
        print_text(st, per_cpu, details, problems)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
