#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The hostile corpus: generates it (hostile.py corpus) and runs every
input in its modes, from the file and through a pipe, with $XA (the plain
or the sanitized build).

  run-corpus.py [--long] [--jobs N] [TRACE...]

Each run must end by itself within the time limit, with status 0, 1 (no
valid record) or 2 (--strict), no sanitizer report, and peak RSS under
the limit; a JSON summary must parse, and file and pipe must write the
same bytes, but for what --slowest documents: a pipe lists what its
rings held (4,096 records a pCPU), a file, when an exit outgrew them, all
of it (slowest_same()).  --long: the long version (make hostile):
larger attacks, more damaged variants of larger slices, every mode on
every input.  Prints one line per failure and a total: inputs, runs,
runs that survived (every check of the run and its file/pipe comparison
passed), failures."""
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
NOTE = b'  (its first records are no longer in the ring'


def slowest_entries(out):
    """The text before '--- Slowest exits', that line, and the entries:
    (header, note, records before the cut, cut, records after it)."""
    head, sep, rest = out.partition(b'\n--- Slowest exits')
    if not sep:
        return out, None, []
    lines = rest.split(b'\n')
    entries = []
    for l in lines[1:]:
        if l.startswith(b'#'):
            entries.append([l, False, [], None, []])
        elif not entries or not l:
            continue
        elif l.startswith(NOTE):
            entries[-1][1] = True
        elif l.startswith(b'  ... ') and l.endswith(b' records not shown ...'):
            entries[-1][3] = int(l.split()[1])
        else:
            entries[-1][4 if entries[-1][3] is not None else 2].append(l)
    return head, lines[0], entries


def subsequence(a, b):
    """a's lines are b's, in b's order."""
    it = iter(b)
    return all(x in it for x in a)


def slowest_same(f, p):
    """The file's and the pipe's --slowest output agree but for what is
    documented: a pipe lists what its rings held (4,096 records a pCPU),
    and says so of an exit whose pCPU wrote more since it began; a file is
    then read a second time and lists every exit from it.  So: the same
    text before the listing and the same exits in the same order; when no
    exit outgrew the rings, the same records; else each exit's records
    in the pipe at most the file's, and where both show them (the first
    and the last 100 of a long list) the pipe's among the file's in the
    same order and the file's latest of the exit's own pCPU all in the
    pipe's."""
    fh, fs, fe = slowest_entries(f)
    ph, ps, pe = slowest_entries(p)
    if fh != ph or fs != ps or len(fe) != len(pe):
        return False
    reread = any(e[1] for e in pe)
    for (fhd, fn, fa, fc, fb), (phd, pn, pa, pc, pb) in zip(fe, pe):
        if fhd != phd or fn:
            return False
        if (fa, fc, fb) == (pa, pc, pb):
            continue
        if not reread or len(pa) + (pc or 0) + len(pb) > \
                len(fa) + (fc or 0) + len(fb):
            return False
        if fc is None:
            # The file lists all of it: the pipe's are among them.
            if not subsequence(pa + pb, fa):
                return False
            continue
        # The latest records, from the later of the two first shown
        # there: the pipe's among the file's; of each pCPU the pipe's a
        # suffix of the file's (a ring loses its oldest), of the exit's
        # own pCPU all of them.
        ptail = pb if pc is not None else pa
        own = phd.split()[2]
        try:
            t = [float(l.split()[0]) for l in ptail]
            u = [float(l.split()[0]) for l in fb]
            if not ptail or not fb:
                continue
            lo = max(t[0], u[0])
            pl = [l for l, x in zip(ptail, t) if x > lo]
            fl = [l for l, x in zip(fb, u) if x > lo]
            if not subsequence(pl, fl):
                return False
            for q in set(l.split()[1] for l in pl + fl):
                pq = [l for l in pl if l.split()[1] == q]
                fq = [l for l in fl if l.split()[1] == q]
                if (pq != fq[len(fq) - len(pq):] if pq else False) or \
                        (q == own and pq != fq):
                    return False
        except IndexError:
            return False
        except ValueError:
            return False
    return True


def one(path, mode):
    """The failures of one input in one mode, file and pipe, and how many
    of the two runs survived."""
    bad = []
    outs = []
    ok = [True, True]
    args = MODES[mode]
    for pipe in (False, True):
        r = xarun.run(args, path, pipe=pipe, timeout=TIMEOUT)
        what = '%s [%s] %s' % (os.path.basename(path), mode,
                               'pipe' if pipe else 'file')
        n = len(bad)
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
        ok[pipe] = len(bad) == n
        outs.append(r.out)
    if outs[0] != outs[1] and not (mode == 'y' and
                                   slowest_same(outs[0], outs[1])):
        bad.append('%s [%s]: file and pipe differ' %
                   (os.path.basename(path), mode))
        ok = [False, False]
    return bad, sum(ok)


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
    survived = 0
    with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        for b, n in ex.map(lambda w: one(*w), work):
            bad += b
            survived += n
    for b in bad:
        print('FAIL: ' + b)
    modes = sorted(set(w[1] for w in work))
    print('%d inputs, %d runs (%d modes: %s; file and pipe), %d survived, '
          '%d failures' % (inputs, 2 * len(work), len(modes), ''.join(modes),
                           survived, len(bad)))
    subprocess.call(['rm', '-rf', tmp])
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
