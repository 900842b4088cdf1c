#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make bench: build large inputs, then time xenalyze on them beside a bare
# walk over the file and (UPSTREAM=) upstream xenalyze.  Every job runs
# RUNS times, the jobs taking turns (round-robin, so that a change in the
# machine's load touches them alike); the table gives medians of wall and
# CPU (user + system) time, and the ratios that matter.
#   BUILD      build directory (build)
#   SHARED     shared material with the real traces (../shared)
#   UPSTREAM   optional: an upstream xenalyze binary to time beside ours
#   COPIES     copies of the real trace in the big input (64: 249 MB)
#   RUNS       runs of each job (5)
#   THREADS    thread counts of the sweep (1 2 4): summary, dump and
#              --count of the big file (the pipeline above 1; --count in
#              time slices and the summary in chunks analysed apart
#              above 2), the summary at 2 threads from standard input,
#              with time slices forced, and at 4 threads in chunks of
#              4 slices of 250,000 records
set -eu
BUILD=${BUILD:-build}
SHARED=${SHARED:-../shared}
COPIES=${COPIES:-64}
RUNS=${RUNS:-5}
THREADS=${THREADS:-1 2 4}
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

# Jobs: a name (one word) and a command line, in $B/jobs.
job() {
    name=$1
    shift
    printf '%s\t%s\n' "$name" "$*" >> "$B/jobs"
}

# run_jobs: every job RUNS times, round-robin; times in $B/t.NAME
# (wall user sys maxrss per line).
run_jobs() {
    rm -f "$B"/t.*
    r=0
    while [ "$r" -lt "$RUNS" ]; do
        while IFS='	' read -r name cmd; do
            /usr/bin/time -f "%e %U %S %M" -a -o "$B/t.$name" \
                sh -c "exec $cmd" > /dev/null 2>&1 < /dev/null || true
        done < "$B/jobs"
        r=$((r + 1))
    done
}

# med NAME FIELD: the median of a field (1 wall, 2 CPU, 3 max RSS KB).
med() {
    awk -v f="$2" 'NF == 4 && $1 ~ /^[0-9.]+$/ {
        print f == 1 ? $1 : f == 2 ? $2 + $3 : $4 }' \
        "$B/t.$1" | sort -n |
        awk '{ a[NR] = $1 } END { if (NR) print a[int((NR + 1) / 2)]; else print 0 }'
}

ratio() {
    awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else printf "-" }'
}

# row LABEL NAME: wall, CPU, CPU over the bare walk's, and upstream's
# wall and CPU over ours when UPNAME is given.
row() {
    label=$1 name=$2 up=${3:-}
    [ -f "$B/t.$name" ] || return 0
    w=$(med "$name" 1) c=$(med "$name" 2) m=$(med "$name" 3)
    upw=- upc=-
    if [ -n "$up" ] && [ -f "$B/t.$up" ]; then
        upw="$(ratio "$(med "$up" 1)" "$w")x"
        upc="$(ratio "$(med "$up" 2)" "$c")x"
    fi
    printf "| %-36s | %6.2f s | %6.2f s | %5sx | %8s | %8s | %7d |\n" \
        "$label" "$w" "$c" "$(ratio "$c" "$walk_cpu")" "$upw" "$upc" \
        "$((m / 1024))"
}

header() {
    echo "| job | wall | CPU | CPU / walk | upstream wall / ours | upstream CPU / ours | max RSS MB |"
    echo "| --- | --- | --- | --- | --- | --- | --- |"
}

for f in "$big" "$syn"; do
    [ -f "$f" ] || continue
    size=$(stat -L -c %s "$f")
    recs=$("$XA" --count "$f" 2>/dev/null | awk '/^records/ {print $2}')
    echo
    echo "== $f: $((size / 1000000)) MB, $recs records;" \
         "medians of $RUNS runs, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
    echo
    rm -f "$B/jobs"
    job walk "$BUILD/bare-walk '$f'"
    job count "$XA --count '$f'"
    job summary "$XA --cpu-hz=2.4G '$f'"
    job dump "$XA --cpu-hz=2.4G --dump-all '$f'"
    if [ -n "${UPSTREAM:-}" ] && [ "$f" = "$big" ]; then
        job upsummary "'$UPSTREAM' -s '$f'"
        job updump "'$UPSTREAM' --dump-all '$f'"
    fi
    job json "$XA --cpu-hz=2.4G --format=json '$f'"
    job exits "$XA --cpu-hz=2.4G --exits=/dev/null '$f'"
    job timeline "$XA --cpu-hz=2.4G --perfetto='$B/timeline.perfetto-trace' '$f'"
    job pipe "cat '$f' | '$XA' --cpu-hz=2.4G -"
    run_jobs
    walk_cpu=$(med walk 2)
    header
    row "bare walk (tools/bench/bare-walk.c)" walk
    row "ours --count (read + merge)" count
    row "ours summary" summary upsummary
    row "upstream summary (-s)" upsummary
    row "ours dump (--dump-all)" dump updump
    row "upstream dump (--dump-all)" updump
    row "ours summary --format=json" json
    row "ours exit rows (--exits)" exits
    row "ours timeline (--perfetto)" timeline
    row "ours summary from a pipe" pipe
    "$XA" --cpu-hz=2.4G --dump-all "$f" 2> /dev/null | wc -c > "$B/dump.size"
    echo
    printf "timeline %d MB, dump %d MB; with a file the max RSS counts the mapped trace\n" \
        "$(($(stat -c %s "$B/timeline.perfetto-trace") / 1000000))" \
        "$(($(cat "$B/dump.size") / 1000000))"
    rm -f "$B/timeline.perfetto-trace"

    if [ "$f" = "$big" ] && "$XA" --help 2>&1 | grep -q -- --threads; then
        echo
        echo "thread sweep (--threads=N; $(nproc) CPUs present):"
        echo
        rm -f "$B/jobs"
        for t in $THREADS; do
            job "summary$t" "$XA --threads=$t --cpu-hz=2.4G '$f'"
            job "dump$t" "$XA --threads=$t --cpu-hz=2.4G --dump-all '$f'"
            job "count$t" "$XA --threads=$t --count '$f'"
        done
        job "pipe2" "$XA --threads=2 --cpu-hz=2.4G - < '$f'"
        job "slices2" "$XA --threads=2 --slice-records=1000000 --cpu-hz=2.4G '$f'"
        job "apart4" "$XA --threads=4 --slice-records=250000 --cpu-hz=2.4G '$f'"
        run_jobs
        header
        for t in $THREADS; do
            row "summary --threads=$t" "summary$t"
        done
        for t in $THREADS; do
            row "dump --threads=$t" "dump$t"
        done
        for t in $THREADS; do
            row "--count --threads=$t (read + merge)" "count$t"
        done
        row "summary --threads=2 from standard input" pipe2
        row "summary --threads=2 in time slices (--slice-records)" slices2
        row "summary --threads=4, chunks of 4 x 250,000 records apart" apart4
        for t in $THREADS; do
            c=$(med "summary$t" 2)
            printf "summary --threads=%s: %.1f ns CPU per record\n" "$t" \
                "$(awk -v c="$c" -v n="$recs" 'BEGIN { print c * 1e9 / n }')"
        done
    fi
done

# Compressed input: the big trace as zstd -3 and gzip -6 files, read
# directly (streamed through the reader's decoder, same read-ahead bound)
# beside the plain file and a zstdcat pipe.
if [ -f "$big" ]; then
    rm -f "$B/jobs"
    job plain "$XA --cpu-hz=2.4G '$big'"
    for fmt in zstd gzip xz; do
        command -v $fmt >/dev/null 2>&1 || continue
        case $fmt in zstd) ext=zst lvl=-3 ;; gzip) ext=gz lvl=-6 ;; xz) ext=xz lvl=-1 ;; esac
        [ "$fmt" = xz ] && [ -z "${BENCH_XZ:-}" ] && continue
        c=$big.$ext
        [ -f "$c" ] || { echo "making $c ($fmt $lvl)"; $fmt $lvl -c "$big" > "$c"; }
        if ! "$XA" --count "$c" > /dev/null 2>&1; then
            echo "$fmt: this xenalyze reads no $fmt files"
            continue
        fi
        job "$ext" "$XA --cpu-hz=2.4G '$c'"
        [ "$fmt" = zstd ] && job zstdcat "zstdcat '$c' | '$XA' --cpu-hz=2.4G -"
    done
    echo
    echo "== compressed: $(ls -l "$big"* | awk '{printf "%s %d MB; ", $NF, $5 / 1000000}')"
    echo
    run_jobs
    walk_cpu=$(med plain 2)
    header
    row "summary, plain file (CPU / walk: over this)" plain
    row "summary, zstd -3 file" zst
    row "summary, zstdcat | xenalyze -" zstdcat
    row "summary, gzip -6 file" gz
    row "summary, xz -1 file (BENCH_XZ=1)" xz
fi
