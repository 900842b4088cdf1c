/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: reader -> merge -> model -> dump -> summary -> text
 * and JSON writers, into memory-only outputs (struct xa_out with fd -1,
 * emptied after each piece so that memory stays bounded).  The wiring
 * follows src/cli/run.c.  Any crash, hang, leak, assertion or sanitizer
 * report is a bug in the library.
 *
 * The input is the trace itself, so that the seeds are plain traces and
 * every reproducer also runs through the xenalyze program.  The few
 * options the CLI would take are derived from the input's size, so that
 * both clock paths are reached without consuming input bytes.
 */
#include <stddef.h>
#include <stdint.h>

#include <xenalyze/xenalyze.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const formats[] = { "text", "json" };
    struct xa_diag diag;
    struct xa_reader *rd = NULL;
    struct xa_merge *mg = NULL;
    struct xa_catalog *cat = NULL;
    struct xa_model *model = NULL;
    struct xa_model_opts mopts = { .hvm_mode = XA_HVM_MODE_AUTO };
    struct xa_out out;
    struct xa_dump dump;
    const struct xa_record *rec;
    const struct xa_reader_stats *st;
    const struct xa_summary *sum;
    unsigned int i;

    xa_diag_init(&diag);
    xa_out_init(&out, -1);
    if ( size % 3 == 1 )
        mopts.hvm_mode = XA_HVM_MODE_FORCE_SVM;
    if ( xa_reader_open_mem(data, size, &diag, &rd) ||
         xa_merge_new(rd, &mg) || xa_catalog_new(&cat) ||
         xa_model_new(cat, &diag, &mopts, &model) )
        goto out;
    xa_dump_init(&dump, cat, 62500000);
    dump.show_tsc = size & 1;
    while ( xa_merge_next(mg, &rec) == XA_OK )
    {
        /* As the CLI: the dump shows the vCPU before the record. */
        xa_dump_record(&dump, rec, model, &out);
        out.len = 0;
        xa_model_feed(model, rec);
    }
    xa_model_finish(model);
    xa_report_diag_text(&diag, &out);
    out.len = 0;

    st = xa_reader_stats(rd);
    {
        struct xa_summary_info info = {
            .records = st->records + st->windows,
            .nr_pcpus = st->nr_cpus,
            .cpu_hz = size & 2 ? 0 : 2400000000u,
            .diag = &diag,
        };
        struct xa_report_opts ropts = { .report_pcpu = true };

        sum = xa_model_summary(model, &info);
        if ( !sum )
            goto out;
        for ( i = 0; i < sizeof(formats) / sizeof(formats[0]); i++ )
        {
            xa_report_find(formats[i])->render(sum, &ropts, &out);
            out.len = 0;
        }
    }

 out:
    xa_out_dispose(&out);
    xa_model_free(model);
    xa_catalog_free(cat);
    xa_merge_free(mg);
    xa_reader_free(rd);
    return 0;
}
