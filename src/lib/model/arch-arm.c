/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Arm: guest exits plug into the generic pairing.  The exit's code is the
 * exception class (ESR_EL2 bits 31:26) of a synchronous exit or SError,
 * XA_ARM_CODE_IRQ for an interrupt (and, in format 1, XA_ARM_CODE_FIQ and
 * XA_ARM_CODE_SERROR).  Two formats (docs/arm-trace-events.md):
 *  - format 2, xen-patches/master and 4.20: exits under TRC_HVM_ENTRYEXIT,
 *    the entry shared with x86 (model.c), handler records under
 *    TRC_HVM_HANDLER giving the value moved, the MMIO access, the stage-2
 *    fault; the breakdown key of sysreg, coprocessor and WFx exits comes
 *    from the exit's syndrome;
 *  - format 1, xen-patches/4.17: the TRC_ARM class.
 */
#include "model-private.h"

#define ARM_EC_WFX      0x01
#define ARM_EC_CP15_32  0x03
#define ARM_EC_CP15_64  0x04
#define ARM_EC_CP14_32  0x05
#define ARM_EC_CP10     0x08
#define ARM_EC_CP14_64  0x0c
#define ARM_EC_SYSREG   0x18

/* ISS bits naming the register of a 32-bit / 64-bit coprocessor access. */
#define CP32_MASK       0x000ffc1eu     /* Opc2, Opc1, CRn, CRm */
#define CP64_MASK       0x000f001eu     /* Opc1, CRm */

/* The key a synchronous exit has from its syndrome alone, if any. */
static void exit_key_from_esr(struct vcpu *v, uint32_t esr)
{
    uint32_t ec = esr >> 26, iss = esr & 0x1ffffff;
    bool read = iss & 1;

    switch ( ec )
    {
    case ARM_EC_SYSREG:
        model_exit_sub(v, read ? XA_SUB_SYSREG_R : XA_SUB_SYSREG_W,
                       iss & XA_ARM_SYSREG_ISS_MASK, true);
        break;
    case ARM_EC_CP15_32:
    case ARM_EC_CP14_32:
    case ARM_EC_CP10:
        model_exit_sub(v, read ? XA_SUB_CP_R : XA_SUB_CP_W,
                       (uint64_t)ec << 32 | (iss & CP32_MASK), true);
        break;
    case ARM_EC_CP15_64:
    case ARM_EC_CP14_64:
        model_exit_sub(v, read ? XA_SUB_CP_R : XA_SUB_CP_W,
                       (uint64_t)ec << 32 | (iss & CP64_MASK), true);
        break;
    case ARM_EC_WFX:
        /* WFI: blocked (0) unless TRC_HVM_HLT says an event was pending. */
        model_exit_sub(v, (iss & 1) ? XA_SUB_WFE : XA_SUB_WFI, 0, true);
        break;
    default:
        break;
    }
}

/* A field that is one word, or two in the TRC_64_FLAG form; *i past it. */
static uint64_t take(const struct xa_record *rec, unsigned int *i)
{
    uint64_t v = rec->extra[*i];

    if ( rec->event & XA_TRC_64_FLAG )
        v |= (uint64_t)rec->extra[++*i] << 32;
    ++*i;
    return v;
}

static void arm_hvm_record(struct xa_model *m, struct vcpu *v,
                           const struct xa_record *rec)
{
    uint32_t ev = rec->event & ~(uint32_t)XA_TRC_64_FLAG;
    const struct xa_event_desc *d = xa_catalog_lookup(m->cat, rec->event);
    unsigned int i = 0;

    m->arm_records++;
    if ( !d || rec->nr_extra < d->min_extra )
        return;
    switch ( ev )
    {
    case XA_TRC_HVM_ARM_EXIT:
    {
        uint32_t esr = rec->extra[i++];

        m->arm_exits++;
        v->exit_rip = take(rec, &i);
        model_exit_open(m, v, rec, esr >> 26);
        exit_key_from_esr(v, esr);
        break;
    }
    case XA_TRC_HVM_ARM_EXIT_IRQ:
        m->arm_exits++;
        v->exit_rip = take(rec, &i);
        model_exit_open(m, v, rec, XA_ARM_CODE_IRQ);
        break;
    case XA_TRC_HVM_HLT:
        model_exit_sub(v, XA_SUB_WFI, rec->extra[0] & 1, true);
        break;
    case XA_TRC_HVM_ARM_HYPERCALL:
    {
        /* Bits 32-47: the sub-operation + 1 (a0), 0 when none. */
        const struct xa_hypercall_args *h = xa_hypercall_args(rec->extra[0]);
        uint64_t key = rec->extra[0];

        if ( h && h->subop_arg == 0 && rec->nr_extra >= 2 &&
             (rec->extra[1] & h->subop_mask) < 0xffff )
            key |= (uint64_t)((rec->extra[1] & h->subop_mask) + 1) << 32;
        model_exit_sub(v, XA_SUB_HYPERCALL, key, false);
        break;
    }
    case XA_TRC_HVM_ARM_SMCCC:
        model_exit_sub(v, XA_SUB_SMC, rec->extra[0], false);
        break;
    case XA_TRC_HVM_ARM_MMIO:
    {
        uint64_t gpa = take(rec, &i);

        take(rec, &i);
        /* The access is the exit's key, whatever the stage-2 record says. */
        model_exit_sub(v, (rec->extra[i] & XA_ARM_MMIO_WRITE)
                          ? XA_SUB_MMIO_W : XA_SUB_MMIO_R, gpa, true);
        break;
    }
    case XA_TRC_HVM_ARM_S2_FAULT:
        take(rec, &i);
        take(rec, &i);
        model_exit_sub(v, XA_SUB_S2, rec->extra[i] & 0xff, false);
        break;
    case XA_TRC_HVM_ARM_IRQ:
        model_exit_sub(v, XA_SUB_IRQ, rec->extra[0], false);
        break;
    default:
        break;
    }
}

static void arm_record(struct xa_model *m, const struct xa_record *rec)
{
    const uint32_t *w = rec->extra;
    uint32_t ev = rec->event;
    struct vcpu *v;

    m->arm_records++;
    if ( ev == XA_TRC_ARM_CLOCK )
    {
        if ( rec->nr_extra >= 2 && !m->clock_hz )
        {
            m->clock_hz = w[0] | ((uint64_t)w[1] << 32);
            model_window_update(m);
        }
        return;
    }
    v = model_guest_vcpu(m, rec, VT_ARM);
    if ( !v )
        return;

    switch ( ev )
    {
    case XA_TRC_ARM_GUEST_EXIT:
    {
        uint32_t code;

        if ( rec->nr_extra < 5 )
            return;
        m->arm_exits++;
        switch ( w[4] )
        {
        case 0:
            code = w[0] >> 26;
            break;
        case 1:
            code = XA_ARM_CODE_IRQ;
            break;
        case 2:
            code = XA_ARM_CODE_FIQ;
            break;
        default:
            code = XA_ARM_CODE_SERROR;
            break;
        }
        /* Words 2-3: the guest PC (ELR_EL2), as x86 gives the rip. */
        v->exit_rip = w[2] | ((uint64_t)w[3] << 32);
        model_exit_open(m, v, rec, code);
        break;
    }
    case XA_TRC_ARM_GUEST_ENTRY:
        if ( v->arch_init )
            model_exit_close(m, v, rec->tsc, XA_CLOSED_BY_ENTRY);
        break;
    case XA_TRC_ARM_HVC:
        if ( rec->nr_extra >= 1 )
        {
            /* Bits 32-47: the sub-operation + 1 (a0), 0 when none. */
            const struct xa_hypercall_args *h = xa_hypercall_args(w[0]);
            uint64_t key = w[0];

            if ( h && h->subop_arg == 0 && rec->nr_extra >= 2 &&
                 (w[1] & h->subop_mask) < 0xffff )
                key |= (uint64_t)((w[1] & h->subop_mask) + 1) << 32;
            model_exit_sub(v, XA_SUB_HYPERCALL, key, false);
        }
        break;
    case XA_TRC_ARM_SMC:
        if ( rec->nr_extra >= 1 )
            model_exit_sub(v, XA_SUB_SMC, w[0], false);
        break;
    case XA_TRC_ARM_DABT:
        if ( rec->nr_extra >= 3 )
            model_exit_sub(v, (w[2] & 4) ? XA_SUB_MMIO_W : XA_SUB_MMIO_R,
                           w[0] | ((uint64_t)w[1] << 32), false);
        break;
    case XA_TRC_ARM_SYSREG:
        if ( rec->nr_extra >= 2 )
            model_exit_sub(v, (w[1] & 1) ? XA_SUB_SYSREG_R
                                         : XA_SUB_SYSREG_W, w[0], false);
        break;
    case XA_TRC_ARM_WFX:
        if ( rec->nr_extra >= 1 )
            model_exit_sub(v, (w[0] & 1) ? XA_SUB_WFE : XA_SUB_WFI, 0,
                           false);
        break;
    case XA_TRC_ARM_IRQ:
        if ( rec->nr_extra >= 1 )
            model_exit_sub(v, XA_SUB_IRQ, w[0], false);
        break;
    case XA_TRC_ARM_VGIC_MAINT:
        model_exit_sub(v, XA_SUB_VGIC, 0, false);
        break;
    default:
        break;
    }
}

const struct arch_ops arm_ops = {
    .hvm_own = { { XA_TRC_HVM_ARM_EXIT, XA_TRC_HVM_ARM_EXIT_IRQ },
                 { XA_TRC_HVM_ARM_HYPERCALL, XA_TRC_HVM_ARM_IRQ } },
    .virq_mask = UINT32_MAX,
    .hvm_record = arm_hvm_record,
    .shared_record = arm_hvm_record,
    .class_record = arm_record,
};
