/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * TRC_HW: power management (TRC_HW_PM) and IRQ handling (TRC_HW_IRQ).
 */
#include "catalog-private.h"

/* Not emitted by Xen 4.17; older cpufreq code logged old and new MHz. */
XA_FMT_FIELDS(fmt_freq, "old_mhz:u new_mhz:u")
/* xen/arch/x86/acpi/cpu_idle.c, xen/arch/x86/cpu/mwait-idle.c */
XA_FMT_FIELDS(fmt_idle_entry, "cx:u tick:u expected_us:u predicted_us:u")
XA_FMT_FIELDS(fmt_idle_exit, "cx:u tick:u irq:u irq:u irq:u irq:u")
/* xen/arch/x86/irq.c: TRACE_3D(irq, vector, cpu) */
XA_FMT_FIELDS(fmt_irq_vec_cpu, "irq:u vec:x cpu:u")
XA_FMT_FIELDS(fmt_vec, "vec:x")

/*
 * xen/arch/x86/irq.c: _trace_irq_mask(), { u16 irq, vec; u32 mask[6] };
 * the cpumask prints most significant word first.
 */
static void fmt_irq_mask(const struct xa_record *r, struct xa_out *o,
                         const struct xa_fmt_ctx *ctx)
{
    unsigned int i;
    bool lead = true;

    (void)ctx;
    xa_fmt_fields(r, o, "irq:l vec:h");
    xa_out_str(o, " mask=0x");
    for ( i = r->nr_extra; i-- > 1; )
    {
        if ( lead && !r->extra[i] && i > 1 )
            continue;
        if ( lead )
            xa_out_hex(o, r->extra[i]);
        else
            xa_out_hexw(o, r->extra[i], 8);
        lead = false;
    }
}

/* xen/arch/x86/irq.c: do_IRQ(), TRACE_3D(irq, tsc_in, tsc_out) */
static void fmt_irq_handled(const struct xa_record *r, struct xa_out *o,
                            const struct xa_fmt_ctx *ctx)
{
    (void)ctx;
    xa_fmt_kv_u(o, "irq", r->extra[0]);
    xa_fmt_kv_u(o, "cycles", (uint32_t)(r->extra[2] - r->extra[1]));
}

static const struct xa_event_desc events[] = {
    { XA_TRC_HW_PM + 1, "pm_freq_change", 2, fmt_freq },
    { XA_TRC_HW_PM + 2, "pm_idle_entry", 4, fmt_idle_entry },
    { XA_TRC_HW_PM + 3, "pm_idle_exit", 2, fmt_idle_exit },
    { XA_TRC_HW_IRQ + 1, "irq_move_cleanup_delay", 3, fmt_irq_vec_cpu },
    { XA_TRC_HW_IRQ + 2, "irq_move_cleanup", 3, fmt_irq_vec_cpu },
    { XA_TRC_HW_IRQ + 3, "irq_bind_vector", 2, fmt_irq_mask },
    { XA_TRC_HW_IRQ + 4, "irq_clear_vector", 2, fmt_irq_mask },
    { XA_TRC_HW_IRQ + 5, "irq_move_finish", 3, fmt_irq_vec_cpu },
    { XA_TRC_HW_IRQ + 6, "irq_assign_vector", 2, fmt_irq_mask },
    { XA_TRC_HW_IRQ + 7, "irq_unmapped_vector", 1, fmt_vec },
    { XA_TRC_HW_IRQ + 8, "irq_handled", 3, fmt_irq_handled },
};

XA_DEFINE_CLASS(hw, events);
