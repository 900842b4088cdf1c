/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Xen on Arm's guest exit records, format 2 (docs/arm-trace-events.md;
 * xen-patches/master and 4.20): exit ids beside VMX's and SVM's under
 * TRC_HVM_ENTRYEXIT and Arm handler records under TRC_HVM_HANDLER, from
 * xen/arch/arm/traps.c, io.c, ioreq.c, vsmc.c and gic.c.  The entry
 * (TRC_HVM_VMENTRY), TRC_HVM_INJ_VIRQ and TRC_HVM_HLT are x86's records,
 * in class-hvm.c.  TRC_64_FLAG variants carry 64-bit fields as two
 * words, low first; Xen picks them per record when a high word is not 0.
 */
#include "catalog-private.h"

#define XA_H(e)         (XA_TRC_HVM_HANDLER + (e))
#define XA_H64(e)       (XA_TRC_HVM_HANDLER + XA_TRC_64_FLAG + (e))

/* Word i as an address: two words in the TRC_64_FLAG form, else one. */
static uint64_t word_or_u64(const struct xa_record *r, unsigned int i)
{
    return (r->event & XA_TRC_64_FLAG) ? xa_u64(r, i) : r->extra[i];
}

/* Words after a 64-bit-or-not field at word i. */
static unsigned int after(const struct xa_record *r, unsigned int i)
{
    return i + ((r->event & XA_TRC_64_FLAG) ? 2u : 1u);
}

/* traps.c: enter_hypervisor_from_guest_preirq(), { esr, pc } */
static void fmt_exit(const struct xa_record *r, struct xa_out *o,
                     const struct xa_fmt_ctx *ctx)
{
    uint32_t esr = r->extra[0], ec = esr >> 26;

    (void)ctx;
    xa_fmt_kv_name(o, "ec", xa_arm_ec_name(ec), ec);
    if ( esr & (1u << 25) )
        xa_out_str(o, " il32");
    xa_fmt_arm_iss(o, ec, esr & 0x1ffffff);
    xa_fmt_kv_x(o, "pc", word_or_u64(r, 1));
}

/* The same for an interrupt, { pc } */
static void fmt_exit_irq(const struct xa_record *r, struct xa_out *o,
                         const struct xa_fmt_ctx *ctx)
{
    (void)ctx;
    xa_fmt_kv_x(o, "pc", word_or_u64(r, 0));
}

/* traps.c: do_trap_hypercall(), { nr, a0 } */
static void fmt_hypercall(const struct xa_record *r, struct xa_out *o,
                          const struct xa_fmt_ctx *ctx)
{
    (void)ctx;
    xa_fmt_arm_call(o, false, r->extra[0], word_or_u64(r, 1));
}

/* vsmc.c: vsmccc_handle_call(), { fid, a1 } */
static void fmt_smccc(const struct xa_record *r, struct xa_out *o,
                      const struct xa_fmt_ctx *ctx)
{
    (void)ctx;
    xa_fmt_arm_call(o, true, r->extra[0], word_or_u64(r, 1));
}

/* traps.c: do_trap_guest_sync() after do_sysreg()/do_cp*(), { value } */
static void fmt_sysreg(const struct xa_record *r, struct xa_out *o,
                       const struct xa_fmt_ctx *ctx)
{
    (void)ctx;
    xa_fmt_kv_x(o, "value", word_or_u64(r, 0));
}

/* io.c: handle_read(), handle_write(); ioreq.c: handle_ioserv() */
static void fmt_mmio(const struct xa_record *r, struct xa_out *o,
                     const struct xa_fmt_ctx *ctx)
{
    unsigned int d = after(r, 0), f = after(r, d);
    uint32_t flags = r->extra[f];

    (void)ctx;
    xa_fmt_kv_x(o, "gpa", word_or_u64(r, 0));
    xa_out_str(o, (flags & XA_ARM_MMIO_WRITE) ? " write" : " read");
    xa_fmt_kv_u(o, "size", 1u << (flags & XA_ARM_MMIO_SIZE_MASK));
    xa_fmt_kv_x(o, "data", word_or_u64(r, d));
    xa_fmt_flag(o, flags & XA_ARM_MMIO_IOREQ, "ioreq");
    xa_fmt_flag(o, flags & XA_ARM_MMIO_FAILED, "failed");
}

static const char *const s2_outcomes[] = {
    [XA_ARM_S2_RETRY] = "retry", [XA_ARM_S2_P2M] = "p2m",
    [XA_ARM_S2_MMIO] = "mmio", [XA_ARM_S2_IOREQ] = "ioreq",
    [XA_ARM_S2_MEM_ACCESS] = "mem_access", [XA_ARM_S2_INJECT] = "inject",
    [XA_ARM_S2_SERROR] = "serror",
};

const char *xa_arm_s2_outcome_name(uint32_t outcome)
{
    return outcome < sizeof(s2_outcomes) / sizeof(s2_outcomes[0])
           ? s2_outcomes[outcome] : NULL;
}

/* traps.c: do_trap_stage2_abort_guest(), { ipa, far, outcome } */
static void fmt_s2_fault(const struct xa_record *r, struct xa_out *o,
                         const struct xa_fmt_ctx *ctx)
{
    unsigned int f = after(r, 0), out = after(r, f);

    (void)ctx;
    xa_fmt_kv_x(o, "ipa", word_or_u64(r, 0));
    xa_fmt_kv_x(o, "far", word_or_u64(r, f));
    xa_fmt_kv_name(o, "outcome", xa_arm_s2_outcome_name(r->extra[out] & 0xff),
                   r->extra[out]);
}

/* traps.c: inject_{undef,abt}{32,64}_exception(), inject_vabt_exception() */
static void fmt_inj_exc(const struct xa_record *r, struct xa_out *o,
                        const struct xa_fmt_ctx *ctx)
{
    static const char *const kinds[] = { "undef", "iabt", "dabt", "serror" };

    (void)ctx;
    xa_fmt_kv_name(o, "kind", r->extra[0] < 4 ? kinds[r->extra[0]] : NULL,
                   r->extra[0]);
    xa_fmt_kv_x(o, "syndrome", r->extra[1]);
}

XA_FMT_FIELDS(fmt_irq, "irq:u")

static const struct xa_event_desc events[] = {
    { XA_TRC_HVM_ARM_EXIT, "arm_exit", 2, fmt_exit },
    { XA_TRC_HVM_ARM_EXIT + XA_TRC_64_FLAG, "arm_exit", 3, fmt_exit },
    { XA_TRC_HVM_ARM_EXIT_IRQ, "arm_exit_irq", 1, fmt_exit_irq },
    { XA_TRC_HVM_ARM_EXIT_IRQ + XA_TRC_64_FLAG, "arm_exit_irq", 2,
      fmt_exit_irq },
    { XA_H(0x30), "arm_hypercall", 2, fmt_hypercall },
    { XA_H64(0x30), "arm_hypercall", 3, fmt_hypercall },
    { XA_H(0x31), "arm_smccc", 2, fmt_smccc },
    { XA_H64(0x31), "arm_smccc", 3, fmt_smccc },
    { XA_H(0x32), "arm_sysreg", 1, fmt_sysreg },
    { XA_H64(0x32), "arm_sysreg", 2, fmt_sysreg },
    { XA_H(0x33), "arm_mmio", 3, fmt_mmio },
    { XA_H64(0x33), "arm_mmio", 5, fmt_mmio },
    { XA_H(0x34), "arm_s2_fault", 3, fmt_s2_fault },
    { XA_H64(0x34), "arm_s2_fault", 5, fmt_s2_fault },
    { XA_H(0x35), "arm_inj_exc", 2, fmt_inj_exc },
    { XA_H(0x36), "arm_irq", 1, fmt_irq },
};

XA_DEFINE_CLASS(hvm_arm, events);
