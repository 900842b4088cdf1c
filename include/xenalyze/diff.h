/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Two summaries compared (xenalyze diff A B): for each exit reason, each
 * sub-key and each vCPU runstate, per domain pair or over all guests,
 * the change in count, rate per second, mean, p95, p99 and share of the
 * trace's time, sorted by impact (how much the share of time moved),
 * with a mark where the change is within what chance makes likely.
 */
#ifndef XA_DIFF_H
#define XA_DIFF_H

#include <xenalyze/json.h>
#include <xenalyze/out.h>
#include <xenalyze/summary.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One side of a row: what a summary says. */
struct xa_diff_side {
    bool present;
    uint64_t count, cycles, mean, p5, p95, p99;
    double rate;                    /* count per second of trace */
    double share;                   /* cycles per cycle of trace */
    double mean_us, p95_us, p99_us;
};

enum xa_diff_kind {
    XA_DIFF_EXIT,                   /* an exit reason */
    XA_DIFF_SUB,                    /* a sub-key under it */
    XA_DIFF_RUNSTATE,               /* a vCPU runstate, all vCPUs summed */
};

struct xa_diff_row {
    char *scope;                    /* "d0", "d1=d3", "guests" */
    char *what;                     /* "HLT [0xc]", "HLT [0xc] io:0x0070:w",
                                       "running" */
    enum xa_diff_kind kind;
    struct xa_diff_side a, b;
    double d_rate, d_mean, d_p95, d_p99, d_share;  /* % change; NAN: none */
    double impact;                  /* |b.share - a.share| */
    bool chance;                    /* within 2 standard errors */
    bool changed;                   /* any number differs */
};

struct xa_diff_opts {
    bool guests;                    /* every guest domain together */
    const unsigned int (*map)[2];   /* domain pairs (A id, B id) */
    unsigned int nr_map;
    double fail_above;              /* %; < 0: none */
};

struct xa_diff {
    double span_a, span_b;          /* seconds of trace */
    char pairs[512];                /* "d0=d0 d1=d3" */
    struct xa_diff_row *rows;       /* exits and sub-keys by impact, then
                                       runstates by impact */
    unsigned int nr_rows;
    unsigned int nr_changed;
    bool fail;                      /* a time metric grew beyond fail_above */
    char fail_why[160];
};

/* Compares two summaries (built with every sub-key: top 0). */
XA_API int xa_diff_new(const struct xa_summary *a, const struct xa_summary *b,
                       const struct xa_diff_opts *opts, struct xa_diff **out);
XA_API void xa_diff_free(struct xa_diff *d);

/**
 * xa_summary_from_json - a JSON summary read back, for xa_diff_new()
 * @text, @len: what --format=json wrote (schema xenalyze.summary/1)
 * @out: set to the summary (free with xa_summary_json_free())
 * @why, @why_len: on XA_E_INVAL, what is wrong and where
 *
 * Fills what diff compares: the clock rate, the span (the window's when
 * there is one), and per domain its id, kind and all-vCPU exits, sub-keys
 * and runstates.  Each statistic has its exact count, cycles, min and
 * max, and its histogram: the summary's own ("hist", layout
 * log-linear-64/1), else one rebuilt from its percentiles, which
 * xa_stat_pct() gives back exactly (merged with others, as --guests does,
 * percentiles are then estimates).  Returns XA_OK, XA_E_INVAL or
 * XA_E_NOMEM.
 */
XA_API int xa_summary_from_json(const char *text, size_t len,
                                const struct xa_summary **out, char *why,
                                size_t why_len);
XA_API void xa_summary_json_free(const struct xa_summary *s);

/* Text and JSON ("xenalyze.diff/1", docs/diff.md). */
XA_API void xa_diff_render_text(const struct xa_diff *d, const char *name_a,
                                const char *name_b, struct xa_out *o);
XA_API void xa_diff_render_json(const struct xa_diff *d, const char *name_a,
                                const char *name_b, struct xa_out *o);

#ifdef __cplusplus
}
#endif

#endif /* XA_DIFF_H */
