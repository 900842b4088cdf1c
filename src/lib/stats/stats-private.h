/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Inside the library: statistics read back from a JSON summary. */
#ifndef XA_STATS_PRIVATE_H
#define XA_STATS_PRIVATE_H

#include <stdint.h>

#include <xenalyze/json.h>
#include <xenalyze/stats.h>

/*
 * Adds a STATS object's "hist" array (docs/summary-json.md: [k0, n0, d1,
 * n1, ...], bucket k0 holds n0 samples, bucket k0 + d1 holds n1, ...) into
 * s's buckets; *total gets the samples added.  XA_OK, XA_E_INVAL for an
 * array out of the layout (odd length, a step of 0 after the first, past
 * the last bucket), XA_E_RANGE for a bucket beyond 2^32 samples,
 * XA_E_NOMEM.  Count, cycles and extremes are the caller's.
 */
/*
 * The bucket of a value (log-linear, stats.c), g * XA_STAT_SUB + b with
 * no branch: for v >= 2^(XA_STAT_SUB_BITS + 1), with sh = the bits below
 * the top XA_STAT_SUB_BITS + 1, v >> sh is XA_STAT_SUB + b and group g
 * is sh + 1; below, sh is 0 and v is the bucket (group 0, or the first
 * half of group 1 whose buckets are 1 wide).
 */
static inline unsigned int stat_bucket_index(uint64_t v)
{
    unsigned int sh = 63 - XA_STAT_SUB_BITS -
                      (unsigned int)__builtin_clzll(v | (2 * XA_STAT_SUB - 1));

    return sh * XA_STAT_SUB + (unsigned int)(v >> sh);
}

/* The group and bucket of a value. */
static inline void stat_bucket_of(uint64_t v, unsigned int *g,
                                  unsigned int *b)
{
    unsigned int k = stat_bucket_index(v);

    *g = k / XA_STAT_SUB;
    *b = k % XA_STAT_SUB;
}

/* Allocates group g of s's histogram: XA_OK or XA_E_NOMEM. */
int stat_group_alloc(struct xa_stat *s, unsigned int g);

/*
 * Group g of s is missing: allocates it when it fits the limit (*mem
 * charged) or s has no group at all, otherwise points *ng, *nb at the
 * nearest group s has (XA_STAT_FOLDED); XA_E_NOMEM (stats.c).
 */
int stat_add_new_group(struct xa_stat *s, unsigned int g, unsigned int *ng,
                       unsigned int *nb, uint64_t *mem, uint64_t limit);

/* Adds n to *sum, saturating: XA_STAT_SATURATED when it saturates now. */
static inline int stat_sum_add(uint64_t *sum, uint64_t n)
{
    if ( *sum == UINT64_MAX )
        return 0;
    if ( __builtin_add_overflow(*sum, n, sum) )
    {
        *sum = UINT64_MAX;
        return XA_STAT_SATURATED;
    }
    return 0;
}

/*
 * xa_stat_add_within() when the sample's group is missing or the sum
 * would wrap (stats.c).
 */
int stat_add_slow(struct xa_stat *s, uint64_t cycles, uint64_t *mem,
                  uint64_t limit);

/*
 * xa_stat_add_within(), inline for the model's hot paths: one sample, a
 * new histogram group charged to *mem within limit.  The common sample,
 * whose group exists and whose sum does not wrap, is a few instructions
 * and no call.
 */
static inline __attribute__((always_inline))
int stat_add_within(struct xa_stat *s, uint64_t cycles, uint64_t *mem,
                    uint64_t limit)
{
    unsigned int k = stat_bucket_index(cycles);
    uint32_t *grp = s->groups[k / XA_STAT_SUB];
    uint64_t sum;

    if ( __builtin_expect(!grp || __builtin_add_overflow(s->cycles, cycles,
                                                         &sum), 0) )
        return stat_add_slow(s, cycles, mem, limit);
    if ( !s->count || cycles < s->min )
        s->min = cycles;
    if ( cycles > s->max )
        s->max = cycles;
    s->count++;
    s->cycles = sum;
    grp[k % XA_STAT_SUB]++;
    return XA_OK;
}

int stat_hist_add_json(struct xa_stat *s, const struct xa_json_value *hist,
                       uint64_t *total);

#endif /* XA_STATS_PRIVATE_H */
