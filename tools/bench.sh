#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make bench: build large inputs, then time xenalyze on them (best of 3).
#   BUILD      build directory (build)
#   SHARED     shared material with the real traces (../shared)
#   UPSTREAM   optional: an upstream xenalyze binary to time beside ours
#   COPIES     copies of the real trace in the big input (64: 249 MB)
set -eu
BUILD=${BUILD:-build}
SHARED=${SHARED:-../shared}
COPIES=${COPIES:-64}
XA=$BUILD/xenalyze
B=$BUILD/bench
mkdir -p "$B"

if [ ! -x /usr/bin/time ]; then
    if [ "$(id -u)" = 0 ]; then
        apt-get install -y -qq time >/dev/null
    else
        echo "bench: needs /usr/bin/time (apt-get install time)" >&2
        exit 1
    fi
fi

real=$SHARED/traces/x86-vmx-credit2-8cpu.xentrace
big=$B/vmx-x$COPIES.xentrace
if [ ! -f "$big" ]; then
    echo "making $big: $COPIES time-shifted copies of $real joined by lost records"
    "$BUILD/trace-repeat" "$real" "$big" "$COPIES"
fi
syn=$B/synth-vmx.xentrace
if [ -x "$BUILD/xentrace-synth" ] && [ ! -f "$syn" ]; then
    echo "making $syn with xentrace-synth (examples/vmx.scn, 15M records)"
    "$BUILD/xentrace-synth" -s examples/vmx.scn --records 15000000 -o "$syn"
fi

# best LABEL CMD...: the best wall time of 3 runs, with CPU time and peak RSS.
best() {
    label=$1
    shift
    bw=
    for i in 1 2 3; do
        /usr/bin/time -f "%e %U %S %M" -o "$B/time" "$@" > /dev/null 2>&1 || true
        set -- "$@"
        read -r w u s m < "$B/time"
        if [ -z "$bw" ] || [ "$(echo "$w < $bw" | bc 2>/dev/null || awk -v a="$w" -v b="$bw" 'BEGIN{print (a<b)}')" = 1 ]; then
            bw=$w bu=$u bs=$s bm=$m
        fi
    done
    printf "%-34s %7.2f s wall  %6.2f s user  %5.2f s sys  %7d KB max RSS\n" \
        "$label" "$bw" "$bu" "$bs" "$bm"
}

for f in "$big" "$syn"; do
    [ -f "$f" ] || continue
    size=$(stat -c %s "$f")
    recs=$("$XA" --count "$f" 2>/dev/null | awk '/^records/ {print $2}')
    echo "== $f: $((size / 1000000)) MB, $recs records"
    best "count (read + merge)" "$XA" --count "$f"
    best "summary (text)" "$XA" --cpu-hz=2.4G "$f"
    best "summary (json)" "$XA" --cpu-hz=2.4G --format=json "$f"
    best "dump (--dump-all)" "$XA" --cpu-hz=2.4G --dump-all "$f"
    best "timeline (--perfetto)" "$XA" --cpu-hz=2.4G \
        --perfetto="$B/timeline.perfetto-trace" "$f"
    "$XA" --cpu-hz=2.4G --dump-all "$f" 2> /dev/null | wc -c > "$B/dump.size"
    printf "%-34s %7d MB  (dump: %d MB)\n" "timeline size" \
        "$(($(stat -c %s "$B/timeline.perfetto-trace") / 1000000))" \
        "$(($(cat "$B/dump.size") / 1000000))"
    rm -f "$B/timeline.perfetto-trace"
    best "summary from a pipe (memory)" sh -c "cat '$f' | '$XA' --cpu-hz=2.4G -"
    if [ -n "${UPSTREAM:-}" ] && [ "$f" = "$big" ]; then
        best "upstream summary (-s)" "$UPSTREAM" -s "$f"
        best "upstream dump (--dump-all)" "$UPSTREAM" --dump-all "$f"
    fi
done
