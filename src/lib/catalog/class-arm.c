/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * TRC_ARM: guest exits and entries of Xen on Arm, format 1 of our records
 * (withdrawn; docs/arm-trace-events.md, "Format 1"), emitted by
 * xen/arch/arm/traps.c, io.c, gic.c, time.c, arm64/vsysreg.c and vcpreg.c
 * with xen-patches/4.17.  Kept to read the traces made with it.
 */
#include "catalog-private.h"

static const char *const exit_kinds[4] = { "sync", "irq", "fiq", "serror" };

/* traps.c: enter_hypervisor_from_guest() and the do_trap_* entry points */
static void fmt_exit(const struct xa_record *r, struct xa_out *o,
                     const struct xa_fmt_ctx *ctx)
{
    uint32_t esr = r->extra[0], kind = r->extra[4];

    (void)ctx;
    xa_out_str(o, " kind=");
    xa_out_str(o, exit_kinds[kind & 3]);
    if ( kind == 0 )
    {
        uint32_t ec = esr >> 26;

        xa_fmt_kv_name(o, "ec", xa_arm_ec_name(ec), ec);
        if ( esr & (1u << 25) )
            xa_out_str(o, " il32");
        xa_fmt_arm_iss(o, ec, esr & 0x1ffffff);
        if ( r->extra[1] )
            xa_fmt_kv_x(o, "iss2", r->extra[1]);
    }
    xa_fmt_kv_x(o, "pc", xa_u64(r, 2));
}

/* traps.c: do_trap_hypercall() */
static void fmt_hvc(const struct xa_record *r, struct xa_out *o,
                    const struct xa_fmt_ctx *ctx)
{
    (void)ctx;
    xa_fmt_arm_call(o, false, r->extra[0], xa_u64(r, 1));
}

/* vsmc.c: vsmccc_handle_call() */
static void fmt_smc(const struct xa_record *r, struct xa_out *o,
                    const struct xa_fmt_ctx *ctx)
{
    (void)ctx;
    xa_fmt_arm_call(o, true, r->extra[0], xa_u64(r, 1));
}

/* io.c: try_handle_mmio() */
static void fmt_dabt(const struct xa_record *r, struct xa_out *o,
                     const struct xa_fmt_ctx *ctx)
{
    uint32_t f = r->extra[2];

    (void)ctx;
    xa_fmt_kv_x(o, "ipa", xa_u64(r, 0));
    xa_fmt_kv_u(o, "size", 1u << (f & 3));
    xa_out_str(o, (f & 4) ? " write " : " read ");
    xa_fmt_arm_reg(o, (f >> 8) & 0x1f);
    xa_fmt_flag(o, f & (1u << 16), "ioreq");
    xa_fmt_flag(o, f & (1u << 17), "failed");
}

/* arm64/vsysreg.c: do_sysreg() */
static void fmt_sysreg_rec(const struct xa_record *r, struct xa_out *o,
                           const struct xa_fmt_ctx *ctx)
{
    (void)ctx;
    xa_out_str(o, (r->extra[1] & 1) ? " mrs " : " msr ");
    xa_fmt_arm_reg(o, (r->extra[1] >> 8) & 0x1f);
    xa_out_str(o, ", ");
    xa_fmt_arm_sysreg(o, r->extra[0]);
    xa_fmt_kv_x(o, "encoding", r->extra[0]);
}

/* vcpreg.c: do_cp15_32/64(), do_cp14_32/64() */
static void fmt_cp(const struct xa_record *r, struct xa_out *o,
                   const struct xa_fmt_ctx *ctx)
{
    (void)ctx;
    xa_out_str(o, " cp");
    xa_out_u64(o, r->extra[0] & 0xff);
    xa_out_str(o, (r->extra[0] & 0x100) ? " 64-bit" : " 32-bit");
    xa_out_str(o, (r->extra[1] & 1) ? " read" : " write");
    xa_fmt_kv_x(o, "iss", r->extra[1]);
}

/* traps.c: the HSR_EC_WFI_WFE case of do_trap_guest_sync() */
static void fmt_wfx(const struct xa_record *r, struct xa_out *o,
                    const struct xa_fmt_ctx *ctx)
{
    static const char *const names[4] = { " wfi", " wfe", " wfit", " wfet" };

    (void)ctx;
    xa_out_str(o, names[r->extra[0] & 3]);
}

XA_FMT_FIELDS(fmt_irq, "irq:u")
XA_FMT_FIELDS(fmt_vgic, "lr_mask:x")
XA_FMT_FIELDS(fmt_clock, "hz:U")

static const struct xa_event_desc events[] = {
    { XA_TRC_ARM_GUEST_EXIT, "arm:guest_exit", 5, fmt_exit },
    { XA_TRC_ARM_GUEST_ENTRY, "arm:guest_entry", 0, NULL },
    { XA_TRC_ARM_HVC, "arm:hvc", 3, fmt_hvc },
    { XA_TRC_ARM_SMC, "arm:smc", 3, fmt_smc },
    { XA_TRC_ARM_DABT, "arm:mmio", 3, fmt_dabt },
    { XA_TRC_ARM_SYSREG, "arm:sysreg", 2, fmt_sysreg_rec },
    { XA_TRC_ARM_CP, "arm:cp", 2, fmt_cp },
    { XA_TRC_ARM_WFX, "arm:wfx", 1, fmt_wfx },
    { XA_TRC_ARM_IRQ, "arm:irq", 1, fmt_irq },
    { XA_TRC_ARM_VGIC_MAINT, "arm:vgic_maint", 1, fmt_vgic },
    { XA_TRC_ARM_CLOCK, "arm:clock", 2, fmt_clock },
};

XA_DEFINE_CLASS(arm, events);
