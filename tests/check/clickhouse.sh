#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# ClickHouse (tools/clickhouse/): installs nothing; skipped (77) without
# clickhouse-server and clickhouse-client.  Starts one server and a
# two-shard pair on loopback ports (server.sh run: stopped whatever
# happens), loads the real traces of $SHARED/traces and tests/fixtures
# with load.sh, and checks:
#  - per trace, vCPU and exit reason: the count and exact cycle total from
#    SQL equal the JSON summary's; the traces table has each trace's
#    records, clock and anomalies as the summary says;
#  - runstate intervals per vCPU and state: count and cycles equal the
#    summary's (when xenalyze writes --runstates);
#  - loading a trace again does not double it; a load that fails half-way
#    leaves the trace as it was and no staging table behind;
#  - a damaged trace loads what was read, its anomalies in traces;
#  - every query of tools/clickhouse/queries.sql gives the same answer on
#    the single server and on the shards (Distributed tables), and both
#    shards hold traces.
. tests/check/lib.sh
need_python
for p in clickhouse-client clickhouse-server; do
    command -v $p >/dev/null 2>&1 || [ -x /usr/sbin/$p ] ||
        { echo "no $p (apt-get install clickhouse-server clickhouse-client)"; exit 77; }
done
"$XA" --help 2>&1 | grep -q -- '--exits' || { echo "xenalyze has no --exits"; exit 77; }
XA=$(cd "$(dirname "$XA")" && pwd)/$(basename "$XA")
export XA TMP SHARED
exec sh tools/clickhouse/server.sh run --shards python3 - <<'PY'
import hashlib, json, os, subprocess, sys
XA, TMP, SHARED = os.environ["XA"], os.environ["TMP"], os.environ["SHARED"]
port = os.environ["CH_PORT"]
shards = os.environ["CH_SHARDS"].split(",")
env = dict(os.environ, XENALYZE=XA)

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def ch(p, sql, multi=False):
    r = subprocess.run(["clickhouse-client", "--port", p] + (["--multiquery"] if multi else []) +
                       ([] if multi else ["-q", sql]), input=sql if multi else None,
                       capture_output=True, text=True)
    if r.returncode:
        fail("clickhouse-client --port %s: %s\n%s" % (p, sql[:200], r.stderr[:600]))
    return r.stdout

def rows(p, sql):
    return [l.split("\t") for l in ch(p, sql).splitlines()]

def load(args, ok=True, extra_env=None):
    r = subprocess.run(["sh", "tools/clickhouse/load.sh"] + args, capture_output=True,
                       text=True, env=dict(env, **(extra_env or {})))
    if (r.returncode == 0) != ok:
        fail("load.sh %s: status %d\n%s%s" % (" ".join(args), r.returncode, r.stdout, r.stderr))
    return r.stdout + r.stderr

schema = open("tools/clickhouse/schema.sql").read()
ch(port, schema, True)
for s in shards:
    ch(s, schema, True)
    ch(s, open("tools/clickhouse/schema-sharded.sql").read(), True)

# The traces, by host and clock rate (as ../shared/traces/README.md says).
T = SHARED + "/traces/"
groups = []
if os.path.isdir(T):
    groups += [("shared", "2300M", [T + "x86-qemu-svm-pvh.xentrace", T + "x86-qemu-pv-dom0.xentrace"]),
               ("shared", "62.5M", [T + "arm64-qemu-credit2-2dom.xentrace"]),
               ("shared", None, [T + "x86-vmx-credit2-8cpu.xentrace"])]
else:
    print("no %s: the fixtures only" % T)
def fixtures(d):
    return sorted("tests/fixtures/%s/%s" % (d, f) for f in os.listdir("tests/fixtures/" + d)
                  if f.endswith(".xentrace"))
fx = fixtures("arm64") + fixtures("x86")
groups += [("fixtures", None, fixtures("arm64")), ("fixtures", "2100M", fixtures("x86"))]
# A damaged copy of a real trace: bytes overwritten at three places.
bad = TMP + "/damaged.xentrace"
data = bytearray(open(fx[-1], "rb").read())
for off in (len(data) // 4, len(data) // 2, 3 * len(data) // 4):
    data[off:off + 64] = bytes((i * 37 + 11) & 0xff for i in range(64))
open(bad, "wb").write(bytes(data))
groups.append(("damaged", None, [bad]))

def trace_id(f):
    return hashlib.sha256(open(f, "rb").read()).hexdigest()[:16]

summaries = {}
for host, hz, files in groups:
    opt = ["--cpu-hz=" + hz] if hz else []
    load(["--port=" + port, "--host=" + host] + opt + files)
    load(["--shards=" + ",".join(shards), "--host=" + host] + opt + files)
    for f in files:
        js = subprocess.run([XA, "--format=json"] + opt + [f], capture_output=True, text=True)
        summaries[trace_id(f)] = (f, json.loads(js.stdout))

nrs = int(rows(port, "SELECT count() FROM xenalyze.runstates")[0][0])
has_rs = nrs > 0

def check_server(p, ex, rs, tr):
    got = {}
    for t, d, v, r, n, c in rows(p, "SELECT trace_id, domain, vcpu, reason, count(), sum(cycles) "
                                 "FROM xenalyze.%s GROUP BY trace_id, domain, vcpu, reason" % ex):
        got[(t, int(d), int(v), int(r))] = (int(n), int(c))
    want = {}
    for t, (f, s) in summaries.items():
        for dm in s["domains"]:
            for vc in dm["vcpus"]:
                for e in vc["exits"]:
                    want[(t, dm["id"], vc["id"], e["code"])] = (e["count"], e["cycles"])
    if got != want:
        for k in sorted(set(got) | set(want)):
            if got.get(k) != want.get(k):
                print(k, "sql", got.get(k), "json", want.get(k))
        fail("port %s: exits per vCPU and reason differ from the JSON summaries" % p)
    if has_rs:
        got = {}
        for t, d, v, st, n, c in rows(p, "SELECT trace_id, domain, vcpu, state, count(), sum(cycles) "
                                      "FROM xenalyze.%s GROUP BY trace_id, domain, vcpu, state" % rs):
            got[(t, int(d), int(v), st)] = (int(n), int(c))
        want = {}
        for t, (f, s) in summaries.items():
            for dm in s["domains"]:
                for vc in dm["vcpus"]:
                    for st, x in vc["runstates"].items():
                        if st in ("running", "runnable", "blocked", "offline", "lost"):
                            want[(t, dm["id"], vc["id"], st)] = (x["count"], x["cycles"])
        if got != want:
            for k in sorted(set(got) | set(want)):
                if got.get(k) != want.get(k):
                    print(k, "sql", got.get(k), "json", want.get(k))
            fail("port %s: runstates differ from the JSON summaries" % p)
    got = {r[0]: r[1:] for r in rows(p, "SELECT trace_id, records, cpu_hz, arch, exits, anomalies, "
                                     "anomaly_kinds FROM xenalyze.%s" % tr)}
    for t, (f, s) in summaries.items():
        an = s["anomalies"]
        want = [str(s["trace"]["records"]), str(s["trace"]["cpu_hz"]), s["trace"]["arch"],
                str(sum(e["count"] for dm in s["domains"] for vc in dm["vcpus"] for e in vc["exits"])),
                str(sum(an.values())), "[" + ",".join("'%s'" % k for k in sorted(an)) + "]"]
        g = list(got.get(t, []))
        if g[-1:]:
            g[-1] = "[" + ",".join(sorted(g[-1][1:-1].split(","))) + "]" if g[-1] != "[]" else "[]"
        if g != want:
            fail("port %s: traces row of %s: %r, want %r" % (p, f, g, want))

check_server(port, "exits", "runstates", "traces")
check_server(shards[0], "exits_all", "runstates_all", "traces_all")
nexits = int(rows(port, "SELECT count() FROM xenalyze.exits")[0][0])
per_shard = [int(rows(s, "SELECT count() FROM xenalyze.traces")[0][0]) for s in shards]
if min(per_shard) == 0:
    fail("a shard holds no trace: %r" % per_shard)
if summaries[trace_id(bad)][1]["anomalies"] == {}:
    fail("the damaged trace has no anomalies")

# Idempotent: the same traces again change nothing.
before = ch(port, "SELECT trace_id, count(), sum(cycles) FROM xenalyze.exits GROUP BY trace_id ORDER BY trace_id")
for host, hz, files in groups[:-1]:
    load(["--port=" + port, "--host=" + host] + (["--cpu-hz=" + hz] if hz else []) + files)
# A load that fails half-way (xenalyze killed after some rows) leaves the
# trace as it was, and a new trace absent.
fake = TMP + "/xa-dies.sh"
open(fake, "w").write('#!/bin/sh\nfor a; do :; done\n"%s" "$@" &\nsleep 0.05\nkill -9 $! 2>/dev/null\nwait $!\n'
                      'case "$1" in --help) exit 0 ;; esac\nexit 1\n' % XA)
os.chmod(fake, 0o755)
load(["--port=" + port, "--host=fixtures", fx[-1], T + "x86-vmx-credit2-8cpu.xentrace" if os.path.isdir(T) else fx[0]],
     ok=False, extra_env={"XENALYZE": fake})
after = ch(port, "SELECT trace_id, count(), sum(cycles) FROM xenalyze.exits GROUP BY trace_id ORDER BY trace_id")
if before != after:
    fail("loading again or failing half-way changed the exits:\n%s\n%s" % (before, after))
left = ch(port, "SELECT name FROM system.tables WHERE database = 'xenalyze' AND name LIKE 'stage%'")
if left.strip():
    fail("staging tables left behind: " + left)

# Every example query: the shards' answer is the single server's.
nq = 0
for block in open("tools/clickhouse/queries.sql").read().split("-- name: ")[1:]:
    name, _, sql = block.partition("\n")
    sql = sql.strip().rstrip(";")
    one = ch(port, sql)
    two = ch(shards[0], sql.replace("xenalyze.exits", "xenalyze.exits_all")
             .replace("xenalyze.runstates", "xenalyze.runstates_all")
             .replace("xenalyze.traces", "xenalyze.traces_all"))
    if one != two:
        fail("%s: the shards say\n%s\nthe single server\n%s" % (name, two, one))
    if not one.strip() and (has_rs or "runstates" not in sql):
        fail("%s: no answer" % name)
    nq += 1
print("%d traces, %d exits, %d runstate intervals: SQL equals the JSON summaries on one server "
      "and two shards %r; %d queries agree; reloads and a failed load change nothing"
      % (len(summaries), nexits, nrs, per_shard, nq))
PY
