/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Per-exit rows (--exits=FILE): one row per exit the summary counts, as
 * CSV with a header or as JSON Lines, written as the model closes exits,
 * with bounded memory.  Columns (docs/exits.md):
 *
 *   time_ns pcpu domain vcpu arch reason reason_name key key_name rip
 *   cycles ns closed_by
 *
 * Summed per vCPU and reason, the rows give the summary's counts and
 * cycles exactly, window and selection included.
 *
 * The same writer gives runstate rows (--runstates=FILE): one row per
 * vCPU runstate interval the summary counts, columns
 *
 *   time_ns domain vcpu state runnable cycles ns
 *
 * (runnable: wake, preempt or other for a runnable interval, else
 * empty), which summed per vCPU and state give the summary's runstates.
 */
#ifndef XA_EXITS_H
#define XA_EXITS_H

#include <xenalyze/filter.h>
#include <xenalyze/model.h>
#include <xenalyze/out.h>

#ifdef __cplusplus
extern "C" {
#endif

enum xa_exits_format {
    XA_EXITS_CSV,                   /* a header line, then rows */
    XA_EXITS_JSONL,                 /* one JSON object per line */
};

enum xa_rows_kind {
    XA_ROWS_EXITS,                  /* per exit (the default) */
    XA_ROWS_RUNSTATES,              /* per vCPU runstate interval */
};

struct xa_exits_opts {
    enum xa_exits_format format;
    enum xa_rows_kind rows;
    uint64_t hz;                    /* the rate given, or 0: the trace's
                                       clock record, else the default */
    const struct xa_filter *filter; /* --domain/--vcpu (the window is the
                                       model's, xa_model_set_filter());
                                       NULL: every vCPU */
};

struct xa_exits;

/**
 * xa_exits_new - start writing rows into out
 * @o: options (copied; the filter must outlive the writer)
 * @out: where rows go; flushed as it fills when it has an fd
 * @ex: set to the new writer
 *
 * Writes the CSV header at once.  Returns XA_OK or XA_E_NOMEM.
 */
XA_API int xa_exits_new(const struct xa_exits_opts *o, struct xa_out *out,
                        struct xa_exits **ex);
XA_API void xa_exits_free(struct xa_exits *ex);

/* The observer to add to the model (xa_model_add_observer()). */
XA_API void xa_exits_observer(struct xa_exits *ex,
                              struct xa_model_observer *obs);

/*
 * After xa_model_finish(): writes the rows still held, at trace_hz
 * (xa_model_trace_hz(); 0: the default rate).  Without a rate (o->hz 0)
 * rows are held until the trace's clock record shows one, 4096 at most,
 * then written at the default rate.  Returns the output's error state
 * (XA_OK or a negative XA_E_*).
 */
XA_API int xa_exits_finish(struct xa_exits *ex, uint64_t trace_hz);

/* Rows written so far. */
XA_API uint64_t xa_exits_rows(const struct xa_exits *ex);

/* The CSV header line, without its newline. */
XA_API const char *xa_exits_header(void);

#ifdef __cplusplus
}
#endif

#endif /* XA_EXITS_H */
