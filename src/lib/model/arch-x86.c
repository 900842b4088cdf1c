/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * x86: HVM exits plug into the generic pairing (VMEXIT opens, VMENTRY
 * closes in model.c, handler records give the breakdown key); PV records
 * are counted per hypercall and per event.
 *
 * Records come from xen/arch/x86/hvm/{vmx/vmx.c,svm/svm.c} (exit/entry),
 * the HVMTRACE_* calls in xen/arch/x86/hvm/ (handlers) and
 * xen/arch/x86/pv/trace.c (PV).
 */
#include "model-private.h"

#define HVM_LOW(ev)     ((ev) & 0x3ff & ~(uint32_t)XA_TRC_64_FLAG)

/* Handler records (TRC_HVM_HANDLER low bits, 64-bit flag stripped). */
enum {
    H_CR_READ = 0x08,
    H_CR_WRITE = 0x09,
    H_MSR_READ = 0x0c,
    H_MSR_WRITE = 0x0d,
    H_CPUID = 0x0e,
    H_INTR = 0x0f,
    H_VMMCALL = 0x12,
    H_IOPORT_READ = 0x16,
    H_IOMEM_READ = 0x17,
    H_NPF = 0x21,
    H_IOPORT_WRITE = 0x216,
    H_IOMEM_WRITE = 0x217,
};

/*
 * The shadow records of an exit (xen/arch/x86/mm/shadow/multi.c and
 * common.c), as upstream's shadow_process() takes them: the first page
 * fault record decides how the exit is handled (emulate, fixup, other);
 * the path flags come from the last emulate or fixup record.
 */
enum sh_fault { SH_NONE, SH_EMULATE, SH_FIXUP, SH_OTHER };

#define SH_NOT_SHADOW       1
#define SH_FIXUP_REC        6
#define SH_EMULATE_REC      8
#define SH_LAST_FAULT       11
#define SH_PREALLOC_UNPIN   13
/* multi.c's TRCE_SFLAG_* bits (shadow/private.h) */
#define SH_FLAG_PROMOTE         (1u << 9)
#define SH_FLAG_EARLY_UNSHADOW  (1u << 13)

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
    if ( m->opts.cr3 )
        cr3_exit(m, v, rec->tsc);
    v->cr3_write = false;
    v->sh_fault = SH_NONE;
    v->sh_unpin = false;
    v->sh_bits = 0;
    model_exit_open(m, v, rec, code);
}

/* Upstream keeps the low 48 bits of an interrupted rip (its ADDR_SPACE). */
#define EIP_MASK ((1ull << 48) - 1)

static void hvm_intr(struct xa_model *m, struct vcpu *v,
                     const struct xa_record *rec, unsigned int vec)
{
    if ( OBS(m, intr) )
        m->obs.intr(m->obs.arg, v->d->id, v->id, vec, v->exit_tsc,
                    v->exit_rip);
    if ( m->opts.eip_list && vec == m->opts.eip_vector &&
         win_in(m, v->exit_tsc) )
        eip_tab_add(m, &v->intr_eips, v->exit_rip & EIP_MASK, rec);
}

/* Upstream's VGA range, which its MMIO enumeration skips by default. */
static inline bool in_vga(uint64_t gpa)
{
    return gpa >= 0xa0000 && gpa < 0xbffff;
}

static void hvm_handler(struct xa_model *m, struct vcpu *v,
                        const struct xa_record *rec)
{
    uint32_t low = rec->event & 0x3ff & ~(uint32_t)XA_TRC_64_FLAG;
    const uint32_t *w = rec->extra;
    bool is64 = rec->event & XA_TRC_64_FLAG;

    if ( !v->exit_open )
        return;
    hvm_short_note(v, rec);
    if ( rec->nr_extra < 1 )
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
        if ( m->opts.mmio_skip_vga && in_vga(gpa) )
        {
            v->sub_kind = XA_SUB_NONE;      /* not even its NPF page */
            break;
        }
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
        hvm_intr(m, v, rec, w[0] & 0xff);
        break;
    case H_VMMCALL:
        model_exit_sub(v, XA_SUB_HYPERCALL, w[0], false);
        break;
    case H_NPF:
        if ( rec->nr_extra >= 2 && !(m->opts.mmio_skip_vga && w[1] == 0 &&
                                     in_vga(w[0])) )
            model_exit_sub(v, XA_SUB_NPF,
                           (w[0] | ((uint64_t)w[1] << 32)) & ~0xfffull,
                           false);
        break;
    default:
        break;
    }
}

static void x86_hvm_record(struct xa_model *m, struct vcpu *v,
                           const struct xa_record *rec)
{
    uint32_t ev = rec->event;

    if ( XA_TRC_SUB(ev) == (XA_TRC_HVM_ENTRYEXIT >> 12 & 0xf) )
    {
        switch ( HVM_LOW(ev) )
        {
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
 * TRC_SHADOW, during an open exit of an HVM vCPU.  Records carry the
 * guest's paging levels - 2 in id bits 8-11; the flags word is at the end
 * of an emulate record ({gl1e, write_val, va, flags}: word 3, 5 or 6 for
 * 2, 3 or 4 levels) and of a fixup record ({gl1e, va, flags}: 2, 3, 4).
 */
static uint8_t shadow_bits(const struct vcpu *v);

static void x86_shadow_record(struct xa_model *m, const struct xa_record *rec)
{
    static const uint8_t emulate_flags[3] = { 3, 5, 6 };
    static const uint8_t fixup_flags[3] = { 2, 3, 4 };
    unsigned int minor = rec->event & 0xff;
    unsigned int levels = (rec->event >> 8) & 0xf;
    struct vcpu *v = model_guest_vcpu(m, rec, VT_HVM);
    unsigned int w;

    if ( !v || !v->exit_open || v->type != VT_HVM )
        return;
    if ( minor == SH_PREALLOC_UNPIN )
    {
        v->sh_unpin = true;
        v->sh_bits = shadow_bits(v);
        if ( m->opts.cr3 && rec->nr_extra >= 2 )
            cr3_unpin(v, rec->extra[0] | (uint64_t)rec->extra[1] << 32);
        return;
    }
    if ( minor < SH_NOT_SHADOW || minor > SH_LAST_FAULT )
        return;
    if ( (minor == SH_EMULATE_REC || minor == SH_FIXUP_REC) && levels < 3 )
    {
        w = minor == SH_EMULATE_REC ? emulate_flags[levels]
                                    : fixup_flags[levels];
        if ( rec->nr_extra <= w )
            return;     /* a SHORT_RECORD: upstream takes it for none */
        v->sh_flags = rec->extra[w];
    }
    if ( v->sh_fault == SH_NONE )
        v->sh_fault = minor == SH_EMULATE_REC ? SH_EMULATE
                      : minor == SH_FIXUP_REC ? SH_FIXUP : SH_OTHER;
    v->sh_bits = shadow_bits(v);
}

/* What upstream's --scatterplot-unpin-promote plots of the exit. */
static uint8_t shadow_bits(const struct vcpu *v)
{
    uint8_t b = 0;

    if ( v->sh_fault != SH_EMULATE && v->sh_fault != SH_FIXUP )
        return 0;
    if ( v->sh_fault == SH_EMULATE &&
         (v->sh_flags & SH_FLAG_EARLY_UNSHADOW) )
        b |= XA_EXIT_SH_EARLY_UNSHADOW;
    if ( v->sh_unpin )
        b |= XA_EXIT_SH_UNPIN;
    if ( v->sh_flags & SH_FLAG_PROMOTE )
        b |= XA_EXIT_SH_PROMOTE;
    return b;
}

/*
 * The key of a TRC_PV_HYPERCALL_V2 or _SUBCALL record: the op, and the
 * sub-operation + 1 in XA_PV_SUBOP_SHIFT's bits when the op has one and
 * it was traced (__trace_hypercall(): word 0 says which arguments follow,
 * two bits each from bit 20).
 */
static uint32_t pv_hypercall_key(const struct xa_record *rec)
{
    uint32_t op = rec->extra[0] & 0xfffff;
    const struct xa_hypercall_args *h = xa_hypercall_args(op);
    unsigned int a, w = 1;

    if ( !h || h->subop_arg < 0 )
        return op;
    for ( a = 0; a < 6; a++ )
    {
        unsigned int bits = (rec->extra[0] >> (20 + 2 * a)) & 3;
        unsigned int n = bits == 2 ? 2 : bits == 1 ? 1 : 0;

        if ( (int)a == h->subop_arg )
        {
            uint32_t sub;

            if ( !n || w >= rec->nr_extra )
                return op;
            sub = rec->extra[w] & h->subop_mask;
            return sub < XA_PV_SUBOP_MAX ? op | (sub + 1) << XA_PV_SUBOP_SHIFT
                                         : op;
        }
        w += n;
    }
    return op;
}

/*
 * PV: TRC_PV_HYPERCALL (word 0: op, v1 64-bit: eip first) and
 * TRC_PV_HYPERCALL_V2 (word 0: op in bits 0-19), subcalls, and every
 * other PV event counted by id.
 */
static void x86_pv_record(struct xa_model *m, const struct xa_record *rec)
{
    uint32_t ev = rec->event, low = ev & 0xff;
    struct vcpu *v;
    int rc;

    m->pv_records++;
    v = model_guest_vcpu(m, rec, VT_PV);
    if ( !v || !win_in(m, rec->tsc) )
        return;
    if ( (ev & 0x0ffff000) == XA_TRC_PV_ENTRY && low == 13 &&
         rec->nr_extra >= 1 )
        rc = count_tab_add(m, &v->hypercalls, pv_hypercall_key(rec), 1);
    else if ( (ev & 0x0ffff000) == XA_TRC_PV_ENTRY && low == 1 )
    {
        /* v1: the guest's eip (two words when 64-bit), then the op. */
        unsigned int w = (ev & XA_TRC_64_FLAG) ? 2 : 1;

        if ( rec->nr_extra <= w )
            return;     /* no op: a SHORT_RECORD (the catalog's minimum) */
        rc = count_tab_add(m, &v->hypercalls, rec->extra[w] & 0xfffff, 1);
    }
    else if ( (ev & 0x0ffff000) == XA_TRC_PV_SUBCALL && low == 14 &&
              rec->nr_extra >= 1 )
        rc = count_tab_add(m, &v->hypercalls,
                           pv_hypercall_key(rec) | XA_PV_SUBCALL_BIT, 1);
    else
        rc = count_tab_add(m, &v->pv_events, ev & ~(uint32_t)XA_TRC_64_FLAG,
                           1);
    if ( rc > 0 )
        model_diag(m, XA_DIAG_LIMIT_KEYS, rec->offset, rec->cpu);
}

const struct arch_ops x86_hvm_ops = {
    .hvm_rest = true,
    .virq_mask = 0xff,
    .hvm_record = x86_hvm_record,
    .class_record = x86_shadow_record,      /* TRC_SHADOW */
};

const struct arch_ops x86_pv_ops = {
    .virq_mask = 0xff,
    .class_record = x86_pv_record,
};
