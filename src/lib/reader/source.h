/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Byte sources for the reader's stream path: a file descriptor read as
 * it is, or decompressed (gzip, xz, zstd: told by the first bytes, not by
 * the name) with zlib, liblzma or libzstd when libxenalyze was built with
 * them.  Memory is fixed: one input buffer and the decoder's state.
 */
#ifndef XA_READER_SOURCE_H
#define XA_READER_SOURCE_H

#include <xenalyze/diag.h>

enum source_format {
    SOURCE_PLAIN,
    SOURCE_GZIP,
    SOURCE_XZ,
    SOURCE_ZSTD,
};

/* Longest magic number looked at. */
#define SOURCE_MAGIC_MAX 6

struct source;

/* The format whose magic number starts p[0..n). */
enum source_format source_sniff(const void *p, size_t n);

/*
 * Reads fd (closed by source_free() when owns_fd) through a decoder for
 * what its first bytes are.  A damaged compressed stream ends the input
 * and is counted in diag (XA_DIAG_DAMAGED_COMPRESSED).  Returns XA_OK,
 * XA_E_NOZLIB/NOLZMA/NOZSTD when built without the decoder, or another
 * negative XA_E_* code.
 */
int source_open(int fd, bool owns_fd, struct xa_diag *diag,
                struct source **out);
/* An xa_read_fn: arg is the source. */
long source_read(void *arg, void *buf, size_t n);
void source_free(struct source *s);

#endif /* XA_READER_SOURCE_H */
