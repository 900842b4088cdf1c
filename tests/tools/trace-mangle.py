#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Makes damaged and synthetic xentrace files for the bad-input tests and
the fuzzer's seed corpus.  Python 3 standard library only.

  trace-mangle.py windows TRACE
      one line per CPU-change window: "offset cpu size"
  trace-mangle.py seeds OUTDIR TRACE...
      small slices (< 64 KiB) of real traces, as fuzz seeds
  trace-mangle.py synth OUTDIR
      tiny synthetic traces, as fuzz seeds
  trace-mangle.py mangle TRACE OUTDIR
      damaged variants of TRACE, and OUTDIR/manifest: one line per file,
      "name min_records" where min_records is the number of whole records
      that a reader must still find (0: nothing promised)
  trace-mangle.py case NAME OUT
      one synthetic trace with a known defect (see CASES)

File layout (Xen's tools/xentrace/xentrace.c): windows of a CPU-change
record (u32 0x2001f003, i32 cpu, u32 size) then size bytes of t_rec
records (u32 header: bits 0-27 event, 28-30 extra words, 31 TSC present;
optional u64 TSC; the extra words).
"""
import os
import random
import struct
import sys

CPU_CHANGE_HDR = 0x2001f003
HDR = 12
LOST_RECORDS = 0x0001f001
RUNSTATE_CHANGE = 0x00021001
SCHED_SWITCH = 0x0002800a
VMEXIT64 = 0x00081102
VMENTRY = 0x00081001


def windows(data):
    """[(offset, cpu, size)] of a well-formed trace."""
    out = []
    off = 0
    while off + HDR <= len(data):
        hdr, cpu, size = struct.unpack_from('<IiI', data, off)
        if hdr != CPU_CHANGE_HDR:
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


def record_ends(data):
    """Sorted end offsets of every record of a well-formed trace."""
    ends = []
    for w in windows(data):
        ends.extend(o + n for o, n in records(data, w))
    return sorted(ends)


def prefix_records(ends, n):
    """How many whole records lie in the first n bytes."""
    lo, hi = 0, len(ends)
    while lo < hi:
        mid = (lo + hi) // 2
        if ends[mid] <= n:
            lo = mid + 1
        else:
            hi = mid
    return lo


def rec(event, tsc=None, extra=()):
    """One t_rec."""
    h = event | (len(extra) << 28) | ((tsc is not None) << 31)
    b = struct.pack('<I', h)
    if tsc is not None:
        b += struct.pack('<Q', tsc)
    return b + b''.join(struct.pack('<I', x & 0xffffffff) for x in extra)


def window(cpu, body, size=None):
    """A CPU-change record and its data; size may lie."""
    if size is None:
        size = len(body)
    return struct.pack('<IiI', CPU_CHANGE_HDR, cpu, size) + body


def write(path, data):
    with open(path, 'wb') as f:
        f.write(data)


# ---------------------------------------------------------------- seeds

def cmd_seeds(outdir, traces):
    os.makedirs(outdir, exist_ok=True)
    budget = 60000
    for t in traces:
        data = open(t, 'rb').read()
        base = os.path.basename(t).split('.')[0]
        ws = windows(data)
        # Runs of whole windows from a few places in the file.
        for k, start in enumerate(range(0, len(ws), max(1, len(ws) // 8))):
            chunk = b''
            for off, cpu, size in ws[start:]:
                w = data[off:off + HDR + size]
                if len(chunk) + len(w) > budget:
                    if not chunk:
                        # One big window: keep its first records.
                        rs = records(data, (off, cpu, size))
                        body = b''
                        for o, n in rs:
                            if len(body) + n > budget - HDR:
                                break
                            body += data[o:o + n]
                        chunk = window(cpu, body)
                    break
                chunk += w
            write(os.path.join(outdir, 'slice-%s-%d' % (base, k)), chunk)


def cmd_synth(outdir):
    os.makedirs(outdir, exist_ok=True)
    for name in CASES:
        write(os.path.join(outdir, 'synth-' + name), CASES[name]())


# ---------------------------------------------------------------- cases

def runstate(dom, vcpu, old, new, tsc):
    """Runstate change: dom << 16 | vcpu; old state bits 8-9, new 4-5."""
    return rec(RUNSTATE_CHANGE | (old << 8) | (new << 4), tsc,
               [(dom << 16) | vcpu])


def vmx_cpu(cpu, tsc0, n=4):
    """A small healthy stream for one CPU: d1 runs and takes n exits."""
    b = runstate(1, cpu, 1, 0, tsc0)
    t = tsc0 + 100
    for i in range(n):
        b += rec(VMEXIT64, t, [12, 0x1000 + i, 0])     # HLT
        b += rec(VMENTRY, t + 50)
        t += 200
    return b, t


def good_trace():
    a, _ = vmx_cpu(0, 1000)
    b, _ = vmx_cpu(1, 1010)
    return window(0, a) + window(1, b)


def case_good():
    return good_trace()


def case_truncated_record():
    # CPU 1's last record says it has a TSC and three extra words, but its
    # window (a whole number of words) ends after the TSC.
    a, _ = vmx_cpu(0, 1000)
    b, t = vmx_cpu(1, 1010)
    b += rec(VMEXIT64, t, [12, 0x2000, 0])[:12]
    c = rec(VMEXIT64, 2000, [12, 0x3000, 0]) + rec(VMENTRY, 2050)
    return window(0, a) + window(1, b) + window(0, c)


def case_truncated_file():
    # The file ends in the middle of CPU 1's last record: the window
    # runs past the end, and its last record is cut.
    a, _ = vmx_cpu(0, 1000)
    b, t = vmx_cpu(1, 1010)
    b += rec(VMEXIT64, t, [12, 0x2000, 0])
    return (window(0, a) + window(1, b))[:-6]


def case_truncated_tail():
    # Six bytes of a CPU-change record after the last window.
    return good_trace() + window(0, b'')[:6]


def case_short_record():
    # A VMEXIT64 with one extra word instead of three.
    a, t = vmx_cpu(0, 1000)
    a += rec(VMEXIT64, t, [12])
    b, _ = vmx_cpu(1, 1010)
    return window(0, a) + window(1, b)


def case_bad_window_size():
    # CPU 0's window says 4 bytes more than it holds; the next CPU change
    # sits where the data really ends.
    a, _ = vmx_cpu(0, 1000)
    b, _ = vmx_cpu(1, 1010)
    return window(0, a, len(a) + 4) + window(1, b)


def case_garbage():
    # 37 bytes of noise between two good windows.
    a, _ = vmx_cpu(0, 1000)
    b, _ = vmx_cpu(1, 1010)
    noise = bytes((i * 37 + 11) & 0xff for i in range(37))
    return window(0, a) + noise + window(1, b)


def case_bad_cpu():
    # A window claims CPU 70000; its records are skipped.
    a, _ = vmx_cpu(0, 1000)
    b, _ = vmx_cpu(1, 1010)
    c, _ = vmx_cpu(2, 1020)
    return window(0, a) + window(70000, c) + window(1, b)


def case_tsc_backwards():
    # CPU 0's second exit is stamped before the entry that precedes it.
    b = runstate(1, 0, 1, 0, 1000)
    b += rec(VMEXIT64, 1200, [12, 0x1000, 0])
    b += rec(VMENTRY, 1250)
    b += rec(VMEXIT64, 1240, [12, 0x1001, 0])
    b += rec(VMENTRY, 1450)
    c, _ = vmx_cpu(1, 1010)
    return window(0, b) + window(1, c)


def case_bad_cpu_negative():
    # A window claims CPU -1.
    a, _ = vmx_cpu(0, 1000)
    b, _ = vmx_cpu(1, 1010)
    c, _ = vmx_cpu(2, 1020)
    return window(0, a) + window(-1, c) + window(1, b)


def case_junk_after_windows():
    # Four zero bytes after every window: each gap is garbage (the last
    # one too short even for that), but no window is lost.
    a, _ = vmx_cpu(0, 1000)
    b, _ = vmx_cpu(1, 1010)
    c = rec(VMEXIT64, 2000, [12, 0x3000, 0]) + rec(VMENTRY, 2050)
    junk = bytes(4)
    return window(0, a) + junk + window(1, b) + junk + window(0, c) + junk


def case_vcpu_id_too_big():
    # A runstate change for d1v5000: beyond the vCPU ids the model tracks
    # (each would size its domain's table), so it is counted, not followed.
    a, t = vmx_cpu(0, 1000)
    a += runstate(1, 5000, 1, 0, t)
    b, _ = vmx_cpu(1, 1010)
    return window(0, a) + window(1, b)


def case_high_cpu():
    # A legal but high CPU number (65535): the model must not spend memory
    # or time on the 65534 CPUs below it that never appear.
    a, _ = vmx_cpu(0, 1000)
    b, _ = vmx_cpu(1, 1010)
    return window(0, a) + window(65535, b)


def case_late_cpu():
    # CPU 9's first record comes while d1v0 runs on CPU 0: d1v0's running
    # interval (2000 cycles) must survive the model growing its CPU table.
    a = runstate(1, 0, 1, 0, 1000) + runstate(1, 0, 0, 2, 3000)
    b = runstate(2, 0, 1, 0, 2000)
    return window(0, a) + window(9, b)


def case_unknown_event():
    # A record of class 0x400 (no table) with three extra words.
    a, t = vmx_cpu(0, 1000)
    a += rec(0x04000123, t, [1, 2, 3])
    b, _ = vmx_cpu(1, 1010)
    return window(0, a) + window(1, b)


def case_lost_records():
    # Xen's insert_lost_records(): 5 lost, vcpu 0 of d1, first_tsc.
    a, t = vmx_cpu(0, 1000)
    a += rec(LOST_RECORDS, t + 500, [5, 1, t + 10, 0])
    b, _ = vmx_cpu(1, 1010)
    return window(0, a) + window(1, b)


def case_no_record():
    # Only noise: the magic never appears.
    return bytes((i * 7 + 3) & 0xff for i in range(200)).replace(
        b'\x03\xf0\x01\x20', b'\x00\x00\x00\x00')


CASES = {
    'good': case_good,
    'truncated-record': case_truncated_record,
    'truncated-file': case_truncated_file,
    'truncated-tail': case_truncated_tail,
    'short-record': case_short_record,
    'bad-cpu-negative': case_bad_cpu_negative,
    'bad-window-size': case_bad_window_size,
    'garbage': case_garbage,
    'bad-cpu': case_bad_cpu,
    'tsc-backwards': case_tsc_backwards,
    'unknown-event': case_unknown_event,
    'lost-records': case_lost_records,
    'junk-after-windows': case_junk_after_windows,
    'vcpu-id-too-big': case_vcpu_id_too_big,
    'high-cpu': case_high_cpu,
    'late-cpu': case_late_cpu,
    'no-record': case_no_record,
}


def cmd_case(name, out):
    write(out, CASES[name]())


# ---------------------------------------------------------------- mangle

def cmd_mangle(trace, outdir):
    data = open(trace, 'rb').read()
    ws = windows(data)
    ends = record_ends(data)
    per_window = [len(records(data, w)) for w in ws]
    total = len(ends)
    os.makedirs(outdir, exist_ok=True)
    manifest = []

    def emit(name, blob, min_records=0):
        write(os.path.join(outdir, name), blob)
        manifest.append('%s %d' % (name, min_records))

    def window_at(off):
        for i, (o, _, size) in enumerate(ws):
            if o <= off < o + HDR + size:
                return i
        return len(ws) - 1

    def sparing(positions):
        """90% of the records of the windows no damage touches: damage
        costs at most the rest of its window, then the reader resyncs."""
        hit = set(window_at(p) for p in positions)
        return (total - sum(per_window[i] for i in hit)) * 9 // 10

    # Truncations: round offsets, inside CPU-change headers, inside
    # records, exactly at window boundaries.  Every whole record before
    # the cut must still be found.
    cuts = set(len(data) * k // 8 for k in range(1, 8))
    for i in (1, len(ws) // 2, len(ws) - 1):
        off = ws[i][0]
        cuts.update((off, off + 3, off + 4, off + 8, off + 11, off + HDR))
        rs = records(data, ws[i])
        if rs:
            o, n = rs[len(rs) // 2]
            cuts.update((o + 1, o + 4, o + n - 1))
    cuts.update((1, 4, 11, 12, len(data) - 1))
    for n in sorted(c for c in cuts if 0 < c < len(data)):
        emit('trunc-%d' % n, data[:n], prefix_records(ends, n))

    # Bit flips, and noise overwritten or inserted, with fixed seeds.
    for seed in range(6):
        r = random.Random(seed)
        b = bytearray(data)
        pos = [r.randrange(len(b)) for _ in range(1 + seed * 3)]
        for p in pos:
            b[p] ^= 1 << r.randrange(8)
        emit('flip-%d' % seed, bytes(b), sparing(pos))
    for seed in range(3):
        r = random.Random(100 + seed)
        b = bytearray(data)
        p = r.randrange(len(b) - 600)
        n = r.randrange(1, 512)
        b[p:p + n] = bytes(r.randrange(256) for _ in range(n))
        emit('overwrite-%d' % seed, bytes(b), sparing((p, p + n - 1)))
    for seed in range(3):
        r = random.Random(200 + seed)
        p = r.randrange(len(data))
        noise = bytes(r.randrange(256) for _ in range(r.randrange(1, 300)))
        emit('insert-%d' % seed, data[:p] + noise + data[p:], sparing((p,)))
    # Noise exactly between two windows costs nothing.
    mid = ws[len(ws) // 2][0]
    emit('insert-between', data[:mid] + bytes(range(256)) * 3 + data[mid:],
         total)

    # Junk after every window: each window is still found.
    emit('junk-after-windows', b''.join(
        data[o:o + HDR + s] + bytes(4) for o, _, s in ws), total)

    # Records of unknown classes spliced into windows (their sizes grow).
    b = bytearray()
    for i, (off, cpu, size) in enumerate(ws):
        body = data[off + HDR:off + HDR + size]
        rs = records(data, (off, cpu, size))
        if i % 5 == 2 and rs:
            o = rs[len(rs) // 2][0]
            h = struct.unpack_from('<I', data, o)[0]
            tsc = struct.unpack_from('<Q', data, o + 4)[0] if h >> 31 \
                else None
            extra = rec(0x04000321, tsc, [1, 2]) + rec(0x0fff0001) + \
                rec(0x00f0f00f, None, [7] * 7)
            o -= off + HDR
            body = body[:o] + extra + body[o:]
        b += window(cpu, body)
    emit('unknown-classes', bytes(b), total)

    # Absurd CPU numbers and window sizes in one CPU-change header.
    i = len(ws) // 2
    off, cpu, size = ws[i]
    spare = sparing((off,))
    for c in (-1, -2147483648, 65536, 2 ** 31 - 1, 70000):
        b = bytearray(data)
        struct.pack_into('<i', b, off + 4, c)
        emit('cpu-%d' % c, bytes(b), spare)
    for name, s in (('0', 0), ('odd', size + 1), ('unaligned', size + 2),
                    ('huge', 0xfffffff0), ('big', 1 << 28),
                    ('smaller', max(0, size - 64) & ~3),
                    ('larger', size + 64), ('half', (size // 2) & ~3)):
        b = bytearray(data)
        struct.pack_into('<I', b, off + 8, s)
        emit('size-%s' % name, bytes(b), spare)
    b = bytearray(data)
    struct.pack_into('<I', b, 8, ws[0][2] + 4096)
    emit('size-first-larger', bytes(b), sparing((0,)))
    b = bytearray(data)
    struct.pack_into('<I', b, ws[-1][0] + 8, ws[-1][2] + 4096)
    emit('size-last-larger', bytes(b), total)

    # Garbage at the start, and inputs with nothing readable.
    emit('garbage-start', bytes((i * 13 + 5) & 0xff for i in range(1000))
         .replace(b'\x03\xf0\x01\x20', b'xxxx') + data, total)
    emit('magic-start', struct.pack('<I', CPU_CHANGE_HDR) * 3 + data, total)
    emit('empty', b'')
    emit('zeros', bytes(65536))
    emit('ones', b'\xff' * 4096)
    emit('headers-only', b''.join(window(c, b'') for c in range(4)))
    emit('noise', bytes(random.Random(7).randrange(256)
                        for _ in range(50000)))
    with open(os.path.join(outdir, 'manifest'), 'w') as f:
        f.write('\n'.join(manifest) + '\n')


def main(argv):
    if len(argv) >= 2 and argv[1] == 'windows' and len(argv) == 3:
        data = open(argv[2], 'rb').read()
        for w in windows(data):
            print('%d %d %d' % w)
    elif len(argv) >= 4 and argv[1] == 'seeds':
        cmd_seeds(argv[2], argv[3:])
    elif len(argv) == 3 and argv[1] == 'synth':
        cmd_synth(argv[2])
    elif len(argv) == 4 and argv[1] == 'mangle':
        cmd_mangle(argv[2], argv[3])
    elif len(argv) == 4 and argv[1] == 'case' and argv[2] in CASES:
        cmd_case(argv[2], argv[3])
    else:
        sys.stderr.write(__doc__)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
