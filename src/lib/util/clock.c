/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Clock-rate parsing in integer arithmetic, so "62.5M" is exactly
 * 62500000 and "2299.999M" exactly 2299999000.
 */
#include <ctype.h>
#include <strings.h>

#include <xenalyze/clock.h>

int xa_hz_parse(const char *s, uint64_t *hz)
{
    unsigned __int128 num = 0, den = 1, mult = 1, v;
    bool digits = false, dot = false;
    const char *p = s;

    for ( ; *p; p++ )
    {
        if ( isdigit((unsigned char)*p) )
        {
            if ( num > (unsigned __int128)1 << 100 )
                return XA_E_RANGE;
            num = num * 10 + (unsigned int)(*p - '0');
            if ( dot )
            {
                if ( den > (unsigned __int128)1 << 100 )
                    return XA_E_RANGE;
                den *= 10;
            }
            digits = true;
        }
        else if ( *p == '.' && !dot )
            dot = true;
        else
            break;
    }
    if ( !digits )
        return XA_E_INVAL;
    /* An exponent, as upstream's atof() reads "1e9" or "2.4E9". */
    if ( (*p == 'e' || *p == 'E') &&
         isdigit((unsigned char)p[1 + (p[1] == '+')]) )
    {
        unsigned int exp = 0;

        for ( p += 1 + (p[1] == '+'); isdigit((unsigned char)*p); p++ )
            if ( (exp = exp * 10 + (unsigned int)(*p - '0')) > 12 )
                return XA_E_RANGE;
        while ( exp-- )
        {
            if ( num > (unsigned __int128)1 << 100 )
                return XA_E_RANGE;
            num *= 10;
        }
    }

    switch ( tolower((unsigned char)*p) )
    {
    case 'k':
        mult = 1000;
        p++;
        break;
    case 'm':
        mult = 1000000;
        p++;
        break;
    case 'g':
        mult = 1000000000;
        p++;
        break;
    default:
        break;
    }
    if ( *p && strcasecmp(p, "hz") )
        return XA_E_INVAL;

    v = (num * mult + den / 2) / den;
    if ( v < XA_HZ_MIN || v > XA_HZ_MAX )
        return XA_E_RANGE;
    *hz = (uint64_t)v;
    return XA_OK;
}
