/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Writer round trip: every record kind is written and read back through
 * the reader (per CPU) and the merge (global order), field by field.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xenalyze/xenalyze.h>
#include <xenalyze/writer.h>

#include "tap.h"

#define NR_RECS 20000
#define NR_CPUS 6

static const unsigned int cpu_ids[NR_CPUS] = { 0, 1, 2, 7, 64, 300 };

struct exp {
    uint64_t tsc;               /* as the reader reports it */
    uint64_t key;               /* merge key */
    uint32_t event;
    unsigned int cpu;
    unsigned int nr_extra;
    bool has_tsc;
    unsigned int idx;           /* write order: the merge tie-break */
    uint32_t extra[XA_EXTRA_MAX];
};

static uint64_t rng_state = 0x1234567887654321ull;

static uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Builds NR_RECS records over the CPUs; per-CPU TSCs never go back. */
static struct exp *make_records(void)
{
    struct exp *e = calloc(NR_RECS, sizeof(*e));
    uint64_t last[NR_CPUS] = { 0 };
    unsigned int i, j;

    for ( i = 0; i < NR_RECS; i++ )
    {
        unsigned int k = (unsigned int)(rnd() % NR_CPUS);
        struct exp *r = &e[i];

        r->cpu = cpu_ids[k];
        r->idx = i;
        if ( i % 97 == 50 )
        {
            /* Lost records: first_tsc at the CPU's time, TSC later. */
            uint64_t first = last[k] + 1 + rnd() % 100;

            r->event = XA_TRC_LOST_RECORDS;
            r->has_tsc = true;
            r->nr_extra = 4;
            r->tsc = first + 1000 + rnd() % 1000;
            r->key = first;
            r->extra[0] = (uint32_t)(rnd() % 100000);
            r->extra[1] = (uint32_t)(rnd() % 8) << 16 | (uint32_t)(rnd() % 32);
            r->extra[2] = (uint32_t)first;
            r->extra[3] = (uint32_t)(first >> 32);
            last[k] = r->tsc;
            continue;
        }
        r->event = 0x00081000u + (uint32_t)(rnd() % 0x1000);
        r->nr_extra = (unsigned int)(i % 8);
        for ( j = 0; j < r->nr_extra; j++ )
            r->extra[j] = (uint32_t)rnd();
        /* The first record of each CPU has a TSC, then 1 in 3 none. */
        r->has_tsc = last[k] == 0 || rnd() % 3 != 0;
        if ( r->has_tsc )
        {
            last[k] += rnd() % 3 ? 1 + rnd() % 5000 : 0;
            /* Above 2^32 now and then, to check the high word. */
            if ( i == NR_RECS / 2 )
                last[k] += 1ull << 33;
        }
        r->tsc = r->key = last[k];
    }
    return e;
}

static int write_records(struct xa_writer *w, const struct exp *e)
{
    unsigned int i;
    int rc = XA_OK;

    for ( i = 0; i < NR_RECS && rc == XA_OK; i++ )
    {
        const struct exp *r = &e[i];

        if ( r->event == XA_TRC_LOST_RECORDS )
            rc = xa_writer_lost(w, r->cpu, r->tsc, r->extra[0],
                                (uint16_t)r->extra[1],
                                (uint16_t)(r->extra[1] >> 16),
                                r->extra[2] |
                                (uint64_t)r->extra[3] << 32);
        else
            rc = xa_writer_record(w, r->cpu, r->event, r->has_tsc, r->tsc,
                                  r->extra, r->nr_extra);
        if ( i == NR_RECS / 3 && rc == XA_OK )
            rc = xa_writer_poll(w);
    }
    if ( rc == XA_OK )
        rc = xa_writer_finish(w);
    return rc;
}

static bool same(const struct xa_record *rec, const struct exp *r)
{
    return rec->event == r->event && rec->cpu == r->cpu &&
           rec->tsc == r->tsc && rec->nr_extra == r->nr_extra &&
           rec->has_tsc == r->has_tsc &&
           !memcmp(rec->extra, r->extra, r->nr_extra * 4);
}

/* Reads CPU by CPU and checks records and wrap padding placement. */
static void check_per_cpu(const void *data, size_t size, const struct exp *e,
                          const struct xa_writer_stats *ws, uint32_t tbuf,
                          const char *what)
{
    struct xa_diag diag;
    struct xa_reader *rd = NULL;
    const struct xa_reader_stats *st;
    unsigned int k, bad = 0, wraps = 0, bad_wraps = 0;
    uint64_t nrec = 0;

    xa_diag_init(&diag);
    if ( !tap_ok(xa_reader_open_mem(data, size, &diag, &rd) == XA_OK,
                 "%s: open", what) )
        return;
    for ( k = 0; k < NR_CPUS; k++ )
    {
        struct xa_record rec;
        unsigned int i = 0;
        uint32_t ring = 0;

        while ( xa_reader_scan(rd) == XA_OK )
            ;
        while ( xa_reader_next(rd, cpu_ids[k], &rec) == XA_OK )
        {
            uint32_t sz = 4 + (rec.has_tsc ? 8 : 0) + rec.nr_extra * 4;

            nrec++;
            if ( tbuf )
            {
                if ( rec.event == XA_TRC_TRACE_WRAP_BUFFER )
                {
                    /* Pads exactly to the end, TSC only if needed. */
                    if ( ring + sz != tbuf ||
                         rec.has_tsc != (sz - 4 > XA_EXTRA_MAX * 4) )
                        bad_wraps++;
                }
                else if ( ring + sz > tbuf )
                    bad_wraps++;
                ring = (ring + sz) % tbuf;
            }
            if ( rec.event == XA_TRC_TRACE_WRAP_BUFFER )
            {
                wraps++;
                continue;
            }
            while ( i < NR_RECS && e[i].cpu != cpu_ids[k] )
                i++;
            if ( i == NR_RECS || !same(&rec, &e[i]) )
            {
                if ( bad++ < 3 )
                    printf("# cpu %u record %u differs: event %#x tsc %llu\n",
                           cpu_ids[k], i, rec.event,
                           (unsigned long long)rec.tsc);
            }
            i++;
        }
        while ( i < NR_RECS && e[i].cpu != cpu_ids[k] )
            i++;
        if ( i != NR_RECS )
            bad++;
    }
    tap_ok(bad == 0, "%s: every record read back per CPU", what);
    tap_ok(bad_wraps == 0, "%s: wrap padding ends exactly at the ring end",
           what);
    if ( tbuf )
        tap_ok(wraps > 100, "%s: wraps happen (%u)", what, wraps);
    st = xa_reader_stats(rd);
    TAP_EQ(st->records, ws->records, "%s: reader records = writer", what);
    TAP_EQ(nrec, ws->records, "%s: records yielded", what);
    TAP_EQ(st->windows, ws->windows, "%s: windows", what);
    TAP_EQ(st->wraps, ws->wraps, "%s: wraps", what);
    TAP_EQ(wraps, ws->wraps, "%s: wraps seen", what);
    TAP_EQ(st->lost, ws->lost, "%s: lost", what);
    TAP_EQ(st->tscless, ws->tscless, "%s: TSC-less", what);
    TAP_EQ(st->nr_cpus, NR_CPUS, "%s: CPUs", what);
    TAP_EQ(st->max_cpu, 300, "%s: max CPU", what);
    TAP_EQ(size, ws->bytes, "%s: bytes", what);
    TAP_EQ(xa_diag_total(&diag, XA_LEVEL_SANITY), 0, "%s: no anomalies",
           what);
    xa_reader_free(rd);
}

static int cmp_key(const void *a, const void *b)
{
    const struct exp *x = a, *y = b;

    if ( x->key != y->key )
        return x->key < y->key ? -1 : 1;
    if ( x->cpu != y->cpu )
        return x->cpu < y->cpu ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

#define NR_CPUS_MAX 301

static uint64_t xa_u64_of(const struct xa_record *r, unsigned int i)
{
    return r->extra[i] | ((uint64_t)r->extra[i + 1] << 32);
}

static int cmp_rec(const void *a, const void *b)
{
    const struct xa_record *x = a, *y = b;
    uint64_t kx = x->event == XA_TRC_LOST_RECORDS ? xa_u64_of(x, 2) : x->tsc;
    uint64_t ky = y->event == XA_TRC_LOST_RECORDS ? xa_u64_of(y, 2) : y->tsc;

    if ( kx != ky )
        return kx < ky ? -1 : 1;
    if ( x->cpu != y->cpu )
        return x->cpu < y->cpu ? -1 : 1;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/*
 * The merge returns every record once, in key order (TSC, or where a loss
 * began), each CPU's records in file order; ties between CPUs are the
 * merge's business (upstream's rule), so the multiset is compared after
 * sorting both sides the same way.
 */
static void check_merge(const void *data, size_t size, const struct exp *e,
                        const char *what)
{
    struct xa_diag diag;
    struct xa_reader *rd = NULL;
    struct xa_merge *m = NULL;
    const struct xa_record *rec;
    struct exp *sorted = malloc(NR_RECS * sizeof(*sorted));
    struct xa_record *got = calloc(NR_RECS + 1, sizeof(*got));
    uint64_t last_key = 0, last_off[NR_CPUS_MAX] = { 0 };
    unsigned int i = 0, bad = 0, order = 0, ends = 0;

    memcpy(sorted, e, NR_RECS * sizeof(*sorted));
    qsort(sorted, NR_RECS, sizeof(*sorted), cmp_key);
    xa_diag_init(&diag);
    if ( xa_reader_open_mem(data, size, &diag, &rd) ||
         xa_merge_new(rd, &m) )
    {
        tap_ok(false, "%s: merge open", what);
        goto out;
    }
    while ( xa_merge_next(m, &rec) == XA_OK )
    {
        uint64_t key;

        if ( rec->event == XA_EV_CPU_END )
        {
            ends++;
            continue;
        }
        if ( rec->event == XA_TRC_TRACE_WRAP_BUFFER )
            continue;
        key = rec->event == XA_TRC_LOST_RECORDS ? xa_u64_of(rec, 2)
                                                : rec->tsc;
        if ( key < last_key ||
             (rec->cpu < NR_CPUS_MAX && rec->offset < last_off[rec->cpu]) )
            order++;
        last_key = key;
        if ( rec->cpu < NR_CPUS_MAX )
            last_off[rec->cpu] = rec->offset;
        if ( i < NR_RECS )
            got[i] = *rec;
        i++;
    }
    TAP_EQ(i, NR_RECS, "%s: merge yields every record", what);
    TAP_EQ(order, 0, "%s: merge order is by key, each CPU in file order",
           what);
    TAP_EQ(ends, NR_CPUS, "%s: one end marker per CPU", what);
    qsort(got, i < NR_RECS ? i : NR_RECS, sizeof(*got), cmp_rec);
    for ( i = 0; i < NR_RECS; i++ )
        if ( !same(&got[i], &sorted[i]) && bad++ < 3 )
            printf("# merged record %u differs: cpu %u event %#x\n", i,
                   got[i].cpu, got[i].event);
    TAP_EQ(bad, 0, "%s: merge yields the records written", what);
 out:
    xa_merge_free(m);
    xa_reader_free(rd);
    free(sorted);
    free(got);
}

static void run(uint32_t window, uint32_t tbuf, const char *what)
{
    struct xa_writer_opts o = { .window_size = window, .tbuf_size = tbuf };
    struct xa_writer *w = NULL, *wf = NULL;
    struct exp *e = make_records();
    char path[] = "/tmp/test-writer-XXXXXX";
    const void *data;
    size_t size;
    int fd = mkstemp(path);
    void *fbuf = NULL;
    off_t fsize;

    tap_ok(xa_writer_new(-1, &o, &w) == XA_OK, "%s: new", what);
    tap_ok(write_records(w, e) == XA_OK, "%s: write", what);
    data = xa_writer_borrow_mem(w, &size);
    check_per_cpu(data, size, e, xa_writer_stats(w), tbuf, what);
    check_merge(data, size, e, what);

    /* The same through a file descriptor: identical bytes. */
    o.out_buffer = 4096;
    if ( tap_ok(fd >= 0 && xa_writer_new(fd, &o, &wf) == XA_OK,
                "%s: fd writer", what) )
    {
        tap_ok(write_records(wf, e) == XA_OK, "%s: fd write", what);
        fsize = lseek(fd, 0, SEEK_END);
        fbuf = malloc(fsize > 0 ? (size_t)fsize : 1);
        tap_ok(fsize == (off_t)size &&
               pread(fd, fbuf, size, 0) == (ssize_t)size &&
               !memcmp(fbuf, data, size), "%s: file = memory output", what);
    }
    if ( fd >= 0 )
    {
        close(fd);
        unlink(path);
    }
    free(fbuf);
    xa_writer_free(wf);
    xa_writer_free(w);
    free(e);
}

static void test_bad_args(void)
{
    struct xa_writer_opts o = { .window_size = 100 };
    struct xa_writer *w = NULL;
    uint32_t x[8] = { 0 };

    tap_ok(xa_writer_new(-1, &o, &w) == XA_E_INVAL, "window not /4 refused");
    o.window_size = 0;
    o.tbuf_size = 32;
    tap_ok(xa_writer_new(-1, &o, &w) == XA_E_INVAL, "tiny ring refused");
    tap_ok(xa_writer_new(-1, NULL, &w) == XA_OK, "defaults");
    tap_ok(xa_writer_record(w, 0, 1, true, 1, x, 8) == XA_E_INVAL,
           "8 extra words refused");
    tap_ok(xa_writer_record(w, 70000, 1, true, 1, x, 1) == XA_E_INVAL,
           "CPU above 65535 refused");
    xa_writer_free(w);
    xa_writer_free(NULL);
}

/* A hand-checked encoding: one record and the window around it. */
static void test_bytes(void)
{
    static const uint8_t want[] = {
        0x03, 0xf0, 0x01, 0x20,  0x2c, 0x01, 0x00, 0x00,  /* cpu 300 */
        0x18, 0x00, 0x00, 0x00,                           /* 24 bytes */
        0x02, 0x11, 0x08, 0xb0,                   /* VMEXIT64, 3, TSC */
        0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,
        0x1e, 0x00, 0x00, 0x00,  0x00, 0x10, 0x00, 0x00,
        0xff, 0xff, 0x00, 0x00,
    };
    const uint32_t ex[3] = { 30, 0x1000, 0xffff };
    struct xa_writer *w = NULL;
    const void *p;
    size_t n;

    xa_writer_new(-1, NULL, &w);
    xa_writer_record(w, 300, XA_TRC_HVM_VMEXIT64, true,
                     0x1122334455667788ull, ex, 3);
    xa_writer_finish(w);
    p = xa_writer_borrow_mem(w, &n);
    tap_ok(n == sizeof(want) && !memcmp(p, want, n), "exact encoding");
    xa_writer_free(w);
}

int main(void)
{
    test_bad_args();
    test_bytes();
    run(0, 0, "default windows");
    run(128, 0, "tiny windows");
    run(512, 200, "wrap padding");
    run(4096, 1000, "wrap padding, larger windows");
    return tap_done();
}
