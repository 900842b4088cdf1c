/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Slices analysed apart (xa_slices_run_apart(), docs/parallel-summary.md):
 * a toy consumer whose counts depend on its state ends exactly as when
 * fed the single pass, at 1, 2 and 3 workers, on the real traces (if
 * $SHARED/traces holds them), a copy of the VMX trace with one CPU's TSC
 * reset halfway (its merges stop fitting) and a synthesized trace; the
 * reader's and merge's anomalies and counters are the single pass's; both
 * paths are taken: chunks absorbed, and chunks redone because the state
 * did not fit, absorb() refused (every 5th) or open() gave no state
 * (once); no more than workers + 1 states are open at once.
 *
 * The toy: its state is, per CPU, the last TSC and the last 8 event ids
 * (and their XOR); its counts are the records per event id and, per CPU,
 * the sum of TSC deltas from the last TSC it knows, so that counts taken
 * from a wrong state are wrong.  Warmed up on one slice of 1,000 records,
 * a state is right at its cut only if every CPU that comes later showed
 * 8 records in it.
 */
#include <glob.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xenalyze/xenalyze.h>

#include "tap.h"

#define TOY_CPUS 256
#define TOY_LAST 8
#define TOY_EVENTS 4096             /* a power of 2 */
#define SLICE_RECORDS 1000

struct toy_state {
    uint64_t last_tsc[TOY_CPUS];
    uint32_t last_ev[TOY_CPUS][TOY_LAST];   /* newest first */
    uint32_t x[TOY_CPUS];                   /* their XOR */
};

struct toy {
    struct toy_state ctl, at_cut;
    uint32_t ev[TOY_EVENTS];                /* event id + 1; 0: free */
    uint64_t ev_n[TOY_EVENTS];
    uint64_t delta[TOY_CPUS];
    uint64_t records;
    bool full;                              /* a CPU or event beyond */
};

struct toy_ctx {
    pthread_mutex_t lock;
    unsigned int opens, null_at, nulls;
    unsigned int live, live_max;
    unsigned int absorbs, refuse_every, refused;
    unsigned int fit, unfit;
};

static uint64_t *toy_slot(struct toy *t, uint32_t ev)
{
    unsigned int h = (ev * 2654435761u) & (TOY_EVENTS - 1), i;

    for ( i = 0; i < TOY_EVENTS; i++, h = (h + 1) & (TOY_EVENTS - 1) )
    {
        if ( !t->ev[h] )
            t->ev[h] = ev + 1;
        if ( t->ev[h] == ev + 1 )
            return &t->ev_n[h];
    }
    t->full = true;
    return NULL;
}

static void toy_feed(void *p, const struct xa_record *recs, unsigned int n)
{
    struct toy *t = p;
    unsigned int i;

    for ( i = 0; i < n; i++ )
    {
        const struct xa_record *r = &recs[i];
        unsigned int c = r->cpu;
        uint64_t *slot = toy_slot(t, r->event);

        t->records++;
        if ( slot )
            (*slot)++;
        if ( c >= TOY_CPUS )
        {
            t->full = true;
            continue;
        }
        t->delta[c] += r->tsc - t->ctl.last_tsc[c];
        t->ctl.last_tsc[c] = r->tsc;
        t->ctl.x[c] ^= t->ctl.last_ev[c][TOY_LAST - 1] ^ r->event;
        memmove(&t->ctl.last_ev[c][1], &t->ctl.last_ev[c][0],
                (TOY_LAST - 1) * sizeof(t->ctl.last_ev[c][0]));
        t->ctl.last_ev[c][0] = r->event;
    }
}

static void *toy_open(void *arg)
{
    struct toy_ctx *ctx = arg;
    struct toy *t = NULL;

    pthread_mutex_lock(&ctx->lock);
    if ( ++ctx->opens == ctx->null_at )
        ctx->nulls++;
    else if ( (t = calloc(1, sizeof(*t))) && ++ctx->live > ctx->live_max )
        ctx->live_max = ctx->live;
    pthread_mutex_unlock(&ctx->lock);
    return t;
}

static void toy_close(void *p)
{
    free(p);
}

/* The counts forgotten, the state kept and noted. */
static int toy_cut(void *p)
{
    struct toy *t = p;

    memset(t->ev, 0, sizeof(t->ev));
    memset(t->ev_n, 0, sizeof(t->ev_n));
    memset(t->delta, 0, sizeof(t->delta));
    t->records = 0;
    t->at_cut = t->ctl;
    return XA_OK;
}

static bool toy_fits(void *main, void *st)
{
    const struct toy *m = main, *t = st;

    return !memcmp(&m->ctl, &t->at_cut, sizeof(m->ctl));
}

static int toy_absorb(void *main, void *st)
{
    struct toy *m = main;
    const struct toy *t = st;
    unsigned int i;

    if ( !toy_fits(main, st) )
        return XA_E_AGAIN;
    for ( i = 0; i < TOY_EVENTS; i++ )
    {
        uint64_t *slot;

        if ( t->ev[i] && (slot = toy_slot(m, t->ev[i] - 1)) )
            *slot += t->ev_n[i];
    }
    for ( i = 0; i < TOY_CPUS; i++ )
        m->delta[i] += t->delta[i];
    m->records += t->records;
    m->full |= t->full;
    m->ctl = t->ctl;
    return XA_OK;
}

/* The contexts are the test's: fits() and absorb() count. */
static struct toy_ctx *the_ctx;

static bool ctx_fits(void *main, void *st)
{
    bool ok = toy_fits(main, st);

    if ( ok )
        the_ctx->fit++;
    else
        the_ctx->unfit++;
    return ok;
}

static int ctx_absorb(void *main, void *st)
{
    if ( the_ctx->refuse_every &&
         ++the_ctx->absorbs % the_ctx->refuse_every == 0 )
    {
        the_ctx->refused++;
        return XA_E_AGAIN;
    }
    return toy_absorb(main, st);
}

static void ctx_close(void *st)
{
    pthread_mutex_lock(&the_ctx->lock);
    the_ctx->live--;
    pthread_mutex_unlock(&the_ctx->lock);
    toy_close(st);
}

static const struct xa_slice_ops toy_ops = {
    .open = toy_open, .feed = toy_feed, .cut = toy_cut, .fits = ctx_fits,
    .absorb = ctx_absorb, .close = ctx_close,
};

/* Same state, same counts (event tables compared by id). */
static bool toy_equal(struct toy *a, struct toy *b)
{
    unsigned int i, na = 0, nb = 0;

    if ( memcmp(&a->ctl, &b->ctl, sizeof(a->ctl)) ||
         memcmp(a->delta, b->delta, sizeof(a->delta)) ||
         a->records != b->records || a->full || b->full )
        return false;
    for ( i = 0; i < TOY_EVENTS; i++ )
    {
        na += !!a->ev[i];
        nb += !!b->ev[i];
        if ( a->ev[i] && *toy_slot(b, a->ev[i] - 1) != a->ev_n[i] )
            return false;
    }
    return na == nb;
}

/* The single pass: the reader's diag and counters, the toy fed. */
static int single_pass(const void *mem, size_t size, const char *path,
                       struct xa_diag *diag, struct xa_reader_stats *st,
                       struct toy *t)
{
    static struct xa_record buf[512];
    struct xa_reader *rd = NULL;
    struct xa_merge *m = NULL;
    unsigned int n;
    int rc;

    xa_diag_init(diag);
    rc = mem ? xa_reader_open_mem(mem, size, diag, &rd)
             : xa_reader_open(path, diag, &rd);
    if ( !rc )
        rc = xa_merge_new(rd, &m);
    while ( !rc )
    {
        n = xa_merge_read(m, buf, 512, &rc);
        toy_feed(t, buf, n);
    }
    if ( rc == XA_END )
    {
        rc = XA_OK;
        *st = *xa_reader_stats(rd);
    }
    xa_merge_free(m);
    xa_reader_free(rd);
    return rc;
}

/* What the chunks of every input did, added up. */
static struct xa_slices_stats total;
static unsigned int total_unfit, total_refused, total_nulls;

static void check_input(const char *name, const void *mem, size_t size,
                        const char *path)
{
    static struct toy ref, all;
    struct xa_diag rdiag, diag;
    struct xa_reader_stats rst = { 0 };
    unsigned int w;

    memset(&ref, 0, sizeof(ref));
    if ( !tap_ok(single_pass(mem, size, path, &rdiag, &rst, &ref) == XA_OK &&
                 ref.records > 0, "%s: single pass", name) )
        return;
    for ( w = 1; w <= 3; w++ )
    {
        struct toy_ctx ctx = {
            .lock = PTHREAD_MUTEX_INITIALIZER, .null_at = 2,
            .refuse_every = 5,
        };
        const struct xa_slices_stats *ss;
        const struct xa_reader_stats *st;
        struct xa_reader *rd = NULL;
        struct xa_slices *s = NULL;
        int rc;

        the_ctx = &ctx;
        memset(&all, 0, sizeof(all));
        xa_diag_init(&diag);
        rc = mem ? xa_reader_open_mem(mem, size, &diag, &rd)
                 : xa_reader_open(path, &diag, &rd);
        if ( !rc )
            rc = xa_slices_new(rd, SLICE_RECORDS, &s);
        if ( !rc )
            rc = xa_slices_run_apart(s, w, &toy_ops, &ctx, &all);
        if ( !tap_ok(rc == XA_OK, "%s, %u workers: runs", name, w) )
        {
            xa_slices_free(s);
            xa_reader_free(rd);
            continue;
        }
        xa_slices_diag(s, &diag);
        ss = xa_slices_stats(s);
        st = xa_slices_reader_stats(s);
        tap_ok(toy_equal(&all, &ref),
               "%s, %u workers: the toy ends as fed the single pass "
               "(%llu records)", name, w, (unsigned long long)ref.records);
        tap_ok(!memcmp(&diag, &rdiag, sizeof(diag)),
               "%s, %u workers: the single pass's anomalies", name, w);
        tap_ok(st->records == rst.records && st->tscless == rst.tscless &&
               st->wraps == rst.wraps && st->lost == rst.lost &&
               st->record_bytes == rst.record_bytes,
               "%s, %u workers: the single pass's counters", name, w);
        TAP_EQ(ss->chunks, (ss->slices + XA_SLICES_CHUNK - 1) /
                           XA_SLICES_CHUNK,
               "%s, %u workers: chunks of %u slices", name, w,
               XA_SLICES_CHUNK);
        TAP_EQ(ss->apart + ss->redone, ss->chunks - 1,
               "%s, %u workers: every chunk but the first absorbed (%u) "
               "or redone (%u)", name, w, ss->apart, ss->redone);
        TAP_EQ(ss->taken + ss->continued, ss->slices,
               "%s, %u workers: every slice read apart or merged on",
               name, w);
        /* fits() said no, absorb() refused, or open() gave nothing. */
        tap_ok(ss->redone >= ctx.unfit + ctx.refused + ctx.nulls &&
               ss->apart == ctx.fit - ctx.refused,
               "%s, %u workers: %u redone: %u did not fit, %u refused, "
               "%u without a state", name, w, ss->redone, ctx.unfit,
               ctx.refused, ctx.nulls);
        tap_ok(ctx.live == 0 && ctx.live_max <= w + 1,
               "%s, %u workers: every state closed, at most %u open at "
               "once (%u)", name, w, w + 1, ctx.live_max);
        printf("# %s, %u workers: %u slices, %u chunks: %u apart, "
               "%u redone (%u did not fit, %u refused, %u without a "
               "state, %u whose merge did not fit)\n", name, w,
               ss->slices, ss->chunks, ss->apart, ss->redone, ctx.unfit,
               ctx.refused, ctx.nulls,
               ss->redone - ctx.unfit - ctx.refused - ctx.nulls);
        total.chunks += ss->chunks;
        total.apart += ss->apart;
        total.redone += ss->redone;
        total_unfit += ctx.unfit;
        total_refused += ctx.refused;
        total_nulls += ctx.nulls;
        xa_slices_free(s);
        xa_reader_free(rd);
    }
}

/* A file read whole into memory (NULL if it cannot be). */
static uint8_t *load(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    uint8_t *p = NULL;
    long n;

    if ( f && !fseek(f, 0, SEEK_END) && (n = ftell(f)) > 0 &&
         !fseek(f, 0, SEEK_SET) && (p = malloc((size_t)n)) &&
         fread(p, 1, (size_t)n, f) != (size_t)n )
    {
        free(p);
        p = NULL;
    }
    else if ( p )
        *size = (size_t)n;
    if ( f )
        fclose(f);
    return p;
}

/*
 * CPU 2's TSC goes back to 100 halfway and goes on from there (as
 * tests/tools/damage.py tsc-reset): the records' own TSCs, as written.
 */
static bool tsc_reset(uint8_t *p, size_t size)
{
    struct xa_diag d;
    struct xa_reader *rd = NULL;
    struct xa_record rec;
    uint64_t *off = NULL, base, t;
    size_t n = 0, cap = 0, i;
    bool ok = false;

    xa_diag_init(&d);
    if ( xa_reader_open_mem(p, size, &d, &rd) )
        return false;
    while ( xa_reader_walk(rd, &rec) == XA_OK )
    {
        if ( rec.cpu != 2 || rec.has_tsc != 1 ||
             rec.event == XA_TRC_TRACE_CPU_CHANGE )
            continue;
        if ( n == cap )
        {
            uint64_t *o = realloc(off, (cap = cap ? 2 * cap : 4096) *
                                       sizeof(*off));

            if ( !o )
                goto out;
            off = o;
        }
        off[n++] = rec.offset;
    }
    if ( n < 2 )
        goto out;
    memcpy(&base, p + off[n / 2] + 4, 8);
    base -= 100;
    for ( i = n / 2; i < n; i++ )
    {
        memcpy(&t, p + off[i] + 4, 8);
        t -= base;
        memcpy(p + off[i] + 4, &t, 8);
    }
    ok = true;
 out:
    free(off);
    xa_reader_free(rd);
    return ok;
}

/* Four CPUs of 10,000 records, windows of 4 KiB, events of 16 kinds. */
static const void *synth(struct xa_writer **w, size_t *size)
{
    struct xa_writer_opts opts = { .window_size = 4096 };
    uint32_t x[3] = { 1, 2, 3 };
    unsigned int i, c;

    if ( xa_writer_new(-1, &opts, w) )
        return NULL;
    for ( i = 0; i < 10000; i++ )
        for ( c = 0; c < 4; c++ )
            xa_writer_record(*w, c, 0x00082001 + (tap_rand() & 15), true,
                             1000 + 40 * (uint64_t)i + 10 * c +
                             (tap_rand() & 7), x, (unsigned int)c % 4);
    if ( xa_writer_finish(*w) )
        return NULL;
    return xa_writer_borrow_mem(*w, size);
}

int main(void)
{
    const char *shared = getenv("SHARED") ? getenv("SHARED") : "../shared";
    struct xa_writer *w = NULL;
    const void *mem;
    char pattern[4096];
    glob_t g;
    size_t size = 0, i;

    if ( (mem = synth(&w, &size)) )
        check_input("synthesized", mem, size, NULL);
    else
        tap_ok(false, "synthesized trace");
    xa_writer_free(w);

    snprintf(pattern, sizeof(pattern), "%s/traces/*.xentrace", shared);
    if ( glob(pattern, 0, NULL, &g) )
    {
        printf("# no traces in %s/traces: the real traces are skipped\n",
               shared);
        return tap_done();
    }
    for ( i = 0; i < g.gl_pathc; i++ )
    {
        const char *name = strrchr(g.gl_pathv[i], '/') + 1;
        uint8_t *p;

        check_input(name, NULL, 0, g.gl_pathv[i]);
        if ( strcmp(name, "x86-vmx-credit2-8cpu.xentrace") )
            continue;
        p = load(g.gl_pathv[i], &size);
        if ( tap_ok(p && tsc_reset(p, size), "VMX copy with a TSC reset") )
            check_input("VMX, CPU 2's TSC reset", p, size, NULL);
        free(p);
    }
    globfree(&g);
    /* Both paths, on the real traces. */
    tap_ok(total.apart > 0 && total.redone > 0 && total_unfit > 0 &&
           total_refused > 0 && total_nulls > 0,
           "chunks absorbed (%u) and redone (%u of %u): %u did not fit, "
           "%u refused, %u without a state", total.apart, total.redone,
           total.chunks - 1, total_unfit, total_refused, total_nulls);
    return tap_done();
}
