#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Checks a Perfetto timeline written by `xenalyze --perfetto`.

Reads the text that `protoc --decode=perfetto.protos.Trace` prints for it
and checks, on its own:
  - every track an event names is described, and described once; parents
    and thread pids resolve;
  - on each packet sequence timestamps never go backwards, incremental
    state is cleared before it is needed, and every interned id (event
    names, argument names, argument strings) resolves;
  - slices nest and balance on every track (ends match begins, nothing
    open at the end);
  - every slice with a "cycles" argument is as long as that many ticks at
    the trace's clock rate (up to the rounding of its two ends to ns), from
    its "start_ns" to its "end_ns" when it has them (drawn later);
and, with --summary (xenalyze's JSON summary, or the synthesizer's truth in
the same schema), that the timeline tells the summary's numbers:
  - per vCPU and exit reason: the count of exit slices and the sum of their
    cycles, and the same per breakdown key;
  - per vCPU: the count and cycles of each runstate;
  - per pCPU: running, idle and lost (what --report-pcpu shows).
Prints one line of figures; exits 1 on the first kind of failure found.
"""
import argparse
import json
import re
import sys

LINE = re.compile(r'^\s*(\w+)(?::\s*(.*?))?\s*(\{)?\s*$')
VCPU = re.compile(r'd(\d+)(?:#(\d+))?v(\d+)$')


def unquote(s):
    if not s.startswith('"'):
        return s
    b = s[1:-1].encode('latin-1').decode('unicode_escape')
    return b


def parse(path):
    """Yields each top-level packet as nested dicts of lists."""
    stack = None
    with open(path, encoding='latin-1') as f:
        for line in f:
            line = line.rstrip('\n')
            if line.strip() == '}':
                if len(stack) == 1:
                    yield stack[0]
                    stack = None
                else:
                    stack.pop()
                continue
            m = LINE.match(line)
            if not m:
                raise SystemExit('cannot parse: %r' % line)
            key, val, brace = m.groups()
            if brace:
                node = {}
                if stack is None:
                    if key != 'packet':
                        raise SystemExit('top level: %r' % line)
                    stack = [node]
                else:
                    stack[-1].setdefault(key, []).append(node)
                    stack.append(node)
            else:
                stack[-1].setdefault(key, []).append(unquote(val))


def one(d, key, default=None):
    v = d.get(key)
    return v[0] if v else default


class Fail(Exception):
    pass


def check(path, hz):
    tracks = {}            # uuid -> descriptor
    pids = set()
    threads = []
    seqs = {}              # seq id -> state
    stacks = {}            # track -> [open slices]
    slices = []            # (track, name, begin, end, args)
    instants = counters = flows = 0
    anomalies = {}         # kind -> instants named 'anomaly: KIND'
    referenced = set()
    npackets = 0

    for p in parse(path):
        npackets += 1
        seq = int(one(p, 'trusted_packet_sequence_id', 0))
        if not seq:
            raise Fail('packet %d without a sequence id' % npackets)
        st = seqs.setdefault(seq, {'ts': None, 'valid': False,
                                   'names': {}})
        flags = int(one(p, 'sequence_flags', 0))
        if flags & 1:
            st['valid'] = True
            st['names'] = {'ev': {}, 'an': {}, 'str': {}}
        if flags & 2 and not st['valid']:
            raise Fail('packet %d needs incremental state never cleared'
                       % npackets)
        ts = one(p, 'timestamp')
        if ts is not None:
            ts = int(ts)
            if st['ts'] is not None and ts < st['ts']:
                raise Fail('sequence %d: time goes back from %d to %d'
                           % (seq, st['ts'], ts))
            st['ts'] = ts
        for idata in p.get('interned_data', []):
            for field, ns, key in (('event_names', 'ev', 'name'),
                                   ('debug_annotation_names', 'an', 'name'),
                                   ('debug_annotation_string_values', 'str',
                                    'str')):
                for e in idata.get(field, []):
                    iid = int(one(e, 'iid'))
                    name = one(e, key)
                    old = st['names'][ns].get(iid)
                    if old is not None and old != name:
                        raise Fail('iid %d of %s redefined: %r, %r'
                                   % (iid, ns, old, name))
                    st['names'][ns][iid] = name
        for d in p.get('track_descriptor', []):
            uuid = int(one(d, 'uuid'))
            if uuid in tracks:
                raise Fail('track %d described twice' % uuid)
            tracks[uuid] = d
            for pr in d.get('process', []):
                pids.add(int(one(pr, 'pid')))
            for th in d.get('thread', []):
                threads.append(int(one(th, 'pid')))
        for te in p.get('track_event', []):
            track = int(one(te, 'track_uuid'))
            if track not in tracks:
                raise Fail('packet %d: track %d used before its descriptor'
                           % (npackets, track))
            referenced.add(track)
            names = st['names']

            def resolve(ns, iid):
                if iid not in names[ns]:
                    raise Fail('packet %d: %s iid %d unresolved'
                               % (npackets, ns, iid))
                return names[ns][iid]
            name = one(te, 'name')
            if one(te, 'name_iid') is not None:
                name = resolve('ev', int(one(te, 'name_iid')))
            args = {}
            for a in te.get('debug_annotations', []):
                an = resolve('an', int(one(a, 'name_iid')))
                if one(a, 'string_value_iid') is not None:
                    v = resolve('str', int(one(a, 'string_value_iid')))
                elif one(a, 'bool_value') is not None:
                    v = one(a, 'bool_value') == 'true'
                else:
                    v = int(next(one(a, k) for k in
                                 ('uint_value', 'int_value',
                                  'pointer_value') if k in a))
                args[an] = v
            flows += len(te.get('flow_ids', []))
            typ = one(te, 'type')
            stack = stacks.setdefault(track, [])
            if typ == 'TYPE_SLICE_BEGIN':
                stack.append([name, ts, args])
            elif typ == 'TYPE_SLICE_END':
                if not stack:
                    raise Fail('track %d: end without begin at %d'
                               % (track, ts))
                bname, bts, bargs = stack.pop()
                bargs.update(args)
                slices.append((track, bname, bts, ts, bargs))
            elif typ == 'TYPE_INSTANT':
                instants += 1
                if name.startswith('anomaly: '):
                    k = name[len('anomaly: '):]
                    anomalies[k] = anomalies.get(k, 0) + 1
            elif typ == 'TYPE_COUNTER':
                counters += 1
            else:
                raise Fail('event type %s' % typ)
    for track, stack in stacks.items():
        if stack:
            raise Fail('track %d: %d slices never end' % (track, len(stack)))
    for uuid, d in tracks.items():
        parent = one(d, 'parent_uuid')
        if parent is not None and int(parent) not in tracks:
            raise Fail('track %d: parent %s not described' % (uuid, parent))
    for pid in threads:
        if pid not in pids:
            raise Fail('thread of pid %d without its process' % pid)
    # Lengths: the ends are floor(tick * 1e9 / hz) each, so a slice of c
    # ticks lasts floor(c * 1e9 / hz) or one ns more.
    timed = 0
    if hz:
        for track, name, b, e, args in slices:
            c = args.get('cycles')
            if c is None or args.get('clipped'):
                continue
            # A slice drawn later than it began says where it began.
            b = args.get('start_ns', b)
            e = args.get('end_ns', e)
            lo = c * 10**9 // hz
            if not lo <= e - b <= lo + 1:
                raise Fail('%s on track %d at %d: %d ns for %d cycles'
                           % (name, track, b, e - b, c))
            timed += 1
    return {'packets': npackets, 'tracks': tracks, 'slices': slices,
            'instants': instants, 'counters': counters, 'flows': flows,
            'timed': timed, 'referenced': referenced,
            'anomalies': anomalies}


# Anomalies met where no record follows to place them, or drawn otherwise.
NOT_DRAWN = {'LOST_RECORDS', 'TRUNCATED_TAIL', 'STREAM_LIMIT',
             'DAMAGED_COMPRESSED'}


def check_anomalies(res, summary):
    """Every anomaly the summary counts is an instant on the timeline."""
    want = {k: v for k, v in summary.get('anomalies', {}).items()
            if k not in NOT_DRAWN}
    got = res['anomalies']
    if got != want:
        raise Fail('anomaly instants %s, the summary counts %s'
                   % (got, want))
    return '%d anomaly instants as counted (%s)' % (
        sum(got.values()), ', '.join('%s %d' % kv for kv in
                                    sorted(got.items())) or 'none')


RS_OF = {
    'running': ['running'],
    'runnable (wake)': ['runnable', 'runnable_wake'],
    'runnable (preempt)': ['runnable', 'runnable_preempt'],
    'runnable (other)': ['runnable', 'runnable_other'],
    'blocked': ['blocked'],
    'offline': ['offline'],
    'lost': ['lost'],
}


def add(tab, key, cycles):
    c = tab.setdefault(key, [0, 0])
    c[0] += 1
    c[1] += cycles


def compare(res, summary):
    tracks = res['tracks']
    vcpu_of = {}           # thread or exits track -> (dom, inc, vcpu)
    # Exits are compared by code (the truth has no names), per vCPU.
    pcpu_of = {}
    for uuid, d in tracks.items():
        for th in d.get('thread', []):
            # dDvV, dD#IvV: a reused id's Ith domain (DOMAIN_REUSED).
            m = VCPU.match(one(th, 'thread_name'))
            vcpu_of[uuid] = (int(m.group(1)), int(m.group(2) or 1),
                             int(m.group(3)))
        m = re.match(r'pCPU (\d+)$', one(d, 'name', ''))
        if m:
            pcpu_of[uuid] = int(m.group(1))
    for uuid, d in tracks.items():
        parent = one(d, 'parent_uuid')
        if parent is not None and int(parent) in vcpu_of:
            vcpu_of[uuid] = vcpu_of[int(parent)]

    got_exit, got_sub, got_rs, got_pcpu = {}, {}, {}, {}
    for track, name, b, e, args in res['slices']:
        c = args.get('cycles')
        if c is None:
            continue
        if track in pcpu_of:
            kind = ('idle' if name == 'idle' else
                    'lost' if name == 'lost records' else 'running')
            add(got_pcpu, (pcpu_of[track], kind), c)
        elif track in vcpu_of and name in RS_OF and 'code' not in args:
            for rs in RS_OF[name]:
                add(got_rs, vcpu_of[track] + (rs,), c)
        elif track in vcpu_of:
            add(got_exit, vcpu_of[track] + (args['code'],), c)
            if 'key' in args:
                add(got_sub, vcpu_of[track] + (args['code'], args['key']), c)

    want_exit, want_sub, want_rs, want_pcpu = {}, {}, {}, {}
    for dom in summary.get('domains', []):
        if dom['id'] == 32767:
            continue
        for v in dom.get('vcpus', []):
            key = (dom['id'], dom.get('incarnation', 1), v['id'])
            for x in v.get('exits', []):
                want_exit[key + (x['code'],)] = [x['count'], x['cycles']]
                for s in x.get('sub', []):
                    if s['key'] != 'other':
                        want_sub[key + (x['code'], s['key'])] = \
                            [s['count'], s['cycles']]
            for rs, stv in v.get('runstates', {}).items():
                if stv['count']:
                    want_rs[key + (rs,)] = [stv['count'], stv['cycles']]
    for p in summary.get('pcpus', []):
        for kind in ('running', 'idle', 'lost'):
            stv = p.get(kind)
            if stv and stv['count']:
                want_pcpu[(p['id'], kind)] = [stv['count'], stv['cycles']]
    # Keys beyond the summary's 256 per exit are "other" there.
    for k in list(got_sub):
        if k not in want_sub and any(
                s['key'] == 'other' for d in summary.get('domains', [])
                for v in d.get('vcpus', []) for x in v.get('exits', [])
                for s in x.get('sub', [])):
            del got_sub[k]

    bad = []
    for what, got, want in (('exit', got_exit, want_exit),
                            ('sub-key', got_sub, want_sub),
                            ('runstate', got_rs, want_rs),
                            ('pcpu', got_pcpu, want_pcpu)):
        if what == 'pcpu' and 'pcpus' not in summary:
            continue
        for k in sorted(set(got) | set(want), key=str):
            if got.get(k) != want.get(k):
                bad.append('%s %s: timeline %s, summary %s'
                           % (what, k, got.get(k), want.get(k)))
    if bad:
        raise Fail('\n'.join(bad[:20]))
    n = lambda t: sum(v[0] for v in t.values())
    return ('%d exit slices (%d vCPU-reason pairs, %d keys), '
            '%d runstate slices%s agree with the summary'
            % (n(got_exit), len(got_exit), len(got_sub),
               n({k: v for k, v in got_rs.items() if k[-1] != 'runnable'}),
               ', %d pCPU slices' % n(got_pcpu) if 'pcpus' in summary
               else ' (no pCPU figures to compare)'))


def check_filter(res, window, domains):
    """--from/--to/--domain: nothing outside the window or the domains."""
    lo, hi = window or (0, None)
    n = 0
    for track, name, b, e, args in res['slices']:
        if b < lo or (hi is not None and e > hi):
            raise Fail('%s [%d, %d] outside the window' % (name, b, e))
        n += 1
    for uuid, d in res['tracks'].items():
        for th in d.get('thread', []):
            m = VCPU.match(one(th, 'thread_name'))
            if domains and int(m.group(1)) not in domains:
                raise Fail('thread %s not selected' % one(th, 'thread_name'))
    pcpu = {u for u, d in res['tracks'].items()
            if one(d, 'name', '').startswith('pCPU ')}
    for track, name, b, e, args in res['slices']:
        m = VCPU.match(name)
        if track in pcpu and m and domains and int(m.group(1)) not in domains:
            raise Fail('pCPU slice %s not selected' % name)
    clipped = sum(1 for s in res['slices'] if s[4].get('clipped'))
    return '%d slices inside the window and domains (%d clipped)' % (
        n, clipped)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('decoded', help="protoc --decode's text")
    ap.add_argument('--summary', help='JSON summary or synthesizer truth')
    ap.add_argument('--window', help='FROM_NS,TO_NS: every slice inside')
    ap.add_argument('--domains', help='D,D...: the only domains drawn')
    ap.add_argument('--anomalies', action='store_true',
                    help="anomaly instants equal the summary's counts")
    ap.add_argument('--hz', type=int, default=0,
                    help='clock rate (default: the summary\'s cpu_hz)')
    a = ap.parse_args()
    summary = None
    hz = a.hz
    if a.summary:
        with open(a.summary) as f:
            summary = json.load(f)
        hz = hz or summary.get('trace', {}).get('cpu_hz', 0)
    try:
        res = check(a.decoded, hz)
        line = ('%d packets, %d tracks, %d slices (%d timed exactly), '
                '%d instants, %d flows, %d counter values'
                % (res['packets'], len(res['tracks']), len(res['slices']),
                   res['timed'], res['instants'], res['flows'],
                   res['counters']))
        if summary is not None:
            line += '; ' + compare(res, summary)
        if a.anomalies:
            line += '; ' + check_anomalies(res, summary)
        if a.window or a.domains:
            line += '; ' + check_filter(
                res, a.window and [int(x) for x in a.window.split(',')],
                a.domains and {int(x) for x in a.domains.split(',')})
    except Fail as e:
        print('%s: %s' % (a.decoded, e))
        return 1
    print(line)
    return 0


if __name__ == '__main__':
    sys.exit(main())
