/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Small helpers shared by the library's modules.
 */
#ifndef UTIL_PRIVATE_H
#define UTIL_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct xa_json_value;

/**
 * xa_grow - grow an array geometrically so that index need is valid
 * @arrp: address of the array pointer (any element type)
 * @len: its length in elements; updated
 * @elem: size of an element
 * @need: the index that must become valid
 * @first: the length to start from when the array is empty
 *
 * New elements are zeroed.  Returns 0, or -1 (array unchanged) when
 * memory runs out.
 */
int xa_grow(void *arrp, unsigned int *len, size_t elem, unsigned int need,
            unsigned int first);

/*
 * xa_idx: an open-addressing index from a key's 32-bit hash to the
 * position of the key in the caller's array, so that tables keyed by
 * numbers an input chooses (exit codes, hypercalls, pCPUs) are searched
 * in constant time.  The caller compares keys:
 *
 *     if ( xa_idx_reserve(&x) ) ...no memory...
 *     for ( e = xa_idx_first(&x, h); e->val; e = xa_idx_next(&x, e) )
 *         if ( e->hash == h && KEY(e->val - 1) == key )
 *             return e->val - 1;
 *     e->val = 1 + new_position; e->hash = h; x.nr++;
 *
 * xa_idx_reserve() keeps the table at most half full (it may move the
 * entries, so it comes before the search).  A zeroed struct is empty.
 */
struct xa_idx_ent {
    uint32_t val;               /* 1 + position; 0: empty */
    uint32_t hash;
};

struct xa_idx {
    struct xa_idx_ent *tab;
    uint32_t mask;              /* size - 1 (size a power of 2) */
    uint32_t nr;
};

int xa_idx_reserve(struct xa_idx *x);
void xa_idx_free(struct xa_idx *x);
/* Bytes the index takes. */
static inline size_t xa_idx_bytes(const struct xa_idx *x)
{
    return x->tab ? ((size_t)x->mask + 1) * sizeof(*x->tab) : 0;
}

static inline uint32_t xa_hash32(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return (uint32_t)k;
}

static inline struct xa_idx_ent *xa_idx_first(const struct xa_idx *x,
                                              uint32_t h)
{
    return &x->tab[h & x->mask];
}

static inline struct xa_idx_ent *xa_idx_next(const struct xa_idx *x,
                                             const struct xa_idx_ent *e)
{
    return &x->tab[(uint32_t)(e - x->tab + 1) & x->mask];
}

/*
 * A domain's name: prefix and id ("d1"), and for the later domains of a
 * reused id (DOMAIN_REUSED) their incarnation counted from 1 ("d1#2"),
 * as the text summary, xenalyze diff, --exits and the timeline name it.
 * incarnation: the summary's (0: the id's first domain).  Returns what
 * snprintf() returns.
 */
int xa_dom_name(char *buf, size_t len, const char *prefix, unsigned int id,
                unsigned int incarnation);

/*
 * A JSON summary's domain's "incarnation" (absent: 1, the id's first
 * domain) as the summary's incarnation (0, 1, ...); false when it is
 * there but not an integer from 1 to 2^32 - 1.
 */
bool xa_json_incarnation(const struct xa_json_value *dom,
                         unsigned int *incarnation);

#endif /* UTIL_PRIVATE_H */
