# SPDX-License-Identifier: GPL-2.0-only
"""Compares our output of an upstream option with upstream xenalyze's.

    python3 tests/tools/compare-compat.py KIND HZ UPSTREAM OURS
    python3 tests/tools/compare-compat.py extract KIND < FULL > PART

KIND (tests/compat/options.txt) says which lines count: plot and
interval, every line; eiplist, the lines of "Interrupt eip list"
sections but their titles; cr3list, the lines of "cr3 values:" sections
without upstream's percentiles; histogram, the "Making histogram" line and
the histograms' bins.
UPSTREAM may be xz-compressed (.xz).  Lines must be the same, in the same
order, with the documented differences (docs/differences-from-upstream.md):
times.  Upstream converts cycles with ((tsc - first) << 10) / qhz, qhz =
hz * 1024 / 10^9 truncated; we print the exact time.  A field that is a
time ("S.NNNNNNNNN") of ours is taken to upstream's scale and must be
within 2 ns of upstream's; an interval table's first column (its start,
which drifts in upstream) is not compared; every other field must be
equal.
"""
import lzma
import re
import sys

TIME = re.compile(r"^\d+\.\d{9}$")
# (Not the sections' titles: upstream lists a domain only once a record
# names it, ours every domain the summary lists, so an empty list may be
# there in ours alone.)
EIP = re.compile(r"^(   Total samples: \d+|   [ 0-9a-f]{12}.*: +\d+ +[0-9.]+%)$")
# The "cr3 values:" lists' lines, without upstream's percentiles of
# samples ("{p5|p50|p95}", docs/differences-from-upstream.md).
CR3 = re.compile(r"^(    cr3 values:|  [ 0-9a-f]{8} \(id \d+\): .*|"
                 r"          (guest|hv   ): .*|           \+ [a-z0-9]+: .*|"
                 r"            Seen: .*)$")
BRACES = re.compile(r" \{[ 0-9|]*\}$")
HIST = re.compile(r"^(Making histogram of eips .*|\[[0-9a-f]+-[0-9a-f]+\]: "
                  r"\d+)$")


def extract(kind, lines):
    if kind == "eiplist":
        return [x for x in lines if EIP.match(x)]
    if kind == "cr3list":
        return [BRACES.sub("", x) for x in lines if CR3.match(x)]
    if kind == "histogram":
        return [x for x in lines if HIST.match(x)]
    return lines


def read(path):
    op = lzma.open if path.endswith(".xz") else open
    with op(path, "rt") as f:
        return f.read().splitlines()


def main():
    if sys.argv[1] == "extract":
        sys.stdout.write("".join(x + "\n" for x in
                                 extract(sys.argv[2], sys.stdin.read().splitlines())))
        return 0
    kind = sys.argv[1]
    hz = int(float(sys.argv[2]))
    qhz = (hz << 10) // 1000000000
    scale = (hz * 1024 / 1e9) / qhz
    up = extract(kind, read(sys.argv[3]))
    ours = extract(kind, read(sys.argv[4]))
    if len(up) != len(ours):
        print("%d lines, upstream %d" % (len(ours), len(up)))
    for n, (a, b) in enumerate(zip(up, ours), 1):
        fa, fb = a.split(), b.split()
        ok = len(fa) == len(fb)
        if kind == "interval":
            fa, fb = fa[1:], fb[1:]
        for x, y in zip(fa, fb) if ok else ():
            if x == y:
                continue
            # (a "Seen: FIRST- LAST" time keeps its dash)
            if x[-1:] == "-" and y[-1:] == "-":
                x, y = x[:-1], y[:-1]
            if TIME.match(x) and TIME.match(y):
                nx = int(x.replace(".", ""))
                ny = int(y.replace(".", ""))
                if abs(nx - ny * scale) <= 2:
                    continue
            ok = False
            break
        if not ok:
            print("line %d differs:\n  upstream: %s\n  ours:     %s" % (n, a, b))
            return 1
    if len(up) != len(ours):
        return 1
    print("%d lines equal (times within 2 ns of upstream's scale)" % len(up))
    return 0


if __name__ == "__main__":
    sys.exit(main())
