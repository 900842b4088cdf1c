/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The protocol-buffer encoder: every field kind against bytes worked out
 * by hand from the encoding rules, nested lengths of 1, 2 and 3 bytes, and
 * a decode of the result that must find every field again.
 */
#include <string.h>

#include <xenalyze/out.h>

#include "util/pb.h"
#include "tap.h"

static bool same(const struct xa_out *o, const uint8_t *want, size_t n)
{
    return o->len == n && !memcmp(o->buf, want, n);
}

static void check_varints(void)
{
    static const struct {
        uint64_t v;
        uint8_t bytes[10];
        unsigned int n;
    } t[] = {
        { 0, { 0x00 }, 1 },
        { 1, { 0x01 }, 1 },
        { 127, { 0x7f }, 1 },
        { 128, { 0x80, 0x01 }, 2 },
        { 300, { 0xac, 0x02 }, 2 },
        { 16383, { 0xff, 0x7f }, 2 },
        { 16384, { 0x80, 0x80, 0x01 }, 3 },
        { 0xffffffffull, { 0xff, 0xff, 0xff, 0xff, 0x0f }, 5 },
        { UINT64_MAX, { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                        0xff, 0x01 }, 10 },
    };
    unsigned int i;

    for ( i = 0; i < sizeof(t) / sizeof(t[0]); i++ )
    {
        struct xa_out o;
        struct pb pb;

        xa_out_init(&o, -1);
        pb_init(&pb, &o);
        pb_varint(&pb, t[i].v);
        tap_ok(same(&o, t[i].bytes, t[i].n), "varint %llu: %u bytes",
               (unsigned long long)t[i].v, t[i].n);
        TAP_EQ(pb_varint_len(t[i].v), t[i].n, "varint_len %llu",
               (unsigned long long)t[i].v);
        xa_out_dispose(&o);
    }
}

static void check_fields(void)
{
    struct xa_out o;
    struct pb pb;
    /* field 1 = 150 (the encoding guide's example), field 2 = -1 (int64) */
    static const uint8_t want1[] = {
        0x08, 0x96, 0x01,
        0x10, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01,
    };
    /* field 47 fixed64: tag (47 << 3 | 1) = 377 = 0xf9 0x02, then LE */
    static const uint8_t want2[] = {
        0xf9, 0x02, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,
    };
    /* field 5 double 1.0: 0x3ff0000000000000 little-endian */
    static const uint8_t want3[] = {
        0x29, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f,
    };
    /* field 2 "testing" (the guide's example) */
    static const uint8_t want4[] = {
        0x12, 0x07, 't', 'e', 's', 't', 'i', 'n', 'g',
    };

    xa_out_init(&o, -1);
    pb_init(&pb, &o);
    pb_uint(&pb, 1, 150);
    pb_int(&pb, 2, -1);
    tap_ok(same(&o, want1, sizeof(want1)), "uint 150 and int64 -1");
    o.len = 0;
    pb_fixed64(&pb, 47, 0x0102030405060708ull);
    tap_ok(same(&o, want2, sizeof(want2)), "fixed64, two-byte tag");
    o.len = 0;
    pb_double(&pb, 5, 1.0);
    tap_ok(same(&o, want3, sizeof(want3)), "double 1.0");
    o.len = 0;
    pb_str(&pb, 2, "testing");
    tap_ok(same(&o, want4, sizeof(want4)), "string");
    xa_out_dispose(&o);
}

/* Reads a varint at *p (< end); false when truncated. */
static bool get_varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
    unsigned int shift = 0;

    *v = 0;
    while ( *p < end && shift < 64 )
    {
        uint8_t b = *(*p)++;

        *v |= (uint64_t)(b & 0x7f) << shift;
        if ( !(b & 0x80) )
            return true;
        shift += 7;
    }
    return false;
}

/*
 * Walks a message: every nested field 1..3 is a message again; returns
 * how many string fields of length `len` filled with `fill` it found, or
 * -1 when the encoding is broken.
 */
static int walk(const uint8_t *p, const uint8_t *end, size_t len, char fill)
{
    int found = 0;

    while ( p < end )
    {
        uint64_t key, n;

        if ( !get_varint(&p, end, &key) )
            return -1;
        switch ( key & 7 )
        {
        case PB_VARINT:
            if ( !get_varint(&p, end, &n) )
                return -1;
            break;
        case PB_FIXED64:
            if ( end - p < 8 )
                return -1;
            p += 8;
            break;
        case PB_LEN:
        {
            int sub;

            if ( !get_varint(&p, end, &n) || n > (uint64_t)(end - p) )
                return -1;
            if ( (key >> 3) <= 3 )
            {
                if ( (sub = walk(p, p + n, len, fill)) < 0 )
                    return -1;
                found += sub;
            }
            else if ( n == len && (n == 0 || (p[0] == fill &&
                                              p[n - 1] == fill)) )
                found++;
            p += n;
            break;
        }
        default:
            return -1;
        }
    }
    return found;
}

/* A nested message whose body is body_len bytes long. */
static void check_nested(size_t body_len, unsigned int len_bytes)
{
    static char s[70000];
    struct xa_out o;
    struct pb pb;
    size_t str_len = 0;
    uint64_t n;
    const uint8_t *p;

    /* One string field (tag 1 byte + length) filling the body exactly. */
    while ( body_len && 1 + pb_varint_len(str_len) + str_len < body_len )
        str_len++;
    memset(s, 'x', str_len);
    xa_out_init(&o, -1);
    pb_init(&pb, &o);
    pb_uint(&pb, 9, 42);                /* before: not moved */
    pb_begin(&pb, 1);
    if ( body_len )
        pb_bytes(&pb, 4, s, str_len);
    pb_end(&pb);
    pb_uint(&pb, 9, 43);                /* after */
    p = (const uint8_t *)o.buf + 2 + 1;
    tap_ok(get_varint(&p, (const uint8_t *)o.buf + o.len, &n) &&
           n == body_len && p == (const uint8_t *)o.buf + 3 + len_bytes,
           "nested body of %zu bytes: %u-byte length", body_len, len_bytes);
    TAP_EQ(o.len, 2 + 1 + len_bytes + body_len + 2,
           "nested body of %zu bytes: total size", body_len);
    tap_ok(walk((const uint8_t *)o.buf, (const uint8_t *)o.buf + o.len,
                str_len, 'x') == !!body_len && (uint8_t)o.buf[o.len - 1] == 43,
           "nested body of %zu bytes decodes", body_len);
    xa_out_dispose(&o);
}

static void check_deep(void)
{
    struct xa_out o;
    struct pb pb;
    unsigned int i;
    int found;

    /* Three levels, each with a long string: every length moves. */
    xa_out_init(&o, -1);
    pb_init(&pb, &o);
    for ( i = 0; i < 3; i++ )
    {
        static char s[200];

        memset(s, 'y', sizeof(s));
        pb_begin(&pb, 1 + i % 3);
        pb_bytes(&pb, 7, s, sizeof(s));
        pb_uint(&pb, 8, i);
    }
    for ( i = 0; i < 3; i++ )
        pb_end(&pb);
    found = walk((const uint8_t *)o.buf, (const uint8_t *)o.buf + o.len, 200,
                 'y');
    TAP_EQ(found, 3, "three nested levels of 200+ bytes decode");
    TAP_EQ(o.error, 0, "no error");
    for ( i = 0; i < PB_DEPTH_MAX; i++ )
        pb_begin(&pb, 1);
    tap_ok(pb_begin(&pb, 1) == -1 && o.error == XA_E_RANGE,
           "nesting beyond %d is refused", PB_DEPTH_MAX);
    xa_out_dispose(&o);
}

int main(void)
{
    check_varints();
    check_fields();
    check_nested(0, 1);
    check_nested(127, 1);
    check_nested(128, 2);
    check_nested(16383, 2);
    check_nested(16384, 3);
    check_nested(65000, 3);
    check_deep();
    return tap_done();
}
