#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Guest EIP lists (--with-interrupt-eip-enumeration) in the JSON and CSV
# summaries equal the text's, on the real VMX trace (vector 0xfa, which
# the compat test compares with upstream's): per domain every address and
# count, the total; per vCPU the lists add up to the domain's.
set -u
. tests/check/lib.sh
need_shared
need_python
VMX=$T/x86-vmx-credit2-8cpu.xentrace
o=--with-interrupt-eip-enumeration=0xfa
"$XA" $o "$VMX" > "$TMP/t" 2> /dev/null &&
"$XA" $o --format=json "$VMX" > "$TMP/j" 2> /dev/null &&
"$XA" $o --format=csv "$VMX" > "$TMP/c" 2> /dev/null || exit 1
python3 - "$TMP/t" "$TMP/j" "$TMP/c" <<'PY'
import collections, csv, json, re, sys
text, js, cs = sys.argv[1:4]
# text: "|-- Domain N ..." then "Interrupt eip list (vector 250)",
# "   Total samples: N", "   <12 hex><symbol>: count pct%"
t, dom, total = {}, None, {}
for line in open(text):
    m = re.match(r"^\|-- Domain (\d+)", line)
    if m:
        dom = int(m.group(1))
        continue
    m = re.match(r"^   Total samples: (\d+)$", line)
    if m:
        total[dom] = int(m.group(1))
        continue
    m = re.match(r"^   +([0-9a-f]+)\s*: +(\d+) +[0-9.]+%$", line)
    if m:
        t.setdefault(dom, {})[int(m.group(1), 16)] = int(m.group(2))
j = json.load(open(js))
bad = 0
n = 0
for d in j["domains"]:
    e = d.get("interrupt_eips")
    if e is None or e["vector"] != 250:
        print("domain %d: no interrupt_eips of vector 250" % d["id"]); bad += 1
        continue
    got = {int(x["eip"], 16): x["count"] for x in e["eips"]}
    if got != t.get(d["id"], {}) or e["total"] != total.get(d["id"], 0):
        print("domain %d: JSON list differs from the text's" % d["id"]); bad += 1
    sums = collections.Counter()
    for v in d["vcpus"]:
        for x in v["interrupt_eips"]["eips"]:
            sums[int(x["eip"], 16)] += x["count"]
    if dict(sums) != got:
        print("domain %d: vCPU lists do not add up" % d["id"]); bad += 1
    n += len(got)
c = {}
for r in csv.DictReader(open(cs)):
    if r["table"] == "interrupt_eip" and r["vcpu"] == "all":
        assert r["code"] == "250"
        c.setdefault(int(r["domain"]), {})[int(r["key"], 16)] = int(r["count"])
if c != {k: v for k, v in t.items() if v}:
    print("CSV lists differ from the text's"); bad += 1
if n < 100:
    print("only %d addresses" % n); bad += 1
if bad:
    sys.exit(1)
print("%d addresses in %d domains: JSON and CSV equal the text" % (n, len(t)))
PY
