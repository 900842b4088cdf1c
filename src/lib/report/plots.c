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

#define RDTSC_EVENT     (XA_TRC_HVM_HANDLER + 0x1a)
#define IRQ_HANDLED     (XA_TRC_HW_IRQ + 0x8)
#define GRANT_MAP       (XA_TRC_MEM + 0x1)
#define EXT_VECTORS_MAX 10          /* upstream's guest-interrupt columns */

/*
 * Upstream's "HVM short summary" columns; the shadow page-fault kinds
 * (emulate, unsync, fixup, mmio, propagate) and cr3 need its shadow and
 * cr3 tracking: they stay 0 here and their exits count as other.
 */
enum {
    SHORT_EMULATE, SHORT_UNSYNC, SHORT_FIXUP, SHORT_MMIO, SHORT_PROPAGATE,
    SHORT_CR3, SHORT_VMCALL, SHORT_INTR, SHORT_HLT, SHORT_OTHER, SHORT_NR
};
#define SHORT_VCPUS 4096
#define SHORT_NO_HANDLER 0xffff
static const char *const short_names[SHORT_NR] = {
    "emulate", "unsync", "fixup", "mmio", "propagate", "cr3", "vmcall",
    "intr", "hlt", "other",
};

/* Handler records upstream does not take for an exit's handler. */
static bool short_injection(uint32_t low)
{
    return low == 0x02 || low == 0x102 || low == 0x03 || low == 0x04 ||
           low == 0x05 || low == 0x20;
}

struct plot_dom {
    unsigned int id;
    uint64_t cycles;                /* running, this interval */
};

struct xa_plots {
    struct xa_plots_opts o;
    unsigned int *columns;          /* copy of o.domains */
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
    uint64_t short_sum[SHORT_NR];
    /*
     * SHORT_SUMMARY, per vCPU of the domain (ids below SHORT_VCPUS): the
     * last handler record's id in an exit, kept across exits as upstream
     * keeps it (SHORT_NO_HANDLER: none yet), and whether an exit is open.
     */
    uint16_t *handler;
    bool *in_exit;
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
    if ( pl->o.interval == XA_INTERVAL_DOMAIN_SHORT_SUMMARY &&
         dom == pl->columns[0] && vcpu < SHORT_VCPUS )
        pl->in_exit[vcpu] = true;
    if ( !(pl->o.plots & XA_PLOT_VMEXIT_EIP) )
        return;
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
    /*
     * Upstream: by the last handler record of the vCPU's exits, at the
     * exit's end; an exit without one takes the previous exit's (upstream
     * never resets it).
     */
    if ( pl->o.interval == XA_INTERVAL_DOMAIN_SHORT_SUMMARY &&
         dom == pl->columns[0] && vcpu < SHORT_VCPUS )
    {
        unsigned int k;

        switch ( pl->handler[vcpu] )
        {
        case 0x12:
            k = SHORT_VMCALL;
            break;
        case 0x0f:
            k = SHORT_INTR;
            break;
        case 0x13:
            k = SHORT_HLT;
            break;
        default:
            k = SHORT_OTHER;
            break;
        }
        if ( exit_tsc < tsc )
            pl->short_sum[k] += tsc - exit_tsc;
        pl->in_exit[vcpu] = false;
    }
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
    if ( (p & XA_PLOT_VMEXIT_EIP) ||
         pl->o.interval == XA_INTERVAL_DOMAIN_SHORT_SUMMARY )
        obs->exit_open = on_exit_open;
    if ( (p & (XA_PLOT_EXTINT_CYCLES | XA_PLOT_IO)) ||
         pl->o.interval == XA_INTERVAL_DOMAIN_SHORT_SUMMARY )
        obs->exit_closed = on_exit_closed;
    if ( pl->o.interval == XA_INTERVAL_DOMAIN_GUEST_INTERRUPT )
        obs->guest_irq = on_guest_irq;
    if ( p & XA_PLOT_INTERRUPT_EIP )
        obs->intr = on_intr;
    if ( p & XA_PLOT_WAKE_TO_HALT )
        obs->w2h = on_w2h;
}

/* Intervals */

static void put_percent(struct xa_plots *pl, uint64_t cycles)
{
    xa_out_printf(pl->out, " %.02f",
                  (double)cycles * 100.0 / (double)pl->interval_cycles);
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
        for ( i = 0; i < SHORT_NR; i++ )
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
    /*
     * Upstream's handler of an exit: its last handler record's id, but
     * for the records about injections (pf_inject, inj_exc, inj_virq,
     * reinj_virq, intr_window), which it handles apart.
     */
    if ( pl->o.interval == XA_INTERVAL_DOMAIN_SHORT_SUMMARY &&
         (rec->event & ~0xfffu) == XA_TRC_HVM_HANDLER &&
         !short_injection(rec->event - XA_TRC_HVM_HANDLER) &&
         xa_model_pcpu_current(m, rec->cpu, &dom, &vcpu) &&
         dom == pl->columns[0] && vcpu < SHORT_VCPUS && pl->in_exit[vcpu] )
        pl->handler[vcpu] = (uint16_t)(rec->event - XA_TRC_HVM_HANDLER);
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
    case XA_INTERVAL_NONE:
    case XA_INTERVAL_DOMAIN_TOTAL_TIME:
    case XA_INTERVAL_DOMAIN_GRANT_MAPS:
    case XA_INTERVAL_DOMAIN_SHORT_SUMMARY:
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
    if ( opts->interval == XA_INTERVAL_DOMAIN_SHORT_SUMMARY )
    {
        unsigned int i;

        pl->handler = malloc(SHORT_VCPUS * sizeof(*pl->handler));
        pl->in_exit = calloc(SHORT_VCPUS, sizeof(*pl->in_exit));
        if ( !pl->handler || !pl->in_exit )
        {
            xa_plots_free(pl);
            return XA_E_NOMEM;
        }
        for ( i = 0; i < SHORT_VCPUS; i++ )
            pl->handler[i] = SHORT_NO_HANDLER;

        /* Upstream's header comes first. */
        xa_out_str(out, "time running");
        for ( i = 0; i < SHORT_NR; i++ )
        {
            xa_out_char(out, ' ');
            xa_out_str(out, short_names[i]);
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
    free(pl->handler);
    free(pl->in_exit);
    free(pl);
}
