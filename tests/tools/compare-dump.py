#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Check that our dump lists records in upstream xenalyze's global order,
with the same times.

Upstream prints its time as ((tsc - first_tsc) << 10) / qhz with
qhz = (hz << 10) / 10^9 truncated; we print the exact time.  So from our
--show-tsc dump we recompute upstream's nanoseconds and compare exactly.
Upstream prints some records on several lines and some not at all, so the
(cpu, time) sequence of upstream, with repeats collapsed, must be a
subsequence of ours, and must cover nearly all of our records.

usage: compare-dump.py UPSTREAM-DUMP(.xz) OURS-DUMP HZ
"""
import lzma
import re
import sys

TIME = re.compile(r"^\s*(\d+)\.(\d{9})$")
PCPUS = re.compile(r"^([ x.|l\-0-9]*?) d(?:\d+|\?)v(?:\d+|\?) ")
OURS = re.compile(r"^\s*(\d+)\s+(?:-?\s*\d+\.\d{9}|\s{13}) p(\d+) ")


def collapse(seq):
    out = []
    for x in seq:
        if not out or out[-1] != x:
            out.append(x)
    return out


def main():
    up_path, ours_path, hz = sys.argv[1], sys.argv[2], int(float(sys.argv[3]))
    qhz = (hz << 10) // 1000000000
    opener = lzma.open if up_path.endswith(".xz") else open
    up = []
    with opener(up_path, "rt", errors="replace") as f:
        for line in f:
            # A prefix character, then "%3u.%09u" or 14 blanks, a space,
            # the pcpu string (x marks the record's CPU), " dNvM ".
            t = TIME.match(line[1:14])
            if t:
                rest = line[15:]
                ns = int(t.group(1)) * 10**9 + int(t.group(2))
            elif line[1:15].strip() == "" and len(line) > 16:
                rest = line[16:]
                ns = 0
            else:
                continue
            m = PCPUS.match(rest)
            if not m or "x" not in m.group(1):
                continue
            up.append((m.group(1).index("x"), ns))
    ours = []
    first = None
    with open(ours_path) as f:
        for line in f:
            m = OURS.match(line)
            if not m:
                continue
            tsc, cpu = int(m.group(1)), int(m.group(2))
            if first is None and tsc:
                first = tsc
            ns = ((tsc - first) << 10) // qhz if first and tsc > first else 0
            ours.append((cpu, ns))
    up_c, ours_c = collapse(up), collapse(ours)
    j = 0
    skipped = 0
    for i, x in enumerate(up_c):
        start = j
        while j < len(ours_c) and ours_c[j] != x:
            j += 1
        if j == len(ours_c):
            print(f"upstream entry {i} {x} not found after our entry {start} "
                  f"{ours_c[start] if start < len(ours_c) else None}")
            print(f"context upstream: {up_c[max(0, i-3):i+3]}")
            return 1
        skipped += j - start
        j += 1
    print(f"upstream {len(up)} lines ({len(up_c)} distinct), ours {len(ours)} "
          f"records ({len(ours_c)} distinct); all upstream entries in order; "
          f"{skipped} of ours skipped")
    if skipped > len(ours_c) * 0.05:
        print("too many of our records have no upstream line")
        return 1
    return 0


sys.exit(main())
