/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Dump: one line per record, formatted by hand (no printf in the loop).
 */
#include <xenalyze/clock.h>
#include <xenalyze/filter.h>
#include <xenalyze/merge.h>
#include <xenalyze/report.h>
#include <xenalyze/symbols.h>
#include <xenalyze/trace.h>

void xa_dump_init(struct xa_dump *d, const struct xa_catalog *cat,
                  uint64_t hz)
{
    d->cat = cat;
    d->hz = hz;
    d->first_tsc = 0;
    d->have_first = false;
    d->show_tsc = false;
    d->hz_given = false;
    d->hz_from_trace = false;
    d->filter = NULL;
    d->symbols = NULL;
}

void xa_dump_raw(struct xa_out *o, const char *prefix,
                 const struct xa_record *rec)
{
    uint32_t w[3 + XA_EXTRA_MAX];
    unsigned int n = 0, i, nx = rec->nr_extra;
    bool tsc = rec->has_tsc != 0;

    if ( nx > XA_EXTRA_MAX )
        nx = XA_EXTRA_MAX;
    w[n++] = (rec->event & 0x0fffffffu) | (uint32_t)nx << 28 |
             (uint32_t)tsc << 31;
    if ( tsc )
    {
        w[n++] = (uint32_t)rec->tsc;
        w[n++] = (uint32_t)(rec->tsc >> 32);
    }
    for ( i = 0; i < nx; i++ )
        w[n++] = rec->extra[i];
    xa_out_str(o, prefix);
    xa_out_printf(o, " %7x %u ", (unsigned int)rec->event, nx);
    if ( tsc )
        xa_out_printf(o, "%14llu [", (unsigned long long)rec->tsc);
    else
        xa_out_str(o, "             - [");
    for ( i = 0; i < 7; i++ )
        if ( i < nx )
            xa_out_printf(o, " %8x", (unsigned int)rec->extra[i]);
        else
            xa_out_str(o, "         ");
    xa_out_str(o, " ] | ");
    for ( i = 0; i < 8; i++ )
        if ( i < n )
            xa_out_printf(o, " %08x", (unsigned int)w[i]);
        else
            xa_out_str(o, "         ");
    xa_out_str(o, " |\n");
}

static void dump_time(const struct xa_dump *d, const struct xa_record *rec,
                      struct xa_out *o)
{
    uint64_t ns, delta;
    bool neg = false;

    if ( !d->have_first )
    {
        xa_out_str(o, "             ");
        return;
    }
    if ( rec->tsc >= d->first_tsc )
        delta = rec->tsc - d->first_tsc;
    else
    {
        delta = d->first_tsc - rec->tsc;
        neg = true;
    }
    /* Two 64-bit divisions rather than a 128-bit one: rem * 10^9 < 2^64. */
    if ( d->hz <= 18000000000ull )
    {
        uint64_t secs = delta / d->hz, rem = delta % d->hz;

        ns = secs * 1000000000u + rem * 1000000000u / d->hz;
    }
    else
        ns = xa_ticks_to_ns(delta, d->hz);
    if ( neg )
    {
        xa_out_char(o, '-');
        xa_out_u64w(o, ns / 1000000000u, 2);
    }
    else
        xa_out_u64w(o, ns / 1000000000u, 3);
    xa_out_char(o, '.');
    xa_out_u64z(o, ns % 1000000000u, 9);
}

void xa_dump_record(struct xa_dump *d, const struct xa_record *rec,
                    const struct xa_model *m, struct xa_out *o)
{
    unsigned int dom, vcpu;

    xa_dump_record_as(d, rec, xa_model_pcpu_current(m, rec->cpu, &dom, &vcpu)
                              ? dom << 16 | vcpu : XA_DUMP_NO_VCPU,
                      xa_model_fmt_ctx(m), o);
}

bool xa_dump_advance(struct xa_dump *d, const struct xa_record *rec)
{
    if ( rec->event == XA_EV_CPU_END )
        return false;
    if ( rec->event == XA_TRC_ARM_CLOCK && !d->hz_given &&
         !d->hz_from_trace && rec->nr_extra >= 2 )
    {
        uint64_t hz = rec->extra[0] | ((uint64_t)rec->extra[1] << 32);

        if ( hz >= XA_HZ_MIN && hz <= XA_HZ_MAX )
        {
            d->hz = hz;
            d->hz_from_trace = true;
        }
    }
    if ( !d->have_first && rec->tsc )
    {
        d->first_tsc = rec->tsc;
        d->have_first = true;
    }
    return true;
}

void xa_dump_record_as(struct xa_dump *d, const struct xa_record *rec,
                       uint32_t current, const struct xa_fmt_ctx *fmt,
                       struct xa_out *o)
{
    const struct xa_event_desc *desc;
    size_t name_len = 0;

    if ( !xa_dump_advance(d, rec) )
        return;
    desc = xa_catalog_lookup_len(d->cat, rec->event, &name_len);
    if ( d->show_tsc )
    {
        xa_out_u64w(o, rec->tsc, 20);
        xa_out_char(o, ' ');
    }
    dump_time(d, rec, o);
    xa_out_str(o, " p");
    xa_out_u64(o, rec->cpu);
    if ( current != XA_DUMP_NO_VCPU )
    {
        xa_out_str(o, " d");
        xa_out_u64(o, current >> 16);
        xa_out_char(o, 'v');
        xa_out_u64(o, current & 0xffff);
    }
    else
        xa_out_str(o, " d?v?");
    xa_out_char(o, ' ');
    if ( desc )
    {
        xa_out_mem(o, desc->name, name_len);
        if ( rec->nr_extra < desc->min_extra )
            xa_out_str(o, " [short]");
    }
    else
    {
        xa_out_str(o, "UNKNOWN(0x");
        xa_out_hexw(o, rec->event, 8);
        xa_out_char(o, ')');
    }
    xa_catalog_format_desc(desc, rec, o, fmt);
    if ( d->symbols )
    {
        uint64_t rip, off;
        const char *name;

        if ( xa_record_guest_rip(rec, &rip) &&
             (name = xa_symbols_find(d->symbols, rip, &off)) )
        {
            xa_out_str(o, " (");
            xa_out_str(o, name);
            xa_out_str(o, " +");
            xa_out_hex(o, off);
            xa_out_char(o, ')');
        }
    }
    xa_out_char(o, '\n');
}

void xa_report_diag_text(const struct xa_diag *diag, struct xa_out *o)
{
    unsigned int i, j;
    bool any = false;

    for ( i = 0; i < XA_DIAG_NR; i++ )
    {
        const struct xa_diag_entry *e = &diag->e[i];

        if ( !e->count )
            continue;
        if ( !any )
            xa_out_str(o, "Anomalies:\n");
        any = true;
        xa_out_printf(o, "  %-22s %10llu  [%s] %s",
                      xa_diag_name((enum xa_diag_kind)i),
                      (unsigned long long)e->count,
                      xa_diag_level_name(
                          xa_diag_kind_level((enum xa_diag_kind)i)),
                      xa_diag_desc((enum xa_diag_kind)i));
        for ( j = 0; j < e->nr_first; j++ )
        {
            xa_out_str(o, j ? ", " : "; first at ");
            /* Some anomalies are of no record (an exit left open). */
            if ( e->first_offset[j] != UINT64_MAX )
                xa_out_printf(o, "0x%llx",
                              (unsigned long long)e->first_offset[j]);
            xa_out_printf(o, "(p%u)", e->first_cpu[j]);
        }
        if ( e->bytes )
            xa_out_printf(o, "; %llu bytes skipped",
                          (unsigned long long)e->bytes);
        xa_out_char(o, '\n');
    }
    if ( diag->lost_records )
        xa_out_printf(o, "  records lost in trace-buffer overflows: %llu\n",
                      (unsigned long long)diag->lost_records);
    if ( !any )
        xa_out_str(o, "Anomalies: none\n");
}

bool xa_dump_selects(struct xa_dump *d, const struct xa_record *rec,
                     uint32_t current)
{
    const struct xa_filter *f = d->filter;

    if ( !f )
        return true;
    if ( !d->have_first && rec->tsc )
    {
        d->first_tsc = rec->tsc;
        d->have_first = true;
        xa_filter_tsc_window(f, d->first_tsc, d->hz, &d->win_lo, &d->win_hi);
    }
    if ( xa_filter_has_window(f) &&
         (!d->have_first || rec->tsc < d->win_lo || rec->tsc >= d->win_hi) )
        return false;
    if ( !f->nr_domains && !f->nr_vcpus )
        return true;
    if ( current == XA_DUMP_NO_VCPU )
        return false;
    return xa_filter_vcpu(f, current >> 16, current & 0xffff);
}
