/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * TRC_GUEST: records a HVM guest writes through HVMOP_xentrace
 * (xen/arch/x86/hvm/hvm.c: do_hvm_op()).  The guest picks the low 12
 * bits of the id, so the catalog files every such id under the class
 * id itself (catalog.c: canonical_id()).
 */
#include "catalog-private.h"

static void fmt_guest(const struct xa_record *r, struct xa_out *o,
                      const struct xa_fmt_ctx *ctx)
{
    (void)ctx;
    xa_fmt_kv_x(o, "id", r->event & 0xfff);
    xa_fmt_raw(r, o);
}

static const struct xa_event_desc events[] = {
    { XA_TRC_GUEST, "guest", 0, fmt_guest },
};

XA_DEFINE_CLASS(guest, events);
