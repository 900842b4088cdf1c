#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The scale-attack table: each attack of hostile.py at three sizes, with
the input's size, and the run's wall time, CPU time (user + system) and
peak RSS from the file (whose mapped pages count in the RSS) and through
a pipe ($XA; CPU time and peak RSS from /usr/bin/time).  Prints a
Markdown table (make hostile-scale).

  scale.py [--quick] [ATTACK...]

--quick: the smallest two sizes only; ATTACK: only these."""
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
    ('cr3-values', (100000, 200000, 400000),
     ['--format=json', '--with-cr3-enumeration', '--memory-budget=256']),
    # The interval table's copies charged too.
    ('cr3-values', (100000, 200000, 400000),
     ['--cpu-hz=1G', '--interval=0.1', '--interval-cr3-schedule-time-all',
      '--memory-budget=256'], 'cr3-values, interval'),
    ('interval-gap', (5, 50, 500), ['--interval=1',
                                    '--interval-domain-total-time-all']),
    ('lost-plot', (500, 1000, 2000), ['--scatterplot-runstate']),
    # Item 6, standard input: 1 GiB of garbage after a window, 16 M
    # one-record windows behind a silent CPU, headers just under 256 MiB.
    ('garbage-after', (256 << 20, 512 << 20, 1 << 30), ['--count']),
    ('silent-cpu', (4 << 20, 8 << 20, 16 << 20), ['--count']),
    ('big-headers', (100, 200, 400), ['--count']),
]


def human(n):
    for u in ('B', 'KB', 'MB', 'GB'):
        if n < 1024 or u == 'GB':
            return '%.0f %s' % (n, u) if u == 'B' else '%.1f %s' % (n, u)
        n /= 1024.0


def main(argv):
    quick = '--quick' in argv
    only = [a for a in argv if not a.startswith('--')]
    tmp = tempfile.mkdtemp()
    print('| attack | N | input | file: time / CPU (s) | file: peak RSS '
          '| pipe: time / CPU (s) | pipe: peak RSS |')
    print('| --- | ---: | ---: | ---: | ---: | ---: | ---: |')
    for name, sizes, args, *label in TABLE:
        if only and name not in only:
            continue
        for n in sizes[:2] if quick else sizes:
            p = os.path.join(tmp, name)
            H.write_attack(name, n, p)
            size = os.path.getsize(p)
            row = ['| %s | %d | %s' % (label[0] if label else name, n,
                                       human(size))]
            for pipe in (False, True):
                secs, rss_kb, rc, cpu = xarun.measure(args, p, pipe=pipe,
                                                      cpu=True)
                st = '' if rc in (0, 2) else ' (status %d)' % rc
                row.append('%.2f / %s%s | %s' % (
                    secs, '%.2f' % cpu if cpu is not None else '-', st,
                    human(rss_kb * 1024)))
            os.unlink(p)
            print(' | '.join(row) + ' |')
            sys.stdout.flush()
    os.rmdir(tmp)


if __name__ == '__main__':
    main(sys.argv[1:])
