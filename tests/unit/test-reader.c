/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Reader: the same trace through a mapping and through a stream gives the
 * same records; when a CPU falls silent the windows held stay within the
 * read-ahead bound (plus one window): the silent CPU is set aside with one
 * STREAM_LIMIT anomaly and rejoins when its last window comes, so that no
 * record is lost, from a file or a stream alike.  A stream's buffer does
 * not keep garbage it has passed (32 MiB of it between two windows took
 * 32 MiB; 1 GiB took 1 GiB), and moves each byte O(1) times (windows
 * claiming just under 256 MiB once moved 256 MiB per refill: 400 MB took
 * 33 s from a pipe and 0.44 s from the file).  Issue 11 item 6.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xenalyze/xenalyze.h>

#include "tap.h"

#define N0 200000               /* records on CPU 0 */

/* CPU 1 writes 10 records at the start and 10 at the end; CPU 0 N0. */
static const void *make_trace(struct xa_writer **w, size_t *size)
{
    struct xa_writer_opts opts = { .window_size = 4096 };
    uint32_t x[3] = { 1, 2, 3 };
    unsigned int i;

    if ( xa_writer_new(-1, &opts, w) )
        return NULL;
    for ( i = 0; i < 10; i++ )
        xa_writer_record(*w, 1, 0x00081001, true, 100 + i, x, 1);
    for ( i = 0; i < N0; i++ )
        xa_writer_record(*w, 0, 0x00082001, true, 1000 + i, x, 3);
    for ( i = 0; i < 10; i++ )
        xa_writer_record(*w, 1, 0x00081001, true, 1000 + N0 + i, x, 1);
    if ( xa_writer_finish(*w) )
        return NULL;
    return xa_writer_borrow_mem(*w, size);
}

/* Counts the records of each CPU through the merge. */
static void count(struct xa_reader *rd, uint64_t n[2])
{
    struct xa_merge *m = NULL;
    const struct xa_record *rec;

    n[0] = n[1] = 0;
    if ( xa_merge_new(rd, &m) )
        return;
    while ( xa_merge_next(m, &rec) == XA_OK )
        if ( rec->event != XA_EV_CPU_END && rec->cpu < 2 )
            n[rec->cpu]++;
    xa_merge_free(m);
}

/* A pipe: the bytes of a buffer, at most 64 KiB a read. */
struct pipe_src {
    const uint8_t *p;
    size_t len, off;
};

static long pipe_read(void *arg, void *buf, size_t n)
{
    struct pipe_src *s = arg;

    if ( n > 65536 )
        n = 65536;
    if ( n > s->len - s->off )
        n = s->len - s->off;
    memcpy(buf, s->p + s->off, n);
    s->off += n;
    return (long)n;
}

static void put32(uint8_t *p, uint32_t v)
{
    memcpy(p, &v, 4);
}

/* A CPU-change header (CPU 0, size) and one CONTINUE record at tsc. */
static size_t one_window(uint8_t *p, uint32_t size, uint64_t tsc)
{
    put32(p, 0x2001f003);
    put32(p + 4, 0);
    put32(p + 8, size);
    put32(p + 12, 0x00021002 | 1u << 28 | 1u << 31);
    memcpy(p + 16, &tsc, 8);
    put32(p + 24, 1u << 16);
    return 28;
}

/* Records read from a stream of data. */
static uint64_t stream_count(const uint8_t *data, size_t len,
                             struct xa_reader_stats *st)
{
    struct pipe_src src = { data, len, 0 };
    struct xa_reader *rd = NULL;
    struct xa_diag diag;
    uint64_t n[2] = { 0, 0 };

    xa_diag_init(&diag);
    if ( xa_reader_open_source(pipe_read, &src, &diag, &rd) )
        return 0;
    count(rd, n);
    *st = *xa_reader_stats(rd);
    xa_reader_free(rd);
    return n[0] + n[1];
}

static void stream_bounds(void)
{
    size_t g = 32u << 20, len = g + 56, i, off;
    uint8_t *b = malloc(len);
    struct xa_reader_stats st;
    uint32_t x = 12345;

    if ( !tap_ok(b != NULL, "32 MiB for the stream tests") )
        return;
    /* One window, 32 MiB of garbage (no CPU-change record), one more. */
    off = one_window(b, 16, 1000);
    for ( i = 0; i < g; i++ )
    {
        x = x * 1103515245u + 12345u;
        b[off + i] = (uint8_t)(x >> 16) & 0x7f;
    }
    one_window(b + off + g, 16, 2000);
    TAP_EQ(stream_count(b, len, &st), 2,
           "garbage: both windows' records, from a stream");
    tap_ok(st.stream_buf_peak <= (4u << 20),
           "garbage: the buffer peaked at %llu bytes (32 MiB passed)",
           (unsigned long long)st.stream_buf_peak);

    /*
     * 16 windows of 1 MiB of records, each header claiming just under
     * 256 MiB: every record read, each byte moved at most once.
     */
    len = 0;
    for ( i = 0; i < 16; i++ )
    {
        size_t w = len, r;

        len += one_window(b + len, 0, 1000 + i * 65536);
        for ( r = 1; r < 65536; r++ )
        {
            put32(b + len, 0x00021002 | 1u << 28 | 1u << 31);
            memcpy(b + len + 4, &(uint64_t){ 1000 + i * 65536 + r }, 8);
            put32(b + len + 12, 1u << 16);
            len += 16;
        }
        put32(b + w + 8, (256u << 20) - 16);
    }
    TAP_EQ(stream_count(b, len, &st), 16 * 65536,
           "big headers: every record, from a stream");
    tap_ok(st.stream_moved <= len,
           "big headers: %llu bytes moved for %zu read",
           (unsigned long long)st.stream_moved, len);
    free(b);
}

int main(void)
{
    struct xa_writer *w = NULL;
    struct xa_reader *rd = NULL;
    struct xa_diag diag;
    size_t size = 0;
    const void *data = make_trace(&w, &size);
    char path[] = "/tmp/xa-test-reader-XXXXXX";
    uint64_t n[2];
    unsigned int i;
    int fd;

    if ( !tap_ok(data != NULL, "trace written (%zu bytes)", size) )
        return tap_done();

    xa_diag_init(&diag);
    xa_reader_open_mem(data, size, &diag, &rd);
    count(rd, n);
    TAP_EQ(n[0], N0, "mapped: every record of CPU 0");
    TAP_EQ(n[1], 20, "mapped: every record of CPU 1");
    TAP_EQ(xa_diag_total(&diag, XA_LEVEL_WARN), 0, "mapped: no anomaly");
    xa_reader_free(rd);

    fd = mkstemp(path);
    if ( fd < 0 || write(fd, data, size) != (ssize_t)size )
        return tap_done();
    unlink(path);

    /* Default bound: the whole trace fits, the stream reads like the map. */
    lseek(fd, 0, SEEK_SET);
    xa_diag_init(&diag);
    xa_reader_open_fd(fd, &diag, &rd);
    count(rd, n);
    TAP_EQ(n[0], N0, "stream: every record of CPU 0");
    TAP_EQ(n[1], 20, "stream: every record of CPU 1");
    TAP_EQ(xa_diag_total(&diag, XA_LEVEL_WARN), 0, "stream: no anomaly");
    xa_reader_free(rd);

    /*
     * A 64 KiB bound: CPU 1's last records lie past it, so CPU 1 is set
     * aside once its first window is read, and comes back at the end;
     * the windows held never exceed the bound by more than one window.
     */
    for ( i = 0; i < 2; i++ )
    {
        const char *how = i ? "bounded stream" : "bounded file";

        lseek(fd, 0, SEEK_SET);
        xa_diag_init(&diag);
        if ( i )
            xa_reader_open_fd(fd, &diag, &rd);
        else
            xa_reader_open_mem(data, size, &diag, &rd);
        xa_reader_set_lookahead(rd, 64 << 10);
        count(rd, n);
        TAP_EQ(n[0], N0, "%s: every record of CPU 0", how);
        TAP_EQ(n[1], 20, "%s: every record of CPU 1", how);
        TAP_EQ(diag.e[XA_DIAG_STREAM_LIMIT].count, 1,
               "%s: CPU 1 set aside once", how);
        tap_ok(xa_reader_stats(rd)->readahead_peak <= (64 << 10) + 8192,
               "%s: at most %llu bytes held", how,
               (unsigned long long)xa_reader_stats(rd)->readahead_peak);
        xa_reader_free(rd);
    }
    close(fd);
    xa_writer_free(w);
    stream_bounds();
    return tap_done();
}
