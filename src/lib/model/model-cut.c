/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A model analysed apart (docs/parallel-summary.md): a chunk of the trace
 * analysed by a model of its own, from an unknown state, then absorbed by
 * the model that took the trace up to the chunk, exactly.
 *
 * The chunk's model starts empty a while before the chunk (its warm-up)
 * and is cut where the chunk begins: it keeps its state (runstates, the
 * vCPU on each pCPU, open exits, pending wake-to-halt clocks...) and
 * forgets what it counted.  Its state at the cut is written down as a
 * row of words, in a canonical order.  The model that took the trace up
 * to the chunk writes its own state the same way; when the two rows are
 * equal, the chunk's model went on from the cut exactly as that model
 * would have: the model is deterministic, and what it counts never steers
 * it (the caps and the memory budget do, checked below).  So that model
 * adds what the chunk's counted and takes its state on: the single pass's.
 *
 * What the warm-up cannot know, the row leaves open or the chunk's model
 * reports:
 * - when a vCPU it found on a pCPU arrived there (pcpu_tsc): a wildcard in
 *   the row; its first stay after the cut is left to the absorbing model
 *   (model_stay_defer());
 * - the trace's and pCPUs' first TSC, a domain's incarnations: used after
 *   the cut, they taint the model (model_taint()), and the chunk is
 *   redone by the absorbing model.
 * vCPUs never seen running (INIT) and untouched, and domains of only
 * such vCPUs, behave as ones not made yet: the row leaves them out.
 */
#include <stdlib.h>
#include <string.h>

#include "model-private.h"
#include "stats/stats-private.h"

#define CUT_WILD UINT64_MAX         /* a word that matches any */
#define CUT_NONE 0xfffffffeu        /* no pCPU, no vCPU */

enum cut_tag {
    TAG_MODEL = 0x6d6f64,
    TAG_PCPU,
    TAG_DOMAIN,
    TAG_VCPU,
    TAG_W2H,
    TAG_END,
};

struct cut_row {
    struct cut_word_buf *b;
    bool nomem;
};

static void put(struct cut_row *r, uint64_t w)
{
    struct cut_word_buf *b = r->b;

    if ( b->nr == b->cap )
    {
        size_t cap = b->cap ? b->cap * 2 : 256;
        uint64_t *n = realloc(b->w, cap * sizeof(*n));

        if ( !n )
        {
            r->nomem = true;
            return;
        }
        b->w = n;
        b->cap = cap;
    }
    b->w[b->nr++] = w;
}

static void put_vcpu_ref(struct cut_row *r, const struct vcpu *v)
{
    put(r, v ? v->d->id : CUT_NONE);
    put(r, v ? v->id : CUT_NONE);
}

static bool w2h_idle(const struct w2h *w)
{
    unsigned int i;

    if ( !w )
        return true;
    if ( w->waking || w->wake_vector || w->interrupts || w->wanting )
        return false;
    for ( i = 0; i < 256; i++ )
        if ( w->vec[i].start_tsc || w->vec[i].is_wake )
            return false;
    return true;
}

/*
 * A default vCPU no pCPU runs (nor ran last): what it holds from the
 * start of day (an exit left open...) steers nothing, until a record
 * names it (model_vcpu_named()).
 */
static bool vcpu_hidden(const struct vcpu *v)
{
    return v->d->id == XA_DOM_DEFAULT && !v->cut_ref;
}

/* Marks the vCPUs the pCPUs run, or ran last. */
static void refs_mark(struct xa_model *m, bool on)
{
    unsigned int i;

    for ( i = 0; i < m->nr_pcpus; i++ )
    {
        struct pcpu *p = m->pcpus[i];

        if ( !p || !p->present )
            continue;
        if ( p->current )
            p->current->cut_ref = on;
        if ( p->switched_out )
            p->switched_out->cut_ref = on;
    }
}

/* Never seen running, nothing known: as if not made yet. */
static bool vcpu_blank(const struct vcpu *v)
{
    return v->state == RS_INIT && !v->activated && v->type == VT_NONE &&
           !v->exit_open && !v->arch_init && !v->losable_listed && !v->p &&
           !v->pcpu_tsc && w2h_idle(v->w2h) && !model_vcpu_counted(v);
}

/*
 * Nothing known of the domain itself; its vCPUs: none left (empty), or
 * each blank or hidden.
 */
static bool domain_bare(const struct domain *d, bool empty)
{
    unsigned int j;

    if ( d->state_tsc || d->incarnation || d->retired )
        return false;
    for ( j = 0; j < d->nr_vcpus; j++ )
        if ( d->vcpus[j] &&
             (empty || (!vcpu_blank(d->vcpus[j]) &&
                        !vcpu_hidden(d->vcpus[j]))) )
            return false;
    return true;
}

/*
 * A vCPU's state: the fields that steer what comes, each only where it
 * does (state_tsc of a state that is accounted, the exit's fields of an
 * open exit...).
 */
static void put_vcpu(struct cut_row *r, const struct xa_model *m,
                     const struct vcpu *v)
{
    const struct w2h *w = v->w2h;
    unsigned int i;

    put(r, TAG_VCPU);
    put(r, v->id);
    put(r, v->state);
    put(r, v->state == RS_RUNNABLE ? v->runnable : 0);
    put(r, v->state <= RS_LOST ? v->state_tsc : 0);
    put(r, v->p ? v->p->id : CUT_NONE);
    put(r, m->spec && v->act_unknown ? CUT_WILD : v->activated);
    put(r, (uint64_t)v->losable_listed | (uint64_t)v->arch_init << 1 |
           (uint64_t)v->exit_open << 2 |
           (uint64_t)model_vcpu_counted(v) << 3);
    put(r, v->type);
    if ( v->exit_open )
    {
        put(r, v->exit_tsc);
        put(r, v->exit_rip);
        put(r, v->exit_code);
        put(r, v->exit_pcpu);
        put(r, v->sub_kind);
        put(r, v->sub_val);
    }
    put(r, m->spec && (v->pcpu_unknown || v->act_unknown) ? CUT_WILD
                                                          : v->pcpu_tsc);
    if ( w2h_idle(w) )
        return;
    put(r, TAG_W2H);
    put(r, w->waking);
    put(r, w->wake_vector);
    put(r, w->interrupts);
    put(r, w->wanting);
    for ( i = 0; i < 256; i++ )
        if ( w->vec[i].start_tsc || w->vec[i].is_wake )
        {
            put(r, i);
            put(r, w->vec[i].start_tsc);
            put(r, w->vec[i].is_wake);
        }
    put(r, TAG_END);
}

static int cut_row_words(const struct xa_model *m, struct cut_word_buf *b);

static int cmp_domain_id(const void *a, const void *b)
{
    const struct domain *x = *(const struct domain *const *)a;
    const struct domain *y = *(const struct domain *const *)b;

    return x->id < y->id ? -1 : x->id > y->id;
}

/*
 * The model's state as words, in a canonical order: XA_OK or XA_E_NOMEM.
 * The vCPUs the pCPUs refer to are marked (cut_ref) meanwhile.
 */
static int cut_row_write(struct xa_model *m, struct cut_word_buf *b)
{
    int rc;

    refs_mark(m, true);
    rc = cut_row_words(m, b);
    refs_mark(m, false);
    return rc;
}

static int cut_row_words(const struct xa_model *m, struct cut_word_buf *b)
{
    struct cut_row r = { .b = b };
    struct domain **doms;
    unsigned int i, j, n = 0;

    b->nr = 0;
    put(&r, TAG_MODEL);
    put(&r, m->have_tsc);
    put(&r, m->lost_cpus);
    put(&r, m->nr_holding);
    for ( i = 0; i < m->nr_holding; i++ )
        put(&r, m->holding[i]->id);     /* released in this order */
    put(&r, m->svm_seen);
    put(&r, m->retired != NULL);
    for ( i = 0; i < m->nr_pcpus; i++ )
    {
        const struct pcpu *p = m->pcpus[i];

        if ( !p || !p->present )
            continue;
        put(&r, TAG_PCPU);
        put(&r, i);
        put_vcpu_ref(&r, p->current);
        put_vcpu_ref(&r, p->switched_out);
        put(&r, p->first_tsc != 0);
        put(&r, p->last_tsc);
        /* None running: not read; else when it began, not known. */
        put(&r, !p->current ? 0 : m->spec ? CUT_WILD : p->time_tsc);
        put(&r, (uint64_t)p->lost_active | (uint64_t)p->lost_domain_valid << 1 |
                (uint64_t)p->seen_valid_schedule << 2 |
                (uint64_t)p->lost_end_pending << 3 |
                (uint64_t)(p->held_for != NULL) << 4);
        put(&r, p->lost_active ? p->lost_tsc : 0);
        put(&r, p->lost_domain_valid ? p->lost_did : 0);
        put(&r, p->lost_domain_valid ? p->lost_vid : 0);
        put(&r, p->lost_end_pending ? p->lost_end_tsc : 0);
        /* Records held for TSC skew: which, for which vCPU. */
        put(&r, p->nr_held);
        put_vcpu_ref(&r, p->held_for);
        for ( j = 0; j < p->nr_held; j++ )
            put(&r, p->held[j].offset);
    }

    doms = malloc((m->nr_domains + 1) * sizeof(*doms));
    if ( !doms )
        return XA_E_NOMEM;
    for ( i = 0; i < DOM_HASH; i++ )
    {
        struct domain *d;

        for ( d = m->dom_hash[i]; d; d = d->hnext )
            if ( n < m->nr_domains && !domain_bare(d, false) )
                doms[n++] = d;
    }
    qsort(doms, n, sizeof(*doms), cmp_domain_id);
    for ( i = 0; i < n; i++ )
    {
        const struct domain *d = doms[i];
        unsigned int s;

        put(&r, TAG_DOMAIN);
        put(&r, d->id);
        put(&r, d->incarnation);
        /*
         * INIT is not in the domain's class (domain_classify()); the
         * default domain has none.
         */
        for ( s = 0; s < RS_INIT && d->id != XA_DOM_DEFAULT; s++ )
            put(&r, d->in_state[s]);
        put(&r, d->id != XA_DOM_DEFAULT ? d->state : 0);
        put(&r, d->id != XA_DOM_DEFAULT ? d->state_tsc : 0);
        for ( j = 0; j < d->nr_vcpus; j++ )
            if ( d->vcpus[j] && !vcpu_blank(d->vcpus[j]) &&
                 !vcpu_hidden(d->vcpus[j]) )
                put_vcpu(&r, m, d->vcpus[j]);
    }
    free(doms);
    put(&r, TAG_END);
    return r.nomem ? XA_E_NOMEM : XA_OK;
}

/*
 * From what does not change once the model is fed (chunks' models are
 * made in other threads while it is).
 */
bool xa_model_apart_ok(const struct xa_model *m)
{
    return !m->nr_obs && !m->opts.cr3 && !m->opts.eip_list &&
           !m->win_whole && !xa_filter_has_window(&m->filter);
}

int xa_model_new_apart(const struct xa_model *main, uint64_t budget,
                       struct xa_model **out)
{
    struct xa_model_opts opts = main->opts;
    struct xa_model *m;
    int rc;

    if ( !xa_model_apart_ok(main) )
        return XA_E_INVAL;
    opts.memory_budget = budget ? budget : main->mem_budget;
    if ( (rc = xa_model_new(main->cat, NULL, &opts, &m)) )
        return rc;
    xa_diag_init(&m->own_diag);
    m->diag = &m->own_diag;
    m->filter = main->filter;
    m->spec = true;
    /* Keys past the cap are main's to fold (absorb_exact()). */
    m->subs_max = 4 * SUBS_MAX;
    *out = m;
    return XA_OK;
}

/* Forgets what was counted; the state stays. */
static void counts_forget(struct xa_model *m)
{
    unsigned int i, j;

    m->records = m->hvm_exits = m->arm_exits = m->arm_records = 0;
    m->pv_records = 0;
    for ( i = 0; i < m->nr_pcpus; i++ )
        if ( m->pcpus[i] )
            model_pcpu_counts_free(m->pcpus[i]);
    for ( i = 0; i < DOM_HASH; i++ )
    {
        struct domain *d;

        for ( d = m->dom_hash[i]; d; d = d->hnext )
        {
            for ( j = 0; j < XA_DRS_NR; j++ )
            {
                xa_stat_dispose(&d->rs[j]);
                xa_stat_init(&d->rs[j]);
            }
            d->grant_by = d->grant_for = 0;
            memset(d->grant_ops, 0, sizeof(d->grant_ops));
            d->pod_populate = d->pod_reclaim = d->pod_splinter = 0;
            memset(d->pod_populate_order, 0, sizeof(d->pod_populate_order));
            memset(d->pod_reclaim_order, 0, sizeof(d->pod_reclaim_order));
            for ( j = 0; j < d->nr_vcpus; j++ )
                if ( d->vcpus[j] )
                {
                    d->vcpus[j]->cut_counted =
                        model_vcpu_counted(d->vcpus[j]);
                    model_vcpu_counts_free(d->vcpus[j]);
                }
        }
    }
    xa_diag_init(&m->own_diag);
    m->nr_fix = 0;
}

/*
 * vCPUs and domains as if not made yet (vcpu_blank(), domain_bare()) are
 * dropped at the cut: from there, the chunk's model makes what a record
 * names, where the single pass makes it or finds it as blank, and the
 * absorbing model makes what it lacks (no pCPU refers to a blank vCPU:
 * one that ran somewhere keeps its pCPU in v->p).
 */
static void blank_prune(struct xa_model *m)
{
    unsigned int i, j;

    for ( i = 0; i < DOM_HASH; i++ )
    {
        struct domain **pp = &m->dom_hash[i], *d;

        while ( (d = *pp) )
        {
            for ( j = 0; j < d->nr_vcpus; j++ )
                if ( d->vcpus[j] && vcpu_blank(d->vcpus[j]) )
                {
                    model_vcpu_free(d->vcpus[j]);
                    d->vcpus[j] = NULL;
                    d->in_state[RS_INIT]--;
                    m->nr_vcpus_all--;
                }
            if ( !d->in_state[RS_INIT] )
                d->live &= (uint8_t)~(1u << RS_INIT);
            if ( !domain_bare(d, true) )
            {
                pp = &d->hnext;
                continue;
            }
            *pp = d->hnext;
            for ( j = 0; j < XA_DRS_NR; j++ )
                xa_stat_dispose(&d->rs[j]);
            cr3_tab_free(&d->cr3);
            free(d->vcpus);
            free(d);
            m->nr_domains--;
        }
    }
}

/*
 * With refs_mark(): the default vCPUs left out of the state marked.  A
 * wake-to-halt table with no clock running is dropped, as is a hidden
 * vCPU's: a table is made where the single pass makes it (the summary
 * tells a default domain with one from one without).
 */
static void hidden_mark(struct xa_model *m)
{
    unsigned int i, j;

    for ( i = 0; i < DOM_HASH; i++ )
    {
        struct domain *d;

        for ( d = m->dom_hash[i]; d; d = d->hnext )
            for ( j = 0; j < d->nr_vcpus; j++ )
            {
                struct vcpu *v = d->vcpus[j];

                if ( !v )
                    continue;
                v->cut_hidden = vcpu_hidden(v);
                if ( v->cut_hidden || w2h_idle(v->w2h) )
                    girq_free(v);
            }
    }
}

int xa_model_cut(struct xa_model *m)
{
    unsigned int i;
    int rc;

    if ( !m->spec || m->cut )
        return XA_E_INVAL;
    refs_mark(m, true);
    if ( !(rc = cut_row_words(m, &m->cut_state)) )
    {
        counts_forget(m);
        blank_prune(m);
        hidden_mark(m);
        for ( i = 0; i < m->nr_pcpus; i++ )
            if ( m->pcpus[i] && m->pcpus[i]->current )
                m->pcpus[i]->time_unknown = true;
    }
    refs_mark(m, false);
    if ( rc )
        return rc;
    m->cut = true;
    return XA_OK;
}

bool xa_model_fits(struct xa_model *main, const struct xa_model *apart)
{
    struct cut_word_buf b = { 0 };
    const struct cut_word_buf *a = &apart->cut_state;
    bool ok;
    size_t i;

    if ( !apart->cut || main->spec || cut_row_write(main, &b) )
    {
        free(b.w);
        return false;
    }
    ok = b.nr == a->nr;
    for ( i = 0; ok && i < b.nr; i++ )
        ok = a->w[i] == b.w[i] || a->w[i] == CUT_WILD;
    free(b.w);
    return ok;
}

enum fix_kind {
    FIX_STAY,                       /* a stay ends */
    FIX_ACT,                        /* a first switch (act_unknown) */
    FIX_TIME,                       /* a pCPU's interval ends */
};

static void fix_add(struct xa_model *m, const struct vcpu *v,
                    unsigned int cpu, unsigned int to, enum fix_kind kind,
                    uint64_t tsc)
{
    if ( xa_grow(&m->fix, &m->cap_fix, sizeof(*m->fix), m->nr_fix, 16) )
    {
        m->tainted = true;          /* no memory: redone */
        return;
    }
    m->fix[m->nr_fix++] = (struct stay_fix){
        .did = v ? v->d->id : CUT_NONE, .vid = v ? v->id : CUT_NONE,
        .cpu = cpu, .to = to, .kind = (uint8_t)kind, .tsc = tsc,
    };
}

void model_stay_defer(struct xa_model *m, struct vcpu *v, uint64_t tsc)
{
    fix_add(m, v, v->p ? v->p->id : CUT_NONE, CUT_NONE, FIX_STAY, tsc);
    v->pcpu_unknown = false;
}

/* A pCPU's interval that began before the cut ends: main times it. */
void model_time_defer(struct xa_model *m, struct pcpu *p, uint64_t tsc)
{
    fix_add(m, NULL, p->id, CUT_NONE, FIX_TIME, tsc);
    p->time_unknown = false;
    p->time_tsc = 0;
}

/*
 * The first switch to a vCPU first seen running in the warm-up: whether
 * the trace before had activated it (vcpu_next_update()) is the
 * absorbing model's to know.  Either way it is activated now, and its
 * stay starts here unless it had one on this pCPU.
 */
void model_act_defer(struct xa_model *m, struct pcpu *p, struct vcpu *v,
                     uint64_t tsc)
{
    if ( v->state == RS_RUNNING )
        model_taint(m);     /* an activated one's interval is dropped */
    fix_add(m, v, v->p ? v->p->id : CUT_NONE, p->id, FIX_ACT, tsc);
    v->activated = true;
    v->act_unknown = false;
    v->pcpu_tsc = tsc;
    v->pcpu_unknown = v->p == p;
}

/* main's vCPU of the chunk's model's, NULL when it has none. */
static struct vcpu *vcpu_in(const struct xa_model *m, unsigned int did,
                            unsigned int vid)
{
    const struct domain *d;

    for ( d = m->dom_hash[did % DOM_HASH]; d; d = d->hnext )
        if ( d->id == did )
            return vid < d->nr_vcpus ? d->vcpus[vid] : NULL;
    return NULL;
}

static bool subs_folded(const struct exit_slot *e)
{
    unsigned int i;

    for ( i = 0; i < e->nr_subs; i++ )
        if ( e->subs[i].kind == XA_SUB_OTHER )
            return true;
    return false;
}

/* Would absorbing the chunk's tables meet a cap the single pass meets? */
static bool vcpu_caps_fit(const struct vcpu *mv, const struct vcpu *sv)
{
    unsigned int i;

    if ( mv->hypercalls.nr + sv->hypercalls.nr > COUNT_KEYS_MAX ||
         mv->pv_events.nr + sv->pv_events.nr > COUNT_KEYS_MAX )
        return false;
    if ( !sv->exits )
        return true;
    if ( mv->exits &&
         mv->exits->nr_high + sv->exits->nr_high > EXIT_HIGH_MAX )
        return false;
    for ( i = 0; i < sv->exits->nr; i++ )
    {
        const struct exit_slot *se = &sv->exits->slots[i];

        /*
         * A row that folded keys into its other row in the chunk: some
         * may be main's own.  Else main folds what the single pass folds
         * (model_sub_slot(), the keys taken in the chunk's order).
         */
        if ( subs_folded(se) )
            return false;
    }
    return true;
}

static void sat_add(uint64_t *t, const struct xa_stat *st, unsigned int n)
{
    unsigned int i;

    for ( i = 0; i < n; i++ )
        if ( __builtin_add_overflow(*t, st[i].cycles, t) )
            *t = UINT64_MAX;
}

/* Every statistic's cycles added up, saturating. */
static uint64_t cycles_total(const struct xa_model *m)
{
    uint64_t t = 0;
    unsigned int i, j, k, e;

    for ( i = 0; i < m->nr_pcpus; i++ )
        if ( m->pcpus[i] )
        {
            sat_add(&t, &m->pcpus[i]->running, 1);
            sat_add(&t, &m->pcpus[i]->idle, 1);
            sat_add(&t, &m->pcpus[i]->lost, 1);
        }
    for ( i = 0; i < DOM_HASH; i++ )
    {
        const struct domain *d;

        for ( d = m->dom_hash[i]; d; d = d->hnext )
        {
            sat_add(&t, d->rs, XA_DRS_NR);
            for ( j = 0; j < d->nr_vcpus; j++ )
            {
                const struct vcpu *v = d->vcpus[j];

                if ( !v )
                    continue;
                sat_add(&t, v->rs, XA_RS_NR);
                sat_add(&t, &v->stay_all, 1);
                for ( k = 0; k < v->nr_stays; k++ )
                    sat_add(&t, &v->stays[k].st, 1);
                for ( e = 0; v->exits && e < v->exits->nr; e++ )
                {
                    sat_add(&t, &v->exits->slots[e].st, 1);
                    for ( k = 0; k < v->exits->slots[e].nr_subs; k++ )
                        sat_add(&t, &v->exits->slots[e].subs[k].st, 1);
                }
                for ( k = 0; v->w2h && k < 256; k++ )
                    if ( v->w2h->vec[k].times )
                        sat_add(&t, v->w2h->vec[k].times, W2H_NR);
            }
        }
    }
    return t;
}

/* What makes the absorbed counts differ from the single pass's: redo. */
static bool absorb_exact(const struct xa_model *main,
                         const struct xa_model *sp)
{
    static const enum xa_diag_kind caps[] = {
        XA_DIAG_MEMORY_BUDGET, XA_DIAG_LIMIT_KEYS, XA_DIAG_LIMIT_DOMAINS,
        XA_DIAG_LIMIT_SKEW_HOLD, XA_DIAG_SUM_SATURATED,
    };
    uint64_t need;
    unsigned int i, j;

    if ( !sp->cut || sp->tainted || sp->nr_holding || sp->retired ||
         main->spec )
        return false;
    for ( i = 0; i < sizeof(caps) / sizeof(caps[0]); i++ )
        if ( sp->own_diag.e[caps[i]].count )
            return false;
    /*
     * Every charge the single pass makes in the chunk, the chunk's model
     * made too (its tables were emptied at the cut), but the deferred
     * stays': within the budget with room to spare, none is refused.
     */
    need = main->mem + sp->mem +
           (uint64_t)sp->nr_fix * (STAY_COST + 2 * XA_STAT_GROUP_BYTES);
    /*
     * No sum of cycles saturates in the merge (the single pass would
     * count it where it happened): each is at most its model's total.
     */
    if ( cycles_total(main) == UINT64_MAX ||
         cycles_total(main) + cycles_total(sp) < cycles_total(main) ||
         need > main->key_budget ||
         main->nr_domains + sp->nr_domains > MODEL_DOMAINS_MAX ||
         main->nr_vcpus_all + sp->nr_vcpus_all > MODEL_VCPUS_MAX )
        return false;
    for ( i = 0; i < sp->nr_fix; i++ )
    {
        const struct stay_fix *f = &sp->fix[i];

        /* Its vCPU and pCPUs were there at the cut, or it is damage. */
        if ( (f->kind != FIX_TIME && !vcpu_in(main, f->did, f->vid)) ||
             f->cpu >= main->nr_pcpus || !main->pcpus[f->cpu] ||
             (f->kind == FIX_ACT &&
              (f->to >= main->nr_pcpus || !main->pcpus[f->to])) )
            return false;
    }
    for ( i = 0; i < DOM_HASH; i++ )
    {
        const struct domain *d;

        for ( d = sp->dom_hash[i]; d; d = d->hnext )
            for ( j = 0; j < d->nr_vcpus; j++ )
            {
                const struct vcpu *sv = d->vcpus[j];
                const struct vcpu *mv = sv ? vcpu_in(main, d->id, j) : NULL;

                if ( mv && !vcpu_caps_fit(mv, sv) )
                    return false;
            }
    }
    return true;
}

/*
 * What the chunk's model left open, in its order: a stay it could not
 * time, timed as main times it; a first switch (model_act_defer()), as
 * vcpu_next_update() takes it with what main knows.
 */
static void fix_apply(struct xa_model *m, const struct stay_fix *f)
{
    struct vcpu *v = vcpu_in(m, f->did, f->vid);
    struct pcpu *from = f->cpu < m->nr_pcpus ? m->pcpus[f->cpu] : NULL;
    struct pcpu *to = f->to < m->nr_pcpus ? m->pcpus[f->to] : NULL;

    if ( f->kind == FIX_TIME )
    {
        model_pcpu_time_end(m, from, f->tsc);
        return;
    }
    v->p = from;
    if ( f->kind == FIX_STAY )
    {
        model_stay_end(m, v, f->tsc);
        return;
    }
    if ( !v->activated )
    {
        v->activated = true;
        v->pcpu_tsc = f->tsc;
    }
    else if ( from != to )
    {
        model_stay_end(m, v, f->tsc);
        v->pcpu_tsc = f->tsc;
    }
    v->p = to;
}

static int stat_absorb(struct xa_model *m, struct xa_stat *dst,
                       const struct xa_stat *src)
{
    int rc = xa_stat_merge_within(dst, src, &m->mem, m->key_budget);

    return rc < 0 ? rc : XA_OK;
}

static int exits_absorb(struct xa_model *m, struct vcpu *mv,
                        const struct vcpu *sv)
{
    unsigned int i, k;
    int rc;

    if ( !sv->exits )
        return XA_OK;
    for ( i = 0; i < sv->exits->nr; i++ )
    {
        const struct exit_slot *se = &sv->exits->slots[i];
        struct exit_slot *me = model_exit_slot(m, mv, se->code);

        if ( !me )
            return XA_E_NOMEM;
        if ( (rc = stat_absorb(m, &me->st, &se->st)) )
            return rc;
        for ( k = 0; k < se->nr_subs; k++ )
        {
            const struct sub_slot *ss = &se->subs[k];
            struct sub_slot *ms = model_sub_slot(m, me, ss->kind, ss->val);

            if ( !ms )
                return XA_E_NOMEM;
            if ( (rc = stat_absorb(m, &ms->st, &ss->st)) )
                return rc;
        }
    }
    return XA_OK;
}

static int counts_absorb(struct xa_model *m, struct count_tab *dst,
                         const struct count_tab *src)
{
    unsigned int i;

    for ( i = 0; i < src->nr; i++ )
        if ( count_tab_add(m, dst, src->keys[i], src->counts[i]) < 0 )
            return XA_E_NOMEM;
    return XA_OK;
}

static int w2h_absorb(struct xa_model *m, struct vcpu *mv,
                      const struct vcpu *sv)
{
    const struct w2h *sw = sv->w2h;
    struct w2h *mw = mv->w2h;
    unsigned int i, k;
    int rc;

    if ( !sw )
    {
        if ( mw )
            girq_reset(mv);     /* idle, as the chunk's model has it */
        return XA_OK;
    }
    if ( !mw )
    {
        if ( !model_charge_struct(m, W2H_COST, 0) ||
             !(mw = mv->w2h = calloc(1, sizeof(*mw))) )
            return XA_E_NOMEM;
    }
    mw->waking = sw->waking;
    mw->lo = sw->lo;
    mw->wake_vector = sw->wake_vector;
    mw->interrupts = sw->interrupts;
    mw->wanting = sw->wanting;
    for ( i = 0; i < 256; i++ )
    {
        const struct w2h_vec *sg = &sw->vec[i];
        struct w2h_vec *mg = &mw->vec[i];

        mg->count += sg->count;
        mg->start_tsc = sg->start_tsc;
        mg->is_wake = sg->is_wake;
        if ( !sg->times )
            continue;
        if ( !mg->times &&
             (!model_charge(m, W2H_NR * STAT_COST, 0) ||
              !(mg->times = calloc(W2H_NR, sizeof(*mg->times)))) )
            return XA_E_NOMEM;
        for ( k = 0; k < W2H_NR; k++ )
            if ( (rc = stat_absorb(m, &mg->times[k], &sg->times[k])) )
                return rc;
    }
    return XA_OK;
}

static struct pcpu *pcpu_in(struct xa_model *m, const struct pcpu *sp)
{
    return sp ? m->pcpus[sp->id] : NULL;
}

static struct vcpu *vcpu_map(struct xa_model *m, const struct vcpu *sv)
{
    return sv ? model_vcpu_find(m, sv->d->id, sv->id) : NULL;
}

static int vcpu_absorb(struct xa_model *m, struct vcpu *mv,
                       const struct vcpu *sv)
{
    unsigned int i;
    int rc;

    for ( i = 0; i < XA_RS_NR; i++ )
        if ( (rc = stat_absorb(m, &mv->rs[i], &sv->rs[i])) )
            return rc;
    if ( (rc = exits_absorb(m, mv, sv)) ||
         (rc = counts_absorb(m, &mv->hypercalls, &sv->hypercalls)) ||
         (rc = counts_absorb(m, &mv->pv_events, &sv->pv_events)) ||
         (rc = w2h_absorb(m, mv, sv)) ||
         (rc = stat_absorb(m, &mv->stay_all, &sv->stay_all)) )
        return rc;
    for ( i = 0; i < sv->nr_stays; i++ )
    {
        struct stay *s = model_stay_slot(m, mv, sv->stays[i].cpu);

        if ( !s )
            return XA_E_NOMEM;
        if ( (rc = stat_absorb(m, &s->st, &sv->stays[i].st)) )
            return rc;
    }

    /* The state, as the chunk's model left it. */
    if ( sv->cut_hidden )
        return XA_OK;       /* untouched since the cut: main's stays */
    mv->state = sv->state;
    mv->runnable = sv->runnable;
    mv->state_tsc = sv->state_tsc;
    mv->p = pcpu_in(m, sv->p);
    if ( !sv->act_unknown )
        mv->activated = sv->activated;
    mv->type = sv->type;
    mv->losable_listed = sv->losable_listed;
    mv->last_old = sv->last_old;
    mv->arch_init = sv->arch_init;
    mv->exit_open = sv->exit_open;
    mv->exit_tsc = sv->exit_tsc;
    mv->exit_rip = sv->exit_rip;
    mv->exit_code = sv->exit_code;
    mv->exit_pcpu = sv->exit_pcpu;
    mv->sub_kind = sv->sub_kind;
    mv->sub_val = sv->sub_val;
    mv->short_handler = sv->short_handler;
    mv->cr3_write = sv->cr3_write;
    mv->cr3_write_val = sv->cr3_write_val;
    mv->sh_fault = sv->sh_fault;
    mv->sh_unpin = sv->sh_unpin;
    mv->sh_flags = sv->sh_flags;
    mv->sh_bits = sv->sh_bits;
    if ( !sv->pcpu_unknown && !sv->act_unknown )
        mv->pcpu_tsc = sv->pcpu_tsc;
    return XA_OK;
}

static int domain_absorb(struct xa_model *m, const struct domain *sd)
{
    struct domain *md = model_domain_find(m, sd->id);
    unsigned int j, s;
    int rc;

    if ( !md )
        return XA_E_NOMEM;
    for ( j = 0; j < XA_DRS_NR; j++ )
        if ( (rc = stat_absorb(m, &md->rs[j], &sd->rs[j])) )
            return rc;
    md->grant_by += sd->grant_by;
    md->grant_for += sd->grant_for;
    for ( j = 0; j < 3; j++ )
        md->grant_ops[j] += sd->grant_ops[j];
    md->pod_populate += sd->pod_populate;
    md->pod_reclaim += sd->pod_reclaim;
    md->pod_splinter += sd->pod_splinter;
    for ( j = 0; j < 4; j++ )
    {
        md->pod_populate_order[j] += sd->pod_populate_order[j];
        md->pod_reclaim_order[j] += sd->pod_reclaim_order[j];
    }
    for ( j = 0; j < sd->nr_vcpus; j++ )
    {
        struct vcpu *mv;

        if ( !sd->vcpus[j] )
            continue;
        /* A default vCPU left out at the cut is main's, if it has it. */
        if ( sd->vcpus[j]->cut_hidden && !vcpu_in(m, sd->id, j) )
            continue;
        if ( !(mv = model_vcpu_find(m, sd->id, j)) )
            return XA_E_NOMEM;
        if ( (rc = vcpu_absorb(m, mv, sd->vcpus[j])) )
            return rc;
    }
    md->state = sd->state;
    md->state_tsc = sd->state_tsc;
    /* Its vCPUs' states counted again: the chunk's model may lack some. */
    memset(md->in_state, 0, sizeof(md->in_state));
    md->live = 0;
    for ( j = 0; j < md->nr_vcpus; j++ )
        if ( md->vcpus[j] )
            md->in_state[md->vcpus[j]->state]++;
    for ( s = 0; s <= RS_INIT; s++ )
        if ( md->in_state[s] )
            md->live |= (uint8_t)(1u << s);
    return XA_OK;
}

static int pcpu_absorb(struct xa_model *m, const struct pcpu *sp)
{
    /* A pCPU first met in the chunk may be past main's table. */
    struct pcpu *mp = sp->id < m->nr_pcpus ? m->pcpus[sp->id] : NULL;
    unsigned int k;
    int rc;

    if ( !mp || !mp->present )
    {
        if ( !(mp = model_pcpu_get(m, sp->id)) )
            return XA_E_NOMEM;
        mp->first_tsc = sp->first_tsc;
    }
    if ( (rc = stat_absorb(m, &mp->running, &sp->running)) ||
         (rc = stat_absorb(m, &mp->idle, &sp->idle)) ||
         (rc = stat_absorb(m, &mp->lost, &sp->lost)) )
        return rc;
    mp->records += sp->records;
    for ( k = 0; k < NR_VOL; k++ )
        mp->volume[k] += sp->volume[k];
    return XA_OK;
}

/* After the vCPUs: a pCPU's state names them. */
static int pcpu_state_absorb(struct xa_model *m, const struct pcpu *sp)
{
    struct pcpu *mp = m->pcpus[sp->id];

    mp->current = vcpu_map(m, sp->current);
    mp->switched_out = vcpu_map(m, sp->switched_out);
    if ( (sp->current && !mp->current) ||
         (sp->switched_out && !mp->switched_out) )
        return XA_E_NOMEM;
    if ( !mp->first_tsc )
        mp->first_tsc = sp->first_tsc;
    mp->last_tsc = sp->last_tsc;
    if ( !sp->time_unknown )
        mp->time_tsc = sp->time_tsc;
    mp->lost_active = sp->lost_active;
    mp->lost_domain_valid = sp->lost_domain_valid;
    mp->seen_valid_schedule = sp->seen_valid_schedule;
    mp->lost_tsc = sp->lost_tsc;
    mp->lost_end_tsc = sp->lost_end_tsc;
    mp->lost_end_pending = sp->lost_end_pending;
    mp->lost_did = sp->lost_did;
    mp->lost_vid = sp->lost_vid;
    pcpu_slow_update(mp);
    return XA_OK;
}

int xa_model_absorb(struct xa_model *main, struct xa_model *apart)
{
    struct xa_model *sp = apart;
    unsigned int i;
    int rc;

    if ( !absorb_exact(main, sp) )
        return XA_E_AGAIN;

    for ( i = 0; i < sp->nr_fix; i++ )
        fix_apply(main, &sp->fix[i]);
    for ( i = 0; i < sp->nr_pcpus; i++ )
        if ( sp->pcpus[i] && sp->pcpus[i]->present &&
             (rc = pcpu_absorb(main, sp->pcpus[i])) )
            return rc;
    for ( i = 0; i < DOM_HASH; i++ )
    {
        const struct domain *d;

        for ( d = sp->dom_hash[i]; d; d = d->hnext )
            if ( (rc = domain_absorb(main, d)) )
                return rc;
    }
    for ( i = 0; i < sp->nr_pcpus; i++ )
        if ( sp->pcpus[i] && sp->pcpus[i]->present &&
             (rc = pcpu_state_absorb(main, sp->pcpus[i])) )
            return rc;

    /*
     * Records held at the cut were held alike (the rows say which), and
     * the chunk's model took them: it holds none at its end.
     */
    for ( i = 0; i < main->nr_pcpus; i++ )
    {
        struct pcpu *p = main->pcpus[i];

        if ( !p || !p->held_for )
            continue;
        free(p->held);
        p->held = NULL;
        p->nr_held = p->cap_held = 0;
        p->held_for = NULL;
        pcpu_slow_update(p);
    }
    main->nr_holding = 0;

    /* The vCPUs a loss may touch: the chunk's model's, in its order. */
    main->nr_losable = 0;
    for ( i = 0; i < sp->nr_losable; i++ )
    {
        struct vcpu *v = vcpu_map(main, sp->losable[i]);

        if ( !v || xa_grow(&main->losable, &main->cap_losable,
                           sizeof(*main->losable), main->nr_losable, 64) )
            return XA_E_NOMEM;
        main->losable[main->nr_losable++] = v;
    }

    main->records += sp->records;
    main->hvm_exits += sp->hvm_exits;
    main->arm_exits += sp->arm_exits;
    main->arm_records += sp->arm_records;
    main->pv_records += sp->pv_records;
    if ( sp->last_tsc > main->last_tsc )
        main->last_tsc = sp->last_tsc;
    /* Neither had a timestamp at the cut (the rows say so): the chunk's. */
    if ( !main->have_tsc && sp->have_tsc )
    {
        main->have_tsc = true;
        main->first_tsc = sp->first_tsc;
    }
    main->lost_cpus = sp->lost_cpus;
    if ( !main->svm_seen && sp->svm_seen )
    {
        main->svm_seen = true;
        main->svm_record_seen = sp->svm_record_seen;
        main->svm_evidence_code = sp->svm_evidence_code;
        main->svm_evidence_offset = sp->svm_evidence_offset;
        main->fmt.hvm_mode = sp->fmt.hvm_mode;
    }
    if ( !main->clock_hz )
        main->clock_hz = sp->clock_hz;
    xa_diag_merge(main->diag, &sp->own_diag);
    return XA_OK;
}
