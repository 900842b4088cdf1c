/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The truth: a small reference model of the summary semantics in
 * docs/synth.md, fed every record the simulator writes, in the order the
 * analyzer's merge will return them.  The simulator only writes traces in
 * which these rules leave no room for interpretation.
 */
#include <stdlib.h>
#include <string.h>

#include <xenalyze/catalog.h>

#include "synth.h"

enum {
    OUT_RUNNING, OUT_RUNNABLE, OUT_WAKE, OUT_PREEMPT, OUT_OTHER,
    OUT_BLOCKED, OUT_OFFLINE, OUT_LOST, OUT_NR
};

static const char *const out_names[OUT_NR] = {
    "running", "runnable", "runnable_wake", "runnable_preempt",
    "runnable_other", "blocked", "offline", "lost",
};

#define ST_NONE (-1)            /* accounting not started */
#define ST_LOST 4

enum sub_kind {
    SK_NONE, SK_IO_R, SK_IO_W, SK_MSR_R, SK_MSR_W, SK_HCALL, SK_VECTOR,
    SK_CPUID, SK_MMIO_R, SK_MMIO_W, SK_SMC, SK_SYSREG_R, SK_SYSREG_W,
    SK_IRQ, SK_WFI, SK_WFE, SK_CR_W, SK_WFI_PENDING,
};

struct st {
    uint64_t count, cycles, min, max;
};

struct sub {
    enum sub_kind kind;
    uint64_t val;
    struct st st;
};

struct exit_st {
    uint32_t code;
    struct st st;
    struct sub *subs;
    unsigned int nr_subs, cap_subs;
};

#define NR_HCALLS 64

struct tvcpu {
    unsigned int dom, id;
    int state, prev;
    uint64_t start;
    bool exit_open;
    uint32_t exit_code;
    uint64_t exit_tsc;
    enum sub_kind sub_kind;
    uint64_t sub_val;
    int on_pcpu;
    struct st rs[OUT_NR];
    struct exit_st *exits;
    unsigned int nr_exits, cap_exits;
    uint64_t hcalls[NR_HCALLS + 1];     /* the last: other numbers */
};

struct tpcpu {
    struct tvcpu *cur;
    uint64_t last_tsc;
    bool seen;
    /* After a lost-records record: who runs when the gap ends. */
    bool revive_pending;
    unsigned int revive_dom, revive_id;
    uint64_t revive_tsc;
};

struct truth {
    struct tvcpu **tab;         /* open addressing on dom << 16 | id */
    unsigned int tab_size, nr_vcpus;
    struct tpcpu *pcpus;
    unsigned int nr_pcpus;
    unsigned int nr_lost;
    uint64_t records, first_tsc, last_tsc;
    bool any_tsc;
};

static inline void st_add(struct st *s, uint64_t c)
{
    if ( !s->count || c < s->min )
        s->min = c;
    if ( c > s->max )
        s->max = c;
    s->count++;
    s->cycles += c;
}

struct truth *truth_new(void)
{
    return calloc(1, sizeof(struct truth));
}

void truth_free(struct truth *t)
{
    unsigned int i, j;

    if ( !t )
        return;
    for ( i = 0; i < t->tab_size; i++ )
    {
        struct tvcpu *v = t->tab[i];

        if ( !v )
            continue;
        for ( j = 0; j < v->nr_exits; j++ )
            free(v->exits[j].subs);
        free(v->exits);
        free(v);
    }
    free(t->tab);
    free(t->pcpus);
    free(t);
}

static inline unsigned int hash_key(uint32_t key, unsigned int size)
{
    return (key * 2654435761u) & (size - 1);
}

static struct tvcpu *get_vcpu(struct truth *t, unsigned int dom,
                              unsigned int id)
{
    uint32_t key = dom << 16 | id;
    unsigned int i;
    struct tvcpu *v;

    if ( t->tab_size )
    {
        for ( i = hash_key(key, t->tab_size); (v = t->tab[i]);
              i = (i + 1) & (t->tab_size - 1) )
            if ( v->dom == dom && v->id == id )
                return v;
    }
    if ( 2 * (t->nr_vcpus + 1) > t->tab_size )
    {
        unsigned int size = t->tab_size ? t->tab_size * 2 : 64, j;
        struct tvcpu **n = calloc(size, sizeof(*n));

        if ( !n )
            abort();
        for ( j = 0; j < t->tab_size; j++ )
            if ( t->tab[j] )
            {
                i = hash_key(t->tab[j]->dom << 16 | t->tab[j]->id, size);
                while ( n[i] )
                    i = (i + 1) & (size - 1);
                n[i] = t->tab[j];
            }
        free(t->tab);
        t->tab = n;
        t->tab_size = size;
    }
    v = calloc(1, sizeof(*v));
    if ( !v )
        abort();
    v->dom = dom;
    v->id = id;
    v->state = ST_NONE;
    v->on_pcpu = -1;
    for ( i = hash_key(key, t->tab_size); t->tab[i];
          i = (i + 1) & (t->tab_size - 1) )
        ;
    t->tab[i] = v;
    t->nr_vcpus++;
    return v;
}

static struct tpcpu *get_pcpu(struct truth *t, unsigned int cpu)
{
    if ( cpu >= t->nr_pcpus )
    {
        unsigned int n = t->nr_pcpus ? t->nr_pcpus : 16;
        struct tpcpu *p;

        while ( n <= cpu )
            n *= 2;
        p = realloc(t->pcpus, n * sizeof(*p));
        if ( !p )
            abort();
        memset(p + t->nr_pcpus, 0, (n - t->nr_pcpus) * sizeof(*p));
        t->pcpus = p;
        t->nr_pcpus = n;
    }
    return &t->pcpus[cpu];
}

static void close_exit(struct tvcpu *v, uint64_t tsc)
{
    struct exit_st *e = NULL;
    unsigned int i;

    v->exit_open = false;
    for ( i = 0; i < v->nr_exits; i++ )
        if ( v->exits[i].code == v->exit_code )
        {
            e = &v->exits[i];
            break;
        }
    if ( !e )
    {
        if ( v->nr_exits == v->cap_exits )
        {
            v->cap_exits = v->cap_exits ? 2 * v->cap_exits : 8;
            v->exits = realloc(v->exits, v->cap_exits * sizeof(*e));
            if ( !v->exits )
                abort();
        }
        e = &v->exits[v->nr_exits++];
        memset(e, 0, sizeof(*e));
        e->code = v->exit_code;
    }
    st_add(&e->st, tsc - v->exit_tsc);
    if ( v->sub_kind == SK_NONE )
        return;
    for ( i = 0; i < e->nr_subs; i++ )
        if ( e->subs[i].kind == v->sub_kind && e->subs[i].val == v->sub_val )
        {
            st_add(&e->subs[i].st, tsc - v->exit_tsc);
            return;
        }
    if ( e->nr_subs == e->cap_subs )
    {
        e->cap_subs = e->cap_subs ? 2 * e->cap_subs : 8;
        e->subs = realloc(e->subs, e->cap_subs * sizeof(*e->subs));
        if ( !e->subs )
            abort();
    }
    memset(&e->subs[e->nr_subs], 0, sizeof(e->subs[0]));
    e->subs[e->nr_subs].kind = v->sub_kind;
    e->subs[e->nr_subs].val = v->sub_val;
    st_add(&e->subs[e->nr_subs++].st, tsc - v->exit_tsc);
}

/* Closes the open interval of v at tsc (zero-length ones are dropped). */
static void close_interval(struct tvcpu *v, uint64_t tsc)
{
    uint64_t c = tsc - v->start;

    if ( !c )
        return;
    switch ( v->state )
    {
    case RS_RUNNING:
        st_add(&v->rs[OUT_RUNNING], c);
        break;
    case RS_RUNNABLE:
        st_add(&v->rs[OUT_RUNNABLE], c);
        st_add(&v->rs[v->prev == RS_BLOCKED || v->prev == RS_OFFLINE
                      ? OUT_WAKE : v->prev == RS_RUNNING ? OUT_PREEMPT
                                                         : OUT_OTHER], c);
        break;
    case RS_BLOCKED:
        st_add(&v->rs[OUT_BLOCKED], c);
        break;
    case RS_OFFLINE:
        st_add(&v->rs[OUT_OFFLINE], c);
        break;
    case ST_LOST:
        st_add(&v->rs[OUT_LOST], c);
        break;
    default:
        break;
    }
}

static void runstate(struct truth *t, struct tpcpu *p, unsigned int cpu,
                     uint32_t w0, int ns, uint64_t tsc)
{
    struct tvcpu *v = get_vcpu(t, w0 >> 16, w0 & 0xffff);

    if ( ns == RS_RUNNABLE && v->exit_open )
        close_exit(v, tsc);
    if ( ns == RS_RUNNING )
    {
        p->cur = v;
        v->on_pcpu = (int)cpu;
    }
    else if ( v->on_pcpu >= 0 )
    {
        struct tpcpu *q = get_pcpu(t, (unsigned int)v->on_pcpu);

        if ( q->cur == v )
            q->cur = NULL;
        v->on_pcpu = -1;
    }
    if ( v->state == ST_NONE || v->state == ST_LOST )
    {
        if ( ns != RS_RUNNING )
            return;
        if ( v->state == ST_LOST )
        {
            close_interval(v, tsc);
            t->nr_lost--;
        }
        v->state = RS_RUNNING;
        v->start = tsc;
        return;
    }
    close_interval(v, tsc);
    v->prev = v->state;
    v->state = ns;
    v->start = tsc;
}

/*
 * Xen writes a lost-records record when tracing resumes, naming the vCPU
 * running then: at the pCPU's next record (its data after the gap), that
 * vCPU runs there from the record's TSC, if nothing else was scheduled.
 */
static void revive(struct truth *t, struct tpcpu *p, unsigned int cpu)
{
    struct tvcpu *v;

    p->revive_pending = false;
    if ( p->cur )
        return;
    v = get_vcpu(t, p->revive_dom, p->revive_id);
    if ( v->state == ST_LOST )
    {
        close_interval(v, p->revive_tsc);
        t->nr_lost--;
    }
    else if ( v->state == RS_RUNNING && v->on_pcpu >= 0 )
    {
        struct tpcpu *q = get_pcpu(t, (unsigned int)v->on_pcpu);

        if ( q->cur == v )
            q->cur = NULL;
    }
    else if ( v->state != ST_NONE )
        close_interval(v, p->revive_tsc);
    if ( v->state != RS_RUNNING )
    {
        v->prev = v->state;
        v->state = RS_RUNNING;
        v->start = p->revive_tsc;
    }
    p->cur = v;
    v->on_pcpu = (int)cpu;
}

static void lost(struct truth *t, struct tpcpu *p, uint64_t first)
{
    struct tvcpu *cur = p->cur;
    unsigned int i;

    if ( cur )
    {
        cur->exit_open = false;
        p->cur = NULL;
        cur->on_pcpu = -1;
    }
    for ( i = 0; i < t->tab_size; i++ )
    {
        struct tvcpu *v = t->tab[i];

        if ( !v || v->state == ST_NONE || v->state == ST_LOST ||
             (v->state == RS_RUNNING && v != cur) )
            continue;
        close_interval(v, first);
        v->state = ST_LOST;
        v->start = first;
        t->nr_lost++;
    }
}

static void open_exit(struct tpcpu *p, uint32_t code, uint64_t tsc)
{
    struct tvcpu *v = p->cur;

    if ( !v || v->dom == IDLE_DOMID )
        return;
    /* A new exit while one is open: the old one is dropped. */
    v->exit_open = true;
    v->exit_code = code;
    v->exit_tsc = tsc;
    v->sub_kind = SK_NONE;
}

static void put_sub(struct tpcpu *p, enum sub_kind k, uint64_t val,
                    bool override)
{
    struct tvcpu *v = p->cur;

    if ( !v || !v->exit_open || (v->sub_kind != SK_NONE && !override) )
        return;
    v->sub_kind = k;
    v->sub_val = val;
}

static void set_sub(struct tpcpu *p, enum sub_kind k, uint64_t val)
{
    put_sub(p, k, val, false);
}

/* A format-2 Arm field: one word, or two with TRC_64_FLAG. */
static uint64_t arm2_field(uint32_t event, const uint32_t *x, unsigned int *i)
{
    uint64_t v = x[(*i)++];

    if ( event & 0x100 )
        v |= (uint64_t)x[(*i)++] << 32;
    return v;
}

void truth_record(struct truth *t, unsigned int cpu, uint32_t event,
                  uint64_t tsc, const uint32_t *x, unsigned int nr)
{
    struct tpcpu *p = get_pcpu(t, cpu);

    t->records++;
    /* xentrace's clock record has no time: it starts no timeline. */
    if ( event == EV_TRACE_CLOCK_KHZ )
        return;
    if ( p->revive_pending && event != EV_LOST )
        revive(t, p, cpu);
    p->seen = true;
    p->last_tsc = tsc;
    if ( !t->any_tsc || tsc < t->first_tsc )
        t->first_tsc = tsc;
    if ( !t->any_tsc || tsc > t->last_tsc )
        t->last_tsc = tsc;
    t->any_tsc = true;

    if ( (event & ~0x330u) == EV_RUNSTATE && nr >= 1 )
    {
        runstate(t, p, cpu, x[0], (event >> 4) & 3, tsc);
        return;
    }
    switch ( event )
    {
    case EV_CONTINUE:
    {
        struct tvcpu *v = nr ? get_vcpu(t, x[0] >> 16, x[0] & 0xffff) : NULL;

        if ( v && v->state == RS_RUNNING )
        {
            close_interval(v, tsc);
            v->start = tsc;
        }
        break;
    }
    case EV_LOST:
        if ( nr >= 4 )
        {
            lost(t, p, x[2] | (uint64_t)x[3] << 32);
            p->revive_pending = true;
            p->revive_dom = x[1] & 0xffff;
            p->revive_id = x[1] >> 16;
            p->revive_tsc = tsc;
        }
        break;
    case EV_VMEXIT64:
    case EV_VMEXIT:
        if ( nr >= 1 )
            open_exit(p, x[0], tsc);
        break;
    case EV_HVM_ARM_EXIT:
    case EV_HVM_ARM_EXIT | 0x100:
        if ( nr >= 2 )
        {
            uint32_t ec = x[0] >> 26;

            open_exit(p, ec, tsc);
            if ( ec == 0x18 )       /* MSR/MRS: the register, the way */
                set_sub(p, x[0] & 1 ? SK_SYSREG_R : SK_SYSREG_W,
                        x[0] & 0x3ffc1e);
            else if ( ec == 0x01 )  /* WFI/WFE */
                set_sub(p, x[0] & 1 ? SK_WFE : SK_WFI, 0);
        }
        break;
    case EV_HVM_ARM_EXIT_IRQ:
    case EV_HVM_ARM_EXIT_IRQ | 0x100:
        if ( nr >= 1 )
            open_exit(p, 0x100, tsc);
        break;
    case EV_HVM_HLT:
        if ( nr >= 1 && p->cur && p->cur->exit_open &&
             p->cur->sub_kind == SK_WFI && x[0] )
            put_sub(p, SK_WFI_PENDING, 0, true);
        break;
    case EV_HVM_ARM_HCALL:
    case EV_HVM_ARM_HCALL | 0x100:
        /* a0 is the sub-operation of those hypercalls that have one. */
        if ( nr >= 2 && xa_hypercall_args(x[0]) &&
             xa_hypercall_args(x[0])->subop_arg == 0 )
            set_sub(p, SK_HCALL, x[0] | (uint64_t)((x[1] &
                    xa_hypercall_args(x[0])->subop_mask) + 1) << 32);
        else if ( nr >= 2 )
            set_sub(p, SK_HCALL, x[0]);
        break;
    case EV_HVM_ARM_SMCCC:
    case EV_HVM_ARM_SMCCC | 0x100:
        if ( nr >= 2 )
            set_sub(p, SK_SMC, x[0]);
        break;
    case EV_HVM_ARM_MMIO:
    case EV_HVM_ARM_MMIO | 0x100:
        if ( nr >= ((event & 0x100) ? 5u : 3u) )
        {
            unsigned int i = 0;
            uint64_t gpa = arm2_field(event, x, &i);

            arm2_field(event, x, &i);
            put_sub(p, x[i] & 4 ? SK_MMIO_W : SK_MMIO_R, gpa, true);
        }
        break;
    case EV_HVM_ARM_IRQ:
        if ( nr >= 1 )
            set_sub(p, SK_IRQ, x[0]);
        break;
    case EV_ARM_EXIT:
        if ( nr >= 5 )
            open_exit(p, x[4] == 0 ? x[0] >> 26 : 0xffu + x[4], tsc);
        break;
    case EV_VMENTRY:
    case EV_ARM_ENTRY:
        if ( p->cur && p->cur->exit_open )
            close_exit(p->cur, tsc);
        break;
    case EV_HVM_IOPORT_READ:
    case EV_HVM_IOPORT_WRITE:
        if ( nr >= 1 )
            set_sub(p, event == EV_HVM_IOPORT_READ ? SK_IO_R : SK_IO_W,
                    x[0]);
        break;
    case EV_HVM_IOMEM_READ:
    case EV_HVM_IOMEM_WRITE:
        if ( nr >= 1 )
            set_sub(p, event == EV_HVM_IOMEM_READ ? SK_MMIO_R : SK_MMIO_W,
                    x[0]);
        break;
    case EV_HVM_IOMEM_READ | EV_HVM_64:
    case EV_HVM_IOMEM_WRITE | EV_HVM_64:
        if ( nr >= 2 )
            set_sub(p, event & 0x200 ? SK_MMIO_W : SK_MMIO_R,
                    x[0] | (uint64_t)x[1] << 32);
        break;
    case EV_HVM_MSR_READ:
    case EV_HVM_MSR_WRITE:
        if ( nr >= 1 )
            set_sub(p, event == EV_HVM_MSR_READ ? SK_MSR_R : SK_MSR_W, x[0]);
        break;
    case EV_HVM_CPUID:
        if ( nr >= 1 )
            set_sub(p, SK_CPUID, x[0]);
        break;
    case EV_HVM_CR_WRITE64:
        if ( nr >= 1 )
            set_sub(p, SK_CR_W, x[0]);
        break;
    case EV_HVM_INTR:
        if ( nr >= 1 )
            set_sub(p, SK_VECTOR, x[0] & 0xff);
        break;
    case EV_HVM_VMMCALL:
        if ( nr >= 1 )
            set_sub(p, SK_HCALL, x[0]);
        break;
    case EV_ARM_HVC:
        /* a0 is the sub-operation of those hypercalls that have one. */
        if ( nr >= 2 && xa_hypercall_args(x[0]) &&
             xa_hypercall_args(x[0])->subop_arg == 0 )
            set_sub(p, SK_HCALL, x[0] | (uint64_t)((x[1] &
                    xa_hypercall_args(x[0])->subop_mask) + 1) << 32);
        else if ( nr >= 1 )
            set_sub(p, SK_HCALL, x[0]);
        break;
    case EV_ARM_SMC:
        if ( nr >= 1 )
            set_sub(p, SK_SMC, x[0]);
        break;
    case EV_ARM_DABT:
        if ( nr >= 3 )
            set_sub(p, x[2] & 4 ? SK_MMIO_W : SK_MMIO_R,
                    x[0] | (uint64_t)x[1] << 32);
        break;
    case EV_ARM_SYSREG:
        if ( nr >= 2 )
            set_sub(p, x[1] & 1 ? SK_SYSREG_R : SK_SYSREG_W, x[0]);
        break;
    case EV_ARM_IRQ:
        if ( nr >= 1 )
            set_sub(p, SK_IRQ, x[0]);
        break;
    case EV_ARM_WFX:
        if ( nr >= 1 && x[0] < 2 )
            set_sub(p, x[0] ? SK_WFE : SK_WFI, 0);
        break;
    case EV_PV_HYPERCALL_V2:
        if ( nr >= 1 && p->cur )
        {
            uint32_t op = x[0] & 0xfffff;

            p->cur->hcalls[op < NR_HCALLS ? op : NR_HCALLS]++;
        }
        break;
    default:
        break;
    }
}

unsigned int truth_nr_lost(const struct truth *t)
{
    return t->nr_lost;
}

void truth_end(struct truth *t)
{
    unsigned int i;

    for ( i = 0; i < t->nr_pcpus; i++ )
        if ( t->pcpus[i].revive_pending )
            revive(t, &t->pcpus[i], i);
    for ( i = 0; i < t->nr_pcpus; i++ )
    {
        struct tpcpu *p = &t->pcpus[i];
        struct tvcpu *v = p->cur;

        if ( v && v->state == RS_RUNNING )
        {
            close_interval(v, p->last_tsc);
            v->start = p->last_tsc;
        }
    }
}

/* Xen's hypercall numbers (xen/include/public/xen.h). */
static const char *const hcall_names[] = {
    "set_trap_table", "mmu_update", "set_gdt", "stack_switch",
    "set_callbacks", "fpu_taskswitch", "sched_op_compat", "platform_op",
    "set_debugreg", "get_debugreg", "update_descriptor", NULL,
    "memory_op", "multicall", "update_va_mapping", "set_timer_op",
    "event_channel_op_compat", "xen_version", "console_io",
    "physdev_op_compat", "grant_table_op", "vm_assist",
    "update_va_mapping_otherdomain", "iret", "vcpu_op", "set_segment_base",
    "mmuext_op", "xsm_op", "nmi_op", "sched_op", "callback_op",
    "xenoprof_op", "event_channel_op", "physdev_op", "hvm_op", "sysctl",
    "domctl", "kexec_op", "tmem_op", "argo_op", "xenpmu_op", "dm_op",
    "hypfs_op",
};

const char *synth_hypercall_name(unsigned int nr)
{
    return nr < sizeof(hcall_names) / sizeof(hcall_names[0])
           ? hcall_names[nr] : NULL;
}

static void hcall_label(char *buf, size_t len, uint64_t nr)
{
    const char *n = synth_hypercall_name((unsigned int)nr);

    if ( n )
        snprintf(buf, len, "%s", n);
    else
        snprintf(buf, len, "%llu", (unsigned long long)nr);
}

static void sub_key(char *buf, size_t len, const struct sub *s)
{
    unsigned long long v = s->val;
    char h[64];

    switch ( s->kind )
    {
    case SK_IO_R:
    case SK_IO_W:
        snprintf(buf, len, "io:0x%04llx:%c", v, s->kind == SK_IO_R ? 'r' : 'w');
        break;
    case SK_MSR_R:
    case SK_MSR_W:
        snprintf(buf, len, "msr:0x%08llx:%c", v,
                 s->kind == SK_MSR_R ? 'r' : 'w');
        break;
    case SK_HCALL:
        hcall_label(h, sizeof(h), (uint32_t)v);
        if ( v >> 32 )
        {
            /* Names are the catalog's; the counts are the truth's own. */
            const char *n = xa_hypercall_subop_name((uint32_t)v,
                                                    (uint32_t)(v >> 32) - 1);

            if ( n )
                snprintf(buf, len, "hypercall:%s:%s", h, n);
            else
                snprintf(buf, len, "hypercall:%s:%u", h,
                         (unsigned int)(v >> 32) - 1);
        }
        else
            snprintf(buf, len, "hypercall:%s", h);
        break;
    case SK_VECTOR:
        snprintf(buf, len, "vector:0x%02llx", v);
        break;
    case SK_CPUID:
        snprintf(buf, len, "cpuid:0x%08llx", v);
        break;
    case SK_MMIO_R:
    case SK_MMIO_W:
        snprintf(buf, len, "mmio:0x%08llx:%c", v,
                 s->kind == SK_MMIO_R ? 'r' : 'w');
        break;
    case SK_SMC:
        snprintf(buf, len, "smc:0x%08llx", v);
        break;
    case SK_SYSREG_R:
    case SK_SYSREG_W:
        snprintf(buf, len, "sysreg:0x%06llx:%c", v,
                 s->kind == SK_SYSREG_R ? 'r' : 'w');
        break;
    case SK_IRQ:
        snprintf(buf, len, "irq:%llu", v);
        break;
    case SK_WFI:
        snprintf(buf, len, "wfi");
        break;
    case SK_WFE:
        snprintf(buf, len, "wfe");
        break;
    case SK_WFI_PENDING:
        snprintf(buf, len, "wfi:pending");
        break;
    case SK_CR_W:
        snprintf(buf, len, "cr%llu:w", v);
        break;
    case SK_NONE:
    default:
        snprintf(buf, len, "?");
        break;
    }
}

static void put_stats(FILE *f, const struct st *s)
{
    fprintf(f, "\"count\": %llu, \"cycles\": %llu, \"min\": %llu, "
            "\"max\": %llu", (unsigned long long)s->count,
            (unsigned long long)s->cycles, (unsigned long long)s->min,
            (unsigned long long)s->max);
}

struct keyed {
    char key[96];
    const struct st *st;
    uint64_t count;
};

static int cmp_keyed(const void *a, const void *b)
{
    return strcmp(((const struct keyed *)a)->key,
                  ((const struct keyed *)b)->key);
}

static int cmp_vcpu(const void *a, const void *b)
{
    const struct tvcpu *x = *(const struct tvcpu *const *)a;
    const struct tvcpu *y = *(const struct tvcpu *const *)b;

    if ( x->dom != y->dom )
        return x->dom < y->dom ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

static int cmp_exit(const void *a, const void *b)
{
    const struct exit_st *x = a, *y = b;

    return x->code < y->code ? -1 : x->code > y->code;
}

static void put_vcpu(FILE *f, struct tvcpu *v)
{
    struct keyed *k;
    unsigned int i, j, n;
    bool first = true;

    fprintf(f, "        {\"id\": %u, \"runstates\": {", v->id);
    for ( i = 0; i < OUT_NR; i++ )
    {
        if ( !v->rs[i].count )
            continue;
        fprintf(f, "%s\n          \"%s\": {", first ? "" : ",", out_names[i]);
        put_stats(f, &v->rs[i]);
        fprintf(f, "}");
        first = false;
    }
    fprintf(f, "}");

    if ( v->nr_exits )
        qsort(v->exits, v->nr_exits, sizeof(*v->exits), cmp_exit);
    fprintf(f, ",\n          \"exits\": [");
    for ( i = 0; i < v->nr_exits; i++ )
    {
        struct exit_st *e = &v->exits[i];

        fprintf(f, "%s\n            {\"code\": %u, ", i ? "," : "", e->code);
        put_stats(f, &e->st);
        fprintf(f, ", \"sub\": [");
        k = calloc(e->nr_subs + 1, sizeof(*k));
        if ( !k )
            abort();
        for ( j = 0; j < e->nr_subs; j++ )
        {
            sub_key(k[j].key, sizeof(k[j].key), &e->subs[j]);
            k[j].st = &e->subs[j].st;
        }
        qsort(k, e->nr_subs, sizeof(*k), cmp_keyed);
        for ( j = 0; j < e->nr_subs; j++ )
        {
            fprintf(f, "%s\n              {\"key\": \"%s\", ", j ? "," : "",
                    k[j].key);
            put_stats(f, k[j].st);
            fprintf(f, "}");
        }
        free(k);
        fprintf(f, "]}");
    }
    fprintf(f, "]");

    k = calloc(NR_HCALLS + 1, sizeof(*k));
    if ( !k )
        abort();
    for ( i = n = 0; i <= NR_HCALLS; i++ )
    {
        if ( !v->hcalls[i] )
            continue;
        if ( i < NR_HCALLS )
            hcall_label(k[n].key, sizeof(k[n].key), i);
        else
            snprintf(k[n].key, sizeof(k[n].key), "other");
        k[n++].count = v->hcalls[i];
    }
    if ( n )
    {
        qsort(k, n, sizeof(*k), cmp_keyed);
        fprintf(f, ",\n          \"hypercalls\": [");
        for ( i = 0; i < n; i++ )
            fprintf(f, "%s{\"name\": \"%s\", \"count\": %llu}", i ? ", " : "",
                    k[i].key, (unsigned long long)k[i].count);
        fprintf(f, "]");
    }
    free(k);
    fprintf(f, "}");
}

int truth_write_json(const struct truth *t, FILE *f, uint64_t records,
                     uint64_t hz, const char *arch)
{
    struct tvcpu **vs = calloc(t->nr_vcpus + 1, sizeof(*vs));
    unsigned int i, n = 0, pcpus = 0;

    if ( !vs )
        return -1;
    for ( i = 0; i < t->tab_size; i++ )
        if ( t->tab[i] )
            vs[n++] = t->tab[i];
    qsort(vs, n, sizeof(*vs), cmp_vcpu);
    for ( i = 0; i < t->nr_pcpus; i++ )
        pcpus += t->pcpus[i].seen;

    fprintf(f, "{\n  \"schema\": \"xenalyze.summary/1\",\n  \"trace\": {"
            "\"records\": %llu, \"pcpus\": %u, \"cpu_hz\": %llu, "
            "\"first_tsc\": %llu, \"last_tsc\": %llu, \"arch\": \"%s\"},\n"
            "  \"domains\": [", (unsigned long long)records, pcpus,
            (unsigned long long)hz, (unsigned long long)t->first_tsc,
            (unsigned long long)t->last_tsc, arch);
    for ( i = 0; i < n; i++ )
    {
        bool new_dom = !i || vs[i - 1]->dom != vs[i]->dom;

        if ( new_dom )
            fprintf(f, "%s\n    {\"id\": %u, \"vcpus\": [\n", i ? "]}," : "",
                    vs[i]->dom);
        else
            fprintf(f, ",\n");
        put_vcpu(f, vs[i]);
    }
    fprintf(f, "%s\n  ]\n}\n", n ? "]}" : "");
    free(vs);
    return ferror(f) ? -1 : 0;
}
