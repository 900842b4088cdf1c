/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A program using libxenalyze: reads a trace (a file, "-", or a
 * compressed file), builds the summary and prints, per domain, its exits
 * and their cycles.  docs/library.md walks through it.
 *
 *   cc exits.c $(pkg-config --cflags --libs xenalyze) -o exits
 *   ./exits trace.xentrace
 */
#include <stdio.h>

#include <xenalyze/xenalyze.h>

int main(int argc, char **argv)
{
    struct xa_diag diag, mdiag;
    struct xa_reader *rd = NULL;
    struct xa_merge *mg = NULL;
    struct xa_catalog *cat = NULL;
    struct xa_model *model = NULL;
    const struct xa_summary *sum;
    const struct xa_reader_stats *st;
    struct xa_record buf[256];
    unsigned int i, got;
    int rc, status = 1;

    if ( argc != 2 )
    {
        fprintf(stderr, "usage: %s TRACE\n", argv[0]);
        return 1;
    }
    /* Anomalies are counted in diag, never fatal; errors are returned. */
    xa_diag_init(&diag);
    xa_diag_init(&mdiag);
    if ( (rc = xa_reader_open(argv[1], &diag, &rd)) )
    {
        fprintf(stderr, "%s: %s\n", argv[1], xa_strerror(rc));
        return 1;
    }
    if ( (rc = xa_merge_new(rd, &mg)) || (rc = xa_catalog_new(&cat)) ||
         (rc = xa_model_new(cat, &mdiag, NULL, &model)) )
        goto out;

    /* Records in global time order, a batch at a time, into the model. */
    do {
        got = xa_merge_read(mg, buf, 256, &rc);
        for ( i = 0; i < got; i++ )
            xa_model_feed(model, &buf[i]);
    } while ( rc == XA_OK );
    if ( rc != XA_END )
        goto out;
    xa_model_finish(model);
    xa_diag_merge(&diag, &mdiag);

    st = xa_reader_stats(rd);
    {
        struct xa_summary_info info = {
            .records = st->records + st->windows,
            .bytes = st->bytes,
            .windows = st->windows,
            .record_bytes = st->record_bytes,
            .nr_pcpus = st->nr_cpus,
            .diag = &diag,
        };

        if ( !(sum = xa_model_summary(model, &info)) )
        {
            rc = XA_E_NOMEM;
            goto out;
        }
    }
    printf("records %llu\n", (unsigned long long)sum->records);
    for ( i = 0; i < sum->nr_domains; i++ )
    {
        const struct xa_sum_domain *d = &sum->domains[i];

        printf("d%u %s exits %llu cycles %llu\n", d->id, d->kind,
               (unsigned long long)d->exit_count,
               (unsigned long long)d->exit_cycles);
    }
    printf("anomalies %llu\n",
           (unsigned long long)xa_diag_total(&diag, XA_LEVEL_WARN));
    status = 0;
 out:
    if ( status )
        fprintf(stderr, "%s: %s\n", argv[1], xa_strerror(rc));
    /* The summary belongs to the model; free in reverse order. */
    xa_model_free(model);
    xa_catalog_free(cat);
    xa_merge_free(mg);
    xa_reader_free(rd);
    return status;
}
