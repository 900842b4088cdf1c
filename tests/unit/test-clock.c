/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Clock rates: --cpu-hz parsing and exact tick-to-nanosecond conversion.
 */
#include <xenalyze/clock.h>

#include "tap.h"

static const struct test {
    const char *in;
    int rc;
    uint64_t hz;
} tests[] = {
    { "2.4G", XA_OK, 2400000000ull },
    { "2.4g", XA_OK, 2400000000ull },
    { "2400M", XA_OK, 2400000000ull },
    { "2400mhz", XA_OK, 2400000000ull },
    { "62.5MHz", XA_OK, 62500000ull },
    { "62.5M", XA_OK, 62500000ull },
    { "19200000", XA_OK, 19200000ull },
    { "2299.999M", XA_OK, 2299999000ull },
    { "24MHz", XA_OK, 24000000ull },
    { "1k", XA_OK, 1000ull },
    { "10G", XA_OK, 10000000000ull },
    { "19.2MHZ", XA_OK, 19200000ull },
    { "1e9", XA_OK, 1000000000ull },
    { "2.4E9", XA_OK, 2400000000ull },
    { "2.4e+9", XA_OK, 2400000000ull },
    { "62.5e6Hz", XA_OK, 62500000ull },
    { "1e3k", XA_OK, 1000000ull },
    { "1e13", XA_E_RANGE, 0 },
    { "1e99999999999", XA_E_RANGE, 0 },
    { "1e", XA_E_INVAL, 0 },
    { "1e-9", XA_E_INVAL, 0 },
    { "999", XA_E_RANGE, 0 },
    { "10.000000001G", XA_E_RANGE, 0 },
    { "0", XA_E_RANGE, 0 },
    { "", XA_E_INVAL, 0 },
    { "fast", XA_E_INVAL, 0 },
    { "2.4GHzz", XA_E_INVAL, 0 },
    { "2.4T", XA_E_INVAL, 0 },
    { "1.2.3G", XA_E_INVAL, 0 },
};

int main(void)
{
    unsigned int i;

    for ( i = 0; i < sizeof(tests) / sizeof(tests[0]); i++ )
    {
        uint64_t hz = 0;
        int rc = xa_hz_parse(tests[i].in, &hz);

        tap_ok(rc == tests[i].rc, "parse \"%s\": status %d", tests[i].in, rc);
        if ( tests[i].rc == XA_OK )
            TAP_EQ(hz, tests[i].hz, "parse \"%s\": rate", tests[i].in);
    }

    /* Exact conversions, where a truncated integer "qhz" is not. */
    TAP_EQ(xa_ticks_to_ns(62500000, 62500000), 1000000000, "1 s at 62.5 MHz");
    TAP_EQ(xa_ticks_to_ns(1, 62500000), 16, "one tick at 62.5 MHz is 16 ns");
    TAP_EQ(xa_ticks_to_ns(3, 24000000), 125, "3 ticks at 24 MHz");
    TAP_EQ(xa_ticks_to_ns(2400000000ull * 3600, 2400000000ull),
           3600000000000ull, "an hour at 2.4 GHz");
    TAP_EQ(xa_ticks_to_ns(1000000000000ull, 1000), 1000000000000000000ull,
           "10^12 ticks at 1 kHz: ticks * 10^9 needs 128 bits");
    TAP_EQ(xa_ticks_to_ns(UINT64_MAX, 10000000000ull), 1844674407370955161ull,
           "2^64-1 ticks at 10 GHz");
    TAP_EQ(xa_ticks_to_ns(7, 2300000000ull), 3, "7 ticks at 2.3 GHz");
    return tap_done();
}
