/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef XA_CLI_H
#define XA_CLI_H

#include <stdio.h>

#include <xenalyze/xenalyze.h>

#define XA_VERSION "0.1"

enum cli_mode {
    CLI_SUMMARY,
    CLI_DUMP,
    CLI_COUNT,
    CLI_RAW_READS,                  /* --dump-raw-reads */
};

struct cli_opts {
    enum cli_mode mode;
    const char *path;
    uint64_t hz;
    bool hz_given;
    const char *hz_option;          /* "cpu-hz" or "timer-hz" */
    bool json;
    const char *format;             /* "text", "json", "csv" */
    bool report_pcpu;
    bool show_tsc;
    bool strict;
    enum xa_diag_level strict_level;
    enum xa_hvm_mode_opt hvm_mode;
    bool summary_given;             /* -s: summary after the plots */
    bool dump_given;                /* -a */
    bool raw_reads;                 /* --dump-raw-reads */
    bool raw_process;               /* --dump-raw-process */
    struct xa_plots_opts plots;     /* --scatterplot-*, --interval-* */
    unsigned int *plot_domains;     /* plots.domains, owned */
    struct xa_filter filter;        /* --from, --to, --domain, --vcpu */
    const char *perfetto;           /* --perfetto=FILE, or NULL */
    const char *exits;              /* --exits=FILE, or NULL */
    bool exits_jsonl;               /* --exits-format=jsonl */
    const char *runstates;          /* --runstates=FILE, or NULL */
    enum xa_sum_sort sort;          /* --sort */
    unsigned int top;               /* --top; 0: every sub-row */
    unsigned int memory_budget_mb;  /* --memory-budget; 0: the default */
    unsigned int slowest;           /* --slowest=N; 0: none */
    bool slowest_per_reason;
    unsigned int threads;           /* --threads=N; 0: the CPUs present */
    unsigned int slice;             /* --slice=N (tests); 0: default */
    unsigned int slice_records;     /* --slice-records=N; 0: default */
    bool slice_stats;               /* --slice-stats */
    unsigned int apart_records;     /* --apart-records=N (tests) */
    bool noted_ignored;             /* "no effect" said once */
    bool tsc_fatal;                 /* --tsc-loop-fatal */
    bool progress;                  /* --progress */
    bool eip_list;                  /* --with-interrupt-eip-enumeration */
    unsigned int eip_vector;
    uint64_t eip_histogram;         /* --histogram-interrupt-eip bucket */
    const char *symbol_file;        /* --symbol-file */
    bool show_default_domain;       /* --show-default-domain-summary */
    bool cr3;                       /* guest page tables tracked */
    bool cr3_list;                  /* --with-cr3-enumeration */
    bool mmio_skip_vga;             /* --mmio-enumeration-skip-vga=1 */
    uint64_t *plot_cr3s;            /* plots.cr3s, owned */
};

/* The option table (options.c). */
enum cli_arg {
    CLI_ARG_NONE,
    CLI_ARG_REQ,
    CLI_ARG_OPT,
};

enum cli_group {
    CLI_G_MODE,
    CLI_G_INPUT,
    CLI_G_SELECT,
    CLI_G_SUMMARY,
    CLI_G_DUMP,
    CLI_G_TIMELINE,
    CLI_G_ROWS,
    CLI_G_PLOTS,
    CLI_G_COMPAT,
    CLI_G_REFUSED,
    CLI_G_OTHER,
    CLI_G_NR
};

/* A handler's result beyond 0 (go on) and -1 (error, already said). */
#define CLI_DONE 1                  /* stop with status 0 (--help) */

struct cli_option {
    const char *name;               /* long name, without "--" */
    int short_name;                 /* 's', or 0 */
    enum cli_arg arg;
    const char *arg_name;           /* "RATE"; NULL without argument */
    enum cli_group group;
    const char *help;               /* NULL: an alias, not listed */
    int (*handle)(struct cli_opts *o, const struct cli_option *opt,
                  const char *arg);
    unsigned int val;               /* for the handler (a plot bit...) */
};

extern const struct cli_option cli_options[];

/* One line of --help: "  -s, --name=ARG", then the help's lines. */
void cli_usage_line(FILE *f, int short_name, const char *name,
                    enum cli_arg arg, const char *arg_name, const char *help);

/*
 * A subcommand's options (xenalyze diff, merge): a table of the same
 * shape with the subcommand's own state; --help is added and generated
 * from the table.  A handler returns 0 (go on), -1 (error, already said)
 * or CLI_STOP (the arguments that follow are the subcommand's).
 */
#define CLI_STOP 2

struct cli_subopt {
    const char *name;
    enum cli_arg arg;
    const char *arg_name;
    const char *help;
    int (*handle)(void *ctx, const char *arg);
};

struct cli_subcmd {
    const char *name;               /* "diff" */
    const char *synopsis;           /* "[OPTION...] A B" */
    const char *intro;              /* what it does, a paragraph */
    const struct cli_subopt *opts;  /* ends with a NULL name */
    bool in_order;                  /* options only before the operands */
};

/*
 * Parses argv (argv[0] the subcommand's name) with sub's table.  Returns
 * 0 with *first the index of the first operand, CLI_DONE after --help, or
 * -1 after saying what was wrong and the usage.
 */
int cli_subparse(const struct cli_subcmd *sub, int argc, char **argv,
                 void *ctx, int *first);
void cli_subusage(const struct cli_subcmd *sub, FILE *f);

void cli_opts_init(struct cli_opts *o);
void cli_opts_dispose(struct cli_opts *o);
/* Checks combinations after parsing; says why and returns -1 if wrong. */
int cli_opts_check(struct cli_opts *o);
void cli_usage(FILE *f);

int cli_run(const struct cli_opts *o);
/* xenalyze diff A B (diff.c). */
int cli_diff(int argc, char **argv);
/* xenalyze merge A.json B.json ... (merge.c) */
int cli_merge(int argc, char **argv);

#endif /* XA_CLI_H */
