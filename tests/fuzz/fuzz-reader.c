/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: reader -> merge -> model -> dump -> summary -> text
 * and JSON writers, into memory-only outputs (struct xa_out with fd -1,
 * emptied after each piece so that memory stays bounded).  The wiring
 * follows src/cli/run.c.  Any crash, hang, leak, assertion or sanitizer
 * report is a bug in the library.
 *
 * The input is the trace itself, so that the seeds are plain traces and
 * every reproducer also runs through the xenalyze program.  The few
 * options the CLI would take are derived from the input's size, so that
 * both clock paths are reached without consuming input bytes.
 *
 * Plots and interval tables (upstream's --scatterplot-* and --interval-*)
 * run beside the model, every plot at once, the interval table chosen
 * by the size (none or one of the nine: the domains' and the guest page
 * tables'); so are the model's options: guest page tables (cr3
 * tracking, always under a cr3 interval table) and interrupt eip lists
 * in the summary, and a 1 MiB memory budget, which long inputs exceed.
 *
 * A chunk of each input, analysed apart by a model warmed up before it
 * and absorbed (model-cut.c), must give the single pass's summary.
 *
 * Each input goes through the pipeline twice: read from memory (as an
 * mmapped file is) and streamed from a file descriptor (as standard input
 * is).  The two readers must agree on every byte of output and every
 * anomaly count (but for compressed input, which only the stream
 * decompresses); a difference aborts.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xenalyze/xenalyze.h>

#include "reader/source.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* FNV-1a over everything written, so that outputs can be compared. */
static void digest(uint64_t *h, struct xa_out *out)
{
    size_t i;

    for ( i = 0; i < out->len; i++ )
        *h = (*h ^ (unsigned char)out->buf[i]) * 0x100000001b3ull;
    out->len = 0;
}

/* Runs rd through everything; returns the digest of the output. */
static uint64_t pipeline(struct xa_reader *rd, struct xa_diag *diag,
                         size_t size)
{
    static const char *const formats[] = { "text", "json" };
    struct xa_merge *mg = NULL;
    struct xa_catalog *cat = NULL;
    struct xa_model *model = NULL;
    struct xa_model_opts mopts = { .hvm_mode = XA_HVM_MODE_AUTO };
    struct xa_out out;
    struct xa_dump dump;
    const struct xa_record *rec;
    const struct xa_reader_stats *st;
    const struct xa_summary *sum;
    uint64_t h = 0xcbf29ce484222325ull;
    unsigned int i;
    static const unsigned int doms[] = { 1, 0, 2 };
    static const uint64_t cr3s[] = { 0x10000, 0x10100 };
    static const enum xa_interval_kind kinds[] = {
        XA_INTERVAL_NONE, XA_INTERVAL_DOMAIN_TOTAL_TIME,
        XA_INTERVAL_DOMAIN_TOTAL_TIME_ALL,
        XA_INTERVAL_DOMAIN_GUEST_INTERRUPT,
        XA_INTERVAL_DOMAIN_GRANT_MAPS, XA_INTERVAL_DOMAIN_SHORT_SUMMARY,
        XA_INTERVAL_CR3_SCHEDULE_TIME, XA_INTERVAL_CR3_SCHEDULE_TIME_ALL,
        XA_INTERVAL_CR3_SCHEDULE_ORDERED, XA_INTERVAL_CR3_SHORT_SUMMARY,
    };
    enum xa_interval_kind kind = kinds[(size >> 2) % 10];
    bool cr3 = kind >= XA_INTERVAL_CR3_SCHEDULE_TIME || (size & 8);
    struct xa_plots_opts popts = {
        .hz = 62500000, .plots = 0xff, .extint_vector = 0xef,
        .io_port = 0x80, .interval = kind,
        .interval_ms = 1 + (unsigned int)(size % 5),
        .domains = doms, .nr_domains = 3, .diag = diag,
        .cr3s = cr3s, .nr_cr3s = kind == XA_INTERVAL_CR3_SHORT_SUMMARY ? 1 : 2,
        .cr3_ids = cr3,
    };
    struct xa_plots *plots = NULL;
    struct xa_model_observer obs;

    xa_out_init(&out, -1);
    if ( size % 3 == 1 )
        mopts.hvm_mode = XA_HVM_MODE_FORCE_SVM;
    mopts.cr3 = cr3;
    mopts.eip_list = size & 16;
    mopts.eip_vector = 0xef;
    if ( size & 32 )
        mopts.memory_budget = 1 << 20;
    if ( xa_merge_new(rd, &mg) || xa_catalog_new(&cat) ||
         xa_model_new(cat, diag, &mopts, &model) ||
         xa_plots_new(&popts, &out, &plots) )
        goto out;
    xa_plots_observer(plots, &obs);
    xa_model_add_observer(model, &obs);
    xa_dump_init(&dump, cat, 62500000);
    dump.show_tsc = size & 1;
    while ( xa_merge_next(mg, &rec) == XA_OK )
    {
        /* As the CLI: the dump shows the vCPU before the record. */
        xa_dump_record(&dump, rec, model, &out);
        xa_plots_record(plots, rec, model);
        xa_model_feed(model, rec);
        digest(&h, &out);
    }
    xa_model_finish(model);
    xa_plots_finish(plots);
    xa_report_diag_text(diag, &out);
    digest(&h, &out);

    st = xa_reader_stats(rd);
    {
        struct xa_summary_info info = {
            .records = st->records + st->windows,
            .nr_pcpus = st->nr_cpus,
            .cpu_hz = size & 2 ? 0 : 2400000000u,
            .diag = diag, .cr3_list = cr3, .show_default_domain = size & 64,
        };
        struct xa_report_opts ropts = { .report_pcpu = true };

        sum = xa_model_summary(model, &info);
        if ( !sum )
            goto out;
        for ( i = 0; i < sizeof(formats) / sizeof(formats[0]); i++ )
        {
            xa_report_find(formats[i])->render(sum, &ropts, &out);
            digest(&h, &out);
        }
    }

 out:
    xa_out_dispose(&out);
    xa_plots_free(plots);
    xa_model_free(model);
    xa_catalog_free(cat);
    xa_merge_free(mg);
    return h;
}

/*
 * A model's summary, as JSON, digested (its anomalies: the model's own).
 */
static uint64_t summary_digest(struct xa_model *m, struct xa_diag *diag,
                               uint64_t records)
{
    struct xa_summary_info info = {
        .records = records, .cpu_hz = 2400000000u, .diag = diag,
    };
    struct xa_report_opts ropts = { .report_pcpu = true };
    const struct xa_summary *sum;
    uint64_t h = 0xcbf29ce484222325ull;
    struct xa_out out;

    xa_model_finish(m);
    if ( !(sum = xa_model_summary(m, &info)) )
        return 0;
    xa_out_init(&out, -1);
    xa_report_find("json")->render(sum, &ropts, &out);
    digest(&h, &out);
    xa_out_dispose(&out);
    return h;
}

#define APART_RECORDS_MAX 262144u

/*
 * A chunk analysed apart (model-cut.c) gives the single pass's summary:
 * the records [0, n) taken by one model, and by a model that takes [0, c)
 * and absorbs one warmed up on [w, c), cut at c, fed [c, n) (or takes
 * those itself when that one does not fit or cannot be absorbed).
 */
static void apart_check(const uint8_t *data, size_t size)
{
    struct xa_model_opts mopts = { .hvm_mode = XA_HVM_MODE_AUTO };
    struct xa_diag rdiag, d1, d2;
    struct xa_reader *rd = NULL;
    struct xa_merge *mg = NULL;
    struct xa_catalog *cat = NULL;
    struct xa_model *one = NULL, *main_m = NULL, *part = NULL;
    struct xa_record *recs = NULL;
    const struct xa_record *rec;
    size_t n = 0, c, w;
    uint64_t h1, h2;
    int rc;

    if ( size & 32 )
        mopts.memory_budget = 1 << 20;
    xa_diag_init(&rdiag);
    xa_diag_init(&d1);
    xa_diag_init(&d2);
    if ( xa_reader_open_mem(data, size, &rdiag, &rd) || xa_merge_new(rd, &mg) ||
         xa_catalog_new(&cat) ||
         !(recs = malloc(APART_RECORDS_MAX * sizeof(*recs))) )
        goto out;
    while ( n < APART_RECORDS_MAX && xa_merge_next(mg, &rec) == XA_OK )
        recs[n++] = *rec;
    if ( n < 4 || xa_model_new(cat, &d1, &mopts, &one) ||
         xa_model_new(cat, &d2, &mopts, &main_m) ||
         xa_model_new_apart(main_m, 0, &part) )
        goto out;
    c = n / 2 + (size % 7) * n / 16;
    w = c / 2;
    xa_model_feed_batch(one, recs, (unsigned int)n);
    xa_model_feed_batch(main_m, recs, (unsigned int)c);
    xa_model_feed_batch(part, recs + w, (unsigned int)(c - w));
    rc = xa_model_cut(part);
    if ( !rc && xa_model_fits(main_m, part) )
    {
        xa_model_feed_batch(part, recs + c, (unsigned int)(n - c));
        rc = xa_model_absorb(main_m, part);
        if ( rc && rc != XA_E_AGAIN )
            goto out;       /* no memory: main is no use */
    }
    else
        rc = XA_E_AGAIN;
    if ( rc )
        xa_model_feed_batch(main_m, recs + c, (unsigned int)(n - c));
    h1 = summary_digest(one, &d1, n);
    h2 = summary_digest(main_m, &d2, n);
    if ( h1 && h2 && h1 != h2 )
    {
        fprintf(stderr, "chunk apart at %zu (warm-up from %zu, %s): the "
                "summary differs\n", c, w, rc ? "redone" : "absorbed");
        abort();
    }

 out:
    xa_model_free(part);
    xa_model_free(main_m);
    xa_model_free(one);
    free(recs);
    xa_catalog_free(cat);
    xa_merge_free(mg);
    xa_reader_free(rd);
}

/* The data records of a walk in file order (xa_reader_walk()). */
static uint64_t walk_records(const uint8_t *data, size_t size)
{
    struct xa_diag diag;
    struct xa_reader *rd = NULL;
    struct xa_record rec;
    uint64_t n = 0;

    xa_diag_init(&diag);
    if ( xa_reader_open_mem(data, size, &diag, &rd) )
        return UINT64_MAX;
    /*
     * Less the windows' CPU-change records: the id alone does not tell
     * them, since a record inside a window may carry it (data, which the
     * merge gives to the model).  A header is the id with two words and
     * no TSC, which inside a window always starts the next one.
     */
    while ( xa_reader_walk(rd, &rec) == XA_OK )
        n += rec.event != XA_TRC_TRACE_CPU_CHANGE || rec.nr_extra != 2 ||
             rec.has_tsc;
    xa_reader_free(rd);
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct xa_diag diag_mem, diag_fd;
    struct xa_reader *rd = NULL;
    FILE *f = NULL;
    uint64_t h_mem, h_fd;
    unsigned int i;

    xa_diag_init(&diag_mem);
    if ( xa_reader_open_mem(data, size, &diag_mem, &rd) )
        return 0;
    h_mem = pipeline(rd, &diag_mem, size);
    /* The walk reads the records the merge was given, no more, no less. */
    if ( walk_records(data, size) != xa_reader_stats(rd)->records )
    {
        fprintf(stderr, "walk: %llu records, merge %llu\n",
                (unsigned long long)walk_records(data, size),
                (unsigned long long)xa_reader_stats(rd)->records);
        abort();
    }
    xa_reader_free(rd);
    rd = NULL;
    apart_check(data, size);

    f = tmpfile();
    if ( !f )
        return 0;
    if ( fwrite(data, 1, size, f) != size || fflush(f) ||
         fseek(f, 0, SEEK_SET) )
        goto out;
    xa_diag_init(&diag_fd);
    if ( xa_reader_open_fd(fileno(f), &diag_fd, &rd) )
        goto out;
    h_fd = pipeline(rd, &diag_fd, size);

    /*
     * The stream decompresses what starts with a gzip, xz or zstd magic
     * number; memory (a mapped file) is read as it is: they differ.
     */
    if ( source_sniff(data, size) != SOURCE_PLAIN )
        goto out;
    for ( i = 0; i < XA_DIAG_NR; i++ )
        if ( diag_mem.e[i].count != diag_fd.e[i].count )
        {
            fprintf(stderr, "%s: %llu from memory, %llu streamed\n",
                    xa_diag_name((enum xa_diag_kind)i),
                    (unsigned long long)diag_mem.e[i].count,
                    (unsigned long long)diag_fd.e[i].count);
            abort();
        }
    if ( h_mem != h_fd )
    {
        fprintf(stderr, "output differs between memory and stream\n");
        abort();
    }

 out:
    xa_reader_free(rd);
    fclose(f);
    return 0;
}
