/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Byte sources: plain or decompressed reads of a file descriptor.
 *
 * The first bytes are read into the input buffer to tell the format; a
 * plain source hands them out before reading on.  A decoder fills the
 * caller's buffer from a fixed input buffer, across concatenated members
 * (pigz, pzstd, xz's multi-stream files).  Where a decoder reports damage,
 * or the input ends inside a compressed stream, the source counts one
 * XA_DIAG_DAMAGED_COMPRESSED at the decompressed offset reached and ends:
 * what came before is read as usual.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef HAVE_ZLIB
#include <zlib.h>
#endif
#ifdef HAVE_LZMA
#include <lzma.h>
#endif
#ifdef HAVE_ZSTD
#include <zstd.h>
#endif

#include "source.h"

#define IN_SIZE (128u << 10)
/* xz: the most a decoder may take (xz -9 needs 65 MiB). */
#define XZ_MEMLIMIT (1ull << 30)

struct source {
    int fd;
    bool owns_fd;
    enum source_format fmt;
    struct xa_diag *diag;
    uint8_t *in;                            /* IN_SIZE bytes */
    size_t in_pos, in_len;                  /* unread: in[in_pos, in_len) */
    bool in_eof;                            /* fd read to its end */
    bool done;                              /* no more output */
    bool in_stream;                         /* inside a compressed member */
    bool bad;                               /* the decoder found damage */
    uint64_t out_off;                       /* bytes produced so far */
    /* One decoder step into buf: bytes produced; sets bad on damage. */
    long (*step)(struct source *s, uint8_t *buf, size_t n);
#ifdef HAVE_ZLIB
    z_stream z;
    bool z_init;
#endif
#ifdef HAVE_LZMA
    lzma_stream x;
    bool x_init;
#endif
#ifdef HAVE_ZSTD
    ZSTD_DStream *zs;
#endif
};

enum source_format source_sniff(const void *p, size_t n)
{
    static const uint8_t gz[] = { 0x1f, 0x8b };
    static const uint8_t xz[] = { 0xfd, '7', 'z', 'X', 'Z', 0x00 };
    static const uint8_t zst[] = { 0x28, 0xb5, 0x2f, 0xfd };

    if ( n >= sizeof(gz) && !memcmp(p, gz, sizeof(gz)) )
        return SOURCE_GZIP;
    if ( n >= sizeof(xz) && !memcmp(p, xz, sizeof(xz)) )
        return SOURCE_XZ;
    if ( n >= sizeof(zst) && !memcmp(p, zst, sizeof(zst)) )
        return SOURCE_ZSTD;
    return SOURCE_PLAIN;
}

/* Reads more input after what is unread; sets in_eof at the end. */
static int fill(struct source *s)
{
    ssize_t r;

    if ( s->in_pos == s->in_len )
        s->in_pos = s->in_len = 0;
    else if ( s->in_pos )
    {
        memmove(s->in, s->in + s->in_pos, s->in_len - s->in_pos);
        s->in_len -= s->in_pos;
        s->in_pos = 0;
    }
    do
        r = read(s->fd, s->in + s->in_len, IN_SIZE - s->in_len);
    while ( r < 0 && errno == EINTR );
    if ( r < 0 )
        return XA_E_SYS(errno);
    if ( r == 0 )
        s->in_eof = true;
    s->in_len += (size_t)r;
    return XA_OK;
}

/* The stream is damaged or cut short: count it once, end the input. */
static long damaged(struct source *s, size_t produced)
{
    s->out_off += produced;
    xa_diag_add(s->diag, XA_DIAG_DAMAGED_COMPRESSED, s->out_off, 0);
    s->done = true;
    return (long)produced;
}

#ifdef HAVE_ZLIB
static long step_gzip(struct source *s, uint8_t *buf, size_t n)
{
    int rc;

    s->z.next_in = s->in + s->in_pos;
    s->z.avail_in = (uInt)(s->in_len - s->in_pos);
    s->z.next_out = buf;
    s->z.avail_out = n > (1u << 30) ? 1u << 30 : (uInt)n;
    if ( !s->in_stream )
    {
        if ( inflateReset(&s->z) != Z_OK )
        {
            s->bad = true;
            return 0;
        }
        s->in_stream = true;
    }
    rc = inflate(&s->z, Z_NO_FLUSH);
    s->in_pos = s->in_len - s->z.avail_in;
    if ( rc == Z_STREAM_END )
        s->in_stream = false;           /* a member may follow */
    else if ( rc != Z_OK && rc != Z_BUF_ERROR )
        s->bad = true;
    return (long)((uint8_t *)s->z.next_out - buf);
}
#endif

#ifdef HAVE_LZMA
static long step_xz(struct source *s, uint8_t *buf, size_t n)
{
    lzma_ret rc;

    s->x.next_in = s->in + s->in_pos;
    s->x.avail_in = s->in_len - s->in_pos;
    s->x.next_out = buf;
    s->x.avail_out = n;
    s->in_stream = true;
    /* LZMA_CONCATENATED: LZMA_FINISH tells it the input has ended. */
    rc = lzma_code(&s->x, s->in_eof ? LZMA_FINISH : LZMA_RUN);
    s->in_pos = s->in_len - s->x.avail_in;
    if ( rc == LZMA_STREAM_END )
    {
        s->in_stream = false;
        s->done = true;
    }
    else if ( rc != LZMA_OK && rc != LZMA_BUF_ERROR )
        s->bad = true;
    return (long)(n - s->x.avail_out);
}
#endif

#ifdef HAVE_ZSTD
static long step_zstd(struct source *s, uint8_t *buf, size_t n)
{
    ZSTD_inBuffer in = { s->in + s->in_pos, s->in_len - s->in_pos, 0 };
    ZSTD_outBuffer out = { buf, n, 0 };
    size_t rc = ZSTD_decompressStream(s->zs, &out, &in);

    s->in_pos += in.pos;
    if ( ZSTD_isError(rc) )
        s->bad = true;
    else
        s->in_stream = rc != 0;     /* 0: a frame ended (more may follow) */
    return (long)out.pos;
}
#endif

long source_read(void *arg, void *buf, size_t n)
{
    struct source *s = arg;
    size_t produced = 0;
    int rc;

    if ( s->done || !n )
        return 0;
    if ( s->fmt == SOURCE_PLAIN )
    {
        ssize_t r;

        if ( s->in_pos < s->in_len )
        {
            produced = s->in_len - s->in_pos < n ? s->in_len - s->in_pos : n;
            memcpy(buf, s->in + s->in_pos, produced);
            s->in_pos += produced;
            return (long)produced;
        }
        do
            r = read(s->fd, buf, n);
        while ( r < 0 && errno == EINTR );
        if ( r < 0 )
            return XA_E_SYS(errno);
        return (long)r;
    }

    while ( !produced && !s->done )
    {
        long got;

        if ( s->in_pos == s->in_len && !s->in_eof )
        {
            if ( (rc = fill(s)) < 0 )
                return rc;
            continue;
        }
        /* The input ended between members: the end. */
        if ( s->in_pos == s->in_len && !s->in_stream )
        {
            s->done = true;
            break;
        }
        got = s->step(s, (uint8_t *)buf + produced, n - produced);
        produced += (size_t)got;
        if ( s->bad )
            return damaged(s, produced);
        /* All input given and nothing more comes out: the end. */
        if ( !got && s->in_eof && s->in_pos == s->in_len )
        {
            if ( s->in_stream )
                return damaged(s, produced);
            s->done = true;
        }
    }
    s->out_off += produced;
    return (long)produced;
}

static int decoder_init(struct source *s)
{
    switch ( s->fmt )
    {
    case SOURCE_PLAIN:
        return XA_OK;
    case SOURCE_GZIP:
#ifdef HAVE_ZLIB
        /* 15 + 32: a gzip or zlib header, told by zlib. */
        if ( inflateInit2(&s->z, 15 + 32) != Z_OK )
            return XA_E_NOMEM;
        s->z_init = true;
        s->step = step_gzip;
        return XA_OK;
#else
        return XA_E_NOZLIB;
#endif
    case SOURCE_XZ:
#ifdef HAVE_LZMA
    {
        lzma_stream init = LZMA_STREAM_INIT;

        s->x = init;
        if ( lzma_stream_decoder(&s->x, XZ_MEMLIMIT, LZMA_CONCATENATED) !=
             LZMA_OK )
            return XA_E_NOMEM;
        s->x_init = true;
        s->step = step_xz;
        return XA_OK;
    }
#else
        return XA_E_NOLZMA;
#endif
    case SOURCE_ZSTD:
#ifdef HAVE_ZSTD
        if ( !(s->zs = ZSTD_createDStream()) ||
             ZSTD_isError(ZSTD_initDStream(s->zs)) )
            return XA_E_NOMEM;
        s->step = step_zstd;
        return XA_OK;
#else
        return XA_E_NOZSTD;
#endif
    }
    return XA_E_INVAL;
}

int source_open(int fd, bool owns_fd, struct xa_diag *diag,
                struct source **out)
{
    struct source *s = calloc(1, sizeof(*s));
    int rc;

    if ( !s )
        return XA_E_NOMEM;
    s->fd = fd;
    s->diag = diag;
    if ( !(s->in = malloc(IN_SIZE)) )
    {
        free(s);
        return XA_E_NOMEM;
    }
    /* The first bytes tell the format (a pipe may give them piecemeal). */
    while ( s->in_len < SOURCE_MAGIC_MAX && !s->in_eof )
        if ( (rc = fill(s)) < 0 )
            goto fail;
    s->fmt = source_sniff(s->in, s->in_len);
    if ( (rc = decoder_init(s)) < 0 )
        goto fail;
    s->owns_fd = owns_fd;
    *out = s;
    return XA_OK;
 fail:
    source_free(s);
    return rc;
}

void source_free(struct source *s)
{
    if ( !s )
        return;
#ifdef HAVE_ZLIB
    if ( s->z_init )
        inflateEnd(&s->z);
#endif
#ifdef HAVE_LZMA
    if ( s->x_init )
        lzma_end(&s->x);
#endif
#ifdef HAVE_ZSTD
    ZSTD_freeDStream(s->zs);
#endif
    if ( s->owns_fd )
        close(s->fd);
    free(s->in);
    free(s);
}
