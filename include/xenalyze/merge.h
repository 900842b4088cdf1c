/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Merge: every physical CPU's records as one stream in time order.
 * Ties break on (tsc, cpu, file offset), so the order is deterministic.
 * A lost-records record is ordered at the TSC of its first lost record
 * (when that lies between its neighbours), where the gap began.
 */
#ifndef XA_MERGE_H
#define XA_MERGE_H

#include <xenalyze/reader.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * After a CPU's last record the merge yields one pseudo-record with this
 * event (outside the 28 bits of real events), the CPU and its last TSC, so
 * that consumers learn where each CPU's data ends.
 */
#define XA_EV_CPU_END 0x10000000u

struct xa_merge;

XA_API int xa_merge_new(struct xa_reader *rd, struct xa_merge **out);
XA_API void xa_merge_free(struct xa_merge *m);

/**
 * xa_merge_next - the next record in global time order
 * @m: merge
 * @rec: set to a borrowed record, valid until the next call
 *
 * Returns XA_OK, XA_END, or a negative XA_E_* code.
 */
XA_API int xa_merge_next(struct xa_merge *m, const struct xa_record **rec);

/**
 * xa_merge_read - the next records in global time order, copied
 * @m: merge
 * @out: room for max records
 * @max: how many at most
 * @rc: set to XA_OK (more may follow), XA_END, or a negative XA_E_* code
 *
 * The batch form of xa_merge_next(), without a call per record.  Returns
 * how many records were copied.
 */
XA_API unsigned int xa_merge_read(struct xa_merge *m, struct xa_record *out,
                                  unsigned int max, int *rc);

#ifdef __cplusplus
}
#endif

#endif /* XA_MERGE_H */
