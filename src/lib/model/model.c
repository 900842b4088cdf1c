/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Model: state of domains, vCPUs and physical CPUs along the merged
 * stream.
 */
#include <stdlib.h>
#include <string.h>

#include "model-private.h"

int xa_model_new(const struct xa_catalog *cat, struct xa_diag *diag,
                 const struct xa_model_opts *opts, struct xa_model **out)
{
    struct xa_model *m = calloc(1, sizeof(*m));

    if ( !m )
        return XA_E_NOMEM;
    m->cat = cat;
    m->diag = diag;
    if ( opts )
        m->opts = *opts;
    m->fmt.hvm_mode = m->opts.hvm_mode == XA_HVM_MODE_FORCE_SVM
                      ? XA_HVM_SVM : XA_HVM_VMX;
    *out = m;
    return XA_OK;
}

void xa_model_free(struct xa_model *m)
{
    if ( !m )
        return;
    free(m->pcpus);
    free(m);
}

static struct pcpu *get_pcpu(struct xa_model *m, unsigned int cpu)
{
    if ( cpu >= m->nr_pcpus )
    {
        unsigned int n = m->nr_pcpus ? m->nr_pcpus : 8, i;
        struct pcpu *p;

        while ( n <= cpu )
            n *= 2;
        p = realloc(m->pcpus, n * sizeof(*p));
        if ( !p )
            return NULL;
        for ( i = m->nr_pcpus; i < n; i++ )
        {
            p[i].current = NO_VCPU;
            p[i].last_tsc = 0;
        }
        m->pcpus = p;
        m->nr_pcpus = n;
    }
    return &m->pcpus[cpu];
}

void xa_model_feed(struct xa_model *m, const struct xa_record *rec)
{
    struct pcpu *p = get_pcpu(m, rec->cpu);

    if ( !p )
        return;
    p->last_tsc = rec->tsc;
    if ( (rec->event & ~(uint32_t)XA_TRC_RUNSTATE_MASK) ==
         XA_TRC_SCHED_RUNSTATE_CHANGE && rec->nr_extra >= 1 &&
         ((rec->event >> 4) & 3) == 0 )
        p->current = rec->extra[0];
}

void xa_model_finish(struct xa_model *m)
{
    (void)m;
}

bool xa_model_pcpu_current(const struct xa_model *m, unsigned int cpu,
                           unsigned int *dom, unsigned int *vcpu)
{
    if ( cpu >= m->nr_pcpus || m->pcpus[cpu].current == NO_VCPU )
        return false;
    *dom = m->pcpus[cpu].current >> 16;
    *vcpu = m->pcpus[cpu].current & 0xffff;
    return true;
}

const struct xa_fmt_ctx *xa_model_fmt_ctx(const struct xa_model *m)
{
    return &m->fmt;
}
