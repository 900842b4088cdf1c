/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The JSON reader: values and accessors, exact 64-bit integers, escapes
 * and surrogate pairs, strict grammar with the error's place, the depth
 * and value bounds, and every prefix and byte flip of a summary-like
 * document rejected or read without harm.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xenalyze/json.h>

#include "tap.h"

static struct xa_json *parse(const char *s, struct xa_json_error *err)
{
    struct xa_json *d = NULL;

    xa_json_parse(s, strlen(s), NULL, &d, err);
    return d;
}

static void values(void)
{
    const char *s = "\xef\xbb\xbf { \"a\": [1, -2, 3.5e2, true, false, null],"
                    " \"b\": {\"c\": \"x\\ty\"}, \"big\": 18446744073709551615,"
                    " \"over\": 18446744073709551616, \"neg\": "
                    "-9223372036854775808, \"a\": 7 } \n";
    struct xa_json *d = parse(s, NULL);
    const struct xa_json_value *r = xa_json_root(d), *a;
    uint64_t u = 0;
    int64_t i = 0;
    double x = 0;
    bool b = true;
    size_t len = 0;

    tap_ok(d != NULL, "a document with a BOM parses");
    TAP_EQ(xa_json_type(r), XA_JSON_OBJECT, "root is an object");
    TAP_EQ(xa_json_len(r), 6, "six members, the repeated key kept");
    tap_ok(!strcmp(xa_json_key_at(r, 1), "b"), "member keys in order");
    a = xa_json_get(r, "a");
    TAP_EQ(xa_json_type(a), XA_JSON_ARRAY, "the first 'a' wins");
    TAP_EQ(xa_json_len(a), 6, "six elements");
    tap_ok(xa_json_u64(xa_json_at(a, 0), &u) && u == 1, "1 as u64");
    tap_ok(!xa_json_u64(xa_json_at(a, 1), &u), "-2 is no u64");
    tap_ok(xa_json_i64(xa_json_at(a, 1), &i) && i == -2, "-2 as i64");
    tap_ok(!xa_json_u64(xa_json_at(a, 2), &u), "3.5e2 is no integer");
    tap_ok(xa_json_double(xa_json_at(a, 2), &x) && x == 350.0, "3.5e2");
    tap_ok(!strcmp(xa_json_num_text(xa_json_at(a, 2)), "3.5e2"),
           "a number keeps its text");
    tap_ok(xa_json_bool(xa_json_at(a, 3), &b) && b, "true");
    tap_ok(xa_json_bool(xa_json_at(a, 4), &b) && !b, "false");
    TAP_EQ(xa_json_type(xa_json_at(a, 5)), XA_JSON_NULL, "null");
    tap_ok(xa_json_at(a, 6) == NULL, "beyond the end: NULL");
    tap_ok(!strcmp(xa_json_str(xa_json_get(xa_json_get(r, "b"), "c"), &len),
                   "x\ty") && len == 3, "an escape decoded");
    tap_ok(xa_json_u64(xa_json_get(r, "big"), &u) && u == UINT64_MAX,
           "2^64-1 exactly");
    tap_ok(!xa_json_u64(xa_json_get(r, "over"), &u), "2^64 does not fit");
    tap_ok(xa_json_i64(xa_json_get(r, "neg"), &i) && i == INT64_MIN,
           "-2^63 exactly");
    TAP_EQ(xa_json_get_u64(r, "missing", 42), 42, "a default for absence");
    tap_ok(xa_json_get_str(r, "big") == NULL, "a number is no string");
    tap_ok(xa_json_get(NULL, "a") == NULL && xa_json_len(NULL) == 0 &&
           xa_json_type(NULL) == XA_JSON_NULL, "NULL is absent everywhere");
    tap_ok(xa_json_get(a, "x") == NULL && xa_json_key_at(a, 0) == NULL,
           "an array has no members");
    xa_json_free(d);
}

static void strings(void)
{
    struct xa_json *d = parse("[\"\\u00e9\\u20ac\\ud83d\\ude00\\/\\\"\\\\\","
                              "\"a\\u0000b\"]", NULL);
    const struct xa_json_value *r = xa_json_root(d);
    size_t len = 0;

    tap_ok(d && !strcmp(xa_json_str(xa_json_at(r, 0), NULL),
                        "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80/\"\\"),
           "\\u escapes and a surrogate pair to UTF-8");
    tap_ok(xa_json_str(xa_json_at(r, 1), &len) && len == 3,
           "\\u0000 kept in the length");
    xa_json_free(d);
}

static void bad(void)
{
    static const struct {
        const char *text, *msg;
        unsigned int line, column;
    } cases[] = {
        { "", "unexpected end of input", 1, 1 },
        { "[1,]", "unexpected character", 1, 4 },
        { "{\"a\" 1}", "expected ':'", 1, 6 },
        { "{\"a\":1,}", "expected a member name", 1, 8 },
        { "[1 2]", "expected ',' or ']'", 1, 4 },
        { "01", "leading zero", 1, 2 },
        { "1.", "bad fraction", 1, 3 },
        { "1e", "bad exponent", 1, 3 },
        { "-", "bad number", 1, 2 },
        { "\"abc", "unterminated string", 1, 1 },
        { "\"a\nb\"", "control character in a string", 1, 3 },
        { "\"\\x\"", "bad escape", 1, 3 },
        { "\"\\u12g4\"", "bad \\u escape", 1, 3 },
        { "\"\\ud800x\"", "high surrogate without its low half", 1, 8 },
        { "\"\\udc00\"", "lone low surrogate", 1, 8 },
        { "tru", "unknown literal", 1, 1 },
        { "{}\n  x", "data after the value", 2, 3 },
        { "[1] // c", "data after the value", 1, 5 },
        { "'a'", "unexpected character", 1, 1 },
    };
    unsigned int i;

    for ( i = 0; i < sizeof(cases) / sizeof(cases[0]); i++ )
    {
        struct xa_json *d = (struct xa_json *)1;
        struct xa_json_error e;
        int rc = xa_json_parse(cases[i].text, strlen(cases[i].text), NULL,
                               &d, &e);

        tap_ok(rc == XA_E_INVAL && d == NULL && !strcmp(e.msg, cases[i].msg) &&
               e.line == cases[i].line && e.column == cases[i].column,
               "refused: %s (got %s at %u:%u)", cases[i].msg,
               rc ? e.msg : "ok", rc ? e.line : 0, rc ? e.column : 0);
    }
}

static void bounds(void)
{
    struct xa_json_limits lim = { .max_depth = 4, .max_values = 5 };
    struct xa_json *d = NULL;
    struct xa_json_error e;
    char deep[20001];

    e.msg = "";
    TAP_EQ(xa_json_parse("[[[[[1]]]]]", 11, &lim, &d, &e), XA_E_INVAL,
           "depth 5 beyond a bound of 4");
    tap_ok(!strcmp(e.msg, "nested too deeply"), "says why");
    TAP_EQ(xa_json_parse("[[[[1]]]]", 9, &lim, &d, &e), XA_OK,
           "depth 4 within it");
    xa_json_free(d);
    e.msg = "";
    TAP_EQ(xa_json_parse("[1,2,3,4,5]", 11, &lim, &d, &e), XA_E_INVAL,
           "6 values beyond a bound of 5");
    tap_ok(!strcmp(e.msg, "too many values"), "says why");
    /* The default depth bound stops a deep input before the stack does. */
    memset(deep, '[', sizeof(deep) - 1);
    deep[sizeof(deep) - 1] = '\0';
    TAP_EQ(xa_json_parse(deep, strlen(deep), NULL, &d, &e), XA_E_INVAL,
           "20000 brackets refused");
    TAP_EQ(e.offset, 128, "at the default depth of 128");
}

/* Every prefix and every byte flip: refused or read, never harmful. */
static void mangled(void)
{
    const char *s = "{\"schema\": \"xenalyze.summary/1\", \"trace\": "
                    "{\"cpu_hz\": 2400000000, \"arch\": \"x86-vmx\"}, "
                    "\"domains\": [{\"id\": 1, \"vcpus\": [{\"id\": 0, "
                    "\"exits\": [{\"reason\": \"HLT\", \"code\": 12, "
                    "\"count\": 3, \"cycles\": 9001, \"sub\": []}]}]}]}";
    size_t n = strlen(s), i, ok = 0, prefixes_ok = 0;
    char *buf = malloc(n);

    for ( i = 0; i < n; i++ )
    {
        struct xa_json *d = NULL;

        if ( xa_json_parse(s, i, NULL, &d, NULL) == XA_OK )
            prefixes_ok++;
        xa_json_free(d);
    }
    TAP_EQ(prefixes_ok, 0, "no proper prefix is a document");
    for ( i = 0; buf && i < n * 8; i++ )
    {
        struct xa_json *d = NULL;

        memcpy(buf, s, n);
        buf[i / 8] ^= (char)(1u << (i % 8));
        if ( xa_json_parse(buf, n, NULL, &d, NULL) == XA_OK )
        {
            ok++;
            xa_json_get_u64(xa_json_root(d), "domains", 0);
        }
        xa_json_free(d);
    }
    tap_ok(ok > 0 && ok < n * 8, "%zu of %zu byte flips still parse", ok,
           n * 8);
    free(buf);
}

int main(void)
{
    values();
    strings();
    bad();
    bounds();
    mangled();
    return tap_done();
}
