/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * System errors carry errno (XA_E_SYS): strerror()'s text through
 * xa_strerror(), the reader's open errors, a directory named as one; and
 * anomalies of no record print without an offset.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <xenalyze/xenalyze.h>

#include "tap.h"

int main(void)
{
    struct xa_reader *rd = NULL;
    struct xa_diag diag;
    struct xa_out o;
    int rc;

    tap_ok(XA_E_SYS(ENOENT) < XA_E_RANGE, "XA_E_SYS is below every XA_E_*");
    TAP_EQ(XA_E_ERRNO(XA_E_SYS(EACCES)), EACCES, "errno back");
    TAP_EQ(XA_E_ERRNO(XA_E_READ), 0, "no errno in XA_E_READ");
    tap_ok(!strcmp(xa_strerror(XA_E_SYS(EACCES)), strerror(EACCES)),
           "xa_strerror(XA_E_SYS(EACCES)) is \"%s\"",
           xa_strerror(XA_E_SYS(EACCES)));
    tap_ok(!strcmp(xa_strerror(XA_E_NOMEM), "out of memory"),
           "XA_E_NOMEM keeps its text");

    xa_diag_init(&diag);
    rc = xa_reader_open("/nonexistent/trace", &diag, &rd);
    TAP_EQ(rc, XA_E_SYS(ENOENT), "missing file: ENOENT");
    rc = xa_reader_open("/", &diag, &rd);
    TAP_EQ(rc, XA_E_SYS(EISDIR), "directory: EISDIR");
    tap_ok(!strcmp(xa_strerror(rc), strerror(EISDIR)), "\"%s\"",
           xa_strerror(rc));

    /* An anomaly of no record (UINT64_MAX) beside one at an offset. */
    xa_diag_add(&diag, XA_DIAG_NEGATIVE_DURATION, UINT64_MAX, 3);
    xa_diag_add(&diag, XA_DIAG_NEGATIVE_DURATION, 0x40, 1);
    xa_out_init(&o, -1);
    xa_report_diag_text(&diag, &o);
    xa_out_char(&o, 0);
    tap_ok(o.buf && strstr(o.buf, "first at (p3), 0x40(p1)") &&
           !strstr(o.buf, "ffffffff"), "no offset printed for none: %s",
           o.buf ? o.buf : "(null)");
    xa_out_dispose(&o);
    return tap_done();
}
