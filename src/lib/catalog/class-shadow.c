/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * TRC_SHADOW: the shadow pagetable code (xen/arch/x86/mm/shadow/).
 * Records from multi.c carry (guest paging levels - 2) in id bits 8-9,
 * which also sets the width of guest l1es, gfns and addresses: 32-bit
 * for 2-level guests, 64-bit l1es with 32-bit addresses for PAE
 * (3 levels), 64-bit for both with 4 levels.
 */
#include "catalog-private.h"

#define XA_SH(e)        (0x0040f000 + (e))
/* One record in its 2-, 3- and 4-level guest variants. */
#define XA_SH3(e, name, w2, w3, w4, fmt)        \
    { XA_SH(e), name, w2, fmt },                \
    { XA_SH(e) + 0x100, name, w3, fmt },        \
    { XA_SH(e) + 0x200, name, w4, fmt }

/* multi.c: trace_shadow_gen() */
XA_FMT_FIELDS(fmt_gen, "va:g")
/* multi.c: trace_shadow_fixup(), trace_not_shadow_fault() */
XA_FMT_FIELDS(fmt_fixup, "gl1e:e va:g flags:x")
/*
 * multi.c: trace_shadow_emulate_other(), { gfn; va }; from Xen 4.19
 * (8765783434, sh_trace_gfn_va()) followed by the path flags word, which
 * is printed when the record has it.
 */
XA_FMT_FIELDS(fmt_emulate_other, "gfn:e va:g flags:x")
/*
 * common.c: trace_resync(), trace_shadow_prealloc_unpin(),
 * trace_shadow_wrmap_bf()
 */
XA_FMT_FIELDS(fmt_gfn, "gfn:X")

/*
 * multi.c: trace_shadow_emulate(),
 * { gl1e, write_val; va; flags:29, emulation_count:3 }
 */
static void fmt_emulate(const struct xa_record *r, struct xa_out *o,
                        const struct xa_fmt_ctx *ctx)
{
    unsigned int i = xa_fmt_fields(r, o, "gl1e:e write_val:e va:g");

    (void)ctx;
    if ( i >= r->nr_extra )
        return;
    xa_fmt_kv_x(o, "flags", r->extra[i] & 0x1fffffff);
    xa_fmt_kv_u(o, "count", r->extra[i] >> 29);
}

static const struct xa_event_desc events[] = {
    XA_SH3(1, "shadow_not_shadow", 3, 4, 5, fmt_fixup),
    XA_SH3(2, "shadow_fast_propagate", 1, 1, 2, fmt_gen),
    XA_SH3(3, "shadow_fast_mmio", 1, 1, 2, fmt_gen),
    XA_SH3(4, "shadow_false_fast_path", 1, 1, 2, fmt_gen),
    XA_SH3(5, "shadow_mmio", 1, 1, 2, fmt_gen),
    XA_SH3(6, "shadow_fixup", 3, 4, 5, fmt_fixup),
    XA_SH3(7, "shadow_domf_dying", 1, 1, 2, fmt_gen),
    XA_SH3(8, "shadow_emulate", 4, 6, 7, fmt_emulate),
    XA_SH3(9, "shadow_emulate_unshadow_user", 2, 3, 4, fmt_emulate_other),
    XA_SH3(10, "shadow_emulate_unshadow_evtinj", 2, 3, 4, fmt_emulate_other),
    XA_SH3(11, "shadow_emulate_unshadow_unhandled", 2, 3, 4,
           fmt_emulate_other),
    /* common.c: a gfn_t, 64 bits whatever the guest */
    { XA_SH(12), "shadow_wrmap_bf", 2, fmt_gfn },
    { XA_SH(13), "shadow_prealloc_unpin", 2, fmt_gfn },
    { XA_SH(14), "shadow_resync_full", 2, fmt_gfn },
    { XA_SH(15), "shadow_resync_only", 2, fmt_gfn },
};

XA_DEFINE_CLASS(shadow, events);
