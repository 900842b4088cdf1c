/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * JSON reader (json.h).  Recursive descent with an explicit depth bound;
 * values, member arrays and decoded strings live in the document's arena
 * (blocks freed together).  While a container is open its children wait
 * on a growable stack shared by the whole parse, and are copied into the
 * arena, contiguous, when it closes: elements are then indexed in O(1).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <xenalyze/json.h>

#include "util-private.h"

struct xa_json_value {
    uint8_t type;                   /* enum xa_json_type */
    bool b;
    size_t n;                       /* elements, members, string bytes */
    const char *s;                  /* string (decoded) or number text */
    const char **keys;              /* object: n keys */
    const struct xa_json_value **items;   /* array/object: n values */
};

struct block {
    struct block *next;
    size_t used, cap;
    max_align_t data[];
};

struct xa_json {
    struct block *blocks;
    const struct xa_json_value *root;
};

/* A child waiting for its container to close. */
struct pending {
    const char *key;
    const struct xa_json_value *v;
};

struct parser {
    const char *p, *start, *end;
    struct xa_json *doc;
    struct xa_json_limits lim;
    size_t values;
    struct pending *stack;
    size_t nr_stack, cap_stack;
    const char *msg;                /* first error */
    const char *at;
    bool nomem;
};

#define BLOCK_MIN (64u * 1024)

static void *arena(struct parser *ps, size_t n)
{
    struct block *b = ps->doc->blocks;
    void *r;

    n = (n + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
    if ( !b || b->cap - b->used < n )
    {
        size_t cap = n > BLOCK_MIN ? n : BLOCK_MIN;

        b = malloc(sizeof(*b) + cap);
        if ( !b )
        {
            ps->nomem = true;
            return NULL;
        }
        b->cap = cap;
        b->used = 0;
        b->next = ps->doc->blocks;
        ps->doc->blocks = b;
    }
    r = (char *)b->data + b->used;
    b->used += n;
    return r;
}

static bool fail(struct parser *ps, const char *msg)
{
    if ( !ps->msg )
    {
        ps->msg = msg;
        ps->at = ps->p;
    }
    return false;
}

static void skip_ws(struct parser *ps)
{
    while ( ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' ||
                                *ps->p == '\n' || *ps->p == '\r') )
        ps->p++;
}

static struct xa_json_value *new_value(struct parser *ps, uint8_t type)
{
    struct xa_json_value *v;

    if ( ++ps->values > ps->lim.max_values )
    {
        fail(ps, "too many values");
        return NULL;
    }
    v = arena(ps, sizeof(*v));
    if ( !v )
        return NULL;
    memset(v, 0, sizeof(*v));
    v->type = type;
    return v;
}

static bool push(struct parser *ps, const char *key,
                 const struct xa_json_value *v)
{
    if ( ps->nr_stack == ps->cap_stack )
    {
        size_t cap = ps->cap_stack ? ps->cap_stack * 2 : 64;
        struct pending *s = realloc(ps->stack, cap * sizeof(*s));

        if ( !s )
        {
            ps->nomem = true;
            return false;
        }
        ps->stack = s;
        ps->cap_stack = cap;
    }
    ps->stack[ps->nr_stack].key = key;
    ps->stack[ps->nr_stack].v = v;
    ps->nr_stack++;
    return true;
}

static int hex4(const char *p)
{
    int v = 0, i;

    for ( i = 0; i < 4; i++ )
    {
        char c = p[i];

        v <<= 4;
        if ( c >= '0' && c <= '9' )
            v |= c - '0';
        else if ( c >= 'a' && c <= 'f' )
            v |= c - 'a' + 10;
        else if ( c >= 'A' && c <= 'F' )
            v |= c - 'A' + 10;
        else
            return -1;
    }
    return v;
}

static size_t put_utf8(char *d, unsigned long cp)
{
    if ( cp < 0x80 )
    {
        d[0] = (char)cp;
        return 1;
    }
    if ( cp < 0x800 )
    {
        d[0] = (char)(0xc0 | cp >> 6);
        d[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if ( cp < 0x10000 )
    {
        d[0] = (char)(0xe0 | cp >> 12);
        d[1] = (char)(0x80 | (cp >> 6 & 0x3f));
        d[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    d[0] = (char)(0xf0 | cp >> 18);
    d[1] = (char)(0x80 | (cp >> 12 & 0x3f));
    d[2] = (char)(0x80 | (cp >> 6 & 0x3f));
    d[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

/* A string at ps->p (its quote), decoded into the arena. */
static const char *parse_string(struct parser *ps, size_t *len)
{
    const char *q = ps->p + 1;
    size_t raw = 0;
    char *out, *d;

    /* The closing quote: the decoded text is no longer than the raw. */
    while ( q < ps->end && *q != '"' )
    {
        if ( *q == '\\' && q + 1 < ps->end )
            q++;
        q++;
    }
    if ( q >= ps->end )
    {
        fail(ps, "unterminated string");
        return NULL;
    }
    raw = (size_t)(q - ps->p - 1);
    out = arena(ps, raw + 1);
    if ( !out )
        return NULL;
    d = out;
    for ( ps->p++; *ps->p != '"'; )
    {
        unsigned char c = (unsigned char)*ps->p;

        if ( c < 0x20 )
        {
            fail(ps, "control character in a string");
            return NULL;
        }
        if ( c != '\\' )
        {
            *d++ = (char)c;
            ps->p++;
            continue;
        }
        ps->p++;
        switch ( *ps->p )
        {
        case '"': case '\\': case '/':
            *d++ = *ps->p++;
            break;
        case 'b': *d++ = '\b'; ps->p++; break;
        case 'f': *d++ = '\f'; ps->p++; break;
        case 'n': *d++ = '\n'; ps->p++; break;
        case 'r': *d++ = '\r'; ps->p++; break;
        case 't': *d++ = '\t'; ps->p++; break;
        case 'u':
        {
            long cp = ps->end - ps->p >= 5 ? hex4(ps->p + 1) : -1;

            if ( cp < 0 )
            {
                fail(ps, "bad \\u escape");
                return NULL;
            }
            ps->p += 5;
            if ( cp >= 0xdc00 && cp <= 0xdfff )
            {
                fail(ps, "lone low surrogate");
                return NULL;
            }
            if ( cp >= 0xd800 && cp <= 0xdbff )
            {
                long lo = ps->end - ps->p >= 6 && ps->p[0] == '\\' &&
                          ps->p[1] == 'u' ? hex4(ps->p + 2) : -1;

                if ( lo < 0xdc00 || lo > 0xdfff )
                {
                    fail(ps, "high surrogate without its low half");
                    return NULL;
                }
                ps->p += 6;
                cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
            }
            /* \uXXXX is 6 bytes (12 for a pair): UTF-8 takes no more. */
            d += put_utf8(d, (unsigned long)cp);
            break;
        }
        default:
            fail(ps, "bad escape");
            return NULL;
        }
    }
    ps->p++;
    *d = '\0';
    *len = (size_t)(d - out);
    return out;
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static const struct xa_json_value *parse_number(struct parser *ps)
{
    const char *b = ps->p;
    struct xa_json_value *v;
    char *t;

    if ( ps->p < ps->end && *ps->p == '-' )
        ps->p++;
    if ( ps->p >= ps->end || !is_digit(*ps->p) )
        return fail(ps, "bad number"), NULL;
    if ( *ps->p == '0' )
    {
        ps->p++;
        if ( ps->p < ps->end && is_digit(*ps->p) )
            return fail(ps, "leading zero"), NULL;
    }
    while ( ps->p < ps->end && is_digit(*ps->p) )
        ps->p++;
    if ( ps->p < ps->end && *ps->p == '.' )
    {
        ps->p++;
        if ( ps->p >= ps->end || !is_digit(*ps->p) )
            return fail(ps, "bad fraction"), NULL;
        while ( ps->p < ps->end && is_digit(*ps->p) )
            ps->p++;
    }
    if ( ps->p < ps->end && (*ps->p == 'e' || *ps->p == 'E') )
    {
        ps->p++;
        if ( ps->p < ps->end && (*ps->p == '+' || *ps->p == '-') )
            ps->p++;
        if ( ps->p >= ps->end || !is_digit(*ps->p) )
            return fail(ps, "bad exponent"), NULL;
        while ( ps->p < ps->end && is_digit(*ps->p) )
            ps->p++;
    }
    v = new_value(ps, XA_JSON_NUMBER);
    t = v ? arena(ps, (size_t)(ps->p - b) + 1) : NULL;
    if ( !t )
        return NULL;
    memcpy(t, b, (size_t)(ps->p - b));
    t[ps->p - b] = '\0';
    v->s = t;
    v->n = (size_t)(ps->p - b);
    return v;
}

static const struct xa_json_value *parse_value(struct parser *ps,
                                               unsigned int depth);

/* Closes a container: its children, from base up the stack, copied out. */
static bool close_container(struct parser *ps, struct xa_json_value *v,
                            size_t base)
{
    size_t i, n = ps->nr_stack - base;

    v->n = n;
    if ( n )
    {
        v->items = arena(ps, n * sizeof(*v->items));
        if ( !v->items )
            return false;
        if ( v->type == XA_JSON_OBJECT &&
             !(v->keys = arena(ps, n * sizeof(*v->keys))) )
            return false;
        for ( i = 0; i < n; i++ )
        {
            v->items[i] = ps->stack[base + i].v;
            if ( v->keys )
                v->keys[i] = ps->stack[base + i].key;
        }
    }
    ps->nr_stack = base;
    return true;
}

static const struct xa_json_value *parse_container(struct parser *ps,
                                                   unsigned int depth)
{
    bool obj = *ps->p == '{';
    char close = obj ? '}' : ']';
    struct xa_json_value *v;
    size_t base = ps->nr_stack;

    if ( depth >= ps->lim.max_depth )
        return fail(ps, "nested too deeply"), NULL;
    v = new_value(ps, obj ? XA_JSON_OBJECT : XA_JSON_ARRAY);
    if ( !v )
        return NULL;
    ps->p++;
    skip_ws(ps);
    if ( ps->p < ps->end && *ps->p == close )
    {
        ps->p++;
        return v;
    }
    for ( ;; )
    {
        const char *key = NULL;
        const struct xa_json_value *c;
        size_t klen;

        skip_ws(ps);
        if ( obj )
        {
            if ( ps->p >= ps->end || *ps->p != '"' )
                return fail(ps, "expected a member name"), NULL;
            if ( !(key = parse_string(ps, &klen)) )
                return NULL;
            skip_ws(ps);
            if ( ps->p >= ps->end || *ps->p != ':' )
                return fail(ps, "expected ':'"), NULL;
            ps->p++;
        }
        if ( !(c = parse_value(ps, depth + 1)) || !push(ps, key, c) )
            return NULL;
        skip_ws(ps);
        if ( ps->p < ps->end && *ps->p == ',' )
        {
            ps->p++;
            continue;
        }
        if ( ps->p < ps->end && *ps->p == close )
        {
            ps->p++;
            break;
        }
        return fail(ps, obj ? "expected ',' or '}'" : "expected ',' or ']'"),
               NULL;
    }
    return close_container(ps, v, base) ? v : NULL;
}

static bool literal(struct parser *ps, const char *word)
{
    size_t n = strlen(word);

    if ( (size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n) )
        return false;
    ps->p += n;
    return true;
}

static const struct xa_json_value *parse_value(struct parser *ps,
                                               unsigned int depth)
{
    struct xa_json_value *v;

    skip_ws(ps);
    if ( ps->p >= ps->end )
        return fail(ps, "unexpected end of input"), NULL;
    switch ( *ps->p )
    {
    case '{':
    case '[':
        return parse_container(ps, depth);
    case '"':
    {
        size_t len;
        const char *s;

        v = new_value(ps, XA_JSON_STRING);
        if ( !v || !(s = parse_string(ps, &len)) )
            return NULL;
        v->s = s;
        v->n = len;
        return v;
    }
    case 't':
    case 'f':
    case 'n':
        if ( literal(ps, "true") || literal(ps, "false") )
        {
            bool t = ps->p[-4] == 't';

            v = new_value(ps, XA_JSON_BOOL);
            if ( v )
                v->b = t;
            return v;
        }
        if ( literal(ps, "null") )
            return new_value(ps, XA_JSON_NULL);
        return fail(ps, "unknown literal"), NULL;
    default:
        if ( *ps->p == '-' || is_digit(*ps->p) )
            return parse_number(ps);
        return fail(ps, "unexpected character"), NULL;
    }
}

int xa_json_parse(const char *text, size_t len,
                  const struct xa_json_limits *lim, struct xa_json **doc,
                  struct xa_json_error *err)
{
    struct parser ps = { .p = text, .start = text, .end = text + len };
    const struct xa_json_value *root;
    struct xa_json *d = calloc(1, sizeof(*d));

    *doc = NULL;
    if ( !d )
        return XA_E_NOMEM;
    ps.doc = d;
    if ( lim )
        ps.lim = *lim;
    if ( !ps.lim.max_depth )
        ps.lim.max_depth = 128;
    if ( !ps.lim.max_values )
        ps.lim.max_values = (size_t)1 << 24;
    if ( len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3) )
        ps.p += 3;
    root = parse_value(&ps, 0);
    if ( root )
    {
        skip_ws(&ps);
        if ( ps.p < ps.end )
        {
            fail(&ps, "data after the value");
            root = NULL;
        }
    }
    free(ps.stack);
    if ( !root )
    {
        int rc = ps.nomem && !ps.msg ? XA_E_NOMEM : XA_E_INVAL;

        if ( err )
        {
            const char *q, *at = ps.msg ? ps.at : ps.p;

            memset(err, 0, sizeof(*err));
            err->msg = ps.msg ? ps.msg : "out of memory";
            err->offset = (size_t)(at - text);
            err->line = 1;
            err->column = 1;
            for ( q = text; q < at; q++ )
            {
                if ( *q == '\n' )
                {
                    err->line++;
                    err->column = 1;
                }
                else
                    err->column++;
            }
        }
        xa_json_free(d);
        return rc;
    }
    d->root = root;
    *doc = d;
    return XA_OK;
}

void xa_json_free(struct xa_json *doc)
{
    struct block *b, *n;

    if ( !doc )
        return;
    for ( b = doc->blocks; b; b = n )
    {
        n = b->next;
        free(b);
    }
    free(doc);
}

const struct xa_json_value *xa_json_root(const struct xa_json *doc)
{
    return doc ? doc->root : NULL;
}

enum xa_json_type xa_json_type(const struct xa_json_value *v)
{
    return v ? (enum xa_json_type)v->type : XA_JSON_NULL;
}

size_t xa_json_len(const struct xa_json_value *v)
{
    return v && (v->type == XA_JSON_ARRAY || v->type == XA_JSON_OBJECT)
           ? v->n : 0;
}

const struct xa_json_value *xa_json_at(const struct xa_json_value *v,
                                       size_t i)
{
    return i < xa_json_len(v) ? v->items[i] : NULL;
}

const char *xa_json_key_at(const struct xa_json_value *v, size_t i)
{
    return v && v->type == XA_JSON_OBJECT && i < v->n ? v->keys[i] : NULL;
}

const struct xa_json_value *xa_json_get(const struct xa_json_value *v,
                                        const char *key)
{
    size_t i;

    if ( !v || v->type != XA_JSON_OBJECT )
        return NULL;
    for ( i = 0; i < v->n; i++ )
        if ( !strcmp(v->keys[i], key) )
            return v->items[i];
    return NULL;
}

/* An integer's magnitude, exactly, from its text; false beyond 64 bits. */
static bool int_text(const struct xa_json_value *v, bool *neg, uint64_t *m)
{
    const char *s;
    uint64_t r = 0;

    if ( !v || v->type != XA_JSON_NUMBER || strpbrk(v->s, ".eE") )
        return false;
    s = v->s;
    *neg = *s == '-';
    if ( *neg )
        s++;
    for ( ; *s; s++ )
    {
        unsigned int d = (unsigned int)(*s - '0');

        if ( r > (UINT64_MAX - d) / 10 )
            return false;
        r = r * 10 + d;
    }
    *m = r;
    return true;
}

bool xa_json_u64(const struct xa_json_value *v, uint64_t *out)
{
    bool neg;
    uint64_t m;

    if ( !int_text(v, &neg, &m) || (neg && m) )
        return false;
    *out = m;
    return true;
}

bool xa_json_i64(const struct xa_json_value *v, int64_t *out)
{
    bool neg;
    uint64_t m;

    if ( !int_text(v, &neg, &m) || m > (neg ? (uint64_t)INT64_MAX + 1
                                            : (uint64_t)INT64_MAX) )
        return false;
    *out = neg ? (int64_t)(0 - m) : (int64_t)m;
    return true;
}

bool xa_json_double(const struct xa_json_value *v, double *out)
{
    if ( !v || v->type != XA_JSON_NUMBER )
        return false;
    *out = strtod(v->s, NULL);
    return true;
}

bool xa_json_bool(const struct xa_json_value *v, bool *out)
{
    if ( !v || v->type != XA_JSON_BOOL )
        return false;
    *out = v->b;
    return true;
}

const char *xa_json_str(const struct xa_json_value *v, size_t *len)
{
    if ( !v || v->type != XA_JSON_STRING )
        return NULL;
    if ( len )
        *len = v->n;
    return v->s;
}

const char *xa_json_num_text(const struct xa_json_value *v)
{
    return v && v->type == XA_JSON_NUMBER ? v->s : NULL;
}

uint64_t xa_json_get_u64(const struct xa_json_value *obj, const char *key,
                         uint64_t dflt)
{
    uint64_t r;

    return xa_json_u64(xa_json_get(obj, key), &r) ? r : dflt;
}

bool xa_json_incarnation(const struct xa_json_value *dom,
                         unsigned int *incarnation)
{
    const struct xa_json_value *v = xa_json_get(dom, "incarnation");
    uint64_t n = 1;

    if ( v && (!xa_json_u64(v, &n) || !n || n > UINT32_MAX) )
        return false;
    *incarnation = (unsigned int)(n - 1);
    return true;
}

const char *xa_json_get_str(const struct xa_json_value *obj, const char *key)
{
    return xa_json_str(xa_json_get(obj, key), NULL);
}
