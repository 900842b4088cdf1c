/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The command line as one table: every option's name, argument, group,
 * help and handler.  main.c builds getopt_long()'s table from it and
 * cli_usage() the help.  Upstream xenalyze's option names are kept.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void cli_opts_init(struct cli_opts *o)
{
    memset(o, 0, sizeof(*o));
    o->mode = CLI_SUMMARY;
    o->strict_level = XA_LEVEL_LIMIT;
    o->hz = XA_HZ_DEFAULT;
    o->plots.interval_ms = 1000;
    o->sort = XA_SORT_TIME;
    o->format = "text";
    o->top = 10;
    xa_filter_init(&o->filter);
}

void cli_opts_dispose(struct cli_opts *o)
{
    free(o->plot_domains);
    o->plot_domains = NULL;
    free(o->plot_cr3s);
    o->plot_cr3s = NULL;
}

static int bad_arg(const struct cli_option *opt, const char *arg,
                   const char *expected)
{
    fprintf(stderr, "xenalyze: --%s=%s: expected %s\n", opt->name, arg,
            expected);
    return -1;
}

/* A number as strtoul(s, NULL, 0) reads it: 250, 0xfa, 0372. */
static int parse_uint(const char *s, unsigned int max, unsigned int *v)
{
    char *end;
    unsigned long n;

    if ( *s == '-' || *s == '+' )
        return -1;
    n = strtoul(s, &end, 0);
    if ( end == s || *end || n > max )
        return -1;
    *v = (unsigned int)n;
    return 0;
}

static int h_threads(struct cli_opts *o, const struct cli_option *opt,
                     const char *arg)
{
    if ( parse_uint(arg, 1024, &o->threads) || !o->threads )
        return bad_arg(opt, arg, "a number of threads from 1 to 1024");
    return 0;
}

/* Hidden, for the tests: batches this small cross many boundaries. */
static int h_slice(struct cli_opts *o, const struct cli_option *opt,
                   const char *arg)
{
    if ( parse_uint(arg, XA_PIPE_BATCH, &o->slice) || !o->slice )
        return bad_arg(opt, arg, "a number of records from 1 to 2048");
    return 0;
}

/*
 * Hidden, for the tests: time slices of about N records, so that every
 * trace crosses many cuts (--threads above 1, a file); --slice-stats says
 * how they were taken.
 */
static int h_slice_records(struct cli_opts *o, const struct cli_option *opt,
                           const char *arg)
{
    if ( parse_uint(arg, 1000000000, &o->slice_records) || !o->slice_records )
        return bad_arg(opt, arg, "a number of records from 1 to 1000000000");
    return 0;
}

/*
 * Hidden, for the tests: the summary's model takes chunks of N records
 * analysed apart, one after the other in one thread, each by a model
 * warmed up on the N records before it (docs/parallel-summary.md).
 */
static int h_apart_records(struct cli_opts *o, const struct cli_option *opt,
                           const char *arg)
{
    if ( parse_uint(arg, 100000000, &o->apart_records) || !o->apart_records )
        return bad_arg(opt, arg, "a number of records from 1 to 100000000");
    return 0;
}

static int h_slice_stats(struct cli_opts *o, const struct cli_option *opt,
                         const char *arg)
{
    (void)opt;
    (void)arg;
    o->slice_stats = true;
    return 0;
}

/* Modes */

static int h_dump(struct cli_opts *o, const struct cli_option *opt,
                  const char *arg)
{
    (void)opt, (void)arg;
    o->mode = CLI_DUMP;
    o->dump_given = true;
    return 0;
}

/* -s with -a (either order): the dump, then the summary, as upstream. */
static int h_summary(struct cli_opts *o, const struct cli_option *opt,
                     const char *arg)
{
    (void)opt, (void)arg;
    if ( !o->dump_given && !o->raw_process && o->mode != CLI_RAW_READS )
        o->mode = CLI_SUMMARY;
    o->summary_given = true;
    return 0;
}

/*
 * Upstream's raw views: the records as read (file order here), or as
 * processed (merge order), in its raw format.
 */
static int h_raw_reads(struct cli_opts *o, const struct cli_option *opt,
                       const char *arg)
{
    (void)opt, (void)arg;
    o->mode = CLI_RAW_READS;
    o->raw_reads = true;
    return 0;
}

static int h_raw_process(struct cli_opts *o, const struct cli_option *opt,
                         const char *arg)
{
    (void)opt, (void)arg;
    o->raw_process = true;
    if ( o->mode != CLI_RAW_READS )
        o->mode = CLI_DUMP;
    return 0;
}

static int h_count(struct cli_opts *o, const struct cli_option *opt,
                   const char *arg)
{
    (void)opt, (void)arg;
    o->mode = CLI_COUNT;
    return 0;
}

/* Input and clock */

static int h_hz(struct cli_opts *o, const struct cli_option *opt,
                const char *arg)
{
    int rc = xa_hz_parse(arg, &o->hz);

    if ( rc )
    {
        fprintf(stderr, "xenalyze: --%s=%s: %s (expected e.g. 2.4G, "
                "62.5MHz, 19200000; 1 kHz to 10 GHz)\n", opt->name, arg,
                xa_strerror(rc));
        return -1;
    }
    o->hz_given = true;
    o->hz_option = opt->name;
    return 0;
}

static int h_hvm_mode(struct cli_opts *o, const struct cli_option *opt,
                      const char *arg)
{
    (void)arg;
    o->hvm_mode = (enum xa_hvm_mode_opt)opt->val;
    return 0;
}

/* Selection */

static int h_time(struct cli_opts *o, const struct cli_option *opt,
                  const char *arg)
{
    uint64_t ns;

    if ( xa_filter_parse_seconds(arg, &ns) )
        return bad_arg(opt, arg, "seconds from the trace's start, e.g. 1.5 "
                       "(at most 9 decimals)");
    if ( opt->val )
        o->filter.to_ns = ns;
    else
        o->filter.from_ns = ns;
    return 0;
}

static int h_window_rule(struct cli_opts *o, const struct cli_option *opt,
                         const char *arg)
{
    if ( !strcmp(arg, "cut") || !strcmp(arg, "begin") )
        o->filter.whole = arg[0] == 'b';
    else
        return bad_arg(opt, arg, "cut or begin");
    return 0;
}

static int h_domain(struct cli_opts *o, const struct cli_option *opt,
                    const char *arg)
{
    if ( xa_filter_parse_domains(&o->filter, arg) )
        return bad_arg(opt, arg, "domain ids, e.g. 0,5");
    return 0;
}

static int h_vcpu(struct cli_opts *o, const struct cli_option *opt,
                  const char *arg)
{
    if ( xa_filter_parse_vcpus(&o->filter, arg) )
        return bad_arg(opt, arg, "vCPUs as dDvV, e.g. d1v0,d1v1");
    return 0;
}

/* Summary */

static int h_format(struct cli_opts *o, const struct cli_option *opt,
                    const char *arg)
{
    if ( strcmp(arg, "text") && strcmp(arg, "json") && strcmp(arg, "csv") )
        return bad_arg(opt, arg, "text, json or csv");
    o->format = arg;
    o->json = strcmp(arg, "text") != 0;     /* every row, no --top */
    return 0;
}

static int h_sort(struct cli_opts *o, const struct cli_option *opt,
                  const char *arg)
{
    if ( xa_sum_sort_parse(arg, &o->sort) )
        return bad_arg(opt, arg, "time, count, mean, p99 or code");
    return 0;
}

static int h_top(struct cli_opts *o, const struct cli_option *opt,
                 const char *arg)
{
    if ( parse_uint(arg, 1000000, &o->top) )
        return bad_arg(opt, arg, "a number of sub-rows (0: all)");
    return 0;
}

static int h_memory_budget(struct cli_opts *o, const struct cli_option *opt,
                           const char *arg)
{
    if ( parse_uint(arg, 1u << 24, &o->memory_budget_mb) ||
         !o->memory_budget_mb )
        return bad_arg(opt, arg, "a number of MiB, 1 to 16777216");
    return 0;
}

static int h_slowest(struct cli_opts *o, const struct cli_option *opt,
                     const char *arg)
{
    if ( parse_uint(arg, 10000, &o->slowest) || !o->slowest )
        return bad_arg(opt, arg, "a number of exits, 1 to 10000");
    return 0;
}

static int h_slowest_per_reason(struct cli_opts *o,
                                const struct cli_option *opt,
                                const char *arg)
{
    (void)opt, (void)arg;
    o->slowest_per_reason = true;
    if ( !o->slowest )
        o->slowest = 3;
    return 0;
}

/*
 * --with-pio-enumeration, --with-mmio-enumeration: the summary breaks I/O
 * and MMIO exits down by port and address (upstream's I/O list is on by
 * default too); these list every one of them, as --top=0.
 */
static int h_enumerate(struct cli_opts *o, const struct cli_option *opt,
                       const char *arg)
{
    (void)opt, (void)arg;
    o->top = 0;
    return 0;
}

static int h_report_pcpu(struct cli_opts *o, const struct cli_option *opt,
                         const char *arg)
{
    (void)opt, (void)arg;
    o->report_pcpu = true;
    return 0;
}

/* Dump */

static int h_show_tsc(struct cli_opts *o, const struct cli_option *opt,
                      const char *arg)
{
    (void)opt, (void)arg;
    o->show_tsc = true;
    return 0;
}

/* Timeline */

static int h_perfetto(struct cli_opts *o, const struct cli_option *opt,
                      const char *arg)
{
    if ( !*arg )
        return bad_arg(opt, arg, "a file name (or - for standard output)");
    o->perfetto = arg;
    return 0;
}

/* Per-exit rows */

static int h_exits(struct cli_opts *o, const struct cli_option *opt,
                   const char *arg)
{
    if ( !*arg )
        return bad_arg(opt, arg, "a file name (or - for standard output)");
    o->exits = arg;
    return 0;
}

static int h_runstates(struct cli_opts *o, const struct cli_option *opt,
                       const char *arg)
{
    if ( !*arg )
        return bad_arg(opt, arg, "a file name (or - for standard output)");
    o->runstates = arg;
    return 0;
}

static int h_exits_format(struct cli_opts *o, const struct cli_option *opt,
                          const char *arg)
{
    if ( strcmp(arg, "csv") && strcmp(arg, "jsonl") )
        return bad_arg(opt, arg, "csv or jsonl");
    o->exits_jsonl = !strcmp(arg, "jsonl");
    return 0;
}

/* Upstream's plots and interval tables */

static int h_plot(struct cli_opts *o, const struct cli_option *opt,
                  const char *arg)
{
    (void)arg;
    o->plots.plots |= opt->val;
    return 0;
}

/* --scatterplot-extint-cycles, --scatterplot-interrupt-eip: a vector. */
static int h_plot_vector(struct cli_opts *o, const struct cli_option *opt,
                         const char *arg)
{
    unsigned int *v = opt->val == XA_PLOT_INTERRUPT_EIP
                      ? &o->plots.eip_vector : &o->plots.extint_vector;

    if ( parse_uint(arg, 255, v) )
        return bad_arg(opt, arg, "a vector, 0 to 255 (e.g. 250 or 0xfa)");
    o->plots.plots |= opt->val;
    return 0;
}

static int h_plot_io(struct cli_opts *o, const struct cli_option *opt,
                     const char *arg)
{
    if ( parse_uint(arg, 0xffff, &o->plots.io_port) )
        return bad_arg(opt, arg, "a port, 0 to 0xffff");
    o->plots.plots |= opt->val;
    return 0;
}

/*
 * The summary's eip lists: one vector for --with-interrupt-eip-
 * enumeration and --histogram-interrupt-eip=V[,SIZE] (default bucket
 * 0x1000000, as upstream).
 */
static int h_eip_list(struct cli_opts *o, const struct cli_option *opt,
                      const char *arg)
{
    char buf[32];
    const char *comma = strchr(arg, ',');
    unsigned int vec;
    size_t n = comma ? (size_t)(comma - arg) : strlen(arg);

    if ( n >= sizeof(buf) )
        return bad_arg(opt, arg, "a vector, 0 to 255");
    memcpy(buf, arg, n);
    buf[n] = 0;
    if ( parse_uint(buf, 255, &vec) || (comma && !opt->val) )
        return bad_arg(opt, arg, opt->val ? "VECTOR[,BUCKET]"
                                          : "a vector, 0 to 255");
    if ( o->eip_list && o->eip_vector != vec )
    {
        fprintf(stderr, "xenalyze: --%s=%s: the eip lists are of one "
                "vector (0x%x given before)\n", opt->name, arg,
                o->eip_vector);
        return -1;
    }
    o->eip_list = true;
    o->eip_vector = vec;
    if ( opt->val )
    {
        char *end;

        o->eip_histogram = 0x1000000;
        if ( comma )
        {
            if ( comma[1] == '-' )
                return bad_arg(opt, arg, "VECTOR[,BUCKET]");
            o->eip_histogram = strtoull(comma + 1, &end, 0);
            if ( end == comma + 1 || *end || !o->eip_histogram )
                return bad_arg(opt, arg, "VECTOR[,BUCKET], BUCKET above 0");
        }
    }
    return 0;
}

/*
 * Upstream skips MMIO to the VGA range in its enumeration unless given 0;
 * ours lists it unless given 1.
 */
static int h_skip_vga(struct cli_opts *o, const struct cli_option *opt,
                      const char *arg)
{
    unsigned int v;

    if ( parse_uint(arg, 1, &v) )
        return bad_arg(opt, arg, "0 or 1");
    o->mmio_skip_vga = v;
    return 0;
}

static int h_show_default(struct cli_opts *o, const struct cli_option *opt,
                          const char *arg)
{
    (void)opt, (void)arg;
    o->show_default_domain = true;
    return 0;
}

static int h_symbol_file(struct cli_opts *o, const struct cli_option *opt,
                         const char *arg)
{
    if ( !*arg )
        return bad_arg(opt, arg, "a System.map-style file");
    o->symbol_file = arg;
    return 0;
}

/* Seconds, as upstream reads them: whole milliseconds. */
static int h_interval(struct cli_opts *o, const struct cli_option *opt,
                      const char *arg)
{
    char *end;
    double sec = strtod(arg, &end);

    if ( end == arg || *end || !(sec >= 0.001) || sec > 4.0e6 )
        return bad_arg(opt, arg, "seconds, at least 0.001");
    o->plots.interval_ms = (unsigned int)(sec * 1000.0 + 1e-9);
    return 0;
}

/* D[,D...] into plots.domains. */
static int parse_plot_domains(struct cli_opts *o, const char *s)
{
    struct xa_filter f;

    xa_filter_init(&f);
    if ( xa_filter_parse_domains(&f, s) )
        return -1;
    free(o->plot_domains);
    o->plot_domains = calloc(f.nr_domains, sizeof(*o->plot_domains));
    if ( !o->plot_domains )
        return -1;
    for ( unsigned int i = 0; i < f.nr_domains; i++ )
        o->plot_domains[i] = f.domains[i];
    o->plots.domains = o->plot_domains;
    o->plots.nr_domains = f.nr_domains;
    return 0;
}

/*
 * Guest page tables: --with-cr3-enumeration lists them in the summary
 * and plots ids; the --interval-cr3-* tables imply it, as upstream.
 */
static int h_cr3_enum(struct cli_opts *o, const struct cli_option *opt,
                      const char *arg)
{
    (void)opt, (void)arg;
    o->cr3 = o->cr3_list = o->plots.cr3_ids = true;
    return 0;
}

static int h_plot_cr3(struct cli_opts *o, const struct cli_option *opt,
                      const char *arg)
{
    o->cr3 = true;
    return h_plot(o, opt, arg);
}

/* GMFN[,GMFN...] (upstream's numbers: 0x10100 or 65792) into plots.cr3s. */
static int parse_plot_cr3s(struct cli_opts *o, const char *s)
{
    unsigned int n = 1, i;
    const char *p;

    for ( p = s; *p; p++ )
        n += *p == ',';
    free(o->plot_cr3s);
    o->plot_cr3s = calloc(n, sizeof(*o->plot_cr3s));
    if ( !o->plot_cr3s )
        return -1;
    for ( p = s, i = 0; i < n; i++ )
    {
        char *end;

        if ( *p == '-' || *p == ',' || !*p )
            return -1;
        o->plot_cr3s[i] = strtoull(p, &end, 0);
        if ( end == p || (*end && *end != ',') )
            return -1;
        p = *end ? end + 1 : end;
    }
    o->plots.cr3s = o->plot_cr3s;
    o->plots.nr_cr3s = n;
    return 0;
}

static int h_interval_table(struct cli_opts *o, const struct cli_option *opt,
                            const char *arg)
{
    enum xa_interval_kind k = (enum xa_interval_kind)opt->val;

    if ( o->plots.interval != XA_INTERVAL_NONE && o->plots.interval != k )
    {
        fprintf(stderr, "xenalyze: --%s: only one --interval-* table at a "
                "time\n", opt->name);
        return -1;
    }
    o->plots.interval = k;
    if ( k == XA_INTERVAL_DOMAIN_TOTAL_TIME && parse_plot_domains(o, arg) )
        return bad_arg(opt, arg, "domain ids, e.g. 0,5");
    if ( (k == XA_INTERVAL_DOMAIN_GUEST_INTERRUPT ||
          k == XA_INTERVAL_DOMAIN_GRANT_MAPS ||
          k == XA_INTERVAL_DOMAIN_SHORT_SUMMARY) &&
         (parse_plot_domains(o, arg) || o->plots.nr_domains != 1) )
        return bad_arg(opt, arg, "one domain id");
    if ( k == XA_INTERVAL_CR3_SCHEDULE_TIME && parse_plot_cr3s(o, arg) )
        return bad_arg(opt, arg, "guest page frames, e.g. 0x10100,0x2a3f0");
    if ( k == XA_INTERVAL_CR3_SHORT_SUMMARY &&
         (parse_plot_cr3s(o, arg) || o->plots.nr_cr3s != 1) )
        return bad_arg(opt, arg, "one guest page frame, e.g. 0x10100");
    /* The --interval-cr3-* tables imply --with-cr3-enumeration. */
    if ( k >= XA_INTERVAL_CR3_SCHEDULE_TIME )
        return h_cr3_enum(o, opt, arg);
    return 0;
}

/* Compatibility */

/* --sample-size, --sample-max: said once, whichever comes first. */
static int h_ignored(struct cli_opts *o, const struct cli_option *opt,
                     const char *arg)
{
    (void)arg;
    if ( !o->noted_ignored )
        fprintf(stderr, "xenalyze: note: --%s has no effect: percentiles "
                "come from a histogram of every sample, in constant "
                "memory\n", opt->name);
    o->noted_ignored = true;
    return 0;
}

/* An upstream option without an equivalent here: why, and status 1. */
static int h_refused(struct cli_opts *o, const struct cli_option *opt,
                     const char *arg)
{
    (void)o, (void)arg;
    fprintf(stderr, "xenalyze: --%s (upstream xenalyze) is not supported: "
            "%s\n", opt->name, opt->help);
    return -1;
}

/*
 * --tolerance=N: upstream stops at an error of a level above N (0-6,
 * default 3).  Here: exit status 2 when anomalies of the next level or
 * above were found, the whole trace read (docs/xenalyze.1).
 */
static int h_tolerance(struct cli_opts *o, const struct cli_option *opt,
                       const char *arg)
{
    static const char *const above[] = {
        "warn", "warn", "sanity", "record", "file", "limit",
    };
    unsigned int n;

    if ( parse_uint(arg, 6, &n) )
        return bad_arg(opt, arg, "an error level, 0 to 6");
    if ( n == 6 )
    {
        o->strict = false;
        return 0;
    }
    o->strict = true;
    return xa_diag_level_parse(above[n], &o->strict_level);
}

/* --tsc-loop-fatal: exit status 2 when TSCs were found out of order. */
static int h_tsc_fatal(struct cli_opts *o, const struct cli_option *opt,
                       const char *arg)
{
    (void)opt, (void)arg;
    o->tsc_fatal = true;
    return 0;
}

static int h_progress(struct cli_opts *o, const struct cli_option *opt,
                      const char *arg)
{
    (void)opt, (void)arg;
    o->progress = true;
    return 0;
}

/* Other */

static int h_strict(struct cli_opts *o, const struct cli_option *opt,
                    const char *arg)
{
    o->strict = true;
    o->strict_level = XA_LEVEL_WARN;
    if ( arg && xa_diag_level_parse(arg, &o->strict_level) )
        return bad_arg(opt, arg, "warn, sanity, record, file or limit");
    return 0;
}

static int h_help(struct cli_opts *o, const struct cli_option *opt,
                  const char *arg)
{
    (void)o, (void)opt, (void)arg;
    cli_usage(stdout);
    return CLI_DONE;
}

static int h_version(struct cli_opts *o, const struct cli_option *opt,
                     const char *arg)
{
    (void)o, (void)opt, (void)arg;
    printf("xenalyze %s\n", XA_VERSION);
    return CLI_DONE;
}

#define NOARG CLI_ARG_NONE, NULL
#define IGNORED_ARG(n, a) { n, 0, CLI_ARG_REQ, a, CLI_G_COMPAT, "", \
                            h_ignored, 0 }
/* Refused: the help is the reason given. */
#define REFUSED(n, why) { n, 0, NOARG, CLI_G_REFUSED, why, h_refused, 0 }
#define REFUSED_ARG(n, a, why) { n, 0, CLI_ARG_REQ, a, CLI_G_REFUSED, why, \
                                 h_refused, 0 }

const struct cli_option cli_options[] = {
    /* Modes */
    { "summary", 's', NOARG, CLI_G_MODE,
      "per-domain and per-vCPU summary (the default)", h_summary, 0 },
    { "dump-all", 'a', NOARG, CLI_G_MODE,
      "every record in time order, one per line", h_dump, 0 },
    { "count", 0, NOARG, CLI_G_MODE,
      "read and merge only; print record counts", h_count, 0 },

    /* Input and clock */
    { "cpu-hz", 0, CLI_ARG_REQ, "RATE", CLI_G_INPUT,
      "TSC rate: 2.4G, 2400M, 62.5MHz, 19200000", h_hz, 0 },
    { "timer-hz", 0, CLI_ARG_REQ, "RATE", CLI_G_INPUT,
      "the same (Arm: the generic timer's rate)", h_hz, 0 },
    { "svm-mode", 0, NOARG, CLI_G_INPUT,
      "read HVM exit codes as AMD SVM", h_hvm_mode, XA_HVM_MODE_FORCE_SVM },
    { "vmx-mode", 0, NOARG, CLI_G_INPUT,
      "read HVM exit codes as Intel VMX", h_hvm_mode, XA_HVM_MODE_FORCE_VMX },

    /* Selection */
    { "from", 0, CLI_ARG_REQ, "SECONDS", CLI_G_SELECT,
      "start at this time from the trace's first timestamp\n"
      "(summary, plots and dump)", h_time, 0 },
    { "to", 0, CLI_ARG_REQ, "SECONDS", CLI_G_SELECT,
      "stop at this time (exclusive)", h_time, 1 },
    { "window-rule", 0, CLI_ARG_REQ, "cut|begin", CLI_G_SELECT,
      "summary: what crosses the window's edges counts for its\n"
      "part inside (cut, default), or whole where it begins\n"
      "(begin: windows merge into the whole trace)", h_window_rule, 0 },
    { "domain", 0, CLI_ARG_REQ, "D[,D...]", CLI_G_SELECT,
      "only these domains", h_domain, 0 },
    { "vcpu", 0, CLI_ARG_REQ, "dDvV[,...]", CLI_G_SELECT,
      "only these vCPUs", h_vcpu, 0 },

    /* Summary */
    { "format", 0, CLI_ARG_REQ, "FMT", CLI_G_SUMMARY,
      "summary format: text (default), json or csv\n"
      "(docs/summary-json.md, docs/csv.md)", h_format, 0 },
    { "sort", 0, CLI_ARG_REQ, "KEY", CLI_G_SUMMARY,
      "order of exits, sub-rows and counters: time (default),\n"
      "count, mean, p99 (descending) or code", h_sort, 0 },
    { "top", 0, CLI_ARG_REQ, "N", CLI_G_SUMMARY,
      "text: N sub-rows per exit, the rest folded into one\n"
      "\"other (K keys)\" row (default 10; 0: all)", h_top, 0 },
    { "slowest", 0, CLI_ARG_REQ, "N", CLI_G_SUMMARY,
      "after the text summary: the N longest exits, each with\n"
      "its pCPU's records and others' scheduling records", h_slowest, 0 },
    { "slowest-per-reason", 0, NOARG, CLI_G_SUMMARY,
      "--slowest: N per exit reason (default N 3)",
      h_slowest_per_reason, 0 },
    { "report-pcpu", 0, NOARG, CLI_G_SUMMARY,
      "add per-physical-CPU utilisation", h_report_pcpu, 0 },
    { "with-pio-enumeration", 0, NOARG, CLI_G_SUMMARY,
      "every I/O port's row under I/O exits (as --top=0)", h_enumerate, 0 },
    { "with-mmio-enumeration", 0, NOARG, CLI_G_SUMMARY,
      "every MMIO address's row (as --top=0)", h_enumerate, 0 },
    { "mmio-enumeration-skip-vga", 0, CLI_ARG_REQ, "0|1", CLI_G_SUMMARY,
      "1: MMIO exits to the VGA range (0xa0000-0xbfffe) get no\n"
      "address or page row (upstream's default); 0: they do\n"
      "(default)", h_skip_vga, 0 },
    { "memory-budget", 0, CLI_ARG_REQ, "MB", CLI_G_SUMMARY,
      "bytes the model's tables may take (default 1024 MiB);\n"
      "past it new keys fold into 'other' (MEMORY_BUDGET)",
      h_memory_budget, 0 },
    { "with-interrupt-eip-enumeration", 0, CLI_ARG_REQ, "VECTOR",
      CLI_G_SUMMARY, "text: each domain's guest addresses that external\n"
      "interrupts of VECTOR found (x86 HVM)", h_eip_list, 0 },
    { "histogram-interrupt-eip", 0, CLI_ARG_REQ, "VECTOR[,SIZE]",
      CLI_G_SUMMARY, "text: the same per vCPU in buckets of SIZE bytes\n"
      "(default 0x1000000)", h_eip_list, 1 },
    { "show-default-domain-summary", 0, NOARG, CLI_G_SUMMARY,
      "list the default domain (32768: vCPUs not known yet)\n"
      "even without exits of its own", h_show_default, 0 },
    { "with-cr3-enumeration", 0, NOARG, CLI_G_SUMMARY,
      "text: each domain's guest page tables (CR3 values, x86\n"
      "HVM): time loaded, in the guest, in Xen, exits by kind",
      h_cr3_enum, 0 },
    { "symbol-file", 0, CLI_ARG_REQ, "FILE", CLI_G_SUMMARY,
      "guest symbols (System.map: ADDRESS [TYPE] NAME) for\n"
      "the eip lists and the dump's guest addresses", h_symbol_file, 0 },

    /* Dump */
    { "show-tsc", 0, NOARG, CLI_G_DUMP,
      "print each record's raw TSC first", h_show_tsc, 0 },

    { "dump-raw-reads", 0, NOARG, CLI_G_DUMP,
      "every record as read, in file order (CPU-change records\n"
      "too) in upstream's raw format: R pCPU oOFFSET event words\n"
      "tsc [extra] | words as written |; nothing else", h_raw_reads, 0 },
    { "dump-no-processing", 0, NOARG, CLI_G_DUMP,
      "the same (upstream: --dump-raw-reads without processing)",
      h_raw_reads, 0 },
    { "dump-raw-process", 0, NOARG, CLI_G_DUMP,
      "every record as processed, in time order, in the same\n"
      "format after \"* \" (with -a: before its dump line)",
      h_raw_process, 0 },

    /* Timeline */
    { "perfetto", 0, CLI_ARG_REQ, "FILE", CLI_G_TIMELINE,
      "write a Perfetto timeline (ui.perfetto.dev) to FILE;\n"
      "with -s the summary too", h_perfetto, 0 },
    { "exits", 0, CLI_ARG_REQ, "FILE", CLI_G_ROWS,
      "write one row per exit to FILE (- for standard output);\n"
      "with -s the summary too", h_exits, 0 },
    { "exits-format", 0, CLI_ARG_REQ, "FMT", CLI_G_ROWS,
      "--exits and --runstates rows as csv (default, with a\n"
      "header) or jsonl", h_exits_format, 0 },
    { "runstates", 0, CLI_ARG_REQ, "FILE", CLI_G_ROWS,
      "write one row per vCPU runstate interval to FILE;\n"
      "with -s the summary too", h_runstates, 0 },

    /* Upstream's plots and interval tables */
    { "scatterplot-runstate", 0, NOARG, CLI_G_PLOTS,
      "DvV time graph: runstate changes", h_plot, XA_PLOT_RUNSTATE },
    { "scatterplot-runstate-time", 0, NOARG, CLI_G_PLOTS,
      "DvV time duration of each runstate", h_plot, XA_PLOT_RUNSTATE_TIME },
    { "scatterplot-pcpu", 0, NOARG, CLI_G_PLOTS,
      "DvV time pcpu: where vCPUs ran", h_plot, XA_PLOT_PCPU },
    { "scatterplot-extint-cycles", 0, CLI_ARG_REQ, "VECTOR", CLI_G_PLOTS,
      "cycles of external-interrupt exits with VECTOR", h_plot_vector,
      XA_PLOT_EXTINT_CYCLES },
    { "scatterplot-io", 0, CLI_ARG_REQ, "PORT", CLI_G_PLOTS,
      "cycles of I/O exits on PORT", h_plot_io, XA_PLOT_IO },
    { "scatterplot-vmexit-eip", 0, NOARG, CLI_G_PLOTS,
      "time rip of every exit", h_plot, XA_PLOT_VMEXIT_EIP },
    { "scatterplot-rdtsc", 0, NOARG, CLI_G_PLOTS,
      "DvV time tsc of RDTSC exits", h_plot, XA_PLOT_RDTSC },
    { "scatterplot-irq", 0, NOARG, CLI_G_PLOTS,
      "iIRQ time pcpu of physical interrupts", h_plot, XA_PLOT_IRQ },
    { "scatterplot-interrupt-eip", 0, CLI_ARG_REQ, "VECTOR", CLI_G_PLOTS,
      "dDvV time rip of external interrupts with VECTOR",
      h_plot_vector, XA_PLOT_INTERRUPT_EIP },
    { "scatterplot-wake-to-halt", 0, NOARG, CLI_G_PLOTS,
      "time cycles from a wake-up interrupt to the halt",
      h_plot, XA_PLOT_WAKE_TO_HALT },
    { "scatterplot-cr3-switch", 0, NOARG, CLI_G_PLOTS,
      "time gmfn of each guest page-table switch (with\n"
      "--with-cr3-enumeration: the table's id)", h_plot_cr3,
      XA_PLOT_CR3_SWITCH },
    { "scatterplot-unpin-promote", 0, NOARG, CLI_G_PLOTS,
      "time -10|0|2 of shadow paging's early unshadows,\n"
      "pre-allocation unpins and promotions (with\n"
      "--with-cr3-enumeration: 2 is the page table's id)", h_plot,
      XA_PLOT_UNPIN_PROMOTE },
    { "interval", 'i', CLI_ARG_REQ, "SECONDS", CLI_G_PLOTS,
      "length of an --interval-* row (default 1)", h_interval, 0 },
    { "interval-domain-total-time", 0, CLI_ARG_REQ, "D[,D...]", CLI_G_PLOTS,
      "running time of these domains per interval", h_interval_table,
      XA_INTERVAL_DOMAIN_TOTAL_TIME },
    { "interval-domain-total-time-all", 0, NOARG, CLI_G_PLOTS,
      "running time of every domain per interval", h_interval_table,
      XA_INTERVAL_DOMAIN_TOTAL_TIME_ALL },
    { "interval-domain-guest-interrupt", 0, CLI_ARG_REQ, "D", CLI_G_PLOTS,
      "vectors injected into domain D per interval", h_interval_table,
      XA_INTERVAL_DOMAIN_GUEST_INTERRUPT },
    { "interval-domain-grant-maps", 0, CLI_ARG_REQ, "D", CLI_G_PLOTS,
      "grant maps done for domain D per interval", h_interval_table,
      XA_INTERVAL_DOMAIN_GRANT_MAPS },
    { "interval-domain-short-summary", 0, CLI_ARG_REQ, "D", CLI_G_PLOTS,
      "domain D's running time and exit time by kind per\n"
      "interval (upstream's HVM short summary)", h_interval_table,
      XA_INTERVAL_DOMAIN_SHORT_SUMMARY },

    { "interval-cr3-schedule-time", 0, CLI_ARG_REQ, "GMFN[,GMFN...]",
      CLI_G_PLOTS, "time these guest page tables were loaded per\n"
      "interval", h_interval_table, XA_INTERVAL_CR3_SCHEDULE_TIME },
    { "interval-cr3-schedule-time-all", 0, NOARG, CLI_G_PLOTS,
      "the same for every guest page table", h_interval_table,
      XA_INTERVAL_CR3_SCHEDULE_TIME_ALL },
    { "interval-cr3-schedule-ordered", 0, NOARG, CLI_G_PLOTS,
      "every guest page table loaded per interval, most first",
      h_interval_table, XA_INTERVAL_CR3_SCHEDULE_ORDERED },
    { "interval-cr3-short-summary", 0, CLI_ARG_REQ, "GMFN", CLI_G_PLOTS,
      "a guest page table's time and its exits' time by kind\n"
      "per interval", h_interval_table, XA_INTERVAL_CR3_SHORT_SUMMARY },

    /* Upstream options made moot by design */
    IGNORED_ARG("sample-size", "N"),
    IGNORED_ARG("sample-max", "N"),

    /* Upstream options without an equivalent here: refused, exit 1 */
    REFUSED_ARG("default-guest-paging-levels", "L", "no record's "
                "decoding needs it: shadow records carry the guest's "
                "paging levels in their ids, page-fault records their "
                "width in the 64-bit flag; upstream guesses the levels "
                "with it after a 32-bit exit only for its breakdown of "
                "shadow page faults (linear page tables, kernel or user), "
                "which this summary does not make (upstream's output is "
                "the same with any value on the real traces)"),
    REFUSED("dump-ipi-latency", "upstream prints, at each VM entry, "
            "a line per vector injected, its latency counted from the "
            "first IPI to that vector seen as an xAPIC ICR write (MMIO, "
            "all-but-self shorthand) or, without one, from TSC 0: on the "
            "VMX trace its 1,435 lines all say 'ipis 0' with the entry's "
            "raw TSC as the latency (x2APIC guests write the ICR by MSR, "
            "which it does not follow); -a prints the injections "
            "(inj_virq)"),
    REFUSED("dump-trace-volume-on-lost-record", "upstream prints, at "
            "each CPU-change record (its lost-record part is disabled), "
            "the pCPU's previous window: its 'Buffer time' and dom0 "
            "runstates are durations taken for trace times (7486795 s), "
            "or times for durations, on every real trace; the summary's "
            "log volume table and --count give the volumes per pCPU"),
    REFUSED("dump-show-power-states", "it draws C-states into upstream's "
            "per-pCPU state column, which this dump has not, from "
            "pm_idle_entry/pm_idle_exit records, which none of the real "
            "traces has (upstream then draws every idle pCPU as '6', "
            "unknown: 173,395 of the VMX trace's 176,725 lines); -a prints "
            "those records with their C-state"),

    /* Other */
    { "strict", 0, CLI_ARG_OPT, "LEVEL", CLI_G_OTHER,
      "exit 2 if anomalies at or above LEVEL (warn, sanity,\n"
      "record, file, limit; default warn)", h_strict, 0 },
    { "threads", 0, CLI_ARG_REQ, "N", CLI_G_OTHER,
      "threads to use (default: the CPUs present); 1: one\n"
      "thread; the dump formats in N threads beside the merge", h_threads,
      0 },
    { "slice", 0, CLI_ARG_REQ, "N", CLI_G_OTHER, NULL, h_slice, 0 },
    { "slice-records", 0, CLI_ARG_REQ, "N", CLI_G_OTHER, NULL,
      h_slice_records, 0 },
    { "slice-stats", 0, NOARG, CLI_G_OTHER, NULL, h_slice_stats, 0 },
    { "apart-records", 0, CLI_ARG_REQ, "N", CLI_G_OTHER, NULL,
      h_apart_records, 0 },
    { "tolerance", 0, CLI_ARG_REQ, "N", CLI_G_OTHER,
      "upstream's error tolerance (0-6): as --strict at the\n"
      "level above N: 0-1 warn, 2 sanity, 3 record, 4 file,\n"
      "5 limit; 6 none", h_tolerance, 0 },
    { "tsc-loop-fatal", 0, NOARG, CLI_G_OTHER,
      "exit 2 if TSCs were out of order (TSC_BACKWARDS,\n"
      "TSC_OUTLIER, TSC_RESET, RUNSTATE_MISMATCH, TSC_SKEW)",
      h_tsc_fatal, 0 },
    { "progress", 0, NOARG, CLI_G_OTHER,
      "show progress on standard error when it is a terminal",
      h_progress, 0 },
    { "help", 'h', NOARG, CLI_G_OTHER, "this help", h_help, 0 },
    { "version", 0, NOARG, CLI_G_OTHER, "version", h_version, 0 },
    { NULL, 0, NOARG, 0, NULL, NULL, 0 },
};

static const char *const group_titles[CLI_G_NR] = {
    [CLI_G_MODE] = "What to do",
    [CLI_G_INPUT] = "Input and clock",
    [CLI_G_SELECT] = "Selection",
    [CLI_G_SUMMARY] = "Summary",
    [CLI_G_DUMP] = "Dump",
    [CLI_G_TIMELINE] = "Timeline (docs/timeline.md)",
    [CLI_G_ROWS] = "Per-exit rows (docs/exits.md)",
    [CLI_G_PLOTS] = ("Upstream's plots and interval tables (in place of "
                     "the summary;\nwith -s, before it)"),
    [CLI_G_COMPAT] = "Upstream options accepted without effect",
    [CLI_G_REFUSED] = "Upstream options refused (exit 1, saying why)",
    [CLI_G_OTHER] = "Other",
};

#define HELP_COL 26

/* "  -s, --summary=ARG", padded to HELP_COL, then the help's lines. */
void cli_usage_line(FILE *f, int short_name, const char *name,
                    enum cli_arg arg, const char *arg_name, const char *help)
{
    const char *h = help, *nl;
    int n;

    n = fprintf(f, "  %c%c%s--%s", short_name ? '-' : ' ',
                short_name ? short_name : ' ', short_name ? ", " : "  ", name);
    if ( arg == CLI_ARG_REQ )
        n += fprintf(f, "=%s", arg_name);
    else if ( arg == CLI_ARG_OPT )
        n += fprintf(f, "[=%s]", arg_name);
    for ( ;; )
    {
        nl = strchr(h, '\n');
        if ( n >= HELP_COL )
        {
            fputc('\n', f);
            n = 0;
        }
        fprintf(f, "%*s%.*s\n", HELP_COL - n, "",
                (int)(nl ? (size_t)(nl - h) : strlen(h)), h);
        if ( !nl )
            break;
        h = nl + 1;
        n = 0;
    }
}

static void usage_option(FILE *f, const struct cli_option *c)
{
    cli_usage_line(f, c->short_name, c->name, c->arg, c->arg_name, c->help);
}

/* The compatibility options, as a filled paragraph of names. */
static void usage_names(FILE *f, enum cli_group g)
{
    const struct cli_option *c;
    int col = 0;

    for ( c = cli_options; c->name; c++ )
    {
        int len;

        if ( c->group != g )
            continue;
        len = (int)strlen(c->name) + 4;
        if ( col )
            col += fprintf(f, ",");
        if ( col && col + len > 78 )
        {
            fputc('\n', f);
            col = 0;
        }
        col += fprintf(f, "%s--%s", col ? " " : "  ", c->name);
    }
    if ( col )
        fputc('\n', f);
}

void cli_usage(FILE *f)
{
    const struct cli_option *c;
    unsigned int g;

    fprintf(f, "Usage: xenalyze [OPTION...] TRACE\n"
            "       xenalyze diff [OPTION...] A B   (xenalyze diff --help)\n"
            "       xenalyze merge [OPTION...] SUMMARY.json...   "
            "(xenalyze merge --help)\n"
            "Analyse a xentrace file (TRACE, or - for standard input).\n");
    for ( g = 0; g < CLI_G_NR; g++ )
    {
        fprintf(f, "\n%s:\n", group_titles[g]);
        if ( g == CLI_G_COMPAT || g == CLI_G_REFUSED )
        {
            usage_names(f, g);
            continue;
        }
        for ( c = cli_options; c->name; c++ )
            if ( c->group == g && c->help )
                usage_option(f, c);
    }
    fprintf(f, "\nExit status: 0 when the trace was read (anomalies or not), "
            "1 on usage\nor system errors, 2 with --strict when anomalies "
            "were found.\n");
}

int cli_opts_check(struct cli_opts *o)
{
    bool plots = o->plots.plots || o->plots.interval != XA_INTERVAL_NONE;

    if ( plots && o->mode != CLI_SUMMARY )
    {
        fprintf(stderr, "xenalyze: --scatterplot-* and --interval-* do not "
                "combine with --dump-all or --count\n");
        return -1;
    }
    if ( o->raw_reads &&
         (o->mode != CLI_RAW_READS || o->summary_given || o->dump_given || o->raw_process || plots ||
          o->perfetto || o->exits || o->runstates || o->slowest ||
          xa_filter_active(&o->filter)) )
    {
        fprintf(stderr, "xenalyze: --dump-raw-reads lists the records as "
                "read, alone (no summary, dump, plot or selection beside "
                "it)\n");
        return -1;
    }
    if ( o->summary_given && o->mode == CLI_DUMP && strcmp(o->format, "text") )
    {
        fprintf(stderr, "xenalyze: -s with -a: the dump, then the text "
                "summary (no --format)\n");
        return -1;
    }
    if ( o->filter.from_ns >= o->filter.to_ns )
    {
        fprintf(stderr, "xenalyze: --from must be before --to\n");
        return -1;
    }
    if ( o->perfetto && o->mode != CLI_SUMMARY )
    {
        fprintf(stderr, "xenalyze: --perfetto does not combine with "
                "--dump-all or --count\n");
        return -1;
    }
    if ( o->perfetto && !strcmp(o->perfetto, "-") &&
         (o->summary_given || plots) )
    {
        fprintf(stderr, "xenalyze: --perfetto=- takes standard output: "
                "no summary or plots beside it\n");
        return -1;
    }
    if ( o->exits && o->mode != CLI_SUMMARY )
    {
        fprintf(stderr, "xenalyze: --exits does not combine with "
                "--dump-all or --count\n");
        return -1;
    }
    if ( o->exits && !strcmp(o->exits, "-") &&
         (o->summary_given || plots ||
          (o->perfetto && !strcmp(o->perfetto, "-"))) )
    {
        fprintf(stderr, "xenalyze: --exits=- takes standard output: "
                "no summary, plots or timeline beside it\n");
        return -1;
    }
    if ( o->slowest && (o->mode != CLI_SUMMARY || strcmp(o->format, "text")) )
    {
        fprintf(stderr, "xenalyze: --slowest goes with the text summary\n");
        return -1;
    }
    if ( strcmp(o->format, "text") && o->mode != CLI_SUMMARY )
    {
        fprintf(stderr, "xenalyze: --format=%s is the summary's format: it "
                "does not combine with --dump-all or --count\n", o->format);
        return -1;
    }
    if ( xa_filter_active(&o->filter) && o->mode == CLI_COUNT )
    {
        fprintf(stderr, "xenalyze: --from, --to, --domain and --vcpu do "
                "not apply to --count\n");
        return -1;
    }
    return 0;
}
