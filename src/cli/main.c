/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xenalyze: options and wiring only.  Every computation is in
 * libxenalyze.
 *
 * The options are one table (options.c): name, argument, group, help and
 * handler.  getopt_long()'s table and --help are generated from it.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xenalyze/xenalyze.h>

#include "cli.h"

/* getopt_long()'s table and short-option string, from cli_options[]. */
static int build_getopt(struct option **lopts, char *shorts, size_t len)
{
    struct option *lo;
    size_t i, n = 0, s = 0;

    while ( cli_options[n].name )
        n++;
    lo = calloc(n + 1, sizeof(*lo));
    if ( !lo )
        return -1;
    for ( i = 0; i < n; i++ )
    {
        const struct cli_option *c = &cli_options[i];

        lo[i].name = c->name;
        lo[i].has_arg = c->arg == CLI_ARG_NONE ? no_argument :
                        c->arg == CLI_ARG_REQ ? required_argument :
                        optional_argument;
        lo[i].val = 256 + (int)i;
        if ( c->short_name && s + 2 < len )
        {
            shorts[s++] = (char)c->short_name;
            if ( c->arg == CLI_ARG_REQ )
                shorts[s++] = ':';
        }
    }
    shorts[s] = 0;
    *lopts = lo;
    return 0;
}

static const struct cli_option *short_option(int c)
{
    const struct cli_option *o;

    for ( o = cli_options; o->name; o++ )
        if ( o->short_name == c )
            return o;
    return NULL;
}

int main(int argc, char **argv)
{
    struct cli_opts o;
    struct option *lopts;
    char shorts[64];
    int c, rc;

    if ( argc > 1 && !strcmp(argv[1], "diff") )
        return cli_diff(argc - 1, argv + 1);
    if ( argc > 1 && !strcmp(argv[1], "merge") )
        return cli_merge(argc - 1, argv + 1);
    cli_opts_init(&o);
    if ( build_getopt(&lopts, shorts, sizeof(shorts)) )
    {
        fprintf(stderr, "xenalyze: out of memory\n");
        return 1;
    }
    while ( (c = getopt_long(argc, argv, shorts, lopts, NULL)) != -1 )
    {
        const struct cli_option *opt;

        if ( c >= 256 )
            opt = &cli_options[c - 256];
        else if ( c == '?' || !(opt = short_option(c)) )
        {
            cli_usage(stderr);
            rc = 1;
            goto out;
        }
        rc = opt->handle(&o, opt, optarg);
        if ( rc == CLI_DONE )
        {
            rc = 0;
            goto out;
        }
        if ( rc )
        {
            rc = 1;
            goto out;
        }
    }
    if ( optind != argc - 1 )
    {
        fprintf(stderr, "xenalyze: expected one trace file (or -)\n");
        cli_usage(stderr);
        rc = 1;
        goto out;
    }
    o.path = argv[optind];
    rc = cli_opts_check(&o) ? 1 : cli_run(&o);
 out:
    free(lopts);
    cli_opts_dispose(&o);
    return rc;
}
