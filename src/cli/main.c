/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xenalyze: options and wiring only.  Every computation is in
 * libxenalyze.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xenalyze/xenalyze.h>

#include "cli.h"

enum {
    OPT_CPU_HZ = 256,
    OPT_COUNT,
    OPT_STRICT,
    OPT_FORMAT,
    OPT_REPORT_PCPU,
    OPT_SVM_MODE,
    OPT_VMX_MODE,
    OPT_VERSION,
    OPT_SHOW_TSC,
    OPT_IGNORED,
    OPT_IGNORED_ARG,
    OPT_PLOT_RUNSTATE,
    OPT_PLOT_RUNSTATE_TIME,
    OPT_PLOT_PCPU,
    OPT_PLOT_EXTINT,
    OPT_PLOT_IO,
    OPT_PLOT_VMEXIT_EIP,
    OPT_PLOT_RDTSC,
    OPT_PLOT_IRQ,
    OPT_INTERVAL,
    OPT_INTERVAL_DOM_TIME,
    OPT_INTERVAL_DOM_TIME_ALL,
    OPT_INTERVAL_DOM_GUEST_INT,
};

static const struct option long_opts[] = {
    { "dump-all", no_argument, NULL, 'a' },
    { "summary", no_argument, NULL, 's' },
    { "count", no_argument, NULL, OPT_COUNT },
    { "cpu-hz", required_argument, NULL, OPT_CPU_HZ },
    { "timer-hz", required_argument, NULL, OPT_CPU_HZ },
    { "strict", optional_argument, NULL, OPT_STRICT },
    { "format", required_argument, NULL, OPT_FORMAT },
    { "report-pcpu", no_argument, NULL, OPT_REPORT_PCPU },
    { "svm-mode", no_argument, NULL, OPT_SVM_MODE },
    { "vmx-mode", no_argument, NULL, OPT_VMX_MODE },
    { "show-tsc", no_argument, NULL, OPT_SHOW_TSC },
    { "help", no_argument, NULL, 'h' },
    { "version", no_argument, NULL, OPT_VERSION },
    /* Upstream options we accept so that scripts keep working. */
    { "dump-raw-reads", no_argument, NULL, OPT_IGNORED },
    { "dump-raw-process", no_argument, NULL, OPT_IGNORED },
    { "dump-no-processing", no_argument, NULL, OPT_IGNORED },
    { "dump-ipi-latency", no_argument, NULL, OPT_IGNORED },
    { "dump-trace-volume-on-lost-record", no_argument, NULL, OPT_IGNORED },
    { "dump-show-power-states", no_argument, NULL, OPT_IGNORED },
    { "with-cr3-enumeration", no_argument, NULL, OPT_IGNORED },
    { "with-pio-enumeration", no_argument, NULL, OPT_IGNORED },
    { "with-mmio-enumeration", no_argument, NULL, OPT_IGNORED },
    { "with-interrupt-eip-enumeration", required_argument, NULL,
      OPT_IGNORED_ARG },
    { "show-default-domain-summary", no_argument, NULL, OPT_IGNORED },
    { "mmio-enumeration-skip-vga", required_argument, NULL, OPT_IGNORED_ARG },
    { "sample-size", required_argument, NULL, OPT_IGNORED_ARG },
    { "sample-max", required_argument, NULL, OPT_IGNORED_ARG },
    { "default-guest-paging-levels", required_argument, NULL,
      OPT_IGNORED_ARG },
    { "symbol-file", required_argument, NULL, OPT_IGNORED_ARG },
    { "progress", no_argument, NULL, OPT_IGNORED },
    { "tsc-loop-fatal", no_argument, NULL, OPT_IGNORED },
    { "tolerance", required_argument, NULL, OPT_IGNORED_ARG },
    { "interval-cr3-schedule-time", required_argument, NULL,
      OPT_IGNORED_ARG },
    { "interval-cr3-schedule-time-all", no_argument, NULL, OPT_IGNORED },
    { "interval-cr3-schedule-ordered", no_argument, NULL, OPT_IGNORED },
    { "interval-cr3-short-summary", required_argument, NULL,
      OPT_IGNORED_ARG },
    { "interval-domain-short-summary", required_argument, NULL,
      OPT_IGNORED_ARG },
    { "interval-domain-grant-maps", required_argument, NULL,
      OPT_IGNORED_ARG },
    { "scatterplot-interrupt-eip", required_argument, NULL, OPT_IGNORED_ARG },
    { "scatterplot-unpin-promote", no_argument, NULL, OPT_IGNORED },
    { "scatterplot-cr3-switch", no_argument, NULL, OPT_IGNORED },
    { "scatterplot-wake-to-halt", no_argument, NULL, OPT_IGNORED },
    { "histogram-interrupt-eip", required_argument, NULL, OPT_IGNORED_ARG },
    /* Upstream's plots and interval tables, in its formats. */
    { "scatterplot-runstate", no_argument, NULL, OPT_PLOT_RUNSTATE },
    { "scatterplot-runstate-time", no_argument, NULL,
      OPT_PLOT_RUNSTATE_TIME },
    { "scatterplot-pcpu", no_argument, NULL, OPT_PLOT_PCPU },
    { "scatterplot-extint-cycles", required_argument, NULL,
      OPT_PLOT_EXTINT },
    { "scatterplot-io", required_argument, NULL, OPT_PLOT_IO },
    { "scatterplot-vmexit-eip", no_argument, NULL, OPT_PLOT_VMEXIT_EIP },
    { "scatterplot-rdtsc", no_argument, NULL, OPT_PLOT_RDTSC },
    { "scatterplot-irq", no_argument, NULL, OPT_PLOT_IRQ },
    { "interval", required_argument, NULL, OPT_INTERVAL },
    { "interval-domain-total-time", required_argument, NULL,
      OPT_INTERVAL_DOM_TIME },
    { "interval-domain-total-time-all", no_argument, NULL,
      OPT_INTERVAL_DOM_TIME_ALL },
    { "interval-domain-guest-interrupt", required_argument, NULL,
      OPT_INTERVAL_DOM_GUEST_INT },
    { NULL, 0, NULL, 0 },
};

static void usage(FILE *f)
{
    fprintf(f,
"Usage: xenalyze [OPTION...] TRACE\n"
"Analyse a xentrace file (TRACE, or - for standard input).\n"
"\n"
"  -s, --summary          per-domain and per-vCPU summary (the default)\n"
"  -a, --dump-all         every record in time order, one per line\n"
"      --count            read and merge only; print record counts\n"
"      --cpu-hz=RATE      TSC rate: 2.4G, 2400M, 62.5MHz, 19200000\n"
"      --timer-hz=RATE    the same (Arm: the generic timer's rate)\n"
"      --format=FMT       summary format: text (default) or json\n"
"      --report-pcpu      add per-physical-CPU utilisation\n"
"      --show-tsc         dump: print each record's raw TSC first\n"
"      --svm-mode         read HVM exit codes as AMD SVM\n"
"      --scatterplot-runstate, --scatterplot-runstate-time,\n"
"      --scatterplot-pcpu, --scatterplot-extint-cycles=VECTOR,\n"
"      --scatterplot-io=PORT, --scatterplot-vmexit-eip,\n"
"      --scatterplot-rdtsc, --scatterplot-irq\n"
"                         upstream's plots, in place of the summary\n"
"                         (with -s: before it)\n"
"      --interval=SECONDS with --interval-domain-total-time=D[,D...],\n"
"      --interval-domain-total-time-all or\n"
"      --interval-domain-guest-interrupt=D\n"
"                         upstream's per-interval tables (default 1 s)\n"
"      --vmx-mode         read HVM exit codes as Intel VMX\n"
"      --strict[=LEVEL]   exit 2 if anomalies at or above LEVEL (warn,\n"
"                         sanity, record, file, limit; default warn)\n"
"  -h, --help             this help\n"
"      --version          version\n"
"\n"
"Exit status: 0 when the trace was read (anomalies or not), 1 on usage\n"
"or system errors, 2 with --strict when anomalies were found.\n");
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

/* D[,D...] */
static int parse_domains(const char *s, struct cli_opts *o)
{
    unsigned int n = 1, i = 0;
    const char *p;
    char *end;

    for ( p = s; *p; p++ )
        n += *p == ',';
    free(o->plot_domains);
    o->plot_domains = calloc(n, sizeof(*o->plot_domains));
    if ( !o->plot_domains )
        return -1;
    for ( p = s; i < n; i++ )
    {
        unsigned long d;

        if ( *p < '0' || *p > '9' )
            return -1;
        d = strtoul(p, &end, 0);
        if ( end == p || d > 0xffff || (*end && *end != ',') )
            return -1;
        o->plot_domains[i] = (unsigned int)d;
        p = *end ? end + 1 : end;
    }
    o->plots.domains = o->plot_domains;
    o->plots.nr_domains = n;
    return 0;
}

/* Seconds, as upstream reads them: whole milliseconds. */
static int parse_interval(const char *s, unsigned int *ms)
{
    char *end;
    double sec = strtod(s, &end);

    if ( end == s || *end || !(sec >= 0.001) || sec > 4.0e6 )
        return -1;
    *ms = (unsigned int)(sec * 1000.0 + 1e-9);
    return 0;
}

static int set_interval(struct cli_opts *o, enum xa_interval_kind k,
                        const char *name)
{
    if ( o->plots.interval != XA_INTERVAL_NONE && o->plots.interval != k )
    {
        fprintf(stderr, "xenalyze: %s: only one --interval-* table at a "
                "time\n", name);
        return -1;
    }
    o->plots.interval = k;
    return 0;
}

int main(int argc, char **argv)
{
    struct cli_opts o;
    int c, rc;

    memset(&o, 0, sizeof(o));
    o.mode = CLI_SUMMARY;
    o.strict_level = XA_LEVEL_LIMIT;
    o.hz = XA_HZ_DEFAULT;
    o.plots.interval_ms = 1000;

    while ( (c = getopt_long(argc, argv, "ash", long_opts, NULL)) != -1 )
    {
        switch ( c )
        {
        case 'a':
            o.mode = CLI_DUMP;
            break;
        case 's':
            o.mode = CLI_SUMMARY;
            o.summary_given = true;
            break;
        case OPT_COUNT:
            o.mode = CLI_COUNT;
            break;
        case OPT_CPU_HZ:
            rc = xa_hz_parse(optarg, &o.hz);
            if ( rc )
            {
                fprintf(stderr, "xenalyze: --cpu-hz=%s: %s (expected e.g. "
                        "2.4G, 62.5MHz, 19200000; 1 kHz to 10 GHz)\n",
                        optarg, xa_strerror(rc));
                return 1;
            }
            o.hz_given = true;
            break;
        case OPT_STRICT:
            o.strict = true;
            o.strict_level = XA_LEVEL_WARN;
            if ( optarg && xa_diag_level_parse(optarg, &o.strict_level) )
            {
                fprintf(stderr, "xenalyze: --strict=%s: expected warn, "
                        "sanity, record, file or limit\n", optarg);
                return 1;
            }
            break;
        case OPT_FORMAT:
            if ( !strcmp(optarg, "text") )
                o.json = false;
            else if ( !strcmp(optarg, "json") )
                o.json = true;
            else
            {
                fprintf(stderr, "xenalyze: --format=%s: expected text or "
                        "json\n", optarg);
                return 1;
            }
            break;
        case OPT_REPORT_PCPU:
            o.report_pcpu = true;
            break;
        case OPT_SHOW_TSC:
            o.show_tsc = true;
            break;
        case OPT_SVM_MODE:
            o.hvm_mode = XA_HVM_MODE_FORCE_SVM;
            break;
        case OPT_VMX_MODE:
            o.hvm_mode = XA_HVM_MODE_FORCE_VMX;
            break;
        case OPT_IGNORED:
        case OPT_IGNORED_ARG:
            fprintf(stderr, "xenalyze: note: option %s is accepted for "
                    "compatibility and has no effect\n", argv[optind - 1]);
            break;
        case OPT_PLOT_RUNSTATE:
            o.plots.plots |= XA_PLOT_RUNSTATE;
            break;
        case OPT_PLOT_RUNSTATE_TIME:
            o.plots.plots |= XA_PLOT_RUNSTATE_TIME;
            break;
        case OPT_PLOT_PCPU:
            o.plots.plots |= XA_PLOT_PCPU;
            break;
        case OPT_PLOT_VMEXIT_EIP:
            o.plots.plots |= XA_PLOT_VMEXIT_EIP;
            break;
        case OPT_PLOT_RDTSC:
            o.plots.plots |= XA_PLOT_RDTSC;
            break;
        case OPT_PLOT_IRQ:
            o.plots.plots |= XA_PLOT_IRQ;
            break;
        case OPT_PLOT_EXTINT:
            if ( parse_uint(optarg, 255, &o.plots.extint_vector) )
            {
                fprintf(stderr, "xenalyze: --scatterplot-extint-cycles=%s: "
                        "expected a vector, 0 to 255 (e.g. 250 or 0xfa)\n",
                        optarg);
                return 1;
            }
            o.plots.plots |= XA_PLOT_EXTINT_CYCLES;
            break;
        case OPT_PLOT_IO:
            if ( parse_uint(optarg, 0xffff, &o.plots.io_port) )
            {
                fprintf(stderr, "xenalyze: --scatterplot-io=%s: expected a "
                        "port, 0 to 0xffff\n", optarg);
                return 1;
            }
            o.plots.plots |= XA_PLOT_IO;
            break;
        case OPT_INTERVAL:
            if ( parse_interval(optarg, &o.plots.interval_ms) )
            {
                fprintf(stderr, "xenalyze: --interval=%s: expected seconds, "
                        "at least 0.001\n", optarg);
                return 1;
            }
            break;
        case OPT_INTERVAL_DOM_TIME:
            if ( set_interval(&o, XA_INTERVAL_DOMAIN_TOTAL_TIME,
                              argv[optind - 1]) )
                return 1;
            if ( parse_domains(optarg, &o) )
            {
                fprintf(stderr, "xenalyze: --interval-domain-total-time=%s: "
                        "expected domain ids, e.g. 0,5\n", optarg);
                return 1;
            }
            break;
        case OPT_INTERVAL_DOM_TIME_ALL:
            if ( set_interval(&o, XA_INTERVAL_DOMAIN_TOTAL_TIME_ALL,
                              argv[optind - 1]) )
                return 1;
            break;
        case OPT_INTERVAL_DOM_GUEST_INT:
            if ( set_interval(&o, XA_INTERVAL_DOMAIN_GUEST_INTERRUPT,
                              argv[optind - 1]) )
                return 1;
            if ( parse_domains(optarg, &o) || o.plots.nr_domains != 1 )
            {
                fprintf(stderr, "xenalyze: --interval-domain-guest-interrupt"
                        "=%s: expected one domain id\n", optarg);
                return 1;
            }
            break;
        case 'h':
            usage(stdout);
            return 0;
        case OPT_VERSION:
            printf("xenalyze %s\n", XA_VERSION);
            return 0;
        default:
            usage(stderr);
            return 1;
        }
    }
    if ( optind != argc - 1 )
    {
        fprintf(stderr, "xenalyze: expected one trace file (or -)\n");
        usage(stderr);
        return 1;
    }
    o.path = argv[optind];
    if ( (o.plots.plots || o.plots.interval) && o.mode != CLI_SUMMARY )
    {
        fprintf(stderr, "xenalyze: --scatterplot-* and --interval-* do not "
                "combine with --dump-all or --count\n");
        return 1;
    }
    rc = cli_run(&o);
    free(o.plot_domains);
    return rc;
}
