#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Loads the repository's real traces (../shared/traces as host "shared",
# at the clock rates its README gives, tests/fixtures as host "fixtures",
# x86 at 2100 MHz as tests/fixtures/x86/README.md says)
# into the server on $CH_PORT and prints every query of queries.sql with
# its answer: the examples of docs/clickhouse.md.
#   sh tools/clickhouse/server.sh run sh tools/clickhouse/examples.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
S=${SHARED:-$here/../../../shared}/traces
P=${CH_PORT:-9000}
clickhouse-client --port "$P" --multiquery < "$here/schema.sql"
L="sh $here/load.sh --port=$P"
if [ -d "$S" ]; then
    $L --host=shared --cpu-hz=2300M "$S/x86-qemu-svm-pvh.xentrace" "$S/x86-qemu-pv-dom0.xentrace"
    $L --host=shared --cpu-hz=62.5M "$S/arm64-qemu-credit2-2dom.xentrace"
    $L --host=shared "$S/x86-vmx-credit2-8cpu.xentrace"
fi
$L --host=fixtures "$here"/../../tests/fixtures/arm64/*.xentrace
$L --host=fixtures --cpu-hz=2100M "$here"/../../tests/fixtures/x86/*.xentrace
awk '/^-- name: /{ if (q != "") print q; sub(/^-- name: /, "-- "); q = $0 "\n"; next }
     q != "" { q = q $0 "\n" } END { print q }' "$here/queries.sql" |
while IFS= read -r line; do
    case "$line" in
    "-- "*) printf '\n%s\n' "$line"; sql="" ;;
    "") [ -n "$sql" ] && { printf '%s\n' "$sql";
          clickhouse-client --port "$P" -f PrettyCompactMonoBlock -q "${sql%;}" |
          sed 's/\x1b\[[0-9;]*m//g'; sql=""; } ;;
    *) sql="${sql:+$sql
}$line" ;;
    esac
done
