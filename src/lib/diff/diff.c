/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Comparing two summaries (diff.h).  Each side is flattened into items
 * keyed by scope and name, statistics merged where several domains make
 * one scope (--guests), then the items of A and B are joined.
 *
 * "Within chance": the change in rate is under two standard errors of
 * Poisson counts (sqrt(n) / t on each side), and the change in mean under
 * two standard errors of the means, the spread of each side estimated
 * from its p5-p95 range (as a normal distribution's 3.29 sigma).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xenalyze/clock.h>
#include <xenalyze/diff.h>

#include "util/util-private.h"

struct item {
    char *scope, *what;
    enum xa_diff_kind kind;
    struct xa_stat st;
};

struct side {
    const struct xa_summary *s;
    struct item *items;
    unsigned int nr, cap;
};

static struct item *item_get(struct side *sd, const char *scope,
                             const char *what, enum xa_diff_kind kind)
{
    struct item *it;
    unsigned int i;

    for ( i = 0; i < sd->nr; i++ )
        if ( sd->items[i].kind == kind && !strcmp(sd->items[i].what, what) &&
             !strcmp(sd->items[i].scope, scope) )
            return &sd->items[i];
    if ( sd->nr == sd->cap )
    {
        unsigned int cap = sd->cap ? sd->cap * 2 : 64;
        struct item *n = realloc(sd->items, cap * sizeof(*n));

        if ( !n )
            return NULL;
        sd->items = n;
        sd->cap = cap;
    }
    it = &sd->items[sd->nr];
    memset(it, 0, sizeof(*it));
    it->scope = strdup(scope);
    it->what = strdup(what);
    it->kind = kind;
    xa_stat_init(&it->st);
    if ( !it->scope || !it->what )
    {
        free(it->scope);
        free(it->what);
        return NULL;
    }
    sd->nr++;
    return it;
}

static int add(struct side *sd, const char *scope, const char *what,
               enum xa_diff_kind kind, const struct xa_stat *st)
{
    struct item *it = item_get(sd, scope, what, kind);

    return it ? xa_stat_merge(&it->st, st) : XA_E_NOMEM;
}

static bool is_guest(const struct xa_sum_domain *d)
{
    return d->id != 0 && d->id < 32767;
}

/* A domain's rows under scope. */
static int add_domain(struct side *sd, const char *scope,
                      const struct xa_sum_domain *d)
{
    const struct xa_sum_vcpu *v = d->all;
    unsigned int i, j;
    char what[200];

    if ( !v )
        return XA_OK;
    for ( i = 0; i < v->nr_exits; i++ )
    {
        const struct xa_sum_exit *e = &v->exits[i];

        snprintf(what, sizeof(what), "%s [0x%x]", e->reason, e->code);
        if ( add(sd, scope, what, XA_DIFF_EXIT, e->st) )
            return XA_E_NOMEM;
        for ( j = 0; j < e->nr_subs; j++ )
        {
            snprintf(what, sizeof(what), "%s [0x%x] %s", e->reason, e->code,
                     e->subs[j].key);
            if ( add(sd, scope, what, XA_DIFF_SUB, e->subs[j].st) )
                return XA_E_NOMEM;
        }
    }
    for ( i = 0; i < XA_RS_NR; i++ )
        if ( v->rs[i]->count &&
             add(sd, scope, xa_rs_name((enum xa_rs)i), XA_DIFF_RUNSTATE,
                 v->rs[i]) )
            return XA_E_NOMEM;
    return XA_OK;
}

/* The domain of id and incarnation (DOMAIN_REUSED), or NULL. */
static const struct xa_sum_domain *find_dom(const struct xa_summary *s,
                                            unsigned int id, unsigned int inc)
{
    unsigned int i;

    for ( i = 0; i < s->nr_domains; i++ )
        if ( s->domains[i].id == id && s->domains[i].incarnation == inc )
            return &s->domains[i];
    return NULL;
}

/* "d1", or "d1#2" for the second domain of a reused id. */
static void dom_name(char *buf, size_t len, const struct xa_sum_domain *d)
{
    xa_dom_name(buf, len, "d", d->id, d->incarnation);
}

static void side_free(struct side *sd)
{
    unsigned int i;

    for ( i = 0; i < sd->nr; i++ )
    {
        free(sd->items[i].scope);
        free(sd->items[i].what);
        xa_stat_dispose(&sd->items[i].st);
    }
    free(sd->items);
}

static double span_s(const struct xa_summary *s)
{
    return xa_ticks_to_s(s->span_last - s->span_first, s->cpu_hz);
}

static void fill(struct xa_diff_side *x, const struct item *it,
                 const struct xa_summary *s)
{
    uint64_t span = s->span_last - s->span_first;
    double t = span_s(s);

    if ( !it )
        return;
    x->present = true;
    x->count = it->st.count;
    x->cycles = it->st.cycles;
    x->mean = xa_stat_mean(&it->st);
    x->p5 = xa_stat_pct(&it->st, 5.0);
    x->p95 = xa_stat_pct(&it->st, 95.0);
    x->p99 = xa_stat_pct(&it->st, 99.0);
    x->rate = t > 0 ? (double)x->count / t : 0;
    x->share = span ? (double)x->cycles / (double)span : 0;
    x->mean_us = xa_ticks_to_s(x->mean, s->cpu_hz) * 1e6;
    x->p95_us = xa_ticks_to_s(x->p95, s->cpu_hz) * 1e6;
    x->p99_us = xa_ticks_to_s(x->p99, s->cpu_hz) * 1e6;
}

static double change(double a, double b)
{
    if ( a == b )
        return 0;
    return a > 0 ? 100.0 * (b - a) / a : NAN;
}

static bool within_chance(const struct xa_diff_row *r, double ta, double tb,
                          const struct xa_summary *sa,
                          const struct xa_summary *sb)
{
    double na = (double)r->a.count, nb = (double)r->b.count;
    double se_rate, se_mean, sda, sdb, ma, mb;

    if ( !r->changed )
        return true;
    if ( ta <= 0 || tb <= 0 )
        return false;
    se_rate = sqrt(na / (ta * ta) + nb / (tb * tb));
    if ( se_rate > 0 && fabs(r->a.rate - r->b.rate) > 2 * se_rate )
        return false;
    if ( se_rate == 0 && r->a.rate != r->b.rate )
        return false;
    if ( r->kind == XA_DIFF_RUNSTATE || !na || !nb )
        return true;
    /* Means in seconds, spreads from p5..p95. */
    ma = xa_ticks_to_s(r->a.mean, sa->cpu_hz);
    mb = xa_ticks_to_s(r->b.mean, sb->cpu_hz);
    sda = xa_ticks_to_s(r->a.p95 - r->a.p5, sa->cpu_hz) / 3.29;
    sdb = xa_ticks_to_s(r->b.p95 - r->b.p5, sb->cpu_hz) / 3.29;
    se_mean = sqrt(sda * sda / na + sdb * sdb / nb);
    if ( se_mean > 0 )
        return fabs(ma - mb) <= 2 * se_mean;
    return ma == mb;
}

static int cmp_row(const void *x, const void *y)
{
    const struct xa_diff_row *a = x, *b = y;
    bool ra = a->kind == XA_DIFF_RUNSTATE, rb = b->kind == XA_DIFF_RUNSTATE;
    int c;

    if ( ra != rb )
        return ra ? 1 : -1;
    if ( a->impact != b->impact )
        return a->impact > b->impact ? -1 : 1;
    if ( (c = strcmp(a->scope, b->scope)) )
        return c;
    return strcmp(a->what, b->what);
}

/*
 * Domains of A and B paired: --map (an id's incarnations with the mapped
 * id's of the same number), else by kind, in id order.  Each incarnation
 * of a reused id is a domain of its own.
 */
static int pair_domains(const struct xa_summary *a, const struct xa_summary *b,
                        const struct xa_diff_opts *o, struct side *sa,
                        struct side *sb, struct xa_diff *d)
{
    bool *used_b = calloc(b->nr_domains + 1, sizeof(*used_b));
    unsigned int i, j, k;
    char scope[64], na[28], nb[28];
    size_t n = 0;
    int rc = XA_E_NOMEM;

    if ( !used_b )
        return XA_E_NOMEM;
    for ( i = 0; i < a->nr_domains; i++ )
    {
        const struct xa_sum_domain *da = &a->domains[i], *db = NULL;
        unsigned int rank = 0;

        if ( o->guests && is_guest(da) )
        {
            if ( add_domain(sa, "guests", da) )
                goto out;
            continue;
        }
        for ( k = 0; k < o->nr_map; k++ )
            if ( o->map[k][0] == da->id )
                db = find_dom(b, o->map[k][1], da->incarnation);
        if ( !db && !o->nr_map )
        {
            /* The rank-th domain of its kind in A: the rank-th in B. */
            for ( j = 0; j < i; j++ )
                rank += !strcmp(a->domains[j].kind, da->kind);
            for ( j = 0; j < b->nr_domains && !db; j++ )
                if ( !strcmp(b->domains[j].kind, da->kind) && !rank-- )
                    db = &b->domains[j];
        }
        if ( !db )
            db = find_dom(b, da->id, da->incarnation);
        dom_name(na, sizeof(na), da);
        if ( db )
            dom_name(nb, sizeof(nb), db);
        if ( db && db->id == da->id && db->incarnation == da->incarnation )
            snprintf(scope, sizeof(scope), "%s", na);
        else
            snprintf(scope, sizeof(scope), "%s=%s", na, db ? nb : "none");
        if ( n < sizeof(d->pairs) - 64 )
            n += (size_t)snprintf(d->pairs + n, sizeof(d->pairs) - n, "%s%s",
                                  n ? " " : "", scope);
        if ( add_domain(sa, scope, da) )
            goto out;
        if ( db )
        {
            used_b[db - b->domains] = true;
            if ( add_domain(sb, scope, db) )
                goto out;
        }
    }
    for ( j = 0; j < b->nr_domains; j++ )
    {
        const struct xa_sum_domain *db = &b->domains[j];

        if ( o->guests && is_guest(db) )
        {
            if ( add_domain(sb, "guests", db) )
                goto out;
            continue;
        }
        if ( used_b[j] )
            continue;
        dom_name(nb, sizeof(nb), db);
        snprintf(scope, sizeof(scope), "none=%s", nb);
        if ( add_domain(sb, scope, db) )
            goto out;
    }
    if ( o->guests && n < sizeof(d->pairs) - 64 )
        snprintf(d->pairs + n, sizeof(d->pairs) - n, "%sguests",
                 n ? " " : "");
    rc = XA_OK;
 out:
    free(used_b);
    return rc;
}

int xa_diff_new(const struct xa_summary *a, const struct xa_summary *b,
                const struct xa_diff_opts *o, struct xa_diff **out)
{
    struct side sa = { .s = a }, sb = { .s = b };
    struct xa_diff *d = calloc(1, sizeof(*d));
    unsigned int i, j;
    int rc = XA_E_NOMEM;

    *out = NULL;
    if ( !d )
        return XA_E_NOMEM;
    d->span_a = span_s(a);
    d->span_b = span_s(b);
    if ( pair_domains(a, b, o, &sa, &sb, d) )
        goto out;
    d->rows = calloc(sa.nr + sb.nr + 1, sizeof(*d->rows));
    if ( !d->rows )
        goto out;
    for ( i = 0; i < sa.nr + sb.nr; i++ )
    {
        const struct item *ia = i < sa.nr ? &sa.items[i] : NULL;
        const struct item *ib = NULL;
        const struct item *key = ia ? ia : &sb.items[i - sa.nr];
        struct xa_diff_row *r;

        for ( j = 0; j < sb.nr && !ib; j++ )
            if ( sb.items[j].kind == key->kind &&
                 !strcmp(sb.items[j].what, key->what) &&
                 !strcmp(sb.items[j].scope, key->scope) )
                ib = &sb.items[j];
        if ( !ia )
        {
            /* B's items that A has were joined above. */
            bool in_a = false;

            for ( j = 0; j < sa.nr && !in_a; j++ )
                in_a = sa.items[j].kind == key->kind &&
                       !strcmp(sa.items[j].what, key->what) &&
                       !strcmp(sa.items[j].scope, key->scope);
            if ( in_a )
                continue;
            ib = key;
        }
        r = &d->rows[d->nr_rows];
        r->scope = strdup(key->scope);
        r->what = strdup(key->what);
        if ( !r->scope || !r->what )
        {
            free(r->scope);
            free(r->what);
            goto out;
        }
        d->nr_rows++;
        r->kind = key->kind;
        fill(&r->a, ia, a);
        fill(&r->b, ib, b);
        r->d_rate = change(r->a.rate, r->b.rate);
        r->d_mean = change(r->a.mean_us, r->b.mean_us);
        r->d_p95 = change(r->a.p95_us, r->b.p95_us);
        r->d_p99 = change(r->a.p99_us, r->b.p99_us);
        r->d_share = change(r->a.share, r->b.share);
        r->impact = fabs(r->b.share - r->a.share);
        r->changed = r->a.present != r->b.present ||
                     r->a.count != r->b.count || r->a.cycles != r->b.cycles ||
                     r->a.rate != r->b.rate || r->a.share != r->b.share ||
                     r->a.p95 != r->b.p95 || r->a.p99 != r->b.p99;
        r->chance = within_chance(r, d->span_a, d->span_b, a, b);
        d->nr_changed += r->changed;
        if ( o->fail_above >= 0 && r->changed && !r->chance && !d->fail &&
             r->kind != XA_DIFF_RUNSTATE &&
             ((!isnan(r->d_share) && r->d_share > o->fail_above) ||
              (!isnan(r->d_mean) && r->d_mean > o->fail_above)) )
        {
            d->fail = true;
            snprintf(d->fail_why, sizeof(d->fail_why),
                     "%s %s: time share %+.1f%%, mean %+.1f%% (above %g%%)",
                     r->scope, r->what, r->d_share, r->d_mean, o->fail_above);
        }
    }
    qsort(d->rows, d->nr_rows, sizeof(*d->rows), cmp_row);
    *out = d;
    d = NULL;
    rc = XA_OK;
 out:
    side_free(&sa);
    side_free(&sb);
    xa_diff_free(d);
    return rc;
}

void xa_diff_free(struct xa_diff *d)
{
    unsigned int i;

    if ( !d )
        return;
    for ( i = 0; i < d->nr_rows; i++ )
    {
        free(d->rows[i].scope);
        free(d->rows[i].what);
    }
    free(d->rows);
    free(d);
}
