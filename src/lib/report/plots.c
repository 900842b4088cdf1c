/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Plots and per-interval tables in upstream xenalyze's formats, so that
 * scripts written for its --scatterplot-* and --interval-* output keep
 * working.  The numbers come from the model's observer; this file only
 * selects and formats them.
 */
#include <stdlib.h>
#include <string.h>

#include <xenalyze/clock.h>
#include <xenalyze/merge.h>
#include <xenalyze/plots.h>
#include <xenalyze/summary.h>
#include <xenalyze/trace.h>

#include "util/util-private.h"

#define RDTSC_EVENT     (XA_TRC_HVM_HANDLER + 0x1a)
#define IRQ_HANDLED     (XA_TRC_HW_IRQ + 0x8)
#define GRANT_MAP       (XA_TRC_MEM + 0x1)
#define EXT_VECTORS_MAX 10          /* upstream's guest-interrupt columns */

struct plot_dom {
    unsigned int id;
    uint64_t cycles;                /* running, this interval */
};

struct cr3_rank {
    uint64_t cycles, count;
    unsigned int id;
};

/* A guest page table, by its trace-wide id (the model's cr3 events). */
struct plot_cr3 {
    uint64_t gmfn, first_tsc;
    bool listed;                    /* told NEW (not the default domain's) */
    uint64_t cycles, count;         /* loaded, this interval */
    uint64_t kind[XA_SHORT_NR];     /* CR3_SHORT_SUMMARY: exits by kind */
};

struct xa_plots {
    struct xa_plots_opts o;
    unsigned int *columns;          /* copy of o.domains */
    uint64_t *cr3_cols;             /* copy of o.cr3s */
    int *cr3_col_id;                /* CR3_SCHEDULE_TIME: each column's id */
    struct plot_cr3 *cr3;           /* by id */
    unsigned int nr_cr3, cap_cr3;
    unsigned int *cr3_list;         /* ids told NEW, in order */
    unsigned int nr_cr3_list, cap_cr3_list;
    int cr3_target;                 /* CR3_SHORT_SUMMARY: its id, or -1 */
    struct cr3_rank *cr3_order;     /* CR3_SCHEDULE_ORDERED: scratch */
    unsigned int cap_cr3_order;
    struct xa_out *out;
    uint64_t first_tsc, last_tsc;
    bool have_first;
    uint64_t win_lo, win_hi;        /* the filter's window, in TSC */

    /* Intervals */
    uint64_t interval_cycles;
    uint64_t start_tsc;
    struct plot_dom *doms;          /* in the order the model names them */
    unsigned int nr_doms, cap_doms;
    unsigned int last_dom;
    bool row_dom_seen;              /* GUEST_INTERRUPT: its domain exists */
    unsigned int vectors[EXT_VECTORS_MAX];
    uint64_t vector_counts[EXT_VECTORS_MAX];
    unsigned int nr_vectors;
    uint64_t grant_maps;            /* GRANT_MAPS: this interval */
    uint64_t running;               /* SHORT_SUMMARY: this interval */
    uint64_t short_sum[XA_SHORT_NR];    /* its exits' time, by kind */
};

/* Upstream's plotted value of each runstate (enum xa_vcpu_rs order). */
static const int runstate_graph[] = {
    [XA_VRS_RUNNING] = 3,
    [XA_VRS_RUNNABLE] = 2,
    [XA_VRS_BLOCKED] = 0,
    [XA_VRS_OFFLINE] = 1,
    [XA_VRS_LOST] = -1,
    [XA_VRS_QUEUED] = -2,
    [XA_VRS_INIT] = -2,
};

static void put_ns(struct xa_out *o, uint64_t ns)
{
    xa_out_u64(o, ns / 1000000000u);
    xa_out_char(o, '.');
    xa_out_u64z(o, ns % 1000000000u, 9);
}

/* Seconds since the first TSC; 0 before it. */
static void put_time(struct xa_plots *pl, uint64_t tsc)
{
    put_ns(pl->out, tsc > pl->first_tsc
                    ? xa_ticks_to_ns(tsc - pl->first_tsc, pl->o.hz) : 0);
}

static void put_vcpu(struct xa_plots *pl, unsigned int dom, unsigned int vcpu)
{
    xa_out_u64(pl->out, dom);
    xa_out_char(pl->out, 'v');
    xa_out_u64(pl->out, vcpu);
    xa_out_char(pl->out, ' ');
}

static struct plot_dom *dom_get(struct xa_plots *pl, unsigned int id)
{
    unsigned int i;

    if ( pl->last_dom < pl->nr_doms && pl->doms[pl->last_dom].id == id )
        return &pl->doms[pl->last_dom];
    for ( i = 0; i < pl->nr_doms; i++ )
        if ( pl->doms[i].id == id )
        {
            pl->last_dom = i;
            return &pl->doms[i];
        }
    return NULL;
}

/* Observer callbacks */

/* Whether a point of this vCPU at tsc is shown (see plots.h). */
static bool sel(const struct xa_plots *pl, unsigned int dom,
                unsigned int vcpu, uint64_t tsc)
{
    const struct xa_filter *f = pl->o.filter;

    return !f || (tsc >= pl->win_lo && tsc < pl->win_hi &&
                  xa_filter_vcpu(f, dom, vcpu));
}

static bool sel_time(const struct xa_plots *pl, uint64_t tsc)
{
    return tsc >= pl->win_lo && tsc < pl->win_hi;
}

static void on_domain_new(void *arg, unsigned int dom)
{
    struct xa_plots *pl = arg;

    if ( pl->o.filter && !xa_filter_domain(pl->o.filter, dom) )
        return;

    if ( pl->o.interval == XA_INTERVAL_DOMAIN_GUEST_INTERRUPT ||
         pl->o.interval == XA_INTERVAL_DOMAIN_GRANT_MAPS ||
         pl->o.interval == XA_INTERVAL_DOMAIN_SHORT_SUMMARY )
    {
        if ( dom == pl->columns[0] )
            pl->row_dom_seen = true;
        return;
    }
    if ( pl->o.interval == XA_INTERVAL_NONE || dom_get(pl, dom) )
        return;
    if ( pl->nr_doms == pl->cap_doms )
    {
        unsigned int cap = pl->cap_doms ? pl->cap_doms * 2 : 16;
        struct plot_dom *d = realloc(pl->doms, cap * sizeof(*d));

        if ( !d )
        {
            pl->out->error = XA_E_NOMEM;
            return;
        }
        pl->doms = d;
        pl->cap_doms = cap;
    }
    pl->doms[pl->nr_doms].id = dom;
    pl->doms[pl->nr_doms++].cycles = 0;
}

static void on_runstate(void *arg, unsigned int dom, unsigned int vcpu,
                        enum xa_vcpu_rs old_rs, enum xa_vcpu_rs new_rs,
                        uint64_t tsc, uint64_t duration)
{
    struct xa_plots *pl = arg;
    struct xa_out *o = pl->out;

    if ( !sel(pl, dom, vcpu, tsc) )
        return;
    if ( pl->o.plots & XA_PLOT_RUNSTATE )
    {
        put_vcpu(pl, dom, vcpu);
        put_time(pl, tsc);
        xa_out_char(o, ' ');
        xa_out_i64(o, runstate_graph[old_rs]);
        xa_out_char(o, '\n');
        put_vcpu(pl, dom, vcpu);
        put_time(pl, tsc);
        xa_out_char(o, ' ');
        xa_out_i64(o, runstate_graph[new_rs]);
        xa_out_char(o, '\n');
    }
    if ( !duration )
        return;
    if ( pl->o.plots & XA_PLOT_RUNSTATE_TIME )
    {
        put_vcpu(pl, dom, vcpu);
        put_time(pl, tsc);
        xa_out_char(o, ' ');
        put_ns(o, xa_ticks_to_ns(duration, pl->o.hz));
        xa_out_char(o, '\n');
    }
    if ( old_rs == XA_VRS_RUNNING &&
         pl->o.interval == XA_INTERVAL_DOMAIN_SHORT_SUMMARY &&
         dom == pl->columns[0] )
        pl->running += duration;
    if ( old_rs == XA_VRS_RUNNING &&
         (pl->o.interval == XA_INTERVAL_DOMAIN_TOTAL_TIME ||
          pl->o.interval == XA_INTERVAL_DOMAIN_TOTAL_TIME_ALL) )
    {
        struct plot_dom *d = dom_get(pl, dom);

        if ( d )
            d->cycles += duration;
    }
}

static void on_schedule(void *arg, unsigned int dom, unsigned int vcpu,
                        int old_pcpu, unsigned int pcpu, uint64_t tsc)
{
    struct xa_plots *pl = arg;

    if ( dom == XA_DOM_IDLE || dom == XA_DOM_DEFAULT ||
         !sel(pl, dom, vcpu, tsc) )
        return;
    if ( old_pcpu >= 0 )
    {
        put_vcpu(pl, dom, vcpu);
        put_time(pl, tsc);
        xa_out_char(pl->out, ' ');
        xa_out_u64(pl->out, (unsigned int)old_pcpu);
        xa_out_char(pl->out, '\n');
    }
    put_vcpu(pl, dom, vcpu);
    put_time(pl, tsc);
    xa_out_char(pl->out, ' ');
    xa_out_u64(pl->out, pcpu);
    xa_out_char(pl->out, '\n');
}

static void on_exit_open(void *arg, unsigned int dom, unsigned int vcpu,
                         uint32_t code, uint64_t tsc, uint64_t rip)
{
    struct xa_plots *pl = arg;

    (void)code;
    if ( !sel(pl, dom, vcpu, tsc) )
        return;
    /* Upstream prints the rip as a signed number. */
    put_time(pl, tsc);
    xa_out_char(pl->out, ' ');
    xa_out_i64(pl->out, (int64_t)rip);
    xa_out_char(pl->out, '\n');
}

static void on_exit_closed(void *arg, unsigned int dom, unsigned int vcpu,
                           uint32_t code, uint8_t sub_kind, uint64_t sub_val,
                           uint64_t exit_tsc, uint64_t tsc, uint64_t rip)
{
    struct xa_plots *pl = arg;
    struct xa_out *o = pl->out;

    (void)code;
    (void)rip;
    if ( !sel(pl, dom, vcpu, exit_tsc) )
        return;
    if ( (pl->o.plots & XA_PLOT_EXTINT_CYCLES) && sub_kind == XA_SUB_VECTOR &&
         sub_val == pl->o.extint_vector && exit_tsc <= tsc )
    {
        xa_out_char(o, 'd');
        put_vcpu(pl, dom, vcpu);
        put_time(pl, tsc);
        xa_out_char(o, ' ');
        xa_out_u64(o, tsc - exit_tsc);
        xa_out_char(o, '\n');
    }
    /* Upstream plots port reads only, at the exit's time. */
    if ( (pl->o.plots & XA_PLOT_IO) && sub_kind == XA_SUB_IO_R &&
         sub_val == pl->o.io_port )
    {
        put_time(pl, exit_tsc);
        xa_out_char(o, ' ');
        xa_out_i64(o, (int64_t)(tsc - exit_tsc));
        xa_out_char(o, '\n');
    }
}

/* Upstream's HVM short summary of a domain: its exits' time by kind. */
/* One point at the exit's time. */
static void put_point(struct xa_plots *pl, uint64_t tsc, long long y)
{
    put_time(pl, tsc);
    xa_out_char(pl->out, ' ');
    if ( y < 0 )
        xa_out_char(pl->out, '-');
    xa_out_u64(pl->out, y < 0 ? (uint64_t)-y : (uint64_t)y);
    xa_out_char(pl->out, '\n');
}

/*
 * Upstream's shadow_{emulate,fixup}_postprocess(): at the exit's time, -10
 * for an early unshadow, 0 for a pre-allocation unpin, 2 (with cr3_ids:
 * the guest page table's id, if one is loaded) for a promotion.
 */
static void unpin_promote(struct xa_plots *pl, const struct xa_exit_event *ev)
{
    if ( !sel(pl, ev->dom, ev->vcpu, ev->exit_tsc) )
        return;
    if ( ev->shadow & XA_EXIT_SH_EARLY_UNSHADOW )
        put_point(pl, ev->exit_tsc, -10);
    if ( ev->shadow & XA_EXIT_SH_UNPIN )
        put_point(pl, ev->exit_tsc, 0);
    if ( !(ev->shadow & XA_EXIT_SH_PROMOTE) )
        return;
    if ( !pl->o.cr3_ids )
        put_point(pl, ev->exit_tsc, 2);
    else if ( ev->cr3_id >= 0 )
        put_point(pl, ev->exit_tsc, ev->cr3_id);
}

static void on_exit_done(void *arg, const struct xa_exit_event *ev)
{
    struct xa_plots *pl = arg;

    if ( ev->shadow && (pl->o.plots & XA_PLOT_UNPIN_PROMOTE) )
        unpin_promote(pl, ev);
    if ( pl->o.interval == XA_INTERVAL_DOMAIN_SHORT_SUMMARY &&
         ev->dom == pl->columns[0] && ev->short_kind < XA_SHORT_NR &&
         ev->exit_tsc < ev->tsc && sel(pl, ev->dom, ev->vcpu, ev->exit_tsc) )
        pl->short_sum[ev->short_kind] += ev->tsc - ev->exit_tsc;
}

/* Upstream: at the exit's time, the rip's low 48 bits. */
static void on_intr(void *arg, unsigned int dom, unsigned int vcpu,
                    unsigned int vector, uint64_t exit_tsc, uint64_t rip)
{
    struct xa_plots *pl = arg;

    if ( vector != pl->o.eip_vector || !sel(pl, dom, vcpu, exit_tsc) )
        return;
    xa_out_char(pl->out, 'd');
    put_vcpu(pl, dom, vcpu);
    put_time(pl, exit_tsc);
    xa_out_char(pl->out, ' ');
    xa_out_u64(pl->out, rip & ((1ull << 48) - 1));
    xa_out_char(pl->out, '\n');
}

/* Upstream: wake-to-halt samples only, at the halt. */
static void on_w2h(void *arg, unsigned int dom, unsigned int vcpu,
                   unsigned int vector, bool is_wake, uint64_t tsc,
                   uint64_t cycles)
{
    struct xa_plots *pl = arg;

    (void)vector;
    if ( !is_wake || !sel(pl, dom, vcpu, tsc) )
        return;
    put_time(pl, tsc);
    xa_out_char(pl->out, ' ');
    xa_out_u64(pl->out, cycles);
    xa_out_char(pl->out, '\n');
}

static void on_guest_irq(void *arg, unsigned int dom, unsigned int vcpu,
                         unsigned int vector, uint64_t tsc)
{
    struct xa_plots *pl = arg;
    unsigned int i;

    if ( !sel(pl, dom, vcpu, tsc) )
        return;
    /* Upstream lists every domain's vectors, in the order first seen. */
    for ( i = 0; i < pl->nr_vectors; i++ )
        if ( pl->vectors[i] == vector )
            break;
    if ( i == pl->nr_vectors )
    {
        if ( i == EXT_VECTORS_MAX )
            return;
        pl->vectors[pl->nr_vectors++] = vector;
    }
    if ( dom == pl->columns[0] )
        pl->vector_counts[i]++;
}

static bool is_cr3_interval(enum xa_interval_kind k)
{
    return k == XA_INTERVAL_CR3_SCHEDULE_TIME ||
           k == XA_INTERVAL_CR3_SCHEDULE_TIME_ALL ||
           k == XA_INTERVAL_CR3_SCHEDULE_ORDERED ||
           k == XA_INTERVAL_CR3_SHORT_SUMMARY;
}

size_t xa_plots_cr3_bytes(const struct xa_plots_opts *opts)
{
    if ( !is_cr3_interval(opts->interval) )
        return 0;
    /* Each array at most twice its length. */
    return 2 * (sizeof(struct plot_cr3) +
                (opts->interval == XA_INTERVAL_CR3_SCHEDULE_TIME_ALL
                 ? sizeof(unsigned int) : 0) +
                (opts->interval == XA_INTERVAL_CR3_SCHEDULE_ORDERED
                 ? sizeof(struct cr3_rank) : 0));
}

/* The entry of id, made (empty) if new; NULL when out of memory. */
static struct plot_cr3 *cr3_entry(struct xa_plots *pl, int id)
{
    if ( id < 0 )
        return NULL;
    if ( (unsigned int)id >= pl->cap_cr3 )
    {
        unsigned int cap = pl->cap_cr3 ? pl->cap_cr3 : 64;
        struct plot_cr3 *c;

        while ( cap <= (unsigned int)id )
            cap *= 2;
        c = realloc(pl->cr3, cap * sizeof(*c));
        if ( !c )
        {
            pl->out->error = XA_E_NOMEM;
            return NULL;
        }
        memset(c + pl->cap_cr3, 0, (cap - pl->cap_cr3) * sizeof(*c));
        pl->cr3 = c;
        pl->cap_cr3 = cap;
    }
    if ( (unsigned int)id >= pl->nr_cr3 )
        pl->nr_cr3 = (unsigned int)id + 1;
    return &pl->cr3[id];
}

/* A value is first loaded: upstream's interval_cr3_value_check(). */
static void cr3_new(struct xa_plots *pl, const struct xa_cr3_event *ev)
{
    struct plot_cr3 *c = cr3_entry(pl, ev->id);
    unsigned int i;

    if ( !c )
        return;
    c->gmfn = ev->gmfn;
    c->first_tsc = ev->first_tsc;
    c->listed = true;
    switch ( pl->o.interval )
    {
    case XA_INTERVAL_CR3_SCHEDULE_TIME:
        /* The first value of a listed gmfn (upstream: fatal after). */
        for ( i = 0; i < pl->o.nr_cr3s; i++ )
            if ( pl->cr3_cols[i] == ev->gmfn && pl->cr3_col_id[i] < 0 )
                pl->cr3_col_id[i] = ev->id;
        break;
    case XA_INTERVAL_CR3_SCHEDULE_TIME_ALL:
        if ( xa_grow(&pl->cr3_list, &pl->cap_cr3_list,
                     sizeof(*pl->cr3_list), pl->nr_cr3_list + 1, 64) )
        {
            pl->out->error = XA_E_NOMEM;
            return;
        }
        pl->cr3_list[pl->nr_cr3_list++] = (unsigned int)ev->id;
        break;
    case XA_INTERVAL_CR3_SHORT_SUMMARY:
        /* Upstream takes the last value of the gmfn. */
        if ( ev->gmfn == pl->cr3_cols[0] )
            pl->cr3_target = ev->id;
        break;
    case XA_INTERVAL_NONE:
    case XA_INTERVAL_DOMAIN_TOTAL_TIME:
    case XA_INTERVAL_DOMAIN_TOTAL_TIME_ALL:
    case XA_INTERVAL_DOMAIN_GUEST_INTERRUPT:
    case XA_INTERVAL_DOMAIN_GRANT_MAPS:
    case XA_INTERVAL_DOMAIN_SHORT_SUMMARY:
    case XA_INTERVAL_CR3_SCHEDULE_ORDERED:
    default:
        break;
    }
}

static void on_cr3(void *arg, const struct xa_cr3_event *ev)
{
    struct xa_plots *pl = arg;
    struct plot_cr3 *c;

    switch ( ev->what )
    {
    case XA_CR3_SWITCH:
        if ( !(pl->o.plots & XA_PLOT_CR3_SWITCH) ||
             !sel(pl, ev->dom, ev->vcpu, ev->tsc) )
            return;
        put_time(pl, ev->tsc);
        xa_out_char(pl->out, ' ');
        if ( pl->o.cr3_ids )
            xa_out_u64(pl->out, ev->id >= 0 ? (unsigned int)ev->id : 0);
        else
            xa_out_u64(pl->out, ev->gmfn);
        xa_out_char(pl->out, '\n');
        return;
    case XA_CR3_NEW:
        if ( is_cr3_interval(pl->o.interval) )
            cr3_new(pl, ev);
        return;
    case XA_CR3_TIME:
        if ( !is_cr3_interval(pl->o.interval) ||
             !sel(pl, ev->dom, ev->vcpu, ev->tsc) ||
             !(c = cr3_entry(pl, ev->id)) )
            return;
        if ( !c->listed )
        {
            c->gmfn = ev->gmfn;
            c->first_tsc = ev->first_tsc;
        }
        c->cycles += ev->cycles;
        c->count++;
        return;
    case XA_CR3_KIND:
        if ( pl->o.interval == XA_INTERVAL_CR3_SHORT_SUMMARY &&
             ev->id == pl->cr3_target && ev->short_kind < XA_SHORT_NR &&
             sel(pl, ev->dom, ev->vcpu, ev->tsc) &&
             (c = cr3_entry(pl, ev->id)) )
            c->kind[ev->short_kind] += ev->cycles;
        return;
    default:
        return;
    }
}

void xa_plots_observer(struct xa_plots *pl, struct xa_model_observer *obs)
{
    unsigned int p = pl->o.plots;

    memset(obs, 0, sizeof(*obs));
    obs->arg = pl;
    if ( pl->o.interval != XA_INTERVAL_NONE )
        obs->domain_new = on_domain_new;
    if ( (p & (XA_PLOT_RUNSTATE | XA_PLOT_RUNSTATE_TIME)) ||
         pl->o.interval == XA_INTERVAL_DOMAIN_SHORT_SUMMARY ||
         pl->o.interval == XA_INTERVAL_DOMAIN_TOTAL_TIME ||
         pl->o.interval == XA_INTERVAL_DOMAIN_TOTAL_TIME_ALL )
        obs->runstate = on_runstate;
    if ( p & XA_PLOT_PCPU )
        obs->schedule = on_schedule;
    if ( p & XA_PLOT_VMEXIT_EIP )
        obs->exit_open = on_exit_open;
    if ( p & (XA_PLOT_EXTINT_CYCLES | XA_PLOT_IO) )
        obs->exit_closed = on_exit_closed;
    if ( pl->o.interval == XA_INTERVAL_DOMAIN_SHORT_SUMMARY ||
         (p & XA_PLOT_UNPIN_PROMOTE) )
        obs->exit_done = on_exit_done;
    if ( pl->o.interval == XA_INTERVAL_DOMAIN_GUEST_INTERRUPT )
        obs->guest_irq = on_guest_irq;
    if ( p & XA_PLOT_INTERRUPT_EIP )
        obs->intr = on_intr;
    if ( p & XA_PLOT_WAKE_TO_HALT )
        obs->w2h = on_w2h;
    if ( (p & XA_PLOT_CR3_SWITCH) || is_cr3_interval(pl->o.interval) )
        obs->cr3 = on_cr3;
}

/* Intervals */

static void put_percent(struct xa_plots *pl, uint64_t cycles)
{
    xa_out_printf(pl->out, " %.02f",
                  (double)cycles * 100.0 / (double)pl->interval_cycles);
}

/* Upstream's cr3_time_compare(): most time first, then most loads. */
static int cmp_cr3_time(const void *a, const void *b)
{
    const struct cr3_rank *x = a, *y = b;

    if ( x->cycles != y->cycles )
        return x->cycles < y->cycles ? 1 : -1;
    if ( x->count != y->count )
        return x->count < y->count ? 1 : -1;
    return x->id < y->id ? -1 : 1;
}

/*
 * --interval-cr3-schedule-ordered: the row's time, then each value loaded
 * in the interval, most first, "gmfn: percent *" (* : first loaded in
 * it), one a line.  (Upstream crashes before its first row.)
 */
static void cr3_ordered_row(struct xa_plots *pl)
{
    unsigned int i, n = 0;
    bool any = false;

    for ( i = 0; i < pl->nr_cr3; i++ )
        if ( pl->cr3[i].cycles )
            pl->cr3_order[n++] = (struct cr3_rank){
                pl->cr3[i].cycles, pl->cr3[i].count, i };
    if ( n )
        qsort(pl->cr3_order, n, sizeof(*pl->cr3_order), cmp_cr3_time);
    put_time(pl, pl->start_tsc);
    for ( i = 0; i < n; i++ )
    {
        struct plot_cr3 *c = &pl->cr3[pl->cr3_order[i].id];

        xa_out_printf(pl->out, " %8llx: %.02f %c\n",
                      (unsigned long long)c->gmfn,
                      (double)(c->cycles * 100) /
                      (double)pl->interval_cycles,
                      c->first_tsc > pl->start_tsc ? '*' : ' ');
        any = true;
    }
    if ( !any )
        xa_out_char(pl->out, '\n');
    for ( i = 0; i < pl->nr_cr3; i++ )
        pl->cr3[i].cycles = pl->cr3[i].count = 0;
}

/* --interval-cr3-short-summary: upstream's percentages of its time. */
static void cr3_short_row(struct xa_plots *pl)
{
    struct plot_cr3 *c = &pl->cr3[pl->cr3_target];
    unsigned int i;

    put_time(pl, pl->start_tsc);
    put_percent(pl, c->cycles);
    for ( i = 0; i < XA_SHORT_NR; i++ )
    {
        xa_out_printf(pl->out, " %.02f", (double)(c->kind[i] * 100) /
                                         (double)c->cycles);
        c->kind[i] = 0;
    }
    c->cycles = c->count = 0;
}

static void cr3_percent(struct xa_plots *pl, unsigned int id)
{
    put_percent(pl, pl->cr3[id].cycles);
    pl->cr3[id].cycles = pl->cr3[id].count = 0;
}

static void interval_row(struct xa_plots *pl)
{
    unsigned int i;

    switch ( pl->o.interval )
    {
    case XA_INTERVAL_DOMAIN_TOTAL_TIME:
        put_time(pl, pl->start_tsc);
        for ( i = 0; i < pl->o.nr_domains; i++ )
        {
            struct plot_dom *d = dom_get(pl, pl->columns[i]);

            if ( d )
            {
                put_percent(pl, d->cycles);
                d->cycles = 0;
            }
            else
                xa_out_str(pl->out, " 0.0");
        }
        break;
    case XA_INTERVAL_DOMAIN_TOTAL_TIME_ALL:
        put_time(pl, pl->start_tsc);
        for ( i = 0; i < pl->nr_doms; i++ )
        {
            put_percent(pl, pl->doms[i].cycles);
            pl->doms[i].cycles = 0;
        }
        break;
    case XA_INTERVAL_DOMAIN_SHORT_SUMMARY:
        if ( !pl->row_dom_seen )
            return;
        put_time(pl, pl->start_tsc);
        put_percent(pl, pl->running);
        pl->running = 0;
        for ( i = 0; i < XA_SHORT_NR; i++ )
        {
            put_percent(pl, pl->short_sum[i]);
            pl->short_sum[i] = 0;
        }
        break;
    case XA_INTERVAL_DOMAIN_GRANT_MAPS:
        if ( !pl->row_dom_seen )
            return;
        put_time(pl, pl->start_tsc);
        xa_out_char(pl->out, ' ');
        xa_out_u64(pl->out, pl->grant_maps);
        pl->grant_maps = 0;
        break;
    case XA_INTERVAL_DOMAIN_GUEST_INTERRUPT:
        if ( !pl->row_dom_seen )
            return;
        put_time(pl, pl->start_tsc);
        for ( i = 0; i < pl->nr_vectors; i++ )
        {
            xa_out_char(pl->out, ' ');
            xa_out_u64(pl->out, pl->vector_counts[i]);
            pl->vector_counts[i] = 0;
        }
        break;
    case XA_INTERVAL_CR3_SCHEDULE_TIME:
        put_time(pl, pl->start_tsc);
        for ( i = 0; i < pl->o.nr_cr3s; i++ )
            if ( pl->cr3_col_id[i] >= 0 )
                cr3_percent(pl, (unsigned int)pl->cr3_col_id[i]);
            else
                xa_out_str(pl->out, " 0.0");
        break;
    case XA_INTERVAL_CR3_SCHEDULE_TIME_ALL:
        put_time(pl, pl->start_tsc);
        for ( i = 0; i < pl->nr_cr3_list; i++ )
            cr3_percent(pl, pl->cr3_list[i]);
        break;
    case XA_INTERVAL_CR3_SCHEDULE_ORDERED:
        if ( xa_grow(&pl->cr3_order, &pl->cap_cr3_order,
                     sizeof(*pl->cr3_order), pl->nr_cr3, 64) )
        {
            pl->out->error = XA_E_NOMEM;
            return;
        }
        cr3_ordered_row(pl);
        return;
    case XA_INTERVAL_CR3_SHORT_SUMMARY:
        if ( pl->cr3_target < 0 )
            return;
        cr3_short_row(pl);
        break;
    case XA_INTERVAL_NONE:
    default:
        return;
    }
    xa_out_char(pl->out, '\n');
}

/*
 * The rows of the intervals that end before tsc.  Only the first of them
 * can hold anything: the others passed without a record.  More than
 * XA_PLOTS_GAP_ROWS of those (a TSC that leapt ahead: 2^63 cycles are 10^12
 * one-second rows) are one comment line, counted as INTERVAL_GAP.
 */
static void interval_rows(struct xa_plots *pl, const struct xa_record *rec)
{
    uint64_t tsc = rec->tsc;
    uint64_t ic = pl->interval_cycles;
    uint64_t k = (tsc - pl->start_tsc - 1) / ic;    /* rows due */

    if ( pl->win_hi != UINT64_MAX )
    {
        uint64_t left = pl->start_tsc < pl->win_hi
                        ? (pl->win_hi - pl->start_tsc - 1) / ic + 1 : 0;

        if ( k > left )
            k = left;
    }
    if ( k > XA_PLOTS_GAP_ROWS + 1 )
    {
        interval_row(pl);
        pl->start_tsc += ic;
        if ( pl->o.interval != XA_INTERVAL_DOMAIN_GUEST_INTERRUPT ||
             pl->row_dom_seen )
        {
            xa_out_str(pl->out, "# gap: ");
            xa_out_u64(pl->out, k - 1);
            xa_out_str(pl->out, " intervals without a record, from ");
            put_time(pl, pl->start_tsc);
            xa_out_str(pl->out, " s\n");
        }
        pl->start_tsc += (k - 1) * ic;
        if ( pl->o.diag )
            xa_diag_add(pl->o.diag, XA_DIAG_INTERVAL_GAP, rec->offset,
                        rec->cpu);
        return;
    }
    for ( ; k; k-- )
    {
        interval_row(pl);
        pl->start_tsc += ic;
        xa_out_maybe_flush(pl->out);
    }
}

void xa_plots_record(struct xa_plots *pl, const struct xa_record *rec,
                     const struct xa_model *m)
{
    uint32_t ev = rec->event & ~(uint32_t)XA_TRC_64_FLAG;
    unsigned int dom, vcpu;
    uint64_t tsc = pl->last_tsc;    /* a record without one: the last */

    if ( rec->event == XA_EV_CPU_END )
        return;
    /* What the previous record made the observers write goes out now. */
    xa_out_maybe_flush(pl->out);
    if ( rec->has_tsc == 1 )
    {
        tsc = pl->last_tsc = rec->tsc;
        if ( !pl->have_first )
        {
            pl->have_first = true;
            pl->first_tsc = pl->start_tsc = tsc;
            if ( pl->o.filter )
            {
                xa_filter_tsc_window(pl->o.filter, tsc, pl->o.hz,
                                     &pl->win_lo, &pl->win_hi);
                pl->start_tsc = pl->win_lo;
            }
        }
        else if ( pl->o.interval != XA_INTERVAL_NONE &&
                  tsc >= pl->start_tsc &&
                  tsc - pl->start_tsc > pl->interval_cycles )
            interval_rows(pl, rec);
    }

    if ( (pl->o.plots & XA_PLOT_RDTSC) && ev == RDTSC_EVENT &&
         rec->nr_extra >= 2 &&
         xa_model_pcpu_current(m, rec->cpu, &dom, &vcpu) &&
         dom != XA_DOM_IDLE && sel(pl, dom, vcpu, tsc) )
    {
        put_vcpu(pl, dom, vcpu);
        put_time(pl, tsc);
        xa_out_char(pl->out, ' ');
        xa_out_u64(pl->out, rec->extra[0] | (uint64_t)rec->extra[1] << 32);
        xa_out_char(pl->out, '\n');
    }
    /*
     * Upstream: grant maps done for the domain (the record's), while a
     * vCPU is known to run on the pCPU.
     */
    if ( pl->o.interval == XA_INTERVAL_DOMAIN_GRANT_MAPS &&
         ev == GRANT_MAP && rec->nr_extra >= 1 &&
         rec->extra[0] == pl->columns[0] && sel_time(pl, tsc) &&
         xa_model_pcpu_current(m, rec->cpu, &dom, &vcpu) )
        pl->grant_maps++;
    if ( (pl->o.plots & XA_PLOT_IRQ) && ev == IRQ_HANDLED &&
         rec->nr_extra >= 1 && sel_time(pl, tsc) )
    {
        xa_out_char(pl->out, 'i');
        xa_out_hex(pl->out, rec->extra[0]);
        xa_out_char(pl->out, ' ');
        put_time(pl, tsc);
        xa_out_char(pl->out, ' ');
        xa_out_u64(pl->out, rec->cpu);
        xa_out_char(pl->out, '\n');
    }
}

void xa_plots_finish(struct xa_plots *pl)
{
    unsigned int i;

    switch ( pl->o.interval )
    {
    case XA_INTERVAL_DOMAIN_TOTAL_TIME_ALL:
        xa_out_str(pl->out, "time");
        for ( i = 0; i < pl->nr_doms; i++ )
        {
            xa_out_char(pl->out, ' ');
            xa_out_u64(pl->out, pl->doms[i].id);
        }
        xa_out_char(pl->out, '\n');
        break;
    case XA_INTERVAL_DOMAIN_GUEST_INTERRUPT:
        xa_out_str(pl->out, "time running");
        for ( i = 0; i < pl->nr_vectors; i++ )
        {
            xa_out_char(pl->out, ' ');
            xa_out_u64(pl->out, pl->vectors[i]);
        }
        xa_out_char(pl->out, '\n');
        break;
    case XA_INTERVAL_CR3_SCHEDULE_TIME_ALL:
        xa_out_str(pl->out, "time");
        for ( i = 0; i < pl->nr_cr3_list; i++ )
            xa_out_printf(pl->out, " %llx",
                          (unsigned long long)pl->cr3[pl->cr3_list[i]].gmfn);
        xa_out_char(pl->out, '\n');
        break;
    case XA_INTERVAL_NONE:
    case XA_INTERVAL_DOMAIN_TOTAL_TIME:
    case XA_INTERVAL_DOMAIN_GRANT_MAPS:
    case XA_INTERVAL_DOMAIN_SHORT_SUMMARY:
    case XA_INTERVAL_CR3_SCHEDULE_TIME:
    case XA_INTERVAL_CR3_SCHEDULE_ORDERED:
    case XA_INTERVAL_CR3_SHORT_SUMMARY:
    default:
        break;
    }
}

int xa_plots_new(const struct xa_plots_opts *opts, struct xa_out *out,
                 struct xa_plots **plp)
{
    struct xa_plots *pl;

    if ( !opts->hz )
        return XA_E_INVAL;
    if ( (opts->interval == XA_INTERVAL_DOMAIN_TOTAL_TIME ||
          opts->interval == XA_INTERVAL_DOMAIN_GUEST_INTERRUPT ||
          opts->interval == XA_INTERVAL_DOMAIN_GRANT_MAPS ||
          opts->interval == XA_INTERVAL_DOMAIN_SHORT_SUMMARY) &&
         !opts->nr_domains )
        return XA_E_INVAL;
    if ( (opts->interval == XA_INTERVAL_CR3_SCHEDULE_TIME ||
          opts->interval == XA_INTERVAL_CR3_SHORT_SUMMARY) &&
         !opts->nr_cr3s )
        return XA_E_INVAL;
    pl = calloc(1, sizeof(*pl));
    if ( !pl )
        return XA_E_NOMEM;
    pl->o = *opts;
    pl->win_hi = UINT64_MAX;
    pl->out = out;
    /* Upstream: milliseconds times the rate, truncated. */
    pl->interval_cycles = (uint64_t)((unsigned __int128)opts->interval_ms *
                                   opts->hz / 1000u);
    if ( opts->interval != XA_INTERVAL_NONE && !pl->interval_cycles )
    {
        free(pl);
        return XA_E_INVAL;
    }
    if ( opts->nr_domains )
    {
        pl->columns = malloc(opts->nr_domains * sizeof(*pl->columns));
        if ( !pl->columns )
        {
            free(pl);
            return XA_E_NOMEM;
        }
        memcpy(pl->columns, opts->domains,
               opts->nr_domains * sizeof(*pl->columns));
    }
    pl->o.domains = pl->columns;
    pl->cr3_target = -1;
    if ( opts->nr_cr3s )
    {
        unsigned int i;

        pl->cr3_cols = malloc(opts->nr_cr3s * sizeof(*pl->cr3_cols));
        pl->cr3_col_id = malloc(opts->nr_cr3s * sizeof(*pl->cr3_col_id));
        if ( !pl->cr3_cols || !pl->cr3_col_id )
        {
            xa_plots_free(pl);
            return XA_E_NOMEM;
        }
        for ( i = 0; i < opts->nr_cr3s; i++ )
        {
            pl->cr3_cols[i] = opts->cr3s[i];
            pl->cr3_col_id[i] = -1;
        }
    }
    pl->o.cr3s = pl->cr3_cols;
    if ( opts->interval == XA_INTERVAL_DOMAIN_SHORT_SUMMARY ||
         opts->interval == XA_INTERVAL_CR3_SHORT_SUMMARY )
    {
        unsigned int i;

        /* Upstream's header comes first. */
        xa_out_str(out, opts->interval == XA_INTERVAL_CR3_SHORT_SUMMARY
                        ? "time guest" : "time running");
        for ( i = 0; i < XA_SHORT_NR; i++ )
        {
            xa_out_char(out, ' ');
            xa_out_str(out, xa_short_kind_name((enum xa_short_kind)i));
        }
        xa_out_char(out, '\n');
    }
    *plp = pl;
    return XA_OK;
}

void xa_plots_free(struct xa_plots *pl)
{
    if ( !pl )
        return;
    free(pl->columns);
    free(pl->doms);
    free(pl->cr3_cols);
    free(pl->cr3_col_id);
    free(pl->cr3);
    free(pl->cr3_list);
    free(pl->cr3_order);
    free(pl);
}
