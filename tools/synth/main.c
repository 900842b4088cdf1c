/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xentrace-synth: writes a synthetic xentrace file from a scenario, and
 * the exact summary it contains.  See docs/synth.md.
 *
 *   xentrace-synth [--scenario FILE] [options] -o TRACE [--truth JSON]
 *   xentrace-synth --compare TRUTH.json ANALYZER.json
 *   xentrace-synth [--scenario FILE] --replay TRACE [--truth JSON]
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xenalyze/xenalyze.h>
#include <xenalyze/writer.h>

#include "synth.h"

#define MAX_SETS 64

static void usage(FILE *f)
{
    fprintf(f,
"Usage: xentrace-synth [OPTIONS] -o TRACE\n"
"       xentrace-synth --compare TRUTH.json ANALYZER.json\n"
"       xentrace-synth [--scenario FILE] --replay TRACE [--truth JSON]\n"
"\n"
"Simulates a Xen host and writes its xentrace file.\n"
"  -s, --scenario FILE   scenario file (key = value lines, docs/synth.md)\n"
"  -o, --output FILE     trace file; - for standard output\n"
"  -t, --truth FILE      write the exact summary the trace contains (JSON)\n"
"  -d, --duration TIME   simulated time (e.g. 50ms, 2s, 1000000 cycles)\n"
"  -n, --records N       stop after N records instead\n"
"  -S, --seed N          random seed (same seed, same bytes)\n"
"      --hz N            TSC rate\n"
"      --pcpus N         physical CPUs\n"
"      --lost N          lost-records events to inject\n"
"      --window BYTES    xentrace window size\n"
"      --tbuf BYTES      Xen per-CPU ring size: wrap padding (0: none)\n"
"      --set KEY=VALUE   any scenario key (after the file's)\n"
"      --compare A B     compare summary B with truth A; exit 1 if differ\n"
"      --replay TRACE    recompute the truth from a trace file\n"
"  -h, --help\n");
}

/* The truth of an existing trace, through the library's merge. */
static int replay(const char *path, struct truth *t, uint64_t *records)
{
    struct xa_diag diag;
    struct xa_reader *rd = NULL;
    struct xa_merge *m = NULL;
    const struct xa_record *rec;
    int rc;

    xa_diag_init(&diag);
    rc = xa_reader_open(path, &diag, &rd);
    if ( rc == XA_OK )
        rc = xa_merge_new(rd, &m);
    while ( rc == XA_OK && (rc = xa_merge_next(m, &rec)) == XA_OK )
        truth_record(t, rec->cpu, rec->event, rec->tsc, rec->extra,
                     rec->nr_extra);
    if ( rc == XA_END )
    {
        const struct xa_reader_stats *st = xa_reader_stats(rd);

        *records = st->records + st->windows;
        rc = XA_OK;
    }
    xa_merge_free(m);
    xa_reader_free(rd);
    return rc;
}

static int write_truth(const char *path, const struct truth *t,
                       uint64_t records, const struct scenario *sc)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;
    int rc;

    if ( !f )
    {
        fprintf(stderr, "xentrace-synth: %s: %s\n", path, strerror(errno));
        return 1;
    }
    rc = truth_write_json(t, f, records, sc->hz, sim_arch(sc));
    if ( f != stdout && fclose(f) )
        rc = -1;
    if ( rc )
        fprintf(stderr, "xentrace-synth: error writing %s\n", path);
    return rc ? 1 : 0;
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        { "scenario", required_argument, NULL, 's' },
        { "output", required_argument, NULL, 'o' },
        { "truth", required_argument, NULL, 't' },
        { "duration", required_argument, NULL, 'd' },
        { "records", required_argument, NULL, 'n' },
        { "seed", required_argument, NULL, 'S' },
        { "hz", required_argument, NULL, 'H' },
        { "pcpus", required_argument, NULL, 'P' },
        { "lost", required_argument, NULL, 'L' },
        { "window", required_argument, NULL, 'W' },
        { "tbuf", required_argument, NULL, 'T' },
        { "set", required_argument, NULL, 'K' },
        { "compare", no_argument, NULL, 'C' },
        { "replay", required_argument, NULL, 'R' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    static const char *const keys[128] = {
        ['d'] = "duration", ['n'] = "records", ['S'] = "seed", ['H'] = "hz",
        ['P'] = "pcpus", ['L'] = "lost", ['W'] = "window", ['T'] = "tbuf",
    };
    const char *set_key[MAX_SETS], *set_val[MAX_SETS];
    char *set_buf[MAX_SETS];
    unsigned int nr_sets = 0, i;
    const char *scn = NULL, *out = NULL, *truth_path = NULL, *replay_path = NULL;
    bool compare = false;
    struct scenario sc;
    struct truth *t = NULL;
    struct xa_writer *w = NULL;
    char err[512];
    int c, fd = -1, rc = 1;

    scenario_init(&sc);
    while ( (c = getopt_long(argc, argv, "s:o:t:d:n:S:h", opts, NULL)) != -1 )
    {
        switch ( c )
        {
        case 's':
            scn = optarg;
            break;
        case 'o':
            out = optarg;
            break;
        case 't':
            truth_path = optarg;
            break;
        case 'C':
            compare = true;
            break;
        case 'R':
            replay_path = optarg;
            break;
        case 'd': case 'n': case 'S': case 'H': case 'P': case 'L': case 'W':
        case 'T': case 'K':
        {
            char *eq;

            if ( nr_sets == MAX_SETS )
            {
                fprintf(stderr, "xentrace-synth: too many settings\n");
                goto out;
            }
            set_buf[nr_sets] = strdup(optarg);
            if ( !set_buf[nr_sets] )
                goto out;
            set_key[nr_sets] = keys[c];
            set_val[nr_sets] = set_buf[nr_sets];
            if ( c == 'K' )
            {
                eq = strchr(set_buf[nr_sets], '=');
                if ( !eq )
                {
                    fprintf(stderr, "xentrace-synth: --set KEY=VALUE\n");
                    free(set_buf[nr_sets]);
                    goto out;
                }
                *eq = '\0';
                set_key[nr_sets] = set_buf[nr_sets];
                set_val[nr_sets] = eq + 1;
            }
            nr_sets++;
            break;
        }
        case 'h':
            usage(stdout);
            rc = 0;
            goto out;
        default:
            usage(stderr);
            goto out;
        }
    }

    if ( compare )
    {
        if ( argc - optind != 2 )
        {
            usage(stderr);
            goto out;
        }
        rc = json_compare_files(argv[optind], argv[optind + 1], stdout);
        goto out;
    }
    if ( optind != argc || (!out && !replay_path) )
    {
        usage(stderr);
        goto out;
    }
    if ( scn && scenario_load(&sc, scn, err, sizeof(err)) )
    {
        fprintf(stderr, "xentrace-synth: %s\n", err);
        goto out;
    }
    /* Options override the file; "records" replaces "duration". */
    for ( i = 0; i < nr_sets; i++ )
    {
        if ( scenario_set(&sc, set_key[i], set_val[i], err, sizeof(err)) )
        {
            fprintf(stderr, "xentrace-synth: %s\n", err);
            goto out;
        }
        if ( !strcmp(set_key[i], "duration") )
            sc.records = 0;
    }
    if ( scenario_finish(&sc, err, sizeof(err)) )
    {
        fprintf(stderr, "xentrace-synth: %s\n", err);
        goto out;
    }
    t = truth_new();
    if ( !t )
        goto out;

    if ( replay_path )
    {
        uint64_t records = 0;
        int r = replay(replay_path, t, &records);

        if ( r )
        {
            fprintf(stderr, "xentrace-synth: %s: %s\n", replay_path,
                    xa_strerror(r));
            goto out;
        }
        truth_end(t);
        rc = write_truth(truth_path ? truth_path : "-", t, records, &sc);
        goto out;
    }

    if ( !strcmp(out, "-") )
        fd = STDOUT_FILENO;
    else if ( (fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0 )
    {
        fprintf(stderr, "xentrace-synth: %s: %s\n", out, strerror(errno));
        goto out;
    }
    {
        struct xa_writer_opts wo = { .window_size = sc.window,
                                     .tbuf_size = sc.tbuf };
        const struct xa_writer_stats *st;
        int r = xa_writer_new(fd, &wo, &w);

        if ( r == XA_OK )
            r = sim_run(&sc, w, t);
        if ( r == XA_OK )
            r = xa_writer_finish(w);
        if ( r )
        {
            fprintf(stderr, "xentrace-synth: %s: %s\n", out, xa_strerror(r));
            goto out;
        }
        truth_end(t);
        st = xa_writer_stats(w);
        rc = truth_path ? write_truth(truth_path, t,
                                      st->records + st->windows, &sc) : 0;
    }

 out:
    if ( fd > STDOUT_FILENO && close(fd) && !rc )
    {
        fprintf(stderr, "xentrace-synth: error closing %s\n", out);
        rc = 1;
    }
    xa_writer_free(w);
    truth_free(t);
    scenario_dispose(&sc);
    for ( i = 0; i < nr_sets; i++ )
        free(set_buf[i]);
    return rc;
}
