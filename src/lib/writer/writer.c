/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Writer: per-CPU buffers of encoded t_rec records (xen/common/trace.c),
 * written out as xentrace's CPU-change windows (tools/xentrace/xentrace.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xenalyze/reader.h>
#include <xenalyze/trace.h>
#include <xenalyze/writer.h>

#include "util/util-private.h"

#define OUT_DEFAULT (4u << 20)
#define LOST_REC_SIZE (4u + 8u + 16u)   /* header + tsc + struct ed */
#define WIN_HDR_SIZE 12u

struct wcpu {
    uint8_t *buf;
    uint32_t len;
    uint32_t ring_pos;          /* bytes into Xen's ring, < tbuf_size */
    uint64_t last_tsc;
    bool have_tsc;
};

struct xa_writer {
    uint32_t window_size;
    uint32_t tbuf_size;
    int fd;
    int error;                  /* sticky: 0 or a negative XA_E_* */

    uint8_t *obuf;              /* fd: pending output; mem: everything */
    size_t olen, ocap;

    struct wcpu **cpus;         /* indexed by CPU number */
    unsigned int cpus_len;
    unsigned int *order;        /* CPUs in use, ascending */
    unsigned int nr_order;

    struct xa_writer_stats stats;
};

static inline void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static inline void put64(uint8_t *p, uint64_t v)
{
    put32(p, (uint32_t)v);
    put32(p + 4, (uint32_t)(v >> 32));
}

static int write_all(struct xa_writer *w, const uint8_t *p, size_t n)
{
    while ( n && !w->error )
    {
        ssize_t r = write(w->fd, p, n);

        if ( r < 0 )
        {
            if ( errno == EINTR )
                continue;
            w->error = XA_E_SYS(errno);
            break;
        }
        p += r;
        n -= (size_t)r;
    }
    return w->error;
}

static int out_flush(struct xa_writer *w)
{
    if ( w->fd >= 0 && w->olen )
    {
        write_all(w, w->obuf, w->olen);
        w->olen = 0;
    }
    return w->error;
}

static void out_bytes(struct xa_writer *w, const void *p, size_t n)
{
    if ( w->error )
        return;
    if ( w->olen + n > w->ocap )
    {
        if ( w->fd >= 0 )
        {
            out_flush(w);
            if ( n >= w->ocap )
            {
                write_all(w, p, n);
                return;
            }
        }
        else
        {
            size_t cap = w->ocap ? w->ocap : 1u << 16;
            uint8_t *nb;

            while ( cap < w->olen + n )
                cap *= 2;
            nb = realloc(w->obuf, cap);
            if ( !nb )
            {
                w->error = XA_E_NOMEM;
                return;
            }
            w->obuf = nb;
            w->ocap = cap;
        }
    }
    memcpy(w->obuf + w->olen, p, n);
    w->olen += n;
}

int xa_writer_poll(struct xa_writer *w)
{
    unsigned int i;

    for ( i = 0; i < w->nr_order && !w->error; i++ )
    {
        unsigned int cpu = w->order[i];
        struct wcpu *c = w->cpus[cpu];
        uint8_t hdr[WIN_HDR_SIZE];

        if ( !c->len )
            continue;
        put32(hdr, XA_TRC_TRACE_CPU_CHANGE_HDR);
        put32(hdr + 4, cpu);
        put32(hdr + 8, c->len);
        out_bytes(w, hdr, sizeof(hdr));
        out_bytes(w, c->buf, c->len);
        w->stats.windows++;
        w->stats.bytes += WIN_HDR_SIZE + c->len;
        c->len = 0;
    }
    return w->error;
}

int xa_writer_finish(struct xa_writer *w)
{
    xa_writer_poll(w);
    return out_flush(w);
}

/* The buffer of a CPU, created on first use; NULL on error. */
static struct wcpu *new_cpu(struct xa_writer *w, unsigned int cpu)
{
    struct wcpu *c;
    unsigned int i;

    if ( cpu > XA_CPU_MAX )
    {
        w->error = XA_E_INVAL;
        return NULL;
    }
    if ( xa_grow(&w->cpus, &w->cpus_len, sizeof(*w->cpus), cpu, 64) )
        goto nomem;
    if ( (c = w->cpus[cpu]) )
        return c;

    c = calloc(1, sizeof(*c));
    if ( !c )
        goto nomem;
    c->buf = malloc(w->window_size);
    if ( !c->buf )
    {
        free(c);
        goto nomem;
    }
    {
        unsigned int *o = realloc(w->order,
                                  (w->nr_order + 1) * sizeof(*o));

        if ( !o )
        {
            free(c->buf);
            free(c);
            goto nomem;
        }
        w->order = o;
    }
    /* Keep the poll order ascending. */
    for ( i = w->nr_order; i > 0 && w->order[i - 1] > cpu; i-- )
        w->order[i] = w->order[i - 1];
    w->order[i] = cpu;
    w->nr_order++;
    w->cpus[cpu] = c;
    return c;

 nomem:
    w->error = XA_E_NOMEM;
    return NULL;
}

static inline struct wcpu *get_cpu(struct xa_writer *w, unsigned int cpu)
{
    if ( cpu < w->cpus_len && w->cpus[cpu] )
        return w->cpus[cpu];
    return new_cpu(w, cpu);
}

/* Appends one encoded record; the caller has made room. */
static inline void put_rec(struct xa_writer *w, struct wcpu *c,
                           uint32_t event, bool has_tsc, uint64_t tsc,
                           const uint32_t *extra, unsigned int nr_extra)
{
    uint8_t *p = c->buf + c->len;
    unsigned int i;

    put32(p, (event & 0x0fffffff) | (nr_extra << 28) |
             ((uint32_t)has_tsc << 31));
    p += 4;
    if ( has_tsc )
    {
        put64(p, tsc);
        p += 8;
        c->last_tsc = tsc;
        c->have_tsc = true;
    }
    else
        w->stats.tscless++;
    for ( i = 0; i < nr_extra; i++, p += 4 )
        put32(p, extra ? extra[i] : 0);
    c->len = (uint32_t)(p - c->buf);
    if ( w->tbuf_size )
    {
        c->ring_pos += 4 + (has_tsc ? 8 : 0) + nr_extra * 4;
        if ( c->ring_pos >= w->tbuf_size )
            c->ring_pos -= w->tbuf_size;
    }
    w->stats.records++;
}

/*
 * Makes room for a record of size bytes: pads to the end of Xen's ring
 * when the record would cross it (insert_wrap_record()), and polls when
 * the CPU's buffer cannot take padding and record.
 */
static inline int make_room(struct xa_writer *w, struct wcpu *c,
                            uint32_t size, uint64_t tsc_hint)
{
    uint32_t pad = 0;

    if ( w->tbuf_size )
    {
        uint32_t to_wrap = w->tbuf_size - c->ring_pos;

        if ( size > to_wrap )
            pad = to_wrap;
    }
    if ( c->len + pad + size > w->window_size && xa_writer_poll(w) )
        return w->error;
    if ( pad )
    {
        uint32_t extra_space = pad - 4;
        bool cycles = false;

        if ( extra_space / 4 > XA_EXTRA_MAX )
        {
            cycles = true;
            extra_space -= 8;
        }
        put_rec(w, c, XA_TRC_TRACE_WRAP_BUFFER, cycles,
                c->have_tsc ? c->last_tsc : tsc_hint, NULL, extra_space / 4);
        w->stats.wraps++;
    }
    return XA_OK;
}

int xa_writer_record(struct xa_writer *w, unsigned int cpu, uint32_t event,
                     bool has_tsc, uint64_t tsc, const uint32_t *extra,
                     unsigned int nr_extra)
{
    struct wcpu *c;

    if ( w->error )
        return w->error;
    if ( nr_extra > XA_EXTRA_MAX )
        return XA_E_INVAL;
    c = get_cpu(w, cpu);
    if ( !c )
        return w->error;
    if ( make_room(w, c, 4 + (has_tsc ? 8 : 0) + nr_extra * 4,
                   has_tsc ? tsc : c->last_tsc) )
        return w->error;
    put_rec(w, c, event, has_tsc, tsc, extra, nr_extra);
    return XA_OK;
}

int xa_writer_lost(struct xa_writer *w, unsigned int cpu, uint64_t tsc,
                   uint32_t count, uint16_t domid, uint16_t vcpuid,
                   uint64_t first_tsc)
{
    uint32_t ed[4];
    struct wcpu *c;

    if ( w->error )
        return w->error;
    c = get_cpu(w, cpu);
    if ( !c )
        return w->error;
    /* A TSC'd pad before it must not sort after first_tsc. */
    if ( make_room(w, c, LOST_REC_SIZE, first_tsc) )
        return w->error;
    ed[0] = count;
    ed[1] = ((uint32_t)vcpuid << 16) | domid;
    ed[2] = (uint32_t)first_tsc;
    ed[3] = (uint32_t)(first_tsc >> 32);
    put_rec(w, c, XA_TRC_LOST_RECORDS, true, tsc, ed, 4);
    w->stats.lost++;
    return XA_OK;
}

const struct xa_writer_stats *xa_writer_stats(const struct xa_writer *w)
{
    return &w->stats;
}

const void *xa_writer_borrow_mem(const struct xa_writer *w, size_t *size)
{
    *size = w->fd < 0 ? w->olen : 0;
    return w->obuf;
}

int xa_writer_new(int fd, const struct xa_writer_opts *opts,
                  struct xa_writer **out)
{
    struct xa_writer *w;
    uint32_t win = opts && opts->window_size ? opts->window_size
                                             : XA_WRITER_WINDOW_DEFAULT;
    uint32_t tbuf = opts ? opts->tbuf_size : 0;
    uint32_t obuf = opts && opts->out_buffer ? opts->out_buffer
                                             : OUT_DEFAULT;

    if ( win < XA_WRITER_WINDOW_MIN || win > XA_WRITER_WINDOW_MAX ||
         win % 4 || (tbuf && (tbuf < XA_WRITER_TBUF_MIN || tbuf % 4)) )
        return XA_E_INVAL;
    w = calloc(1, sizeof(*w));
    if ( !w )
        return XA_E_NOMEM;
    w->window_size = win;
    w->tbuf_size = tbuf;
    w->fd = fd;
    if ( fd >= 0 )
    {
        w->obuf = malloc(obuf);
        if ( !w->obuf )
        {
            free(w);
            return XA_E_NOMEM;
        }
        w->ocap = obuf;
    }
    *out = w;
    return XA_OK;
}

void xa_writer_free(struct xa_writer *w)
{
    unsigned int i;

    if ( !w )
        return;
    for ( i = 0; i < w->nr_order; i++ )
    {
        free(w->cpus[w->order[i]]->buf);
        free(w->cpus[w->order[i]]);
    }
    free(w->cpus);
    free(w->order);
    free(w->obuf);
    free(w);
}
