/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Text summary, laid out as upstream xenalyze's (domain by domain, vCPU
 * by vCPU, runstates then exits with their breakdowns) in aligned
 * columns with units in the headers.  The order, totals, aggregates and
 * folded rows come from the summary (summary-shape.c): this file renders.
 * Cold path: printf is fine here.
 */
#include <stdio.h>
#include <string.h>

#include <xenalyze/clock.h>
#include <xenalyze/symbols.h>

#include "report-private.h"
#include "util/util-private.h"

/* Percentiles shown in µs, of xa_stat_pcts[] (p50 p90 p99 p99.9). */
static const unsigned int shown_pcts[] = { 1, 2, 4, 5 };
#define NR_SHOWN (sizeof(shown_pcts) / sizeof(shown_pcts[0]))

struct ctx {
    const struct xa_summary *s;
    const struct xa_report_opts *opts;
    struct xa_out *o;
    int w;                          /* the name column */
    uint64_t total;                 /* trace cycles */
};

static double secs(const struct xa_summary *s, uint64_t cycles)
{
    return xa_ticks_to_s(cycles, s->cpu_hz);
}

static double usecs(const struct xa_summary *s, uint64_t cycles)
{
    return xa_ticks_to_s(cycles, s->cpu_hz) * 1e6;
}

/*
 * " " and a number, right-aligned in width: the statistics' columns, in
 * the output buffer without printf (a summary has thousands of them).
 */
static void col_u64(struct xa_out *o, uint64_t v, unsigned int width)
{
    xa_out_char(o, ' ');
    xa_out_u64w(o, v, width);
}

static void col_fixed(struct xa_out *o, double v, unsigned int width,
                      unsigned int decimals)
{
    xa_out_char(o, ' ');
    xa_out_fixed(o, v, width, decimals);
}

static void pct(struct xa_out *o, uint64_t part, uint64_t whole)
{
    if ( whole )
        col_fixed(o, 100.0 * (double)part / (double)whole, 7, 2);
    else
        xa_out_str(o, "       -");
}

static void stat_header(struct ctx *c, const char *title)
{
    unsigned int i;

    xa_out_printf(c->o, " %-*s %9s %11s %7s %7s %7s %11s %11s %11s", c->w - 1,
                  title, "count", "total(s)", "%trace", "%count", "%time",
                  "mean(cyc)", "mean(us)", "min(us)");
    for ( i = 0; i < NR_SHOWN; i++ )
    {
        char h[16];

        snprintf(h, sizeof(h), "%s(us)", xa_stat_pct_names[shown_pcts[i]]);
        xa_out_printf(c->o, " %11s", h);
    }
    xa_out_printf(c->o, " %11s\n", "max(us)");
}

/*
 * One row: name, count, total, % of trace time, % of the vCPU's count
 * and time (count_all/time_all; 0: not shown), mean, min, percentiles
 * and max in µs.
 */
static void stat_line(struct ctx *c, const char *indent, const char *name,
                      const struct xa_stat *st, uint64_t count_all,
                      uint64_t time_all)
{
    const struct xa_summary *s = c->s;
    uint64_t mean = xa_stat_mean(st), pcts[XA_STAT_NR_PCT];
    unsigned int i;

    xa_out_printf(c->o, "%s%-*s", indent,
                  (int)(c->w - (int)strlen(indent)), name);
    col_u64(c->o, st->count, 9);
    col_fixed(c->o, secs(s, st->cycles), 11, 6);
    pct(c->o, st->cycles, c->total);
    pct(c->o, st->count, count_all);
    pct(c->o, st->cycles, time_all);
    col_u64(c->o, mean, 11);
    col_fixed(c->o, usecs(s, mean), 11, 3);
    col_fixed(c->o, usecs(s, st->count ? st->min : 0), 11, 3);
    xa_stat_pct_many(st, xa_stat_pcts, XA_STAT_NR_PCT, pcts);
    for ( i = 0; i < NR_SHOWN; i++ )
        col_fixed(c->o, usecs(s, pcts[shown_pcts[i]]), 11, 3);
    col_fixed(c->o, usecs(s, st->max), 11, 3);
    xa_out_char(c->o, '\n');
}

static void hz_line(struct xa_out *o, const struct xa_summary *s)
{
    xa_out_printf(o, "Clock: %.6f MHz", (double)s->cpu_hz / 1e6);
    if ( !strcmp(s->cpu_hz_source, "option") )
        xa_out_printf(o, " (from --%s)\n",
                      s->cpu_hz_option ? s->cpu_hz_option : "cpu-hz");
    else if ( !strcmp(s->cpu_hz_source, "trace") )
        xa_out_str(o, " (from the trace's clock record)\n");
    else
        xa_out_str(o, " (DEFAULT, ASSUMED: the trace does not say and no "
                      "--cpu-hz was given; all times in seconds may be "
                      "wrong)\n");
}

/* "KEY NAME" of a sub-row. */
static void sub_name(char *buf, size_t len, const struct xa_sum_sub *sub)
{
    if ( sub->label )
        snprintf(buf, len, "%s %s", sub->key, sub->label);
    else
        snprintf(buf, len, "%s", sub->key);
}

static void exit_name(char *buf, size_t len, const struct xa_sum_exit *e)
{
    snprintf(buf, len, "%s [0x%x]", e->reason, e->code);
}

static int widest(int w, const char *indent, const char *name)
{
    int n = (int)(strlen(indent) + strlen(name));

    return n > w ? n : w;
}

/* The name column: as wide as the widest name shown. */
static int measure_vcpu(int w, const struct xa_sum_vcpu *v)
{
    unsigned int i, j;
    char buf[160];

    for ( i = 0; i < v->nr_exits; i++ )
    {
        const struct xa_sum_exit *e = &v->exits[i];

        exit_name(buf, sizeof(buf), e);
        w = widest(w, "   ", buf);
        for ( j = 0; j < e->nr_shown; j++ )
        {
            sub_name(buf, sizeof(buf), &e->subs[j]);
            w = widest(w, "      ", buf);
        }
        if ( e->other.st )
            w = widest(w, "      ", e->other.key);
    }
    for ( i = 0; i < v->nr_hypercalls; i++ )
    {
        w = widest(w, "   ", v->hypercalls[i].name);
        for ( j = 0; j < v->hypercalls[i].nr_subs; j++ )
            w = widest(w, "      ", v->hypercalls[i].subs[j].name);
    }
    for ( i = 0; i < v->nr_pv_events; i++ )
        w = widest(w, "   ", v->pv_events[i].name);
    return w;
}

static int measure(const struct xa_summary *s)
{
    int w = 30;
    unsigned int i, j;

    for ( i = 0; i < s->nr_domains; i++ )
    {
        const struct xa_sum_domain *d = &s->domains[i];

        if ( d->all )
            w = measure_vcpu(w, d->all);
        for ( j = 0; j < d->nr_vcpus; j++ )
            w = measure_vcpu(w, &d->vcpus[j]);
    }
    return w;
}

static void count_table(struct ctx *c, const char *title,
                        const struct xa_sum_count *t, unsigned int n)
{
    uint64_t all = 0;
    unsigned int i, j;

    for ( i = 0; i < n; i++ )
        all += t[i].count;
    xa_out_printf(c->o, " %-*s %9s %7s\n", c->w - 1, title, "count", "%");
    for ( i = 0; i < n; i++ )
    {
        xa_out_printf(c->o, "   %-*s %9llu", c->w - 3, t[i].name,
                      (unsigned long long)t[i].count);
        pct(c->o, t[i].count, all);
        xa_out_char(c->o, '\n');
        for ( j = 0; j < t[i].nr_subs; j++ )
        {
            xa_out_printf(c->o, "      %-*s %9llu", c->w - 6,
                          t[i].subs[j].name,
                          (unsigned long long)t[i].subs[j].count);
            pct(c->o, t[i].subs[j].count, all);
            xa_out_char(c->o, '\n');
        }
    }
}

static void render_exits(struct ctx *c, const struct xa_sum_vcpu *v)
{
    unsigned int i, j;
    char name[160];

    stat_header(c, "Exit reasons");
    if ( v->exit_all )
        stat_line(c, "   ", "all exits", v->exit_all, v->exit_count,
                  v->exit_cycles);
    for ( i = 0; i < v->nr_exits; i++ )
    {
        const struct xa_sum_exit *e = &v->exits[i];

        exit_name(name, sizeof(name), e);
        stat_line(c, "   ", name, e->st, v->exit_count, v->exit_cycles);
        for ( j = 0; j < e->nr_shown; j++ )
        {
            sub_name(name, sizeof(name), &e->subs[j]);
            stat_line(c, "      ", name, e->subs[j].st, v->exit_count,
                      v->exit_cycles);
        }
        if ( e->other.st )
            stat_line(c, "      ", e->other.key, e->other.st, v->exit_count,
                      v->exit_cycles);
    }
}

/*
 * Upstream's "Interrupt eip histogram:": the addresses of a vCPU's eip
 * list by buckets of the given size, "[first-last]: count".
 */
static void render_eip_histogram(struct ctx *c, const struct xa_sum_eips *l)
{
    uint64_t inc = c->opts->eip_histogram, bucket = 0, n = 0;
    unsigned int i;

    xa_out_str(c->o, "Interrupt eip histogram:\n");
    for ( i = 0; i <= l->nr; i++ )
    {
        if ( i < l->nr && n && l->e[i].eip / inc == bucket )
        {
            n += l->e[i].count;
            continue;
        }
        if ( n )
            xa_out_printf(c->o, "[%llx-%llx]: %llu\n",
                          (unsigned long long)(bucket * inc),
                          (unsigned long long)(bucket * inc + inc - 1),
                          (unsigned long long)n);
        if ( i < l->nr )
        {
            bucket = l->e[i].eip / inc;
            n = l->e[i].count;
        }
    }
    if ( l->other )
        xa_out_printf(c->o, "[other addresses]: %llu\n",
                      (unsigned long long)l->other);
}

/*
 * Upstream's "Interrupt eip list (vector V)" of a domain: every address,
 * ascending, with its count and share, and the symbol when known.
 */
static void render_eip_list(struct ctx *c, const struct xa_sum_eips *l)
{
    const struct xa_symbols *sy = c->opts ? c->opts->symbols : NULL;
    unsigned int i;

    xa_out_printf(c->o, "Interrupt eip list (vector %u)\n",
                  c->s->eip_vector);
    if ( !l->total )
        return;
    xa_out_printf(c->o, "   Total samples: %llu\n",
                  (unsigned long long)l->total);
    for ( i = 0; i <= l->nr; i++ )
    {
        uint64_t n = i < l->nr ? l->e[i].count : l->other;
        char sym[160];

        if ( i == l->nr && !n )
            break;
        sym[0] = 0;
        if ( i < l->nr )
            xa_symbols_name(sy, l->e[i].eip, sym, sizeof(sym));
        if ( i < l->nr )
            xa_out_printf(c->o, "   %12llx%-45s: ",
                          (unsigned long long)l->e[i].eip, sym);
        else
            xa_out_printf(c->o, "   %12s%-45s: ", "other", "");
        xa_out_printf(c->o, " %7llu %5.2f%%\n", (unsigned long long)n,
                      (double)n * 100.0 / (double)l->total);
    }
}

/* Upstream's print_cycle_percent_summary() (share of total). */
static void cyc_line(struct xa_out *o, const char *what,
                     const struct xa_sum_cyc *x, uint64_t total, uint64_t hz)
{
    if ( !x->count )
        return;
    xa_out_printf(o, "%s: %7llu %5.2fs %5.2f%% %6llu\n", what,
                  (unsigned long long)x->count, (double)x->cycles / (double)hz,
                  (double)(x->cycles * 100) / (double)total,
                  (unsigned long long)(x->cycles / x->count));
}

/* A time since the trace's start, as upstream's "%4u.%09u". */
static void seen_time(struct xa_out *o, const struct xa_summary *s,
                      uint64_t tsc)
{
    uint64_t ns = tsc > s->first_tsc
                  ? xa_ticks_to_ns(tsc - s->first_tsc, s->cpu_hz) : 0;

    xa_out_printf(o, "%4llu.%09llu", (unsigned long long)(ns / 1000000000u),
                  (unsigned long long)(ns % 1000000000u));
}

/*
 * Upstream's "cr3 values:" of a domain (--with-cr3-enumeration): each
 * guest page table by first load, its time loaded, in the guest and in
 * Xen, its exits by kind, and when it was seen.  (Upstream adds
 * percentiles of samples; docs/differences-from-upstream.md.)
 */
static void render_cr3s(struct ctx *c, const struct xa_sum_domain *d)
{
    const struct xa_summary *s = c->s;
    unsigned int i, k;

    if ( !d->nr_cr3s && !d->cr3_untracked )
        return;
    xa_out_str(c->o, "    cr3 values:\n");
    for ( i = 0; i < d->nr_cr3s; i++ )
    {
        const struct xa_sum_cr3 *r = &d->cr3s[i];
        char what[64];

        if ( r->total.count )
            xa_out_printf(c->o, "  %8llx (id %u): %7llu %5.2fs %6llu\n",
                          (unsigned long long)r->gmfn, r->id,
                          (unsigned long long)r->total.count,
                          (double)r->total.cycles / (double)s->cpu_hz,
                          (unsigned long long)(r->total.cycles /
                                               r->total.count));
        cyc_line(c->o, "          guest", &r->guest, r->run_time, s->cpu_hz);
        cyc_line(c->o, "          hv   ", &r->hv, r->run_time, s->cpu_hz);
        for ( k = 0; k < XA_SHORT_NR; k++ )
        {
            snprintf(what, sizeof(what), "           + %s",
                     xa_short_kind_name((enum xa_short_kind)k));
            cyc_line(c->o, what, &r->kind[k], r->run_time, s->cpu_hz);
        }
        xa_out_str(c->o, "            Seen: ");
        seen_time(c->o, s, r->first_tsc);
        xa_out_char(c->o, '-');
        seen_time(c->o, s, r->last_tsc);
        xa_out_printf(c->o, " switch %llu flush %llu\n",
                      (unsigned long long)r->switches,
                      (unsigned long long)r->flushes);
    }
    if ( d->cr3_untracked )
        xa_out_printf(c->o, "    (%llu loads of values past the memory "
                      "budget, not tracked)\n",
                      (unsigned long long)d->cr3_untracked);
}

static void render_vcpu(struct ctx *c, const struct xa_sum_vcpu *v,
                        unsigned int nr_vcpus)
{
    unsigned int i;

    if ( v->id == XA_SUM_ALL_VCPUS )
        xa_out_printf(c->o, "-- all %u vCPUs --\n", nr_vcpus);
    else
        xa_out_printf(c->o, "-- v%u --\n", v->id);
    stat_header(c, "Runstates");
    for ( i = 0; i < XA_RS_NR; i++ )
        if ( v->rs[i]->count )
            stat_line(c, i >= XA_RS_RUNNABLE_WAKE &&
                      i <= XA_RS_RUNNABLE_OTHER ? "      " : "   ",
                      xa_rs_name((enum xa_rs)i), v->rs[i], 0, 0);
    if ( v->stay_all && v->stay_all->count )
    {
        stat_line(c, " ", "cpu affinity (stays)", v->stay_all, 0, 0);
        for ( i = 0; i < v->nr_stays; i++ )
        {
            char name[24];

            snprintf(name, sizeof(name), "[%u]", v->stays[i].cpu);
            stat_line(c, "   ", name, v->stays[i].st, 0, 0);
        }
    }
    if ( v->nr_exits )
        render_exits(c, v);
    if ( v->nr_hypercalls )
        count_table(c, "PV hypercalls (sub-operations below)", v->hypercalls,
                    v->nr_hypercalls);
    if ( v->nr_guest_irqs )
    {
        xa_out_printf(c->o, " %-*s %9s\n", c->w - 1,
                      "Guest interrupts injected (by vector)", "count");
        for ( i = 0; i < v->nr_guest_irqs; i++ )
        {
            const struct xa_sum_girq *g = &v->guest_irqs[i];
            char name[16];

            snprintf(name, sizeof(name), "[0x%02x]", g->vector);
            xa_out_printf(c->o, "   %-*s %9llu\n", c->w - 3, name,
                          (unsigned long long)g->count);
            if ( g->wake_alone && g->wake_alone->count )
                stat_line(c, "      ", "wake to halt alone", g->wake_alone,
                          0, 0);
            if ( g->wake_any && g->wake_any->count )
                stat_line(c, "      ", "wake to halt any", g->wake_any, 0,
                          0);
            if ( g->intr && g->intr->count )
                stat_line(c, "      ", "intr to halt", g->intr, 0, 0);
        }
    }
    if ( v->nr_pv_events )
        count_table(c, "PV events", v->pv_events, v->nr_pv_events);
    if ( c->s->eip_list && c->opts && c->opts->eip_histogram &&
         v->id != XA_SUM_ALL_VCPUS && v->intr_eips.total )
        render_eip_histogram(c, &v->intr_eips);
}

static void render_pcpus(struct ctx *c)
{
    const struct xa_summary *s = c->s;
    unsigned int i, j;

    xa_out_str(c->o, "--- Physical CPUs ---\n");
    for ( i = 0; i < s->nr_pcpus_arr; i++ )
    {
        const struct xa_sum_pcpu *p = &s->pcpus[i];
        char title[48];

        snprintf(title, sizeof(title), "cpu %u (%llu records)", p->id,
                 (unsigned long long)p->records);
        stat_header(c, title);
        stat_line(c, "   ", "running", p->running, 0, 0);
        stat_line(c, "   ", "idle", p->idle, 0, 0);
        if ( p->lost->count )
            stat_line(c, "   ", "lost", p->lost, 0, 0);
        xa_out_str(c->o, "   log volume (bytes):");
        for ( j = 0; j < XA_NR_VOLUME; j++ )
            if ( p->volume[j] )
                xa_out_printf(c->o, " %s=%llu", xa_volume_name(j),
                              (unsigned long long)p->volume[j]);
        xa_out_char(c->o, '\n');
    }
}

static void domain_title(char *buf, size_t len, const struct xa_sum_domain *d)
{
    int n;

    /* A merged summary by host: the host first. */
    if ( d->host && (n = snprintf(buf, len, "%s: ", d->host)) > 0 &&
         (size_t)n < len )
    {
        buf += n;
        len -= (size_t)n;
    }
    if ( d->id == 32767 )
        snprintf(buf, len, "Domain 32767 (idle)");
    else if ( d->id == 32768 )
        snprintf(buf, len, "Domain 32768 (default: before any record "
                 "said which vCPU ran)");
    else if ( d->incarnation )
        snprintf(buf, len, "Domain %u (%s, incarnation %u: its id reused)",
                 d->id, d->kind, d->incarnation + 1);
    else
        snprintf(buf, len, "Domain %u (%s)", d->id, d->kind);
}

/* A row of the overview: exits, exit time and runstate times. */
static void overview_row(struct ctx *c, const char *name,
                         const struct xa_sum_vcpu *v)
{
    static const enum xa_rs cols[] = {
        XA_RS_RUNNING, XA_RS_RUNNABLE, XA_RS_BLOCKED, XA_RS_OFFLINE,
        XA_RS_LOST,
    };
    unsigned int i;

    xa_out_printf(c->o, " %-14s", name);
    col_u64(c->o, v->exit_count, 9);
    col_fixed(c->o, secs(c->s, v->exit_cycles), 12, 6);
    pct(c->o, v->exit_cycles, c->total);
    for ( i = 0; i < sizeof(cols) / sizeof(cols[0]); i++ )
        col_fixed(c->o, secs(c->s, v->rs[cols[i]]->cycles), 11, 6);
    xa_out_char(c->o, '\n');
}

static void render_overview(struct ctx *c)
{
    const struct xa_summary *s = c->s;
    unsigned int i, j;
    char name[64];

    xa_out_str(c->o, "--- Overview: exits and runstates (s) per domain "
                     "and vCPU ---\n");
    xa_out_printf(c->o, " %-14s %9s %12s %7s %11s %11s %11s %11s %11s\n",
                  "vCPU", "exits", "exit time(s)", "%trace", "running",
                  "runnable", "blocked", "offline", "lost");
    for ( i = 0; i < s->nr_domains; i++ )
    {
        const struct xa_sum_domain *d = &s->domains[i];

        char dom[24];

        /* An id's later incarnations: d1#2 (its id reused). */
        xa_dom_name(dom, sizeof(dom), "d", d->id, d->incarnation);
        if ( d->nr_vcpus > 1 && d->all )
        {
            snprintf(name, sizeof(name), "%s (%u vCPUs)", dom, d->nr_vcpus);
            overview_row(c, name, d->all);
        }
        for ( j = 0; j < d->nr_vcpus; j++ )
        {
            snprintf(name, sizeof(name), "%s%sv%u",
                     d->nr_vcpus > 1 ? "  " : "", dom, d->vcpus[j].id);
            overview_row(c, name, &d->vcpus[j]);
        }
    }
}

static void render_legend(struct xa_out *o)
{
    xa_out_str(o,
        "--- Legend ---\n"
        " %trace: of the trace's time; %count, %time: of the vCPU's (or the "
        "domain's) exits\n"
        "   and exit time.  Percentiles come from a histogram (within "
        "0.8%); min, max exact.\n"
        " vCPU runstates: running; runnable (waiting for a pCPU; _wake: "
        "after blocked or\n"
        "   offline, _preempt: after running); blocked; offline; lost (in "
        "a lost-records gap).\n"
        " Domain runstates: blocked (no vCPU running or runnable); "
        "partial_run; full_run;\n"
        "   partial_contention (runnable, none running); "
        "concurrency_hazard (some running,\n"
        "   others runnable); full_contention; lost.\n"
        " Domain 32767 is the idle domain (its vCPUs: the pCPUs idling); "
        "32768 the default\n"
        "   domain, standing for \"not known yet\" before a record says "
        "which vCPU ran.\n"
        " An exit ends at the next entry, or earlier when its vCPU becomes "
        "runnable.\n");
}

/*
 * Bytes of records by class per pCPU, as upstream prints them: "hvm" is
 * the class's total, then its parts: "+-vmentry", "+-vmexit",
 * "+-handler" and "+-emul" (the rest).  (Upstream's "+-verbose" under
 * sched is not counted here.)
 */
static void render_volume(struct xa_out *o, const struct xa_summary *s)
{
    static const unsigned int hvm_parts[] = { 9, 10, 11, 3 };
    static const char *const hvm_names[] = {
        "vmentry", "vmexit", "handler", "emul",
    };
    unsigned int i, j, k;

    xa_out_str(o, "--- Log volume summary ---\n");
    for ( i = 0; i < s->nr_pcpus_arr; i++ )
    {
        const struct xa_sum_pcpu *p = &s->pcpus[i];

        xa_out_printf(o, " - cpu %u -\n", p->id);
        for ( j = 0; j < XA_NR_VOLUME; j++ )
        {
            uint64_t v = p->volume[j];

            if ( j >= 9 && j <= 11 )
                continue;               /* under hvm */
            if ( j == 3 )
                for ( k = 0; k < 3; k++ )
                    v += p->volume[hvm_parts[k]];
            if ( !v )
                continue;
            xa_out_printf(o, " %-6s: %10llu\n", xa_volume_name(j),
                          (unsigned long long)v);
            for ( k = 0; j == 3 && k < 4; k++ )
                if ( p->volume[hvm_parts[k]] )
                    xa_out_printf(o, " +-%-7s: %10llu\n", hvm_names[k],
                                  (unsigned long long)
                                  p->volume[hvm_parts[k]]);
        }
    }
}

/* "  populated by order: 4k N, 2M N" (orders with a count). */
static void pod_orders(struct xa_out *o, const char *what,
                       const uint64_t n[4])
{
    static const char *const names[4] = { "4k", "2M", "1G", "other" };
    const char *sep = ":";
    unsigned int i;

    xa_out_printf(o, "  %s by order", what);
    for ( i = 0; i < 4; i++ )
        if ( n[i] )
        {
            xa_out_printf(o, "%s %s %llu", sep, names[i],
                          (unsigned long long)n[i]);
            sep = ",";
        }
    xa_out_char(o, '\n');
}

static void render(const struct xa_summary *s,
                   const struct xa_report_opts *opts, struct xa_out *o)
{
    struct ctx c = {
        .s = s, .opts = opts, .o = o, .w = measure(s),
        .total = s->span_last - s->span_first,
    };
    uint64_t trace = s->last_tsc > s->first_tsc ? s->last_tsc - s->first_tsc
                                                : 0;
    unsigned int i, j;

    xa_out_printf(o, "Total time: %.6f s (%llu cycles), %llu records, "
                  "%u physical CPUs\n", secs(s, trace),
                  (unsigned long long)trace, (unsigned long long)s->records,
                  s->nr_pcpus);
    hz_line(o, s);
    if ( s->windowed )
    {
        xa_out_printf(o, "Window: %llu.%09llu s to ",
                      (unsigned long long)(s->from_ns / 1000000000u),
                      (unsigned long long)(s->from_ns % 1000000000u));
        if ( s->to_ns == UINT64_MAX )
            xa_out_str(o, "the end");
        else
            xa_out_printf(o, "%llu.%09llu s",
                          (unsigned long long)(s->to_ns / 1000000000u),
                          (unsigned long long)(s->to_ns % 1000000000u));
        xa_out_printf(o, " (--from/--to): %.6f s of the trace; intervals "
                      "count their part inside, exits\n  and wake-to-halt "
                      "times count where they begin, cut at the end; %%trace "
                      "is of the window\n", secs(s, c.total));
    }
    if ( s->selected )
        xa_out_str(o, "Selection: only the domains and vCPUs of --domain/"
                      "--vcpu are listed (pCPUs: all)\n");
    xa_out_printf(o, "Architecture: %s", s->arch);
    if ( s->hvm_mode )
        xa_out_printf(o, "; HVM exits read as %s", s->hvm_mode_reason);
    xa_out_char(o, '\n');
    xa_out_printf(o, "Order: by %s%s (--sort); ", xa_sum_sort_name(s->sort),
                  s->sort == XA_SORT_CODE ? ", ascending" : ", descending");
    if ( s->top )
        xa_out_printf(o, "at most %u sub-rows per exit, the rest as "
                      "\"other\" (--top)\n", s->top);
    else
        xa_out_str(o, "every sub-row (--top=0)\n");

    render_overview(&c);
    render_volume(o, s);
    if ( opts && opts->report_pcpu )
        render_pcpus(&c);

    for ( i = 0; i < s->nr_domains; i++ )
    {
        const struct xa_sum_domain *d = &s->domains[i];
        char title[96];

        domain_title(title, sizeof(title), d);
        xa_out_printf(o, "|-- %s --|\n", title);
        stat_header(&c, "Runstates");
        for ( j = 0; j < XA_DRS_NR; j++ )
            if ( d->rs[j]->count )
                stat_line(&c, "   ", xa_dom_rs_name((enum xa_dom_rs)j),
                          d->rs[j], 0, 0);
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
        if ( d->pod_populate )
            pod_orders(o, "populated", d->pod_populate_order);
        if ( d->pod_reclaim )
            pod_orders(o, "reclaimed", d->pod_reclaim_order);
        if ( d->nr_vcpus > 1 && d->all )
            render_vcpu(&c, d->all, d->nr_vcpus);
        for ( j = 0; j < d->nr_vcpus; j++ )
            render_vcpu(&c, &d->vcpus[j], d->nr_vcpus);
        if ( s->eip_list )
            render_eip_list(&c, &d->intr_eips);
        if ( s->cr3_list )
            render_cr3s(&c, d);
    }
    render_legend(o);
    if ( s->diag )
        xa_report_diag_text(s->diag, o);
}

const struct xa_report_ops xa_report_text = {
    .name = "text",
    .render = render,
};
