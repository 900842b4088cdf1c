# SPDX-License-Identifier: GPL-2.0-only
# What a time-sliced summary (docs/parallel-summary.md) would meet on a
# trace, measured on its dump in merged order:
#   build/xenalyze --dump-all --show-tsc TRACE |
#       awk -v R=10000 -f tools/bench/slice-stats.awk
# R: records per slice.  Prints:
# - cuts: of the places where the TSC steps up (a time T can fall there),
#   those where every pCPU's first record after T has a TSC no other
#   pCPU's first record after T has.  There the merge's tie rule never
#   consults advances made before T, so a slice's merge orders its
#   records as the single pass does; and how far (in records) each
#   nominal cut, every R records, lies from the next such place.
# - per slice, the vCPUs (idle ones aside) not known for the whole slice
#   (no runstate change in it), and the runstate changes a slice would
#   keep in its domain logs (a change in a domain with a vCPU not yet
#   known in the slice: every vCPU seen in the trace so far counts).
# - per slice, the records before every pCPU's current vCPU is known (its
#   first change to or from running), and the records on a pCPU whose
#   current vCPU is not known yet (exits, hypercalls and the like are
#   charged to it: they would have to wait for the stitch).  The first
#   slice starts from the trace's start and waits for nothing: it is left
#   out of every per-slice figure.
# Holds two numbers per record: for traces of a few million records.
function flush(   v, i, d, n, unk) {
    if ( !nrec )
        return
    if ( !started ) {
        started = 1
        delete knownat
        delete pknown
        nch = 0
        nrec = 0
        wait = 0
        return
    }
    slices++
    unk = 0
    for ( v in allv )
        if ( !(v in knownat) )
            unk++
    sum_unk += unk
    n = 0
    for ( i = 1; i <= nch; i++ ) {
        d = chd[i]
        for ( v in allv )
            if ( vdom[v] == d && (!(v in knownat) || knownat[v] > chpos[i]) ) {
                n++
                break
            }
    }
    sum_log += n
    if ( n / nrec > worst )
        worst = n / nrec
    pk = 0
    for ( c in pcpus )
        if ( !(c in pknown) ) { pk = nrec; break } else if ( pknown[c] > pk ) pk = pknown[c]
    sum_pk += pk
    sum_recs += nrec
    sum_wait += wait
    wait = 0
    delete knownat
    delete pknown
    nch = 0
    nrec = 0
}
{
    pos++
    tsc[pos] = $1
    cpu[pos] = $3
    pcpus[$3] = 1
    if ( $1 != prev )
        cand[pos] = 1
    prev = $1
    if ( !($3 in pknown) )
        wait++
    if ( $5 == "runstate_change" ) {
        split($6, a, "v")
        if ( index($7, "running") && !($3 in pknown) )
            pknown[$3] = nrec
        if ( a[1] != "d32767" ) {
            allv[$6] = 1
            vdom[$6] = a[1]
            if ( !($6 in knownat) )
                knownat[$6] = nrec
            nch++
            chd[nch] = a[1]
            chpos[nch] = nrec
            changes++
        }
    }
    if ( ++nrec == R )
        flush()
}
END {
    flush()
    for ( p = pos; p >= 1; p-- ) {
        first[cpu[p]] = tsc[p]
        if ( p in cand ) {
            ok = 1
            delete seen
            for ( c in first ) {
                if ( first[c] in seen ) { ok = 0; break }
                seen[first[c]] = 1
            }
            valid[p] = ok
            nvalid += ok
            ncand++
        }
    }
    for ( k = R + 1; k <= pos; k += R ) {
        for ( p = k; p <= pos && !valid[p]; p++ )
            ;
        if ( p - k > maxd )
            maxd = p - k
        sumd += p - k
        ncut++
    }
    printf "R=%d: %d records, %d slices after the first; cuts: %d of %d TSC steps (%.3f%%), " \
           "nominal cut to the next: mean %.1f, max %d records\n",
           R, pos, slices, nvalid, ncand, ncand ? 100 * nvalid / ncand : 0,
           ncut ? sumd / ncut : 0, maxd
    printf "  per slice: %.2f vCPUs never known (of %d); records before every " \
           "pCPU's vCPU is known %.0f; logged runstate changes %d of %d " \
           "(%.2f%% of records, worst slice %.2f%%); records waiting for " \
           "their pCPU's vCPU %.2f%%\n",
           sum_unk / slices, length(allv), sum_pk / slices, sum_log, changes,
           100 * sum_log / sum_recs, 100 * worst, 100 * sum_wait / sum_recs
}
