# SPDX-License-Identifier: GPL-2.0-only
"""Checks on JSON summaries (tests/check/window-rule.sh, summary-merge.sh).

sumcheck.py halves RULE WHOLE.json A.json B.json
    the summaries A and B of two adjacent windows add up to WHOLE.  RULE
    begin: every statistic's count, cycles and histogram add, min/max are
    the extremes, percentiles read from the summed histogram equal
    WHOLE's, counters add.  RULE cut: the cycles of every interval
    (runstates, pCPU times, CPU stays) add; counts may not, and exits are
    cut at the edge.
sumcheck.py equal WHOLE.json MERGED.json
    every statistic and counter of domains and pCPUs (all_vcpus and
    exit_totals included) is the same in both, field for field, and in
    the same order.
sumcheck.py clocks MERGED.json A.json B.json
    MERGED (xenalyze merge of A and B, at different clock rates) is in
    ns: counts, and every histogram's count, are A's plus B's; totals, min
    and max are A's and B's each converted to ns (rounded down); each
    percentile is within 1.6% (two buckets) of the one read from A's and
    B's converted histograms.
sumcheck.py hosts MERGED.json HOST=A.json...
    MERGED (--group=host) lists each input's domains under its host, with
    its numbers; "guests" adds every non-idle domain's exits."""
import json
import sys

PCT = (("p5", 5), ("p50", 50), ("p90", 90), ("p95", 95), ("p99", 99), ("p999", 99.9))


def key_of(x):
    for k in ("id", "code", "key", "name", "cpu", "vector"):
        if k in x:
            return "%s=%s" % (k, x[k])
    return "?"


def walk(d, path, out):
    """Flattens a summary into {path: STATS dict or integer}."""
    if isinstance(d, dict):
        if "hist" in d:
            out[path] = d
            return
        for k, v in d.items():
            walk(v, path + "/" + k, out)
    elif isinstance(d, list):
        for x in d:
            walk(x, path + "/" + (key_of(x) if isinstance(x, dict) else "?"), out)
    elif isinstance(d, int) and not isinstance(d, bool):
        out[path] = d


def hist(st):
    h, k, it = {}, 0, iter(st["hist"])
    for d, n in zip(it, it):
        k += d
        h[k] = n
    return h


def bucket_mid(k):
    if k < 64:
        return k
    g, b = divmod(k, 64)
    lo, width = (64 + b) << (g - 1), 1 << (g - 1)
    return lo + width // 2


def pct(h, count, lo, hi, p):
    rank = max(1, min(count, int(p / 100.0 * count + 0.999999999)))
    seen = 0
    for k in sorted(h):
        seen += h[k]
        if seen >= rank:
            return min(max(bucket_mid(k), lo), hi)
    return hi


def flat(path):
    d = json.load(open(path))
    out = {}
    for part in ("domains", "pcpus"):
        walk(d[part], "/" + part, out)
    return out


def halves(rule, w, a, b):
    w, a, b = flat(w), flat(a), flat(b)
    bad = []
    nst = 0
    for k in sorted(set(w) | set(a) | set(b)):
        x, y, z = w.get(k), a.get(k), b.get(k)
        if k.endswith("/id") or k.endswith("/cpu") or k.endswith("/vector") or k.endswith("/code"):
            continue
        if isinstance(x, dict) or isinstance(y, dict) or isinstance(z, dict):
            nst += 1
            e = {"count": 0, "cycles": 0, "hist": []}
            x, y, z = x or e, y or e, z or e
            if rule == "cut" and not ("/runstates/" in k or k.startswith("/pcpus/")
                                      or "/cpu_affinity/" in k):
                continue            # exits and wake-to-halt times: cut at T
            if x["cycles"] != y["cycles"] + z["cycles"]:
                bad.append("%s: cycles %d != %d + %d" % (k, x["cycles"], y["cycles"], z["cycles"]))
            if rule == "cut":
                continue
            if x["count"] != y["count"] + z["count"]:
                bad.append("%s: count %d != %d + %d" % (k, x["count"], y["count"], z["count"]))
                continue
            hx, hy, hz = hist(x), hist(y), hist(z)
            hs = {q: hy.get(q, 0) + hz.get(q, 0) for q in set(hy) | set(hz)}
            if hx != hs:
                bad.append("%s: histograms do not add" % k)
                continue
            if not x["count"]:
                continue
            lo = min(s["min"] for s in (y, z) if s["count"])
            hi = max(s["max"] for s in (y, z) if s["count"])
            if (x["min"], x["max"]) != (lo, hi):
                bad.append("%s: min/max %r != %r" % (k, (x["min"], x["max"]), (lo, hi)))
            for name, p in PCT:
                v = pct(hs, x["count"], lo, hi, p)
                if v != x[name]:
                    bad.append("%s: %s from the summed histogram %d, whole %d" % (k, name, v, x[name]))
        elif rule == "begin" and not k.endswith("/mean"):
            x, y, z = x or 0, y or 0, z or 0
            if x != y + z:
                bad.append("%s: %d != %d + %d" % (k, x, y, z))
    for m in bad[:10]:
        print(m)
    if bad:
        sys.exit("%d differences" % len(bad))
    if nst < 5:
        sys.exit("only %d statistics" % nst)



def ordered(path, part):
    """(path, value) of every statistic and counter, in the file's order."""
    out = {}
    walk(json.load(open(path))[part], "/" + part, out)
    return list(out.items())


def equal(w, m):
    bad = 0
    for part in ("pcpus", "domains"):
        a, b = ordered(w, part), ordered(m, part)
        if a != b:
            da, db = dict(a), dict(b)
            for k in sorted(set(da) | set(db)):
                if da.get(k) != db.get(k):
                    bad += 1
                    if bad <= 10:
                        print("%s: whole %s, merged %s" % (k, str(da.get(k))[:200], str(db.get(k))[:200]))
            if not bad:
                bad += 1
                print("%s: the same entries in another order" % part)
    if bad:
        sys.exit("the merged summary differs from the whole")


def to_ns(v, hz):
    return v * 10**9 // hz


def conv_hist(h, hz):
    out = {}
    for k, n in h.items():
        mid = bucket_mid(k)
        q = bucket_of(to_ns(mid, hz))
        out[q] = out.get(q, 0) + n
    return out


def bucket_of(v):
    if v < 64:
        return v
    e = v.bit_length() - 1
    return (e - 5) * 64 + ((v >> (e - 6)) & 63)


def clocks(m, a, b):
    md = json.load(open(m))
    hz = [json.load(open(x))["trace"]["cpu_hz"] for x in (a, b)]
    if md["merged"]["unit"] != "ns" or md["trace"]["cpu_hz"] != 10**9:
        sys.exit("not in ns: %r" % md["merged"])
    fm = {}
    for part in ("pcpus", "domains"):
        walk(md[part], "/" + part, fm)
    fa, fb = flat(a), flat(b)
    bad, worst, n = [], 0.0, 0
    for k, x in fm.items():
        if not isinstance(x, dict) or "/all_vcpus/" in k or k.endswith("exit_totals"):
            continue
        ins = [(s, h) for s, h in ((fa.get(k), hz[0]), (fb.get(k), hz[1])) if s and s["count"]]
        cnt = sum(s["count"] for s, _ in ins)
        cyc = sum(to_ns(s["cycles"], h) for s, h in ins)
        if (x["count"], x["cycles"]) != (cnt, cyc):
            bad.append("%s: count/ns %r, want %r" % (k, (x["count"], x["cycles"]), (cnt, cyc)))
            continue
        if not cnt:
            continue
        lo = min(to_ns(s["min"], h) for s, h in ins)
        hi = max(to_ns(s["max"], h) for s, h in ins)
        if (x["min"], x["max"]) != (lo, hi):
            bad.append("%s: min/max %r, want %r" % (k, (x["min"], x["max"]), (lo, hi)))
        hs = {}
        for s, h in ins:
            for q, c in conv_hist(hist(s), h).items():
                hs[q] = hs.get(q, 0) + c
        if hist(x) != hs:
            bad.append("%s: histogram differs from the inputs' converted" % k)
        # Percentiles: within two buckets' error of the true sample's,
        # here the inputs' own percentile values converted (each within
        # one bucket of its sample).
        for name, p in PCT:
            want = pct(hs, cnt, lo, hi, p)
            err = abs(x[name] - want) / max(want, 1)
            worst = max(worst, err)
            if err > 0.016:
                bad.append("%s: %s %d, want %d" % (k, name, x[name], want))
        n += 1
    for msg in bad[:10]:
        print(msg)
    if bad:
        sys.exit("%d differences" % len(bad))
    print("%d statistics in ns: counts, totals, extremes, histograms as converted; "
          "percentiles within %.3f%%" % (n, worst * 100))


def hosts(m, pairs):
    md = json.load(open(m))
    got = {}
    for d in md["domains"]:
        got[(d.get("host"), d["id"])] = d
    guests = {}
    for hostname, path in (p.split("=", 1) for p in pairs):
        for d in json.load(open(path))["domains"]:
            g = got.get((hostname, d["id"]))
            if g is None:
                sys.exit("domain %d of %s missing" % (d["id"], hostname))
            fa, fg = {}, {}
            walk(d["vcpus"], "", fa)
            walk(g["vcpus"], "", fg)
            for k, x in fa.items():
                if isinstance(x, dict) and (fg[k]["count"], fg[k]["cycles"]) != (x["count"], x["cycles"]):
                    sys.exit("%s d%d %s differs" % (hostname, d["id"], k))
            if d["id"] < 32767 and "all_vcpus" in d:
                for e in d["all_vcpus"]["exits"]:
                    c = guests.setdefault(e["code"], [0, 0])
                    c[0] += e["count"]
                    c[1] += e["cycles"]
    have = {e["code"]: [e["count"], e["cycles"]] for e in md.get("guests", {}).get("exits", [])}
    if have != guests:
        sys.exit("guests: %r, want %r" % (have, guests))
    print("%d domains under their hosts; guests: %d exit reasons" % (len(got), len(have)))


def pct_check(m, w):
    """MERGED of W twice (at rates 1 Hz apart): percentiles within 1.6%
    of W's own, converted to ns."""
    md, wd = json.load(open(m)), json.load(open(w))
    hz = wd["trace"]["cpu_hz"]
    fm, fw = {}, {}
    for part in ("pcpus", "domains"):
        walk(md[part], "/" + part, fm)
        walk(wd[part], "/" + part, fw)
    worst, n = 0.0, 0
    for k, x in fw.items():
        if not isinstance(x, dict) or not x["count"]:
            continue
        y = fm[k]
        if y["count"] != 2 * x["count"]:
            sys.exit("%s: count %d, want %d" % (k, y["count"], 2 * x["count"]))
        for name, _ in PCT:
            want = to_ns(x[name], hz)
            err = abs(y[name] - want) / max(want, 1)
            if err > 0.016 and abs(y[name] - want) > 1:
                sys.exit("%s: %s %d ns, the trace's %d ns" % (k, name, y[name], want))
            worst = max(worst, err)
        n += 1
    print("%d statistics: merged percentiles within %.3f%% of the trace's" % (n, worst * 100))


cmd = sys.argv[1]
if cmd == "halves":
    halves(*sys.argv[2:6])
elif cmd == "equal":
    equal(*sys.argv[2:4])
elif cmd == "clocks":
    clocks(*sys.argv[2:5])
elif cmd == "pct":
    pct_check(*sys.argv[2:4])
elif cmd == "hosts":
    hosts(sys.argv[2], sys.argv[3:])
else:
    sys.exit(__doc__)
