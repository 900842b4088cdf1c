/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Text summary, laid out as upstream xenalyze's: domain by domain, vCPU
 * by vCPU, runstates then exits with their breakdowns.  Cold path: printf
 * is fine here.
 */
#include <stdio.h>
#include <string.h>

#include <xenalyze/clock.h>

#include "report-private.h"

/* Names get NAME_W columns (the header labels below are padded to it). */
#define NAME_W 36
#define STAT_HDR "  count   total(s)   mean(cyc)   mean(us)" \
                 "  [p5 p50 p90 p95 p99 p99.9 (cycles)]"

static double secs(const struct xa_summary *s, uint64_t cycles)
{
    return xa_ticks_to_s(cycles, s->cpu_hz);
}

static void stat_line(struct xa_out *o, const struct xa_summary *s,
                      const char *indent, const char *name,
                      const struct xa_stat *st, uint64_t total)
{
    unsigned int i;
    uint64_t mean = xa_stat_mean(st);

    xa_out_printf(o, "%s%-*s %8llu %10.6f %11llu %10.3f", indent,
                  (int)(NAME_W - strlen(indent)), name,
                  (unsigned long long)st->count, secs(s, st->cycles),
                  (unsigned long long)mean, secs(s, mean) * 1e6);
    if ( total )
        xa_out_printf(o, " %6.2f%%", 100.0 * (double)st->cycles /
                                     (double)total);
    xa_out_str(o, "  [");
    for ( i = 0; i < XA_STAT_NR_PCT; i++ )
        xa_out_printf(o, "%s%llu", i ? " " : "",
                      (unsigned long long)xa_stat_pct(st, xa_stat_pcts[i]));
    xa_out_str(o, "]\n");
}

static void hz_line(struct xa_out *o, const struct xa_summary *s)
{
    xa_out_printf(o, "Clock: %.6f MHz", (double)s->cpu_hz / 1e6);
    if ( !strcmp(s->cpu_hz_source, "option") )
        xa_out_str(o, " (from --cpu-hz)\n");
    else if ( !strcmp(s->cpu_hz_source, "trace") )
        xa_out_str(o, " (from the trace's clock record)\n");
    else
        xa_out_str(o, " (DEFAULT, ASSUMED: the trace does not say and no "
                      "--cpu-hz was given; all times in seconds may be "
                      "wrong)\n");
}

static void render_vcpu(struct xa_out *o, const struct xa_summary *s,
                        const struct xa_sum_vcpu *v, uint64_t total)
{
    unsigned int i, j;

    xa_out_printf(o, "-- v%u --\n", v->id);
    xa_out_str(o, " Runstates:                          " STAT_HDR "\n");
    for ( i = 0; i < XA_RS_NR; i++ )
        if ( v->rs[i]->count )
            stat_line(o, s, i >= XA_RS_RUNNABLE_WAKE &&
                      i <= XA_RS_RUNNABLE_OTHER ? "      " : "   ",
                      xa_rs_name((enum xa_rs)i), v->rs[i], 0);
    if ( v->stay_all && v->stay_all->count )
    {
        stat_line(o, s, " ", "cpu affinity (stays)", v->stay_all, 0);
        for ( i = 0; i < v->nr_stays; i++ )
        {
            char name[24];

            snprintf(name, sizeof(name), "[%u]", v->stays[i].cpu);
            stat_line(o, s, "   ", name, v->stays[i].st, 0);
        }
    }
    if ( v->nr_exits )
    {
        xa_out_str(o, " Exit reasons:                       " STAT_HDR
                      "  (%: of trace time)\n");
        for ( i = 0; i < v->nr_exits; i++ )
        {
            const struct xa_sum_exit *e = &v->exits[i];
            char name[48];

            snprintf(name, sizeof(name), "%s [0x%x]", e->reason, e->code);
            stat_line(o, s, "   ", name, e->st, total);
            for ( j = 0; j < e->nr_subs; j++ )
            {
                const struct xa_sum_sub *sub = &e->subs[j];

                if ( sub->label )
                {
                    snprintf(name, sizeof(name), "%s %s", sub->key,
                             sub->label);
                    stat_line(o, s, "      ", name, sub->st, total);
                }
                else
                    stat_line(o, s, "      ", sub->key, sub->st, total);
            }
        }
    }
    if ( v->nr_hypercalls )
    {
        xa_out_str(o, " PV hypercalls:                 count\n");
        for ( i = 0; i < v->nr_hypercalls; i++ )
            xa_out_printf(o, "   %-26s %8llu\n", v->hypercalls[i].name,
                          (unsigned long long)v->hypercalls[i].count);
    }
    if ( v->nr_guest_irqs )
    {
        xa_out_str(o, " Guest interrupts injected (by vector):    count\n");
        for ( i = 0; i < v->nr_guest_irqs; i++ )
        {
            const struct xa_sum_girq *g = &v->guest_irqs[i];

            xa_out_printf(o, "   [0x%02x] %-26s %8llu\n", g->vector, "",
                          (unsigned long long)g->count);
            if ( g->wake_alone && g->wake_alone->count )
                stat_line(o, s, "      ", "wake to halt alone", g->wake_alone,
                          0);
            if ( g->wake_any && g->wake_any->count )
                stat_line(o, s, "      ", "wake to halt any", g->wake_any, 0);
            if ( g->intr && g->intr->count )
                stat_line(o, s, "      ", "intr to halt", g->intr, 0);
        }
    }
    if ( v->nr_pv_events )
    {
        xa_out_str(o, " PV events (by id):             count\n");
        for ( i = 0; i < v->nr_pv_events; i++ )
            xa_out_printf(o, "   %-26s %8llu\n", v->pv_events[i].name,
                          (unsigned long long)v->pv_events[i].count);
    }
}

static void render_pcpus(struct xa_out *o, const struct xa_summary *s)
{
    unsigned int i, j;

    xa_out_str(o, "--- Physical CPUs ---\n");
    for ( i = 0; i < s->nr_pcpus_arr; i++ )
    {
        const struct xa_sum_pcpu *p = &s->pcpus[i];

        xa_out_printf(o, " - cpu %u - (%llu records)\n   time:              "
                      "              " STAT_HDR "\n", p->id,
                      (unsigned long long)p->records);
        stat_line(o, s, "   ", "running", p->running, 0);
        stat_line(o, s, "   ", "idle", p->idle, 0);
        if ( p->lost->count )
            stat_line(o, s, "   ", "lost", p->lost, 0);
        xa_out_str(o, "   log volume (bytes):");
        for ( j = 0; j < XA_NR_VOLUME; j++ )
            if ( p->volume[j] )
                xa_out_printf(o, " %s=%llu", xa_volume_name(j),
                              (unsigned long long)p->volume[j]);
        xa_out_char(o, '\n');
    }
}

static void render(const struct xa_summary *s,
                   const struct xa_report_opts *opts, struct xa_out *o)
{
    uint64_t total = s->last_tsc > s->first_tsc ? s->last_tsc - s->first_tsc
                                                : 0;
    unsigned int i, j;

    xa_out_printf(o, "Total time: %.6f s (%llu cycles), %llu records, "
                  "%u physical CPUs\n", secs(s, total),
                  (unsigned long long)total, (unsigned long long)s->records,
                  s->nr_pcpus);
    hz_line(o, s);
    xa_out_printf(o, "Architecture: %s", s->arch);
    if ( s->hvm_mode )
        xa_out_printf(o, "; HVM exits read as %s", s->hvm_mode_reason);
    xa_out_char(o, '\n');

    xa_out_str(o, "--- Log volume summary (bytes) ---\n");
    for ( i = 0; i < s->nr_pcpus_arr; i++ )
    {
        const struct xa_sum_pcpu *p = &s->pcpus[i];

        xa_out_printf(o, " - cpu %u -\n", p->id);
        for ( j = 0; j < XA_NR_VOLUME; j++ )
            if ( p->volume[j] )
                xa_out_printf(o, " %-12s %10llu\n", xa_volume_name(j),
                              (unsigned long long)p->volume[j]);
    }
    if ( opts && opts->report_pcpu )
        render_pcpus(o, s);

    for ( i = 0; i < s->nr_domains; i++ )
    {
        const struct xa_sum_domain *d = &s->domains[i];

        if ( d->id == 32768 )
            xa_out_str(o, "|-- Domain 32768 (unknown: exits before any record "
                          "said which vCPU ran) --|\n");
        else
            xa_out_printf(o, "|-- Domain %u --|\n", d->id);
        xa_out_str(o, " Runstates:                          " STAT_HDR "\n");
        for ( j = 0; j < XA_DRS_NR; j++ )
            if ( d->rs[j]->count )
                stat_line(o, s, "   ", xa_dom_rs_name((enum xa_dom_rs)j),
                          d->rs[j], 0);
        if ( d->grant_ops[0] || d->grant_ops[1] || d->grant_ops[2] )
            xa_out_printf(o, " Grant table ops: map %llu, unmap %llu, "
                          "transfer %llu\n",
                          (unsigned long long)d->grant_ops[0],
                          (unsigned long long)d->grant_ops[1],
                          (unsigned long long)d->grant_ops[2]);
        if ( d->pod_populate || d->pod_reclaim || d->pod_splinter )
            xa_out_printf(o, " Populate-on-demand: populate %llu, zero "
                          "reclaim %llu, superpage splinter %llu\n",
                          (unsigned long long)d->pod_populate,
                          (unsigned long long)d->pod_reclaim,
                          (unsigned long long)d->pod_splinter);
        for ( j = 0; j < d->nr_vcpus; j++ )
            render_vcpu(o, s, &d->vcpus[j], total);
    }
    if ( s->diag )
        xa_report_diag_text(s->diag, o);
}

const struct xa_report_ops xa_report_text = {
    .name = "text",
    .render = render,
};
