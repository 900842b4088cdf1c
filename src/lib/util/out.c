/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * struct xa_out: buffered text output with hand-written integer
 * formatting, so that the dump's hot loop never calls printf, and
 * fixed-point doubles, exactly as printf rounds them, for the summary's
 * thousands of columns.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xenalyze/out.h>

void xa_out_init(struct xa_out *o, int fd)
{
    o->buf = NULL;
    o->len = 0;
    o->cap = 0;
    o->fd = fd;
    o->error = 0;
}

void xa_out_dispose(struct xa_out *o)
{
    free(o->buf);
    o->buf = NULL;
    o->len = o->cap = 0;
}

int xa_out_flush(struct xa_out *o)
{
    size_t done = 0;

    if ( o->fd < 0 )
        return o->error;
    while ( done < o->len && !o->error )
    {
        ssize_t r = write(o->fd, o->buf + done, o->len - done);

        if ( r < 0 )
        {
            if ( errno == EINTR )
                continue;
            o->error = XA_E_SYS(errno);
            break;
        }
        done += (size_t)r;
    }
    o->len = 0;
    return o->error;
}

char *xa_out_reserve(struct xa_out *o, size_t n)
{
    if ( o->len + n > o->cap )
    {
        size_t cap = o->cap ? o->cap : 4096;
        char *p;

        while ( cap < o->len + n )
            cap *= 2;
        p = realloc(o->buf, cap);
        if ( !p )
        {
            o->error = XA_E_NOMEM;
            return NULL;
        }
        o->buf = p;
        o->cap = cap;
    }
    return o->buf + o->len;
}

void xa_out_mem_slow(struct xa_out *o, const void *p, size_t n)
{
    char *d = xa_out_reserve(o, n);

    if ( !d )
        return;
    memcpy(d, p, n);
    o->len += n;
}

/* Writes v in decimal at the end of tmp[24]; returns the first digit. */
static const char digit_pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233"
    "34353637383940414243444546474849505152535455565758596061626364656667"
    "6869707172737475767778798081828384858687888990919293949596979899";

static const uint64_t pow10[20] = {
    1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull,
    10000000ull, 100000000ull, 1000000000ull, 10000000000ull,
    100000000000ull, 1000000000000ull, 10000000000000ull,
    100000000000000ull, 1000000000000000ull, 10000000000000000ull,
    100000000000000000ull, 1000000000000000000ull,
    10000000000000000000ull,
};

/* Number of decimal digits of v: from its bit length, then one compare. */
static inline unsigned int nr_digits(uint64_t v)
{
    unsigned int n = ((64 - (unsigned int)__builtin_clzll(v | 1)) * 1233)
                     >> 12;

    return n + ((v | 1) >= pow10[n]);
}

/*
 * Writes the n low digits of v ending at end, two per division, in 32-bit
 * arithmetic once the value fits (most do: it is cheaper).
 */
static inline void put_digits(char *end, uint64_t v, unsigned int n)
{
    uint32_t w;

    while ( v > UINT32_MAX && n >= 2 )
    {
        end -= 2;
        memcpy(end, digit_pairs + 2 * (v % 100), 2);
        v /= 100;
        n -= 2;
    }
    w = (uint32_t)v;
    while ( n >= 2 )
    {
        end -= 2;
        memcpy(end, digit_pairs + 2 * (w % 100), 2);
        w /= 100;
        n -= 2;
    }
    if ( n )
        *--end = (char)('0' + w % 10);
}

/*
 * Decimal into the buffer directly: the dump prints tens of millions, most
 * of them one or two digits (CPU, domain and vCPU numbers, small fields).
 */
void xa_out_u64(struct xa_out *o, uint64_t v)
{
    unsigned int n;

    if ( v < 100 && o->len + 2 <= o->cap )
    {
        char *d = o->buf + o->len;

        if ( v < 10 )
        {
            *d = (char)('0' + v);
            o->len++;
        }
        else
        {
            memcpy(d, digit_pairs + 2 * v, 2);
            o->len += 2;
        }
        return;
    }
    n = nr_digits(v);
    if ( o->len + n > o->cap && !xa_out_reserve(o, n) )
        return;
    put_digits(o->buf + o->len + n, v, n);
    o->len += n;
}

void xa_out_i64(struct xa_out *o, int64_t v)
{
    if ( v < 0 )
    {
        xa_out_char(o, '-');
        xa_out_u64(o, (uint64_t)0 - (uint64_t)v);
    }
    else
        xa_out_u64(o, (uint64_t)v);
}

#define PAD_MAX 16

/*
 * Room for n characters right-aligned in width, the spaces before them
 * written (as one block of PAD_MAX, written over by what follows when
 * fewer); returns where the n characters go, NULL without memory.  The
 * caller adds *fill + n to o->len.
 */
static char *pad_spaces(struct xa_out *o, unsigned int n, unsigned int width,
                        unsigned int *fill)
{
    static const char spaces[PAD_MAX] = "                ";
    char *d;

    *fill = width > n ? width - n : 0;
    if ( o->len + *fill + n + PAD_MAX > o->cap &&
         !xa_out_reserve(o, *fill + n + PAD_MAX) )
        return NULL;
    d = o->buf + o->len;
    if ( *fill <= PAD_MAX )
        memcpy(d, spaces, PAD_MAX);
    else
        memset(d, ' ', *fill);
    return d + *fill;
}

/* v right-aligned in width, filled with pad (' ' or '0'). */
static void out_aligned(struct xa_out *o, uint64_t v, unsigned int width,
                        char pad)
{
    unsigned int n = nr_digits(v), fill;
    char *d = pad_spaces(o, n, width, &fill);

    if ( !d )
        return;
    /* Zeros come from put_digits() itself (leading zeros included). */
    put_digits(d + n, v, pad == '0' ? fill + n : n);
    o->len += fill + n;
}

void xa_out_u64w(struct xa_out *o, uint64_t v, unsigned int width)
{
    out_aligned(o, v, width, ' ');
}

void xa_out_u64z(struct xa_out *o, uint64_t v, unsigned int width)
{
    out_aligned(o, v, width, '0');
}

/* Lower-case hex, right-aligned in width with zeros, into the buffer. */
static void out_hex(struct xa_out *o, uint64_t v, unsigned int width)
{
    static const char digits[] = "0123456789abcdef";
    unsigned int n = (67 - (unsigned int)__builtin_clzll(v | 1)) / 4;
    char *d;

    if ( n < width )
        n = width;
    if ( o->len + n > o->cap && !xa_out_reserve(o, n) )
        return;
    d = o->buf + o->len + n;
    o->len += n;
    while ( n-- )
    {
        *--d = digits[v & 0xf];
        v >>= 4;
    }
}

void xa_out_hex(struct xa_out *o, uint64_t v)
{
    out_hex(o, v, 0);
}

void xa_out_hexw(struct xa_out *o, uint64_t v, unsigned int width)
{
    out_hex(o, v, width);
}

void xa_out_printf(struct xa_out *o, const char *fmt, ...)
{
    va_list ap;
    int n;
    char *d;

    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if ( n < 0 )
        return;
    d = xa_out_reserve(o, (size_t)n + 1);
    if ( !d )
        return;
    va_start(ap, fmt);
    vsnprintf(d, (size_t)n + 1, fmt, ap);
    va_end(ap);
    o->len += (size_t)n;
}

void xa_out_json_str(struct xa_out *o, const char *s)
{
    xa_out_char(o, '"');
    for ( ; *s; s++ )
    {
        unsigned char c = (unsigned char)*s;

        if ( c == '"' || c == '\\' )
        {
            xa_out_char(o, '\\');
            xa_out_char(o, (char)c);
        }
        else if ( c < 0x20 )
        {
            xa_out_str(o, "\\u00");
            xa_out_hexw(o, c, 2);
        }
        else
            xa_out_char(o, (char)c);
    }
    xa_out_char(o, '"');
}

void xa_out_csv_str(struct xa_out *o, const char *s)
{
    const char *p;

    if ( !strpbrk(s, ",\"\r\n") )
    {
        xa_out_str(o, s);
        return;
    }
    xa_out_char(o, '"');
    for ( p = s; *p; p++ )
    {
        if ( *p == '"' )
            xa_out_char(o, '"');
        xa_out_char(o, *p);
    }
    xa_out_char(o, '"');
}

#define FIXED_DECIMALS_MAX 9

/*
 * v (finite, not negative) times 10^decimals, rounded as printf rounds it:
 * to nearest, a tie to even, on the double's exact value.  The double is
 * m * 2^e exactly (m of 53 bits at most), so m * 10^decimals (83 bits at
 * most) is exact in 128 bits and the shift by -e decides the rounding.
 * False when the result does not fit 64 bits or there is no 128-bit type.
 */
static bool fixed_scaled(double v, unsigned int decimals, uint64_t *q)
{
#if defined(__SIZEOF_INT128__)
    unsigned __int128 x, rem, half;
    uint64_t bits, m;
    int e;

    memcpy(&bits, &v, sizeof(bits));
    if ( bits >> 63 || ((bits >> 52) & 0x7ff) == 0x7ff )
        return false;                   /* negative, -0, inf, NaN */
    m = bits & ((1ull << 52) - 1);
    e = (int)((bits >> 52) & 0x7ff);
    if ( e )
        m |= 1ull << 52;
    else
        e = 1;                          /* subnormal */
    e -= 1075;
    x = (unsigned __int128)m * pow10[decimals];
    if ( e >= 0 )
    {
        if ( e > 63 || (x << e) >> e != x || (x << e) >> 64 )
            return false;
        *q = (uint64_t)(x << e);
        return true;
    }
    if ( -e >= 127 )
    {
        *q = 0;                         /* below 2^-44: rounds to 0 */
        return true;
    }
    rem = x & (((unsigned __int128)1 << -e) - 1);
    half = (unsigned __int128)1 << (-e - 1);
    x >>= -e;
    if ( x >> 64 )
        return false;
    *q = (uint64_t)x;
    if ( rem > half || (rem == half && (*q & 1)) )
        (*q)++;
    return *q != 0 || x == 0;           /* false: wrapped at 2^64 */
#else
    (void)v;
    (void)decimals;
    (void)q;
    return false;
#endif
}

void xa_out_fixed(struct xa_out *o, double v, unsigned int width,
                  unsigned int decimals)
{
    uint64_t q, unit;
    unsigned int n, fill;
    char *d;

    if ( decimals > FIXED_DECIMALS_MAX || !fixed_scaled(v, decimals, &q) )
    {
        xa_out_printf(o, "%*.*f", (int)width, (int)decimals, v);
        return;
    }
    unit = pow10[decimals];
    /* The integer part's digits, the point, the fraction's. */
    n = nr_digits(q / unit) + (decimals ? decimals + 1 : 0);
    if ( !(d = pad_spaces(o, n, width, &fill)) )
        return;
    if ( decimals )
    {
        put_digits(d + n, q % unit, decimals);
        d[n - decimals - 1] = '.';
        put_digits(d + n - decimals - 1, q / unit, n - decimals - 1);
    }
    else
        put_digits(d + n, q, n);
    o->len += fill + n;
}

void xa_out_double(struct xa_out *o, double v, unsigned int decimals)
{
    xa_out_fixed(o, v, 0, decimals);
}
