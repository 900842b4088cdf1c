/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <string.h>

#include <xenalyze/common.h>

const char *xa_strerror(int rc)
{
    switch ( rc )
    {
    case XA_OK:
        return "success";
    case XA_END:
        return "end of stream";
    case XA_AGAIN:
        return "nothing more for now";
#define XA_ERR(name, val, str) case XA_E_##name: return str;
    XA_ERRORS
#undef XA_ERR
    default:
        if ( XA_E_ERRNO(rc) > 0 )
            return strerror(XA_E_ERRNO(rc));
        return "unknown error";
    }
}
