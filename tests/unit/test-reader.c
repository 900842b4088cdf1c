/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Reader: the same trace through a mapping and through a stream gives the
 * same records; when a CPU falls silent the windows held stay within the
 * read-ahead bound (plus one window): the silent CPU is set aside with one
 * STREAM_LIMIT anomaly and rejoins when its last window comes, so that no
 * record is lost, from a file or a stream alike.
 */
#include <stdio.h>
#include <stdlib.h>
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
    return tap_done();
}
