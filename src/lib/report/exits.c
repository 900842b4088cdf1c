/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Per-exit rows (exits.h).  A row is numbers formatted by hand around two
 * text segments, the reason's and the breakdown key's, each formatted
 * once per distinct value into a small direct-mapped cache: no
 * allocation and no printf per row.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xenalyze/clock.h>
#include <xenalyze/exits.h>

#define HEADER "time_ns,pcpu,domain,vcpu,arch,reason,reason_name,key," \
               "key_name,rip,cycles,ns,closed_by,incarnation"
#define RS_HEADER "time_ns,domain,vcpu,state,runnable,cycles,ns,incarnation"

/* A row held until the clock rate is known. */
struct pending {
    bool rs;
    union {
        struct xa_exit_event ex;
        struct xa_runstate_event rs;
    } u;
};

/* A formatted segment; longer ones are formatted every time. */
#define SEG_MAX 200

struct seg {
    bool valid;
    uint64_t tag_a, tag_b;
    uint16_t len;
    char s[SEG_MAX];
};

#define REASON_CACHE 64
#define KEY_CACHE 1024
/* Rows held while the clock rate is not known (no --cpu-hz, from a pipe). */
#define PENDING_MAX 4096

struct xa_exits {
    struct xa_exits_opts o;
    struct xa_out *out;
    uint64_t hz;                    /* 0: not known yet */
    struct pending *pending;        /* PENDING_MAX, while hz is 0 */
    unsigned int nr_pending;
    struct xa_out scratch;          /* in memory: a segment being made */
    uint64_t rows;
    struct seg reasons[REASON_CACHE];
    struct seg keys[KEY_CACHE];
};

const char *xa_exits_header(void)
{
    return HEADER;
}

int xa_exits_new(const struct xa_exits_opts *o, struct xa_out *out,
                 struct xa_exits **ex)
{
    struct xa_exits *e = calloc(1, sizeof(*e));

    if ( !e )
        return XA_E_NOMEM;
    e->o = *o;
    e->out = out;
    e->hz = o->hz;
    if ( !e->hz &&
         !(e->pending = malloc(PENDING_MAX * sizeof(*e->pending))) )
    {
        free(e);
        return XA_E_NOMEM;
    }
    xa_out_init(&e->scratch, -1);
    if ( e->o.format == XA_EXITS_CSV )
        xa_out_str(out, o->rows == XA_ROWS_RUNSTATES ? RS_HEADER "\n"
                                                     : HEADER "\n");
    *ex = e;
    return XA_OK;
}

void xa_exits_free(struct xa_exits *ex)
{
    if ( !ex )
        return;
    xa_out_dispose(&ex->scratch);
    free(ex->pending);
    free(ex);
}

uint64_t xa_exits_rows(const struct xa_exits *ex)
{
    return ex->rows;
}

/* A text field after its name (JSON) or as a CSV field, then a comma. */
static void text_field(const struct xa_exits *ex, struct xa_out *o,
                       const char *name, const char *s)
{
    if ( ex->o.format == XA_EXITS_JSONL )
    {
        xa_out_char(o, '"');
        xa_out_str(o, name);
        xa_out_str(o, "\":");
        xa_out_json_str(o, s);
    }
    else
        xa_out_csv_str(o, s);
    xa_out_char(o, ',');
}

/* A number after its name (JSON) or alone, then a comma (none: last). */
static void num_field(const struct xa_exits *ex, struct xa_out *o,
                      const char *name, uint64_t v)
{
    if ( ex->o.format == XA_EXITS_JSONL )
    {
        xa_out_char(o, '"');
        xa_out_str(o, name);
        xa_out_str(o, "\":");
    }
    xa_out_u64(o, v);
    xa_out_char(o, ',');
}

static const char *arch_name(const struct xa_exit_event *ev)
{
    if ( ev->kind == XA_VK_ARM )
        return "arm";
    if ( ev->kind == XA_VK_HVM )
        return ev->hvm_mode == XA_HVM_SVM ? "svm" : "vmx";
    return "unknown";
}

/* "arch,reason,reason_name," */
static void reason_seg(struct xa_exits *ex, const struct xa_exit_event *ev,
                       struct xa_out *o)
{
    const char *name = xa_exit_name(ev->kind, ev->hvm_mode, ev->code);
    char buf[32];

    if ( !name )
    {
        snprintf(buf, sizeof(buf), "UNKNOWN(0x%x)", ev->code);
        name = buf;
    }
    text_field(ex, o, "arch", arch_name(ev));
    num_field(ex, o, "reason", ev->code);
    text_field(ex, o, "reason_name", name);
}

/* "key,key_name," */
static void key_seg(struct xa_exits *ex, const struct xa_exit_event *ev,
                    struct xa_out *o)
{
    char key[64] = "";
    const char *label = NULL;

    if ( ev->sub_kind )
        xa_sub_key_format(ev->sub_kind, ev->sub_val, key, sizeof(key),
                          &label);
    text_field(ex, o, "key", key);
    text_field(ex, o, "key_name", label ? label : "");
}

/* Nanoseconds in ticks at hz, rounded down: two 64-bit divisions. */
static uint64_t ns_of(uint64_t d, uint64_t hz)
{
    return d / hz * 1000000000u + d % hz * 1000000000u / hz;
}

typedef void seg_fn(struct xa_exits *ex, const struct xa_exit_event *ev,
                    struct xa_out *o);

/* Writes a segment from the cache, formatting it on a miss. */
static void put_seg(struct xa_exits *ex, struct seg *s, uint64_t a,
                    uint64_t b, seg_fn *fn, const struct xa_exit_event *ev)
{
    if ( !s->valid || s->tag_a != a || s->tag_b != b )
    {
        ex->scratch.len = 0;
        fn(ex, ev, &ex->scratch);
        if ( ex->scratch.error || ex->scratch.len > SEG_MAX )
        {
            fn(ex, ev, ex->out);
            s->valid = false;
            return;
        }
        memcpy(s->s, ex->scratch.buf, ex->scratch.len);
        s->len = (uint16_t)ex->scratch.len;
        s->tag_a = a;
        s->tag_b = b;
        s->valid = true;
    }
    xa_out_mem(ex->out, s->s, s->len);
}

/* "time_ns": trace-relative, exact as the dump's; negative before 0. */
static void time_field(struct xa_exits *ex, uint64_t tsc, uint64_t first)
{
    struct xa_out *o = ex->out;
    uint64_t d;

    if ( ex->o.format == XA_EXITS_JSONL )
        xa_out_str(o, "{\"time_ns\":");
    if ( tsc >= first )
        d = tsc - first;
    else
    {
        d = first - tsc;
        xa_out_char(o, '-');
    }
    xa_out_u64(o, ns_of(d, ex->hz));
    xa_out_char(o, ',');
}

/* The domain's incarnation (1, 2, ... as its id is reused), the row's end. */
static void incarnation_end(struct xa_exits *ex, unsigned int incarnation)
{
    struct xa_out *o = ex->out;

    if ( ex->o.format == XA_EXITS_JSONL )
        xa_out_str(o, "\"incarnation\":");
    xa_out_u64(o, incarnation + 1u);
    xa_out_str(o, ex->o.format == XA_EXITS_JSONL ? "}\n" : "\n");
    ex->rows++;
    xa_out_maybe_flush(o);
}

static const char *const runnable_names[] = {
    [XA_RS_RUNNABLE_WAKE] = "wake",
    [XA_RS_RUNNABLE_PREEMPT] = "preempt",
    [XA_RS_RUNNABLE_OTHER] = "other",
};

static void write_rs_row(struct xa_exits *ex,
                         const struct xa_runstate_event *ev)
{
    struct xa_out *o = ex->out;

    time_field(ex, ev->start_tsc, ev->first_tsc);
    num_field(ex, o, "domain", ev->dom);
    num_field(ex, o, "vcpu", ev->vcpu);
    text_field(ex, o, "state", xa_rs_name(ev->state));
    text_field(ex, o, "runnable",
               ev->runnable >= XA_RS_RUNNABLE_WAKE &&
               ev->runnable <= XA_RS_RUNNABLE_OTHER
               ? runnable_names[ev->runnable] : "");
    num_field(ex, o, "cycles", ev->cycles);
    num_field(ex, o, "ns", ns_of(ev->cycles, ex->hz));
    incarnation_end(ex, ev->incarnation);
}

static void write_row(struct xa_exits *ex, const struct xa_exit_event *ev)
{
    struct xa_out *o = ex->out;
    uint64_t hz = ex->hz, ta, tk;
    bool json = ex->o.format == XA_EXITS_JSONL;

    time_field(ex, ev->exit_tsc, ev->first_tsc);
    num_field(ex, o, "pcpu", ev->pcpu);
    num_field(ex, o, "domain", ev->dom);
    num_field(ex, o, "vcpu", ev->vcpu);
    ta = (uint64_t)ev->kind << 40 | (uint64_t)ev->hvm_mode << 32 | ev->code;
    put_seg(ex, &ex->reasons[(ta * 0x9e3779b97f4a7c15ull) >> 58], ta, 0,
            reason_seg, ev);
    tk = ev->sub_kind ? ev->sub_val : 0;
    put_seg(ex, &ex->keys[((tk ^ (uint64_t)ev->sub_kind << 56) *
                           0x9e3779b97f4a7c15ull) >> 54],
            ev->sub_kind, tk, key_seg, ev);
    xa_out_str(o, json ? "\"rip\":\"0x" : "0x");
    xa_out_hex(o, ev->rip);
    xa_out_str(o, json ? "\"," : ",");
    num_field(ex, o, "cycles", ev->cycles);
    num_field(ex, o, "ns", ns_of(ev->cycles, hz));
    if ( json )
        xa_out_str(o, "\"closed_by\":\"");
    xa_out_str(o, ev->closed_by == XA_CLOSED_BY_RUNNABLE ? "runnable"
                                                         : "entry");
    xa_out_str(o, json ? "\"," : ",");
    incarnation_end(ex, ev->incarnation);
}

/* The rate is known (or will never be): the rows held, then as they come. */
static void settle(struct xa_exits *ex, uint64_t hz, enum xa_hvm_mode mode)
{
    unsigned int i;

    ex->hz = hz;
    for ( i = 0; i < ex->nr_pending; i++ )
    {
        if ( ex->pending[i].rs )
        {
            write_rs_row(ex, &ex->pending[i].u.rs);
            continue;
        }
        /* x86: the VMX/SVM decision as it stands now. */
        ex->pending[i].u.ex.hvm_mode = mode;
        write_row(ex, &ex->pending[i].u.ex);
    }
    ex->nr_pending = 0;
}

static void on_exit_done(void *arg, const struct xa_exit_event *ev)
{
    struct xa_exits *ex = arg;

    if ( !ev->counted ||
         (ex->o.filter && !xa_filter_vcpu(ex->o.filter, ev->dom, ev->vcpu)) )
        return;
    if ( __builtin_expect(!ex->hz, 0) )
    {
        if ( ev->trace_hz >= XA_HZ_MIN && ev->trace_hz <= XA_HZ_MAX )
            settle(ex, ev->trace_hz, ev->hvm_mode);
        else if ( ex->nr_pending == PENDING_MAX )
            settle(ex, XA_HZ_DEFAULT, ev->hvm_mode);
        else
        {
            ex->pending[ex->nr_pending].rs = false;
            ex->pending[ex->nr_pending++].u.ex = *ev;
            return;
        }
    }
    write_row(ex, ev);
}

static void on_runstate_done(void *arg, const struct xa_runstate_event *ev)
{
    struct xa_exits *ex = arg;

    if ( ex->o.filter && !xa_filter_vcpu(ex->o.filter, ev->dom, ev->vcpu) )
        return;
    if ( __builtin_expect(!ex->hz, 0) )
    {
        if ( ev->trace_hz >= XA_HZ_MIN && ev->trace_hz <= XA_HZ_MAX )
            settle(ex, ev->trace_hz, XA_HVM_VMX);
        else if ( ex->nr_pending == PENDING_MAX )
            settle(ex, XA_HZ_DEFAULT, XA_HVM_VMX);
        else
        {
            ex->pending[ex->nr_pending].rs = true;
            ex->pending[ex->nr_pending++].u.rs = *ev;
            return;
        }
    }
    write_rs_row(ex, ev);
}

int xa_exits_finish(struct xa_exits *ex, uint64_t trace_hz)
{
    if ( !ex->hz )
        settle(ex, trace_hz >= XA_HZ_MIN && trace_hz <= XA_HZ_MAX
                   ? trace_hz : XA_HZ_DEFAULT,
               ex->nr_pending && !ex->pending[ex->nr_pending - 1].rs
               ? ex->pending[ex->nr_pending - 1].u.ex.hvm_mode : XA_HVM_VMX);
    return ex->out->error;
}

void xa_exits_observer(struct xa_exits *ex, struct xa_model_observer *obs)
{
    memset(obs, 0, sizeof(*obs));
    obs->arg = ex;
    if ( ex->o.rows == XA_ROWS_RUNSTATES )
        obs->runstate_done = on_runstate_done;
    else
        obs->exit_done = on_exit_done;
}
