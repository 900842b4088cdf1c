/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Field lists: most trace records are a few u32 words whose meaning
 * fits in a short string, so one interpreter formats them all instead
 * of a hand-written function per event.
 *
 * Types, and the words each consumes:
 *   u  u32 decimal (1)          i  s32 decimal (1)      x  u32 hex (1)
 *   U  u64 decimal (2)          X  u64 hex (2)
 *   a  address: u64 hex (2) when the id has TRC_64_FLAG, else u32 (1)
 *   e  shadow guest l1e or gfn: u64 (2) unless the guest has 2-level
 *      paging (id bits 8-9 zero), xen/arch/x86/mm/shadow/multi.c
 *   g  shadow guest va: u64 (2) for 4-level guests (id bit 9), else u32
 *   v  vcpu from one word, domain << 16 | vcpu (1)
 *   V  vcpu from two words, domain then vcpu (2)
 *   d  domain id (1)
 *   l  low 16 bits decimal (0: the word stays current)
 *   D  low 16 bits as a domain id (0)
 *   h  high 16 bits decimal (1)
 *   c  hypercall number, by name, else in hex (1)
 *   _  skipped (1)
 */
#include "catalog-private.h"

static unsigned int field_words(char t, uint32_t event)
{
    switch ( t )
    {
    case 'U': case 'X': case 'V':
        return 2;
    case 'a':
        return event & XA_TRC_64_FLAG ? 2 : 1;
    case 'e':
        return event & 0x300 ? 2 : 1;
    case 'g':
        return event & 0x200 ? 2 : 1;
    case 'l': case 'D':
        return 0;
    default:
        return 1;
    }
}

static void field_value(struct xa_out *o, char t, const struct xa_record *r,
                        unsigned int i, unsigned int n)
{
    uint32_t w = r->extra[i];
    uint64_t v = n == 2 ? xa_u64(r, i) : w;

    switch ( t )
    {
    case 'u': case 'U':
        xa_out_u64(o, v);
        break;
    case 'i':
        xa_out_i64(o, (int32_t)w);
        break;
    case 'v':
        xa_fmt_dv(o, w);
        break;
    case 'V':
        xa_fmt_dom(o, w);
        xa_out_char(o, 'v');
        xa_out_u64(o, r->extra[i + 1]);
        break;
    case 'd':
        xa_fmt_dom(o, w);
        break;
    case 'D':
        xa_fmt_dom(o, w & 0xffff);
        break;
    case 'l':
        xa_out_u64(o, w & 0xffff);
        break;
    case 'h':
        xa_out_u64(o, w >> 16);
        break;
    case 'c':
    {
        const char *name = xa_hypercall_name(w);

        if ( name )
            xa_out_str(o, name);
        else
        {
            xa_out_str(o, "0x");
            xa_out_hex(o, w);
        }
        break;
    }
    default:                    /* x, X, a, e, g */
        xa_out_str(o, "0x");
        xa_out_hex(o, v);
        break;
    }
}

unsigned int xa_fmt_fields(const struct xa_record *r, struct xa_out *o,
                           const char *spec)
{
    const char *p = spec;
    unsigned int i = 0;

    while ( *p )
    {
        const char *key = p;
        unsigned int n;
        char t;

        while ( *p && *p != ':' )
            p++;
        if ( !p[0] || !p[1] )
            break;              /* malformed list: a bug, but not fatal */
        t = p[1];
        n = field_words(t, r->event);
        /* Every type reads at least the current word. */
        if ( i + (n ? n : 1) > r->nr_extra )
            break;
        if ( t != '_' )
        {
            xa_out_char(o, ' ');
            if ( p != key )
            {
                xa_out_mem(o, key, (size_t)(p - key));
                xa_out_char(o, '=');
            }
            field_value(o, t, r, i, n);
        }
        i += n;
        p += 2;
        if ( *p == ' ' )
            p++;
    }
    return i;
}

void xa_fmt_flag(struct xa_out *o, bool set, const char *name)
{
    if ( !set )
        return;
    xa_out_char(o, ' ');
    xa_out_str(o, name);
}

void xa_fmt_kv_name(struct xa_out *o, const char *key, const char *name,
                    uint32_t code)
{
    if ( !name )
    {
        xa_fmt_kv_x(o, key, code);
        return;
    }
    xa_out_char(o, ' ');
    xa_out_str(o, key);
    xa_out_char(o, '=');
    xa_out_str(o, name);
}
