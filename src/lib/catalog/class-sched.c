/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * TRC_SCHED: runstate changes, the generic scheduler's verbose records
 * (xen/common/sched/core.c) and the records of each scheduler under
 * xen/common/sched/, whose ids carry the scheduler id in bits 9-11
 * (TRC_SCHED_CLASS_EVT() in xen/include/public/trace.h).
 */
#include "catalog-private.h"

#define XA_TRC_SCHED_ID_SHIFT 9
#define XA_SCHED_EVT(sched, e) \
    (XA_TRC_SCHED_CLASS + ((sched) << XA_TRC_SCHED_ID_SHIFT) + (e))
#define XA_CSCHED(e)    XA_SCHED_EVT(0, e)  /* credit.c */
#define XA_CSCHED2(e)   XA_SCHED_EVT(1, e)  /* credit2.c */
#define XA_RTDS(e)      XA_SCHED_EVT(4, e)  /* rt.c */
#define XA_SNULL(e)     XA_SCHED_EVT(5, e)  /* null.c */
/*
 * ARINC653 (id 3, arinc653.c) emits no records in Xen 4.17, so it has
 * no entries here.
 */

static const char *const runstate_names[4] = {
    "running", "runnable", "blocked", "offline",
};

/* core.c: trace_runstate_change(), states in the id's bits 4-5 and 8-9 */
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

/* Common shapes: a packed vcpu; a domain; a domain and vcpu in two words. */
XA_FMT_FIELDS(fmt_v, ":v")
XA_FMT_FIELDS(fmt_d, ":d")
XA_FMT_FIELDS(fmt_vv, ":V")
/* core.c: do_sched_op() SCHEDOP_shutdown, SCHEDOP_shutdown_code */
XA_FMT_FIELDS(fmt_shutdown, ":V reason:u")
/* core.c: sched_switch_units() and sched_context_switch() */
XA_FMT_FIELDS(fmt_switch, "prev:V next:V")
/*
 * Before Xen 4.8 (acdedf455c) switch_infprev was { dom, runtime } and
 * switch_infnext { dom, wait, slice }, without the vCPU: one word fewer,
 * so the record's size tells the layouts apart.
 */
static void fmt_infprev(const struct xa_record *r, struct xa_out *o,
                        const struct xa_fmt_ctx *ctx)
{
    (void)ctx;
    xa_fmt_fields(r, o, r->nr_extra < 3 ? ":d runtime_ns:u"
                                        : ":V runtime_ns:u");
}

static void fmt_infnext(const struct xa_record *r, struct xa_out *o,
                        const struct xa_fmt_ctx *ctx)
{
    (void)ctx;
    xa_fmt_fields(r, o, r->nr_extra < 4 ? ":d waited_ns:u slice_ns:i"
                                        : ":V waited_ns:u slice_ns:i");
}
XA_FMT_FIELDS(fmt_infcont, ":V runtime_ns:u slice_ns:i")

/* credit.c */
XA_FMT_FIELDS(fmt_cs_account, ":V active:u")
XA_FMT_FIELDS(fmt_cs_stolen, "from_cpu:u :V")
XA_FMT_FIELDS(fmt_cs_picked, ":V cpu:u")
XA_FMT_FIELDS(fmt_cs_cpu, "cpu:u")
XA_FMT_FIELDS(fmt_v_runtime, ":v runtime_ns:u")
XA_FMT_FIELDS(fmt_cs_steal, "peer_cpu:u checked:u")

/*
 * What every scheduler's schedule record says: " cpu=N [rq=N] [tasklet]
 * idle|busy"; rq < 0 when the scheduler has no runqueue ids.
 */
static void fmt_sched_state(struct xa_out *o, unsigned int cpu, int rq,
                            bool tasklet, bool idle)
{
    xa_fmt_kv_u(o, "cpu", cpu);
    if ( rq >= 0 )
        xa_fmt_kv_u(o, "rq", (unsigned int)rq);
    xa_fmt_flag(o, tasklet, "tasklet");
    xa_out_str(o, idle ? " idle" : " busy");
}

/* credit.c: csched_schedule(), { cpu:16, tasklet:8, idle:8 } */
static void fmt_cs_schedule(const struct xa_record *r, struct xa_out *o,
                            const struct xa_fmt_ctx *ctx)
{
    uint32_t w = r->extra[0];

    (void)ctx;
    fmt_sched_state(o, w & 0xffff, -1, (w >> 16) & 0xff, w >> 24);
}

/* credit2.c */
XA_FMT_FIELDS(fmt_c2_pos, ":v pos:u")
XA_FMT_FIELDS(fmt_c2_tickle_check, ":v credit:i score:i")
XA_FMT_FIELDS(fmt_c2_cpu, "cpu:l")
XA_FMT_FIELDS(fmt_c2_reset, ":v credit_start:i credit_end:i")
XA_FMT_FIELDS(fmt_c2_assign, ":v rq:l")
XA_FMT_FIELDS(fmt_c2_tickle_new, ":v cpu:u credit:i")
XA_FMT_FIELDS(fmt_c2_max_weight, "rq:l max_weight:h")
XA_FMT_FIELDS(fmt_c2_migrate, ":v rq:l to_rq:h")
XA_FMT_FIELDS(fmt_c2_load_check, "lrq:l orq:h delta:u")
XA_FMT_FIELDS(fmt_c2_load_balance, "lrq_avgload:U orq_avgload:U lrq:l orq:h")
XA_FMT_FIELDS(fmt_c2_picked, "b_avgload:U :v rq:l cpu:h")
XA_FMT_FIELDS(fmt_c2_candidate, ":v tickled_cpu:i credit:i")

/* credit2.c: burn_credits(); budget is INT_MIN for uncapped domains */
static void fmt_c2_burn(const struct xa_record *r, struct xa_out *o,
                        const struct xa_fmt_ctx *ctx)
{
    (void)ctx;
    xa_fmt_fields(r, o, ":v credit:i");
    if ( r->extra[2] != 0x80000000u )
    {
        xa_out_str(o, " budget=");
        xa_out_i64(o, (int32_t)r->extra[2]);
    }
    xa_out_str(o, " delta=");
    xa_out_i64(o, (int32_t)r->extra[3]);
}

/*
 * A credit2 load average, fixed point with `shift` fractional bits:
 * " key=<raw>(<percent with 3 decimals>%)".
 */
static void fmt_c2_avgload(struct xa_out *o, const char *key, uint64_t load,
                           uint32_t shift)
{
    xa_fmt_kv_u(o, key, load);
    if ( shift == 0 || shift >= 64 || load > UINT64_MAX / 100000u - 1 )
        return;
    load = (load * 100000u + (1ull << (shift - 1))) >> shift;
    xa_out_char(o, '(');
    xa_out_u64(o, load / 1000u);
    xa_out_char(o, '.');
    xa_out_u64z(o, load % 1000u, 3);
    xa_out_str(o, "%)");
}

/* credit2.c: update_runq_load(), { u64 avg, b_avg; load:16, id:8, shift:8 } */
static void fmt_c2_rq_load(const struct xa_record *r, struct xa_out *o,
                           const struct xa_fmt_ctx *ctx)
{
    uint32_t w = r->extra[4];

    (void)ctx;
    xa_fmt_kv_u(o, "rq", (w >> 16) & 0xff);
    xa_fmt_kv_u(o, "load", w & 0xffff);
    fmt_c2_avgload(o, "avgload", xa_u64(r, 0), w >> 24);
    fmt_c2_avgload(o, "b_avgload", xa_u64(r, 2), w >> 24);
}

/* credit2.c: update_svc_load(), { u64 avg; unit:16, dom:16; shift } */
static void fmt_c2_unit_load(const struct xa_record *r, struct xa_out *o,
                             const struct xa_fmt_ctx *ctx)
{
    (void)ctx;
    xa_out_char(o, ' ');
    xa_fmt_dv(o, r->extra[2]);
    fmt_c2_avgload(o, "load", xa_u64(r, 0), r->extra[3]);
}

/* credit2.c: csched2_schedule(), { cpu:16, rq:16; 4 flag bytes } */
static void fmt_c2_schedule(const struct xa_record *r, struct xa_out *o,
                            const struct xa_fmt_ctx *ctx)
{
    uint32_t f = r->extra[1];

    (void)ctx;
    fmt_sched_state(o, r->extra[0] & 0xffff, (int)(r->extra[0] >> 16),
                    f & 0xff, (f >> 8) & 0xff);
    xa_fmt_flag(o, (f >> 16) & 0xff, "smt_idle");
    xa_fmt_flag(o, (f >> 24) & 0xff, "tickled");
}

/* rt.c: packed structs */
XA_FMT_FIELDS(fmt_rt_pick, ":v deadline:U budget:U")

/*
 * rt.c: burn_budget(), { unit:16, dom:16; u64 budget; delta; priority;
 * has_extratime }.  Before Xen 4.10 (463b958317) it ended at delta (4
 * words).  From 4.10 to 4.17 has_extratime was a bool in a packed
 * struct of 21 bytes, its word's other 3 bytes whatever followed it on
 * Xen's stack (6835f93573 made it a u32 in 4.18): only its low byte
 * counts.
 */
static void fmt_rt_burn(const struct xa_record *r, struct xa_out *o,
                        const struct xa_fmt_ctx *ctx)
{
    unsigned int i = xa_fmt_fields(r, o, ":v budget:U delta:i priority:u");

    (void)ctx;
    if ( i < r->nr_extra )
        xa_fmt_kv_u(o, "extratime", r->extra[i] & 0xff);
}

/*
 * rt.c: rt_update_deadline(), { unit:16, dom:16; priority; u64 deadline,
 * budget }; before Xen 4.10 (463b958317) without priority (5 words).
 */
static void fmt_rt_repl(const struct xa_record *r, struct xa_out *o,
                        const struct xa_fmt_ctx *ctx)
{
    (void)ctx;
    xa_fmt_fields(r, o, r->nr_extra < 6 ? ":v deadline:U budget:U"
                                        : ":v priority:u deadline:U budget:U");
}

/* rt.c: rt_schedule(), { cpu:16, tasklet:8, tickled:4, idle:4 } */
static void fmt_rt_schedule(const struct xa_record *r, struct xa_out *o,
                            const struct xa_fmt_ctx *ctx)
{
    uint32_t w = r->extra[0];

    (void)ctx;
    fmt_sched_state(o, w & 0xffff, -1, (w >> 16) & 0xff, w >> 28);
    xa_fmt_flag(o, (w >> 24) & 0xf, "tickled");
}

/* null.c */
XA_FMT_FIELDS(fmt_null_cpu, ":v cpu:u")
XA_FMT_FIELDS(fmt_null_migrate, ":v cpu:l new_cpu:h")

/* null.c: null_schedule(), { tasklet, cpu; int16 unit, dom } */
static void fmt_null_schedule(const struct xa_record *r, struct xa_out *o,
                              const struct xa_fmt_ctx *ctx)
{
    uint32_t w = r->extra[0];

    (void)ctx;
    fmt_sched_state(o, w >> 16, -1, w & 0xffff,
                    r->nr_extra < 2 || r->extra[1] == 0xffffffffu);
    if ( r->nr_extra >= 2 && r->extra[1] != 0xffffffffu )
    {
        xa_out_char(o, ' ');
        xa_fmt_dv(o, r->extra[1]);
    }
}

static const struct xa_event_desc events[] = {
    /* core.c */
    { XA_TRC_SCHED_RUNSTATE_CHANGE, "runstate_change", 1, fmt_runstate },
    { XA_TRC_SCHED_CONTINUE_RUNNING, "continue_running", 1, fmt_v },
    { XA_TRC_SCHED_VERBOSE + 1, "sched_dom_add", 1, fmt_d },
    { XA_TRC_SCHED_VERBOSE + 2, "sched_dom_rem", 1, fmt_d },
    { XA_TRC_SCHED_VERBOSE + 3, "vcpu_sleep", 2, fmt_vv },
    { XA_TRC_SCHED_VERBOSE + 4, "vcpu_wake", 2, fmt_vv },
    { XA_TRC_SCHED_VERBOSE + 5, "vcpu_yield", 2, fmt_vv },
    { XA_TRC_SCHED_VERBOSE + 6, "vcpu_block", 2, fmt_vv },
    { XA_TRC_SCHED_VERBOSE + 7, "sched_shutdown", 3, fmt_shutdown },
    { XA_TRC_SCHED_VERBOSE + 8, "sched_ctl", 0, NULL },
    { XA_TRC_SCHED_VERBOSE + 9, "sched_adjdom", 1, fmt_d },
    { XA_TRC_SCHED_SWITCH, "sched_switch", 4, fmt_switch },
    { XA_TRC_SCHED_VERBOSE + 11, "s_timer_fn", 0, NULL },
    { XA_TRC_SCHED_VERBOSE + 12, "t_timer_fn", 0, NULL },
    { XA_TRC_SCHED_VERBOSE + 13, "dom_timer_fn", 0, NULL },
    { XA_TRC_SCHED_SWITCH_INFPREV, "switch_infprev", 2, fmt_infprev },
    { XA_TRC_SCHED_SWITCH_INFNEXT, "switch_infnext", 3, fmt_infnext },
    { XA_TRC_SCHED_VERBOSE + 16, "sched_shutdown_code", 3, fmt_shutdown },
    { XA_TRC_SCHED_VERBOSE + 17, "switch_infcont", 4, fmt_infcont },

    /* credit.c: TRC_CSCHED_* */
    { XA_CSCHED(1), "csched:sched_tasklet", 0, NULL },
    { XA_CSCHED(2), "csched:account_start", 3, fmt_cs_account },
    { XA_CSCHED(3), "csched:account_stop", 3, fmt_cs_account },
    { XA_CSCHED(4), "csched:stolen_vcpu", 3, fmt_cs_stolen },
    { XA_CSCHED(5), "csched:pick_cpu", 3, fmt_cs_picked },
    { XA_CSCHED(6), "csched:tickle", 1, fmt_cs_cpu },
    { XA_CSCHED(7), "csched:boost_start", 2, fmt_vv },
    { XA_CSCHED(8), "csched:boost_end", 2, fmt_vv },
    { XA_CSCHED(9), "csched:schedule", 1, fmt_cs_schedule },
    { XA_CSCHED(10), "csched:ratelimit", 2, fmt_v_runtime },
    { XA_CSCHED(11), "csched:steal_check", 2, fmt_cs_steal },

    /* credit2.c: TRC_CSCHED2_*, which skip event 18 */
    { XA_CSCHED2(1), "csched2:tick", 0, NULL },
    { XA_CSCHED2(2), "csched2:runq_insert", 2, fmt_c2_pos },
    { XA_CSCHED2(3), "csched2:burn_credits", 4, fmt_c2_burn },
    { XA_CSCHED2(4), "csched2:credit_add", 0, NULL },
    { XA_CSCHED2(5), "csched2:tickle_check", 3, fmt_c2_tickle_check },
    { XA_CSCHED2(6), "csched2:runq_tickle", 1, fmt_c2_cpu },
    { XA_CSCHED2(7), "csched2:reset_credits", 3, fmt_c2_reset },
    { XA_CSCHED2(8), "csched2:sched_tasklet", 0, NULL },
    { XA_CSCHED2(9), "csched2:update_load", 0, NULL },
    { XA_CSCHED2(10), "csched2:runq_assign", 2, fmt_c2_assign },
    { XA_CSCHED2(11), "csched2:update_vcpu_load", 4, fmt_c2_unit_load },
    { XA_CSCHED2(12), "csched2:update_rq_load", 5, fmt_c2_rq_load },
    { XA_CSCHED2(13), "csched2:runq_tickle_new", 3, fmt_c2_tickle_new },
    { XA_CSCHED2(14), "csched2:update_max_weight", 1, fmt_c2_max_weight },
    { XA_CSCHED2(15), "csched2:migrate", 2, fmt_c2_migrate },
    { XA_CSCHED2(16), "csched2:load_balance_check", 2, fmt_c2_load_check },
    { XA_CSCHED2(17), "csched2:load_balance_begin", 5, fmt_c2_load_balance },
    { XA_CSCHED2(19), "csched2:picked_cpu", 4, fmt_c2_picked },
    { XA_CSCHED2(20), "csched2:runq_candidate", 3, fmt_c2_candidate },
    { XA_CSCHED2(21), "csched2:schedule", 2, fmt_c2_schedule },
    { XA_CSCHED2(22), "csched2:ratelimit", 2, fmt_v_runtime },
    { XA_CSCHED2(23), "csched2:runq_cand_check", 1, fmt_v },

    /* rt.c: TRC_RTDS_* */
    { XA_RTDS(1), "rtds:runq_tickle", 1, fmt_c2_cpu },
    { XA_RTDS(2), "rtds:runq_pick", 5, fmt_rt_pick },
    { XA_RTDS(3), "rtds:burn_budget", 4, fmt_rt_burn },
    { XA_RTDS(4), "rtds:repl_budget", 5, fmt_rt_repl },
    { XA_RTDS(5), "rtds:sched_tasklet", 0, NULL },
    { XA_RTDS(6), "rtds:schedule", 1, fmt_rt_schedule },

    /* null.c: TRC_SNULL_* */
    { XA_SNULL(1), "null:picked_cpu", 2, fmt_null_cpu },
    { XA_SNULL(2), "null:vcpu_assign", 2, fmt_null_cpu },
    { XA_SNULL(3), "null:vcpu_deassign", 2, fmt_null_cpu },
    { XA_SNULL(4), "null:migrate", 2, fmt_null_migrate },
    { XA_SNULL(5), "null:schedule", 2, fmt_null_schedule },
    { XA_SNULL(6), "null:sched_tasklet", 0, NULL },
};

XA_DEFINE_CLASS(sched, events);
