/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A tiny TAP producer for the unit tests (after babeltrace's tap.h).
 */
#ifndef XA_TESTS_TAP_H
#define XA_TESTS_TAP_H

#include <stdbool.h>
#include <stdint.h>

/* Records one check; prints "ok N - name" or "not ok N - name". */
bool tap_ok(bool cond, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Checks a == b for unsigned 64-bit values, printing both on failure. */
bool tap_eq_u64(uint64_t got, uint64_t want, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A fixed sequence of pseudo-random numbers (xorshift64). */
uint64_t tap_rand(void);
/* Prints the plan and returns the exit status: !!failures. */
int tap_done(void);

#define TAP_EQ(got, want, ...) tap_eq_u64((uint64_t)(got), (uint64_t)(want), \
                                          __VA_ARGS__)

#endif /* XA_TESTS_TAP_H */
