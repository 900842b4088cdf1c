#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Independent, stdlib-only count of a raw `xentrace -D` file (x86 lab cross-check).

File layout: a sequence of windows.  Each window starts with a CPU-change
record (u32 0x2001f003, i32 cpu, u32 window size in bytes) followed by that many
bytes of trace records of that physical CPU.  A record is a u32 header
(bits 0-27 event id, 28-30 number of extra u32 words, bit 31: a u64 TSC
follows the header) and then the extra words.

Reports: records per event id and per CPU, TSC span per CPU, VM exits per exit
code for each domain (the running vCPU of each physical CPU is tracked from
runstate-change records 0x21001|old<<8|new<<4, word 0 = domain<<16|vcpu, new
state 0 = running; records of a physical CPU before its first such record are
held back until a change from or to running names the vCPU), exits split by guest RIP (user space of the static lab
workloads vs kernel), the markers that lab/x86/src/exits.c and hcall.c leave
(CPUID leaves and VMMCALL eax 0x5eedLLLL, LLLL = loop index), PV hypercalls
per op and PV page faults by RIP.

The lab workloads are linked at fixed addresses (hcall at 0x10000000, exits at
0x20000000, see lab/x86/run.sh), so a RIP in [--rip-lo, --rip-hi) is the
workload itself; other RIPs below 0x800000000000 are other user space
(busybox, xentrace, ...), the rest is the guest kernel.

Usage: check.py [--domain D] [--rip-lo A --rip-hi B] [--cpu-hz HZ] trace.bin
"""

import argparse
import collections
import struct
import sys

CPU_CHANGE = 0x0001F003
MARK = 0x5EED0000

NAMES = {
    0x0001F001: "LOST_RECORDS", 0x0001F002: "TRACE_WRAP_BUFFER", 0x0001F003: "TRACE_CPU_CHANGE", 0x0001F005: "TRACE_CLOCK_KHZ",
    0x00021002: "SCHED_CONTINUE_RUNNING",
    0x00028001: "SCHED_DOM_ADD", 0x00028002: "SCHED_DOM_REM", 0x00028003: "SCHED_SLEEP",
    0x00028004: "SCHED_WAKE", 0x00028005: "SCHED_YIELD", 0x00028006: "SCHED_BLOCK",
    0x00028007: "SCHED_SHUTDOWN", 0x00028008: "SCHED_CTL", 0x00028009: "SCHED_ADJDOM",
    0x0002800A: "SCHED_SWITCH", 0x0002800B: "SCHED_S_TIMER_FN", 0x0002800C: "SCHED_T_TIMER_FN",
    0x0002800D: "SCHED_DOM_TIMER_FN", 0x0002800E: "SCHED_SWITCH_INFPREV",
    0x0002800F: "SCHED_SWITCH_INFNEXT", 0x00028010: "SCHED_SHUTDOWN_CODE",
    0x00028011: "SCHED_SWITCH_INFCONT",
    0x0010F005: "MEM_DECREASE_RESERVATION",
    0x00081001: "HVM_VMENTRY", 0x00081002: "HVM_VMEXIT", 0x00081102: "HVM_VMEXIT64",
    0x00081003: "HVM_SVM_EXIT", 0x00081103: "HVM_SVM_EXIT64",
    0x00082001: "HVM_PF_XEN", 0x00082101: "HVM_PF_XEN64", 0x00082002: "HVM_PF_INJECT",
    0x00082102: "HVM_PF_INJECT64", 0x00082003: "HVM_INJ_EXC", 0x00082004: "HVM_INJ_VIRQ",
    0x00082005: "HVM_REINJ_VIRQ", 0x00082006: "HVM_IO_READ", 0x00082007: "HVM_IO_WRITE",
    0x00082008: "HVM_CR_READ", 0x00082108: "HVM_CR_READ64", 0x00082009: "HVM_CR_WRITE",
    0x00082109: "HVM_CR_WRITE64", 0x0008200A: "HVM_DR_READ", 0x0008200B: "HVM_DR_WRITE",
    0x0008200C: "HVM_MSR_READ", 0x0008200D: "HVM_MSR_WRITE", 0x0008200E: "HVM_CPUID",
    0x0008200F: "HVM_INTR", 0x00082010: "HVM_NMI", 0x00082011: "HVM_SMI",
    0x00082012: "HVM_VMMCALL", 0x00082013: "HVM_HLT", 0x00082014: "HVM_INVLPG",
    0x00082114: "HVM_INVLPG64", 0x00082015: "HVM_MCE", 0x00082016: "HVM_IOPORT_READ",
    0x00082017: "HVM_IOMEM_READ", 0x00082018: "HVM_CLTS", 0x00082019: "HVM_LMSW",
    0x0008201A: "HVM_RDTSC", 0x00082020: "HVM_INTR_WINDOW", 0x00082021: "HVM_NPF",
    0x00082022: "HVM_REALMODE_EMULATE", 0x00082023: "HVM_TRAP", 0x00082024: "HVM_TRAP_DEBUG",
    0x00082025: "HVM_VLAPIC", 0x00082126: "HVM_XCR_READ64", 0x00082127: "HVM_XCR_WRITE64",
    0x00082216: "HVM_IOPORT_WRITE", 0x00082217: "HVM_IOMEM_WRITE",
    0x00201001: "PV_HYPERCALL", 0x00201003: "PV_TRAP", 0x00201103: "PV_TRAP64",
    0x00201004: "PV_PAGE_FAULT", 0x00201104: "PV_PAGE_FAULT64",
    0x00201005: "PV_FORCED_INVALID_OP", 0x00201105: "PV_FORCED_INVALID_OP64",
    0x00201006: "PV_EMULATE_PRIVOP", 0x00201106: "PV_EMULATE_PRIVOP64",
    0x00201007: "PV_EMULATE_4GB", 0x00201008: "PV_MATH_STATE_RESTORE",
    0x00201009: "PV_PAGING_FIXUP", 0x00201109: "PV_PAGING_FIXUP64",
    0x0020100A: "PV_GDT_LDT_MAPPING_FAULT", 0x0020110A: "PV_GDT_LDT_MAPPING_FAULT64",
    0x0020100B: "PV_PTWR_EMULATION", 0x0020110B: "PV_PTWR_EMULATION64",
    0x0020100C: "PV_PTWR_EMULATION_PAE", 0x0020110C: "PV_PTWR_EMULATION_PAE64",
    0x0020100D: "PV_HYPERCALL_V2", 0x0020200E: "PV_HYPERCALL_SUBCALL",
    0x00802001: "HW_IRQ_MOVE_CLEANUP_DELAY", 0x00802002: "HW_IRQ_MOVE_CLEANUP",
    0x00802003: "HW_IRQ_BIND_VECTOR", 0x00802004: "HW_IRQ_CLEAR_VECTOR",
    0x00802005: "HW_IRQ_MOVE_FINISH", 0x00802006: "HW_IRQ_ASSIGN_VECTOR",
    0x00802007: "HW_IRQ_UNMAPPED_VECTOR", 0x00802008: "HW_IRQ_HANDLED",
}

NAMES[0x00022201] = "CSCHED2_TICK"
NAMES[0x00022202] = "CSCHED2_RUNQ_POS"
NAMES[0x00022203] = "CSCHED2_CREDIT_BURN"
NAMES[0x00022204] = "CSCHED2_CREDIT_ADD"
NAMES[0x00022205] = "CSCHED2_TICKLE_CHECK"
NAMES[0x00022206] = "CSCHED2_TICKLE"
NAMES[0x00022207] = "CSCHED2_CREDIT_RESET"
NAMES[0x00022208] = "CSCHED2_SCHED_TASKLET"
NAMES[0x00022209] = "CSCHED2_UPDATE_LOAD"
NAMES[0x0002220a] = "CSCHED2_RUNQ_ASSIGN"
NAMES[0x0002220b] = "CSCHED2_UPDATE_UNIT_LOAD"
NAMES[0x0002220c] = "CSCHED2_UPDATE_RUNQ_LOAD"
NAMES[0x0002220d] = "CSCHED2_TICKLE_NEW"
NAMES[0x0002220e] = "CSCHED2_RUNQ_MAX_WEIGHT"
NAMES[0x0002220f] = "CSCHED2_MIGRATE"
NAMES[0x00022210] = "CSCHED2_LOAD_CHECK"
NAMES[0x00022211] = "CSCHED2_LOAD_BALANCE"
NAMES[0x00022213] = "CSCHED2_PICKED_CPU"
NAMES[0x00022214] = "CSCHED2_RUNQ_CANDIDATE"
NAMES[0x00022215] = "CSCHED2_SCHEDULE"
NAMES[0x00022216] = "CSCHED2_RATELIMIT"
NAMES[0x00022217] = "CSCHED2_RUNQ_CAND_CHECK"
NAMES[0x00022001] = "CSCHED_SCHED_TASKLET"
NAMES[0x00022002] = "CSCHED_ACCOUNT_START"
NAMES[0x00022003] = "CSCHED_ACCOUNT_STOP"
NAMES[0x00022004] = "CSCHED_STOLEN_UNIT"
NAMES[0x00022005] = "CSCHED_PICKED_CPU"
NAMES[0x00022006] = "CSCHED_TICKLE"
NAMES[0x00022007] = "CSCHED_BOOST_START"
NAMES[0x00022008] = "CSCHED_BOOST_END"
NAMES[0x00022009] = "CSCHED_SCHEDULE"
NAMES[0x0002200a] = "CSCHED_RATELIMIT"
NAMES[0x0002200b] = "CSCHED_STEAL_CHECK"
NAMES[0x00084001] = "HVM_EMUL_HPET_START_TIMER"
NAMES[0x00084002] = "HVM_EMUL_PIT_START_TIMER"
NAMES[0x00084003] = "HVM_EMUL_RTC_START_TIMER"
NAMES[0x00084004] = "HVM_EMUL_LAPIC_START_TIMER"
NAMES[0x00084005] = "HVM_EMUL_HPET_STOP_TIMER"
NAMES[0x00084006] = "HVM_EMUL_PIT_STOP_TIMER"
NAMES[0x00084007] = "HVM_EMUL_RTC_STOP_TIMER"
NAMES[0x00084008] = "HVM_EMUL_LAPIC_STOP_TIMER"
NAMES[0x00084009] = "HVM_EMUL_PIT_TIMER_CB"
NAMES[0x0008400a] = "HVM_EMUL_LAPIC_TIMER_CB"
NAMES[0x0008400b] = "HVM_EMUL_PIC_INT_OUTPUT"
NAMES[0x0008400c] = "HVM_EMUL_PIC_KICK"
NAMES[0x0008400d] = "HVM_EMUL_PIC_INTACK"
NAMES[0x0008400e] = "HVM_EMUL_PIC_POSEDGE"
NAMES[0x0008400f] = "HVM_EMUL_PIC_NEGEDGE"
NAMES[0x00084010] = "HVM_EMUL_PIC_PEND_IRQ_CALL"
NAMES[0x00084011] = "HVM_EMUL_LAPIC_PIC_INTR"

SVM_EXIT = {
    0x60: "INTR", 0x61: "NMI", 0x62: "SMI", 0x63: "INIT", 0x64: "VINTR", 0x6E: "RDTSC",
    0x72: "CPUID", 0x78: "HLT", 0x7B: "IOIO", 0x7C: "MSR", 0x7F: "SHUTDOWN",
    0x81: "VMMCALL", 0x87: "RDTSCP", 0x47: "EXCP_NM", 0x8D: "XSETBV", 0x400: "NPF",
    0x00: "CR0_READ", 0x03: "CR3_READ", 0x04: "CR4_READ", 0x10: "CR0_WRITE",
    0x13: "CR3_WRITE", 0x14: "CR4_WRITE", 0x40: "EXCP_DE", 0x41: "EXCP_DB",
    0x43: "EXCP_BP", 0x46: "EXCP_UD", 0x4E: "EXCP_PF", 0x52: "EXCP_MC",
    0x65: "CR0_SEL_WRITE", 0x79: "INVLPG", 0x7A: "INVLPGA", 0x80: "VMRUN",
    0x8A: "MONITOR", 0x8B: "MWAIT", 0x8C: "MWAIT_COND",
}

HYPERCALL = {  # xen/include/public/xen.h
    0: "set_trap_table", 1: "mmu_update", 2: "set_gdt", 3: "stack_switch", 4: "set_callbacks",
    5: "fpu_taskswitch", 6: "sched_op_compat", 7: "platform_op", 8: "set_debugreg",
    9: "get_debugreg", 10: "update_descriptor", 12: "memory_op", 13: "multicall",
    14: "update_va_mapping", 15: "set_timer_op", 16: "event_channel_op_compat",
    17: "xen_version", 18: "console_io", 19: "physdev_op_compat", 20: "grant_table_op",
    21: "vm_assist", 22: "update_va_mapping_otherdomain", 23: "iret", 24: "vcpu_op",
    25: "set_segment_base", 26: "mmuext_op", 27: "xsm_op", 28: "nmi_op", 29: "sched_op",
    30: "callback_op", 31: "xenoprof_op", 32: "event_channel_op", 33: "physdev_op",
    34: "hvm_op", 35: "sysctl", 36: "domctl", 37: "kexec_op", 38: "tmem_op", 39: "argo_op",
    40: "xenpmu_op", 41: "dm_op", 42: "hypfs_op",
}

RUNSTATE = ("running", "runnable", "blocked", "offline")


def name_of(ev):
    if ev & 0xFFFFF000 == 0x00021000 and ev & 0xF == 1:
        return "SCHED_RUNSTATE_CHANGE %s->%s" % (RUNSTATE[(ev >> 8) & 3], RUNSTATE[(ev >> 4) & 3])
    return NAMES.get(ev, "")


def dom_name(d):
    if d is None:
        return "unknown"
    return "idle" if d == 0x7FFF else "d%d" % d


def parse(path, wl):
    with open(path, "rb") as f:
        data = f.read()
    st = {
        "wl": wl,
        "bytes": len(data), "records": 0, "windows": 0, "errors": [],
        "per_event": collections.Counter(), "per_cpu": collections.Counter(),
        "per_event_cpu": collections.Counter(),
        "no_tsc": 0, "tsc": {}, "tsc_backwards": collections.Counter(),
        "exits": collections.Counter(),          # (dom, code, user?) -> n
        "exit_vcpu": collections.Counter(),      # (dom, vcpu) -> n
        "handler": collections.Counter(),        # (dom, event) -> n
        "cpuid_leaf": collections.Counter(),     # marker loop -> n
        "cpuid_other": 0, "vmmcall_mark": collections.Counter(), "vmmcall_other": 0,
        "msr_read": collections.Counter(), "msr_write": collections.Counter(),
        "ioport": collections.Counter(),         # (dir, port) -> n
        "iomem": collections.Counter(),
        "hypercall": collections.Counter(),      # (dom, op) -> n
        "vcpu_op_mark": collections.Counter(),   # loop -> n
        "pf_region": collections.Counter(),      # (2 MB region of addr, error code) -> n
        "pv_pf": collections.Counter(),          # (dom, user?) -> n
        "runstate_to_running": collections.Counter(),
        "decrease": collections.Counter(),       # (word 2, word 3) -> n
        "lost": 0, "wraps": 0, "clock_khz": None,
    }
    running = {}  # pcpu -> (dom, vcpu)
    pending = {}  # pcpu -> records seen before its running vCPU was known
    off = 0
    n = len(data)
    while off < n:
        if n - off < 12:
            st["errors"].append("truncated window header at %d" % off)
            break
        hdr, cpu, size = struct.unpack_from("<IiI", data, off)
        if hdr != 0x2001F003:
            st["errors"].append("expected CPU change record at %d, got %#x" % (off, hdr))
            break
        st["windows"] += 1
        st["records"] += 1
        st["per_event"][CPU_CHANGE] += 1
        st["per_event_cpu"][(CPU_CHANGE, cpu)] += 1
        off += 12
        end = off + size
        if end > n:
            st["errors"].append("window at %d overruns the file (%d > %d)" % (off, end, n))
            end = n
        while off < end:
            if end - off < 4:
                st["errors"].append("stray bytes at %d" % off)
                off = end
                break
            h = struct.unpack_from("<I", data, off)[0]
            ev = h & 0x0FFFFFFF
            nx = (h >> 28) & 7
            has_tsc = h >> 31
            rlen = 4 + 8 * has_tsc + 4 * nx
            if off + rlen > end:
                st["errors"].append("record at %d overruns its window" % off)
                off = end
                break
            tsc = None
            p = off + 4
            if has_tsc:
                tsc = struct.unpack_from("<Q", data, p)[0]
                p += 8
            words = struct.unpack_from("<%dI" % nx, data, p)
            off += rlen
            st["records"] += 1
            st["per_event"][ev] += 1
            st["per_event_cpu"][(ev, cpu)] += 1
            st["per_cpu"][cpu] += 1
            if ev == 0x0001F005 and nx == 1 and st["clock_khz"] is None:
                st["clock_khz"] = words[0]   # xentrace's clock record
            if tsc is None:
                st["no_tsc"] += 1
            else:
                t = st["tsc"].setdefault(cpu, [tsc, tsc])
                if tsc < t[1]:
                    st["tsc_backwards"][cpu] += 1
                t[0] = min(t[0], tsc)
                t[1] = max(t[1], tsc)
            runstate = ev & 0xFFFFF00F == 0x00021001 and words
            if cpu not in running:
                # Nothing known yet about this pcpu: keep its records until a runstate
                # change from or to running says which vCPU was (or starts) running.
                if runstate and (ev >> 8) & 3 == 0:
                    running[cpu] = (words[0] >> 16, words[0] & 0xFFFF)
                elif not (runstate and (ev >> 4) & 3 == 0):
                    pending.setdefault(cpu, []).append((ev, words))
                    continue
                for pev, pw in pending.pop(cpu, ()):
                    account(st, running, cpu, pev, pw)
            account(st, running, cpu, ev, words)
        off = end
    for cpu, recs in pending.items():
        for pev, pw in recs:
            account(st, running, cpu, pev, pw)
    return st


def account(st, running, cpu, ev, w):
    cur = running.get(cpu)
    dom = cur[0] if cur else None
    if ev == 0x0001F001:
        st["lost"] += 1
    elif ev == 0x0001F002:
        st["wraps"] += 1
    elif ev & 0xFFFFF00F == 0x00021001 and w:
        if (ev >> 4) & 3 == 0:
            running[cpu] = (w[0] >> 16, w[0] & 0xFFFF)
            st["runstate_to_running"][dom_name(w[0] >> 16)] += 1
    elif ev in (0x00081102, 0x00081002, 0x00081103, 0x00081003) and w:
        # VMX or (before Xen 4.19) SVM exits; SVM's own ids from Xen 4.19
        code = w[0]
        rip = (w[1] | (w[2] << 32)) if ev & 0x100 and len(w) >= 3 else (w[1] if len(w) > 1 else 0)
        st["exits"][(dom, code, where(st, rip))] += 1
        st["exit_vcpu"][cur] += 1
    elif ev == 0x0010F005 and len(w) == 4:
        # { u64 gfn; u32 d, order } from Xen 4.18 (before: d:16 order:16, padding)
        st["decrease"][(w[2], w[3])] += 1
    elif ev & 0xFFFFF000 == 0x00082000:
        st["handler"][(dom, ev)] += 1
        if ev == 0x0008200E and w:
            if w[0] & 0xFFFF0000 == MARK:
                st["cpuid_leaf"][w[0] & 0xFFFF] += 1
            else:
                st["cpuid_other"] += 1
        elif ev == 0x00082012 and w:
            if w[0] & 0xFFFF0000 == MARK:
                st["vmmcall_mark"][w[0] & 0xFFFF] += 1
            else:
                st["vmmcall_other"] += 1
        elif ev == 0x0008200C and w:
            st["msr_read"][w[0]] += 1
        elif ev == 0x0008200D and w:
            st["msr_write"][w[0]] += 1
        elif ev in (0x00082016, 0x00082216) and w:
            st["ioport"][("in" if ev == 0x00082016 else "out", w[0])] += 1
        elif ev in (0x00082017, 0x00082217) and w:
            st["iomem"]["read" if ev == 0x00082017 else "write"] += 1
    elif ev == 0x0020100D and w:
        op = w[0] & 0x000FFFFF
        st["hypercall"][(dom, op)] += 1
        if op == 24 and len(w) >= 3 and w[1] == 0x5EED:
            st["vcpu_op_mark"][w[2] - 0x10000] += 1
    elif ev in (0x00201004, 0x00201104) and w:
        rip = w[0] | (w[1] << 32) if ev == 0x00201104 else w[0]
        st["pv_pf"][(dom, where(st, rip))] += 1
        if where(st, rip) == "workload" and ev == 0x00201104 and len(w) >= 5:
            st["pf_region"][((w[2] | (w[3] << 32)) >> 21 << 21, w[4])] += 1


def where(st, rip):
    lo, hi = st["wl"]
    if lo <= rip < hi:
        return "workload"
    return "user" if rip < 0x800000000000 else "kernel"


def loops_summary(hist, per_loop):
    if not hist:
        return "none"
    full = [k for k, v in hist.items() if v == per_loop]
    partial = {k: v for k, v in hist.items() if v != per_loop}
    return "loops %d..%d seen, %d complete (x%d = %d), partial %s" % (
        min(hist), max(hist), len(full), per_loop, len(full) * per_loop,
        ", ".join("#%d:%d" % kv for kv in sorted(partial.items())) or "none")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("trace")
    ap.add_argument("--domain", type=int, default=1, help="guest domain for the exit table")
    ap.add_argument("--rip-lo", type=lambda s: int(s, 0), default=0x10000000,
                    help="lowest RIP of the lab workload binary")
    ap.add_argument("--rip-hi", type=lambda s: int(s, 0), default=0x30000000,
                    help="RIP limit of the lab workload binary")
    ap.add_argument("--cpu-hz", type=float, default=None,
                    help="TSC rate for the spans (default: the trace's clock record, else 2.3 GHz)")
    ap.add_argument("--cpuid-per-loop", type=int, default=100)
    ap.add_argument("--vmmcall-per-loop", type=int, default=5)
    ap.add_argument("--hcall-per-loop", type=int, default=100)
    a = ap.parse_args()

    st = parse(a.trace, (a.rip_lo, a.rip_hi))
    out = print
    out("file %s" % a.trace)
    out("bytes %d" % st["bytes"])
    out("records %d (including %d CPU-change records)" % (st["records"], st["windows"]))
    out("windows %d" % st["windows"])
    out("records_without_tsc %d" % st["no_tsc"])
    out("lost_records %d" % st["lost"])
    out("wrap_buffer %d" % st["wraps"])
    out("framing_errors %d%s" % (len(st["errors"]), (": " + "; ".join(st["errors"][:3])) if st["errors"] else ""))
    if st["clock_khz"] is not None:
        out("clock_khz %d (TRC_TRACE_CLOCK_KHZ, written by xentrace)" % st["clock_khz"])
    if a.cpu_hz is None:
        a.cpu_hz = st["clock_khz"] * 1e3 if st["clock_khz"] else 2300e6
    out("")
    out("per CPU (records excluding CPU-change, TSC span at %.3f MHz, TSC going backwards):" % (a.cpu_hz / 1e6))
    for cpu in sorted(st["per_cpu"]):
        t = st["tsc"].get(cpu, [0, 0])
        out("  cpu%d %d records, tsc %d..%d = %.6f s, backwards %d" % (
            cpu, st["per_cpu"][cpu], t[0], t[1], (t[1] - t[0]) / a.cpu_hz, st["tsc_backwards"][cpu]))
    out("")
    cpus = sorted({k[1] for k in st["per_event_cpu"]})
    out("per event id: total, then per CPU (%s):" % " ".join("cpu%d" % c for c in cpus))
    for ev, c in sorted(st["per_event"].items()):
        out("  %#010x %8d  %s  %s" % (ev, c, " ".join("%7d" % st["per_event_cpu"][(ev, cpu)] for cpu in cpus),
                                     name_of(ev)))
    out("")
    out("runstate changes to running, by domain: %s" % ", ".join(
        "%s %d" % kv for kv in sorted(st["runstate_to_running"].items())))
    out("")
    doms = sorted({k[0] for k in st["exits"]}, key=lambda d: -1 if d is None else d)
    if doms:
        out("VM exits (TRC_HVM_VMEXIT/VMEXIT64, SVM_EXIT/SVM_EXIT64) per exit code, by domain and guest RIP\n"
            "  (workload = RIP in [%#x, %#x), user = other user space, kernel):" % (a.rip_lo, a.rip_hi))
        for d in doms:
            codes = sorted({k[1] for k in st["exits"] if k[0] == d})
            tot = sum(v for k, v in st["exits"].items() if k[0] == d)
            out("  %s: %d exits%s" % (dom_name(d), tot, "  <== --domain" if d == a.domain else ""))
            for c in codes:
                w = st["exits"][(d, c, "workload")]
                u = st["exits"][(d, c, "user")]
                k = st["exits"][(d, c, "kernel")]
                out("    %#06x %-8s %7d  (workload %d, user %d, kernel %d)" % (
                    c, SVM_EXIT.get(c, "?"), w + u + k, w, u, k))
        out("  exits per vcpu: %s" % ", ".join(
            "%s v%d %d" % (dom_name(k[0]), k[1], v) if k else "unknown %d" % v
            for k, v in sorted(st["exit_vcpu"].items(), key=lambda kv: (kv[0] is not None, kv[0] or (0, 0)))))
        out("  HVM handler records by domain: %s" % ", ".join(
            "%s %s %d" % (dom_name(k[0]), NAMES.get(k[1], hex(k[1])), v)
            for k, v in sorted(st["handler"].items(), key=lambda kv: (kv[0][0] or 0, kv[0][1]))))
        out("")
        out("workload markers (lab/x86/src/exits.c):")
        out("  CPUID leaf 0x5eedLLLL: %d records; %s" % (
            sum(st["cpuid_leaf"].values()), loops_summary(st["cpuid_leaf"], a.cpuid_per_loop)))
        out("  CPUID other leaves: %d" % st["cpuid_other"])
        out("  VMMCALL eax 0x5eedLLLL: %d records; %s" % (
            sum(st["vmmcall_mark"].values()), loops_summary(st["vmmcall_mark"], a.vmmcall_per_loop)))
        out("  VMMCALL other eax: %d" % st["vmmcall_other"])
        out("  MSR reads by index: %s" % ", ".join("%#x %d" % kv for kv in sorted(st["msr_read"].items())))
        out("  MSR writes by index: %s" % ", ".join("%#x %d" % kv for kv in sorted(st["msr_write"].items())))
        out("  I/O ports: %s" % ", ".join("%s %#x %d" % (k[0], k[1], v) for k, v in sorted(st["ioport"].items())))
        out("  MMIO: %s" % ", ".join("%s %d" % kv for kv in sorted(st["iomem"].items())))
        out("")
    if st["decrease"]:
        out("TRC_MEM decrease_reservation (0x0010f005) by its words 2 and 3 (Xen 4.18+: domain, order):")
        for (d, o), c in sorted(st["decrease"].items()):
            out("  words %#x %#x: %d records%s" % (d, o, c, " (as 4.18+: d%d order %d, %d pages)" % (
                d, o, c << o) if d <= 0xFFFF and o <= 63 else ""))
        out("")
    if st["hypercall"]:
        out("PV hypercalls (TRC_PV_HYPERCALL_V2 0x20100d) per op, by domain:")
        for (d, op), c in sorted(st["hypercall"].items(), key=lambda kv: (kv[0][0] or 0, kv[0][1])):
            out("  %s op %2d %-18s %7d" % (dom_name(d), op, HYPERCALL.get(op, "?"), c))
        out("PV page faults (TRC_PV_PAGE_FAULT[64]) by domain and RIP: %s" % ", ".join(
            "%s %s %d" % (dom_name(k[0]), k[1], v)
            for k, v in sorted(st["pv_pf"].items(), key=lambda kv: (kv[0][0] or 0, kv[0][1]))))
        out("  workload page faults by 2 MB region of the address and error code: %s" % ", ".join(
            "%#x/%#x %d" % (k[0], k[1], v) for k, v in sorted(st["pf_region"].items(), key=lambda kv: -kv[1])))
        out("workload markers (lab/x86/src/hcall.c):")
        out("  vcpu_op(0x5eed, 0x10000+loop): %d records; %s" % (
            sum(st["vcpu_op_mark"].values()), loops_summary(st["vcpu_op_mark"], a.hcall_per_loop)))
    return 1 if st["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
