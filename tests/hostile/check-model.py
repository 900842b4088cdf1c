#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Issue 11 items 8 and 10 (cycle sums): no silent loss in the model.

- d1v0 writes PV hypercalls, then (its domain id reused) VMX exits, then
  Arm exits, and 5 HVM exits come while the idle vCPU runs on CPU 1:
  before, all dropped with "Anomalies: none", passing --strict; then
  counted as 9 VCPU_TYPE_CHANGE but still dropped.  Now each change of
  kind starts a new incarnation of d1 (DOMAIN_REUSED, 2): the summary has
  d1 three times, the PV one with its 3 hypercalls, the second (HVM) with
  3 HLT exits, the third (Arm) with 3 WFx exits; and 5 GUEST_ON_IDLE,
  --strict exits 2.  A vCPU that has counted nothing of its kind takes
  the new kind (d2v0: an Arm entry, then 4 VMX exits: counted, with one
  VCPU_TYPE_CHANGE).
- Two vCPUs of d1 each in an exit of 2^63 cycles: the domain's
  aggregate exit time was 300 cycles (the 64-bit sum wrapped); then it
  saturated at 2^64 - 1 with no anomaly; now each sum that saturates is
  a SUM_SATURATED anomaly.
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
c.ok(j['anomalies'] == {'DOMAIN_REUSED': 2, 'GUEST_ON_IDLE': 5},
     'domid-reuse: anomalies %s' % j['anomalies'])
d1 = [d for d in j['domains'] if d['id'] == 1]
got = [(d.get('incarnation', 1), d['kind'],
        sum(h['count'] for v in d['vcpus'] for h in v.get('hypercalls', [])),
        [(e['code'], e['count']) for v in d['vcpus']
         for e in v.get('exits', [])]) for d in d1]
c.ok(got == [(1, 'pv', 3, []), (2, 'hvm', 0, [(12, 3)]),
             (3, 'arm', 0, [(1, 3)])], 'domid-reuse: incarnations %s' % got)
t = xarun.run([], p).out.decode()
c.ok('Domain 1 (hvm, incarnation 2: its id reused)' in t and
     ' d1#3v0 ' in t, 'domid-reuse: the text names the incarnations')
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
# Saturated: the aggregate's HLT exits and its running time.
run = d1['all_vcpus']['runstates']['running']
c.ok(run['cycles'] == 2 ** 64 - 1 and run['count'] == 2,
     'sum: aggregate running %s' % run)
c.ok(j['anomalies'] == {'SUM_SATURATED': 2}, 'sum: anomalies %s' %
     j['anomalies'])

for n in os.listdir(tmp):
    os.unlink(os.path.join(tmp, n))
os.rmdir(tmp)
c.done()
