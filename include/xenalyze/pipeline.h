/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Pipeline: the merge in one thread, the consumer in the caller's, with
 * batches of records in between, so that reading and analysing use two
 * CPUs.  Memory is bounded: a fixed number of fixed-size batches.
 */
#ifndef XA_PIPELINE_H
#define XA_PIPELINE_H

#include <xenalyze/merge.h>

#ifdef __cplusplus
extern "C" {
#endif

#define XA_PIPE_BATCH 2048

/* Runs in the producer thread for every record, in order. */
typedef void xa_pipe_produce_fn(void *arg, const struct xa_record *rec,
                                uint64_t *aux);
/*
 * Runs in the calling thread for every batch, in order: n records and,
 * beside each, what the producer hook said of it (0 without a hook).
 */
typedef void xa_pipe_consume_fn(void *arg, const struct xa_record *recs,
                                const uint64_t *aux, unsigned int n);

/**
 * xa_pipeline_run - merge in a second thread, consume in this one
 * @m: the merge (used only by the producer thread until this returns)
 * @threads: 1: merge and consume in turn in this thread; more: two
 * @batch: records per batch, 1 to XA_PIPE_BATCH (0: XA_PIPE_BATCH)
 * @produce: optional hook in the producer thread (NULL: aux is 0)
 * @parg: its argument
 * @consume: called for each batch
 * @carg: its argument
 *
 * Falls back to one thread if a thread cannot be made.  Returns XA_OK
 * at the end of the stream or the merge's negative XA_E_* code.
 */
XA_API int xa_pipeline_run(struct xa_merge *m, unsigned int threads,
                           unsigned int batch, xa_pipe_produce_fn *produce, void *parg,
                           xa_pipe_consume_fn *consume, void *carg);

#ifdef __cplusplus
}
#endif

#endif /* XA_PIPELINE_H */
