/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The summary: one immutable object built from the model at the end of
 * the trace, rendered by every report writer.  Statistics point into the
 * model, which must outlive the summary.
 */
#ifndef XA_SUMMARY_H
#define XA_SUMMARY_H

#include <xenalyze/diag.h>
#include <xenalyze/stats.h>

#ifdef __cplusplus
extern "C" {
#endif

/* vCPU runstates as reported. */
enum xa_rs {
    XA_RS_RUNNING,
    XA_RS_RUNNABLE,
    XA_RS_RUNNABLE_WAKE,
    XA_RS_RUNNABLE_PREEMPT,
    XA_RS_RUNNABLE_OTHER,
    XA_RS_BLOCKED,
    XA_RS_OFFLINE,
    XA_RS_LOST,
    XA_RS_NR
};

/* Domain runstates, classified as upstream xenalyze does. */
enum xa_dom_rs {
    XA_DRS_BLOCKED,
    XA_DRS_PARTIAL_RUN,
    XA_DRS_FULL_RUN,
    XA_DRS_PARTIAL_CONTENTION,
    XA_DRS_CONCURRENCY_HAZARD,
    XA_DRS_FULL_CONTENTION,
    XA_DRS_LOST,
    XA_DRS_NR
};

XA_API const char *xa_rs_name(enum xa_rs rs);
XA_API const char *xa_dom_rs_name(enum xa_dom_rs rs);

/* Kinds of breakdown keys under an exit. */
enum xa_sub_kind {
    XA_SUB_NONE,
    XA_SUB_IO_R,
    XA_SUB_IO_W,
    XA_SUB_MMIO_R,
    XA_SUB_MMIO_W,
    XA_SUB_MSR_R,
    XA_SUB_MSR_W,
    XA_SUB_CR_R,
    XA_SUB_CR_W,
    XA_SUB_CPUID,
    XA_SUB_VECTOR,
    XA_SUB_HYPERCALL,
    XA_SUB_NPF,
    XA_SUB_SMC,
    XA_SUB_SYSREG_R,
    XA_SUB_SYSREG_W,
    XA_SUB_IRQ,
    XA_SUB_WFI,
    XA_SUB_WFE,
    XA_SUB_VGIC,
    XA_SUB_OTHER,
    XA_SUB_CP_R,                    /* Arm coprocessor access: EC << 32 | ISS */
    XA_SUB_CP_W,
    XA_SUB_S2,                      /* Arm stage-2 fault: its outcome */
};

/*
 * Rows that stand for several keys ("other"): folded_keys says how many
 * distinct keys a row carries, 0 for an ordinary key.  Two sources:
 *  - the report's --top: keys beyond the first N of an exit are folded
 *    into xa_sum_exit.other (folded_keys = how many);
 *  - the model's bounds: keys beyond its table cap arrive as one sub-key
 *    "other" with capped set (folded_keys = XA_SUM_KEYS_UNKNOWN when the
 *    model could not count them).
 */
#define XA_SUM_KEYS_UNKNOWN UINT32_MAX

struct xa_sum_sub {
    char *key;                      /* e.g. "io:0x0084:w", "smc:0x84000000" */
    const char *label;              /* a name for it ("PSCI_VERSION"), or NULL */
    const struct xa_stat *st;
    bool capped;                    /* the model's "other": beyond its cap */
    uint32_t folded_keys;           /* see above; 0: one key */
};

/*
 * The exit code of the model's "other codes" row: codes above every
 * architecture's range (0x500 and up) beyond the first 256 distinct ones
 * of a vCPU (LIMIT_KEYS) or past the memory budget (MEMORY_BUDGET), folded.
 */
#define XA_SUM_EXIT_OTHER 0xfffffffeu

struct xa_sum_exit {
    const char *reason;             /* static, or "UNKNOWN(0x..)" owned */
    char *reason_owned;
    uint32_t code;
    const struct xa_stat *st;
    struct xa_sum_sub *subs;        /* every key, in the summary's order */
    unsigned int nr_subs;
    unsigned int nr_shown;          /* subs[0..nr_shown): within --top */
    struct xa_sum_sub other;        /* the rest, folded (st NULL: none) */
};

/*
 * A counter: a PV hypercall (name "vcpu_op", "multicall:mmuext_op" for a
 * multicall's subcall; id: the op) with its sub-operations, or a PV
 * event (name as upstream's "page_fault", "ptwr"; id: the event id).
 */
struct xa_sum_count {
    char *name;
    uint32_t id;
    uint64_t count;
    struct xa_sum_count *subs;      /* by sub-operation ("set_singleshot_timer") */
    unsigned int nr_subs;
};

/* An interrupt vector injected into an HVM vCPU, and wake-to-halt times. */
struct xa_sum_girq {
    unsigned int vector;
    uint64_t count;
    const struct xa_stat *wake_alone;   /* NULL when none */
    const struct xa_stat *wake_any;
    const struct xa_stat *intr;
};

/*
 * A guest address an external interrupt of the eip-list vector found
 * (upstream's interrupt eip list: --with-interrupt-eip-enumeration).
 */
struct xa_sum_eip {
    uint64_t eip;                   /* the exit's rip, low 48 bits */
    uint64_t count;
};

/* An eip list: ascending addresses; other: beyond the model's bound. */
struct xa_sum_eips {
    struct xa_sum_eip *e;
    unsigned int nr;
    uint64_t total, other;
};

/*
 * x86 HVM guest page tables (upstream xenalyze's cr3 tracking, model
 * option cr3): what a vCPU did while a CR3 value was loaded.  An exit
 * counts under what it did, upstream's "HVM short summary" kinds.
 */
enum xa_short_kind {
    XA_SHORT_EMULATE, XA_SHORT_UNSYNC, XA_SHORT_FIXUP, XA_SHORT_MMIO,
    XA_SHORT_PROPAGATE, XA_SHORT_CR3, XA_SHORT_VMCALL, XA_SHORT_INTR,
    XA_SHORT_HLT, XA_SHORT_OTHER, XA_SHORT_NR
};
XA_API const char *xa_short_kind_name(enum xa_short_kind k);

/* A count and its cycles (count: the non-zero durations added). */
struct xa_sum_cyc {
    uint64_t count, cycles;
};

struct xa_sum_cr3 {
    uint64_t gmfn;                  /* CR3 >> 12 */
    unsigned int id;                /* in the order first loaded, trace-wide */
    uint64_t first_tsc, last_tsc;   /* first loaded; last switched from */
    struct xa_sum_cyc total;        /* loaded, from each switch to it to the
                                       next switch on that vCPU */
    struct xa_sum_cyc guest, hv;    /* in the guest (entry to exit), in Xen
                                       (exits, whole) */
    uint64_t run_time;              /* guest + hv cycles */
    struct xa_sum_cyc kind[XA_SHORT_NR];    /* the exits by what they did */
    uint64_t switches, flushes;     /* loads from another value; reloads */
    uint64_t unpins;                /* shadow prealloc unpins of it */
};

/* Time a vCPU stayed on one pCPU between migrations. */
struct xa_sum_stay {
    unsigned int cpu;
    const struct xa_stat *st;
};

#define XA_SUM_ALL_VCPUS UINT32_MAX    /* id of a domain's aggregate */

struct xa_sum_vcpu {
    unsigned int id;                /* XA_SUM_ALL_VCPUS: all of a domain's */
    const struct xa_stat *rs[XA_RS_NR];
    struct xa_sum_exit *exits;
    unsigned int nr_exits;
    uint64_t exit_cycles;           /* sum over exits, for percentages */
    uint64_t exit_count;            /* number of exits */
    const struct xa_stat *exit_all; /* every exit together (NULL: none) */
    struct xa_sum_count *hypercalls;    /* PV */
    unsigned int nr_hypercalls;
    struct xa_sum_count *pv_events;
    unsigned int nr_pv_events;
    struct xa_sum_girq *guest_irqs;     /* HVM: injected, by vector */
    unsigned int nr_guest_irqs;
    const struct xa_stat *stay_all;     /* CPU affinity, all pCPUs */
    struct xa_sum_stay *stays;          /* by pCPU, sorted */
    unsigned int nr_stays;
    struct xa_sum_eips intr_eips;       /* xa_summary.eip_list */
};

/* Summary order (--sort): descending, but for code (ascending). */
enum xa_sum_sort {
    XA_SORT_TIME,                   /* total cycles */
    XA_SORT_COUNT,
    XA_SORT_MEAN,
    XA_SORT_P99,
    XA_SORT_CODE,                   /* exit code, key, name */
};

XA_API const char *xa_sum_sort_name(enum xa_sum_sort s);
/* "time", "count"...: XA_OK, or XA_E_INVAL. */
XA_API int xa_sum_sort_parse(const char *s, enum xa_sum_sort *out);

struct xa_sum_domain {
    unsigned int id;
    unsigned int incarnation;       /* 0; n: the id's (n+1)th domain, as
                                       when it was reused (DOMAIN_REUSED) */
    const char *host;               /* merged by host: its host; else NULL */
    const char *kind;               /* "idle", "default", "dom0", "hvm",
                                       "pv", "arm", "guest" */
    const struct xa_stat *rs[XA_DRS_NR];
    struct xa_sum_vcpu *vcpus;
    unsigned int nr_vcpus;
    struct xa_sum_vcpu *all;        /* its vCPUs together (NULL: none) */
    uint64_t exit_cycles, exit_count;
    uint64_t grant_ops[3];          /* map, unmap, transfer, done for it */
    uint64_t pod_populate, pod_reclaim, pod_splinter;
    /* by page order: 4k, 2M, 1G, other (upstream's p2m_canonical_order) */
    uint64_t pod_populate_order[4], pod_reclaim_order[4];
    struct xa_sum_eips intr_eips;   /* its vCPUs' together (owned) */
    /*
     * Guest page tables (xa_summary.cr3_list), by first load; untracked:
     * loads of values past the memory budget, not listed.
     */
    struct xa_sum_cr3 *cr3s;        /* owned */
    unsigned int nr_cr3s;
    uint64_t cr3_untracked;
};

#define XA_NR_VOLUME 13
XA_API const char *xa_volume_name(unsigned int i);

struct xa_sum_pcpu {
    unsigned int id;
    const char *host;               /* merged by host: its host; else NULL */
    const struct xa_stat *running, *idle, *lost;
    uint64_t records;
    uint64_t volume[XA_NR_VOLUME];  /* bytes by class */
};

/* One input of a merged summary (xenalyze merge). */
struct xa_sum_input {
    const char *name;               /* the JSON summary's file */
    const char *host;               /* NULL: not given */
    uint64_t cpu_hz;
    const char *cpu_hz_source;
    const char *arch;
    uint64_t records, first_tsc, last_tsc;
    bool windowed, whole;           /* a --from/--to window; its rule */
    uint64_t from_ns, to_ns;        /* to_ns UINT64_MAX: open */
};

struct xa_summary {
    /* trace */
    uint64_t records;               /* including CPU-change records */
    uint64_t bytes;                 /* input size */
    uint64_t windows;               /* CPU-change records */
    uint64_t record_bytes;          /* bytes of the records read */
    unsigned int nr_pcpus;
    uint64_t cpu_hz;
    const char *cpu_hz_source;      /* "option", "trace", "default" */
    const char *cpu_hz_option;      /* "option": its name ("cpu-hz") */
    uint64_t first_tsc, last_tsc;
    const char *arch;               /* x86-vmx, x86-svm, x86-pv, arm, ... */
    const char *hvm_mode;           /* "vmx", "svm" or NULL */
    char hvm_mode_reason[256];
    const struct xa_diag *diag;

    struct xa_sum_domain *domains;
    unsigned int nr_domains;
    struct xa_sum_pcpu *pcpus;
    unsigned int nr_pcpus_arr;

    /*
     * What it covers (xa_model_set_filter()): the window in TSC, the span
     * of the trace inside it (the basis of "% of trace time"), and
     * whether domains or vCPUs were selected (the others are left out).
     */
    bool windowed;
    uint64_t win_lo, win_hi;        /* UINT64_MAX: open */
    uint64_t span_first, span_last; /* the trace's timestamps inside */
    uint64_t from_ns, to_ns;        /* as given; to_ns UINT64_MAX: open */
    bool selected;
    bool whole;                     /* --window-rule=begin */

    /*
     * A merged summary: its inputs, how domains were grouped ("domain",
     * "host"), the unit of its times ("cycles" of cpu_hz, or "ns" when
     * the inputs' rates differ), and every guest's exits together (the
     * domains but idle and default, by exit reason and key).  NULL / 0
     * for the summary of one trace.
     */
    const struct xa_sum_input *inputs;
    unsigned int nr_inputs;
    const char *group;
    const char *unit;
    struct xa_sum_vcpu *guests;

    /* x86 HVM: eip lists of this external-interrupt vector (model opts). */
    bool eip_list;
    unsigned int eip_vector;

    /* x86 HVM: every domain's guest page tables (model option cr3). */
    bool cr3_list;

    /* How it was built (xa_summary_info). */
    enum xa_sum_sort sort;
    unsigned int top;               /* sub-rows shown per exit; 0: all */

    /* Statistics the summary made (aggregates, folds): owned. */
    struct xa_stat **owned;
    unsigned int nr_owned, cap_owned;
    /*
     * The model's memory budget, which the aggregates' histogram groups
     * are charged to (NULL: none), and how many merges did not fit there
     * or saturated a cycle sum (the model counts them as anomalies).
     */
    uint64_t *mem, mem_budget;
    uint64_t mem_folded, saturated;
};

#ifdef __cplusplus
}
#endif

#endif /* XA_SUMMARY_H */
