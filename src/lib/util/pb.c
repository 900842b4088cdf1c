/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Protocol-buffer encoding (https://protobuf.dev/programming-guides/encoding/):
 * little-endian fixed-width fields, and length-delimited nested messages
 * whose lengths are patched in when they end.
 */
#include <string.h>

#include "util/pb.h"

static void put_le64(struct pb *pb, uint64_t v)
{
    uint8_t b[8];
    unsigned int i;

    for ( i = 0; i < 8; i++ )
        b[i] = (uint8_t)(v >> (8 * i));
    xa_out_mem(pb->o, b, 8);
}

void pb_fixed64(struct pb *pb, unsigned int field, uint64_t v)
{
    pb_tag(pb, field, PB_FIXED64);
    put_le64(pb, v);
}

void pb_double(struct pb *pb, unsigned int field, double v)
{
    uint64_t u;

    memcpy(&u, &v, sizeof(u));
    pb_tag(pb, field, PB_FIXED64);
    put_le64(pb, u);
}

void pb_bytes(struct pb *pb, unsigned int field, const void *p, size_t n)
{
    pb_tag(pb, field, PB_LEN);
    pb_varint(pb, n);
    xa_out_mem(pb->o, p, n);
}

int pb_begin(struct pb *pb, unsigned int field)
{
    if ( pb->depth == PB_DEPTH_MAX )
    {
        pb->o->error = XA_E_RANGE;
        return -1;
    }
    pb_tag(pb, field, PB_LEN);
    xa_out_char(pb->o, 0);          /* one length byte, for now */
    pb->start[pb->depth++] = pb->o->len;
    return 0;
}

void pb_end(struct pb *pb)
{
    struct xa_out *o = pb->o;
    size_t start, len;
    unsigned int extra;
    char *room;

    if ( !pb->depth )
        return;
    start = pb->start[--pb->depth];
    if ( o->error || o->len < start )
        return;
    len = o->len - start;
    extra = pb_varint_len(len) - 1;
    if ( extra )
    {
        /* The body moves up to make room for the longer length. */
        room = xa_out_reserve(o, extra);
        if ( !room )
            return;
        memmove(o->buf + start + extra, o->buf + start, len);
        o->len += extra;
    }
    pb_varint_put((uint8_t *)o->buf + start - 1, len);
}
