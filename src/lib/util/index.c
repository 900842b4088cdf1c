/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * xa_idx: see util-private.h.
 */
#include <stdlib.h>

#include "util/util-private.h"

int xa_idx_reserve(struct xa_idx *x)
{
    struct xa_idx_ent *t;
    uint32_t size, i, j;

    if ( x->tab && (uint64_t)(x->nr + 1) * 2 <= (uint64_t)x->mask + 1 )
        return 0;
    size = x->tab ? (x->mask + 1) * 2 : 16;
    if ( !size || !(t = calloc(size, sizeof(*t))) )
        return -1;
    for ( i = 0; x->tab && i <= x->mask; i++ )
    {
        if ( !x->tab[i].val )
            continue;
        j = x->tab[i].hash & (size - 1);
        while ( t[j].val )
            j = (j + 1) & (size - 1);
        t[j] = x->tab[i];
    }
    free(x->tab);
    x->tab = t;
    x->mask = size - 1;
    return 0;
}

void xa_idx_free(struct xa_idx *x)
{
    free(x->tab);
    x->tab = NULL;
    x->mask = x->nr = 0;
}
