/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Log-linear histograms: exact count, total, min, max; percentiles within
 * 0.8% of the true nearest-rank sample; merging equals adding everything
 * to one histogram.
 */
#include <math.h>
#include <stdlib.h>

#include <xenalyze/stats.h>

#include "tap.h"

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return x < y ? -1 : x > y;
}

#define rnd tap_rand

/*
 * The buckets read out (xa_stat_bucket_next) and added back
 * (xa_stat_bucket_add) give the same percentiles; every sample's bucket
 * (xa_stat_bucket_of) holds it.
 */
static void check_buckets(const char *what, const struct xa_stat *s,
                          const uint64_t *v, unsigned int n)
{
    struct xa_stat r;
    unsigned int k = 0, i, nb = 0, outside = 0;
    uint64_t c, total = 0, lo, width;

    xa_stat_init(&r);
    r.count = s->count;
    r.cycles = s->cycles;
    r.min = s->min;
    r.max = s->max;
    while ( xa_stat_bucket_next(s, &k, &c) == XA_OK )
    {
        if ( xa_stat_bucket_add(&r, k, c) )
            break;
        total += c;
        nb++;
        k++;
    }
    TAP_EQ(total, s->count, "%s: %u buckets hold every sample", what, nb);
    for ( i = 0; i < XA_STAT_NR_PCT; i++ )
        TAP_EQ(xa_stat_pct(&r, xa_stat_pcts[i]), xa_stat_pct(s, xa_stat_pcts[i]),
               "%s: p%g from the buckets read back", what, xa_stat_pcts[i]);
    for ( i = 0; i < n; i++ )
    {
        xa_stat_bucket_range(xa_stat_bucket_of(v[i]), &lo, &width);
        if ( v[i] < lo || v[i] - lo >= width )
            outside++;
    }
    TAP_EQ(outside, 0, "%s: every sample inside its bucket", what);
    TAP_EQ(xa_stat_bucket_add(&r, XA_STAT_NR_BUCKETS, 1), XA_E_RANGE,
           "%s: no bucket beyond the last", what);
    xa_stat_dispose(&r);
}

/* Worst relative error of every reported percentile against the sample. */
static double check_dist(const char *what, uint64_t *v, unsigned int n)
{
    struct xa_stat s, a, b;
    double worst = 0;
    uint64_t sum = 0;
    unsigned int i;

    xa_stat_init(&s);
    xa_stat_init(&a);
    xa_stat_init(&b);
    for ( i = 0; i < n; i++ )
    {
        xa_stat_add(&s, v[i]);
        xa_stat_add(i % 3 ? &a : &b, v[i]);
        /* The total saturates at 2^64 - 1 (it does not wrap). */
        if ( __builtin_add_overflow(sum, v[i], &sum) )
            sum = UINT64_MAX;
    }
    xa_stat_merge(&a, &b);
    check_buckets(what, &s, v, n);
    qsort(v, n, sizeof(*v), cmp_u64);
    TAP_EQ(s.count, n, "%s: count", what);
    TAP_EQ(s.cycles, sum, "%s: total", what);
    TAP_EQ(s.min, v[0], "%s: min", what);
    TAP_EQ(s.max, v[n - 1], "%s: max", what);
    TAP_EQ(xa_stat_mean(&s), sum / n, "%s: mean", what);
    for ( i = 0; i < XA_STAT_NR_PCT; i++ )
    {
        double p = xa_stat_pcts[i];
        uint64_t rank = (uint64_t)ceil(p / 100.0 * n);
        uint64_t want = v[(rank ? rank : 1) - 1];
        uint64_t got = xa_stat_pct(&s, p);
        double err = fabs((double)got - (double)want) /
                     (want ? (double)want : 1.0);

        if ( err > worst )
            worst = err;
        TAP_EQ(xa_stat_pct(&a, p), got, "%s: merged p%g equals one", what,
               p);
    }
    tap_ok(worst <= 0.008, "%s: worst percentile error %.4f%% <= 0.8%%",
           what, worst * 100);
    {
        uint64_t many[XA_STAT_NR_PCT];
        unsigned int same = 0;

        xa_stat_pct_many(&s, xa_stat_pcts, XA_STAT_NR_PCT, many);
        for ( i = 0; i < XA_STAT_NR_PCT; i++ )
            same += many[i] == xa_stat_pct(&s, xa_stat_pcts[i]);
        TAP_EQ(same, XA_STAT_NR_PCT, "%s: the percentiles in one pass",
               what);
    }
    TAP_EQ(a.count, s.count, "%s: merged count", what);
    TAP_EQ(a.cycles, s.cycles, "%s: merged total", what);
    xa_stat_dispose(&s);
    xa_stat_dispose(&a);
    xa_stat_dispose(&b);
    return worst;
}

/*
 * Within a budget: new groups are charged until it is spent, then samples
 * go to the nearest group the statistic has (count, cycles and extremes
 * exact, every sample in some bucket); a sum that reaches 2^64 - 1 says
 * so once.
 */
static void check_within(void)
{
    struct xa_stat s, a, b;
    uint64_t mem = 0, budget = 2 * XA_STAT_GROUP_BYTES, k_total = 0, n;
    unsigned int k = 0;
    int rc;

    xa_stat_init(&s);
    TAP_EQ(xa_stat_add_within(&s, 100, &mem, budget), XA_OK,
           "within: first group fits");
    TAP_EQ(mem, XA_STAT_GROUP_BYTES, "within: one group charged");
    TAP_EQ(xa_stat_add_within(&s, 1u << 20, &mem, budget), XA_OK,
           "within: second group fits");
    TAP_EQ(xa_stat_add_within(&s, 1u << 30, &mem, budget), XA_STAT_FOLDED,
           "within: third group folded");
    TAP_EQ(mem, 2 * XA_STAT_GROUP_BYTES, "within: nothing more charged");
    TAP_EQ(xa_stat_add_within(&s, 5, &mem, budget), XA_STAT_FOLDED,
           "within: a lower group folded too");
    TAP_EQ(s.count, 4, "within: count exact");
    TAP_EQ(s.cycles, 100 + (1u << 20) + (1u << 30) + 5, "within: sum exact");
    TAP_EQ(s.min, 5, "within: min exact");
    TAP_EQ(s.max, 1u << 30, "within: max exact");
    while ( xa_stat_bucket_next(&s, &k, &n) == XA_OK )
    {
        k_total += n;
        k++;
    }
    TAP_EQ(k_total, 4, "within: every sample in a bucket");
    /* 2^30 went to the top bucket of 2^20's group, [2^21 - 2^14, 2^21). */
    TAP_EQ(xa_stat_pct(&s, 100), (1u << 21) - (1u << 13),
           "within: a folded sample in the nearest group's edge bucket");
    /* A statistic without groups takes its first one, uncharged. */
    xa_stat_init(&a);
    TAP_EQ(xa_stat_add_within(&a, 7, &mem, budget), XA_OK,
           "within: an empty statistic takes its first group");
    TAP_EQ(mem, 2 * XA_STAT_GROUP_BYTES, "within: first group uncharged");
    /* Saturation, once. */
    xa_stat_init(&b);
    TAP_EQ(xa_stat_add_within(&b, UINT64_MAX - 1, &mem, UINT64_MAX), XA_OK,
           "within: no saturation yet");
    TAP_EQ(xa_stat_add_within(&b, 2, &mem, UINT64_MAX), XA_STAT_SATURATED,
           "within: the sum saturates");
    TAP_EQ(b.cycles, UINT64_MAX, "within: saturated at 2^64 - 1");
    TAP_EQ(xa_stat_add_within(&b, 2, &mem, UINT64_MAX), XA_OK,
           "within: said once");
    /* Merging into a full budget folds src's groups into dst's. */
    mem = budget;
    rc = xa_stat_merge_within(&a, &s, &mem, budget);
    TAP_EQ(rc, XA_STAT_FOLDED, "merge within: folded");
    TAP_EQ(a.count, 5, "merge within: count");
    TAP_EQ(a.cycles, s.cycles + 7, "merge within: sum");
    for ( k = 0, k_total = 0; xa_stat_bucket_next(&a, &k, &n) == XA_OK; k++ )
        k_total += n;
    TAP_EQ(k_total, 5, "merge within: every sample in a bucket");
    xa_stat_dispose(&s);
    xa_stat_dispose(&a);
    xa_stat_dispose(&b);
}

int main(void)
{
    enum { N = 200000 };
    uint64_t *v = malloc(N * sizeof(*v));
    unsigned int i;
    struct xa_stat e;

    for ( i = 0; i < N; i++ )
        v[i] = 1 + rnd() % 100000;
    check_dist("uniform 1..1e5", v, N);
    for ( i = 0; i < N; i++ )
        v[i] = (uint64_t)exp((double)(rnd() % 40000) / 1000.0);
    check_dist("log-uniform 1..2e17", v, N);
    for ( i = 0; i < N; i++ )
        v[i] = rnd() % 64;
    check_dist("small values, exact", v, N);
    for ( i = 0; i < 1000; i++ )
        v[i] = i % 2 ? 5000 : 3;
    check_dist("two values", v, 1000);
    v[0] = UINT64_MAX;
    v[1] = 0;
    check_dist("extremes", v, 2);

    xa_stat_init(&e);
    TAP_EQ(xa_stat_pct(&e, 50), 0, "empty: p50 is 0");
    TAP_EQ(xa_stat_mean(&e), 0, "empty: mean is 0");
    xa_stat_dispose(&e);
    check_within();
    free(v);
    return tap_done();
}
