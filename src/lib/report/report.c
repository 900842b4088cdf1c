/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <string.h>

#include "report-private.h"

static const struct xa_report_ops *const writers[] = {
    &xa_report_text,
    &xa_report_json,
    &xa_report_csv,
};

const struct xa_report_ops *xa_report_find(const char *name)
{
    unsigned int i;

    for ( i = 0; i < sizeof(writers) / sizeof(writers[0]); i++ )
        if ( !strcmp(writers[i]->name, name) )
            return writers[i];
    return NULL;
}
