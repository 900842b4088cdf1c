/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * xa_out: the hand-written number formatting the dump relies on, against
 * snprintf, at every digit-count boundary; the fixed-point doubles the
 * summary writes, against snprintf, on random values, ties and limits.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <xenalyze/out.h>

#include "tap.h"

static bool same(struct xa_out *o, const char *want)
{
    bool ok = o->len == strlen(want) && !memcmp(o->buf, want, o->len);

    if ( !ok )
        printf("# got \"%.*s\", want \"%s\"\n", (int)o->len, o->buf, want);
    o->len = 0;
    return ok;
}

/* xa_out_fixed() against "%*.*f" for v at every width and decimals used. */
static unsigned int fixed_bad(struct xa_out *o, double v)
{
    static const unsigned int widths[] = { 0, 7, 11, 30 };
    unsigned int d, w, bad = 0;
    char want[400];

    for ( d = 0; d <= 10; d++ )
        for ( w = 0; w < sizeof(widths) / sizeof(widths[0]); w++ )
        {
            snprintf(want, sizeof(want), "%*.*f", (int)widths[w], (int)d, v);
            xa_out_fixed(o, v, widths[w], d);
            bad += !same(o, want);
        }
    return bad;
}

static double rand_unit(void)
{
    return (double)(tap_rand() >> 11) / 9007199254740992.0;
}

static void test_fixed(struct xa_out *o)
{
    static const double edge[] = {
        0.0, -0.0, 0.5, 1.5, 2.5, 0.125, 0.375, 0.0625, 1e-300, 5e-324,
        0.0005, 0.00050000000000000001, 0.9999999995, 99.995, 100.0,
        1844674407370.9551615, 18446744073.709551615, 1.8446744073709552e19,
        1.8446744073709552e18, 9.2233720368547758e18, 1e22, 1e300, -1.25,
        -0.004,
    };
    unsigned int i, bad = 0, n = 0;
    double v;

    for ( i = 0; i < sizeof(edge) / sizeof(edge[0]); i++, n++ )
        bad += fixed_bad(o, edge[i]);
    bad += fixed_bad(o, INFINITY) + fixed_bad(o, -INFINITY) +
           fixed_bad(o, NAN);
    n += 3;
    /* Exact ties at every decimal: k / 2^j. */
    for ( i = 0; i < 4096; i++, n++ )
        bad += fixed_bad(o, ldexp((double)(tap_rand() % 100000), -(int)(i % 24)));
    /* Random values over many magnitudes, and ratios as the summary makes. */
    for ( i = 0; i < 20000; i++, n += 2 )
    {
        v = rand_unit() * pow(10.0, (double)(i % 40) - 20.0);
        bad += fixed_bad(o, v);
        v = 100.0 * (double)(tap_rand() % 1000000) /
            (double)(tap_rand() % 1000000 + 1);
        bad += fixed_bad(o, v);
    }
    TAP_EQ(bad, 0, "%u doubles at 44 widths and decimals each as snprintf", n);
}

int main(void)
{
    struct xa_out o;
    char want[64];
    uint64_t v, p;
    unsigned int bad = 0, n = 0;

    xa_out_init(&o, -1);
    /* Every power of ten, its neighbours, and powers of two. */
    for ( p = 1; ; p *= 10 )
    {
        uint64_t cand[3] = { p - 1, p, p + 1 };
        unsigned int i;

        for ( i = 0; i < 3; i++ )
        {
            v = cand[i];
            xa_out_u64(&o, v);
            snprintf(want, sizeof(want), "%llu", (unsigned long long)v);
            bad += !same(&o, want);
            xa_out_u64w(&o, v, 12);
            snprintf(want, sizeof(want), "%12llu", (unsigned long long)v);
            bad += !same(&o, want);
            xa_out_u64z(&o, v, 9);
            snprintf(want, sizeof(want), "%09llu", (unsigned long long)v);
            bad += !same(&o, want);
            xa_out_hexw(&o, v, 8);
            snprintf(want, sizeof(want), "%08llx", (unsigned long long)v);
            bad += !same(&o, want);
            n += 4;
        }
        if ( p > UINT64_MAX / 10 )
            break;
    }
    for ( v = 1; v; v <<= 1 )
    {
        xa_out_u64(&o, v);
        snprintf(want, sizeof(want), "%llu", (unsigned long long)v);
        bad += !same(&o, want);
        xa_out_hex(&o, v - 1);
        snprintf(want, sizeof(want), "%llx", (unsigned long long)(v - 1));
        bad += !same(&o, want);
        n += 2;
    }
    TAP_EQ(bad, 0, "%u numbers formatted as snprintf does", n);
    xa_out_u64(&o, UINT64_MAX);
    tap_ok(same(&o, "18446744073709551615"), "UINT64_MAX");
    xa_out_i64(&o, INT64_MIN);
    tap_ok(same(&o, "-9223372036854775808"), "INT64_MIN");
    xa_out_u64(&o, 0);
    tap_ok(same(&o, "0"), "zero");
    xa_out_hex(&o, 0);
    tap_ok(same(&o, "0"), "hex zero");
    xa_out_json_str(&o, "a\"b\\c\n");
    tap_ok(same(&o, "\"a\\\"b\\\\c\\u000a\""), "JSON string escapes");
    xa_out_str(&o, "exactly sixteen!");
    xa_out_str(&o, "abc");
    tap_ok(same(&o, "exactly sixteen!abc"), "short copies");
    test_fixed(&o);
    xa_out_dispose(&o);
    return tap_done();
}
