/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Reader internals shared with the merge, which inlines the common case of
 * reading the next record of a CPU (a whole record inside the current
 * window, nothing special about it) and calls xa_reader_next() for the
 * rest, and which keeps each CPU's timeline (last_tsc, tsc_off).
 */
#ifndef READER_PRIVATE_H
#define READER_PRIVATE_H

#include <string.h>

#include <xenalyze/reader.h>
#include <xenalyze/trace.h>

#include "slice-private.h"

/* A window queued for its CPU. */
struct window {
    struct window *next;
    const uint8_t *data;                    /* into the mapping, or bytes */
    uint64_t offset;                        /* file offset of data[0] */
    uint32_t len;
    uint8_t mark;                           /* for its first record */
    uint8_t bytes[];                        /* stream: the copy */
};

/* What a held window costs beyond its bytes: its struct and malloc's. */
#define WINDOW_COST ((uint64_t)sizeof(struct window) + 32)

struct cpu_stream {
    const uint8_t *p, *end, *start;         /* current window */
    uint64_t base;                          /* file offset of start */
    struct window *cur;                     /* current window, or NULL */
    struct window *head, *tail;             /* queued */
    /*
     * The timeline: last_tsc is the raw TSC of the last record trusted;
     * every TSC yielded is raw + tsc_off (moved by the merge after a
     * reset).  have_tsc: set by the merge once it has judged a TSC (a
     * last_tsc of 0 is no TSC yet).
     */
    uint64_t last_tsc, tsc_off;
    bool have_tsc;
    bool aside;                             /* set aside: XA_AGAIN */
    bool ended;                             /* XA_END returned */
    uint8_t mark;                           /* for the next record */
    /* A slice's reader: the CPU's first window in it, and where in it. */
    size_t ix_first;
    uint32_t ix_skip;
};

struct xa_reader {
    /* Source: memory (mmap or caller's) or a stream. */
    const uint8_t *mem;
    size_t size;
    bool mapped;
    xa_read_fn *read;                       /* stream source, or NULL */
    void *read_arg;
    struct source *src;                     /* stream of an fd, or NULL */
    /* xa_reader_head() of a stream: its first bytes, read again. */
    uint8_t *head;
    size_t head_len, head_pos;
    long head_err;                          /* the source's error, or 0 */
    xa_read_fn *inner_read;
    void *inner_arg;
    uint8_t *sbuf;                          /* stream: sliding buffer */
    size_t sbuf_len, sbuf_cap;
    uint64_t sbuf_off;                      /* file offset of sbuf[0] */
    uint64_t keep_off;                      /* nothing before is needed */
    bool stream_eof;

    uint64_t scan_off;
    bool eof;
    struct xa_diag *diag;
    struct xa_reader_stats stats;

    struct cpu_stream **cpus;               /* indexed by CPU number */
    unsigned int cpus_len;
    unsigned int *order;                    /* CPUs in discovery order */
    unsigned int nr_order, order_cap;
    unsigned int *rejoin;                   /* set aside, window met */
    unsigned int nr_rejoin, rejoin_cap;
    unsigned int nr_aside;
    unsigned int changes;                   /* new CPUs + rejoins so far */
    struct window *free_windows;            /* mapped: spare structs */
    uint64_t held;                          /* bytes of windows held */
    uint64_t lookahead_max;                 /* bound on held */
    uint8_t pending_mark;                   /* for the next window queued */
    /* xa_reader_walk(): one window at a time, its header told first. */
    bool walk;
    int walk_cpu;                           /* the window's, -1: none */
    bool walk_hdr;                          /* its header not told yet */
    uint64_t hdr_off;                       /* the last window queued: */
    uint32_t hdr_cpu, hdr_size;             /* its header as written */
    int error;                              /* sticky system error */
    /*
     * Time slices (slice-private.h): the scan collects windows into an
     * index (ix_build), or takes them from one (ix) from entry ix_pos on,
     * each CPU from its start in the slice (ix_cut: CPUs without a
     * cpu_stream there have no data left).
     */
    struct reader_index *ix_build;
    const struct reader_index *ix;
    size_t ix_pos;
    bool ix_cut;
};

static inline uint32_t rd32(const uint8_t *p)
{
    uint32_t v;

    memcpy(&v, p, 4);
    return v;
}

static inline uint64_t rd64(const uint8_t *p)
{
    uint64_t v;

    memcpy(&v, p, 8);
    return v;
}

static inline struct cpu_stream *reader_cpu(struct xa_reader *rd,
                                            unsigned int cpu)
{
    return cpu < rd->cpus_len ? rd->cpus[cpu] : NULL;
}

/* Size of the record whose header is hdr: bits 28-30 words, 31 a TSC. */
static inline uint32_t reader_rec_size(uint32_t hdr)
{
    static const uint8_t size[16] = {
        4, 8, 12, 16, 20, 24, 28, 32, 12, 16, 20, 24, 28, 32, 36, 40,
    };

    return size[hdr >> 28];
}
#define READER_REC_MAX 40u

/*
 * Decodes the record at cs->p, known to lie wholly inside the window, and
 * moves past it (its bytes are counted when the window is retired); tsc is its raw TSC when the header says it has one (read
 * by the caller, which checks it).  The extra words are copied as a block
 * of 7 when the window holds that many bytes (the words past nr_extra
 * mean nothing).
 */
static inline void reader_decode(struct xa_reader *rd, struct cpu_stream *cs,
                                 unsigned int cpu, uint32_t hdr, uint64_t tsc,
                                 struct xa_record *rec)
{
    const uint8_t *p = cs->p + 4;
    uint32_t nr_extra = (hdr >> 28) & 7;

    rec->offset = cs->base + (uint64_t)(cs->p - cs->start);
    if ( hdr >> 31 )
    {
        cs->last_tsc = tsc;
        rec->has_tsc = 1;
        p += 8;
    }
    else
    {
        rec->has_tsc = 0;
        rd->stats.tscless++;
    }
    rec->tsc = cs->last_tsc + cs->tsc_off;
    rec->event = hdr & 0x0fffffff;
    rec->nr_extra = (uint8_t)nr_extra;
    rec->cpu = (uint16_t)cpu;
    rec->mark = cs->mark;
    cs->mark = 0;
    if ( (size_t)(cs->end - p) >= sizeof(rec->extra) )
        memcpy(rec->extra, p, sizeof(rec->extra));
    else
        memcpy(rec->extra, p, nr_extra * 4);
    cs->p = p + nr_extra * 4;
    rd->stats.records++;
}

/*
 * The next record of cs when it is an ordinary one wholly inside the
 * current window: returns true and fills rec.  Otherwise (window end,
 * truncation, a TSC going back or jumping ahead by more than XA_TSC_JUMP,
 * trace-machinery records) returns false and consumes nothing: call
 * xa_reader_next().
 */
static inline bool reader_fast_next(struct xa_reader *rd,
                                    struct cpu_stream *cs, unsigned int cpu,
                                    struct xa_record *rec)
{
    size_t left = (size_t)(cs->end - cs->p);
    uint64_t tsc = 0;
    uint32_t hdr;

    if ( left < 4 )
        return false;
    hdr = rd32(cs->p);
    if ( left < reader_rec_size(hdr) ||
         (hdr & 0x0ffff000) == (XA_TRC_GEN & 0x0ffff000) )
        return false;
    if ( hdr >> 31 )
    {
        tsc = rd64(cs->p + 4);
        if ( tsc - cs->last_tsc > XA_TSC_JUMP )
            return false;
    }
    reader_decode(rd, cs, cpu, hdr, tsc, rec);
    return true;
}

/*
 * A run: decodes cs's next ordinary records (those reader_fast_next()
 * takes) into out[0..max), with the stream's position, timeline and
 * counters in registers rather than read back after every store.  Stops
 * after the first record whose TSC is above thresh (*over set: it is the
 * last of the n returned), or before a record that is not ordinary.
 */
static inline unsigned int reader_run(struct xa_reader *rd,
                                      struct cpu_stream *cs, unsigned int cpu,
                                      struct xa_record *out, unsigned int max,
                                      uint64_t thresh, bool *over)
{
    const uint8_t *p = cs->p, *const end = cs->end;
    /* A record's file offset is this plus its address: one add. */
    const uint64_t at = cs->base - (uint64_t)(uintptr_t)cs->start,
                   off = cs->tsc_off;
    uint64_t last = cs->last_tsc;
    uint8_t mark = cs->mark;
    unsigned int n = 0, tscless = 0;

    *over = false;
    while ( n < max )
    {
        size_t left = (size_t)(end - p);
        struct xa_record *rec = &out[n];
        const uint8_t *q = p + 4;
        uint32_t hdr, nr_extra;

        /*
         * Away from the window's end (the common case) a record lies
         * wholly inside and its extra words are copied as a block: one
         * test of the bytes left.
         */
        if ( __builtin_expect(left < READER_REC_MAX, 0) &&
             (left < 4 || left < reader_rec_size(rd32(p))) )
            break;
        hdr = rd32(p);
        if ( (hdr & 0x0ffff000) == (XA_TRC_GEN & 0x0ffff000) )
            break;
        if ( hdr >> 31 )
        {
            uint64_t tsc = rd64(q);

            if ( tsc - last > XA_TSC_JUMP )
                break;
            last = tsc;
            rec->has_tsc = 1;
            q += 8;
        }
        else
        {
            rec->has_tsc = 0;
            tscless++;
        }
        nr_extra = (hdr >> 28) & 7;
        rec->offset = at + (uint64_t)(uintptr_t)p;
        rec->tsc = last + off;
        rec->event = hdr & 0x0fffffff;
        rec->nr_extra = (uint8_t)nr_extra;
        rec->cpu = (uint16_t)cpu;
        rec->mark = mark;
        mark = 0;
        if ( __builtin_expect(left >= READER_REC_MAX, 1) ||
             (size_t)(end - q) >= sizeof(rec->extra) )
            memcpy(rec->extra, q, sizeof(rec->extra));
        else
            memcpy(rec->extra, q, nr_extra * 4);
        p = q + nr_extra * 4;
        n++;
        if ( rec->tsc > thresh )
        {
            *over = true;
            break;
        }
    }
    cs->p = p;
    cs->last_tsc = last;
    cs->mark = mark;
    rd->stats.records += n;
    rd->stats.tscless += tscless;
    return n;
}

/*
 * The raw TSC of cs's next record that has one, after the record just
 * read: in its window, the windows queued after it, or windows scanned
 * for it as long as the read-ahead bound allows.  False when there is
 * none in sight.
 */
bool reader_peek_tsc(struct xa_reader *rd, struct cpu_stream *cs,
                     uint64_t *tsc);

/*
 * A mapped file: reads a byte of every 64 KiB of [from, to) (so the page
 * faults of those bytes are taken by the calling thread); returns where
 * it stopped.  Touches nothing of rd but its mapping: any thread may.
 */
uint64_t reader_touch(const struct xa_reader *rd, uint64_t from, uint64_t to);

#endif /* READER_PRIVATE_H */
