/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Time slices read and merged in worker threads, consumed in order
 * (pipeline.h, docs/parallel-summary.md).
 *
 * Each worker takes the next slice: a reader positioned at its cut
 * (reader/slice-private.h) and a merge that stops before the next cut
 * (merge/merge-private.h), whose records go into the slice's ring of
 * batches.  The calling thread takes the slices in order.  Slice k is
 * taken only if its merge, primed at its cut, is in the state the merge
 * of the slice before it stopped in (merge_cut_equal()): then it yields
 * what the single pass yields from there.  Otherwise its worker is
 * stopped, and the merge of the slice before goes on through slice k's
 * time in the calling thread: what the single pass does.  Either way the
 * records, anomalies and counters are the single pass's.
 *
 * What the fills at a cut count (each CPU's first record after it) was
 * counted by the slice before, which read them to stop: a slice's
 * counters start once it is primed.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <xenalyze/pipeline.h>

#include "merge/merge-private.h"
#include "reader/slice-private.h"

#define SLICE_BATCH XA_PIPE_BATCH
#define SLICE_RING 8
#define SLICE_RECORDS_DEFAULT 1000000u

struct slice_batch {
    unsigned int n;
    struct xa_record recs[SLICE_BATCH];
    uint64_t aux[SLICE_BATCH];
};

struct slice {
    struct xa_slices *owner;
    struct xa_reader *rd;
    struct xa_merge *m;
    struct xa_diag prime_diag;      /* the fills at the cut: not counted */
    struct xa_diag diag;            /* from then on */
    struct xa_reader_stats base;    /* counters once primed */
    struct merge_cut *start;        /* its state once primed */
    struct slice_batch *ring;       /* filled: [tail, head) mod RING */
    unsigned int head, tail;
    bool primed, done, cancel, globals_ready;
    int rc;                         /* XA_AGAIN at its stop, XA_END... */
    int prime_rc;                   /* set once, before primed */
    uint64_t g_first, g_ended;      /* the trace's, before the slice */
};

struct xa_slices {
    struct reader_index *ix;
    struct reader_cut *cuts;
    unsigned int nr_cuts;
    struct slice *sl;               /* nr_cuts + 1 */
    unsigned int nr;
    unsigned int batch;
    unsigned int next;              /* the next slice for a worker */
    unsigned int at;                /* the slice being consumed */
    unsigned int ahead;             /* slices started up to at + ahead */
    bool abort;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    struct xa_slice_feed {
        xa_pipe_produce_fn *produce;
        void *parg;
        xa_pipe_consume_fn *consume;
        void *carg;
    } feed;
    struct slice_batch *own;        /* the calling thread's batch */
    struct xa_diag diag;            /* the reader's and merge's */
    struct xa_diag cont_diag;       /* a merge gone on, meanwhile */
    struct xa_reader_stats stats;
    struct xa_slices_stats info;
    uint64_t first_key, ended_max;  /* the trace's so far */
};

static void slice_lock(struct xa_slices *s)
{
    pthread_mutex_lock(&s->lock);
}

static void slice_unlock_wake(struct xa_slices *s)
{
    pthread_cond_broadcast(&s->cond);
    pthread_mutex_unlock(&s->lock);
}

/* merge_globals_fn: known once the slices before are consumed. */
static void slice_globals(void *arg, uint64_t *first_key, uint64_t *ended)
{
    struct slice *sl = arg;
    struct xa_slices *s = sl->owner;

    slice_lock(s);
    while ( !sl->globals_ready && !sl->cancel )
        pthread_cond_wait(&s->cond, &s->lock);
    *first_key = sl->g_first;
    *ended = sl->g_ended;
    pthread_mutex_unlock(&s->lock);
}

static void run_slice(struct xa_slices *s, unsigned int k)
{
    struct slice *sl = &s->sl[k];
    bool has_stop = k + 1 < s->nr;
    int rc = XA_E_NOMEM;

    xa_diag_init(&sl->prime_diag);
    xa_diag_init(&sl->diag);
    sl->ring = calloc(SLICE_RING, sizeof(*sl->ring));
    if ( sl->ring )
        rc = reader_open_slice(s->ix, k ? &s->cuts[k - 1] : NULL,
                               k ? &sl->prime_diag : &sl->diag, &sl->rd);
    if ( !rc )
        rc = merge_new_slice(sl->rd, k > 0, has_stop,
                             has_stop ? s->cuts[k].tsc : 0, slice_globals,
                             sl, &sl->m);
    if ( !rc )
        rc = merge_prime(sl->m);
    if ( !rc && k )
    {
        sl->base = *xa_reader_stats(sl->rd);
        reader_set_diag(sl->rd, &sl->diag);
        if ( !(sl->start = merge_cut_take(sl->m)) )
            rc = XA_E_NOMEM;
    }
    slice_lock(s);
    sl->primed = true;
    sl->rc = sl->prime_rc = rc;
    slice_unlock_wake(s);

    while ( rc == XA_OK )
    {
        struct slice_batch *b;

        slice_lock(s);
        while ( sl->head - sl->tail == SLICE_RING && !sl->cancel )
            pthread_cond_wait(&s->cond, &s->lock);
        if ( sl->cancel )
        {
            pthread_mutex_unlock(&s->lock);
            break;
        }
        b = &sl->ring[sl->head % SLICE_RING];
        pthread_mutex_unlock(&s->lock);

        b->n = xa_merge_read(sl->m, b->recs, s->batch, &rc);

        slice_lock(s);
        sl->head++;
        sl->rc = rc;
        slice_unlock_wake(s);
    }
    slice_lock(s);
    sl->done = true;
    slice_unlock_wake(s);
}

static void *slice_worker(void *arg)
{
    struct xa_slices *s = arg;

    slice_lock(s);
    for ( ;; )
    {
        unsigned int k;

        while ( !s->abort && s->next < s->nr && s->next > s->at + s->ahead )
            pthread_cond_wait(&s->cond, &s->lock);
        if ( s->abort || s->next >= s->nr )
            break;
        k = s->next++;
        pthread_mutex_unlock(&s->lock);
        run_slice(s, k);
        slice_lock(s);
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

static void slice_dispose(struct slice *sl)
{
    if ( !sl )
        return;
    xa_merge_free(sl->m);
    xa_reader_free(sl->rd);
    free(sl->ring);
    merge_cut_free(sl->start);
    sl->start = NULL;
    sl->m = NULL;
    sl->rd = NULL;
    sl->ring = NULL;
}

static void feed_batch(struct xa_slices *s, struct slice_batch *b)
{
    unsigned int i;

    if ( !b->n )
        return;
    if ( s->feed.produce )
        for ( i = 0; i < b->n; i++ )
        {
            b->aux[i] = 0;
            s->feed.produce(s->feed.parg, &b->recs[i], &b->aux[i]);
        }
    s->feed.consume(s->feed.carg, b->recs, b->aux, b->n);
}

/* What a merge counted from base on, and its CPUs' ends. */
static void slice_account(struct xa_slices *s, const struct xa_reader *rd,
                          const struct xa_reader_stats *base,
                          const struct xa_merge *m)
{
    const struct xa_reader_stats *st = xa_reader_stats(rd);
    uint64_t first, ended;

    s->stats.records += st->records - base->records;
    s->stats.tscless += st->tscless - base->tscless;
    s->stats.wraps += st->wraps - base->wraps;
    s->stats.lost += st->lost - base->lost;
    if ( st->readahead_peak > s->stats.readahead_peak )
        s->stats.readahead_peak = st->readahead_peak;
    merge_get_globals(m, &first, &ended);
    if ( ended > s->ended_max )
        s->ended_max = ended;
}

/* Slice k taken from its worker's ring. */
static int drain(struct xa_slices *s, struct slice *sl)
{
    int rc;

    for ( ;; )
    {
        struct slice_batch *b;

        slice_lock(s);
        while ( sl->head == sl->tail && !sl->done )
            pthread_cond_wait(&s->cond, &s->lock);
        if ( sl->head == sl->tail )
        {
            rc = sl->rc;
            pthread_mutex_unlock(&s->lock);
            break;
        }
        b = &sl->ring[sl->tail % SLICE_RING];
        pthread_mutex_unlock(&s->lock);

        feed_batch(s, b);

        slice_lock(s);
        sl->tail++;
        slice_unlock_wake(s);
    }
    xa_diag_merge(&s->diag, &sl->diag);
    slice_account(s, sl->rd, &sl->base, sl->m);
    return rc == XA_AGAIN || rc == XA_END ? XA_OK : rc;
}

/* Slice k's time merged on by prev's merge, in this thread. */
static int go_on(struct xa_slices *s, struct slice *prev, unsigned int k)
{
    struct xa_reader_stats base = *xa_reader_stats(prev->rd);
    int rc;

    xa_diag_init(&s->cont_diag);
    reader_set_diag(prev->rd, &s->cont_diag);
    merge_set_globals(prev->m, s->first_key, s->ended_max);
    merge_set_stop(prev->m, k + 1 < s->nr,
                   k + 1 < s->nr ? s->cuts[k].tsc : 0);
    do
    {
        s->own->n = xa_merge_read(prev->m, s->own->recs, s->batch, &rc);
        feed_batch(s, s->own);
    } while ( rc == XA_OK );
    xa_diag_merge(&s->diag, &s->cont_diag);
    slice_account(s, prev->rd, &base, prev->m);
    return rc == XA_AGAIN || rc == XA_END ? XA_OK : rc;
}

/* Without a worker thread: the single pass, over the index. */
static int run_inline(struct xa_slices *s)
{
    struct slice *sl = &s->sl[0];
    int rc;

    xa_diag_init(&sl->diag);
    if ( (rc = reader_open_slice(s->ix, NULL, &sl->diag, &sl->rd)) ||
         (rc = merge_new_slice(sl->rd, false, false, 0, NULL, NULL,
                               &sl->m)) )
        return rc;
    do
    {
        s->own->n = xa_merge_read(sl->m, s->own->recs, s->batch, &rc);
        feed_batch(s, s->own);
    } while ( rc == XA_OK );
    xa_diag_merge(&s->diag, &sl->diag);
    slice_account(s, sl->rd, &sl->base, sl->m);
    return rc == XA_END ? XA_OK : rc;
}

/*
 * Slice k (> 0) starts where the single pass is at its cut: prev's
 * merge, stopped there, is in the state k's was primed in.
 */
static bool slice_fits(const struct slice *prev, const struct slice *sl)
{
    struct merge_cut *end;
    bool ok;

    if ( sl->prime_rc < 0 || !sl->start ||
         !(end = merge_cut_take(prev->m)) )
        return false;
    ok = merge_cut_equal(end, sl->start);
    merge_cut_free(end);
    return ok;
}

int xa_slices_run(struct xa_slices *s, unsigned int workers,
                  unsigned int batch, xa_pipe_produce_fn *produce,
                  void *parg, xa_pipe_consume_fn *consume, void *carg)
{
    pthread_t *th = NULL;
    unsigned int nth = 0, k;
    struct slice *prev = NULL;
    int rc = XA_OK;

    s->batch = batch && batch < SLICE_BATCH ? batch : SLICE_BATCH;
    s->feed = (struct xa_slice_feed){ produce, parg, consume, carg };
    s->ahead = workers ? workers : 1;
    s->own = calloc(1, sizeof(*s->own));
    th = calloc(s->ahead, sizeof(*th));
    if ( !s->own || !th )
    {
        free(th);
        return XA_E_NOMEM;
    }
    for ( nth = 0; nth < s->ahead; nth++ )
        if ( pthread_create(&th[nth], NULL, slice_worker, s) )
            break;
    if ( !nth )
    {
        rc = run_inline(s);
        goto out;
    }

    for ( k = 0; k < s->nr && rc == XA_OK; k++ )
    {
        struct slice *sl = &s->sl[k];
        bool take;

        slice_lock(s);
        s->at = k;
        pthread_cond_broadcast(&s->cond);
        while ( !sl->primed )
            pthread_cond_wait(&s->cond, &s->lock);
        if ( !k && sl->m )
            merge_get_globals(sl->m, &s->first_key, &s->ended_max);
        pthread_mutex_unlock(&s->lock);
        /* prev's worker is done with it; sl->start is set once primed. */
        take = !k || slice_fits(prev, sl);
        slice_lock(s);
        if ( take )
        {
            sl->g_first = s->first_key;
            sl->g_ended = s->ended_max;
            sl->globals_ready = true;
        }
        else
        {
            sl->cancel = true;
            pthread_cond_broadcast(&s->cond);
            while ( !sl->done )
                pthread_cond_wait(&s->cond, &s->lock);
        }
        slice_unlock_wake(s);

        if ( take )
        {
            rc = drain(s, sl);
            slice_dispose(prev);
            prev = sl;
            s->info.taken++;
        }
        else
        {
            slice_dispose(sl);
            rc = go_on(s, prev, k);
            s->info.continued++;
        }
    }

 out:
    slice_lock(s);
    s->abort = true;
    for ( k = 0; k < s->nr; k++ )
        s->sl[k].cancel = true;
    slice_unlock_wake(s);
    while ( nth )
        pthread_join(th[--nth], NULL);
    for ( k = 0; k < s->nr; k++ )
        slice_dispose(&s->sl[k]);
    free(th);

    s->stats.record_bytes = s->ix->window_bytes -
                            s->diag.e[XA_DIAG_TRUNCATED_RECORD].bytes;
    return rc;
}

int xa_slices_new(struct xa_reader *rd, uint64_t slice_records,
                  struct xa_slices **out)
{
    struct xa_slices *s = calloc(1, sizeof(*s));
    unsigned int k;
    int rc;

    if ( !s )
        return XA_E_NOMEM;
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->cond, NULL);
    xa_diag_init(&s->diag);
    if ( (rc = reader_index_build(rd, &s->ix)) )
        goto fail;
    if ( !slice_records )
        slice_records = SLICE_RECORDS_DEFAULT;
    /*
     * Past the read-ahead bound the single pass may set a CPU aside,
     * which slices cannot see: one slice.
     */
    if ( s->ix->held_max > s->ix->lookahead )
        s->info.one_slice_bound = true;
    else if ( (rc = reader_index_cuts(s->ix, slice_records, &s->cuts,
                                      &s->nr_cuts, &s->info.rejected)) )
        goto fail;
    s->nr = s->nr_cuts + 1;
    s->info.slices = s->nr;
    if ( !(s->sl = calloc(s->nr, sizeof(*s->sl))) )
    {
        rc = XA_E_NOMEM;
        goto fail;
    }
    for ( k = 0; k < s->nr; k++ )
        s->sl[k].owner = s;
    s->stats = s->ix->stats;
    s->stats.records = s->stats.tscless = s->stats.wraps = s->stats.lost = 0;
    s->stats.readahead_peak = 0;
    *out = s;
    return XA_OK;

 fail:
    xa_slices_free(s);
    return rc;
}

void xa_slices_free(struct xa_slices *s)
{
    unsigned int k;

    if ( !s )
        return;
    if ( s->sl )
        for ( k = 0; k < s->nr; k++ )
            slice_dispose(&s->sl[k]);
    free(s->sl);
    free(s->own);
    reader_cuts_free(s->cuts, s->nr_cuts);
    reader_index_free(s->ix);
    pthread_cond_destroy(&s->cond);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

const struct xa_reader_stats *xa_slices_reader_stats(const struct xa_slices *s)
{
    return &s->stats;
}

void xa_slices_diag(const struct xa_slices *s, struct xa_diag *diag)
{
    xa_diag_merge(diag, &s->ix->diag);
    xa_diag_merge(diag, &s->diag);
}

const struct xa_slices_stats *xa_slices_stats(const struct xa_slices *s)
{
    return &s->info;
}
