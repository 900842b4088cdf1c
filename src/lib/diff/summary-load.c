/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A JSON summary (--format=json, schema xenalyze.summary/1) read back as
 * the part of a struct xa_summary that diff compares: the clock, the span,
 * and per domain its all-vCPU exits, sub-keys and runstates.
 *
 * A statistic keeps its exact count, cycles, min and max, and its
 * histogram when the summary carries it ("hist"); else the histogram
 * is rebuilt from the percentiles: the samples up to p5's nearest rank in
 * p5's bucket, the next ones up to p50's rank in p50's bucket, and so on,
 * the rest in max's.  xa_stat_pct() then gives back every percentile the
 * JSON states, exactly, so that a summary and its JSON compare equal.
 * Strings point into the parsed document, kept with the summary.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xenalyze/diff.h>

#include "stats/stats-private.h"
#include "util/util-private.h"

struct loaded {
    struct xa_summary s;            /* first: the pointer handed out */
    struct xa_json *doc;
    bool hist;                      /* "histograms": "log-linear-64/1" */
    void **allocs;
    unsigned int nr_allocs, cap_allocs;
    char *why;
    size_t why_len;
};

static void *own(struct loaded *l, void *p)
{
    if ( !p )
        return NULL;
    if ( l->nr_allocs == l->cap_allocs )
    {
        unsigned int cap = l->cap_allocs ? l->cap_allocs * 2 : 64;
        void **n = realloc(l->allocs, cap * sizeof(*n));

        if ( !n )
        {
            free(p);
            return NULL;
        }
        l->allocs = n;
        l->cap_allocs = cap;
    }
    l->allocs[l->nr_allocs++] = p;
    return p;
}

static void *own_calloc(struct loaded *l, size_t n, size_t size)
{
    return own(l, calloc(n ? n : 1, size));
}

static int bad(struct loaded *l, const char *what, const char *where)
{
    snprintf(l->why, l->why_len, "%s%s%s", where ? where : "",
             where ? ": " : "", what);
    return XA_E_INVAL;
}

/*
 * The histogram itself, where the summary carries it ("hist": [k0, n0,
 * d1, n1, ...], bucket k = 64 g + b, stats.c's layout): exact, also
 * merged.  1: none (or not usable), 0: read, < 0: an error.
 */
static int hist_load(struct loaded *l, const struct xa_json_value *v,
                     struct xa_stat *st, const char *where)
{
    const struct xa_json_value *h = xa_json_get(v, "hist");
    uint64_t total;
    unsigned int g;
    int rc;

    if ( !l->hist || xa_json_type(h) != XA_JSON_ARRAY )
        return 1;
    if ( xa_json_len(h) % 2 )
        return bad(l, "a hist of odd length", where);
    rc = stat_hist_add_json(st, h, &total);
    /* The buckets allocated belong to the loaded summary from here. */
    for ( g = 0; g < XA_STAT_GROUPS; g++ )
        if ( st->groups[g] && !own(l, st->groups[g]) )
        {
            /* own() freed this one; the ones after it are not owned yet. */
            for ( st->groups[g] = NULL; ++g < XA_STAT_GROUPS; )
            {
                free(st->groups[g]);
                st->groups[g] = NULL;
            }
            return XA_E_NOMEM;
        }
    if ( rc == XA_E_NOMEM )
        return rc;
    if ( rc )
        return bad(l, "a hist out of its layout", where);
    if ( total != st->count )
        return bad(l, "a hist that does not add up to its count", where);
    return 0;
}

/* A statistic from its JSON object (STATS of docs/summary-json.md). */
static int stat_load(struct loaded *l, const struct xa_json_value *v,
                     const struct xa_stat **out, const char *where)
{
    struct xa_stat *st = own_calloc(l, 1, sizeof(*st));
    uint64_t pct[XA_STAT_NR_PCT], placed = 0;
    unsigned int i, g;
    int rc;

    if ( !st )
        return XA_E_NOMEM;
    xa_stat_init(st);
    *out = st;
    if ( !xa_json_u64(xa_json_get(v, "count"), &st->count) ||
         !xa_json_u64(xa_json_get(v, "cycles"), &st->cycles) ||
         !xa_json_u64(xa_json_get(v, "min"), &st->min) ||
         !xa_json_u64(xa_json_get(v, "max"), &st->max) )
        return bad(l, "statistics without count, cycles, min and max",
                   where);
    if ( st->count > UINT32_MAX )
        return bad(l, "a count beyond 2^32", where);
    if ( !st->count )
        return XA_OK;
    if ( (rc = hist_load(l, v, st, where)) <= 0 )
        return rc;
    for ( i = 0; i < XA_STAT_NR_PCT; i++ )
        if ( !xa_json_u64(xa_json_get(v, xa_stat_pct_names[i]), &pct[i]) )
            return bad(l, "statistics without percentiles", where);
    for ( i = 0; i <= XA_STAT_NR_PCT; i++ )
    {
        /* Nearest ranks, as xa_stat_pct() computes them. */
        uint64_t rank = st->count, v64 = st->max;

        if ( i < XA_STAT_NR_PCT )
        {
            rank = (uint64_t)(xa_stat_pcts[i] / 100.0 * (double)st->count +
                              0.999999999);
            rank = rank < 1 ? 1 : rank > st->count ? st->count : rank;
            v64 = pct[i];
        }
        if ( rank > placed )
        {
            struct xa_stat one;

            /* The bucket of v64, through xa_stat_add() (stats.c's layout). */
            xa_stat_init(&one);
            if ( xa_stat_add(&one, v64) )
            {
                xa_stat_dispose(&one);
                return XA_E_NOMEM;
            }
            for ( g = 0; g < XA_STAT_GROUPS; g++ )
                if ( one.groups[g] )
                {
                    unsigned int b;

                    if ( !st->groups[g] &&
                         !(st->groups[g] = own_calloc(l, XA_STAT_SUB,
                                                      sizeof(uint32_t))) )
                    {
                        xa_stat_dispose(&one);
                        return XA_E_NOMEM;
                    }
                    for ( b = 0; b < XA_STAT_SUB; b++ )
                        if ( one.groups[g][b] )
                            st->groups[g][b] += (uint32_t)(rank - placed);
                }
            xa_stat_dispose(&one);
            placed = rank;
        }
    }
    return XA_OK;
}

static const struct xa_stat *zero_stat(struct loaded *l)
{
    struct xa_stat *st = own_calloc(l, 1, sizeof(*st));

    if ( st )
        xa_stat_init(st);
    return st;
}

/* A domain's all_vcpus object: its exits, sub-keys and runstates. */
static int vcpu_load(struct loaded *l, const struct xa_json_value *v,
                     struct xa_sum_vcpu *out, const char *where)
{
    const struct xa_json_value *exits = xa_json_get(v, "exits");
    const struct xa_json_value *rs = xa_json_get(v, "runstates");
    unsigned int i, j;
    int rc;

    out->id = XA_SUM_ALL_VCPUS;
    for ( i = 0; i < XA_RS_NR; i++ )
    {
        const struct xa_json_value *r =
            xa_json_get(rs, xa_rs_name((enum xa_rs)i));

        if ( r )
            rc = stat_load(l, r, &out->rs[i], where);
        else
            rc = (out->rs[i] = zero_stat(l)) ? XA_OK : XA_E_NOMEM;
        if ( rc )
            return rc;
    }
    if ( xa_json_type(exits) != XA_JSON_ARRAY )
        return bad(l, "no exits array", where);
    out->nr_exits = (unsigned int)xa_json_len(exits);
    out->exits = own_calloc(l, out->nr_exits, sizeof(*out->exits));
    if ( !out->exits )
        return XA_E_NOMEM;
    for ( i = 0; i < out->nr_exits; i++ )
    {
        const struct xa_json_value *e = xa_json_at(exits, i);
        const struct xa_json_value *subs = xa_json_get(e, "sub");
        struct xa_sum_exit *x = &out->exits[i];
        uint64_t code;

        x->reason = xa_json_get_str(e, "reason");
        if ( !x->reason || !xa_json_u64(xa_json_get(e, "code"), &code) ||
             code > UINT32_MAX )
            return bad(l, "an exit without reason or code", where);
        x->code = (uint32_t)code;
        if ( (rc = stat_load(l, e, &x->st, where)) )
            return rc;
        out->exit_count += x->st->count;
        out->exit_cycles += x->st->cycles;
        x->nr_subs = (unsigned int)xa_json_len(subs);
        x->nr_shown = x->nr_subs;
        x->subs = own_calloc(l, x->nr_subs, sizeof(*x->subs));
        if ( !x->subs )
            return XA_E_NOMEM;
        for ( j = 0; j < x->nr_subs; j++ )
        {
            const struct xa_json_value *s = xa_json_at(subs, j);
            bool capped = false;

            /* The writer's keys are its own strings: only read here. */
            x->subs[j].key = (char *)(uintptr_t)xa_json_get_str(s, "key");
            if ( !x->subs[j].key )
                return bad(l, "a sub-key without key", where);
            x->subs[j].label = xa_json_get_str(s, "name");
            xa_json_bool(xa_json_get(s, "capped"), &capped);
            x->subs[j].capped = capped;
            if ( (rc = stat_load(l, s, &x->subs[j].st, where)) )
                return rc;
        }
    }
    return XA_OK;
}

static int load(struct loaded *l)
{
    const struct xa_json_value *root = xa_json_root(l->doc);
    const struct xa_json_value *trace = xa_json_get(root, "trace");
    const struct xa_json_value *win = xa_json_get(trace, "window");
    const struct xa_json_value *doms = xa_json_get(root, "domains");
    struct xa_summary *s = &l->s;
    const char *schema = xa_json_get_str(root, "schema");
    unsigned int i;
    int rc;

    if ( !schema || strcmp(schema, "xenalyze.summary/1") )
        return bad(l, "not a xenalyze summary (schema xenalyze.summary/1)",
                   NULL);
    schema = xa_json_get_str(root, "histograms");
    l->hist = schema && !strcmp(schema, "log-linear-64/1");
    if ( !xa_json_u64(xa_json_get(trace, "cpu_hz"), &s->cpu_hz) ||
         !s->cpu_hz ||
         !xa_json_u64(xa_json_get(trace, "first_tsc"), &s->first_tsc) ||
         !xa_json_u64(xa_json_get(trace, "last_tsc"), &s->last_tsc) )
        return bad(l, "no cpu_hz, first_tsc or last_tsc", "trace");
    s->span_first = xa_json_get_u64(win, "first_tsc", s->first_tsc);
    s->span_last = xa_json_get_u64(win, "last_tsc", s->last_tsc);
    if ( s->span_last < s->span_first )
        s->span_last = s->span_first;
    s->windowed = win != NULL;
    s->records = xa_json_get_u64(trace, "records", 0);
    s->nr_pcpus = (unsigned int)xa_json_get_u64(trace, "pcpus", 0);
    s->arch = xa_json_get_str(trace, "arch");
    s->hvm_mode = xa_json_get_str(trace, "hvm_mode");
    s->cpu_hz_source = xa_json_get_str(trace, "cpu_hz_source");
    s->sort = XA_SORT_CODE;
    if ( xa_json_type(doms) != XA_JSON_ARRAY )
        return bad(l, "no domains array", NULL);
    s->nr_domains = (unsigned int)xa_json_len(doms);
    s->domains = own_calloc(l, s->nr_domains, sizeof(*s->domains));
    if ( !s->domains )
        return XA_E_NOMEM;
    for ( i = 0; i < s->nr_domains; i++ )
    {
        const struct xa_json_value *d = xa_json_at(doms, i);
        const struct xa_json_value *all = xa_json_get(d, "all_vcpus");
        struct xa_sum_domain *sd = &s->domains[i];
        uint64_t id;
        char where[40];

        if ( !xa_json_u64(xa_json_get(d, "id"), &id) || id > UINT32_MAX ||
             !(sd->kind = xa_json_get_str(d, "kind")) )
            return bad(l, "a domain without id or kind", "domains");
        sd->id = (unsigned int)id;
        /* An id reused (DOMAIN_REUSED): "incarnation": 2, 3, ... */
        if ( !xa_json_incarnation(d, &sd->incarnation) )
            return bad(l, "a domain with a bad incarnation", "domains");
        xa_dom_name(where, sizeof(where), "domain ", sd->id,
                    sd->incarnation);
        sd->nr_vcpus = (unsigned int)xa_json_len(xa_json_get(d, "vcpus"));
        if ( !all )
            continue;
        sd->all = own_calloc(l, 1, sizeof(*sd->all));
        if ( !sd->all )
            return XA_E_NOMEM;
        if ( (rc = vcpu_load(l, all, sd->all, where)) )
            return rc;
        sd->exit_count = sd->all->exit_count;
        sd->exit_cycles = sd->all->exit_cycles;
    }
    return XA_OK;
}

void xa_summary_json_free(const struct xa_summary *s)
{
    struct loaded *l = (struct loaded *)(uintptr_t)s;
    unsigned int i;

    if ( !l )
        return;
    for ( i = 0; i < l->nr_allocs; i++ )
        free(l->allocs[i]);
    free(l->allocs);
    xa_json_free(l->doc);
    free(l);
}

int xa_summary_from_json(const char *text, size_t len,
                         const struct xa_summary **out, char *why,
                         size_t why_len)
{
    struct loaded *l = calloc(1, sizeof(*l));
    struct xa_json_error err;
    int rc;

    *out = NULL;
    if ( why_len )
        why[0] = '\0';
    if ( !l )
        return XA_E_NOMEM;
    l->why = why;
    l->why_len = why_len;
    rc = xa_json_parse(text, len, NULL, &l->doc, &err);
    if ( rc == XA_E_INVAL )
        snprintf(why, why_len, "line %u, column %u: %s", err.line,
                 err.column, err.msg);
    if ( !rc )
        rc = load(l);
    if ( rc )
    {
        xa_summary_json_free(&l->s);
        return rc;
    }
    *out = &l->s;
    return XA_OK;
}
