#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""damage.py IN OUT KIND: writes IN with one kind of damage, for the
timeline's anomaly instants (tests/check/perfetto.sh).
  tsc-flip   bit 40 of the TSC of CPU 2's 5000th TSC record flipped
  tsc-reset  CPU 2's TSC goes back to 100 halfway and goes on from there
  garbage    4 KiB of noise before the 40th window, then a window of a
             CPU number out of range
  truncate   the 30th window's last record cut short (size - 2)"""
import os
import random
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'hostile'))
import hostile as H      # noqa: E402


def main():
    src, dst, kind = sys.argv[1:4]
    data = open(src, 'rb').read()
    if kind == 'tsc-flip':
        out = H.flip_tsc(data, 2, 5000, 40)
    elif kind == 'tsc-reset':
        b = bytearray(data)
        ts = H.tsc_records(data, 2)
        half = ts[len(ts) // 2:]
        base = struct.unpack_from('<Q', b, half[0] + 4)[0] - 100
        for o in half:
            t = struct.unpack_from('<Q', b, o + 4)[0] - base
            struct.pack_into('<Q', b, o + 4, t)
        out = bytes(b)
    elif kind == 'garbage':
        ws = H.windows(data)
        off = ws[40][0]
        r = random.Random(7)
        noise = bytes(r.randrange(256) for _ in range(4096))
        bad = struct.pack('<IiI', H.CPU_CHANGE, 70000, 8) + b'\0' * 8
        out = data[:off] + noise + bad + data[off:]
    elif kind == 'truncate':
        out = H.resize(data, 30, '-2')
    else:
        sys.exit('damage.py: unknown kind %s' % kind)
    open(dst, 'wb').write(out)


if __name__ == '__main__':
    main()
