/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libxenalyze: read, merge, decode and analyse xentrace files.
 */
#ifndef XA_XENALYZE_H
#define XA_XENALYZE_H

#include <xenalyze/common.h>
#include <xenalyze/out.h>
#include <xenalyze/clock.h>
#include <xenalyze/diag.h>
#include <xenalyze/filter.h>
#include <xenalyze/trace.h>
#include <xenalyze/reader.h>
#include <xenalyze/merge.h>
#include <xenalyze/catalog.h>
#include <xenalyze/model.h>
#include <xenalyze/stats.h>
#include <xenalyze/summary.h>
#include <xenalyze/diff.h>
#include <xenalyze/slowest.h>
#include <xenalyze/report.h>
#include <xenalyze/plots.h>
#include <xenalyze/pipeline.h>
#include <xenalyze/timeline.h>
#include <xenalyze/exits.h>
#include <xenalyze/json.h>
#include <xenalyze/writer.h>
#include <xenalyze/symbols.h>
#include <xenalyze/sum-merge.h>

#endif /* XA_XENALYZE_H */
