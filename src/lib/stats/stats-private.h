/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Inside the library: statistics read back from a JSON summary. */
#ifndef XA_STATS_PRIVATE_H
#define XA_STATS_PRIVATE_H

#include <stdint.h>

#include <xenalyze/json.h>
#include <xenalyze/stats.h>

/*
 * Adds a STATS object's "hist" array (docs/summary-json.md: [k0, n0, d1,
 * n1, ...], bucket k0 holds n0 samples, bucket k0 + d1 holds n1, ...) into
 * s's buckets; *total gets the samples added.  XA_OK, XA_E_INVAL for an
 * array out of the layout (odd length, a step of 0 after the first, past
 * the last bucket), XA_E_RANGE for a bucket beyond 2^32 samples,
 * XA_E_NOMEM.  Count, cycles and extremes are the caller's.
 */
int stat_hist_add_json(struct xa_stat *s, const struct xa_json_value *hist,
                       uint64_t *total);

#endif /* XA_STATS_PRIVATE_H */
