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

#include "merge-private.h"
#include "reader/reader-private.h"
#include "util/util-private.h"

struct slot {
    uint64_t key;
    uint64_t seq;                   /* when it last advanced */
    struct cpu_stream *cs;
    struct xa_record rec;
    bool ended;                     /* rec is the XA_EV_CPU_END record */
    bool tail_jump;                 /* rec leapt ahead, nothing after it */
    uint64_t tail_last;             /* then: the CPU's TSC before it */
};

struct xa_merge {
    struct xa_reader *rd;
    struct slot *slots;             /* one per CPU, in discovery order */
    unsigned int nr_slots, cap_slots;
    unsigned int *heap;             /* slot indices */
    unsigned int nr_heap;
    unsigned int known_cpus;        /* reader CPUs already added */
    unsigned int *slot_of;          /* by CPU number */
    unsigned int slot_of_len;
    unsigned int changes;           /* the reader's, when last looked */
    uint64_t seq;
    uint64_t first_key;             /* the first record's */
    uint64_t ended_max;             /* the last key of CPUs that ended */
    uint64_t thresh;                /* least key below the root */
    bool thresh_valid;
    int top_pending;                /* slot returned last time, or -1 */
    bool primed;
    /*
     * A time slice (merge-private.h): with has_stop, its records stop
     * before the key stop (a flag, since a damaged TSC may be any value);
     * at_cut: it starts at a cut, each CPU's slot keyed by its last TSC
     * before it.  first_key and ended_max are the whole trace's only
     * once have_globals (else asked of globals when tail_check() needs
     * them).
     */
    uint64_t stop;
    bool has_stop;
    bool at_cut;
    bool have_globals;
    merge_globals_fn *globals;
    void *globals_arg;
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

/*
 * The keys decide but for ties (slot_less() then): v's key is read once,
 * each child's once.
 */
static void sift_down(struct xa_merge *m, unsigned int i)
{
    unsigned int n = m->nr_heap, v = m->heap[i];
    const uint64_t vk = m->slots[v].key;

    for ( ;; )
    {
        unsigned int c = 2 * i + 1;
        uint64_t ck;

        if ( c >= n )
            break;
        ck = m->slots[m->heap[c]].key;
        if ( c + 1 < n )
        {
            uint64_t dk = m->slots[m->heap[c + 1]].key;

            if ( dk < ck ||
                 (dk == ck && slot_less(m, m->heap[c + 1], m->heap[c])) )
            {
                c++;
                ck = dk;
            }
        }
        if ( ck > vk || (ck == vk && !slot_less(m, m->heap[c], v)) )
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

/*
 * A record's TSC is not on its CPU's timeline: yield it at the CPU's
 * previous TSC (the TSC-less records after it carry that TSC too), and
 * keep the timeline as it was.
 */
static void quarantine(struct xa_merge *m, struct slot *sl, uint64_t last,
                       bool have)
{
    struct cpu_stream *cs = sl->cs;

    xa_diag_add(m->rd->diag, XA_DIAG_TSC_OUTLIER, sl->rec.offset,
                sl->rec.cpu);
    cs->last_tsc = last;
    cs->have_tsc = have;
    sl->rec.has_tsc = XA_TSC_QUARANTINED;
    sl->rec.mark = XA_DIAG_TSC_OUTLIER + 1;
    sl->rec.tsc = last + cs->tsc_off;
}

/*
 * The record in sl has a TSC (c) that leaves its CPU's timeline: back from
 * the last one (b), or ahead of it by more than XA_TSC_JUMP; have: whether
 * the CPU had a TSC before.  One record off the timeline, the next
 * returning to it, is one bad record: quarantined.  A TSC that goes back
 * by more than XA_TSC_JUMP and stays back is a reset: the CPU's later TSCs
 * are shifted to go on from where it was.  A small step back after a
 * record ahead of its timeline (which the fast path let by) puts the
 * timeline back.  A jump ahead that the next record confirms is real time
 * passing.
 */
static void tsc_judge(struct xa_merge *m, struct slot *sl, uint64_t last,
                      bool have)
{
    struct cpu_stream *cs = sl->cs;
    uint64_t c = cs->last_tsc, n;
    bool next = reader_peek_tsc(m->rd, cs, &n);

    cs->have_tsc = true;
    if ( !have )
    {
        /* The CPU's first TSC: the next one must not be below it. */
        if ( next && n < c )
            quarantine(m, sl, n, false);
        return;
    }
    if ( c < last )
    {
        if ( next && n >= last )
            quarantine(m, sl, last, true);
        else if ( last - c <= XA_TSC_JUMP )
        {
            xa_diag_add(m->rd->diag, XA_DIAG_TSC_BACKWARDS, sl->rec.offset,
                        sl->rec.cpu);
            sl->rec.mark = XA_DIAG_TSC_BACKWARDS + 1;
        }
        else if ( !next )
            quarantine(m, sl, last, true);
        else
        {
            xa_diag_add(m->rd->diag, XA_DIAG_TSC_RESET, sl->rec.offset,
                        sl->rec.cpu);
            cs->tsc_off += last - c;
            sl->rec.tsc = c + cs->tsc_off;
            sl->rec.mark = XA_DIAG_TSC_RESET + 1;
        }
        return;
    }
    if ( next && n < c && n >= last )
        quarantine(m, sl, last, true);
    else if ( !next )
    {
        /* Judged when it is due: see tail_check(). */
        sl->tail_jump = true;
        sl->tail_last = last;
    }
}

/*
 * A CPU's record that leapt ahead with nothing after it to confirm it, now
 * due.  If every other CPU's data has ended and it lies beyond all of it
 * by more than XA_TSC_JUMP and by more than the whole trace so far, it
 * would stretch the trace on its own evidence alone: quarantined.
 */
static void tail_check(struct xa_merge *m, struct slot *sl)
{
    struct cpu_stream *cs = sl->cs;
    uint64_t front = sl->tail_last + cs->tsc_off;

    sl->tail_jump = false;
    if ( m->nr_heap == 1 && !m->have_globals )
    {
        uint64_t first = m->first_key, ended = 0;

        m->globals(m->globals_arg, &first, &ended);
        m->first_key = first;
        if ( ended > m->ended_max )
            m->ended_max = ended;
        m->have_globals = true;
    }
    if ( m->ended_max > front )
        front = m->ended_max;
    if ( m->nr_heap == 1 && sl->key > front + XA_TSC_JUMP &&
         sl->key - front > front - m->first_key )
    {
        xa_diag_add(m->rd->diag, XA_DIAG_TSC_OUTLIER, sl->rec.offset,
                    sl->rec.cpu);
        sl->rec.has_tsc = XA_TSC_QUARANTINED;
        sl->rec.mark = XA_DIAG_TSC_OUTLIER + 1;
        sl->rec.tsc = sl->key = front;
    }
}

/* Reads the next record of slot s; returns XA_OK, XA_END, XA_AGAIN... */
static int fill_slot_slow(struct xa_merge *m, unsigned int s)
{
    struct slot *sl = &m->slots[s];
    struct cpu_stream *cs = sl->cs;
    uint64_t prev_key = sl->key;
    uint64_t last = cs->last_tsc;
    bool have = cs->have_tsc || last;
    int rc;

    if ( sl->ended )
        return XA_END;
    sl->tail_jump = false;
    rc = xa_reader_next(m->rd, sl->rec.cpu, &sl->rec);
    sl->seq = ++m->seq;
    if ( rc == XA_OK )
    {
        if ( sl->rec.has_tsc &&
             (!have || cs->last_tsc - last > XA_TSC_JUMP) )
            tsc_judge(m, sl, last, have);
        if ( sl->rec.event == XA_TRC_LOST_RECORDS && sl->rec.nr_extra >= 4 &&
             cs->tsc_off )
        {
            /* Its first lost TSC lies on the same shifted timeline. */
            uint64_t first = (sl->rec.extra[2] |
                              ((uint64_t)sl->rec.extra[3] << 32)) +
                             cs->tsc_off;

            sl->rec.extra[2] = (uint32_t)first;
            sl->rec.extra[3] = (uint32_t)(first >> 32);
        }
        sl->key = record_key(&sl->rec, prev_key);
    }
    else if ( rc == XA_END && sl->rec.offset != UINT64_MAX )
    {
        /* Yield the end marker, then end for real. */
        sl->ended = true;
        if ( sl->key > m->ended_max )
            m->ended_max = sl->key;
        sl->rec.event = XA_EV_CPU_END;
        /* Its last TSC: a run leaves the slot's record behind. */
        sl->rec.tsc = sl->key;
        sl->rec.nr_extra = 0;
        sl->rec.has_tsc = 0;
        sl->rec.mark = 0;
        sl->rec.offset = UINT64_MAX;
        rc = XA_OK;
    }
    return rc;
}

static inline int fill_slot(struct xa_merge *m, unsigned int s)
{
    struct slot *sl = &m->slots[s];

    if ( reader_fast_next(m->rd, sl->cs, sl->rec.cpu, &sl->rec) )
    {
        sl->seq = ++m->seq;
        sl->key = sl->rec.tsc;
        return XA_OK;
    }
    return fill_slot_slow(m, s);
}

/* Fills slot s and puts it in the heap, unless it has nothing now. */
static int slot_join(struct xa_merge *m, unsigned int s)
{
    int rc = fill_slot(m, s);

    if ( rc == XA_END || rc == XA_AGAIN )
        return XA_OK;
    if ( rc < 0 )
        return rc;
    m->heap[m->nr_heap] = s;
    sift_up(m, m->nr_heap++);
    m->thresh_valid = false;
    return XA_OK;
}

/* Adds the CPUs the reader found since last time, and those back. */
static int add_new_cpus(struct xa_merge *m)
{
    unsigned int n = xa_reader_nr_cpus(m->rd);
    int cpu, rc;

    m->changes = m->rd->changes;
    while ( m->known_cpus < n )
    {
        unsigned int c = xa_reader_cpu_at(m->rd, m->known_cpus++);
        unsigned int s;

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
        if ( xa_grow(&m->slot_of, &m->slot_of_len, sizeof(*m->slot_of), c,
                     16) )
            return XA_E_NOMEM;
        s = m->nr_slots++;
        m->slot_of[c] = s;
        memset(&m->slots[s], 0, sizeof(m->slots[s]));
        m->slots[s].cs = reader_cpu(m->rd, c);
        m->slots[s].rec.cpu = (uint16_t)c;
        m->slots[s].rec.offset = UINT64_MAX - 1;    /* no record yet */
        if ( m->at_cut )
            m->slots[s].key = m->slots[s].cs->last_tsc;
        if ( (rc = slot_join(m, s)) < 0 )
            return rc;
    }
    while ( (cpu = xa_reader_rejoin(m->rd)) >= 0 )
        if ( (unsigned int)cpu < m->slot_of_len &&
             (rc = slot_join(m, m->slot_of[cpu])) < 0 )
            return rc;
    return XA_OK;
}

int xa_merge_new(struct xa_reader *rd, struct xa_merge **out)
{
    struct xa_merge *m = calloc(1, sizeof(*m));

    if ( !m )
        return XA_E_NOMEM;
    m->rd = rd;
    m->top_pending = -1;
    m->have_globals = true;
    *out = m;
    return XA_OK;
}

int merge_new_slice(struct xa_reader *rd, bool at_cut, bool has_stop,
                    uint64_t stop, merge_globals_fn *globals, void *arg,
                    struct xa_merge **out)
{
    int rc = xa_merge_new(rd, out);

    if ( rc )
        return rc;
    merge_set_stop(*out, has_stop, stop);
    (*out)->at_cut = at_cut;
    (*out)->have_globals = !at_cut;
    (*out)->globals = globals;
    (*out)->globals_arg = arg;
    return XA_OK;
}

void xa_merge_free(struct xa_merge *m)
{
    if ( !m )
        return;
    free(m->slots);
    free(m->heap);
    free(m->slot_of);
    free(m);
}

/*
 * The first record of all, when it lies before every other CPU's first
 * record by more than XA_TSC_JUMP and its CPU's next record is back among
 * them: it would stretch the trace on its own, and the rest of its CPU's
 * timeline says it is off: quarantined (ordered at that next TSC).
 */
static void head_check(struct xa_merge *m)
{
    struct slot *sl = &m->slots[m->heap[0]];
    struct cpu_stream *cs = sl->cs;
    uint64_t second = m->slots[m->heap[1]].key, n;

    if ( m->nr_heap > 2 && m->slots[m->heap[2]].key < second )
        second = m->slots[m->heap[2]].key;
    if ( sl->rec.has_tsc != 1 || sl->key + XA_TSC_JUMP >= second ||
         !reader_peek_tsc(m->rd, cs, &n) || n + cs->tsc_off + XA_TSC_JUMP < second )
        return;
    quarantine(m, sl, n, false);
    sl->key = sl->rec.tsc;
    sift_down(m, 0);
    m->thresh_valid = false;
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
    int rc;

    if ( m->at_cut )
    {
        /* The reader knows the slice's CPUs, positioned: no first round. */
        m->primed = true;
        rc = add_new_cpus(m);
        if ( m->nr_heap )
            m->first_key = m->slots[m->heap[0]].key;
        return rc;
    }
    for ( ;; )
    {
        unsigned int before = xa_reader_nr_cpus(m->rd);
        uint64_t windows = xa_reader_stats(m->rd)->windows;

        rc = xa_reader_scan(m->rd);

        if ( rc == XA_END )
            break;
        if ( rc < 0 )
            return rc;
        if ( xa_reader_stats(m->rd)->windows > windows &&
             xa_reader_nr_cpus(m->rd) == before &&
             xa_reader_stats(m->rd)->windows > before + 1u )
            break;
        if ( m->rd->held > m->rd->lookahead_max )
            break;
    }
    m->primed = true;
    rc = add_new_cpus(m);
    if ( rc == XA_OK && m->nr_heap > 1 )
        head_check(m);
    if ( m->nr_heap )
        m->first_key = m->slots[m->heap[0]].key;
    return rc;
}

/*
 * The threshold below which the root stays on top: the least key of its
 * children (the root, having just advanced, wins ties).
 */
static inline uint64_t root_thresh(struct xa_merge *m)
{
    if ( !m->thresh_valid )
    {
        m->thresh = UINT64_MAX;
        if ( m->nr_heap > 1 )
            m->thresh = m->slots[m->heap[1]].key;
        if ( m->nr_heap > 2 && m->slots[m->heap[2]].key < m->thresh )
            m->thresh = m->slots[m->heap[2]].key;
        m->thresh_valid = true;
    }
    return m->thresh;
}

static inline int merge_next(struct xa_merge *m, const struct xa_record **rec)
{
    int rc;

    if ( !m->primed && (rc = prime(m)) < 0 )
        return rc;

    if ( m->top_pending >= 0 )
    {
        unsigned int s = (unsigned int)m->top_pending;

        m->top_pending = -1;
        rc = fill_slot(m, s);
        if ( rc < 0 )
            return rc;
        if ( rc != XA_OK )
        {
            /* Ended, or set aside until its next window is met. */
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
            if ( m->slots[s].key > root_thresh(m) )
            {
                sift_down(m, 0);
                m->thresh_valid = false;
            }
        }
        if ( m->rd->changes != m->changes && (rc = add_new_cpus(m)) < 0 )
            return rc;
    }

    while ( !m->nr_heap )
    {
        /* Only CPUs set aside are left: scan on until one comes back. */
        if ( m->rd->changes != m->changes )
        {
            if ( (rc = add_new_cpus(m)) < 0 )
                return rc;
            continue;
        }
        rc = xa_reader_scan(m->rd);
        if ( rc < 0 )
            return rc;
        if ( rc == XA_END && m->rd->changes == m->changes )
            return XA_END;
    }
    if ( m->has_stop && m->slots[m->heap[0]].key >= m->stop )
        return XA_AGAIN;
    m->top_pending = (int)m->heap[0];
    if ( __builtin_expect(m->slots[m->heap[0]].tail_jump, 0) )
        tail_check(m, &m->slots[m->heap[0]]);
    *rec = &m->slots[m->heap[0]].rec;
    return XA_OK;
}

int xa_merge_next(struct xa_merge *m, const struct xa_record **rec)
{
    return merge_next(m, rec);
}

/*
 * Runs: once a record of the CPU on top is out, the CPU's next ordinary
 * records are decoded straight into out while they stay at or below the
 * runner-up's key, with no heap operation and no copy through the slot.
 * The record that ends a run goes back into the slot, and merge_next()
 * takes over from there, as if it had read it itself: same records, same
 * order, same sequence numbers.
 */
unsigned int xa_merge_read(struct xa_merge *m, struct xa_record *out,
                           unsigned int max, int *rc)
{
    const struct xa_record *rec;
    unsigned int n = 0;

    *rc = XA_OK;
    while ( n < max && (*rc = merge_next(m, &rec)) == XA_OK )
    {
        unsigned int s = (unsigned int)m->top_pending, k;
        struct slot *sl = &m->slots[s];
        uint64_t thresh;
        bool over;

        out[n++] = *rec;
        if ( rec->event == XA_EV_CPU_END )
            continue;
        /* A slice's run stops before its stop key, as merge_next() does. */
        thresh = root_thresh(m);
        if ( m->has_stop && thresh >= m->stop )
            thresh = m->stop - 1;
        k = reader_run(m->rd, sl->cs, sl->rec.cpu, &out[n], max - n,
                       thresh, &over);
        if ( !k )
            continue;
        /* Only the last record's sequence number and key are ever read. */
        m->seq += k;
        sl->seq = m->seq;
        sl->key = out[n + k - 1].tsc;
        if ( over )
        {
            /* Not this CPU's turn: the slot holds it, sifted down. */
            sl->rec = out[n + k - 1];
            sift_down(m, 0);
            m->thresh_valid = false;
            m->top_pending = -1;
            k--;
        }
        n += k;
    }
    return n;
}

int merge_prime(struct xa_merge *m)
{
    return m->primed ? XA_OK : prime(m);
}

void merge_set_stop(struct xa_merge *m, bool has_stop, uint64_t stop)
{
    m->has_stop = has_stop;
    /* At least 1: a run's threshold is stop - 1. */
    m->stop = stop ? stop : 1;
}

const struct xa_reader *merge_reader(const struct xa_merge *m)
{
    return m->rd;
}

void merge_get_globals(const struct xa_merge *m, uint64_t *first_key,
                       uint64_t *ended_max)
{
    *first_key = m->first_key;
    *ended_max = m->ended_max;
}

void merge_set_globals(struct xa_merge *m, uint64_t first_key,
                       uint64_t ended_max)
{
    m->first_key = first_key;
    if ( ended_max > m->ended_max )
        m->ended_max = ended_max;
    m->have_globals = true;
}

/* A cursor's place in the file, or UINT64_MAX without a window. */
static uint64_t cursor_at(const struct cpu_stream *cs)
{
    return cs->start ? cs->base + (uint64_t)(cs->p - cs->start) : UINT64_MAX;
}

struct merge_cut_cpu {
    struct xa_record rec;
    uint64_t key, tail_last, at, win_end, last_tsc, tsc_off;
    unsigned int cpu;
    bool ended, tail_jump, have_tsc, cs_ended;
    uint8_t mark;
};

struct merge_cut {
    unsigned int n;
    bool valid;
    struct merge_cut_cpu c[];
};

static int cmp_cut_cpu(const void *a, const void *b)
{
    const struct merge_cut_cpu *x = a, *y = b;

    return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

struct merge_cut *merge_cut_take(const struct xa_merge *m)
{
    struct merge_cut *cut = calloc(1, sizeof(*cut) +
                                   m->nr_heap * sizeof(cut->c[0]));
    unsigned int i;

    if ( !cut )
        return NULL;
    /* Nothing set aside, or found and not yet in the heap. */
    cut->valid = m->primed && m->top_pending < 0 && !m->rd->nr_aside &&
                 m->rd->changes == m->changes;
    cut->n = m->nr_heap;
    for ( i = 0; i < m->nr_heap; i++ )
    {
        const struct slot *sl = &m->slots[m->heap[i]];
        const struct cpu_stream *cs = sl->cs;
        struct merge_cut_cpu *c = &cut->c[i];

        /* Field by field: the words past nr_extra are compared too. */
        c->rec.tsc = sl->rec.tsc;
        c->rec.offset = sl->rec.offset;
        c->rec.event = sl->rec.event;
        c->rec.cpu = sl->rec.cpu;
        c->rec.nr_extra = sl->rec.nr_extra;
        c->rec.has_tsc = sl->rec.has_tsc;
        c->rec.mark = sl->rec.mark;
        memcpy(c->rec.extra, sl->rec.extra, sizeof(c->rec.extra));
        c->key = sl->key;
        c->tail_last = sl->tail_last;
        c->ended = sl->ended;
        c->tail_jump = sl->tail_jump;
        c->cpu = sl->rec.cpu;
        c->at = cursor_at(cs);
        c->win_end = cs->base + (uint64_t)(cs->end - cs->start);
        c->last_tsc = cs->last_tsc;
        c->tsc_off = cs->tsc_off;
        c->have_tsc = cs->have_tsc || cs->last_tsc;
        c->cs_ended = cs->ended;
        c->mark = cs->mark;
        if ( cs->aside )
            cut->valid = false;
    }
    qsort(cut->c, cut->n, sizeof(cut->c[0]), cmp_cut_cpu);
    return cut;
}

void merge_cut_free(struct merge_cut *cut)
{
    free(cut);
}

bool merge_cut_equal(const struct merge_cut *a, const struct merge_cut *b)
{
    unsigned int i, j;

    if ( !a || !b || !a->valid || !b->valid || a->n != b->n )
        return false;
    for ( i = 0; i < a->n; i++ )
    {
        const struct merge_cut_cpu *x = &a->c[i], *y = &b->c[i];

        if ( x->rec.tsc != y->rec.tsc ||
             x->rec.offset != y->rec.offset || x->rec.event != y->rec.event ||
             x->rec.cpu != y->rec.cpu || x->rec.nr_extra != y->rec.nr_extra ||
             x->rec.has_tsc != y->rec.has_tsc || x->rec.mark != y->rec.mark ||
             memcmp(x->rec.extra, y->rec.extra, sizeof(x->rec.extra)) ||
             x->key != y->key || x->tail_last != y->tail_last ||
             x->at != y->at || x->win_end != y->win_end ||
             x->last_tsc != y->last_tsc || x->tsc_off != y->tsc_off ||
             x->cpu != y->cpu || x->ended != y->ended ||
             x->tail_jump != y->tail_jump || x->have_tsc != y->have_tsc ||
             x->cs_ended != y->cs_ended || x->mark != y->mark )
            return false;
        /*
         * Two CPUs not yet advanced in the slice tie on their keys by when
         * they advanced before the cut, which the slice does not know.
         */
        for ( j = 0; j < i; j++ )
            if ( a->c[j].key == x->key )
                return false;
    }
    return true;
}
