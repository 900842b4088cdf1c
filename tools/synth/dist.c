/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * PRNG seeding, duration parsing and tabulated distributions.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "synth.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void rng_seed(struct rng *r, uint64_t seed)
{
    unsigned int i;

    for ( i = 0; i < 4; i++ )
        r->s[i] = splitmix64(&seed);
}

bool parse_cycles(const char *s, uint64_t hz, uint64_t *out)
{
    char *end;
    double v = strtod(s, &end), mul = 1;

    if ( end == s || v < 0 )
        return false;
    while ( *end == ' ' )
        end++;
    if ( !*end || !strcmp(end, "c") || !strcmp(end, "cycles") )
        mul = 1;
    else if ( !strcmp(end, "ns") )
        mul = hz / 1e9;
    else if ( !strcmp(end, "us") )
        mul = hz / 1e6;
    else if ( !strcmp(end, "ms") )
        mul = hz / 1e3;
    else if ( !strcmp(end, "s") )
        mul = (double)hz;
    else
        return false;
    v = v * mul + 0.5;
    if ( v >= 1.8e19 )
        return false;
    *out = (uint64_t)v;
    return true;
}

/* Standard normal quantile (Acklam's rational approximation). */
static double norm_quantile(double p)
{
    static const double a[] = { -3.969683028665376e+01, 2.209460984245205e+02,
        -2.759285104469687e+02, 1.383577518672690e+02,
        -3.066479806614716e+01, 2.506628277459239e+00 };
    static const double b[] = { -5.447609879822406e+01, 1.615858368580409e+02,
        -1.556989798598866e+02, 6.680131188771972e+01,
        -1.328068155288572e+01 };
    static const double c[] = { -7.784894002430293e-03, -3.223964580411365e-01,
        -2.400758277161838e+00, -2.549732539343734e+00,
        4.374664141464968e+00, 2.938163982698783e+00 };
    static const double d[] = { 7.784695709041462e-03, 3.224671290700398e-01,
        2.445134137142996e+00, 3.754408661907416e+00 };
    double q, r;

    if ( p < 0.02425 )
    {
        q = sqrt(-2 * log(p));
        return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q +
                c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    }
    if ( p > 1 - 0.02425 )
        return -norm_quantile(1 - p);
    q = p - 0.5;
    r = q * q;
    return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r +
            a[5]) * q / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r +
                          b[4]) * r + 1);
}

static int tabulate(struct dist *d, double (*q)(double p, double x, double y),
                    double x, double y)
{
    unsigned int i;

    d->kind = DIST_TABLE;
    d->tab = malloc((DIST_TAB + 1) * sizeof(*d->tab));
    if ( !d->tab )
        return -1;
    /* Quantiles at the midpoints keep both tails finite. */
    for ( i = 0; i <= DIST_TAB; i++ )
    {
        double p = (i + 0.5) / (DIST_TAB + 1.0), v = q(p, x, y);

        d->tab[i] = v < 1 ? 1 : v > 1e18 ? (uint64_t)1e18 : (uint64_t)v;
    }
    return 0;
}

static double q_exp(double p, double mean, double unused)
{
    (void)unused;
    return -log(1 - p) * mean;
}

static double q_lognormal(double p, double median, double sigma)
{
    return median * exp(sigma * norm_quantile(p));
}

int dist_parse(struct dist *d, const char *text, uint64_t hz, char *err,
               size_t errlen)
{
    char kind[32], a[32], b[32];
    int n = sscanf(text, "%31s %31s %31s", kind, a, b);
    uint64_t x, y;

    dist_dispose(d);
    if ( n == 1 && parse_cycles(kind, hz, &x) )
    {
        d->kind = DIST_FIXED;
        d->a = x;
        return 0;
    }
    if ( n < 2 || !parse_cycles(a, hz, &x) )
        goto bad;
    if ( !strcmp(kind, "fixed") && n == 2 )
    {
        d->kind = DIST_FIXED;
        d->a = x;
        return 0;
    }
    if ( !strcmp(kind, "uniform") && n == 3 && parse_cycles(b, hz, &y) &&
         y >= x )
    {
        d->kind = DIST_UNIFORM;
        d->a = x;
        d->b = y;
        return 0;
    }
    if ( !strcmp(kind, "exp") && n == 2 )
        return tabulate(d, q_exp, (double)x, 0);
    if ( !strcmp(kind, "lognormal") && n == 3 )
    {
        char *end;
        double sigma = strtod(b, &end);

        if ( *end || sigma < 0 || sigma > 5 )
            goto bad;
        return tabulate(d, q_lognormal, (double)x, sigma);
    }
 bad:
    snprintf(err, errlen, "bad distribution \"%s\" (fixed V, uniform A B, "
             "exp MEAN, lognormal MEDIAN SIGMA)", text);
    return -1;
}

void dist_dispose(struct dist *d)
{
    free(d->tab);
    memset(d, 0, sizeof(*d));
}
