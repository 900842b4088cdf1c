/* SPDX-License-Identifier: GPL-2.0-only
 *
 * xenalyze merge A.json B.json ...: JSON summaries merged into one
 * (libxenalyze's xa_sum_merge), written as JSON (default), text or CSV.
 */
#include <getopt.h>
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

static const struct option lopts[] = {
    { "group", required_argument, NULL, 'g' },
    { "host", required_argument, NULL, 'H' },
    { "format", required_argument, NULL, 'f' },
    { "sort", required_argument, NULL, 's' },
    { "top", required_argument, NULL, 't' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
};

static void usage(FILE *f)
{
    fputs("usage: xenalyze merge [OPTION]... [--host=NAME] SUMMARY.json...\n"
          "Merge JSON summaries (xenalyze --format=json) into one, in the\n"
          "same schema: counts, totals and histograms add exactly, percentiles\n"
          "come from the merged histograms; inputs at different clock rates\n"
          "are converted to ns (docs/summary-json.md, \"Merging\").\n"
          "  --host=NAME          the host of the summaries that follow\n"
          "  --group=domain|host  domains and pCPUs by id (default: pieces of\n"
          "                       one trace, or one host), or by (host, id)\n"
          "  --format=json|text|csv   (default json)\n"
          "  --sort=time|count|mean|p99|code, --top=N   as for a summary\n"
          "Every guest's exits together, by reason and key: \"guests\".\n", f);
}

int cli_merge(int argc, char **argv)
{
    struct xa_sum_merge_opts mo = { .group = XA_GROUP_DOMAIN,
                                    .sort = XA_SORT_TIME, .top = 10 };
    struct xa_sum_merge *m = NULL;
    const struct xa_summary *s;
    const struct xa_report_ops *fmt = xa_report_find("json");
    struct xa_report_opts ropts = { .report_pcpu = false };
    const char *host = NULL;
    struct xa_out out;
    unsigned int nr = 0;
    int c, status = 1;
    char *end;

    /* First the options that shape the merge, then the inputs in order. */
    optind = 1;
    while ( (c = getopt_long(argc, argv, "+h", lopts, NULL)) != -1 )
    {
        switch ( c )
        {
        case 'g':
            if ( strcmp(optarg, "domain") && strcmp(optarg, "host") )
            {
                fprintf(stderr, "xenalyze merge: --group: domain or host\n");
                return 1;
            }
            mo.group = optarg[0] == 'h' ? XA_GROUP_HOST : XA_GROUP_DOMAIN;
            break;
        case 'f':
            if ( (strcmp(optarg, "json") && strcmp(optarg, "text") &&
                  strcmp(optarg, "csv")) || !(fmt = xa_report_find(optarg)) )
            {
                fprintf(stderr, "xenalyze merge: --format: json, text or "
                        "csv\n");
                return 1;
            }
            break;
        case 's':
            if ( xa_sum_sort_parse(optarg, &mo.sort) )
            {
                fprintf(stderr, "xenalyze merge: --sort: time, count, mean, "
                        "p99 or code\n");
                return 1;
            }
            break;
        case 't':
            mo.top = (unsigned int)strtoul(optarg, &end, 10);
            if ( end == optarg || *end )
            {
                fprintf(stderr, "xenalyze merge: --top=%s: a number\n",
                        optarg);
                return 1;
            }
            break;
        case 'H':
            host = optarg;
            break;
        case 'h':
            usage(stdout);
            return 0;
        default:
            usage(stderr);
            return 1;
        }
        if ( c == 'H' )
            break;
    }
    if ( strcmp(fmt->name, "text") )
        mo.top = 0;
    if ( xa_sum_merge_new(&mo, &m) )
    {
        fprintf(stderr, "xenalyze merge: %s\n", xa_strerror(XA_E_NOMEM));
        return 1;
    }
    /* The inputs, each after the --host that names its host. */
    for ( ; optind < argc; optind++ )
    {
        const char *a = argv[optind];
        char err[256] = "";
        size_t len;
        char *text;
        int rc;

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
        usage(stderr);
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
