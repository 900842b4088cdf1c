/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Helpers shared by the class tables.
 */
#ifndef CATALOG_PRIVATE_H
#define CATALOG_PRIVATE_H

#include <xenalyze/catalog.h>
#include <xenalyze/trace.h>

#define XA_CLASS(n) extern const struct xa_class xa_class_##n;
#include "classes.def"
#undef XA_CLASS

#define XA_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Defines `const struct xa_class xa_class_<n>` from a table `events`. */
#define XA_DEFINE_CLASS(n, tab)                         \
    const struct xa_class xa_class_##n = {              \
        .name = #n,                                     \
        .events = (tab),                                \
        .nr_events = XA_ARRAY_SIZE(tab),                \
    }

/* u64 from two extra words, low word first. */
static inline uint64_t xa_u64(const struct xa_record *r, unsigned int i)
{
    return r->extra[i] | ((uint64_t)r->extra[i + 1] << 32);
}

/* "dNvM" from a word holding domain << 16 | vcpu. */
void xa_fmt_dv(struct xa_out *o, uint32_t w);
/* " key=value" pairs. */
void xa_fmt_kv_u(struct xa_out *o, const char *key, uint64_t v);
void xa_fmt_kv_x(struct xa_out *o, const char *key, uint64_t v);
/* The raw extra words, " 0x%08x" each. */
void xa_fmt_raw(const struct xa_record *r, struct xa_out *o);
/* A domain id, with names for the idle and default domains. */
void xa_fmt_dom(struct xa_out *o, uint32_t dom);

#endif /* CATALOG_PRIVATE_H */
