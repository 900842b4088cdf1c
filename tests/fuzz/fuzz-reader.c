/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: reader -> merge -> model -> every writer, into
 * memory-only outputs.  Any crash, hang, leak or sanitizer report is a bug.
 */
#include <stddef.h>
#include <stdint.h>

#include <xenalyze/xenalyze.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct xa_diag diag;
    struct xa_reader *rd = NULL;
    struct xa_merge *mg = NULL;
    struct xa_catalog *cat = NULL;
    struct xa_model *model = NULL;
    struct xa_out out;
    struct xa_dump dump;
    const struct xa_record *rec;

    xa_diag_init(&diag);
    xa_out_init(&out, -1);
    if ( xa_reader_open_mem(data, size, &diag, &rd) ||
         xa_merge_new(rd, &mg) || xa_catalog_new(&cat) ||
         xa_model_new(cat, &diag, NULL, &model) )
        goto out;
    xa_dump_init(&dump, cat, 62500000);
    while ( xa_merge_next(mg, &rec) == XA_OK )
    {
        xa_model_feed(model, rec);
        xa_dump_record(&dump, rec, model, &out);
        out.len = 0;
    }
    xa_model_finish(model);
    xa_report_diag_text(&diag, &out);

 out:
    xa_out_dispose(&out);
    xa_model_free(model);
    xa_catalog_free(cat);
    xa_merge_free(mg);
    xa_reader_free(rd);
    return 0;
}
