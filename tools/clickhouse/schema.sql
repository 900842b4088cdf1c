-- SPDX-License-Identifier: GPL-2.0-only
-- xenalyze's ClickHouse schema (ClickHouse 18.16 and later):
--   clickhouse-client --multiquery < tools/clickhouse/schema.sql
-- docs/clickhouse.md explains the columns and the queries they serve.
-- Every table is partitioned by trace: tools/clickhouse/load.sh loads a
-- trace into staging tables and replaces its partitions at once, so a
-- trace loaded twice is there once, and a load that fails leaves the
-- trace as it was.

CREATE DATABASE IF NOT EXISTS xenalyze;

-- One row per closed guest exit (xenalyze --exits): the exits of the JSON
-- summary's vcpus[].exits[], one by one.
CREATE TABLE IF NOT EXISTS xenalyze.exits (
    host        String,         -- the machine the trace came from (load.sh --host)
    trace_id    String,         -- the first 16 hex digits of the file's SHA-256
    ts_ns       UInt64,         -- exit time, ns since the trace's first record
    pcpu        UInt16,
    domain      UInt16,         -- 0: dom0, 32767: idle, 32768: not known yet
    vcpu        UInt16,
    arch        String,         -- x86-vmx, x86-svm, arm
    reason      UInt32,         -- the exit code, as "code" in the JSON summary
    reason_name String,         -- as "reason" in the JSON summary
    key         String,         -- the breakdown key ("io:0x0084:w"), or ''
    key_name    String,         -- a name for it ("PSCI_VERSION"), or ''
    rip         String,         -- guest RIP/PC at the exit, hex ('0x...')
    cycles      UInt64,         -- exit to close, in the trace's clock
    ns          UInt64,         -- the same in ns (cycles / traces.cpu_hz)
    closed_by   String,         -- 'entry' or 'runnable'
    incarnation UInt16 DEFAULT 1 -- the domain's: 2, 3, ... when its id was reused
) ENGINE = MergeTree
PARTITION BY trace_id
ORDER BY (host, reason, domain, vcpu, ts_ns);

-- One row per vCPU runstate interval the summary counts (xenalyze
-- --runstates): the JSON summary's vcpus[].runstates, one by one.
CREATE TABLE IF NOT EXISTS xenalyze.runstates (
    host        String,
    trace_id    String,
    ts_ns       UInt64,         -- the interval's start
    domain      UInt16,
    vcpu        UInt16,
    state       String,         -- running, runnable, blocked, offline, lost
    runnable    String,         -- runnable: wake, preempt, other; else ''
    cycles      UInt64,
    ns          UInt64,
    incarnation UInt16 DEFAULT 1 -- the domain's, as in exits
) ENGINE = MergeTree
PARTITION BY trace_id
ORDER BY (host, state, domain, vcpu, ts_ns);

-- One row per trace loaded, written last: a trace is complete when its
-- row is here.
CREATE TABLE IF NOT EXISTS xenalyze.traces (
    host            String,
    trace_id        String,
    file            String,     -- the file's name as given to load.sh
    bytes           UInt64,
    cpu_hz          UInt64,     -- the clock rate of cycles
    cpu_hz_source   String,     -- option, trace (its clock record), default
    xen_version     String,     -- when known (load.sh --xen-version, or the
                                -- "Xen version" line of FILE's .bootlog.txt)
    arch            String,
    records         UInt64,
    first_tsc       UInt64,
    last_tsc        UInt64,
    duration_ns     UInt64,
    exits           UInt64,     -- rows loaded into exits
    runstates       UInt64,     -- rows loaded into runstates
    anomalies       UInt64,     -- every anomaly of the JSON summary
    anomaly_kinds   Array(String),
    anomaly_counts  Array(UInt64),
    loaded_at       DateTime
) ENGINE = MergeTree
PARTITION BY trace_id
ORDER BY (host, trace_id);
