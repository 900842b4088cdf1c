/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * x86 HVM guest page tables: upstream xenalyze's cr3 tracking
 * (--with-cr3-enumeration, --scatterplot-cr3-switch, --interval-cr3-*),
 * as its tools/xentrace/xenalyze.c describes it:
 *  - a CR3 write (handler record CR_WRITE, cr 3) of another value than
 *    the loaded one switches the vCPU to it when its exit closes, at the
 *    time of the record that closes it; the same value is a flush;
 *  - the value left counts the time since the switch to it (total);
 *  - while a value is loaded, the guest's time from an entry that closed
 *    an exit to the next exit counts as guest, each exit's as hv (the
 *    CR3 write's own exit under the new value), and the exit under its
 *    kind (a CR3 write: cr3, under the old value; else by the last
 *    handler record seen in an exit: vmcall, intr, hlt, other);
 *  - a lost-records record switches the CPU's vCPU to none.
 * Values are kept per domain, numbered trace-wide in the order first
 * loaded; each is charged to the memory budget, and one that does not
 * fit is not tracked (its loads count as untracked, MEMORY_BUDGET).
 */
#include <stdlib.h>

#include "model-private.h"

#define H_CR_WRITE 0x09
#define H_INTR 0x0f
#define H_VMCALL 0x12
#define H_HLT 0x13

static const char *const short_names[XA_SHORT_NR] = {
    "emulate", "unsync", "fixup", "mmio", "propagate", "cr3", "vmcall",
    "intr", "hlt", "other",
};

const char *xa_short_kind_name(enum xa_short_kind k)
{
    return (unsigned int)k < XA_SHORT_NR ? short_names[k] : NULL;
}

/* Upstream's update_cycles(): what takes no time is not counted. */
static inline void cyc_add(struct xa_sum_cyc *c, uint64_t n)
{
    if ( n )
    {
        c->count++;
        c->cycles += n;
    }
}

static void tell(struct xa_model *m, const struct domain *d,
                 unsigned int vcpu, enum xa_cr3_what what, int id,
                 uint64_t tsc, uint64_t n, unsigned int kind)
{
    const struct xa_sum_cr3 *c = id >= 0 ? &d->cr3.v[id] : NULL;
    struct xa_cr3_event ev = {
        .what = what, .dom = d->id, .vcpu = vcpu,
        .id = c ? (int)c->id : -1, .gmfn = c ? c->gmfn : 0, .tsc = tsc,
        .first_tsc = c ? c->first_tsc : 0, .cycles = n, .short_kind = kind,
    };

    m->obs.cr3(m->obs.arg, &ev);
}

/* gmfn's entry in t's index (val: its slot + 1), or the free one for it. */
static struct xa_idx_ent *cr3_slot(struct cr3_tab *t, uint64_t gmfn,
                                   uint32_t h)
{
    struct xa_idx_ent *e;

    for ( e = xa_idx_first(&t->idx, h); e->val; e = xa_idx_next(&t->idx, e) )
        if ( e->hash == h && t->v[e->val - 1].gmfn == gmfn )
            break;
    return e;
}

/* The domain's entry of gmfn, made if new; -1 when past the budget. */
static int cr3_get(struct xa_model *m, struct domain *d, uint64_t gmfn,
                   uint64_t tsc, unsigned int cpu)
{
    struct cr3_tab *t = &d->cr3;
    uint32_t h = xa_hash32(gmfn);
    struct xa_idx_ent *e;
    struct xa_sum_cr3 *c;

    if ( xa_idx_reserve(&t->idx) )
        return -1;
    if ( (e = cr3_slot(t, gmfn, h))->val )
        return (int)e->val - 1;
    if ( t->nr == INT32_MAX ||
         !model_charge(m, CR3_COST + m->opts.cr3_observer_bytes, cpu) )
        return -1;
    if ( t->nr == t->cap )
    {
        unsigned int cap = t->cap ? t->cap * 2 : 16;
        struct xa_sum_cr3 *nv = realloc(t->v, cap * sizeof(*nv));
        uint8_t *nu;

        if ( !nv )
            return -1;
        t->v = nv;
        nu = realloc(t->unpinned, cap);
        if ( !nu )
            return -1;
        t->unpinned = nu;
        t->cap = cap;
    }
    c = &t->v[t->nr];
    *c = (struct xa_sum_cr3){ .gmfn = gmfn, .id = m->cr3_ids++,
                              .first_tsc = tsc };
    t->unpinned[t->nr] = 0;
    e->val = ++t->nr;
    e->hash = h;
    t->idx.nr++;
    if ( OBS(m, cr3) && d->id != XA_DOM_DEFAULT )
        tell(m, d, 0, XA_CR3_NEW, (int)t->nr - 1, tsc, 0, 0);
    return (int)t->nr - 1;
}

/* Upstream's cr3_switch(): at tsc, the exit's at exit_tsc. */
static void cr3_switch(struct xa_model *m, struct vcpu *v, uint64_t val,
                       uint64_t tsc, uint64_t exit_tsc, unsigned int cpu)
{
    struct cr3_tab *t = &v->d->cr3;
    uint64_t gmfn = val >> 12;

    if ( !v->arch_init )
        return;
    if ( v->cr3_cur >= 0 )
    {
        struct xa_sum_cr3 *c = &t->v[v->cr3_cur];
        uint64_t n = tsc > v->cr3_start ? tsc - v->cr3_start : 0;

        if ( win_in(m, tsc) )
            cyc_add(&c->total, n);
        c->last_tsc = tsc;
        if ( n && OBS(m, cr3) )
            tell(m, v->d, v->id, XA_CR3_TIME, v->cr3_cur, tsc, n, 0);
    }
    v->cr3_cur = -1;
    if ( gmfn )
    {
        int i = cr3_get(m, v->d, gmfn, tsc, cpu);

        if ( i >= 0 )
        {
            t->unpinned[i] = 0;
            v->cr3_start = tsc;
            t->v[i].switches++;
            v->cr3_cur = i;
        }
        else
            t->untracked++;
    }
    if ( OBS(m, cr3) )
    {
        struct xa_cr3_event ev = {
            .what = XA_CR3_SWITCH, .dom = v->d->id, .vcpu = v->id,
            .id = v->cr3_cur >= 0 ? (int)t->v[v->cr3_cur].id : -1,
            .gmfn = gmfn, .tsc = exit_tsc,
        };

        m->obs.cr3(m->obs.arg, &ev);
    }
    v->cr3_val = val;
}

void cr3_exit(struct xa_model *m, struct vcpu *v, uint64_t tsc)
{
    if ( v->cr3_cur >= 0 && v->cr3_entry_tsc && tsc >= v->cr3_entry_tsc )
    {
        struct xa_sum_cr3 *c = &v->d->cr3.v[v->cr3_cur];
        uint64_t n = tsc - v->cr3_entry_tsc;

        if ( win_in(m, tsc) )
        {
            cyc_add(&c->guest, n);
            c->run_time += n;
        }
    }
    v->cr3_entry_tsc = 0;
}

void hvm_short_note(struct vcpu *v, const struct xa_record *rec)
{
    uint32_t id = (rec->event - XA_TRC_HVM_HANDLER) & 0xfff;
    bool is64 = rec->event & XA_TRC_64_FLAG;

    /* Upstream handles the injection records apart. */
    switch ( id & ~0x100u )
    {
    case 0x02: case 0x03: case 0x04: case 0x05: case 0x20:
        return;
    default:
        break;
    }
    v->short_handler = id;
    if ( (id & ~0x100u) == H_CR_WRITE && rec->nr_extra >= 2 )
    {
        v->cr3_write = rec->extra[0] == 3;
        v->cr3_write_val = rec->extra[1];
        if ( is64 && rec->nr_extra >= 3 )
            v->cr3_write_val |= (uint64_t)rec->extra[2] << 32;
    }
}

unsigned int hvm_short_kind(const struct vcpu *v)
{
    if ( v->cr3_write )
        return XA_SHORT_CR3;
    switch ( v->short_handler )
    {
    case H_VMCALL:
        return XA_SHORT_VMCALL;
    case H_INTR:
        return XA_SHORT_INTR;
    case H_HLT:
        return XA_SHORT_HLT;
    default:
        return XA_SHORT_OTHER;
    }
}

static void kind_add(struct xa_model *m, struct vcpu *v, unsigned int k,
                     uint64_t n, uint64_t tsc)
{
    if ( v->cr3_cur < 0 )
        return;
    if ( win_in(m, tsc) )
        cyc_add(&v->d->cr3.v[v->cr3_cur].kind[k], n);
    if ( n && OBS(m, cr3) )
        tell(m, v->d, v->id, XA_CR3_KIND, v->cr3_cur, tsc, n, k);
}

void cr3_close(struct xa_model *m, struct vcpu *v, uint64_t tsc,
               unsigned int cpu)
{
    uint64_t arc = tsc >= v->exit_tsc ? tsc - v->exit_tsc : 0;

    /* A CR3 write counts under the value it leaves, its time in Xen
     * under the one it loads. */
    if ( v->cr3_write )
    {
        bool flush = v->cr3_val && v->cr3_write_val == v->cr3_val;

        if ( flush && v->cr3_cur >= 0 )
            v->d->cr3.v[v->cr3_cur].flushes++;
        kind_add(m, v, XA_SHORT_CR3, arc, v->exit_tsc);
        if ( !flush )
            cr3_switch(m, v, v->cr3_write_val, tsc, v->exit_tsc, cpu);
    }
    if ( arc )
    {
        if ( !v->cr3_write )
            kind_add(m, v, hvm_short_kind(v), arc, v->exit_tsc);
        if ( v->cr3_cur >= 0 && win_in(m, v->exit_tsc) )
        {
            struct xa_sum_cr3 *c = &v->d->cr3.v[v->cr3_cur];

            c->run_time += arc;
            cyc_add(&c->hv, arc);
        }
    }
}

void cr3_lost(struct xa_model *m, struct vcpu *v, uint64_t tsc,
              unsigned int cpu)
{
    cr3_switch(m, v, 0, tsc, v->exit_open ? v->exit_tsc : 0, cpu);
}

void cr3_unpin(struct vcpu *v, uint64_t gmfn)
{
    struct cr3_tab *t = &v->d->cr3;
    struct xa_idx_ent *e;

    if ( !t->nr || !(e = cr3_slot(t, gmfn, xa_hash32(gmfn)))->val )
        return;
    t->unpinned[e->val - 1] = 1;
    t->v[e->val - 1].unpins++;
}

void cr3_tab_free(struct cr3_tab *t)
{
    free(t->v);
    free(t->unpinned);
    xa_idx_free(&t->idx);
}
