/* SPDX-License-Identifier: GPL-2.0-only
 *
 * xenalyze diff A B: two traces summarised and compared (libxenalyze's
 * xa_diff).  Its own option table (subcmd.c); help generated from it.
 */
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
static bool is_json(struct xa_reader *rd)
{
    const unsigned char *head;
    const void *h;
    size_t len, i;

    if ( xa_reader_head(rd, 4096, &h, &len) )
        return false;
    head = h;
    for ( i = 0; i < len; i++ )
        if ( head[i] != ' ' && head[i] != '\t' && head[i] != '\n' &&
             head[i] != '\r' )
            return head[i] == '{';
    return false;
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
    if ( (rc = xa_reader_open(path, &l->diag, &l->rd)) )
    {
        fprintf(stderr, "xenalyze diff: %s: %s\n", path, xa_strerror(rc));
        return -1;
    }
    /* Standard input is a trace: what is peeked there is not read again. */
    if ( strcmp(path, "-") && is_json(l->rd) )
    {
        xa_reader_free(l->rd);
        l->rd = NULL;
        return load_json(path, l);
    }
    if ( (rc = xa_merge_new(l->rd, &l->mg)) ||
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

static int o_hz(void *ctx, const char *arg)
{
    struct diff_opts *o = ctx;

    if ( xa_hz_parse(arg, &o->hz) )
    {
        fprintf(stderr, "xenalyze diff: --cpu-hz=%s: expected e.g. 2.4G\n",
                arg);
        return -1;
    }
    return 0;
}

static int o_format(void *ctx, const char *arg)
{
    struct diff_opts *o = ctx;

    if ( strcmp(arg, "text") && strcmp(arg, "json") )
    {
        fprintf(stderr, "xenalyze diff: --format: text or json\n");
        return -1;
    }
    o->json = !strcmp(arg, "json");
    return 0;
}

static int o_map(void *ctx, const char *arg)
{
    struct diff_opts *o = ctx;
    const char *p = arg;

    while ( *p )
    {
        char *end;
        unsigned long a = strtoul(p, &end, 0), b;

        if ( end == p || *end != ':' || o->nr_map == 64 || a > 0xffff )
            goto bad;
        p = end + 1;
        b = strtoul(p, &end, 0);
        if ( end == p || (*end && *end != ',') || b > 0xffff )
            goto bad;
        o->map[o->nr_map][0] = (unsigned int)a;
        o->map[o->nr_map++][1] = (unsigned int)b;
        p = *end ? end + 1 : end;
    }
    return 0;
 bad:
    fprintf(stderr, "xenalyze diff: --map=%s: expected A:B[,A:B]\n", arg);
    return -1;
}

static int o_guests(void *ctx, const char *arg)
{
    struct diff_opts *o = ctx;

    (void)arg;
    o->guests = true;
    return 0;
}

static int o_fail_above(void *ctx, const char *arg)
{
    struct diff_opts *o = ctx;
    char *end;

    o->fail_above = strtod(arg, &end);
    if ( end == arg || *end || !(o->fail_above >= 0) )
    {
        fprintf(stderr, "xenalyze diff: --fail-above=%s: expected a "
                "percentage\n", arg);
        return -1;
    }
    return 0;
}

static const struct cli_subopt diff_options[] = {
    { "cpu-hz", CLI_ARG_REQ, "RATE",
      "the traces' clock rate (default: each trace's own;\n"
      "a JSON summary keeps the rate it was made with)", o_hz },
    { "format", CLI_ARG_REQ, "FMT", "text (default) or json (docs/diff.md)",
      o_format },
    { "map", CLI_ARG_REQ, "A:B[,..]",
      "compare domain A of the first trace with domain B\n"
      "of the second (default: by kind, dom0, HVM, PV,\n"
      "Arm, in id order)", o_map },
    { "guests", CLI_ARG_NONE, NULL,
      "every guest domain together (not dom0, idle, default)", o_guests },
    { "fail-above", CLI_ARG_REQ, "PCT",
      "exit status 2 when an exit's share of time or mean\n"
      "grows by more than PCT percent, beyond chance", o_fail_above },
    { NULL, CLI_ARG_NONE, NULL, NULL, NULL },
};

static const struct cli_subcmd diff_cmd = {
    .name = "diff",
    .synopsis = "[OPTION...] A B",
    .intro = "Compare two traces, or JSON summaries of them "
             "(--format=json):\nexits, sub-keys and runstates per domain "
             "pair.",
    .opts = diff_options,
};

int cli_diff(int argc, char **argv)
{
    struct diff_opts o = { .fail_above = -1 };
    struct xa_diff_opts dopts;
    struct loaded a, b;
    struct xa_diff *d = NULL;
    struct xa_out out;
    int first, rc, status = 1;

    if ( (rc = cli_subparse(&diff_cmd, argc, argv, &o, &first)) )
        return rc == CLI_DONE ? 0 : 1;
    if ( first != argc - 2 )
    {
        cli_subusage(&diff_cmd, stderr);
        return 1;
    }
    if ( load(argv[first], o.hz, &a) )
    {
        unload(&a);
        return 1;
    }
    if ( load(argv[first + 1], o.hz, &b) )
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
            xa_diff_render_json(d, argv[first], argv[first + 1], &out);
        else
            xa_diff_render_text(d, argv[first], argv[first + 1], &out);
        status = xa_out_flush(&out) ? 1 : d->fail ? 2 : 0;
        xa_out_dispose(&out);
    }
    xa_diff_free(d);
    unload(&a);
    unload(&b);
    return status;
}
