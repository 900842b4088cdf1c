/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Model internals shared by model.c (scheduling, lost records, pairing)
 * and the per-architecture files (arch-x86.c, arch-arm.c).
 */
#ifndef MODEL_PRIVATE_H
#define MODEL_PRIVATE_H

#include <xenalyze/filter.h>
#include <xenalyze/model.h>
#include <xenalyze/stats.h>
#include <xenalyze/summary.h>
#include <xenalyze/trace.h>

#include "util/util-private.h"
#include "stats/stats-private.h"

/* Runstates as the model tracks them (upstream xenalyze's numbering). */
enum rs {
    RS_RUNNING,
    RS_RUNNABLE,
    RS_BLOCKED,
    RS_OFFLINE,
    RS_LOST,
    RS_QUEUED,
    RS_INIT,
};

enum runnable_sub {
    RUNNABLE_NONE,
    RUNNABLE_WAKE,
    RUNNABLE_PREEMPT,
    RUNNABLE_OTHER,
};

enum vcpu_type {
    VT_NONE,
    VT_HVM,
    VT_PV,
    VT_ARM,
};

/* One breakdown key under an exit, formatted only at report time. */
struct sub_slot {
    uint8_t kind;                   /* enum xa_sub_kind */
    uint64_t val;
    struct xa_stat st;
};

#define SUBS_MAX 256                /* distinct keys per exit; rest: other */

struct exit_slot {
    uint32_t code;
    struct xa_stat st;
    struct sub_slot *subs;
    unsigned int nr_subs, cap_subs;
    unsigned int last_sub;
    struct xa_idx sub_idx;          /* (kind, val) -> subs[] */
};

#define EXIT_DIRECT 0x500           /* codes below: direct index */
/*
 * Codes from EXIT_DIRECT up (no architecture has them): hashed, at most
 * EXIT_HIGH_MAX distinct ones per vCPU, the others folded into one row of
 * code XA_SUM_EXIT_OTHER (LIMIT_KEYS).  So a table has at most
 * EXIT_DIRECT + EXIT_HIGH_MAX + 1 slots, and 16-bit indexes cannot wrap.
 */
#define EXIT_HIGH_MAX 256

struct exit_tab {
    uint16_t index[EXIT_DIRECT];    /* 1 + slot, 0 = none */
    struct xa_idx high;             /* codes >= EXIT_DIRECT */
    unsigned int nr_high;
    struct exit_slot *slots;
    unsigned int nr, cap;
};
_Static_assert(EXIT_DIRECT + EXIT_HIGH_MAX + 1 <= UINT16_MAX,
               "exit slot index fits 16 bits");

/*
 * PV hypercall keys: the op in bits 0-19, its sub-operation + 1 in bits
 * 20-30 (0: none), and multicall subcalls carry XA_PV_SUBCALL_BIT.
 */
#define XA_PV_SUBCALL_BIT 0x80000000u
#define XA_PV_SUBOP_SHIFT 20
#define XA_PV_SUBOP_MAX 0x7ffu

/*
 * Counters by number (PV hypercalls, PV events), hashed: at most
 * COUNT_KEYS_MAX distinct keys per vCPU, the others counted under
 * COUNT_KEY_OTHER (LIMIT_KEYS).
 */
#define COUNT_KEYS_MAX 1024
#define COUNT_KEY_OTHER 0xffffffffu

struct count_tab {
    uint32_t *keys;
    uint64_t *counts;
    unsigned int nr, cap;
    struct xa_idx idx;
};

/*
 * Guest addresses an external interrupt of the eip-list vector found, by
 * address (eip.c); at most EIP_TAB_MAX addresses, the rest in other.
 */
#define EIP_TAB_MAX 8192
struct eip_tab {
    struct xa_sum_eip *e;           /* ascending eip */
    unsigned int nr, cap;
    uint64_t total, other;
};
void eip_tab_add(struct xa_model *m, struct eip_tab **tp, uint64_t eip,
                 const struct xa_record *rec);
void eip_tab_free(struct eip_tab **tp);

/*
 * Interrupts injected into an HVM vCPU, by vector, and how long the guest
 * took from each to its next halt (upstream's "wake to halt"): an
 * interrupt's clock starts at the VM entry that delivers it and stops when
 * the vCPU blocks; if it came while the vCPU was waking from a halt, it is
 * a wake interrupt ("alone" when it was the only one before the halt).
 */
enum w2h_kind {
    W2H_WAKE_ALONE,
    W2H_WAKE_ANY,
    W2H_INTR,
    W2H_NR
};

struct w2h_vec {
    uint64_t count;                 /* injections */
    uint64_t start_tsc;             /* 0: none; 1: at the next entry */
    bool is_wake;
    struct xa_stat *times;          /* [W2H_NR], allocated on first use */
};

struct w2h {
    bool waking;                    /* woken from blocked, not yet entered */
    /*
     * The lowest vector started since the clocks were last cleared (a
     * halt, a reset): none below has a clock, so the scans begin there.
     */
    uint8_t lo;
    uint32_t wake_vector;           /* 0: none yet this wake */
    unsigned int interrupts;        /* started since the last halt */
    unsigned int wanting;           /* waiting for the next entry's TSC */
    struct w2h_vec vec[256];
};

/*
 * x86 HVM guest page tables (cr3.c, model option cr3), per domain: the
 * values loaded, in the order first loaded, found by gmfn; each one
 * charged CR3_COST to the memory budget, those past it not tracked.
 */
struct cr3_tab {
    struct xa_sum_cr3 *v;
    uint8_t *unpinned;              /* unpinned since its last load */
    unsigned int nr, cap;
    struct xa_idx idx;
    uint64_t untracked;             /* loads of values not tracked */
};
#define CR3_NO_HANDLER 0xffffu

struct stay {
    unsigned int cpu;
    struct xa_stat st;
};

struct domain;
struct pcpu;

struct vcpu {
    struct domain *d;
    unsigned int id;
    enum rs state;
    enum runnable_sub runnable;
    uint64_t state_tsc;             /* 0: current interval not accounted */
    struct pcpu *p;                 /* where it last ran */
    bool activated;
    enum vcpu_type type;
    bool losable_listed;            /* in xa_model.losable */
    struct {
        enum rs wrong, actual;
        uint64_t tsc;
    } last_old;
    struct xa_stat rs[XA_RS_NR];

    /* Generic exit/entry pairing (x86 HVM, Arm). */
    bool arch_init;
    bool exit_open;
    uint64_t exit_tsc;
    uint64_t exit_rip;              /* x86 HVM; set before opening */
    uint32_t exit_code;
    unsigned int exit_pcpu;         /* the CPU of the exit record */
    uint8_t sub_kind;
    uint64_t sub_val;
    struct exit_tab *exits;

    struct count_tab hypercalls;    /* PV */
    struct count_tab pv_events;     /* PV, by event id */
    struct w2h *w2h;                /* HVM: injected interrupts, NULL: none */
    struct eip_tab *intr_eips;      /* opts.eip_vector's, NULL: none */

    /* Guest page tables (cr3.c, model option cr3). */
    uint64_t cr3_val;               /* the CR3 loaded; 0: not known */
    int cr3_cur;                    /* its d->cr3 entry, -1: none */
    uint64_t cr3_start;             /* loaded at */
    uint64_t cr3_entry_tsc;         /* the entry that closed the last exit;
                                       0: none since */
    /* x86 HVM, every exit: what it did (hvm_short_note()). */
    uint32_t short_handler;         /* the last handler record of an exit,
                                       kept across exits (upstream) */
    bool cr3_write;                 /* this exit wrote CR3 ... */
    uint64_t cr3_write_val;         /* ... this value */
    /* x86 HVM, every exit: its shadow records (arch-x86.c). */
    uint8_t sh_fault;               /* enum sh_fault of the first one */
    bool sh_unpin;                  /* a prealloc_unpin record */
    uint32_t sh_flags;              /* path flags of the last emulate or
                                       fixup record */
    uint8_t sh_bits;                /* what they make of it: XA_EXIT_SH_* */

    /* CPU affinity: how long it stayed on a pCPU between migrations. */
    uint64_t pcpu_tsc;              /* arrived on its pCPU; 0: unknown */
    /*
     * A model cut (model-cut.c): pcpu_tsc is its warm-up's, not the
     * trace's; whether it was activated before the warm-up is not known
     * (first seen running there); a default vCPU left out of the state
     * written at the cut (no pCPU runs it): not to be touched after it.
     */
    bool pcpu_unknown, act_unknown, cut_hidden;
    bool cut_ref;                   /* a pCPU runs it, or ran it last */
    bool cut_counted;               /* it had counted exits or calls
                                       before the cut (model-cut.c) */
    struct xa_stat stay_all;
    struct stay *stays;             /* by pCPU */
    unsigned int nr_stays, cap_stays;
    struct xa_idx stay_idx;         /* pCPU -> stays[] */
};

struct domain {
    unsigned int id;
    struct vcpu **vcpus;
    unsigned int nr_vcpus;          /* array size */
    unsigned int in_state[RS_INIT + 1];
    /*
     * Bit s set: in_state[s] != 0, kept by domain_move() (model.c), so
     * that a change classifies the domain from one word, not by counting.
     */
    uint8_t live;
    enum xa_dom_rs state;
    uint64_t state_tsc;
    struct xa_stat rs[XA_DRS_NR];
    uint64_t grant_by, grant_for;   /* grant-table operations */
    uint64_t grant_ops[3];          /* map, unmap, transfer */
    uint64_t pod_populate, pod_reclaim, pod_splinter;
    uint64_t pod_populate_order[4], pod_reclaim_order[4];   /* 4k 2M 1G ? */
    struct cr3_tab cr3;
    unsigned int incarnation;       /* 0, or 1 + its predecessor's */
    bool retired;                   /* its id reused: in xa_model.retired */
    struct domain *hnext;
};

#define NR_VOL 13                    /* main classes + HVM sub-classes */

struct pcpu {
    unsigned int id;
    bool present;
    struct vcpu *current;
    struct vcpu *switched_out;      /* the guest vCPU current was before */
    uint64_t first_tsc, last_tsc;
    uint64_t time_tsc;              /* running/idle interval start */
    struct xa_stat running, idle, lost;
    bool lost_active, lost_domain_valid, seen_valid_schedule;
    uint64_t lost_tsc, lost_end_tsc;
    bool lost_end_pending;
    unsigned int lost_did, lost_vid;
    uint64_t records;
    uint64_t volume[NR_VOL];        /* bytes by class */
    /*
     * TSC skew: this pCPU's records came ahead of held_for's leaving the
     * pCPU it runs on (this TSC behind that one's): held, in order, until
     * it leaves (model.c, skew_hold()).  NULL: none.
     */
    struct vcpu *held_for;
    struct xa_record *held;
    unsigned int nr_held, cap_held;
    /*
     * A model cut (model-cut.c): time_tsc is its warm-up's, the running
     * or idle interval may have begun before.
     */
    bool time_unknown;
    /*
     * Not present, no TSC yet, a loss ending or records held: the fast
     * path of model.c's model_feed() leaves its records to the full one.
     * Set by pcpu_slow_update() wherever one of those changes.
     */
    bool slow;
};

static inline void pcpu_slow_update(struct pcpu *p)
{
    p->slow = !p->present || !p->first_tsc || p->lost_end_pending ||
              p->held_for;
}

#define HOLD_RECORDS_MAX 1024u      /* per pCPU */
#define HOLD_PCPUS_MAX 64u          /* held at once */

#define DOM_HASH 64

/*
 * What damaged input can make the model track: each domain and vCPU costs
 * a few KiB, and a vCPU id sizes its domain's table.  Beyond these, ids
 * count as LIMIT_DOMAINS.  The idle and default domains have one vCPU per
 * physical CPU, so any CPU number is a valid vCPU id there.
 */
#define MODEL_DOMAINS_MAX 4096u
#define MODEL_VCPU_ID_MAX 4095u
#define MODEL_VCPUS_MAX 32768u       /* in all domains together */

struct xa_model {
    const struct xa_catalog *cat;
    const struct arch_ops *arch[VT_ARM + 1];    /* by enum vcpu_type */
    struct xa_diag *diag;
    struct xa_model_opts opts;
    struct xa_fmt_ctx fmt;
    /*
     * Indexed by CPU number, NULL until the CPU's first record.  Each
     * pcpu has its own allocation: vCPUs keep pointers to them, and a
     * high CPU number costs a pointer per lower number, not a pcpu.
     */
    struct pcpu **pcpus;
    unsigned int nr_pcpus;          /* length of pcpus */
    struct domain *dom_hash[DOM_HASH];
    struct domain *retired;         /* ended by a reuse of their id */
    unsigned int nr_domains;        /* with the retired ones */
    unsigned int nr_vcpus_all;      /* vCPUs in all domains */
    unsigned int lost_cpus;
    unsigned int cr3_ids;           /* guest page tables seen (cr3.c) */
    /*
     * Bytes charged: mem, of mem_budget; keys and histogram groups only
     * while mem stays within key_budget (half of it), so that domains,
     * vCPUs and pCPUs (model_charge_struct()) keep room.
     */
    uint64_t mem, mem_budget, key_budget;
    uint64_t mem_model;             /* mem before the summary's aggregates */
    /*
     * vCPUs a lost-records record may put in the lost state (neither
     * running, nor lost already, nor never seen): listed when they enter
     * such a state, so that a lost-records record visits them, not every
     * vCPU (once 8,000 of them with 32,768 vCPUs took 12 s).
     */
    struct vcpu **losable;
    unsigned int nr_losable, cap_losable;
    uint64_t first_tsc, last_tsc;
    uint64_t records;
    bool have_tsc;
    struct pcpu *holding[HOLD_PCPUS_MAX];   /* pCPUs held (TSC skew) */
    unsigned int nr_holding;
    bool no_hold;                   /* at the end: release, hold no more */

    /* Architecture evidence. */
    uint64_t hvm_exits, arm_exits, arm_records, pv_records;
    uint32_t svm_evidence_code;
    uint64_t svm_evidence_offset;
    bool svm_seen, svm_record_seen;
    uint64_t clock_hz;              /* from a clock record (0: none) */

    /*
     * Event cache, direct-mapped by id: what xa_model_feed() needs of an
     * event id (known to the catalog?, log-volume slot, handler), worked
     * out once per id and not per record.
     */
    struct ev_seen {
        uint32_t id;                /* 0xffffffff: empty */
        uint8_t need;               /* known: its min_extra; else 255 */
        uint8_t vol;                /* p->volume[] slot */
        uint8_t kind;               /* enum ev_kind: which handler */
        uint8_t fast_need;          /* need, or 255 where model_feed()
                                       takes the full path (GEN, MEM) */
    } seen[256];
    /* hvm_owner() of the TRC_HVM ids seen last, by their low 6 bits. */
    struct hvm_owned {
        uint32_t id;                /* 0xffffffff: empty */
        uint8_t type;               /* enum vcpu_type */
    } hvm_owned[64];

    struct xa_summary *summary;

    /*
     * The accounting window (--from/--to) in TSC, [win_lo, win_hi): the
     * model follows every record, but counts only what happens inside
     * (see win_clip()).  Without a filter: [0, UINT64_MAX).
     */
    uint64_t win_lo, win_hi;
    bool win_whole;                 /* the filter's rule "begin" */
    bool win_all;                   /* [0, UINT64_MAX), not "begin": what
                                       win_clip() clips is all inside */
    bool win_pending;               /* set when the first TSC is known */
    uint64_t win_hz;                /* the rate given, or 0: the trace's */
    struct xa_filter filter;

    /*
     * Callbacks: one well-predicted test each where they may fire.  obs
     * is the one observer, or with several the fan-out of observer.c.
     */
    struct xa_model_observer obs;
    struct xa_model_observer obs_list[XA_MODEL_MAX_OBSERVERS];
    unsigned int nr_obs;

    /*
     * A model warmed up from an unknown state, then cut (model-cut.c):
     * spec from its start, cut once it counts; tainted when, after the
     * cut, it used what only the trace before its warm-up could tell.
     */
    bool spec, cut, tainted;
    unsigned int subs_max;          /* SUBS_MAX; more in a cut model */
    struct xa_diag own_diag;        /* a cut model's anomalies */
    struct cut_word_buf {
        uint64_t *w;
        size_t nr, cap;
    } cut_state;                    /* its state at the cut */
    struct stay_fix {               /* what its warm-up left open */
        unsigned int did, vid, cpu, to;
        uint8_t kind;               /* enum fix_kind (model-cut.c) */
        uint64_t tsc;
    } *fix;
    unsigned int nr_fix, cap_fix;
};

/* A cut model met what its warm-up could not tell: it will be redone. */
static inline void model_taint(struct xa_model *m)
{
    if ( m->cut )
        m->tainted = true;
}

/*
 * Whether a vCPU counted records of its kind (exits, hypercalls, PV
 * events), which a record of another kind is weighed against
 * (model_guest_vcpu_slow()); a cut model forgot its counts, not that.
 */
static inline bool model_vcpu_counted(const struct vcpu *v)
{
    return (v->exits && v->exits->nr) || v->hypercalls.nr ||
           v->pv_events.nr || v->cut_counted;
}

/* A vCPU found by its ids: one left out at the cut taints. */
static inline void model_vcpu_named(struct xa_model *m, const struct vcpu *v)
{
    if ( __builtin_expect(v->cut_hidden, 0) )
        model_taint(m);
}

#define OBS(m, cb) __builtin_expect((m)->obs.cb != NULL, 0)

/* Counts an anomaly, and tells the observers. */
static inline void model_diag(struct xa_model *m, enum xa_diag_kind kind,
                              uint64_t offset, unsigned int cpu)
{
    xa_diag_add(m->diag, kind, offset, cpu);
    if ( OBS(m, anomaly) )
        m->obs.anomaly(m->obs.arg, kind, cpu);
}

/*
 * Charges n bytes to the model's budget, for a key (model_charge()) or a
 * domain, vCPU or pCPU (model_charge_struct()); false, with MEMORY_BUDGET
 * counted, when they do not fit.
 */
static inline bool model_charge_within(struct xa_model *m, uint64_t n,
                                       uint64_t limit, unsigned int cpu)
{
    if ( m->mem + n > limit )
    {
        model_diag(m, XA_DIAG_MEMORY_BUDGET, UINT64_MAX, cpu);
        return false;
    }
    m->mem += n;
    return true;
}

static inline bool model_charge(struct xa_model *m, uint64_t n,
                                unsigned int cpu)
{
    return model_charge_within(m, n, m->key_budget, cpu);
}

static inline bool model_charge_struct(struct xa_model *m, uint64_t n,
                                       unsigned int cpu)
{
    return model_charge_within(m, n, m->mem_budget, cpu);
}

/* What xa_stat_add_within() said beyond XA_OK: counted (model.c). */
void model_stat_said(struct xa_model *m, int rc, unsigned int cpu);

/*
 * Adds a sample, the histogram's new groups charged to the budget (past
 * it, the sample goes to the statistic's nearest group: MEMORY_BUDGET),
 * a cycle sum that saturates counted (SUM_SATURATED).
 */
static inline __attribute__((always_inline))
void model_stat_add(struct xa_model *m, struct xa_stat *st, uint64_t c,
                    unsigned int cpu)
{
    int rc;

    /*
     * The empty asm hides how st was made, so that the compiler keeps it
     * in a register: given &v->rs[i] it recomputed the address (i times
     * 504, three instructions) at each of the add's field accesses.
     */
    __asm__("" : "+r"(st));
    rc = stat_add_within(st, c, &m->mem, m->key_budget);
    if ( __builtin_expect(rc != XA_OK, 0) )
        model_stat_said(m, rc, cpu);
}

/*
 * What each thing the model tracks costs the budget, charged when it is
 * made: its structure, the first histogram group of each statistic in
 * it (XA_STAT_GROUP_BYTES; further groups are charged as they come), and
 * what the summary will make of it (summary.c, summary-shape.c): its row,
 * and its share of the two aggregates, a domain's all-vCPU row and the
 * guests' row (AGG_LEVELS), each with its statistics' first groups and
 * the label of a key (KEY_COST).  The aggregates' further groups are
 * charged as they merge.  So the budget bounds the model and its summary.
 */
#define STAT_COST XA_STAT_COST
#define AGG_LEVELS 2u
#define KEY_COST 64u
#define IDX_COST (2 * sizeof(struct xa_idx_ent))
#define VCPU_COST (sizeof(struct vcpu) + sizeof(struct vcpu *) + \
                   (XA_RS_NR + 1) * XA_STAT_GROUP_BYTES + \
                   sizeof(struct xa_sum_vcpu) + STAT_COST)
#define DOMAIN_COST (sizeof(struct domain) + \
                     XA_DRS_NR * XA_STAT_GROUP_BYTES + \
                     sizeof(struct xa_sum_domain) + \
                     AGG_LEVELS * (sizeof(struct xa_sum_vcpu) + \
                                   (XA_RS_NR + 1) * STAT_COST))
#define PCPU_COST (sizeof(struct pcpu) + sizeof(struct pcpu *) + \
                   3 * XA_STAT_GROUP_BYTES + sizeof(struct xa_sum_pcpu))
#define EXIT_SLOT_COST (sizeof(struct exit_slot) + STAT_COST + IDX_COST + \
                        sizeof(struct xa_sum_exit) + STAT_COST + \
                        AGG_LEVELS * (sizeof(struct xa_sum_exit) + \
                                      2 * STAT_COST + IDX_COST + KEY_COST))
#define SUB_SLOT_COST (sizeof(struct sub_slot) + STAT_COST + IDX_COST + \
                       (1 + AGG_LEVELS) * (sizeof(struct xa_sum_sub) + \
                                           KEY_COST) + \
                       AGG_LEVELS * (STAT_COST + IDX_COST))
#define COUNT_KEY_COST (sizeof(uint32_t) + sizeof(uint64_t) + IDX_COST + \
                        (1 + AGG_LEVELS) * (sizeof(struct xa_sum_count) + \
                                            KEY_COST + IDX_COST))
#define STAY_COST (sizeof(struct stay) + STAT_COST + IDX_COST + \
                   sizeof(struct xa_sum_stay))
#define W2H_COST (sizeof(struct w2h) + 256 * sizeof(struct xa_sum_girq))
#define EIP_COST (3 * sizeof(struct xa_sum_eip))
/*
 * A guest page table: its entry and unpinned flag in arrays that double
 * (twice their length at most), its index entry, and the summary's copy
 * of its entry.
 */
#define CR3_COST (2 * (sizeof(struct xa_sum_cr3) + 1) + IDX_COST + \
                  sizeof(struct xa_sum_cr3))

/*
 * The length of [a, b) inside the window; 0 when none of it is.  Under
 * the rule "begin" (win_whole): all of it when it begins inside, else 0.
 */
static inline uint64_t win_clip(const struct xa_model *m, uint64_t a,
                                uint64_t b)
{
    if ( m->win_all )
        return b > a ? b - a : 0;
    if ( m->win_whole )
        return a >= m->win_lo && a < m->win_hi && b > a ? b - a : 0;
    if ( a < m->win_lo )
        a = m->win_lo;
    if ( b > m->win_hi )
        b = m->win_hi;
    return b > a ? b - a : 0;
}

/* Whether an event at tsc is inside the window (one test without one). */
static inline bool win_in(const struct xa_model *m, uint64_t tsc)
{
    return m->win_all || (tsc >= m->win_lo && tsc < m->win_hi);
}

/*
 * model.c: (re)computes the window once the rate and time 0 are known,
 * and win_all.
 */
void model_window_update(struct xa_model *m);
const struct xa_filter *model_filter(const struct xa_model *m);

/* model.c, for the architecture files */
struct vcpu *model_vcpu_find(struct xa_model *m, unsigned int did,
                             unsigned int vid);
void model_exit_open(struct xa_model *m, struct vcpu *v,
                     const struct xa_record *rec, uint32_t code);
void model_exit_close(struct xa_model *m, struct vcpu *v, uint64_t tsc,
                      enum xa_exit_closed_by by);
/* Sets the exit's breakdown key (first key wins unless override). */
static inline void model_exit_sub(struct vcpu *v, uint8_t kind, uint64_t val,
                                  bool override)
{
    if ( v->exit_open && (override || !v->sub_kind) )
    {
        v->sub_kind = kind;
        v->sub_val = val;
    }
}
/*
 * The vCPU running on the record's pCPU, if it may own guest records of
 * type (which it takes if it had none); VT_NONE: of any type, unchanged.
 * In line when a guest vCPU of that type runs there; else (none, idle,
 * another type: counted, the type taken, the domain reincarnated)
 * model_guest_vcpu_slow() in model.c.
 */
struct vcpu *model_guest_vcpu_slow(struct xa_model *m,
                                   const struct xa_record *rec,
                                   enum vcpu_type type);

static inline struct vcpu *model_guest_vcpu(struct xa_model *m,
                                            const struct xa_record *rec,
                                            enum vcpu_type type)
{
    struct vcpu *v = m->pcpus[rec->cpu]->current;

    if ( __builtin_expect(v && v->d->id != XA_DOM_IDLE &&
                          (type == VT_NONE || v->type == type), 1) )
        return v;
    return model_guest_vcpu_slow(m, rec, type);
}
/*
 * model.c: v's stay on a pCPU, found or added (NULL past the budget);
 * a stay ends; model-cut.c: a cut model's stay whose start it does not
 * know, left to the model that absorbs it.
 */
struct stay *model_stay_slot(struct xa_model *m, struct vcpu *v,
                             unsigned int cpu);
void model_stay_end(struct xa_model *m, struct vcpu *v, uint64_t tsc);
void model_stay_defer(struct xa_model *m, struct vcpu *v, uint64_t tsc);
void model_act_defer(struct xa_model *m, struct pcpu *p, struct vcpu *v,
                     uint64_t tsc);
void model_time_defer(struct xa_model *m, struct pcpu *p, uint64_t tsc);
/* model.c: a pCPU's running or idle interval ends. */
void model_pcpu_time_end(struct xa_model *m, struct pcpu *p, uint64_t tsc);
/*
 * model.c: a domain, a pCPU (present, with its default vCPU), an exit's
 * row and a breakdown key's, found or made as a record would make them.
 */
struct domain *model_domain_find(struct xa_model *m, unsigned int did);
struct pcpu *model_pcpu_get(struct xa_model *m, unsigned int cpu);
struct exit_slot *model_exit_slot(struct xa_model *m, struct vcpu *v,
                                  uint32_t code);
struct sub_slot *model_sub_slot(struct xa_model *m, struct exit_slot *e,
                                uint8_t kind, uint64_t val);
/* model.c: what a vCPU counted freed (its state stays); a vCPU freed. */
void model_vcpu_counts_free(struct vcpu *v);
void model_pcpu_counts_free(struct pcpu *p);
void model_vcpu_free(struct vcpu *v);
/* Adds n under key; returns XA_OK, XA_E_NOMEM, or 1: folded into other. */
int count_tab_add(struct xa_model *m, struct count_tab *t, uint32_t key,
                  uint64_t n);
void count_tab_free(struct count_tab *t);

/*
 * guest-irq.c: interrupts injected into HVM vCPUs (x86, Arm) and
 * wake-to-halt, which the scheduler (runstate), entries and injections
 * drive.
 */
void girq_inject(struct xa_model *m, struct vcpu *v, unsigned int vec,
                 const struct xa_record *rec);
void girq_entry(struct vcpu *v, uint64_t tsc);
void girq_runstate(struct xa_model *m, struct vcpu *v, int old_rs,
                   int new_rs, uint64_t tsc);
void girq_reset(struct vcpu *v);
void girq_free(struct vcpu *v);

/*
 * cr3.c: guest page tables, driven by x86 HVM exits (open at the exit
 * record, the handler records, close), lost records and shadow unpins.
 */
void cr3_exit(struct xa_model *m, struct vcpu *v, uint64_t tsc);
/*
 * Every x86 HVM exit: its handler records (an open exit's), and what it
 * did (enum xa_short_kind, upstream's HVM short summary kinds).
 */
void hvm_short_note(struct vcpu *v, const struct xa_record *rec);
unsigned int hvm_short_kind(const struct vcpu *v);
void cr3_close(struct xa_model *m, struct vcpu *v, uint64_t tsc,
               unsigned int cpu);
void cr3_lost(struct xa_model *m, struct vcpu *v, uint64_t tsc,
              unsigned int cpu);
void cr3_unpin(struct vcpu *v, uint64_t gmfn);
void cr3_tab_free(struct cr3_tab *t);

/*
 * An architecture's guest code as the model sees it (as perf's
 * kvm_events_ops): arch-x86.c and arch-arm.c each define theirs, the model
 * holds one per vCPU type (xa_model.arch) and reaches them only through
 * it.  A record of the HVM class goes to the type whose hvm_own ranges
 * hold its id, else to the type with hvm_rest; the ids every type writes
 * (entry, injection, halt) go by the vCPU's type, without deciding it.
 * PV and Arm format-1 records have classes of their own.
 */
struct arch_ops {
    /* TRC_HVM ids only this type writes (TRC_64_FLAG and bits 10-11 clear). */
    struct { uint32_t first, last; } hvm_own[2];
    bool hvm_rest;                  /* takes the TRC_HVM ids nobody owns */
    uint32_t virq_mask;             /* an injection's key: x86 vector, Arm INTID */
    /* A TRC_HVM record of one of its vCPUs; NULL: none expected. */
    void (*hvm_record)(struct xa_model *m, struct vcpu *v,
                       const struct xa_record *rec);
    /* A halt or an injection (with its words) of one of its vCPUs. */
    void (*shared_record)(struct xa_model *m, struct vcpu *v,
                          const struct xa_record *rec);
    /*
     * A record of the type's own class (TRC_PV, TRC_ARM, TRC_SHADOW for
     * x86 HVM); NULL: none.
     */
    void (*class_record)(struct xa_model *m, const struct xa_record *rec);
};

extern const struct arch_ops x86_hvm_ops, x86_pv_ops, arm_ops;

/* summary.c */
void model_summary_free(struct xa_summary *s);
/* summary-shape.c: totals, aggregates, order and folding. */
int summary_shape(struct xa_summary *s);
/* A statistic the summary owns, empty; NULL when out of memory. */
struct xa_stat *summary_owned_stat(struct xa_summary *s);
/* After summary_shape(): s->guests, every domain's but idle and default. */
int summary_shape_guests(struct xa_summary *s);

#endif /* MODEL_PRIVATE_H */
