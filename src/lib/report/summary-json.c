/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * JSON summary, schema "xenalyze.summary/1" (docs/summary-json.md).
 * Every number is an integer in cycles unless its name says otherwise.
 */
#include "report-private.h"

static void key(struct xa_out *o, const char *k)
{
    xa_out_json_str(o, k);
    xa_out_char(o, ':');
}

static void kv_s(struct xa_out *o, const char *k, const char *v, bool comma)
{
    key(o, k);
    xa_out_json_str(o, v);
    if ( comma )
        xa_out_char(o, ',');
}

static void kv_u(struct xa_out *o, const char *k, uint64_t v, bool comma)
{
    key(o, k);
    xa_out_u64(o, v);
    if ( comma )
        xa_out_char(o, ',');
}

/*
 * "hist":[k0,n0,d1,n1,...]: the non-empty buckets of the histogram
 * (xa_stat_bucket_range()), the first by its index k0, each next one by
 * its distance from the one before, each with its count.
 */
static void hist(struct xa_out *o, const struct xa_stat *st)
{
    unsigned int k = 0, prev = 0;
    uint64_t n;
    bool first = true;

    xa_out_str(o, "\"hist\":[");
    while ( xa_stat_bucket_next(st, &k, &n) == XA_OK )
    {
        if ( !first )
            xa_out_char(o, ',');
        xa_out_u64(o, k - prev);
        xa_out_char(o, ',');
        xa_out_u64(o, n);
        first = false;
        prev = k++;
    }
    xa_out_char(o, ']');
}

static void stats_fields(struct xa_out *o, const struct xa_stat *st)
{
    uint64_t pcts[XA_STAT_NR_PCT];
    unsigned int i;

    xa_stat_pct_many(st, xa_stat_pcts, XA_STAT_NR_PCT, pcts);
    kv_u(o, "count", st->count, true);
    kv_u(o, "cycles", st->cycles, true);
    kv_u(o, "min", st->min, true);
    kv_u(o, "max", st->max, true);
    kv_u(o, "mean", xa_stat_mean(st), true);
    for ( i = 0; i < XA_STAT_NR_PCT; i++ )
        kv_u(o, xa_stat_pct_names[i], pcts[i], true);
    hist(o, st);
}

static void stats_obj(struct xa_out *o, const struct xa_stat *st)
{
    xa_out_char(o, '{');
    stats_fields(o, st);
    xa_out_char(o, '}');
}

/* "KEY":STATS, preceded by a comma when comma is set. */
static void kv_stats(struct xa_out *o, const char *k, const struct xa_stat *st,
                     bool comma)
{
    if ( comma )
        xa_out_char(o, ',');
    key(o, k);
    stats_obj(o, st);
}

static void runstates(struct xa_out *o, const struct xa_stat *const *rs,
                      unsigned int n, const char *(*name)(unsigned int))
{
    unsigned int i;
    bool first = true;

    key(o, "runstates");
    xa_out_char(o, '{');
    for ( i = 0; i < n; i++ )
    {
        if ( !rs[i]->count )
            continue;
        kv_stats(o, name(i), rs[i], !first);
        first = false;
    }
    xa_out_char(o, '}');
}

static const char *vcpu_rs_name(unsigned int i)
{
    return xa_rs_name((enum xa_rs)i);
}

static const char *dom_rs_name(unsigned int i)
{
    return xa_dom_rs_name((enum xa_dom_rs)i);
}

static void counts(struct xa_out *o, const char *k,
                   const struct xa_sum_count *c, unsigned int n, bool ids)
{
    unsigned int i;

    key(o, k);
    xa_out_char(o, '[');
    for ( i = 0; i < n; i++ )
    {
        if ( i )
            xa_out_char(o, ',');
        xa_out_str(o, "{\"name\":");
        xa_out_json_str(o, c[i].name);
        if ( ids )
        {
            xa_out_str(o, ",\"id\":\"0x");
            xa_out_hexw(o, c[i].id, 8);
            xa_out_char(o, '"');
        }
        xa_out_str(o, ",\"count\":");
        xa_out_u64(o, c[i].count);
        if ( c[i].nr_subs )
        {
            xa_out_char(o, ',');
            counts(o, "sub", c[i].subs, c[i].nr_subs, ids);
        }
        xa_out_char(o, '}');
    }
    xa_out_char(o, ']');
}

/* ",KEY:STATS" when there are any. */
static void w2h_stat(struct xa_out *o, const char *k, const struct xa_stat *st)
{
    if ( st && st->count )
        kv_stats(o, k, st, true);
}

static void sub_obj(struct xa_out *o, const struct xa_sum_sub *sub)
{
    xa_out_char(o, '{');
    kv_s(o, "key", sub->key, true);
    if ( sub->label )
    {
        kv_s(o, "name", sub->label, true);
    }
    if ( sub->capped )
        xa_out_str(o, "\"capped\":true,");
    stats_fields(o, sub->st);
    xa_out_char(o, '}');
}

/* Page orders of PoD operations (upstream's p2m_canonical_order()). */
static void pod_orders(struct xa_out *o, const char *k, const uint64_t n[4])
{
    xa_out_char(o, ',');
    key(o, k);
    xa_out_char(o, '{');
    kv_u(o, "4k", n[0], true);
    kv_u(o, "2M", n[1], true);
    kv_u(o, "1G", n[2], true);
    kv_u(o, "other", n[3], false);
    xa_out_char(o, '}');
}

/* An interrupt eip list (--with-interrupt-eip-enumeration). */
static void eips(struct xa_out *o, const struct xa_summary *s,
                 const struct xa_sum_eips *l)
{
    unsigned int i;

    xa_out_str(o, ",\"interrupt_eips\":{");
    kv_u(o, "vector", s->eip_vector, true);
    kv_u(o, "total", l->total, true);
    kv_u(o, "other", l->other, true);
    key(o, "eips");
    xa_out_char(o, '[');
    for ( i = 0; i < l->nr; i++ )
    {
        xa_out_str(o, i ? ",{\"eip\":\"0x" : "{\"eip\":\"0x");
        xa_out_hex(o, l->e[i].eip);
        xa_out_str(o, "\",");
        kv_u(o, "count", l->e[i].count, false);
        xa_out_char(o, '}');
    }
    xa_out_str(o, "]}");
}

static void vcpu(struct xa_out *o, const struct xa_summary *s,
                 const struct xa_sum_vcpu *v)
{
    unsigned int i, j;

    xa_out_char(o, '{');
    if ( v->id != XA_SUM_ALL_VCPUS )
        kv_u(o, "id", v->id, true);
    runstates(o, v->rs, XA_RS_NR, vcpu_rs_name);
    if ( v->exit_all )
        kv_stats(o, "exit_totals", v->exit_all, true);
    xa_out_char(o, ',');
    key(o, "exits");
    xa_out_char(o, '[');
    for ( i = 0; i < v->nr_exits; i++ )
    {
        const struct xa_sum_exit *e = &v->exits[i];

        if ( i )
            xa_out_char(o, ',');
        xa_out_char(o, '{');
        kv_s(o, "reason", e->reason, true);
        kv_u(o, "code", e->code, true);
        stats_fields(o, e->st);
        xa_out_char(o, ',');
        key(o, "sub");
        xa_out_char(o, '[');
        for ( j = 0; j < e->nr_subs; j++ )
        {
            if ( j )
                xa_out_char(o, ',');
            sub_obj(o, &e->subs[j]);
        }
        xa_out_str(o, "]}");
    }
    xa_out_str(o, "],");
    counts(o, "hypercalls", v->hypercalls, v->nr_hypercalls, true);
    xa_out_char(o, ',');
    counts(o, "pv_events", v->pv_events, v->nr_pv_events, true);
    xa_out_char(o, ',');
    key(o, "guest_interrupts");
    xa_out_char(o, '[');
    for ( i = 0; i < v->nr_guest_irqs; i++ )
    {
        const struct xa_sum_girq *g = &v->guest_irqs[i];

        if ( i )
            xa_out_char(o, ',');
        xa_out_str(o, "{\"name\":\"0x");
        xa_out_hexw(o, g->vector, 2);
        xa_out_str(o, "\",");
        kv_u(o, "vector", g->vector, true);
        kv_u(o, "count", g->count, false);
        w2h_stat(o, "wake_to_halt_alone", g->wake_alone);
        w2h_stat(o, "wake_to_halt_any", g->wake_any);
        w2h_stat(o, "intr_to_halt", g->intr);
        xa_out_char(o, '}');
    }
    xa_out_char(o, ']');
    if ( v->stay_all && v->stay_all->count )
    {
        xa_out_str(o, ",\"cpu_affinity\":{\"all\":");
        stats_obj(o, v->stay_all);
        xa_out_str(o, ",\"pcpus\":[");
        for ( i = 0; i < v->nr_stays; i++ )
        {
            xa_out_str(o, i ? ",{" : "{");
            kv_u(o, "cpu", v->stays[i].cpu, true);
            stats_fields(o, v->stays[i].st);
            xa_out_char(o, '}');
        }
        xa_out_str(o, "]}");
    }
    if ( s->eip_list && v->id != XA_SUM_ALL_VCPUS )
        eips(o, s, &v->intr_eips);
    xa_out_char(o, '}');
}

/* "host":NAME, when set. */
static void kv_host(struct xa_out *o, const char *host)
{
    if ( !host )
        return;
    kv_s(o, "host", host, true);
}

/* ,"merged":{...}: what a merged summary covers. */
static void merged(struct xa_out *o, const struct xa_summary *s)
{
    unsigned int i;

    xa_out_str(o, ",\n\"merged\":{\"group\":");
    xa_out_json_str(o, s->group);
    xa_out_str(o, ",\"unit\":");
    xa_out_json_str(o, s->unit);
    xa_out_str(o, ",\"inputs\":[");
    for ( i = 0; i < s->nr_inputs; i++ )
    {
        const struct xa_sum_input *in = &s->inputs[i];

        xa_out_str(o, i ? ",\n{" : "\n{");
        kv_s(o, "name", in->name, true);
        kv_host(o, in->host);
        kv_u(o, "cpu_hz", in->cpu_hz, true);
        kv_s(o, "cpu_hz_source", in->cpu_hz_source, true);
        kv_s(o, "arch", in->arch, true);
        kv_u(o, "records", in->records, true);
        kv_u(o, "first_tsc", in->first_tsc, true);
        kv_u(o, "last_tsc", in->last_tsc, in->windowed);
        if ( in->windowed )
        {
            xa_out_str(o, "\"window\":{");
            kv_u(o, "from_ns", in->from_ns, true);
            if ( in->to_ns != UINT64_MAX )
                kv_u(o, "to_ns", in->to_ns, true);
            xa_out_str(o, in->whole ? "\"rule\":\"begin\"}"
                                    : "\"rule\":\"cut\"}");
        }
        xa_out_char(o, '}');
    }
    xa_out_str(o, "]}");
}

static void render(const struct xa_summary *s,
                   const struct xa_report_opts *opts, struct xa_out *o)
{
    unsigned int i, j;
    bool first;

    (void)opts;
    xa_out_str(o, "{\"schema\":\"xenalyze.summary/1\","
                  "\"histograms\":\"" XA_STAT_HIST_FORMAT "\",\"trace\":{");
    kv_u(o, "records", s->records, true);
    kv_u(o, "bytes", s->bytes, true);
    kv_u(o, "windows", s->windows, true);
    kv_u(o, "record_bytes", s->record_bytes, true);
    kv_u(o, "pcpus", s->nr_pcpus, true);
    kv_u(o, "cpu_hz", s->cpu_hz, true);
    kv_s(o, "cpu_hz_source", s->cpu_hz_source, true);
    kv_u(o, "first_tsc", s->first_tsc, true);
    kv_u(o, "last_tsc", s->last_tsc, true);
    kv_s(o, "sort", xa_sum_sort_name(s->sort), true);
    if ( s->windowed || s->selected )
    {
        xa_out_str(o, "\"window\":{");
        kv_u(o, "from_ns", s->from_ns, true);
        if ( s->to_ns != UINT64_MAX )
            kv_u(o, "to_ns", s->to_ns, true);
        kv_u(o, "first_tsc", s->span_first, true);
        kv_u(o, "last_tsc", s->span_last, true);
        xa_out_str(o, s->whole ? "\"rule\":\"begin\"," : "\"rule\":\"cut\",");
        xa_out_str(o, s->selected ? "\"selected\":true}," :
                                    "\"selected\":false},");
    }
    kv_s(o, "arch", s->arch, false);
    if ( s->hvm_mode )
    {
        xa_out_char(o, ',');
        kv_s(o, "hvm_mode", s->hvm_mode, true);
        kv_s(o, "hvm_mode_reason", s->hvm_mode_reason, false);
    }
    xa_out_char(o, '}');
    if ( s->nr_inputs )
        merged(o, s);
    xa_out_str(o, ",\n\"anomalies\":{");
    first = true;
    for ( i = 0; i < XA_DIAG_NR; i++ )
    {
        if ( !s->diag || !s->diag->e[i].count )
            continue;
        if ( !first )
            xa_out_char(o, ',');
        first = false;
        kv_u(o, xa_diag_name((enum xa_diag_kind)i), s->diag->e[i].count,
             false);
    }
    xa_out_str(o, "},\n\"diagnostics\":{");
    if ( s->diag )
    {
        kv_u(o, "lost_records", s->diag->lost_records, true);
        kv_u(o, "garbage_bytes", s->diag->garbage_bytes, true);
        key(o, "skipped_bytes");
        xa_out_char(o, '{');
        first = true;
        for ( i = 0; i < XA_DIAG_NR; i++ )
        {
            if ( !s->diag->e[i].bytes )
                continue;
            if ( !first )
                xa_out_char(o, ',');
            first = false;
            kv_u(o, xa_diag_name((enum xa_diag_kind)i), s->diag->e[i].bytes,
                 false);
        }
        xa_out_str(o, "},");
        key(o, "first");
        xa_out_char(o, '{');
        first = true;
        for ( i = 0; i < XA_DIAG_NR; i++ )
        {
            const struct xa_diag_entry *e = &s->diag->e[i];

            if ( !e->count )
                continue;
            if ( !first )
                xa_out_char(o, ',');
            first = false;
            key(o, xa_diag_name((enum xa_diag_kind)i));
            xa_out_char(o, '[');
            for ( j = 0; j < e->nr_first; j++ )
            {
                xa_out_str(o, j ? ",{" : "{");
                if ( e->first_offset[j] != UINT64_MAX )
                    kv_u(o, "offset", e->first_offset[j], true);
                kv_u(o, "cpu", e->first_cpu[j], false);
                xa_out_char(o, '}');
            }
            xa_out_char(o, ']');
        }
        xa_out_char(o, '}');
    }
    xa_out_str(o, "},\n\"pcpus\":[");
    for ( i = 0; i < s->nr_pcpus_arr; i++ )
    {
        const struct xa_sum_pcpu *p = &s->pcpus[i];

        if ( i )
            xa_out_str(o, ",\n");
        xa_out_char(o, '{');
        kv_host(o, p->host);
        kv_u(o, "id", p->id, true);
        kv_u(o, "records", p->records, true);
        kv_stats(o, "running", p->running, false);
        kv_stats(o, "idle", p->idle, true);
        kv_stats(o, "lost", p->lost, true);
        xa_out_str(o, ",\"volume_bytes\":{");
        for ( j = 0; j < XA_NR_VOLUME; j++ )
            kv_u(o, xa_volume_name(j), p->volume[j], j + 1 < XA_NR_VOLUME);
        xa_out_str(o, "}}");
    }
    xa_out_str(o, "],\n\"domains\":[");
    for ( i = 0; i < s->nr_domains; i++ )
    {
        const struct xa_sum_domain *d = &s->domains[i];

        if ( i )
            xa_out_str(o, ",\n");
        xa_out_char(o, '{');
        kv_host(o, d->host);
        kv_u(o, "id", d->id, true);
        if ( d->incarnation )
            kv_u(o, "incarnation", d->incarnation + 1, true);
        kv_s(o, "kind", d->kind, true);
        runstates(o, d->rs, XA_DRS_NR, dom_rs_name);
        xa_out_str(o, ",\"grant_ops\":{");
        kv_u(o, "map", d->grant_ops[0], true);
        kv_u(o, "unmap", d->grant_ops[1], true);
        kv_u(o, "transfer", d->grant_ops[2], false);
        xa_out_str(o, "},\"pod\":{");
        kv_u(o, "populate", d->pod_populate, true);
        kv_u(o, "zero_reclaim", d->pod_reclaim, true);
        kv_u(o, "superpage_splinter", d->pod_splinter, false);
        pod_orders(o, "populate_by_order", d->pod_populate_order);
        pod_orders(o, "zero_reclaim_by_order", d->pod_reclaim_order);
        xa_out_char(o, '}');
        if ( s->eip_list )
            eips(o, s, &d->intr_eips);
        xa_out_char(o, ',');
        if ( d->all )
        {
            key(o, "all_vcpus");
            vcpu(o, s, d->all);
            xa_out_char(o, ',');
        }
        xa_out_str(o, "\"vcpus\":[");
        for ( j = 0; j < d->nr_vcpus; j++ )
        {
            if ( j )
                xa_out_str(o, ",\n");
            vcpu(o, s, &d->vcpus[j]);
        }
        xa_out_str(o, "]}");
    }
    xa_out_char(o, ']');
    if ( s->guests )
    {
        xa_out_str(o, ",\n\"guests\":");
        vcpu(o, s, s->guests);
    }
    xa_out_str(o, "}\n");
}

const struct xa_report_ops xa_report_json = {
    .name = "json",
    .render = render,
};
