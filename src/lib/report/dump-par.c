/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The dump formatted in parallel.  The calling thread filters each batch
 * and keeps the dump state (time origin, clock rate) in order; a batch
 * goes to the workers with a copy of the state at its start, and since
 * formatting a record changes that state only as xa_dump_advance() does,
 * each worker's copy goes through the same states as the sequential dump.
 * A batch ends where the state changes otherwise (a filter setting the
 * origin on a record it does not show), so that no copy misses it.  The
 * calling thread writes the finished batches in order.
 */
#include <pthread.h>
#include <stdlib.h>

#include <xenalyze/merge.h>
#include <xenalyze/pipeline.h>
#include <xenalyze/report.h>

#define JOB_RECS XA_PIPE_BATCH

enum job_state { JOB_FREE, JOB_QUEUED, JOB_DONE };

struct job {
    enum job_state state;
    unsigned int n;
    struct xa_dump d;                       /* the state at recs[0] */
    struct xa_out out;                      /* in memory */
    struct xa_record recs[JOB_RECS];
    uint64_t aux[JOB_RECS];
};

struct xa_dump_par {
    struct xa_dump *d;
    struct xa_out *o;
    struct job *jobs;
    unsigned int nr_jobs;
    unsigned int job_recs;                  /* records per job */
    struct job *cur;                        /* being filled, or NULL */
    uint64_t submitted, taken, written;     /* job sequence numbers */
    bool stop;
    pthread_mutex_t lock;
    pthread_cond_t work, done;
    pthread_t *threads;
    unsigned int nr_threads;
};

static void format_job(struct job *j)
{
    unsigned int i;

    j->out.len = 0;
    for ( i = 0; i < j->n; i++ )
    {
        struct xa_fmt_ctx fmt = {
            .hvm_mode = (enum xa_hvm_mode)(j->aux[i] >> 32),
        };

        xa_dump_record_as(&j->d, &j->recs[i], (uint32_t)j->aux[i], &fmt,
                          &j->out);
    }
}

static void *worker(void *arg)
{
    struct xa_dump_par *p = arg;

    pthread_mutex_lock(&p->lock);
    for ( ;; )
    {
        struct job *j;

        while ( p->taken == p->submitted && !p->stop )
            pthread_cond_wait(&p->work, &p->lock);
        if ( p->taken == p->submitted )
            break;
        j = &p->jobs[p->taken++ % p->nr_jobs];
        pthread_mutex_unlock(&p->lock);

        format_job(j);

        pthread_mutex_lock(&p->lock);
        j->state = JOB_DONE;
        pthread_cond_broadcast(&p->done);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

int xa_dump_par_new(struct xa_dump *d, unsigned int workers,
                    unsigned int job_recs, struct xa_out *o,
                    struct xa_dump_par **out)
{
    struct xa_dump_par *p = calloc(1, sizeof(*p));
    unsigned int i;

    *out = NULL;
    if ( !p )
        return XA_E_NOMEM;
    if ( !workers )
        workers = 1;
    p->d = d;
    p->o = o;
    p->job_recs = job_recs && job_recs < JOB_RECS ? job_recs : JOB_RECS;
    p->nr_jobs = 2 * workers + 2;
    p->jobs = calloc(p->nr_jobs, sizeof(*p->jobs));
    p->threads = calloc(workers, sizeof(*p->threads));
    if ( !p->jobs || !p->threads )
    {
        free(p->jobs);
        free(p->threads);
        free(p);
        return XA_E_NOMEM;
    }
    for ( i = 0; i < p->nr_jobs; i++ )
        xa_out_init(&p->jobs[i].out, -1);
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->work, NULL);
    pthread_cond_init(&p->done, NULL);
    /* No thread at all: the batches are formatted here, in turn. */
    for ( i = 0; i < workers; i++ )
        if ( !pthread_create(&p->threads[p->nr_threads], NULL, worker, p) )
            p->nr_threads++;
    *out = p;
    return XA_OK;
}

/* Writes job j's lines to p->o (its fd, or its buffer without one). */
static void write_job(struct xa_dump_par *p, struct job *j)
{
    struct xa_out *o = p->o;

    if ( o->fd < 0 || j->out.error )
    {
        xa_out_mem(o, j->out.buf, j->out.len);
        if ( j->out.error && !o->error )
            o->error = j->out.error;
    }
    else
    {
        xa_out_flush(o);
        j->out.fd = o->fd;
        if ( xa_out_flush(&j->out) && !o->error )
            o->error = j->out.error;
        j->out.fd = -1;
    }
    j->out.len = 0;
    j->out.error = 0;
    j->state = JOB_FREE;
}

/* Writes the finished jobs in order; wait: until job seq is free. */
static void drain(struct xa_dump_par *p, uint64_t until, bool wait)
{
    pthread_mutex_lock(&p->lock);
    while ( p->written < until )
    {
        struct job *j = &p->jobs[p->written % p->nr_jobs];

        if ( j->state != JOB_DONE )
        {
            if ( !wait )
                break;
            pthread_cond_wait(&p->done, &p->lock);
            continue;
        }
        pthread_mutex_unlock(&p->lock);
        write_job(p, j);
        pthread_mutex_lock(&p->lock);
        p->written++;
    }
    pthread_mutex_unlock(&p->lock);
}

static void submit(struct xa_dump_par *p)
{
    struct job *j = p->cur;

    p->cur = NULL;
    if ( !j->n )
        return;
    if ( !p->nr_threads )
    {
        format_job(j);
        write_job(p, j);
        return;
    }
    pthread_mutex_lock(&p->lock);
    j->state = JOB_QUEUED;
    p->submitted++;
    pthread_cond_signal(&p->work);
    pthread_mutex_unlock(&p->lock);
    drain(p, p->submitted, false);
}

/* The state a worker's copy would not see change on its own. */
static bool state_differs(const struct xa_dump *a, const struct xa_dump *b)
{
    return a->have_first != b->have_first || a->first_tsc != b->first_tsc ||
           a->hz != b->hz || a->hz_from_trace != b->hz_from_trace;
}

static struct job *job_start(struct xa_dump_par *p)
{
    struct job *j;

    if ( !p->nr_threads )
        j = &p->jobs[0];
    else
    {
        /* Its slot is free once the job nr_jobs before it is written. */
        if ( p->submitted - p->written >= p->nr_jobs )
            drain(p, p->submitted - p->nr_jobs + 1, true);
        j = &p->jobs[p->submitted % p->nr_jobs];
    }
    j->n = 0;
    j->d = *p->d;
    p->cur = j;
    return j;
}

void xa_dump_par_batch(struct xa_dump_par *p, const struct xa_record *recs,
                       const uint64_t *aux, unsigned int n)
{
    unsigned int i;

    for ( i = 0; i < n; i++ )
    {
        struct job *j = p->cur;

        if ( recs[i].event == XA_EV_CPU_END ||
             !xa_dump_selects(p->d, &recs[i], (uint32_t)aux[i]) )
            continue;
        if ( j && (j->n == p->job_recs || state_differs(&j->d, p->d)) )
        {
            /*
             * Full, or the state moved other than by this job's own
             * records (after which it differs too: a new copy is cheap).
             */
            submit(p);
            j = NULL;
        }
        if ( !j )
            j = job_start(p);
        j->recs[j->n] = recs[i];
        j->aux[j->n++] = aux[i];
        xa_dump_advance(p->d, &recs[i]);
    }
    if ( p->cur && p->cur->n >= (p->job_recs + 1) / 2 )
        submit(p);
}

int xa_dump_par_finish(struct xa_dump_par *p)
{
    if ( p->cur )
        submit(p);
    drain(p, p->submitted, true);
    return p->o->error;
}

void xa_dump_par_free(struct xa_dump_par *p)
{
    unsigned int i;

    if ( !p )
        return;
    pthread_mutex_lock(&p->lock);
    p->stop = true;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->lock);
    for ( i = 0; i < p->nr_threads; i++ )
        pthread_join(p->threads[i], NULL);
    for ( i = 0; i < p->nr_jobs; i++ )
        xa_out_dispose(&p->jobs[i].out);
    pthread_cond_destroy(&p->done);
    pthread_cond_destroy(&p->work);
    pthread_mutex_destroy(&p->lock);
    free(p->jobs);
    free(p->threads);
    free(p);
}
