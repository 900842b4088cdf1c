/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Merging JSON summaries (xenalyze merge): the summaries of many traces,
 * or of pieces of one, combined into one summary in the same schema
 * (docs/summary-json.md, "Merging").  Counts, totals, extremes and
 * histograms add exactly; percentiles are read from the merged
 * histograms.  Inputs at different clock rates are converted to ns, each
 * by its own rate.
 */
#ifndef XA_SUM_MERGE_H
#define XA_SUM_MERGE_H

#include <xenalyze/summary.h>

#ifdef __cplusplus
extern "C" {
#endif

enum xa_sum_group {
    XA_GROUP_DOMAIN,                /* domains and pCPUs matched by id */
    XA_GROUP_HOST,                  /* by (host, id) */
};

struct xa_sum_merge_opts {
    enum xa_sum_group group;
    enum xa_sum_sort sort;
    unsigned int top;               /* for text output: sub-rows shown */
};

struct xa_sum_merge;

XA_API int xa_sum_merge_new(const struct xa_sum_merge_opts *o,
                            struct xa_sum_merge **out);
XA_API void xa_sum_merge_free(struct xa_sum_merge *m);

/**
 * xa_sum_merge_add - add one JSON summary
 * @text, @len: the summary (xenalyze --format=json)
 * @name: where it came from (its file), for the inputs list
 * @host: the host it came from, or NULL
 * @err, @errlen: a sentence saying what is wrong, on failure
 *
 * Returns XA_OK, XA_E_INVAL (not a summary, or one without histograms;
 * nothing of it is added), XA_E_NOMEM.
 */
XA_API int xa_sum_merge_add(struct xa_sum_merge *m, const char *text,
                            size_t len, const char *name, const char *host,
                            char *err, size_t errlen);

/*
 * The merged summary (NULL when out of memory); it lives until
 * xa_sum_merge_free(), and no input may be added after.
 */
XA_API const struct xa_summary *xa_sum_merge_result(struct xa_sum_merge *m);

#ifdef __cplusplus
}
#endif

#endif /* XA_SUM_MERGE_H */
