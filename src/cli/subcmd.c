/* SPDX-License-Identifier: GPL-2.0-only
 *
 * The options of a subcommand (xenalyze diff, xenalyze merge): a table of
 * name, argument, help and handler, as for the main command; getopt_long()'s
 * table and --help are generated from it.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define HELP_VAL 256                /* getopt's value for --help */

void cli_subusage(const struct cli_subcmd *sub, FILE *f)
{
    const struct cli_subopt *o;

    fprintf(f, "Usage: xenalyze %s %s\n%s\n\n", sub->name, sub->synopsis,
            sub->intro);
    for ( o = sub->opts; o->name; o++ )
        cli_usage_line(f, 0, o->name, o->arg, o->arg_name, o->help);
    cli_usage_line(f, 'h', "help", CLI_ARG_NONE, NULL, "this help");
}

int cli_subparse(const struct cli_subcmd *sub, int argc, char **argv,
                 void *ctx, int *first)
{
    struct option *lo;
    size_t i, n = 0;
    int c, rc = 0;

    while ( sub->opts[n].name )
        n++;
    lo = calloc(n + 2, sizeof(*lo));
    if ( !lo )
    {
        fprintf(stderr, "xenalyze %s: out of memory\n", sub->name);
        return -1;
    }
    for ( i = 0; i < n; i++ )
    {
        lo[i].name = sub->opts[i].name;
        lo[i].has_arg = sub->opts[i].arg == CLI_ARG_NONE ? no_argument :
                        sub->opts[i].arg == CLI_ARG_REQ ? required_argument :
                        optional_argument;
        lo[i].val = HELP_VAL + 1 + (int)i;
    }
    lo[n].name = "help";
    lo[n].val = HELP_VAL;
    optind = 1;
    while ( (c = getopt_long(argc, argv, sub->in_order ? "+h" : "h", lo,
                             NULL)) != -1 )
    {
        if ( c == 'h' || c == HELP_VAL )
        {
            cli_subusage(sub, stdout);
            rc = CLI_DONE;
            break;
        }
        if ( c <= HELP_VAL || c > HELP_VAL + (int)n )
        {
            cli_subusage(sub, stderr);
            rc = -1;
            break;
        }
        rc = sub->opts[c - HELP_VAL - 1].handle(ctx, optarg);
        if ( rc == CLI_STOP )
        {
            rc = 0;
            break;
        }
        if ( rc )
        {
            rc = -1;
            break;
        }
    }
    *first = optind;
    free(lo);
    return rc;
}
