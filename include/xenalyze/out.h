/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * struct xa_out: a growable text buffer with fast integer formatting,
 * written out to a file descriptor (or kept in memory) by its owner.
 * A sticky error flag is checked once, at flush time.
 */
#ifndef XA_OUT_H
#define XA_OUT_H

#include <string.h>

#include <xenalyze/common.h>

#ifdef __cplusplus
extern "C" {
#endif

struct xa_out {
    char *buf;
    size_t len;
    size_t cap;
    int fd;             /* -1: memory only, never flushed */
    int error;          /* sticky: 0 or a negative XA_E_* */
};

XA_API void xa_out_init(struct xa_out *o, int fd);
XA_API void xa_out_dispose(struct xa_out *o);
/* Writes everything buffered to the fd; returns XA_OK or o->error. */
XA_API int xa_out_flush(struct xa_out *o);
/* Makes room for n more bytes; returns a pointer to them or NULL. */
XA_API char *xa_out_reserve(struct xa_out *o, size_t n);

XA_API void xa_out_mem_slow(struct xa_out *o, const void *p, size_t n);
XA_API void xa_out_u64(struct xa_out *o, uint64_t v);
XA_API void xa_out_i64(struct xa_out *o, int64_t v);
/* Decimal, right-aligned and padded with spaces to width. */
XA_API void xa_out_u64w(struct xa_out *o, uint64_t v, unsigned int width);
/* Decimal, zero-padded to width digits. */
XA_API void xa_out_u64z(struct xa_out *o, uint64_t v, unsigned int width);
/* Lower-case hex without prefix. */
XA_API void xa_out_hex(struct xa_out *o, uint64_t v);
/* Lower-case hex, zero-padded to width digits. */
XA_API void xa_out_hexw(struct xa_out *o, uint64_t v, unsigned int width);
/* printf-style; for cold paths only. */
XA_API void xa_out_printf(struct xa_out *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* A JSON string literal, quoted and escaped. */
XA_API void xa_out_json_str(struct xa_out *o, const char *s);
/* A CSV field: as is, or quoted when it holds a comma, quote or newline. */
XA_API void xa_out_csv_str(struct xa_out *o, const char *s);
/*
 * A double as printf's "%*.*f" writes it (right-aligned in width, rounded
 * to decimals places, a tie to even on the exact value), without printf
 * for finite values that are not negative and below 2^64 / 10^decimals.
 */
XA_API void xa_out_fixed(struct xa_out *o, double v, unsigned int width,
                         unsigned int decimals);
/* xa_out_fixed() with no width. */
XA_API void xa_out_double(struct xa_out *o, double v, unsigned int decimals);

/* Appends n bytes; inline because the dump calls it for every field. */
static inline void xa_out_mem(struct xa_out *o, const void *p, size_t n)
{
    if ( o->len + n <= o->cap )
    {
        char *d = o->buf + o->len;
        const char *s = (const char *)p;

        /* Short copies (names, fields) without a call: overlapping words. */
        if ( n >= 8 && n <= 16 )
        {
            memcpy(d, s, 8);
            memcpy(d + n - 8, s + n - 8, 8);
        }
        else if ( n >= 4 && n < 8 )
        {
            memcpy(d, s, 4);
            memcpy(d + n - 4, s + n - 4, 4);
        }
        else if ( n < 4 )
        {
            size_t i;

            for ( i = 0; i < n; i++ )
                d[i] = s[i];
        }
        else
            memcpy(d, s, n);
        o->len += n;
    }
    else
        xa_out_mem_slow(o, p, n);
}

static inline void xa_out_str(struct xa_out *o, const char *s)
{
    xa_out_mem(o, s, strlen(s));
}

static inline __attribute__((always_inline)) void
xa_out_char(struct xa_out *o, char c)
{
    if ( o->len < o->cap )
        o->buf[o->len++] = c;
    else
        xa_out_mem_slow(o, &c, 1);
}

/* Flushes when the buffer passes this size. */
#define XA_OUT_FLUSH_AT (1u << 16)

static inline void xa_out_maybe_flush(struct xa_out *o)
{
    if ( o->fd >= 0 && o->len >= XA_OUT_FLUSH_AT )
        xa_out_flush(o);
}

#ifdef __cplusplus
}
#endif

#endif /* XA_OUT_H */
