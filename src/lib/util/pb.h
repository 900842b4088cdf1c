/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A small protocol-buffer encoder: varint, fixed64, double and
 * length-delimited fields, and nested messages, written straight into a
 * struct xa_out.  Enough for Perfetto's TracePacket; no schema, no
 * reflection, no allocation beyond the output buffer.
 *
 * A nested message reserves one byte for its length; when it ends longer
 * than 127 bytes its body moves up by the extra length bytes, so every
 * length is the shortest varint (no padded varints as protozero writes).
 * Keep nested messages small (a packet), and flush the output only between
 * top-level messages: the open messages' offsets point into o->buf.
 */
#ifndef UTIL_PB_H
#define UTIL_PB_H

#include <xenalyze/out.h>

enum pb_wire {
    PB_VARINT = 0,
    PB_FIXED64 = 1,
    PB_LEN = 2,
    PB_FIXED32 = 5,
};

#define PB_DEPTH_MAX 8

struct pb {
    struct xa_out *o;
    unsigned int depth;
    size_t start[PB_DEPTH_MAX];     /* offset of each open body */
};

static inline void pb_init(struct pb *pb, struct xa_out *o)
{
    pb->o = o;
    pb->depth = 0;
}

/* Bytes a varint of v takes (1 to 10). */
static inline unsigned int pb_varint_len(uint64_t v)
{
    unsigned int n = 1;

    while ( v >= 0x80 )
    {
        v >>= 7;
        n++;
    }
    return n;
}

/* Writes v as a varint at p; returns the bytes written. */
static inline unsigned int pb_varint_put(uint8_t *p, uint64_t v)
{
    unsigned int n = 0;

    while ( v >= 0x80 )
    {
        p[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    p[n++] = (uint8_t)v;
    return n;
}

/* Room for n more bytes at the end of the output, or NULL. */
static inline uint8_t *pb_room(struct pb *pb, size_t n)
{
    struct xa_out *o = pb->o;

    if ( o->len + n <= o->cap )
        return (uint8_t *)o->buf + o->len;
    return (uint8_t *)xa_out_reserve(o, n);
}

static inline void pb_varint(struct pb *pb, uint64_t v)
{
    uint8_t *p = pb_room(pb, 10);

    if ( p )
        pb->o->len += pb_varint_put(p, v);
}

static inline void pb_tag(struct pb *pb, unsigned int field, enum pb_wire w)
{
    pb_varint(pb, (uint64_t)field << 3 | w);
}

/* uint32/uint64/bool/enum fields; int64 as two's complement (10 bytes). */
static inline void pb_uint(struct pb *pb, unsigned int field, uint64_t v)
{
    uint8_t *p = pb_room(pb, 20), *q = p;

    if ( !p )
        return;
    /* Most tags and many values take one byte. */
    if ( field < 16 )
        *q++ = (uint8_t)(field << 3 | PB_VARINT);
    else
        q += pb_varint_put(q, (uint64_t)field << 3 | PB_VARINT);
    if ( v < 0x80 )
        *q++ = (uint8_t)v;
    else
        q += pb_varint_put(q, v);
    pb->o->len += (size_t)(q - p);
}

static inline void pb_int(struct pb *pb, unsigned int field, int64_t v)
{
    pb_uint(pb, field, (uint64_t)v);
}

void pb_fixed64(struct pb *pb, unsigned int field, uint64_t v);
void pb_double(struct pb *pb, unsigned int field, double v);
void pb_bytes(struct pb *pb, unsigned int field, const void *p, size_t n);

static inline void pb_str(struct pb *pb, unsigned int field, const char *s)
{
    pb_bytes(pb, field, s, strlen(s));
}

/*
 * Opens a nested message (or the packet itself) in field; returns 0, or
 * -1 beyond PB_DEPTH_MAX (the output's error is then set).
 */
int pb_begin(struct pb *pb, unsigned int field);
/* Closes the innermost open message, writing its length. */
void pb_end(struct pb *pb);

#endif /* UTIL_PB_H */
