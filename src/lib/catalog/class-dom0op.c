/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * TRC_DOM0OP: domain creation and destruction
 * (xen/common/domain.c: domain_create(), domain_destroy()).
 */
#include "catalog-private.h"

#define XA_TRC_DOM0_DOMOPS 0x00041000

XA_FMT_FIELDS(fmt_dom, ":d")

static const struct xa_event_desc events[] = {
    { XA_TRC_DOM0_DOMOPS + 1, "dom0_dom_add", 1, fmt_dom },
    { XA_TRC_DOM0_DOMOPS + 2, "dom0_dom_rem", 1, fmt_dom },
};

XA_DEFINE_CLASS(dom0op, events);
