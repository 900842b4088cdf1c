/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xentrace-synth: a host simulator that writes realistic xentrace files
 * and the exact summary they contain (the "truth").  Private to the tool.
 */
#ifndef SYNTH_SYNTH_H
#define SYNTH_SYNTH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <xenalyze/writer.h>

/* Event ids the tool writes (Xen 4.17 xen/include/public/trace.h). */
#define EV_RUNSTATE         0x00021001u     /* | old << 8 | new << 4 */
#define EV_CONTINUE         0x00021002u
#define EV_VMENTRY          0x00081001u
#define EV_VMEXIT           0x00081002u
#define EV_VMEXIT64         0x00081102u
#define EV_HVM_MSR_READ     0x0008200cu
#define EV_HVM_MSR_WRITE    0x0008200du
#define EV_HVM_CPUID        0x0008200eu
#define EV_HVM_INTR         0x0008200fu
#define EV_HVM_VMMCALL      0x00082012u
#define EV_HVM_HLT          0x00082013u
#define EV_HVM_IOPORT_READ  0x00082016u
#define EV_HVM_IOMEM_READ   0x00082017u
#define EV_HVM_RDTSC        0x0008201au
#define EV_HVM_NPF          0x00082021u
#define EV_HVM_CR_WRITE64   0x00082109u
#define EV_HVM_IOPORT_WRITE 0x00082216u
#define EV_HVM_IOMEM_WRITE  0x00082217u
#define EV_HVM_64           0x100u          /* TRC_64_FLAG */
/* TRC_SHADOW (| (guest paging levels - 2) << 8 from multi.c) */
#define EV_SH_FIXUP         0x0040f006u
#define EV_SH_EMULATE       0x0040f008u
#define EV_SH_UNSHADOW_USER 0x0040f009u     /* + 0, 1, 2: user, evtinj,
                                               unhandled */
#define EV_SH_PREALLOC_UNPIN 0x0040f00du
#define EV_PV_HYPERCALL_V2  0x0020100du
/* Xen on Arm, format 2 (docs/arm-trace-events.md): HVM ids. */
#define EV_HVM_ARM_EXIT     0x00081004u
#define EV_HVM_ARM_EXIT_IRQ 0x00081005u
#define EV_HVM_INJ_VIRQ     0x00082004u
#define EV_HVM_HLT          0x00082013u
#define EV_HVM_ARM_HCALL    0x00082030u
#define EV_HVM_ARM_SMCCC    0x00082031u
#define EV_HVM_ARM_SYSREG   0x00082032u
#define EV_HVM_ARM_MMIO     0x00082033u
#define EV_HVM_ARM_S2_FAULT 0x00082034u
#define EV_HVM_ARM_IRQ      0x00082036u
#define EV_TRACE_CLOCK_KHZ  0x0001f005u     /* patched xentrace, at the head */
/* Xen on Arm, format 1 (withdrawn): the TRC_ARM class. */
#define EV_ARM_EXIT         0x01001001u
#define EV_ARM_ENTRY        0x01001002u
#define EV_ARM_HVC          0x01002001u
#define EV_ARM_SMC          0x01002002u
#define EV_ARM_DABT         0x01002003u
#define EV_ARM_SYSREG       0x01002004u
#define EV_ARM_WFX          0x01002006u
#define EV_ARM_IRQ          0x01002007u
#define EV_ARM_VGIC_MAINT   0x01002008u
#define EV_ARM_CLOCK        0x01004001u
#define EV_LOST             0x0001f001u

#define IDLE_DOMID 32767u

enum rs { RS_RUNNING, RS_RUNNABLE, RS_BLOCKED, RS_OFFLINE };

/* PRNG: xoshiro256** seeded through splitmix64. */
struct rng {
    uint64_t s[4];
};

void rng_seed(struct rng *r, uint64_t seed);

static inline uint64_t rng_next(struct rng *r)
{
    uint64_t *s = r->s;
    uint64_t x = s[1] * 5, res = ((x << 7) | (x >> 57)) * 9;
    uint64_t t = s[1] << 17;

    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = (s[3] << 45) | (s[3] >> 19);
    return res;
}

/* Uniform in [0, n). */
static inline uint64_t rng_below(struct rng *r, uint64_t n)
{
    return (uint64_t)(((unsigned __int128)rng_next(r) * n) >> 64);
}

/*
 * A duration distribution in cycles.  Exponential and log-normal ones
 * are tabulated at load time (DIST_TAB quantiles), so sampling is a table
 * look-up and a multiply.
 */
#define DIST_TAB_BITS 10
#define DIST_TAB (1u << DIST_TAB_BITS)

enum dist_kind { DIST_FIXED, DIST_UNIFORM, DIST_TABLE };

struct dist {
    enum dist_kind kind;
    uint64_t a, b;              /* fixed: a; uniform: [a, b] */
    uint64_t *tab;              /* DIST_TAB + 1 quantiles */
};

static inline uint64_t dist_sample(const struct dist *d, struct rng *r)
{
    uint64_t v, x;

    switch ( d->kind )
    {
    case DIST_FIXED:
        v = d->a;
        break;
    case DIST_UNIFORM:
        v = d->a + rng_below(r, d->b - d->a + 1);
        break;
    case DIST_TABLE:
    default:
        /* Linear interpolation between neighbouring quantiles. */
        x = rng_next(r);
        {
            unsigned int i = (unsigned int)(x >> (64 - DIST_TAB_BITS));
            uint64_t frac = (x >> (64 - DIST_TAB_BITS - 16)) & 0xffff;
            uint64_t lo = d->tab[i], hi = d->tab[i + 1];

            v = lo + (((hi - lo) * frac) >> 16);
        }
        break;
    }
    return v ? v : 1;
}

/* Parses "fixed 5us", "uniform 1us 3us", "exp 20us", "lognormal 4us 0.5". */
int dist_parse(struct dist *d, const char *text, uint64_t hz, char *err,
               size_t errlen);
void dist_dispose(struct dist *d);
/* "1500", "2.5us", "3ms", "1s", "10ns" -> cycles at hz; false if bad. */
bool parse_cycles(const char *s, uint64_t hz, uint64_t *out);

/* Domain kinds. */
enum dom_kind { DK_VMX, DK_SVM, DK_PV, DK_ARM, DK_NR };

/* Abstract exit kinds, mapped per domain kind onto codes and records. */
enum exit_kind {
    XK_INTR, XK_CPUID, XK_HLT, XK_HYPERCALL, XK_IO, XK_MSR_READ,
    XK_MSR_WRITE, XK_MMIO, XK_CR, XK_RDTSC, XK_SMC, XK_SYSREG, XK_WFE,
    XK_SH_FIXUP, XK_SH_EMULATE, XK_SH_UNSHADOW,     /* shadow page faults */
    XK_NR
};

#define MAX_EXIT_SPECS 16
#define MAX_HCALL_SPECS 16
#define PICK_TAB 1024

#define TXT 80

struct exit_spec {
    enum exit_kind kind;
    unsigned int weight;
    char dur_txt[TXT];
    struct dist dur;            /* handling time in Xen */
};

struct hcall_spec {
    unsigned int nr;
    unsigned int weight;
};

struct dom_spec {
    unsigned int id;
    enum dom_kind kind;
    unsigned int nr_vcpus;
    char run_txt[TXT], sleep_txt[TXT];
    struct dist run;            /* guest time between exits/hypercalls */
    struct dist sleep;          /* blocked time before the wake */
    double offline;             /* share of blocks that go offline */
    unsigned int cr3;           /* x86 HVM: CR writes load one of this many
                                   page tables (0: CR4 writes) */
    unsigned int shadow;        /* VMX: shadow paged, the guest's paging
                                   levels (2, 3, 4); 0: not */
    struct exit_spec exits[MAX_EXIT_SPECS];
    unsigned int nr_exits;
    struct hcall_spec hcalls[MAX_HCALL_SPECS];
    unsigned int nr_hcalls;
    uint8_t exit_pick[PICK_TAB];    /* weighted choice tables */
    uint8_t hcall_pick[PICK_TAB];
};

#define MAX_DOMS 64
#define MAX_SKEWS 16

struct scenario {
    char duration_txt[TXT], slice_txt[TXT], ctx_txt[TXT], gap_txt[TXT];
    unsigned int pcpus;
    uint64_t hz;
    uint64_t seed;
    uint64_t duration;          /* cycles; 0: use records */
    uint64_t records;           /* 0: use duration */
    uint64_t start_tsc;
    uint64_t slice;             /* scheduler time slice, cycles */
    uint64_t ctx_switch;        /* context switch to entry, cycles */
    unsigned int lost;          /* lost-records events to inject */
    uint64_t lost_gap;          /* cycles a lost event lasts */
    uint32_t window;            /* writer window size */
    uint32_t tbuf;              /* Xen ring size (wrap padding) */
    unsigned int arm_format;    /* Arm records: 2 (default) or 1 */
    unsigned int xen;           /* record layouts of Xen 4.N: N (17) */
    int clock_record;           /* xentrace's clock record: 1, 0, -1 auto */
    struct {
        unsigned int cpu;
        int64_t cycles;         /* added to every TSC the pCPU writes */
    } skews[MAX_SKEWS];
    unsigned int nr_skews;
    struct dom_spec doms[MAX_DOMS];
    unsigned int nr_doms;
};

/* Sets the defaults (one VMX domain of 2 vCPUs on 2 pCPUs). */
void scenario_init(struct scenario *sc);
void scenario_dispose(struct scenario *sc);
/* Applies one "key = value" setting (domain keys: the last domain). */
int scenario_set(struct scenario *sc, const char *key, const char *value,
                 char *err, size_t errlen);
/* Reads a scenario file; returns 0 or -1 with err filled in. */
int scenario_load(struct scenario *sc, const char *path, char *err,
                  size_t errlen);
/* Checks and completes (default exits, pick tables); 0 or -1. */
int scenario_finish(struct scenario *sc, char *err, size_t errlen);
const char *dom_kind_name(enum dom_kind k);

/* Truth: a reference model fed every record in merge order. */
struct truth;

struct truth *truth_new(void);
void truth_free(struct truth *t);
/* One record, as the merge yields it (TSC-less ones carry the CPU's TSC). */
void truth_record(struct truth *t, unsigned int cpu, uint32_t event,
                  uint64_t tsc, const uint32_t *extra, unsigned int nr);
/* vCPUs now in the lost state. */
unsigned int truth_nr_lost(const struct truth *t);
/* Closes the trace: running intervals end at each pCPU's last record. */
void truth_end(struct truth *t);
/* Writes the summary JSON; records includes CPU-change records. */
int truth_write_json(const struct truth *t, FILE *f, uint64_t records,
                     uint64_t hz, const char *arch);
/* Hypercall names (Xen's xen/include/public/xen.h); NULL if unknown. */
const char *synth_hypercall_name(unsigned int nr);

/* Runs the simulation into w, feeding t; returns 0 or an XA_E_* code. */
int sim_run(const struct scenario *sc, struct xa_writer *w,
            struct truth *t);
/* The analyzer's arch string for the scenario's domain kinds. */
const char *sim_arch(const struct scenario *sc);

/* Compares two summaries on the truth's keys; prints differences. */
int json_compare_files(const char *truth, const char *got, FILE *report);

#endif /* SYNTH_SYNTH_H */
