/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util-private.h"

int xa_grow(void *arrp, unsigned int *len, size_t elem, unsigned int need,
            unsigned int first)
{
    unsigned int n = *len ? *len : first;
    void *arr;

    if ( need < *len )
        return 0;
    while ( n <= need )
    {
        if ( n > UINT32_MAX / 2 )
            return -1;
        n *= 2;
    }
    memcpy(&arr, arrp, sizeof(arr));
    arr = realloc(arr, (size_t)n * elem);
    if ( !arr )
        return -1;
    memset((char *)arr + (size_t)*len * elem, 0, (size_t)(n - *len) * elem);
    memcpy(arrp, &arr, sizeof(arr));
    *len = n;
    return 0;
}
