/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Building the summary from the model: sorting, naming and key
 * formatting happen here, once, so that report writers only render.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xenalyze/clock.h>

#include "model-private.h"

static const char *const rs_names[XA_RS_NR] = {
    "running", "runnable", "runnable_wake", "runnable_preempt",
    "runnable_other", "blocked", "offline", "lost",
};

static const char *const drs_names[XA_DRS_NR] = {
    "blocked", "partial_run", "full_run", "partial_contention",
    "concurrency_hazard", "full_contention", "lost",
};

static const char *const volume_names[XA_NR_VOLUME] = {
    "gen", "sched", "dom0op", "hvm", "mem", "pv", "shadow", "hw",
    "other", "hvm:vmentry", "hvm:vmexit", "hvm:handler", "arm",
};

const char *xa_rs_name(enum xa_rs rs)
{
    return (unsigned int)rs < XA_RS_NR ? rs_names[rs] : "?";
}

const char *xa_dom_rs_name(enum xa_dom_rs rs)
{
    return (unsigned int)rs < XA_DRS_NR ? drs_names[rs] : "?";
}

const char *xa_volume_name(unsigned int i)
{
    return i < XA_NR_VOLUME ? volume_names[i] : "?";
}

uint64_t xa_model_trace_hz(const struct xa_model *m)
{
    return m->clock_hz;
}

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);

    if ( d )
        memcpy(d, s, n);
    return d;
}

int xa_sub_key_format(uint8_t kind, uint64_t val, char *buf, size_t size,
                      const char **label)
{
    const char *name;
    int n;

    *label = NULL;
    switch ( (enum xa_sub_kind)kind )
    {
    case XA_SUB_IO_R:
    case XA_SUB_IO_W:
        n = snprintf(buf, size, "io:0x%04llx:%c", (unsigned long long)val,
                 kind == XA_SUB_IO_R ? 'r' : 'w');
        break;
    case XA_SUB_MMIO_R:
    case XA_SUB_MMIO_W:
        n = snprintf(buf, size, "mmio:0x%08llx:%c",
                 (unsigned long long)val, kind == XA_SUB_MMIO_R ? 'r' : 'w');
        break;
    case XA_SUB_MSR_R:
    case XA_SUB_MSR_W:
        n = snprintf(buf, size, "msr:0x%08llx:%c", (unsigned long long)val,
                 kind == XA_SUB_MSR_R ? 'r' : 'w');
        break;
    case XA_SUB_CR_R:
    case XA_SUB_CR_W:
        n = snprintf(buf, size, "cr%llu:%c", (unsigned long long)val,
                 kind == XA_SUB_CR_R ? 'r' : 'w');
        break;
    case XA_SUB_CPUID:
        n = snprintf(buf, size, "cpuid:0x%08llx", (unsigned long long)val);
        break;
    case XA_SUB_VECTOR:
        n = snprintf(buf, size, "vector:0x%02llx", (unsigned long long)val);
        break;
    case XA_SUB_HYPERCALL:
    {
        /* Bits 32-47: the sub-operation + 1, if known. */
        uint32_t nr = (uint32_t)val, sub = (uint32_t)(val >> 32);

        name = xa_hypercall_name(nr);
        if ( name )
            n = snprintf(buf, size, "hypercall:%s", name);
        else
            n = snprintf(buf, size, "hypercall:%u", nr);
        if ( sub-- && n > 0 && (size_t)n < size )
        {
            name = xa_hypercall_subop_name(nr, sub);
            if ( name )
                n += snprintf(buf + n, size - (size_t)n, ":%s", name);
            else
                n += snprintf(buf + n, size - (size_t)n, ":%u", sub);
        }
        break;
    }
    case XA_SUB_NPF:
        n = snprintf(buf, size, "npf:0x%08llx", (unsigned long long)val);
        break;
    case XA_SUB_SMC:
        n = snprintf(buf, size, "smc:0x%08llx", (unsigned long long)val);
        *label = xa_psci_name((uint32_t)val);
        break;
    case XA_SUB_SYSREG_R:
    case XA_SUB_SYSREG_W:
        n = snprintf(buf, size, "sysreg:0x%06llx:%c",
                 (unsigned long long)val, kind == XA_SUB_SYSREG_R ? 'r' : 'w');
        *label = xa_arm_sysreg_name((uint32_t)val);
        break;
    case XA_SUB_IRQ:
        n = snprintf(buf, size, "irq:%llu", (unsigned long long)val);
        break;
    case XA_SUB_WFI:
        n = snprintf(buf, size, "%s", val ? "wfi:pending" : "wfi");
        break;
    case XA_SUB_WFE:
        n = snprintf(buf, size, "wfe");
        break;
    case XA_SUB_VGIC:
        n = snprintf(buf, size, "vgic_maint");
        break;
    case XA_SUB_CP_R:
    case XA_SUB_CP_W:
    {
        /* "cp:p15,0,c1,c0,0:r" (MCR/MRC), "cp:p15,0,c2:w" (MCRR/MRRC) */
        unsigned int ec = (unsigned int)(val >> 32), iss = (unsigned int)val;
        unsigned int cp = ec == 0x03 || ec == 0x04 ? 15 : ec == 0x08 ? 10 : 14;
        char rw = kind == XA_SUB_CP_R ? 'r' : 'w';

        if ( ec == 0x04 || ec == 0x0c )
            n = snprintf(buf, size, "cp:p%u,%u,c%u:%c", cp,
                     (iss >> 16) & 0xf, (iss >> 1) & 0xf, rw);
        else
            n = snprintf(buf, size, "cp:p%u,%u,c%u,c%u,%u:%c", cp,
                     (iss >> 14) & 7, (iss >> 10) & 0xf, (iss >> 1) & 0xf,
                     (iss >> 17) & 7, rw);
        break;
    }
    case XA_SUB_S2:
        name = xa_arm_s2_outcome_name((uint32_t)val);
        if ( name )
            n = snprintf(buf, size, "s2:%s", name);
        else
            n = snprintf(buf, size, "s2:%llu", (unsigned long long)val);
        break;
    case XA_SUB_OTHER:
    case XA_SUB_NONE:
    default:
        n = snprintf(buf, size, "other");
        break;
    }
    return n;
}

static char *sub_key(uint8_t kind, uint64_t val, const char **label)
{
    char buf[64];

    xa_sub_key_format(kind, val, buf, sizeof(buf), label);
    return xstrdup(buf);
}

/* By id, and an id's incarnations in order. */
static int cmp_domain(const void *a, const void *b)
{
    const struct xa_sum_domain *x = a, *y = b;

    if ( x->id != y->id )
        return x->id < y->id ? -1 : 1;
    return x->incarnation < y->incarnation ? -1
                                           : x->incarnation > y->incarnation;
}

const char *xa_exit_name(enum xa_vcpu_kind kind, enum xa_hvm_mode mode,
                         uint32_t code)
{
    if ( kind == XA_VK_ARM )
        return xa_arm_ec_name(code);
    if ( mode == XA_HVM_SVM )
        return xa_svm_exit_name(code);
    return xa_vmx_exit_name(code);
}

static const char *exit_name(const struct xa_model *m, enum vcpu_type type,
                             uint32_t code, char **owned)
{
    const char *name = NULL;
    char buf[32];

    *owned = NULL;
    if ( code == XA_SUM_EXIT_OTHER )
        return "other codes (capped)";
    name = xa_exit_name((enum xa_vcpu_kind)type, m->fmt.hvm_mode, code);
    if ( name )
        return name;
    snprintf(buf, sizeof(buf), "UNKNOWN(0x%x)", code);
    *owned = xstrdup(buf);
    return *owned ? *owned : "UNKNOWN";
}

enum count_kind {
    COUNT_HYPERCALL,
    COUNT_EVENT,
};

/* By op (and multicall bit), then sub-operation: an op's keys together. */
static int cmp_count_id(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    uint32_t sub = XA_PV_SUBOP_MAX << XA_PV_SUBOP_SHIFT;

    if ( (x & ~sub) != (y & ~sub) )
        return (x & ~sub) < (y & ~sub) ? -1 : 1;
    return x < y ? -1 : x > y;
}

static void hypercall_name(char *buf, size_t len, uint32_t key)
{
    uint32_t op = key & 0xfffff;
    const char *n = xa_hypercall_name(op);
    const char *pfx = (key & XA_PV_SUBCALL_BIT) ? "multicall:" : "";

    if ( n )
        snprintf(buf, len, "%s%s", pfx, n);
    else
        snprintf(buf, len, "%s%u", pfx, op);
}

/*
 * PV hypercalls by op (multicall subcalls apart), each with its
 * sub-operations; PV events by id with upstream's names.  Sorted by key
 * here; the order of the report is set later (sort_vcpu()).
 */
static int build_counts(const struct count_tab *t, enum count_kind kind,
                        struct xa_sum_count **out, unsigned int *nr)
{
    struct { uint32_t key, pos; } *keys;   /* key first: cmp_count_id */
    unsigned int i;
    char buf[80];

    *nr = 0;
    *out = NULL;
    if ( !t->nr )
        return XA_OK;
    *out = calloc(t->nr, sizeof(**out));
    keys = malloc(t->nr * sizeof(*keys));
    if ( !*out || !keys )
    {
        free(keys);
        return XA_E_NOMEM;
    }
    for ( i = 0; i < t->nr; i++ )
    {
        keys[i].key = t->keys[i];
        keys[i].pos = i;
    }
    qsort(keys, t->nr, sizeof(*keys), cmp_count_id);
    for ( i = 0; i < t->nr; i++ )
    {
        uint32_t k = keys[i].key, n = 0;
        struct xa_sum_count *c;
        unsigned int j = keys[i].pos;

        if ( k == COUNT_KEY_OTHER )
        {
            c = &(*out)[(*nr)++];
            c->id = k;
            c->count = t->counts[j];
            if ( !(c->name = xstrdup("other (capped)")) )
                goto nomem;
            continue;
        }
        if ( kind == COUNT_EVENT )
        {
            const char *name = xa_pv_event_name(k & 0xfff & ~0x100u);

            c = &(*out)[(*nr)++];
            c->id = k;
            c->count = t->counts[j];
            if ( name )
                snprintf(buf, sizeof(buf), "%s", name);
            else
                snprintf(buf, sizeof(buf), "0x%08x", k);
            if ( !(c->name = xstrdup(buf)) )
                goto nomem;
            continue;
        }
        /* A new op, or the same op with another sub-operation. */
        c = *nr ? &(*out)[*nr - 1] : NULL;
        if ( !c || c->id != (k & ~(XA_PV_SUBOP_MAX << XA_PV_SUBOP_SHIFT)) )
        {
            c = &(*out)[(*nr)++];
            c->id = k & ~(XA_PV_SUBOP_MAX << XA_PV_SUBOP_SHIFT);
            hypercall_name(buf, sizeof(buf), c->id);
            if ( !(c->name = xstrdup(buf)) )
                goto nomem;
        }
        c->count += t->counts[j];
        n = (k >> XA_PV_SUBOP_SHIFT) & XA_PV_SUBOP_MAX;
        if ( n-- )
        {
            const char *name = xa_hypercall_subop_name(k & 0xfffff, n);
            struct xa_sum_count *sub = realloc(c->subs, (c->nr_subs + 1) *
                                                        sizeof(*sub));

            if ( !sub )
                goto nomem;
            c->subs = sub;
            sub = &sub[c->nr_subs];
            memset(sub, 0, sizeof(*sub));
            sub->id = n;
            sub->count = t->counts[j];
            if ( name )
                snprintf(buf, sizeof(buf), "%s", name);
            else
                snprintf(buf, sizeof(buf), "%u", n);
            if ( !(sub->name = xstrdup(buf)) )
                goto nomem;
            c->nr_subs++;
        }
    }
    free(keys);
    return XA_OK;
 nomem:
    free(keys);
    return XA_E_NOMEM;
}

static int cmp_stay(const void *a, const void *b)
{
    unsigned int x = ((const struct xa_sum_stay *)a)->cpu;
    unsigned int y = ((const struct xa_sum_stay *)b)->cpu;

    return x < y ? -1 : x > y;
}

static int build_girqs(const struct w2h *w, struct xa_sum_vcpu *sv)
{
    unsigned int i, n = 0;

    for ( i = 0; i < 256; i++ )
        n += w->vec[i].count > 0;
    if ( !n )
        return XA_OK;
    sv->guest_irqs = calloc(n, sizeof(*sv->guest_irqs));
    if ( !sv->guest_irqs )
        return XA_E_NOMEM;
    for ( i = 0; i < 256; i++ )
    {
        const struct w2h_vec *g = &w->vec[i];
        struct xa_sum_girq *q;

        if ( !g->count )
            continue;
        q = &sv->guest_irqs[sv->nr_guest_irqs++];
        q->vector = i;
        q->count = g->count;
        if ( g->times )
        {
            q->wake_alone = &g->times[W2H_WAKE_ALONE];
            q->wake_any = &g->times[W2H_WAKE_ANY];
            q->intr = &g->times[W2H_INTR];
        }
    }
    return XA_OK;
}

static int build_vcpu(const struct xa_model *m, const struct vcpu *v,
                      struct xa_sum_vcpu *sv)
{
    unsigned int i, j;
    int rc;

    sv->id = v->id;
    for ( i = 0; i < XA_RS_NR; i++ )
        sv->rs[i] = &v->rs[i];
    if ( v->exits && v->exits->nr )
    {
        const struct exit_tab *t = v->exits;

        sv->exits = calloc(t->nr, sizeof(*sv->exits));
        if ( !sv->exits )
            return XA_E_NOMEM;
        for ( i = 0; i < t->nr; i++ )
        {
            const struct exit_slot *e = &t->slots[i];
            struct xa_sum_exit *se = &sv->exits[i];

            se->code = e->code;
            se->reason = exit_name(m, v->type, e->code, &se->reason_owned);
            se->st = &e->st;
            sv->nr_exits++;
            if ( !e->nr_subs )
                continue;
            se->subs = calloc(e->nr_subs, sizeof(*se->subs));
            if ( !se->subs )
                return XA_E_NOMEM;
            for ( j = 0; j < e->nr_subs; j++ )
            {
                se->subs[j].key = sub_key(e->subs[j].kind, e->subs[j].val,
                                          &se->subs[j].label);
                if ( !se->subs[j].key )
                    return XA_E_NOMEM;
                se->subs[j].st = &e->subs[j].st;
                if ( e->subs[j].kind == XA_SUB_OTHER )
                {
                    se->subs[j].capped = true;
                    se->subs[j].folded_keys = XA_SUM_KEYS_UNKNOWN;
                }
                se->nr_subs++;
            }
        }
    }
    rc = build_counts(&v->hypercalls, COUNT_HYPERCALL, &sv->hypercalls,
                      &sv->nr_hypercalls);
    if ( !rc )
        rc = build_counts(&v->pv_events, COUNT_EVENT, &sv->pv_events,
                          &sv->nr_pv_events);
    if ( !rc && v->w2h )
        rc = build_girqs(v->w2h, sv);
    if ( v->intr_eips )
    {
        sv->intr_eips.e = v->intr_eips->e;
        sv->intr_eips.nr = v->intr_eips->nr;
        sv->intr_eips.total = v->intr_eips->total;
        sv->intr_eips.other = v->intr_eips->other;
    }
    sv->stay_all = &v->stay_all;
    if ( !rc && v->nr_stays )
    {
        sv->stays = calloc(v->nr_stays, sizeof(*sv->stays));
        if ( !sv->stays )
            return XA_E_NOMEM;
        for ( i = 0; i < v->nr_stays; i++ )
        {
            sv->stays[i].cpu = v->stays[i].cpu;
            sv->stays[i].st = &v->stays[i].st;
        }
        sv->nr_stays = v->nr_stays;
        qsort(sv->stays, sv->nr_stays, sizeof(*sv->stays), cmp_stay);
    }
    return rc;
}

static void sum_vcpu_free(struct xa_sum_vcpu *v)
{
    unsigned int k, l;

    for ( k = 0; k < v->nr_exits; k++ )
    {
        for ( l = 0; l < v->exits[k].nr_subs; l++ )
            free(v->exits[k].subs[l].key);
        free(v->exits[k].subs);
        free(v->exits[k].reason_owned);
        free(v->exits[k].other.key);
    }
    free(v->exits);
    for ( k = 0; k < v->nr_hypercalls; k++ )
    {
        for ( l = 0; l < v->hypercalls[k].nr_subs; l++ )
            free(v->hypercalls[k].subs[l].name);
        free(v->hypercalls[k].subs);
        free(v->hypercalls[k].name);
    }
    free(v->hypercalls);
    for ( k = 0; k < v->nr_pv_events; k++ )
        free(v->pv_events[k].name);
    free(v->pv_events);
    free(v->guest_irqs);
    free(v->stays);
}

void model_summary_free(struct xa_summary *s)
{
    unsigned int i, j;

    if ( !s )
        return;
    for ( i = 0; i < s->nr_domains; i++ )
    {
        struct xa_sum_domain *d = &s->domains[i];

        if ( d->all )
        {
            sum_vcpu_free(d->all);
            free(d->all);
        }
        for ( j = 0; j < d->nr_vcpus; j++ )
            sum_vcpu_free(&d->vcpus[j]);
        free(d->vcpus);
        free(d->intr_eips.e);
        free(d->cr3s);
    }
    if ( s->guests )
    {
        sum_vcpu_free(s->guests);
        free(s->guests);
    }
    for ( i = 0; i < s->nr_owned; i++ )
    {
        xa_stat_dispose(s->owned[i]);
        free(s->owned[i]);
    }
    free(s->owned);
    free(s->domains);
    free(s->pcpus);
    free(s);
}

/* A domain's eip list: its vCPUs' merged, ascending. */
static int merge_eips(struct xa_sum_domain *sd)
{
    struct xa_sum_eip *out;
    unsigned int i, n = 0, nr = 0;

    for ( i = 0; i < sd->nr_vcpus; i++ )
        n += sd->vcpus[i].intr_eips.nr;
    if ( !n )
        return XA_OK;
    out = calloc(n, sizeof(*out));
    if ( !out )
        return XA_E_NOMEM;
    for ( i = 0; i < sd->nr_vcpus; i++ )
    {
        const struct xa_sum_eips *l = &sd->vcpus[i].intr_eips;
        unsigned int a = 0, b = 0, k = 0;
        struct xa_sum_eip *tmp = calloc(nr + l->nr, sizeof(*tmp));

        if ( !tmp )
        {
            free(out);
            return XA_E_NOMEM;
        }
        while ( a < nr || b < l->nr )
        {
            if ( b == l->nr || (a < nr && out[a].eip < l->e[b].eip) )
                tmp[k++] = out[a++];
            else if ( a == nr || l->e[b].eip < out[a].eip )
                tmp[k++] = l->e[b++];
            else
            {
                tmp[k] = out[a++];
                tmp[k++].count += l->e[b++].count;
            }
        }
        memcpy(out, tmp, k * sizeof(*out));
        free(tmp);
        nr = k;
        sd->intr_eips.total += l->total;
        sd->intr_eips.other += l->other;
    }
    sd->intr_eips.e = out;
    sd->intr_eips.nr = nr;
    return XA_OK;
}

/* Upstream lists a domain's page tables by first load. */
static int cmp_cr3(const void *a, const void *b)
{
    const struct xa_sum_cr3 *x = a, *y = b;

    if ( x->first_tsc != y->first_tsc )
        return x->first_tsc < y->first_tsc ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

static int build_cr3s(const struct domain *d, struct xa_sum_domain *sd)
{
    struct xa_sum_cr3 *c;

    sd->cr3_untracked = d->cr3.untracked;
    if ( !d->cr3.nr )
        return XA_OK;
    c = malloc(d->cr3.nr * sizeof(*c));
    if ( !c )
        return XA_E_NOMEM;
    memcpy(c, d->cr3.v, d->cr3.nr * sizeof(*c));
    qsort(c, d->cr3.nr, sizeof(*c), cmp_cr3);
    sd->cr3s = c;
    sd->nr_cr3s = d->cr3.nr;
    return XA_OK;
}

static bool domain_has_guest_data(const struct domain *d)
{
    unsigned int i;

    for ( i = 0; i < d->nr_vcpus; i++ )
        if ( d->vcpus[i] && ((d->vcpus[i]->exits && d->vcpus[i]->exits->nr) ||
                             d->vcpus[i]->hypercalls.nr ||
                             d->vcpus[i]->pv_events.nr ||
                             d->vcpus[i]->w2h) )
            return true;
    return false;
}

static const char *domain_kind(const struct domain *d)
{
    unsigned int i;

    if ( d->id == XA_DOM_IDLE )
        return "idle";
    if ( d->id == XA_DOM_DEFAULT )
        return "default";
    if ( d->id == 0 )
        return "dom0";
    for ( i = 0; i < d->nr_vcpus; i++ )
        if ( d->vcpus[i] )
            switch ( d->vcpus[i]->type )
            {
            case VT_HVM:
                return "hvm";
            case VT_PV:
                return "pv";
            case VT_ARM:
                return "arm";
            case VT_NONE:
            default:
                break;
            }
    return "guest";
}

/* What the trace's own exit records say of VMX or SVM. */
static void hvm_evidence(const struct xa_model *m, char *buf, size_t size)
{
    if ( m->svm_record_seen )
        snprintf(buf, size, "SVM: separate SVM exit records (Xen 4.19+) at "
                 "offset 0x%llx", (unsigned long long)m->svm_evidence_offset);
    else if ( m->svm_seen )
        snprintf(buf, size, "SVM: exit code 0x%x (%s) is beyond VMX's exit "
                 "reasons (first at offset 0x%llx)", m->svm_evidence_code,
                 xa_svm_exit_name(m->svm_evidence_code)
                 ? xa_svm_exit_name(m->svm_evidence_code) : "?",
                 (unsigned long long)m->svm_evidence_offset);
    else
        snprintf(buf, size, "VMX: all %llu exit codes are VMX exit reasons",
                 (unsigned long long)m->hvm_exits);
}

bool xa_model_hvm_mode_doubt(const struct xa_model *m, char *buf,
                             size_t size)
{
    enum xa_hvm_mode_opt f = m->opts.hvm_mode;
    char ev[160];

    if ( !m->hvm_exits ||
         !((f == XA_HVM_MODE_FORCE_SVM && !m->svm_seen) ||
           (f == XA_HVM_MODE_FORCE_VMX && m->svm_seen)) )
        return false;
    hvm_evidence(m, ev, sizeof(ev));
    snprintf(buf, size, "--%s-mode given, but the trace's own evidence says "
             "%s", f == XA_HVM_MODE_FORCE_SVM ? "svm" : "vmx", ev);
    return true;
}

static void decide_arch(const struct xa_model *m, struct xa_summary *s)
{
    bool hvm = m->hvm_exits > 0, arm = m->arm_records > 0;

    s->hvm_mode = NULL;
    if ( hvm )
    {
        bool svm = m->fmt.hvm_mode == XA_HVM_SVM;
        char doubt[sizeof(s->hvm_mode_reason) - 8];

        s->hvm_mode = svm ? "svm" : "vmx";
        if ( xa_model_hvm_mode_doubt(m, doubt, sizeof(doubt)) )
            snprintf(s->hvm_mode_reason, sizeof(s->hvm_mode_reason),
                     "%s: %s", svm ? "SVM" : "VMX", doubt);
        else if ( m->opts.hvm_mode == XA_HVM_MODE_FORCE_SVM )
            snprintf(s->hvm_mode_reason, sizeof(s->hvm_mode_reason),
                     "SVM: --svm-mode given");
        else if ( m->opts.hvm_mode == XA_HVM_MODE_FORCE_VMX )
            snprintf(s->hvm_mode_reason, sizeof(s->hvm_mode_reason),
                     "VMX: --vmx-mode given");
        else
            hvm_evidence(m, s->hvm_mode_reason, sizeof(s->hvm_mode_reason));
    }
    if ( arm && (hvm || m->pv_records) )
        s->arch = "mixed";
    else if ( hvm )
        s->arch = m->fmt.hvm_mode == XA_HVM_SVM ? "x86-svm" : "x86-vmx";
    else if ( arm )
        s->arch = "arm";
    else if ( m->pv_records )
        s->arch = "x86-pv";
    else
        s->arch = "unknown";
}

static int build_domain(const struct xa_model *m, const struct domain *d,
                        const struct xa_filter *f, struct xa_sum_domain *sd)
{
    unsigned int j, n;

    sd->id = d->id;
    sd->incarnation = d->incarnation;
    sd->kind = domain_kind(d);
    for ( j = 0; j < XA_DRS_NR; j++ )
        sd->rs[j] = &d->rs[j];
    memcpy(sd->grant_ops, d->grant_ops, sizeof(sd->grant_ops));
    sd->pod_populate = d->pod_populate;
    sd->pod_reclaim = d->pod_reclaim;
    sd->pod_splinter = d->pod_splinter;
    memcpy(sd->pod_populate_order, d->pod_populate_order,
           sizeof(sd->pod_populate_order));
    memcpy(sd->pod_reclaim_order, d->pod_reclaim_order,
           sizeof(sd->pod_reclaim_order));
    for ( n = 0, j = 0; j < d->nr_vcpus; j++ )
        n += d->vcpus[j] != NULL;
    sd->vcpus = calloc(n ? n : 1, sizeof(*sd->vcpus));
    if ( !sd->vcpus )
        return XA_E_NOMEM;
    for ( j = 0; j < d->nr_vcpus; j++ )
        if ( d->vcpus[j] && xa_filter_vcpu(f, d->id, j) &&
             build_vcpu(m, d->vcpus[j], &sd->vcpus[sd->nr_vcpus++]) )
            return XA_E_NOMEM;
    if ( merge_eips(sd) )
        return XA_E_NOMEM;
    return build_cr3s(d, sd);
}

const struct xa_summary *xa_model_summary(struct xa_model *m,
                                          const struct xa_summary_info *info)
{
    struct xa_summary *s;
    const struct xa_filter *f;
    unsigned int i, n;

    if ( m->summary )
        m->mem = m->mem_model;      /* its aggregates' groups, given back */
    model_summary_free(m->summary);
    m->mem_model = m->mem;
    m->summary = s = calloc(1, sizeof(*s));
    if ( !s )
        return NULL;
    s->mem = &m->mem;
    s->mem_budget = m->key_budget;
    s->records = info->records;
    s->bytes = info->bytes;
    s->windows = info->windows;
    s->record_bytes = info->record_bytes;
    s->nr_pcpus = info->nr_pcpus;
    s->diag = info->diag;
    if ( info->cpu_hz )
    {
        s->cpu_hz = info->cpu_hz;
        s->cpu_hz_source = "option";
        s->cpu_hz_option = info->cpu_hz_option ? info->cpu_hz_option
                                               : "cpu-hz";
    }
    else if ( m->clock_hz >= XA_HZ_MIN && m->clock_hz <= XA_HZ_MAX )
    {
        s->cpu_hz = m->clock_hz;
        s->cpu_hz_source = "trace";
    }
    else
    {
        s->cpu_hz = XA_HZ_DEFAULT;
        s->cpu_hz_source = "default";
    }
    s->first_tsc = m->first_tsc;
    s->last_tsc = m->last_tsc;
    s->sort = info->sort;
    s->top = info->top;
    s->eip_list = m->opts.eip_list;
    s->eip_vector = m->opts.eip_vector;
    s->cr3_list = m->opts.cr3 && info->cr3_list;
    f = model_filter(m);
    s->windowed = xa_filter_has_window(f);
    s->win_lo = m->win_lo;
    s->win_hi = m->win_hi;
    s->from_ns = f->from_ns;
    s->to_ns = f->to_ns;
    s->selected = f->nr_domains || f->nr_vcpus;
    s->whole = f->whole && s->windowed;
    s->span_first = m->first_tsc > m->win_lo ? m->first_tsc : m->win_lo;
    s->span_last = m->last_tsc < m->win_hi ? m->last_tsc : m->win_hi;
    if ( s->span_last < s->span_first )
        s->span_last = s->span_first;
    decide_arch(m, s);

    s->domains = calloc(m->nr_domains ? m->nr_domains : 1,
                        sizeof(*s->domains));
    if ( !s->domains )
        goto fail;
    for ( i = 0; i <= DOM_HASH; i++ )
    {
        const struct domain *d;

        for ( d = i < DOM_HASH ? m->dom_hash[i] : m->retired; d;
              d = d->hnext )
        {
            /*
             * The default domain stands for "not known yet": list it only
             * when exits happened before any record said who was running
             * (e.g. a trace of the TRC_ARM class alone).
             */
            if ( d->id == XA_DOM_DEFAULT && !domain_has_guest_data(d) &&
                 !info->show_default_domain )
                continue;
            if ( !xa_filter_domain(f, d->id) )
                continue;
            if ( build_domain(m, d, f, &s->domains[s->nr_domains++]) )
                goto fail;
        }
    }
    qsort(s->domains, s->nr_domains, sizeof(*s->domains), cmp_domain);
    if ( summary_shape(s) )
        goto fail;
    for ( ; s->mem_folded; s->mem_folded-- )
        model_diag(m, XA_DIAG_MEMORY_BUDGET, UINT64_MAX, 0);
    for ( ; s->saturated; s->saturated-- )
        model_diag(m, XA_DIAG_SUM_SATURATED, UINT64_MAX, 0);

    for ( n = 0, i = 0; i < m->nr_pcpus; i++ )
        n += m->pcpus[i] && m->pcpus[i]->present;
    s->pcpus = calloc(n ? n : 1, sizeof(*s->pcpus));
    if ( !s->pcpus )
        goto fail;
    for ( i = 0; i < m->nr_pcpus; i++ )
    {
        const struct pcpu *p = m->pcpus[i];
        struct xa_sum_pcpu *sp;

        if ( !p || !p->present )
            continue;
        sp = &s->pcpus[s->nr_pcpus_arr++];
        sp->id = i;
        sp->running = &p->running;
        sp->idle = &p->idle;
        sp->lost = &p->lost;
        sp->records = p->records;
        memcpy(sp->volume, p->volume, sizeof(sp->volume));
    }
    return s;

 fail:
    model_summary_free(s);
    m->summary = NULL;
    return NULL;
}
