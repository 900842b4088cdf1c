/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * TRC_GEN: records the trace machinery itself writes
 * (xen/common/trace.c, tools/xentrace/xentrace.c).
 */
#include "catalog-private.h"

/* xen/common/trace.c: insert_lost_records() */
static void fmt_lost(const struct xa_record *r, struct xa_out *o,
                     const struct xa_fmt_ctx *ctx)
{
    (void)ctx;
    xa_fmt_kv_u(o, "count", r->extra[0]);
    xa_out_str(o, " by ");
    xa_fmt_dv(o, (r->extra[1] & 0xffff) << 16 | r->extra[1] >> 16);
    xa_fmt_kv_u(o, "first_tsc", xa_u64(r, 2));
}

/* tools/xentrace/xentrace.c: struct cpu_change_record */
static void fmt_cpu_change(const struct xa_record *r, struct xa_out *o,
                           const struct xa_fmt_ctx *ctx)
{
    (void)ctx;
    xa_fmt_kv_u(o, "cpu", r->extra[0]);
    xa_fmt_kv_u(o, "window_size", r->extra[1]);
}

/* xen/common/trace.c: insert_wrap_record() pads to the buffer's end. */
static void fmt_wrap(const struct xa_record *r, struct xa_out *o,
                     const struct xa_fmt_ctx *ctx)
{
    (void)ctx;
    xa_fmt_kv_u(o, "pad_bytes", 4u + (r->has_tsc ? 8u : 0u) +
                4u * r->nr_extra);
}

/* tools/xentrace/xentrace.c (patched): the clock rate, once at the head */
XA_FMT_FIELDS(fmt_clock, "khz:u")

static const struct xa_event_desc events[] = {
    { XA_TRC_LOST_RECORDS, "lost_records", 4, fmt_lost },
    { XA_TRC_TRACE_WRAP_BUFFER, "wrap_buffer", 0, fmt_wrap },
    { XA_TRC_TRACE_CPU_CHANGE, "cpu_change", 2, fmt_cpu_change },
    { XA_TRC_TRACE_CLOCK_KHZ, "trace_clock", 1, fmt_clock },
};

XA_DEFINE_CLASS(gen, events);
