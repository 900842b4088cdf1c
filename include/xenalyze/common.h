/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Common definitions of libxenalyze: export macro, status codes.
 */
#ifndef XA_COMMON_H
#define XA_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define XA_API __attribute__((visibility("default")))
#else
#define XA_API
#endif

/*
 * Status codes of system and usage errors.  XA_OK is 0, XA_END (end of
 * stream) and XA_AGAIN (nothing more for now: see xa_reader_next()) are
 * positive, errors are negative.  Data anomalies are never
 * reported through these: see diag.h.
 */
#define XA_ERRORS                                                   \
    XA_ERR(NOMEM,   -1, "out of memory")                            \
    XA_ERR(OPEN,    -2, "cannot open file")                         \
    XA_ERR(READ,    -3, "read error")                               \
    XA_ERR(WRITE,   -4, "write error")                              \
    XA_ERR(INVAL,   -5, "invalid argument")                         \
    XA_ERR(NODATA,  -6, "no valid trace record in the input")       \
    XA_ERR(RANGE,   -7, "value out of range")                       \
    XA_ERR(NOZLIB,  -8, "gzip-compressed, and libxenalyze was built "  \
           "without zlib: zcat FILE | xenalyze -")                  \
    XA_ERR(NOLZMA,  -9, "xz-compressed, and libxenalyze was built "    \
           "without liblzma: xzcat FILE | xenalyze -")              \
    XA_ERR(NOZSTD, -10, "zstd-compressed, and libxenalyze was built "  \
           "without libzstd: zstdcat FILE | xenalyze -")                \
    XA_ERR(AGAIN,  -11, "not done: to be done again another way")

enum xa_status {
    XA_OK = 0,
    XA_END = 1,
    XA_AGAIN = 2,
#define XA_ERR(name, val, str) XA_E_##name = (val),
    XA_ERRORS
#undef XA_ERR
};

/*
 * A system error carries errno's value: XA_E_SYS(EACCES) is negative,
 * below every XA_E_* code above, and xa_strerror() gives strerror()'s
 * text for it ("Permission denied").  XA_E_ERRNO(rc) gives the errno
 * back (0 when rc is not a system error).
 */
#define XA_E_SYS_BASE (-1000)
#define XA_E_SYS(err) (XA_E_SYS_BASE - (err))
#define XA_E_ERRNO(rc) ((rc) < XA_E_SYS_BASE ? XA_E_SYS_BASE - (rc) : 0)

/**
 * xa_strerror - human-readable text of a status code
 * @rc: XA_OK, XA_END, a negative XA_E_* code or XA_E_SYS(errno)
 */
XA_API const char *xa_strerror(int rc);

#ifdef __cplusplus
}
#endif

#endif /* XA_COMMON_H */
