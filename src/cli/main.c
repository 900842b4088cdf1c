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
    { "interval", required_argument, NULL, OPT_IGNORED_ARG },
    { "scatterplot-interrupt-eip", required_argument, NULL, OPT_IGNORED_ARG },
    { "scatterplot-extint-cycles", required_argument, NULL, OPT_IGNORED_ARG },
    { "scatterplot-unpin-promote", no_argument, NULL, OPT_IGNORED },
    { "scatterplot-cr3-switch", no_argument, NULL, OPT_IGNORED },
    { "scatterplot-wake-to-halt", no_argument, NULL, OPT_IGNORED },
    { "scatterplot-vmexit-eip", no_argument, NULL, OPT_IGNORED },
    { "scatterplot-io", required_argument, NULL, OPT_IGNORED_ARG },
    { "scatterplot-runstate", no_argument, NULL, OPT_IGNORED },
    { "scatterplot-runstate-time", no_argument, NULL, OPT_IGNORED },
    { "scatterplot-pcpu", no_argument, NULL, OPT_IGNORED },
    { "scatterplot-rdtsc", no_argument, NULL, OPT_IGNORED },
    { "scatterplot-irq", no_argument, NULL, OPT_IGNORED },
    { "histogram-interrupt-eip", required_argument, NULL, OPT_IGNORED_ARG },
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
"      --vmx-mode         read HVM exit codes as Intel VMX\n"
"      --strict[=LEVEL]   exit 2 if anomalies at or above LEVEL (warn,\n"
"                         sanity, record, file, limit; default warn)\n"
"  -h, --help             this help\n"
"      --version          version\n"
"\n"
"Exit status: 0 when the trace was read (anomalies or not), 1 on usage\n"
"or system errors, 2 with --strict when anomalies were found.\n");
}

int main(int argc, char **argv)
{
    struct cli_opts o;
    int c, rc;

    memset(&o, 0, sizeof(o));
    o.mode = CLI_SUMMARY;
    o.strict_level = XA_LEVEL_LIMIT;
    o.hz = XA_HZ_DEFAULT;

    while ( (c = getopt_long(argc, argv, "ash", long_opts, NULL)) != -1 )
    {
        switch ( c )
        {
        case 'a':
            o.mode = CLI_DUMP;
            break;
        case 's':
            o.mode = CLI_SUMMARY;
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
    return cli_run(&o);
}
