/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Shaping the summary once it is built: totals per vCPU, every domain's
 * vCPUs aggregated, the order (--sort) and the folding of sub-rows
 * beyond --top into one "other (K keys)" row.  Everything a report
 * writer shows is computed here, so that writers only render.
 */
#define _GNU_SOURCE     /* qsort_r() */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model-private.h"

static const char *const sort_names[] = {
    [XA_SORT_TIME] = "time",
    [XA_SORT_COUNT] = "count",
    [XA_SORT_MEAN] = "mean",
    [XA_SORT_P99] = "p99",
    [XA_SORT_CODE] = "code",
};

const char *xa_sum_sort_name(enum xa_sum_sort s)
{
    return (unsigned int)s <= XA_SORT_CODE ? sort_names[s] : "?";
}

int xa_sum_sort_parse(const char *str, enum xa_sum_sort *out)
{
    unsigned int i;

    for ( i = 0; i <= XA_SORT_CODE; i++ )
        if ( !strcmp(str, sort_names[i]) )
        {
            *out = (enum xa_sum_sort)i;
            return XA_OK;
        }
    return XA_E_INVAL;
}

/*
 * Merges src into dst, dst's new histogram groups charged to the model's
 * budget (s->mem): what does not fit, or saturates a sum, is counted.
 */
static int shape_merge(struct xa_summary *s, struct xa_stat *dst,
                       const struct xa_stat *src)
{
    uint64_t unbounded = 0;
    int rc = s->mem ? xa_stat_merge_within(dst, src, s->mem, s->mem_budget)
                    : xa_stat_merge_within(dst, src, &unbounded, UINT64_MAX);

    if ( rc < 0 )
        return rc;
    s->mem_folded += (rc & XA_STAT_FOLDED) != 0;
    s->saturated += (rc & XA_STAT_SATURATED) != 0;
    return XA_OK;
}

/* A statistic the summary owns, empty; NULL when out of memory. */
struct xa_stat *summary_owned_stat(struct xa_summary *s)
{
    struct xa_stat *st;

    if ( s->nr_owned == s->cap_owned )
    {
        unsigned int cap = s->cap_owned ? s->cap_owned * 2 : 64;
        struct xa_stat **n = realloc(s->owned, cap * sizeof(*n));

        if ( !n )
            return NULL;
        s->owned = n;
        s->cap_owned = cap;
    }
    st = calloc(1, sizeof(*st));
    if ( !st )
        return NULL;
    xa_stat_init(st);
    s->owned[s->nr_owned++] = st;
    return st;
}

/* Sort keys: the statistic's value under the order, descending. */
static uint64_t sort_value(const struct xa_stat *st, enum xa_sum_sort how)
{
    switch ( how )
    {
    case XA_SORT_COUNT:
        return st->count;
    case XA_SORT_MEAN:
        return xa_stat_mean(st);
    case XA_SORT_P99:
        return xa_stat_pct(st, 99.0);
    case XA_SORT_TIME:
    case XA_SORT_CODE:
    default:
        return st->cycles;
    }
}

/* A statistic of the summary's own (aggregates), to add into. */
static struct xa_stat *mutable_stat(const struct xa_stat *st)
{
    union {
        const struct xa_stat *c;
        struct xa_stat *m;
    } u = { .c = st };

    return u.m;
}

/* qsort_r() of n items at base, which may be NULL when n is 0. */
static void sort(void *base, size_t n, size_t size,
                 int (*cmp)(const void *, const void *, void *), void *arg)
{
    if ( n > 1 )
        qsort_r(base, n, size, cmp, arg);
}

static int cmp_u64_desc(uint64_t x, uint64_t y)
{
    return x > y ? -1 : x < y;
}

static int cmp_sub(const void *a, const void *b, void *arg)
{
    const struct xa_sum_sub *x = a, *y = b;
    enum xa_sum_sort cur_sort = *(const enum xa_sum_sort *)arg;
    int c;

    /* The model's "other" row goes last whatever the order. */
    if ( x->capped != y->capped )
        return x->capped ? 1 : -1;
    if ( cur_sort != XA_SORT_CODE &&
         (c = cmp_u64_desc(sort_value(x->st, cur_sort),
                           sort_value(y->st, cur_sort))) )
        return c;
    return strcmp(x->key, y->key);
}

static int cmp_exit(const void *a, const void *b, void *arg)
{
    const struct xa_sum_exit *x = a, *y = b;
    enum xa_sum_sort cur_sort = *(const enum xa_sum_sort *)arg;
    int c;

    if ( cur_sort != XA_SORT_CODE &&
         (c = cmp_u64_desc(sort_value(x->st, cur_sort),
                           sort_value(y->st, cur_sort))) )
        return c;
    return x->code < y->code ? -1 : x->code > y->code;
}

/* Counters: by count unless the order is by code, then by id. */
static int cmp_count(const void *a, const void *b, void *arg)
{
    const struct xa_sum_count *x = a, *y = b;
    enum xa_sum_sort cur_sort = *(const enum xa_sum_sort *)arg;
    int c;

    if ( cur_sort != XA_SORT_CODE && (c = cmp_u64_desc(x->count, y->count)) )
        return c;
    return x->id < y->id ? -1 : x->id > y->id;
}

static void sort_counts(struct xa_sum_count *c, unsigned int n,
                        enum xa_sum_sort how)
{
    unsigned int i;

    sort(c, n, sizeof(*c), cmp_count, &how);
    for ( i = 0; i < n; i++ )
        sort(c[i].subs, c[i].nr_subs, sizeof(*c[i].subs), cmp_count,
                &how);
}

/* The sub-rows beyond top, folded into one. */
static int fold_subs(struct xa_summary *s, struct xa_sum_exit *e)
{
    struct xa_stat *st;
    unsigned int i;
    char key[48];

    e->nr_shown = e->nr_subs;
    if ( !s->top || e->nr_subs <= s->top + 1 )
        return XA_OK;
    /* The model's "other" stays in view when it is among the rest. */
    e->nr_shown = s->top;
    if ( !(st = summary_owned_stat(s)) )
        return XA_E_NOMEM;
    e->other.folded_keys = 0;
    for ( i = s->top; i < e->nr_subs; i++ )
    {
        if ( shape_merge(s, st, e->subs[i].st) )
            return XA_E_NOMEM;
        if ( e->subs[i].folded_keys == XA_SUM_KEYS_UNKNOWN )
            e->other.capped = true;
        else
            e->other.folded_keys += 1;
    }
    snprintf(key, sizeof(key), "other (%u keys%s)", e->other.folded_keys,
             e->other.capped ? " and more" : "");
    e->other.key = strdup(key);
    if ( !e->other.key )
        return XA_E_NOMEM;
    e->other.st = st;
    return XA_OK;
}

static int shape_vcpu(struct xa_summary *s, struct xa_sum_vcpu *v)
{
    struct xa_stat *all = NULL;
    unsigned int i;

    v->exit_cycles = v->exit_count = 0;
    for ( i = 0; i < v->nr_exits; i++ )
    {
        struct xa_sum_exit *e = &v->exits[i];

        v->exit_count += e->st->count;
        if ( !all && !(all = summary_owned_stat(s)) )
            return XA_E_NOMEM;
        if ( shape_merge(s, all, e->st) )
            return XA_E_NOMEM;
        sort(e->subs, e->nr_subs, sizeof(*e->subs), cmp_sub, &s->sort);
        if ( fold_subs(s, e) )
            return XA_E_NOMEM;
    }
    v->exit_all = all;
    v->exit_cycles = all ? all->cycles : 0;     /* saturated as it is */
    sort(v->exits, v->nr_exits, sizeof(*v->exits), cmp_exit, &s->sort);
    sort_counts(v->hypercalls, v->nr_hypercalls, s->sort);
    sort_counts(v->pv_events, v->nr_pv_events, s->sort);
    return XA_OK;
}

/* Aggregates: the exit of code in agg, created on first use. */
/*
 * Aggregates are indexed (util-private.h): a domain's vCPUs may bring
 * many distinct codes and keys between them, and a search of the
 * aggregate for each would be quadratic.  subs[i]: exit i's keys.
 */
struct agg_index {
    struct xa_idx exits, counts;
    struct xa_idx *subs;
};

static uint32_t str_hash32(const char *k)
{
    uint64_t h = 1469598103934665603ull;

    for ( ; *k; k++ )
        h = (h ^ (unsigned char)*k) * 1099511628211ull;
    return xa_hash32(h);
}

static struct xa_sum_exit *agg_exit(struct xa_summary *s,
                                    struct xa_sum_vcpu *agg,
                                    struct agg_index *ix,
                                    const struct xa_sum_exit *src,
                                    unsigned int cap)
{
    struct xa_sum_exit *e;
    struct xa_stat *st;
    struct xa_idx_ent *h;
    uint32_t hv = xa_hash32(src->code);

    if ( xa_idx_reserve(&ix->exits) )
        return NULL;
    for ( h = xa_idx_first(&ix->exits, hv); h->val;
          h = xa_idx_next(&ix->exits, h) )
        if ( h->hash == hv && agg->exits[h->val - 1].code == src->code )
            return &agg->exits[h->val - 1];
    if ( agg->nr_exits == cap || !(st = summary_owned_stat(s)) )
        return NULL;
    h->val = agg->nr_exits + 1;
    h->hash = hv;
    ix->exits.nr++;
    e = &agg->exits[agg->nr_exits++];
    memset(e, 0, sizeof(*e));
    e->code = src->code;
    e->reason = src->reason;
    if ( src->reason_owned )
    {
        e->reason = e->reason_owned = strdup(src->reason_owned);
        if ( !e->reason_owned )
            return NULL;
    }
    e->st = st;
    return e;
}

static int agg_sub(struct xa_summary *s, struct xa_sum_exit *e,
                   struct xa_idx *ix, const struct xa_sum_sub *src)
{
    struct xa_sum_sub *n;
    struct xa_stat *st;
    struct xa_idx_ent *h;
    uint32_t hv = str_hash32(src->key);

    if ( xa_idx_reserve(ix) )
        return XA_E_NOMEM;
    for ( h = xa_idx_first(ix, hv); h->val; h = xa_idx_next(ix, h) )
        if ( h->hash == hv && !strcmp(e->subs[h->val - 1].key, src->key) )
            return shape_merge(s, mutable_stat(e->subs[h->val - 1].st),
                                 src->st);
    /* Room doubles when the count reaches a power of two. */
    if ( !(e->nr_subs & (e->nr_subs - 1)) )
    {
        n = realloc(e->subs, (e->nr_subs ? e->nr_subs * 2 : 1) *
                             sizeof(*n));
        if ( !n )
            return XA_E_NOMEM;
        e->subs = n;
    }
    h->val = e->nr_subs + 1;
    h->hash = hv;
    ix->nr++;
    n = e->subs;
    n = &n[e->nr_subs];
    *n = *src;
    n->key = strdup(src->key);
    if ( !n->key || !(st = summary_owned_stat(s)) )
    {
        free(n->key);
        return XA_E_NOMEM;
    }
    n->st = st;
    e->nr_subs++;
    return shape_merge(s, st, src->st);
}

/*
 * Counters of several vCPUs added by id (and sub-operation); ix indexes
 * dst by id (NULL: searched, for the few sub-operations of an op).
 */
static int agg_counts(struct xa_sum_count **dst, unsigned int *nr,
                      struct xa_idx *ix, const struct xa_sum_count *src,
                      unsigned int n)
{
    unsigned int i, j;

    for ( i = 0; i < n; i++ )
    {
        struct xa_sum_count *c = NULL;
        struct xa_idx_ent *h = NULL;
        uint32_t hv = xa_hash32(src[i].id);

        if ( ix )
        {
            if ( xa_idx_reserve(ix) )
                return XA_E_NOMEM;
            for ( h = xa_idx_first(ix, hv); h->val && !c;
                  h = c ? h : xa_idx_next(ix, h) )
                if ( h->hash == hv && (*dst)[h->val - 1].id == src[i].id )
                    c = &(*dst)[h->val - 1];
        }
        else
            for ( j = 0; j < *nr && !c; j++ )
                if ( (*dst)[j].id == src[i].id )
                    c = &(*dst)[j];
        if ( !c )
        {
            struct xa_sum_count *t = *dst;

            if ( !(*nr & (*nr - 1)) )
            {
                t = realloc(*dst, (*nr ? *nr * 2 : 1) * sizeof(*t));
                if ( !t )
                    return XA_E_NOMEM;
                *dst = t;
            }
            if ( h )
            {
                h->val = *nr + 1;
                h->hash = hv;
                ix->nr++;
            }
            c = &t[(*nr)++];
            memset(c, 0, sizeof(*c));
            c->id = src[i].id;
            if ( !(c->name = strdup(src[i].name)) )
                return XA_E_NOMEM;
        }
        c->count += src[i].count;
        if ( agg_counts(&c->subs, &c->nr_subs, NULL, src[i].subs,
                        src[i].nr_subs) )
            return XA_E_NOMEM;
    }
    return XA_OK;
}

static int aggregate_domain_ix(struct xa_summary *s, struct xa_sum_domain *d,
                               struct agg_index *ix, unsigned int cap);

static void agg_index_free(struct agg_index *ix, unsigned int n)
{
    unsigned int i;

    xa_idx_free(&ix->exits);
    xa_idx_free(&ix->counts);
    for ( i = 0; ix->subs && i < n; i++ )
        xa_idx_free(&ix->subs[i]);
    free(ix->subs);
}

static int aggregate_domain(struct xa_summary *s, struct xa_sum_domain *d)
{
    struct agg_index ix = { 0 };
    int rc;
    unsigned int cap = 0, i;

    if ( !d->nr_vcpus )
    {
        d->exit_cycles = d->exit_count = 0;
        return XA_OK;
    }
    for ( i = 0; i < d->nr_vcpus; i++ )
        cap += d->vcpus[i].nr_exits;
    if ( cap && !(ix.subs = calloc(cap, sizeof(*ix.subs))) )
        return XA_E_NOMEM;
    rc = aggregate_domain_ix(s, d, &ix, cap);
    agg_index_free(&ix, cap);
    return rc;
}

static int aggregate_domain_ix(struct xa_summary *s, struct xa_sum_domain *d,
                               struct agg_index *ix, unsigned int cap)
{
    struct xa_sum_vcpu *agg;
    unsigned int i, j, k;

    d->exit_cycles = d->exit_count = 0;
    agg = d->all = calloc(1, sizeof(*agg));
    if ( !agg || (cap && !(agg->exits = calloc(cap, sizeof(*agg->exits)))) )
        return XA_E_NOMEM;
    agg->id = XA_SUM_ALL_VCPUS;
    for ( k = 0; k < XA_RS_NR; k++ )
    {
        struct xa_stat *st = summary_owned_stat(s);

        if ( !st )
            return XA_E_NOMEM;
        for ( i = 0; i < d->nr_vcpus; i++ )
            if ( shape_merge(s, st, d->vcpus[i].rs[k]) )
                return XA_E_NOMEM;
        agg->rs[k] = st;
    }
    for ( i = 0; i < d->nr_vcpus; i++ )
    {
        const struct xa_sum_vcpu *v = &d->vcpus[i];

        for ( j = 0; j < v->nr_exits; j++ )
        {
            const struct xa_sum_exit *src = &v->exits[j];
            struct xa_sum_exit *e = agg_exit(s, agg, ix, src, cap);

            if ( !e || shape_merge(s, mutable_stat(e->st), src->st) )
                return XA_E_NOMEM;
            for ( k = 0; k < src->nr_subs; k++ )
                if ( agg_sub(s, e, &ix->subs[e - agg->exits],
                             &src->subs[k]) )
                    return XA_E_NOMEM;
        }
        if ( agg_counts(&agg->hypercalls, &agg->nr_hypercalls, &ix->counts,
                        v->hypercalls, v->nr_hypercalls) )
            return XA_E_NOMEM;
    }
    /* PV events: a second pass, with the index afresh. */
    xa_idx_free(&ix->counts);
    for ( i = 0; i < d->nr_vcpus; i++ )
    {
        const struct xa_sum_vcpu *v = &d->vcpus[i];

        if ( agg_counts(&agg->pv_events, &agg->nr_pv_events, &ix->counts,
                        v->pv_events, v->nr_pv_events) )
            return XA_E_NOMEM;
    }
    if ( shape_vcpu(s, agg) )
        return XA_E_NOMEM;
    d->exit_cycles = agg->exit_cycles;
    d->exit_count = agg->exit_count;
    return XA_OK;
}

int summary_shape_guests(struct xa_summary *s)
{
    struct xa_sum_domain all;
    unsigned int i;
    int rc;

    memset(&all, 0, sizeof(all));
    all.vcpus = calloc(s->nr_domains ? s->nr_domains : 1, sizeof(*all.vcpus));
    if ( !all.vcpus )
        return XA_E_NOMEM;
    for ( i = 0; i < s->nr_domains; i++ )
        if ( s->domains[i].all && s->domains[i].id != XA_DOM_IDLE &&
             s->domains[i].id != XA_DOM_DEFAULT )
            all.vcpus[all.nr_vcpus++] = *s->domains[i].all;
    rc = aggregate_domain(s, &all);
    free(all.vcpus);            /* shallow copies: their parts stay */
    s->guests = all.all;
    return rc;
}

int summary_shape(struct xa_summary *s)
{
    unsigned int i, j;

    for ( i = 0; i < s->nr_domains; i++ )
    {
        struct xa_sum_domain *d = &s->domains[i];

        for ( j = 0; j < d->nr_vcpus; j++ )
            if ( shape_vcpu(s, &d->vcpus[j]) )
                return XA_E_NOMEM;
        if ( aggregate_domain(s, d) )
            return XA_E_NOMEM;
    }
    return XA_OK;
}
