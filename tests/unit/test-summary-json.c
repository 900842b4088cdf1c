/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A JSON summary read back for diff (xa_summary_from_json): statistics of
 * random samples, written as the JSON summary writes them, come back with
 * the same count, cycles, min, max and every percentile; fields reach the
 * summary; damaged documents (prefixes, byte flips, missing fields) are
 * refused or read, never harmful.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xenalyze/diff.h>

#include "tap.h"

#define next tap_rand

static bool with_hist;
static int hist_text(char *b, size_t n, const struct xa_stat *st);

/* STATS as summary-json.c writes them. */
static int stats_text(char *b, size_t n, const struct xa_stat *st)
{
    int k = snprintf(b, n, "\"count\":%llu,\"cycles\":%llu,\"min\":%llu,"
                     "\"max\":%llu,\"mean\":%llu",
                     (unsigned long long)st->count,
                     (unsigned long long)st->cycles,
                     (unsigned long long)st->min,
                     (unsigned long long)st->max,
                     (unsigned long long)xa_stat_mean(st));
    unsigned int i;

    for ( i = 0; i < XA_STAT_NR_PCT; i++ )
        k += snprintf(b + k, n - (size_t)k, ",\"%s\":%llu",
                      xa_stat_pct_names[i],
                      (unsigned long long)xa_stat_pct(st, xa_stat_pcts[i]));
    if ( with_hist )
        k += hist_text(b + k, n - (size_t)k, st);
    return k;
}

static char doc[1 << 17];

/* ,"hist":[k0,n0,d1,n1...] as docs/summary-json.md lays it out. */
static int hist_text(char *b, size_t n, const struct xa_stat *st)
{
    int k = snprintf(b, n, ",\"hist\":[");
    unsigned int g, j, last = 0;
    bool first = true;

    for ( g = 0; g < XA_STAT_GROUPS; g++ )
        for ( j = 0; st->groups[g] && j < XA_STAT_SUB; j++ )
            if ( st->groups[g][j] )
            {
                unsigned int idx = g * XA_STAT_SUB + j;

                k += snprintf(b + k, n - (size_t)k, "%s%u,%u",
                              first ? "" : ",", idx - last,
                              st->groups[g][j]);
                last = idx;
                first = false;
            }
    return k + snprintf(b + k, n - (size_t)k, "]");
}

static int make_doc(const struct xa_stat *st, const struct xa_stat *sub)
{
    static char a[32768], b[32768];

    stats_text(a, sizeof(a), st);
    stats_text(b, sizeof(b), sub);
    return snprintf(doc, sizeof(doc),
        "{\"schema\": \"xenalyze.summary/1\", %s\"trace\": {\"cpu_hz\": "
        "2400000000, \"first_tsc\": 1000, \"last_tsc\": 2400001000, "
        "\"arch\": \"x86-vmx\"}, \"domains\": [{\"id\": 7, \"kind\": "
        "\"hvm\", \"all_vcpus\": {\"runstates\": {\"running\": {%s}}, "
        "\"exits\": [{\"reason\": \"HLT\", \"code\": 12, %s, \"sub\": "
        "[{\"key\": \"io:0x0070:w\", %s}]}]}, \"vcpus\": [{\"id\": 0}]}]}",
        with_hist ? "\"histograms\": \"log-linear-64/1\", " : "", b, a, b);
}

static void roundtrip(void)
{
    unsigned int t, i, bad = 0;

    for ( t = 0; t < 300; t++ )
    {
        struct xa_stat st, sub;
        const struct xa_summary *s = NULL;
        const struct xa_sum_exit *e;
        unsigned int n = t < 10 ? t + 1 : 1 + (unsigned int)(next() % 5000);
        unsigned int shift = (unsigned int)(next() % 40);
        char why[200];

        xa_stat_init(&st);
        xa_stat_init(&sub);
        for ( i = 0; i < n; i++ )
        {
            uint64_t v = next() >> (24 + shift % 40);

            if ( t % 7 == 0 )
                v = next() % 70;        /* around the exact range */
            xa_stat_add(&st, v);
            if ( i % 3 == 0 )
                xa_stat_add(&sub, v);
        }
        make_doc(&st, &sub);
        if ( xa_summary_from_json(doc, strlen(doc), &s, why, sizeof(why)) )
        {
            tap_ok(false, "document %u read: %s", t, why);
            bad++;
            break;
        }
        e = &s->domains[0].all->exits[0];
        if ( e->st->count != st.count || e->st->cycles != st.cycles ||
             e->st->min != st.min || e->st->max != st.max ||
             e->subs[0].st->count != sub.count )
            bad++;
        for ( i = 0; i < XA_STAT_NR_PCT; i++ )
            if ( xa_stat_pct(e->st, xa_stat_pcts[i]) !=
                     xa_stat_pct(&st, xa_stat_pcts[i]) ||
                 xa_stat_pct(e->subs[0].st, xa_stat_pcts[i]) !=
                     xa_stat_pct(&sub, xa_stat_pcts[i]) ||
                 xa_stat_pct(s->domains[0].all->rs[XA_RS_RUNNING],
                             xa_stat_pcts[i]) !=
                     xa_stat_pct(&sub, xa_stat_pcts[i]) )
                bad++;
        xa_summary_json_free(s);
        xa_stat_dispose(&st);
        xa_stat_dispose(&sub);
    }
    TAP_EQ(bad, 0, "300 statistics: count, cycles, min, max and every "
           "percentile back exactly");
}

static void fields(void)
{
    struct xa_stat st;
    const struct xa_summary *s = NULL;
    char why[200];

    xa_stat_init(&st);
    xa_stat_add(&st, 100);
    xa_stat_add(&st, 300);
    make_doc(&st, &st);
    TAP_EQ(xa_summary_from_json(doc, strlen(doc), &s, why, sizeof(why)),
           XA_OK, "a summary reads");
    TAP_EQ(s->cpu_hz, 2400000000u, "cpu_hz");
    TAP_EQ(s->span_last - s->span_first, 2400000000u, "span from the trace");
    TAP_EQ(s->nr_domains, 1, "one domain");
    TAP_EQ(s->domains[0].id, 7, "its id");
    tap_ok(!strcmp(s->domains[0].kind, "hvm"), "its kind");
    tap_ok(!strcmp(s->domains[0].all->exits[0].reason, "HLT") &&
           s->domains[0].all->exits[0].code == 12, "exit reason and code");
    tap_ok(!strcmp(s->domains[0].all->exits[0].subs[0].key, "io:0x0070:w"),
           "sub-key");
    TAP_EQ(s->domains[0].all->rs[XA_RS_BLOCKED]->count, 0,
           "an absent runstate is empty");
    xa_summary_json_free(s);
    xa_stat_dispose(&st);
}

static void damaged(void)
{
    struct xa_stat st;
    size_t n, i, ok = 0, pre = 0;
    char why[200], *buf;
    const struct xa_summary *s;

    xa_stat_init(&st);
    for ( i = 0; i < 50; i++ )
        xa_stat_add(&st, i * 37);
    n = (size_t)make_doc(&st, &st);
    buf = malloc(n);
    for ( i = 0; i < n; i++ )
    {
        s = NULL;
        if ( !xa_summary_from_json(doc, i, &s, why, sizeof(why)) )
            pre++;
        xa_summary_json_free(s);
    }
    TAP_EQ(pre, 0, "no prefix is a summary");
    for ( i = 0; buf && i < n * 8; i++ )
    {
        memcpy(buf, doc, n);
        buf[i / 8] ^= (char)(1u << (i % 8));
        s = NULL;
        if ( !xa_summary_from_json(buf, n, &s, why, sizeof(why)) )
            ok++;
        xa_summary_json_free(s);
    }
    tap_ok(ok < n * 8, "%zu of %zu byte flips read, the rest refused", ok,
           n * 8);
    s = NULL;
    TAP_EQ(xa_summary_from_json("{\"schema\": \"other/1\"}", 21, &s, why,
                                sizeof(why)), XA_E_INVAL, "another schema");
    tap_ok(strstr(why, "not a xenalyze summary") != NULL, "says so: %s", why);
    free(buf);
    xa_stat_dispose(&st);
}

/* With "hist": merged statistics have the merged originals' percentiles. */
static void merged(void)
{
    struct xa_stat x[2], m, lm;
    const struct xa_summary *s[2] = { NULL, NULL };
    unsigned int t, i, bad = 0;
    char why[200];

    with_hist = true;
    for ( t = 0; t < 50; t++ )
    {
        xa_stat_init(&m);
        xa_stat_init(&lm);
        for ( i = 0; i < 2; i++ )
        {
            unsigned int j, n = 1 + (unsigned int)(next() % 3000);

            xa_stat_init(&x[i]);
            for ( j = 0; j < n; j++ )
                xa_stat_add(&x[i], next() >> (30 + i * 8));
            make_doc(&x[i], &x[i]);
            if ( xa_summary_from_json(doc, strlen(doc), &s[i], why,
                                      sizeof(why)) )
            {
                tap_ok(false, "with hist: %s", why);
                return;
            }
            xa_stat_merge(&m, &x[i]);
            xa_stat_merge(&lm, s[i]->domains[0].all->exits[0].st);
        }
        for ( i = 0; i < XA_STAT_NR_PCT; i++ )
            bad += xa_stat_pct(&m, xa_stat_pcts[i]) !=
                   xa_stat_pct(&lm, xa_stat_pcts[i]);
        bad += m.count != lm.count || m.cycles != lm.cycles;
        for ( i = 0; i < 2; i++ )
        {
            xa_summary_json_free(s[i]);
            xa_stat_dispose(&x[i]);
        }
        xa_stat_dispose(&m);
        xa_stat_dispose(&lm);
    }
    TAP_EQ(bad, 0, "50 pairs with hist: the merge's percentiles exact");
    /* A hist that does not add up is refused. */
    xa_stat_init(&m);
    xa_stat_add(&m, 5);
    xa_stat_add(&m, 500);
    make_doc(&m, &m);
    memcpy(strstr(doc, "\"hist\":[5,1"), "\"hist\":[5,2", 11);
    TAP_EQ(xa_summary_from_json(doc, strlen(doc), &s[0], why, sizeof(why)),
           XA_E_INVAL, "a hist beyond its count refused");
    tap_ok(strstr(why, "hist") != NULL, "says so: %s", why);
    xa_stat_dispose(&m);
    with_hist = false;
}

int main(void)
{
    roundtrip();
    merged();
    fields();
    damaged();
    return tap_done();
}
