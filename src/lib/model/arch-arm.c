/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Arm: guest exits and entries of the TRC_ARM class
 * (docs/arm-trace-events.md; emitted by xen/arch/arm/traps.c with
 * xen-patches/4.17) plug into the generic pairing.  The exit's code is
 * the exception class (ESR_EL2 bits 31:26) of a synchronous exit, or
 * XA_ARM_CODE_IRQ/FIQ/SERROR.
 */
#include "model-private.h"

void arm_record(struct xa_model *m, const struct xa_record *rec)
{
    const uint32_t *w = rec->extra;
    uint32_t ev = rec->event;
    struct vcpu *v;

    m->arm_records++;
    if ( ev == XA_TRC_ARM_CLOCK )
    {
        if ( rec->nr_extra >= 2 && !m->clock_hz )
            m->clock_hz = w[0] | ((uint64_t)w[1] << 32);
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
        model_exit_open(m, v, rec, code);
        break;
    }
    case XA_TRC_ARM_GUEST_ENTRY:
        if ( v->arch_init )
            model_exit_close(m, v, rec->tsc);
        break;
    case XA_TRC_ARM_HVC:
        if ( rec->nr_extra >= 1 )
            model_exit_sub(v, XA_SUB_HYPERCALL, w[0], false);
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
