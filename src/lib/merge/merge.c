/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Merge: a binary min-heap of physical CPUs, keyed on the TSC of each
 * CPU's next record.  Equal TSCs on two CPUs are common in real traces:
 * the tie goes to the CPU that advanced last (upstream xenalyze's rule),
 * so that a CPU's burst of records with one TSC (an exit and its TSC-less
 * handler records) is never split by another CPU's records; the CPU number
 * and file offset settle the rest.  The order is deterministic: it depends
 * only on the input.  One sift per record: O(log P), and O(1) when the same
 * CPU stays at the top.
 */
#include <stdlib.h>
#include <string.h>

#include <xenalyze/merge.h>
#include <xenalyze/trace.h>

#include "reader/reader-private.h"

struct slot {
    uint64_t key;
    uint64_t seq;                   /* when it last advanced */
    struct cpu_stream *cs;
    struct xa_record rec;
    bool ended;                     /* rec is the XA_EV_CPU_END record */
};

struct xa_merge {
    struct xa_reader *rd;
    struct slot *slots;             /* one per CPU, in discovery order */
    unsigned int nr_slots, cap_slots;
    unsigned int *heap;             /* slot indices */
    unsigned int nr_heap;
    unsigned int known_cpus;        /* reader CPUs already added */
    uint64_t seq;
    uint64_t thresh;                /* least key below the root */
    bool thresh_valid;
    int top_pending;                /* slot returned last time, or -1 */
    bool primed;
};

static inline bool slot_less(const struct xa_merge *m, unsigned int a,
                             unsigned int b)
{
    const struct slot *x = &m->slots[a], *y = &m->slots[b];

    if ( x->key != y->key )
        return x->key < y->key;
    if ( x->seq != y->seq )
        return x->seq > y->seq;
    if ( x->rec.cpu != y->rec.cpu )
        return x->rec.cpu < y->rec.cpu;
    return x->rec.offset < y->rec.offset;
}

static void sift_down(struct xa_merge *m, unsigned int i)
{
    unsigned int n = m->nr_heap, v = m->heap[i];

    for ( ;; )
    {
        unsigned int c = 2 * i + 1;

        if ( c >= n )
            break;
        if ( c + 1 < n && slot_less(m, m->heap[c + 1], m->heap[c]) )
            c++;
        if ( !slot_less(m, m->heap[c], v) )
            break;
        m->heap[i] = m->heap[c];
        i = c;
    }
    m->heap[i] = v;
}

static void sift_up(struct xa_merge *m, unsigned int i)
{
    unsigned int v = m->heap[i];

    while ( i > 0 )
    {
        unsigned int parent = (i - 1) / 2;

        if ( !slot_less(m, v, m->heap[parent]) )
            break;
        m->heap[i] = m->heap[parent];
        i = parent;
    }
    m->heap[i] = v;
}

/*
 * The ordering key of a record: its TSC, except for a lost-records record,
 * which is ordered where the loss began (its first_tsc), as long as that
 * keeps the CPU's own order.
 */
static inline uint64_t record_key(const struct xa_record *rec,
                                  uint64_t prev_key)
{
    if ( rec->event == XA_TRC_LOST_RECORDS && rec->nr_extra >= 4 )
    {
        uint64_t first = rec->extra[2] | ((uint64_t)rec->extra[3] << 32);

        if ( first >= prev_key && first <= rec->tsc )
            return first;
    }
    return rec->tsc;
}

/* Reads the next record of slot s; returns XA_OK, XA_END or an error. */
static int fill_slot_slow(struct xa_merge *m, unsigned int s)
{
    struct slot *sl = &m->slots[s];
    uint64_t prev = sl->key;
    int rc;

    if ( sl->ended )
        return XA_END;
    rc = xa_reader_next(m->rd, sl->rec.cpu, &sl->rec);
    if ( !sl->cs )
        sl->cs = reader_cpu(m->rd, sl->rec.cpu);
    sl->seq = ++m->seq;
    if ( rc == XA_OK )
        sl->key = record_key(&sl->rec, prev);
    else if ( rc == XA_END && sl->rec.offset != UINT64_MAX )
    {
        /* Yield the end marker, then end for real. */
        sl->ended = true;
        sl->rec.event = XA_EV_CPU_END;
        sl->rec.nr_extra = 0;
        sl->rec.has_tsc = 0;
        sl->rec.offset = UINT64_MAX;
        rc = XA_OK;
    }
    return rc;
}

static inline int fill_slot(struct xa_merge *m, unsigned int s)
{
    struct slot *sl = &m->slots[s];

    if ( sl->cs && reader_fast_next(m->rd, sl->cs, sl->rec.cpu, &sl->rec) )
    {
        sl->seq = ++m->seq;
        sl->key = sl->rec.tsc;
        return XA_OK;
    }
    return fill_slot_slow(m, s);
}

/* Adds the CPUs the reader found since last time. */
static int add_new_cpus(struct xa_merge *m)
{
    unsigned int n = xa_reader_nr_cpus(m->rd);

    while ( m->known_cpus < n )
    {
        unsigned int cpu = xa_reader_cpu_at(m->rd, m->known_cpus++);
        unsigned int s;
        int rc;

        if ( m->nr_slots == m->cap_slots )
        {
            unsigned int cap = m->cap_slots ? m->cap_slots * 2 : 16;
            struct slot *ns = realloc(m->slots, cap * sizeof(*ns));
            unsigned int *nh;

            if ( !ns )
                return XA_E_NOMEM;
            m->slots = ns;
            nh = realloc(m->heap, cap * sizeof(*nh));
            if ( !nh )
                return XA_E_NOMEM;
            m->heap = nh;
            m->cap_slots = cap;
        }
        s = m->nr_slots++;
        memset(&m->slots[s], 0, sizeof(m->slots[s]));
        m->slots[s].rec.cpu = (uint16_t)cpu;
        m->slots[s].rec.offset = UINT64_MAX - 1;    /* no record yet */
        rc = fill_slot(m, s);
        if ( rc == XA_END || m->slots[s].ended )
            continue;               /* a CPU without records */
        if ( rc < 0 )
            return rc;
        m->heap[m->nr_heap] = s;
        sift_up(m, m->nr_heap++);
        m->thresh_valid = false;
    }
    return XA_OK;
}

int xa_merge_new(struct xa_reader *rd, struct xa_merge **out)
{
    struct xa_merge *m = calloc(1, sizeof(*m));

    if ( !m )
        return XA_E_NOMEM;
    m->rd = rd;
    m->top_pending = -1;
    *out = m;
    return XA_OK;
}

void xa_merge_free(struct xa_merge *m)
{
    if ( !m )
        return;
    free(m->slots);
    free(m->heap);
    free(m);
}

/*
 * Like xentrace's own first pass, scan the first round of windows (until
 * a CPU repeats) so that every CPU of the host is known before the first
 * record is ordered.  One repeat is tolerated: a patched xentrace writes a
 * window of its own (the clock record) for the first CPU before copying
 * the buffers, so that CPU's first window of data repeats it at once.
 */
static int prime(struct xa_merge *m)
{
    for ( ;; )
    {
        unsigned int before = xa_reader_nr_cpus(m->rd);
        uint64_t windows = xa_reader_stats(m->rd)->windows;
        int rc = xa_reader_scan(m->rd);

        if ( rc == XA_END )
            break;
        if ( rc < 0 )
            return rc;
        if ( xa_reader_stats(m->rd)->windows > windows &&
             xa_reader_nr_cpus(m->rd) == before &&
             xa_reader_stats(m->rd)->windows > before + 1u )
            break;
    }
    m->primed = true;
    return add_new_cpus(m);
}

static inline int merge_next(struct xa_merge *m, const struct xa_record **rec)
{
    int rc;

    if ( !m->primed && (rc = prime(m)) < 0 )
        return rc;

    if ( m->top_pending >= 0 )
    {
        unsigned int s = (unsigned int)m->top_pending;
        uint64_t before = m->rd->nr_order;

        m->top_pending = -1;
        rc = fill_slot(m, s);
        if ( rc < 0 )
            return rc;
        if ( rc == XA_END )
        {
            m->heap[0] = m->heap[--m->nr_heap];
            if ( m->nr_heap )
                sift_down(m, 0);
            m->thresh_valid = false;
        }
        else
        {
            /*
             * The root just advanced, so it wins ties: it stays on top
             * while its key is no greater than its children's.
             */
            if ( !m->thresh_valid )
            {
                m->thresh = UINT64_MAX;
                if ( m->nr_heap > 1 )
                    m->thresh = m->slots[m->heap[1]].key;
                if ( m->nr_heap > 2 && m->slots[m->heap[2]].key < m->thresh )
                    m->thresh = m->slots[m->heap[2]].key;
                m->thresh_valid = true;
            }
            if ( m->slots[s].key > m->thresh )
            {
                sift_down(m, 0);
                m->thresh_valid = false;
            }
        }
        if ( m->rd->nr_order != before && (rc = add_new_cpus(m)) < 0 )
            return rc;
    }

    if ( !m->nr_heap )
        return XA_END;
    m->top_pending = (int)m->heap[0];
    *rec = &m->slots[m->heap[0]].rec;
    return XA_OK;
}

int xa_merge_next(struct xa_merge *m, const struct xa_record **rec)
{
    return merge_next(m, rec);
}

unsigned int xa_merge_read(struct xa_merge *m, struct xa_record *out,
                           unsigned int max, int *rc)
{
    const struct xa_record *rec;
    unsigned int n = 0;

    *rc = XA_OK;
    while ( n < max && (*rc = merge_next(m, &rec)) == XA_OK )
        out[n++] = *rec;
    return n;
}
