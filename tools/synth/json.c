/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The comparison of an analyzer summary with the truth: every key the
 * truth has must match; entries the truth lacks may appear in the
 * analyzer's output only with a zero count.  Both are read with the
 * library's JSON reader; scalars compare by their text as written.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <xenalyze/json.h>
#include <xenalyze/reader.h>

#include "synth.h"

typedef struct xa_json_value jv;

#define JSON_MAX (256u << 20)       /* a summary is far smaller */

static struct xa_json *load(const char *path, FILE *report)
{
    struct xa_json *doc = NULL;
    struct xa_json_error err = { 0 };
    char *buf = NULL;
    size_t len = 0;
    int rc = xa_read_file(path, JSON_MAX, &buf, &len);

    if ( rc )
    {
        fprintf(report, "%s: %s\n", path, xa_strerror(rc));
        return NULL;
    }
    rc = xa_json_parse(buf, len, NULL, &doc, &err);
    free(buf);
    if ( rc )
    {
        if ( err.msg )
            fprintf(report, "%s:%u:%u: not valid JSON: %s\n", path, err.line,
                    err.column, err.msg);
        else
            fprintf(report, "%s: %s\n", path, xa_strerror(rc));
        return NULL;
    }
    return doc;
}

static bool compound(const jv *v)
{
    enum xa_json_type t = xa_json_type(v);

    return t == XA_JSON_ARRAY || t == XA_JSON_OBJECT;
}

/* A scalar's text as written; NULL for an absent or compound value. */
static const char *scalar(const jv *v)
{
    bool b;

    switch ( xa_json_type(v) )
    {
    case XA_JSON_STRING:
        return xa_json_str(v, NULL);
    case XA_JSON_NUMBER:
        return xa_json_num_text(v);
    case XA_JSON_BOOL:
        return xa_json_bool(v, &b) && b ? "true" : "false";
    case XA_JSON_NULL:
        return v ? "null" : NULL;
    case XA_JSON_ARRAY:
    case XA_JSON_OBJECT:
        break;
    }
    return NULL;
}

static const char *text(const jv *v)
{
    const char *s = scalar(v);

    return s ? s : "(none)";
}

/* Array element whose field key has the same text as in want. */
static const jv *find_by(const jv *arr, const char *key, const jv *want)
{
    const char *w = scalar(want);
    size_t i;

    if ( xa_json_type(arr) != XA_JSON_ARRAY || !w )
        return NULL;
    for ( i = 0; i < xa_json_len(arr); i++ )
    {
        const char *k = scalar(xa_json_get(xa_json_at(arr, i), key));

        if ( k && !strcmp(k, w) )
            return xa_json_at(arr, i);
    }
    return NULL;
}

struct cmp {
    FILE *report;
    unsigned int diffs;
};

static void diff(struct cmp *c, const char *path, const char *field,
                 const char *want, const char *got)
{
    if ( c->diffs++ < 60 )
        fprintf(c->report, "%s%s%s: truth %s, analyzer %s\n", path,
                field ? "." : "", field ? field : "", want, got);
}

/* Every scalar field of want must be in got with the same text. */
static void cmp_scalars(struct cmp *c, const char *path, const jv *want,
                        const jv *got)
{
    size_t i;

    for ( i = 0; i < xa_json_len(want); i++ )
    {
        const jv *w = xa_json_at(want, i);
        const char *key = xa_json_key_at(want, i);
        const char *g;

        if ( compound(w) )
            continue;
        g = scalar(xa_json_get(got, key));
        if ( !g || strcmp(g, text(w)) )
            diff(c, path, key, text(w), g ? g : "(none)");
    }
}

/* Whether v has a non-zero "count", itself or anywhere below it. */
static bool nonzero_count(const jv *v)
{
    const jv *n = xa_json_get(v, "count");
    size_t i;

    if ( n )
        return scalar(n) && strcmp(scalar(n), "0");
    for ( i = 0; i < xa_json_len(v); i++ )
        if ( nonzero_count(xa_json_at(v, i)) )
            return true;
    return false;
}

/* A path for the report: a long one is cut, harmlessly. */
static void path_fmt(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void path_fmt(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf, size, fmt, ap);
    va_end(ap);
}

/*
 * Arrays of keyed entries: each truth entry matched by key and compared;
 * analyzer entries absent from the truth must have a zero count.
 */
static void cmp_list(struct cmp *c, const char *path, const char *key,
                     const jv *want, const jv *got,
                     void (*deeper)(struct cmp *, const char *,
                                    const jv *, const jv *))
{
    char sub[512];
    size_t i;

    if ( xa_json_type(want) == XA_JSON_ARRAY )
        for ( i = 0; i < xa_json_len(want); i++ )
        {
            const jv *w = xa_json_at(want, i);
            const jv *g = find_by(got, key, xa_json_get(w, key));

            path_fmt(sub, sizeof(sub), "%s[%s=%s]", path, key,
                     text(xa_json_get(w, key)));
            if ( !g )
            {
                if ( nonzero_count(w) )
                    diff(c, sub, NULL, "present", "missing");
                continue;
            }
            cmp_scalars(c, sub, w, g);
            if ( deeper )
                deeper(c, sub, w, g);
        }
    if ( xa_json_type(got) == XA_JSON_ARRAY )
        for ( i = 0; i < xa_json_len(got); i++ )
        {
            const jv *g = xa_json_at(got, i);

            if ( !find_by(want, key, xa_json_get(g, key)) &&
                 nonzero_count(g) )
            {
                path_fmt(sub, sizeof(sub), "%s[%s=%s]", path, key,
                         text(xa_json_get(g, key)));
                diff(c, sub, NULL, "missing", "present");
            }
        }
}

static void cmp_exit(struct cmp *c, const char *path, const jv *w,
                     const jv *g)
{
    char p[600];

    path_fmt(p, sizeof(p), "%s.sub", path);
    cmp_list(c, p, "key", xa_json_get(w, "sub"), xa_json_get(g, "sub"), NULL);
}

static void cmp_vcpu(struct cmp *c, const char *path, const jv *w,
                     const jv *g)
{
    const jv *wr = xa_json_get(w, "runstates");
    const jv *gr = xa_json_get(g, "runstates");
    char p[600];
    size_t i;

    for ( i = 0; i < xa_json_len(wr); i++ )
    {
        const char *state = xa_json_key_at(wr, i);
        const jv *gs = xa_json_get(gr, state);

        if ( !state )
            continue;
        path_fmt(p, sizeof(p), "%s.runstates.%s", path, state);
        if ( !gs )
            diff(c, p, NULL, "present", "missing");
        else
            cmp_scalars(c, p, xa_json_at(wr, i), gs);
    }
    for ( i = 0; i < xa_json_len(gr); i++ )
    {
        const char *state = xa_json_key_at(gr, i);

        if ( state && !xa_json_get(wr, state) &&
             nonzero_count(xa_json_at(gr, i)) )
        {
            path_fmt(p, sizeof(p), "%s.runstates.%s", path, state);
            diff(c, p, NULL, "missing", "present");
        }
    }
    path_fmt(p, sizeof(p), "%s.exits", path);
    cmp_list(c, p, "code", xa_json_get(w, "exits"), xa_json_get(g, "exits"),
             cmp_exit);
    path_fmt(p, sizeof(p), "%s.hypercalls", path);
    cmp_list(c, p, "name", xa_json_get(w, "hypercalls"),
             xa_json_get(g, "hypercalls"), NULL);
}

static void cmp_domain(struct cmp *c, const char *path, const jv *w,
                       const jv *g)
{
    char p[600];

    path_fmt(p, sizeof(p), "%s.vcpus", path);
    cmp_list(c, p, "id", xa_json_get(w, "vcpus"), xa_json_get(g, "vcpus"),
             cmp_vcpu);
}

int json_compare_files(const char *truth, const char *got, FILE *report)
{
    struct xa_json *wd = load(truth, report);
    struct xa_json *gd = wd ? load(got, report) : NULL;
    struct cmp c = { report, 0 };
    const jv *w, *g, *wt, *gt;

    if ( !wd || !gd )
    {
        xa_json_free(wd);
        return 2;
    }
    w = xa_json_root(wd);
    g = xa_json_root(gd);
    wt = xa_json_get(w, "trace");
    gt = xa_json_get(g, "trace");
    if ( wt )
    {
        if ( !gt )
            diff(&c, "trace", NULL, "present", "missing");
        else
            cmp_scalars(&c, "trace", wt, gt);
    }
    cmp_list(&c, "domains", "id", xa_json_get(w, "domains"),
             xa_json_get(g, "domains"), cmp_domain);
    if ( c.diffs )
        fprintf(report, "%u difference%s\n", c.diffs, c.diffs > 1 ? "s" : "");
    xa_json_free(wd);
    xa_json_free(gd);
    return c.diffs ? 1 : 0;
}
