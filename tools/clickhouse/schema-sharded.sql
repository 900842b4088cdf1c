-- SPDX-License-Identifier: GPL-2.0-only
-- The two-shard setup: run schema.sql, then this, on each of the two
-- servers of the cluster "xenalyze_2shards" (tools/clickhouse/server.xml).
-- Each server keeps the traces it was given in xenalyze.exits, .runstates
-- and .traces; the *_all tables query both shards.  load.sh --shards=P1,P2
-- sends each trace to the shard that cityHash64(trace_id) % 2 names, the
-- same rule the Distributed tables would apply to rows inserted into them.
CREATE TABLE IF NOT EXISTS xenalyze.exits_all AS xenalyze.exits
    ENGINE = Distributed(xenalyze_2shards, xenalyze, exits, cityHash64(trace_id));
CREATE TABLE IF NOT EXISTS xenalyze.runstates_all AS xenalyze.runstates
    ENGINE = Distributed(xenalyze_2shards, xenalyze, runstates, cityHash64(trace_id));
CREATE TABLE IF NOT EXISTS xenalyze.traces_all AS xenalyze.traces
    ENGINE = Distributed(xenalyze_2shards, xenalyze, traces, cityHash64(trace_id));
