/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The synthesizer's truth model on hand-made record sequences with
 * answers worked out by hand (docs/synth.md, "Truth semantics").
 */
#include "../../tools/synth/truth.c"

#include "tap.h"

#define RS(old, new) (EV_RUNSTATE | (old) << 8 | (new) << 4)
#define DV(d, v) ((uint32_t)(d) << 16 | (v))

static void rec(struct truth *t, unsigned int cpu, uint32_t ev, uint64_t tsc,
                uint32_t a, uint32_t b)
{
    uint32_t x[5] = { a, b, 0, 0, 0 };

    truth_record(t, cpu, ev, tsc, x, ev == EV_VMEXIT64 ? 3 : 1);
}

static void test_exits(void)
{
    struct truth *t = truth_new();
    struct tvcpu *v;

    rec(t, 0, RS(1, 0), 100, DV(1, 0), 0);
    rec(t, 0, EV_VMEXIT64, 200, 30, 0);
    rec(t, 0, EV_HVM_IOPORT_WRITE, 200, 0x84, 1);
    rec(t, 0, EV_HVM_IOPORT_READ, 200, 0x61, 1);    /* second: ignored */
    truth_record(t, 0, EV_VMENTRY, 250, NULL, 0);
    rec(t, 0, EV_VMEXIT64, 300, 10, 0);             /* dropped: new exit */
    rec(t, 0, EV_VMEXIT64, 320, 1, 0);
    rec(t, 0, EV_HVM_INTR, 320, 0xef, 0);
    rec(t, 0, RS(0, 1), 400, DV(1, 0), 0);          /* preempted: closes */
    truth_record(t, 0, EV_VMENTRY, 450, NULL, 0);   /* no exit open */
    rec(t, 0, RS(1, 0), 500, DV(1, 0), 0);
    rec(t, 0, EV_VMEXIT64, 600, 12, 0);             /* open at the end */
    truth_end(t);

    v = get_vcpu(t, 1, 0);
    TAP_EQ(v->nr_exits, 2, "two exit codes counted");
    qsort(v->exits, v->nr_exits, sizeof(*v->exits), cmp_exit);
    TAP_EQ(v->exits[0].code, 1, "interrupt exit");
    TAP_EQ(v->exits[0].st.cycles, 80, "closed by the change to runnable");
    TAP_EQ(v->exits[0].subs[0].val, 0xef, "vector sub-key");
    TAP_EQ(v->exits[1].code, 30, "I/O exit");
    TAP_EQ(v->exits[1].st.count, 1, "one I/O exit");
    TAP_EQ(v->exits[1].st.cycles, 50, "closed by the entry");
    TAP_EQ(v->exits[1].nr_subs, 1, "one sub-key per exit");
    TAP_EQ(v->exits[1].subs[0].kind, SK_IO_W, "the first one");
    TAP_EQ(v->rs[OUT_RUNNING].count, 2, "two running intervals");
    TAP_EQ(v->rs[OUT_RUNNING].cycles, 300 + 100,
           "the last closed at the pCPU's last record");
    TAP_EQ(v->rs[OUT_PREEMPT].cycles, 100, "runnable after preemption");
    truth_free(t);
}

static void test_runstates(void)
{
    struct truth *t = truth_new();
    struct tvcpu *v, *idle;

    rec(t, 1, RS(2, 1), 50, DV(2, 0), 0);           /* before start */
    rec(t, 1, RS(1, 0), 100, DV(32767, 1), 0);
    rec(t, 1, RS(0, 1), 100, DV(32767, 1), 0);      /* zero length */
    rec(t, 1, RS(1, 0), 100, DV(2, 0), 0);
    rec(t, 1, EV_CONTINUE, 160, DV(2, 0), 0);
    rec(t, 1, RS(0, 2), 200, DV(2, 0), 0);
    rec(t, 1, RS(1, 0), 200, DV(32767, 1), 0);
    rec(t, 0, RS(2, 1), 300, DV(2, 0), 0);          /* woken from cpu 0 */
    rec(t, 1, RS(0, 1), 301, DV(32767, 1), 0);
    rec(t, 1, RS(1, 0), 301, DV(2, 0), 0);
    rec(t, 1, RS(0, 3), 400, DV(2, 0), 0);
    rec(t, 1, RS(3, 1), 500, DV(2, 0), 0);
    truth_end(t);

    v = get_vcpu(t, 2, 0);
    idle = get_vcpu(t, 32767, 1);
    TAP_EQ(v->rs[OUT_RUNNING].count, 3, "continue_running splits running");
    TAP_EQ(v->rs[OUT_RUNNING].cycles, 100 + 99, "running cycles");
    TAP_EQ(v->rs[OUT_RUNNING].min, 40, "running min");
    TAP_EQ(v->rs[OUT_BLOCKED].cycles, 100, "blocked");
    TAP_EQ(v->rs[OUT_WAKE].count, 1, "runnable after blocked is a wake");
    TAP_EQ(v->rs[OUT_WAKE].cycles, 1, "wake latency");
    TAP_EQ(v->rs[OUT_OFFLINE].cycles, 100, "offline");
    TAP_EQ(v->rs[OUT_RUNNABLE].count, 1, "open runnable not counted");
    TAP_EQ(idle->rs[OUT_RUNNABLE].count, 1, "zero-length not counted");
    TAP_EQ(idle->rs[OUT_RUNNABLE].cycles, 100, "idle runnable");
    TAP_EQ(idle->rs[OUT_RUNNING].cycles, 101, "idle running");
    truth_free(t);
}

static void test_lost(void)
{
    struct truth *t = truth_new();
    struct tvcpu *a, *b, *c;
    uint32_t x[4] = { 10, DV(0, 1), 1000, 0 };

    rec(t, 0, RS(1, 0), 100, DV(1, 0), 0);
    rec(t, 1, RS(1, 0), 100, DV(1, 1), 0);
    rec(t, 1, RS(0, 2), 500, DV(1, 1), 0);          /* blocked */
    rec(t, 1, RS(1, 0), 600, DV(1, 2), 0);          /* running on 1 */
    rec(t, 0, EV_VMEXIT64, 900, 30, 0);             /* discarded */
    truth_record(t, 0, EV_LOST, 1500, x, 4);        /* first_tsc 1000 */
    TAP_EQ(truth_nr_lost(t), 2, "current and blocked vCPUs are lost");
    rec(t, 1, RS(2, 1), 1200, DV(1, 1), 0);         /* ignored */
    rec(t, 0, RS(0, 1), 1500, DV(1, 0), 0);         /* a revived first */
    rec(t, 0, RS(1, 0), 1500, DV(1, 1), 0);         /* lost 500 */
    truth_record(t, 0, EV_VMENTRY, 1600, NULL, 0);
    truth_end(t);

    a = get_vcpu(t, 1, 0);
    b = get_vcpu(t, 1, 1);
    c = get_vcpu(t, 1, 2);
    TAP_EQ(a->rs[OUT_RUNNING].cycles, 900, "running ends at first_tsc");
    /* The lost record names d1v0: it runs on pCPU 0 when the gap ends. */
    TAP_EQ(a->rs[OUT_LOST].cycles, 500, "named vCPU lost until the gap ends");
    TAP_EQ(a->nr_exits, 0, "the open exit is discarded");
    TAP_EQ(b->rs[OUT_BLOCKED].cycles, 500, "blocked ends at first_tsc");
    TAP_EQ(b->rs[OUT_LOST].cycles, 500, "lost until running");
    TAP_EQ(b->rs[OUT_RUNNABLE].count, 0, "changes while lost ignored");
    TAP_EQ(b->rs[OUT_RUNNING].cycles, 400 + 100, "running before and after");
    TAP_EQ(c->rs[OUT_LOST].count, 0, "running elsewhere: not lost");
    TAP_EQ(c->rs[OUT_RUNNING].cycles, 600, "closed at its pCPU's last record");
    TAP_EQ(truth_nr_lost(t), 0, "no vCPU still lost");
    truth_free(t);
}

int main(void)
{
    test_exits();
    test_runstates();
    test_lost();
    return tap_done();
}
