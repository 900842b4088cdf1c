/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Reader: CPU-change window walking, resynchronisation and per-CPU
 * record cursors.
 *
 * The scanner walks the input once, window by window, and queues each
 * window for its CPU.  A CPU's cursor walks its queued windows record by
 * record and asks the scanner for more when its queue runs dry.  A file
 * is mmapped and windows point into the mapping; a stream (stdin) is read
 * through a sliding buffer and each window is copied out.
 *
 * A window is trusted when its CPU-change record is followed, window-size
 * bytes later, by another CPU-change record or the end of the input.
 * Otherwise the scanner looks for the next plausible CPU-change record
 * (sane CPU number and size) and cuts the window there (its size lied) or
 * skips the bytes between (garbage).
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
#include "util/util-private.h"

#define HDR_SIZE 12u                        /* CPU-change record */
#define WINDOW_MAX (256u << 20)             /* 65535 pages of 4 KiB */
#define STREAM_CHUNK (1u << 20)
#define STREAM_LOOKAHEAD (256ull << 20)

/*
 * Source access.  peek() returns a pointer to the bytes at file offset
 * off and sets *avail to how many (up to want) are there; fewer only at
 * the end of the input.  In stream mode the pointer is valid until the
 * next peek().
 */
static int stream_fill(struct xa_reader *rd, uint64_t need_end)
{
    while ( !rd->stream_eof && rd->sbuf_off + rd->sbuf_len < need_end )
    {
        size_t want, room;
        ssize_t r;

        /* Drop what the scanner has passed. */
        if ( rd->scan_off > rd->sbuf_off )
        {
            size_t drop = (size_t)(rd->scan_off - rd->sbuf_off);

            if ( drop > rd->sbuf_len )
                drop = rd->sbuf_len;
            memmove(rd->sbuf, rd->sbuf + drop, rd->sbuf_len - drop);
            rd->sbuf_len -= drop;
            rd->sbuf_off += drop;
        }
        want = (size_t)(need_end - rd->sbuf_off - rd->sbuf_len);
        if ( want < STREAM_CHUNK )
            want = STREAM_CHUNK;
        room = rd->sbuf_cap - rd->sbuf_len;
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
        }
        r = read(rd->fd, rd->sbuf + rd->sbuf_len, room);
        if ( r < 0 )
        {
            if ( errno == EINTR )
                continue;
            return XA_E_READ;
        }
        if ( r == 0 )
            rd->stream_eof = true;
        rd->sbuf_len += (size_t)r;
        rd->stats.bytes += (uint64_t)r;
    }
    return XA_OK;
}

static const uint8_t *peek(struct xa_reader *rd, uint64_t off, size_t want,
                           size_t *avail)
{
    if ( rd->fd < 0 )
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
        /* Never happens: the scanner only moves forward. */
        *avail = 0;
        return NULL;
    }
    if ( stream_fill(rd, off + want) < 0 )
    {
        rd->error = XA_E_READ;
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

/* Where a window starting at off ends, if the record there is plausible. */
enum plaus {
    PLAUS_NO,
    PLAUS_OK,           /* followed by a CPU change or the end of input */
    PLAUS_PAST_EOF,     /* runs past the end of the input */
    PLAUS_UNBOUNDED,    /* followed by something else */
};

static enum plaus check_window(struct xa_reader *rd, uint64_t off,
                               uint32_t *cpu, uint32_t *size)
{
    size_t avail;
    const uint8_t *p = peek(rd, off, HDR_SIZE, &avail);
    uint64_t end;
    int32_t c;

    if ( avail < HDR_SIZE || rd32(p) != XA_TRC_TRACE_CPU_CHANGE_HDR )
        return PLAUS_NO;
    memcpy(&c, p + 4, 4);
    *cpu = (uint32_t)c;
    *size = rd32(p + 8);
    if ( *size % 4 || *size > WINDOW_MAX )
        return PLAUS_NO;
    end = off + HDR_SIZE + *size;
    p = peek(rd, end, 4, &avail);
    if ( avail == 4 )
        return rd32(p) == XA_TRC_TRACE_CPU_CHANGE_HDR ? PLAUS_OK
                                                      : PLAUS_UNBOUNDED;
    if ( avail > 0 )
        return PLAUS_UNBOUNDED;
    /* Nothing at end: exactly at the end of input, or past it. */
    p = peek(rd, end - 1, 1, &avail);
    return avail == 1 ? PLAUS_OK : PLAUS_PAST_EOF;
}

/*
 * Whether a CPU-change record found while resynchronising may start a
 * window: its CPU and size must be sane, but what lies at its end is not
 * checked.  Demanding another CPU change there would reject every window
 * of a trace whose windows are each followed by junk, and skip all of it.
 */
static bool plausible_start(struct xa_reader *rd, uint64_t off)
{
    uint32_t cpu, size;
    enum plaus pl = check_window(rd, off, &cpu, &size);

    return pl != PLAUS_NO && cpu <= XA_CPU_MAX;
}

/* First occurrence of the 4-byte magic in p[0..n), or NULL. */
static const uint8_t *find_magic(const uint8_t *p, size_t n,
                                 const uint8_t magic[4])
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
 * The offset of the next plausible window start at or after from, before
 * limit; limit if none.
 */
static uint64_t find_next_window(struct xa_reader *rd, uint64_t from,
                                 uint64_t limit)
{
    static const uint8_t magic[4] = { 0x03, 0xf0, 0x01, 0x20 };
    uint64_t off = from;

    while ( off < limit && !rd->error )
    {
        size_t avail, want = STREAM_CHUNK;
        const uint8_t *p, *hit;

        if ( limit - off < want )
            want = (size_t)(limit - off);
        p = peek(rd, off, want + 3, &avail);
        if ( avail < 4 )
            return limit;
        hit = find_magic(p, avail, magic);
        if ( !hit )
        {
            off += avail - 3;
            continue;
        }
        off += (uint64_t)(hit - p);
        if ( off >= limit )
            return limit;
        if ( plausible_start(rd, off) )
            return off;
        off++;
    }
    return limit;
}

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
    rd->stats.nr_cpus++;
    if ( cpu > rd->stats.max_cpu || rd->stats.nr_cpus == 1 )
        rd->stats.max_cpu = cpu;
    return cs;
}

static int queue_window(struct xa_reader *rd, unsigned int cpu,
                        uint64_t off, uint32_t len)
{
    struct cpu_stream *cs = get_cpu(rd, cpu);
    struct window *w;

    if ( !cs )
        return XA_E_NOMEM;
    rd->stats.windows++;
    if ( !len )
        return XA_OK;
    if ( cs->abandoned )
    {
        xa_diag_add(rd->diag, XA_DIAG_STREAM_LIMIT, off, cpu);
        return XA_OK;
    }

    w = rd->free_windows;
    if ( w )
        rd->free_windows = w->next;
    else if ( !(w = malloc(sizeof(*w))) )
        return XA_E_NOMEM;
    w->next = NULL;
    w->len = len;
    w->offset = off;
    w->owned = NULL;
    if ( rd->fd < 0 )
        w->data = rd->mem + off;
    else
    {
        size_t avail;
        const uint8_t *p = peek(rd, off, len, &avail);

        w->owned = malloc(len);
        if ( !w->owned || avail < len )
        {
            free(w->owned);
            w->next = rd->free_windows;
            rd->free_windows = w;
            return rd->error ? rd->error : XA_E_NOMEM;
        }
        memcpy(w->owned, p, len);
        w->data = w->owned;
        rd->queued_bytes += len;
    }
    if ( cs->tail )
        cs->tail->next = w;
    else
        cs->head = w;
    cs->tail = w;
    return XA_OK;
}

int xa_reader_scan(struct xa_reader *rd)
{
    uint64_t off, end, data, next;
    uint32_t cpu, size;
    enum plaus pl;
    size_t avail;
    int rc;

    for ( ;; )
    {
        if ( rd->error )
            return rd->error;
        if ( rd->eof )
            return XA_END;
        off = rd->scan_off;
        peek(rd, off, HDR_SIZE, &avail);
        if ( rd->error )
            return rd->error;
        if ( avail == 0 )
        {
            rd->eof = true;
            return XA_END;
        }
        if ( avail < HDR_SIZE )
        {
            xa_diag_add(rd->diag, XA_DIAG_TRUNCATED_TAIL, off, 0);
            rd->eof = true;
            return XA_END;
        }

        pl = check_window(rd, off, &cpu, &size);
        if ( pl == PLAUS_NO )
        {
            next = find_next_window(rd, off + 1, UINT64_MAX);
            if ( next == UINT64_MAX )
            {
                /* Garbage to the end: count what there is. */
                peek(rd, off, 1, &avail);
                next = rd->fd < 0 ? rd->size
                                  : rd->sbuf_off + rd->sbuf_len;
                rd->eof = true;
            }
            xa_diag_add(rd->diag, XA_DIAG_GARBAGE, off, 0);
            rd->diag->garbage_bytes += next - off;
            rd->scan_off = next;
            continue;
        }

        data = off + HDR_SIZE;
        end = data + size;
        next = end;
        if ( pl != PLAUS_OK )
        {
            /* The size lies, or the input ends early, or garbage follows. */
            uint64_t q = find_next_window(rd, data, UINT64_MAX);

            if ( q < end )
            {
                xa_diag_add(rd->diag, XA_DIAG_BAD_WINDOW_SIZE, off, cpu);
                end = next = q;
            }
            else if ( pl == PLAUS_PAST_EOF )
            {
                xa_diag_add(rd->diag, XA_DIAG_WINDOW_PAST_EOF, off, cpu);
                peek(rd, data, size, &avail);
                end = data + avail;
                next = end;
            }
            /* PLAUS_UNBOUNDED: keep the window; the scan meets garbage. */
        }
        if ( cpu > XA_CPU_MAX )
        {
            xa_diag_add(rd->diag, XA_DIAG_BAD_CPU, off, 0);
            rd->scan_off = next;
            continue;
        }
        /* Queue before moving on: a stream may drop what scan_off passed. */
        rc = queue_window(rd, cpu, data, (uint32_t)(end - data));
        rd->scan_off = next;
        return rc;
    }
}

static void retire_window(struct xa_reader *rd, struct cpu_stream *cs)
{
    if ( cs->owned )
        rd->queued_bytes -= (uint64_t)(cs->end - cs->start);
    free(cs->owned);
    cs->owned = NULL;
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
    cs->start = cs->p = w->data;
    cs->end = w->data + w->len;
    cs->base = w->offset;
    cs->owned = w->owned;
    w->next = rd->free_windows;
    rd->free_windows = w;

    /*
     * Keep the scan one window ahead of every window being read, as
     * upstream xenalyze does, so that a CPU whose first window comes later
     * in the file is known before its records are due.
     */
    while ( !rd->eof && !rd->error &&
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
            while ( !cs->head )
            {
                /*
                 * From a stream, every window scanned past is copied and
                 * kept until its CPU reads it.  A CPU that writes nothing
                 * more would make us keep the rest of the stream: past the
                 * read-ahead bound, give up on this CPU instead.
                 */
                if ( rd->fd >= 0 && rd->queued_bytes > rd->lookahead_max )
                {
                    xa_diag_add(rd->diag, XA_DIAG_STREAM_LIMIT, rd->scan_off,
                                cpu);
                    cs->abandoned = true;
                    retire_window(rd, cs);
                    cs->p = cs->end;
                    return XA_END;
                }
                rc = xa_reader_scan(rd);
                if ( rc == XA_END )
                {
                    retire_window(rd, cs);
                    cs->p = cs->end;
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
        if ( (hdr >> 31) && tsc < cs->last_tsc )
            xa_diag_add(rd->diag, XA_DIAG_TSC_BACKWARDS,
                        cs->base + (uint64_t)(p - cs->start), cpu);
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
        cs->p = cs->end;
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

static struct xa_reader *reader_alloc(struct xa_diag *diag)
{
    struct xa_reader *rd = calloc(1, sizeof(*rd));

    if ( !rd )
        return NULL;
    rd->fd = -1;
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

int xa_reader_open_fd(int fd, struct xa_diag *diag, struct xa_reader **out)
{
    struct xa_reader *rd = reader_alloc(diag);

    if ( !rd )
        return XA_E_NOMEM;
    rd->fd = fd;
    *out = rd;
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

    fd = open(path, O_RDONLY);
    if ( fd < 0 )
    {
        rc = XA_E_OPEN;
        goto out;
    }
    if ( fstat(fd, &st) < 0 )
    {
        rc = XA_E_READ;
        goto out;
    }
    if ( !S_ISREG(st.st_mode) )
    {
        /* A pipe or device: stream it; the reader now owns fd. */
        rc = xa_reader_open_fd(fd, diag, out);
        if ( rc == XA_OK )
        {
            (*out)->owns_fd = true;
            fd = -1;
        }
        goto out;
    }
    if ( st.st_size > 0 )
    {
        map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if ( map == MAP_FAILED )
        {
            map = NULL;
            rc = XA_E_READ;
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
        free(cs->owned);
        while ( (w = cs->head) )
        {
            cs->head = w->next;
            free(w->owned);
            free(w);
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
    free(rd->sbuf);
    if ( rd->owns_fd )
        close(rd->fd);
    if ( rd->mapped )
        munmap((void *)(uintptr_t)rd->mem, rd->size);
    free(rd);
}
