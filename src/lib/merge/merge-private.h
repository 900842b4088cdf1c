/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The merge of one time slice (docs/parallel-summary.md): a merge over a
 * reader positioned at a cut (reader/slice-private.h), which stops before
 * the next cut, and the test that makes the slices of a trace, merged one
 * after the other, the single pass's stream: the slice after a cut starts
 * in the state the slice before it ends in.
 */
#ifndef MERGE_PRIVATE_H
#define MERGE_PRIVATE_H

#include <stdbool.h>

#include <xenalyze/merge.h>

/*
 * Asked, once, for the whole trace's first key and the last key of every
 * CPU ended before the slice (what tail_check() weighs a CPU's last
 * record against): may wait for the slices before to be merged.
 */
typedef void merge_globals_fn(void *arg, uint64_t *first_key,
                              uint64_t *ended_max);

/*
 * A merge that yields the records (with has_stop, those with keys below
 * stop, then XA_AGAIN); at_cut: rd starts at a cut, not at the trace's
 * start.
 */
int merge_new_slice(struct xa_reader *rd, bool at_cut, bool has_stop,
                    uint64_t stop, merge_globals_fn *globals, void *arg,
                    struct xa_merge **out);
/* Reads each CPU's first record (done by the first read otherwise). */
int merge_prime(struct xa_merge *m);
/* Moves the stop on: the merge goes on into the next slice. */
void merge_set_stop(struct xa_merge *m, bool has_stop, uint64_t stop);
/* The reader the merge reads. */
const struct xa_reader *merge_reader(const struct xa_merge *m);
void merge_get_globals(const struct xa_merge *m, uint64_t *first_key,
                       uint64_t *ended_max);
void merge_set_globals(struct xa_merge *m, uint64_t first_key,
                       uint64_t ended_max);
/*
 * The state of a merge at a cut (stopped there, or primed there): each
 * CPU's next record, key, cursor and timeline.  Two equal ones, with no
 * two CPUs on one key, yield the same records from there on.
 */
struct merge_cut;
struct merge_cut *merge_cut_take(const struct xa_merge *m);
void merge_cut_free(struct merge_cut *cut);
bool merge_cut_equal(const struct merge_cut *a, const struct merge_cut *b);

#endif /* MERGE_PRIVATE_H */
