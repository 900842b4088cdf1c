/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef MODEL_PRIVATE_H
#define MODEL_PRIVATE_H

#include <xenalyze/model.h>
#include <xenalyze/trace.h>

struct pcpu {
    uint32_t current;           /* dom << 16 | vcpu, or NO_VCPU */
    uint64_t last_tsc;
};

#define NO_VCPU UINT32_MAX

struct xa_model {
    const struct xa_catalog *cat;
    struct xa_diag *diag;
    struct xa_model_opts opts;
    struct xa_fmt_ctx fmt;
    struct pcpu *pcpus;
    unsigned int nr_pcpus;
};

#endif /* MODEL_PRIVATE_H */
