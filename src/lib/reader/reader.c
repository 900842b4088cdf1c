/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Reader: CPU-change window walking, resynchronisation and per-CPU
 * record cursors.
 *
 * The scanner walks the input once, window by window, and queues each
 * window for its CPU.  A CPU's cursor walks its queued windows record by
 * record and asks the scanner for more when its queue runs dry.  A file
 * is mmapped and windows point into the mapping; a stream is read through
 * a sliding buffer and each window is copied out.
 *
 * Where a window ends is decided by its records, not only by its size
 * field: Xen fills a window with whole records and xentrace never writes
 * a CPU-change record inside one, so
 *  - a window whose records reach a CPU-change record at a record boundary
 *    before the size says ends there (the size lied: BAD_WINDOW_SIZE);
 *  - a size that is absurd (odd, huge) or does not end at a CPU-change
 *    record is replaced by where the records end, when they run, with a
 *    continuous timeline, exactly up to a CPU-change record or the end of
 *    the input (BAD_WINDOW_SIZE); otherwise the header is garbage.
 * Bytes that belong to no window are skipped up to the next plausible
 * CPU-change record (GARBAGE).
 *
 * Memory: a stream's buffer holds what the scanner still needs (one
 * window at most, plus a chunk); windows held for their CPUs are bounded
 * by the read-ahead bound (reader.h), counted alike for files and streams.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <xenalyze/reader.h>
#include <xenalyze/trace.h>

#include "reader-private.h"
#include "source.h"
#include "util/util-private.h"

#define HDR_SIZE 12u                        /* CPU-change record */
#define WINDOW_MAX (256u << 20)             /* 65535 pages of 4 KiB */
#define STREAM_CHUNK (1u << 20)
#define STREAM_LOOKAHEAD (256ull << 20)
/*
 * A walk of records no size vouches for stops at a run of this many
 * TSC-less records, or at a TSC that goes back or leaps ahead by more than
 * WALK_TSC_JUMP (about 8 minutes at 2.4 GHz): random bytes do that within
 * a few records, a CPU's records do not.
 */
#define WALK_TSCLESS_MAX 16
#define WALK_TSC_JUMP (1ull << 40)

static const uint8_t magic[4] = { 0x03, 0xf0, 0x01, 0x20 };

/* Source access */

/*
 * Stream: makes the bytes up to file offset need_end available (fewer
 * only at the end of the input).  Bytes before keep_off are dropped,
 * moving the rest down only when the dropped part is at least as large,
 * so that every byte is moved O(1) times.
 */
static int stream_fill(struct xa_reader *rd, uint64_t need_end)
{
    while ( !rd->stream_eof && rd->sbuf_off + rd->sbuf_len < need_end )
    {
        size_t want, room, drop = 0;
        long r;

        if ( rd->keep_off > rd->sbuf_off )
        {
            drop = (size_t)(rd->keep_off - rd->sbuf_off);
            if ( drop > rd->sbuf_len )
                drop = rd->sbuf_len;
        }
        want = (size_t)(need_end - rd->sbuf_off - rd->sbuf_len);
        if ( want < STREAM_CHUNK )
            want = STREAM_CHUNK;
        room = rd->sbuf_cap - rd->sbuf_len;
        if ( drop && (room < want || drop >= rd->sbuf_len - drop) )
        {
            memmove(rd->sbuf, rd->sbuf + drop, rd->sbuf_len - drop);
            rd->stats.stream_moved += rd->sbuf_len - drop;
            rd->sbuf_len -= drop;
            rd->sbuf_off += drop;
            room = rd->sbuf_cap - rd->sbuf_len;
            /* A big window has passed: give the memory back. */
            if ( rd->sbuf_cap > 4 * STREAM_CHUNK &&
                 rd->sbuf_len + want < rd->sbuf_cap / 4 )
            {
                size_t cap = rd->sbuf_len + want;
                uint8_t *nb = realloc(rd->sbuf, cap);

                if ( nb )
                {
                    rd->sbuf = nb;
                    rd->sbuf_cap = cap;
                    room = cap - rd->sbuf_len;
                }
            }
        }
        if ( room < want )
        {
            size_t cap = rd->sbuf_cap ? rd->sbuf_cap : STREAM_CHUNK;
            uint8_t *nb;

            while ( cap - rd->sbuf_len < want )
                cap *= 2;
            nb = realloc(rd->sbuf, cap);
            if ( !nb )
                return XA_E_NOMEM;
            rd->sbuf = nb;
            rd->sbuf_cap = cap;
            room = cap - rd->sbuf_len;
            if ( cap > rd->stats.stream_buf_peak )
                rd->stats.stream_buf_peak = cap;
        }
        r = rd->read(rd->read_arg, rd->sbuf + rd->sbuf_len, room);
        if ( r < 0 )
            return (int)r;
        if ( r == 0 )
            rd->stream_eof = true;
        rd->sbuf_len += (size_t)r;
        rd->stats.bytes += (uint64_t)r;
    }
    return XA_OK;
}

/*
 * The bytes at file offset off: sets *avail to how many (up to want) are
 * there; fewer only at the end of the input.  In stream mode the pointer
 * is valid until the next peek(), and off must not be before keep_off.
 */
static const uint8_t *peek(struct xa_reader *rd, uint64_t off, size_t want,
                           size_t *avail)
{
    int rc;

    if ( !rd->read )
    {
        if ( off >= rd->size )
        {
            *avail = 0;
            return rd->mem + rd->size;
        }
        *avail = rd->size - off < want ? (size_t)(rd->size - off) : want;
        return rd->mem + off;
    }

    if ( off < rd->sbuf_off )
    {
        /* Never happens: nothing before keep_off is asked for. */
        rd->error = XA_E_INVAL;
        *avail = 0;
        return NULL;
    }
    if ( (rc = stream_fill(rd, off + want)) < 0 )
    {
        rd->error = rc;
        *avail = 0;
        return NULL;
    }
    if ( off >= rd->sbuf_off + rd->sbuf_len )
    {
        *avail = 0;
        return rd->sbuf + rd->sbuf_len;
    }
    *avail = rd->sbuf_off + rd->sbuf_len - off < want
             ? (size_t)(rd->sbuf_off + rd->sbuf_len - off) : want;
    return rd->sbuf + (off - rd->sbuf_off);
}

/* The end of the input once known (stream: once read to the end). */
static uint64_t input_end(struct xa_reader *rd)
{
    return rd->read ? rd->sbuf_off + rd->sbuf_len : rd->size;
}

/* Window walking */

enum walk_end {
    WALK_MAGIC,         /* a CPU-change record at a record boundary */
    WALK_LIMIT,         /* the next record starts at or past the limit */
    WALK_EOF,           /* the input ends at a record boundary */
    WALK_EOF_INSIDE,    /* the input ends inside a record */
    WALK_UNSURE,        /* (careful) a record off the timeline */
};

struct walk {
    uint64_t at;                            /* where the walk stopped */
    uint64_t last_tsc;                      /* careful: timeline so far */
    bool have_tsc;
    unsigned int tscless;                   /* TSC-less records in a row */
    unsigned int tsc_records;               /* careful: records with one */
};

/*
 * Walks the records from a record boundary at w->at, by their sizes, until
 * the next record would start at or past limit.  A careful walk (records
 * not vouched for by a size field) also stops where the records stop
 * looking like a CPU's (WALK_TSC_JUMP).
 */
static enum walk_end walk(struct xa_reader *rd, struct walk *w,
                          uint64_t limit, bool careful)
{
    uint64_t pos = w->at;

    while ( pos < limit )
    {
        size_t want = limit - pos < STREAM_CHUNK ? (size_t)(limit - pos)
                                                  : STREAM_CHUNK;
        size_t avail;
        const uint8_t *base = peek(rd, pos, want + READER_REC_MAX, &avail);
        const uint8_t *p = base, *e = base + avail, *fast;
        bool near_end = avail < want + READER_REC_MAX;

        if ( rd->error )
            break;
        if ( avail == 0 )
        {
            w->at = pos;
            return WALK_EOF;
        }
        /* Below fast, every record lies wholly in the bytes peeked. */
        fast = !near_end ? base + want
                         : avail > READER_REC_MAX ? e - READER_REC_MAX : base;
        for ( ;; )
        {
            const uint8_t *stop = fast;
            uint32_t h;

            if ( !careful )
            {
                /* The hot loop: every window of a well-formed file. */
                while ( p < stop &&
                        (h = rd32(p)) != XA_TRC_TRACE_CPU_CHANGE_HDR )
                    p += reader_rec_size(h);
            }
            else
                while ( p < stop &&
                        (h = rd32(p)) != XA_TRC_TRACE_CPU_CHANGE_HDR )
                {
                    if ( h >> 31 )
                    {
                        uint64_t t = rd64(p + 4);

                        if ( w->have_tsc && t - w->last_tsc > WALK_TSC_JUMP )
                        {
                            w->at = pos + (uint64_t)(p - base);
                            return WALK_UNSURE;
                        }
                        w->last_tsc = t;
                        w->have_tsc = true;
                        w->tscless = 0;
                        w->tsc_records++;
                    }
                    else if ( ++w->tscless > WALK_TSCLESS_MAX )
                    {
                        w->at = pos + (uint64_t)(p - base);
                        return WALK_UNSURE;
                    }
                    p += reader_rec_size(h);
                }
            if ( p < stop )
            {
                w->at = pos + (uint64_t)(p - base);
                return WALK_MAGIC;
            }
            if ( !near_end || p >= base + want || fast == e )
                break;
            /* The input's last bytes: one record at a time, with care. */
            if ( (size_t)(e - p) < 4 ||
                 (size_t)(e - p) < reader_rec_size(rd32(p)) )
            {
                w->at = pos + (uint64_t)(p - base);
                return p == e ? WALK_EOF : WALK_EOF_INSIDE;
            }
            fast = p + 1;
        }
        pos += (uint64_t)(p - base);
        if ( near_end && p == e )
        {
            w->at = pos;
            return pos >= limit ? WALK_LIMIT : WALK_EOF;
        }
    }
    w->at = pos;
    return WALK_LIMIT;
}

/* The timeline of the records in [from, to), for a careful walk on. */
static void walk_timeline(struct xa_reader *rd, struct walk *w, uint64_t from,
                          uint64_t to)
{
    struct walk t = { .at = from };

    memset(w, 0, sizeof(*w));
    while ( t.at < to && walk(rd, &t, to, true) == WALK_UNSURE )
    {
        /* Restart the timeline at the record that left it. */
        size_t avail;
        const uint8_t *p = peek(rd, t.at, 4, &avail);

        if ( avail < 4 )
            break;
        t.at += reader_rec_size(rd32(p));
        t.have_tsc = false;
        t.tscless = 0;
    }
    *w = t;
    w->tsc_records = 0;
}

/*
 * Whether a word at a multiple of 4 bytes into b[0, n) is a CPU-change
 * header.  Every record of a window starts at such a word, so when none
 * is, no record is one: what the walk of the window's records would find
 * is known without the walk's chain of record sizes, each waiting for the
 * load before it.  Blocks of 64 bytes are compared as four vectors of
 * four words (the compilers' vector extension, SSE2 or NEON compares),
 * with one branch per block.
 */
#if defined(__GNUC__)
typedef uint32_t u32x4 __attribute__((vector_size(16)));
typedef int32_t i32x4 __attribute__((vector_size(16)));

static inline bool block_has_word(const uint8_t *b, uint32_t word)
{
    const u32x4 m = { word, word, word, word };
    u32x4 v0, v1, v2, v3;
    i32x4 hit;
    uint64_t h[2];

    memcpy(&v0, b, 16);
    memcpy(&v1, b + 16, 16);
    memcpy(&v2, b + 32, 16);
    memcpy(&v3, b + 48, 16);
    hit = (v0 == m) | (v1 == m) | (v2 == m) | (v3 == m);
    memcpy(h, &hit, sizeof(h));
    return (h[0] | h[1]) != 0;
}
#else
static inline bool block_has_word(const uint8_t *b, uint32_t word)
{
    unsigned int k, hit = 0;

    for ( k = 0; k < 64; k += 4 )
        hit |= rd32(b + k) == word;
    return hit != 0;
}
#endif

static bool any_cpu_change_word(const uint8_t *b, size_t n)
{
    size_t i = 0;

    for ( ; i + 64 <= n; i += 64 )
        if ( block_has_word(b + i, XA_TRC_TRACE_CPU_CHANGE_HDR) )
            return true;
    for ( ; i + 4 <= n; i += 4 )
        if ( rd32(b + i) == XA_TRC_TRACE_CPU_CHANGE_HDR )
            return true;
    return false;
}

/*
 * Where the window whose data starts at data ends, given its size field.
 * Returns the end, and sets *kind to the anomaly (XA_DIAG_NR: none) and
 * *garbage when the header is not a window at all.
 */
static uint64_t window_end(struct xa_reader *rd, uint64_t data, uint32_t size,
                           enum xa_diag_kind *kind, bool *garbage)
{
    struct walk w = { .at = data };
    uint64_t end = data + size;
    enum walk_end r;

    *kind = XA_DIAG_NR;
    *garbage = false;
    if ( size % 4 == 0 && size <= WINDOW_MAX )
    {
        /*
         * The common window: its bytes and a CPU-change record after them
         * at hand (a stream's only for a window of a chunk at most, so
         * that a lying size is not buffered whole), and no word of it
         * that could be a CPU-change record.
         */
        if ( !rd->read || size <= STREAM_CHUNK )
        {
            size_t avail;
            const uint8_t *b = peek(rd, data, (size_t)size + 4, &avail);

            if ( rd->error )
                return end;
            if ( avail == (size_t)size + 4 && !memcmp(b + size, magic, 4) &&
                 !any_cpu_change_word(b, size) )
                return end;
        }
        r = walk(rd, &w, end, false);
        if ( r == WALK_MAGIC )
        {
            *kind = XA_DIAG_BAD_WINDOW_SIZE;
            return w.at;
        }
        if ( r == WALK_EOF || r == WALK_EOF_INSIDE )
        {
            /* The input ends before the size says: keep what there is. */
            *kind = XA_DIAG_WINDOW_PAST_EOF;
            return input_end(rd);
        }
        /* A CPU-change record, or fewer than 4 bytes, after the end. */
        {
            size_t avail;
            const uint8_t *q = peek(rd, end, 4, &avail);

            if ( rd->error || avail < 4 || !memcmp(q, magic, 4) )
                return end;
        }
        /*
         * Something else follows the size's end: garbage after the window,
         * or a size that is too small.  The records decide: they must go
         * on, on the window's timeline and with TSCs, exactly up to a
         * CPU-change record or the end of the input.
         */
        walk_timeline(rd, &w, data, w.at);
        r = walk(rd, &w, data + WINDOW_MAX, true);
        if ( (r == WALK_MAGIC || r == WALK_EOF) && w.tsc_records )
        {
            *kind = XA_DIAG_BAD_WINDOW_SIZE;
            return w.at;
        }
        return end;
    }
    /* An absurd size: the records alone can tell where the window ends. */
    r = walk(rd, &w, data + WINDOW_MAX, true);
    if ( (r == WALK_MAGIC || r == WALK_EOF || r == WALK_EOF_INSIDE) &&
         w.tsc_records )
    {
        *kind = XA_DIAG_BAD_WINDOW_SIZE;
        return r == WALK_EOF_INSIDE ? input_end(rd) : w.at;
    }
    *garbage = true;
    return data;
}

/*
 * Whether a CPU-change record found while resynchronising may start a
 * window: its CPU and size must be sane (what lies at its end is checked
 * when it is read as a window).
 */
static bool plausible_start(const uint8_t *p)
{
    int32_t cpu;
    uint32_t size = rd32(p + 8);

    memcpy(&cpu, p + 4, 4);
    return cpu >= 0 && (uint32_t)cpu <= XA_CPU_MAX && size % 4 == 0 &&
           size <= WINDOW_MAX;
}

/* First occurrence of the magic in p[0..n), or NULL. */
static const uint8_t *find_magic(const uint8_t *p, size_t n)
{
    const uint8_t *end = p + n;

    while ( end - p >= 4 )
    {
        const uint8_t *q = memchr(p, magic[0], (size_t)(end - p) - 3);

        if ( !q )
            return NULL;
        if ( !memcmp(q, magic, 4) )
            return q;
        p = q + 1;
    }
    return NULL;
}

/*
 * The offset of the next plausible window start at or after from; the end
 * of the input if none.  A stream drops what the search has passed.
 */
static uint64_t find_next_window(struct xa_reader *rd, uint64_t from)
{
    uint64_t off = from;

    while ( !rd->error )
    {
        size_t avail;
        const uint8_t *p, *hit;

        rd->keep_off = off;
        p = peek(rd, off, STREAM_CHUNK + HDR_SIZE, &avail);
        if ( avail < HDR_SIZE )
            return off + avail;
        hit = find_magic(p, avail - HDR_SIZE + 4);
        if ( !hit )
        {
            off += avail - HDR_SIZE + 1;
            continue;
        }
        off += (uint64_t)(hit - p);
        if ( plausible_start(hit) )
            return off;
        off++;
    }
    return off;
}

/* CPUs and their queues */

static struct cpu_stream *get_cpu(struct xa_reader *rd, unsigned int cpu)
{
    struct cpu_stream *cs;

    if ( xa_grow(&rd->cpus, &rd->cpus_len, sizeof(*rd->cpus), cpu, 16) )
        return NULL;
    cs = rd->cpus[cpu];
    if ( cs )
        return cs;

    if ( rd->nr_order == rd->order_cap )
    {
        unsigned int cap = rd->order_cap ? rd->order_cap * 2 : 16;
        unsigned int *o = realloc(rd->order, cap * sizeof(*o));

        if ( !o )
            return NULL;
        rd->order = o;
        rd->order_cap = cap;
    }
    cs = calloc(1, sizeof(*cs));
    if ( !cs )
        return NULL;
    rd->cpus[cpu] = cs;
    rd->order[rd->nr_order++] = cpu;
    rd->changes++;
    rd->stats.nr_cpus++;
    if ( cpu > rd->stats.max_cpu || rd->stats.nr_cpus == 1 )
        rd->stats.max_cpu = cpu;
    return cs;
}

static int push_rejoin(struct xa_reader *rd, unsigned int cpu)
{
    if ( rd->nr_rejoin == rd->rejoin_cap )
    {
        unsigned int cap = rd->rejoin_cap ? rd->rejoin_cap * 2 : 16;
        unsigned int *r = realloc(rd->rejoin, cap * sizeof(*r));

        if ( !r )
            return XA_E_NOMEM;
        rd->rejoin = r;
        rd->rejoin_cap = cap;
    }
    rd->rejoin[rd->nr_rejoin++] = cpu;
    rd->changes++;
    return XA_OK;
}

static void hold(struct xa_reader *rd, uint64_t n)
{
    rd->held += n;
    if ( rd->held > rd->stats.readahead_peak )
        rd->stats.readahead_peak = rd->held;
}

static int queue_window(struct xa_reader *rd, unsigned int cpu,
                        uint64_t off, uint32_t len)
{
    struct cpu_stream *cs = get_cpu(rd, cpu);
    struct window *w;

    if ( !cs )
        return XA_E_NOMEM;
    if ( rd->ix_build )
    {
        uint8_t mark = rd->pending_mark;

        if ( len )
            rd->pending_mark = 0;
        return reader_index_add(rd->ix_build, cpu, off, len, mark,
                                rd->stats.windows);
    }
    if ( !len )
        return XA_OK;

    if ( !rd->read )
    {
        w = rd->free_windows;
        if ( w )
            rd->free_windows = w->next;
        else if ( !(w = malloc(sizeof(*w))) )
            return XA_E_NOMEM;
        w->data = rd->mem + off;
    }
    else
    {
        size_t avail;
        const uint8_t *p = peek(rd, off, len, &avail);

        if ( rd->error )
            return rd->error;
        if ( avail < len || !(w = malloc(sizeof(*w) + len)) )
            return XA_E_NOMEM;
        memcpy(w->bytes, p, len);
        w->data = w->bytes;
    }
    w->next = NULL;
    w->len = len;
    w->offset = off;
    w->mark = rd->pending_mark;
    rd->pending_mark = 0;
    hold(rd, len + WINDOW_COST);
    if ( cs->tail )
        cs->tail->next = w;
    else
        cs->head = w;
    cs->tail = w;
    if ( cs->aside )
    {
        cs->aside = false;
        rd->nr_aside--;
        return push_rejoin(rd, cpu);
    }
    return XA_OK;
}

static void free_window(struct xa_reader *rd, struct window *w)
{
    rd->held -= w->len + WINDOW_COST;
    if ( rd->read )
        free(w);
    else
    {
        w->next = rd->free_windows;
        rd->free_windows = w;
    }
}

/* At the end of the input every CPU set aside comes back, to end. */
static int reach_eof(struct xa_reader *rd)
{
    unsigned int i;
    int rc = XA_OK;

    rd->eof = true;
    for ( i = 0; i < rd->nr_order && rd->nr_aside; i++ )
    {
        struct cpu_stream *cs = rd->cpus[rd->order[i]];

        if ( cs->aside )
        {
            cs->aside = false;
            rd->nr_aside--;
            if ( push_rejoin(rd, rd->order[i]) )
                rc = XA_E_NOMEM;
        }
    }
    return rc;
}

/*
 * A slice's scan: the index's next window, as the scan of the input
 * queued it; in a slice after a cut, only windows from each CPU's start.
 */
static int index_scan(struct xa_reader *rd)
{
    const struct reader_index *ix = rd->ix;

    for ( ;; )
    {
        const struct reader_window *e;
        size_t i = rd->ix_pos;
        uint32_t skip = 0;

        if ( rd->error )
            return rd->error;
        if ( rd->eof )
            return XA_END;
        if ( i >= ix->nr )
        {
            int rc = reach_eof(rd);

            return rc ? rc : XA_END;
        }
        e = &ix->w[i];
        rd->ix_pos = i + 1;
        if ( rd->ix_cut )
        {
            const struct cpu_stream *cs = reader_cpu(rd, e->cpu);

            if ( !cs || i < cs->ix_first )
                continue;
            if ( i == cs->ix_first )
                skip = cs->ix_skip;
        }
        rd->pending_mark = skip ? 0 : e->mark;
        rd->scan_off = e->off + e->len;
        /* The merge's first round counts the windows scanned. */
        rd->stats.windows = e->windows;
        return queue_window(rd, e->cpu, e->off + skip, e->len - skip);
    }
}

int reader_open_slice(const struct reader_index *ix,
                      const struct reader_cut *cut, struct xa_diag *diag,
                      struct xa_reader **out)
{
    struct xa_reader *rd = NULL;
    unsigned int i;
    int rc = xa_reader_open_mem(ix->mem, ix->size, diag, &rd);

    if ( rc )
        return rc;
    rd->ix = ix;
    rd->lookahead_max = ix->lookahead;
    if ( cut )
    {
        rd->ix_cut = true;
        rd->ix_pos = cut->first_entry;
        for ( i = 0; i < cut->nr_cpus; i++ )
        {
            const struct reader_cut_cpu *c = &cut->cpus[i];
            struct cpu_stream *cs = get_cpu(rd, c->cpu);

            if ( !cs )
            {
                xa_reader_free(rd);
                return XA_E_NOMEM;
            }
            cs->ix_first = c->entry;
            cs->ix_skip = c->skip;
            cs->last_tsc = c->last_tsc;
            cs->have_tsc = c->have_tsc;
        }
    }
    *out = rd;
    return XA_OK;
}

void reader_set_diag(struct xa_reader *rd, struct xa_diag *diag)
{
    rd->diag = diag;
}

int xa_reader_scan(struct xa_reader *rd)
{
    uint64_t off, end = 0, data = 0, next;
    enum xa_diag_kind kind = XA_DIAG_NR;
    const uint8_t *p;
    uint32_t size = 0;
    int32_t cpu = 0;
    size_t avail;
    bool garbage;
    int rc;

    if ( rd->ix )
        return index_scan(rd);
    for ( ;; )
    {
        if ( rd->error )
            return rd->error;
        if ( rd->eof )
            return XA_END;
        off = rd->scan_off;
        rd->keep_off = off;
        p = peek(rd, off, HDR_SIZE, &avail);
        if ( rd->error )
            return rd->error;
        if ( avail == 0 )
        {
            rc = reach_eof(rd);
            return rc ? rc : XA_END;
        }
        if ( avail < HDR_SIZE )
        {
            xa_diag_add(rd->diag, XA_DIAG_TRUNCATED_TAIL, off, 0);
            xa_diag_skip(rd->diag, XA_DIAG_TRUNCATED_TAIL, avail);
            rd->scan_off = off + avail;
            continue;
        }
        garbage = memcmp(p, magic, 4) != 0;
        if ( !garbage )
        {
            memcpy(&cpu, p + 4, 4);
            size = rd32(p + 8);
            data = off + HDR_SIZE;
            end = window_end(rd, data, size, &kind, &garbage);
            if ( rd->error )
                return rd->error;
        }
        if ( garbage )
        {
            next = find_next_window(rd, off + 1);
            if ( rd->error )
                return rd->error;
            xa_diag_add(rd->diag, XA_DIAG_GARBAGE, off, 0);
            xa_diag_skip(rd->diag, XA_DIAG_GARBAGE, next - off);
            rd->pending_mark = XA_DIAG_GARBAGE + 1;
            rd->scan_off = next;
            continue;
        }
        rd->stats.windows++;
        if ( kind != XA_DIAG_NR )
        {
            xa_diag_add(rd->diag, kind, off, cpu < 0 ? 0 : (unsigned int)cpu);
            rd->pending_mark = (uint8_t)(kind + 1);
        }
        if ( cpu < 0 || (uint32_t)cpu > XA_CPU_MAX )
        {
            xa_diag_add(rd->diag, XA_DIAG_BAD_CPU, off, 0);
            xa_diag_skip(rd->diag, XA_DIAG_BAD_CPU, end - data);
            rd->pending_mark = XA_DIAG_BAD_CPU + 1;
            rd->scan_off = end;
            continue;
        }
        rd->hdr_off = off;
        rd->hdr_cpu = (uint32_t)cpu;
        rd->hdr_size = size;
        /* Queue before moving on: a stream may drop what is passed. */
        rc = queue_window(rd, (unsigned int)cpu, data, (uint32_t)(end - data));
        rd->scan_off = end;
        return rc;
    }
}

/* Cursors */

static void retire_window(struct xa_reader *rd, struct cpu_stream *cs)
{
    /* What the cursor passed were records, less what it skipped. */
    rd->stats.record_bytes += (uint64_t)(cs->p - cs->start);
    if ( cs->cur )
        free_window(rd, cs->cur);
    cs->cur = NULL;
    cs->p = cs->end = cs->start = NULL;
}

/* Moves the cursor to its next queued window; false if none queued. */
static bool next_window(struct xa_reader *rd, struct cpu_stream *cs)
{
    struct window *w = cs->head;

    if ( !w )
        return false;
    cs->head = w->next;
    if ( !cs->head )
        cs->tail = NULL;
    retire_window(rd, cs);
    cs->cur = w;
    cs->start = cs->p = w->data;
    cs->end = w->data + w->len;
    cs->base = w->offset;
    if ( w->mark )
        cs->mark = w->mark;

    /*
     * Keep the scan one window ahead of every window being read, as
     * upstream xenalyze does, so that a CPU whose first window comes later
     * in the file is known before its records are due.
     */
    while ( !rd->walk && !rd->eof && !rd->error &&
            rd->scan_off <= cs->base + (uint64_t)(cs->end - cs->start) )
        if ( xa_reader_scan(rd) < 0 )
            break;
    return true;
}

int xa_reader_next(struct xa_reader *rd, unsigned int cpu,
                   struct xa_record *rec)
{
    struct cpu_stream *cs;

    if ( cpu >= rd->cpus_len || !(cs = rd->cpus[cpu]) )
        return XA_E_INVAL;
    if ( cs->aside )
        return XA_AGAIN;

    for ( ;; )
    {
        const uint8_t *p = cs->p;
        size_t left = (size_t)(cs->end - p);
        uint32_t hdr;
        uint64_t tsc;

        if ( left == 0 )
        {
            int rc;

            if ( next_window(rd, cs) )
                continue;
            retire_window(rd, cs);
            if ( rd->walk )
                return XA_AGAIN;        /* xa_reader_walk() scans */
            while ( !cs->head )
            {
                /*
                 * Every window scanned past is kept until its CPU reads
                 * it.  Past the read-ahead bound, set this CPU aside rather
                 * than hold the rest of the input for it.
                 */
                if ( !rd->eof && rd->held > rd->lookahead_max )
                {
                    xa_diag_add(rd->diag, XA_DIAG_STREAM_LIMIT, rd->scan_off,
                                cpu);
                    cs->aside = true;
                    cs->mark = XA_DIAG_STREAM_LIMIT + 1;
                    rd->nr_aside++;
                    return XA_AGAIN;
                }
                rc = xa_reader_scan(rd);
                if ( rc == XA_END )
                {
                    cs->ended = true;
                    return XA_END;
                }
                if ( rc < 0 )
                    return rc;
            }
            continue;
        }
        if ( left < 4 )
            goto truncated;
        hdr = rd32(p);
        if ( left < reader_rec_size(hdr) )
            goto truncated;
        tsc = (hdr >> 31) ? rd64(p + 4) : 0;
        reader_decode(rd, cs, cpu, hdr, tsc, rec);
        if ( rec->event == XA_TRC_TRACE_WRAP_BUFFER )
            rd->stats.wraps++;
        else if ( rec->event == XA_TRC_LOST_RECORDS )
        {
            rd->stats.lost++;
            if ( rec->nr_extra >= 1 )
                rd->diag->lost_records += rec->extra[0];
            xa_diag_add(rd->diag, XA_DIAG_LOST_RECORDS, rec->offset, cpu);
        }
        return XA_OK;

    truncated:
        xa_diag_add(rd->diag, XA_DIAG_TRUNCATED_RECORD,
                    cs->base + (uint64_t)(p - cs->start), cpu);
        xa_diag_skip(rd->diag, XA_DIAG_TRUNCATED_RECORD, left);
        rd->stats.record_bytes -= left;
        cs->mark = XA_DIAG_TRUNCATED_RECORD + 1;
        cs->p = cs->end;
    }
}

int xa_reader_walk(struct xa_reader *rd, struct xa_record *rec)
{
    int rc;

    if ( !rd->walk )
    {
        rd->walk = true;
        rd->walk_cpu = -1;
    }
    for ( ;; )
    {
        if ( rd->walk_hdr )
        {
            rd->walk_hdr = false;
            memset(rec, 0, sizeof(*rec));
            rec->event = XA_TRC_TRACE_CPU_CHANGE;
            rec->offset = rd->hdr_off;
            rec->cpu = (uint16_t)rd->hdr_cpu;
            rec->nr_extra = 2;
            rec->extra[0] = rd->hdr_cpu;
            rec->extra[1] = rd->hdr_size;
            return XA_OK;
        }
        if ( rd->walk_cpu >= 0 )
        {
            rc = xa_reader_next(rd, (unsigned int)rd->walk_cpu, rec);
            if ( rc == XA_OK || rc < 0 )
                return rc;
            rd->walk_cpu = -1;
        }
        /* Each window is read to its end before the next is scanned. */
        rc = xa_reader_scan(rd);
        if ( rc != XA_OK )
            return rc;
        rd->walk_cpu = (int)rd->hdr_cpu;
        rd->walk_hdr = true;
    }
}

bool reader_peek_tsc(struct xa_reader *rd, struct cpu_stream *cs,
                     uint64_t *tsc)
{
    const uint8_t *p = cs->p, *end = cs->end;
    struct window *last = NULL, *w;

    for ( ;; )
    {
        while ( end - p >= 4 )
        {
            uint32_t h = rd32(p);

            if ( (size_t)(end - p) < reader_rec_size(h) )
                break;
            if ( h >> 31 )
            {
                *tsc = rd64(p + 4);
                return true;
            }
            p += reader_rec_size(h);
        }
        w = last ? last->next : cs->head;
        while ( !w )
        {
            if ( rd->eof || rd->error || rd->held > rd->lookahead_max ||
                 xa_reader_scan(rd) != XA_OK )
                return false;
            w = last ? last->next : cs->head;
        }
        last = w;
        p = w->data;
        end = w->data + w->len;
    }
}

uint64_t reader_touch(const struct xa_reader *rd, uint64_t from, uint64_t to)
{
    const volatile uint8_t *mem = rd->mem;
    uint8_t sink = 0;

    if ( rd->read || !rd->mapped )
        return to;
    if ( to > rd->size )
        to = rd->size;
    for ( ; from < to; from += 1u << 16 )
        sink ^= mem[from];
    (void)sink;
    return from;
}

void xa_reader_peek(struct xa_reader *rd,
                    bool (*fn)(void *arg, const struct xa_record *rec),
                    void *arg)
{
    unsigned int i;

    for ( i = 0; i < rd->nr_order; i++ )
    {
        unsigned int cpu = rd->order[i];
        const struct cpu_stream *cs = rd->cpus[cpu];
        const struct window *w = NULL;
        const uint8_t *p = cs->p, *end = cs->end;
        uint64_t base = cs->base;
        const uint8_t *start = cs->start;
        struct xa_record rec = { .cpu = (uint16_t)cpu };

        for ( ;; )
        {
            while ( end - p >= 4 )
            {
                uint32_t h = rd32(p), n = reader_rec_size(h), k;
                const uint8_t *q = p + 4;

                if ( (size_t)(end - p) < n )
                    break;
                rec.offset = base + (uint64_t)(p - start);
                rec.has_tsc = (uint8_t)(h >> 31);
                if ( h >> 31 )
                {
                    rec.tsc = rd64(q);
                    q += 8;
                }
                rec.event = h & 0x0fffffff;
                rec.nr_extra = (uint8_t)((h >> 28) & 7);
                for ( k = 0; k < rec.nr_extra; k++ )
                    rec.extra[k] = rd32(q + 4 * k);
                if ( !fn(arg, &rec) )
                    return;
                p += n;
            }
            w = w ? w->next : cs->head;
            if ( !w )
                break;
            p = start = w->data;
            end = w->data + w->len;
            base = w->offset;
        }
    }
}

unsigned int xa_reader_nr_cpus(const struct xa_reader *rd)
{
    return rd->nr_order;
}

unsigned int xa_reader_cpu_at(const struct xa_reader *rd, unsigned int i)
{
    return i < rd->nr_order ? rd->order[i] : 0;
}

int xa_reader_rejoin(struct xa_reader *rd)
{
    return rd->nr_rejoin ? (int)rd->rejoin[--rd->nr_rejoin] : -1;
}

void xa_reader_set_lookahead(struct xa_reader *rd, uint64_t bytes)
{
    rd->lookahead_max = bytes;
}

bool xa_reader_at_eof(const struct xa_reader *rd)
{
    return rd->eof;
}

const struct xa_reader_stats *xa_reader_stats(const struct xa_reader *rd)
{
    return &rd->stats;
}

/* Opening */

static struct xa_reader *reader_alloc(struct xa_diag *diag)
{
    struct xa_reader *rd = calloc(1, sizeof(*rd));

    if ( !rd )
        return NULL;
    rd->diag = diag;
    rd->lookahead_max = STREAM_LOOKAHEAD;
    return rd;
}

int xa_reader_open_mem(const void *data, size_t size, struct xa_diag *diag,
                       struct xa_reader **out)
{
    struct xa_reader *rd = reader_alloc(diag);

    if ( !rd )
        return XA_E_NOMEM;
    rd->mem = data;
    rd->size = size;
    rd->stats.bytes = size;
    *out = rd;
    return XA_OK;
}

int xa_reader_open_source(xa_read_fn *read, void *arg, struct xa_diag *diag,
                          struct xa_reader **out)
{
    struct xa_reader *rd = reader_alloc(diag);

    if ( !rd )
        return XA_E_NOMEM;
    rd->read = read;
    rd->read_arg = arg;
    *out = rd;
    return XA_OK;
}

/*
 * Streams fd through a byte source (source.h): plain, or decompressed as
 * its first bytes say.  owns: fd is closed with the reader (and on
 * failure).
 */
static int open_stream(int fd, bool owns, struct xa_diag *diag,
                       struct xa_reader **out)
{
    struct source *src;
    int rc = source_open(fd, owns, diag, &src);

    if ( rc )
    {
        if ( owns )
            close(fd);
        return rc;
    }
    rc = xa_reader_open_source(source_read, src, diag, out);
    if ( rc )
    {
        source_free(src);
        return rc;
    }
    (*out)->src = src;
    return XA_OK;
}

int xa_reader_open_fd(int fd, struct xa_diag *diag, struct xa_reader **out)
{
    return open_stream(fd, false, diag, out);
}

/* The stream after xa_reader_head(): the head's bytes, then the rest. */
static long head_read(void *arg, void *buf, size_t n)
{
    struct xa_reader *rd = arg;

    if ( rd->head_pos < rd->head_len )
    {
        size_t k = rd->head_len - rd->head_pos;

        if ( k > n )
            k = n;
        memcpy(buf, rd->head + rd->head_pos, k);
        rd->head_pos += k;
        if ( rd->head_pos == rd->head_len )
        {
            free(rd->head);
            rd->head = NULL;
        }
        return (long)k;
    }
    if ( rd->head_err )
        return rd->head_err;
    return rd->inner_read(rd->inner_arg, buf, n);
}

int xa_reader_head(struct xa_reader *rd, size_t n, const void **head,
                   size_t *len)
{
    if ( !rd->read )
    {
        *head = rd->mem;
        *len = rd->size < n ? rd->size : n;
        return XA_OK;
    }
    if ( rd->read != head_read )
    {
        if ( rd->sbuf_off || rd->sbuf_len || rd->stream_eof )
            return XA_E_INVAL;          /* reading has begun */
        if ( !(rd->head = malloc(n ? n : 1)) )
            return XA_E_NOMEM;
        while ( rd->head_len < n )
        {
            long r = rd->read(rd->read_arg, rd->head + rd->head_len,
                              n - rd->head_len);

            if ( r <= 0 )
            {
                rd->head_err = r;
                break;
            }
            rd->head_len += (size_t)r;
        }
        rd->inner_read = rd->read;
        rd->inner_arg = rd->read_arg;
        rd->read = head_read;
        rd->read_arg = rd;
    }
    if ( rd->head_pos )
        return XA_E_INVAL;
    *head = rd->head;
    *len = rd->head_len;
    return XA_OK;
}

int xa_reader_open(const char *path, struct xa_diag *diag,
                   struct xa_reader **out)
{
    struct xa_reader *rd = NULL;
    struct stat st;
    void *map = NULL;
    int fd = -1, rc;

    if ( !strcmp(path, "-") )
        return xa_reader_open_fd(STDIN_FILENO, diag, out);

    fd = open(path, O_RDONLY | O_CLOEXEC);
    if ( fd < 0 || fstat(fd, &st) < 0 )
    {
        rc = XA_E_SYS(errno);
        goto out;
    }
    if ( S_ISDIR(st.st_mode) )
    {
        rc = XA_E_SYS(EISDIR);
        goto out;
    }
    {
        uint8_t head[SOURCE_MAGIC_MAX];
        ssize_t n = S_ISREG(st.st_mode) ? pread(fd, head, sizeof(head), 0)
                                        : 0;

        /*
         * A pipe or device, or a compressed file: stream it (the reader
         * now owns fd).
         */
        if ( !S_ISREG(st.st_mode) ||
             (n > 0 && source_sniff(head, (size_t)n) != SOURCE_PLAIN) )
        {
            rc = open_stream(fd, true, diag, out);
            fd = -1;
            goto out;
        }
    }
    if ( st.st_size > 0 )
    {
        map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if ( map == MAP_FAILED )
        {
            map = NULL;
            rc = XA_E_SYS(errno);
            goto out;
        }
        madvise(map, (size_t)st.st_size, MADV_SEQUENTIAL);
        madvise(map, (size_t)st.st_size, MADV_WILLNEED);
    }
    rc = xa_reader_open_mem(map ? map : (const void *)"", (size_t)st.st_size,
                            diag, &rd);
    if ( rc )
        goto out;
    rd->mapped = map != NULL;
    map = NULL;
    *out = rd;
    rc = XA_OK;

 out:
    if ( map )
        munmap(map, (size_t)st.st_size);
    if ( fd >= 0 )
        close(fd);
    return rc;
}

void xa_reader_free(struct xa_reader *rd)
{
    unsigned int i;
    struct window *w;

    if ( !rd )
        return;
    for ( i = 0; i < rd->cpus_len; i++ )
    {
        struct cpu_stream *cs = rd->cpus[i];

        if ( !cs )
            continue;
        retire_window(rd, cs);
        while ( (w = cs->head) )
        {
            cs->head = w->next;
            free_window(rd, w);
        }
        free(cs);
    }
    while ( (w = rd->free_windows) )
    {
        rd->free_windows = w->next;
        free(w);
    }
    free(rd->cpus);
    free(rd->order);
    free(rd->rejoin);
    free(rd->sbuf);
    free(rd->head);
    source_free(rd->src);
    if ( rd->mapped )
        munmap((void *)(uintptr_t)rd->mem, rd->size);
    free(rd);
}
