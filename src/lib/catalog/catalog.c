/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The catalog's index: an open-addressing hash of every class's events,
 * built once and read without locks.
 */
#include <stdlib.h>
#include <string.h>

#include "catalog-private.h"

struct xa_catalog {
    const struct xa_event_desc **slots;
    uint16_t *name_len;                 /* beside each slot */
    unsigned int mask;
};

static const struct xa_class *const all_classes[] = {
#define XA_CLASS(n) &xa_class_##n,
#include "classes.def"
#undef XA_CLASS
    NULL
};

const struct xa_class *const *xa_catalog_classes(void)
{
    return all_classes;
}

static inline unsigned int hash_id(uint32_t id, unsigned int mask)
{
    return (unsigned int)((id * 0x9e3779b1u) >> 12) & mask;
}

/*
 * Ids that carry data: runstate changes (old and new state) and guest
 * records (the guest's own id) are filed under one id each.
 */
static inline uint32_t canonical_id(uint32_t event)
{
    if ( (event & 0x0ffff000) == XA_TRC_GUEST )
        return XA_TRC_GUEST;
    if ( (event & 0x0ffff000) == XA_TRC_SCHED_MIN &&
         (event & ~(uint32_t)XA_TRC_RUNSTATE_MASK) ==
         XA_TRC_SCHED_RUNSTATE_CHANGE )
        return XA_TRC_SCHED_RUNSTATE_CHANGE;
    return event;
}

int xa_catalog_new(struct xa_catalog **out)
{
    struct xa_catalog *cat = NULL;
    unsigned int n = 0, size = 64, i, j;
    int rc;

    for ( i = 0; all_classes[i]; i++ )
        n += all_classes[i]->nr_events;
    while ( size < n * 4 )
        size *= 2;

    cat = calloc(1, sizeof(*cat));
    if ( !cat )
        return XA_E_NOMEM;
    cat->slots = calloc(size, sizeof(*cat->slots));
    cat->name_len = calloc(size, sizeof(*cat->name_len));
    if ( !cat->slots || !cat->name_len )
    {
        rc = XA_E_NOMEM;
        goto out;
    }
    cat->mask = size - 1;

    for ( i = 0; all_classes[i]; i++ )
        for ( j = 0; j < all_classes[i]->nr_events; j++ )
        {
            const struct xa_event_desc *d = &all_classes[i]->events[j];
            unsigned int h = hash_id(d->id, cat->mask);

            while ( cat->slots[h] )
            {
                if ( cat->slots[h]->id == d->id )
                {
                    rc = XA_E_INVAL;        /* duplicate id */
                    goto out;
                }
                h = (h + 1) & cat->mask;
            }
            cat->slots[h] = d;
            cat->name_len[h] = (uint16_t)strnlen(d->name, UINT16_MAX);
        }
    *out = cat;
    return XA_OK;

 out:
    xa_catalog_free(cat);
    return rc;
}

void xa_catalog_free(struct xa_catalog *cat)
{
    if ( !cat )
        return;
    free(cat->slots);
    free(cat->name_len);
    free(cat);
}

/* The slot of an event's descriptor, or -1. */
static inline int find_slot(const struct xa_catalog *cat, uint32_t event)
{
    uint32_t id = canonical_id(event);
    unsigned int h = hash_id(id, cat->mask);
    const struct xa_event_desc *d;

    while ( (d = cat->slots[h]) )
    {
        if ( d->id == id )
            return (int)h;
        h = (h + 1) & cat->mask;
    }
    return -1;
}

const struct xa_event_desc *xa_catalog_lookup(const struct xa_catalog *cat,
                                              uint32_t event)
{
    int h = find_slot(cat, event);

    return h < 0 ? NULL : cat->slots[h];
}

const struct xa_event_desc *
xa_catalog_lookup_len(const struct xa_catalog *cat, uint32_t event,
                      size_t *name_len)
{
    int h = find_slot(cat, event);

    if ( h < 0 )
        return NULL;
    *name_len = cat->name_len[h];
    return cat->slots[h];
}

void xa_catalog_format_desc(const struct xa_event_desc *d,
                            const struct xa_record *rec, struct xa_out *o,
                            const struct xa_fmt_ctx *ctx)
{
    if ( d && d->format && rec->nr_extra >= d->min_extra )
        d->format(rec, o, ctx);
    else
        xa_fmt_raw(rec, o);
}

void xa_catalog_format(const struct xa_catalog *cat,
                       const struct xa_record *rec, struct xa_out *o,
                       const struct xa_fmt_ctx *ctx)
{
    xa_catalog_format_desc(xa_catalog_lookup(cat, rec->event), rec, o, ctx);
}

const char *xa_code_name_find(const struct xa_code_name *tab, unsigned int n,
                              uint32_t code)
{
    unsigned int lo = 0, hi = n;

    while ( lo < hi )
    {
        unsigned int mid = (lo + hi) / 2;

        if ( tab[mid].code == code )
            return tab[mid].name;
        if ( tab[mid].code < code )
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

void xa_fmt_dom(struct xa_out *o, uint32_t dom)
{
    xa_out_char(o, 'd');
    xa_out_u64(o, dom);
}

void xa_fmt_dv(struct xa_out *o, uint32_t w)
{
    xa_fmt_dom(o, w >> 16);
    xa_out_char(o, 'v');
    xa_out_u64(o, w & 0xffff);
}

void xa_fmt_kv_u(struct xa_out *o, const char *key, uint64_t v)
{
    xa_out_char(o, ' ');
    xa_out_str(o, key);
    xa_out_char(o, '=');
    xa_out_u64(o, v);
}

void xa_fmt_kv_x(struct xa_out *o, const char *key, uint64_t v)
{
    xa_out_char(o, ' ');
    xa_out_str(o, key);
    xa_out_str(o, "=0x");
    xa_out_hex(o, v);
}

void xa_fmt_raw(const struct xa_record *r, struct xa_out *o)
{
    unsigned int i;

    for ( i = 0; i < r->nr_extra; i++ )
    {
        xa_out_str(o, " 0x");
        xa_out_hexw(o, r->extra[i], 8);
    }
}

bool xa_record_guest_rip(const struct xa_record *r, uint64_t *rip)
{
    uint32_t ev = r->event & ~(uint32_t)XA_TRC_64_FLAG;
    bool wide = r->event & XA_TRC_64_FLAG;
    unsigned int i;

    if ( ev == XA_TRC_HVM_VMEXIT || ev == XA_TRC_HVM_SVM_EXIT )
        i = 1;                                  /* { reason, rip } */
    else if ( (ev & ~0xfu) == XA_TRC_PV_ENTRY &&
              ((ev & 0xf) == 1 || ((ev & 0xf) >= 3 && (ev & 0xf) <= 7) ||
               (ev & 0xf) == 9 || (ev & 0xf) == 10) )
        i = 0;                                  /* { rip, ... } */
    else
        return false;
    if ( r->nr_extra < i + (wide ? 2 : 1) )
        return false;
    *rip = wide ? xa_u64(r, i) : r->extra[i];
    return true;
}
