/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef XA_CLI_H
#define XA_CLI_H

#include <xenalyze/xenalyze.h>

#define XA_VERSION "0.1"

enum cli_mode {
    CLI_SUMMARY,
    CLI_DUMP,
    CLI_COUNT,
};

struct cli_opts {
    enum cli_mode mode;
    const char *path;
    uint64_t hz;
    bool hz_given;
    bool json;
    bool report_pcpu;
    bool show_tsc;
    bool strict;
    enum xa_diag_level strict_level;
    enum xa_hvm_mode_opt hvm_mode;
    bool summary_given;             /* -s: summary after the plots */
    struct xa_plots_opts plots;     /* --scatterplot-*, --interval-* */
    unsigned int *plot_domains;     /* plots.domains, owned */
};

int cli_run(const struct cli_opts *o);

#endif /* XA_CLI_H */
