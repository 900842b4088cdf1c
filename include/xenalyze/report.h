/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Reports: the dump line writer and the summary writers.
 */
#ifndef XA_REPORT_H
#define XA_REPORT_H

#include <xenalyze/catalog.h>
#include <xenalyze/model.h>
#include <xenalyze/out.h>
#include <xenalyze/summary.h>

#ifdef __cplusplus
extern "C" {
#endif

/* State of a dump: where time 0 is and how fast the clock ticks. */
struct xa_dump {
    const struct xa_catalog *cat;
    uint64_t hz;
    uint64_t first_tsc;
    bool have_first;
    bool show_tsc;              /* prefix each line with the raw TSC */
    bool hz_given;              /* else a clock record in the trace sets it */
    bool hz_from_trace;         /* a clock record set hz */
    const struct xa_filter *filter; /* NULL: every record */
    uint64_t win_lo, win_hi;    /* filter's window in TSC, once known */
    const struct xa_symbols *symbols;   /* names guest rips; NULL: none */
};

XA_API void xa_dump_init(struct xa_dump *d, const struct xa_catalog *cat,
                         uint64_t hz);

/**
 * xa_dump_record - one line for a record
 * @d: dump state (time origin set by the first record with a TSC)
 * @rec: the record
 * @m: model, already fed this record (for the running vCPU)
 * @o: output
 *
 * "   0.000123456 p3 d1v0 vmexit exit_reason=HLT rip=0x..."
 */
XA_API void xa_dump_record(struct xa_dump *d, const struct xa_record *rec,
                           const struct xa_model *m, struct xa_out *o);

struct xa_summary;

struct xa_symbols;
struct xa_report_opts {
    bool report_pcpu;           /* per-physical-CPU section */
    /*
     * Text: with the summary's eip lists (xa_summary.eip_list), a
     * histogram of each vCPU's by buckets of this size (0: none), as
     * upstream's --histogram-interrupt-eip; symbols name the addresses
     * (NULL: none).
     */
    uint64_t eip_histogram;
    const struct xa_symbols *symbols;
};

/* A summary writer: renders one summary, computes nothing. */
struct xa_report_ops {
    const char *name;           /* "text", "json" */
    void (*render)(const struct xa_summary *s,
                   const struct xa_report_opts *opts, struct xa_out *o);
};

/* The writer called name, or NULL. */
XA_API const struct xa_report_ops *xa_report_find(const char *name);

/*
 * The same, with the running vCPU (dom << 16 | vcpu, or XA_DUMP_NO_VCPU)
 * and the formatting context given, for a dump in another thread than the
 * model.
 */
#define XA_DUMP_NO_VCPU UINT32_MAX
XA_API void xa_dump_record_as(struct xa_dump *d, const struct xa_record *rec,
                              uint32_t current, const struct xa_fmt_ctx *fmt,
                              struct xa_out *o);

/*
 * Whether the dump shows rec, under d->filter: its time in the window
 * (the origin is the dump's, set by the first timestamp) and the vCPU
 * running on its pCPU (current, as for xa_dump_record_as()) selected.
 * Records of a pCPU whose running vCPU is not known pass no domain or
 * vCPU filter.  Call it for every record, in order, before formatting.
 */
XA_API bool xa_dump_selects(struct xa_dump *d, const struct xa_record *rec,
                            uint32_t current);

/*
 * What xa_dump_record_as() changes in d for a record, without formatting
 * it (the time origin, a clock rate the trace states); false for records
 * that print nothing.  A dump formatted in parallel (xa_dump_par) keeps
 * the state in order with it and hands each batch a copy.
 */
XA_API bool xa_dump_advance(struct xa_dump *d, const struct xa_record *rec);

/* The dump's per-record context, as xa_dump_par takes it. */
#define XA_DUMP_AUX(hvm_mode, current) \
    ((uint64_t)(hvm_mode) << 32 | (uint32_t)(current))

struct xa_dump_par;

/**
 * xa_dump_par_new - a dump formatted by worker threads, written in order
 * @d: the dump state (kept up to date in the calling thread)
 * @workers: formatting threads (at least 1)
 * @job_recs: records per batch handed to a worker, 1 to XA_PIPE_BATCH
 *      (0: XA_PIPE_BATCH)
 * @o: where the lines go (its fd); written only from the calling thread
 * @out: the new pool
 *
 * Batches of records (xa_dump_par_batch(), from one thread, in order) are
 * filtered (xa_dump_selects()) in the calling thread, formatted by the
 * workers each from a copy of the dump state at the batch's start, and
 * written in order: the bytes are those of xa_dump_record_as() called
 * record by record.  At most 2 * workers + 2 batches are in flight.
 * Returns XA_OK, XA_E_NOMEM, or XA_E_NOMEM when no thread can be made.
 */
XA_API int xa_dump_par_new(struct xa_dump *d, unsigned int workers,
                           unsigned int job_recs, struct xa_out *o,
                           struct xa_dump_par **out);
/* aux[i]: XA_DUMP_AUX() of recs[i]. */
XA_API void xa_dump_par_batch(struct xa_dump_par *p,
                              const struct xa_record *recs,
                              const uint64_t *aux, unsigned int n);
/* Waits for the workers, writes the rest; returns XA_OK or o's error. */
XA_API int xa_dump_par_finish(struct xa_dump_par *p);
XA_API void xa_dump_par_free(struct xa_dump_par *p);

/* Anomaly section, text. */
/**
 * xa_dump_raw - one record in upstream xenalyze's raw format
 * @o: output
 * @prefix: written first ("R p 1 o00000000000020e0 ", "* ")
 * @rec: the record
 *
 * " %7x %d %14s [": event, extra words, TSC in decimal ("-" without one);
 * the extra words in 7 columns; " ] | "; the record's words as written
 * (header, TSC, extra; the first 8, a blank column past its end); " |".
 */
XA_API void xa_dump_raw(struct xa_out *o, const char *prefix,
                        const struct xa_record *rec);

XA_API void xa_report_diag_text(const struct xa_diag *diag, struct xa_out *o);

#ifdef __cplusplus
}
#endif

#endif /* XA_REPORT_H */
