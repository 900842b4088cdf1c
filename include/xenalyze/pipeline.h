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

/*
 * Time slices of a mapped file (docs/parallel-summary.md): the trace is
 * cut where every CPU's next record has a TSC no other's has; each slice
 * is read and merged in a worker thread from its cut on, and the slices
 * are consumed in order in the calling thread, each only once the slice
 * before it has ended in the state it started in: otherwise that slice's
 * merge goes on in the calling thread instead.  The records consumed are
 * the single pass's, in its order, and so are the anomalies and counters.
 */
struct xa_slices;

struct xa_slices_stats {
    unsigned int slices;            /* cuts + 1 */
    unsigned int rejected;          /* candidate cuts given up */
    unsigned int taken;             /* slices consumed from their worker */
    unsigned int continued;         /* merged on from the slice before */
    bool one_slice_bound;           /* larger than the read-ahead bound */
    /* xa_slices_run_apart(): */
    unsigned int chunks;            /* chunks of XA_SLICES_CHUNK slices */
    unsigned int apart;             /* analysed apart and absorbed */
    unsigned int redone;            /* redone by the single pass */
};

/**
 * xa_slices_new - the window index and the cuts of a file
 * @rd: a reader opened on a file or memory, nothing read yet (it is not
 *      read: slices read the same memory)
 * @slice_records: about how many records a slice (0: 1,000,000)
 * @out: the slices
 *
 * Returns XA_OK, XA_E_INVAL for a stream (which cannot be cut) or
 * XA_E_NOMEM.
 */
XA_API int xa_slices_new(struct xa_reader *rd, uint64_t slice_records,
                         struct xa_slices **out);
XA_API void xa_slices_free(struct xa_slices *s);

/**
 * xa_slices_run - every record, in order, read and merged in slices
 * @s: slices
 * @workers: threads reading and merging slices (1 or more)
 * @batch: records per batch, 1 to XA_PIPE_BATCH (0: XA_PIPE_BATCH)
 * @produce: optional hook for every record, in order, before consume
 * @parg: its argument
 * @consume: called for each batch, in order, in this thread
 * @carg: its argument
 *
 * Memory: at most workers + 2 slices' readers and merges at once (the one
 * consumed, the one it is checked against, the ones read ahead), each
 * bounded as a reader is, and 8 batches each.  Returns XA_OK or a
 * negative XA_E_* code.
 */
XA_API int xa_slices_run(struct xa_slices *s, unsigned int workers,
                         unsigned int batch, xa_pipe_produce_fn *produce,
                         void *parg, xa_pipe_consume_fn *consume,
                         void *carg);

/*
 * A consumer with state, analysed per chunk of XA_SLICES_CHUNK slices
 * (docs/parallel-summary.md).  Chunk 0 is fed to main.  Each later chunk
 * is analysed apart in a worker: a fresh state is warmed up on the slice
 * before the chunk (from a state it does not know: nothing of it
 * counts), cut there, and fed the chunk's records.  The chunks are then
 * taken in order in the calling thread: a chunk whose start is the single
 * pass's (its merge, and fits()) is absorbed into main; any other is
 * redone: its records are fed to main by the single pass's merge.
 *
 * open() runs in the workers, at the same time in several; feed() and
 * cut() in the worker of the state; fits(), absorb() and close() in the
 * calling thread, as does feed() of main.
 */
#define XA_SLICES_CHUNK 4

struct xa_slice_ops {
    /* A fresh state for a chunk (NULL: no memory: that chunk is redone). */
    void *(*open)(void *arg);
    void (*feed)(void *st, const struct xa_record *recs, unsigned int n);
    /*
     * After the warm-up, at the chunk's first cut: forget what was
     * counted, keep the state.  XA_OK, or < 0: the chunk is redone.
     */
    int (*cut)(void *st);
    /* st, at its cut, was in the state main is in now. */
    bool (*fits)(void *main, void *st);
    /*
     * main goes on as st did (takes what st counted since its cut, and
     * its state): XA_OK; or XA_E_AGAIN, main unchanged: the chunk is
     * redone; any other negative code ends the run with it.
     */
    int (*absorb)(void *main, void *st);
    void (*close)(void *st);
};

/**
 * xa_slices_run_apart - every record, in order, into main: chunk by chunk
 * @s: slices (not run before)
 * @workers: threads analysing chunks (1 or more; if none can be made,
 *           main is fed the single pass in this thread)
 * @ops: the consumer
 * @arg: for ops->open
 * @main: the state fed every record (or absorbing a chunk's state)
 *
 * main ends as if it had been fed every record in order, and the reader's
 * and merge's counters and anomalies are the single pass's.  Memory: at
 * most workers + 1 states besides main, each with its chunk's reader and
 * merge.  Returns XA_OK or a negative XA_E_* code.
 */
XA_API int xa_slices_run_apart(struct xa_slices *s, unsigned int workers,
                               const struct xa_slice_ops *ops, void *arg,
                               void *main);

/*
 * After xa_slices_run() or xa_slices_run_apart(): what the reader and merge counted (the single
 * pass's xa_reader_stats() and diag): the stats, and the anomalies added
 * into diag.
 */
XA_API const struct xa_reader_stats *
xa_slices_reader_stats(const struct xa_slices *s);
XA_API void xa_slices_diag(const struct xa_slices *s, struct xa_diag *diag);
XA_API const struct xa_slices_stats *
xa_slices_stats(const struct xa_slices *s);

#ifdef __cplusplus
}
#endif

#endif /* XA_PIPELINE_H */
