/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * xa_out: the hand-written number formatting the dump relies on, against
 * snprintf, at every digit-count boundary.
 */
#include <stdio.h>
#include <string.h>

#include <xenalyze/out.h>

#include "tap.h"

static bool same(struct xa_out *o, const char *want)
{
    bool ok = o->len == strlen(want) && !memcmp(o->buf, want, o->len);

    if ( !ok )
        printf("# got \"%.*s\", want \"%s\"\n", (int)o->len, o->buf, want);
    o->len = 0;
    return ok;
}

int main(void)
{
    struct xa_out o;
    char want[64];
    uint64_t v, p;
    unsigned int bad = 0, n = 0;

    xa_out_init(&o, -1);
    /* Every power of ten, its neighbours, and powers of two. */
    for ( p = 1; ; p *= 10 )
    {
        uint64_t cand[3] = { p - 1, p, p + 1 };
        unsigned int i;

        for ( i = 0; i < 3; i++ )
        {
            v = cand[i];
            xa_out_u64(&o, v);
            snprintf(want, sizeof(want), "%llu", (unsigned long long)v);
            bad += !same(&o, want);
            xa_out_u64w(&o, v, 12);
            snprintf(want, sizeof(want), "%12llu", (unsigned long long)v);
            bad += !same(&o, want);
            xa_out_u64z(&o, v, 9);
            snprintf(want, sizeof(want), "%09llu", (unsigned long long)v);
            bad += !same(&o, want);
            xa_out_hexw(&o, v, 8);
            snprintf(want, sizeof(want), "%08llx", (unsigned long long)v);
            bad += !same(&o, want);
            n += 4;
        }
        if ( p > UINT64_MAX / 10 )
            break;
    }
    for ( v = 1; v; v <<= 1 )
    {
        xa_out_u64(&o, v);
        snprintf(want, sizeof(want), "%llu", (unsigned long long)v);
        bad += !same(&o, want);
        xa_out_hex(&o, v - 1);
        snprintf(want, sizeof(want), "%llx", (unsigned long long)(v - 1));
        bad += !same(&o, want);
        n += 2;
    }
    TAP_EQ(bad, 0, "%u numbers formatted as snprintf does", n);
    xa_out_u64(&o, UINT64_MAX);
    tap_ok(same(&o, "18446744073709551615"), "UINT64_MAX");
    xa_out_i64(&o, INT64_MIN);
    tap_ok(same(&o, "-9223372036854775808"), "INT64_MIN");
    xa_out_u64(&o, 0);
    tap_ok(same(&o, "0"), "zero");
    xa_out_hex(&o, 0);
    tap_ok(same(&o, "0"), "hex zero");
    xa_out_json_str(&o, "a\"b\\c\n");
    tap_ok(same(&o, "\"a\\\"b\\\\c\\u000a\""), "JSON string escapes");
    xa_out_str(&o, "exactly sixteen!");
    xa_out_str(&o, "abc");
    tap_ok(same(&o, "exactly sixteen!abc"), "short copies");
    xa_out_dispose(&o);
    return tap_done();
}
