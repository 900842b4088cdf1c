# SPDX-License-Identifier: GPL-2.0-only
"""Compares our output of an upstream option with upstream xenalyze's.

    python3 tests/tools/compare-compat.py KIND HZ UPSTREAM OURS
    python3 tests/tools/compare-compat.py extract KIND < FULL > PART

KIND (tests/compat/options.txt) says which lines count: plot and
interval, every line; eiplist, the lines of "Interrupt eip list"
sections but their titles; cr3list, the lines of "cr3 values:" sections
without upstream's percentiles; histogram, the "Making histogram" line and
the histograms' bins; rawreads and rawprocess, the records of
--dump-raw-reads ("R" lines) and --dump-raw-process ("*" lines), below.
UPSTREAM may be xz-compressed (.xz).  Lines must be the same, in the same
order, with the documented differences (docs/differences-from-upstream.md):
times.  Upstream converts cycles with ((tsc - first) << 10) / qhz, qhz =
hz * 1024 / 10^9 truncated; we print the exact time.  A field that is a
time ("S.NNNNNNNNN") of ours is taken to upstream's scale and must be
within 2 ns of upstream's; an interval table's first column (its start,
which drifts in upstream) is not compared; every other field must be
equal.

Raw records: each line is taken apart (CPU, offset, event, words, TSC) and
its raw section checked against them: upstream prints the 32 bytes at the
record's offset, past the record the next record's bytes (or stale ones at
the end of the file), ours the record's own words: only those are
compared.  Upstream reads each pCPU's records as its processing asks for
them, ours in file order: its lines are put in file order (by offset).
Its CPU-change lines (every pCPU reads every window's header, and the
first of a pCPU shows offset 0) are not compared line for line: each of
ours must be one of them.  The expected file keeps the number of records,
a SHA-256 of their normalized lines and the first of them (to show where
a difference starts): upstream's output is too large to keep whole.
"""
import hashlib
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


RAW_R = re.compile(r"^R p *(\d+) o([0-9a-f]{16}) +([0-9a-f]+) (\d) +(-|\d+) "
                   r"\[(.*)\] \|(.*)\|$")
RAW_P = re.compile(r"^\* +([0-9a-f]+) (\d) +(-|\d+) \[(.*)\] \|(.*)\|$")
RAW_HEAD = 300
CPU_CHANGE = 0x1f003


def raw_parse(line):
    """(cpu, offset, normalized record) of an R or * line, or None."""
    m = RAW_R.match(line)
    if m:
        cpu, off, ev, n, tsc, words, raw = m.groups()
    else:
        m = RAW_P.match(line)
        if not m:
            return None
        cpu, off = "", "0"
        ev, n, tsc, words, raw = m.groups()
    words = words.split()
    own = [int(ev, 16) | int(n) << 28 | (tsc != "-") << 31]
    if tsc != "-":
        own += [int(tsc) & 0xffffffff, int(tsc) >> 32]
    own = (own + [int(w, 16) for w in words])[:8]
    raw = [int(w, 16) for w in raw.split()][:len(own)]
    rec = " ".join([cpu, ev, n, tsc] + words).strip()
    if raw != own:
        rec += " raw " + " ".join("%x" % w for w in raw)
    return cpu, int(off, 16), int(ev, 16), rec


def raw_extract(kind, lines):
    """Records (in file order for rawreads), and rawreads' headers."""
    recs = [r for r in map(raw_parse, lines) if r]
    # (a CPU-change record's CPU field is the reading pCPU's in upstream)
    heads = sorted(set("%x %s" % (off, rec.split(" ", 1)[1])
                       for cpu, off, ev, rec in recs if ev == CPU_CHANGE))
    recs = [r for r in recs if r[2] != CPU_CHANGE]
    if kind == "rawreads":
        recs.sort(key=lambda r: r[1])
        recs = ["%x %s" % (r[1], r[3]) for r in recs]
    else:
        recs = [r[3] for r in recs]
    return recs, heads


def raw_digest(recs):
    return hashlib.sha256("".join(x + "\n" for x in recs).encode()).hexdigest()


def raw_summary(kind, lines):
    recs, heads = raw_extract(kind, lines)
    out = ["# records %d sha256 %s" % (len(recs), raw_digest(recs))]
    out += ["H " + h for h in heads]
    return out + recs[:RAW_HEAD]


def raw_compare(kind, up, ours_lines):
    """up: the expected file's lines (raw_summary); ours: our output."""
    n_up, sha_up = int(up[0].split()[2]), up[0].split()[4]
    heads_up = set(x[2:] for x in up if x.startswith("H "))
    head_up = [x for x in up[1:] if not x.startswith("H ")]
    recs, heads = raw_extract(kind, ours_lines)
    if kind == "rawreads":
        # Ours are in file order already: not sorted, checked
        ours = ["%x %s" % (r[1], r[3]) for r in map(raw_parse, ours_lines)
                if r and r[2] != CPU_CHANGE]
        if ours != recs:
            print("our records are not in file order")
            return 1
        missing = [h for h in heads if h not in heads_up]
        if missing or not heads:
            print("%d of our %d CPU-change records not upstream's: %s"
                  % (len(missing), len(heads), missing[:3]))
            return 1
    for n, (a, b) in enumerate(zip(head_up, recs), 1):
        if a != b:
            print("record %d differs:\n  upstream: %s\n  ours:     %s"
                  % (n, a, b))
            return 1
    if len(recs) != n_up or raw_digest(recs) != sha_up:
        print("%d records, upstream %d; they differ after the first %d"
              % (len(recs), n_up, len(head_up)))
        return 1
    extra = " and %d CPU-change records" % len(heads) if heads else ""
    print("%d lines equal (records%s; SHA-256 of the normalized lines)"
          % (n_up, extra))
    return 0


def extract(kind, lines):
    if kind in ("rawreads", "rawprocess"):
        return raw_summary(kind, lines)
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
    if kind in ("rawreads", "rawprocess"):
        return raw_compare(kind, read(sys.argv[3]), read(sys.argv[4]))
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
