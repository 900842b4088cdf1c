/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Data anomalies: counted, never fatal.
 */
#ifndef XA_DIAG_H
#define XA_DIAG_H

#include <xenalyze/common.h>

#ifdef __cplusplus
extern "C" {
#endif

enum xa_diag_level {
    XA_LEVEL_WARN,
    XA_LEVEL_SANITY,
    XA_LEVEL_RECORD,
    XA_LEVEL_FILE,
    XA_LEVEL_LIMIT,
};

enum xa_diag_kind {
#define XA_DIAG(name, level, desc) XA_DIAG_##name,
#include <xenalyze/diag.def>
#undef XA_DIAG
    XA_DIAG_NR
};

#define XA_DIAG_FIRST_MAX 4

struct xa_diag_entry {
    uint64_t count;
    uint64_t bytes;             /* input bytes skipped under this kind */
    unsigned int nr_first;
    uint64_t first_offset[XA_DIAG_FIRST_MAX];
    unsigned int first_cpu[XA_DIAG_FIRST_MAX];
};

struct xa_diag {
    struct xa_diag_entry e[XA_DIAG_NR];
    uint64_t lost_records;      /* sum of lost-records counts */
    uint64_t garbage_bytes;     /* = e[XA_DIAG_GARBAGE].bytes */
};

XA_API void xa_diag_init(struct xa_diag *d);
/* Counts one anomaly at a file offset (UINT64_MAX: none) and CPU. */
XA_API void xa_diag_add(struct xa_diag *d, enum xa_diag_kind kind,
                        uint64_t offset, unsigned int cpu);
/*
 * Counts n input bytes skipped under kind (not read as records): with the
 * CPU-change headers and the records read they add up to the input size.
 */
XA_API void xa_diag_skip(struct xa_diag *d, enum xa_diag_kind kind,
                         uint64_t n);
/* Input bytes skipped under every kind. */
XA_API uint64_t xa_diag_skipped(const struct xa_diag *d);
XA_API const char *xa_diag_name(enum xa_diag_kind kind);
XA_API const char *xa_diag_desc(enum xa_diag_kind kind);
XA_API enum xa_diag_level xa_diag_kind_level(enum xa_diag_kind kind);
XA_API const char *xa_diag_level_name(enum xa_diag_level level);
/* Parses "warn", "sanity", ... ; returns 0 or XA_E_INVAL. */
XA_API int xa_diag_level_parse(const char *s, enum xa_diag_level *level);
/* Total anomalies at or above level. */
XA_API uint64_t xa_diag_total(const struct xa_diag *d,
                              enum xa_diag_level level);
/* Adds src's counts into dst (first offsets kept where room). */
XA_API void xa_diag_merge(struct xa_diag *dst, const struct xa_diag *src);

#ifdef __cplusplus
}
#endif

#endif /* XA_DIAG_H */
