/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Statistics of cycle counts: count, total, min, max, and percentiles
 * from a log-linear histogram (64 sub-buckets per power of two, values
 * below 64 exact).  A percentile is its bucket's midpoint, clamped to
 * [min, max]: at most 0.8% from the true sample value.  Memory per
 * statistic is bounded (buckets are allocated per power of two on first
 * use) and two statistics merge by adding buckets.
 */
#ifndef XA_STATS_H
#define XA_STATS_H

#include <xenalyze/common.h>

#ifdef __cplusplus
extern "C" {
#endif

#define XA_STAT_SUB_BITS 6
#define XA_STAT_SUB (1u << XA_STAT_SUB_BITS)
#define XA_STAT_GROUPS (64 - XA_STAT_SUB_BITS + 1)

struct xa_stat {
    uint64_t count;
    uint64_t cycles;
    uint64_t min;
    uint64_t max;
    uint32_t *groups[XA_STAT_GROUPS];
};

/* The percentiles every report shows, in this order. */
#define XA_STAT_NR_PCT 6
extern const double xa_stat_pcts[XA_STAT_NR_PCT];   /* 5 50 90 95 99 99.9 */
extern const char *const xa_stat_pct_names[XA_STAT_NR_PCT];

XA_API void xa_stat_init(struct xa_stat *s);
XA_API void xa_stat_dispose(struct xa_stat *s);
/* Adds one sample; returns XA_OK or XA_E_NOMEM (the sample still counts). */
XA_API int xa_stat_add(struct xa_stat *s, uint64_t cycles);
XA_API int xa_stat_merge(struct xa_stat *dst, const struct xa_stat *src);
/* The p-th percentile (0 < p <= 100), nearest rank; 0 when empty. */
XA_API uint64_t xa_stat_pct(const struct xa_stat *s, double p);
/* xa_stat_pct() of n percentiles p[] in ascending order, in one pass. */
XA_API void xa_stat_pct_many(const struct xa_stat *s, const double *p,
                             unsigned int n, uint64_t *out);
/*
 * Buckets by one index, for writing a histogram out and reading it back
 * (the JSON summary's "hist", xenalyze merge): bucket k < 64 holds the
 * value k; bucket k = 64 g + b (g >= 1) holds [(64 + b) << (g - 1),
 * (65 + b) << (g - 1)).
 */
#define XA_STAT_NR_BUCKETS (XA_STAT_GROUPS * XA_STAT_SUB)
/* The name and version of that layout, as the JSON summary states it. */
#define XA_STAT_HIST_FORMAT "log-linear-64/1"
/*
 * The first non-empty bucket at or after *k: XA_OK with *k and its
 * count in *n, XA_E_RANGE when there is none.
 */
XA_API int xa_stat_bucket_next(const struct xa_stat *s, unsigned int *k,
                               uint64_t *n);
/* The bucket of a value, and the lowest value and width of a bucket. */
XA_API unsigned int xa_stat_bucket_of(uint64_t v);
XA_API void xa_stat_bucket_range(unsigned int k, uint64_t *lo,
                                 uint64_t *width);
/*
 * Adds n samples to bucket k without touching count, cycles, min and max
 * (the caller sets those): XA_OK, XA_E_RANGE (k too large, or a bucket
 * would overflow its 32 bits), XA_E_NOMEM.
 */
XA_API int xa_stat_bucket_add(struct xa_stat *s, unsigned int k, uint64_t n);

/*
 * Bounded memory: what one histogram group costs (its 64 counters and the
 * allocator's word).  The _within variants charge each new group to *mem
 * while *mem stays within limit; a sample (or a merged bucket) whose
 * group does not fit goes to the nearest group the statistic has (its
 * percentiles coarser; count, cycles and extremes exact), and a statistic
 * without any group takes its first one uncharged (its owner charges it
 * with the statistic: XA_STAT_COST).  They return a mask of
 * XA_STAT_FOLDED (a group did not fit) and XA_STAT_SATURATED (the cycle
 * sum reached UINT64_MAX at this call), or XA_E_NOMEM.
 */
#define XA_STAT_GROUP_BYTES (XA_STAT_SUB * sizeof(uint32_t) + 16)
#define XA_STAT_COST (sizeof(struct xa_stat) + XA_STAT_GROUP_BYTES)
#define XA_STAT_FOLDED 1
#define XA_STAT_SATURATED 2
XA_API int xa_stat_add_within(struct xa_stat *s, uint64_t cycles,
                              uint64_t *mem, uint64_t limit);
XA_API int xa_stat_merge_within(struct xa_stat *dst, const struct xa_stat *src,
                                uint64_t *mem, uint64_t limit);

/* Mean, rounded down; 0 when empty. */
static inline uint64_t xa_stat_mean(const struct xa_stat *s)
{
    return s->count ? s->cycles / s->count : 0;
}

#ifdef __cplusplus
}
#endif

#endif /* XA_STATS_H */
