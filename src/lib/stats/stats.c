/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Log-linear histograms.  Group 0 holds values 0..63 exactly; group g >= 1
 * holds [2^(g+5), 2^(g+6)) in 64 equal buckets.
 */
#include <stdbool.h>
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
    uint64_t mem = 0;
    int rc = stat_add_within(s, cycles, &mem, UINT64_MAX);

    return rc < 0 ? rc : XA_OK;
}

/*
 * The group of s nearest to g, and the bucket in it nearest to the values
 * of group g; false when s has none.
 */
static bool nearest_group(const struct xa_stat *s, unsigned int g,
                          unsigned int *ng, unsigned int *nb)
{
    unsigned int d;

    for ( d = 1; d < XA_STAT_GROUPS; d++ )
    {
        if ( g >= d && s->groups[g - d] )
        {
            *ng = g - d;
            *nb = XA_STAT_SUB - 1;
            return true;
        }
        if ( g + d < XA_STAT_GROUPS && s->groups[g + d] )
        {
            *ng = g + d;
            *nb = 0;
            return true;
        }
    }
    return false;
}

int stat_add_new_group(struct xa_stat *s, unsigned int g, unsigned int *ng,
                       unsigned int *nb, uint64_t *mem, uint64_t limit)
{
    bool fits = *mem + XA_STAT_GROUP_BYTES <= limit;

    *ng = g;
    if ( !fits && nearest_group(s, g, ng, nb) )
        return XA_STAT_FOLDED;
    if ( stat_group_alloc(s, g) )
        return XA_E_NOMEM;
    if ( fits )
        *mem += XA_STAT_GROUP_BYTES;
    return XA_OK;
}

__attribute__((noinline))
int stat_add_slow(struct xa_stat *s, uint64_t cycles, uint64_t *mem,
                  uint64_t limit)
{
    unsigned int g, b, ng;
    int rc = XA_OK, sat;

    if ( !s->count || cycles < s->min )
        s->min = cycles;
    if ( cycles > s->max )
        s->max = cycles;
    s->count++;
    sat = stat_sum_add(&s->cycles, cycles);
    stat_bucket_of(cycles, &g, &b);
    ng = g;
    if ( !s->groups[g] &&
         (rc = stat_add_new_group(s, g, &ng, &b, mem, limit)) < 0 )
        return rc;
    s->groups[ng][b]++;
    return rc | sat;
}

int xa_stat_add_within(struct xa_stat *s, uint64_t cycles, uint64_t *mem,
                       uint64_t limit)
{
    return stat_add_within(s, cycles, mem, limit);
}

int xa_stat_merge_within(struct xa_stat *dst, const struct xa_stat *src,
                         uint64_t *mem, uint64_t limit)
{
    unsigned int g, b, ng, nb;
    int rc = 0, r;

    if ( !src->count )
        return XA_OK;
    if ( !dst->count || src->min < dst->min )
        dst->min = src->min;
    if ( src->max > dst->max )
        dst->max = src->max;
    dst->count += src->count;
    rc |= stat_sum_add(&dst->cycles, src->cycles);
    for ( g = 0; g < XA_STAT_GROUPS; g++ )
    {
        if ( !src->groups[g] )
            continue;
        ng = g;
        if ( !dst->groups[g] &&
             (r = stat_add_new_group(dst, g, &ng, &nb, mem, limit)) )
        {
            if ( r < 0 )
                return r;
            rc |= r;
        }
        for ( b = 0; b < XA_STAT_SUB; b++ )
            dst->groups[ng][ng == g ? b : nb] += src->groups[g][b];
    }
    return rc;
}

int xa_stat_merge(struct xa_stat *dst, const struct xa_stat *src)
{
    uint64_t mem = 0;
    int rc = xa_stat_merge_within(dst, src, &mem, UINT64_MAX);

    return rc < 0 ? rc : XA_OK;
}

/* The nearest rank of percentile p among count samples. */
static uint64_t pct_rank(uint64_t count, double p)
{
    uint64_t rank = (uint64_t)(p / 100.0 * (double)count + 0.999999999);

    if ( rank < 1 )
        rank = 1;
    if ( rank > count )
        rank = count;
    return rank;
}

void xa_stat_pct_many(const struct xa_stat *s, const double *p,
                      unsigned int n, uint64_t *out)
{
    uint64_t rank, seen = 0;
    unsigned int g, b, i = 0;

    if ( !s->count )
    {
        for ( ; i < n; i++ )
            out[i] = 0;
        return;
    }
    rank = pct_rank(s->count, p[0]);
    for ( g = 0; g < XA_STAT_GROUPS && i < n; g++ )
    {
        if ( !s->groups[g] )
            continue;
        for ( b = 0; b < XA_STAT_SUB && i < n; b++ )
        {
            uint64_t lo, width, v;

            seen += s->groups[g][b];
            if ( seen < rank )
                continue;
            bucket_range(g, b, &lo, &width);
            v = lo + width / 2;
            if ( v < s->min )
                v = s->min;
            if ( v > s->max )
                v = s->max;
            /* Every percentile whose rank this bucket reaches. */
            while ( seen >= rank )
            {
                out[i++] = v;
                if ( i == n )
                    break;
                rank = pct_rank(s->count, p[i]);
            }
        }
    }
    for ( ; i < n; i++ )
        out[i] = s->max;
}

uint64_t xa_stat_pct(const struct xa_stat *s, double p)
{
    uint64_t v;

    xa_stat_pct_many(s, &p, 1, &v);
    return v;
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
    if ( !s->groups[g] && stat_group_alloc(s, g) )
        return XA_E_NOMEM;
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
