/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Clock rates: parsing "2.4G", "62.5MHz", "19200000", and exact
 * conversion of TSC ticks to nanoseconds.
 */
#ifndef XA_CLOCK_H
#define XA_CLOCK_H

#include <xenalyze/common.h>

#ifdef __cplusplus
extern "C" {
#endif

#define XA_HZ_MIN 1000ull               /* 1 kHz */
#define XA_HZ_MAX 10000000000ull        /* 10 GHz */
#define XA_HZ_DEFAULT 2400000000ull     /* upstream's default */

/**
 * xa_hz_parse - parse a clock rate
 * @s: a decimal number, with an optional exponent ("1e9", "2.4E9") and
 *     an optional suffix k, M or G (any case), optionally followed by
 *     "Hz": "2.4G", "2400M", "62.5MHz", "19200000"
 * @hz: set to the rate in Hz (rounded to the nearest Hz)
 *
 * Returns XA_OK, or XA_E_INVAL (syntax) or XA_E_RANGE (outside
 * XA_HZ_MIN..XA_HZ_MAX).
 */
XA_API int xa_hz_parse(const char *s, uint64_t *hz);

/* Nanoseconds in ticks at hz, rounded down; exact (128-bit). */
static inline uint64_t xa_ticks_to_ns(uint64_t ticks, uint64_t hz)
{
    return (uint64_t)(((unsigned __int128)ticks * 1000000000u) / hz);
}

/* Seconds as a double (for reports). */
static inline double xa_ticks_to_s(uint64_t ticks, uint64_t hz)
{
    return (double)ticks / (double)hz;
}

#ifdef __cplusplus
}
#endif

#endif /* XA_CLOCK_H */
