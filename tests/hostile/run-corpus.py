#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The hostile corpus: generates it (hostile.py corpus) and runs every
input in its modes, from the file and through a pipe, with $XA (the plain
or the sanitized build).

  run-corpus.py [--long] [--jobs N] [TRACE...]

Each run must end by itself within the time limit, with status 0, 1 (no
valid record) or 2 (--strict), no sanitizer report, and peak RSS under
the limit; a JSON summary must parse, and file and pipe must write the
same bytes.  --long: the long version (make hostile): larger attacks,
more damaged variants of larger slices, every mode on every input.
Prints one line per failure and a total: inputs, runs, failures."""
import concurrent.futures
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
import xarun             # noqa: E402

# The modes of hostile.ALL_MODES.
MODES = {
    's': ['--summary', '--report-pcpu'],
    'j': ['--format=json', '--strict'],
    'd': ['--dump-all', '--show-tsc'],
    'c': ['--count'],
    'p': ['--scatterplot-pcpu', '--scatterplot-irq', '--scatterplot-rdtsc'],
    'r': ['--scatterplot-runstate'],
    't': ['--scatterplot-runstate-time', '--scatterplot-vmexit-eip'],
    'e': ['--scatterplot-extint-cycles=239', '--scatterplot-io=128'],
    'P': ['--perfetto=/dev/null'],
    'i': ['--interval=0.001', '--interval-domain-total-time-all'],
    'v': ['--interval=0.01', '--interval-domain-guest-interrupt=1'],
    'w': ['--interval=0.001', '--interval-domain-total-time=0,1,2'],
    'x': ['--format=csv', '--sort=count', '--top=2'],
    'y': ['--slowest=3', '--slowest-per-reason'],
    'z': ['--from=0.0001', '--to=0.01', '--domain=0,1', '--format=json'],
    'S': ['--svm-mode', '--scatterplot-runstate', '-s'],
    'g': ['--interval=0.001', '--interval-cr3-schedule-time-all', '-s',
          '--memory-budget=4'],
}
TIMEOUT = 60
RSS_KB = 512 * 1024


def one(path, mode):
    """The failures of one input in one mode, file and pipe."""
    bad = []
    outs = []
    args = MODES[mode]
    for pipe in (False, True):
        r = xarun.run(args, path, pipe=pipe, timeout=TIMEOUT)
        what = '%s [%s] %s' % (os.path.basename(path), mode,
                               'pipe' if pipe else 'file')
        if r.rc not in (0, 1, 2):
            bad.append('%s: status %d %s' % (what, r.rc, r.err[-200:]))
        if r.sanitizer():
            bad.append('%s: sanitizer: %s' % (what, r.err[:400]))
        if r.rss_kb > RSS_KB:
            bad.append('%s: %d KB' % (what, r.rss_kb))
        if r.rc == 0 and '--format=json' in args:
            try:
                import json
                json.loads(r.out)
            except ValueError as e:
                bad.append('%s: JSON: %s' % (what, e))
        outs.append(r.out)
    if outs[0] != outs[1]:
        bad.append('%s [%s]: file and pipe differ' %
                   (os.path.basename(path), mode))
    return bad


def main(argv):
    long_run = '--long' in argv
    jobs = 2
    if '--jobs' in argv:
        jobs = int(argv[argv.index('--jobs') + 1])
    traces = [a for a in argv if a.endswith('.xentrace')]
    tmp = tempfile.mkdtemp()
    subprocess.check_call([sys.executable,
                           os.path.join(os.path.dirname(__file__),
                                        'hostile.py'), 'corpus', tmp] +
                          (['--long'] if long_run else []) + traces)
    work = []
    for line in open(os.path.join(tmp, 'manifest')):
        name, modes = line.split()
        for m in modes:
            work.append((os.path.join(tmp, name), m))
    inputs = len(set(w[0] for w in work))
    bad = []
    with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        for b in ex.map(lambda w: one(*w), work):
            bad += b
    for b in bad:
        print('FAIL: ' + b)
    modes = sorted(set(w[1] for w in work))
    print('%d inputs, %d runs (%d modes: %s; file and pipe), %d failures' %
          (inputs, 2 * len(work), len(modes), ''.join(modes), len(bad)))
    subprocess.call(['rm', '-rf', tmp])
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
