/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Small helpers shared by the library's modules.
 */
#ifndef UTIL_PRIVATE_H
#define UTIL_PRIVATE_H

#include <stddef.h>

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

#endif /* UTIL_PRIVATE_H */
