# SPDX-License-Identifier: GPL-2.0-only
"""Records built to each Xen version's layout, for the records whose
layout changed between Xen 4.7 and master (docs/record-layouts.md).

    python3 tests/tools/layouts.py TRACE EXPECTED

writes a trace with one record per layout (on pCPU 0, one TSC apart) and
the line the dump must print for each, after the time, pCPU and vCPU:
"NAME ARGUMENTS".  The expected text is written from the values put in
the records, field by field as each version's Xen source lays them out.
"""
import struct
import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
import tracebuild as tb  # noqa: E402


def u64(v):
    return [v & 0xffffffff, v >> 32]


def dv(d, v):
    return d << 16 | v


RT = 0x00022000 + (4 << 9)       # TRC_SCHED_CLASS + (RTDS << 9)
MEM = 0x0010f000
SH = 0x0040f000
GFN = 0x12345600
MFN = 0x0abcde00

CASES = [
    # switch_infprev: before 4.8 { dom, runtime }, then { dom, vcpu, runtime }
    ("4.7", 0x0002800e, [5, 4000],
     "switch_infprev d5 runtime_ns=4000"),
    ("4.8", 0x0002800e, [5, 1, 4000],
     "switch_infprev d5v1 runtime_ns=4000"),
    # switch_infnext: before 4.8 { dom, wait, slice }, then with vcpu
    ("4.7", 0x0002800f, [5, 300, 0xffffffff],
     "switch_infnext d5 waited_ns=300 slice_ns=-1"),
    ("4.8", 0x0002800f, [5, 2, 300, 1000000],
     "switch_infnext d5v2 waited_ns=300 slice_ns=1000000"),
    # rtds:burn_budget: before 4.10 { d/v, budget(2), delta }
    ("4.9", RT + 3, [dv(3, 1)] + u64(4000000) + [250],
     "rtds:burn_budget d3v1 budget=4000000 delta=250"),
    # 4.10-4.17: + priority, has_extratime a bool in 21 bytes: the rest of
    # its word is stack rubble
    ("4.10", RT + 3, [dv(3, 1)] + u64(4000000) + [250, 2, 0xdeadbe01],
     "rtds:burn_budget d3v1 budget=4000000 delta=250 priority=2 "
     "extratime=1"),
    ("4.18", RT + 3, [dv(3, 1)] + u64(4000000) + [250, 0, 1],
     "rtds:burn_budget d3v1 budget=4000000 delta=250 priority=0 "
     "extratime=1"),
    # rtds:repl_budget: before 4.10 { d/v, deadline(2), budget(2) }
    ("4.9", RT + 4, [dv(3, 0)] + u64(10000000) + u64(4000000),
     "rtds:repl_budget d3v0 deadline=10000000 budget=4000000"),
    ("4.10", RT + 4, [dv(3, 0), 1] + u64(10000000) + u64(4000000),
     "rtds:repl_budget d3v0 priority=1 deadline=10000000 budget=4000000"),
    # TRC_MEM: before 4.18 d:16, order:16 then a padding word (rubble)
    ("4.17", MEM + 5, u64(GFN) + [7 | 9 << 16, 0xffff8300],
     "decrease_reservation gfn=0x12345600 d7 order=9"),
    ("4.17", MEM + 5, u64(GFN) + [7, 0xffff8300],
     "decrease_reservation gfn=0x12345600 d7 order=0"),
    ("4.18", MEM + 5, u64(GFN) + [7, 9],
     "decrease_reservation gfn=0x12345600 d7 order=9"),
    ("4.17", MEM + 16, u64(GFN) + u64(MFN) + [2 | 9 << 16, 0x82d04000],
     "pod_populate gfn=0x12345600 mfn=0xabcde00 d2 order=9"),
    ("4.18", MEM + 16, u64(GFN) + u64(MFN) + [2, 9],
     "pod_populate gfn=0x12345600 mfn=0xabcde00 d2 order=9"),
    ("4.18", MEM + 16, u64(GFN) + u64(MFN) + [2, 0],
     "pod_populate gfn=0x12345600 mfn=0xabcde00 d2 order=0"),
    ("4.17", MEM + 17, u64(GFN) + u64(MFN) + [2 | 18 << 16, 0],
     "pod_zero_reclaim gfn=0x12345600 mfn=0xabcde00 d2 order=18"),
    ("4.18", MEM + 17, u64(GFN) + u64(MFN) + [2, 18],
     "pod_zero_reclaim gfn=0x12345600 mfn=0xabcde00 d2 order=18"),
    # splinter: before 4.18 { u64 gfn; d:16 } (no order, rubble after d)
    ("4.17", MEM + 18, u64(GFN) + [0xc0de0002, 0xffff8300],
     "pod_superpage_splinter gfn=0x12345600 d2"),
    ("4.18", MEM + 18, u64(GFN) + [2, 9],
     "pod_superpage_splinter gfn=0x12345600 d2 order=9"),
    # shadow emulate_unshadow: 4.19 added a flags word (4-level guest:
    # u64 gfn, u64 va; 3-level: u64 gfn, u32 va; 2-level: u32 both)
    ("4.18", SH + 0x209, u64(0x1234) + u64(0xffff800000001000),
     "shadow_emulate_unshadow_user gfn=0x1234 va=0xffff800000001000"),
    ("4.19", SH + 0x209, u64(0x1234) + u64(0xffff800000001000) + [0x2001],
     "shadow_emulate_unshadow_user gfn=0x1234 va=0xffff800000001000 "
     "flags=0x2001"),
    ("4.19", SH + 0x10a, u64(0x1234) + [0xc0001000, 0x4],
     "shadow_emulate_unshadow_evtinj gfn=0x1234 va=0xc0001000 flags=0x4"),
    ("4.19", SH + 0x00b, [0x1234, 0xc0001000, 0x8000],
     "shadow_emulate_unshadow_unhandled gfn=0x1234 va=0xc0001000 "
     "flags=0x8000"),
]


def main():
    recs = []
    lines = []
    for i, (ver, ev, words, want) in enumerate(CASES):
        recs.append(tb.rec(ev, 1000 + 10 * i, *words))
        lines.append("%s\t%s\n" % (ver, want))
    tb.write(sys.argv[1], [(0, recs)])
    open(sys.argv[2], "w").write("".join(lines))


if __name__ == "__main__":
    main()
