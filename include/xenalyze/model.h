/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Model: domains, vCPUs and physical CPUs, created as records name them,
 * with runstate tracking and the generic exit/entry pairing into which
 * each architecture (x86 HVM, Arm) plugs.
 */
#ifndef XA_MODEL_H
#define XA_MODEL_H

#include <xenalyze/catalog.h>
#include <xenalyze/diag.h>
#include <xenalyze/reader.h>
#include <xenalyze/summary.h>

#ifdef __cplusplus
extern "C" {
#endif

#define XA_DOM_IDLE     32767u
#define XA_DOM_DEFAULT  32768u      /* "not known yet" */

enum xa_hvm_mode_opt {
    XA_HVM_MODE_AUTO,
    XA_HVM_MODE_FORCE_VMX,
    XA_HVM_MODE_FORCE_SVM,
};

struct xa_model_opts {
    enum xa_hvm_mode_opt hvm_mode;
    enum xa_hvm_mode hvm_hint;  /* starting guess under AUTO */
    /*
     * x86 HVM: list the guest addresses external interrupts of this
     * vector find (upstream's interrupt eip list), per vCPU and domain,
     * in the summary when eip_list is set.
     */
    bool eip_list;
    unsigned int eip_vector;
    /*
     * x86 HVM: follow the guest page tables CR3 writes load (upstream's
     * cr3 tracking: --with-cr3-enumeration and what needs it), per
     * domain, each value charged to the memory budget; the cr3 observer
     * callback tells of loads and time.
     */
    bool cr3;
    /*
     * Bytes the observers keep for each guest page table (the interval
     * tables' copies: xa_plots_cr3_bytes()), charged to the memory
     * budget with it.
     */
    size_t cr3_observer_bytes;
    /*
     * x86 HVM: MMIO exits to upstream's VGA range (0xa0000-0xbfffe) get
     * no breakdown key, neither their address nor their page (upstream's
     * --mmio-enumeration-skip-vga=1, its default).
     */
    bool mmio_skip_vga;
    /*
     * Bytes the model and its summary may take (0: XA_MODEL_BUDGET,
     * 1 GiB), charged as things are made: domains, vCPUs, pCPUs, keys
     * (breakdown keys, exit codes, wake-to-halt vectors, pCPU stays,
     * counters, eip-list addresses, guest page tables) and histogram
     * groups; keys and groups take at most half.  Past it keys fold into
     * their table's "other" row or are not tracked, a sample goes to its
     * statistic's nearest group, new domains, vCPUs and pCPUs are not
     * modelled, each counted as MEMORY_BUDGET (docs/bad-input.md).
     */
    uint64_t memory_budget;
};

#define XA_MODEL_BUDGET (1ull << 30)

/* What a first look at a trace tells (see xa_trace_peek()). */
struct xa_trace_hints {
    enum xa_hvm_mode hvm_mode;  /* XA_HVM_SVM on SVM evidence */
    uint64_t clock_hz;          /* a clock record's rate, or 0 */
};

/**
 * xa_trace_peek - look ahead in a trace file, for the dump
 * @path: trace file (not "-")
 * @max_records: how many records to look at, at most
 * @h: filled in: SVM if an SVM exit record or an exit code beyond VMX's
 *     range was seen, and the first clock record's rate
 */
XA_API int xa_trace_peek(const char *path, uint64_t max_records,
                         struct xa_trace_hints *h);
/*
 * The same on the first bytes of a trace (xa_reader_head()): what the
 * dump uses, so that a file and a pipe are named alike.
 */
#define XA_PEEK_BYTES (16u << 20)
XA_API int xa_trace_peek_mem(const void *data, size_t size,
                             uint64_t max_records, struct xa_trace_hints *h);

struct xa_model;

/* A vCPU's runstate as the model tracks it (upstream xenalyze's order). */
enum xa_vcpu_rs {
    XA_VRS_RUNNING,
    XA_VRS_RUNNABLE,
    XA_VRS_BLOCKED,
    XA_VRS_OFFLINE,
    XA_VRS_LOST,
    XA_VRS_QUEUED,                  /* default vCPU after start of day */
    XA_VRS_INIT,                    /* not seen running yet */
};

/* What a vCPU's guest records show it to be. */
enum xa_vcpu_kind {
    XA_VK_NONE,
    XA_VK_HVM,                      /* x86 HVM (VMX or SVM exits) */
    XA_VK_PV,                       /* x86 PV */
    XA_VK_ARM,                      /* Arm guest (TRC_ARM exits) */
};

/* What closed an exit. */
enum xa_exit_closed_by {
    XA_CLOSED_BY_ENTRY,             /* the vCPU's next guest entry */
    XA_CLOSED_BY_RUNNABLE,          /* the vCPU became runnable first */
};

/*
 * A vCPU runstate interval as the summary counts it (the runstate_done
 * callback): summed per vCPU and state, the summary's numbers.
 */
struct xa_runstate_event {
    unsigned int dom, vcpu;
    enum xa_rs state;               /* RUNNING, RUNNABLE, BLOCKED, OFFLINE,
                                       LOST */
    enum xa_rs runnable;            /* RUNNABLE: its kind (_WAKE, _PREEMPT,
                                       _OTHER); else XA_RS_NR */
    uint64_t start_tsc;             /* where it began */
    uint64_t cycles;                /* counted (window applied) */
    uint64_t first_tsc;             /* the trace's time 0 */
    uint64_t trace_hz;              /* the trace's clock record, or 0 */
    unsigned int incarnation;       /* the domain's, as the summary's */
};

/* What the cr3 callback tells (model option cr3). */
enum xa_cr3_what {
    /* A vCPU switches CR3 (a CR3 write of another value, or to none at a
     * lost-records record: gmfn 0); tsc: the exit's, id: the value's
     * (-1: none or untracked). */
    XA_CR3_SWITCH,
    /* A value is first loaded in a domain (id, gmfn, first_tsc). */
    XA_CR3_NEW,
    /* A value was loaded for cycles (added at the switch from it). */
    XA_CR3_TIME,
    /* An exit under a value, of kind short_kind, took cycles. */
    XA_CR3_KIND,
};

struct xa_cr3_event {
    enum xa_cr3_what what;
    unsigned int dom, vcpu;
    int id;
    uint64_t gmfn;
    uint64_t tsc;                   /* SWITCH: the exit's; else the record's */
    uint64_t first_tsc;             /* the value's first load */
    uint64_t cycles;
    unsigned int short_kind;        /* enum xa_short_kind */
};

/* A closed exit with everything a row needs (the exit_done callback). */
struct xa_exit_event {
    unsigned int dom, vcpu;
    unsigned int pcpu;              /* the CPU of the exit record */
    enum xa_vcpu_kind kind;         /* XA_VK_HVM or XA_VK_ARM */
    enum xa_hvm_mode hvm_mode;      /* x86: VMX or SVM, as decided so far */
    enum xa_exit_closed_by closed_by;
    uint32_t code;                  /* exit reason, SVM code or Arm class */
    uint8_t sub_kind;               /* breakdown key (enum xa_sub_kind) */
    uint64_t sub_val;
    uint64_t exit_tsc, tsc;         /* the exit and its close */
    uint64_t rip;                   /* guest RIP / PC at the exit */
    /*
     * What the summary adds for it: counted when it begins inside the
     * --from/--to window (always without one), cycles cut at the window's
     * end, 0 when the close is before the exit.  The --domain/--vcpu
     * selection is the observer's to apply.
     */
    bool counted;
    uint64_t cycles;
    uint64_t first_tsc;             /* the trace's time 0 */
    uint64_t trace_hz;              /* the trace's clock record, or 0 */
    /*
     * What it did (enum xa_short_kind, upstream's HVM short summary): a
     * CR3 write, else by the last handler record of the vCPU's exits
     * (vmcall, intr, hlt, other); Arm: other.
     */
    uint8_t short_kind;
    /*
     * The domain's incarnation, as the summary's (0; n: the (n+1)th
     * domain of its id, DOMAIN_REUSED).
     */
    unsigned int incarnation;
    /*
     * x86 HVM shadow paging: what upstream's --scatterplot-unpin-promote
     * plots of it (XA_EXIT_SH_*, from its shadow records); cr3_id: the
     * trace-wide id of the vCPU's guest page table (model option cr3),
     * -1: none.
     */
    uint8_t shadow;
    int cr3_id;
};

#define XA_EXIT_SH_EARLY_UNSHADOW 0x1u  /* an emulation unshadowed early */
#define XA_EXIT_SH_UNPIN          0x2u  /* shadow pre-allocation unpinned */
#define XA_EXIT_SH_PROMOTE        0x4u  /* a page became a page table */

/*
 * What the model tells as it goes, for plots and per-interval tables.
 * Every member may be NULL; the callbacks run inside xa_model_feed() and
 * xa_model_finish(), in the thread that calls them, and must not call
 * back into the model.
 */
struct xa_model_observer {
    void *arg;
    /* A domain is first named by a record. */
    void (*domain_new)(void *arg, unsigned int dom);
    /*
     * A vCPU changes runstate at tsc; duration: the interval it leaves,
     * 0 when its start is not known (it is then not accounted).
     */
    void (*runstate)(void *arg, unsigned int dom, unsigned int vcpu,
                     enum xa_vcpu_rs old_rs, enum xa_vcpu_rs new_rs,
                     uint64_t tsc, uint64_t duration);
    /*
     * A vCPU is scheduled on pcpu at tsc; old_pcpu: where it last ran,
     * or -1.
     */
    void (*schedule)(void *arg, unsigned int dom, unsigned int vcpu,
                     int old_pcpu, unsigned int pcpu, uint64_t tsc);
    /* A guest exit opens (x86 HVM: rip from the VMEXIT record). */
    void (*exit_open)(void *arg, unsigned int dom, unsigned int vcpu,
                      uint32_t code, uint64_t tsc, uint64_t rip);
    /*
     * A guest exit closes at tsc (guest entry, or the vCPU becoming
     * runnable); sub_kind/sub_val: its breakdown key (enum xa_sub_kind).
     */
    void (*exit_closed)(void *arg, unsigned int dom, unsigned int vcpu,
                        uint32_t code, uint8_t sub_kind, uint64_t sub_val,
                        uint64_t exit_tsc, uint64_t tsc, uint64_t rip);
    /* The same closed exit with its pCPU, counted cycles and closer. */
    void (*exit_done)(void *arg, const struct xa_exit_event *ev);
    /* x86 HVM: an interrupt injected into the guest. */
    void (*guest_irq)(void *arg, unsigned int dom, unsigned int vcpu,
                      unsigned int vector, uint64_t tsc);
    /* A vCPU's first guest record shows what it is. */
    void (*vcpu_kind)(void *arg, unsigned int dom, unsigned int vcpu,
                      enum xa_vcpu_kind kind);
    /*
     * A vCPU wakes (blocked or offline to runnable) at tsc, by a record
     * of pcpu; the runstate callback follows.
     */
    void (*wake)(void *arg, unsigned int dom, unsigned int vcpu,
                 unsigned int pcpu, uint64_t tsc);
    /*
     * pcpu starts running a vCPU (the idle vCPU: idle) at tsc; at the
     * start of the trace tsc may be the CPU's first timestamp, before the
     * record that tells.
     */
    void (*pcpu_run)(void *arg, unsigned int pcpu, unsigned int dom,
                     unsigned int vcpu, uint64_t tsc);
    /*
     * The interval of pcpu that began at its last pcpu_run ends at tsc;
     * duration: what --report-pcpu counts for it, 0 when nothing.
     */
    void (*pcpu_time)(void *arg, unsigned int pcpu, uint64_t tsc,
                      uint64_t duration);
    /*
     * A lost-records gap of pcpu begins (begin, duration 0) or ends at
     * tsc; at the end, duration is what the summary counts as lost.
     */
    void (*lost)(void *arg, unsigned int pcpu, bool begin, uint64_t tsc,
                 uint64_t duration);
    /*
     * An open exit is dropped at tsc, not counted (a lost-records gap, the
     * end of its CPU's data, a new exit before the entry).
     */
    void (*exit_discarded)(void *arg, unsigned int dom, unsigned int vcpu,
                           uint64_t tsc);
    /* The model counts an anomaly, at the record being fed. */
    void (*anomaly)(void *arg, enum xa_diag_kind kind, unsigned int pcpu);
    /*
     * x86 HVM: a vCPU halts (running to blocked) at tsc, cycles after it
     * entered the guest with vector injected; is_wake: the vector was the
     * first injected after a wake-up (upstream's "wake to halt").
     */
    /*
     * x86 HVM: an exit is found to be for an external interrupt of
     * vector (its TRC_HVM_INTR record); exit_tsc and rip: the exit's.
     */
    void (*intr)(void *arg, unsigned int dom, unsigned int vcpu,
                 unsigned int vector, uint64_t exit_tsc, uint64_t rip);
    void (*w2h)(void *arg, unsigned int dom, unsigned int vcpu,
                unsigned int vector, bool is_wake, uint64_t tsc,
                uint64_t cycles);
    /* A runstate interval the summary counts. */
    void (*runstate_done)(void *arg, const struct xa_runstate_event *ev);
    /* x86 HVM guest page tables (model option cr3). */
    void (*cr3)(void *arg, const struct xa_cr3_event *ev);
    /*
     * A domain id is reused by a new domain (DOMAIN_REUSED) at tsc: the
     * old one's vCPUs have gone offline, and from here the id's
     * callbacks are the new one's, the summary's incarnation (1: the
     * id's second domain, ...).
     */
    void (*domain_reused)(void *arg, unsigned int dom,
                          unsigned int incarnation, uint64_t tsc);
};

XA_API int xa_model_new(const struct xa_catalog *cat, struct xa_diag *diag,
                        const struct xa_model_opts *opts,
                        struct xa_model **out);
XA_API void xa_model_free(struct xa_model *m);

/* Installs (obs NULL: removes) the only observer; call before feeding. */
XA_API void xa_model_set_observer(struct xa_model *m,
                                  const struct xa_model_observer *obs);

/*
 * Adds an observer beside those installed (plots, a timeline and per-exit
 * rows at once), called in the order added.  Returns XA_OK, or XA_E_RANGE
 * beyond XA_MODEL_MAX_OBSERVERS.  Call before feeding.
 */
#define XA_MODEL_MAX_OBSERVERS 8
XA_API int xa_model_add_observer(struct xa_model *m,
                                 const struct xa_model_observer *obs);

/**
 * xa_model_set_filter - what the summary covers
 * @f: a time window (--from/--to) and the domains or vCPUs to report
 * @hz: the clock rate given by the user, or 0 (the trace's clock record,
 *      else the default, as for the summary)
 *
 * The model still follows every record (to know every vCPU's state), but
 * counts only what happens inside the window: an interval (runstate,
 * pCPU running/idle/lost, CPU stay) counts for its part inside; an exit
 * or a wake-to-halt sample counts when it begins inside, its time cut at
 * the window's end; counters (PV hypercalls and events, injected
 * interrupts, grant and PoD operations, records and log volume) count
 * the records inside.  The domain and vCPU selection applies when the
 * summary is built.  Call before feeding.
 */
struct xa_filter;
XA_API void xa_model_set_filter(struct xa_model *m, const struct xa_filter *f,
                                uint64_t hz);

/* Processes one record of the merged stream. */
XA_API void xa_model_feed(struct xa_model *m, const struct xa_record *rec);
/* Processes n records of the merged stream, in order: xa_model_feed() on
 * each, without a call per record (a batch of xa_merge_read()). */
XA_API void xa_model_feed_batch(struct xa_model *m,
                                const struct xa_record *recs, unsigned int n);

/* Ends the trace: closes open intervals at the last TSC seen. */
XA_API void xa_model_finish(struct xa_model *m);

/*
 * Chunks of a trace analysed apart (docs/parallel-summary.md): a model
 * made for a chunk takes the records of a warm-up before it, is cut where
 * the chunk begins (what it counted is forgotten, its state kept and
 * written down), takes the chunk's records, and is absorbed by the model
 * that took the trace up to the chunk, when that one is in the state the
 * chunk's was in at the cut (xa_model_fits()).  main ends as if it had
 * taken the chunk's records itself.
 *
 * xa_model_apart_ok: whether m's output can come from chunks (no
 * observer, no time window, no cr3 or eip-list option).
 * xa_model_new_apart: a model for a chunk, with main's catalog and
 * options and anomalies of its own, and a memory budget of its own
 * (budget bytes; 0: main's), so that N chunks' models take N budgets'
 * worth at most: one that meets it is redone by main; XA_E_INVAL when
 * not apart_ok.
 * xa_model_cut: at the chunk's start; XA_OK or XA_E_NOMEM.
 * xa_model_fits: main, now, is in the state apart was in at its cut.
 * xa_model_absorb: after xa_model_fits(): what apart counted after its
 * cut added to main, apart's state taken on, its anomalies appended.
 * XA_E_AGAIN, with main unchanged, when that would not be exactly the
 * single pass (after its cut apart used what its warm-up could not know,
 * or met a cap or the memory budget, or the two would): then main must
 * take the chunk's records itself.  XA_E_NOMEM leaves main in no
 * defined state.
 */
XA_API bool xa_model_apart_ok(const struct xa_model *m);
XA_API int xa_model_new_apart(const struct xa_model *main, uint64_t budget,
                              struct xa_model **out);
XA_API int xa_model_cut(struct xa_model *m);
XA_API bool xa_model_fits(struct xa_model *main,
                          const struct xa_model *apart);
XA_API int xa_model_absorb(struct xa_model *main, struct xa_model *apart);

/*
 * The vCPU running on a physical CPU as far as the records tell;
 * false when unknown.
 */
XA_API bool xa_model_pcpu_current(const struct xa_model *m, unsigned int cpu,
                                  unsigned int *dom, unsigned int *vcpu);

/* What the model cannot know by itself. */
struct xa_summary_info {
    uint64_t records;           /* including CPU-change records */
    uint64_t bytes;             /* input size */
    uint64_t windows;           /* CPU-change records */
    uint64_t record_bytes;      /* bytes of the records read */
    unsigned int nr_pcpus;
    uint64_t cpu_hz;            /* from the command line, or 0 */
    const char *cpu_hz_option;  /* the option that gave it ("timer-hz");
                                   NULL: "cpu-hz" */
    const struct xa_diag *diag;
    /* How to present it (zero: by time, every sub-row). */
    enum xa_sum_sort sort;
    unsigned int top;           /* sub-rows of an exit beyond: folded */
    /*
     * List the default domain (32768, "not known yet") even without exits
     * or guest records of its own (upstream's
     * --show-default-domain-summary).
     */
    bool show_default_domain;
    /*
     * List every domain's guest page tables (model option cr3; upstream's
     * --with-cr3-enumeration).
     */
    bool cr3_list;
};

/**
 * xa_model_summary - build the summary after xa_model_finish()
 * @m: model (owns the result; it lives until xa_model_free())
 * @info: trace facts and the clock rate the user gave (0: none)
 *
 * Returns NULL on allocation failure.
 */
XA_API const struct xa_summary *xa_model_summary(struct xa_model *m,
                                             const struct xa_summary_info *info);

/*
 * After the records: when --svm-mode or --vmx-mode forced a reading of
 * HVM exit codes that the trace's own exit records contradict, writes a
 * sentence saying so into buf and returns true.
 */
XA_API bool xa_model_hvm_mode_doubt(const struct xa_model *m, char *buf,
                                    size_t size);

/* The clock rate a trace states (Arm clock record), or 0. */
XA_API uint64_t xa_model_trace_hz(const struct xa_model *m);

/*
 * The name of an exit code: an Arm exception class for Arm vCPUs, else a
 * VMX or SVM exit reason; NULL when unknown.
 */
XA_API const char *xa_exit_name(enum xa_vcpu_kind kind, enum xa_hvm_mode mode,
                                uint32_t code);

/**
 * xa_sub_key_format - an exit's breakdown key as the summary writes it
 * @kind: enum xa_sub_kind
 * @val: its value (port, address, MSR, leaf, hypercall...)
 * @buf, @size: where to write "io:0x0084:w", "hypercall:vcpu_op"...
 * @label: set to a name for the key (a PSCI call, a system register), or
 *         NULL
 *
 * Returns what snprintf() returns.
 */
XA_API int xa_sub_key_format(uint8_t kind, uint64_t val, char *buf,
                             size_t size, const char **label);

/* Formatting context (e.g. VMX or SVM exit names) the model settled on. */
XA_API const struct xa_fmt_ctx *xa_model_fmt_ctx(const struct xa_model *m);

#ifdef __cplusplus
}
#endif

#endif /* XA_MODEL_H */
