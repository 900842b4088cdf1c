/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Event catalog: one static table per trace class, naming each event,
 * the extra words it needs, and a formatter for its arguments.
 */
#ifndef XA_CATALOG_H
#define XA_CATALOG_H

#include <xenalyze/out.h>
#include <xenalyze/reader.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How exit codes of TRC_HVM_VMEXIT records are to be read. */
enum xa_hvm_mode {
    XA_HVM_VMX,
    XA_HVM_SVM,
};

/* What a formatter may need beyond the record itself. */
struct xa_fmt_ctx {
    enum xa_hvm_mode hvm_mode;
};

typedef void xa_format_fn(const struct xa_record *rec, struct xa_out *o,
                          const struct xa_fmt_ctx *ctx);

struct xa_event_desc {
    uint32_t id;                /* event id, TRC_64_FLAG included */
    const char *name;           /* stable: appears in every output */
    unsigned int min_extra;     /* fewer words: XA_DIAG_SHORT_RECORD */
    xa_format_fn *format;       /* NULL: the raw extra words are printed */
};

struct xa_class {
    const char *name;
    const struct xa_event_desc *events;
    unsigned int nr_events;
};

/* A number and its name, for exit reasons, hypercalls, vectors... */
struct xa_code_name {
    uint32_t code;
    const char *name;
};

struct xa_catalog;

/* Builds the index of every class; fails on a duplicate id. */
XA_API int xa_catalog_new(struct xa_catalog **out);
XA_API void xa_catalog_free(struct xa_catalog *cat);

/*
 * The descriptor of an event id, or NULL.  Runstate-change ids carry the
 * old and new states in bits 4-9 and are found under the base id.
 */
XA_API const struct xa_event_desc *
xa_catalog_lookup(const struct xa_catalog *cat, uint32_t event);
/* The same, with the length of its name (the dump writes it per record). */
XA_API const struct xa_event_desc *
xa_catalog_lookup_len(const struct xa_catalog *cat, uint32_t event,
                      size_t *name_len);

/* Every registered class, NULL-terminated. */
XA_API const struct xa_class *const *xa_catalog_classes(void);

/*
 * Formats a record's arguments (after its name) into o.  Unknown events
 * and short records print their raw words.
 */
XA_API void xa_catalog_format(const struct xa_catalog *cat,
                              const struct xa_record *rec,
                              struct xa_out *o, const struct xa_fmt_ctx *ctx);
/* The same with the record's descriptor already looked up (or NULL). */
XA_API void xa_catalog_format_desc(const struct xa_event_desc *d,
                                   const struct xa_record *rec,
                                   struct xa_out *o,
                                   const struct xa_fmt_ctx *ctx);

/* Name lookups in a sorted xa_code_name table; NULL when absent. */
XA_API const char *xa_code_name_find(const struct xa_code_name *tab,
                                     unsigned int n, uint32_t code);

/* Exit reason and hypercall names; NULL when unknown. */
XA_API const char *xa_vmx_exit_name(uint32_t reason);
XA_API const char *xa_svm_exit_name(uint32_t code);
XA_API const char *xa_hypercall_name(uint32_t nr);
/* PV event (TRC_PV_ENTRY + minor) as upstream's summary names it. */
XA_API const char *xa_pv_event_name(uint32_t minor);
/*
 * Hypercall sub-operations: the name of cmd under hypercall op
 * ("set_singleshot_timer" under vcpu_op), NULL when unknown; and how the
 * traced arguments of op read (NULL: no rule).  Argument indexes count
 * from 0; -1: none.
 */
struct xa_hypercall_args {
    uint32_t op;
    int subop_arg;              /* the sub-operation (cmd) */
    uint32_t subop_mask;        /* of that argument */
    int count_arg;              /* a count: "N updates" */
    const char *count_unit;
    int vcpu_arg;               /* a vCPU id */
};
XA_API const char *xa_hypercall_subop_name(uint32_t op, uint32_t sub);
XA_API const struct xa_hypercall_args *xa_hypercall_args(uint32_t op);

/* Arm: exception class names (ESR_EL2.EC), PSCI function names. */
XA_API const char *xa_arm_ec_name(uint32_t ec);
XA_API const char *xa_psci_name(uint32_t fid);
/* Arm: what Xen did with a stage-2 abort (TRC_HVM_ARM_S2_FAULT). */
XA_API const char *xa_arm_s2_outcome_name(uint32_t outcome);
/* Arm: AArch64 system register name from the ISS encoding, or NULL. */
XA_API const char *xa_arm_sysreg_name(uint32_t iss);

/*
 * TRC_MEM decrease_reservation, pod_* records: the domain and order from
 * the words at extra[i], in the layout before Xen 4.18 (d:16, order:16)
 * or after (two u32 words), told apart by value (docs/record-layouts.md).
 * order is -1 when the record has none (pod_superpage_splinter before
 * 4.18: old_has_order false).
 */
XA_API void xa_mem_dom_order(const struct xa_record *r, unsigned int i,
                             bool old_has_order, uint32_t *dom, int *order);

/*
 * The guest address a record carries (x86 HVM exits, PV traps and
 * faults: the guest's rip), for naming it by symbol; false when none.
 */
XA_API bool xa_record_guest_rip(const struct xa_record *r, uint64_t *rip);

/* Largest exit reason VMX defines (codes above it are SVM-only). */
XA_API uint32_t xa_vmx_exit_max(void);

#ifdef __cplusplus
}
#endif

#endif /* XA_CATALOG_H */
