/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The window index of a mapped file and the cuts of its time slices
 * (slice-private.h, docs/parallel-summary.md).  The index is what the
 * reader's own scan queues, so damage is met as the single pass meets it;
 * the cuts are found by walking the records of one or two windows per
 * CPU each.
 */
#include <stdlib.h>
#include <string.h>

#include <xenalyze/trace.h>

#include "reader-private.h"
#include "util/util-private.h"

/* Estimated bytes per record from this many bytes of windows. */
#define SAMPLE_BYTES (1u << 20)
/* A CPU's first record after a cut is looked for in this many windows. */
#define SEEK_WINDOWS 8
/*
 * Candidate cuts rejected in a row before the slice is let grow by
 * another slice's worth (each costs a walk of a window per CPU).
 */
#define REJECT_RUN 16

int reader_index_add(struct reader_index *ix, unsigned int cpu, uint64_t off,
                     uint32_t len, uint8_t mark, uint64_t windows)
{
    struct reader_window *e;
    const uint8_t *p = ix->mem + off, *end = p + len;

    if ( xa_grow(&ix->w, &ix->cap, sizeof(*ix->w), ix->nr, 1024) )
        return XA_E_NOMEM;
    e = &ix->w[ix->nr++];
    memset(e, 0, sizeof(*e));
    e->off = off;
    e->len = len;
    e->cpu = cpu;
    e->mark = mark;
    e->windows = windows;
    while ( end - p >= 4 )
    {
        uint32_t h = rd32(p), n = reader_rec_size(h);

        if ( (size_t)(end - p) < n )
            break;
        if ( h >> 31 )
        {
            e->first_tsc = rd64(p + 4);
            e->has_tsc = true;
            break;
        }
        p += n;
    }
    if ( len )
    {
        ix->window_bytes += len;
        ix->held_max += len + WINDOW_COST;
    }
    return XA_OK;
}

/* Bytes per record in the first windows. */
static unsigned int estimate_bytes_per_record(const struct reader_index *ix)
{
    uint64_t bytes = 0, records = 0;
    size_t i;

    for ( i = 0; i < ix->nr && bytes < SAMPLE_BYTES; i++ )
    {
        const uint8_t *p = ix->mem + ix->w[i].off, *end = p + ix->w[i].len;

        while ( end - p >= 4 && (size_t)(end - p) >= reader_rec_size(rd32(p)) )
        {
            p += reader_rec_size(rd32(p));
            records++;
        }
        bytes += ix->w[i].len;
    }
    if ( !records )
        return 16;
    return bytes / records < 4 ? 4 : (unsigned int)(bytes / records);
}

int reader_index_build(const struct xa_reader *rd, struct reader_index **out)
{
    struct reader_index *ix = calloc(1, sizeof(*ix));
    struct xa_reader *scan = NULL;
    int rc = XA_OK;

    if ( !ix )
        return XA_E_NOMEM;
    ix->mem = rd->mem;
    ix->size = rd->size;
    ix->lookahead = rd->lookahead_max;
    xa_diag_init(&ix->diag);
    if ( rd->read || (rc = xa_reader_open_mem(rd->mem, rd->size, &ix->diag,
                                              &scan)) )
    {
        rc = rd->read ? XA_E_INVAL : rc;
        goto fail;
    }
    scan->ix_build = ix;
    while ( (rc = xa_reader_scan(scan)) == XA_OK )
        ;
    if ( rc < 0 )
        goto fail;
    ix->stats = scan->stats;
    ix->nr_order = scan->nr_order;
    ix->order = malloc((ix->nr_order ? ix->nr_order : 1) *
                       sizeof(*ix->order));
    if ( !ix->order )
    {
        rc = XA_E_NOMEM;
        goto fail;
    }
    if ( ix->nr_order )
        memcpy(ix->order, scan->order, ix->nr_order * sizeof(*ix->order));
    ix->bytes_per_record = estimate_bytes_per_record(ix);
    xa_reader_free(scan);
    *out = ix;
    return XA_OK;

 fail:
    xa_reader_free(scan);
    reader_index_free(ix);
    return rc;
}

void reader_index_free(struct reader_index *ix)
{
    if ( !ix )
        return;
    free(ix->w);
    free(ix->order);
    free(ix);
}

/*
 * The merge's key of the record at p, header h, own TSC tsc, after a
 * record of TSC prev: a lost-records record is ordered where the loss
 * began, when that lies between (merge.c's record_key()).
 */
static uint64_t record_key_at(const uint8_t *p, uint32_t h, uint64_t tsc,
                              uint64_t prev)
{
    if ( (h & 0x0fffffff) == XA_TRC_LOST_RECORDS && ((h >> 28) & 7) >= 4 )
    {
        uint64_t first = rd32(p + 12 + 8) | (uint64_t)rd32(p + 12 + 12) << 32;

        if ( first >= prev && first <= tsc )
            return first;
    }
    return tsc;
}

/*
 * In window e, from its start: the first record with its own TSC at or
 * above t (*skip: where), *last and *have following the CPU's timeline up
 * to it.  False when the window has none.
 */
static bool window_seek(const struct reader_index *ix,
                        const struct reader_window *e, uint64_t t,
                        uint32_t *skip, uint64_t *last, bool *have)
{
    const uint8_t *start = ix->mem + e->off, *p = start, *end = p + e->len;

    while ( end - p >= 4 )
    {
        uint32_t h = rd32(p), n = reader_rec_size(h);

        if ( (size_t)(end - p) < n )
            break;
        if ( h >> 31 )
        {
            uint64_t tsc = rd64(p + 4);

            if ( record_key_at(p, h, tsc, *last) >= t )
            {
                *skip = (uint32_t)(p - start);
                return true;
            }
            *last = tsc;
            *have = true;
        }
        p += n;
    }
    return false;
}

struct cut_lists {
    unsigned int nr_cpus;
    size_t *first;                  /* CSR: list of CPU k */
    size_t *entries;
    size_t *ptr;                    /* last window before the last cut */
    size_t *try_ptr;
    uint64_t *heads;
};

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return x < y ? -1 : x > y;
}

/*
 * The cut at t: every CPU's first record with a TSC at or above t.  False
 * (no cut there) when a CPU's windows do not say where, or two CPUs'
 * first records after t have the same TSC (the merge's tie rule would
 * look back past the cut).
 */
static bool try_cut(const struct reader_index *ix, struct cut_lists *cl,
                    uint64_t t, struct reader_cut *cut)
{
    unsigned int k, nh = 0;

    cut->tsc = t;
    cut->nr_cpus = 0;
    cut->first_entry = SIZE_MAX;
    for ( k = 0; k < cl->nr_cpus; k++ )
    {
        const size_t *L = &cl->entries[cl->first[k]];
        size_t n = cl->first[k + 1] - cl->first[k], j = cl->ptr[k], w;
        struct reader_cut_cpu c = { .cpu = ix->order[k] };
        bool found = false;

        cl->try_ptr[k] = j;
        if ( !n )
            continue;
        while ( j + 1 < n && (!ix->w[L[j + 1]].has_tsc ||
                              ix->w[L[j + 1]].first_tsc < t) )
            j++;
        /*
         * Its first record at or above t: in window j, or at the start of
         * a later one (past TSC-less records, or a lost-records record
         * ordered before t, alone in its window).
         */
        for ( w = j; w < n && w <= j + SEEK_WINDOWS; w++ )
        {
            c.entry = L[w];
            if ( (found = window_seek(ix, &ix->w[L[w]], t, &c.skip,
                                      &c.last_tsc, &c.have_tsc)) )
                break;
        }
        if ( !found && w < n )
            return false;
        cl->try_ptr[k] = j;
        if ( !found )
            continue;               /* no data left */
        {
            const uint8_t *q = ix->mem + ix->w[c.entry].off + c.skip;

            cl->heads[nh++] = record_key_at(q, rd32(q), rd64(q + 4),
                                            c.last_tsc);
        }
        if ( c.entry < cut->first_entry )
            cut->first_entry = c.entry;
        cut->cpus[cut->nr_cpus++] = c;
    }
    qsort(cl->heads, nh, sizeof(*cl->heads), cmp_u64);
    for ( k = 1; k < nh; k++ )
        if ( cl->heads[k] == cl->heads[k - 1] )
            return false;
    return cut->nr_cpus > 0;
}

void reader_cuts_free(struct reader_cut *cuts, unsigned int nr)
{
    unsigned int i;

    if ( !cuts )
        return;
    for ( i = 0; i < nr; i++ )
        free(cuts[i].cpus);
    free(cuts);
}

int reader_index_cuts(const struct reader_index *ix, uint64_t slice_records,
                      struct reader_cut **cuts, unsigned int *nr,
                      unsigned int *rejected)
{
    struct cut_lists cl = { .nr_cpus = ix->nr_order };
    struct reader_cut *out = NULL, cut = { 0 };
    unsigned int nr_out = 0, cap = 0, *slot_of = NULL, k, run = 0;
    uint64_t target = slice_records * ix->bytes_per_record, acc = 0, last_t = 0;
    bool have_last = false;
    size_t i;
    int rc = XA_E_NOMEM;

    *cuts = NULL;
    *nr = 0;
    *rejected = 0;
    slot_of = calloc(ix->stats.max_cpu + 1u, sizeof(*slot_of));
    cl.first = calloc(cl.nr_cpus + 1u, sizeof(*cl.first));
    cl.entries = malloc((ix->nr ? ix->nr : 1) * sizeof(*cl.entries));
    cl.ptr = calloc(cl.nr_cpus + 1u, sizeof(*cl.ptr));
    cl.try_ptr = calloc(cl.nr_cpus + 1u, sizeof(*cl.try_ptr));
    cl.heads = calloc(cl.nr_cpus + 1u, sizeof(*cl.heads));
    cut.cpus = calloc(cl.nr_cpus + 1u, sizeof(*cut.cpus));
    if ( !slot_of || !cl.first || !cl.entries || !cl.ptr || !cl.try_ptr ||
         !cl.heads || !cut.cpus )
        goto out;
    for ( k = 0; k < cl.nr_cpus; k++ )
        slot_of[ix->order[k]] = k;
    /* Each CPU's windows with data, in scan order. */
    for ( i = 0; i < ix->nr; i++ )
        if ( ix->w[i].len )
            cl.first[slot_of[ix->w[i].cpu] + 1]++;
    for ( k = 0; k < cl.nr_cpus; k++ )
        cl.first[k + 1] += cl.first[k];
    for ( i = 0; i < ix->nr; i++ )
        if ( ix->w[i].len )
            cl.entries[cl.first[slot_of[ix->w[i].cpu]] + cl.ptr[slot_of[ix->w[i].cpu]]++] = i;
    memset(cl.ptr, 0, (cl.nr_cpus + 1u) * sizeof(*cl.ptr));

    /*
     * A candidate cut every target bytes of windows, at the TSC of the
     * record that reaches it; one rejected, the next record's is tried.
     */
    for ( i = 0; i < ix->nr; i++ )
    {
        const struct reader_window *e = &ix->w[i];
        const uint8_t *start = ix->mem + e->off, *p = start,
                      *end = start + e->len;

        if ( acc + e->len < target )
        {
            acc += e->len;
            continue;
        }
        while ( end - p >= 4 && (size_t)(end - p) >= reader_rec_size(rd32(p)) )
        {
            uint32_t h = rd32(p);
            uint64_t t;

            p += reader_rec_size(h);
            if ( !(h >> 31) ||
                 acc + (uint64_t)(p - start) < target + reader_rec_size(h) )
                continue;
            t = rd64(p - reader_rec_size(h) + 4);
            if ( !t || (have_last && t <= last_t) )
                continue;
            if ( !try_cut(ix, &cl, t, &cut) )
            {
                (*rejected)++;
                if ( ++run == REJECT_RUN )
                {
                    run = 0;
                    acc = 0;
                    start = p;
                }
                continue;
            }
            run = 0;
            if ( xa_grow(&out, &cap, sizeof(*out), nr_out, 16) )
                goto out;
            out[nr_out] = cut;
            out[nr_out].cpus = malloc(cut.nr_cpus * sizeof(*cut.cpus));
            if ( !out[nr_out].cpus )
                goto out;
            memcpy(out[nr_out].cpus, cut.cpus,
                   cut.nr_cpus * sizeof(*cut.cpus));
            nr_out++;
            memcpy(cl.ptr, cl.try_ptr, cl.nr_cpus * sizeof(*cl.ptr));
            /* Bytes since the cut: those from the record cut at on. */
            acc = 0;
            start = p - reader_rec_size(h);
            last_t = t;
            have_last = true;
        }
        acc += (uint64_t)(end - start);
    }
    *cuts = out;
    *nr = nr_out;
    out = NULL;
    nr_out = 0;
    rc = XA_OK;

 out:
    reader_cuts_free(out, nr_out);
    free(cut.cpus);
    free(cl.heads);
    free(cl.try_ptr);
    free(cl.ptr);
    free(cl.entries);
    free(cl.first);
    free(slot_of);
    return rc;
}
