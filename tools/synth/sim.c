/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The host simulator: a discrete-event loop over physical CPUs.
 *
 * Every step happens on one pCPU at one TSC and writes records with that
 * TSC only (TSC-less handler records follow their exit).  Steps run in
 * (tsc, cpu, creation) order, and a step never creates work for another
 * pCPU at its own TSC, so the order records are written in is the order
 * the analyzer's merge returns them: the truth model sees what the
 * analyzer will see.  A lost-records record is written at the TSC where
 * the loss begins (its first_tsc, where the merge puts it), carries the
 * later TSC at which tracing resumed, and its pCPU stays silent between
 * the two.
 */
#include <stdlib.h>
#include <string.h>

#include <xenalyze/trace.h>

#include "synth.h"

enum act {
    ACT_NONE, ACT_START, ACT_EXIT, ACT_ENTRY, ACT_PREEMPT, ACT_BLOCK,
    ACT_SCHED, ACT_PV, ACT_LOST_RESUME,
};

struct svcpu {
    const struct dom_spec *d;
    unsigned int dom, id;
    enum rs state;
    int last_pcpu;
    bool exit_open;             /* an exit without its entry yet */
};

struct spcpu {
    struct svcpu *cur;          /* NULL: the idle vCPU runs */
    enum act act;
    uint32_t gen;
    uint64_t slice_end;
    uint64_t gap_end;           /* silent until then (lost records) */
    bool kicked;
    bool idle_running;
};

enum ev_kind { EVK_CPU, EVK_WAKE };

struct ev {
    uint64_t tsc;
    uint32_t cpu;
    uint32_t seq;
    enum ev_kind kind;
    uint32_t arg;               /* CPU: generation; wake: vCPU index */
};

struct sim {
    const struct scenario *sc;
    struct xa_writer *w;
    struct truth *t;
    struct rng rng;
    int err;

    struct svcpu *vcpus;
    unsigned int nr_vcpus;
    struct spcpu *pcpus;

    struct ev *heap;
    unsigned int nr_heap, cap_heap;
    uint32_t seq;

    struct svcpu **rq;          /* FIFO run queue, nr_vcpus slots */
    unsigned int rq_head, rq_len;

    unsigned int lost_done;
    unsigned int blocked_in_exit;   /* non-running vCPUs with an exit */
    unsigned int kick_rot;
    uint64_t end_tsc;
    bool arm;                   /* Arm host */
    bool arm1;                  /* format-1 Arm records (TRC_ARM class) */
    int64_t *skew;              /* per pCPU (tsc_skew); NULL: none */
};

/* Records. */

static inline void emit(struct sim *s, unsigned int cpu, uint32_t event,
                        bool has_tsc, uint64_t tsc, const uint32_t *x,
                        unsigned int n)
{
    int rc = xa_writer_record(s->w, cpu, event, has_tsc,
                              s->skew ? tsc + (uint64_t)s->skew[cpu] : tsc,
                              x, n);

    if ( rc )
        s->err = rc;
    truth_record(s->t, cpu, event, tsc, x, n);
}

static void emit_rs(struct sim *s, unsigned int cpu, uint64_t tsc,
                    unsigned int dom, unsigned int id, enum rs old,
                    enum rs new)
{
    uint32_t x = dom << 16 | id;

    emit(s, cpu, EV_RUNSTATE | (uint32_t)old << 8 | (uint32_t)new << 4,
         true, tsc, &x, 1);
}

/* The event heap, ordered on (tsc, cpu, seq). */

static inline bool ev_less(const struct ev *a, const struct ev *b)
{
    if ( a->tsc != b->tsc )
        return a->tsc < b->tsc;
    if ( a->cpu != b->cpu )
        return a->cpu < b->cpu;
    return a->seq < b->seq;
}

static void push(struct sim *s, uint64_t tsc, unsigned int cpu,
                 enum ev_kind kind, uint32_t arg)
{
    struct ev e = { tsc, cpu, s->seq++, kind, arg };
    unsigned int i;

    if ( s->nr_heap == s->cap_heap )
    {
        s->cap_heap = s->cap_heap ? 2 * s->cap_heap : 256;
        s->heap = realloc(s->heap, s->cap_heap * sizeof(e));
        if ( !s->heap )
            abort();
    }
    for ( i = s->nr_heap++; i > 0; )
    {
        unsigned int parent = (i - 1) / 2;

        if ( !ev_less(&e, &s->heap[parent]) )
            break;
        s->heap[i] = s->heap[parent];
        i = parent;
    }
    s->heap[i] = e;
}

static struct ev pop(struct sim *s)
{
    struct ev top = s->heap[0], last = s->heap[--s->nr_heap];
    unsigned int i = 0, n = s->nr_heap;

    for ( ;; )
    {
        unsigned int c = 2 * i + 1;

        if ( c >= n )
            break;
        if ( c + 1 < n && ev_less(&s->heap[c + 1], &s->heap[c]) )
            c++;
        if ( !ev_less(&s->heap[c], &last) )
            break;
        s->heap[i] = s->heap[c];
        i = c;
    }
    if ( n )
        s->heap[i] = last;
    return top;
}

static void set_act(struct sim *s, unsigned int cpu, enum act a,
                    uint64_t tsc)
{
    struct spcpu *p = &s->pcpus[cpu];

    p->act = a;
    p->gen++;
    if ( a != ACT_NONE )
        push(s, tsc, cpu, EVK_CPU, p->gen);
}

/* Run queue. */

static void rq_push(struct sim *s, struct svcpu *v)
{
    s->rq[(s->rq_head + s->rq_len++) % s->nr_vcpus] = v;
}

static struct svcpu *rq_pop(struct sim *s)
{
    struct svcpu *v;

    if ( !s->rq_len )
        return NULL;
    v = s->rq[s->rq_head];
    s->rq_head = (s->rq_head + 1) % s->nr_vcpus;
    s->rq_len--;
    return v;
}

static inline uint64_t ctx_cost(struct sim *s)
{
    uint64_t c = s->sc->ctx_switch;

    return 1 + c / 2 + rng_below(&s->rng, c + 1);
}

/* Puts the next runnable vCPU (or the idle vCPU) on cpu at tsc. */
static void switch_next(struct sim *s, unsigned int cpu, uint64_t tsc)
{
    struct spcpu *p = &s->pcpus[cpu];
    struct svcpu *v = rq_pop(s);

    if ( !v )
    {
        if ( !p->idle_running )
            emit_rs(s, cpu, tsc, IDLE_DOMID, cpu, RS_RUNNABLE, RS_RUNNING);
        p->idle_running = true;
        p->cur = NULL;
        set_act(s, cpu, ACT_NONE, 0);
        return;
    }
    if ( p->idle_running )
        emit_rs(s, cpu, tsc, IDLE_DOMID, cpu, RS_RUNNING, RS_RUNNABLE);
    p->idle_running = false;
    emit_rs(s, cpu, tsc, v->dom, v->id, RS_RUNNABLE, RS_RUNNING);
    v->state = RS_RUNNING;
    v->last_pcpu = (int)cpu;
    p->cur = v;
    p->slice_end = tsc + s->sc->slice;
    if ( v->d->kind == DK_PV )
        set_act(s, cpu, ACT_PV, tsc + ctx_cost(s));
    else
        set_act(s, cpu, ACT_ENTRY, tsc + ctx_cost(s));
}

/* Wakes v on cpu at tsc: the record, the run queue, an idle pCPU kick. */
static void wake(struct sim *s, struct svcpu *v, unsigned int cpu,
                 uint64_t tsc)
{
    unsigned int i, n = s->sc->pcpus, target = n;

    emit_rs(s, cpu, tsc, v->dom, v->id, v->state, RS_RUNNABLE);
    if ( v->exit_open )
    {
        /* The wake closes the exit (a HLT or WFI that blocked). */
        v->exit_open = false;
        s->blocked_in_exit--;
    }
    v->state = RS_RUNNABLE;
    rq_push(s, v);

    if ( v->last_pcpu >= 0 && !s->pcpus[v->last_pcpu].cur &&
         !s->pcpus[v->last_pcpu].kicked &&
         s->pcpus[v->last_pcpu].idle_running )
        target = (unsigned int)v->last_pcpu;
    for ( i = 0; i < n && target == n; i++ )
    {
        unsigned int c = (s->kick_rot + i) % n;

        if ( !s->pcpus[c].cur && !s->pcpus[c].kicked &&
             s->pcpus[c].idle_running )
            target = c;
    }
    s->kick_rot++;
    if ( target < n )
    {
        s->pcpus[target].kicked = true;
        /* Never at this TSC: the merge would put it before this step. */
        set_act(s, target, ACT_SCHED, tsc + 1);
    }
}

/* Payload tables: what real guests touch. */
static const uint16_t io_ports[] = { 0x70, 0x71, 0x61, 0x3f8, 0x3fd, 0xcf8,
                                     0xcfc, 0x1f7 };
static const uint32_t msrs[] = { 0x6e0, 0x1b, 0xc0000080, 0x10, 0x830,
                                 0x48, 0xc0000100 };
static const uint32_t cpuid_leaves[] = { 0, 1, 7, 0xb, 0xd, 0x40000000,
                                         0x40000001, 0x80000001 };
static const uint8_t vectors[] = { 0xef, 0xfb, 0x30, 0xd1, 0xf3 };
static const uint64_t mmio_x86[] = { 0xfee000b0, 0xfee00300, 0xfec00000,
                                     0xfed000f0, 0xf0000010,
                                     0x3ffe00001000ull };
static const uint64_t mmio_arm[] = { 0x09000000, 0x09000018, 0x08010000,
                                     0x0a003e00, 0x4010000000ull };
static const uint32_t smc_fids[] = { 0x84000000, 0xc4000003, 0x84000002,
                                     0x80000000, 0xc4000001 };
/* Op0 << 20 | Op2 << 17 | Op1 << 14 | CRn << 10 | CRm << 1 */
static const uint32_t sysregs[] = {
    3u << 20 | 5u << 17 | 0u << 14 | 12u << 10 | 11u << 1, /* ICC_SGI1R */
    3u << 20 | 1u << 17 | 3u << 14 | 14u << 10 | 2u << 1,  /* CNTP_CTL */
    3u << 20 | 0u << 17 | 3u << 14 | 14u << 10 | 2u << 1,  /* CNTP_TVAL */
    3u << 20 | 1u << 17 | 0u << 14 | 0u << 10 | 3u << 1,   /* ID_AA64MMFR */
    3u << 20 | 0u << 17 | 0u << 14 | 3u << 10 | 1u << 1,   /* ACTLR-ish */
};
static const uint32_t arm_irqs[] = { 27, 26, 33, 25, 48 };

#define PICK(s, arr) ((arr)[rng_below(&(s)->rng, sizeof(arr) / sizeof((arr)[0]))])

static const uint32_t vmx_codes[XK_NR] = {
    [XK_INTR] = 1, [XK_CPUID] = 10, [XK_HLT] = 12, [XK_HYPERCALL] = 18,
    [XK_CR] = 28, [XK_IO] = 30, [XK_MSR_READ] = 31, [XK_MSR_WRITE] = 32,
    [XK_MMIO] = 48,
};
static const uint32_t svm_codes[XK_NR] = {
    [XK_INTR] = 0x60, [XK_RDTSC] = 0x6e, [XK_CPUID] = 0x72, [XK_HLT] = 0x78,
    [XK_IO] = 0x7b, [XK_MSR_READ] = 0x7c, [XK_MSR_WRITE] = 0x7c,
    [XK_HYPERCALL] = 0x81, [XK_MMIO] = 0x400,
};

static unsigned int pick_hcall(struct sim *s, const struct dom_spec *d)
{
    return d->hcalls[d->hcall_pick[rng_below(&s->rng, PICK_TAB)]].nr;
}

/* Appends a guest-sized value: one word, or two (low first) if wide. */
static void put_val(uint32_t *x, unsigned int *n, uint64_t val, bool wide)
{
    x[(*n)++] = (uint32_t)val;
    if ( wide )
        x[(*n)++] = (uint32_t)(val >> 32);
}

/*
 * A shadow page fault's records (xen/arch/x86/mm/shadow/multi.c, packed
 * structs): with shadow tracing on, vmx.c writes no PF_XEN record.  Ids
 * carry the guest's paging levels - 2 in bits 8-9; guest l1es and gfns
 * are 64-bit from 3 levels, addresses from 4.  A quarter of the fixups
 * and emulations unpin a top-level shadow first (common.c, a gfn_t: one
 * of the domain's page tables when it has some).  Path flags
 * (TRCE_SFLAG_*): promote (bit 9) a third of fixups and a quarter of
 * emulations, early unshadow (bit 13) a quarter of emulations, with
 * set_ad/set_a, l1 get_ref and set_changed as noise.  From Xen 4.19 the
 * emulate_unshadow records end with the flags word too (8765783434).
 */
static void emit_shadow(struct sim *s, unsigned int cpu, uint64_t tsc,
                        const struct svcpu *v, enum exit_kind k)
{
    unsigned int lv = v->d->shadow, n = 0;
    uint32_t lvl = (lv - 2) << 8, x[8], flags = 0, r;
    uint64_t va, gfn;
    bool l3 = lv >= 3, l4 = lv == 4;

    va = rng_next(&s->rng) & (l4 ? 0x7ffffffff000ull : 0xbffff000ull);
    gfn = 0x30000 + rng_below(&s->rng, 0x1000);
    r = (uint32_t)rng_next(&s->rng);
    if ( k != XK_SH_UNSHADOW && (r & 3) == 0 )
    {
        uint64_t top = v->d->cr3 ? 0x10000 + 0x100ull * v->dom +
                                   rng_below(&s->rng, v->d->cr3)
                                 : gfn + 0x1000;

        put_val(x, &n, top, true);
        emit(s, cpu, EV_SH_PREALLOC_UNPIN, false, tsc, x, n);
        n = 0;
    }
    flags = (r >> 2 & 1) | (r >> 3 & 1) << 2 | (r >> 4 & 1) << 5;
    if ( k == XK_SH_FIXUP )
    {
        if ( (r >> 8) % 3 == 0 )
            flags |= 1u << 9;
        put_val(x, &n, gfn << 12 | 0x67, l3);
        put_val(x, &n, va, l4);
        x[n++] = flags;
        emit(s, cpu, EV_SH_FIXUP | lvl, false, tsc, x, n);
    }
    else if ( k == XK_SH_EMULATE )
    {
        if ( (r >> 12 & 3) == 0 )
            flags |= 1u << 9;
        if ( (r >> 14 & 3) == 0 )
            flags |= 1u << 13;
        put_val(x, &n, gfn << 12 | 0x67, l3);
        put_val(x, &n, (gfn + 1) << 12 | 0x63, l3);
        put_val(x, &n, va, l4);
        x[n++] = flags;
        emit(s, cpu, EV_SH_EMULATE | lvl, false, tsc, x, n);
    }
    else
    {
        put_val(x, &n, gfn, l3);
        put_val(x, &n, va, l4);
        if ( s->sc->xen >= 19 )
            x[n++] = flags;
        emit(s, cpu, (EV_SH_UNSHADOW_USER + (r >> 16) % 3) | lvl, false,
             tsc, x, n);
    }
}

/* Writes an x86 HVM exit and its handler records (xen/arch/x86/hvm). */
static void emit_x86_exit(struct sim *s, unsigned int cpu, uint64_t tsc,
                          const struct svcpu *v, enum exit_kind k)
{
    bool svm = v->d->kind == DK_SVM;
    uint64_t rip = 0xffffffff81000000ull + (rng_next(&s->rng) & 0xfffff0);
    uint32_t x[6];
    uint64_t a;

    x[0] = svm ? svm_codes[k] : vmx_codes[k];
    x[1] = (uint32_t)rip;
    x[2] = (uint32_t)(rip >> 32);
    emit(s, cpu, EV_VMEXIT64, true, tsc, x, 3);
    switch ( k )
    {
    case XK_INTR:
        x[0] = PICK(s, vectors);
        /* SVM's INTR record has no vector (svm.c HVMTRACE_0D(INTR)). */
        emit(s, cpu, EV_HVM_INTR, false, tsc, x, svm ? 0 : 1);
        break;
    case XK_CPUID:
        x[0] = PICK(s, cpuid_leaves);
        x[1] = 0;
        x[2] = (uint32_t)rng_next(&s->rng);
        x[3] = 0x756e6547;
        x[4] = 0x6c65746e;
        x[5] = 0x49656e69;
        emit(s, cpu, EV_HVM_CPUID, false, tsc, x, 6);
        break;
    case XK_HLT:
        x[0] = 0;
        emit(s, cpu, EV_HVM_HLT, false, tsc, x, 1);
        break;
    case XK_HYPERCALL:
        x[0] = pick_hcall(s, v->d);
        emit(s, cpu, EV_HVM_VMMCALL, false, tsc, x, 1);
        break;
    case XK_IO:
        x[0] = PICK(s, io_ports);
        x[1] = (uint32_t)rng_next(&s->rng) & 0xff;
        emit(s, cpu, rng_next(&s->rng) & 1 ? EV_HVM_IOPORT_WRITE
                                           : EV_HVM_IOPORT_READ,
             false, tsc, x, 2);
        break;
    case XK_MSR_READ:
    case XK_MSR_WRITE:
        x[0] = PICK(s, msrs);
        x[1] = (uint32_t)rng_next(&s->rng);
        x[2] = 0;
        emit(s, cpu, k == XK_MSR_READ ? EV_HVM_MSR_READ : EV_HVM_MSR_WRITE,
             false, tsc, x, 3);
        break;
    case XK_MMIO:
    {
        bool write = rng_next(&s->rng) & 1;
        uint32_t ev = write ? EV_HVM_IOMEM_WRITE : EV_HVM_IOMEM_READ;

        a = PICK(s, mmio_x86);
        /* vmx.c / svm.c: gpa, mfn, qualification, p2m type. */
        x[0] = (uint32_t)a;
        x[1] = (uint32_t)(a >> 32);
        x[2] = ~0u;
        x[3] = ~0u;
        x[4] = write ? 0x182 : 0x181;
        x[5] = 5;               /* p2m_mmio_dm */
        emit(s, cpu, EV_HVM_NPF, false, tsc, x, 6);
        /* emulate.c hvmtrace_io_assist(): 64-bit addresses set 0x100. */
        x[1] = (uint32_t)(a >> 32);
        x[2] = (uint32_t)rng_next(&s->rng);
        if ( a >> 32 )
        {
            x[3] = 0;
            emit(s, cpu, ev | EV_HVM_64, false, tsc, x, 4);
        }
        else
        {
            x[1] = x[2];
            emit(s, cpu, ev, false, tsc, x, 2);
        }
        break;
    }
    case XK_CR:
        /*
         * cr3: a guest process switch, to one of the domain's page
         * tables (gmfn 0x10000 + 0x100 * domain + i), the current one
         * again being a TLB flush; else a CR4 write.
         */
        if ( v->d->cr3 )
        {
            uint64_t gmfn = 0x10000 + 0x100ull * v->dom +
                            rng_below(&s->rng, v->d->cr3);

            x[0] = 3;
            x[1] = (uint32_t)(gmfn << 12);
            x[2] = (uint32_t)(gmfn >> 20);
        }
        else
        {
            x[0] = 4;
            x[1] = 0x3506f0;
            x[2] = 0;
        }
        emit(s, cpu, EV_HVM_CR_WRITE64, false, tsc, x, 3);
        break;
    case XK_RDTSC:
        x[0] = (uint32_t)tsc;
        x[1] = (uint32_t)(tsc >> 32);
        emit(s, cpu, EV_HVM_RDTSC, false, tsc, x, 2);
        break;
    case XK_SH_FIXUP:
    case XK_SH_EMULATE:
    case XK_SH_UNSHADOW:
        emit_shadow(s, cpu, tsc, v, k);
        break;
    case XK_SMC:
    case XK_SYSREG:
    case XK_WFE:
    case XK_NR:
    default:
        break;
    }
}

/* Writes an Arm exit and its detail records (docs/arm-trace-events.md). */
static void emit_arm_exit(struct sim *s, unsigned int cpu, uint64_t tsc,
                          const struct svcpu *v, enum exit_kind k)
{
    uint64_t pc = 0xffff800010000000ull + (rng_next(&s->rng) & 0xfffffc);
    uint32_t x[5], d[3];
    uint32_t esr = 0, kind = 0, rt = (uint32_t)rng_below(&s->rng, 31);
    uint32_t ev = 0, nd = 0;
    uint64_t a;

    switch ( k )
    {
    case XK_INTR:
        kind = 1;
        d[0] = PICK(s, arm_irqs);
        ev = EV_ARM_IRQ;
        nd = 1;
        break;
    case XK_HLT:
    case XK_WFE:
        d[0] = k == XK_WFE;
        esr = 0x01u << 26 | 1u << 25 | d[0];
        ev = EV_ARM_WFX;
        nd = 1;
        break;
    case XK_HYPERCALL:
        esr = 0x16u << 26 | 1u << 25 | 0xea1;
        d[0] = pick_hcall(s, v->d);
        d[1] = (uint32_t)rng_below(&s->rng, 16);
        d[2] = 0;
        ev = EV_ARM_HVC;
        nd = 3;
        break;
    case XK_SMC:
        esr = 0x17u << 26 | 1u << 25;
        d[0] = PICK(s, smc_fids);
        d[1] = (uint32_t)rng_next(&s->rng) & 0xffff;
        d[2] = 0;
        ev = EV_ARM_SMC;
        nd = 3;
        break;
    case XK_SYSREG:
    {
        uint32_t read = rng_next(&s->rng) & 1;

        d[0] = PICK(s, sysregs);
        d[1] = read | rt << 8;
        esr = 0x18u << 26 | 1u << 25 | d[0] | rt << 5 | read;
        ev = EV_ARM_SYSREG;
        nd = 2;
        break;
    }
    case XK_MMIO:
    {
        uint32_t write = rng_next(&s->rng) & 1, sas = 2;

        a = PICK(s, mmio_arm);
        d[0] = (uint32_t)a;
        d[1] = (uint32_t)(a >> 32);
        d[2] = sas | write << 2 | rt << 8;
        esr = 0x24u << 26 | 1u << 25 | 1u << 24 | sas << 22 | rt << 16 |
              write << 6;
        ev = EV_ARM_DABT;
        nd = 3;
        break;
    }
    case XK_CPUID:
    case XK_IO:
    case XK_MSR_READ:
    case XK_MSR_WRITE:
    case XK_CR:
    case XK_RDTSC:
    case XK_SH_FIXUP:
    case XK_SH_EMULATE:
    case XK_SH_UNSHADOW:
    case XK_NR:
    default:
        break;
    }
    x[0] = esr;
    x[1] = 0;
    x[2] = (uint32_t)pc;
    x[3] = (uint32_t)(pc >> 32);
    x[4] = kind;
    emit(s, cpu, EV_ARM_EXIT, true, tsc, x, 5);
    if ( nd )
        emit(s, cpu, ev, false, tsc, d, nd);
    if ( ev == EV_ARM_IRQ && d[0] == 25 )
    {
        d[0] = 0x3;
        emit(s, cpu, EV_ARM_VGIC_MAINT, false, tsc, d, 1);
    }
}

/*
 * The same in format 2: exits under TRC_HVM_ENTRYEXIT, detail records of
 * what the syndrome does not say.  A record is head words, 64-bit fields
 * and tail words; the TRC_64_FLAG form (fields as two words) is used, as
 * Xen does, only when a field's high word is not zero.
 */
static void emit2(struct sim *s, unsigned int cpu, uint32_t ev, bool has_tsc,
                  uint64_t tsc, const uint32_t *head, unsigned int nh,
                  const uint64_t *f, unsigned int nf, const uint32_t *tail,
                  unsigned int nt)
{
    uint32_t x[7];
    unsigned int i, n = 0;
    bool wide = false;

    for ( i = 0; i < nf; i++ )
        wide |= (f[i] >> 32) != 0;
    for ( i = 0; i < nh; i++ )
        x[n++] = head[i];
    for ( i = 0; i < nf; i++ )
    {
        x[n++] = (uint32_t)f[i];
        if ( wide )
            x[n++] = (uint32_t)(f[i] >> 32);
    }
    for ( i = 0; i < nt; i++ )
        x[n++] = tail[i];
    emit(s, cpu, ev | (wide ? 0x100u : 0), has_tsc, tsc, x, n);
}

static void emit_arm2_exit(struct sim *s, unsigned int cpu, uint64_t tsc,
                           const struct svcpu *v, enum exit_kind k)
{
    uint64_t pc = 0xffff800010000000ull + (rng_next(&s->rng) & 0xfffffc);
    uint32_t rt = (uint32_t)rng_below(&s->rng, 31), esr = 0, w[2];
    uint64_t f[2];

    switch ( k )
    {
    case XK_INTR:
        w[0] = PICK(s, arm_irqs);
        w[1] = 0;
        emit2(s, cpu, EV_HVM_ARM_EXIT_IRQ, true, tsc, NULL, 0, &pc, 1,
              NULL, 0);
        emit(s, cpu, EV_HVM_ARM_IRQ, false, tsc, w, 1);
        /* The timer PPIs are forwarded to the guest. */
        if ( w[0] == 27 || w[0] == 26 )
            emit(s, cpu, EV_HVM_INJ_VIRQ, false, tsc, w, 2);
        return;
    case XK_HLT:
    case XK_WFE:
        esr = 0x01u << 26 | 1u << 25 | (k == XK_WFE);
        break;
    case XK_HYPERCALL:
        esr = 0x16u << 26 | 1u << 25 | 0xea1;
        break;
    case XK_SMC:
        esr = 0x17u << 26 | 1u << 25;
        break;
    case XK_SYSREG:
        esr = 0x18u << 26 | 1u << 25 | PICK(s, sysregs) | rt << 5 |
              (uint32_t)(rng_next(&s->rng) & 1);
        break;
    case XK_MMIO:
        /* ISV, word access, SRT, WnR, translation fault level 2 */
        esr = 0x24u << 26 | 1u << 25 | 1u << 24 | 2u << 22 | rt << 16 |
              (uint32_t)(rng_next(&s->rng) & 1) << 6 | 0x06;
        break;
    case XK_CPUID:
    case XK_IO:
    case XK_MSR_READ:
    case XK_MSR_WRITE:
    case XK_CR:
    case XK_RDTSC:
    case XK_SH_FIXUP:
    case XK_SH_EMULATE:
    case XK_SH_UNSHADOW:
    case XK_NR:
    default:
        break;
    }
    emit2(s, cpu, EV_HVM_ARM_EXIT, true, tsc, &esr, 1, &pc, 1, NULL, 0);
    switch ( k )
    {
    case XK_HLT:
        w[0] = 0;                               /* no event pending */
        emit(s, cpu, EV_HVM_HLT, false, tsc, w, 1);
        break;
    case XK_HYPERCALL:
        w[0] = pick_hcall(s, v->d);
        f[0] = rng_below(&s->rng, 16);
        emit2(s, cpu, EV_HVM_ARM_HCALL, false, tsc, w, 1, f, 1, NULL, 0);
        break;
    case XK_SMC:
        w[0] = PICK(s, smc_fids);
        f[0] = rng_next(&s->rng) & 0xffff;
        emit2(s, cpu, EV_HVM_ARM_SMCCC, false, tsc, w, 1, f, 1, NULL, 0);
        break;
    case XK_SYSREG:
        f[0] = rng_next(&s->rng);
        emit2(s, cpu, EV_HVM_ARM_SYSREG, false, tsc, NULL, 0, f, 1, NULL, 0);
        break;
    case XK_MMIO:
        f[0] = PICK(s, mmio_arm);
        f[1] = rng_next(&s->rng) & 0xffffffffu;
        w[0] = 2u | ((esr >> 6) & 1u) << 2;     /* a word; written? */
        emit2(s, cpu, EV_HVM_ARM_MMIO, false, tsc, NULL, 0, f, 2, w, 1);
        f[1] = 0xffff800008f00000ull | (f[0] & 0xfff);
        w[0] = 2;                               /* outcome: emulated */
        emit2(s, cpu, EV_HVM_ARM_S2_FAULT, false, tsc, NULL, 0, f, 2, w, 1);
        break;
    case XK_WFE:
    case XK_INTR:
    case XK_CPUID:
    case XK_IO:
    case XK_MSR_READ:
    case XK_MSR_WRITE:
    case XK_CR:
    case XK_RDTSC:
    case XK_SH_FIXUP:
    case XK_SH_EMULATE:
    case XK_SH_UNSHADOW:
    case XK_NR:
    default:
        break;
    }
}

/* At a slice end: preempt if someone waits, else continue_running. */
static bool slice_check(struct sim *s, unsigned int cpu, uint64_t tsc)
{
    struct spcpu *p = &s->pcpus[cpu];
    uint32_t x;

    if ( tsc < p->slice_end )
        return false;
    if ( s->rq_len )
        return true;
    x = p->cur->dom << 16 | p->cur->id;
    emit(s, cpu, EV_CONTINUE, true, tsc, &x, 1);
    p->slice_end = tsc + s->sc->slice;
    return false;
}

static void do_exit(struct sim *s, unsigned int cpu, uint64_t tsc)
{
    struct svcpu *v = s->pcpus[cpu].cur;
    const struct dom_spec *d = v->d;
    const struct exit_spec *e = &d->exits[d->exit_pick[rng_below(&s->rng,
                                                                 PICK_TAB)]];
    uint64_t dur = dist_sample(&e->dur, &s->rng);

    if ( d->kind == DK_ARM && s->arm1 )
        emit_arm_exit(s, cpu, tsc, v, e->kind);
    else if ( d->kind == DK_ARM )
        emit_arm2_exit(s, cpu, tsc, v, e->kind);
    else
        emit_x86_exit(s, cpu, tsc, v, e->kind);
    v->exit_open = true;
    if ( e->kind == XK_HLT )
        set_act(s, cpu, ACT_BLOCK, tsc + dur);
    else if ( slice_check(s, cpu, tsc) )
        set_act(s, cpu, ACT_PREEMPT, tsc + dur);
    else
        set_act(s, cpu, ACT_ENTRY, tsc + dur);
}

static void do_entry(struct sim *s, unsigned int cpu, uint64_t tsc)
{
    struct svcpu *v = s->pcpus[cpu].cur;

    emit(s, cpu, v->d->kind == DK_ARM && s->arm1 ? EV_ARM_ENTRY : EV_VMENTRY,
         true, tsc, NULL, 0);
    v->exit_open = false;
    set_act(s, cpu, ACT_EXIT, tsc + dist_sample(&v->d->run, &s->rng));
}

/* A PV hypercall record (xen/common/trace.c __trace_hypercall()). */
static void do_pv(struct sim *s, unsigned int cpu, uint64_t tsc)
{
    struct svcpu *v = s->pcpus[cpu].cur;
    unsigned int nr = pick_hcall(s, v->d), n = 1;
    uint32_t x[6];

#define ARG32(i, val) do { x[0] |= 1u << (20 + 2 * (i)); x[n++] = (val); } while ( 0 )
    x[0] = nr;
    switch ( nr )
    {
    case 1:     /* mmu_update: count */
    case 13:    /* multicall: count */
    case 26:    /* mmuext_op: count */
        ARG32(1, 1 + (uint32_t)rng_below(&s->rng, 32));
        break;
    case 20:    /* grant_table_op: cmd, count */
        ARG32(0, (uint32_t)rng_below(&s->rng, 4));
        ARG32(2, 1 + (uint32_t)rng_below(&s->rng, 8));
        break;
    case 24:    /* vcpu_op: cmd, vcpuid */
        ARG32(0, (uint32_t)rng_below(&s->rng, 12));
        ARG32(1, v->id);
        break;
    case 29:    /* sched_op: cmd (SCHEDOP_block) */
        ARG32(0, 1);
        break;
    default:
        break;
    }
#undef ARG32
    emit(s, cpu, EV_PV_HYPERCALL_V2, true, tsc, x, n);
    if ( nr == 29 )
        set_act(s, cpu, ACT_BLOCK, tsc + ctx_cost(s));
    else if ( slice_check(s, cpu, tsc) )
        set_act(s, cpu, ACT_PREEMPT, tsc + ctx_cost(s));
    else
        set_act(s, cpu, ACT_PV, tsc + dist_sample(&v->d->run, &s->rng));
}

static void do_preempt(struct sim *s, unsigned int cpu, uint64_t tsc)
{
    struct svcpu *v = s->pcpus[cpu].cur;

    /* An exit still open is closed by this change to runnable. */
    emit_rs(s, cpu, tsc, v->dom, v->id, RS_RUNNING, RS_RUNNABLE);
    v->exit_open = false;
    v->state = RS_RUNNABLE;
    rq_push(s, v);
    switch_next(s, cpu, tsc);
}

static void do_block(struct sim *s, unsigned int cpu, uint64_t tsc)
{
    struct svcpu *v = s->pcpus[cpu].cur;
    enum rs ns = RS_BLOCKED;
    unsigned int wcpu;

    if ( v->d->offline > 0 &&
         rng_below(&s->rng, 1000000) < (uint64_t)(v->d->offline * 1e6) )
        ns = RS_OFFLINE;
    emit_rs(s, cpu, tsc, v->dom, v->id, RS_RUNNING, ns);
    v->state = ns;
    if ( v->exit_open )
        s->blocked_in_exit++;
    /*
     * The wake comes from any pCPU (an interrupt, an event channel).  The
     * two draws are sequenced: as arguments of one call their order would
     * be the compiler's (gcc and clang made different traces of one seed).
     */
    wcpu = (unsigned int)rng_below(&s->rng, s->sc->pcpus);
    push(s, tsc + dist_sample(&v->d->sleep, &s->rng), wcpu, EVK_WAKE,
         (uint32_t)(v - s->vcpus));
    switch_next(s, cpu, tsc);
}

static bool lost_due(const struct sim *s, uint64_t tsc)
{
    const struct scenario *sc = s->sc;
    uint64_t k = s->lost_done + 1;

    if ( s->lost_done >= sc->lost )
        return false;
    if ( sc->records )
        return xa_writer_stats(s->w)->records >=
               k * sc->records / (sc->lost + 1);
    return tsc - sc->start_tsc >= k * sc->duration / (sc->lost + 1) &&
           tsc + 2 * sc->lost_gap < s->end_tsc;
}

/*
 * Lost records on cpu from tsc: only when no vCPU is in the lost state
 * and no descheduled vCPU has an exit open, where the rules are plain.
 */
static bool try_lost(struct sim *s, unsigned int cpu, uint64_t tsc)
{
    struct spcpu *p = &s->pcpus[cpu];
    struct svcpu *v = p->cur;
    uint64_t gap, resume, sk;
    uint32_t x[4], count;

    if ( !v || !lost_due(s, tsc) || truth_nr_lost(s->t) ||
         s->blocked_in_exit )
        return false;
    gap = s->sc->lost_gap / 2 + rng_below(&s->rng, s->sc->lost_gap + 1);
    resume = tsc + (gap ? gap : 1);
    count = 1 + (uint32_t)rng_below(&s->rng, 20000);
    sk = s->skew ? (uint64_t)s->skew[cpu] : 0;
    if ( (s->err = xa_writer_lost(s->w, cpu, resume + sk, count,
                                  (uint16_t)v->dom, (uint16_t)v->id,
                                  tsc + sk)) )
        return true;
    x[0] = count;
    x[1] = v->id << 16 | v->dom;
    x[2] = (uint32_t)tsc;
    x[3] = (uint32_t)(tsc >> 32);
    truth_record(s->t, cpu, EV_LOST, resume, x, 4);
    v->exit_open = false;
    p->gap_end = resume;
    s->lost_done++;
    set_act(s, cpu, ACT_LOST_RESUME, resume);
    return true;
}

static void do_cpu(struct sim *s, unsigned int cpu, uint64_t tsc)
{
    struct spcpu *p = &s->pcpus[cpu];

    switch ( p->act )
    {
    case ACT_START:
        if ( s->arm1 )
        {
            uint32_t x[2] = { (uint32_t)s->sc->hz,
                              (uint32_t)(s->sc->hz >> 32) };

            emit(s, cpu, EV_ARM_CLOCK, true, tsc, x, 2);
        }
        switch_next(s, cpu, tsc);
        break;
    case ACT_EXIT:
        if ( !try_lost(s, cpu, tsc) )
            do_exit(s, cpu, tsc);
        break;
    case ACT_ENTRY:
        if ( !try_lost(s, cpu, tsc) )
            do_entry(s, cpu, tsc);
        break;
    case ACT_PV:
        if ( !try_lost(s, cpu, tsc) )
            do_pv(s, cpu, tsc);
        break;
    case ACT_PREEMPT:
    case ACT_LOST_RESUME:
        do_preempt(s, cpu, tsc);
        break;
    case ACT_BLOCK:
        do_block(s, cpu, tsc);
        break;
    case ACT_SCHED:
        p->kicked = false;
        if ( s->rq_len )
            switch_next(s, cpu, tsc);
        else
            set_act(s, cpu, ACT_NONE, 0);
        break;
    case ACT_NONE:
    default:
        break;
    }
}

/* As the analyzer names a host: by its kind of guest exits. */
const char *sim_arch(const struct scenario *sc)
{
    unsigned int i, kinds = 0;
    bool arm, vmx, svm, pv;

    for ( i = 0; i < sc->nr_doms; i++ )
        kinds |= 1u << sc->doms[i].kind;
    arm = kinds & 1u << DK_ARM;
    vmx = kinds & 1u << DK_VMX;
    svm = kinds & 1u << DK_SVM;
    pv = kinds & 1u << DK_PV;
    if ( (arm && (vmx || svm || pv)) || (vmx && svm) )
        return "mixed";
    if ( vmx )
        return "x86-vmx";
    if ( svm )
        return "x86-svm";
    if ( pv )
        return "x86-pv";
    return arm ? "arm" : "unknown";
}

int sim_run(const struct scenario *sc, struct xa_writer *w, struct truth *t)
{
    struct sim s = { .sc = sc, .w = w, .t = t };
    unsigned int i, j, n = 0;
    int rc;

    rng_seed(&s.rng, sc->seed);
    for ( i = 0; i < sc->nr_doms; i++ )
        n += sc->doms[i].nr_vcpus;
    s.nr_vcpus = n;
    s.vcpus = calloc(n, sizeof(*s.vcpus));
    s.rq = calloc(n, sizeof(*s.rq));
    s.pcpus = calloc(sc->pcpus, sizeof(*s.pcpus));
    if ( !s.vcpus || !s.rq || !s.pcpus )
    {
        rc = XA_E_NOMEM;
        goto out;
    }
    s.end_tsc = sc->records ? UINT64_MAX : sc->start_tsc + sc->duration;
    for ( i = n = 0; i < sc->nr_doms; i++ )
        for ( j = 0; j < sc->doms[i].nr_vcpus; j++, n++ )
        {
            struct svcpu *v = &s.vcpus[n];

            v->d = &sc->doms[i];
            s.arm |= sc->doms[i].kind == DK_ARM;
            v->dom = sc->doms[i].id;
            v->id = j;
            v->state = RS_RUNNABLE;
            v->last_pcpu = -1;
            rq_push(&s, v);
        }
    s.arm1 = s.arm && sc->arm_format == 1;
    if ( sc->nr_skews )
    {
        if ( !(s.skew = calloc(sc->pcpus, sizeof(*s.skew))) )
        {
            rc = XA_E_NOMEM;
            goto out;
        }
        for ( i = 0; i < sc->nr_skews; i++ )
            s.skew[sc->skews[i].cpu] = sc->skews[i].cycles;
    }
    /* The patched xentrace's clock record, alone in the first window. */
    if ( sc->hz % 1000 == 0 &&
         (sc->clock_record > 0 ||
          (sc->clock_record < 0 && s.arm && !s.arm1)) )
    {
        uint32_t khz = (uint32_t)(sc->hz / 1000);

        emit(&s, 0, EV_TRACE_CLOCK_KHZ, false, 0, &khz, 1);
        if ( (rc = xa_writer_poll(w)) )
            goto out;
    }
    for ( i = 0; i < sc->pcpus; i++ )
        set_act(&s, i, ACT_START, sc->start_tsc + i);

    while ( s.nr_heap && !s.err )
    {
        struct ev e;

        if ( sc->records ? xa_writer_stats(w)->records >= sc->records
                         : s.heap[0].tsc > s.end_tsc )
            break;
        e = pop(&s);
        if ( e.kind == EVK_WAKE )
        {
            struct svcpu *v = &s.vcpus[e.arg];

            if ( e.tsc < s.pcpus[e.cpu].gap_end )
                push(&s, s.pcpus[e.cpu].gap_end, e.cpu, EVK_WAKE, e.arg);
            else
                wake(&s, v, e.cpu, e.tsc);
        }
        else if ( e.arg == s.pcpus[e.cpu].gen )
            do_cpu(&s, e.cpu, e.tsc);
    }
    rc = s.err;
 out:
    free(s.vcpus);
    free(s.rq);
    free(s.pcpus);
    free(s.heap);
    free(s.skew);
    return rc;
}
