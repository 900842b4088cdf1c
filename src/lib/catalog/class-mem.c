/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * TRC_MEM: grant operations, p2m updates and populate-on-demand.
 *
 * Xen 4.18 (83af664db3) widened the domain and order of four records
 * from `int d:16, order:16` in one word (then a word of padding) to two
 * u32 words, at the same size, and gave pod_superpage_splinter an order.
 * The layouts are told apart by value (docs/record-layouts.md): a domain
 * id fits in 16 bits, so a word with high bits set holds the old
 * d:16/order:16 pair; a word of 16 bits followed by a second word above
 * any page order (63) is an old record of order 0 and its padding;
 * otherwise the two words are the 4.18 d and order.
 */
#include "catalog-private.h"

#define XA_TRC_MEM 0x0010f000
#define XA_MEM_ORDER_MAX 63

/*
 * xen/common/grant_table.c: map_grant_ref(), unmap_common(),
 * gnttab_transfer()
 */
XA_FMT_FIELDS(fmt_grant, ":d")
/*
 * xen/arch/x86/mm/p2m-pt.c: p2m_pt_set_entry(),
 * { u64 gfn, mfn; u32 p2mt; u16 d, order }
 */
XA_FMT_FIELDS(fmt_set_p2m, "gfn:X mfn:X p2mt:u :D order:h")

void xa_mem_dom_order(const struct xa_record *r, unsigned int i,
                      bool old_has_order, uint32_t *dom, int *order)
{
    uint32_t dw = r->extra[i];
    uint32_t ow = i + 1 < r->nr_extra ? r->extra[i + 1] : UINT32_MAX;

    if ( dw > 0xffff )
    {
        /* Before 4.18: d:16, order:16 (splinter: d:16 and rubble) */
        *dom = dw & 0xffff;
        *order = old_has_order ? (int)(dw >> 16) : -1;
    }
    else if ( ow <= XA_MEM_ORDER_MAX )
    {
        *dom = dw;
        *order = (int)ow;
    }
    else
    {
        /* Before 4.18, order 0 (or no order), then padding */
        *dom = dw;
        *order = old_has_order ? 0 : -1;
    }
}

/* " dD order=N" from the words at i, either layout. */
static void fmt_dom_order(const struct xa_record *r, struct xa_out *o,
                          unsigned int i, bool old_has_order)
{
    uint32_t dom;
    int order;

    if ( i >= r->nr_extra )
        return;
    xa_mem_dom_order(r, i, old_has_order, &dom, &order);
    xa_out_char(o, ' ');
    xa_fmt_dom(o, dom);
    if ( order >= 0 )
        xa_fmt_kv_u(o, "order", (unsigned int)order);
}

/*
 * xen/common/memory.c: decrease_reservation(), { u64 gfn; u32 d, order }
 * (before 4.18 { u64 gfn; d:16, order:16 })
 */
static void fmt_decrease(const struct xa_record *r, struct xa_out *o,
                         const struct xa_fmt_ctx *ctx)
{
    (void)ctx;
    fmt_dom_order(r, o, xa_fmt_fields(r, o, "gfn:X"), true);
}

/*
 * xen/arch/x86/mm/p2m-pod.c: p2m_pod_demand_populate() and
 * p2m_pod_zero_check{,_superpage}(), { u64 gfn, mfn; u32 d, order }
 * (before 4.18 { u64 gfn, mfn; d:16, order:16 })
 */
static void fmt_pod(const struct xa_record *r, struct xa_out *o,
                    const struct xa_fmt_ctx *ctx)
{
    (void)ctx;
    fmt_dom_order(r, o, xa_fmt_fields(r, o, "gfn:X mfn:X"), true);
}

/*
 * xen/arch/x86/mm/p2m-pod.c: p2m_pod_demand_populate(),
 * { u64 gfn; u32 d, order } (before 4.18 { u64 gfn; d:16 }, no order)
 */
static void fmt_splinter(const struct xa_record *r, struct xa_out *o,
                         const struct xa_fmt_ctx *ctx)
{
    (void)ctx;
    fmt_dom_order(r, o, xa_fmt_fields(r, o, "gfn:X"), false);
}

static const struct xa_event_desc events[] = {
    { XA_TRC_MEM + 1, "grant_map", 1, fmt_grant },
    { XA_TRC_MEM + 2, "grant_unmap", 1, fmt_grant },
    { XA_TRC_MEM + 3, "grant_transfer", 1, fmt_grant },
    { XA_TRC_MEM + 4, "set_p2m_entry", 6, fmt_set_p2m },
    { XA_TRC_MEM + 5, "decrease_reservation", 3, fmt_decrease },
    { XA_TRC_MEM + 16, "pod_populate", 5, fmt_pod },
    { XA_TRC_MEM + 17, "pod_zero_reclaim", 5, fmt_pod },
    { XA_TRC_MEM + 18, "pod_superpage_splinter", 3, fmt_splinter },
};

XA_DEFINE_CLASS(mem, events);
