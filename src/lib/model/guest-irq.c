/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Interrupts injected into HVM guests (x86 HVM's TRC_HVM_INJ_VIRQ, which
 * Xen on Arm writes too) by vector, and how long each guest took from an
 * interrupt to its next halt: upstream xenalyze's "wake to halt".
 */
#include <stdlib.h>

#include "model-private.h"
#include "stats/stats-private.h"

/* A vCPU's table of vectors (8 KiB), charged; NULL past the budget. */
static struct w2h *w2h_new(struct xa_model *m, struct vcpu *v)
{
    if ( !model_charge_struct(m, W2H_COST, v->p ? v->p->id : 0) ||
         !(v->w2h = calloc(1, sizeof(*v->w2h))) )
        return NULL;
    v->w2h->lo = UINT8_MAX;
    return v->w2h;
}

void girq_inject(struct xa_model *m, struct vcpu *v, unsigned int vec,
                 const struct xa_record *rec)
{
    struct w2h *w = v->w2h;
    struct w2h_vec *g;

    if ( OBS(m, guest_irq) )
        m->obs.guest_irq(m->obs.arg, v->d->id, v->id, vec, rec->tsc);
    if ( vec >= 256 )
    {
        model_diag(m, XA_DIAG_GIRQ_RANGE, rec->offset, rec->cpu);
        return;
    }
    if ( !w && !(w = w2h_new(m, v)) )
        return;
    g = &w->vec[vec];
    if ( win_in(m, rec->tsc) )
        g->count++;
    if ( w->waking && !w->wake_vector )
    {
        w->wake_vector = vec;
        g->is_wake = true;
    }
    if ( !g->start_tsc )
    {
        g->start_tsc = 1;
        w->wanting++;
        w->interrupts++;
        if ( vec < w->lo )
            w->lo = (uint8_t)vec;
    }
}

/* The interrupts injected before this entry start their clocks here. */
void girq_entry(struct vcpu *v, uint64_t tsc)
{
    struct w2h *w = v->w2h;
    unsigned int i;

    if ( !w )
        return;
    w->waking = false;
    for ( i = w->lo; i < 256 && w->wanting; i++ )
        if ( w->vec[i].start_tsc == 1 )
        {
            w->vec[i].start_tsc = tsc;
            w->wanting--;
        }
}

/*
 * The vCPU halts (running to blocked): every started clock stops.  A
 * sample belongs to the window its clock starts in, cut at --to.
 */
static void w2h_halt(struct xa_model *m, const struct vcpu *v,
                     struct w2h *w, uint64_t tsc)
{
    unsigned int i, started = 0;

    /*
     * At most interrupts clocks are started (an entry at TSC 0 may have
     * stopped one): past the last, the rest has none.
     */
    for ( i = w->lo; i < 256 && started < w->interrupts; i++ )
    {
        struct w2h_vec *g = &w->vec[i];
        uint64_t t;

        if ( !g->start_tsc )
            continue;
        started++;
        t = g->start_tsc == 1 || tsc < g->start_tsc ||
            !win_in(m, g->start_tsc) ? 0 : win_clip(m, g->start_tsc, tsc);
        if ( t && OBS(m, w2h) )
            m->obs.w2h(m->obs.arg, v->d->id, v->id, i, g->is_wake, tsc, t);
        if ( t && !g->times &&
             model_charge(m, W2H_NR * STAT_COST, v->p ? v->p->id : 0) )
            g->times = calloc(W2H_NR, sizeof(*g->times));
        if ( t && g->times )
        {
            if ( g->is_wake )
            {
                if ( w->interrupts == 1 )
                    model_stat_add(m, &g->times[W2H_WAKE_ALONE], t, 0);
                model_stat_add(m, &g->times[W2H_WAKE_ANY], t, 0);
            }
            else
                model_stat_add(m, &g->times[W2H_INTR], t, 0);
        }
        g->start_tsc = 0;
        g->is_wake = false;
    }
    w->interrupts = 0;
    w->wake_vector = 0;
    w->wanting = 0;
    w->lo = UINT8_MAX;
}

/*
 * The scheduler's side (upstream's rules): a wake from blocked starts
 * "waking" until the vCPU enters the guest; a halt (running to blocked)
 * stops every started clock.
 */
void girq_runstate(struct xa_model *m, struct vcpu *v, int old_rs,
                   int new_rs, uint64_t tsc)
{
    struct w2h *w = v->w2h;
    bool wake = new_rs == RS_RUNNABLE && old_rs == RS_BLOCKED;

    if ( !w )
    {
        /* Remember a wake even before the first injection. */
        if ( wake && (w = w2h_new(m, v)) )
            w->waking = true;
        return;
    }
    if ( wake )
        w->waking = true;
    else if ( new_rs != RS_RUNNING || old_rs != RS_RUNNABLE )
    {
        if ( w->waking && old_rs == RS_RUNNING && new_rs != RS_OFFLINE )
            w->waking = false;
        if ( new_rs == RS_BLOCKED && old_rs == RS_RUNNING && w->interrupts )
            w2h_halt(m, v, w, tsc);
    }
}

void girq_reset(struct vcpu *v)
{
    struct w2h *w = v->w2h;
    unsigned int i;

    if ( !w )
        return;
    w->waking = false;
    w->wake_vector = 0;
    w->interrupts = 0;
    w->wanting = 0;
    w->lo = UINT8_MAX;
    for ( i = 0; i < 256; i++ )
    {
        w->vec[i].start_tsc = 0;
        w->vec[i].is_wake = false;
    }
}

void girq_free(struct vcpu *v)
{
    unsigned int i, k;

    if ( !v->w2h )
        return;
    for ( i = 0; i < 256; i++ )
        if ( v->w2h->vec[i].times )
        {
            for ( k = 0; k < W2H_NR; k++ )
                xa_stat_dispose(&v->w2h->vec[i].times[k]);
            free(v->w2h->vec[i].times);
        }
    free(v->w2h);
    v->w2h = NULL;
}

