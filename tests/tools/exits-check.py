#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Checks xenalyze --exits rows against a summary.

usage: exits-check.py SUMMARY.json ROWS [--hz=HZ]

SUMMARY.json is xenalyze's JSON summary (--format=json) or the
synthesizer's truth (xentrace-synth -t); ROWS is --exits output, CSV or
JSON Lines (told apart by the first character).  Summed per vCPU and exit
code, the rows must give the summary's count, cycles, min and max exactly;
per breakdown key, each key the summary lists (the model's capped "other"
row takes the keys beyond its bound).  Every row must be well formed: the
columns of docs/exits.md, ns = cycles in ns at the summary's rate (or
--hz), closed_by entry or runnable.  Exit status 1 with the differences.
"""
import csv
import json
import sys

COLUMNS = ["time_ns", "pcpu", "domain", "vcpu", "arch", "reason",
           "reason_name", "key", "key_name", "rip", "cycles", "ns",
           "closed_by", "incarnation"]
INTS = ("time_ns", "pcpu", "domain", "vcpu", "reason", "cycles", "ns",
        "incarnation")


def read_rows(path):
    with open(path, newline="") as f:
        first = f.read(1)
        f.seek(0)
        if first == "{":
            for n, line in enumerate(f, 1):
                r = json.loads(line)
                if list(r) != COLUMNS:
                    sys.exit("%s:%d: keys %r" % (path, n, list(r)))
                yield n, r
            return
        rd = csv.reader(f)
        head = next(rd, None)
        if head != COLUMNS:
            sys.exit("%s: header %r" % (path, head))
        for n, r in enumerate(rd, 2):
            if len(r) != len(COLUMNS):
                sys.exit("%s:%d: %d columns" % (path, n, len(r)))
            r = dict(zip(COLUMNS, r))
            for k in INTS:
                r[k] = int(r[k])
            yield n, r


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    opts = dict(a[2:].split("=", 1) for a in sys.argv[1:] if a.startswith("--"))
    if len(args) != 2:
        sys.exit(__doc__)
    summ = json.load(open(args[0]))
    hz = int(opts.get("hz", 0)) or summ["trace"].get("cpu_hz")
    want, want_sub, capped = {}, {}, {}
    for d in summ["domains"]:
        for v in d["vcpus"]:
            for e in v.get("exits", []):
                k = (d["id"], d.get("incarnation", 1), v["id"], e["code"])
                want[k] = (e["count"], e["cycles"], e["min"], e["max"])
                for s in e.get("sub", []):
                    if s.get("capped"):
                        capped[k] = (s["count"], s["cycles"])
                    else:
                        want_sub[k + (s["key"],)] = (s["count"], s["cycles"])
    got, got_sub, bad = {}, {}, []
    rows = 0
    for n, r in read_rows(args[1]):
        rows += 1
        if type(r["rip"]) is not str or not r["rip"].startswith("0x"):
            bad.append("%d: rip %r" % (n, r["rip"]))
        if r["closed_by"] not in ("entry", "runnable"):
            bad.append("%d: closed_by %r" % (n, r["closed_by"]))
        if r["arch"] not in ("vmx", "svm", "arm"):
            bad.append("%d: arch %r" % (n, r["arch"]))
        if hz and r["ns"] != r["cycles"] * 10**9 // hz:
            bad.append("%d: ns %d for %d cycles at %d Hz"
                       % (n, r["ns"], r["cycles"], hz))
        k = (r["domain"], r["incarnation"], r["vcpu"], r["reason"])
        c, t, lo, hi = got.get(k, (0, 0, None, None))
        cy = r["cycles"]
        got[k] = (c + 1, t + cy, cy if lo is None else min(lo, cy),
                  cy if hi is None else max(hi, cy))
        if r["key"]:
            sk = k + (r["key"],)
            c, t = got_sub.get(sk, (0, 0))
            got_sub[sk] = (c + 1, t + cy)
        if len(bad) > 20:
            break
    # Keys beyond the summary's list go to its capped row.
    folded = {}
    for sk, (c, t) in list(got_sub.items()):
        if sk not in want_sub and sk[:4] in capped:
            fc, ft = folded.get(sk[:4], (0, 0))
            folded[sk[:4]] = (fc + c, ft + t)
            del got_sub[sk]
    for k, v in folded.items():
        got_sub[k + ("other",)] = v
    for k, v in capped.items():
        want_sub[k + ("other",)] = v
    for name, g, w in (("exit", got, want), ("key", got_sub, want_sub)):
        for k in sorted(set(g) | set(w), key=str):
            if g.get(k) != w.get(k):
                bad.append("%s %r: rows %r, summary %r"
                           % (name, k, g.get(k), w.get(k)))
    if bad:
        print("\n".join(bad[:40]))
        sys.exit("%s: rows differ from %s" % (args[1], args[0]))
    print("%d rows: %d vCPU-reason sums and %d key sums agree"
          % (rows, len(want), len(want_sub)))


main()
