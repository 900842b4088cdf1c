/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * x86: HVM exits plug into the generic pairing (VMEXIT opens, VMENTRY
 * closes, handler records give the breakdown key); PV records are
 * counted per hypercall and per event.
 *
 * Records come from xen/arch/x86/hvm/{vmx/vmx.c,svm/svm.c} (exit/entry),
 * the HVMTRACE_* calls in xen/arch/x86/hvm/ (handlers) and
 * xen/arch/x86/pv/trace.c (PV).
 */
#include <stdlib.h>

#include "model-private.h"

#define HVM_LOW(ev)     ((ev) & 0x3ff & ~(uint32_t)XA_TRC_64_FLAG)

/* Handler records (TRC_HVM_HANDLER low bits, 64-bit flag stripped). */
enum {
    H_CR_READ = 0x08,
    H_CR_WRITE = 0x09,
    H_MSR_READ = 0x0c,
    H_MSR_WRITE = 0x0d,
    H_CPUID = 0x0e,
    H_INJ_VIRQ = 0x04,
    H_INTR = 0x0f,
    H_VMMCALL = 0x12,
    H_IOPORT_READ = 0x16,
    H_IOMEM_READ = 0x17,
    H_NPF = 0x21,
    H_IOPORT_WRITE = 0x216,
    H_IOMEM_WRITE = 0x217,
};

static void note_svm(struct xa_model *m, const struct xa_record *rec,
                     uint32_t code, bool record)
{
    if ( m->svm_seen )
        return;
    m->svm_seen = true;
    m->svm_record_seen = record;
    m->svm_evidence_code = code;
    m->svm_evidence_offset = rec->offset;
    if ( m->opts.hvm_mode == XA_HVM_MODE_AUTO )
        m->fmt.hvm_mode = XA_HVM_SVM;
}

static void hvm_exit(struct xa_model *m, struct vcpu *v,
                     const struct xa_record *rec, bool svm_record)
{
    uint32_t code = rec->extra[0];

    m->hvm_exits++;
    if ( svm_record )
        note_svm(m, rec, code, true);
    else if ( code > xa_vmx_exit_max() && code != UINT32_MAX )
        note_svm(m, rec, code, false);
    /* Word 1 is the guest's rip, words 1-2 in the 64-bit record. */
    v->exit_rip = rec->nr_extra >= 2 ? rec->extra[1] : 0;
    if ( (rec->event & XA_TRC_64_FLAG) && rec->nr_extra >= 3 )
        v->exit_rip |= (uint64_t)rec->extra[2] << 32;
    model_exit_open(m, v, rec, code);
}

/* Wake to halt */

static void w2h_inject(struct vcpu *v, unsigned int vec)
{
    struct w2h *w = v->w2h;
    struct w2h_vec *g;

    if ( !w && !(w = v->w2h = calloc(1, sizeof(*w))) )
        return;
    g = &w->vec[vec];
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
    }
}

/* The interrupts injected before this entry start their clocks here. */
static void w2h_entry(struct w2h *w, uint64_t tsc)
{
    unsigned int i;

    w->waking = false;
    for ( i = 0; i < 256 && w->wanting; i++ )
        if ( w->vec[i].start_tsc == 1 )
        {
            w->vec[i].start_tsc = tsc;
            w->wanting--;
        }
}

/* The vCPU halts (running to blocked): every started clock stops. */
static void w2h_halt(struct w2h *w, uint64_t tsc)
{
    unsigned int i;

    for ( i = 0; i < 256; i++ )
    {
        struct w2h_vec *g = &w->vec[i];
        uint64_t t;

        if ( !g->start_tsc )
            continue;
        t = g->start_tsc == 1 || tsc < g->start_tsc ? 0 : tsc - g->start_tsc;
        if ( t && !g->times )
            g->times = calloc(W2H_NR, sizeof(*g->times));
        if ( t && g->times )
        {
            if ( g->is_wake )
            {
                if ( w->interrupts == 1 )
                    xa_stat_add(&g->times[W2H_WAKE_ALONE], t);
                xa_stat_add(&g->times[W2H_WAKE_ANY], t);
            }
            else
                xa_stat_add(&g->times[W2H_INTR], t);
        }
        g->start_tsc = 0;
        g->is_wake = false;
    }
    w->interrupts = 0;
    w->wake_vector = 0;
    w->wanting = 0;
}

/*
 * The scheduler's side (upstream's rules): a wake from blocked starts
 * "waking" until the vCPU enters the guest; a halt (running to blocked)
 * stops every started clock.
 */
void x86_w2h_runstate(struct vcpu *v, int old_rs, int new_rs, uint64_t tsc)
{
    struct w2h *w = v->w2h;
    bool wake = new_rs == RS_RUNNABLE && old_rs == RS_BLOCKED;

    if ( !w )
    {
        /* Remember a wake even before the first injection. */
        if ( wake && (w = v->w2h = calloc(1, sizeof(*w))) )
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
            w2h_halt(w, tsc);
    }
}

void x86_w2h_reset(struct vcpu *v)
{
    struct w2h *w = v->w2h;
    unsigned int i;

    if ( !w )
        return;
    w->waking = false;
    w->wake_vector = 0;
    w->interrupts = 0;
    w->wanting = 0;
    for ( i = 0; i < 256; i++ )
    {
        w->vec[i].start_tsc = 0;
        w->vec[i].is_wake = false;
    }
}

void x86_w2h_free(struct vcpu *v)
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

static void hvm_handler(struct xa_model *m, struct vcpu *v,
                        const struct xa_record *rec)
{
    uint32_t low = rec->event & 0x3ff & ~(uint32_t)XA_TRC_64_FLAG;
    const uint32_t *w = rec->extra;
    bool is64 = rec->event & XA_TRC_64_FLAG;

    if ( rec->nr_extra < 1 )
        return;
    /* svm/intr.c, vmx/intr.c: an interrupt injected into the guest. */
    if ( low == H_INJ_VIRQ )
    {
        w2h_inject(v, w[0] & 0xff);
        if ( OBS(m, guest_irq) )
            m->obs.guest_irq(m->obs.arg, v->d->id, v->id, w[0] & 0xff,
                             rec->tsc);
        return;
    }
    if ( !v->exit_open )
        return;
    switch ( low )
    {
    case H_IOPORT_READ:
        model_exit_sub(v, XA_SUB_IO_R, w[0] & 0xffff, false);
        break;
    case H_IOPORT_WRITE:
        model_exit_sub(v, XA_SUB_IO_W, w[0] & 0xffff, false);
        break;
    case H_IOMEM_READ:
    case H_IOMEM_WRITE:
    {
        uint64_t gpa = w[0];

        if ( is64 && rec->nr_extra >= 2 )
            gpa |= (uint64_t)w[1] << 32;
        model_exit_sub(v, low == H_IOMEM_READ ? XA_SUB_MMIO_R
                                              : XA_SUB_MMIO_W, gpa, true);
        break;
    }
    case H_MSR_READ:
        model_exit_sub(v, XA_SUB_MSR_R, w[0], false);
        break;
    case H_MSR_WRITE:
        model_exit_sub(v, XA_SUB_MSR_W, w[0], false);
        break;
    case H_CR_READ:
        model_exit_sub(v, XA_SUB_CR_R, w[0], false);
        break;
    case H_CR_WRITE:
        model_exit_sub(v, XA_SUB_CR_W, w[0], false);
        break;
    case H_CPUID:
        model_exit_sub(v, XA_SUB_CPUID, w[0], false);
        break;
    case H_INTR:
        model_exit_sub(v, XA_SUB_VECTOR, w[0] & 0xff, false);
        break;
    case H_VMMCALL:
        model_exit_sub(v, XA_SUB_HYPERCALL, w[0], false);
        break;
    case H_NPF:
        if ( rec->nr_extra >= 2 )
            model_exit_sub(v, XA_SUB_NPF,
                           (w[0] | ((uint64_t)w[1] << 32)) & ~0xfffull,
                           false);
        break;
    default:
        break;
    }
}

void x86_hvm_record(struct xa_model *m, const struct xa_record *rec)
{
    uint32_t ev = rec->event;
    struct vcpu *v;

    if ( XA_TRC_SUB(ev) == (XA_TRC_HVM_EMUL >> 12 & 0xf) )
        return;
    v = model_guest_vcpu(m, rec, VT_HVM);
    if ( !v )
        return;

    if ( XA_TRC_SUB(ev) == (XA_TRC_HVM_ENTRYEXIT >> 12 & 0xf) )
    {
        switch ( HVM_LOW(ev) )
        {
        case 0x01:                                  /* VMENTRY */
            if ( v->w2h )
                w2h_entry(v->w2h, rec->tsc);
            model_exit_close(m, v, rec->tsc);
            break;
        case 0x02:                                  /* VMEXIT(64) */
            if ( rec->nr_extra >= 1 )
                hvm_exit(m, v, rec, false);
            break;
        case 0x03:                                  /* SVM exit, 4.19+ */
            if ( rec->nr_extra >= 1 )
                hvm_exit(m, v, rec, true);
            break;
        default:
            break;
        }
    }
    else if ( XA_TRC_SUB(ev) == (XA_TRC_HVM_HANDLER >> 12 & 0xf) )
        hvm_handler(m, v, rec);
}

/*
 * PV: TRC_PV_HYPERCALL (word 0: op, v1 64-bit: eip first) and
 * TRC_PV_HYPERCALL_V2 (word 0: op in bits 0-19), subcalls, and every
 * other PV event counted by id.
 */
void x86_pv_record(struct xa_model *m, const struct xa_record *rec)
{
    uint32_t ev = rec->event, low = ev & 0xff;
    struct vcpu *v;

    m->pv_records++;
    v = model_guest_vcpu(m, rec, VT_PV);
    if ( !v )
        return;
    if ( (ev & 0x0ffff000) == XA_TRC_PV_ENTRY && low == 13 &&
         rec->nr_extra >= 1 )
        count_tab_add(&v->hypercalls, rec->extra[0] & 0xfffff, 1);
    else if ( (ev & 0x0ffff000) == XA_TRC_PV_ENTRY && low == 1 &&
              rec->nr_extra >= 1 )
        count_tab_add(&v->hypercalls,
                      rec->extra[(ev & XA_TRC_64_FLAG) ? 2 : 1 ] & 0xfffff,
                      1);
    else if ( (ev & 0x0ffff000) == XA_TRC_PV_SUBCALL && low == 14 &&
              rec->nr_extra >= 1 )
        count_tab_add(&v->hypercalls,
                      (rec->extra[0] & 0xfffff) | XA_PV_SUBCALL_BIT, 1);
    else
        count_tab_add(&v->pv_events, ev & ~(uint32_t)XA_TRC_64_FLAG, 1);
}

