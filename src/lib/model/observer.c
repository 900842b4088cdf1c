/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Observers of the model.  One observer is called directly; several go
 * through a fan-out installed in its place, whose members are set only for
 * the callbacks some observer has, so that the model's test for "anyone
 * listening?" stays one load where nobody is.
 */
#include <string.h>

#include "model-private.h"

#define FOR_EACH(m, cb, ...)                                              \
    do {                                                                  \
        const struct xa_model *m_ = (m);                                  \
        unsigned int i_;                                                  \
        for ( i_ = 0; i_ < m_->nr_obs; i_++ )                             \
            if ( m_->obs_list[i_].cb )                                    \
                m_->obs_list[i_].cb(m_->obs_list[i_].arg, __VA_ARGS__);   \
    } while ( 0 )

static void fan_domain_new(void *arg, unsigned int dom)
{
    FOR_EACH((struct xa_model *)arg, domain_new, dom);
}

static void fan_runstate(void *arg, unsigned int dom, unsigned int vcpu,
                         enum xa_vcpu_rs old_rs, enum xa_vcpu_rs new_rs,
                         uint64_t tsc, uint64_t duration)
{
    FOR_EACH((struct xa_model *)arg, runstate, dom, vcpu, old_rs, new_rs,
             tsc, duration);
}

static void fan_schedule(void *arg, unsigned int dom, unsigned int vcpu,
                         int old_pcpu, unsigned int pcpu, uint64_t tsc)
{
    FOR_EACH((struct xa_model *)arg, schedule, dom, vcpu, old_pcpu, pcpu,
             tsc);
}

static void fan_exit_open(void *arg, unsigned int dom, unsigned int vcpu,
                          uint32_t code, uint64_t tsc, uint64_t rip)
{
    FOR_EACH((struct xa_model *)arg, exit_open, dom, vcpu, code, tsc, rip);
}

static void fan_exit_closed(void *arg, unsigned int dom, unsigned int vcpu,
                            uint32_t code, uint8_t sub_kind, uint64_t sub_val,
                            uint64_t exit_tsc, uint64_t tsc, uint64_t rip)
{
    FOR_EACH((struct xa_model *)arg, exit_closed, dom, vcpu, code, sub_kind,
             sub_val, exit_tsc, tsc, rip);
}

static void fan_exit_done(void *arg, const struct xa_exit_event *ev)
{
    FOR_EACH((struct xa_model *)arg, exit_done, ev);
}

static void fan_cr3(void *arg, const struct xa_cr3_event *ev)
{
    FOR_EACH((struct xa_model *)arg, cr3, ev);
}

static void fan_runstate_done(void *arg, const struct xa_runstate_event *ev)
{
    FOR_EACH((struct xa_model *)arg, runstate_done, ev);
}

static void fan_guest_irq(void *arg, unsigned int dom, unsigned int vcpu,
                          unsigned int vector, uint64_t tsc)
{
    FOR_EACH((struct xa_model *)arg, guest_irq, dom, vcpu, vector, tsc);
}

static void fan_vcpu_kind(void *arg, unsigned int dom, unsigned int vcpu,
                          enum xa_vcpu_kind kind)
{
    FOR_EACH((struct xa_model *)arg, vcpu_kind, dom, vcpu, kind);
}

static void fan_wake(void *arg, unsigned int dom, unsigned int vcpu,
                     unsigned int pcpu, uint64_t tsc)
{
    FOR_EACH((struct xa_model *)arg, wake, dom, vcpu, pcpu, tsc);
}

static void fan_pcpu_run(void *arg, unsigned int pcpu, unsigned int dom,
                         unsigned int vcpu, uint64_t tsc)
{
    FOR_EACH((struct xa_model *)arg, pcpu_run, pcpu, dom, vcpu, tsc);
}

static void fan_pcpu_time(void *arg, unsigned int pcpu, uint64_t tsc,
                          uint64_t duration)
{
    FOR_EACH((struct xa_model *)arg, pcpu_time, pcpu, tsc, duration);
}

static void fan_lost(void *arg, unsigned int pcpu, bool begin, uint64_t tsc,
                     uint64_t duration)
{
    FOR_EACH((struct xa_model *)arg, lost, pcpu, begin, tsc, duration);
}

static void fan_exit_discarded(void *arg, unsigned int dom, unsigned int vcpu,
                               uint64_t tsc)
{
    FOR_EACH((struct xa_model *)arg, exit_discarded, dom, vcpu, tsc);
}

static void fan_anomaly(void *arg, enum xa_diag_kind kind, unsigned int pcpu)
{
    FOR_EACH((struct xa_model *)arg, anomaly, kind, pcpu);
}

static void fan_intr(void *arg, unsigned int dom, unsigned int vcpu,
                     unsigned int vector, uint64_t exit_tsc, uint64_t rip)
{
    FOR_EACH((struct xa_model *)arg, intr, dom, vcpu, vector, exit_tsc, rip);
}

static void fan_w2h(void *arg, unsigned int dom, unsigned int vcpu,
                    unsigned int vector, bool is_wake, uint64_t tsc,
                    uint64_t cycles)
{
    FOR_EACH((struct xa_model *)arg, w2h, dom, vcpu, vector, is_wake, tsc,
             cycles);
}

static void fan_domain_reused(void *arg, unsigned int dom,
                              unsigned int incarnation, uint64_t tsc)
{
    FOR_EACH((struct xa_model *)arg, domain_reused, dom, incarnation, tsc);
}

/* m->obs from the list: the member itself, or the fan-out. */
static void observers_settle(struct xa_model *m)
{
    struct xa_model_observer *o = &m->obs;
    bool any[19] = { false };
    unsigned int i;

    memset(o, 0, sizeof(*o));
    if ( m->nr_obs == 1 )
    {
        *o = m->obs_list[0];
        return;
    }
    for ( i = 0; i < m->nr_obs; i++ )
    {
        const struct xa_model_observer *l = &m->obs_list[i];

        any[0] |= l->domain_new != NULL;
        any[1] |= l->runstate != NULL;
        any[2] |= l->schedule != NULL;
        any[3] |= l->exit_open != NULL;
        any[4] |= l->exit_closed != NULL;
        any[5] |= l->guest_irq != NULL;
        any[6] |= l->vcpu_kind != NULL;
        any[7] |= l->wake != NULL;
        any[8] |= l->pcpu_time != NULL;
        any[9] |= l->lost != NULL;
        any[10] |= l->exit_discarded != NULL;
        any[11] |= l->anomaly != NULL;
        any[12] |= l->pcpu_run != NULL;
        any[13] |= l->exit_done != NULL;
        any[14] |= l->w2h != NULL;
        any[15] |= l->intr != NULL;
        any[16] |= l->runstate_done != NULL;
        any[17] |= l->cr3 != NULL;
        any[18] |= l->domain_reused != NULL;
    }
    o->arg = m;
    o->domain_new = any[0] ? fan_domain_new : NULL;
    o->runstate = any[1] ? fan_runstate : NULL;
    o->schedule = any[2] ? fan_schedule : NULL;
    o->exit_open = any[3] ? fan_exit_open : NULL;
    o->exit_closed = any[4] ? fan_exit_closed : NULL;
    o->guest_irq = any[5] ? fan_guest_irq : NULL;
    o->vcpu_kind = any[6] ? fan_vcpu_kind : NULL;
    o->wake = any[7] ? fan_wake : NULL;
    o->pcpu_time = any[8] ? fan_pcpu_time : NULL;
    o->lost = any[9] ? fan_lost : NULL;
    o->exit_discarded = any[10] ? fan_exit_discarded : NULL;
    o->anomaly = any[11] ? fan_anomaly : NULL;
    o->pcpu_run = any[12] ? fan_pcpu_run : NULL;
    o->exit_done = any[13] ? fan_exit_done : NULL;
    o->w2h = any[14] ? fan_w2h : NULL;
    o->intr = any[15] ? fan_intr : NULL;
    o->runstate_done = any[16] ? fan_runstate_done : NULL;
    o->cr3 = any[17] ? fan_cr3 : NULL;
    o->domain_reused = any[18] ? fan_domain_reused : NULL;
}

void xa_model_set_observer(struct xa_model *m,
                           const struct xa_model_observer *obs)
{
    m->nr_obs = 0;
    if ( obs )
        m->obs_list[m->nr_obs++] = *obs;
    observers_settle(m);
}

int xa_model_add_observer(struct xa_model *m,
                          const struct xa_model_observer *obs)
{
    if ( m->nr_obs == XA_MODEL_MAX_OBSERVERS )
        return XA_E_RANGE;
    m->obs_list[m->nr_obs++] = *obs;
    observers_settle(m);
    return XA_OK;
}
