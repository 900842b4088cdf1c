/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Guest addresses interrupted by one external-interrupt vector, per vCPU
 * (upstream xenalyze's interrupt eip list, --with-interrupt-eip-
 * enumeration and --histogram-interrupt-eip): a sorted array with a count
 * per address, bounded; addresses beyond the bound are counted together.
 */
#include <stdlib.h>
#include <string.h>

#include "model-private.h"

void eip_tab_add(struct xa_model *m, struct eip_tab **tp, uint64_t eip,
                 const struct xa_record *rec)
{
    struct eip_tab *t = *tp;
    unsigned int lo = 0, hi;

    if ( !t && !(t = *tp = calloc(1, sizeof(*t))) )
        return;
    t->total++;
    hi = t->nr;
    while ( lo < hi )
    {
        unsigned int mid = (lo + hi) / 2;

        if ( t->e[mid].eip == eip )
        {
            t->e[mid].count++;
            return;
        }
        if ( t->e[mid].eip < eip )
            lo = mid + 1;
        else
            hi = mid;
    }
    if ( t->nr == EIP_TAB_MAX )
    {
        if ( !t->other++ )
            model_diag(m, XA_DIAG_LIMIT_EIPS, rec->offset, rec->cpu);
        return;
    }
    if ( !model_charge(m, EIP_COST, rec->cpu) )
    {
        t->other++;
        return;
    }
    if ( t->nr == t->cap )
    {
        unsigned int cap = t->cap ? t->cap * 2 : 64;
        struct xa_sum_eip *e = realloc(t->e, cap * sizeof(*e));

        if ( !e )
        {
            t->other++;
            return;
        }
        t->e = e;
        t->cap = cap;
    }
    memmove(&t->e[lo + 1], &t->e[lo], (t->nr - lo) * sizeof(*t->e));
    t->e[lo].eip = eip;
    t->e[lo].count = 1;
    t->nr++;
}

void eip_tab_free(struct eip_tab **tp)
{
    if ( !*tp )
        return;
    free((*tp)->e);
    free(*tp);
    *tp = NULL;
}
