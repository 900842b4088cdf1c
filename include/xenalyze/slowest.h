/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --slowest=N: the N longest exits (overall, or N per reason), each with
 * the records from its exit to its entry on that pCPU and the scheduling
 * records of the other pCPUs in that interval, in dump format.  Bounded
 * memory: a ring of the latest records of each pCPU, copied out when an
 * exit enters the top N (a pipe has only that); a file is read a second
 * time for exits longer than the ring.
 */
#ifndef XA_SLOWEST_H
#define XA_SLOWEST_H

#include <xenalyze/filter.h>
#include <xenalyze/model.h>
#include <xenalyze/report.h>

#ifdef __cplusplus
extern "C" {
#endif

struct xa_slowest_opts {
    unsigned int n;                 /* exits kept (per reason) */
    bool per_reason;
    unsigned int ring;              /* records kept per pCPU (0: 4096) */
    unsigned int max_records;       /* shown per exit (0: 200) */
    const struct xa_filter *filter; /* only exits beginning in its window,
                                       of its vCPUs (NULL: all) */
    uint64_t hz;                    /* for the window: the rate given, or 0
                                       (the trace's clock record, else the
                                       default) */
};

struct xa_slowest;

XA_API int xa_slowest_new(const struct xa_slowest_opts *o,
                          struct xa_slowest **out);
XA_API void xa_slowest_free(struct xa_slowest *s);
/* The callbacks to add to the model (xa_model_add_observer()). */
XA_API void xa_slowest_observer(struct xa_slowest *s,
                                struct xa_model_observer *obs);
/* Every record, before xa_model_feed() sees it. */
XA_API void xa_slowest_record(struct xa_slowest *s, const struct xa_record *rec,
                              const struct xa_model *m);
/*
 * A file can be read again for exits longer than a ring holds: when
 * xa_slowest_incomplete(), call xa_slowest_refill(), then feed every
 * record of a second pass through a fresh model as in the first one.
 */
XA_API bool xa_slowest_incomplete(const struct xa_slowest *s);
XA_API void xa_slowest_refill(struct xa_slowest *s);
/* The exits, longest first, with their records (d: times and names). */
XA_API void xa_slowest_render(const struct xa_slowest *s, struct xa_dump *d,
                              const struct xa_summary *sum, struct xa_out *o);

#ifdef __cplusplus
}
#endif

#endif /* XA_SLOWEST_H */
