/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --slowest (slowest.h).  Each pCPU keeps a ring of its latest records
 * (with the vCPU running there and how to name exits); when an exit
 * closes and is among the longest so far, the records of its interval
 * are copied out of the rings: all of its pCPU's, and the other pCPUs'
 * scheduling records.  An exit longer than its pCPU's ring keeps the
 * latest records and says how many are gone.  The interval is the
 * records fed from the exit's record to the one that closed it, within
 * the exit's TSCs, in the order they were fed: a file's second pass
 * (xa_slowest_refill()) then takes the same records as the rings even
 * where damaged TSCs put records out of time order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xenalyze/clock.h>
#include <xenalyze/merge.h>
#include <xenalyze/slowest.h>
#include <xenalyze/trace.h>

struct rrec {
    struct xa_record rec;
    uint64_t seq;                   /* its place among the records fed */
    uint32_t current;               /* dom << 16 | vcpu, XA_DUMP_NO_VCPU */
    uint8_t hvm_mode;
};

struct ring {
    struct rrec *r;
    uint64_t head;                  /* records ever pushed */
};

struct entry {
    unsigned int dom, vcpu, pcpu;
    uint32_t code;
    uint8_t sub_kind;
    uint64_t sub_val, exit_tsc, tsc;
    uint64_t open_seq, close_seq;   /* the exit's and the closing record */
    struct rrec *recs;
    unsigned int nr;
    uint64_t missing;               /* records of the interval not kept */
    uint64_t cut;                   /* records beyond max_records */
};

#define OPEN_HASH 4096

struct xa_slowest {
    struct xa_slowest_opts o;
    bool refill;                    /* the second pass over a file */
    uint64_t seq;                   /* records fed in this pass */
    struct ring *rings;
    unsigned int nr_rings;
    struct entry *top;              /* unordered; n (per reason) at most */
    unsigned int nr_top, cap_top;
    /* Where each vCPU's open exit began: dom << 16 | vcpu -> pCPU. */
    uint32_t open_key[OPEN_HASH];
    uint16_t open_cpu[OPEN_HASH];
    uint64_t open_seq[OPEN_HASH];
    const struct xa_record *cur;    /* the record being fed */
    const struct xa_model *m;
    uint64_t first_tsc;             /* time 0, for the filter's window */
};

int xa_slowest_new(const struct xa_slowest_opts *o, struct xa_slowest **out)
{
    struct xa_slowest *s = calloc(1, sizeof(*s));

    if ( !s )
        return XA_E_NOMEM;
    s->o = *o;
    if ( !s->o.ring )
        s->o.ring = 4096;
    if ( !s->o.max_records )
        s->o.max_records = 200;
    memset(s->open_key, 0xff, sizeof(s->open_key));
    *out = s;
    return XA_OK;
}

void xa_slowest_free(struct xa_slowest *s)
{
    unsigned int i;

    if ( !s )
        return;
    for ( i = 0; i < s->nr_rings; i++ )
        free(s->rings[i].r);
    free(s->rings);
    for ( i = 0; i < s->nr_top; i++ )
        free(s->top[i].recs);
    free(s->top);
    free(s);
}

static bool is_sched(uint32_t ev)
{
    return XA_TRC_MAIN(ev) == (XA_TRC_SCHED >> 16);
}

static unsigned int open_slot(uint32_t key)
{
    return (key * 2654435761u) >> 20 & (OPEN_HASH - 1);
}

static void on_exit_open(void *arg, unsigned int dom, unsigned int vcpu,
                         uint32_t code, uint64_t tsc, uint64_t rip)
{
    struct xa_slowest *s = arg;
    uint32_t key = dom << 16 | (vcpu & 0xffff);
    unsigned int h = open_slot(key);

    (void)code, (void)tsc, (void)rip;
    if ( !s->cur || s->refill )
        return;
    s->open_key[h] = key;
    s->open_cpu[h] = s->cur->cpu;
    s->open_seq[h] = s->seq;
}

/* The index of the entry to replace, or -1 if d does not enter the top. */
static int slot_for(struct xa_slowest *s, uint32_t code, uint64_t d)
{
    unsigned int i, n = 0;
    int min = -1;

    for ( i = 0; i < s->nr_top; i++ )
    {
        const struct entry *e = &s->top[i];

        if ( s->o.per_reason && e->code != code )
            continue;
        n++;
        if ( min < 0 || e->tsc - e->exit_tsc <
                        s->top[min].tsc - s->top[min].exit_tsc )
            min = (int)i;
    }
    if ( n < s->o.n )
    {
        if ( s->nr_top == s->cap_top )
        {
            unsigned int cap = s->cap_top ? s->cap_top * 2 : 16;
            struct entry *t = realloc(s->top, cap * sizeof(*t));

            if ( !t )
                return -1;
            s->top = t;
            s->cap_top = cap;
        }
        memset(&s->top[s->nr_top], 0, sizeof(s->top[0]));
        return (int)s->nr_top++;
    }
    if ( min >= 0 && d > s->top[min].tsc - s->top[min].exit_tsc )
        return min;
    return -1;
}

/* Whether a record fed at seq belongs to e's interval by place and time. */
static inline bool in_interval(const struct entry *e, uint64_t seq,
                               uint64_t tsc)
{
    return seq >= e->open_seq && seq <= e->close_seq &&
           tsc >= e->exit_tsc && tsc <= e->tsc;
}

/* Copies the interval's records out of the rings, in the order fed. */
static void capture(struct xa_slowest *s, struct entry *e)
{
    unsigned int i, cap = s->o.max_records, n = 0;
    uint64_t total = 0;
    struct rrec *out = malloc(cap * sizeof(*out));
    uint64_t *pos;

    free(e->recs);
    e->recs = NULL;
    e->nr = 0;
    e->missing = e->cut = 0;
    pos = calloc(s->nr_rings ? s->nr_rings : 1, sizeof(*pos));
    if ( !out || !pos )
    {
        free(out);
        free(pos);
        return;
    }
    /* Each ring from its oldest record still in the interval. */
    for ( i = 0; i < s->nr_rings; i++ )
    {
        const struct ring *r = &s->rings[i];
        uint64_t first = r->head > s->o.ring ? r->head - s->o.ring : 0;
        uint64_t j = r->head;

        while ( j > first && r->r[(j - 1) % s->o.ring].seq >= e->open_seq )
            j--;
        pos[i] = j;
        if ( i == e->pcpu && j == first && first > 0 )
            e->missing = 1;     /* older records were overwritten */
    }
    /* Merge the rings in the order fed: the pCPU's, others' scheduling. */
    for ( ;; )
    {
        int best = -1;
        const struct rrec *b = NULL;

        for ( i = 0; i < s->nr_rings; i++ )
        {
            const struct ring *r = &s->rings[i];
            const struct rrec *x;

            for ( ; pos[i] < r->head; pos[i]++ )
            {
                x = &r->r[pos[i] % s->o.ring];
                if ( in_interval(e, x->seq, x->rec.tsc) &&
                     (i == e->pcpu || is_sched(x->rec.event)) )
                    break;
            }
            if ( pos[i] < r->head &&
                 (!b || r->r[pos[i] % s->o.ring].seq < b->seq) )
            {
                best = (int)i;
                b = &r->r[pos[i] % s->o.ring];
            }
        }
        if ( best < 0 )
            break;
        pos[best]++;
        total++;
        if ( n < cap )
            out[n++] = *b;
        else
        {
            /* Keep the first half and the latest half. */
            memmove(&out[cap / 2], &out[cap / 2 + 1],
                    (cap - cap / 2 - 1) * sizeof(*out));
            out[cap - 1] = *b;
            e->cut++;
        }
    }
    free(pos);
    e->recs = out;
    e->nr = n;
}

static void on_exit_closed(void *arg, unsigned int dom, unsigned int vcpu,
                           uint32_t code, uint8_t sub_kind, uint64_t sub_val,
                           uint64_t exit_tsc, uint64_t tsc, uint64_t rip)
{
    struct xa_slowest *s = arg;
    uint32_t key = dom << 16 | (vcpu & 0xffff);
    unsigned int h = open_slot(key);
    struct entry *e;
    int i;

    (void)rip;
    if ( tsc < exit_tsc || !s->o.n || s->refill )
        return;
    if ( s->o.filter )
    {
        uint64_t hz = s->o.hz ? s->o.hz : s->m ? xa_model_trace_hz(s->m) : 0;
        uint64_t lo, hi;

        if ( hz < XA_HZ_MIN || hz > XA_HZ_MAX )
            hz = XA_HZ_DEFAULT;
        xa_filter_tsc_window(s->o.filter, s->first_tsc, hz, &lo, &hi);
        if ( exit_tsc < lo || exit_tsc >= hi ||
             !xa_filter_vcpu(s->o.filter, dom, vcpu) )
            return;
    }
    i = slot_for(s, code, tsc - exit_tsc);
    if ( i < 0 )
        return;
    e = &s->top[i];
    e->dom = dom;
    e->vcpu = vcpu;
    e->pcpu = s->open_key[h] == key ? s->open_cpu[h]
                                    : (s->cur ? s->cur->cpu : 0);
    /* An exit whose record was not seen: from the oldest records kept. */
    e->open_seq = s->open_key[h] == key ? s->open_seq[h] : 0;
    e->close_seq = s->seq;
    e->code = code;
    e->sub_kind = sub_kind;
    e->sub_val = sub_val;
    e->exit_tsc = exit_tsc;
    e->tsc = tsc;
    capture(s, e);
}

void xa_slowest_observer(struct xa_slowest *s, struct xa_model_observer *obs)
{
    memset(obs, 0, sizeof(*obs));
    obs->arg = s;
    obs->exit_open = on_exit_open;
    obs->exit_closed = on_exit_closed;
}

bool xa_slowest_incomplete(const struct xa_slowest *s)
{
    unsigned int i;

    for ( i = 0; i < s->nr_top; i++ )
        if ( s->top[i].missing )
            return true;
    return false;
}

void xa_slowest_refill(struct xa_slowest *s)
{
    unsigned int i;

    s->refill = true;
    s->seq = 0;
    for ( i = 0; i < s->nr_top; i++ )
    {
        s->top[i].nr = 0;
        s->top[i].cut = 0;
        s->top[i].missing = 0;
    }
}

/* Second pass: the record goes to every interval that wants it. */
static void refill_record(struct xa_slowest *s, const struct xa_record *rec,
                          uint32_t current, uint8_t hvm_mode)
{
    unsigned int i, cap = s->o.max_records;

    for ( i = 0; i < s->nr_top; i++ )
    {
        struct entry *e = &s->top[i];
        struct rrec *x;

        if ( !in_interval(e, s->seq, rec->tsc) || !e->recs ||
             (rec->cpu != e->pcpu && !is_sched(rec->event)) )
            continue;
        if ( e->nr < cap )
            x = &e->recs[e->nr++];
        else
        {
            memmove(&e->recs[cap / 2], &e->recs[cap / 2 + 1],
                    (cap - cap / 2 - 1) * sizeof(*e->recs));
            x = &e->recs[cap - 1];
            e->cut++;
        }
        x->rec = *rec;
        x->current = current;
        x->hvm_mode = hvm_mode;
    }
}

void xa_slowest_record(struct xa_slowest *s, const struct xa_record *rec,
                       const struct xa_model *m)
{
    struct ring *r;
    struct rrec *x;
    unsigned int dom, vcpu;

    s->cur = rec;
    s->m = m;
    if ( rec->event == XA_EV_CPU_END )
        return;
    if ( !s->first_tsc && rec->has_tsc )
        s->first_tsc = rec->tsc;
    s->seq++;
    if ( s->refill )
    {
        refill_record(s, rec, xa_model_pcpu_current(m, rec->cpu, &dom, &vcpu)
                              ? dom << 16 | vcpu : XA_DUMP_NO_VCPU,
                      (uint8_t)xa_model_fmt_ctx(m)->hvm_mode);
        return;
    }
    if ( rec->cpu >= s->nr_rings )
    {
        unsigned int n = rec->cpu + 1u;
        struct ring *t = realloc(s->rings, n * sizeof(*t));

        if ( !t )
            return;
        memset(&t[s->nr_rings], 0, (n - s->nr_rings) * sizeof(*t));
        s->rings = t;
        s->nr_rings = n;
    }
    r = &s->rings[rec->cpu];
    if ( !r->r && !(r->r = malloc(s->o.ring * sizeof(*r->r))) )
        return;
    x = &r->r[r->head++ % s->o.ring];
    x->rec = *rec;
    x->seq = s->seq;
    x->current = xa_model_pcpu_current(m, rec->cpu, &dom, &vcpu)
                 ? dom << 16 | vcpu : XA_DUMP_NO_VCPU;
    x->hvm_mode = (uint8_t)xa_model_fmt_ctx(m)->hvm_mode;
}

static const char *reason_of(const struct xa_summary *sum, unsigned int dom,
                             unsigned int vcpu, uint32_t code)
{
    unsigned int i, j, k;

    for ( i = 0; sum && i < sum->nr_domains; i++ )
        for ( j = 0; sum->domains[i].id == dom && j <
                     sum->domains[i].nr_vcpus; j++ )
        {
            const struct xa_sum_vcpu *v = &sum->domains[i].vcpus[j];

            for ( k = 0; v->id == vcpu && k < v->nr_exits; k++ )
                if ( v->exits[k].code == code )
                    return v->exits[k].reason;
        }
    return NULL;
}

static int cmp_entry(const void *a, const void *b)
{
    const struct entry *x = a, *y = b;
    uint64_t dx = x->tsc - x->exit_tsc, dy = y->tsc - y->exit_tsc;

    if ( dx != dy )
        return dx > dy ? -1 : 1;
    return x->exit_tsc < y->exit_tsc ? -1 : x->exit_tsc > y->exit_tsc;
}

void xa_slowest_render(const struct xa_slowest *s, struct xa_dump *d,
                       const struct xa_summary *sum, struct xa_out *o)
{
    struct entry *v = malloc((s->nr_top ? s->nr_top : 1) * sizeof(*v));
    unsigned int i, j;

    if ( !v )
        return;
    if ( s->nr_top )
        memcpy(v, s->top, s->nr_top * sizeof(*v));
    qsort(v, s->nr_top, sizeof(*v), cmp_entry);
    xa_out_printf(o, "--- Slowest exits (%u%s) ---\n", s->nr_top,
                  s->o.per_reason ? ", per reason" : "");
    for ( i = 0; i < s->nr_top; i++ )
    {
        const struct entry *e = &v[i];
        const char *reason = reason_of(sum, e->dom, e->vcpu, e->code);
        const char *label = NULL;
        uint64_t c = e->tsc - e->exit_tsc;
        char key[96] = "";

        if ( e->sub_kind )
            xa_sub_key_format(e->sub_kind, e->sub_val, key, sizeof(key),
                              &label);
        xa_out_printf(o, "#%u d%uv%u p%u %s [0x%x]%s%s%s%s: %.3f us (%llu "
                      "cycles), at %.9f s\n", i + 1, e->dom, e->vcpu, e->pcpu,
                      reason ? reason : "exit", e->code, key[0] ? " " : "",
                      key, label ? " " : "", label ? label : "",
                      xa_ticks_to_s(c, d->hz) * 1e6, (unsigned long long)c,
                      e->exit_tsc >= d->first_tsc
                      ? xa_ticks_to_s(e->exit_tsc - d->first_tsc, d->hz) : 0);
        if ( e->missing )
            xa_out_str(o, "  (its first records are no longer in the ring: "
                          "the exit is longer than the ring holds)\n");
        for ( j = 0; j < e->nr; j++ )
        {
            struct xa_fmt_ctx fmt = {
                .hvm_mode = (enum xa_hvm_mode)e->recs[j].hvm_mode,
            };

            if ( e->cut && j == s->o.max_records / 2 )
                xa_out_printf(o, "  ... %llu records not shown ...\n",
                              (unsigned long long)e->cut);
            xa_out_str(o, "  ");
            xa_dump_record_as(d, &e->recs[j].rec, e->recs[j].current, &fmt,
                              o);
        }
    }
    free(v);
}
