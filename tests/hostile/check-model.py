#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Issue 11 items 8 and 10 (cycle sums): no silent loss in the model.

- d1v0 writes PV hypercalls, then (its domain id reused) VMX exits, then
  Arm exits, and 5 HVM exits come while the idle vCPU runs on CPU 1:
  before, all dropped with "Anomalies: none", passing --strict.  Now 9
  VCPU_TYPE_CHANGE (3 VMX exits, 3 Arm exits, 3 Arm entries) and 5
  GUEST_ON_IDLE, --strict exits 2; a vCPU that has counted nothing of its
  kind takes the new kind (d2v0: an Arm entry, then 4 VMX exits: counted,
  with one VCPU_TYPE_CHANGE).
- Two vCPUs of d1 each in an exit of 2^63 cycles: the domain's
  aggregate exit time was 300 cycles (the 64-bit sum wrapped); now it
  saturates at 2^64 - 1.
File and pipe agree."""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
import hostile as H      # noqa: E402
import xarun             # noqa: E402

c = xarun.Checker()
tmp = tempfile.mkdtemp()


def write(name, data):
    p = os.path.join(tmp, name)
    with open(p, 'wb') as f:
        f.write(data)
    return p


p = os.path.join(tmp, 'domid-reuse')
H.write_attack('domid-reuse', 5, p)
f = xarun.run(['--format=json'], p)
s = xarun.run(['--format=json'], p, pipe=True)
c.ok(f.out == s.out, 'domid-reuse: file and pipe differ')
j = f.json()
c.ok(j['anomalies'] == {'VCPU_TYPE_CHANGE': 9, 'GUEST_ON_IDLE': 5},
     'domid-reuse: anomalies %s' % j['anomalies'])
r = xarun.run(['--strict'], p)
c.ok(r.rc == 2, 'domid-reuse --strict: status %d' % r.rc)

# d2v0: an Arm entry (a kind, nothing counted) then VMX exits: counted.
b = H.rs(1000, 2, 0, H.RUNNABLE, H.RUNNING) + \
    H.rec(H.ARM_ENTRY, 1500, 0x1000, 0)
for i in range(4):
    b += H.vmexit(2000 + 100 * i, 12) + H.vmentry(2050 + 100 * i)
j = xarun.run(['--format=json'], write('kind', H.window(0, b))).json()
ex = [e for d in j['domains'] if d['id'] == 2 for v in d['vcpus']
      for e in v['exits']]
c.ok([(e['code'], e['count']) for e in ex] == [(12, 4)],
     'kind: exits %s' % [(e['code'], e['count']) for e in ex])
c.ok(j['anomalies'] == {'VCPU_TYPE_CHANGE': 1}, 'kind: anomalies %s' %
     j['anomalies'])

# Two exits of 2^63 cycles: the domain's sum saturates.
T = 1 << 63
b = b''
for cpu in (0, 1):
    w = H.rs(1000 + cpu, 1, cpu, H.RUNNABLE, H.RUNNING) + \
        H.vmexit(2000 + cpu, 12) + H.vmentry(T + 2000 + cpu)
    for i in range(1, 4):
        w += H.vmexit(T + 2000 + cpu + i * 100, 12) + \
            H.vmentry(T + 2050 + cpu + i * 100)
    b += H.window(cpu, w)
p = write('sum', b)
j = xarun.run(['--format=json'], p).json()
d1 = [d for d in j['domains'] if d['id'] == 1][0]
agg = d1.get('all_vcpus', {}).get('exits', [{}])[0]
c.ok(agg.get('count') == 8 and agg.get('cycles') == 2 ** 64 - 1,
     'sum: aggregate %s' % {k: agg.get(k) for k in ('count', 'cycles')})
per = [v['exits'][0]['cycles'] for v in d1['vcpus']]
c.ok(per == [T + 150] * 2, 'sum: per vCPU %s' % per)

for n in os.listdir(tmp):
    os.unlink(os.path.join(tmp, n))
os.rmdir(tmp)
c.done()
