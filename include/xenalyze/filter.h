/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What part of a trace to look at: a time window (trace-relative, from
 * the first timestamp) and a set of domains or vCPUs.  The same filter
 * means the same thing in every output (summary, dump, plots, timeline,
 * rows).  Parsing here so that every front end reads the same syntax.
 */
#ifndef XA_FILTER_H
#define XA_FILTER_H

#include <xenalyze/common.h>

#ifdef __cplusplus
extern "C" {
#endif

#define XA_FILTER_MAX_IDS 256

struct xa_filter_vcpu {
    uint16_t dom, vcpu;
};

struct xa_filter {
    uint64_t from_ns;               /* window start, trace-relative */
    uint64_t to_ns;                 /* window end; UINT64_MAX: open */
    unsigned int nr_domains;        /* 0: every domain */
    uint16_t domains[XA_FILTER_MAX_IDS];
    unsigned int nr_vcpus;          /* 0: every vCPU */
    struct xa_filter_vcpu vcpus[XA_FILTER_MAX_IDS];
    /*
     * The summary's window rule for what crosses its edges: false (cut,
     * the default): an interval counts for its part inside, an exit where
     * it begins, its time cut at the end; true (begin): an interval or an
     * exit counts where it begins, whole, so that adjacent windows' merged
     * summaries are the whole trace's (docs/summary-json.md).
     */
    bool whole;
};

/* No restriction: the whole trace, every domain and vCPU. */
XA_API void xa_filter_init(struct xa_filter *f);

/* True when f restricts anything. */
XA_API bool xa_filter_active(const struct xa_filter *f);
XA_API bool xa_filter_has_window(const struct xa_filter *f);

/**
 * xa_filter_parse_seconds - a trace-relative time, exactly, in ns
 * @s: "2", "0.25", "1.000000001" (at most 9 decimals), "3e-3" is refused
 * @ns: result
 *
 * Returns XA_OK or XA_E_INVAL / XA_E_RANGE.
 */
XA_API int xa_filter_parse_seconds(const char *s, uint64_t *ns);

/* "D[,D...]": domain ids, decimal or 0x; adds to f. */
XA_API int xa_filter_parse_domains(struct xa_filter *f, const char *s);

/* "dDvV[,dDvV...]" (or "D.V"): adds to f. */
XA_API int xa_filter_parse_vcpus(struct xa_filter *f, const char *s);

/* Whether the domain, or the vCPU, is selected. */
XA_API bool xa_filter_domain(const struct xa_filter *f, unsigned int dom);
XA_API bool xa_filter_vcpu(const struct xa_filter *f, unsigned int dom,
                           unsigned int vcpu);

/**
 * xa_filter_tsc_window - the window in timestamps
 * @first_tsc: the trace's first timestamp (time 0)
 * @hz: the clock rate
 * @lo, @hi: [lo, hi) in TSC units; hi is UINT64_MAX when open, lo 0 when
 *          the window is from 0 (records before the first timestamp in)
 */
XA_API void xa_filter_tsc_window(const struct xa_filter *f,
                                 uint64_t first_tsc, uint64_t hz,
                                 uint64_t *lo, uint64_t *hi);

#ifdef __cplusplus
}
#endif

#endif /* XA_FILTER_H */
