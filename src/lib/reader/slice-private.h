/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Time slices of a mapped file (docs/parallel-summary.md): the window
 * index (every window the scan queues, in scan order, with its CPU, place,
 * mark and first TSC), the cuts chosen on it, and readers positioned at a
 * cut whose scan takes its windows from the index.  The reader's own
 * scan builds the index, so every window, anomaly and mark is the one the
 * single pass meets.
 */
#ifndef SLICE_PRIVATE_H
#define SLICE_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <xenalyze/diag.h>
#include <xenalyze/reader.h>

struct reader_window {
    uint64_t off;                   /* file offset of its first record */
    uint64_t first_tsc;             /* its first record's own TSC */
    uint64_t windows;               /* the scan's window count then */
    uint32_t len;
    uint32_t cpu;
    uint8_t mark;                   /* the scan's pending mark */
    bool has_tsc;                   /* a record in it has one */
};

struct reader_index {
    const uint8_t *mem;
    size_t size;
    struct reader_window *w;        /* in scan order */
    unsigned int nr, cap;
    struct xa_diag diag;            /* what the scan met */
    struct xa_reader_stats stats;   /* windows, nr_cpus, max_cpu, bytes */
    unsigned int *order;            /* CPUs in discovery order */
    unsigned int nr_order;
    uint64_t window_bytes;          /* bytes of the windows queued */
    uint64_t held_max;              /* what holding them all would cost */
    uint64_t lookahead;             /* the reader's read-ahead bound */
    unsigned int bytes_per_record;  /* estimated */
};

/* Where a CPU's data starts at a cut. */
struct reader_cut_cpu {
    unsigned int cpu;
    uint32_t skip;                  /* bytes into the window */
    size_t entry;                   /* index of its window */
    uint64_t last_tsc;              /* its last TSC before the cut */
    bool have_tsc;
};

struct reader_cut {
    uint64_t tsc;                   /* records from this key on */
    size_t first_entry;             /* the least entry of cpus */
    struct reader_cut_cpu *cpus;    /* CPUs with data after it */
    unsigned int nr_cpus;
};

/*
 * Indexes a reader opened on memory (a mapped file) before anything is
 * read: the scan runs to the end of the input, into ix->diag.
 */
int reader_index_build(const struct xa_reader *rd,
                       struct reader_index **out);
void reader_index_free(struct reader_index *ix);
/* The scan of reader_index_build(): one window queued for cpu. */
int reader_index_add(struct reader_index *ix, unsigned int cpu, uint64_t off,
                     uint32_t len, uint8_t mark, uint64_t windows);

/*
 * Cuts about every slice_records records, at TSCs where the first record
 * after the cut of every CPU has a TSC no other's has.  *cuts (nr) are
 * the starts of the slices after the first; *rejected counts candidate
 * cuts given up.  Returns XA_OK or XA_E_NOMEM.
 */
int reader_index_cuts(const struct reader_index *ix, uint64_t slice_records,
                      struct reader_cut **cuts, unsigned int *nr,
                      unsigned int *rejected);
void reader_cuts_free(struct reader_cut *cuts, unsigned int nr);

/*
 * A reader whose scan takes its windows from ix: from the start (cut
 * NULL: the single pass's windows, in its order) or from a cut (each CPU
 * of it positioned there, with its timeline; the others have no data).
 */
int reader_open_slice(const struct reader_index *ix,
                      const struct reader_cut *cut, struct xa_diag *diag,
                      struct xa_reader **out);

/* Redirects what the reader counts from now on. */
void reader_set_diag(struct xa_reader *rd, struct xa_diag *diag);

#endif /* SLICE_PRIVATE_H */
