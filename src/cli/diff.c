/* SPDX-License-Identifier: GPL-2.0-only
 *
 * xenalyze diff A B: two traces summarised and compared (libxenalyze's
 * xa_diff).  Its own small option table; help generated from it.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xenalyze/diff.h>

#include "cli.h"

struct diff_opts {
    uint64_t hz;                    /* 0: each trace's own, or default */
    bool json, guests;
    double fail_above;
    unsigned int map[64][2];
    unsigned int nr_map;
};

/* One trace, read whole, summarised with every sub-key; or a JSON summary. */
struct loaded {
    const struct xa_summary *json;  /* read from a JSON summary */
    struct xa_diag diag, mdiag;
    struct xa_reader *rd;
    struct xa_merge *mg;
    struct xa_catalog *cat;
    struct xa_model *model;
    const struct xa_summary *sum;
};

static void unload(struct loaded *l)
{
    xa_summary_json_free(l->json);
    xa_model_free(l->model);
    xa_catalog_free(l->cat);
    xa_merge_free(l->mg);
    xa_reader_free(l->rd);
}

/* JSON summaries are at most this big (the real ones: below 1 MiB). */
#define JSON_MAX ((size_t)1 << 30)

/* A file that begins with '{' (after white space) is a JSON summary. */
static bool is_json(const char *path)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : NULL;
    int c = EOF;

    if ( !f )
        return false;
    do
        c = getc(f);
    while ( c == ' ' || c == '\t' || c == '\n' || c == '\r' );
    fclose(f);
    return c == '{';
}

static int load_json(const char *path, struct loaded *l)
{
    char *buf, why[200];
    size_t len;
    int rc = xa_read_file(path, JSON_MAX, &buf, &len);

    if ( rc )
    {
        fprintf(stderr, "xenalyze diff: %s: %s\n", path, xa_strerror(rc));
        return -1;
    }
    rc = xa_summary_from_json(buf, len, &l->json, why, sizeof(why));
    free(buf);
    if ( rc )
    {
        fprintf(stderr, "xenalyze diff: %s: %s\n", path,
                rc == XA_E_INVAL ? why : xa_strerror(rc));
        return -1;
    }
    l->sum = l->json;
    return 0;
}

static int load(const char *path, uint64_t hz, struct loaded *l)
{
    struct xa_model_opts mopts = { .hvm_mode = XA_HVM_MODE_AUTO };
    struct xa_record buf[256];
    struct xa_summary_info info = { .cpu_hz = hz, .sort = XA_SORT_CODE };
    const struct xa_reader_stats *st;
    unsigned int i, got;
    int rc;

    memset(l, 0, sizeof(*l));
    xa_diag_init(&l->diag);
    xa_diag_init(&l->mdiag);
    if ( is_json(path) )
        return load_json(path, l);
    if ( (rc = xa_reader_open(path, &l->diag, &l->rd)) ||
         (rc = xa_merge_new(l->rd, &l->mg)) ||
         (rc = xa_catalog_new(&l->cat)) ||
         (rc = xa_model_new(l->cat, &l->mdiag, &mopts, &l->model)) )
    {
        fprintf(stderr, "xenalyze diff: %s: %s\n", path, xa_strerror(rc));
        return -1;
    }
    do {
        got = xa_merge_read(l->mg, buf, 256, &rc);
        for ( i = 0; i < got; i++ )
            xa_model_feed(l->model, &buf[i]);
    } while ( rc == XA_OK );
    if ( rc < 0 )
    {
        fprintf(stderr, "xenalyze diff: %s: %s\n", path, xa_strerror(rc));
        return -1;
    }
    xa_model_finish(l->model);
    xa_diag_merge(&l->diag, &l->mdiag);
    st = xa_reader_stats(l->rd);
    info.records = st->records + st->windows;
    info.nr_pcpus = st->nr_cpus;
    info.diag = &l->diag;
    if ( !st->records )
    {
        fprintf(stderr, "xenalyze diff: %s: no valid trace record\n", path);
        return -1;
    }
    l->sum = xa_model_summary(l->model, &info);
    if ( !l->sum )
    {
        fprintf(stderr, "xenalyze diff: %s\n", xa_strerror(XA_E_NOMEM));
        return -1;
    }
    return 0;
}

static const struct option lopts[] = {
    { "cpu-hz", required_argument, NULL, 'c' },
    { "format", required_argument, NULL, 'f' },
    { "map", required_argument, NULL, 'm' },
    { "guests", no_argument, NULL, 'g' },
    { "fail-above", required_argument, NULL, 'F' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
};

static const char *const helps[] = {
    "RATE     the traces' clock rate (default: each trace's own;\n"
    "                    a JSON summary keeps the rate it was made with)",
    "FMT      text (default) or json (docs/diff.md)",
    "A:B[,..] compare domain A of the first trace with domain B of the\n"
    "                    second (default: by kind, dom0, HVM, PV, Arm, in id order)",
    "         every guest domain together (not dom0, idle, default)",
    "PCT      exit status 2 when an exit's share of time or mean grows by\n"
    "                    more than PCT percent, beyond chance",
    "         this help",
};

static void usage(FILE *f)
{
    unsigned int i;

    fprintf(f, "Usage: xenalyze diff [OPTION...] A B\n"
            "Compare two traces, or JSON summaries of them (--format=json):\n"
            "exits, sub-keys and runstates per domain pair.\n\n");
    for ( i = 0; lopts[i].name; i++ )
        fprintf(f, "  --%-16s %s\n", lopts[i].name, helps[i]);
}

static int parse_map(struct diff_opts *o, const char *s)
{
    const char *p = s;

    while ( *p )
    {
        char *end;
        unsigned long a = strtoul(p, &end, 0), b;

        if ( end == p || *end != ':' || o->nr_map == 64 || a > 0xffff )
            return -1;
        p = end + 1;
        b = strtoul(p, &end, 0);
        if ( end == p || (*end && *end != ',') || b > 0xffff )
            return -1;
        o->map[o->nr_map][0] = (unsigned int)a;
        o->map[o->nr_map++][1] = (unsigned int)b;
        p = *end ? end + 1 : end;
    }
    return 0;
}

int cli_diff(int argc, char **argv)
{
    struct diff_opts o = { .fail_above = -1 };
    struct xa_diff_opts dopts;
    struct loaded a, b;
    struct xa_diff *d = NULL;
    struct xa_out out;
    int c, status = 1;
    char *end;

    optind = 1;
    while ( (c = getopt_long(argc, argv, "h", lopts, NULL)) != -1 )
    {
        switch ( c )
        {
        case 'c':
            if ( xa_hz_parse(optarg, &o.hz) )
            {
                fprintf(stderr, "xenalyze diff: --cpu-hz=%s: expected e.g. "
                        "2.4G\n", optarg);
                return 1;
            }
            break;
        case 'f':
            if ( strcmp(optarg, "text") && strcmp(optarg, "json") )
            {
                fprintf(stderr, "xenalyze diff: --format: text or json\n");
                return 1;
            }
            o.json = !strcmp(optarg, "json");
            break;
        case 'm':
            if ( parse_map(&o, optarg) )
            {
                fprintf(stderr, "xenalyze diff: --map=%s: expected A:B[,A:B]"
                        "\n", optarg);
                return 1;
            }
            break;
        case 'g':
            o.guests = true;
            break;
        case 'F':
            o.fail_above = strtod(optarg, &end);
            if ( end == optarg || *end || !(o.fail_above >= 0) )
            {
                fprintf(stderr, "xenalyze diff: --fail-above=%s: expected a "
                        "percentage\n", optarg);
                return 1;
            }
            break;
        case 'h':
            usage(stdout);
            return 0;
        default:
            usage(stderr);
            return 1;
        }
    }
    if ( optind != argc - 2 )
    {
        usage(stderr);
        return 1;
    }
    if ( load(argv[optind], o.hz, &a) )
    {
        unload(&a);
        return 1;
    }
    if ( load(argv[optind + 1], o.hz, &b) )
    {
        unload(&a);
        unload(&b);
        return 1;
    }
    dopts.guests = o.guests;
    dopts.map = (const unsigned int (*)[2])o.map;
    dopts.nr_map = o.nr_map;
    dopts.fail_above = o.fail_above;
    if ( xa_diff_new(a.sum, b.sum, &dopts, &d) )
        fprintf(stderr, "xenalyze diff: %s\n", xa_strerror(XA_E_NOMEM));
    else
    {
        xa_out_init(&out, STDOUT_FILENO);
        if ( o.json )
            xa_diff_render_json(d, argv[optind], argv[optind + 1], &out);
        else
            xa_diff_render_text(d, argv[optind], argv[optind + 1], &out);
        status = xa_out_flush(&out) ? 1 : d->fail ? 2 : 0;
        xa_out_dispose(&out);
    }
    xa_diff_free(d);
    unload(&a);
    unload(&b);
    return status;
}
