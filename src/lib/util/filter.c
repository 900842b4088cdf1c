/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The selection filter: parsing and tests (see filter.h); and the names
 * of domains it selects (util-private.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xenalyze/filter.h>

#include "util-private.h"

int xa_dom_name(char *buf, size_t len, const char *prefix, unsigned int id,
                unsigned int incarnation)
{
    if ( incarnation )
        return snprintf(buf, len, "%s%u#%u", prefix, id, incarnation + 1);
    return snprintf(buf, len, "%s%u", prefix, id);
}

void xa_filter_init(struct xa_filter *f)
{
    memset(f, 0, sizeof(*f));
    f->to_ns = UINT64_MAX;
}

bool xa_filter_has_window(const struct xa_filter *f)
{
    return f->from_ns || f->to_ns != UINT64_MAX;
}

bool xa_filter_active(const struct xa_filter *f)
{
    return xa_filter_has_window(f) || f->nr_domains || f->nr_vcpus;
}

int xa_filter_parse_seconds(const char *s, uint64_t *ns)
{
    uint64_t sec = 0, frac = 0;
    unsigned int digits = 0;
    const char *p = s;

    if ( *p < '0' || *p > '9' )
        return XA_E_INVAL;
    for ( ; *p >= '0' && *p <= '9'; p++ )
    {
        if ( sec > (UINT64_MAX / 1000000000u - 9) / 10 )
            return XA_E_RANGE;
        sec = sec * 10 + (uint64_t)(*p - '0');
    }
    if ( *p == '.' )
    {
        for ( p++; *p >= '0' && *p <= '9'; p++ )
        {
            if ( ++digits > 9 )
                return XA_E_RANGE;
            frac = frac * 10 + (uint64_t)(*p - '0');
        }
        for ( ; digits < 9; digits++ )
            frac *= 10;
    }
    if ( *p )
        return XA_E_INVAL;
    *ns = sec * 1000000000u + frac;
    return XA_OK;
}

/* One unsigned number as strtoul(,, 0) reads it, at most max; *end past. */
static int parse_id(const char *s, unsigned long max, unsigned long *v,
                    const char **end)
{
    char *e;

    if ( *s < '0' || *s > '9' )
        return XA_E_INVAL;
    *v = strtoul(s, &e, 0);
    if ( e == s || *v > max )
        return XA_E_RANGE;
    *end = e;
    return XA_OK;
}

int xa_filter_parse_domains(struct xa_filter *f, const char *s)
{
    const char *p = s;

    for ( ;; )
    {
        unsigned long d;
        int rc = parse_id(p, 0xffff, &d, &p);

        if ( rc )
            return rc;
        if ( *p && *p != ',' )
            return XA_E_INVAL;
        if ( f->nr_domains == XA_FILTER_MAX_IDS )
            return XA_E_RANGE;
        f->domains[f->nr_domains++] = (uint16_t)d;
        if ( !*p++ )
            return XA_OK;
    }
}

int xa_filter_parse_vcpus(struct xa_filter *f, const char *s)
{
    const char *p = s;

    for ( ;; )
    {
        unsigned long d, v;
        bool dv = *p == 'd';
        int rc = parse_id(p + dv, 0xffff, &d, &p);

        if ( rc )
            return rc;
        if ( *p != (dv ? 'v' : '.') )
            return XA_E_INVAL;
        if ( (rc = parse_id(p + 1, 0xffff, &v, &p)) )
            return rc;
        if ( *p && *p != ',' )
            return XA_E_INVAL;
        if ( f->nr_vcpus == XA_FILTER_MAX_IDS )
            return XA_E_RANGE;
        f->vcpus[f->nr_vcpus].dom = (uint16_t)d;
        f->vcpus[f->nr_vcpus++].vcpu = (uint16_t)v;
        if ( !*p++ )
            return XA_OK;
    }
}

bool xa_filter_domain(const struct xa_filter *f, unsigned int dom)
{
    unsigned int i;

    if ( !f->nr_domains && !f->nr_vcpus )
        return true;
    for ( i = 0; i < f->nr_domains; i++ )
        if ( f->domains[i] == dom )
            return true;
    for ( i = 0; i < f->nr_vcpus; i++ )
        if ( f->vcpus[i].dom == dom )
            return true;
    return false;
}

bool xa_filter_vcpu(const struct xa_filter *f, unsigned int dom,
                    unsigned int vcpu)
{
    unsigned int i;

    if ( !f->nr_domains && !f->nr_vcpus )
        return true;
    for ( i = 0; i < f->nr_domains; i++ )
        if ( f->domains[i] == dom )
            return true;
    for ( i = 0; i < f->nr_vcpus; i++ )
        if ( f->vcpus[i].dom == dom && f->vcpus[i].vcpu == vcpu )
            return true;
    return false;
}

/* The first tick whose time (floor(t * 1e9 / hz) ns) is at least ns. */
static uint64_t ns_to_first_tick(uint64_t ns, uint64_t hz)
{
    unsigned __int128 t = ((unsigned __int128)ns * hz + 999999999u) /
                          1000000000u;

    return t > UINT64_MAX ? UINT64_MAX : (uint64_t)t;
}

void xa_filter_tsc_window(const struct xa_filter *f, uint64_t first_tsc,
                          uint64_t hz, uint64_t *lo, uint64_t *hi)
{
    uint64_t a = ns_to_first_tick(f->from_ns, hz), b;

    /* From 0: what comes before the first timestamp too. */
    *lo = !f->from_ns ? 0 : a > UINT64_MAX - first_tsc ? UINT64_MAX
                                                        : first_tsc + a;
    if ( f->to_ns == UINT64_MAX )
    {
        *hi = UINT64_MAX;
        return;
    }
    b = ns_to_first_tick(f->to_ns, hz);
    *hi = b > UINT64_MAX - first_tsc ? UINT64_MAX : first_tsc + b;
}
