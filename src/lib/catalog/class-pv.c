/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * TRC_PV: hypervisor entry points of PV guests.  Records from 64-bit
 * guests carry TRC_64_FLAG and 64-bit addresses
 * (xen/arch/x86/pv/trace.c).
 */
#include "catalog-private.h"

#define XA_PV(e)    (XA_TRC_PV_ENTRY + (e))
#define XA_PV64(e)  (XA_TRC_PV_ENTRY + XA_TRC_64_FLAG + (e))

/* TRC_PV_HYPERCALL_V2_ARG_*: two bits per argument from bit 20. */
#define XA_HC_ARG_SHIFT 20
#define XA_HC_ARG_MASK  0xfff00000u

/* Not emitted since Xen 4.4: { eip; eax } or { u64 rip; eax } */
static void fmt_hypercall_v1(const struct xa_record *r, struct xa_out *o,
                             const struct xa_fmt_ctx *ctx)
{
    unsigned int i = r->event & XA_TRC_64_FLAG ? 2 : 1;

    (void)ctx;
    xa_fmt_kv_name(o, "op", xa_hypercall_name(r->extra[i]), r->extra[i]);
    xa_fmt_fields(r, o, "rip:a");
}

/*
 * xen/common/trace.c: __trace_hypercall(), for TRC_PV_HYPERCALL_V2
 * (xen/arch/x86/pv/hypercall.c) and TRC_PV_HYPERCALL_SUBCALL
 * (xen/common/multicall.c).  Word 0 is the op with, in bits 20-31, two
 * bits per argument saying whether it follows as 32 or 64 bits.
 */
static void fmt_hypercall_v2(const struct xa_record *r, struct xa_out *o,
                             const struct xa_fmt_ctx *ctx)
{
    uint32_t op = r->extra[0] & ~XA_HC_ARG_MASK;
    uint64_t args[6] = { 0 };
    unsigned int a, w = 1, present = 0;

    (void)ctx;
    xa_fmt_kv_name(o, "op", xa_hypercall_name(op), op);
    for ( a = 0; a < 6; a++ )
    {
        unsigned int bits = (r->extra[0] >> (XA_HC_ARG_SHIFT + 2 * a)) & 3;
        unsigned int n = bits == 2 ? 2 : bits == 1 ? 1 : 0;

        if ( !n || w + n > r->nr_extra )
            continue;
        args[a] = n == 2 ? xa_u64(r, w) : r->extra[w];
        present |= 1u << a;
        w += n;
    }
    xa_fmt_hypercall_args(o, op, args, present);
}

/*
 * __trace_pv_trap(): { eip; trapnr:15, use_error_code:1, error_code:16 },
 * with a u64 rip for 64-bit guests.
 */
static void fmt_trap(const struct xa_record *r, struct xa_out *o,
                     const struct xa_fmt_ctx *ctx)
{
    unsigned int i = xa_fmt_fields(r, o, "rip:a");
    uint32_t w;

    (void)ctx;
    if ( i >= r->nr_extra )
        return;
    w = r->extra[i];
    xa_fmt_kv_u(o, "trap", w & 0x7fff);
    if ( w & 0x8000 )
        xa_fmt_kv_x(o, "ec", w >> 16);
}

/* __trace_pv_page_fault(): { eip, addr, error_code }, u64 addresses */
XA_FMT_FIELDS(fmt_page_fault, "rip:a addr:a ec:x")
/* __trace_trap_one_addr() */
XA_FMT_FIELDS(fmt_one_addr, "rip:a")
/* __trace_trap_two_addr() from xen/arch/x86/traps.c */
XA_FMT_FIELDS(fmt_paging_fixup, "rip:a addr:a")
XA_FMT_FIELDS(fmt_gdt_ldt, "rip:a offset:a")
/* __trace_ptwr_emulation(): { u64 pte; addr, eip }, u64 addresses */
XA_FMT_FIELDS(fmt_ptwr, "pte:X addr:a rip:a")

static const struct xa_event_desc events[] = {
    { XA_PV(1), "hypercall_v1", 2, fmt_hypercall_v1 },
    { XA_PV64(1), "hypercall_v1", 3, fmt_hypercall_v1 },
    { XA_PV(3), "trap", 2, fmt_trap },
    { XA_PV64(3), "trap", 3, fmt_trap },
    { XA_PV(4), "page_fault", 3, fmt_page_fault },
    { XA_PV64(4), "page_fault", 5, fmt_page_fault },
    { XA_PV(5), "forced_invalid_op", 1, fmt_one_addr },
    { XA_PV64(5), "forced_invalid_op", 2, fmt_one_addr },
    { XA_PV(6), "emulate_privop", 1, fmt_one_addr },
    { XA_PV64(6), "emulate_privop", 2, fmt_one_addr },
    { XA_PV(7), "emulate_4gb", 1, fmt_one_addr },
    { XA_PV64(7), "emulate_4gb", 2, fmt_one_addr },
    { XA_PV(8), "math_state_restore", 0, NULL },
    { XA_PV(9), "paging_fixup", 2, fmt_paging_fixup },
    { XA_PV64(9), "paging_fixup", 4, fmt_paging_fixup },
    { XA_PV(10), "gdt_ldt_mapping_fault", 2, fmt_gdt_ldt },
    { XA_PV64(10), "gdt_ldt_mapping_fault", 4, fmt_gdt_ldt },
    { XA_PV(11), "ptwr_emulation", 4, fmt_ptwr },
    { XA_PV64(11), "ptwr_emulation", 6, fmt_ptwr },
    { XA_PV(12), "ptwr_emulation_pae", 4, fmt_ptwr },
    { XA_PV(13), "hypercall", 1, fmt_hypercall_v2 },
    { XA_TRC_PV_SUBCALL + 14, "hypercall_subcall", 1, fmt_hypercall_v2 },
};

XA_DEFINE_CLASS(pv, events);
