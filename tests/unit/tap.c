/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <stdarg.h>
#include <stdio.h>

#include "tap.h"

static unsigned int nr_tests, nr_failures;

static bool report(bool cond, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
static bool report(bool cond, const char *fmt, va_list ap)
{
    nr_tests++;
    if ( !cond )
        nr_failures++;
    printf("%sok %u - ", cond ? "" : "not ", nr_tests);
    vprintf(fmt, ap);
    printf("\n");
    return cond;
}

bool tap_ok(bool cond, const char *fmt, ...)
{
    va_list ap;
    bool r;

    va_start(ap, fmt);
    r = report(cond, fmt, ap);
    va_end(ap);
    return r;
}

bool tap_eq_u64(uint64_t got, uint64_t want, const char *fmt, ...)
{
    va_list ap;
    bool r;

    va_start(ap, fmt);
    r = report(got == want, fmt, ap);
    va_end(ap);
    if ( !r )
        printf("#   got %llu (0x%llx), want %llu (0x%llx)\n",
               (unsigned long long)got, (unsigned long long)got,
               (unsigned long long)want, (unsigned long long)want);
    return r;
}

int tap_done(void)
{
    printf("1..%u\n", nr_tests);
    if ( nr_failures )
        printf("# %u of %u checks failed\n", nr_failures, nr_tests);
    return !!nr_failures;
}

uint64_t tap_rand(void)
{
    static uint64_t x = 88172645463325252ull;

    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
}
