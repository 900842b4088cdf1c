-- SPDX-License-Identifier: GPL-2.0-only
-- The example queries of docs/clickhouse.md, one per "-- name:" block.
-- On the two-shard setup the same queries read xenalyze.exits_all,
-- .runstates_all and .traces_all (tests/check/clickhouse.sh runs them
-- both ways and compares the answers).

-- name: p50/p99 of each exit reason per host (ns)
SELECT host, reason, reason_name, count() AS exits,
       quantileExact(0.5)(ns) AS p50_ns, quantileExact(0.99)(ns) AS p99_ns,
       max(ns) AS max_ns
FROM xenalyze.exits
GROUP BY host, reason, reason_name
ORDER BY host, exits DESC, reason;

-- name: top guests by runnable time
SELECT host, trace_id, domain, count() AS intervals,
       sum(ns) / 1e9 AS runnable_s
FROM xenalyze.runstates
WHERE state = 'runnable' AND domain < 32767
GROUP BY host, trace_id, domain
ORDER BY runnable_s DESC, host, trace_id, domain
LIMIT 10;

-- name: exit rate per second over time
SELECT host, trace_id, intDiv(ts_ns, 1000000000) AS second, count() AS exits,
       sum(ns) / 1e6 AS exit_ms
FROM xenalyze.exits
GROUP BY host, trace_id, second
ORDER BY host, trace_id, second;

-- name: the difference between two sets of traces (by host)
SELECT reason_name,
       countIf(host = 'fixtures') AS exits_a, countIf(host = 'shared') AS exits_b,
       quantileExactIf(0.99)(ns, host = 'fixtures') AS p99_ns_a,
       quantileExactIf(0.99)(ns, host = 'shared') AS p99_ns_b,
       round(p99_ns_b / p99_ns_a - 1, 3) AS p99_change
FROM xenalyze.exits
WHERE arch = 'svm'
GROUP BY reason_name
HAVING exits_a >= 10 AND exits_b >= 10
ORDER BY abs(p99_change) DESC, reason_name;

-- name: traces and their anomalies
SELECT host, file, trace_id, xen_version, arch, cpu_hz, records, exits,
       runstates, anomalies
FROM xenalyze.traces
ORDER BY host, file;
