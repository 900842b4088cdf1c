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
 *
 * Run apart (xa_slices_run_apart()), a worker takes a chunk of
 * XA_SLICES_CHUNK slices instead, and is its consumer: a state of its
 * own, warmed up on the slice before the chunk and cut, is fed the
 * chunk's slices, each checked against the one before as above (the
 * merge before goes on where one does not fit).  The calling thread takes
 * the chunks in order: one whose first slice fits the merge the chunk
 * before ended with, and whose state fits main's, is absorbed; any other
 * is redone by that merge, into main.  A chunk's anomalies and counters
 * count only if it is absorbed.
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

/* What the readers and merges counted, added in slice order. */
struct slice_acc {
    struct xa_diag diag;
    struct xa_reader_stats stats;   /* records, tscless, wraps, lost, peak */
    uint64_t ended_max;             /* the last key of CPUs ended */
    unsigned int taken, continued;  /* slices read apart, merged on */
};

/*
 * A chunk of slices analysed apart (xa_slices_run_apart()).  Its worker
 * owns all but done, cancel and the base (under the lock) until done;
 * then the calling thread.
 */
struct chunk {
    struct xa_slices *owner;
    unsigned int first, end;        /* its slices */
    void *st;                       /* its state (main for chunk 0) */
    struct slice warm;              /* the warm-up's reader and merge */
    struct slice *last;             /* the merge it ends with */
    struct merge_cut *start;        /* its first slice's, once primed */
    struct slice_batch *b;
    struct slice_acc acc;
    int rc;                         /* XA_OK: warmed up, cut, read */
    bool done, cancel, base_ready;
    uint64_t g_first, g_ended;      /* the trace's, before the chunk */
};

struct xa_slices {
    struct reader_index *ix;
    struct reader_cut *cuts;
    unsigned int nr_cuts;
    struct slice *sl;               /* nr_cuts + 1 */
    unsigned int nr;
    unsigned int batch;
    void (*job)(struct xa_slices *s, unsigned int k);
    unsigned int jobs;              /* slices or chunks */
    unsigned int next;              /* the next job for a worker */
    unsigned int at;                /* the job being consumed */
    unsigned int ahead;             /* jobs started up to at + ahead */
    bool abort;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    struct xa_slice_feed {
        xa_pipe_produce_fn *produce;
        void *parg;
        xa_pipe_consume_fn *consume;
        void *carg;
    } feed;
    const struct xa_slice_ops *ops; /* run apart: */
    void *ops_arg, *main;
    struct chunk *ch;
    unsigned int nr_chunks;
    uint64_t pub_first, pub_ended;  /* known so far (under the lock) */
    struct slice_batch *own;        /* the calling thread's batch */
    struct slice_acc acc;           /* the slices consumed */
    struct xa_reader_stats stats;
    struct xa_slices_stats info;
    uint64_t first_key;             /* the trace's */
};

/* Where a merge's records go: the feed, or a state (run apart). */
struct slice_sink {
    struct xa_slices *s;
    struct slice_batch *b;
    void *st;                       /* with s->ops */
    struct chunk *ch;               /* in a worker: ends once cancelled */
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

/*
 * merge_globals_fn of a chunk's slices: the chunks before, once consumed,
 * and the chunk's own slices before (counted by the chunk's thread, the
 * one asking).
 */
static void chunk_globals(void *arg, uint64_t *first_key, uint64_t *ended)
{
    struct chunk *ch = arg;
    struct xa_slices *s = ch->owner;

    slice_lock(s);
    while ( !ch->base_ready && !ch->cancel )
        pthread_cond_wait(&s->cond, &s->lock);
    *first_key = ch->g_first;
    *ended = ch->g_ended > ch->acc.ended_max ? ch->g_ended
                                             : ch->acc.ended_max;
    pthread_mutex_unlock(&s->lock);
}

/* merge_globals_fn of a warm-up: what is known now, without waiting. */
static void warm_globals(void *arg, uint64_t *first_key, uint64_t *ended)
{
    struct xa_slices *s = arg;

    slice_lock(s);
    *first_key = s->pub_first;
    *ended = s->pub_ended;
    pthread_mutex_unlock(&s->lock);
}

/*
 * Slice k's reader and merge, primed at its cut (at the trace's start for
 * slice 0, stopping at its end): what priming counts goes to prime_diag
 * (the slice before counted it), the rest to diag from base on.
 */
static int slice_open(struct xa_slices *s, unsigned int k,
                      merge_globals_fn *globals, void *arg, struct slice *sl)
{
    bool has_stop = k + 1 < s->nr;
    int rc;

    xa_diag_init(&sl->prime_diag);
    xa_diag_init(&sl->diag);
    rc = reader_open_slice(s->ix, k ? &s->cuts[k - 1] : NULL,
                           k ? &sl->prime_diag : &sl->diag, &sl->rd);
    if ( !rc )
        rc = merge_new_slice(sl->rd, k > 0, has_stop,
                             has_stop ? s->cuts[k].tsc : 0, globals, arg,
                             &sl->m);
    if ( !rc )
        rc = merge_prime(sl->m);
    if ( !rc && k )
    {
        sl->base = *xa_reader_stats(sl->rd);
        reader_set_diag(sl->rd, &sl->diag);
        if ( !(sl->start = merge_cut_take(sl->m)) )
            rc = XA_E_NOMEM;
    }
    return rc;
}

static void run_slice(struct xa_slices *s, unsigned int k)
{
    struct slice *sl = &s->sl[k];
    int rc = XA_E_NOMEM;

    sl->ring = calloc(SLICE_RING, sizeof(*sl->ring));
    if ( sl->ring )
        rc = slice_open(s, k, slice_globals, sl, sl);
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

/* Takes the next job (slice or chunk) while it is within reach. */
static void *slice_worker(void *arg)
{
    struct xa_slices *s = arg;

    slice_lock(s);
    for ( ;; )
    {
        unsigned int k;

        while ( !s->abort && s->next < s->jobs &&
                s->next > s->at + s->ahead )
            pthread_cond_wait(&s->cond, &s->lock);
        if ( s->abort || s->next >= s->jobs )
            break;
        k = s->next++;
        pthread_mutex_unlock(&s->lock);
        s->job(s, k);
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

/* What sl's merge counted from its base on, and its CPUs' ends. */
static void slice_account(struct slice_acc *acc, const struct slice *sl)
{
    const struct xa_reader_stats *st = xa_reader_stats(sl->rd);
    uint64_t first, ended;

    xa_diag_merge(&acc->diag, &sl->diag);
    acc->stats.records += st->records - sl->base.records;
    acc->stats.tscless += st->tscless - sl->base.tscless;
    acc->stats.wraps += st->wraps - sl->base.wraps;
    acc->stats.lost += st->lost - sl->base.lost;
    if ( st->readahead_peak > acc->stats.readahead_peak )
        acc->stats.readahead_peak = st->readahead_peak;
    merge_get_globals(sl->m, &first, &ended);
    if ( ended > acc->ended_max )
        acc->ended_max = ended;
}

/* A chunk's count after the slices before it. */
static void acc_add(struct slice_acc *to, const struct slice_acc *from)
{
    xa_diag_merge(&to->diag, &from->diag);
    to->stats.records += from->stats.records;
    to->stats.tscless += from->stats.tscless;
    to->stats.wraps += from->stats.wraps;
    to->stats.lost += from->stats.lost;
    if ( from->stats.readahead_peak > to->stats.readahead_peak )
        to->stats.readahead_peak = from->stats.readahead_peak;
    if ( from->ended_max > to->ended_max )
        to->ended_max = from->ended_max;
    to->taken += from->taken;
    to->continued += from->continued;
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
    slice_account(&s->acc, sl);
    return rc == XA_AGAIN || rc == XA_END ? XA_OK : rc;
}

static bool chunk_cancelled(struct xa_slices *s, struct chunk *ch)
{
    bool cancel;

    slice_lock(s);
    cancel = ch->cancel;
    pthread_mutex_unlock(&s->lock);
    return cancel;
}

/*
 * sl's merge read to its stop into the sink, and counted into acc (NULL:
 * nothing counts).
 */
static int pump(const struct slice_sink *k, struct slice *sl,
                struct slice_acc *acc)
{
    struct slice_batch *b = k->b;
    int rc;

    do
    {
        if ( k->ch && chunk_cancelled(k->s, k->ch) )
            return XA_E_AGAIN;
        b->n = xa_merge_read(sl->m, b->recs, k->s->batch, &rc);
        if ( !k->s->ops )
            feed_batch(k->s, b);
        else if ( b->n )
            k->s->ops->feed(k->st, b->recs, b->n);
    } while ( rc == XA_OK );
    if ( acc )
        slice_account(acc, sl);
    return rc == XA_AGAIN || rc == XA_END ? XA_OK : rc;
}

/*
 * The time up to slice k's end merged on by prev's merge, stopped where
 * it starts.  known: the trace's globals so far (in the calling thread,
 * once the slices before are consumed); else the merge still asks.
 */
static int go_on(const struct slice_sink *k, struct slice *prev,
                 unsigned int end, struct slice_acc *acc, bool known)
{
    struct xa_slices *s = k->s;

    xa_diag_init(&prev->diag);
    reader_set_diag(prev->rd, &prev->diag);
    prev->base = *xa_reader_stats(prev->rd);
    if ( known )
        merge_set_globals(prev->m, s->first_key, s->acc.ended_max);
    merge_set_stop(prev->m, end + 1 < s->nr,
                   end + 1 < s->nr ? s->cuts[end].tsc : 0);
    return pump(k, prev, acc);
}

/* Without a worker thread: the single pass, over the index. */
static int run_inline(const struct slice_sink *k)
{
    struct slice *sl = &k->s->sl[0];
    int rc;

    if ( (rc = slice_open(k->s, 0, NULL, NULL, sl)) )
        return rc;
    merge_set_stop(sl->m, false, 0);
    return pump(k, sl, &k->s->acc);
}

/*
 * A slice (> 0) starts where the single pass is at its cut: prev's merge,
 * stopped there, is in the state the slice's (start) was primed in.
 */
static bool slice_fits(const struct slice *prev, const struct merge_cut *start)
{
    struct merge_cut *end;
    bool ok;

    if ( !start || !(end = merge_cut_take(prev->m)) )
        return false;
    ok = merge_cut_equal(end, start);
    merge_cut_free(end);
    return ok;
}

/* The workers; nth: how many there are (0: none could be made). */
static int workers_start(struct xa_slices *s, unsigned int workers,
                         pthread_t **th, unsigned int *nth)
{
    s->ahead = workers ? workers : 1;
    s->own = calloc(1, sizeof(*s->own));
    *th = calloc(s->ahead, sizeof(**th));
    *nth = 0;
    if ( !s->own || !*th )
        return XA_E_NOMEM;
    while ( *nth < s->ahead &&
            !pthread_create(&(*th)[*nth], NULL, slice_worker, s) )
        (*nth)++;
    return XA_OK;
}

/* Stops and joins the workers; the readers' counters, as the single pass. */
static void workers_stop(struct xa_slices *s, pthread_t *th, unsigned int nth)
{
    unsigned int k;

    slice_lock(s);
    s->abort = true;
    for ( k = 0; k < s->nr; k++ )
        s->sl[k].cancel = true;
    for ( k = 0; k < s->nr_chunks; k++ )
        s->ch[k].cancel = true;
    slice_unlock_wake(s);
    while ( nth )
        pthread_join(th[--nth], NULL);
    free(th);
    for ( k = 0; k < s->nr; k++ )
        slice_dispose(&s->sl[k]);

    s->stats.records = s->acc.stats.records;
    s->stats.tscless = s->acc.stats.tscless;
    s->stats.wraps = s->acc.stats.wraps;
    s->stats.lost = s->acc.stats.lost;
    s->stats.readahead_peak = s->acc.stats.readahead_peak;
    s->stats.record_bytes = s->ix->window_bytes -
                            s->acc.diag.e[XA_DIAG_TRUNCATED_RECORD].bytes;
    s->info.taken = s->acc.taken;
    s->info.continued = s->acc.continued;
}

int xa_slices_run(struct xa_slices *s, unsigned int workers,
                  unsigned int batch, xa_pipe_produce_fn *produce,
                  void *parg, xa_pipe_consume_fn *consume, void *carg)
{
    struct slice_sink own;
    pthread_t *th;
    unsigned int nth, k;
    struct slice *prev = NULL;
    int rc;

    s->batch = batch && batch < SLICE_BATCH ? batch : SLICE_BATCH;
    s->feed = (struct xa_slice_feed){ produce, parg, consume, carg };
    s->job = run_slice;
    s->jobs = s->nr;
    if ( (rc = workers_start(s, workers, &th, &nth)) )
        goto out;
    own = (struct slice_sink){ .s = s, .b = s->own };
    if ( !nth )
    {
        rc = run_inline(&own);
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
            merge_get_globals(sl->m, &s->first_key, &s->acc.ended_max);
        pthread_mutex_unlock(&s->lock);
        /* prev's worker is done with it; sl->start is set once primed. */
        take = !k || (sl->prime_rc == XA_OK && slice_fits(prev, sl->start));
        slice_lock(s);
        if ( take )
        {
            sl->g_first = s->first_key;
            sl->g_ended = s->acc.ended_max;
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
            s->acc.taken++;
        }
        else
        {
            slice_dispose(sl);
            rc = go_on(&own, prev, k, &s->acc, true);
            s->acc.continued++;
        }
    }

 out:
    workers_stop(s, th, nth);
    return rc;
}

/*
 * Chunk c's slices read into its state, from its first slice's cut: each
 * slice after the first is checked against the merge of the slice before,
 * as in xa_slices_run(), and that merge goes on where it does not fit.
 */
static int chunk_read(const struct slice_sink *k, struct chunk *ch)
{
    struct xa_slices *s = k->s;
    unsigned int j;
    int rc;

    for ( j = ch->first; j < ch->end; j++ )
    {
        struct slice *sl = &s->sl[j];

        rc = slice_open(s, j, chunk_globals, ch, sl);
        if ( j == ch->first && rc )
            return rc;
        if ( j == ch->first )
        {
            ch->start = sl->start;
            sl->start = NULL;
        }
        else if ( rc || !slice_fits(ch->last, sl->start) )
        {
            slice_dispose(sl);
            if ( (rc = go_on(k, ch->last, j, &ch->acc, false)) )
                return rc;
            ch->acc.continued++;
            continue;
        }
        slice_dispose(ch->last);
        ch->last = sl;
        if ( !j )
        {
            uint64_t ended;

            /* Chunk 0, in the calling thread: the trace's first key. */
            merge_get_globals(sl->m, &s->first_key, &ended);
            slice_lock(s);
            ch->g_first = s->pub_first = s->first_key;
            slice_unlock_wake(s);
        }
        if ( (rc = pump(k, sl, &ch->acc)) )
            return rc;
        ch->acc.taken++;
    }
    return XA_OK;
}

/* A chunk's state warmed up on the slice before the chunk, then cut. */
static int chunk_warm(const struct slice_sink *k, struct chunk *ch)
{
    struct xa_slices *s = k->s;
    int rc;

    ch->warm.owner = s;
    rc = slice_open(s, ch->first - 1, warm_globals, s, &ch->warm);
    if ( !rc )
        rc = pump(k, &ch->warm, NULL);
    slice_dispose(&ch->warm);
    if ( !rc && (rc = s->ops->cut(ch->st)) > 0 )
        rc = XA_OK;
    return rc;
}

/* The job of a worker: chunk c (> 0) analysed apart. */
static void run_chunk(struct xa_slices *s, unsigned int c)
{
    struct chunk *ch = &s->ch[c];
    struct slice_sink k = { .s = s, .ch = ch };
    int rc = XA_E_NOMEM;

    if ( (k.b = ch->b = malloc(sizeof(*ch->b))) &&
         (k.st = ch->st = s->ops->open(s->ops_arg)) )
        rc = chunk_warm(&k, ch);
    if ( !rc )
        rc = chunk_read(&k, ch);
    free(ch->b);
    ch->b = NULL;
    slice_lock(s);
    ch->rc = rc;
    ch->done = true;
    slice_unlock_wake(s);
}

/*
 * Chunk c, done: absorbed into main if it starts where the single pass
 * is, in the merge and in main; else redone by prev's merge.
 */
static int chunk_take(struct xa_slices *s, const struct slice_sink *own,
                      struct chunk *ch, struct slice **prev)
{
    int arc = XA_E_AGAIN;
    bool take = !ch->rc && slice_fits(*prev, ch->start) &&
                s->ops->fits(s->main, ch->st) &&
                (arc = s->ops->absorb(s->main, ch->st)) == XA_OK;
    unsigned int j;

    if ( ch->st )
        s->ops->close(ch->st);
    ch->st = NULL;
    merge_cut_free(ch->start);
    ch->start = NULL;
    /* Not XA_E_AGAIN: main is in no state to go on from. */
    if ( !take && arc != XA_E_AGAIN )
        return arc;
    if ( take )
    {
        acc_add(&s->acc, &ch->acc);
        slice_dispose(*prev);
        *prev = ch->last;
        s->info.apart++;
        return XA_OK;
    }
    for ( j = ch->first; j < ch->end; j++ )
        slice_dispose(&s->sl[j]);
    s->acc.continued += ch->end - ch->first;
    s->info.redone++;
    return go_on(own, *prev, ch->end - 1, &s->acc, true);
}

int xa_slices_run_apart(struct xa_slices *s, unsigned int workers,
                        const struct xa_slice_ops *ops, void *arg,
                        void *main)
{
    struct slice_sink own;
    struct slice *prev;
    pthread_t *th = NULL;
    unsigned int nth = 0, c;
    int rc = XA_E_NOMEM;

    s->batch = SLICE_BATCH;
    s->ops = ops;
    s->ops_arg = arg;
    s->main = main;
    if ( !(s->ch = calloc((s->nr + XA_SLICES_CHUNK - 1) / XA_SLICES_CHUNK,
                          sizeof(*s->ch))) )
        goto out;
    s->nr_chunks = (s->nr + XA_SLICES_CHUNK - 1) / XA_SLICES_CHUNK;
    for ( c = 0; c < s->nr_chunks; c++ )
    {
        s->ch[c].owner = s;
        s->ch[c].first = c * XA_SLICES_CHUNK;
        s->ch[c].end = s->ch[c].first + XA_SLICES_CHUNK < s->nr ?
                       s->ch[c].first + XA_SLICES_CHUNK : s->nr;
    }
    s->ch[0].base_ready = true;
    s->info.chunks = s->nr_chunks;
    s->job = run_chunk;
    s->jobs = s->nr_chunks;
    s->next = 1;
    if ( (rc = workers_start(s, workers, &th, &nth)) )
        goto out;
    own = (struct slice_sink){ .s = s, .b = s->own, .st = main };
    if ( !nth )
    {
        rc = run_inline(&own);
        goto out;
    }

    /* Chunk 0 here, while the workers take the next ones. */
    if ( (rc = chunk_read(&own, &s->ch[0])) )
        goto out;
    acc_add(&s->acc, &s->ch[0].acc);
    prev = s->ch[0].last;
    for ( c = 1; c < s->nr_chunks && rc == XA_OK; c++ )
    {
        struct chunk *ch = &s->ch[c];

        slice_lock(s);
        s->at = c;
        ch->g_first = s->pub_first = s->first_key;
        ch->g_ended = s->pub_ended = s->acc.ended_max;
        ch->base_ready = true;
        pthread_cond_broadcast(&s->cond);
        while ( !ch->done )
            pthread_cond_wait(&s->cond, &s->lock);
        pthread_mutex_unlock(&s->lock);
        rc = chunk_take(s, &own, ch, &prev);
    }

 out:
    workers_stop(s, th, nth);
    for ( c = 0; c < s->nr_chunks; c++ )
    {
        if ( c && s->ch[c].st )
            ops->close(s->ch[c].st);
        merge_cut_free(s->ch[c].start);
    }
    free(s->ch);
    s->ch = NULL;
    s->nr_chunks = 0;
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
    xa_diag_init(&s->acc.diag);
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
    xa_diag_merge(diag, &s->acc.diag);
}

const struct xa_slices_stats *xa_slices_stats(const struct xa_slices *s)
{
    return &s->info;
}
