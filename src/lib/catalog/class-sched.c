/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * TRC_SCHED: runstate changes and scheduler events
 * (xen/common/sched/core.c and the schedulers under xen/common/sched/).
 */
#include "catalog-private.h"

static const char *const runstate_names[4] = {
    "running", "runnable", "blocked", "offline",
};

/* xen/common/sched/core.c: trace_runstate_change() */
static void fmt_runstate(const struct xa_record *r, struct xa_out *o,
                         const struct xa_fmt_ctx *ctx)
{
    (void)ctx;
    xa_out_char(o, ' ');
    xa_fmt_dv(o, r->extra[0]);
    xa_out_char(o, ' ');
    xa_out_str(o, runstate_names[(r->event >> 8) & 3]);
    xa_out_str(o, "->");
    xa_out_str(o, runstate_names[(r->event >> 4) & 3]);
}

/* xen/common/sched/core.c: trace_continue_running() */
static void fmt_dv(const struct xa_record *r, struct xa_out *o,
                   const struct xa_fmt_ctx *ctx)
{
    (void)ctx;
    xa_out_char(o, ' ');
    xa_fmt_dv(o, r->extra[0]);
}

static const struct xa_event_desc events[] = {
    { XA_TRC_SCHED_RUNSTATE_CHANGE, "runstate_change", 1, fmt_runstate },
    { XA_TRC_SCHED_CONTINUE_RUNNING, "continue_running", 1, fmt_dv },
};

XA_DEFINE_CLASS(sched, events);
