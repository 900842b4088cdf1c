/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The selection filter: exact parsing of seconds, domain and vCPU lists,
 * and the time window in timestamps at several clock rates.
 */
#include <xenalyze/filter.h>

#include "tap.h"

static void seconds(void)
{
    uint64_t ns = 0;

    TAP_EQ(xa_filter_parse_seconds("2", &ns), XA_OK, "2 parses");
    TAP_EQ(ns, 2000000000u, "2 s");
    xa_filter_parse_seconds("0.25", &ns);
    TAP_EQ(ns, 250000000u, "0.25 s, exactly");
    xa_filter_parse_seconds("1.000000001", &ns);
    TAP_EQ(ns, 1000000001u, "nine decimals, exactly");
    TAP_EQ(xa_filter_parse_seconds("1.0000000001", &ns), XA_E_RANGE,
           "ten decimals refused");
    TAP_EQ(xa_filter_parse_seconds("3e-3", &ns), XA_E_INVAL, "no exponent");
    TAP_EQ(xa_filter_parse_seconds("-1", &ns), XA_E_INVAL, "no sign");
    TAP_EQ(xa_filter_parse_seconds("", &ns), XA_E_INVAL, "empty");
    TAP_EQ(xa_filter_parse_seconds("99999999999999999999", &ns), XA_E_RANGE,
           "too large");
}

static void lists(void)
{
    struct xa_filter f;

    xa_filter_init(&f);
    tap_ok(!xa_filter_active(&f), "a new filter selects everything");
    tap_ok(xa_filter_vcpu(&f, 7, 3), "every vCPU passes an empty filter");
    TAP_EQ(xa_filter_parse_domains(&f, "0,5,0x10"), XA_OK, "domains parse");
    TAP_EQ(f.nr_domains, 3, "three domains");
    TAP_EQ(f.domains[2], 16, "hex domain id");
    tap_ok(xa_filter_domain(&f, 5) && !xa_filter_domain(&f, 6),
           "domain 5 in, 6 out");
    tap_ok(xa_filter_vcpu(&f, 5, 9), "any vCPU of a listed domain");
    TAP_EQ(xa_filter_parse_domains(&f, "1,,2"), XA_E_INVAL, "empty item");
    TAP_EQ(xa_filter_parse_domains(&f, "70000"), XA_E_RANGE, "id > 0xffff");

    xa_filter_init(&f);
    TAP_EQ(xa_filter_parse_vcpus(&f, "d1v0,d2v3,4.1"), XA_OK, "vcpus parse");
    TAP_EQ(f.nr_vcpus, 3, "three vCPUs");
    tap_ok(xa_filter_vcpu(&f, 2, 3) && !xa_filter_vcpu(&f, 2, 0),
           "d2v3 in, d2v0 out");
    tap_ok(xa_filter_vcpu(&f, 4, 1), "D.V form");
    tap_ok(xa_filter_domain(&f, 2) && !xa_filter_domain(&f, 3),
           "a vCPU selects its domain");
    TAP_EQ(xa_filter_parse_vcpus(&f, "d1"), XA_E_INVAL, "vCPU missing");
    TAP_EQ(xa_filter_parse_vcpus(&f, "d1v2x"), XA_E_INVAL, "trailing junk");
}

static void window(void)
{
    struct xa_filter f;
    uint64_t lo, hi;

    xa_filter_init(&f);
    xa_filter_tsc_window(&f, 1000, 2400000000u, &lo, &hi);
    TAP_EQ(lo, 0, "a window from 0 holds what precedes the first TSC");
    TAP_EQ(hi, UINT64_MAX, "and has no end");

    /* 62.5 MHz: 16 ns a tick.  1 s = 62,500,000 ticks. */
    f.from_ns = 1000000000u;
    f.to_ns = 1000000017u;
    xa_filter_tsc_window(&f, 5, 62500000u, &lo, &hi);
    TAP_EQ(lo, 5 + 62500000u, "from 1 s at 62.5 MHz");
    /* tick 62,500,001 is at 1.000000016 s (< to), 62,500,002 at ...032 */
    TAP_EQ(hi, 5 + 62500002u, "to 1.000000017 s: first tick at or after");

    /* 2.4 GHz: 1 ns = 2.4 ticks; the first tick at or after 1 ns is 3. */
    f.from_ns = 1;
    f.to_ns = UINT64_MAX;
    xa_filter_tsc_window(&f, 0, 2400000000u, &lo, &hi);
    TAP_EQ(lo, 3, "from 1 ns at 2.4 GHz: tick 3 (1.25 ns)");
}

int main(void)
{
    seconds();
    lists();
    window();
    return tap_done();
}
