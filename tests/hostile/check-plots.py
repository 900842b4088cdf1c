#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Issue 11 item 1: interval tables and plots after a TSC that leaps ahead.

80 bytes (d1v0 runs, one HLT exit, then a runstate record at TSC 2^63
that the records after it confirm) with --interval=1 once wrote one row
per second of the gap, 3.8e9 rows, and never ended (2 GB after 20 s).
Now: the rows of at most XA_PLOTS_GAP_ROWS (10,000) empty intervals are
written; a longer gap is one '# gap' comment line and one INTERVAL_GAP
anomaly, in every interval mode, file and pipe alike.  The boundary is
exact (10,001 empty rows: a gap line; 10,000: all written).  The output
is flushed as it is written: --scatterplot-runstate on 500 lost-records
records behind 4,096 blocked vCPUs (89 MB of output) once held a batch
of records' output in memory (110 MB); now under 64 MB."""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
import hostile as H      # noqa: E402
import xarun             # noqa: E402

c = xarun.Checker()
tmp = tempfile.mkdtemp()
MODES = (['--interval-domain-total-time-all'],
         ['--interval-domain-total-time=1'],
         ['--interval-domain-guest-interrupt=1'])


def write(name, data):
    p = os.path.join(tmp, name)
    with open(p, 'wb') as f:
        f.write(data)
    return p


def gap_lines(out):
    return [l for l in out.decode().splitlines() if l.startswith('# gap')]


for n in (0, 5):
    p = os.path.join(tmp, 'gap%d' % n)
    H.write_attack('interval-gap', n, p)
    for m in MODES:
        outs = []
        for pipe in (False, True):
            r = xarun.run(['--interval=1'] + m, p, pipe=pipe, timeout=20)
            what = 'gap%d %s %s' % (n, m[0], 'pipe' if pipe else 'file')
            c.ok(r.rc == 0, '%s: status %d' % (what, r.rc))
            c.ok(r.rss_kb < 65536, '%s: %d KB' % (what, r.rss_kb))
            g = gap_lines(r.out)
            if n == 0:
                # Nothing after the leap: its record is a TSC_OUTLIER.
                c.ok(not g and b'TSC_OUTLIER' in r.err,
                     '%s: gap lines %s, %s' % (what, g, r.err[-300:]))
            else:
                c.ok(len(g) == 1 and '3843071681 intervals' in g[0],
                     '%s: gap lines %s' % (what, g))
                c.ok(b'INTERVAL_GAP                    1' in r.err,
                     '%s: no INTERVAL_GAP: %s' % (what, r.err[-300:]))
            outs.append(r.out)
        c.ok(outs[0] == outs[1], 'gap%d %s: file and pipe differ' % (n, m))


def two_records(gap_cycles):
    """d1v0 starts running at 1000; a continue-running record gap_cycles
    later; then 10 more, one per interval."""
    b = H.rs(1000, 1, 0, H.RUNNABLE, H.RUNNING)
    t = 1000 + gap_cycles
    for i in range(11):
        b += H.rec(H.CONTINUE, t + i * 1000000, 1 << 16)
    return H.window(0, b)


# --cpu-hz=1G --interval=0.001: one interval is 10^6 cycles.  Rows due
# before a record d cycles after the interval start: (d - 1) / 10^6; the
# first of them holds the data, the others are empty.
for empty, want_gap in ((10000, False), (10001, True)):
    d = (empty + 1) * 1000000 + 1
    p = write('edge%d' % empty, two_records(d))
    r = xarun.run(['--cpu-hz=1G', '--interval=0.001',
                   '--interval-domain-total-time-all'], p)
    lines = r.out.decode().splitlines()
    rows = [l for l in lines if l[:1].isdigit()]
    g = gap_lines(r.out)
    what = 'edge %d empty rows' % empty
    c.ok(r.rc == 0, '%s: status %d' % (what, r.rc))
    if want_gap:
        c.ok(g == ['# gap: 10001 intervals without a record, from '
                   '0.001000000 s'], '%s: gap lines %s' % (what, g))
        c.ok(len(rows) == 1 + 10, '%s: %d rows' % (what, len(rows)))
        c.ok(b'INTERVAL_GAP' in r.err, '%s: no anomaly' % what)
    else:
        c.ok(not g, '%s: gap lines %s' % (what, g))
        c.ok(len(rows) == empty + 1 + 10, '%s: %d rows' % (what, len(rows)))
        c.ok(b'INTERVAL_GAP' not in r.err, '%s: %s' % (what, r.err))

# A legitimate 30-second trace: every row, no anomaly.
p = os.path.join(tmp, 'span')
H.write_attack('interval-span', 30, p)
r = xarun.run(['--interval=1', '--interval-domain-total-time-all'], p)
rows = [l for l in r.out.decode().splitlines() if l[:1].isdigit()]
c.ok(len(rows) == 29 and not gap_lines(r.out) and
     r.err == b'Anomalies: none\n',
     'span: %d rows, %s' % (len(rows), r.err))

# The plots' output is flushed as it goes.
p = os.path.join(tmp, 'lost-plot')
H.write_attack('lost-plot', 500, p)
for pipe in (False, True):
    r = xarun.run(['--scatterplot-runstate'], p, pipe=pipe, timeout=120,
                  keep_out=False)
    what = 'lost-plot %s' % ('pipe' if pipe else 'file')
    c.ok(r.rc == 0, '%s: status %d' % (what, r.rc))
    c.ok(r.rss_kb < 65536, '%s: %d KB' % (what, r.rss_kb))

for f in os.listdir(tmp):
    os.unlink(os.path.join(tmp, f))
os.rmdir(tmp)
c.done()
