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
/* The group and bucket of a value (log-linear, stats.c). */
static inline void stat_bucket_of(uint64_t v, unsigned int *g,
                                  unsigned int *b)
{
    unsigned int e;

    if ( v < XA_STAT_SUB )
    {
        *g = 0;
        *b = (unsigned int)v;
        return;
    }
    e = 63 - (unsigned int)__builtin_clzll(v);          /* >= 6 */
    *g = e - XA_STAT_SUB_BITS + 1;
    *b = (unsigned int)(v >> (e - XA_STAT_SUB_BITS)) & (XA_STAT_SUB - 1);
}

/* Allocates group g of s's histogram: XA_OK or XA_E_NOMEM. */
int stat_group_alloc(struct xa_stat *s, unsigned int g);

/*
 * xa_stat_add(), inline for the model's hot paths: one sample; XA_OK, or
 * XA_E_NOMEM (the sample still counts, its bucket does not).
 */
static inline __attribute__((always_inline))
int stat_add(struct xa_stat *s, uint64_t cycles)
{
    unsigned int g, b;

    if ( !s->count || cycles < s->min )
        s->min = cycles;
    if ( cycles > s->max )
        s->max = cycles;
    s->count++;
    /* Saturates rather than wraps (a trace 2^64 cycles long). */
    if ( __builtin_add_overflow(s->cycles, cycles, &s->cycles) )
        s->cycles = UINT64_MAX;

    stat_bucket_of(cycles, &g, &b);
    if ( __builtin_expect(!s->groups[g], 0) && stat_group_alloc(s, g) )
        return XA_E_NOMEM;
    s->groups[g][b]++;
    return XA_OK;
}

int stat_hist_add_json(struct xa_stat *s, const struct xa_json_value *hist,
                       uint64_t *total);

#endif /* XA_STATS_PRIVATE_H */
