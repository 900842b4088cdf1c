/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Model: domains, vCPUs and physical CPUs along the merged stream.
 *
 * Runstate accounting follows upstream xenalyze's rules, so that numbers
 * agree with what Xen developers know: a vCPU starts accounting when it
 * is first seen running; an interval is counted when the vCPU leaves the
 * state; a continue-running record splits a running interval; at the end
 * of the trace the vCPU running on each physical CPU is closed at that
 * CPU's last TSC; a lost-records record puts the vCPUs that may have been
 * scheduled in the gap into the "lost" state until they are seen running.
 *
 * Guest exits use one generic pairing: an architecture opens an exit
 * (model_exit_open), adds a breakdown key from the detail records that
 * follow (model_exit_sub), and closes it at the next guest entry; the
 * scheduler closes it early when the vCPU becomes runnable, so that time
 * waiting for a CPU is not charged to the exit.
 */
#include <stdlib.h>
#include <string.h>

#include <xenalyze/clock.h>
#include <xenalyze/merge.h>

#include "model-private.h"
#include "stats/stats-private.h"
#include "util/util-private.h"

static inline bool is_runstate_change(uint32_t ev)
{
    return (ev & ~(uint32_t)XA_TRC_RUNSTATE_MASK) ==
           XA_TRC_SCHED_RUNSTATE_CHANGE;
}

/* A vCPU of no type yet: an injection's key is a vector until it has one. */
static const struct arch_ops untyped_ops = { .virq_mask = 0xff };

int xa_model_new(const struct xa_catalog *cat, struct xa_diag *diag,
                 const struct xa_model_opts *opts, struct xa_model **out)
{
    struct xa_model *m = calloc(1, sizeof(*m));
    unsigned int i;

    if ( !m )
        return XA_E_NOMEM;
    m->cat = cat;
    m->arch[VT_NONE] = &untyped_ops;
    m->arch[VT_HVM] = &x86_hvm_ops;
    m->arch[VT_PV] = &x86_pv_ops;
    m->arch[VT_ARM] = &arm_ops;
    m->diag = diag;
    if ( opts )
        m->opts = *opts;
    switch ( m->opts.hvm_mode )
    {
    case XA_HVM_MODE_FORCE_SVM:
        m->fmt.hvm_mode = XA_HVM_SVM;
        break;
    case XA_HVM_MODE_FORCE_VMX:
        m->fmt.hvm_mode = XA_HVM_VMX;
        break;
    case XA_HVM_MODE_AUTO:
    default:
        m->fmt.hvm_mode = m->opts.hvm_hint;
        break;
    }
    for ( i = 0; i < 256; i++ )
        m->seen[i].id = UINT32_MAX;
    for ( i = 0; i < 64; i++ )
        m->hvm_owned[i].id = UINT32_MAX;
    m->mem_budget = m->opts.memory_budget ? m->opts.memory_budget
                                          : XA_MODEL_BUDGET;
    m->key_budget = m->mem_budget / 2;
    m->subs_max = SUBS_MAX;
    m->win_hi = UINT64_MAX;
    xa_filter_init(&m->filter);
    model_window_update(m);
    *out = m;
    return XA_OK;
}

static void exit_tab_free(struct exit_tab *t)
{
    unsigned int i, j;

    if ( !t )
        return;
    for ( i = 0; i < t->nr; i++ )
    {
        xa_stat_dispose(&t->slots[i].st);
        for ( j = 0; j < t->slots[i].nr_subs; j++ )
            xa_stat_dispose(&t->slots[i].subs[j].st);
        free(t->slots[i].subs);
        xa_idx_free(&t->slots[i].sub_idx);
    }
    free(t->slots);
    xa_idx_free(&t->high);
    free(t);
}

void model_pcpu_counts_free(struct pcpu *p)
{
    xa_stat_dispose(&p->running);
    xa_stat_dispose(&p->idle);
    xa_stat_dispose(&p->lost);
    xa_stat_init(&p->running);
    xa_stat_init(&p->idle);
    xa_stat_init(&p->lost);
    p->records = 0;
    memset(p->volume, 0, sizeof(p->volume));
}

void model_vcpu_counts_free(struct vcpu *v)
{
    unsigned int i, k;

    for ( i = 0; i < XA_RS_NR; i++ )
        xa_stat_dispose(&v->rs[i]);
    memset(v->rs, 0, sizeof(v->rs));
    exit_tab_free(v->exits);
    v->exits = NULL;
    count_tab_free(&v->hypercalls);
    memset(&v->hypercalls, 0, sizeof(v->hypercalls));
    count_tab_free(&v->pv_events);
    memset(&v->pv_events, 0, sizeof(v->pv_events));
    eip_tab_free(&v->intr_eips);
    xa_stat_dispose(&v->stay_all);
    xa_stat_init(&v->stay_all);
    for ( i = 0; i < v->nr_stays; i++ )
        xa_stat_dispose(&v->stays[i].st);
    free(v->stays);
    v->stays = NULL;
    v->nr_stays = v->cap_stays = 0;
    xa_idx_free(&v->stay_idx);
    if ( v->w2h )
        for ( i = 0; i < 256; i++ )
        {
            struct w2h_vec *g = &v->w2h->vec[i];

            g->count = 0;
            if ( !g->times )
                continue;
            for ( k = 0; k < W2H_NR; k++ )
                xa_stat_dispose(&g->times[k]);
            free(g->times);
            g->times = NULL;
        }
}

void model_vcpu_free(struct vcpu *v)
{
    if ( !v )
        return;
    model_vcpu_counts_free(v);
    girq_free(v);
    free(v);
}

static void domains_free(struct domain *d)
{
    struct domain *next;
    unsigned int j;

    for ( ; d; d = next )
    {
        next = d->hnext;
        for ( j = 0; j < d->nr_vcpus; j++ )
            model_vcpu_free(d->vcpus[j]);
        for ( j = 0; j < XA_DRS_NR; j++ )
            xa_stat_dispose(&d->rs[j]);
        free(d->vcpus);
        cr3_tab_free(&d->cr3);
        free(d);
    }
}

void xa_model_free(struct xa_model *m)
{
    unsigned int i;

    if ( !m )
        return;
    model_summary_free(m->summary);
    for ( i = 0; i < DOM_HASH; i++ )
        domains_free(m->dom_hash[i]);
    domains_free(m->retired);
    for ( i = 0; i < m->nr_pcpus; i++ )
    {
        struct pcpu *p = m->pcpus[i];

        if ( !p )
            continue;
        model_pcpu_counts_free(p);
        free(p->held);
        free(p);
    }
    free(m->pcpus);
    free(m->losable);
    free(m->cut_state.w);
    free(m->fix);
    free(m);
}

void model_stat_said(struct xa_model *m, int rc, unsigned int cpu)
{
    if ( rc & XA_STAT_FOLDED )
        model_diag(m, XA_DIAG_MEMORY_BUDGET, UINT64_MAX, cpu);
    if ( rc > 0 && (rc & XA_STAT_SATURATED) )
        model_diag(m, XA_DIAG_SUM_SATURATED, UINT64_MAX, cpu);
}

int count_tab_add(struct xa_model *m, struct count_tab *t, uint32_t key,
                  uint64_t n)
{
    struct xa_idx_ent *e;
    uint32_t h;
    int folded = 0;

    if ( t->nr >= COUNT_KEYS_MAX && key != COUNT_KEY_OTHER )
    {
        /* Full: COUNT_KEYS_MAX keys, then other. */
        key = COUNT_KEY_OTHER;
        folded = 1;
    }
    h = xa_hash32(key);
    if ( xa_idx_reserve(&t->idx) )
        return XA_E_NOMEM;
    for ( e = xa_idx_first(&t->idx, h); e->val; e = xa_idx_next(&t->idx, e) )
        if ( e->hash == h && t->keys[e->val - 1] == key )
        {
            t->counts[e->val - 1] += n;
            return folded;
        }
    if ( key != COUNT_KEY_OTHER &&
         !model_charge(m, COUNT_KEY_COST, 0) )
        return count_tab_add(m, t, COUNT_KEY_OTHER, n) < 0 ? XA_E_NOMEM : 0;
    if ( t->nr == t->cap )
    {
        unsigned int cap = t->cap ? t->cap * 2 : 8;
        uint32_t *k = realloc(t->keys, cap * sizeof(*k));
        uint64_t *c;

        if ( !k )
            return XA_E_NOMEM;
        t->keys = k;
        c = realloc(t->counts, cap * sizeof(*c));
        if ( !c )
            return XA_E_NOMEM;
        t->counts = c;
        t->cap = cap;
    }
    e->val = t->nr + 1;
    e->hash = h;
    t->idx.nr++;
    t->keys[t->nr] = key;
    t->counts[t->nr++] = n;
    return folded;
}

void count_tab_free(struct count_tab *t)
{
    free(t->keys);
    free(t->counts);
    xa_idx_free(&t->idx);
}

/* Domains and vCPUs */

struct domain *model_domain_find(struct xa_model *m, unsigned int did)
{
    struct domain **bucket = &m->dom_hash[did % DOM_HASH], *d;

    for ( d = *bucket; d; d = d->hnext )
        if ( d->id == did )
            return d;
    if ( m->nr_domains >= MODEL_DOMAINS_MAX ||
         !model_charge_struct(m, DOMAIN_COST, 0) )
        return NULL;
    d = calloc(1, sizeof(*d));
    if ( !d )
        return NULL;
    d->id = did;
    d->hnext = *bucket;
    *bucket = d;
    m->nr_domains++;
    if ( OBS(m, domain_new) )
        m->obs.domain_new(m->obs.arg, did);
    return d;
}

struct vcpu *model_vcpu_find(struct xa_model *m, unsigned int did,
                             unsigned int vid)
{
    struct domain *d;
    struct vcpu *v;

    if ( vid > MODEL_VCPU_ID_MAX && did != XA_DOM_IDLE &&
         did != XA_DOM_DEFAULT )
        return NULL;
    d = model_domain_find(m, did);
    if ( !d )
        return NULL;
    if ( xa_grow(&d->vcpus, &d->nr_vcpus, sizeof(*d->vcpus), vid, 4) )
        return NULL;
    v = d->vcpus[vid];
    if ( v )
        return v;
    /* vCPUs are bounded by number and by the budget. */
    if ( m->nr_vcpus_all >= MODEL_VCPUS_MAX ||
         !model_charge_struct(m, VCPU_COST, 0) )
        return NULL;
    v = calloc(1, sizeof(*v));
    if ( !v )
        return NULL;
    m->nr_vcpus_all++;
    v->d = d;
    v->id = vid;
    v->state = RS_INIT;
    v->last_old.wrong = RS_INIT;
    v->cr3_cur = -1;
    v->short_handler = CR3_NO_HANDLER;
    d->vcpus[vid] = v;
    if ( !d->in_state[RS_INIT]++ )
        d->live |= 1u << RS_INIT;
    return v;
}

/* One of d's vCPUs goes from state a to state b. */
static inline void domain_move(struct domain *d, enum rs a, enum rs b)
{
    if ( !--d->in_state[a] )
        d->live &= (uint8_t)~(1u << a);
    if ( !d->in_state[b]++ )
        d->live |= (uint8_t)(1u << b);
}

/*
 * model_vcpu_find() for a vCPU that exists, in line: the domain's chain
 * and the vCPU's slot, no call and no frame; else that function.
 */
static inline struct vcpu *vcpu_get(struct xa_model *m, unsigned int did,
                                    unsigned int vid)
{
    const struct domain *d;

    for ( d = m->dom_hash[did % DOM_HASH]; d; d = d->hnext )
        if ( d->id == did )
        {
            if ( vid < d->nr_vcpus && d->vcpus[vid] )
                return d->vcpus[vid];
            break;
        }
    return model_vcpu_find(m, did, vid);
}

/* Physical CPUs: created on their first record, running the default vCPU. */
struct pcpu *model_pcpu_get(struct xa_model *m, unsigned int cpu)
{
    struct pcpu *p;

    if ( xa_grow(&m->pcpus, &m->nr_pcpus, sizeof(*m->pcpus), cpu, 8) )
        return NULL;
    p = m->pcpus[cpu];
    if ( !p )
    {
        /* Past the budget, the CPU's records are not modelled. */
        if ( !model_charge_struct(m, PCPU_COST, cpu) )
            return NULL;
        p = calloc(1, sizeof(*p));
        if ( !p )
            return NULL;
        p->id = cpu;
        p->slow = true;
        m->pcpus[cpu] = p;
    }
    if ( !p->present )
    {
        struct vcpu *v = model_vcpu_find(m, XA_DOM_DEFAULT, cpu);

        if ( v )
            model_vcpu_named(m, v);
        p->present = true;
        pcpu_slow_update(p);
        p->seen_valid_schedule = true;
        if ( v )
        {
            domain_move(v->d, v->state, RS_RUNNING);
            v->state = RS_RUNNING;
            v->activated = true;
            v->p = p;
            p->current = v;
        }
    }
    return p;
}

/* Accounting */

/*
 * A domain's state from the states its vCPUs are in (domain.live): lost
 * when every vCPU not in INIT is lost (or none is).
 */
static enum xa_dom_rs domain_classify(unsigned int live)
{
    const unsigned int waiting = 1u << RS_BLOCKED | 1u << RS_OFFLINE;

    if ( !(live & ((1u << RS_INIT) - 1) & ~(1u << RS_LOST)) )
        return XA_DRS_LOST;
    if ( live & 1u << RS_RUNNING )
    {
        if ( live & 1u << RS_RUNNABLE )
            return XA_DRS_CONCURRENCY_HAZARD;
        if ( live & waiting )
            return XA_DRS_PARTIAL_RUN;
        return XA_DRS_FULL_RUN;
    }
    if ( live & 1u << RS_RUNNABLE )
    {
        if ( live & waiting )
            return XA_DRS_PARTIAL_CONTENTION;
        return XA_DRS_FULL_CONTENTION;
    }
    return XA_DRS_BLOCKED;
}

static const enum xa_rs rs_report[] = {
    [RS_RUNNING] = XA_RS_RUNNING,
    [RS_RUNNABLE] = XA_RS_RUNNABLE,
    [RS_BLOCKED] = XA_RS_BLOCKED,
    [RS_OFFLINE] = XA_RS_OFFLINE,
    [RS_LOST] = XA_RS_LOST,
};

/* What a vCPU that becomes runnable was doing, by its previous state. */
static const uint8_t runnable_from[RS_INIT + 1] = {
    [RS_RUNNING] = RUNNABLE_PREEMPT,
    [RS_RUNNABLE] = RUNNABLE_OTHER,
    [RS_BLOCKED] = RUNNABLE_WAKE,
    [RS_OFFLINE] = RUNNABLE_WAKE,
    [RS_LOST] = RUNNABLE_OTHER,
    [RS_QUEUED] = RUNNABLE_OTHER,
    [RS_INIT] = RUNNABLE_OTHER,
};

/*
 * The observers of runstate_update(), out of its frame: the summary has
 * none, and their arguments would cost the common change registers.
 */
__attribute__((noinline, cold))
static void runstate_tell(struct xa_model *m, const struct vcpu *v,
                          enum rs new_rs, uint64_t tsc)
{
    m->obs.runstate(m->obs.arg, v->d->id, v->id, (enum xa_vcpu_rs)v->state,
                    (enum xa_vcpu_rs)new_rs, tsc,
                    v->state_tsc > 0 && v->state_tsc < tsc
                    ? tsc - v->state_tsc : 0);
}

__attribute__((noinline, cold))
static void runstate_tell_done(struct xa_model *m, const struct vcpu *v,
                               enum xa_rs kind, uint64_t c)
{
    struct xa_runstate_event ev = {
        .dom = v->d->id, .vcpu = v->id,
        .state = rs_report[v->state], .runnable = kind,
        .start_tsc = !m->win_whole && v->state_tsc < m->win_lo
                     ? m->win_lo : v->state_tsc,
        .cycles = c,
        .first_tsc = m->first_tsc, .trace_hz = m->clock_hz,
        .incarnation = v->d->incarnation,
    };

    m->obs.runstate_done(m->obs.arg, &ev);
}

/*
 * A vCPU changes state at tsc: the interval it leaves is counted, for it
 * and for its domain, whose class it may change.  In line where the
 * scheduler's records come (a call and its frame per change cost the
 * summary 4% of the model's instructions), runstate_update() elsewhere.
 */
static inline __attribute__((always_inline))
void runstate_update_inline(struct xa_model *m, struct vcpu *v,
                            enum rs new_rs, uint64_t tsc)
{
    struct domain *d = v->d;
    uint64_t c;

    if ( OBS(m, runstate) )
        runstate_tell(m, v, new_rs, tsc);
    if ( v->state_tsc > 0 && v->state_tsc < tsc && v->state <= RS_LOST &&
         (c = win_clip(m, v->state_tsc, tsc)) )
    {
        enum xa_rs kind = XA_RS_NR;

        model_stat_add(m, &v->rs[rs_report[v->state]], c, 0);
        if ( v->state == RS_RUNNABLE && v->runnable != RUNNABLE_NONE )
        {
            kind = (enum xa_rs)(XA_RS_RUNNABLE_WAKE + v->runnable -
                                RUNNABLE_WAKE);
            model_stat_add(m, &v->rs[kind], c, 0);
        }
        if ( OBS(m, runstate_done) )
            runstate_tell_done(m, v, kind, c);
    }

    v->runnable = new_rs == RS_RUNNABLE
                  ? (enum runnable_sub)runnable_from[v->state]
                  : RUNNABLE_NONE;
    domain_move(d, v->state, new_rs);
    v->state = new_rs;
    v->state_tsc = tsc;
    if ( new_rs != RS_RUNNING && new_rs != RS_LOST && !v->losable_listed &&
         d->id != XA_DOM_DEFAULT &&
         !xa_grow(&m->losable, &m->cap_losable, sizeof(*m->losable),
                  m->nr_losable, 64) )
    {
        m->losable[m->nr_losable++] = v;
        v->losable_listed = true;
    }

    if ( d->id == XA_DOM_DEFAULT )
        return;
    if ( d->state_tsc > 0 && d->state_tsc < tsc &&
         (c = win_clip(m, d->state_tsc, tsc)) )
        model_stat_add(m, &d->rs[d->state], c, 0);
    d->state = domain_classify(d->live);
    d->state_tsc = tsc;
}

static void runstate_update(struct xa_model *m, struct vcpu *v,
                            enum rs new_rs, uint64_t tsc)
{
    runstate_update_inline(m, v, new_rs, tsc);
}

/* A pCPU's running or idle interval ends (in line: every switch). */
static inline __attribute__((always_inline))
void pcpu_time_update(struct xa_model *m, struct pcpu *p, uint64_t tsc)
{
    if ( __builtin_expect(p->time_unknown, 0) )
    {
        model_time_defer(m, p, tsc);
        return;
    }
    /* As for runstates, a zero-length interval is not an interval. */
    if ( p->time_tsc && p->current )
    {
        uint64_t c = tsc > p->time_tsc ? tsc - p->time_tsc : 0, in;

        if ( c && (in = win_clip(m, p->time_tsc, tsc)) )
            model_stat_add(m, p->current->d->id == XA_DOM_IDLE
                              ? &p->idle : &p->running, in, p->id);
        if ( OBS(m, pcpu_time) )
            m->obs.pcpu_time(m->obs.arg, p->id, tsc, c);
    }
    p->time_tsc = 0;
}

void model_pcpu_time_end(struct xa_model *m, struct pcpu *p, uint64_t tsc)
{
    pcpu_time_update(m, p, tsc);
}

static void exit_discard(struct xa_model *m, struct vcpu *v, uint64_t tsc)
{
    if ( v->exit_open && OBS(m, exit_discarded) )
        m->obs.exit_discarded(m->obs.arg, v->d->id, v->id, tsc);
    v->exit_open = false;
}

static void lose_vcpu(struct xa_model *m, struct vcpu *v, uint64_t tsc)
{
    exit_discard(m, v, tsc);
    girq_reset(v);
    runstate_update(m, v, RS_LOST, tsc);
}

/* The guest vCPU a pCPU last ran, for records Xen writes after the switch. */
static inline void pcpu_switched_out(struct pcpu *p, struct vcpu *v)
{
    if ( v && v->d->id != XA_DOM_IDLE )
        p->switched_out = v;
}

static void vcpu_prev_update(struct xa_model *m, struct pcpu *p,
                             struct vcpu *prev, uint64_t tsc, enum rs new_rs)
{
    /*
     * A vCPU that leaves a CPU it was not known to run on (TSC skew or
     * lost records): do not account the interval.
     */
    if ( prev->p != p || p->current != prev || prev->state != RS_RUNNING )
        prev->state_tsc = 0;
    if ( p )
    {
        pcpu_time_update(m, p, tsc);
        pcpu_switched_out(p, prev);
        p->current = NULL;
    }
    runstate_update_inline(m, prev, new_rs, tsc);
}

/* v's stay on pCPU cpu, found or added (charged); NULL past the budget. */
struct stay *model_stay_slot(struct xa_model *m, struct vcpu *v,
                             unsigned int cpu)
{
    struct stay *s = NULL;
    struct xa_idx_ent *h;
    uint32_t hv = xa_hash32(cpu);

    if ( xa_idx_reserve(&v->stay_idx) )
        return NULL;
    for ( h = xa_idx_first(&v->stay_idx, hv); h->val && !s;
          h = s ? h : xa_idx_next(&v->stay_idx, h) )
        if ( h->hash == hv && v->stays[h->val - 1].cpu == cpu )
            s = &v->stays[h->val - 1];
    if ( s )
        return s;
    if ( !model_charge(m, STAY_COST, cpu) )
        return NULL;
    if ( v->nr_stays == v->cap_stays )
    {
        unsigned int cap = v->cap_stays ? v->cap_stays * 2 : 4;
        struct stay *n = realloc(v->stays, cap * sizeof(*n));

        if ( !n )
            return NULL;
        v->stays = n;
        v->cap_stays = cap;
    }
    h->val = v->nr_stays + 1;
    h->hash = hv;
    v->stay_idx.nr++;
    s = &v->stays[v->nr_stays++];
    s->cpu = cpu;
    xa_stat_init(&s->st);
    return s;
}

/*
 * A vCPU leaves the pCPU it arrived on at pcpu_tsc (it migrates, or the
 * trace ends): the stay counts for that pCPU.  (Upstream counts it for the
 * pCPU it moves to.)  A cut model does not know when a vCPU it found on
 * a pCPU in its warm-up arrived there: the stay is left to the model
 * that absorbs it (model-cut.c).
 */
void model_stay_end(struct xa_model *m, struct vcpu *v, uint64_t tsc)
{
    struct stay *s;
    uint64_t c;

    if ( __builtin_expect(v->pcpu_unknown && m->cut, 0) )
    {
        model_stay_defer(m, v, tsc);
        return;
    }
    if ( !v->pcpu_tsc || !v->p || tsc < v->pcpu_tsc )
        return;
    c = win_clip(m, v->pcpu_tsc, tsc);
    /* A stay of length 0 inside the window counts, as before. */
    if ( !c && !(tsc == v->pcpu_tsc && win_in(m, tsc)) )
        return;
    model_stat_add(m, &v->stay_all, c, v->p->id);
    s = model_stay_slot(m, v, v->p->id);
    if ( s )
        model_stat_add(m, &s->st, c, v->p->id);
}

static void vcpu_next_update(struct xa_model *m, struct pcpu *p,
                             struct vcpu *next, uint64_t tsc)
{
    pcpu_switched_out(p, p->current);
    if ( p->current )
    {
        /*
         * After a lost-records gap the CPU's vCPU may be stale: lose it.
         * Otherwise two vCPUs ran at once: trust the newer record.
         */
        if ( p->seen_valid_schedule )
            model_diag(m, XA_DIAG_RUNSTATE_MISMATCH, UINT64_MAX,
                        p->id);
        runstate_update(m, p->current, RS_LOST, tsc);
        p->current = NULL;
    }
    if ( __builtin_expect(next->act_unknown, 0) && m->cut )
        model_act_defer(m, p, next, tsc);
    else if ( next->activated )
    {
        if ( next->state == RS_RUNNING && next->d->id != XA_DOM_DEFAULT )
            next->state_tsc = 0;
        if ( next->p != p )
        {
            model_stay_end(m, next, tsc);
            next->pcpu_tsc = tsc;
            next->pcpu_unknown = false;
        }
    }
    else
    {
        next->activated = true;
        next->act_unknown = false;
        next->pcpu_tsc = tsc;
        /* In a warm-up: it may have arrived long before. */
        next->pcpu_unknown = m->spec && !m->cut;
    }

    runstate_update_inline(m, next, RS_RUNNING, tsc);
    if ( OBS(m, schedule) )
        m->obs.schedule(m->obs.arg, next->d->id, next->id,
                        next->p ? (int)next->p->id : -1, p->id, tsc);
    next->p = p;
    p->current = next;
    p->time_tsc = tsc;
    p->time_unknown = false;
    p->seen_valid_schedule = true;
    if ( OBS(m, pcpu_run) )
        m->obs.pcpu_run(m->obs.arg, p->id, next->d->id, next->id, tsc);
}

/* Start of day: a vCPU in INIT leaves it when it is first seen running. */
static void vcpu_start(struct xa_model *m, struct pcpu *p, struct vcpu *v,
                       enum rs old_rs, enum rs new_rs, uint64_t tsc)
{
    if ( old_rs == RS_RUNNING )
    {
        if ( !p->current || p->current->d->id != XA_DOM_DEFAULT )
            return;
        model_taint(m);         /* p->first_tsc: the warm-up's */
        runstate_update(m, p->current, RS_QUEUED, p->first_tsc);
        p->current = NULL;
    }
    if ( new_rs != RS_RUNNING )
        return;
    if ( old_rs == RS_RUNNING )
    {
        model_taint(m);
        tsc = p->first_tsc;     /* it has been running since the start */
    }
    runstate_update(m, v, RS_RUNNING, tsc);
    p->time_tsc = tsc;
    p->time_unknown = false;
    p->current = v;
    v->p = p;
    /* In a warm-up: the trace before may have activated it. */
    v->act_unknown = m->spec && !m->cut;
    if ( OBS(m, pcpu_run) )
        m->obs.pcpu_run(m->obs.arg, p->id, v->d->id, v->id, tsc);
}

/*
 * TSC skew between pCPUs.  A vCPU that moves from pCPU q to pCPU p leaves
 * q (q's record) before it arrives on p (p's record); when p's TSC is
 * behind q's, the merge gives p's record first, while the vCPU still runs
 * on q.  p's records are then held, in order, until the vCPU leaves q
 * (skew_check()), and taken from there: every interval that begins and
 * ends on one pCPU (running, exits, the pCPU's running and idle time) is
 * measured on that pCPU's clock, exactly; the wait between q's record and
 * p's, which the skew hides, is not accounted.  Counted as TSC_SKEW; more
 * than HOLD_RECORDS_MAX records, or HOLD_PCPUS_MAX pCPUs held, are taken
 * as they come (LIMIT_SKEW_HOLD).
 */
static void hold_add(struct xa_model *m, struct pcpu *p,
                     const struct xa_record *rec)
{
    if ( xa_grow(&p->held, &p->cap_held, sizeof(*p->held), p->nr_held,
                 16) )
    {
        model_diag(m, XA_DIAG_LIMIT_SKEW_HOLD, rec->offset, rec->cpu);
        return;     /* no memory: this record is not modelled */
    }
    p->held[p->nr_held++] = *rec;
}

static bool skew_hold(struct xa_model *m, struct pcpu *p, struct vcpu *v,
                      const struct xa_record *rec)
{
    if ( m->no_hold || v->p->held_for )
        return false;
    if ( m->nr_holding == HOLD_PCPUS_MAX )
    {
        model_diag(m, XA_DIAG_LIMIT_SKEW_HOLD, rec->offset, rec->cpu);
        return false;
    }
    hold_add(m, p, rec);
    if ( !p->nr_held )
        return false;
    p->held_for = v;
    pcpu_slow_update(p);
    m->holding[m->nr_holding++] = p;
    model_diag(m, XA_DIAG_TSC_SKEW, rec->offset, rec->cpu);
    return true;
}

static void model_feed_full(struct xa_model *m, const struct xa_record *rec);
static void sched_runstate(struct xa_model *m, struct pcpu *p,
                           const struct xa_record *rec);

/* Takes p's held records, in order (some may hold p again). */
static void hold_release(struct xa_model *m, struct pcpu *p)
{
    struct xa_record *buf = p->held;
    unsigned int i, n = p->nr_held;

    for ( i = 0; i < m->nr_holding && m->holding[i] != p; i++ )
        ;
    if ( i < m->nr_holding )
        m->holding[i] = m->holding[--m->nr_holding];
    p->held_for = NULL;
    pcpu_slow_update(p);
    p->held = NULL;
    p->nr_held = p->cap_held = 0;
    for ( i = 0; i < n; i++ )
    {
        if ( p->held_for )
            hold_add(m, p, &buf[i]);
        else if ( i == 0 )
            sched_runstate(m, p, &buf[0]);  /* counted when it came */
        else
            model_feed_full(m, &buf[i]);
    }
    free(buf);
}

/* Releases the pCPUs held for a vCPU no longer running elsewhere. */
static void skew_check(struct xa_model *m)
{
    unsigned int i = 0;

    while ( i < m->nr_holding )
    {
        struct pcpu *p = m->holding[i];
        struct vcpu *v = p->held_for;

        if ( v->state == RS_RUNNING && v->p && v->p != p )
        {
            i++;
            continue;
        }
        hold_release(m, p);
        i = 0;      /* the list may have changed */
    }
}

static void sched_runstate_do(struct xa_model *m, struct pcpu *p,
                              const struct xa_record *rec)
{
    bool cont = (rec->event & 0xf) == 2;
    enum rs old_rs, new_rs;
    struct vcpu *v;
    unsigned int did, vid;

    if ( rec->nr_extra < 1 )
        return;
    did = rec->extra[0] >> 16;
    vid = rec->extra[0] & 0xffff;
    if ( cont )
        old_rs = new_rs = RS_RUNNING;
    else
    {
        old_rs = (enum rs)((rec->event >> 8) & 3);
        new_rs = (enum rs)((rec->event >> 4) & 3);
    }
    v = vcpu_get(m, did, vid);
    if ( !v )
    {
        model_diag(m, XA_DIAG_LIMIT_DOMAINS, rec->offset, rec->cpu);
        return;
    }
    model_vcpu_named(m, v);

    if ( v->state == RS_INIT )
    {
        vcpu_start(m, p, v, old_rs, new_rs, rec->tsc);
        return;
    }
    /* Ahead of its leaving the pCPU it runs on: TSC skew (above). */
    if ( v->state == RS_RUNNING && v->p && v->p != p && !cont &&
         old_rs != RS_RUNNING && skew_hold(m, p, v, rec) )
        return;

    /* Waiting for a CPU is not part of the exit that was open. */
    if ( new_rs == RS_RUNNABLE && v->exit_open )
        model_exit_close(m, v, rec->tsc, XA_CLOSED_BY_RUNNABLE);

    if ( (v->type == VT_HVM || v->type == VT_ARM) && v->state != RS_LOST )
        girq_runstate(m, v, old_rs, new_rs, rec->tsc);

    if ( v->state != old_rs )
    {
        if ( v->state == RS_LOST )
        {
            if ( new_rs != RS_RUNNING )
                return;
        }
        else
        {
            /*
             * The tracked state disagrees with the record: usually TSC
             * skew between CPUs.  Trust the record, but do not account an
             * interval whose start is uncertain.
             */
            model_diag(m, XA_DIAG_RUNSTATE_MISMATCH, rec->offset,
                        rec->cpu);
            if ( v->state == RS_RUNNING )
                return;
        }
    }

    if ( cont )
    {
        if ( v->state == RS_LOST )
        {
            if ( p->current )
                vcpu_prev_update(m, p, p->current, rec->tsc, RS_LOST);
            vcpu_next_update(m, p, v, rec->tsc);
        }
        runstate_update(m, v, RS_RUNNING, rec->tsc);
    }
    else if ( old_rs == RS_RUNNING || v->state == RS_RUNNING )
    {
        vcpu_prev_update(m, old_rs == RS_RUNNING ? p : v->p, v, rec->tsc,
                         new_rs);
    }
    else if ( new_rs == RS_RUNNING )
        vcpu_next_update(m, p, v, rec->tsc);
    else
    {
        if ( new_rs == RS_RUNNABLE &&
             (v->state == RS_BLOCKED || v->state == RS_OFFLINE) &&
             OBS(m, wake) )
            m->obs.wake(m->obs.arg, v->d->id, v->id, p->id, rec->tsc);
        runstate_update_inline(m, v, new_rs, rec->tsc);
    }
}

__attribute__((noinline))
static void sched_runstate(struct xa_model *m, struct pcpu *p,
                           const struct xa_record *rec)
{
    sched_runstate_do(m, p, rec);
    if ( m->nr_holding )
        skew_check(m);
}

/* Lost records: the gap begins at first_tsc, ends at the record's TSC. */
static void lost_begin(struct xa_model *m, struct pcpu *p,
                       const struct xa_record *rec)
{
    uint64_t first;
    unsigned int i, n;

    if ( rec->nr_extra < 4 )
        return;
    first = rec->extra[2] | ((uint64_t)rec->extra[3] << 32);
    if ( first > rec->tsc )
        first = rec->tsc;
    /*
     * A loss that began before the trace's first record (the buffers
     * overflowed before xentrace read them, and -D dropped what was there)
     * counts from time 0: the trace says nothing about before it.
     */
    if ( first < m->first_tsc )
    {
        model_taint(m);         /* m->first_tsc: the warm-up's */
        first = m->first_tsc;
    }

    if ( p->current )
    {
        if ( m->opts.cr3 && p->current->type == VT_HVM )
            cr3_lost(m, p->current, rec->tsc, rec->cpu);
        if ( p->current->exit_open )
            model_diag(m, XA_DIAG_EXITS_DISCARDED, rec->offset,
                        rec->cpu);
        exit_discard(m, p->current, first);
        vcpu_prev_update(m, p, p->current, first, RS_LOST);
    }
    if ( !p->lost_active )
        m->lost_cpus++;
    p->lost_active = true;
    p->lost_tsc = first;
    if ( OBS(m, lost) )
        m->obs.lost(m->obs.arg, p->id, true, first, 0);

    /*
     * Any vCPU not running may have been scheduled here in the gap; one
     * lost already stays lost (its interval goes on).
     */
    n = m->nr_losable;
    m->nr_losable = 0;
    for ( i = 0; i < n; i++ )
    {
        struct vcpu *v = m->losable[i];

        v->losable_listed = false;
        if ( v->state != RS_RUNNING && v->state != RS_INIT &&
             v->state != RS_LOST && !v->d->retired )
            lose_vcpu(m, v, first);
    }
    p->lost_domain_valid = true;
    p->lost_did = rec->extra[1] & 0xffff;
    p->lost_vid = rec->extra[1] >> 16;
    p->lost_end_tsc = rec->tsc;
    p->lost_end_pending = true;
    pcpu_slow_update(p);
}

static void lost_end(struct xa_model *m, struct pcpu *p)
{
    uint64_t tsc = p->lost_end_tsc;

    p->lost_end_pending = false;
    pcpu_slow_update(p);
    if ( !p->lost_active )
        return;
    if ( tsc > p->lost_tsc && win_clip(m, p->lost_tsc, tsc) )
        model_stat_add(m, &p->lost, win_clip(m, p->lost_tsc, tsc), p->id);
    if ( OBS(m, lost) )
        m->obs.lost(m->obs.arg, p->id, false, tsc,
                    tsc > p->lost_tsc ? tsc - p->lost_tsc : 0);
    if ( p->lost_domain_valid )
    {
        struct vcpu *v = model_vcpu_find(m, p->lost_did, p->lost_vid);

        if ( v )
            model_vcpu_named(m, v);
        p->lost_domain_valid = false;
        if ( v && !p->current )
        {
            vcpu_next_update(m, p, v, tsc);
            p->seen_valid_schedule = false;
        }
    }
    p->lost_active = false;
    if ( m->lost_cpus )
        m->lost_cpus--;
}

/* Exits */

struct exit_slot *model_exit_slot(struct xa_model *m, struct vcpu *v,
                                  uint32_t code)
{
    struct exit_tab *t = v->exits;
    struct xa_idx_ent *h = NULL;

    if ( !t )
    {
        /* Per vCPU, with its other rows: bounded by number. */
        t = v->exits = calloc(1, sizeof(*t));
        if ( !t )
            return NULL;
    }
    if ( code < EXIT_DIRECT )
    {
        if ( t->index[code] )
            return &t->slots[t->index[code] - 1];
    }
    else
    {
        uint32_t hv;

        if ( t->nr_high >= EXIT_HIGH_MAX && code != XA_SUM_EXIT_OTHER )
        {
            model_diag(m, XA_DIAG_LIMIT_KEYS, UINT64_MAX,
                       v->p ? v->p->id : 0);
            code = XA_SUM_EXIT_OTHER;
        }
        hv = xa_hash32(code);
        if ( xa_idx_reserve(&t->high) )
            return NULL;
        for ( h = xa_idx_first(&t->high, hv); h->val;
              h = xa_idx_next(&t->high, h) )
            if ( h->hash == hv && t->slots[h->val - 1].code == code )
                return &t->slots[h->val - 1];
    }

    /* A new code: the budget's, or the other row's. */
    if ( code != XA_SUM_EXIT_OTHER &&
         !model_charge(m, EXIT_SLOT_COST, v->p ? v->p->id : 0) )
        return model_exit_slot(m, v, XA_SUM_EXIT_OTHER);
    if ( t->nr == t->cap )
    {
        unsigned int cap = t->cap ? t->cap * 2 : 8;
        struct exit_slot *s = realloc(t->slots, cap * sizeof(*s));

        if ( !s )
            return NULL;
        t->slots = s;
        t->cap = cap;
    }
    memset(&t->slots[t->nr], 0, sizeof(t->slots[t->nr]));
    t->slots[t->nr].code = code;
    xa_stat_init(&t->slots[t->nr].st);
    if ( code < EXIT_DIRECT )
        t->index[code] = (uint16_t)(t->nr + 1);
    else
    {
        h->val = t->nr + 1;
        h->hash = xa_hash32(code);
        t->high.nr++;
        t->nr_high += code != XA_SUM_EXIT_OTHER;
    }
    return &t->slots[t->nr++];
}

struct sub_slot *model_sub_slot(struct xa_model *m, struct exit_slot *e,
                                uint8_t kind, uint64_t val)
{
    struct xa_idx_ent *h;
    uint32_t hv;

    if ( e->last_sub < e->nr_subs && e->subs[e->last_sub].kind == kind &&
         e->subs[e->last_sub].val == val )
        return &e->subs[e->last_sub];
    /*
     * By the index: the keys of one exit can be SUBS_MAX addresses (EPT
     * violations, MMIO), each sub_slot half a KiB apart.
     */
    hv = xa_hash32(val ^ (uint64_t)kind << 56);
    if ( xa_idx_reserve(&e->sub_idx) )
        return NULL;
    for ( h = xa_idx_first(&e->sub_idx, hv); h->val;
          h = xa_idx_next(&e->sub_idx, h) )
        if ( h->hash == hv && e->subs[h->val - 1].kind == kind &&
             e->subs[h->val - 1].val == val )
        {
            e->last_sub = h->val - 1;
            return &e->subs[e->last_sub];
        }
    if ( e->nr_subs >= m->subs_max && kind != XA_SUB_OTHER )
        return model_sub_slot(m, e, XA_SUB_OTHER, 0);
    if ( kind != XA_SUB_OTHER &&
         !model_charge(m, SUB_SLOT_COST, 0) )
        return model_sub_slot(m, e, XA_SUB_OTHER, 0);
    if ( e->nr_subs == e->cap_subs )
    {
        unsigned int cap = e->cap_subs ? e->cap_subs * 2 : 4;
        struct sub_slot *s = realloc(e->subs, cap * sizeof(*s));

        if ( !s )
            return NULL;
        e->subs = s;
        e->cap_subs = cap;
    }
    h->val = e->nr_subs + 1;
    h->hash = hv;
    e->sub_idx.nr++;
    e->subs[e->nr_subs].kind = kind;
    e->subs[e->nr_subs].val = val;
    xa_stat_init(&e->subs[e->nr_subs].st);
    e->last_sub = e->nr_subs;
    return &e->subs[e->nr_subs++];
}

void model_exit_open(struct xa_model *m, struct vcpu *v,
                     const struct xa_record *rec, uint32_t code)
{
    if ( v->exit_open )
    {
        model_diag(m, XA_DIAG_EXIT_WITHOUT_ENTRY, rec->offset, rec->cpu);
        exit_discard(m, v, rec->tsc);
    }
    v->arch_init = true;
    v->exit_open = true;
    v->exit_tsc = rec->tsc;
    v->exit_code = code;
    v->exit_pcpu = rec->cpu;
    v->sub_kind = XA_SUB_NONE;
    if ( OBS(m, exit_open) )
        m->obs.exit_open(m->obs.arg, v->d->id, v->id, code, rec->tsc,
                         v->exit_rip);
}

/* Tells exit_done observers of a closed exit (counted: c cycles). */
static void exit_done(struct xa_model *m, const struct vcpu *v, uint64_t tsc,
                      enum xa_exit_closed_by by, bool counted, uint64_t c)
{
    struct xa_exit_event ev = {
        .dom = v->d->id, .vcpu = v->id, .pcpu = v->exit_pcpu,
        .kind = (enum xa_vcpu_kind)v->type, .hvm_mode = m->fmt.hvm_mode,
        .closed_by = by, .code = v->exit_code, .sub_kind = v->sub_kind,
        .sub_val = v->sub_val, .exit_tsc = v->exit_tsc, .tsc = tsc,
        .rip = v->exit_rip, .counted = counted, .cycles = counted ? c : 0,
        .first_tsc = m->first_tsc, .trace_hz = m->clock_hz,
        .short_kind = v->type == VT_HVM ? (uint8_t)hvm_short_kind(v)
                                        : XA_SHORT_OTHER,
        .incarnation = v->d->incarnation,
        .shadow = v->sh_bits,
        .cr3_id = v->cr3_cur >= 0 ? (int)v->d->cr3.v[v->cr3_cur].id : -1,
    };

    m->obs.exit_done(m->obs.arg, &ev);
}

void model_exit_close(struct xa_model *m, struct vcpu *v, uint64_t tsc,
                      enum xa_exit_closed_by by)
{
    struct exit_slot *e;
    uint64_t c = 0;
    bool counted;

    if ( !v->exit_open )
        return;
    if ( m->opts.cr3 && v->type == VT_HVM )
        cr3_close(m, v, tsc, v->exit_pcpu);
    v->exit_open = false;
    if ( tsc >= v->exit_tsc )
        c = tsc - v->exit_tsc;
    else
        model_diag(m, XA_DIAG_NEGATIVE_DURATION, UINT64_MAX,
                   v->p ? v->p->id : 0);
    if ( OBS(m, exit_closed) )
        m->obs.exit_closed(m->obs.arg, v->d->id, v->id, v->exit_code,
                           v->sub_kind, v->sub_val, v->exit_tsc, tsc,
                           v->exit_rip);
    /*
     * An exit belongs to the window it begins in; its time ends at --to
     * (whole under the rule "begin").
     */
    counted = win_in(m, v->exit_tsc);
    if ( counted && tsc > m->win_hi && !m->win_whole )
        c = m->win_hi - v->exit_tsc;
    if ( OBS(m, exit_done) )
        exit_done(m, v, tsc, by, counted, c);
    if ( !counted )
        return;
    e = model_exit_slot(m, v, v->exit_code);
    if ( !e )
        return;
    model_stat_add(m, &e->st, c, v->exit_pcpu);
    if ( v->sub_kind )
    {
        struct sub_slot *s = model_sub_slot(m, e, v->sub_kind, v->sub_val);

        if ( s )
            model_stat_add(m, &s->st, c, v->exit_pcpu);
    }
}

/*
 * A domain id reused by a new domain of another kind: the vCPU v, which
 * counted records of its kind, writes records of another.  The old domain
 * ends here, with what it counted (its vCPUs leave their pCPUs, offline),
 * and stays in the summary as an earlier incarnation of the id; the id's
 * records count from now on in a new domain, whose vCPU of v's id runs on
 * the record's pCPU.  NULL when the new one cannot be tracked.
 */
static struct vcpu *domain_reincarnate(struct xa_model *m, struct pcpu *p,
                                       struct vcpu *v,
                                       const struct xa_record *rec)
{
    struct domain *old = v->d, **pp;
    struct vcpu *nv;
    uint64_t tsc = rec->has_tsc ? rec->tsc : p->last_tsc;
    unsigned int j;

    model_taint(m);     /* its incarnations: from before the warm-up */

    /* Unlinked from the ids' table before anything changes. */
    for ( pp = &m->dom_hash[old->id % DOM_HASH]; *pp && *pp != old;
          pp = &(*pp)->hnext )
        ;
    if ( !*pp )
        return NULL;
    *pp = old->hnext;
    old->hnext = m->retired;
    m->retired = old;
    old->retired = true;
    model_diag(m, XA_DIAG_DOMAIN_REUSED, rec->offset, rec->cpu);
    /*
     * Whatever pCPU still runs one of its vCPUs (a CPU may believe so
     * while the vCPU has moved) runs nothing known from here.
     */
    for ( j = 0; j < m->nr_pcpus; j++ )
    {
        struct pcpu *q = m->pcpus[j];

        if ( q && q->current && q->current->d == old )
        {
            pcpu_time_update(m, q, tsc);
            q->current = NULL;
        }
    }
    for ( j = 0; j < old->nr_vcpus; j++ )
    {
        struct vcpu *w = old->vcpus[j];

        if ( !w )
            continue;
        exit_discard(m, w, tsc);
        model_stay_end(m, w, tsc);
        w->pcpu_tsc = 0;
        if ( w->state != RS_INIT )
            runstate_update(m, w, RS_OFFLINE, tsc);
    }
    nv = model_vcpu_find(m, old->id, v->id);
    if ( !nv )
        return NULL;
    nv->d->incarnation = old->incarnation + 1;
    if ( OBS(m, domain_reused) )
        m->obs.domain_reused(m->obs.arg, old->id, nv->d->incarnation, tsc);
    vcpu_next_update(m, p, nv, tsc);
    return nv;
}

struct vcpu *model_guest_vcpu_slow(struct xa_model *m,
                                   const struct xa_record *rec,
                                   enum vcpu_type type)
{
    struct pcpu *p = m->pcpus[rec->cpu];
    struct vcpu *v = p->current;

    if ( !v )
    {
        model_diag(m, XA_DIAG_NO_CURRENT_VCPU, rec->offset, rec->cpu);
        return NULL;
    }
    if ( v->d->id == XA_DOM_IDLE )
    {
        /*
         * An exit or a guest's own record there is damage; an entry, an
         * injection (Arm injects into vCPUs running elsewhere) or a halt
         * (VT_NONE) are left alone.
         */
        if ( type != VT_NONE )
            model_diag(m, XA_DIAG_GUEST_ON_IDLE, rec->offset, rec->cpu);
        return NULL;
    }
    if ( type != VT_NONE && v->type != type )
    {
        /*
         * Records of another kind of guest than the vCPU's: a domain id
         * reused by a new domain of another type (or damage).  A vCPU
         * with nothing of its kind counted yet takes the new kind
         * (VCPU_TYPE_CHANGE); else the domain's id was reused.
         */
        if ( v->type != VT_NONE )
        {
            if ( model_vcpu_counted(v) || v->exit_open )
            {
                if ( v->d->id == XA_DOM_DEFAULT )
                {
                    model_diag(m, XA_DIAG_VCPU_TYPE_CHANGE, rec->offset,
                               rec->cpu);
                    return NULL;
                }
                if ( !(v = domain_reincarnate(m, p, v, rec)) )
                    return NULL;
            }
            else
                model_diag(m, XA_DIAG_VCPU_TYPE_CHANGE, rec->offset,
                           rec->cpu);
        }
        v->type = type;
        if ( OBS(m, vcpu_kind) )
            m->obs.vcpu_kind(m->obs.arg, v->d->id, v->id,
                             (enum xa_vcpu_kind)type);
    }
    return v;
}

/* Feeding */

/*
 * The vCPU type a TRC_HVM record belongs to, by its id (arch_ops.hvm_own,
 * else the type with hvm_rest): a table walk, no call.
 */
static enum vcpu_type hvm_owner(const struct xa_model *m, uint32_t ev)
{
    enum vcpu_type t, rest = VT_NONE;
    unsigned int i;

    ev &= ~0xc00u;
    for ( t = VT_HVM; t <= VT_ARM; t++ )
    {
        const struct arch_ops *a = m->arch[t];

        for ( i = 0; i < sizeof(a->hvm_own) / sizeof(a->hvm_own[0]) && a->hvm_own[i].first; i++ )
            if ( ev >= a->hvm_own[i].first && ev <= a->hvm_own[i].last )
                return t;
        if ( a->hvm_rest )
            rest = t;
    }
    return rest;
}

/*
 * An injection while the scheduler's records have the idle vCPU running:
 * Xen on Arm took an interrupt for the vCPU it was switching out, after
 * writing those records and before switching `current` (gic_set_lr() runs
 * on `current` only).  It goes to that vCPU; with none known, it is
 * counted (GUEST_ON_IDLE).
 */
static struct vcpu *injected_switched_out(struct xa_model *m,
                                          const struct xa_record *rec)
{
    struct pcpu *p = m->pcpus[rec->cpu];

    if ( !p->current || p->current->d->id != XA_DOM_IDLE )
        return NULL;
    if ( !p->switched_out )
        model_diag(m, XA_DIAG_GUEST_ON_IDLE, rec->offset, rec->cpu);
    return p->switched_out;
}

/* Out of line, like every handler: xa_model_feed() stays a light frame. */
__attribute__((noinline))
static void hvm_record(struct xa_model *m, const struct xa_record *rec)
{
    uint32_t ev = rec->event & ~(uint32_t)XA_TRC_64_FLAG;
    struct hvm_owned *o;
    enum vcpu_type t;
    struct vcpu *v;

    if ( ev == XA_TRC_HVM_VMENTRY || ev == XA_TRC_HVM_INJ_VIRQ ||
         ev == XA_TRC_HVM_HLT )
    {
        v = model_guest_vcpu(m, rec, VT_NONE);
        if ( !v && ev == XA_TRC_HVM_INJ_VIRQ )
            v = injected_switched_out(m, rec);
        if ( !v || v->type == VT_PV )
            return;
        if ( ev == XA_TRC_HVM_VMENTRY )
        {
            girq_entry(v, rec->tsc);
            /* cr3.c: the guest's time runs from an entry that closes. */
            if ( v->exit_open && m->opts.cr3 )
                v->cr3_entry_tsc = rec->tsc;
            model_exit_close(m, v, rec->tsc, XA_CLOSED_BY_ENTRY);
        }
        else if ( ev == XA_TRC_HVM_HLT && v->exit_open && v->type == VT_HVM )
            hvm_short_note(v, rec);
        if ( ev == XA_TRC_HVM_VMENTRY || rec->nr_extra < 1 )
            return;
        else if ( ev == XA_TRC_HVM_INJ_VIRQ )
            /* x86: a vector; Arm: an INTID, beyond 255 for SPIs and LPIs. */
            girq_inject(m, v, rec->extra[0] & m->arch[v->type]->virq_mask,
                        rec);
        else if ( m->arch[v->type]->shared_record )
            m->arch[v->type]->shared_record(m, v, rec);
        return;
    }
    o = &m->hvm_owned[ev & 63];
    if ( o->id != ev )
    {
        o->id = ev;
        o->type = (uint8_t)hvm_owner(m, ev);
    }
    t = (enum vcpu_type)o->type;
    if ( t != VT_NONE && m->arch[t]->hvm_record &&
         (v = model_guest_vcpu(m, rec, t)) )
        m->arch[t]->hvm_record(m, v, rec);
}

/* Log-volume slot + 1 of each main class; 0: "other". */
static const uint8_t volume_of_main[0x1000] = {
    [0x001] = 1, [0x002] = 2, [0x004] = 3, [0x008] = 4,
    [0x010] = 5, [0x020] = 6, [0x040] = 7, [0x080] = 8,
    [0x100] = 13,
};

static inline unsigned int volume_index(uint32_t ev)
{
    unsigned int main = XA_TRC_MAIN(ev);

    if ( main == (XA_TRC_HVM >> 16) )
    {
        switch ( XA_TRC_SUB(ev) )
        {
        case 1:
            return (ev & 0xff) == 1 ? 9 : 10;   /* vmentry, vmexit */
        case 2:
            return 11;                          /* handler */
        default:
            return 3;
        }
    }
    return volume_of_main[main] ? volume_of_main[main] - 1u : 8u;
}

/* The handler of an event id in xa_model_feed(). */
enum ev_kind {
    EV_NONE,
    EV_GEN,
    EV_RUNSTATE,            /* a runstate change or continue-running */
    EV_HVM,
    EV_PV,
    EV_ARM,
    EV_MEM,
    EV_SHADOW,
    EV_NR
};
/* A kind masked with EV_MASK is one: the switches need no range check. */
#define EV_MASK 7u
_Static_assert(EV_NR == EV_MASK + 1, "ev_kind fills EV_MASK");

static enum ev_kind ev_kind_of(uint32_t ev)
{
    switch ( XA_TRC_MAIN(ev) )
    {
    case XA_TRC_GEN >> 16:
        return EV_GEN;
    case XA_TRC_SCHED >> 16:
        return (ev & 0x0ffff000) == XA_TRC_SCHED_MIN &&
               (is_runstate_change(ev) ||
                ev == XA_TRC_SCHED_CONTINUE_RUNNING) ? EV_RUNSTATE : EV_NONE;
    case XA_TRC_HVM >> 16:
        /* The emulated devices' records (vlapic, PIC...) change nothing. */
        return XA_TRC_SUB(ev) == XA_TRC_SUB(XA_TRC_HVM_EMUL) ? EV_NONE
                                                           : EV_HVM;
    case XA_TRC_PV >> 16:
        return EV_PV;
    case XA_TRC_ARM >> 16:
        return EV_ARM;
    case XA_TRC_MEM >> 16:
        return EV_MEM;
    case XA_TRC_SHADOW >> 16:
        return EV_SHADOW;
    default:
        return EV_NONE;
    }
}

/*
 * The cache entry of a record's event id, filled on a miss; an id the
 * catalog does not know, or a record shorter than its id needs, is looked
 * up again and counted every time.
 */
static void ev_seen_fill(struct xa_model *m, const struct xa_record *rec,
                         struct ev_seen *e)
{
    const struct xa_event_desc *d = xa_catalog_lookup(m->cat, rec->event);

    e->id = rec->event;
    e->need = d ? (uint8_t)d->min_extra : UINT8_MAX;
    e->vol = (uint8_t)volume_index(rec->event);
    e->kind = (uint8_t)ev_kind_of(rec->event);
    e->fast_need = e->kind == EV_GEN || e->kind == EV_MEM ? UINT8_MAX
                                                          : e->need;
    if ( !d )
        model_diag(m, XA_DIAG_UNKNOWN_EVENT, rec->offset, rec->cpu);
    else if ( rec->nr_extra < d->min_extra )
        model_diag(m, XA_DIAG_SHORT_RECORD, rec->offset, rec->cpu);
}

/*
 * An id's slot in the event cache: Fibonacci hashing, the top 8 bits of
 * the id times 2^32 / phi.  Two instructions, and the 52 ids of the real
 * traces the tests read land in slots of their own but one rare pair,
 * where folding the id's bytes together put common csched2 ids and HVM
 * ones in one slot, which sent both to model_feed_full() in turn.
 */
static inline struct ev_seen *ev_slot(struct xa_model *m, uint32_t ev)
{
    return &m->seen[(uint32_t)(ev * 0x9e3779b1u) >> 24];
}

static inline const struct ev_seen *ev_seen(struct xa_model *m,
                                            const struct xa_record *rec)
{
    uint32_t ev = rec->event;
    struct ev_seen *e = ev_slot(m, ev);

    if ( __builtin_expect(e->id != ev || rec->nr_extra < e->need, 0) )
        ev_seen_fill(m, rec, e);
    return e;
}

/*
 * A PoD record's page order as upstream counts it: 0 (4k), 1 (2M), 2 (1G),
 * 3 anything else, either record layout (xa_mem_dom_order()).
 */
static unsigned int pod_order(const struct xa_record *rec)
{
    uint32_t dom;
    int order;

    if ( rec->nr_extra < 5 )
        return 3;
    xa_mem_dom_order(rec, 4, true, &dom, &order);
    return order >= 0 && order % 9 == 0 && order / 9 <= 2
           ? (unsigned int)order / 9 : 3;
}

/* A CPU's data ends: the vCPU running there is lost from now on. */
static void pcpu_end(struct xa_model *m, struct pcpu *p)
{
    if ( p->lost_end_pending )
        lost_end(m, p);
    if ( p->current )
    {
        pcpu_time_update(m, p, p->last_tsc);
        lose_vcpu(m, p->current, p->last_tsc);
        p->current = NULL;
    }
}

/* A record of size bytes inside the window counts in its pCPU's log volume. */
static inline void feed_volume(struct xa_model *m, struct pcpu *p,
                               const struct xa_record *rec,
                               const struct ev_seen *e, unsigned int size)
{
    if ( win_in(m, rec->tsc) )
    {
        p->records++;
        p->volume[e->vol] += size;
    }
}

/* A record's size in the trace: header, TSC if it has one, extra words. */
static inline unsigned int record_size(const struct xa_record *rec)
{
    return 4u + (rec->has_tsc ? 8u : 0u) + 4u * rec->nr_extra;
}

/* The handlers of the common kinds; false: not one of them. */
static inline bool feed_handler(struct xa_model *m, struct pcpu *p,
                                const struct xa_record *rec,
                                enum ev_kind kind)
{
    switch ( (enum ev_kind)(kind & EV_MASK) )
    {
    case EV_RUNSTATE:
        sched_runstate(m, p, rec);
        return true;
    case EV_HVM:
        hvm_record(m, rec);
        return true;
    case EV_PV:
        m->arch[VT_PV]->class_record(m, rec);
        return true;
    case EV_ARM:
        m->arch[VT_ARM]->class_record(m, rec);
        return true;
    case EV_SHADOW:
        m->arch[VT_HVM]->class_record(m, rec);
        return true;
    case EV_NONE:
        return true;
    case EV_GEN:
    case EV_MEM:
    case EV_NR:
    default:
        return false;
    }
}

/*
 * Every record, the rare cases included: a new or absent pCPU, a CPU's
 * end, an anomaly mark, a loss ending, the first TSC, a quarantined one,
 * an id not in the event cache, the GEN and MEM classes.
 */
static void model_feed_full_do(struct xa_model *m,
                               const struct xa_record *rec)
{
    struct pcpu *p = rec->cpu < m->nr_pcpus ? m->pcpus[rec->cpu] : NULL;
    uint32_t ev = rec->event;
    const struct ev_seen *e;

    if ( !p || !p->present )
    {
        p = model_pcpu_get(m, rec->cpu);
        if ( !p )
            return;
    }
    if ( p->held_for )
    {
        if ( ev != XA_EV_CPU_END && p->nr_held < HOLD_RECORDS_MAX )
        {
            hold_add(m, p, rec);
            return;
        }
        /* The CPU's end, or too many: its records as they came. */
        if ( ev != XA_EV_CPU_END )
            model_diag(m, XA_DIAG_LIMIT_SKEW_HOLD, rec->offset, rec->cpu);
        m->no_hold = true;
        hold_release(m, p);
        m->no_hold = false;
    }
    if ( ev == XA_EV_CPU_END )
    {
        pcpu_end(m, p);
        return;
    }
    m->records++;
    /* Met (and counted) by the reader or the merge: placed here. */
    if ( __builtin_expect(rec->mark != 0, 0) && OBS(m, anomaly) &&
         rec->mark <= XA_DIAG_NR )
        m->obs.anomaly(m->obs.arg, (enum xa_diag_kind)(rec->mark - 1),
                       rec->cpu);
    if ( p->lost_end_pending && ev != XA_TRC_LOST_RECORDS )
        lost_end(m, p);
    if ( rec->has_tsc == 1 )
    {
        if ( !p->first_tsc )
        {
            p->first_tsc = rec->tsc;
            pcpu_slow_update(p);
        }
        p->last_tsc = rec->tsc;
        if ( !m->have_tsc )
        {
            m->first_tsc = rec->tsc;
            m->have_tsc = true;
            if ( m->win_pending )
                model_window_update(m);
        }
        if ( rec->tsc > m->last_tsc )
            m->last_tsc = rec->tsc;
    }
    e = ev_seen(m, rec);
    feed_volume(m, p, rec, e, record_size(rec));
    if ( feed_handler(m, p, rec, (enum ev_kind)e->kind) )
        return;
    switch ( (enum ev_kind)e->kind )
    {
    case EV_GEN:
        if ( ev == XA_TRC_TRACE_CLOCK_KHZ && rec->nr_extra >= 1 &&
             !m->clock_hz )
        {
            m->clock_hz = rec->extra[0] * 1000ull;
            model_window_update(m);
        }
        else if ( ev == XA_TRC_LOST_RECORDS )
        {
            if ( p->lost_end_pending )
                lost_end(m, p);
            lost_begin(m, p, rec);
        }
        break;
    case EV_MEM:
        if ( !win_in(m, rec->tsc) )
            break;
        if ( (ev & 0xfff) >= 1 && (ev & 0xfff) <= 3 && p->current )
        {
            struct domain *d = p->current->d;

            d->grant_ops[(ev & 0xfff) - 1]++;
        }
        else if ( (ev & 0xfff) == 16 && p->current )
        {
            p->current->d->pod_populate++;
            p->current->d->pod_populate_order[pod_order(rec)]++;
        }
        else if ( (ev & 0xfff) == 17 && p->current )
        {
            p->current->d->pod_reclaim++;
            p->current->d->pod_reclaim_order[pod_order(rec)]++;
        }
        else if ( (ev & 0xfff) == 18 && p->current )
            p->current->d->pod_splinter++;
        break;
    case EV_NONE:
    case EV_RUNSTATE:
    case EV_HVM:
    case EV_PV:
    case EV_ARM:
    case EV_SHADOW:
    case EV_NR:
    default:
        break;
    }
}

__attribute__((noinline))
static void model_feed_full(struct xa_model *m, const struct xa_record *rec)
{
    model_feed_full_do(m, rec);
    if ( m->nr_holding )
        skew_check(m);
}

/*
 * The common record, the same steps as model_feed_full() takes for it,
 * in a frame with no call but the handler's: an ordinary record of a
 * known pCPU, with its own TSC or none, of an id in the event cache, for
 * the runstate, HVM, PV or Arm handler or for none.
 */
static inline __attribute__((always_inline))
void model_feed(struct xa_model *m, const struct xa_record *rec)
{
    uint32_t ev = rec->event;
    struct pcpu *p = rec->cpu < m->nr_pcpus ? m->pcpus[rec->cpu] : NULL;
    const struct ev_seen *e = ev_slot(m, ev);
    /* has_tsc and mark side by side: one test that both are ordinary. */
    unsigned int tsc_mark = rec->has_tsc | (unsigned int)rec->mark << 8;

    if ( __builtin_expect(!p || p->slow || tsc_mark > 1 ||
                          e->id != ev || rec->nr_extra < e->fast_need, 0) )
    {
        model_feed_full(m, rec);
        return;
    }
    m->records++;
    if ( tsc_mark )
    {
        p->last_tsc = rec->tsc;
        if ( rec->tsc > m->last_tsc )
            m->last_tsc = rec->tsc;
    }
    /* record_size() with has_tsc 0 or 1: no select. */
    feed_volume(m, p, rec, e, 4u * (1u + 2u * tsc_mark + rec->nr_extra));
    feed_handler(m, p, rec, (enum ev_kind)e->kind);
}

void xa_model_feed(struct xa_model *m, const struct xa_record *rec)
{
    model_feed(m, rec);
}

void xa_model_feed_batch(struct xa_model *m, const struct xa_record *recs,
                         unsigned int n)
{
    unsigned int i;

    for ( i = 0; i < n; i++ )
        model_feed(m, &recs[i]);
}

void xa_model_finish(struct xa_model *m)
{
    unsigned int i;

    /* Records still held: taken as they came. */
    m->no_hold = true;
    while ( m->nr_holding )
        hold_release(m, m->holding[0]);

    for ( i = 0; i < m->nr_pcpus; i++ )
    {
        struct pcpu *p = m->pcpus[i];

        if ( p && p->present )
            pcpu_end(m, p);
    }
    /* Every vCPU's last stay ends with the trace. */
    for ( i = 0; i < DOM_HASH; i++ )
    {
        struct domain *d;
        unsigned int j;

        for ( d = m->dom_hash[i]; d; d = d->hnext )
            for ( j = 0; j < d->nr_vcpus; j++ )
                if ( d->vcpus[j] && d->id != XA_DOM_DEFAULT )
                {
                    model_stay_end(m, d->vcpus[j], m->last_tsc);
                    d->vcpus[j]->pcpu_tsc = 0;
                }
    }
}

/*
 * The window in TSC: time 0 is the first timestamp, the rate the one
 * given, else the trace's clock record, else the default (as the
 * summary's cpu_hz).  Called at the first timestamp and when a clock
 * record changes the rate.
 */
static void window_tsc(struct xa_model *m)
{
    uint64_t hz = m->win_hz;

    if ( !xa_filter_has_window(&m->filter) )
        return;
    if ( !hz )
        hz = m->clock_hz >= XA_HZ_MIN && m->clock_hz <= XA_HZ_MAX
             ? m->clock_hz : XA_HZ_DEFAULT;
    if ( !m->have_tsc )
    {
        /*
         * Nothing counts before time 0 is known, but in a window from 0,
         * which holds what comes before the first timestamp.
         */
        m->win_lo = m->filter.from_ns ? UINT64_MAX : 0;
        m->win_pending = true;
        return;
    }
    m->win_pending = false;
    xa_filter_tsc_window(&m->filter, m->first_tsc, hz, &m->win_lo,
                         &m->win_hi);
}

void model_window_update(struct xa_model *m)
{
    window_tsc(m);
    m->win_all = !m->win_whole && !m->win_lo && m->win_hi == UINT64_MAX;
}

void xa_model_set_filter(struct xa_model *m, const struct xa_filter *f,
                         uint64_t hz)
{
    m->filter = *f;
    m->win_whole = f->whole;
    m->win_hz = hz;
    model_window_update(m);
}

const struct xa_filter *model_filter(const struct xa_model *m)
{
    return &m->filter;
}

bool xa_model_pcpu_current(const struct xa_model *m, unsigned int cpu,
                           unsigned int *dom, unsigned int *vcpu)
{
    const struct vcpu *v;

    if ( cpu >= m->nr_pcpus || !m->pcpus[cpu] ||
         !(v = m->pcpus[cpu]->current) ||
         v->d->id == XA_DOM_DEFAULT )
        return false;
    *dom = v->d->id;
    *vcpu = v->id;
    return true;
}

const struct xa_fmt_ctx *xa_model_fmt_ctx(const struct xa_model *m)
{
    return &m->fmt;
}

/*
 * A first look at a trace for the dump, which must name exits and convert
 * times before it has seen the whole trace: SVM if an exit code no VMX
 * exit reason uses, or a separate SVM exit record, appears among the first
 * max_records; the rate of the first clock record (xentrace's, or
 * format 1's Arm one).
 */
static int trace_peek(struct xa_reader *rd, uint64_t max_records,
                      struct xa_trace_hints *h);

/* Opens path, or data[0..size) when path is NULL, and peeks. */
static int trace_peek_open(const char *path, const void *data, size_t size,
                           uint64_t max_records, struct xa_trace_hints *h)
{
    struct xa_diag diag;
    struct xa_reader *rd = NULL;
    int rc;

    h->hvm_mode = XA_HVM_VMX;
    h->clock_hz = 0;
    xa_diag_init(&diag);
    rc = path ? xa_reader_open(path, &diag, &rd)
              : xa_reader_open_mem(data, size, &diag, &rd);
    return rc ? rc : trace_peek(rd, max_records, h);
}

int xa_trace_peek(const char *path, uint64_t max_records,
                  struct xa_trace_hints *h)
{
    return trace_peek_open(path, NULL, 0, max_records, h);
}

int xa_trace_peek_mem(const void *data, size_t size, uint64_t max_records,
                      struct xa_trace_hints *h)
{
    return trace_peek_open(NULL, data, size, max_records, h);
}

/* Frees rd. */
static int trace_peek(struct xa_reader *rd, uint64_t max_records,
                      struct xa_trace_hints *h)
{
    struct xa_record rec;
    uint64_t n = 0;
    unsigned int i;
    for ( i = 0; i < xa_reader_nr_cpus(rd) || xa_reader_scan(rd) == XA_OK;
          i++ )
    {
        if ( i >= xa_reader_nr_cpus(rd) )
            break;
        while ( n < max_records &&
                xa_reader_next(rd, xa_reader_cpu_at(rd, i), &rec) == XA_OK )
        {
            uint32_t low = rec.event & ~(uint32_t)(XA_TRC_64_FLAG |
                                                   XA_TRC_HVM_NESTEDFLAG);

            n++;
            if ( rec.nr_extra < 1 )
                continue;
            if ( low == XA_TRC_HVM_SVM_EXIT ||
                 (low == XA_TRC_HVM_VMEXIT &&
                  rec.extra[0] > xa_vmx_exit_max() &&
                  rec.extra[0] != UINT32_MAX) )
                h->hvm_mode = XA_HVM_SVM;
            else if ( rec.event == XA_TRC_TRACE_CLOCK_KHZ && !h->clock_hz )
                h->clock_hz = rec.extra[0] * 1000ull;
            else if ( rec.event == XA_TRC_ARM_CLOCK && rec.nr_extra >= 2 &&
                      !h->clock_hz )
                h->clock_hz = rec.extra[0] | ((uint64_t)rec.extra[1] << 32);
            if ( h->hvm_mode == XA_HVM_SVM && h->clock_hz )
                goto out;
        }
    }
 out:
    xa_reader_free(rd);
    return XA_OK;
}
