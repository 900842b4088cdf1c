# SPDX-License-Identifier: GPL-2.0-only
# --slowest: the exits listed are the longest (the first is the longest of
# the JSON summary, cycle for cycle; per reason, each reason's longest),
# each opens with its exit record on its pCPU and ends with the record
# that closed it (a file is read twice for exits longer than the rings);
# a pipe lists the same exits.
. tests/check/lib.sh
need_shared
need_python
set -e
V=$T/x86-vmx-credit2-8cpu.xentrace
$XA --cpu-hz=2.4G --format=json "$V" > "$TMP/s.json"
$XA --cpu-hz=2.4G --slowest=5 "$V" > "$TMP/file.txt"
cat "$V" | $XA --cpu-hz=2.4G --slowest=5 - > "$TMP/pipe.txt"
# A pipe has only the rings: the same exits, fewer records for the longest.
grep "^#" "$TMP/file.txt" > "$TMP/f.h"
grep "^#" "$TMP/pipe.txt" | cmp - "$TMP/f.h"
! grep -q "no longer in the ring" "$TMP/file.txt"
$XA --cpu-hz=2.4G --slowest=2 --slowest-per-reason "$V" > "$TMP/per.txt"
python3 - "$TMP" <<'PY'
import json, re, sys
t = sys.argv[1]
d = json.load(open(t + "/s.json"))
maxima = sorted((e["max"], e["reason"]) for dm in d["domains"] for v in dm["vcpus"] for e in v["exits"])
def entries(path):
    out, cur = [], None
    for line in open(path):
        m = re.match(r"^#\d+ d(\d+)v(\d+) p(\d+) (\S+) \[0x([0-9a-f]+)\].*\((\d+) cycles\)", line)
        if m:
            cur = {"dom": int(m.group(1)), "pcpu": m.group(3), "reason": m.group(4),
                   "cycles": int(m.group(6)), "lines": []}
            out.append(cur)
        elif cur is not None and line.startswith("  "):
            cur["lines"].append(line.split())
    return out
es = entries(t + "/file.txt")
if len(es) != 5:
    sys.exit("%d entries" % len(es))
if es[0]["cycles"] != maxima[-1][0] or es[0]["reason"] != maxima[-1][1]:
    sys.exit("first %r, longest exit of the summary %r" % ((es[0]["cycles"], es[0]["reason"]), maxima[-1]))
if [e["cycles"] for e in es] != sorted((e["cycles"] for e in es), reverse=True):
    sys.exit("not longest first")
for e in es:
    first, last = e["lines"][0], e["lines"][-1]
    if first[1] != "p" + e["pcpu"] or first[3] != "vmexit":
        sys.exit("first record %r" % first)
    if last[3] != "vmentry" and not (last[3] == "runstate_change" and last[5].endswith("->runnable")):
        sys.exit("last record %r" % last)
per = entries(t + "/per.txt")
by = {}
for e in per:
    by.setdefault(e["reason"], []).append(e["cycles"])
want = {}
for mx, r in maxima:
    want[r] = max(want.get(r, 0), mx)
for r, cs in by.items():
    if len(cs) > 2 or max(cs) != want[r]:
        sys.exit("%s: %r, longest %d" % (r, cs, want[r]))
if set(by) != set(want):
    sys.exit("reasons %r vs %r" % (sorted(by), sorted(want)))
print("%d slowest exits, %d reasons: the longest, framed by their records" % (len(es), len(by)))
PY
# Damaged input (a 1 MiB slice of the VMX trace with 1,972 bytes of
# garbage inserted, the long hostile corpus's x86-vmx-credit2-8cpu-m08-40):
# records with absurd TSCs close exits, and records fed after a close carry
# TSCs inside its interval.  The file's second read must take each exit's
# records by their place among the records fed, as the pipe's rings do:
# run-corpus.py's rule for --slowest from a file and a pipe holds.
python3 - "$V" "$TMP/damaged" <<'PY'
import base64, sys
sys.path.insert(0, "tests/hostile")
import hostile
small = hostile.slice_windows(open(sys.argv[1], "rb").read(), 1 << 20)
g = base64.b64decode(open("tests/hostile/slowest-garbage.b64").read())
open(sys.argv[2], "wb").write(small[:342026] + g + small[342026:])
PY
python3 - "$TMP/damaged" <<'PY'
import importlib.util, sys
spec = importlib.util.spec_from_file_location("rc", "tests/hostile/run-corpus.py")
rc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rc)
bad, survived = rc.one(sys.argv[1], "y")
if bad or survived != 2:
    sys.exit("damaged slice, --slowest: %r" % bad)
PY
