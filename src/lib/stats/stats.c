/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Log-linear histograms.  Group 0 holds values 0..63 exactly; group g >= 1
 * holds [2^(g+5), 2^(g+6)) in 64 equal buckets.
 */
#include <stdlib.h>
#include <string.h>

#include "stats-private.h"

const double xa_stat_pcts[XA_STAT_NR_PCT] = { 5, 50, 90, 95, 99, 99.9 };
const char *const xa_stat_pct_names[XA_STAT_NR_PCT] = {
    "p5", "p50", "p90", "p95", "p99", "p999",
};

void xa_stat_init(struct xa_stat *s)
{
    memset(s, 0, sizeof(*s));
}

void xa_stat_dispose(struct xa_stat *s)
{
    unsigned int g;

    for ( g = 0; g < XA_STAT_GROUPS; g++ )
    {
        free(s->groups[g]);
        s->groups[g] = NULL;
    }
}

/* Lowest value and width of a bucket. */
static inline void bucket_range(unsigned int g, unsigned int b, uint64_t *lo,
                                uint64_t *width)
{
    unsigned int shift;

    if ( g == 0 )
    {
        *lo = b;
        *width = 1;
        return;
    }
    shift = g - 1;
    *lo = ((uint64_t)(XA_STAT_SUB + b)) << shift;
    *width = (uint64_t)1 << shift;
}

int stat_group_alloc(struct xa_stat *s, unsigned int g)
{
    s->groups[g] = calloc(XA_STAT_SUB, sizeof(uint32_t));
    return s->groups[g] ? XA_OK : XA_E_NOMEM;
}

int xa_stat_add(struct xa_stat *s, uint64_t cycles)
{
    return stat_add(s, cycles);
}

int xa_stat_merge(struct xa_stat *dst, const struct xa_stat *src)
{
    unsigned int g, b;

    if ( !src->count )
        return XA_OK;
    if ( !dst->count || src->min < dst->min )
        dst->min = src->min;
    if ( src->max > dst->max )
        dst->max = src->max;
    dst->count += src->count;
    if ( __builtin_add_overflow(dst->cycles, src->cycles, &dst->cycles) )
        dst->cycles = UINT64_MAX;
    for ( g = 0; g < XA_STAT_GROUPS; g++ )
    {
        if ( !src->groups[g] )
            continue;
        if ( !dst->groups[g] )
        {
            dst->groups[g] = calloc(XA_STAT_SUB, sizeof(uint32_t));
            if ( !dst->groups[g] )
                return XA_E_NOMEM;
        }
        for ( b = 0; b < XA_STAT_SUB; b++ )
            dst->groups[g][b] += src->groups[g][b];
    }
    return XA_OK;
}

uint64_t xa_stat_pct(const struct xa_stat *s, double p)
{
    uint64_t rank, seen = 0;
    unsigned int g, b;

    if ( !s->count )
        return 0;
    rank = (uint64_t)(p / 100.0 * (double)s->count + 0.999999999);
    if ( rank < 1 )
        rank = 1;
    if ( rank > s->count )
        rank = s->count;

    for ( g = 0; g < XA_STAT_GROUPS; g++ )
    {
        if ( !s->groups[g] )
            continue;
        for ( b = 0; b < XA_STAT_SUB; b++ )
        {
            seen += s->groups[g][b];
            if ( seen >= rank )
            {
                uint64_t lo, width, v;

                bucket_range(g, b, &lo, &width);
                v = lo + width / 2;
                if ( v < s->min )
                    v = s->min;
                if ( v > s->max )
                    v = s->max;
                return v;
            }
        }
    }
    return s->max;
}

int xa_stat_bucket_next(const struct xa_stat *s, unsigned int *k, uint64_t *n)
{
    unsigned int i;

    for ( i = *k; i < XA_STAT_NR_BUCKETS; i++ )
    {
        const uint32_t *grp = s->groups[i / XA_STAT_SUB];

        if ( !grp )
        {
            i |= XA_STAT_SUB - 1;
            continue;
        }
        if ( grp[i % XA_STAT_SUB] )
        {
            *k = i;
            *n = grp[i % XA_STAT_SUB];
            return XA_OK;
        }
    }
    return XA_E_RANGE;
}

unsigned int xa_stat_bucket_of(uint64_t v)
{
    unsigned int g, b;

    stat_bucket_of(v, &g, &b);
    return g * XA_STAT_SUB + b;
}

void xa_stat_bucket_range(unsigned int k, uint64_t *lo, uint64_t *width)
{
    bucket_range(k / XA_STAT_SUB, k % XA_STAT_SUB, lo, width);
}

int xa_stat_bucket_add(struct xa_stat *s, unsigned int k, uint64_t n)
{
    unsigned int g = k / XA_STAT_SUB;
    uint32_t *c;

    if ( k >= XA_STAT_NR_BUCKETS )
        return XA_E_RANGE;
    if ( !s->groups[g] )
    {
        s->groups[g] = calloc(XA_STAT_SUB, sizeof(uint32_t));
        if ( !s->groups[g] )
            return XA_E_NOMEM;
    }
    c = &s->groups[g][k % XA_STAT_SUB];
    if ( n > UINT32_MAX - *c )
        return XA_E_RANGE;
    *c += (uint32_t)n;
    return XA_OK;
}

int stat_hist_add_json(struct xa_stat *s, const struct xa_json_value *hist,
                       uint64_t *total)
{
    size_t i, n = xa_json_len(hist);
    uint64_t k = 0, d, c;
    int rc;

    *total = 0;
    if ( xa_json_type(hist) != XA_JSON_ARRAY || n % 2 )
        return XA_E_INVAL;
    for ( i = 0; i < n; i += 2 )
    {
        if ( !xa_json_u64(xa_json_at(hist, i), &d) ||
             !xa_json_u64(xa_json_at(hist, i + 1), &c) ||
             (i && !d) || d >= XA_STAT_NR_BUCKETS ||
             (k += d) >= XA_STAT_NR_BUCKETS )
            return XA_E_INVAL;
        if ( (rc = xa_stat_bucket_add(s, (unsigned int)k, c)) )
            return rc;
        *total += c;
    }
    return XA_OK;
}
