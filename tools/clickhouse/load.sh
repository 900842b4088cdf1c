#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Loads traces into xenalyze's ClickHouse schema (schema.sql):
#
#   load.sh [--port=P | --shards=P1,P2] [--host=NAME] [--xen-version=V]
#           [--cpu-hz=RATE] TRACE...
#
# Each trace is read once by xenalyze, which streams its per-exit rows
# (--exits) and runstate intervals (--runstates) as CSV into staging
# tables through clickhouse-client, and its CSV summary into a file; the
# trace's row count is checked against the summary, then the trace's
# partitions of exits, runstates and traces are replaced at once
# (ALTER TABLE ... REPLACE PARTITION), traces last.  So loading a trace
# again replaces it, and a load that fails leaves the trace as it was.
# The trace id is the first 16 hex digits of the file's SHA-256.
# A trace with anomalies loads what was read; traces records them.
#
#   --port=P         the server's TCP port (default 9000)
#   --shards=P1,P2   two servers of the cluster xenalyze_2shards: each
#                    trace goes to shard cityHash64(trace_id) % 2
#   --host=NAME      the machine the traces came from (default: this one)
#   --xen-version=V  Xen's version; default: the "Xen version" line of
#                    TRACE's .bootlog.txt beside it, if any
#   --cpu-hz=RATE    passed to xenalyze
# Environment: XENALYZE (default: build/xenalyze of this checkout, else
# xenalyze), CLICKHOUSE_CLIENT (default clickhouse-client).
# Exit status: 0 when every trace loaded, 1 otherwise.
set -u
here=$(cd "$(dirname "$0")" && pwd)
XA=${XENALYZE:-}
if [ -z "$XA" ]; then
    if [ -x "$here/../../build/xenalyze" ]; then XA=$here/../../build/xenalyze
    else XA=xenalyze; fi
fi
CLIENT=${CLICKHOUSE_CLIENT:-clickhouse-client}
DB=xenalyze
port=9000 shards="" host=$(hostname 2>/dev/null || echo localhost)
xenver="" hz=""

usage() { sed -n '3,9p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 1; }
for a in "$@"; do
    case "$a" in
    --port=*) port=${a#*=} ;;
    --shards=*) shards=${a#*=} ;;
    --host=*) host=${a#*=} ;;
    --xen-version=*) xenver=${a#*=} ;;
    --cpu-hz=*) hz=$a ;;
    --help|-h) usage ;;
    -*) echo "load.sh: unknown option $a" >&2; usage ;;
    esac
done
# Names go into SQL literals: keep them plain.
plain() { case "$1" in *[!A-Za-z0-9._:+~@/-]*) return 1 ;; esac; return 0; }
plain "$host" || { echo "load.sh: --host: letters, digits and ._:+~@/- only" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/xa-load.XXXXXX") || exit 1
stages=""
drop_stages() {
    [ -n "$stages" ] || return 0
    for s in $stages; do echo "DROP TABLE IF EXISTS $s;"; done |
        "$CLIENT" --port "$sport" --multiquery 2>/dev/null
    stages=""
}
cleanup() { drop_stages; rm -rf "$tmp"; }
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

q() { "$CLIENT" --port "$sport" -q "$1"; }

# The CSV summary's trace fields and anomalies (no quoted fields there).
sumfield() { awk -F, -v n="$1" '$1 == "trace" && $5 == n { print $9; exit }' "$tmp/summary.csv"; }

load_one() {    # TRACE
    tr=$1
    [ -r "$tr" ] && [ -f "$tr" ] || { echo "load.sh: cannot read $tr" >&2; return 1; }
    id=$(sha256sum < "$tr" | cut -c1-16)
    sport=$port
    if [ -n "$shards" ]; then
        s=$("$CLIENT" --port "${shards%%,*}" -q "SELECT cityHash64('$id') % 2") || return 1
        if [ "$s" = 0 ]; then sport=${shards%%,*}; else sport=${shards#*,}; fi
    fi
    st=$DB.stage_${id}_$$
    stages="${st}_exits ${st}_runstates ${st}_traces"
    # Staging tables: the trace's, with host and trace_id as defaults
    # (key columns cannot be altered, hence the edited DDL).
    ddl=$(q "SELECT create_table_query FROM system.tables
             WHERE database = '$DB' AND name IN ('exits', 'runstates', 'traces')
             FORMAT TSVRaw") || return 1
    [ "$(printf '%s\n' "$ddl" | grep -c .)" = 3 ] ||
        { echo "load.sh: no $DB schema on port $sport (schema.sql)" >&2; return 1; }
    ddl=$(printf '%s\n' "$ddl" |
          sed -e "s|^CREATE TABLE $DB\.\([a-z]*\) |DROP TABLE IF EXISTS ${st}_\1; CREATE TABLE ${st}_\1 |" \
              -e "s|( host String, |( host String DEFAULT '$host', |" \
              -e "s| trace_id String, | trace_id String DEFAULT '$id', |" -e 's/$/;/')
    printf '%s\n' "$ddl" | "$CLIENT" --port "$sport" --multiquery || return 1
    # xenalyze writes exits on fd 3 (a pipe into clickhouse-client),
    # runstates on fd 4 (a FIFO into another), the summary into a file.
    rrc=0
    if "$XA" --help 2>&1 | grep -q -- '--runstates'; then
        rm -f "$tmp/rs.fifo"; mkfifo "$tmp/rs.fifo" || return 1
        insert_csv "${st}_runstates" < "$tmp/rs.fifo" > "$tmp/rs.out" 2>&1 &
        rpid=$!
        { "$XA" -s --format=csv --exits=/dev/fd/3 --runstates=/dev/fd/4 $hz "$tr" \
              3>&1 > "$tmp/summary.csv" 2> "$tmp/xa.err" 4> "$tmp/rs.fifo"
          echo $? > "$tmp/xa.rc"; } | insert_csv "${st}_exits"
        crc=$?
        wait $rpid; rrc=$?
    else
        { "$XA" -s --format=csv --exits=/dev/fd/3 $hz "$tr" \
              3>&1 > "$tmp/summary.csv" 2> "$tmp/xa.err"
          echo $? > "$tmp/xa.rc"; } | insert_csv "${st}_exits"
        crc=$?
    fi
    xrc=$(cat "$tmp/xa.rc")
    if [ "$xrc" != 0 ] || [ $crc != 0 ] || [ $rrc != 0 ]; then
        echo "load.sh: $tr not loaded (xenalyze status $xrc, clickhouse-client $crc/$rrc)" >&2
        head -5 "$tmp/xa.err" >&2
        return 1
    fi
    n=$(q "SELECT (SELECT count() FROM ${st}_exits), (SELECT count() FROM ${st}_runstates)") || return 1
    nex=${n%%	*} nrs=${n#*	}
    want=$(awk -F, '$1 == "exit_total" && $3 != "all" { n += $10 } END { print n + 0 }' "$tmp/summary.csv")
    if [ "$nex" != "$want" ]; then
        echo "load.sh: $tr: $nex exit rows loaded, the summary counts $want" >&2
        return 1
    fi
    ver=$xenver
    if [ -z "$ver" ] && [ -f "${tr%.xentrace}.bootlog.txt" ]; then
        ver=$(grep -o -m1 'Xen version [^ ]*' "${tr%.xentrace}.bootlog.txt" | cut -d' ' -f3)
    fi
    plain "$ver" || ver=""
    file=$(basename "$tr")
    plain "$file" || file=$(printf '%s' "$file" | tr -c 'A-Za-z0-9._:+~@/-' _)
    hzv=$(sumfield cpu_hz) first=$(sumfield first_tsc) last=$(sumfield last_tsc)
    kinds=$(awk -F, '$1 == "anomaly" { printf ",\047%s\047", $5 }' "$tmp/summary.csv")
    counts=$(awk -F, '$1 == "anomaly" { printf ",%s", $10 }' "$tmp/summary.csv")
    q "INSERT INTO ${st}_traces SELECT '$host', '$id', '$file',
         $(wc -c < "$tr"), $hzv, '$(sumfield cpu_hz_source)', '$ver',
         '$(sumfield arch)', $(sumfield records), $first, $last,
         intDiv(toUInt64($last - $first), toUInt64($hzv)) * 1000000000 +
             intDiv(toUInt64($last - $first) % toUInt64($hzv) * 1000000000,
                    toUInt64($hzv)),
         $nex, $nrs, arraySum([toUInt64(0)$counts]),
         arraySlice([''$kinds], 2),
         arraySlice([toUInt64(0)$counts], 2), now()" || return 1
    # Commit: the trace's partitions at once, traces last.
    for t in exits runstates traces; do
        echo "ALTER TABLE $DB.$t REPLACE PARTITION '$id' FROM ${st}_$t;"
    done | "$CLIENT" --port "$sport" --multiquery || return 1
    for s in $stages; do echo "DROP TABLE IF EXISTS $s;"; done |
        "$CLIENT" --port "$sport" --multiquery
    stages=""
    echo "$tr: trace $id on port $sport: $nex exits, $nrs runstate intervals"
}

# CSV with xenalyze's header on stdin into table $1: the header names the
# columns (time_ns is the schema's ts_ns).
insert_csv() {
    IFS= read -r hdr || return 1
    cols=$(printf '%s' "$hdr" | sed -e 's/\r$//' -e 's/^time_ns,/ts_ns,/' -e 's/,time_ns,/,ts_ns,/')
    "$CLIENT" --port "$sport" -q "INSERT INTO $1 ($cols) FORMAT CSV" 2> "$tmp/$1.err"
    r=$?
    # A header alone (a trace without exits) is no error.
    if [ $r != 0 ] && grep -q '^Code: 108\.' "$tmp/$1.err"; then r=0; fi
    [ $r = 0 ] || cat "$tmp/$1.err" >&2
    return $r
}

[ -n "$(for a in "$@"; do case "$a" in -*) ;; *) echo x ;; esac; done)" ] || usage
rc=0
for a in "$@"; do
    case "$a" in -*) continue ;; esac
    load_one "$a" || rc=1
    drop_stages
done
exit $rc
