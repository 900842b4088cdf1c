/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Merging JSON summaries (xenalyze merge, include/xenalyze/sum-merge.h).
 * Each input is parsed into the tables of one growing xa_summary (domains,
 * vCPUs, exits, sub-keys, counters, pCPUs): statistics are rebuilt from
 * their histograms ("hist") and added; the derived parts (every domain's
 * vCPUs together, totals per vCPU, the order) are shaped once at the end
 * by summary_shape(), as for one trace, so the result renders with any
 * report writer.  While every input has one clock rate the times stay in
 * its cycles, exactly; the first input at another rate turns what was
 * merged so far, and every input after, into ns (each by its own rate).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xenalyze/json.h>
#include <xenalyze/sum-merge.h>

#include "model-private.h"
#include "stats/stats-private.h"
#include "util/util-private.h"

/* qsort() of n elements; an empty array may be NULL (qsort's may not). */
static void sort_any(void *base, size_t n, size_t size,
                     int (*cmp)(const void *, const void *))
{
    if ( n > 1 )
        qsort(base, n, size, cmp);
}

#define NS_HZ 1000000000ull

struct xa_sum_merge {
    struct xa_sum_merge_opts o;
    struct xa_summary *s;
    struct xa_diag diag;
    struct xa_sum_input *inputs;
    unsigned int nr_inputs;
    char **strs;                    /* strings the summary points to */
    unsigned int nr_strs;
    uint64_t hz;                    /* the inputs' rate; NS_HZ once in ns */
    bool ns;
    bool shaped;
};

/* An input being added: its rate, host, and where an error is told. */
struct in_ctx {
    struct xa_sum_merge *m;
    const char *host;
    uint64_t hz;
    char *err;
    size_t errlen;
};

static void say(struct in_ctx *c, const char *what, const char *detail)
{
    if ( c->err && c->errlen )
        snprintf(c->err, c->errlen, "%s%s%s", what, detail ? ": " : "",
                 detail ? detail : "");
}

/* A copy of str the summary owns; NULL when out of memory. */
static const char *keep(struct xa_sum_merge *m, const char *str)
{
    char **n;
    char *d;
    unsigned int i;

    for ( i = 0; i < m->nr_strs; i++ )
        if ( !strcmp(m->strs[i], str) )
            return m->strs[i];
    n = realloc(m->strs, (m->nr_strs + 1) * sizeof(*n));
    if ( !n )
        return NULL;
    m->strs = n;
    if ( !(d = strdup(str)) )
        return NULL;
    m->strs[m->nr_strs++] = d;
    return d;
}

static uint64_t to_ns(uint64_t v, uint64_t hz)
{
    return (uint64_t)((unsigned __int128)v * NS_HZ / hz);
}

/*
 * src, at hz, turned into ns: count exact; total, min and max each
 * rounded down; each bucket's samples moved to the bucket of its
 * midpoint in ns (so percentiles gain at most one more bucket's error).
 */
static int stat_to_ns(struct xa_stat *dst, const struct xa_stat *src,
                      uint64_t hz)
{
    unsigned int k = 0;
    uint64_t n, lo, width;
    int rc;

    dst->count = src->count;
    dst->cycles = to_ns(src->cycles, hz);
    dst->min = to_ns(src->min, hz);
    dst->max = to_ns(src->max, hz);
    while ( xa_stat_bucket_next(src, &k, &n) == XA_OK )
    {
        xa_stat_bucket_range(k, &lo, &width);
        rc = xa_stat_bucket_add(dst, xa_stat_bucket_of(to_ns(lo + width / 2,
                                                            hz)), n);
        if ( rc )
            return rc;
        k++;
    }
    return XA_OK;
}

/* Everything merged so far, from cycles at m->hz into ns. */
static int switch_to_ns(struct xa_sum_merge *m)
{
    struct xa_summary *s = m->s;
    unsigned int i;

    for ( i = 0; i < s->nr_owned; i++ )
    {
        struct xa_stat t;
        int rc;

        xa_stat_init(&t);
        if ( (rc = stat_to_ns(&t, s->owned[i], m->hz)) )
        {
            xa_stat_dispose(&t);
            return rc;
        }
        xa_stat_dispose(s->owned[i]);
        *s->owned[i] = t;
    }
    m->ns = true;
    m->hz = NS_HZ;
    return XA_OK;
}

static bool get_u64(const struct xa_json_value *obj, const char *k, uint64_t *v)
{
    const struct xa_json_value *x = xa_json_get(obj, k);

    *v = 0;
    return x && xa_json_u64(x, v);
}

static uint64_t u64_of(const struct xa_json_value *obj, const char *k)
{
    uint64_t v;

    get_u64(obj, k, &v);
    return v;
}

/* PoD operations by page order ("4k", "2M", "1G", "other"); absent: 0. */
static void add_orders(uint64_t n[4], const struct xa_json_value *obj)
{
    static const char *const orders[4] = { "4k", "2M", "1G", "other" };
    unsigned int i;

    for ( i = 0; obj && i < 4; i++ )
        n[i] += u64_of(obj, orders[i]);
}

static const char *str_of(const struct xa_json_value *obj, const char *k)
{
    const struct xa_json_value *x = obj ? xa_json_get(obj, k) : NULL;

    return x ? xa_json_str(x, NULL) : NULL;
}

/*
 * A STATS object added into dst (a statistic of the summary): its count,
 * total, extremes and histogram, converted to ns when the merge is.
 */
static int add_stats(struct in_ctx *c, struct xa_stat *dst,
                     const struct xa_json_value *js)
{
    const struct xa_json_value *h = js ? xa_json_get(js, "hist") : NULL;
    struct xa_stat t;
    uint64_t sum;
    int rc;

    if ( !js )
        return XA_OK;
    if ( !h || xa_json_type(h) != XA_JSON_ARRAY || xa_json_len(h) % 2 )
    {
        say(c, "a statistic without its histogram", "summaries of an "
            "older xenalyze cannot be merged: write them again");
        return XA_E_INVAL;
    }
    xa_stat_init(&t);
    t.count = u64_of(js, "count");
    t.cycles = u64_of(js, "cycles");
    t.min = u64_of(js, "min");
    t.max = u64_of(js, "max");
    if ( (rc = stat_hist_add_json(&t, h, &sum)) )
    {
        say(c, rc == XA_E_INVAL ? "a histogram out of its layout" :
            "a histogram bucket beyond 2^32 samples", NULL);
        goto out;
    }
    rc = XA_E_INVAL;
    if ( sum != t.count || (t.count && t.min > t.max) )
    {
        say(c, "a histogram that does not hold its count", NULL);
        goto out;
    }
    if ( c->m->ns )
    {
        struct xa_stat u;

        xa_stat_init(&u);
        rc = stat_to_ns(&u, &t, c->hz);
        xa_stat_dispose(&t);
        t = u;
        if ( rc )
            goto out;
    }
    rc = xa_stat_merge(dst, &t);
out:
    xa_stat_dispose(&t);
    return rc;
}

static struct xa_stat *mutable_stat_of(const struct xa_stat *st)
{
    return (struct xa_stat *)(uintptr_t)st;
}

/* Every runstate statistic of a new domain or vCPU (writers read all). */
static int new_stats(struct xa_summary *s, const struct xa_stat **rs,
                     unsigned int nr)
{
    unsigned int i;

    for ( i = 0; i < nr; i++ )
        if ( !(rs[i] = summary_owned_stat(s)) )
            return XA_E_NOMEM;
    return XA_OK;
}

/* A statistic of the summary at *slot, created on first use. */
static int add_stats_at(struct in_ctx *c, const struct xa_stat **slot,
                        const struct xa_json_value *js)
{
    if ( !js )
        return XA_OK;
    if ( !*slot && !(*slot = summary_owned_stat(c->m->s)) )
        return XA_E_NOMEM;
    return add_stats(c, mutable_stat_of(*slot), js);
}

/* Runstates by name: "running": STATS... into rs[] named by name(i). */
static int add_runstates(struct in_ctx *c, const struct xa_stat **rs,
                         unsigned int nr, const char *(*name)(unsigned int),
                         const struct xa_json_value *obj)
{
    unsigned int i;
    int rc;

    if ( !obj )
        return XA_OK;
    for ( i = 0; i < nr; i++ )
        if ( (rc = add_stats_at(c, &rs[i], xa_json_get(obj, name(i)))) )
            return rc;
    return XA_OK;
}

static const char *vcpu_rs(unsigned int i)
{
    return xa_rs_name((enum xa_rs)i);
}

static const char *dom_rs(unsigned int i)
{
    return xa_dom_rs_name((enum xa_dom_rs)i);
}

/* Grows an array of n elements of size by one, zeroed; NULL: no memory. */
static void *grow1(void **arr, unsigned int *n, size_t size)
{
    char *a = realloc(*arr, (*n + 1) * size);

    if ( !a )
        return NULL;
    *arr = a;
    memset(a + *n * size, 0, size);
    return a + (*n)++ * size;
}

/* PV counters (hypercalls, events) by name, with sub-operations. */
static int add_counts(struct in_ctx *c, struct xa_sum_count **arr,
                      unsigned int *nr, const struct xa_json_value *ja)
{
    unsigned int i, j, n = ja ? xa_json_len(ja) : 0;
    int rc;

    for ( i = 0; i < n; i++ )
    {
        const struct xa_json_value *x = xa_json_at(ja, i);
        const char *name = str_of(x, "name"), *id = str_of(x, "id");
        struct xa_sum_count *cnt = NULL;

        if ( !name )
            return say(c, "a counter without a name", NULL), XA_E_INVAL;
        for ( j = 0; j < *nr && !cnt; j++ )
            if ( !strcmp((*arr)[j].name, name) )
                cnt = &(*arr)[j];
        if ( !cnt )
        {
            if ( !(cnt = grow1((void **)arr, nr, sizeof(*cnt))) ||
                 !(cnt->name = strdup(name)) )
                return XA_E_NOMEM;
            cnt->id = id ? (uint32_t)strtoul(id, NULL, 16) : 0;
        }
        cnt->count += u64_of(x, "count");
        if ( (rc = add_counts(c, &cnt->subs, &cnt->nr_subs,
                              xa_json_get(x, "sub"))) )
            return rc;
    }
    return XA_OK;
}

static int add_exits(struct in_ctx *c, struct xa_sum_vcpu *v,
                     const struct xa_json_value *ja)
{
    unsigned int i, j, k, n = ja ? xa_json_len(ja) : 0;
    int rc;

    for ( i = 0; i < n; i++ )
    {
        const struct xa_json_value *x = xa_json_at(ja, i);
        const struct xa_json_value *subs = xa_json_get(x, "sub");
        const char *reason = str_of(x, "reason");
        struct xa_sum_exit *e = NULL;
        uint64_t code;

        if ( !reason || !get_u64(x, "code", &code) )
            return say(c, "an exit without reason and code", NULL),
                   XA_E_INVAL;
        for ( j = 0; j < v->nr_exits && !e; j++ )
            if ( v->exits[j].code == code )
                e = &v->exits[j];
        if ( !e )
        {
            if ( !(e = grow1((void **)&v->exits, &v->nr_exits, sizeof(*e))) ||
                 !(e->reason = e->reason_owned = strdup(reason)) )
                return XA_E_NOMEM;
            e->code = (uint32_t)code;
        }
        if ( (rc = add_stats_at(c, &e->st, x)) )
            return rc;
        for ( k = 0; subs && k < xa_json_len(subs); k++ )
        {
            const struct xa_json_value *y = xa_json_at(subs, k);
            const char *key = str_of(y, "key"), *label = str_of(y, "name");
            const struct xa_json_value *capped = xa_json_get(y, "capped");
            struct xa_sum_sub *sb = NULL;

            if ( !key )
                return say(c, "a sub-key without its key", NULL), XA_E_INVAL;
            for ( j = 0; j < e->nr_subs && !sb; j++ )
                if ( !strcmp(e->subs[j].key, key) )
                    sb = &e->subs[j];
            if ( !sb )
            {
                if ( !(sb = grow1((void **)&e->subs, &e->nr_subs,
                                  sizeof(*sb))) ||
                     !(sb->key = strdup(key)) ||
                     (label && !(sb->label = keep(c->m, label))) )
                    return XA_E_NOMEM;
                sb->capped = xa_json_bool(capped, &sb->capped) && sb->capped;
                if ( sb->capped )
                    sb->folded_keys = XA_SUM_KEYS_UNKNOWN;
            }
            if ( (rc = add_stats_at(c, &sb->st, y)) )
                return rc;
        }
    }
    return XA_OK;
}

static int add_girqs(struct in_ctx *c, struct xa_sum_vcpu *v,
                     const struct xa_json_value *ja)
{
    unsigned int i, j, n = ja ? xa_json_len(ja) : 0;
    int rc;

    for ( i = 0; i < n; i++ )
    {
        const struct xa_json_value *x = xa_json_at(ja, i);
        struct xa_sum_girq *g = NULL;
        uint64_t vec;

        if ( !get_u64(x, "vector", &vec) )
            return say(c, "an interrupt without its vector", NULL),
                   XA_E_INVAL;
        for ( j = 0; j < v->nr_guest_irqs && !g; j++ )
            if ( v->guest_irqs[j].vector == vec )
                g = &v->guest_irqs[j];
        if ( !g )
        {
            if ( !(g = grow1((void **)&v->guest_irqs, &v->nr_guest_irqs,
                             sizeof(*g))) )
                return XA_E_NOMEM;
            g->vector = (unsigned int)vec;
        }
        g->count += u64_of(x, "count");
        if ( (rc = add_stats_at(c, &g->wake_alone,
                                xa_json_get(x, "wake_to_halt_alone"))) ||
             (rc = add_stats_at(c, &g->wake_any,
                                xa_json_get(x, "wake_to_halt_any"))) ||
             (rc = add_stats_at(c, &g->intr, xa_json_get(x, "intr_to_halt"))) )
            return rc;
    }
    return XA_OK;
}

static int add_stays(struct in_ctx *c, struct xa_sum_vcpu *v,
                     const struct xa_json_value *aff)
{
    const struct xa_json_value *ja = aff ? xa_json_get(aff, "pcpus") : NULL;
    unsigned int i, j, n = ja ? xa_json_len(ja) : 0;
    int rc;

    if ( !aff )
        return XA_OK;
    if ( (rc = add_stats_at(c, &v->stay_all, xa_json_get(aff, "all"))) )
        return rc;
    for ( i = 0; i < n; i++ )
    {
        const struct xa_json_value *x = xa_json_at(ja, i);
        struct xa_sum_stay *st = NULL;
        uint64_t cpu;

        if ( !get_u64(x, "cpu", &cpu) )
            return say(c, "a CPU stay without its cpu", NULL), XA_E_INVAL;
        for ( j = 0; j < v->nr_stays && !st; j++ )
            if ( v->stays[j].cpu == cpu )
                st = &v->stays[j];
        if ( !st )
        {
            if ( !(st = grow1((void **)&v->stays, &v->nr_stays, sizeof(*st))) )
                return XA_E_NOMEM;
            st->cpu = (unsigned int)cpu;
        }
        if ( (rc = add_stats_at(c, &st->st, x)) )
            return rc;
    }
    return XA_OK;
}

static int add_vcpu(struct in_ctx *c, struct xa_sum_domain *d,
                    const struct xa_json_value *x)
{
    struct xa_sum_vcpu *v = NULL;
    unsigned int j;
    uint64_t id;
    int rc;

    if ( !get_u64(x, "id", &id) )
        return say(c, "a vCPU without its id", NULL), XA_E_INVAL;
    for ( j = 0; j < d->nr_vcpus && !v; j++ )
        if ( d->vcpus[j].id == id )
            v = &d->vcpus[j];
    if ( !v )
    {
        if ( !(v = grow1((void **)&d->vcpus, &d->nr_vcpus, sizeof(*v))) ||
             new_stats(c->m->s, v->rs, XA_RS_NR) )
            return XA_E_NOMEM;
        v->id = (unsigned int)id;
    }
    if ( (rc = add_runstates(c, v->rs, XA_RS_NR, vcpu_rs,
                             xa_json_get(x, "runstates"))) ||
         (rc = add_exits(c, v, xa_json_get(x, "exits"))) ||
         (rc = add_counts(c, &v->hypercalls, &v->nr_hypercalls,
                          xa_json_get(x, "hypercalls"))) ||
         (rc = add_counts(c, &v->pv_events, &v->nr_pv_events,
                          xa_json_get(x, "pv_events"))) ||
         (rc = add_girqs(c, v, xa_json_get(x, "guest_interrupts"))) ||
         (rc = add_stays(c, v, xa_json_get(x, "cpu_affinity"))) )
        return rc;
    return XA_OK;
}

/* The kinds a domain may have, as static strings. */
static const char *const kinds[] = {
    "dom0", "hvm", "pv", "arm", "guest", "idle", "default",
};

static int add_domain(struct in_ctx *c, const struct xa_json_value *x)
{
    struct xa_summary *s = c->m->s;
    struct xa_sum_domain *d = NULL;
    const char *kind = str_of(x, "kind");
    const char *host = c->m->o.group == XA_GROUP_HOST ? c->host : NULL;
    const struct xa_json_value *vs = xa_json_get(x, "vcpus");
    const struct xa_json_value *g = xa_json_get(x, "grant_ops");
    const struct xa_json_value *p = xa_json_get(x, "pod");
    unsigned int j;
    uint64_t id;
    unsigned int inc;
    int rc;

    if ( !get_u64(x, "id", &id) )
        return say(c, "a domain without its id", NULL), XA_E_INVAL;
    /* An id's incarnations (DOMAIN_REUSED) stay apart. */
    if ( !xa_json_incarnation(x, &inc) )
        return say(c, "a domain with a bad incarnation", NULL), XA_E_INVAL;
    for ( j = 0; j < s->nr_domains && !d; j++ )
        if ( s->domains[j].id == id && s->domains[j].incarnation == inc &&
             (s->domains[j].host == host ||
              (host && s->domains[j].host &&
               !strcmp(s->domains[j].host, host))) )
            d = &s->domains[j];
    if ( !d )
    {
        if ( !(d = grow1((void **)&s->domains, &s->nr_domains, sizeof(*d))) )
            return XA_E_NOMEM;
        d->id = (unsigned int)id;
        d->incarnation = inc;
        d->host = host ? keep(c->m, host) : NULL;
        d->kind = "guest";
        if ( (host && !d->host) || new_stats(s, d->rs, XA_DRS_NR) )
            return XA_E_NOMEM;
    }
    for ( j = 0; kind && j < sizeof(kinds) / sizeof(kinds[0]); j++ )
        if ( !strcmp(kind, kinds[j]) )
            d->kind = kinds[j];
    if ( (rc = add_runstates(c, d->rs, XA_DRS_NR, dom_rs,
                             xa_json_get(x, "runstates"))) )
        return rc;
    d->grant_ops[0] += u64_of(g, "map");
    d->grant_ops[1] += u64_of(g, "unmap");
    d->grant_ops[2] += u64_of(g, "transfer");
    d->pod_populate += u64_of(p, "populate");
    d->pod_reclaim += u64_of(p, "zero_reclaim");
    d->pod_splinter += u64_of(p, "superpage_splinter");
    add_orders(d->pod_populate_order, xa_json_get(p, "populate_by_order"));
    add_orders(d->pod_reclaim_order, xa_json_get(p, "zero_reclaim_by_order"));
    for ( j = 0; vs && j < xa_json_len(vs); j++ )
        if ( (rc = add_vcpu(c, d, xa_json_at(vs, j))) )
            return rc;
    return XA_OK;
}

static int add_pcpu(struct in_ctx *c, const struct xa_json_value *x)
{
    struct xa_summary *s = c->m->s;
    struct xa_sum_pcpu *p = NULL;
    const char *host = c->m->o.group == XA_GROUP_HOST ? c->host : NULL;
    const struct xa_json_value *vol = xa_json_get(x, "volume_bytes");
    unsigned int j;
    uint64_t id;
    int rc;

    if ( !get_u64(x, "id", &id) )
        return say(c, "a pCPU without its id", NULL), XA_E_INVAL;
    for ( j = 0; j < s->nr_pcpus_arr && !p; j++ )
        if ( s->pcpus[j].id == id &&
             (s->pcpus[j].host == host ||
              (host && s->pcpus[j].host && !strcmp(s->pcpus[j].host, host))) )
            p = &s->pcpus[j];
    if ( !p )
    {
        if ( !(p = grow1((void **)&s->pcpus, &s->nr_pcpus_arr, sizeof(*p))) )
            return XA_E_NOMEM;
        p->id = (unsigned int)id;
        if ( host && !(p->host = keep(c->m, host)) )
            return XA_E_NOMEM;
        if ( !(p->running = summary_owned_stat(s)) || !(p->idle = summary_owned_stat(s)) ||
             !(p->lost = summary_owned_stat(s)) )
            return XA_E_NOMEM;
    }
    p->records += u64_of(x, "records");
    for ( j = 0; j < XA_NR_VOLUME; j++ )
        p->volume[j] += u64_of(vol, xa_volume_name(j));
    if ( (rc = add_stats_at(c, &p->running, xa_json_get(x, "running"))) ||
         (rc = add_stats_at(c, &p->idle, xa_json_get(x, "idle"))) ||
         (rc = add_stats_at(c, &p->lost, xa_json_get(x, "lost"))) )
        return rc;
    return XA_OK;
}

/* The trace facts of an input, into its entry of the inputs list. */
static int add_input(struct in_ctx *c, const struct xa_json_value *tr,
                     const char *name, struct xa_sum_input *in)
{
    struct xa_sum_merge *m = c->m;
    const struct xa_json_value *w = xa_json_get(tr, "window");
    const char *src = str_of(tr, "cpu_hz_source");
    const char *arch = str_of(tr, "arch");
    const char *rule = str_of(w, "rule");

    memset(in, 0, sizeof(*in));
    if ( !(in->name = keep(m, name)) ||
         (c->host && !(in->host = keep(m, c->host))) ||
         !(in->cpu_hz_source = keep(m, src ? src : "?")) ||
         !(in->arch = keep(m, arch ? arch : "unknown")) )
        return XA_E_NOMEM;
    in->cpu_hz = c->hz;
    in->records = u64_of(tr, "records");
    in->first_tsc = u64_of(tr, "first_tsc");
    in->last_tsc = u64_of(tr, "last_tsc");
    if ( w && xa_json_get(w, "from_ns") )
    {
        in->windowed = true;
        in->from_ns = u64_of(w, "from_ns");
        in->to_ns = xa_json_get(w, "to_ns") ? u64_of(w, "to_ns") : UINT64_MAX;
        in->whole = rule && !strcmp(rule, "begin");
    }
    return XA_OK;
}

static const char *merged_str(const char *have,
                              const char *add, const char *mixed)
{
    if ( !have )
        return add;
    if ( !add || strcmp(have, add) )
        return mixed;
    return have;
}

/* The trace-level facts added: records, bytes, span, anomalies. */
static void add_trace(struct in_ctx *c, const struct xa_json_value *root,
                      const struct xa_sum_input *in)
{
    struct xa_sum_merge *m = c->m;
    struct xa_summary *s = m->s;
    const struct xa_json_value *tr = xa_json_get(root, "trace");
    const struct xa_json_value *an = xa_json_get(root, "anomalies");
    const struct xa_json_value *dg = xa_json_get(root, "diagnostics");
    const struct xa_json_value *sk = dg ? xa_json_get(dg, "skipped_bytes") : NULL;
    const struct xa_json_value *w = xa_json_get(tr, "window");
    uint64_t first = in->first_tsc, last = in->last_tsc, span;
    unsigned int i;

    s->records += in->records;
    s->bytes += u64_of(tr, "bytes");
    s->windows += u64_of(tr, "windows");
    s->record_bytes += u64_of(tr, "record_bytes");
    if ( u64_of(tr, "pcpus") > s->nr_pcpus )
        s->nr_pcpus = (unsigned int)u64_of(tr, "pcpus");
    if ( w && xa_json_get(w, "first_tsc") )
    {
        first = u64_of(w, "first_tsc");
        last = u64_of(w, "last_tsc");
    }
    span = last > first ? last - first : 0;
    if ( m->ns )
        span = to_ns(span, c->hz);
    s->span_last += span;
    s->arch = merged_str(s->arch, in->arch, "mixed");
    for ( i = 0; i < XA_DIAG_NR; i++ )
    {
        const char *k = xa_diag_name((enum xa_diag_kind)i);

        m->diag.e[i].count += u64_of(an, k);
        m->diag.e[i].bytes += u64_of(sk, k);
    }
    m->diag.lost_records += u64_of(dg, "lost_records");
    m->diag.garbage_bytes += u64_of(dg, "garbage_bytes");
}

int xa_sum_merge_add(struct xa_sum_merge *m, const char *text, size_t len,
                     const char *name, const char *host, char *err,
                     size_t errlen)
{
    struct in_ctx c = { .m = m, .host = host, .err = err, .errlen = errlen };
    struct xa_json *j = NULL;
    const struct xa_json_value *root, *tr, *ds, *ps;
    const char *schema, *hf;
    struct xa_sum_input *in;
    unsigned int i;
    struct xa_json_error jerr;
    char where[96];
    int rc;

    if ( m->shaped )
        return XA_E_INVAL;
    if ( (rc = xa_json_parse(text, len, NULL, &j, &jerr)) )
    {
        if ( rc != XA_E_INVAL )
            return rc;
        snprintf(where, sizeof(where), "%s at line %u, column %u",
                 jerr.msg, jerr.line, jerr.column);
        say(&c, "not JSON", where);
        return XA_E_INVAL;
    }
    rc = XA_E_INVAL;
    root = xa_json_root(j);
    schema = str_of(root, "schema");
    hf = str_of(root, "histograms");
    tr = xa_json_get(root, "trace");
    ds = xa_json_get(root, "domains");
    ps = xa_json_get(root, "pcpus");
    if ( !schema || strcmp(schema, "xenalyze.summary/1") || !tr || !ds ||
         !ps )
    {
        say(&c, "not a xenalyze JSON summary (xenalyze.summary/1)", NULL);
        goto out;
    }
    if ( xa_json_get(root, "merged") )
    {
        say(&c, "a merged summary", "merge the summaries it was made of");
        goto out;
    }
    if ( !hf || strcmp(hf, XA_STAT_HIST_FORMAT) )
    {
        say(&c, "no histograms in the layout " XA_STAT_HIST_FORMAT,
            "write the summary again with this xenalyze");
        goto out;
    }
    if ( !get_u64(tr, "cpu_hz", &c.hz) || !c.hz )
    {
        say(&c, "no clock rate (trace.cpu_hz)", NULL);
        goto out;
    }
    rc = XA_E_NOMEM;
    if ( !m->nr_inputs )
        m->hz = c.hz;
    else if ( !m->ns && c.hz != m->hz && switch_to_ns(m) )
        goto out;
    if ( !(in = grow1((void **)&m->inputs, &m->nr_inputs, sizeof(*in))) )
        goto out;
    if ( (rc = add_input(&c, tr, name, in)) )
        goto out;
    add_trace(&c, root, in);
    for ( i = 0; i < xa_json_len(ps); i++ )
        if ( (rc = add_pcpu(&c, xa_json_at(ps, i))) )
            goto out;
    for ( i = 0; i < xa_json_len(ds); i++ )
        if ( (rc = add_domain(&c, xa_json_at(ds, i))) )
            goto out;
    rc = XA_OK;
out:
    xa_json_free(j);
    return rc;
}

static int cmp_domain(const void *a, const void *b)
{
    const struct xa_sum_domain *x = a, *y = b;
    int h = strcmp(x->host ? x->host : "", y->host ? y->host : "");

    if ( h )
        return h;
    if ( x->id != y->id )
        return x->id < y->id ? -1 : 1;
    return (x->incarnation > y->incarnation) -
           (x->incarnation < y->incarnation);
}

static int cmp_pcpu(const void *a, const void *b)
{
    const struct xa_sum_pcpu *x = a, *y = b;
    int h = strcmp(x->host ? x->host : "", y->host ? y->host : "");

    return h ? h : (x->id > y->id) - (x->id < y->id);
}

static int cmp_vcpu(const void *a, const void *b)
{
    const struct xa_sum_vcpu *x = a, *y = b;

    return (x->id > y->id) - (x->id < y->id);
}

static int cmp_girq(const void *a, const void *b)
{
    const struct xa_sum_girq *x = a, *y = b;

    return (x->vector > y->vector) - (x->vector < y->vector);
}

static int cmp_stay(const void *a, const void *b)
{
    const struct xa_sum_stay *x = a, *y = b;

    return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

const struct xa_summary *xa_sum_merge_result(struct xa_sum_merge *m)
{
    struct xa_summary *s = m->s;
    unsigned int i, j;

    if ( m->shaped )
        return s;
    m->shaped = true;
    s->cpu_hz = m->hz;
    s->cpu_hz_source = m->ns ? "merge" : m->nr_inputs ?
                       m->inputs[0].cpu_hz_source : "default";
    for ( i = 1; !m->ns && i < m->nr_inputs; i++ )
        if ( strcmp(m->inputs[i].cpu_hz_source, s->cpu_hz_source) )
            s->cpu_hz_source = "merge";
    s->unit = m->ns ? "ns" : "cycles";
    s->group = m->o.group == XA_GROUP_HOST ? "host" : "domain";
    s->inputs = m->inputs;
    s->nr_inputs = m->nr_inputs;
    s->diag = &m->diag;
    s->sort = m->o.sort;
    s->top = m->o.top;
    if ( !s->arch )
        s->arch = "unknown";
    /* Times from 0: the inputs' spans end to end. */
    s->first_tsc = s->span_first = 0;
    s->last_tsc = s->span_last;
    sort_any(s->domains, s->nr_domains, sizeof(*s->domains), cmp_domain);
    sort_any(s->pcpus, s->nr_pcpus_arr, sizeof(*s->pcpus), cmp_pcpu);
    for ( i = 0; i < s->nr_domains; i++ )
    {
        struct xa_sum_domain *d = &s->domains[i];

        sort_any(d->vcpus, d->nr_vcpus, sizeof(*d->vcpus), cmp_vcpu);
        for ( j = 0; j < d->nr_vcpus; j++ )
        {
            sort_any(d->vcpus[j].guest_irqs, d->vcpus[j].nr_guest_irqs,
                  sizeof(*d->vcpus[j].guest_irqs), cmp_girq);
            sort_any(d->vcpus[j].stays, d->vcpus[j].nr_stays,
                  sizeof(*d->vcpus[j].stays), cmp_stay);
        }
    }
    if ( summary_shape(s) || summary_shape_guests(s) )
        return NULL;
    return s;
}

int xa_sum_merge_new(const struct xa_sum_merge_opts *o,
                     struct xa_sum_merge **out)
{
    struct xa_sum_merge *m = calloc(1, sizeof(*m));

    *out = NULL;
    if ( !m || !(m->s = calloc(1, sizeof(*m->s))) )
    {
        free(m);
        return XA_E_NOMEM;
    }
    m->o = *o;
    xa_diag_init(&m->diag);
    *out = m;
    return XA_OK;
}

void xa_sum_merge_free(struct xa_sum_merge *m)
{
    unsigned int i;

    if ( !m )
        return;
    model_summary_free(m->s);
    for ( i = 0; i < m->nr_strs; i++ )
        free(m->strs[i]);
    free(m->strs);
    free(m->inputs);
    free(m);
}
