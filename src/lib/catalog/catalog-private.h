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
/* " name" when set. */
void xa_fmt_flag(struct xa_out *o, bool set, const char *name);
/* " key=NAME" from a code table, or " key=0x<code>" when unnamed. */
void xa_fmt_kv_name(struct xa_out *o, const char *key, const char *name,
                    uint32_t code);

/*
 * Formats extra words by a field list (see fields.c): "key:T" items
 * separated by single spaces, ":T" for a value without a key.  Returns
 * the index of the first word not consumed.  Stops quietly at the end
 * of the record, so a short record prints what it has.
 */
unsigned int xa_fmt_fields(const struct xa_record *r, struct xa_out *o,
                           const char *spec);

/* Defines a formatter that is just a field list. */
/* arm-esr.c: an exit's syndrome, a register, a system register. */
void xa_fmt_arm_iss(struct xa_out *o, uint32_t ec, uint32_t iss);
void xa_fmt_arm_reg(struct xa_out *o, unsigned int r);
void xa_fmt_arm_sysreg(struct xa_out *o, uint32_t iss);
/* " op=NAME a0=0x.." (hypercall) or " fid=0x..(PSCI name) a1=0x.." */
void xa_fmt_arm_call(struct xa_out *o, bool smccc, uint32_t nr, uint64_t arg);

#define XA_FMT_FIELDS(fn, spec)                                         \
    static void fn(const struct xa_record *r, struct xa_out *o,         \
                   const struct xa_fmt_ctx *ctx)                        \
    {                                                                   \
        (void)ctx;                                                      \
        xa_fmt_fields(r, o, (spec));                                    \
    }

/* names.c: Xen's fixed x86 interrupt vectors; NULL when dynamic. */
const char *xa_vector_name(uint32_t vec);
/* names.c: true when every code table is strictly ascending. */
bool xa_names_sorted(void);
bool xa_code_names_ascending(const struct xa_code_name *tab, unsigned int n);
/* names-arm-sysreg.c: its tables are strictly ascending. */
bool xa_arm_sysreg_sorted(void);
/* names-hypercall.c: a hypercall's arguments, decoded (" cmd=..."). */
void xa_fmt_hypercall_args(struct xa_out *o, uint32_t op,
                           const uint64_t *args, unsigned int present);
/* names-hypercall.c: its table is strictly ascending. */
bool xa_hypercall_subops_sorted(void);

#endif /* CATALOG_PRIVATE_H */
