/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Scenario files: "key = value" lines, '#' comments.  Host keys come
 * first; "domain = ID" starts a domain and the keys after it describe
 * that domain.  docs/synth.md has the list.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "synth.h"

static const char *const dom_kind_names[DK_NR] = {
    [DK_VMX] = "vmx", [DK_SVM] = "svm", [DK_PV] = "pv", [DK_ARM] = "arm",
};

static const char *const exit_kind_names[XK_NR] = {
    [XK_INTR] = "intr", [XK_CPUID] = "cpuid", [XK_HLT] = "hlt",
    [XK_HYPERCALL] = "hypercall", [XK_IO] = "io",
    [XK_MSR_READ] = "msr_read", [XK_MSR_WRITE] = "msr_write",
    [XK_MMIO] = "mmio", [XK_CR] = "cr", [XK_RDTSC] = "rdtsc",
    [XK_SMC] = "smc", [XK_SYSREG] = "sysreg", [XK_WFE] = "wfe",
    [XK_SH_FIXUP] = "shadow_fixup", [XK_SH_EMULATE] = "shadow_emulate",
    [XK_SH_UNSHADOW] = "shadow_unshadow",
};

#define SHADOW_EXITS (1u << XK_SH_FIXUP | 1u << XK_SH_EMULATE | \
                      1u << XK_SH_UNSHADOW)

/* Which exit kinds each domain kind can produce. */
static const uint16_t kind_exits[DK_NR] = {
    [DK_VMX] = 1u << XK_INTR | 1u << XK_CPUID | 1u << XK_HLT |
               1u << XK_HYPERCALL | 1u << XK_IO | 1u << XK_MSR_READ |
               1u << XK_MSR_WRITE | 1u << XK_MMIO | 1u << XK_CR |
               SHADOW_EXITS,
    [DK_SVM] = 1u << XK_INTR | 1u << XK_CPUID | 1u << XK_HLT |
               1u << XK_HYPERCALL | 1u << XK_IO | 1u << XK_MSR_READ |
               1u << XK_MSR_WRITE | 1u << XK_MMIO | 1u << XK_RDTSC,
    [DK_PV] = 0,
    [DK_ARM] = 1u << XK_INTR | 1u << XK_HLT | 1u << XK_HYPERCALL |
               1u << XK_MMIO | 1u << XK_SMC | 1u << XK_SYSREG |
               1u << XK_WFE,
};

/* Default exit mix: kind, weight, handling time. */
static const struct {
    enum exit_kind kind;
    unsigned int weight;
    const char *dur;
} default_exits[] = {
    { XK_INTR, 20, "exp 2us" },
    { XK_CPUID, 8, "lognormal 1us 0.3" },
    { XK_HLT, 6, "fixed 400ns" },
    { XK_HYPERCALL, 8, "exp 3us" },
    { XK_IO, 20, "lognormal 5us 0.6" },
    { XK_MSR_READ, 5, "fixed 800ns" },
    { XK_MSR_WRITE, 10, "exp 1500ns" },
    { XK_MMIO, 12, "lognormal 8us 0.5" },
    { XK_CR, 4, "uniform 300ns 900ns" },
    { XK_RDTSC, 4, "fixed 300ns" },
    { XK_SMC, 3, "lognormal 20us 0.4" },
    { XK_SYSREG, 10, "uniform 500ns 2us" },
    { XK_WFE, 3, "exp 1us" },
};

static const struct hcall_spec default_hcalls[] = {
    { 24, 10 }, { 32, 20 }, { 29, 6 }, { 20, 10 }, { 13, 5 }, { 1, 5 },
    { 17, 2 },
};

const char *dom_kind_name(enum dom_kind k)
{
    return dom_kind_names[k];
}

void scenario_init(struct scenario *sc)
{
    memset(sc, 0, sizeof(*sc));
    sc->pcpus = 2;
    sc->hz = 2400000000ull;
    sc->seed = 1;
    sc->start_tsc = 1000000000ull;
    sc->arm_format = 2;
    sc->xen = 17;
    sc->clock_record = -1;
    strcpy(sc->duration_txt, "10ms");
    strcpy(sc->slice_txt, "1ms");
    strcpy(sc->ctx_txt, "uniform 1us 2us");
    strcpy(sc->gap_txt, "200us");
    sc->window = 256u << 10;
}

void scenario_dispose(struct scenario *sc)
{
    unsigned int i, j;

    for ( i = 0; i < sc->nr_doms; i++ )
    {
        struct dom_spec *d = &sc->doms[i];

        dist_dispose(&d->run);
        dist_dispose(&d->sleep);
        for ( j = 0; j < d->nr_exits; j++ )
            dist_dispose(&d->exits[j].dur);
    }
    sc->nr_doms = 0;
}

static bool parse_u64(const char *s, uint64_t *v)
{
    char *end;

    errno = 0;
    *v = strtoull(s, &end, 0);
    return !errno && end != s && !*end && *s != '-';
}

static bool set_txt(char *dst, const char *v)
{
    if ( strlen(v) >= TXT )
        return false;
    strcpy(dst, v);
    return true;
}

static int set_dom(struct scenario *sc, const char *key, const char *value,
                   char *err, size_t errlen)
{
    struct dom_spec *d = &sc->doms[sc->nr_doms - 1];
    uint64_t v;
    unsigned int k;

    if ( !strcmp(key, "kind") )
    {
        for ( k = 0; k < DK_NR; k++ )
            if ( !strcmp(value, dom_kind_names[k]) )
            {
                d->kind = k;
                return 0;
            }
    }
    else if ( !strcmp(key, "vcpus") )
    {
        if ( parse_u64(value, &v) && v >= 1 && v <= 512 )
        {
            d->nr_vcpus = (unsigned int)v;
            return 0;
        }
    }
    else if ( !strcmp(key, "run") )
    {
        if ( set_txt(d->run_txt, value) )
            return 0;
    }
    else if ( !strcmp(key, "sleep") )
    {
        if ( set_txt(d->sleep_txt, value) )
            return 0;
    }
    else if ( !strcmp(key, "offline") )
    {
        char *end;
        double x = strtod(value, &end);

        if ( !*end && x >= 0 && x <= 1 )
        {
            d->offline = x;
            return 0;
        }
    }
    else if ( !strcmp(key, "cr3") )
    {
        char *end;
        unsigned long n = strtoul(value, &end, 0);

        if ( !*end && end != value && n <= 4096 )
        {
            d->cr3 = (unsigned int)n;
            return 0;
        }
    }
    else if ( !strcmp(key, "shadow") )
    {
        char *end;
        unsigned long n = strtoul(value, &end, 0);

        if ( !*end && end != value && (n == 0 || (n >= 2 && n <= 4)) )
        {
            d->shadow = (unsigned int)n;
            return 0;
        }
    }
    else if ( !strcmp(key, "exit") )
    {
        char name[32];
        unsigned int weight;
        int off = 0;

        if ( d->nr_exits < MAX_EXIT_SPECS &&
             sscanf(value, "%31s %u %n", name, &weight, &off) == 2 && off )
        {
            for ( k = 0; k < XK_NR; k++ )
                if ( !strcmp(name, exit_kind_names[k]) )
                {
                    struct exit_spec *e = &d->exits[d->nr_exits];

                    if ( !set_txt(e->dur_txt, value + off) )
                        break;
                    e->kind = k;
                    e->weight = weight;
                    d->nr_exits++;
                    return 0;
                }
        }
    }
    else if ( !strcmp(key, "hypercall") )
    {
        unsigned int nr, weight;

        if ( d->nr_hcalls < MAX_HCALL_SPECS &&
             sscanf(value, "%u %u", &nr, &weight) == 2 && nr < 64 )
        {
            d->hcalls[d->nr_hcalls].nr = nr;
            d->hcalls[d->nr_hcalls++].weight = weight;
            return 0;
        }
    }
    else
    {
        snprintf(err, errlen, "unknown key \"%s\"", key);
        return -1;
    }
    snprintf(err, errlen, "bad value for %s: \"%s\"", key, value);
    return -1;
}

int scenario_set(struct scenario *sc, const char *key, const char *value,
                 char *err, size_t errlen)
{
    uint64_t v;
    bool ok = false;

    if ( !strcmp(key, "domain") )
    {
        struct dom_spec *d;

        if ( sc->nr_doms == MAX_DOMS || !parse_u64(value, &v) ||
             v >= IDLE_DOMID )
            goto bad;
        d = &sc->doms[sc->nr_doms++];
        memset(d, 0, sizeof(*d));
        d->id = (unsigned int)v;
        d->kind = DK_VMX;
        d->nr_vcpus = 1;
        strcpy(d->run_txt, "exp 30us");
        strcpy(d->sleep_txt, "exp 200us");
        return 0;
    }
    if ( !strcmp(key, "pcpus") )
    {
        ok = parse_u64(value, &v) && v >= 1 && v <= 65536;
        sc->pcpus = (unsigned int)v;
    }
    else if ( !strcmp(key, "hz") )
    {
        ok = parse_u64(value, &v) && v >= 1000000;
        sc->hz = v;
    }
    else if ( !strcmp(key, "seed") )
        ok = parse_u64(value, &sc->seed);
    else if ( !strcmp(key, "arm_format") )
    {
        ok = parse_u64(value, &v) && (v == 1 || v == 2);
        sc->arm_format = (unsigned int)v;
    }
    else if ( !strcmp(key, "xen") )
    {
        /* "4.N": the record layouts of that release (docs/record-layouts) */
        unsigned int major, minor;
        int end = 0;

        ok = sscanf(value, "%u.%u%n", &major, &minor, &end) == 2 &&
             !value[end] && major == 4 && minor >= 7 && minor <= 99;
        sc->xen = minor;
    }
    else if ( !strcmp(key, "clock_record") )
    {
        ok = !strcmp(value, "yes") || !strcmp(value, "no");
        sc->clock_record = !strcmp(value, "yes");
    }
    else if ( !strcmp(key, "records") )
        ok = parse_u64(value, &sc->records);
    else if ( !strcmp(key, "tsc_skew") )
    {
        /* "CPU CYCLES": that pCPU's TSC runs CYCLES (signed) apart */
        unsigned int cpu;
        long long c;
        int end = 0;

        ok = sc->nr_skews < MAX_SKEWS &&
             sscanf(value, "%u %lld %n", &cpu, &c, &end) == 2 &&
             !value[end] && c > -(1ll << 62) && c < (1ll << 62);
        if ( ok )
        {
            sc->skews[sc->nr_skews].cpu = cpu;
            sc->skews[sc->nr_skews++].cycles = c;
        }
    }
    else if ( !strcmp(key, "start_tsc") )
        ok = parse_u64(value, &sc->start_tsc);
    else if ( !strcmp(key, "lost") )
    {
        ok = parse_u64(value, &v) && v <= 1000;
        sc->lost = (unsigned int)v;
    }
    else if ( !strcmp(key, "window") )
    {
        ok = parse_u64(value, &v) && v >= XA_WRITER_WINDOW_MIN &&
             v <= XA_WRITER_WINDOW_MAX && v % 4 == 0;
        sc->window = (uint32_t)v;
    }
    else if ( !strcmp(key, "tbuf") )
    {
        ok = parse_u64(value, &v) && (v == 0 || v >= XA_WRITER_TBUF_MIN) &&
             v <= 0x7fffffff && v % 4 == 0;
        sc->tbuf = (uint32_t)v;
    }
    else if ( !strcmp(key, "duration") )
        ok = set_txt(sc->duration_txt, value);
    else if ( !strcmp(key, "slice") )
        ok = set_txt(sc->slice_txt, value);
    else if ( !strcmp(key, "ctx_switch") )
        ok = set_txt(sc->ctx_txt, value);
    else if ( !strcmp(key, "lost_gap") )
        ok = set_txt(sc->gap_txt, value);
    else if ( sc->nr_doms )
        return set_dom(sc, key, value, err, errlen);
    else
    {
        snprintf(err, errlen, "unknown host key \"%s\" (domain keys come "
                 "after \"domain = ID\")", key);
        return -1;
    }
    if ( ok )
        return 0;
 bad:
    snprintf(err, errlen, "bad value for %s: \"%s\"", key, value);
    return -1;
}

static char *trim(char *s)
{
    char *e;

    while ( isspace((unsigned char)*s) )
        s++;
    e = s + strlen(s);
    while ( e > s && isspace((unsigned char)e[-1]) )
        *--e = '\0';
    return s;
}

int scenario_load(struct scenario *sc, const char *path, char *err,
                  size_t errlen)
{
    FILE *f = fopen(path, "r");
    char line[512], msg[256];
    unsigned int lineno = 0;
    int rc = 0;

    if ( !f )
    {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    while ( fgets(line, sizeof(line), f) )
    {
        char *s, *eq, *hash;

        lineno++;
        if ( (hash = strchr(line, '#')) )
            *hash = '\0';
        s = trim(line);
        if ( !*s )
            continue;
        eq = strchr(s, '=');
        if ( !eq )
        {
            snprintf(err, errlen, "%s:%u: expected key = value", path,
                     lineno);
            rc = -1;
            break;
        }
        *eq = '\0';
        if ( scenario_set(sc, trim(s), trim(eq + 1), msg, sizeof(msg)) )
        {
            snprintf(err, errlen, "%s:%u: %s", path, lineno, msg);
            rc = -1;
            break;
        }
    }
    fclose(f);
    return rc;
}

/* A 1024-entry table of indices, each appearing in proportion to weight. */
static int build_pick(uint8_t *tab, const unsigned int *weights,
                      unsigned int n)
{
    uint64_t total = 0, acc = 0;
    unsigned int i, j = 0;

    for ( i = 0; i < n; i++ )
        total += weights[i];
    if ( !total )
        return -1;
    for ( i = 0; i < n; i++ )
    {
        acc += weights[i];
        /* Entries up to the rounded cumulative share. */
        while ( j < (acc * PICK_TAB + total / 2) / total && j < PICK_TAB )
            tab[j++] = (uint8_t)i;
    }
    while ( j < PICK_TAB )
        tab[j++] = (uint8_t)(n - 1);
    return 0;
}

static int finish_dom(struct scenario *sc, struct dom_spec *d, char *err,
                      size_t errlen)
{
    unsigned int w[MAX_EXIT_SPECS > MAX_HCALL_SPECS ? MAX_EXIT_SPECS
                                                    : MAX_HCALL_SPECS];
    unsigned int i;

    if ( d->shadow && d->kind != DK_VMX )
    {
        snprintf(err, errlen, "domain %u: shadow paging is for vmx "
                 "domains", d->id);
        return -1;
    }
    if ( dist_parse(&d->run, d->run_txt, sc->hz, err, errlen) ||
         dist_parse(&d->sleep, d->sleep_txt, sc->hz, err, errlen) )
        return -1;
    if ( !d->nr_exits && d->kind != DK_PV )
    {
        for ( i = 0; i < sizeof(default_exits) / sizeof(default_exits[0]);
              i++ )
        {
            if ( !(kind_exits[d->kind] & (1u << default_exits[i].kind)) )
                continue;
            d->exits[d->nr_exits].kind = default_exits[i].kind;
            d->exits[d->nr_exits].weight = default_exits[i].weight;
            strcpy(d->exits[d->nr_exits++].dur_txt, default_exits[i].dur);
        }
    }
    for ( i = 0; i < d->nr_exits; i++ )
    {
        struct exit_spec *e = &d->exits[i];

        if ( (SHADOW_EXITS & (1u << e->kind)) && !d->shadow )
        {
            snprintf(err, errlen, "domain %u: %s exits need shadow = 2, "
                     "3 or 4", d->id, exit_kind_names[e->kind]);
            return -1;
        }
        if ( !(kind_exits[d->kind] & (1u << e->kind)) )
        {
            snprintf(err, errlen, "domain %u: a %s domain has no %s exits",
                     d->id, dom_kind_names[d->kind],
                     exit_kind_names[e->kind]);
            return -1;
        }
        if ( dist_parse(&e->dur, e->dur_txt, sc->hz, err, errlen) )
            return -1;
        w[i] = e->weight;
    }
    if ( d->nr_exits && build_pick(d->exit_pick, w, d->nr_exits) )
    {
        snprintf(err, errlen, "domain %u: exit weights are all 0", d->id);
        return -1;
    }
    if ( !d->nr_hcalls )
    {
        memcpy(d->hcalls, default_hcalls, sizeof(default_hcalls));
        d->nr_hcalls = sizeof(default_hcalls) / sizeof(default_hcalls[0]);
    }
    for ( i = 0; i < d->nr_hcalls; i++ )
        w[i] = d->hcalls[i].weight;
    if ( build_pick(d->hcall_pick, w, d->nr_hcalls) )
    {
        snprintf(err, errlen, "domain %u: hypercall weights are all 0",
                 d->id);
        return -1;
    }
    return 0;
}

int scenario_finish(struct scenario *sc, char *err, size_t errlen)
{
    struct dist tmp = { 0 };
    unsigned int i, j;

    if ( !sc->nr_doms )
    {
        char e2[8];

        scenario_set(sc, "domain", "1", e2, sizeof(e2));
        sc->doms[0].nr_vcpus = 2;
    }
    for ( i = 0; i < sc->nr_doms; i++ )
        for ( j = 0; j < i; j++ )
            if ( sc->doms[i].id == sc->doms[j].id )
            {
                snprintf(err, errlen, "domain %u defined twice",
                         sc->doms[i].id);
                return -1;
            }
    if ( !parse_cycles(sc->duration_txt, sc->hz, &sc->duration) ||
         !parse_cycles(sc->slice_txt, sc->hz, &sc->slice) ||
         !parse_cycles(sc->gap_txt, sc->hz, &sc->lost_gap) || !sc->slice )
    {
        snprintf(err, errlen, "bad duration, slice or lost_gap");
        return -1;
    }
    if ( dist_parse(&tmp, sc->ctx_txt, sc->hz, err, errlen) )
        return -1;
    /* The context switch cost is drawn per switch: keep its mean. */
    sc->ctx_switch = tmp.kind == DIST_FIXED ? tmp.a : (tmp.a + tmp.b) / 2;
    if ( tmp.kind == DIST_TABLE )
        sc->ctx_switch = tmp.tab[DIST_TAB / 2];
    dist_dispose(&tmp);
    if ( !sc->lost_gap )
        sc->lost_gap = 1;
    for ( i = 0; i < sc->nr_skews; i++ )
        if ( sc->skews[i].cpu >= sc->pcpus ||
             (sc->skews[i].cycles < 0 &&
              (uint64_t)-sc->skews[i].cycles >= sc->start_tsc) )
        {
            snprintf(err, errlen, "tsc_skew: pCPU %u not in the host, or "
                     "its TSC below 0", sc->skews[i].cpu);
            return -1;
        }
    for ( i = 0; i < sc->nr_doms; i++ )
        if ( finish_dom(sc, &sc->doms[i], err, errlen) )
            return -1;
    return 0;
}
