#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Issue 11 item 7: a window's size field that lies is found out by the
window's records.  On the real VMX trace, one window's size rewritten to
end exactly at the end of the file, or exactly on a later window's header
(before: trusted, pCPU 4 credited 92,739 records instead of 23,835, no
file-level anomaly), or set to 0, 1, +2, -1, 0xfffffff0, +64 or -64
(before: the whole window counted as garbage), and every window's size
set to 0xfffffff0 (before: not one record read): every one of the 180,493
records is read, each pCPU gets its own, one BAD_WINDOW_SIZE per lie is
counted (--strict=file exits 2), and the pipe agrees with the file.  A
CPU-change record met inside a window ends it there; its word met as a
record's data does not."""
import os
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
import hostile as H      # noqa: E402
import xarun             # noqa: E402

c = xarun.Checker()
shared = os.environ.get('SHARED', '../shared')
V = os.path.join(shared, 'traces', 'x86-vmx-credit2-8cpu.xentrace')
tmp = tempfile.mkdtemp()


def write(name, data):
    p = os.path.join(tmp, name)
    with open(p, 'wb') as f:
        f.write(data)
    return p


def pcpu_records(j):
    return {p['id']: p['records'] for p in j['pcpus']}


if os.path.exists(V):
    data = open(V, 'rb').read()
    ref = xarun.run(['--format=json'], V).json()
    ws = H.windows(data)
    i = next(k for k, w in enumerate(ws) if w[1] == 4 and k > 20)
    cases = [('%d-%s' % (i, s), H.resize(data, i, s), 1)
             for s in ('eof', 'next:5', '0', '1', '+2', '-1', '0xfffffff0',
                       '+64', '-64')]
    cases.append(('all-0xfffffff0', H.resize_all(data, '0xfffffff0'),
                  len(ws)))
    for name, d, lies in cases:
        p = write(name, d)
        f = xarun.run(['--format=json'], p)
        s = xarun.run(['--format=json'], p, pipe=True)
        c.ok(f.rc == 0 and f.out == s.out, '%s: status %d, pipe %s' %
             (name, f.rc, 'agrees' if f.out == s.out else 'differs'))
        j = f.json()
        c.ok(pcpu_records(j) == pcpu_records(ref), '%s: records by pCPU %s' %
             (name, pcpu_records(j)))
        c.ok(j['anomalies'] == {'BAD_WINDOW_SIZE': lies},
             '%s: anomalies %s' % (name, j['anomalies']))
        c.ok(not xarun.changed_series(ref, j), '%s: summary changed' % name)
        r = xarun.run(['--strict=file', '--count'], p)
        c.ok(r.rc == 2, '%s: --strict=file status %d' % (name, r.rc))
        os.unlink(p)
else:
    print('no %s: real-trace cases skipped' % V)

# A window whose size swallows the next window: the CPU-change record met
# at a record boundary inside it ends it, and the next window is read.
a = b''.join(H.rec(H.CONTINUE, 1000 + 10 * k, 1 << 16) for k in range(10))
b = b''.join(H.rec(H.CONTINUE, 1005 + 10 * k, 1 << 16 | 1) for k in range(10))
p = write('swallow', H.window(0, a, len(a) + 12 + len(b)) + H.window(1, b) +
          H.window(0, H.rec(H.CONTINUE, 2000, 1 << 16)))
j = xarun.run(['--format=json'], p).json()
c.ok(pcpu_records(j) == {0: 11, 1: 10}, 'swallow: records by pCPU %s' %
     pcpu_records(j))
c.ok(j['anomalies'] == {'BAD_WINDOW_SIZE': 1},
     'swallow: anomalies %s' % j['anomalies'])

# The CPU-change header's word as a record's data, not at a record
# boundary: in the vectorised blocks of 64 bytes and in the tail after
# them.  The size is honest, so the window is read whole, with no anomaly.
CC_WORD = 0x2001f003
a = b''.join(H.rec(H.CONTINUE, 1000 + 10 * k, 1 << 16, CC_WORD, CC_WORD)
             for k in range(13))
b = b''.join(H.rec(H.CONTINUE, 1005 + 10 * k, 1 << 16 | 1) for k in range(4))
p = write('data-word', H.window(0, a) + H.window(1, b) +
          H.window(0, H.rec(H.CONTINUE, 2000, 1 << 16, CC_WORD)))
for pipe in (False, True):
    j = xarun.run(['--format=json'], p, pipe=pipe).json()
    what = 'data-word (%s)' % ('pipe' if pipe else 'file')
    c.ok(pcpu_records(j) == {0: 14, 1: 4}, '%s: records by pCPU %s' %
         (what, pcpu_records(j)))
    c.ok(j['anomalies'] == {}, '%s: anomalies %s' % (what, j['anomalies']))
subprocess.call(['rm', '-rf', tmp])
c.done()
