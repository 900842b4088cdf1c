/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef REPORT_PRIVATE_H
#define REPORT_PRIVATE_H

#include <xenalyze/report.h>
#include <xenalyze/stats.h>
#include <xenalyze/summary.h>

extern const struct xa_report_ops xa_report_text;
extern const struct xa_report_ops xa_report_json;
extern const struct xa_report_ops xa_report_csv;

#endif /* REPORT_PRIVATE_H */
