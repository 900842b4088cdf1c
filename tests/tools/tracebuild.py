# SPDX-License-Identifier: GPL-2.0-only
"""Hand-built xentrace files for the check scripts: records, runstate
changes, and per-CPU chunks behind CPU-change records."""
import struct


def rec(ev, tsc=None, *w):
    """One t_rec: event id, optional TSC, extra words."""
    h = ev | len(w) << 28 | (1 << 31 if tsc is not None else 0)
    b = struct.pack("<I", h)
    if tsc is not None:
        b += struct.pack("<Q", tsc)
    return b + b"".join(struct.pack("<I", x) for x in w)


def rs(tsc, dom, v, old, new):
    """TRC_SCHED_RUNSTATE_CHANGE of dom's vCPU v (0 running, 1 runnable,
    2 blocked, 3 offline)."""
    return rec(0x21001 | old << 8 | new << 4, tsc, dom << 16 | v)


def write(path, cpus):
    """cpus: (cpu, [records]) pairs, each behind one CPU-change record."""
    out = b""
    for cpu, recs in cpus:
        data = b"".join(recs)
        out += struct.pack("<IiI", 0x2001f003, cpu, len(data)) + data
    open(path, "wb").write(out)
