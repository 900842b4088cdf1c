/* SPDX-License-Identifier: GPL-2.0-only
 *
 * xenalyze merge A.json B.json ...: JSON summaries merged into one
 * (libxenalyze's xa_sum_merge), written as JSON (default), text or CSV.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xenalyze/out.h>
#include <xenalyze/reader.h>
#include <xenalyze/report.h>
#include <xenalyze/sum-merge.h>

#include "cli.h"

#define MAX_SUMMARY ((size_t)1 << 30)

struct merge_cli {
    struct xa_sum_merge_opts mo;
    const struct xa_report_ops *fmt;
    const char *host;
};

static int o_group(void *ctx, const char *arg)
{
    struct merge_cli *c = ctx;

    if ( strcmp(arg, "domain") && strcmp(arg, "host") )
    {
        fprintf(stderr, "xenalyze merge: --group: domain or host\n");
        return -1;
    }
    c->mo.group = arg[0] == 'h' ? XA_GROUP_HOST : XA_GROUP_DOMAIN;
    return 0;
}

static int o_format(void *ctx, const char *arg)
{
    struct merge_cli *c = ctx;

    if ( (strcmp(arg, "json") && strcmp(arg, "text") && strcmp(arg, "csv")) ||
         !(c->fmt = xa_report_find(arg)) )
    {
        fprintf(stderr, "xenalyze merge: --format: json, text or csv\n");
        return -1;
    }
    return 0;
}

static int o_sort(void *ctx, const char *arg)
{
    struct merge_cli *c = ctx;

    if ( xa_sum_sort_parse(arg, &c->mo.sort) )
    {
        fprintf(stderr, "xenalyze merge: --sort: time, count, mean, p99 or "
                "code\n");
        return -1;
    }
    return 0;
}

static int o_top(void *ctx, const char *arg)
{
    struct merge_cli *c = ctx;
    char *end;

    c->mo.top = (unsigned int)strtoul(arg, &end, 10);
    if ( end == arg || *end )
    {
        fprintf(stderr, "xenalyze merge: --top=%s: a number\n", arg);
        return -1;
    }
    return 0;
}

/* The first --host ends the options: the inputs follow, each after its own. */
static int o_host(void *ctx, const char *arg)
{
    struct merge_cli *c = ctx;

    c->host = arg;
    return CLI_STOP;
}

static const struct cli_subopt merge_options[] = {
    { "host", CLI_ARG_REQ, "NAME",
      "the host of the summaries that follow (may be given\n"
      "again before later summaries)", o_host },
    { "group", CLI_ARG_REQ, "domain|host",
      "domains and pCPUs by id (default: pieces of one\n"
      "trace, or one host), or by (host, id)", o_group },
    { "format", CLI_ARG_REQ, "json|text|csv", "(default json)", o_format },
    { "sort", CLI_ARG_REQ, "KEY", "time, count, mean, p99 or code, as for a "
      "summary", o_sort },
    { "top", CLI_ARG_REQ, "N", "as for a summary (text only)", o_top },
    { NULL, CLI_ARG_NONE, NULL, NULL, NULL },
};

static const struct cli_subcmd merge_cmd = {
    .name = "merge",
    .synopsis = "[OPTION...] [--host=NAME] SUMMARY.json...",
    .intro = "Merge JSON summaries (xenalyze --format=json) into one, in the\n"
             "same schema: counts, totals and histograms add exactly, "
             "percentiles\ncome from the merged histograms; inputs at "
             "different clock rates\nare converted to ns "
             "(docs/summary-json.md, \"Merging\").\nEvery guest's exits "
             "together, by reason and key: \"guests\".",
    .opts = merge_options,
    .in_order = true,
};

int cli_merge(int argc, char **argv)
{
    struct merge_cli c = {
        .mo = { .group = XA_GROUP_DOMAIN, .sort = XA_SORT_TIME, .top = 10 },
        .fmt = xa_report_find("json"),
    };
    struct xa_sum_merge_opts mo;
    struct xa_sum_merge *m = NULL;
    const struct xa_summary *s;
    const struct xa_report_ops *fmt;
    struct xa_report_opts ropts = { .report_pcpu = false };
    const char *host;
    struct xa_out out;
    unsigned int nr = 0;
    int i, rc, status = 1;

    /* First the options that shape the merge, then the inputs in order. */
    if ( (rc = cli_subparse(&merge_cmd, argc, argv, &c, &i)) )
        return rc == CLI_DONE ? 0 : 1;
    mo = c.mo;
    fmt = c.fmt;
    host = c.host;
    if ( strcmp(fmt->name, "text") )
        mo.top = 0;
    if ( xa_sum_merge_new(&mo, &m) )
    {
        fprintf(stderr, "xenalyze merge: %s\n", xa_strerror(XA_E_NOMEM));
        return 1;
    }
    /* The inputs, each after the --host that names its host. */
    for ( ; i < argc; i++ )
    {
        const char *a = argv[i];
        char err[256] = "";
        size_t len;
        char *text;

        if ( !strncmp(a, "--host=", 7) )
        {
            host = a + 7;
            continue;
        }
        if ( a[0] == '-' && a[1] )
        {
            fprintf(stderr, "xenalyze merge: %s: options before the "
                    "summaries (but --host=NAME)\n", a);
            goto out;
        }
        if ( (rc = xa_read_file(a, MAX_SUMMARY, &text, &len)) )
        {
            fprintf(stderr, "xenalyze merge: %s: %s\n", a,
                    rc == XA_E_RANGE ? "larger than 1 GiB" : xa_strerror(rc));
            goto out;
        }
        rc = xa_sum_merge_add(m, text, len, a, host, err, sizeof(err));
        free(text);
        if ( rc )
        {
            fprintf(stderr, "xenalyze merge: %s: %s\n", a,
                    rc == XA_E_INVAL ? err : xa_strerror(rc));
            goto out;
        }
        nr++;
    }
    if ( !nr )
    {
        cli_subusage(&merge_cmd, stderr);
        goto out;
    }
    if ( !(s = xa_sum_merge_result(m)) )
    {
        fprintf(stderr, "xenalyze merge: %s\n", xa_strerror(XA_E_NOMEM));
        goto out;
    }
    xa_out_init(&out, STDOUT_FILENO);
    fmt->render(s, &ropts, &out);
    status = xa_out_flush(&out) ? 1 : 0;
    if ( status )
        fprintf(stderr, "xenalyze merge: write error\n");
    xa_out_dispose(&out);
out:
    xa_sum_merge_free(m);
    return status;
}
