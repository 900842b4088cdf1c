/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Guest symbols: a sorted array of (address, name) parsed from a
 * System.map-style text; names live in one block.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xenalyze/symbols.h>

struct sym {
    uint64_t addr;
    uint32_t name;                  /* offset in names */
};

struct xa_symbols {
    struct sym *s;
    unsigned int nr;
    char *names;
};

static int hexval(char c)
{
    if ( c >= '0' && c <= '9' )
        return c - '0';
    if ( c >= 'a' && c <= 'f' )
        return c - 'a' + 10;
    if ( c >= 'A' && c <= 'F' )
        return c - 'A' + 10;
    return -1;
}

static int cmp_sym(const void *a, const void *b)
{
    const struct sym *x = a, *y = b;

    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* [p, e) as words: up to 3, each [w[i], w[i] + l[i]). */
static unsigned int split(const char *p, const char *e, const char **w,
                          size_t *l)
{
    unsigned int n = 0;

    while ( p < e && n < 3 )
    {
        while ( p < e && (*p == ' ' || *p == '\t' || *p == '\r') )
            p++;
        if ( p == e )
            break;
        w[n] = p;
        while ( p < e && *p != ' ' && *p != '\t' && *p != '\r' )
            p++;
        l[n] = (size_t)(p - w[n]);
        n++;
    }
    return n;
}

int xa_symbols_parse(const char *text, size_t len, struct xa_symbols **out,
                     unsigned int *skipped)
{
    struct xa_symbols *s = calloc(1, sizeof(*s));
    const char *p = text, *end = text + len;
    unsigned int cap = 0, bad = 0;
    size_t used = 0;

    if ( !s || !(s->names = malloc(len + 1)) )
        goto nomem;
    while ( p < end )
    {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end, *w[3];
        size_t l[3], i;
        unsigned int n = split(p, le, w, l);
        uint64_t addr = 0;
        bool ok = n >= 2 && l[0] <= 16;

        for ( i = 0; ok && i < l[0]; i++ )
        {
            int h = hexval(w[0][i]);

            ok = h >= 0;
            addr = addr << 4 | (uint64_t)(h < 0 ? 0 : h);
        }
        if ( ok )
        {
            unsigned int ni = n == 3 ? 2 : 1;

            if ( s->nr == cap )
            {
                unsigned int c = cap ? cap * 2 : 1024;
                struct sym *ns = realloc(s->s, c * sizeof(*ns));

                if ( !ns )
                    goto nomem;
                s->s = ns;
                cap = c;
            }
            s->s[s->nr].addr = addr;
            s->s[s->nr++].name = (uint32_t)used;
            memcpy(s->names + used, w[ni], l[ni]);
            used += l[ni];
            s->names[used++] = 0;
        }
        else if ( n )
            bad++;
        p = nl ? nl + 1 : end;
    }
    if ( skipped )
        *skipped = bad;
    if ( !s->nr )
    {
        xa_symbols_free(s);
        return XA_E_INVAL;
    }
    qsort(s->s, s->nr, sizeof(*s->s), cmp_sym);
    *out = s;
    return XA_OK;

 nomem:
    xa_symbols_free(s);
    return XA_E_NOMEM;
}

void xa_symbols_free(struct xa_symbols *s)
{
    if ( !s )
        return;
    free(s->s);
    free(s->names);
    free(s);
}

unsigned int xa_symbols_count(const struct xa_symbols *s)
{
    return s ? s->nr : 0;
}

const char *xa_symbols_find(const struct xa_symbols *s, uint64_t addr,
                            uint64_t *offset)
{
    unsigned int lo = 0, hi;

    if ( !s || !s->nr || addr < s->s[0].addr )
        return NULL;
    hi = s->nr;
    while ( hi - lo > 1 )                   /* s[lo].addr <= addr */
    {
        unsigned int mid = (lo + hi) / 2;

        if ( s->s[mid].addr <= addr )
            lo = mid;
        else
            hi = mid;
    }
    *offset = addr - s->s[lo].addr;
    return s->names + s->s[lo].name;
}

char *xa_symbols_name(const struct xa_symbols *s, uint64_t addr, char *buf,
                      size_t len)
{
    uint64_t off;
    const char *name = xa_symbols_find(s, addr, &off);

    if ( !len )
        return buf;
    buf[0] = 0;
    if ( !s )
        return buf;
    if ( !name )
    {
        name = "ZERO";                  /* below every symbol, as upstream */
        off = addr;
    }
    snprintf(buf, len, "(%s +%llx)", name, (unsigned long long)off);
    return buf;
}
