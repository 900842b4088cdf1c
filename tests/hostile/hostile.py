#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Hostile inputs for xenalyze: crafted attacks, scale attacks, and the
corpus that tests/hostile/run-corpus.py runs.  Python 3 standard library
only.

  hostile.py attack NAME N OUT     one attack at size N ('-': stdout)
  hostile.py list                  the attacks, with what N means
  hostile.py flip-tsc TRACE CPU INDEX BIT OUT
      flips bit BIT of the TSC of the INDEX-th record with a TSC of CPU
  hostile.py resize TRACE WINDOW SIZE OUT
      rewrites the size field of window number WINDOW (0-based); SIZE is a
      number, or 'eof' (to the end of the file), 'next:K' (to the header
      of the K-th window after it), '+D' / '-D' (relative)
  hostile.py resize-all TRACE SIZE OUT   every window's size field
  hostile.py seeds OUTDIR MAXLEN    fuzz seeds: the attacks past the caps
  hostile.py corpus OUTDIR [--long] [TRACE...]
      the corpus: OUTDIR/NAME files and OUTDIR/manifest ("NAME MODES")

File layout (Xen's tools/xentrace/xentrace.c): windows of a CPU-change
record (u32 0x2001f003, i32 cpu, u32 size) then size bytes of t_rec
records (u32 header: bits 0-27 event, 28-30 extra words, 31 TSC present;
optional u64 TSC; the extra words).
"""
import os
import random
import struct
import sys

CPU_CHANGE = 0x2001f003
HDR = 12
LOST = 0x0001f001
RUNSTATE = 0x00021001
CONTINUE = 0x00021002
VMENTRY = 0x00081001
VMEXIT64 = 0x00081102
SVM_EXIT = 0x00081003
HANDLER = 0x00082000
INJ_VIRQ = HANDLER + 0x04
IOPORT_READ = HANDLER + 0x16
CR_WRITE = HANDLER + 0x09
PV_HC_V1 = 0x00201001
PV_HC_V2 = 0x0020100d
ARM_EXIT = 0x01001001
ARM_ENTRY = 0x01001002
RUNNING, RUNNABLE, BLOCKED, OFFLINE = 0, 1, 2, 3
IDLE = 32767

_Q = struct.Struct('<Q')
_I = struct.Struct('<I')


def rec(ev, tsc=None, *w):
    """One t_rec: event id, optional TSC, extra words."""
    h = ev | len(w) << 28 | (1 << 31 if tsc is not None else 0)
    b = _I.pack(h)
    if tsc is not None:
        b += _Q.pack(tsc & 0xffffffffffffffff)
    return b + b''.join(_I.pack(x & 0xffffffff) for x in w)


def rs(tsc, dom, v, old, new):
    """A runstate change of dom's vCPU v."""
    return rec(RUNSTATE | old << 8 | new << 4, tsc, dom << 16 | v)


def vmexit(tsc, code, rip=0x1000):
    return rec(VMEXIT64, tsc, code, rip & 0xffffffff, rip >> 32)


def vmentry(tsc):
    return rec(VMENTRY, tsc)


def window(cpu, body, size=None):
    """A CPU-change record and its data; size may lie."""
    return struct.pack('<IiI', CPU_CHANGE, cpu,
                       len(body) if size is None else size) + body


class Host:
    """Records per CPU, written as xentrace does: a CPU's buffer becomes a
    window when it holds `window` bytes, and at the end every buffer is
    written in ascending CPU order.  Output goes to a file object."""

    def __init__(self, f, window_size=65536):
        self.f = f
        self.size = window_size
        self.bufs = {}

    def add(self, cpu, data):
        b = self.bufs.setdefault(cpu, bytearray())
        b += data
        if len(b) >= self.size:
            self.f.write(window(cpu, bytes(b)))
            del b[:]

    def flush(self):
        for cpu in sorted(self.bufs):
            if self.bufs[cpu]:
                self.f.write(window(cpu, bytes(self.bufs[cpu])))
                del self.bufs[cpu][:]


# ------------------------------------------------------------------ attacks
# Each takes (file, n) and writes one trace.  ATTACKS[name] = (function,
# what n is, the n used by the check scripts).

def a_interval_gap(f, n):
    """d1v0 runs, takes one HLT exit, then a runstate record at TSC 2^63
    (issue 11 item 1, 80 bytes); n extra 'far' records after it."""
    b = rs(1000, 1, 0, RUNNABLE, RUNNING) + vmexit(2000, 12) + \
        vmentry(2100) + rs(1 << 63, 1, 0, RUNNING, BLOCKED)
    for i in range(n):
        b += rs((1 << 63) + 1000 * (i + 1), 1, 0, BLOCKED, BLOCKED)
    f.write(window(0, b))


def a_interval_span(f, n):
    """A legitimate trace n seconds long at 2.4 GHz with one record per
    second: every interval row must be written."""
    b = rs(1000, 1, 0, RUNNABLE, RUNNING)
    for i in range(1, n + 1):
        b += rec(CONTINUE, 1000 + i * 2400000000, 1 << 16)
    f.write(window(0, b))


def a_exit_codes(f, n):
    """n distinct exit codes on one vCPU, then 1000 HLT exits (items 4, 5:
    the exit table's 16-bit index wrapped after 65,535 codes)."""
    h = Host(f)
    h.add(0, rs(1000, 1, 0, RUNNABLE, RUNNING))
    t = 2000
    for i in range(n):
        code = 0x500 + i if i < 0x10000 - 0x500 else 0x10000 + i
        h.add(0, vmexit(t, code) + vmentry(t + 10))
        t += 20
    for i in range(1000):
        h.add(0, vmexit(t, 12) + vmentry(t + 10))
        t += 20
    h.flush()


def a_pv_hypercalls(f, n):
    """A PV vCPU making n distinct hypercalls (TRC_PV_HYPERCALL_V2)."""
    h = Host(f)
    h.add(0, rs(1000, 1, 0, RUNNABLE, RUNNING))
    for i in range(n):
        h.add(0, rec(PV_HC_V2, 2000 + i, i & 0xfffff))
    h.flush()


def a_pv_events(f, n):
    """A PV vCPU writing n distinct PV event ids (at most 26,624: sub-
    classes 3-15, not the hypercall ones; bit 8, the 64-bit flag, clear)."""
    h = Host(f)
    h.add(0, rs(1000, 1, 0, RUNNABLE, RUNNING))
    for i in range(n):
        sub = 3 + (i >> 11) % 13
        low = (i & 0xff) | (i >> 8 & 7) << 9
        h.add(0, rec(0x00200000 | sub << 12 | low, 2000 + i))
    h.flush()


def a_vcpu_pcpus(f, n):
    """One vCPU visiting n physical CPUs, one after the other."""
    h = Host(f, 4096)
    t = 1000
    for cpu in range(n):
        h.add(cpu, rs(t, 1, 0, RUNNABLE, RUNNING) +
              rs(t + 50, 1, 0, RUNNING, RUNNABLE))
        t += 100
    h.flush()


def a_lost_blocked(f, n):
    """32,768 vCPUs blocked, then n lost-records records (each once made
    the model visit every vCPU)."""
    h = Host(f)
    t = 1000
    for k in range(32768):
        d, v = 1 + k // 4096, k % 4096
        h.add(0, rs(t, d, v, RUNNABLE, RUNNING) +
              rs(t + 1, d, v, RUNNING, BLOCKED))
        t += 2
    for i in range(n):
        h.add(0, rec(LOST, t + 10, 5, 0, t & 0xffffffff, t >> 32))
        t += 20
    h.flush()


def a_lost_plot(f, n):
    """4096 vCPUs blocked, then n lost-records records: each once wrote
    two runstate-plot lines per vCPU, buffered for a whole batch of
    records (item 1: --scatterplot-runstate reached 600 MB)."""
    h = Host(f)
    t = 1000
    for k in range(4096):
        h.add(0, rs(t, 1, k, RUNNABLE, RUNNING) +
              rs(t + 1, 1, k, RUNNING, BLOCKED))
        t += 2
    for i in range(n):
        h.add(0, rec(LOST, t + 10, 5, 0, t & 0xffffffff, t >> 32))
        t += 20
    h.flush()


def a_w2h_vcpus(f, n):
    """n HVM vCPUs each injected all 256 vectors, then halting."""
    h = Host(f)
    t = 1000
    for k in range(n):
        d, v = 1 + k // 4096, k % 4096
        b = bytearray(rs(t, d, v, RUNNABLE, RUNNING))
        for vec in range(256):
            b += rec(INJ_VIRQ, None, vec, 0)
        b += vmentry(t + 10) + vmexit(t + 20, 12) + \
            rs(t + 30, d, v, RUNNING, BLOCKED)
        h.add(0, bytes(b))
        t += 40
    h.flush()


def a_io_ports(f, n):
    """n HVM vCPUs each reading 256 distinct I/O ports."""
    h = Host(f)
    t = 1000
    for k in range(n):
        d, v = 1 + k // 4096, k % 4096
        b = bytearray(rs(t, d, v, RUNNABLE, RUNNING))
        t += 10
        for port in range(256):
            b += vmexit(t, 30) + rec(IOPORT_READ, None, port, 0) + \
                vmentry(t + 5)
            t += 10
        b += rs(t, d, v, RUNNING, BLOCKED)
        h.add(0, bytes(b))
        t += 10
    h.flush()


def a_cr3_values(f, n):
    """One HVM vCPU loading n distinct guest page tables (CR3 writes),
    each value once: upstream's cr3 tracking (--with-cr3-enumeration)."""
    h = Host(f)
    h.add(0, rs(1000, 1, 0, RUNNABLE, RUNNING))
    t = 2000
    for i in range(n):
        h.add(0, vmexit(t, 28) + rec(CR_WRITE, None, 3, (0x10000 + i) << 12) +
              vmentry(t + 10))
        t += 20
    h.flush()


def a_many_cpus(f, n):
    """n physical CPUs (at most 65,536) with one record each."""
    for cpu in range(min(n, 65536)):
        f.write(window(cpu, rec(CONTINUE, 1000 + cpu, IDLE << 16 | cpu)))


def a_garbage_after(f, n):
    """One window, then n bytes of garbage without a CPU-change record,
    then one more window."""
    f.write(window(0, rs(1000, 1, 0, RUNNABLE, RUNNING)))
    r = random.Random(1)
    chunk = bytes(r.randrange(256) for _ in range(1 << 16)) \
        .replace(b'\x03\xf0\x01\x20', b'xxxx')
    left = n
    while left > 0:
        f.write(chunk[:left])
        left -= len(chunk)
    f.write(window(0, rs(2000, 1, 0, RUNNING, BLOCKED)))


def a_silent_cpu(f, n):
    """CPU 1 writes one window, then CPU 0 n one-record windows, then CPU 1
    one more: CPU 1's second window lies beyond all of them."""
    f.write(window(1, rs(1000, 2, 0, RUNNABLE, RUNNING)))
    one = bytearray(window(0, rec(CONTINUE, 0, 1 << 16)))
    for i in range(n):
        struct.pack_into('<Q', one, HDR + 4, 1001 + i)
        f.write(one)
    f.write(window(1, rs(1001 + n, 2, 0, RUNNING, BLOCKED)))


def a_big_headers(f, n):
    """n MiB of windows whose headers each claim just under 256 MiB and
    hold 1 MiB of records (a stream once moved 256 MiB per refill)."""
    body = bytearray()
    t = 1000
    while len(body) < (1 << 20) - 12:
        body += rec(CONTINUE, t, 1 << 16)
        t += 1
    body = bytes(body)
    for i in range(n):
        f.write(window(0, body, (256 << 20) - 16))


def a_tsc_first_high(f, n):
    """Two CPUs, n records each in alternating windows; the first record
    of CPU 0 has bit 63 of its TSC set."""
    per = 1000
    t = 1000
    first = True
    for k in range(0, n, per):
        for cpu in (0, 1):
            b = bytearray()
            for i in range(min(per, n - k)):
                tsc = t + 10 * (k + i) + cpu
                if first and cpu == 0:
                    tsc |= 1 << 63
                    first = False
                b += rec(CONTINUE, tsc, 1 << 16 | cpu)
            f.write(window(cpu, bytes(b)))


def a_tsc_reset(f, n):
    """Two CPUs running d1v0 and d2v0 with n exits each; halfway, CPU 1's
    TSC goes back to 100 and goes on from there."""
    t0 = 1 << 40
    for half in (0, 1):
        for cpu in (0, 1):
            b = bytearray()
            if half == 0:
                b += rs(t0 + cpu, 1 + cpu, 0, RUNNABLE, RUNNING)
            for i in range(half * n // 2, (half + 1) * n // 2):
                t = t0 + 1000 * (i + 1) + cpu
                if cpu == 1 and half == 1:
                    t = 100 + 1000 * (i - n // 2)
                b += vmexit(t, 12) + vmentry(t + 400)
            f.write(window(cpu, bytes(b)))


def a_tsc_wrap(f, n):
    """One CPU whose TSC starts 10^6 cycles before 2^64 and wraps: n HLT
    exits of 400 cycles, one every 1000 cycles."""
    b = bytearray(rs((1 << 64) - 10 ** 6, 1, 0, RUNNABLE, RUNNING))
    for i in range(n):
        t = ((1 << 64) - 10 ** 6 + 1000 * (i + 1)) & ((1 << 64) - 1)
        b += vmexit(t, 12) + vmentry((t + 400) & ((1 << 64) - 1))
    f.write(window(0, bytes(b)))


def a_domid_reuse(f, n):
    """d1v0 writes PV hypercalls, then (domain id reused) VMX exits, then
    Arm exits; and n HVM exits while the idle vCPU runs on CPU 1."""
    b = rs(1000, 1, 0, RUNNABLE, RUNNING)
    t = 2000
    for i in range(3):
        b += rec(PV_HC_V2, t, 24)
        t += 100
    for i in range(3):
        b += vmexit(t, 12) + vmentry(t + 10)
        t += 100
    for i in range(3):
        b += rec(ARM_EXIT, t, 1 << 26, 0, 0x1000, 0, 0) + \
            rec(ARM_ENTRY, t + 10, 0x1000, 0)
        t += 100
    c = rs(1000, IDLE, 1, RUNNABLE, RUNNING)
    for i in range(n):
        c += vmexit(2000 + 100 * i, 12) + vmentry(2010 + 100 * i)
    f.write(window(0, b) + window(1, c))


def a_pv_v1_short(f, n):
    """n PV v1 hypercall records with one extra word instead of two."""
    b = bytearray(rs(1000, 1, 0, RUNNABLE, RUNNING))
    for i in range(n):
        b += rec(PV_HC_V1, 2000 + i, 0xdead0000 + i)
    f.write(window(0, bytes(b)))


def a_svm_late(f, n):
    """An SVM host whose first window's exits are CR reads (code 0, a VMX
    exception as well) and whose SVM evidence (code 0x78, HLT) comes in a
    later window of another CPU: file and pipe must name them alike."""
    a = rs(1000, 1, 0, RUNNABLE, RUNNING)
    for i in range(n):
        a += vmexit(2000 + 100 * i, 0) + vmentry(2050 + 100 * i)
    b = rs(1005, 2, 0, RUNNABLE, RUNNING)
    f.write(window(0, a) + window(1, b))
    c = vmexit(5000 + 100 * n, 0x78) + vmentry(5050 + 100 * n)
    f.write(window(1, c))


def a_skew(f, n):
    """A vCPU ping-ponging between two CPUs whose TSCs are 5000 cycles
    apart (CPU 1 behind): n migrations."""
    bufs = {0: bytearray(), 1: bytearray()}
    t = 100000
    skew = {0: 0, 1: -5000}
    bufs[0] += rs(t, 1, 0, RUNNABLE, RUNNING)
    bufs[1] += rs(t + 1 + skew[1], 2, 0, RUNNABLE, RUNNING)
    cpu = 0
    for i in range(n):
        t += 1000
        bufs[cpu] += vmexit(t + skew[cpu], 12) + vmentry(t + 100 + skew[cpu])
        t += 1000
        bufs[cpu] += rs(t + skew[cpu], 1, 0, RUNNING, RUNNABLE)
        cpu ^= 1
        t += 300
        bufs[cpu] += rs(t + skew[cpu], 1, 0, RUNNABLE, RUNNING)
    for c in (0, 1):
        f.write(window(c, bytes(bufs[c])))


ATTACKS = {
    'interval-gap': (a_interval_gap, 'records after the jump', 0),
    'interval-span': (a_interval_span, 'seconds', 30),
    'exit-codes': (a_exit_codes, 'distinct exit codes', 70000),
    'pv-hypercalls': (a_pv_hypercalls, 'distinct hypercalls', 50000),
    'pv-events': (a_pv_events, 'distinct PV event ids', 20000),
    'vcpu-pcpus': (a_vcpu_pcpus, 'physical CPUs', 16384),
    'lost-blocked': (a_lost_blocked, 'lost-records records', 2000),
    'lost-plot': (a_lost_plot, 'lost-records records', 2000),
    'w2h-vcpus': (a_w2h_vcpus, 'vCPUs', 512),
    'io-ports': (a_io_ports, 'vCPUs', 256),
    'many-cpus': (a_many_cpus, 'CPUs', 65536),
    'cr3-values': (a_cr3_values, 'guest page tables', 200000),
    'garbage-after': (a_garbage_after, 'bytes of garbage', 64 << 20),
    'silent-cpu': (a_silent_cpu, 'one-record windows', 1 << 20),
    'big-headers': (a_big_headers, 'MiB', 64),
    'tsc-first-high': (a_tsc_first_high, 'records per CPU', 200000),
    'tsc-reset': (a_tsc_reset, 'exits per CPU', 2000),
    'tsc-wrap': (a_tsc_wrap, 'exits', 3000),
    'domid-reuse': (a_domid_reuse, 'exits on idle', 5),
    'pv-v1-short': (a_pv_v1_short, 'records', 2000),
    'svm-late': (a_svm_late, 'CR exits', 50),
    'skew': (a_skew, 'migrations', 200),
}


def open_out(path):
    if path == '-':
        return sys.stdout.buffer
    return open(path, 'wb')


def write_attack(name, n, path):
    f = open_out(path)
    ATTACKS[name][0](f, n)
    f.flush()
    if f is not sys.stdout.buffer:
        f.close()


# -------------------------------------------------------- trace surgery

def windows(data):
    """[(offset, cpu, size)] of a well-formed trace."""
    out = []
    off = 0
    while off + HDR <= len(data):
        hdr, cpu, size = struct.unpack_from('<IiI', data, off)
        if hdr != CPU_CHANGE:
            raise ValueError('no CPU-change record at %d' % off)
        out.append((off, cpu, size))
        off += HDR + size
    return out


def records(data, win):
    """[(offset, length)] of the records of one window."""
    off, _, size = win
    p = off + HDR
    end = p + size
    out = []
    while p + 4 <= end:
        h = struct.unpack_from('<I', data, p)[0]
        n = 4 + (h >> 31) * 8 + ((h >> 28) & 7) * 4
        if p + n > end:
            break
        out.append((p, n))
        p += n
    return out


def tsc_records(data, cpu):
    """Offsets of the records with a TSC of one CPU, in file order."""
    out = []
    for w in windows(data):
        if w[1] != cpu:
            continue
        for o, _ in records(data, w):
            if struct.unpack_from('<I', data, o)[0] >> 31:
                out.append(o)
    return out


def flip_tsc(data, cpu, index, bit):
    b = bytearray(data)
    o = tsc_records(data, cpu)[index]
    t = struct.unpack_from('<Q', b, o + 4)[0]
    struct.pack_into('<Q', b, o + 4, t ^ (1 << bit))
    return bytes(b)


def resize(data, i, spec):
    """Rewrites window i's size field (see the module's help)."""
    ws = windows(data)
    off, _, size = ws[i]
    if spec == 'eof':
        s = len(data) - off - HDR
    elif spec.startswith('next:'):
        s = ws[i + int(spec[5:])][0] - off - HDR
    elif spec[0] in '+-':
        s = (size + int(spec)) & 0xffffffff
    else:
        s = int(spec, 0) & 0xffffffff
    b = bytearray(data)
    struct.pack_into('<I', b, off + 8, s)
    return bytes(b)


def resize_all(data, spec):
    b = bytearray(data)
    for off, _, _ in windows(data):
        struct.pack_into('<I', b, off + 8, int(spec, 0) & 0xffffffff)
    return bytes(b)


# ----------------------------------------------------------------- corpus

# Modes: the run script maps each letter to xenalyze options.
ALL_MODES = 'sjdcprtePivwxyzSg'


def slice_windows(data, budget):
    """Whole windows from the start, up to budget bytes."""
    out = b''
    for off, _, size in windows(data):
        if out and len(out) + HDR + size > budget:
            break
        out += data[off:off + HDR + size]
    return out


def mutations(name, data, r, count, emit):
    """count damaged variants of a well-formed trace."""
    ws = windows(data)
    cpus = sorted(set(w[1] for w in ws))
    for k in range(count):
        kind = k % 16
        b = bytearray(data)
        tag = '%s-m%02d-%d' % (name, kind, k)
        if kind == 0:      # one TSC bit, anywhere in one CPU's timeline
            cpu = r.choice(cpus)
            ts = tsc_records(data, cpu)
            if ts:
                o = r.choice(ts)
                struct.pack_into('<Q', b, o + 4, struct.unpack_from(
                    '<Q', b, o + 4)[0] ^ 1 << r.choice((63, 62, 56, 48, 40,
                                                        33, 31, 20)))
        elif kind == 1:    # several TSC bits
            for _ in range(r.randrange(2, 8)):
                cpu = r.choice(cpus)
                ts = tsc_records(data, cpu)
                if ts:
                    o = r.choice(ts)
                    struct.pack_into('<Q', b, o + 4, struct.unpack_from(
                        '<Q', b, o + 4)[0] ^ 1 << r.randrange(64))
        elif kind == 2:    # a lying window size
            i = r.randrange(len(ws))
            spec = r.choice(['eof', '0', '1', '+2', '-1', '0xfffffff0',
                             '+4', '-4', '+64', '-64', '0x0ffffff0'] +
                            (['next:%d' % r.randrange(1, min(4, len(ws) - i))]
                             if i + 1 < len(ws) else []))
            b = bytearray(resize(data, i, spec))
        elif kind == 3:    # every window's size the same lie
            b = bytearray(resize_all(data, r.choice(['0xfffffff0', '0',
                                                     '0xffffffff'])))
        elif kind == 4:    # a CPU's TSC resets halfway
            cpu = r.choice(cpus)
            ts = tsc_records(data, cpu)
            cut = len(ts) // 2
            if ts:
                base = struct.unpack_from('<Q', b, ts[cut] + 4)[0] - 100
                for o in ts[cut:]:
                    struct.pack_into('<Q', b, o + 4, struct.unpack_from(
                        '<Q', b, o + 4)[0] - base)
        elif kind == 5:    # a CPU skewed by a constant
            cpu = r.choice(cpus)
            d = r.choice((-1, 1)) * r.choice((1000, 100000, 10 ** 7))
            for o in tsc_records(data, cpu):
                struct.pack_into('<Q', b, o + 4, (struct.unpack_from(
                    '<Q', b, o + 4)[0] + d) & (2 ** 64 - 1))
        elif kind == 6:    # random bytes flipped
            for _ in range(r.randrange(1, 20)):
                b[r.randrange(len(b))] ^= 1 << r.randrange(8)
        elif kind == 7:    # truncated
            b = b[:r.randrange(1, len(b))]
        elif kind == 8:    # garbage inserted
            p = r.randrange(len(b))
            b[p:p] = bytes(r.randrange(256) for _ in range(r.randrange(1, 3000)))
        elif kind == 9:    # a window repeated
            off, _, size = r.choice(ws)
            w = data[off:off + HDR + size]
            p = r.choice(ws)[0]
            b[p:p] = w * r.randrange(1, 4)
        elif kind == 10:   # windows swapped
            if len(ws) > 2:
                i = r.randrange(len(ws) - 1)
                (o1, _, s1), (o2, _, s2) = ws[i], ws[i + 1]
                b[o1:o2 + HDR + s2] = data[o2:o2 + HDR + s2] + \
                    data[o1:o1 + HDR + s1]
        elif kind == 11:   # a CPU renumbered
            off, _, _ = r.choice(ws)
            struct.pack_into('<i', b, off + 4, r.choice(
                (65535, 65536, -1, 4096, 255, 2 ** 31 - 1)))
        elif kind == 12:   # a record's header damaged (class, size bits)
            w = r.choice(ws)
            rs_ = records(data, w)
            if rs_:
                o, _ = r.choice(rs_)
                h = struct.unpack_from('<I', b, o)[0]
                h ^= r.choice((1 << 28, 1 << 29, 1 << 30, 1 << 31,
                               0x0fff0000, 0x00ff0000, 0xfff))
                struct.pack_into('<I', b, o, h)
        elif kind == 13:   # a CPU-change record planted inside a window
            w = r.choice(ws)
            rs_ = records(data, w)
            if rs_:
                o, _ = r.choice(rs_)
                b[o:o] = struct.pack('<IiI', CPU_CHANGE, w[1], 4)
        elif kind == 14:   # a record's words spliced into the next's
            w = r.choice(ws)
            rs_ = records(data, w)
            if len(rs_) > 1:
                o, n = r.choice(rs_[:-1])
                del b[o + n - 4:o + n]
                b[o + n:o + n] = bytes(4)
        else:              # a lost-records record with absurd fields
            w = r.choice(ws)
            rs_ = records(data, w)
            if rs_:
                o, _ = r.choice(rs_)
                b[o:o] = rec(LOST, r.randrange(2 ** 64), r.randrange(2 ** 32),
                             r.randrange(2 ** 32), r.randrange(2 ** 32),
                             r.randrange(2 ** 32))
        emit(tag, bytes(b))


def cmd_corpus(outdir, long_run, traces):
    os.makedirs(outdir, exist_ok=True)
    manifest = []
    r = random.Random(11)

    def emit(name, data, modes=None):
        with open(os.path.join(outdir, name), 'wb') as f:
            f.write(data)
        if modes is None:
            # Every input: summary as JSON, dump, count; and two more
            # modes in turn, so that each mode sees many inputs.
            extra = ALL_MODES[len(manifest) % len(ALL_MODES)] + \
                ALL_MODES[(len(manifest) * 7 + 3) % len(ALL_MODES)]
            modes = 'jdc' + extra if not long_run else ALL_MODES
        manifest.append('%s %s' % (name, modes))

    # The crafted attacks, small.
    for name, (fn, _, n) in sorted(ATTACKS.items()):
        sizes = {'garbage-after': 5000, 'silent-cpu': 3000,
                 'big-headers': 2, 'many-cpus': 3000, 'exit-codes': 3000,
                 'pv-hypercalls': 3000, 'pv-events': 3000,
                 'vcpu-pcpus': 500, 'lost-blocked': 20,
                 'lost-plot': 20, 'w2h-vcpus': 8,
                 'io-ports': 4, 'tsc-first-high': 3000,
                 'interval-span': 20, 'cr3-values': 2000}
        n = sizes.get(name, n) * (8 if long_run else 1)
        path = os.path.join(outdir, 'attack-' + name)
        with open(path, 'wb') as f:
            fn(f, n)
        manifest.append('attack-%s %s' % (name, ALL_MODES))

    # Damaged variants of real and synthetic traces.
    per = 48 if not long_run else 100
    budget = 96 << 10 if not long_run else 1 << 20
    for t in traces:
        data = open(t, 'rb').read()
        base = os.path.basename(t).split('.')[0]
        try:
            small = slice_windows(data, budget)
            windows(small)
        except ValueError:
            continue
        emit(base, small)
        mutations(base, small, r, per, emit)

    with open(os.path.join(outdir, 'manifest'), 'w') as f:
        f.write('\n'.join(manifest) + '\n')


def cmd_seeds(outdir, max_len):
    """Fuzz seeds: every attack at sizes that cross the model's caps (256
    exit codes from 0x500, 1024 hypercalls or PV events, 10,000 empty
    interval rows), each at most max_len bytes."""
    os.makedirs(outdir, exist_ok=True)
    sizes = {'exit-codes': 300, 'pv-hypercalls': 1100, 'pv-events': 1100,
             'vcpu-pcpus': 64, 'lost-blocked': 4, 'lost-plot': 4,
             'w2h-vcpus': 2, 'io-ports': 2, 'many-cpus': 300,
             'garbage-after': 4000, 'silent-cpu': 2000, 'big-headers': 1,
             'tsc-first-high': 1000, 'interval-span': 20, 'cr3-values': 1500}
    for name, (fn, _, n) in sorted(ATTACKS.items()):
        import io
        b = io.BytesIO()
        fn(b, sizes.get(name, n))
        data = b.getvalue()[:max_len]
        with open(os.path.join(outdir, 'hostile-' + name), 'wb') as f:
            f.write(data)


def main(argv):
    if len(argv) == 5 and argv[1] == 'attack' and argv[2] in ATTACKS:
        write_attack(argv[2], int(argv[3], 0), argv[4])
    elif len(argv) == 2 and argv[1] == 'list':
        for name, (fn, what, n) in sorted(ATTACKS.items()):
            print('%-16s N = %s (checks: %d)\n    %s' %
                  (name, what, n, ' '.join(fn.__doc__.split())))
    elif len(argv) == 7 and argv[1] == 'flip-tsc':
        data = open(argv[2], 'rb').read()
        out = flip_tsc(data, int(argv[3]), int(argv[4]), int(argv[5]))
        open_out(argv[6]).write(out)
    elif len(argv) == 6 and argv[1] == 'resize':
        data = open(argv[2], 'rb').read()
        open_out(argv[5]).write(resize(data, int(argv[3]), argv[4]))
    elif len(argv) == 5 and argv[1] == 'resize-all':
        data = open(argv[2], 'rb').read()
        open_out(argv[4]).write(resize_all(data, argv[3]))
    elif len(argv) == 4 and argv[1] == 'seeds':
        cmd_seeds(argv[2], int(argv[3], 0))
    elif len(argv) >= 3 and argv[1] == 'corpus':
        long_run = '--long' in argv[3:]
        cmd_corpus(argv[2], long_run, [a for a in argv[3:] if a != '--long'])
    else:
        sys.stderr.write(__doc__)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
