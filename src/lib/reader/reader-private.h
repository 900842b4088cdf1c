/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Reader internals shared with the merge, which inlines the common case of
 * reading the next record of a CPU (a whole record inside the current
 * window, nothing special about it) and calls xa_reader_next() for the rest.
 */
#ifndef READER_PRIVATE_H
#define READER_PRIVATE_H

#include <string.h>

#include <xenalyze/reader.h>
#include <xenalyze/trace.h>

struct window {
    const uint8_t *data;
    uint32_t len;
    uint64_t offset;                        /* file offset of data[0] */
    uint8_t *owned;                         /* stream: buffer to free */
    struct window *next;
};

struct cpu_stream {
    const uint8_t *p, *end, *start;         /* current window */
    uint64_t base;                          /* file offset of start */
    uint8_t *owned;
    uint64_t last_tsc;
    struct window *head, *tail;
    bool abandoned;                         /* stream: over the read-ahead */
};

struct xa_reader {
    /* Source: memory (mmap or caller's) or a stream. */
    const uint8_t *mem;
    size_t size;
    bool mapped;
    int fd;                                 /* stream fd, or -1 */
    bool owns_fd;
    uint8_t *sbuf;                          /* stream: sliding buffer */
    size_t sbuf_len, sbuf_cap;
    uint64_t sbuf_off;                      /* file offset of sbuf[0] */
    bool stream_eof;

    uint64_t scan_off;
    bool eof;
    struct xa_diag *diag;
    struct xa_reader_stats stats;

    struct cpu_stream **cpus;               /* indexed by CPU number */
    unsigned int cpus_len;
    unsigned int *order;                    /* CPUs in discovery order */
    unsigned int nr_order, order_cap;
    struct window *free_windows;
    uint64_t queued_bytes;                  /* stream: copied, not yet read */
    uint64_t lookahead_max;                 /* stream: bound on queued_bytes */
    int error;                              /* sticky system error */
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

/* Size of the record whose header is hdr. */
static inline uint32_t reader_rec_size(uint32_t hdr)
{
    return 4 + (hdr >> 31) * 8 + ((hdr >> 28) & 7) * 4;
}

/*
 * Decodes the record at cs->p, known to lie wholly inside the window, and
 * moves past it; tsc is its TSC when the header says it has one (read by
 * the caller, which checks it).  The extra words are copied as a block of
 * 7 when the window holds that many bytes (the words past nr_extra mean
 * nothing).
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
    rec->tsc = cs->last_tsc;
    rec->event = hdr & 0x0fffffff;
    rec->nr_extra = (uint8_t)nr_extra;
    rec->cpu = (uint16_t)cpu;
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
 * truncation, TSC going back, trace-machinery records) returns false and
 * consumes nothing: call xa_reader_next().
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
        if ( tsc < cs->last_tsc )
            return false;
    }
    reader_decode(rd, cs, cpu, hdr, tsc, rec);
    return true;
}

#endif /* READER_PRIVATE_H */
