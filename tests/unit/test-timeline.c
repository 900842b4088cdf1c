/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The Perfetto timeline writer, driven through its observer: an exit
 * slice carries its cycles and breakdown key, a slice drawn late tells its
 * true start, and 10000 distinct keys (more than the interning table
 * holds) make the writer clear the sequence's incremental state and start
 * afresh, every interned id still resolving in the packets that follow.
 */
#include <stdlib.h>
#include <string.h>

#include <xenalyze/xenalyze.h>

#include "tap.h"

struct rd {
    const uint8_t *p, *end;
};

static bool varint(struct rd *r, uint64_t *v)
{
    unsigned int shift = 0;

    *v = 0;
    while ( r->p < r->end && shift < 64 )
    {
        uint8_t b = *r->p++;

        *v |= (uint64_t)(b & 0x7f) << shift;
        if ( !(b & 0x80) )
            return true;
        shift += 7;
    }
    return false;
}

/* Next field: its number, wire type, varint value or sub-message. */
static bool field(struct rd *r, unsigned int *num, uint64_t *v,
                  struct rd *sub)
{
    uint64_t key, n;

    if ( r->p >= r->end || !varint(r, &key) )
        return false;
    *num = (unsigned int)(key >> 3);
    switch ( key & 7 )
    {
    case 0:
        return varint(r, v);
    case 1:
        if ( r->end - r->p < 8 )
            return false;
        memcpy(v, r->p, 8);
        r->p += 8;
        return true;
    case 2:
        if ( !varint(r, &n) || n > (uint64_t)(r->end - r->p) )
            return false;
        sub->p = r->p;
        sub->end = r->p + n;
        r->p += n;
        *v = n;
        return true;
    default:
        return false;
    }
}

/* Whether the n bytes of s occur in buf. */
static bool contains(const char *buf, size_t len, const char *s)
{
    size_t n = strlen(s), i;

    for ( i = 0; i + n <= len; i++ )
        if ( !memcmp(buf + i, s, n) )
            return true;
    return false;
}

#define MAX_IID 8192

struct seq {
    bool defined[3][MAX_IID];       /* event names, arg names, strings */
    unsigned int clears, packets, unresolved, broken;
    unsigned int ends_with_cycles, starts_late, keys;
};

static void check_iid(struct seq *s, unsigned int ns, uint64_t iid)
{
    if ( iid >= MAX_IID || !s->defined[ns][iid] )
        s->unresolved++;
}

static void walk_event(struct seq *s, struct rd te)
{
    unsigned int num, type = 0;
    uint64_t v;
    struct rd sub;

    while ( field(&te, &num, &v, &sub) )
    {
        if ( num == 9 )
            type = (unsigned int)v;
        else if ( num == 10 )
            check_iid(s, 0, v);
        else if ( num == 4 )
        {
            unsigned int an;
            uint64_t av;
            struct rd x;

            while ( field(&sub, &an, &av, &x) )
                if ( an == 1 )
                    check_iid(s, 1, av);
                else if ( an == 17 )
                {
                    check_iid(s, 2, av);
                    s->keys++;
                }
        }
    }
    (void)type;
}

static void walk(struct seq *s, const uint8_t *buf, size_t len)
{
    struct rd r = { buf, buf + len };
    unsigned int num;
    uint64_t v;
    struct rd pkt;

    while ( field(&r, &num, &v, &pkt) )
    {
        struct rd f, te = { NULL, NULL };
        bool have_te = false;

        if ( num != 1 )
        {
            s->broken++;
            continue;
        }
        s->packets++;
        /* Flags first (they may clear), then interned data, then event. */
        f = pkt;
        while ( field(&f, &num, &v, &te) )
            if ( num == 13 && (v & 1) )
            {
                memset(s->defined, 0, sizeof(s->defined));
                s->clears++;
            }
        f = pkt;
        while ( field(&f, &num, &v, &te) )
            if ( num == 12 )
            {
                unsigned int k;
                struct rd e;

                while ( field(&te, &k, &v, &e) )
                {
                    unsigned int ns = k == 2 ? 0 : k == 3 ? 1 : 2;
                    unsigned int n2;
                    uint64_t iid = 0, x;
                    struct rd y;

                    while ( field(&e, &n2, &x, &y) )
                        if ( n2 == 1 )
                            iid = x;
                    if ( iid < MAX_IID )
                        s->defined[ns][iid] = true;
                }
            }
        f = pkt;
        while ( field(&f, &num, &v, &te) )
            if ( num == 11 )
            {
                walk_event(s, te);
                have_te = true;
            }
        (void)have_te;
    }
    if ( r.p != r.end )
        s->broken++;
}

int main(void)
{
    static struct seq s;
    struct xa_timeline_opts o = { .hz = 1000000000 };
    struct xa_model_observer obs;
    struct xa_timeline *tl = NULL;
    const struct xa_timeline_stats *st;
    struct xa_record rec;
    struct xa_out out;
    unsigned int i;
    uint64_t t = 1000;

    xa_out_init(&out, -1);
    tap_ok(xa_timeline_new(&o, &out, &tl) == XA_OK, "new");
    tap_ok(xa_timeline_new(&(struct xa_timeline_opts){ .hz = 0 }, &out,
                           &(struct xa_timeline *){ NULL }) == XA_E_INVAL,
           "refused without a clock rate");
    xa_timeline_observer(tl, &obs);
    memset(&rec, 0, sizeof(rec));
    rec.has_tsc = 1;
    rec.event = 0x0008f000;         /* anything */
    rec.tsc = t;
    xa_timeline_record(tl, &rec, NULL);     /* time 0 */

    obs.vcpu_kind(tl, 1, 0, XA_VK_HVM);
    obs.runstate(tl, 1, 0, XA_VRS_INIT, XA_VRS_RUNNING, t, 0);
    obs.pcpu_run(tl, 0, 1, 0, t);
    for ( i = 0; i < 10000; i++ )
    {
        rec.tsc = t += 10;
        xa_timeline_record(tl, &rec, NULL);
        obs.exit_open(tl, 1, 0, 48, t, 0xffffffff81000000ull + i);
        obs.exit_closed(tl, 1, 0, 48, XA_SUB_MMIO_W, 0xfee00000ull + 16 * i,
                        t, t + 7, 0);
        t += 7;
    }
    /* A slice the model learnt of late: drawn now, starting earlier. */
    obs.runstate(tl, 1, 0, XA_VRS_RUNNING, XA_VRS_BLOCKED, t - 500,
                 t - 500 - 1000);
    obs.pcpu_time(tl, 0, t, t - 1000);
    tap_ok(xa_timeline_finish(tl) == XA_OK, "finish");
    st = xa_timeline_stats(tl);
    TAP_EQ(st->exits, 10000, "10000 exit slices closed");
    tap_ok(st->intern_resets >= 2, "interning started afresh %llu times",
           (unsigned long long)st->intern_resets);

    walk(&s, (const uint8_t *)out.buf, out.len);
    TAP_EQ(s.broken, 0, "the output parses as packets");
    TAP_EQ(s.packets, st->packets, "every packet counted");
    TAP_EQ(s.clears, st->intern_resets + 1,
           "incremental state cleared at the start and at each reset");
    TAP_EQ(s.unresolved, 0, "every interned id resolves on the sequence");
    TAP_EQ(s.keys, 10000, "every exit has its key");
    tap_ok(contains(out.buf, out.len, "mmio:0xfee00000:w") &&
           contains(out.buf, out.len, "mmio:0xfee270f0:w"),
           "first and last keys written");
    tap_ok(contains(out.buf, out.len, "start_ns"),
           "a slice drawn late says where it started");
    xa_timeline_free(tl);
    xa_out_dispose(&out);
    return tap_done();
}
