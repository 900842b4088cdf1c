/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The timeline in Perfetto's format: TracePackets on one packet sequence,
 * written in time order as the model's observer reports.
 *
 * Schema: perfetto/protos/perfetto/trace/trace_packet.proto and
 * track_event/{track_event,track_descriptor,debug_annotation}.proto; the
 * field numbers are in the enums below.  Names (event names, argument
 * names, breakdown keys) are interned on the sequence: a packet carries
 * the InternedData its event needs for the first time, and when the table
 * fills the next packet clears the sequence's incremental state
 * (SEQ_INCREMENTAL_STATE_CLEARED) and interning starts afresh, so memory
 * stays bounded whatever the trace.
 *
 * Each track holds at most one open slice at a level, and a slice is
 * begun and ended at the record that makes it happen, so that the
 * sequence's timestamps never go backwards; an event whose time lies
 * before the last one written (a damaged trace's TSC) is drawn at the
 * last time and counted in stats.clamped.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xenalyze/clock.h>
#include <xenalyze/merge.h>
#include <xenalyze/summary.h>
#include <xenalyze/timeline.h>
#include <xenalyze/trace.h>

#include "util/pb.h"
#include "util/util-private.h"

/* Field numbers (perfetto_trace.proto). */
enum {
    F_TRACE_PACKET = 1,
    /* TracePacket */
    F_TIMESTAMP = 8,
    F_TRACK_EVENT = 11,
    F_SEQ_ID = 10,
    F_INTERNED = 12,
    F_SEQ_FLAGS = 13,
    F_TRACK_DESC = 60,
    /* InternedData */
    F_I_EVENT_NAMES = 2,
    F_I_ANNO_NAMES = 3,
    F_I_ANNO_STRINGS = 29,
    /* TrackDescriptor */
    F_TD_UUID = 1,
    F_TD_NAME = 2,
    F_TD_PROCESS = 3,
    F_TD_THREAD = 4,
    F_TD_PARENT = 5,
    F_TD_COUNTER = 8,
    F_TD_CHILD_ORDER = 11,
    F_TD_RANK = 12,
    /* ProcessDescriptor, ThreadDescriptor */
    F_PD_PID = 1,
    F_PD_NAME = 6,
    F_THD_PID = 1,
    F_THD_TID = 2,
    F_THD_NAME = 5,
    /* CounterDescriptor */
    F_CD_UNIT_NAME = 6,
    /* TrackEvent */
    F_TE_ANNOTATION = 4,
    F_TE_TYPE = 9,
    F_TE_NAME_IID = 10,
    F_TE_TRACK = 11,
    F_TE_COUNTER = 30,
    F_TE_DOUBLE_COUNTER = 44,
    F_TE_FLOW = 47,
    F_TE_TERM_FLOW = 48,
    /* DebugAnnotation */
    F_DA_NAME_IID = 1,
    F_DA_BOOL = 2,
    F_DA_UINT = 3,
    F_DA_INT = 4,
    F_DA_POINTER = 7,
    F_DA_STRING_IID = 17,
};

enum {
    TYPE_SLICE_BEGIN = 1,
    TYPE_SLICE_END = 2,
    TYPE_INSTANT = 3,
    TYPE_COUNTER = 4,
};

#define SEQ_ID 1
#define SEQ_CLEARED 1u
#define SEQ_NEEDS_STATE 2u
#define ORDER_EXPLICIT 3

/* Track uuids: a key and a track type in the low 3 bits. */
enum {
    T_PCPU = 1,
    T_PROCESS,
    T_THREAD,
    T_EXITS,
    T_COUNTER,
    T_GROUP,
};

#define UUID(key, type) (((uint64_t)(key) << 3) | (type))
/* A vCPU's and a domain's keys: an id's incarnations apart. */
#define VKEY(d, v, inc) ((uint64_t)(inc) << 28 | (uint32_t)(d) << 12 | (v))
#define DKEY(d, inc) ((uint64_t)(inc) << 16 | (d))
#define PID_BASE 100000             /* pid: 100000 + domain id */
/*
 * pid of the later domains of a reused id (DOMAIN_REUSED): 140000 + n
 * for the nth reuse, at most PID_REUSED_MAX (the model makes 4096
 * domains at most), so that every tid fits in 31 bits.
 */
#define PID_REUSED 140000
#define PID_REUSED_MAX 70000u
#define TID_MUL 10000               /* tid: pid * 10000 + vCPU id */
#define VCPU_ID_MAX 4095u           /* as the model's */
#define GROUP_PCPUS 0
#define GROUP_CREDIT2 1

/* Interning: three namespaces of one table. */
enum ins {
    NS_EVENT,
    NS_ANNO,
    NS_STRING,
    NS_NR
};

#define INTERN_SLOTS 8192u          /* power of two */
#define INTERN_MAX 4096u            /* entries before a reset */
#define ARENA_MAX (256u * 1024)     /* bytes of names before a reset */
#define PENDING_MAX 16u             /* new names one packet may carry */
#define NAME_MAX_LEN 127u

struct intern_slot {
    uint32_t hash;
    uint32_t iid;                   /* 0: empty */
    uint32_t off;
    uint16_t len;
    uint8_t ns;
};

/* A name's iid, valid while gen is the table's generation. */
struct icache {
    uint32_t gen;
    uint32_t iid;
};

/* Argument names. */
enum arg_name {
    A_CYCLES,
    A_CODE,
    A_RIP,
    A_PC,
    A_KEY,
    A_KEY_NAME,
    A_DISCARDED,
    A_CLIPPED,
    A_RECORDS,
    A_FROM,
    A_TO,
    A_VECTOR,
    A_DESC,
    A_START_NS,
    A_END_NS,
    A_NR
};

static const char *const arg_names[A_NR] = {
    [A_CYCLES] = "cycles",
    [A_CODE] = "code",
    [A_RIP] = "rip",
    [A_PC] = "pc",
    [A_KEY] = "key",
    [A_KEY_NAME] = "key_name",
    [A_DISCARDED] = "discarded",
    [A_CLIPPED] = "clipped",
    [A_RECORDS] = "records",
    [A_FROM] = "from_pcpu",
    [A_TO] = "to_pcpu",
    [A_VECTOR] = "vector",
    [A_DESC] = "description",
    [A_START_NS] = "start_ns",
    [A_END_NS] = "end_ns",
};

/* Runstate slices; RSN_NONE: nothing drawn. */
enum rs_name {
    RSN_RUNNING,
    RSN_RUNNABLE_WAKE,
    RSN_RUNNABLE_PREEMPT,
    RSN_RUNNABLE_OTHER,
    RSN_BLOCKED,
    RSN_OFFLINE,
    RSN_LOST,
    RSN_NR,
    RSN_NONE = RSN_NR,
};

static const char *const rs_names[RSN_NR] = {
    "running", "runnable (wake)", "runnable (preempt)", "runnable (other)",
    "blocked", "offline", "lost",
};

/* Other fixed event names. */
enum fixed_name {
    N_IDLE,
    N_LOST,
    N_MIGRATE,
    N_NR
};

static const char *const fixed_names[N_NR] = {
    [N_IDLE] = "idle",
    [N_LOST] = "lost records",
    [N_MIGRATE] = "migrate",
};

enum arg_type {
    AT_UINT,
    AT_INT,
    AT_POINTER,
    AT_BOOL,
    AT_STRING,                      /* v: an interned string's iid */
};

struct arg {
    uint32_t name;
    uint8_t type;
    uint64_t v;
};

#define ARGS_MAX 6

struct ev {
    uint64_t tsc;
    uint64_t track;
    uint8_t type;
    uint32_t name;
    unsigned int nr_args;
    struct arg args[ARGS_MAX];
    uint64_t flow, term_flow;
    bool counter, dbl;
    int64_t cv;
    double dv;
};

/* One open slice of a track (logically), and whether it was written. */
struct slice {
    bool open, emitted;
    uint32_t code;
    uint64_t start;
    uint64_t aux;
};

enum pcpu_slice {
    PS_RUN,
    PS_LOST,
};

struct tl_pcpu {
    bool described, seen;
    struct slice s;                 /* code: PS_* << 31 | vCPU key */
    uint32_t run_dom, run_vcpu;
    uint64_t last_tsc;
    uint32_t lost_count;            /* of the last lost-records record */
};

struct tl_vcpu {
    uint16_t dom, id;
    uint32_t inc;                   /* the domain's incarnation */
    bool described, exits_described, selected;
    struct slice rs;                /* code: enum rs_name */
    struct slice ex;                /* code: exit code; aux: rip */
    uint64_t flow;                  /* a wake's flow, to end where it runs */
    struct icache name;             /* "dDvV" */
    struct icache wake;             /* "wake dDvV" */
};

/* Breakdown keys by value, so that a key is formatted when first seen. */
#define KEY_CACHE 4096u             /* power of two; direct-mapped */

struct key_slot {
    struct icache c;
    uint8_t kind;
    uint64_t val;
    const char *label;
};

struct tl_dom {
    bool known, described, selected;
    uint8_t kind;                   /* enum xa_vcpu_kind */
    unsigned int inc;               /* incarnation (DOMAIN_REUSED) */
    int pid;
    struct tl_vcpu **vcpus;
    unsigned int nr_vcpus;
};

struct xa_timeline {
    struct xa_timeline_opts o;
    struct xa_out *out;
    struct pb pb;
    struct xa_timeline_stats st;
    const struct xa_fmt_ctx *fmt;

    /* Time: origin, window, the last time written. */
    bool have_t0, in_window, window_done;
    uint64_t t0, lo, hi, max_tsc;
    uint64_t last_ns;

    /* Interning */
    struct intern_slot *slots;
    unsigned int nr_entries;
    uint32_t next_iid[NS_NR];
    char *arena;
    uint32_t arena_len;
    uint32_t gen;
    bool cleared;                   /* next packet says so */
    struct {
        uint8_t ns;
        uint32_t iid, off;
        uint16_t len;
    } pending[PENDING_MAX];
    unsigned int nr_pending;
    struct icache args[A_NR];
    struct icache rs[RSN_NR];
    struct icache fixed[N_NR];
    struct icache exit_names[3][0x500];   /* VMX, SVM, Arm by code */
    struct icache inject[256];
    struct icache anomaly[XA_DIAG_NR];
    struct icache anomaly_desc[XA_DIAG_NR];
    struct key_slot *keys;          /* [KEY_CACHE] */

    struct tl_pcpu *pcpus;
    unsigned int nr_pcpus;
    struct tl_dom *doms;
    unsigned int nr_doms;
    unsigned int nr_reused;         /* domains of reused ids so far */
    bool groups[2];
    struct {
        bool described;
    } c2[256][2];                   /* credit2 runqueue counters */
    uint64_t flow_seq;
};

/* Time */

/* Nanoseconds since the origin: exact, in 64-bit divisions. */
static uint64_t tl_ns(const struct xa_timeline *tl, uint64_t tsc)
{
    uint64_t d = tsc > tl->t0 ? tsc - tl->t0 : 0, hz = tl->o.hz;

    return d / hz * 1000000000u + d % hz * 1000000000u / hz;
}

/* Interning */

static uint32_t str_hash(enum ins ns, const char *s, size_t n)
{
    uint32_t h = 2166136261u ^ (uint32_t)ns;
    size_t i;

    for ( i = 0; i < n; i++ )
        h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h;
}

static void intern_reset(struct xa_timeline *tl)
{
    memset(tl->slots, 0, INTERN_SLOTS * sizeof(*tl->slots));
    memset(tl->next_iid, 0, sizeof(tl->next_iid));
    tl->nr_entries = 0;
    tl->arena_len = 0;
    tl->nr_pending = 0;
    tl->gen++;
    tl->cleared = true;
}

/* Before building a packet: room for its names, or a fresh table. */
static void intern_room(struct xa_timeline *tl)
{
    if ( tl->nr_entries + PENDING_MAX > INTERN_MAX ||
         tl->arena_len + PENDING_MAX * (NAME_MAX_LEN + 1) > ARENA_MAX )
    {
        intern_reset(tl);
        tl->st.intern_resets++;
    }
}

static uint32_t intern(struct xa_timeline *tl, enum ins ns, const char *s)
{
    size_t n = strnlen(s, NAME_MAX_LEN);
    uint32_t h = str_hash(ns, s, n), i;
    struct intern_slot *e;

    for ( i = h & (INTERN_SLOTS - 1);; i = (i + 1) & (INTERN_SLOTS - 1) )
    {
        e = &tl->slots[i];
        if ( !e->iid )
            break;
        if ( e->hash == h && e->ns == ns && e->len == n &&
             !memcmp(tl->arena + e->off, s, n) )
            return e->iid;
    }
    /* intern_room() made room for this packet's names. */
    if ( tl->nr_pending == PENDING_MAX )
        return 0;
    e->hash = h;
    e->ns = (uint8_t)ns;
    e->len = (uint16_t)n;
    e->off = tl->arena_len;
    e->iid = ++tl->next_iid[ns];
    memcpy(tl->arena + tl->arena_len, s, n);
    tl->arena_len += (uint32_t)n;
    tl->nr_entries++;
    tl->pending[tl->nr_pending].ns = (uint8_t)ns;
    tl->pending[tl->nr_pending].iid = e->iid;
    tl->pending[tl->nr_pending].off = e->off;
    tl->pending[tl->nr_pending++].len = (uint16_t)n;
    return e->iid;
}

static uint32_t cached(struct xa_timeline *tl, struct icache *c, enum ins ns,
                       const char *s)
{
    if ( c->gen != tl->gen || !c->iid )
    {
        c->iid = intern(tl, ns, s);
        c->gen = tl->gen;
    }
    return c->iid;
}

static uint32_t fixed_name(struct xa_timeline *tl, enum fixed_name n)
{
    return cached(tl, &tl->fixed[n], NS_EVENT, fixed_names[n]);
}

/* Events */

static void ev_init(struct xa_timeline *tl, struct ev *e, uint8_t type,
                    uint64_t track, uint64_t tsc)
{
    intern_room(tl);
    memset(e, 0, offsetof(struct ev, args));
    e->flow = e->term_flow = 0;
    e->counter = e->dbl = false;
    e->type = type;
    e->track = track;
    e->tsc = tsc;
}

static void ev_arg(struct xa_timeline *tl, struct ev *e, enum arg_name a,
                   enum arg_type type, uint64_t v)
{
    struct arg *x;

    if ( e->nr_args == ARGS_MAX )
        return;
    x = &e->args[e->nr_args++];
    x->name = cached(tl, &tl->args[a], NS_ANNO, arg_names[a]);
    x->type = (uint8_t)type;
    x->v = v;
}

static void ev_arg_str(struct xa_timeline *tl, struct ev *e, enum arg_name a,
                       const char *s)
{
    ev_arg(tl, e, a, AT_STRING, intern(tl, NS_STRING, s));
}

/* The packet header: time, sequence, and the state it clears or needs. */
static void packet_begin(struct xa_timeline *tl, uint64_t ns)
{
    struct pb *pb = &tl->pb;

    pb_begin(pb, F_TRACE_PACKET);
    pb_uint(pb, F_TIMESTAMP, ns);
    pb_uint(pb, F_SEQ_ID, SEQ_ID);
    pb_uint(pb, F_SEQ_FLAGS, tl->cleared ? SEQ_CLEARED | SEQ_NEEDS_STATE
                                         : SEQ_NEEDS_STATE);
    tl->cleared = false;
}

static void packet_end(struct xa_timeline *tl)
{
    pb_end(&tl->pb);
    tl->st.packets++;
    xa_out_maybe_flush(tl->out);
}

static void write_interned(struct xa_timeline *tl)
{
    static const unsigned int field[NS_NR] = {
        [NS_EVENT] = F_I_EVENT_NAMES,
        [NS_ANNO] = F_I_ANNO_NAMES,
        [NS_STRING] = F_I_ANNO_STRINGS,
    };
    struct pb *pb = &tl->pb;
    unsigned int i;

    if ( !tl->nr_pending )
        return;
    pb_begin(pb, F_INTERNED);
    for ( i = 0; i < tl->nr_pending; i++ )
    {
        /* EventName, DebugAnnotationName, InternedString: {iid=1, 2}. */
        pb_begin(pb, field[tl->pending[i].ns]);
        pb_uint(pb, 1, tl->pending[i].iid);
        pb_bytes(pb, 2, tl->arena + tl->pending[i].off, tl->pending[i].len);
        pb_end(pb);
    }
    pb_end(pb);
    tl->nr_pending = 0;
}

/* The time to write for tsc: never before the last time written. */
static uint64_t ev_time(struct xa_timeline *tl, uint64_t tsc)
{
    uint64_t ns = tl_ns(tl, tsc);

    if ( ns < tl->last_ns )
    {
        tl->st.clamped++;
        ns = tl->last_ns;
    }
    tl->last_ns = ns;
    return ns;
}

static void emit(struct xa_timeline *tl, struct ev *e)
{
    struct pb *pb = &tl->pb;
    uint64_t ns = tl_ns(tl, e->tsc);
    unsigned int i;

    /*
     * Drawn later than it happened (the model learnt it late, or the TSC
     * went back): a slice tells its true start or end.
     */
    if ( ns < tl->last_ns && e->type == TYPE_SLICE_BEGIN )
        ev_arg(tl, e, A_START_NS, AT_UINT, ns);
    else if ( ns < tl->last_ns && e->type == TYPE_SLICE_END )
        ev_arg(tl, e, A_END_NS, AT_UINT, ns);
    packet_begin(tl, ev_time(tl, e->tsc));
    write_interned(tl);
    pb_begin(pb, F_TRACK_EVENT);
    pb_uint(pb, F_TE_TYPE, e->type);
    pb_uint(pb, F_TE_TRACK, e->track);
    if ( e->name )
        pb_uint(pb, F_TE_NAME_IID, e->name);
    for ( i = 0; i < e->nr_args; i++ )
    {
        const struct arg *a = &e->args[i];
        static const unsigned int field[] = {
            [AT_UINT] = F_DA_UINT,
            [AT_INT] = F_DA_INT,
            [AT_POINTER] = F_DA_POINTER,
            [AT_BOOL] = F_DA_BOOL,
            [AT_STRING] = F_DA_STRING_IID,
        };

        pb_begin(pb, F_TE_ANNOTATION);
        pb_uint(pb, F_DA_NAME_IID, a->name);
        pb_uint(pb, field[a->type], a->v);
        pb_end(pb);
    }
    if ( e->flow )
        pb_fixed64(pb, F_TE_FLOW, e->flow);
    if ( e->term_flow )
        pb_fixed64(pb, F_TE_TERM_FLOW, e->term_flow);
    if ( e->counter )
    {
        if ( e->dbl )
            pb_double(pb, F_TE_DOUBLE_COUNTER, e->dv);
        else
            pb_int(pb, F_TE_COUNTER, e->cv);
    }
    pb_end(pb);
    packet_end(tl);
    if ( e->type == TYPE_SLICE_BEGIN )
        tl->st.slices++;
    else if ( e->type == TYPE_INSTANT )
        tl->st.instants++;
    else if ( e->type == TYPE_COUNTER )
        tl->st.counters++;
}

/* Track descriptors */

struct desc {
    uint64_t uuid, parent;
    const char *name;
    int pid;                        /* process or thread: > 0 */
    int64_t tid;                    /* thread: > 0 */
    bool counter;
    const char *unit;
    int rank;                       /* >= 0: sibling order */
    bool explicit_order;
};

static void describe(struct xa_timeline *tl, const struct desc *d)
{
    struct pb *pb = &tl->pb;

    pb_begin(pb, F_TRACE_PACKET);
    pb_uint(pb, F_TIMESTAMP, tl->last_ns);
    pb_uint(pb, F_SEQ_ID, SEQ_ID);
    pb_begin(pb, F_TRACK_DESC);
    pb_uint(pb, F_TD_UUID, d->uuid);
    if ( d->parent )
        pb_uint(pb, F_TD_PARENT, d->parent);
    if ( d->tid > 0 )
    {
        pb_begin(pb, F_TD_THREAD);
        pb_uint(pb, F_THD_PID, (uint64_t)d->pid);
        pb_uint(pb, F_THD_TID, (uint64_t)d->tid);
        pb_str(pb, F_THD_NAME, d->name);
        pb_end(pb);
    }
    else if ( d->pid > 0 )
    {
        pb_begin(pb, F_TD_PROCESS);
        pb_uint(pb, F_PD_PID, (uint64_t)d->pid);
        pb_str(pb, F_PD_NAME, d->name);
        pb_end(pb);
    }
    else
        pb_str(pb, F_TD_NAME, d->name);
    if ( d->counter )
    {
        pb_begin(pb, F_TD_COUNTER);
        if ( d->unit )
            pb_str(pb, F_CD_UNIT_NAME, d->unit);
        pb_end(pb);
    }
    if ( d->explicit_order )
        pb_uint(pb, F_TD_CHILD_ORDER, ORDER_EXPLICIT);
    if ( d->rank >= 0 )
        pb_uint(pb, F_TD_RANK, (uint64_t)d->rank);
    pb_end(pb);
    packet_end(tl);
}

static uint64_t group_track(struct xa_timeline *tl, unsigned int g)
{
    static const char *const names[] = {
        [GROUP_PCPUS] = "Physical CPUs",
        [GROUP_CREDIT2] = "credit2 runqueues",
    };
    uint64_t uuid = UUID(g, T_GROUP);

    if ( !tl->groups[g] )
    {
        struct desc d = { .uuid = uuid, .name = names[g], .rank = -1,
                          .explicit_order = true };

        tl->groups[g] = true;
        describe(tl, &d);
    }
    return uuid;
}

static uint64_t pcpu_track(struct xa_timeline *tl, unsigned int cpu)
{
    struct tl_pcpu *p = &tl->pcpus[cpu];

    if ( !p->described )
    {
        char name[32];
        struct desc d = { .uuid = UUID(cpu, T_PCPU), .name = name,
                          .rank = (int)cpu };

        d.parent = group_track(tl, GROUP_PCPUS);
        snprintf(name, sizeof(name), "pCPU %u", cpu);
        p->described = true;
        describe(tl, &d);
    }
    return UUID(cpu, T_PCPU);
}

static const char *const kind_names[] = {
    [XA_VK_NONE] = NULL,
    [XA_VK_HVM] = "HVM",
    [XA_VK_PV] = "PV",
    [XA_VK_ARM] = "Arm",
};

/* A domain's process: "dom0 (PV)", "d1 (HVM)", "d2", "d1#2 (HVM)". */
static void describe_domain(struct xa_timeline *tl, unsigned int dom)
{
    struct tl_dom *d = &tl->doms[dom];
    char name[48];
    const char *kind = kind_names[d->kind];
    struct desc ds = { .uuid = UUID(DKEY(dom, d->inc), T_PROCESS),
                       .name = name, .pid = d->pid, .rank = -1 };
    int n;

    if ( d->described )
        return;
    d->described = true;
    if ( dom == XA_DOM_DEFAULT )
        kind = "not known yet";     /* vCPUs of CPUs not scheduled yet */
    n = xa_dom_name(name, sizeof(name), dom ? "d" : "dom", dom, d->inc);
    if ( kind && n > 0 && (size_t)n < sizeof(name) )
        snprintf(name + n, sizeof(name) - (size_t)n, " (%s)", kind);
    describe(tl, &ds);
}

/* "dDvV", "dD#IvV" for a reused id's later domains. */
static void vcpu_label(const struct xa_timeline *tl, char *buf, size_t len,
                       unsigned int dom, unsigned int id)
{
    int n = xa_dom_name(buf, len, "d", dom, dom < tl->nr_doms
                                           ? tl->doms[dom].inc : 0);

    if ( n > 0 && (size_t)n < len )
        snprintf(buf + n, len - (size_t)n, "v%u", id);
}

static struct tl_dom *dom_get(struct xa_timeline *tl, unsigned int dom)
{
    struct tl_dom *d;

    if ( xa_grow(&tl->doms, &tl->nr_doms, sizeof(*tl->doms), dom, 8) )
        return NULL;
    d = &tl->doms[dom];
    if ( !d->known )
    {
        d->known = true;
        d->pid = PID_BASE + (int)dom;
        d->selected = !tl->o.filter || xa_filter_domain(tl->o.filter, dom);
    }
    return d;
}

/*
 * The state of a guest vCPU (not idle or default), or NULL (none, not
 * selected, or no memory).
 */
static struct tl_vcpu *vcpu_get(struct xa_timeline *tl, unsigned int dom,
                                unsigned int id)
{
    struct tl_dom *d;
    struct tl_vcpu *v;

    if ( dom < tl->nr_doms && id < tl->doms[dom].nr_vcpus &&
         (v = tl->doms[dom].vcpus[id]) )
        return v->selected ? v : NULL;
    if ( dom == XA_DOM_IDLE || dom > XA_DOM_DEFAULT || id > VCPU_ID_MAX ||
         !(d = dom_get(tl, dom)) || !d->selected )
        return NULL;
    if ( xa_grow(&d->vcpus, &d->nr_vcpus, sizeof(*d->vcpus), id, 4) )
        return NULL;
    v = d->vcpus[id];
    if ( !v )
    {
        v = d->vcpus[id] = calloc(1, sizeof(*v));
        if ( !v )
            return NULL;
        v->dom = (uint16_t)dom;
        v->id = (uint16_t)id;
        v->inc = d->inc;
        v->selected = !tl->o.filter || xa_filter_vcpu(tl->o.filter, dom, id);
    }
    return v->selected ? v : NULL;
}

static uint64_t thread_track(struct xa_timeline *tl, struct tl_vcpu *v)
{
    uint64_t uuid = UUID(VKEY(v->dom, v->id, v->inc), T_THREAD);

    if ( !v->described )
    {
        char name[40];
        int pid = tl->doms[v->dom].pid;
        struct desc d = { .uuid = uuid, .name = name, .pid = pid,
                          .tid = (int64_t)pid * TID_MUL + v->id,
                          .rank = -1 };

        vcpu_label(tl, name, sizeof(name), v->dom, v->id);
        v->described = true;
        describe(tl, &d);
    }
    return uuid;
}

static uint64_t exits_track(struct xa_timeline *tl, struct tl_vcpu *v)
{
    uint64_t uuid = UUID(VKEY(v->dom, v->id, v->inc), T_EXITS);

    if ( !v->exits_described )
    {
        char name[48];
        struct desc d = { .uuid = uuid, .name = name, .rank = -1 };
        size_t n;

        d.parent = thread_track(tl, v);
        vcpu_label(tl, name, sizeof(name), v->dom, v->id);
        n = strlen(name);
        snprintf(name + n, sizeof(name) - n, " exits");
        v->exits_described = true;
        describe(tl, &d);
    }
    return uuid;
}

static uint32_t vcpu_name(struct xa_timeline *tl, unsigned int dom,
                          unsigned int id, struct icache *c)
{
    char name[40];

    if ( dom == XA_DOM_IDLE )
        return fixed_name(tl, N_IDLE);
    if ( c && c->gen == tl->gen && c->iid )
        return c->iid;
    vcpu_label(tl, name, sizeof(name), dom, id);
    if ( !c )
        return intern(tl, NS_EVENT, name);
    return cached(tl, c, NS_EVENT, name);
}

/* Slices: begun and ended only inside the window */

/* Writes the begin of s on track (at tsc, or at the window's start). */
static void pcpu_slice_emit(struct xa_timeline *tl, unsigned int cpu,
                            uint64_t tsc, bool clipped);
static void rs_slice_emit(struct xa_timeline *tl, struct tl_vcpu *v,
                          uint64_t tsc, bool clipped);
static void exit_slice_emit(struct xa_timeline *tl, struct tl_vcpu *v,
                            uint64_t tsc, bool clipped);

static void slice_open(struct slice *s, uint32_t code, uint64_t tsc,
                       uint64_t aux)
{
    s->open = true;
    s->emitted = false;
    s->code = code;
    s->start = tsc;
    s->aux = aux;
}

/* Starts an end event of s, if it was written; false when there is none. */
static bool slice_end_ev(struct xa_timeline *tl, struct slice *s,
                         struct ev *e, uint64_t track, uint64_t tsc)
{
    bool was = s->open && s->emitted;

    s->open = s->emitted = false;
    if ( !was )
        return false;
    ev_init(tl, e, TYPE_SLICE_END, track, tsc);
    return true;
}

/* Physical CPUs */

static struct tl_pcpu *pcpu_get(struct xa_timeline *tl, unsigned int cpu)
{
    if ( cpu < tl->nr_pcpus )
        return &tl->pcpus[cpu];
    if ( xa_grow(&tl->pcpus, &tl->nr_pcpus, sizeof(*tl->pcpus), cpu, 8) )
        return NULL;
    return &tl->pcpus[cpu];
}

static void pcpu_slice_emit(struct xa_timeline *tl, unsigned int cpu,
                            uint64_t tsc, bool clipped)
{
    struct tl_pcpu *p = &tl->pcpus[cpu];
    struct ev e;

    ev_init(tl, &e, TYPE_SLICE_BEGIN, pcpu_track(tl, cpu), tsc);
    if ( p->s.code >> 31 == PS_LOST )
    {
        e.name = fixed_name(tl, N_LOST);
        if ( p->s.aux )
            ev_arg(tl, &e, A_RECORDS, AT_UINT, p->s.aux);
    }
    else
    {
        struct tl_vcpu *v = vcpu_get(tl, p->run_dom, p->run_vcpu);

        e.name = vcpu_name(tl, p->run_dom, p->run_vcpu, v ? &v->name : NULL);
        if ( v && v->flow && !clipped )
        {
            e.term_flow = v->flow;
            v->flow = 0;
        }
    }
    if ( clipped )
        ev_arg(tl, &e, A_CLIPPED, AT_BOOL, 1);
    emit(tl, &e);
    p->s.emitted = true;
}

static void pcpu_slice_end(struct xa_timeline *tl, unsigned int cpu,
                           uint64_t tsc, uint64_t cycles)
{
    struct tl_pcpu *p = &tl->pcpus[cpu];
    struct ev e;

    if ( !slice_end_ev(tl, &p->s, &e, UUID(cpu, T_PCPU), tsc) )
        return;
    if ( cycles )
        ev_arg(tl, &e, A_CYCLES, AT_UINT, cycles);
    emit(tl, &e);
}

static void pcpu_slice_begin(struct xa_timeline *tl, unsigned int cpu,
                             uint32_t code, uint64_t tsc, uint64_t aux)
{
    struct tl_pcpu *p = &tl->pcpus[cpu];

    if ( p->s.open )
        pcpu_slice_end(tl, cpu, tsc, 0);
    slice_open(&p->s, code, tsc, aux);
    if ( tl->in_window )
        pcpu_slice_emit(tl, cpu, tsc, false);
}

/* Runstates */

static void rs_slice_emit(struct xa_timeline *tl, struct tl_vcpu *v,
                          uint64_t tsc, bool clipped)
{
    struct ev e;

    ev_init(tl, &e, TYPE_SLICE_BEGIN, thread_track(tl, v), tsc);
    e.name = cached(tl, &tl->rs[v->rs.code], NS_EVENT, rs_names[v->rs.code]);
    if ( clipped )
        ev_arg(tl, &e, A_CLIPPED, AT_BOOL, 1);
    emit(tl, &e);
    v->rs.emitted = true;
}

/* Exits */

static uint32_t exit_name_iid(struct xa_timeline *tl, unsigned int kind,
                              uint32_t code)
{
    enum xa_hvm_mode mode = tl->fmt ? tl->fmt->hvm_mode : XA_HVM_VMX;
    unsigned int cls = kind == XA_VK_ARM ? 2 : mode == XA_HVM_SVM;
    const char *name = xa_exit_name((enum xa_vcpu_kind)kind, mode, code);
    char buf[32];

    if ( !name )
    {
        snprintf(buf, sizeof(buf), "UNKNOWN(0x%x)", code);
        name = buf;
    }
    if ( code < 0x500 )
        return cached(tl, &tl->exit_names[cls][code], NS_EVENT, name);
    return intern(tl, NS_EVENT, name);
}

static void exit_slice_emit(struct xa_timeline *tl, struct tl_vcpu *v,
                            uint64_t tsc, bool clipped)
{
    struct tl_dom *d = &tl->doms[v->dom];
    struct ev e;

    ev_init(tl, &e, TYPE_SLICE_BEGIN, exits_track(tl, v), tsc);
    e.name = exit_name_iid(tl, d->kind, v->ex.code);
    ev_arg(tl, &e, A_CODE, AT_UINT, v->ex.code);
    if ( v->ex.aux )
        ev_arg(tl, &e, d->kind == XA_VK_ARM ? A_PC : A_RIP, AT_POINTER,
               v->ex.aux);
    if ( clipped )
        ev_arg(tl, &e, A_CLIPPED, AT_BOOL, 1);
    emit(tl, &e);
    v->ex.emitted = true;
}

/* Window: open slices start at its start and end at its end */

static void for_each_vcpu(struct xa_timeline *tl,
                          void (*fn)(struct xa_timeline *, struct tl_vcpu *,
                                     uint64_t),
                          uint64_t tsc)
{
    unsigned int i, j;

    for ( i = 0; i < tl->nr_doms; i++ )
        for ( j = 0; j < tl->doms[i].nr_vcpus; j++ )
            if ( tl->doms[i].vcpus[j] && tl->doms[i].vcpus[j]->selected )
                fn(tl, tl->doms[i].vcpus[j], tsc);
}

static void vcpu_window_open(struct xa_timeline *tl, struct tl_vcpu *v,
                             uint64_t tsc)
{
    if ( v->rs.open )
        rs_slice_emit(tl, v, tsc, true);
    if ( v->ex.open )
        exit_slice_emit(tl, v, tsc, true);
}

/* Ends v's written slices at tsc (clipped: by the window). */
static void vcpu_slices_end(struct xa_timeline *tl, struct tl_vcpu *v,
                            uint64_t tsc, bool clipped)
{
    struct ev e;

    /* Exits first: their track hangs below the thread's. */
    if ( slice_end_ev(tl, &v->ex, &e,
                      UUID(VKEY(v->dom, v->id, v->inc), T_EXITS), tsc) )
    {
        if ( clipped )
            ev_arg(tl, &e, A_CLIPPED, AT_BOOL, 1);
        emit(tl, &e);
    }
    if ( slice_end_ev(tl, &v->rs, &e,
                      UUID(VKEY(v->dom, v->id, v->inc), T_THREAD), tsc) )
    {
        if ( clipped )
            ev_arg(tl, &e, A_CLIPPED, AT_BOOL, 1);
        emit(tl, &e);
    }
}

static void vcpu_window_close(struct xa_timeline *tl, struct tl_vcpu *v,
                              uint64_t tsc)
{
    vcpu_slices_end(tl, v, tsc, true);
}

static void window_open(struct xa_timeline *tl, uint64_t tsc)
{
    unsigned int i;

    tl->in_window = true;
    for ( i = 0; i < tl->nr_pcpus; i++ )
        if ( tl->pcpus[i].s.open )
            pcpu_slice_emit(tl, i, tsc, true);
    for_each_vcpu(tl, vcpu_window_open, tsc);
}

/* Ends every written slice at tsc (the window's end, the trace's end). */
static void window_close(struct xa_timeline *tl, uint64_t tsc, bool clipped)
{
    unsigned int i;

    for_each_vcpu(tl, vcpu_window_close, tsc);
    for ( i = 0; i < tl->nr_pcpus; i++ )
    {
        struct ev e;

        if ( !slice_end_ev(tl, &tl->pcpus[i].s, &e, UUID(i, T_PCPU), tsc) )
            continue;
        if ( clipped )
            ev_arg(tl, &e, A_CLIPPED, AT_BOOL, 1);
        emit(tl, &e);
    }
    tl->in_window = false;
}

/* A domain's process is described when some vCPU of it was drawn. */
static void domain_done(struct xa_timeline *tl, unsigned int dom)
{
    struct tl_dom *d = &tl->doms[dom];
    unsigned int j;

    if ( !d->known || !d->selected || d->described )
        return;
    for ( j = 0; j < d->nr_vcpus; j++ )
        if ( d->vcpus[j] && d->vcpus[j]->described )
        {
            describe_domain(tl, dom);
            return;
        }
}

/* Observer callbacks */

/*
 * The id's domain ends (its vCPUs' slices, its process described) and a
 * new one begins under the id: a process and threads of its own.
 */
static void on_domain_reused(void *arg, unsigned int dom,
                             unsigned int incarnation, uint64_t tsc)
{
    struct xa_timeline *tl = arg;
    struct tl_dom *d = dom < XA_DOM_IDLE ? dom_get(tl, dom) : NULL;
    unsigned int j;

    if ( !d )
        return;
    for ( j = 0; j < d->nr_vcpus; j++ )
        if ( d->vcpus[j] )
            vcpu_slices_end(tl, d->vcpus[j], tsc, false);
    domain_done(tl, dom);
    for ( j = 0; j < d->nr_vcpus; j++ )
    {
        free(d->vcpus[j]);
        d->vcpus[j] = NULL;
    }
    d->described = false;
    d->kind = XA_VK_NONE;
    d->inc = incarnation;
    if ( tl->nr_reused < PID_REUSED_MAX )
        d->pid = PID_REUSED + (int)tl->nr_reused++;
    else
        d->selected = false;
}

static void on_vcpu_kind(void *arg, unsigned int dom, unsigned int vcpu,
                         enum xa_vcpu_kind kind)
{
    struct xa_timeline *tl = arg;
    struct tl_dom *d = dom < XA_DOM_IDLE ? dom_get(tl, dom) : NULL;

    (void)vcpu;
    if ( !d || d->kind )
        return;
    d->kind = (uint8_t)kind;
    if ( d->selected && tl->in_window )
        describe_domain(tl, dom);
}

static void on_runstate(void *arg, unsigned int dom, unsigned int vcpu,
                        enum xa_vcpu_rs old_rs, enum xa_vcpu_rs new_rs,
                        uint64_t tsc, uint64_t duration)
{
    struct xa_timeline *tl = arg;
    struct tl_vcpu *v = vcpu_get(tl, dom, vcpu);
    enum rs_name next;
    struct ev e;

    if ( !v )
        return;
    if ( slice_end_ev(tl, &v->rs, &e, thread_track(tl, v), tsc) )
    {
        /* As the summary: a known start, a state it reports. */
        if ( duration && old_rs <= XA_VRS_LOST )
            ev_arg(tl, &e, A_CYCLES, AT_UINT, duration);
        emit(tl, &e);
    }
    switch ( new_rs )
    {
    case XA_VRS_RUNNING:
        next = RSN_RUNNING;
        break;
    case XA_VRS_RUNNABLE:
        next = old_rs == XA_VRS_RUNNING ? RSN_RUNNABLE_PREEMPT
               : old_rs == XA_VRS_BLOCKED || old_rs == XA_VRS_OFFLINE
               ? RSN_RUNNABLE_WAKE : RSN_RUNNABLE_OTHER;
        break;
    case XA_VRS_BLOCKED:
        next = RSN_BLOCKED;
        break;
    case XA_VRS_OFFLINE:
        next = RSN_OFFLINE;
        break;
    case XA_VRS_LOST:
        next = RSN_LOST;
        break;
    case XA_VRS_QUEUED:
    case XA_VRS_INIT:
    default:
        next = RSN_NONE;
        break;
    }
    if ( next == RSN_NONE )
        return;
    slice_open(&v->rs, next, tsc, 0);
    if ( tl->in_window )
        rs_slice_emit(tl, v, tsc, false);
}

static void on_schedule(void *arg, unsigned int dom, unsigned int vcpu,
                        int old_pcpu, unsigned int pcpu, uint64_t tsc)
{
    struct xa_timeline *tl = arg;
    struct tl_vcpu *v = vcpu_get(tl, dom, vcpu);

    if ( v && old_pcpu >= 0 && (unsigned int)old_pcpu != pcpu &&
         tl->in_window )
    {
        struct ev e;

        ev_init(tl, &e, TYPE_INSTANT, thread_track(tl, v), tsc);
        e.name = fixed_name(tl, N_MIGRATE);
        ev_arg(tl, &e, A_FROM, AT_UINT, (unsigned int)old_pcpu);
        ev_arg(tl, &e, A_TO, AT_UINT, pcpu);
        emit(tl, &e);
    }
}

static void on_pcpu_run(void *arg, unsigned int pcpu, unsigned int dom,
                        unsigned int vcpu, uint64_t tsc)
{
    struct xa_timeline *tl = arg;
    struct tl_pcpu *p = pcpu_get(tl, pcpu);

    if ( !p )
        return;
    if ( dom != XA_DOM_IDLE && !vcpu_get(tl, dom, vcpu) )
    {
        /* Not shown (filtered out): the CPU's slice ends here. */
        if ( p->s.open )
            pcpu_slice_end(tl, pcpu, tsc, 0);
        return;
    }
    p->run_dom = dom;
    p->run_vcpu = vcpu;
    pcpu_slice_begin(tl, pcpu, (uint32_t)PS_RUN << 31 |
                     (uint32_t)VKEY(dom, vcpu, 0), tsc, 0);
}

static void on_pcpu_time(void *arg, unsigned int pcpu, uint64_t tsc,
                         uint64_t duration)
{
    struct xa_timeline *tl = arg;

    if ( pcpu < tl->nr_pcpus && tl->pcpus[pcpu].s.open &&
         tl->pcpus[pcpu].s.code >> 31 == PS_RUN )
        pcpu_slice_end(tl, pcpu, tsc, duration);
}

static void on_lost(void *arg, unsigned int pcpu, bool begin, uint64_t tsc,
                    uint64_t duration)
{
    struct xa_timeline *tl = arg;
    struct tl_pcpu *p = pcpu_get(tl, pcpu);

    if ( !p )
        return;
    if ( begin )
        pcpu_slice_begin(tl, pcpu, (uint32_t)PS_LOST << 31, tsc,
                         p->lost_count);
    else if ( p->s.open && p->s.code >> 31 == PS_LOST )
        pcpu_slice_end(tl, pcpu, tsc, duration);
}

static void on_wake(void *arg, unsigned int dom, unsigned int vcpu,
                    unsigned int pcpu, uint64_t tsc)
{
    struct xa_timeline *tl = arg;
    struct tl_vcpu *v = vcpu_get(tl, dom, vcpu);
    char name[48];
    struct ev e;

    if ( !v || !tl->in_window || !pcpu_get(tl, pcpu) )
        return;
    ev_init(tl, &e, TYPE_INSTANT, pcpu_track(tl, pcpu), tsc);
    if ( v->wake.gen != tl->gen || !v->wake.iid )
    {
        memcpy(name, "wake ", 5);
        vcpu_label(tl, name + 5, sizeof(name) - 5, dom, vcpu);
        cached(tl, &v->wake, NS_EVENT, name);
    }
    e.name = v->wake.iid;
    e.flow = v->flow = ++tl->flow_seq;
    emit(tl, &e);
}

static void on_exit_open(void *arg, unsigned int dom, unsigned int vcpu,
                         uint32_t code, uint64_t tsc, uint64_t rip)
{
    struct xa_timeline *tl = arg;
    struct tl_vcpu *v = vcpu_get(tl, dom, vcpu);
    struct ev e;

    if ( !v )
        return;
    if ( slice_end_ev(tl, &v->ex, &e, exits_track(tl, v), tsc) )
    {
        ev_arg(tl, &e, A_DISCARDED, AT_BOOL, 1);
        emit(tl, &e);
    }
    slice_open(&v->ex, code, tsc, rip);
    if ( tl->in_window )
        exit_slice_emit(tl, v, tsc, false);
}

static void on_exit_closed(void *arg, unsigned int dom, unsigned int vcpu,
                           uint32_t code, uint8_t sub_kind, uint64_t sub_val,
                           uint64_t exit_tsc, uint64_t tsc, uint64_t rip)
{
    struct xa_timeline *tl = arg;
    struct tl_vcpu *v = vcpu_get(tl, dom, vcpu);
    struct ev e;

    (void)code;
    (void)rip;
    if ( !v || !slice_end_ev(tl, &v->ex, &e, exits_track(tl, v), tsc) )
        return;
    ev_arg(tl, &e, A_CYCLES, AT_UINT, tsc >= exit_tsc ? tsc - exit_tsc : 0);
    if ( sub_kind )
    {
        uint64_t h = (sub_val ^ (uint64_t)sub_kind << 56) *
                     0x9e3779b97f4a7c15ull;
        struct key_slot *k = &tl->keys[h >> 52 & (KEY_CACHE - 1)];

        /* Keys repeat: formatted and looked up once per value. */
        if ( k->c.gen != tl->gen || !k->c.iid || k->kind != sub_kind ||
             k->val != sub_val )
        {
            char key[64];

            xa_sub_key_format(sub_kind, sub_val, key, sizeof(key),
                              &k->label);
            k->c.iid = 0;
            cached(tl, &k->c, NS_STRING, key);
            k->kind = sub_kind;
            k->val = sub_val;
        }
        ev_arg(tl, &e, A_KEY, AT_STRING, k->c.iid);
        if ( k->label )
            ev_arg_str(tl, &e, A_KEY_NAME, k->label);
    }
    emit(tl, &e);
    tl->st.exits++;
}

static void on_exit_discarded(void *arg, unsigned int dom, unsigned int vcpu,
                              uint64_t tsc)
{
    struct xa_timeline *tl = arg;
    struct tl_vcpu *v = vcpu_get(tl, dom, vcpu);
    struct ev e;

    if ( !v || !slice_end_ev(tl, &v->ex, &e, exits_track(tl, v), tsc) )
        return;
    ev_arg(tl, &e, A_DISCARDED, AT_BOOL, 1);
    emit(tl, &e);
}

static void on_guest_irq(void *arg, unsigned int dom, unsigned int vcpu,
                         unsigned int vector, uint64_t tsc)
{
    struct xa_timeline *tl = arg;
    struct tl_vcpu *v = vcpu_get(tl, dom, vcpu);
    char name[24];
    struct ev e;

    if ( !v || !tl->in_window )
        return;
    ev_init(tl, &e, TYPE_INSTANT, exits_track(tl, v), tsc);
    snprintf(name, sizeof(name), "inject 0x%02x", vector & 0xff);
    e.name = cached(tl, &tl->inject[vector & 0xff], NS_EVENT, name);
    ev_arg(tl, &e, A_VECTOR, AT_UINT, vector);
    emit(tl, &e);
}

/* An anomaly as an instant on the CPU's track, at the current record. */
static void anomaly_at(struct xa_timeline *tl, enum xa_diag_kind kind,
                       unsigned int pcpu, uint64_t tsc)
{
    char name[64];
    struct ev e;

    if ( !tl->in_window || (unsigned int)kind >= XA_DIAG_NR ||
         !pcpu_get(tl, pcpu) )
        return;
    ev_init(tl, &e, TYPE_INSTANT, pcpu_track(tl, pcpu), tsc);
    snprintf(name, sizeof(name), "anomaly: %s", xa_diag_name(kind));
    e.name = cached(tl, &tl->anomaly[kind], NS_EVENT, name);
    ev_arg(tl, &e, A_DESC, AT_STRING,
           cached(tl, &tl->anomaly_desc[kind], NS_STRING,
                  xa_diag_desc(kind)));
    emit(tl, &e);
}

static void on_anomaly(void *arg, enum xa_diag_kind kind, unsigned int pcpu)
{
    struct xa_timeline *tl = arg;

    anomaly_at(tl, kind, pcpu, tl->max_tsc);
}

void xa_timeline_observer(struct xa_timeline *tl,
                          struct xa_model_observer *obs)
{
    memset(obs, 0, sizeof(*obs));
    obs->arg = tl;
    obs->runstate = on_runstate;
    obs->schedule = on_schedule;
    obs->exit_open = on_exit_open;
    obs->exit_closed = on_exit_closed;
    obs->guest_irq = on_guest_irq;
    obs->vcpu_kind = on_vcpu_kind;
    obs->wake = on_wake;
    obs->pcpu_run = on_pcpu_run;
    obs->pcpu_time = on_pcpu_time;
    obs->lost = on_lost;
    obs->exit_discarded = on_exit_discarded;
    obs->anomaly = on_anomaly;
    obs->domain_reused = on_domain_reused;
}

/* Records */

/* credit2.c: update_runq_load(), { u64 avg, b_avg; load:16, id:8, shift:8 } */
#define CSCHED2_RQ_LOAD (XA_TRC_SCHED_CLASS + (1u << 9) + 12)

static void credit2_load(struct xa_timeline *tl, const struct xa_record *rec)
{
    uint32_t w = rec->extra[4], rq = (w >> 16) & 0xff, shift = w >> 24;
    uint64_t avg = rec->extra[0] | ((uint64_t)rec->extra[1] << 32);
    unsigned int k;

    for ( k = 0; k < 2; k++ )
    {
        uint64_t uuid = UUID(rq << 1 | k, T_COUNTER);
        struct ev e;

        if ( k && (shift == 0 || shift >= 64) )
            break;
        if ( !tl->c2[rq][k].described )
        {
            char name[48];
            struct desc d = { .uuid = uuid, .name = name, .counter = true,
                              .unit = k ? "%" : "vCPUs",
                              .rank = (int)(rq * 2 + k) };

            d.parent = group_track(tl, GROUP_CREDIT2);
            snprintf(name, sizeof(name), k ? "credit2 rq%u avgload"
                                           : "credit2 rq%u load", rq);
            tl->c2[rq][k].described = true;
            describe(tl, &d);
        }
        ev_init(tl, &e, TYPE_COUNTER, uuid, rec->tsc);
        e.counter = true;
        if ( k )
        {
            e.dbl = true;
            e.dv = (double)avg * 100.0 / (double)(1ull << shift);
        }
        else
            e.cv = w & 0xffff;
        emit(tl, &e);
    }
}

void xa_timeline_record(struct xa_timeline *tl, const struct xa_record *rec,
                        const struct xa_model *m)
{
    struct tl_pcpu *p;

    if ( !tl->fmt && m )
        tl->fmt = xa_model_fmt_ctx(m);
    if ( rec->event == XA_EV_CPU_END || !rec->has_tsc )
        return;
    if ( !tl->have_t0 )
    {
        tl->have_t0 = true;
        tl->t0 = rec->tsc;
        tl->lo = rec->tsc;
        tl->hi = UINT64_MAX;
        if ( tl->o.filter )
            xa_filter_tsc_window(tl->o.filter, rec->tsc, tl->o.hz, &tl->lo,
                                 &tl->hi);
        tl->last_ns = tl_ns(tl, tl->lo);
    }
    if ( rec->tsc > tl->max_tsc )
        tl->max_tsc = rec->tsc;
    if ( !tl->in_window && !tl->window_done && rec->tsc >= tl->lo &&
         rec->tsc < tl->hi )
        window_open(tl, tl->lo);
    if ( tl->in_window && rec->tsc >= tl->hi )
    {
        window_close(tl, tl->hi, true);
        tl->window_done = true;
    }
    if ( !(p = pcpu_get(tl, rec->cpu)) )
        return;
    if ( p->seen && rec->tsc < p->last_tsc )
        anomaly_at(tl, XA_DIAG_TSC_BACKWARDS, rec->cpu, rec->tsc);
    p->seen = true;
    p->last_tsc = rec->tsc;
    if ( rec->event == XA_TRC_LOST_RECORDS )
        p->lost_count = rec->nr_extra ? rec->extra[0] : 0;
    else if ( rec->event == CSCHED2_RQ_LOAD && rec->nr_extra >= 5 &&
              tl->in_window )
        credit2_load(tl, rec);
}

int xa_timeline_finish(struct xa_timeline *tl)
{
    unsigned int i;

    if ( tl->in_window )
        window_close(tl, tl->max_tsc, false);
    for ( i = 0; i < tl->nr_doms; i++ )
        domain_done(tl, i);
    return tl->out->error;
}

const struct xa_timeline_stats *xa_timeline_stats(const struct xa_timeline *tl)
{
    return &tl->st;
}

int xa_timeline_new(const struct xa_timeline_opts *o, struct xa_out *out,
                    struct xa_timeline **res)
{
    struct xa_timeline *tl;

    if ( !o->hz )
        return XA_E_INVAL;
    tl = calloc(1, sizeof(*tl));
    if ( !tl )
        return XA_E_NOMEM;
    tl->slots = calloc(INTERN_SLOTS, sizeof(*tl->slots));
    tl->arena = malloc(ARENA_MAX);
    tl->keys = calloc(KEY_CACHE, sizeof(*tl->keys));
    if ( !tl->slots || !tl->arena || !tl->keys )
    {
        xa_timeline_free(tl);
        return XA_E_NOMEM;
    }
    tl->o = *o;
    tl->out = out;
    pb_init(&tl->pb, out);
    tl->gen = 1;
    tl->cleared = true;
    *res = tl;
    return XA_OK;
}

void xa_timeline_free(struct xa_timeline *tl)
{
    unsigned int i, j;

    if ( !tl )
        return;
    for ( i = 0; i < tl->nr_doms; i++ )
    {
        for ( j = 0; j < tl->doms[i].nr_vcpus; j++ )
            free(tl->doms[i].vcpus[j]);
        free(tl->doms[i].vcpus);
    }
    free(tl->doms);
    free(tl->pcpus);
    free(tl->slots);
    free(tl->arena);
    free(tl->keys);
    free(tl);
}
