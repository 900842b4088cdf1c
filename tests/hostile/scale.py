#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The scale-attack table: each attack of hostile.py at three sizes, with
the input's size, the run's wall time and peak RSS (from the file, whose
mapped pages count in the RSS; $XA).  Prints a Markdown table.

  scale.py [--quick]

--quick: the smallest two sizes only."""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
import hostile as H      # noqa: E402
import xarun             # noqa: E402

# attack, sizes, options
TABLE = [
    ('exit-codes', (25000, 50000, 100000), ['--format=json']),
    ('pv-hypercalls', (50000, 100000, 200000), ['--format=json']),
    ('pv-events', (6000, 12000, 24000), ['--format=json']),
    ('vcpu-pcpus', (4096, 16384, 65536), ['--format=json']),
    ('lost-blocked', (2000, 4000, 8000), ['--format=json']),
    ('w2h-vcpus', (512, 1024, 2048), ['--format=json']),
    ('io-ports', (256, 512, 1024), ['--format=json']),
    ('many-cpus', (4096, 16384, 65536), ['--format=json']),
    ('interval-gap', (5, 50, 500), ['--interval=1',
                                    '--interval-domain-total-time-all']),
    ('lost-plot', (500, 1000, 2000), ['--scatterplot-runstate']),
    ('garbage-after', (16 << 20, 64 << 20, 256 << 20), ['--count']),
    ('silent-cpu', (256 << 10, 1 << 20, 4 << 20), ['--count']),
]


def human(n):
    for u in ('B', 'KB', 'MB', 'GB'):
        if n < 1024 or u == 'GB':
            return '%.0f %s' % (n, u) if u == 'B' else '%.1f %s' % (n, u)
        n /= 1024.0


def main(argv):
    quick = '--quick' in argv
    tmp = tempfile.mkdtemp()
    print('| attack | N | input | time (s) | peak RSS |')
    print('| --- | ---: | ---: | ---: | ---: |')
    for name, sizes, args in TABLE:
        for n in sizes[:2] if quick else sizes:
            p = os.path.join(tmp, name)
            H.write_attack(name, n, p)
            size = os.path.getsize(p)
            secs, rss_kb, rc = xarun.measure(args, p)
            os.unlink(p)
            st = '' if rc in (0, 2) else ' (status %d)' % rc
            print('| %s | %d | %s | %.2f%s | %s |' %
                  (name, n, human(size), secs, st, human(rss_kb * 1024)))
            sys.stdout.flush()
    os.rmdir(tmp)


if __name__ == '__main__':
    main(sys.argv[1:])
