/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * xenalyze diff: the comparison rendered as text or JSON (docs/diff.md).
 * The rows, their order and the marks come from diff.c.
 */
#include <math.h>
#include <string.h>

#include <xenalyze/diff.h>

static void pct(struct xa_out *o, double v)
{
    if ( isnan(v) )
        xa_out_printf(o, " %8s", "new");
    else
        xa_out_printf(o, " %+7.1f%%", v);
}

static void row_text(struct xa_out *o, const struct xa_diff_row *r)
{
    xa_out_printf(o, " %-10s %-44s %c %9llu %9llu %10.1f %10.1f", r->scope,
                  r->what, !r->changed ? '=' : r->chance ? '~' : '!',
                  (unsigned long long)r->a.count,
                  (unsigned long long)r->b.count, r->a.rate, r->b.rate);
    pct(o, r->d_rate);
    xa_out_printf(o, " %10.3f %10.3f", r->a.mean_us, r->b.mean_us);
    pct(o, r->d_mean);
    pct(o, r->d_p95);
    pct(o, r->d_p99);
    xa_out_printf(o, " %8.3f %8.3f", 100 * r->a.share, 100 * r->b.share);
    pct(o, r->d_share);
    xa_out_char(o, '\n');
}

static void header(struct xa_out *o, const char *title)
{
    xa_out_printf(o, " %-10s %-44s %c %9s %9s %10s %10s %9s %10s %10s %9s "
                  "%9s %9s %8s %8s %9s\n", "scope", title, ' ', "count A",
                  "count B", "rate/s A", "rate/s B", "d.rate", "mean(us)A",
                  "mean(us)B", "d.mean", "d.p95", "d.p99", "%time A",
                  "%time B", "d.time");
}

void xa_diff_render_text(const struct xa_diff *d, const char *name_a,
                         const char *name_b, struct xa_out *o)
{
    unsigned int i;
    bool runstates = false;

    xa_out_printf(o, "A: %s (%.6f s)\nB: %s (%.6f s)\n", name_a, d->span_a,
                  name_b, d->span_b);
    xa_out_printf(o, "Domains compared (A=B): %s\n",
                  d->pairs[0] ? d->pairs : "none");
    if ( !d->nr_changed )
    {
        xa_out_printf(o, "No change: %u rows compared, every number equal.\n",
                      d->nr_rows);
        return;
    }
    xa_out_printf(o, "%u of %u rows changed; sorted by impact (the change "
                  "in the share of trace time).\n", d->nr_changed,
                  d->nr_rows);
    header(o, "exit reason [sub-key]");
    for ( i = 0; i < d->nr_rows; i++ )
    {
        const struct xa_diff_row *r = &d->rows[i];

        if ( !r->changed )
            continue;
        if ( r->kind == XA_DIFF_RUNSTATE && !runstates )
        {
            runstates = true;
            header(o, "vCPU runstate (all vCPUs)");
        }
        row_text(o, r);
    }
    xa_out_str(o, "Marks: ! a change beyond chance; ~ within two standard "
                  "errors (Poisson counts,\n  spread from p5-p95); = equal. "
                  "d.*: relative change from A to B.\n");
    if ( d->fail )
        xa_out_printf(o, "FAIL: %s\n", d->fail_why);
}

static void kv_d(struct xa_out *o, const char *k, double v, bool comma)
{
    xa_out_json_str(o, k);
    xa_out_char(o, ':');
    if ( isnan(v) || isinf(v) )
        xa_out_str(o, "null");
    else
        xa_out_double(o, v, 6);
    if ( comma )
        xa_out_char(o, ',');
}

static void side_json(struct xa_out *o, const char *k,
                      const struct xa_diff_side *s)
{
    xa_out_json_str(o, k);
    if ( !s->present )
    {
        xa_out_str(o, ":null,");
        return;
    }
    xa_out_str(o, ":{\"count\":");
    xa_out_u64(o, s->count);
    xa_out_str(o, ",\"cycles\":");
    xa_out_u64(o, s->cycles);
    xa_out_str(o, ",\"mean\":");
    xa_out_u64(o, s->mean);
    xa_out_str(o, ",\"p95\":");
    xa_out_u64(o, s->p95);
    xa_out_str(o, ",\"p99\":");
    xa_out_u64(o, s->p99);
    xa_out_char(o, ',');
    kv_d(o, "rate", s->rate, true);
    kv_d(o, "share", s->share, true);
    kv_d(o, "mean_us", s->mean_us, false);
    xa_out_str(o, "},");
}

void xa_diff_render_json(const struct xa_diff *d, const char *name_a,
                         const char *name_b, struct xa_out *o)
{
    static const char *const kinds[] = { "exit", "sub", "runstate" };
    unsigned int i;

    xa_out_str(o, "{\"schema\":\"xenalyze.diff/1\",\"a\":");
    xa_out_json_str(o, name_a);
    xa_out_str(o, ",\"b\":");
    xa_out_json_str(o, name_b);
    xa_out_char(o, ',');
    kv_d(o, "seconds_a", d->span_a, true);
    kv_d(o, "seconds_b", d->span_b, true);
    xa_out_str(o, "\"pairs\":");
    xa_out_json_str(o, d->pairs);
    xa_out_str(o, ",\"changed\":");
    xa_out_u64(o, d->nr_changed);
    xa_out_str(o, d->fail ? ",\"fail\":true,\"fail_why\":" : ",\"fail\":false");
    if ( d->fail )
        xa_out_json_str(o, d->fail_why);
    xa_out_str(o, ",\n\"rows\":[");
    for ( i = 0; i < d->nr_rows; i++ )
    {
        const struct xa_diff_row *r = &d->rows[i];

        xa_out_str(o, i ? ",\n{" : "\n{");
        xa_out_str(o, "\"scope\":");
        xa_out_json_str(o, r->scope);
        xa_out_str(o, ",\"kind\":");
        xa_out_json_str(o, kinds[r->kind]);
        xa_out_str(o, ",\"what\":");
        xa_out_json_str(o, r->what);
        xa_out_char(o, ',');
        side_json(o, "a", &r->a);
        side_json(o, "b", &r->b);
        kv_d(o, "d_rate", r->d_rate, true);
        kv_d(o, "d_mean", r->d_mean, true);
        kv_d(o, "d_p95", r->d_p95, true);
        kv_d(o, "d_p99", r->d_p99, true);
        kv_d(o, "d_share", r->d_share, true);
        kv_d(o, "impact", r->impact, true);
        xa_out_str(o, r->changed ? "\"changed\":true," : "\"changed\":false,");
        xa_out_str(o, r->chance ? "\"within_chance\":true}" :
                                  "\"within_chance\":false}");
    }
    xa_out_str(o, "]}\n");
}
