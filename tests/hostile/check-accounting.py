#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Issue 11 item 9: every input byte is accounted for.  For every input,
from the file and from a pipe:

    input size = 12 x windows + bytes of the records read
                 + bytes skipped, each under a named anomaly

(--count prints the terms).  Before, windows skipped for a bad CPU number
(2.24 MB of one file), truncated records and truncated tails were skipped
without a word.  Inputs: the tests/bad cases, the damaged variants of the
real traces that tests/tools/trace-mangle.py makes, real-trace windows
given absurd CPU numbers, and the crafted attacks of hostile.py."""
import glob
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
import hostile as H      # noqa: E402
import xarun             # noqa: E402

c = xarun.Checker()
shared = os.environ.get('SHARED', '../shared')
tmp = tempfile.mkdtemp()
inputs = sorted(glob.glob('tests/bad/*/trace.xentrace'))

for t in ('x86-vmx-credit2-8cpu', 'arm64-qemu-credit2-2dom'):
    src = os.path.join(shared, 'traces', t + '.xentrace')
    if not os.path.exists(src):
        continue
    d = os.path.join(tmp, t)
    subprocess.check_call(['python3', 'tests/tools/trace-mangle.py',
                           'mangle', src, d])
    inputs += [os.path.join(d, l.split()[0]) for l in open(d + '/manifest')]
    # Many windows with CPU numbers out of range.
    data = bytearray(open(src, 'rb').read())
    for k, (off, cpu, size) in enumerate(H.windows(bytes(data))):
        if k % 3 == 1:
            data[off + 4:off + 8] = (70000 + cpu).to_bytes(4, 'little')
    p = os.path.join(tmp, t + '-bad-cpus')
    open(p, 'wb').write(data)
    inputs.append(p)

for name, (fn, _, n) in sorted(H.ATTACKS.items()):
    p = os.path.join(tmp, 'attack-' + name)
    with open(p, 'wb') as f:
        fn(f, min(n, 3000))
    inputs.append(p)

for p in inputs:
    size = os.path.getsize(p)
    for pipe in (False, True):
        d = xarun.count(p, pipe)
        how = '%s (%s)' % (os.path.relpath(p, tmp) if p.startswith(tmp)
                           else p, 'pipe' if pipe else 'file')
        if not c.ok(d['rc'] in (0, 1) and 'bytes' in d,
                    '%s: status %d' % (how, d['rc'])):
            continue
        total = 12 * d['windows'] + d['record_bytes'] + d['skipped_bytes']
        c.ok(d['bytes'] == size and total == size and
             sum(d['skipped'].values()) == d['skipped_bytes'],
             '%s: size %d, read %d = 12 x %d windows + %d record bytes + '
             '%d skipped %s' % (how, size, d['bytes'], d['windows'],
                                d['record_bytes'], d['skipped_bytes'],
                                d['skipped']))
print('%d inputs' % len(inputs))
subprocess.call(['rm', '-rf', tmp])
c.done()
