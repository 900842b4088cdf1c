/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * TRC_MEM: grant operations, p2m updates and populate-on-demand.
 */
#include "catalog-private.h"

#define XA_TRC_MEM 0x0010f000

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
/* xen/common/memory.c: decrease_reservation(), { u64 gfn; d:16, order:16 } */
XA_FMT_FIELDS(fmt_decrease, "gfn:X :D order:h")
/*
 * xen/arch/x86/mm/p2m-pod.c: p2m_pod_demand_populate() and
 * p2m_pod_zero_check{,_superpage}(), { u64 gfn, mfn; d:16, order:16 }
 */
XA_FMT_FIELDS(fmt_pod, "gfn:X mfn:X :D order:h")
/* xen/arch/x86/mm/p2m-pod.c: p2m_pod_demand_populate(), { u64 gfn; d:16 } */
XA_FMT_FIELDS(fmt_splinter, "gfn:X :D")

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
