#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Issue 11 items 4, 5 and 10 (PV v1): the model's tables are hashed and
capped, never searched linearly, and their indexes cannot wrap.

- 70,000 distinct exit codes on one vCPU, then 1,000 HLT exits: before,
  the exit table's 16-bit index wrapped after 65,535 codes and 999 of
  the 1,000 HLT exits went to another code, no anomaly (and the search
  was linear: 100k codes took 4.9 s).  Now codes from 0x500 up (no
  architecture has them) are hashed, 256 distinct ones per vCPU, the
  rest one 'other codes' row (code 0xfffffffe) counted as LIMIT_KEYS:
  HLT has its 1,000, other 69,744.
- 5,000 distinct PV hypercalls, 5,000 distinct PV event ids: 1,024 keys
  per vCPU, the rest under 'other (capped)' (before: every key, a
  linear search per record: 200k hypercalls took 5.4 s).
- 4,096 blocked vCPUs and 20 lost-records records: each record visited
  every vCPU and put the lost ones in the lost state again (8,000 with
  32,768 vCPUs: 12 s; each vCPU's lost time cut in 19 intervals of 20
  cycles).  Now the records visit the vCPUs that may be lost, and a lost
  vCPU stays lost: one interval, closed when it runs again.
- 2,000 PV v1 hypercall records with one extra word (the op needs two):
  before, the op came from stale words (1,001 bogus hypercall numbers).
  Now none counted, 2,000 SHORT_RECORD.
File and pipe give the same output."""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
import hostile as H      # noqa: E402
import xarun             # noqa: E402

c = xarun.Checker()
tmp = tempfile.mkdtemp()


def both(name, n):
    """The JSON summary of attack name at size n, file and pipe equal."""
    p = os.path.join(tmp, name)
    H.write_attack(name, n, p)
    f = xarun.run(['--format=json'], p, timeout=120)
    s = xarun.run(['--format=json'], p, pipe=True, timeout=120)
    c.ok(f.rc == 0 and s.rc == 0, '%s: status %d/%d' % (name, f.rc, s.rc))
    c.ok(f.out == s.out, '%s: file and pipe differ' % name)
    os.unlink(p)
    return f.json()


def vcpu(j, d, v):
    for dom in j['domains']:
        if dom['id'] == d:
            for x in dom['vcpus']:
                if x['id'] == v:
                    return x
    return {}


j = both('exit-codes', 70000)
ex = {e['code']: e for e in vcpu(j, 1, 0).get('exits', [])}
c.ok(ex.get(12, {}).get('count') == 1000, 'exit-codes: HLT %s' %
     ex.get(12, {}).get('count'))
c.ok(ex.get(0xfffffffe, {}).get('count') == 70000 - 256,
     'exit-codes: other %s' % ex.get(0xfffffffe, {}).get('count'))
c.ok(len(ex) == 256 + 2, 'exit-codes: %d rows' % len(ex))
c.ok((j['anomalies'] or {}).get('LIMIT_KEYS') == 70000 - 256,
     'exit-codes: anomalies %s' % j['anomalies'])

for name, key in (('pv-hypercalls', 'hypercalls'), ('pv-events',
                                                    'pv_events')):
    j = both(name, 5000)
    rows = vcpu(j, 1, 0).get(key, [])
    other = [r for r in rows if r['name'] == 'other (capped)']
    total = sum(r['count'] for r in rows)
    c.ok(len(rows) == 1025 and total == 5000 and other and
         other[0]['count'] == 5000 - 1024,
         '%s: %d rows, total %d, other %s' % (name, len(rows), total, other))
    c.ok((j['anomalies'] or {}).get('LIMIT_KEYS') == 5000 - 1024,
         '%s: anomalies %s' % (name, j['anomalies']))

j = both('lost-plot', 20)
lost = [vcpu(j, 1, v)['runstates'].get('lost') for v in range(4096)]
c.ok(all(x is None for x in lost), 'lost-plot: lost intervals %s' %
     [x for x in lost if x][:2])
c.ok(j['anomalies'] == {'LOST_RECORDS': 20}, 'lost-plot: %s' %
     j['anomalies'])

j = both('pv-v1-short', 2000)
c.ok(not vcpu(j, 1, 0).get('hypercalls'), 'pv-v1-short: hypercalls %s' %
     vcpu(j, 1, 0).get('hypercalls', [])[:3])
c.ok(j['anomalies'] == {'SHORT_RECORD': 2000}, 'pv-v1-short: %s' %
     j['anomalies'])

os.rmdir(tmp)
c.done()
