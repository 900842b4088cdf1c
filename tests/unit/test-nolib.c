/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A build without zlib, liblzma and libzstd (the reader's byte sources
 * compiled without them, tests/source-nolib.o): a compressed trace, from a
 * file or a pipe, is refused with a status whose text says how to read it;
 * a plain one still reads.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xenalyze/xenalyze.h>

#include "tap.h"

static const struct {
    const char *name;
    unsigned char magic[6];
    int rc;
    const char *hint;
} cases[] = {
    { "gzip", { 0x1f, 0x8b, 8, 0, 0, 0 }, XA_E_NOZLIB, "zcat" },
    { "xz", { 0xfd, '7', 'z', 'X', 'Z', 0 }, XA_E_NOLZMA, "xzcat" },
    { "zstd", { 0x28, 0xb5, 0x2f, 0xfd, 0, 0 }, XA_E_NOZSTD, "zstdcat" },
};

int main(void)
{
    char path[] = "/tmp/xa-nolib-XXXXXX";
    int fd = mkstemp(path);
    struct xa_diag diag;
    struct xa_reader *rd = NULL;
    unsigned int i;
    int rc, p[2];

    if ( fd < 0 )
        return 1;
    xa_diag_init(&diag);
    for ( i = 0; i < sizeof(cases) / sizeof(cases[0]); i++ )
    {
        if ( ftruncate(fd, 0) || pwrite(fd, cases[i].magic, 6, 0) != 6 )
            return 1;
        rc = xa_reader_open(path, &diag, &rd);
        TAP_EQ(rc, cases[i].rc, "%s file refused", cases[i].name);
        tap_ok(strstr(xa_strerror(rc), cases[i].hint) != NULL,
               "%s: \"%s\"", cases[i].name, xa_strerror(rc));
        if ( pipe(p) || write(p[1], cases[i].magic, 6) != 6 )
            return 1;
        close(p[1]);
        rc = xa_reader_open_fd(p[0], &diag, &rd);
        TAP_EQ(rc, cases[i].rc, "%s pipe refused", cases[i].name);
        close(p[0]);
    }
    /* Plain bytes from a pipe still read (here: garbage, counted). */
    if ( pipe(p) || write(p[1], "not a trace at all", 18) != 18 )
        return 1;
    close(p[1]);
    rc = xa_reader_open_fd(p[0], &diag, &rd);
    TAP_EQ(rc, XA_OK, "plain pipe opens");
    if ( rc == XA_OK )
    {
        while ( (rc = xa_reader_scan(rd)) == XA_OK )
            ;
        TAP_EQ(rc, XA_END, "read to its end");
        TAP_EQ(xa_reader_stats(rd)->bytes, 18, "18 bytes read");
        xa_reader_free(rd);
    }
    close(p[0]);
    unlink(path);
    close(fd);
    return tap_done();
}
