/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A tiny JSON reader and the comparison of an analyzer summary with the
 * truth: every key the truth has must match; entries the truth lacks may
 * appear in the analyzer's output only with a zero count.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "synth.h"

enum jt { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

struct jv {
    enum jt type;
    char *text;                 /* number or string contents */
    struct jv **items;
    char **keys;                /* objects */
    unsigned int n;
};

struct jp {
    const char *p, *end;
    bool bad;
};

static void jv_free(struct jv *v)
{
    unsigned int i;

    if ( !v )
        return;
    for ( i = 0; i < v->n; i++ )
    {
        jv_free(v->items[i]);
        if ( v->keys )
            free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->text);
    free(v);
}

static void skip_ws(struct jp *j)
{
    while ( j->p < j->end &&
            (*j->p == ' ' || *j->p == '\n' || *j->p == '\t' || *j->p == '\r') )
        j->p++;
}

static char *parse_str(struct jp *j)
{
    size_t cap = 16, len = 0;
    char *s = malloc(cap);

    j->p++;                     /* opening quote */
    while ( s && j->p < j->end && *j->p != '"' )
    {
        char c = *j->p++;

        if ( c == '\\' && j->p < j->end )
        {
            c = *j->p++;
            c = c == 'n' ? '\n' : c == 't' ? '\t' : c;
            if ( c == 'u' )
            {
                /* Kept as '?': the summaries' keys are ASCII. */
                j->p += j->end - j->p >= 4 ? 4 : j->end - j->p;
                c = '?';
            }
        }
        if ( len + 2 > cap )
        {
            char *n = realloc(s, cap *= 2);

            if ( !n )
            {
                free(s);
                return NULL;
            }
            s = n;
        }
        s[len++] = c;
    }
    if ( !s || j->p >= j->end )
    {
        free(s);
        j->bad = true;
        return NULL;
    }
    j->p++;
    s[len] = '\0';
    return s;
}

static struct jv *parse_val(struct jp *j, unsigned int depth);

static bool add_item(struct jv *v, struct jv *item, char *key)
{
    struct jv **ni = realloc(v->items, (v->n + 1) * sizeof(*ni));

    if ( !ni )
        return false;
    v->items = ni;
    if ( v->type == J_OBJ )
    {
        char **nk = realloc(v->keys, (v->n + 1) * sizeof(*nk));

        if ( !nk )
            return false;
        v->keys = nk;
        nk[v->n] = key;
    }
    ni[v->n++] = item;
    return true;
}

static struct jv *parse_val(struct jp *j, unsigned int depth)
{
    struct jv *v;

    skip_ws(j);
    if ( j->p >= j->end || depth > 64 || !(v = calloc(1, sizeof(*v))) )
    {
        j->bad = true;
        return NULL;
    }
    if ( *j->p == '{' || *j->p == '[' )
    {
        char close = *j->p == '{' ? '}' : ']';

        v->type = close == '}' ? J_OBJ : J_ARR;
        j->p++;
        skip_ws(j);
        if ( j->p < j->end && *j->p == close )
        {
            j->p++;
            return v;
        }
        for ( ;; )
        {
            char *key = NULL;
            struct jv *item;

            skip_ws(j);
            if ( v->type == J_OBJ )
            {
                if ( j->p >= j->end || *j->p != '"' ||
                     !(key = parse_str(j)) )
                    break;
                skip_ws(j);
                if ( j->p >= j->end || *j->p++ != ':' )
                {
                    free(key);
                    break;
                }
            }
            item = parse_val(j, depth + 1);
            if ( !item || !add_item(v, item, key) )
            {
                jv_free(item);
                free(key);
                break;
            }
            skip_ws(j);
            if ( j->p < j->end && *j->p == ',' )
            {
                j->p++;
                continue;
            }
            if ( j->p < j->end && *j->p == close )
            {
                j->p++;
                return v;
            }
            break;
        }
        j->bad = true;
        return v;
    }
    if ( *j->p == '"' )
    {
        v->type = J_STR;
        v->text = parse_str(j);
        return v;
    }
    {
        const char *s = j->p;

        while ( j->p < j->end && strchr("+-.0123456789eEtruefalsn", *j->p) )
            j->p++;
        if ( j->p == s )
        {
            j->bad = true;
            return v;
        }
        v->text = strndup(s, (size_t)(j->p - s));
        v->type = !strcmp(v->text, "null") ? J_NULL
                  : !strcmp(v->text, "true") || !strcmp(v->text, "false")
                  ? J_BOOL : J_NUM;
    }
    return v;
}

static struct jv *load(const char *path, FILE *report)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t len = 0, cap = 0, r;
    struct jp j;
    struct jv *v;

    if ( !f )
    {
        fprintf(report, "%s: %s\n", path, strerror(errno));
        return NULL;
    }
    do
    {
        if ( len + 65536 > cap )
        {
            char *nb = realloc(buf, cap = cap ? 2 * cap : 1 << 20);

            if ( !nb )
                break;
            buf = nb;
        }
        r = fread(buf + len, 1, cap - len, f);
        len += r;
    } while ( r > 0 );
    fclose(f);
    j.p = buf;
    j.end = buf + len;
    j.bad = false;
    v = buf ? parse_val(&j, 0) : NULL;
    free(buf);
    if ( !v || j.bad )
    {
        fprintf(report, "%s: not valid JSON\n", path);
        jv_free(v);
        return NULL;
    }
    return v;
}

static const struct jv *get(const struct jv *o, const char *key)
{
    unsigned int i;

    if ( !o || o->type != J_OBJ )
        return NULL;
    for ( i = 0; i < o->n; i++ )
        if ( !strcmp(o->keys[i], key) )
            return o->items[i];
    return NULL;
}

static const char *text(const struct jv *v)
{
    return v && v->text ? v->text : "(none)";
}

/* Array element whose field key has the same text as in want. */
static const struct jv *find_by(const struct jv *arr, const char *key,
                                const struct jv *want)
{
    unsigned int i;

    if ( !arr || arr->type != J_ARR || !want )
        return NULL;
    for ( i = 0; i < arr->n; i++ )
    {
        const struct jv *k = get(arr->items[i], key);

        if ( k && k->text && want->text && !strcmp(k->text, want->text) )
            return arr->items[i];
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
static void cmp_scalars(struct cmp *c, const char *path, const struct jv *want,
                        const struct jv *got)
{
    unsigned int i;

    for ( i = 0; i < want->n; i++ )
    {
        const struct jv *w = want->items[i], *g;

        if ( w->type == J_ARR || w->type == J_OBJ )
            continue;
        g = get(got, want->keys[i]);
        if ( !g || !g->text || strcmp(g->text, w->text) )
            diff(c, path, want->keys[i], text(w), text(g));
    }
}

/* Whether v has a non-zero "count", itself or anywhere below it. */
static bool nonzero_count(const struct jv *v)
{
    const struct jv *n = get(v, "count");
    unsigned int i;

    if ( n )
        return n->text && strcmp(n->text, "0");
    for ( i = 0; v && i < v->n; i++ )
        if ( nonzero_count(v->items[i]) )
            return true;
    return false;
}

/*
 * Arrays of keyed entries: each truth entry matched by key and compared;
 * analyzer entries absent from the truth must have a zero count.
 */
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

static void cmp_list(struct cmp *c, const char *path, const char *key,
                     const struct jv *want, const struct jv *got,
                     void (*deeper)(struct cmp *, const char *,
                                    const struct jv *, const struct jv *))
{
    char sub[512];
    unsigned int i;

    for ( i = 0; want && want->type == J_ARR && i < want->n; i++ )
    {
        const struct jv *w = want->items[i];
        const struct jv *g = find_by(got, key, get(w, key));

        path_fmt(sub, sizeof(sub), "%s[%s=%s]", path, key, text(get(w, key)));
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
    for ( i = 0; got && got->type == J_ARR && i < got->n; i++ )
    {
        const struct jv *g = got->items[i];

        if ( !find_by(want, key, get(g, key)) && nonzero_count(g) )
        {
            path_fmt(sub, sizeof(sub), "%s[%s=%s]", path, key,
                     text(get(g, key)));
            diff(c, sub, NULL, "missing", "present");
        }
    }
}

static void cmp_exit(struct cmp *c, const char *path, const struct jv *w,
                     const struct jv *g)
{
    char p[600];

    path_fmt(p, sizeof(p), "%s.sub", path);
    cmp_list(c, p, "key", get(w, "sub"), get(g, "sub"), NULL);
}

static void cmp_vcpu(struct cmp *c, const char *path, const struct jv *w,
                     const struct jv *g)
{
    const struct jv *wr = get(w, "runstates"), *gr = get(g, "runstates");
    char p[600];
    unsigned int i;

    for ( i = 0; wr && i < wr->n; i++ )
    {
        const struct jv *gs = get(gr, wr->keys[i]);

        path_fmt(p, sizeof(p), "%s.runstates.%s", path, wr->keys[i]);
        if ( !gs )
            diff(c, p, NULL, "present", "missing");
        else
            cmp_scalars(c, p, wr->items[i], gs);
    }
    for ( i = 0; gr && gr->type == J_OBJ && i < gr->n; i++ )
        if ( !get(wr, gr->keys[i]) && nonzero_count(gr->items[i]) )
        {
            path_fmt(p, sizeof(p), "%s.runstates.%s", path, gr->keys[i]);
            diff(c, p, NULL, "missing", "present");
        }
    path_fmt(p, sizeof(p), "%s.exits", path);
    cmp_list(c, p, "code", get(w, "exits"), get(g, "exits"), cmp_exit);
    path_fmt(p, sizeof(p), "%s.hypercalls", path);
    cmp_list(c, p, "name", get(w, "hypercalls"), get(g, "hypercalls"), NULL);
}

static void cmp_domain(struct cmp *c, const char *path, const struct jv *w,
                       const struct jv *g)
{
    char p[600];

    path_fmt(p, sizeof(p), "%s.vcpus", path);
    cmp_list(c, p, "id", get(w, "vcpus"), get(g, "vcpus"), cmp_vcpu);
}

int json_compare_files(const char *truth, const char *got, FILE *report)
{
    struct jv *w = load(truth, report), *g = w ? load(got, report) : NULL;
    struct cmp c = { report, 0 };
    const struct jv *wt, *gt;

    if ( !w || !g )
    {
        jv_free(w);
        return 2;
    }
    wt = get(w, "trace");
    gt = get(g, "trace");
    if ( wt )
    {
        if ( !gt )
            diff(&c, "trace", NULL, "present", "missing");
        else
            cmp_scalars(&c, "trace", wt, gt);
    }
    cmp_list(&c, "domains", "id", get(w, "domains"), get(g, "domains"),
             cmp_domain);
    if ( c.diffs )
        fprintf(report, "%u difference%s\n", c.diffs, c.diffs > 1 ? "s" : "");
    jv_free(w);
    jv_free(g);
    return c.diffs ? 1 : 0;
}
