/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * CSV summary (docs/csv.md): every table of the summary in one stream,
 * one header, a `table` column saying which table a row belongs to.
 * Columns that do not apply to a table are empty.  Cycles are integers;
 * seconds and percentages are derived from them as in the text report.
 */
#include <stdio.h>
#include <string.h>

#include <xenalyze/clock.h>

#include "report-private.h"

#define HEADER "table,domain,vcpu,pcpu,name,code,key,label,value,count," \
               "cycles,min,max,mean,p5,p50,p90,p95,p99,p999,seconds," \
               "pct_trace,pct_count,pct_time,incarnation\n"

/* A field, quoted when it holds a comma, a quote or a line break. */
static void field(struct xa_out *o, const char *s)
{
    xa_out_char(o, ',');
    if ( s )
        xa_out_csv_str(o, s);
}

static void ufield(struct xa_out *o, uint64_t v)
{
    xa_out_char(o, ',');
    xa_out_u64(o, v);
}

struct row {
    const char *table;
    long dom, vcpu, pcpu;           /* -1: empty; vcpu -2: "all" */
    const char *name;
    long long code;                 /* -1: empty */
    const char *key, *label, *value;
    unsigned int inc;               /* the domain's incarnation (0: empty) */
};

/* A domain's rows: its id and incarnation (1, 2, ... as its id is reused). */
#define INC(d) ((d)->incarnation + 1)

/* The incarnation column, which ends the row. */
static void end(struct xa_out *o, const struct row *r)
{
    if ( r->inc )
        ufield(o, r->inc);
    else
        xa_out_char(o, ',');
    xa_out_char(o, '\n');
}

/* table .. value columns. */
static void head(struct xa_out *o, const struct row *r)
{
    xa_out_str(o, r->table);
    if ( r->dom >= 0 )
        ufield(o, (uint64_t)r->dom);
    else
        field(o, NULL);
    if ( r->vcpu >= 0 )
        ufield(o, (uint64_t)r->vcpu);
    else
        field(o, r->vcpu == -2 ? "all" : NULL);
    if ( r->pcpu >= 0 )
        ufield(o, (uint64_t)r->pcpu);
    else
        field(o, NULL);
    field(o, r->name);
    if ( r->code >= 0 )
        ufield(o, (uint64_t)r->code);
    else
        field(o, NULL);
    field(o, r->key);
    field(o, r->label);
    field(o, r->value);
}

static void pct(struct xa_out *o, uint64_t part, uint64_t whole)
{
    xa_out_char(o, ',');
    if ( whole )
        xa_out_double(o, 100.0 * (double)part / (double)whole, 4);
}

/* A row with statistics; count_all/time_all: the vCPU's (0: empty). */
static void stat_row(struct xa_out *o, const struct xa_summary *s,
                     const struct row *r, const struct xa_stat *st,
                     uint64_t count_all, uint64_t time_all)
{
    uint64_t pcts[XA_STAT_NR_PCT];
    unsigned int i;

    head(o, r);
    ufield(o, st->count);
    ufield(o, st->cycles);
    ufield(o, st->count ? st->min : 0);
    ufield(o, st->max);
    ufield(o, xa_stat_mean(st));
    xa_stat_pct_many(st, xa_stat_pcts, XA_STAT_NR_PCT, pcts);
    for ( i = 0; i < XA_STAT_NR_PCT; i++ )
        ufield(o, pcts[i]);
    xa_out_char(o, ',');
    xa_out_double(o, xa_ticks_to_s(st->cycles, s->cpu_hz), 9);
    pct(o, st->cycles, s->span_last - s->span_first);
    pct(o, st->count, count_all);
    pct(o, st->cycles, time_all);
    end(o, r);
}

/* A row with a count only. */
static void count_row(struct xa_out *o, const struct row *r, uint64_t n)
{
    head(o, r);
    ufield(o, n);
    xa_out_str(o, ",,,,,,,,,,,,,,");
    end(o, r);
}

static void value_row(struct xa_out *o, const char *name, const char *v)
{
    struct row r = { "trace", -1, -1, -1, name, -1, NULL, NULL, v, 0 };

    head(o, &r);
    xa_out_str(o, ",,,,,,,,,,,,,,,");
    end(o, &r);
}

static void value_u(struct xa_out *o, const char *name, uint64_t v)
{
    char buf[24];
    unsigned int i = sizeof(buf) - 1;

    buf[i] = 0;
    do
        buf[--i] = (char)('0' + v % 10);
    while ( (v /= 10) && i );
    value_row(o, name, &buf[i]);
}

/* PoD operations by page order: name the operation, key the order. */
static void pod_orders(struct xa_out *o, const struct xa_sum_domain *d,
                       const char *name, const uint64_t n[4])
{
    static const char *const orders[4] = { "4k", "2M", "1G", "other" };
    struct row r = { "pod_order", d->id, -1, -1, name, -1, NULL, NULL, NULL,
                     INC(d) };
    unsigned int i;

    for ( i = 0; i < 4; i++ )
    {
        r.key = orders[i];
        count_row(o, &r, n[i]);
    }
}

/*
 * An interrupt eip list (--with-interrupt-eip-enumeration): code the
 * vector, key each address, then "other" beyond the model's bound.
 */
static void eip_rows(struct xa_out *o, const struct xa_summary *s,
                     const struct xa_sum_domain *d, long vcpu,
                     const struct xa_sum_eips *l)
{
    struct row r = { "interrupt_eip", d->id, vcpu, -1, NULL, s->eip_vector,
                     NULL, NULL, NULL, INC(d) };
    char buf[24];
    unsigned int i;

    for ( i = 0; i < l->nr; i++ )
    {
        snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)l->e[i].eip);
        r.key = buf;
        count_row(o, &r, l->e[i].count);
    }
    if ( l->other )
    {
        r.key = "other";
        count_row(o, &r, l->other);
    }
}

static void counts(struct xa_out *o, const char *table,
                   const struct xa_sum_domain *d, long vcpu,
                   const struct xa_sum_count *c, unsigned int n, bool ids)
{
    unsigned int i, j;

    for ( i = 0; i < n; i++ )
    {
        struct row r = { table, d->id, vcpu, -1, c[i].name,
                         ids ? (long long)c[i].id : -1, NULL, NULL, NULL,
                         INC(d) };

        count_row(o, &r, c[i].count);
        for ( j = 0; j < c[i].nr_subs; j++ )
        {
            r.key = c[i].subs[j].name;
            count_row(o, &r, c[i].subs[j].count);
        }
    }
}

static void vcpu_rows(struct xa_out *o, const struct xa_summary *s,
                      const struct xa_sum_domain *d,
                      const struct xa_sum_vcpu *v)
{
    long vid = v->id == XA_SUM_ALL_VCPUS ? -2 : (long)v->id;
    unsigned int i, j;

    for ( i = 0; i < XA_RS_NR; i++ )
        if ( v->rs[i]->count )
        {
            struct row r = { "vcpu_runstate", d->id, vid, -1,
                             xa_rs_name((enum xa_rs)i), -1, NULL, NULL,
                             NULL, INC(d) };

            stat_row(o, s, &r, v->rs[i], 0, 0);
        }
    if ( v->exit_all )
    {
        struct row r = { "exit_total", d->id, vid, -1, "all exits", -1, NULL,
                         NULL, NULL, INC(d) };

        stat_row(o, s, &r, v->exit_all, v->exit_count, v->exit_cycles);
    }
    for ( i = 0; i < v->nr_exits; i++ )
    {
        const struct xa_sum_exit *e = &v->exits[i];
        struct row r = { "exit", d->id, vid, -1, e->reason, e->code, NULL,
                         NULL, NULL, INC(d) };

        stat_row(o, s, &r, e->st, v->exit_count, v->exit_cycles);
        r.table = "exit_sub";
        for ( j = 0; j < e->nr_subs; j++ )
        {
            r.key = e->subs[j].key;
            r.label = e->subs[j].label;
            stat_row(o, s, &r, e->subs[j].st, v->exit_count, v->exit_cycles);
        }
    }
    counts(o, "hypercall", d, vid, v->hypercalls, v->nr_hypercalls, false);
    counts(o, "pv_event", d, vid, v->pv_events, v->nr_pv_events, true);
    for ( i = 0; i < v->nr_guest_irqs; i++ )
    {
        const struct xa_sum_girq *g = &v->guest_irqs[i];
        struct row r = { "guest_irq", d->id, vid, -1, "injected", g->vector,
                         NULL, NULL, NULL, INC(d) };

        count_row(o, &r, g->count);
        r.name = "wake_to_halt_alone";
        if ( g->wake_alone && g->wake_alone->count )
            stat_row(o, s, &r, g->wake_alone, 0, 0);
        r.name = "wake_to_halt_any";
        if ( g->wake_any && g->wake_any->count )
            stat_row(o, s, &r, g->wake_any, 0, 0);
        r.name = "intr_to_halt";
        if ( g->intr && g->intr->count )
            stat_row(o, s, &r, g->intr, 0, 0);
    }
    if ( v->stay_all && v->stay_all->count )
    {
        struct row r = { "cpu_affinity", d->id, vid, -1, "all", -1, NULL,
                         NULL, NULL, INC(d) };

        stat_row(o, s, &r, v->stay_all, 0, 0);
        r.name = NULL;
        for ( i = 0; i < v->nr_stays; i++ )
        {
            r.pcpu = v->stays[i].cpu;
            stat_row(o, s, &r, v->stays[i].st, 0, 0);
        }
    }
}

static void render(const struct xa_summary *s,
                   const struct xa_report_opts *opts, struct xa_out *o)
{
    unsigned int i, j;

    (void)opts;
    xa_out_str(o, HEADER);
    value_row(o, "schema", "xenalyze.csv/1");
    value_u(o, "records", s->records);
    value_u(o, "pcpus", s->nr_pcpus);
    value_u(o, "cpu_hz", s->cpu_hz);
    value_row(o, "cpu_hz_source", s->cpu_hz_source);
    value_u(o, "first_tsc", s->first_tsc);
    value_u(o, "last_tsc", s->last_tsc);
    value_u(o, "span_first_tsc", s->span_first);
    value_u(o, "span_last_tsc", s->span_last);
    value_row(o, "arch", s->arch);
    if ( s->hvm_mode )
        value_row(o, "hvm_mode", s->hvm_mode);
    value_row(o, "sort", xa_sum_sort_name(s->sort));
    if ( s->windowed )
    {
        value_u(o, "from_ns", s->from_ns);
        if ( s->to_ns != UINT64_MAX )
            value_u(o, "to_ns", s->to_ns);
    }
    for ( i = 0; s->diag && i < XA_DIAG_NR; i++ )
        if ( s->diag->e[i].count )
        {
            struct row r = { "anomaly", -1, -1, -1,
                             xa_diag_name((enum xa_diag_kind)i), -1, NULL,
                             NULL, NULL, 0 };

            count_row(o, &r, s->diag->e[i].count);
        }
    for ( i = 0; i < s->nr_pcpus_arr; i++ )
    {
        const struct xa_sum_pcpu *p = &s->pcpus[i];
        struct row r = { "pcpu", -1, -1, p->id, "running", -1, NULL, NULL,
                         NULL, 0 };

        stat_row(o, s, &r, p->running, 0, 0);
        r.name = "idle";
        stat_row(o, s, &r, p->idle, 0, 0);
        r.name = "lost";
        stat_row(o, s, &r, p->lost, 0, 0);
        r.name = "records";
        count_row(o, &r, p->records);
        r.table = "log_volume";
        for ( j = 0; j < XA_NR_VOLUME; j++ )
            if ( p->volume[j] )
            {
                r.name = xa_volume_name(j);
                count_row(o, &r, p->volume[j]);
            }
    }
    for ( i = 0; i < s->nr_domains; i++ )
    {
        const struct xa_sum_domain *d = &s->domains[i];
        struct row r = { "domain", d->id, -1, -1, "kind", -1, NULL, NULL,
                         d->kind, INC(d) };

        head(o, &r);
        xa_out_str(o, ",,,,,,,,,,,,,,,");
        end(o, &r);
        r.value = NULL;
        r.table = "domain_runstate";
        for ( j = 0; j < XA_DRS_NR; j++ )
            if ( d->rs[j]->count )
            {
                r.name = xa_dom_rs_name((enum xa_dom_rs)j);
                stat_row(o, s, &r, d->rs[j], 0, 0);
            }
        r.table = "grant_ops";
        r.name = "map";
        count_row(o, &r, d->grant_ops[0]);
        r.name = "unmap";
        count_row(o, &r, d->grant_ops[1]);
        r.name = "transfer";
        count_row(o, &r, d->grant_ops[2]);
        r.table = "pod";
        r.name = "populate";
        count_row(o, &r, d->pod_populate);
        r.name = "zero_reclaim";
        count_row(o, &r, d->pod_reclaim);
        r.name = "superpage_splinter";
        count_row(o, &r, d->pod_splinter);
        pod_orders(o, d, "populate", d->pod_populate_order);
        pod_orders(o, d, "zero_reclaim", d->pod_reclaim_order);
        if ( s->eip_list )
            eip_rows(o, s, d, -2, &d->intr_eips);
        if ( d->all )
            vcpu_rows(o, s, d, d->all);
        for ( j = 0; j < d->nr_vcpus; j++ )
        {
            vcpu_rows(o, s, d, &d->vcpus[j]);
            if ( s->eip_list )
                eip_rows(o, s, d, d->vcpus[j].id, &d->vcpus[j].intr_eips);
        }
    }
}

const struct xa_report_ops xa_report_csv = {
    .name = "csv",
    .render = render,
};
