/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Anomaly counters: one entry per kind listed in diag.def.
 */
#include <string.h>
#include <strings.h>

#include <xenalyze/diag.h>

static const struct {
    const char *name;
    const char *desc;
    enum xa_diag_level level;
} kinds[XA_DIAG_NR] = {
#define XA_DIAG(n, lvl, d) [XA_DIAG_##n] = { #n, d, XA_LEVEL_##lvl },
#include <xenalyze/diag.def>
#undef XA_DIAG
};

static const char *const level_names[] = {
    [XA_LEVEL_WARN] = "warn",
    [XA_LEVEL_SANITY] = "sanity",
    [XA_LEVEL_RECORD] = "record",
    [XA_LEVEL_FILE] = "file",
    [XA_LEVEL_LIMIT] = "limit",
};

void xa_diag_init(struct xa_diag *d)
{
    memset(d, 0, sizeof(*d));
}

void xa_diag_add(struct xa_diag *d, enum xa_diag_kind kind,
                 uint64_t offset, unsigned int cpu)
{
    struct xa_diag_entry *e;

    if ( (unsigned int)kind >= XA_DIAG_NR )
        return;
    e = &d->e[kind];
    if ( e->nr_first < XA_DIAG_FIRST_MAX )
    {
        e->first_offset[e->nr_first] = offset;
        e->first_cpu[e->nr_first] = cpu;
        e->nr_first++;
    }
    e->count++;
}

void xa_diag_skip(struct xa_diag *d, enum xa_diag_kind kind, uint64_t n)
{
    if ( (unsigned int)kind >= XA_DIAG_NR )
        return;
    d->e[kind].bytes += n;
    if ( kind == XA_DIAG_GARBAGE )
        d->garbage_bytes += n;
}

uint64_t xa_diag_skipped(const struct xa_diag *d)
{
    uint64_t n = 0;
    unsigned int i;

    for ( i = 0; i < XA_DIAG_NR; i++ )
        n += d->e[i].bytes;
    return n;
}

const char *xa_diag_name(enum xa_diag_kind kind)
{
    return (unsigned int)kind < XA_DIAG_NR ? kinds[kind].name : "?";
}

const char *xa_diag_desc(enum xa_diag_kind kind)
{
    return (unsigned int)kind < XA_DIAG_NR ? kinds[kind].desc : "?";
}

enum xa_diag_level xa_diag_kind_level(enum xa_diag_kind kind)
{
    return (unsigned int)kind < XA_DIAG_NR ? kinds[kind].level
                                            : XA_LEVEL_LIMIT;
}

const char *xa_diag_level_name(enum xa_diag_level level)
{
    return (unsigned int)level <= XA_LEVEL_LIMIT ? level_names[level] : "?";
}

int xa_diag_level_parse(const char *s, enum xa_diag_level *level)
{
    unsigned int i;

    for ( i = 0; i <= XA_LEVEL_LIMIT; i++ )
        if ( !strcasecmp(s, level_names[i]) )
        {
            *level = (enum xa_diag_level)i;
            return XA_OK;
        }
    return XA_E_INVAL;
}

uint64_t xa_diag_total(const struct xa_diag *d, enum xa_diag_level level)
{
    uint64_t n = 0;
    unsigned int i;

    for ( i = 0; i < XA_DIAG_NR; i++ )
        if ( kinds[i].level >= level )
            n += d->e[i].count;
    return n;
}

void xa_diag_merge(struct xa_diag *dst, const struct xa_diag *src)
{
    unsigned int i, j;

    for ( i = 0; i < XA_DIAG_NR; i++ )
    {
        struct xa_diag_entry *de = &dst->e[i];
        const struct xa_diag_entry *se = &src->e[i];

        for ( j = 0; j < se->nr_first && de->nr_first < XA_DIAG_FIRST_MAX;
              j++ )
        {
            de->first_offset[de->nr_first] = se->first_offset[j];
            de->first_cpu[de->nr_first] = se->first_cpu[j];
            de->nr_first++;
        }
        de->count += se->count;
        de->bytes += se->bytes;
    }
    dst->lost_records += src->lost_records;
    dst->garbage_bytes += src->garbage_bytes;
}
