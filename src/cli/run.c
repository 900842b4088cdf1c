/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Wiring: reader -> merge -> model -> report.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/*
 * --progress: how far into the file the records being processed are,
 * on standard error when it is a terminal, at most every 2^16 records.
 */
struct progress {
    uint64_t size;                  /* 0: off */
    uint64_t records;               /* records merged so far */
    uint64_t next;                  /* record count of the next line */
    unsigned int last_pct;
};

/*
 * size: the input's size as the reader knows it on opening (a plain file's;
 * 0 for a stream, compressed input included, whose size is not known).
 */
static void progress_init(struct progress *pg, const struct cli_opts *o,
                          uint64_t size)
{
    memset(pg, 0, sizeof(*pg));
    pg->last_pct = ~0u;
    if ( o->progress && isatty(STDERR_FILENO) )
        pg->size = size;
}

/* A batch of merged records: counted, and shown now and then. */
static void progress_batch(struct progress *pg, const struct xa_record *r,
                           unsigned int n)
{
    const struct xa_record *last;
    unsigned int i, pct;

    if ( !pg->size || !n )
        return;
    last = &r[n - 1];
    for ( i = 0; i < n; i++ )
        pg->records += r[i].event != XA_EV_CPU_END;
    if ( pg->records < pg->next )
        return;
    pg->next = pg->records + 65536;
    pct = last->offset >= pg->size ? 100
          : (unsigned int)(last->offset * 100 / pg->size);
    if ( pct == pg->last_pct )
        return;
    pg->last_pct = pct;
    fprintf(stderr, "\rxenalyze: %3u%% of %llu bytes, %llu records", pct,
            (unsigned long long)pg->size,
            (unsigned long long)pg->records);
}

static void progress_end(struct progress *pg)
{
    if ( pg->size && pg->last_pct != ~0u )
        fprintf(stderr, "\r%*s\r", 60, "");
}

/*
 * --apart-records=N (tests): chunks of N records analysed apart in this
 * thread, each by a model warmed up on the chunk before it, absorbed by
 * the summary's model when it fits, else taken by that model itself: what
 * the threads do with slices, in one thread, at any chunk size.
 */
struct apart_serial {
    unsigned int n;
    struct xa_record *prev, *cur;   /* the warm-up; the chunk */
    unsigned int nr_prev, nr_cur;
    unsigned int chunks, apart, redone;
    int rc;
};

static int apart_serial_init(struct apart_serial *a, unsigned int n)
{
    a->n = n;
    a->prev = calloc(n, sizeof(*a->prev));
    a->cur = calloc(n, sizeof(*a->cur));
    return a->prev && a->cur ? XA_OK : XA_E_NOMEM;
}

static void apart_serial_chunk(struct apart_serial *a, struct xa_model *main)
{
    struct xa_model *m = NULL;
    struct xa_record *t;
    int rc;

    a->chunks++;
    if ( a->nr_prev && !xa_model_new_apart(main, 0, &m) )
    {
        xa_model_feed_batch(m, a->prev, a->nr_prev);
        if ( !xa_model_cut(m) && xa_model_fits(main, m) )
        {
            xa_model_feed_batch(m, a->cur, a->nr_cur);
            rc = xa_model_absorb(main, m);
            if ( rc == XA_OK )
                a->apart++;
            else if ( rc == XA_E_AGAIN )
                m = (xa_model_free(m), NULL);
            else
                a->rc = rc;
        }
        else
            m = (xa_model_free(m), NULL);
    }
    if ( !m )
    {
        a->redone += a->nr_prev > 0;
        xa_model_feed_batch(main, a->cur, a->nr_cur);
    }
    xa_model_free(m);
    t = a->prev;
    a->prev = a->cur;
    a->cur = t;
    a->nr_prev = a->nr_cur;
    a->nr_cur = 0;
}

static void apart_serial_feed(struct apart_serial *a, struct xa_model *main,
                              const struct xa_record *r, unsigned int n)
{
    while ( n )
    {
        unsigned int k = a->n - a->nr_cur < n ? a->n - a->nr_cur : n;

        memcpy(&a->cur[a->nr_cur], r, k * sizeof(*r));
        a->nr_cur += k;
        r += k;
        n -= k;
        if ( a->nr_cur == a->n )
            apart_serial_chunk(a, main);
    }
}

static void apart_serial_free(struct apart_serial *a)
{
    free(a->prev);
    free(a->cur);
}

/* Summary: the model runs in this thread, the merge in the other. */
struct summary_ctx {
    struct xa_model *model;
    struct xa_plots *plots;         /* NULL: none asked for */
    struct xa_timeline *timeline;   /* NULL: none asked for */
    struct xa_slowest *slowest;     /* NULL: no --slowest */
    struct xa_out *out;
    struct progress *pg;
    struct apart_serial *apart;     /* NULL: no --apart-records */
};

static void consume_summary(void *arg, const struct xa_record *r,
                            const uint64_t *aux, unsigned int n)
{
    struct summary_ctx *c = arg;
    unsigned int i;

    if ( c->plots || c->timeline || c->slowest )
    {
        /* The model's observers write plots and timeline as it goes. */
        for ( i = 0; i < n; i++ )
        {
            if ( c->plots )
                xa_plots_record(c->plots, &r[i], c->model);
            if ( c->timeline )
                xa_timeline_record(c->timeline, &r[i], c->model);
            /* --slowest's rings see each record before the model. */
            if ( c->slowest )
                xa_slowest_record(c->slowest, &r[i], c->model);
            xa_model_feed(c->model, &r[i]);
        }
        xa_out_maybe_flush(c->out);
        progress_batch(c->pg, r, n);
        return;
    }
    (void)aux;
    if ( c->apart )
        apart_serial_feed(c->apart, c->model, r, n);
    else
        xa_model_feed_batch(c->model, r, n);
    progress_batch(c->pg, r, n);
}

/*
 * Dump: the merge and the model run in the other thread, which notes
 * for each record the vCPU running before it and how to name exits; the
 * lines are formatted in this one.
 */
struct dump_ctx {
    struct xa_model *model;
    struct xa_dump *dump;
    struct xa_out *out;
    struct progress *pg;
    bool lines;                     /* -a: the dump's lines */
    bool raw;                       /* --dump-raw-process: "* " lines */
};

static void produce_dump(void *arg, const struct xa_record *rec,
                         uint64_t *aux)
{
    struct dump_ctx *c = arg;
    unsigned int dom, vcpu;
    uint32_t cur = xa_model_pcpu_current(c->model, rec->cpu, &dom, &vcpu)
                   ? dom << 16 | vcpu : XA_DUMP_NO_VCPU;

    *aux = XA_DUMP_AUX(xa_model_fmt_ctx(c->model)->hvm_mode, cur);
    xa_model_feed(c->model, rec);
}

static void consume_dump(void *arg, const struct xa_record *r,
                         const uint64_t *aux, unsigned int n)
{
    struct dump_ctx *c = arg;
    unsigned int i;

    for ( i = 0; i < n; i++ )
    {
        struct xa_fmt_ctx fmt = {
            .hvm_mode = (enum xa_hvm_mode)(aux[i] >> 32),
        };

        if ( c->raw && r[i].event != XA_EV_CPU_END )
            xa_dump_raw(c->out, "* ", &r[i]);
        if ( !c->lines || !xa_dump_selects(c->dump, &r[i], (uint32_t)aux[i]) )
        {
            xa_out_maybe_flush(c->out);
            continue;
        }
        xa_dump_record_as(c->dump, &r[i], (uint32_t)aux[i], &fmt, c->out);
        xa_out_maybe_flush(c->out);
    }
    progress_batch(c->pg, r, n);
}

/* The dump formatted in worker threads (--threads=N, N > 1). */
struct dump_par_ctx {
    struct xa_dump_par *par;
    struct progress *pg;
};

static void consume_dump_par(void *arg, const struct xa_record *r,
                             const uint64_t *aux, unsigned int n)
{
    struct dump_par_ctx *c = arg;

    xa_dump_par_batch(c->par, r, aux, n);
    progress_batch(c->pg, r, n);
}

/* --count: the merge's records go nowhere. */
static void consume_none(void *arg, const struct xa_record *r,
                         const uint64_t *aux, unsigned int n)
{
    (void)arg;
    (void)r;
    (void)aux;
    (void)n;
}

/*
 * The records in order: from time slices read and merged in worker
 * threads (a file), or from the pipeline's merge thread (threads).
 */
static int run_records(struct xa_slices *slices, struct xa_merge *mg,
                       unsigned int workers, unsigned int threads,
                       unsigned int batch, xa_pipe_produce_fn *produce,
                       void *parg, xa_pipe_consume_fn *consume, void *carg)
{
    if ( slices )
        return xa_slices_run(slices, workers, batch, produce, parg, consume,
                             carg);
    return xa_pipeline_run(mg, threads, batch, produce, parg, consume, carg);
}

/* --threads, or the CPUs present. */
static unsigned int nr_threads(const struct cli_opts *o)
{
    long n;

    if ( o->threads )
        return o->threads;
    n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 1024 ? 1024 : (unsigned int)n;
}

/*
 * Time slices (a file, more than one thread; docs/parallel-summary.md)
 * read and merge in parallel after a serial phase 0 (the window index:
 * a walk of every record, the mapping's page faults).  They pay only
 * where reading and merging is all the work and more than one thread can
 * share it: --count with 3 threads or more.  With one model taking every
 * record (the summary, the dump's merge-and-model thread) the pipeline
 * (the single pass's reader and merge in a thread of their own) is as
 * fast or faster, and has no serial phase 0.  --slice-records and
 * --slice-stats (the tests) ask for slices whatever the mode.
 */
static bool want_slices(const struct cli_opts *o, unsigned int threads,
                        bool apart)
{
    if ( threads < 2 )
        return false;
    return o->slice_records || o->slice_stats || apart ||
           (o->mode == CLI_COUNT && threads > 2);
}

/*
 * The summary in chunks of slices, each analysed apart by a model warmed
 * up on the slice before it, absorbed by the summary's model when it
 * starts in that model's state (model-cut.c): the summary without
 * observers or --progress, at 3 threads or more (at 2 the pipeline, with
 * no serial phase 0 and no warm-ups, is as fast).
 */
static bool want_apart(const struct cli_opts *o, unsigned int threads,
                       const struct xa_model *model)
{
    return threads > 2 && o->mode != CLI_COUNT && o->mode != CLI_DUMP &&
           !o->apart_records && !o->progress && xa_model_apart_ok(model);
}

/* What the chunks' models are made from: the summary's, a budget each. */
struct apart_arg {
    const struct xa_model *main;
    uint64_t budget;
};

static void *apart_open(void *arg)
{
    const struct apart_arg *a = arg;
    struct xa_model *m;

    return xa_model_new_apart(a->main, a->budget, &m) ? NULL : m;
}

static void apart_feed(void *st, const struct xa_record *r, unsigned int n)
{
    xa_model_feed_batch(st, r, n);
}

static int apart_cut(void *st)
{
    return xa_model_cut(st);
}

static bool apart_fits(void *main_model, void *st)
{
    return xa_model_fits(main_model, st);
}

static int apart_absorb(void *main_model, void *st)
{
    return xa_model_absorb(main_model, st);
}

static void apart_close(void *st)
{
    xa_model_free(st);
}

static const struct xa_slice_ops apart_ops = {
    .open = apart_open, .feed = apart_feed, .cut = apart_cut,
    .fits = apart_fits, .absorb = apart_absorb, .close = apart_close,
};

/* An output file: FILE, or standard output for "-"; -1 on error. */
static int open_output(const char *path)
{
    int fd;

    if ( !strcmp(path, "-") )
        return STDOUT_FILENO;
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if ( fd < 0 )
        fprintf(stderr, "xenalyze: %s: %s\n", path, strerror(errno));
    return fd;
}

/* --slowest on a file: exits longer than the rings, from a second read. */
static void slowest_second_pass(const struct cli_opts *o,
                                struct xa_slowest *s)
{
    struct xa_diag diag, mdiag;
    struct xa_reader *rd = NULL;
    struct xa_merge *mg = NULL;
    struct xa_catalog *cat = NULL;
    struct xa_model *model = NULL;
    struct xa_model_opts mopts = { .hvm_mode = o->hvm_mode };
    struct xa_model_observer obs;
    struct xa_record buf[256];
    unsigned int i, got;
    int rc;

    xa_diag_init(&diag);
    xa_diag_init(&mdiag);
    if ( xa_reader_open(o->path, &diag, &rd) || xa_merge_new(rd, &mg) ||
         xa_catalog_new(&cat) ||
         xa_model_new(cat, &mdiag, &mopts, &model) )
        goto out;
    xa_slowest_refill(s);
    xa_slowest_observer(s, &obs);
    xa_model_add_observer(model, &obs);
    do {
        got = xa_merge_read(mg, buf, 256, &rc);
        for ( i = 0; i < got; i++ )
        {
            xa_slowest_record(s, &buf[i], model);
            xa_model_feed(model, &buf[i]);
        }
    } while ( rc == XA_OK );
 out:
    xa_model_free(model);
    xa_catalog_free(cat);
    xa_merge_free(mg);
    xa_reader_free(rd);
}

/* A symbol file is at most this big (a kernel's System.map: ~10 MB). */
#define SYMBOLS_MAX ((size_t)1 << 30)

/* --symbol-file: read and parsed by the library; NULL on error, said. */
static struct xa_symbols *load_symbols(const char *path)
{
    struct xa_symbols *sy = NULL;
    unsigned int skipped = 0;
    char *text;
    size_t len;
    int rc = xa_read_file(path, SYMBOLS_MAX, &text, &len);

    if ( rc )
    {
        fprintf(stderr, "xenalyze: %s: %s\n", path,
                rc == XA_E_RANGE ? "larger than 1 GiB" : xa_strerror(rc));
        return NULL;
    }
    if ( (rc = xa_symbols_parse(text, len, &sy, &skipped)) )
        fprintf(stderr, "xenalyze: %s: %s\n", path, rc == XA_E_INVAL
                ? "no line of the form \"ADDRESS [TYPE] NAME\""
                : xa_strerror(rc));
    free(text);
    return sy;
}

static int finish_status(const struct cli_opts *o, const struct xa_diag *diag)
{
    if ( o->strict && xa_diag_total(diag, o->strict_level) )
        return 2;
    if ( o->tsc_fatal &&
         (diag->e[XA_DIAG_TSC_BACKWARDS].count ||
          diag->e[XA_DIAG_TSC_OUTLIER].count ||
          diag->e[XA_DIAG_TSC_RESET].count ||
          diag->e[XA_DIAG_RUNSTATE_MISMATCH].count ||
          diag->e[XA_DIAG_TSC_SKEW].count) )
        return 2;
    return 0;
}

/*
 * Rows (--exits, --runstates) into path, from an observer of the model;
 * -1 after saying why.
 */
static int start_rows(const struct cli_opts *o, const char *path,
                      enum xa_rows_kind kind,
                      const struct xa_trace_hints *hints,
                      struct xa_model *model, struct xa_out *out,
                      struct xa_exits **w)
{
    struct xa_exits_opts eopts = {
        .format = o->exits_jsonl ? XA_EXITS_JSONL : XA_EXITS_CSV,
        .rows = kind,
        .hz = o->hz_given ? o->hz : 0,
        .filter = xa_filter_active(&o->filter) ? &o->filter : NULL,
    };
    struct xa_model_observer obs;

    if ( !o->hz_given && hints->clock_hz >= XA_HZ_MIN &&
         hints->clock_hz <= XA_HZ_MAX )
        eopts.hz = hints->clock_hz;
    if ( (out->fd = open_output(path)) < 0 )
        return -1;
    if ( xa_exits_new(&eopts, out, w) )
    {
        fprintf(stderr, "xenalyze: %s\n", xa_strerror(XA_E_NOMEM));
        return -1;
    }
    xa_exits_observer(*w, &obs);
    xa_model_add_observer(model, &obs);
    return 0;
}

/*
 * --dump-raw-reads: every record as the reader finds it, in file order,
 * "R p%2u o%016x " then the raw format (xa_dump_raw()).
 */
static int raw_reads(const struct cli_opts *o, struct xa_reader *rd,
                     struct xa_diag *diag, struct xa_out *out,
                     struct xa_out *err)
{
    struct xa_record rec;
    char prefix[64];
    int rc;

    while ( (rc = xa_reader_walk(rd, &rec)) == XA_OK )
    {
        snprintf(prefix, sizeof(prefix), "R p%2u o%016llx ",
                 (unsigned int)rec.cpu, (unsigned long long)rec.offset);
        xa_dump_raw(out, prefix, &rec);
        xa_out_maybe_flush(out);
    }
    if ( rc < 0 )
    {
        xa_out_flush(out);
        fprintf(stderr, "xenalyze: %s: %s\n", o->path, xa_strerror(rc));
        return 1;
    }
    if ( (rc = xa_out_flush(out)) )
    {
        fprintf(stderr, "xenalyze: standard output: %s\n", xa_strerror(rc));
        return 1;
    }
    xa_report_diag_text(diag, err);
    xa_out_flush(err);
    return finish_status(o, diag);
}

int cli_run(const struct cli_opts *o)
{
    struct xa_diag diag, mdiag;
    struct xa_reader *rd = NULL;
    struct xa_merge *mg = NULL;
    struct xa_catalog *cat = NULL;
    struct xa_model *model = NULL;
    struct xa_plots *plots = NULL;
    struct xa_timeline *timeline = NULL;
    struct xa_out tl_out;
    struct xa_slowest *slowest = NULL;
    struct xa_exits *exits = NULL, *rstates = NULL;
    struct xa_out ex_out, rs_out;
    struct xa_model_opts mopts = {
        .hvm_mode = o->hvm_mode, .eip_list = o->eip_list,
        .eip_vector = o->eip_vector, .cr3 = o->cr3,
        .cr3_observer_bytes = xa_plots_cr3_bytes(&o->plots),
        .mmio_skip_vga = o->mmio_skip_vga,
        .memory_budget = (uint64_t)o->memory_budget_mb << 20,
    };
    struct xa_trace_hints hints = { .hvm_mode = XA_HVM_VMX };
    struct xa_symbols *symbols = NULL;
    struct xa_out out, err;
    struct xa_dump dump;
    struct progress pg;
    const struct xa_reader_stats *st;
    struct xa_slices *slices = NULL;
    bool apart = false;
    unsigned int threads = nr_threads(o);
    int rc, status = 1;

    xa_diag_init(&diag);
    xa_diag_init(&mdiag);
    xa_out_init(&out, STDOUT_FILENO);
    xa_out_init(&err, STDERR_FILENO);
    xa_out_init(&tl_out, -1);
    xa_out_init(&ex_out, -1);
    xa_out_init(&rs_out, -1);
    memset(&pg, 0, sizeof(pg));
    if ( o->symbol_file && !(symbols = load_symbols(o->symbol_file)) )
        goto out;

    rc = xa_reader_open(o->path, &diag, &rd);
    if ( rc )
    {
        fprintf(stderr, "xenalyze: %s: %s\n", o->path, xa_strerror(rc));
        goto out;
    }
    progress_init(&pg, o, xa_reader_stats(rd)->bytes);
    if ( o->mode == CLI_RAW_READS )
    {
        status = raw_reads(o, rd, &diag, &out, &err);
        goto out;
    }
    /* Exits are named from the first 16 MiB, file or pipe alike. */
    if ( o->mode == CLI_DUMP || o->perfetto || o->exits ||
         o->runstates )
    {
        const void *head;
        size_t len;

        if ( (rc = xa_reader_head(rd, XA_PEEK_BYTES, &head, &len)) ||
             (rc = xa_trace_peek_mem(head, len, 4000000, &hints)) )
        {
            fprintf(stderr, "xenalyze: %s: %s\n", o->path, xa_strerror(rc));
            goto out;
        }
    }
    mopts.hvm_hint = hints.hvm_mode;
    if ( (rc = xa_merge_new(rd, &mg)) || (rc = xa_catalog_new(&cat)) ||
         (rc = xa_model_new(cat, &mdiag, &mopts, &model)) )
    {
        fprintf(stderr, "xenalyze: %s\n", xa_strerror(rc));
        goto out;
    }
    if ( o->plots.plots || o->plots.interval != XA_INTERVAL_NONE )
    {
        struct xa_plots_opts popts = o->plots;
        struct xa_model_observer obs;

        popts.hz = o->hz;
        popts.diag = &mdiag;
        if ( xa_filter_active(&o->filter) )
            popts.filter = &o->filter;
        rc = xa_plots_new(&popts, &out, &plots);
        if ( rc )
        {
            fprintf(stderr, "xenalyze: plots: %s\n", xa_strerror(rc));
            goto out;
        }
        xa_plots_observer(plots, &obs);
        xa_model_add_observer(model, &obs);
    }
    if ( o->perfetto )
    {
        struct xa_timeline_opts topts = {
            .hz = o->hz,
            .filter = xa_filter_active(&o->filter) ? &o->filter : NULL,
        };
        struct xa_model_observer obs;

        if ( !o->hz_given && hints.clock_hz >= XA_HZ_MIN &&
             hints.clock_hz <= XA_HZ_MAX )
            topts.hz = hints.clock_hz;
        else if ( !o->hz_given )
            fprintf(stderr, "xenalyze: note: no --cpu-hz given and the "
                    "trace states no clock rate: times assume 2.4 GHz\n");
        if ( (tl_out.fd = open_output(o->perfetto)) < 0 )
            goto out;
        rc = xa_timeline_new(&topts, &tl_out, &timeline);
        if ( rc )
        {
            fprintf(stderr, "xenalyze: perfetto: %s\n", xa_strerror(rc));
            goto out;
        }
        xa_timeline_observer(timeline, &obs);
        xa_model_add_observer(model, &obs);
    }
    if ( o->slowest )
    {
        struct xa_slowest_opts sopts = {
            .n = o->slowest, .per_reason = o->slowest_per_reason,
            .filter = xa_filter_active(&o->filter) ? &o->filter : NULL,
            .hz = o->hz_given ? o->hz : 0,
        };
        struct xa_model_observer obs;

        if ( xa_slowest_new(&sopts, &slowest) )
        {
            fprintf(stderr, "xenalyze: %s\n", xa_strerror(XA_E_NOMEM));
            goto out;
        }
        xa_slowest_observer(slowest, &obs);
        xa_model_add_observer(model, &obs);
    }
    if ( (o->exits && start_rows(o, o->exits, XA_ROWS_EXITS, &hints, model,
                                 &ex_out, &exits)) ||
         (o->runstates && start_rows(o, o->runstates, XA_ROWS_RUNSTATES,
                                     &hints, model, &rs_out, &rstates)) )
        goto out;
    if ( (o->mode == CLI_SUMMARY || o->summary_given) &&
         xa_filter_active(&o->filter) )
        xa_model_set_filter(model, &o->filter, o->hz_given ? o->hz : 0);
    xa_dump_init(&dump, cat, o->hz);
    dump.show_tsc = o->show_tsc;
    dump.symbols = symbols;
    if ( xa_filter_active(&o->filter) )
        dump.filter = &o->filter;
    dump.hz_given = o->hz_given;
    if ( !o->hz_given && hints.clock_hz >= XA_HZ_MIN &&
         hints.clock_hz <= XA_HZ_MAX )
    {
        dump.hz = hints.clock_hz;
        dump.hz_from_trace = true;
    }

    apart = want_apart(o, threads, model);
    if ( want_slices(o, threads, apart) &&
         (rc = xa_slices_new(rd, o->slice_records, &slices)) &&
         rc != XA_E_INVAL )
    {
        fprintf(stderr, "xenalyze: %s\n", xa_strerror(rc));
        goto out;
    }
    /* Nothing to consume: every thread reads. */
    if ( o->mode == CLI_COUNT && slices )
        rc = xa_slices_run(slices, threads, o->slice, NULL, NULL,
                           consume_none, NULL);
    else if ( o->mode == CLI_COUNT )
    {
        struct xa_record buf[256];

        do
            (void)xa_merge_read(mg, buf, 256, &rc);
        while ( rc == XA_OK );
    }
    else if ( o->mode == CLI_DUMP && threads > 1 && !o->raw_process )
    {
        /* The formatting threads have the cores: one merges. */
        struct dump_ctx pc = { .model = model };
        struct dump_par_ctx c = { .pg = &pg };

        if ( (rc = xa_dump_par_new(&dump, threads, o->slice, &out, &c.par)) )
        {
            fprintf(stderr, "xenalyze: %s\n", xa_strerror(rc));
            goto out;
        }
        rc = run_records(slices, mg, 1, 2, o->slice, produce_dump, &pc,
                         consume_dump_par, &c);
        xa_dump_par_finish(c.par);
        xa_dump_par_free(c.par);
    }
    else if ( o->mode == CLI_DUMP )
    {
        struct dump_ctx c = { .model = model, .dump = &dump, .out = &out,
                              .pg = &pg, .lines = o->dump_given,
                              .raw = o->raw_process };

        rc = run_records(slices, mg, 1, threads, o->slice, produce_dump, &c,
                         consume_dump, &c);
    }
    else
    {
        struct summary_ctx c = { .model = model, .plots = plots,
                                 .timeline = timeline, .slowest = slowest,
                                 .out = &out, .pg = &pg };
        struct apart_serial ap = { 0 };

        if ( o->apart_records && xa_model_apart_ok(model) &&
             !plots && !timeline && !slowest )
        {
            if ( (rc = apart_serial_init(&ap, o->apart_records)) )
                goto apart_out;
            c.apart = &ap;
        }
        if ( apart && slices )
        {
            /*
             * The N-1 chunks' models share one budget: memory stays
             * within twice the summary's (a chunk that meets its share
             * is redone by the summary's model).
             */
            struct apart_arg aa = {
                .main = model,
                .budget = (o->memory_budget_mb
                           ? (uint64_t)o->memory_budget_mb << 20
                           : XA_MODEL_BUDGET) / (threads - 1),
            };

            rc = xa_slices_run_apart(slices, threads - 1, &apart_ops, &aa,
                                     model);
        }
        else
            rc = run_records(slices, mg, threads - 1, threads, o->slice,
                             NULL, NULL, consume_summary, &c);
        if ( c.apart )
        {
            if ( ap.nr_cur )
                apart_serial_chunk(&ap, model);
            if ( !rc && ap.rc )
                rc = ap.rc;
            if ( o->slice_stats )
                fprintf(stderr, "xenalyze: apart %u chunks of %u: %u "
                        "analysed apart, %u redone\n", ap.chunks,
                        o->apart_records, ap.apart, ap.redone);
        }
 apart_out:
        apart_serial_free(&ap);
    }
    progress_end(&pg);
    if ( rc == XA_END )
        rc = XA_OK;
    if ( rc < 0 )
    {
        fprintf(stderr, "xenalyze: %s: %s\n", o->path, xa_strerror(rc));
        goto out;
    }
    xa_model_finish(model);
    {
        char doubt[256];

        if ( xa_model_hvm_mode_doubt(model, doubt, sizeof(doubt)) )
            fprintf(stderr, "xenalyze: warning: %s\n", doubt);
    }
    if ( plots )
        xa_plots_finish(plots);
    if ( timeline && ((rc = xa_timeline_finish(timeline)) ||
                      (rc = xa_out_flush(&tl_out))) )
    {
        fprintf(stderr, "xenalyze: %s: %s\n", o->perfetto, xa_strerror(rc));
        goto out;
    }
    if ( exits && (xa_exits_finish(exits, xa_model_trace_hz(model)) || xa_out_flush(&ex_out)) )
    {
        fprintf(stderr, "xenalyze: %s: write error\n", o->exits);
        goto out;
    }
    if ( rstates && (xa_exits_finish(rstates, xa_model_trace_hz(model)) ||
                     xa_out_flush(&rs_out)) )
    {
        fprintf(stderr, "xenalyze: %s: write error\n", o->runstates);
        goto out;
    }
    if ( timeline )
    {
        const struct xa_timeline_stats *ts = xa_timeline_stats(timeline);

        fprintf(stderr, "xenalyze: %s: %llu packets: %llu slices (%llu "
                "exits), %llu instants, %llu counter values\n",
                o->perfetto, (unsigned long long)ts->packets,
                (unsigned long long)ts->slices,
                (unsigned long long)ts->exits,
                (unsigned long long)ts->instants,
                (unsigned long long)ts->counters);
    }
    if ( slices )
    {
        const struct xa_slices_stats *ss = xa_slices_stats(slices);

        xa_slices_diag(slices, &diag);
        if ( o->slice_stats )
        {
            fprintf(stderr, "xenalyze: slices %u (cuts rejected %u%s): "
                    "%u read apart, %u merged on", ss->slices,
                    ss->rejected, ss->one_slice_bound
                    ? ", one: beyond the read-ahead bound" : "",
                    ss->taken, ss->continued);
            if ( ss->chunks )
                fprintf(stderr, "; chunks %u: %u analysed apart, %u redone",
                        ss->chunks, ss->apart, ss->redone);
            fputc('\n', stderr);
        }
    }
    xa_diag_merge(&diag, &mdiag);

    st = slices ? xa_slices_reader_stats(slices) : xa_reader_stats(rd);
    if ( o->mode == CLI_COUNT )
        xa_out_printf(&out, "records %llu (with CPU changes)\n",
                      (unsigned long long)(st->records + st->windows));
    if ( o->mode == CLI_COUNT )
    {
        unsigned int k;

        xa_out_printf(&out, "data_records %llu\nwindows %llu\nwraps %llu\n"
                      "lost %llu\ntscless %llu\npcpus %u\nbytes %llu\n"
                      "record_bytes %llu\nskipped_bytes %llu\n",
                      (unsigned long long)st->records,
                      (unsigned long long)st->windows,
                      (unsigned long long)st->wraps,
                      (unsigned long long)st->lost,
                      (unsigned long long)st->tscless, st->nr_cpus,
                      (unsigned long long)st->bytes,
                      (unsigned long long)st->record_bytes,
                      (unsigned long long)xa_diag_skipped(&diag));
        for ( k = 0; k < XA_DIAG_NR; k++ )
            if ( diag.e[k].bytes )
                xa_out_printf(&out, "skipped %s %llu\n",
                              xa_diag_name((enum xa_diag_kind)k),
                              (unsigned long long)diag.e[k].bytes);
    }

    if ( (rc = xa_out_flush(&out)) )
    {
        fprintf(stderr, "xenalyze: standard output: %s\n", xa_strerror(rc));
        goto out;
    }
    if ( !st->records )
    {
        fprintf(stderr, "xenalyze: %s: no valid trace record in the input\n",
                o->path);
        xa_report_diag_text(&diag, &err);
        xa_out_flush(&err);
        status = 1;
        goto out;
    }
    if ( o->mode == CLI_SUMMARY && (plots || timeline || exits || rstates) &&
         !o->summary_given )
    {
        /* Upstream: plots replace the summary unless -s asks for it. */
        xa_report_diag_text(&diag, &err);
        xa_out_flush(&err);
    }
    else if ( o->mode == CLI_SUMMARY || o->summary_given )
    {
        /* (-s with -a: the dump is written; the summary follows.) */
        struct xa_summary_info info = {
            .records = st->records + st->windows,
            .bytes = st->bytes,
            .windows = st->windows,
            .record_bytes = st->record_bytes,
            .nr_pcpus = st->nr_cpus,
            .cpu_hz = o->hz_given ? o->hz : 0,
            .cpu_hz_option = o->hz_option,
            .diag = &diag,
            .sort = o->sort,
            .top = o->json ? 0 : o->top,
            .show_default_domain = o->show_default_domain,
            .cr3_list = o->cr3_list,
        };
        struct xa_report_opts ropts = { .report_pcpu = o->report_pcpu,
                                        .eip_histogram = o->eip_histogram,
                                        .symbols = symbols };
        const struct xa_summary *sum;

        /* What the summary's aggregates add (MEMORY_BUDGET, SUM_SATURATED). */
        xa_diag_init(&mdiag);
        sum = xa_model_summary(model, &info);
        xa_diag_merge(&diag, &mdiag);
        if ( !sum )
        {
            fprintf(stderr, "xenalyze: %s\n", xa_strerror(XA_E_NOMEM));
            goto out;
        }
        if ( o->eip_histogram && !o->json )
            xa_out_printf(&out, "Making histogram of eips at interrupt %u, "
                          "increment %llx\n", o->eip_vector,
                          (unsigned long long)o->eip_histogram);
        xa_report_find(o->format)->render(sum, &ropts, &out);
        if ( slowest && xa_slowest_incomplete(slowest) &&
             strcmp(o->path, "-") )
            slowest_second_pass(o, slowest);
        if ( slowest )
        {
            dump.hz = sum->cpu_hz;
            dump.first_tsc = sum->first_tsc;
            dump.have_first = true;
            dump.filter = NULL;
            xa_slowest_render(slowest, &dump, sum, &out);
        }
        if ( (rc = xa_out_flush(&out)) )
        {
            fprintf(stderr, "xenalyze: standard output: %s\n",
                    xa_strerror(rc));
            goto out;
        }
    }
    else
    {
        if ( o->mode == CLI_DUMP && o->dump_given && !o->hz_given &&
             !dump.hz_from_trace )
            xa_out_str(&err, "xenalyze: note: no --cpu-hz given and the "
                       "trace states no clock rate: times assume 2.4 GHz\n");
        xa_report_diag_text(&diag, &err);
        xa_out_flush(&err);
    }
    status = finish_status(o, &diag);

 out:
    xa_slices_free(slices);
    xa_slowest_free(slowest);
    xa_plots_free(plots);
    xa_timeline_free(timeline);
    if ( tl_out.fd > STDERR_FILENO && close(tl_out.fd) && status == 0 )
    {
        fprintf(stderr, "xenalyze: %s: %s\n", o->perfetto, strerror(errno));
        status = 1;
    }
    xa_out_dispose(&tl_out);
    xa_exits_free(exits);
    if ( ex_out.fd > STDERR_FILENO && close(ex_out.fd) && status == 0 )
    {
        fprintf(stderr, "xenalyze: %s: %s\n", o->exits, strerror(errno));
        status = 1;
    }
    xa_out_dispose(&ex_out);
    xa_exits_free(rstates);
    if ( rs_out.fd > STDERR_FILENO && close(rs_out.fd) && status == 0 )
    {
        fprintf(stderr, "xenalyze: %s: %s\n", o->runstates, strerror(errno));
        status = 1;
    }
    xa_out_dispose(&rs_out);
    xa_model_free(model);
    xa_catalog_free(cat);
    xa_merge_free(mg);
    xa_reader_free(rd);
    xa_out_dispose(&out);
    xa_out_dispose(&err);
    xa_symbols_free(symbols);
    return status;
}
