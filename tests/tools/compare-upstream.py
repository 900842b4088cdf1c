#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Compare our JSON summary with upstream xenalyze's text summary.

For every domain, vCPU and exit reason upstream lists: the count must be
equal and the mean cycles within TOL (1%).  The same for vCPU and domain
runstates.  Prints every mismatch; exit status 1 if any.

usage: compare-upstream.py UPSTREAM.txt OURS.json [--tol 0.01]
       [--allow-domain-rs] (domain runstates are reported, not failed)
"""
import json
import re
import sys

DOM_RS = {"blocked": "blocked", "partial run": "partial_run",
          "full run": "full_run", "partial contention": "partial_contention",
          "concurrency_hazard": "concurrency_hazard",
          "full_contention": "full_contention", "lost": "lost"}
VCPU_RS = {"running": "running", "runnable": "runnable",
           "wake": "runnable_wake", "preempt": "runnable_preempt",
           "other": "runnable_other", "blocked": "blocked",
           "offline": "offline", "lost": "lost"}


def norm(name):
    """Exit names are Xen's, as upstream prints them: compared as they are."""
    return name


def parse_pcpus(path):
    """Upstream's --report-pcpu section: "pcpu N" then running/idle lines."""
    pcpus = {}
    cur = None
    for line in open(path):
        m = re.match(r"^pcpu (\d+)$", line.rstrip())
        if m:
            cur = pcpus.setdefault(int(m.group(1)), {})
            continue
        m = re.match(r"^\s+(running|idle|lost):\s+(\d+)\s+[\d.]+s\s+(\d+)", line)
        if m and cur is not None:
            cur[m.group(1)] = (int(m.group(2)), int(m.group(3)))
    return pcpus


def parse_upstream(path):
    doms = {}
    dom = vcpu = None
    section = None
    for line in open(path):
        line = line.rstrip("\n")
        m = re.match(r"\|-- Domain (\d+) --\|", line)
        if m:
            dom = doms.setdefault(int(m.group(1)), {"rs": {}, "vcpus": {}})
            vcpu = None
            section = None
            continue
        m = re.match(r"-- v(\d+) --", line)
        if m and dom is not None:
            vcpu = dom["vcpus"].setdefault(int(m.group(1)),
                                           {"rs": {}, "exits": {}, "irqs": {}})
            section = None
            continue
        if line.startswith(" Runstates:"):
            section = "rs"
            continue
        if line.startswith("Exit reasons:"):
            section = "exits"
            continue
        if line.startswith("Guest interrupt counts:"):
            section = "irqs"
            continue
        m = re.match(r"^ cpu affinity:\s+(\d+)\s+(\d+)", line)
        if m and vcpu is not None:
            vcpu["affinity"] = (int(m.group(1)), int(m.group(2)))
            section = None
            continue
        if re.match(r"^\S", line) or line.startswith(" cpu affinity") or \
           line.startswith(" Grant") or line.startswith(" Populate"):
            section = None
            continue
        if section == "rs":
            m = re.match(r"\s+([a-z_ ]+?):\s+(\d+)\s+[\d.]+s\s+(\d+)", line)
            if not m:
                continue
            name, count, mean = m.group(1).strip(), int(m.group(2)), int(m.group(3))
            if vcpu is None:
                dom["rs"][DOM_RS.get(name, name)] = (count, mean)
            else:
                vcpu["rs"][VCPU_RS.get(name, name)] = (count, mean)
        elif section == "irqs" and vcpu is not None:
            m = re.match(r"^  \[\s*(\d+)\] (\d+)", line)
            if m:
                vec = int(m.group(1))
                vcpu["irqs"][vec] = int(m.group(2))
                continue
            m = re.match(r"^\s+\* (wake to halt alone|wake to halt any|"
                         r"intr to halt)\s*:\s+(\d+)\s+[\d.]+s\s+(\d+)", line)
            if m:
                k = m.group(1).replace(" ", "_")
                vcpu.setdefault("w2h", {})[(vec, k)] = (int(m.group(2)),
                                                        int(m.group(3)))
        elif section == "exits" and vcpu is not None:
            m = re.match(r"^ (\S+)\s+(\d+)\s+[\d.]+s\s+[\d.]+%\s+(\d+) cyc", line)
            if m:
                vcpu["exits"][m.group(1)] = (int(m.group(2)), int(m.group(3)))
    return doms


def main():
    args = sys.argv[1:]
    tol = 0.01
    allow_dom = False
    if "--tol" in args:
        i = args.index("--tol")
        tol = float(args[i + 1])
        del args[i:i + 2]
    if "--allow-domain-rs" in args:
        allow_dom = True
        args.remove("--allow-domain-rs")
    up = parse_upstream(args[0])
    ours = json.load(open(args[1]))
    od = {d["id"]: d for d in ours["domains"]}
    bad = 0
    checked = 0
    soft = 0

    def cmp(where, u, o, hard=True):
        nonlocal bad, checked, soft
        checked += 1
        if o is None:
            print(f"MISSING {where}: upstream {u}")
            if hard:
                bad += 1
            else:
                soft += 1
            return
        ucount, umean = u
        ocount, omean = o["count"], o["mean"]
        ok = ucount == ocount and (abs(omean - umean) <= tol * max(umean, 1))
        if not ok:
            print(f"DIFF {where}: upstream count {ucount} mean {umean}; "
                  f"ours count {ocount} mean {omean}")
            if hard:
                bad += 1
            else:
                soft += 1

    for did, d in up.items():
        o = od.get(did)
        if o is None:
            print(f"MISSING domain {did}")
            bad += 1
            continue
        for rs, val in d["rs"].items():
            cmp(f"d{did} {rs}", val, o["runstates"].get(rs), not allow_dom)
        ov = {v["id"]: v for v in o["vcpus"]}
        for vid, v in d["vcpus"].items():
            if vid not in ov:
                print(f"MISSING d{did}v{vid}")
                bad += 1
                continue
            for rs, val in v["rs"].items():
                cmp(f"d{did}v{vid} {rs}", val, ov[vid]["runstates"].get(rs))
            if "affinity" in v:
                cmp(f"d{did}v{vid} cpu affinity (all stays)", v["affinity"],
                    ov[vid].get("cpu_affinity", {}).get("all"))
            oi = {int(x["name"], 16): x["count"]
                  for x in ov[vid].get("guest_interrupts", [])}
            ow = {int(x["name"], 16): x
                  for x in ov[vid].get("guest_interrupts", [])}
            for (vec, k), val in v.get("w2h", {}).items():
                cmp(f"d{did}v{vid} vector {vec} {k}", val,
                    ow.get(vec, {}).get(k))
            for vec, count in v["irqs"].items():
                checked += 1
                if oi.get(vec) != count:
                    print(f"DIFF d{did}v{vid} guest interrupt {vec}: "
                          f"upstream {count}, ours {oi.get(vec)}")
                    bad += 1
            oe = {norm(e["reason"]): e for e in ov[vid]["exits"]}
            for name, val in v["exits"].items():
                cmp(f"d{did}v{vid} exit {name}", val, oe.get(norm(name)))
    op = {p["id"]: p for p in ours.get("pcpus", [])}
    for cpu, vals in parse_pcpus(args[0]).items():
        for what, val in vals.items():
            cmp(f"pcpu {cpu} {what}", val, op.get(cpu, {}).get(what))
    print(f"{checked} compared, {bad} mismatches" +
          (f", {soft} domain-runstate differences" if soft else ""))
    return 1 if bad else 0


sys.exit(main())
