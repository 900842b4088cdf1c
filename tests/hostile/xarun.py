# SPDX-License-Identifier: GPL-2.0-only
"""Running xenalyze from the hostile checks: status, output, peak RSS and
time of one run, from a file or through a pipe, with a time limit."""
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time

XA = os.environ.get('XA', 'build/xenalyze')


class Run:
    def __init__(self, rc, out, err, rss_kb, secs):
        self.rc, self.out, self.err = rc, out, err
        self.rss_kb, self.secs = rss_kb, secs

    def json(self):
        """The output as JSON; {} (and a message) when it does not parse."""
        try:
            return json.loads(self.out)
        except ValueError as e:
            print('output does not parse as JSON (status %d): %s' %
                  (self.rc, e))
            return {'anomalies': None, 'pcpus': [], 'domains': [],
                    'trace': {'records': -1, 'first_tsc': 0,
                              'last_tsc': -1}}

    def sanitizer(self):
        return b'Sanitizer' in self.err or b'runtime error:' in self.err


def run(args, trace=None, pipe=False, timeout=60, feed=None, xa=None,
        keep_out=True):
    """Runs xenalyze ARGS TRACE (or ARGS - with TRACE on a pipe; or with
    feed(fileobj) writing standard input).  rc is -signal on a signal,
    124 on a timeout.  keep_out=False: the output is not read (a large
    output kept here would count in the next child's peak RSS: a forked
    child's ru_maxrss includes its parent's pages before exec)."""
    cmd = [xa or XA] + list(args)
    stdin = subprocess.DEVNULL
    if pipe or feed:
        cmd.append('-')
        stdin = subprocess.PIPE
    elif trace is not None:
        cmd.append(trace)
    out = tempfile.TemporaryFile()
    err = tempfile.TemporaryFile()
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdin=stdin, stdout=out, stderr=err)
    timed_out = False
    if stdin == subprocess.PIPE:
        try:
            if feed:
                feed(p.stdin)
            else:
                with open(trace, 'rb') as f:
                    while True:
                        b = f.read(1 << 20)
                        if not b:
                            break
                        p.stdin.write(b)
            p.stdin.close()
        except BrokenPipeError:
            pass
    deadline = t0 + timeout
    while True:
        pid, status, ru = os.wait4(p.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() > deadline:
            p.send_signal(signal.SIGKILL)
            pid, status, ru = os.wait4(p.pid, 0)
            timed_out = True
            break
        time.sleep(0.002)
    secs = time.monotonic() - t0
    p.returncode = 0
    if timed_out:
        rc = 124
    elif os.WIFSIGNALED(status):
        rc = -os.WTERMSIG(status)
    else:
        rc = os.WEXITSTATUS(status)
    out.seek(0)
    err.seek(0)
    return Run(rc, out.read() if keep_out else b'', err.read(), ru.ru_maxrss,
               secs)


def measure(args, path, timeout=600, pipe=False, cpu=False):
    """Wall seconds, peak RSS (KB) and status of one run from the file,
    or (pipe) with the file on standard input through a pipe; cpu: and
    its CPU seconds (user + system; None without /usr/bin/time) last.
    Through /usr/bin/time when there is one: a child forked from this
    Python process counts its pages in its peak (ru_maxrss keeps the
    high-water mark from before exec)."""
    if not os.path.exists('/usr/bin/time'):
        r = run(args, path, pipe=pipe, timeout=timeout, keep_out=False)
        return (r.secs, r.rss_kb, r.rc) + ((None,) if cpu else ())
    with tempfile.TemporaryFile() as err:
        t0 = time.monotonic()
        cmd = ['/usr/bin/time', '-f', '@@ %M %U %S', XA] + list(args) + \
            ['-' if pipe else path]
        cat = subprocess.Popen(['cat', path], stdout=subprocess.PIPE) \
            if pipe else None
        try:
            rc = subprocess.call(cmd, stdin=cat.stdout if cat else
                                 subprocess.DEVNULL,
                                 stdout=subprocess.DEVNULL, stderr=err,
                                 timeout=timeout)
        except subprocess.TimeoutExpired:
            rc = 124
        if cat:
            cat.stdout.close()
            cat.kill()
            cat.wait()
        secs = time.monotonic() - t0
        err.seek(0)
        lines = [l.split() for l in err.read().decode(errors='replace')
                 .splitlines() if l.startswith('@@ ')]
        rss = int(lines[-1][1]) if lines else 0
        if not cpu:
            return secs, rss, rc
        return secs, rss, rc, (float(lines[-1][2]) + float(lines[-1][3])
                               if lines else None)


def count(trace, pipe=False, args=()):
    """--count as a dict (numbers), 'skipped' a dict by anomaly kind."""
    r = run(['--count'] + list(args), trace, pipe)
    d = {'rc': r.rc, 'skipped': {}, 'run': r}
    for line in r.out.decode().splitlines():
        f = line.split()
        if f[0] == 'skipped' and len(f) == 3:
            d['skipped'][f[1]] = int(f[2])
        elif len(f) >= 2 and f[1].isdigit():
            d[f[0]] = int(f[1])
    return d


def flat(x, p=''):
    """(path, value) of every leaf of a JSON value."""
    if isinstance(x, dict):
        for k, v in x.items():
            yield from flat(v, p + '/' + k)
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from flat(v, p + '/%d' % i)
    else:
        yield p, x


def changed_series(a, b, ignore=('/anomalies', '/diagnostics', '/trace',
                                 'volume_bytes', '/all_vcpus',
                                 '/exit_totals', '/hist')):
    """The statistics (paths without the last key) that differ.  The
    summary's derived series (a domain's vCPUs together, a vCPU's exits
    together) are left out: they change with the series they add up; so
    is each statistic's histogram ("hist"), which changes with it."""
    fa, fb = dict(flat(a)), dict(flat(b))
    out = set()
    for k in set(fa) | set(fb):
        if fa.get(k) != fb.get(k) and not any(i in k for i in ignore):
            out.add(k.rsplit('/', 1)[0])
    return sorted(out)


class Checker:
    """Counts checks and failures; prints failures."""

    def __init__(self):
        self.n = 0
        self.bad = 0

    def ok(self, cond, what):
        self.n += 1
        if not cond:
            self.bad += 1
            print('FAIL: ' + what)
        return cond

    def done(self):
        print('%d checks, %d failures' % (self.n, self.bad))
        sys.exit(1 if self.bad else 0)
