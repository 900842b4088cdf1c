/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Plots and per-interval tables in upstream xenalyze's formats
 * (--scatterplot-*, --interval-*), written as the trace is processed.
 *
 * The model tells what happens through its observer (xa_plots_observer());
 * the caller passes every record to xa_plots_record() before feeding it
 * to the model, for the interval boundaries and the plots made straight
 * from records.  Times are seconds since the first TSC, "%u.%09u",
 * converted exactly.
 */
#ifndef XA_PLOTS_H
#define XA_PLOTS_H

#include <xenalyze/diag.h>
#include <xenalyze/filter.h>
#include <xenalyze/model.h>
#include <xenalyze/out.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Scatter plots: bits of xa_plots_opts.plots. */
#define XA_PLOT_RUNSTATE        (1u << 0)   /* "DvV time graph", twice */
#define XA_PLOT_RUNSTATE_TIME   (1u << 1)   /* "DvV time duration" */
#define XA_PLOT_PCPU            (1u << 2)   /* "DvV time pcpu" */
#define XA_PLOT_EXTINT_CYCLES   (1u << 3)   /* "dDvV time cycles" */
#define XA_PLOT_IO              (1u << 4)   /* "time cycles" */
#define XA_PLOT_VMEXIT_EIP      (1u << 5)   /* "time rip" */
#define XA_PLOT_RDTSC           (1u << 6)   /* "DvV time tsc" */
#define XA_PLOT_IRQ             (1u << 7)   /* "iIRQ time pcpu" */
#define XA_PLOT_WAKE_TO_HALT    (1u << 8)   /* "time cycles" */
#define XA_PLOT_INTERRUPT_EIP   (1u << 9)   /* "dDvV time rip" */
#define XA_PLOT_CR3_SWITCH      (1u << 10)  /* "time gmfn" (cr3_ids: id) */
#define XA_PLOT_UNPIN_PROMOTE   (1u << 11)  /* "time -10|0|2" (cr3_ids: id
                                               for 2; x86 shadow paging) */

enum xa_interval_kind {
    XA_INTERVAL_NONE,
    XA_INTERVAL_DOMAIN_TOTAL_TIME,      /* listed domains' running time */
    XA_INTERVAL_DOMAIN_TOTAL_TIME_ALL,  /* every domain's */
    XA_INTERVAL_DOMAIN_GUEST_INTERRUPT, /* one domain's injected vectors */
    XA_INTERVAL_DOMAIN_GRANT_MAPS,      /* grant maps done for one domain */
    XA_INTERVAL_DOMAIN_SHORT_SUMMARY,   /* one domain's exit time by kind */
    /* Guest page tables (the model's option cr3 on): */
    XA_INTERVAL_CR3_SCHEDULE_TIME,      /* listed values' time loaded */
    XA_INTERVAL_CR3_SCHEDULE_TIME_ALL,  /* every value's */
    XA_INTERVAL_CR3_SCHEDULE_ORDERED,   /* every value's, most first */
    XA_INTERVAL_CR3_SHORT_SUMMARY,      /* one value's exit time by kind */
};

struct xa_plots_opts {
    uint64_t hz;                    /* TSC rate */
    unsigned int plots;             /* XA_PLOT_* */
    unsigned int extint_vector;     /* XA_PLOT_EXTINT_CYCLES */
    unsigned int io_port;           /* XA_PLOT_IO */
    unsigned int eip_vector;        /* XA_PLOT_INTERRUPT_EIP */
    enum xa_interval_kind interval;
    unsigned int interval_ms;       /* interval length */
    const unsigned int *domains;    /* TOTAL_TIME: columns; GUEST_INT,
                                       GRANT_MAPS, SHORT_SUMMARY: 1 */
    unsigned int nr_domains;
    const uint64_t *cr3s;           /* CR3_SCHEDULE_TIME: columns (gmfns);
                                       CR3_SHORT_SUMMARY: 1 */
    unsigned int nr_cr3s;
    bool cr3_ids;                   /* CR3_SWITCH plots the value's id
                                       (upstream's --with-cr3-enumeration),
                                       0 for none */
    /*
     * --from/--to/--domain/--vcpu, or NULL: a point is plotted when its
     * time is in the window and its vCPU selected (IRQ points have no
     * vCPU: only the window applies); interval rows start at --from and
     * end with the last one that starts before --to, and count what ends
     * inside; --interval-domain-total-time-all lists selected domains.
     */
    const struct xa_filter *filter;
    /* Where to count INTERVAL_GAP (NULL: not counted). */
    struct xa_diag *diag;
};

/*
 * Between two consecutive records, at most this many empty interval rows
 * are written; a longer gap is one line "# gap: N intervals without a
 * record, from T s" (a comment to gnuplot) and an INTERVAL_GAP anomaly.
 */
#define XA_PLOTS_GAP_ROWS 10000

struct xa_plots;

/**
 * xa_plots_new - start plotting into out
 *
 * Returns XA_OK, XA_E_NOMEM, or XA_E_INVAL (an interval shorter than one
 * tick, or a domain table without domains).
 */
XA_API int xa_plots_new(const struct xa_plots_opts *opts, struct xa_out *out,
                        struct xa_plots **pl);
XA_API void xa_plots_free(struct xa_plots *pl);

/* The observer to install in the model (xa_model_set_observer()). */
XA_API void xa_plots_observer(struct xa_plots *pl,
                              struct xa_model_observer *obs);

/* Before the model sees rec: interval rows, record plots (rdtsc, irq). */
XA_API void xa_plots_record(struct xa_plots *pl, const struct xa_record *rec,
                            const struct xa_model *m);

/* After the trace: the closing line of the interval tables. */
XA_API void xa_plots_finish(struct xa_plots *pl);

/*
 * Bytes the interval tables of opts keep for each guest page table the
 * model tracks (--interval-cr3-*: its entry, in arrays that double), 0
 * without them: the model's cr3_observer_bytes, so that the memory budget
 * is charged for them too.
 */
XA_API size_t xa_plots_cr3_bytes(const struct xa_plots_opts *opts);

#ifdef __cplusplus
}
#endif

#endif /* XA_PLOTS_H */
