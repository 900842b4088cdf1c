/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Unit tests of the event catalog: the index, every class's table, the
 * name tables and the formatting of synthetic records.
 */
#include <stdio.h>
#include <string.h>

#include <xenalyze/catalog.h>
#include <xenalyze/trace.h>

#include "catalog/catalog-private.h"
#include "tap.h"

/*
 * Ids that may share a name: the TRC_64_FLAG, shadow paging-level and
 * TRC_HVM_NESTEDFLAG variants of one record, and Xen 4.19's SVM exit
 * beside TRC_HVM_VMEXIT.
 */
#define VARIANT_BITS 0x701u

static void test_tables(const struct xa_catalog *cat)
{
    const struct xa_class *const *cls = xa_catalog_classes();
    unsigned int c, i, c2, j, nr_classes = 0;

    for ( c = 0; cls[c]; c++ )
    {
        bool names_ok = true, ids_ok = true, found_ok = true;

        nr_classes++;
        for ( i = 0; i < cls[c]->nr_events; i++ )
        {
            const struct xa_event_desc *d = &cls[c]->events[i];

            if ( !d->name || !d->name[0] )
                names_ok = false;
            if ( d->id & 0xf0000000u || d->min_extra > XA_EXTRA_MAX )
                ids_ok = false;
            if ( xa_catalog_lookup(cat, d->id) != d )
                found_ok = false;
        }
        tap_ok(cls[c]->nr_events > 0 && names_ok,
               "class %s: %u events, all named", cls[c]->name,
               cls[c]->nr_events);
        tap_ok(ids_ok, "class %s: ids fit 28 bits, min_extra <= 7",
               cls[c]->name);
        tap_ok(found_ok, "class %s: every id looks up to its descriptor",
               cls[c]->name);
    }
    tap_ok(nr_classes >= 9, "%u classes registered", nr_classes);

    /* A shared name must be a variant of the same record. */
    for ( c = 0; cls[c]; c++ )
        for ( i = 0; i < cls[c]->nr_events; i++ )
        {
            const struct xa_event_desc *a = &cls[c]->events[i];
            bool ok = true;

            for ( c2 = 0; cls[c2]; c2++ )
                for ( j = 0; j < cls[c2]->nr_events; j++ )
                {
                    const struct xa_event_desc *b = &cls[c2]->events[j];

                    if ( a == b || !a->name || !b->name ||
                         strcmp(a->name, b->name) )
                        continue;
                    if ( ((a->id ^ b->id) & ~VARIANT_BITS) ||
                         a->format != b->format )
                        ok = false;
                }
            if ( !ok )
                tap_ok(false, "name %s (0x%08x) is shared by another record",
                       a->name, a->id);
        }
    tap_ok(true, "names unique up to width/nesting variants");
}

static const struct {
    uint32_t id;
    const char *name;
} lookups[] = {
    { 0x0001f001, "lost_records" },
    { 0x00021002, "continue_running" },
    { 0x00021011, "runstate_change" },      /* running -> runnable */
    { 0x00021201, "runstate_change" },      /* blocked -> running */
    { 0x00021331, "runstate_change" },      /* offline -> offline */
    { 0x00028004, "vcpu_wake" },
    { 0x0002800a, "sched_switch" },
    { 0x00028011, "switch_infcont" },
    { 0x00022009, "csched:schedule" },
    { 0x00022203, "csched2:burn_credits" },
    { 0x00022213, "csched2:picked_cpu" },
    { 0x00022215, "csched2:schedule" },
    { 0x00022217, "csched2:runq_cand_check" },
    { 0x00022806, "rtds:schedule" },
    { 0x00022a05, "null:schedule" },
    { 0x00041001, "dom0_dom_add" },
    { 0x00081001, "vmentry" },
    { 0x00081102, "vmexit" },
    { 0x00081103, "vmexit" },
    { 0x00081502, "nvmexit" },
    { 0x00082101, "pf_xen" },
    { 0x0008200e, "cpuid" },
    { 0x00082216, "ioport_write" },
    { 0x00082127, "xcr_write" },
    { 0x00084011, "lapic_pic_intr" },
    { 0x0010f004, "set_p2m_entry" },
    { 0x0010f012, "pod_superpage_splinter" },
    { 0x0020100d, "hypercall" },
    { 0x0020200e, "hypercall_subcall" },
    { 0x00201104, "page_fault" },
    { 0x0020110b, "ptwr_emulation" },
    { 0x0040f206, "shadow_fixup" },
    { 0x0040f00e, "shadow_resync_full" },
    { 0x00801003, "pm_idle_exit" },
    { 0x00802008, "irq_handled" },
    { 0x0800f000, "guest" },
    { 0x0800f123, "guest" },
};

static void test_lookups(const struct xa_catalog *cat)
{
    unsigned int i;

    for ( i = 0; i < sizeof(lookups) / sizeof(lookups[0]); i++ )
    {
        const struct xa_event_desc *d = xa_catalog_lookup(cat, lookups[i].id);

        tap_ok(d && !strcmp(d->name, lookups[i].name), "0x%08x is %s",
               lookups[i].id, lookups[i].name);
    }
    tap_ok(!xa_catalog_lookup(cat, 0x00022218), "0x00022218 is unknown");
    tap_ok(!xa_catalog_lookup(cat, 0x00021003), "0x00021003 is unknown");
}


/*
 * Every SVM exit Xen's enum VMEXIT_EXITCODE (xen/arch/x86/hvm/svm/vmcb.h)
 * names is spelt as there, as upstream xenalyze prints it.
 */
static void svm_names_as_xen(void)
{
    static const char *const exc[20] = {
        "DE", "DB", "NMI", "BP", "OF", "BR", "UD", "NM", "DF", "09",
        "TS", "NP", "SS", "GP", "PF", "15", "MF", "AC", "MC", "XF",
    };
    static const char *const rest[] = {         /* 96 (0x60) on */
        "INTR", "NMI", "SMI", "INIT", "VINTR", "CR0_SEL_WRITE",
        "IDTR_READ", "GDTR_READ", "LDTR_READ", "TR_READ", "IDTR_WRITE",
        "GDTR_WRITE", "LDTR_WRITE", "TR_WRITE", "RDTSC", "RDPMC", "PUSHF",
        "POPF", "CPUID", "RSM", "IRET", "SWINT", "INVD", "PAUSE", "HLT",
        "INVLPG", "INVLPGA", "IOIO", "MSR", "TASK_SWITCH", "FERR_FREEZE",
        "SHUTDOWN", "VMRUN", "VMMCALL", "VMLOAD", "VMSAVE", "STGI", "CLGI",
        "SKINIT", "RDTSCP", "ICEBP", "WBINVD", "MONITOR", "MWAIT",
        "MWAIT_CONDITIONAL", "XSETBV", "RDPRU",
    };
    char want[48];
    unsigned int i, bad = 0;

    for ( i = 0; i < 64; i++ )
    {
        snprintf(want, sizeof(want), "VMEXIT_%s%u_%s", i & 32 ? "DR" : "CR",
                 i & 15, i & 16 ? "WRITE" : "READ");
        bad += !xa_svm_exit_name(i) || strcmp(xa_svm_exit_name(i), want);
    }
    for ( i = 0; i < 20; i++ )
    {
        snprintf(want, sizeof(want), "VMEXIT_EXCEPTION_%s", exc[i]);
        bad += !xa_svm_exit_name(64 + i) ||
               strcmp(xa_svm_exit_name(64 + i), want);
    }
    for ( i = 0; i < sizeof(rest) / sizeof(rest[0]); i++ )
    {
        snprintf(want, sizeof(want), "VMEXIT_%s", rest[i]);
        bad += !xa_svm_exit_name(96 + i) ||
               strcmp(xa_svm_exit_name(96 + i), want);
    }
    TAP_EQ(bad, 0, "SVM exits 0-83 and 96-142 spelt as Xen's vmcb.h");
    tap_ok(!strcmp(xa_svm_exit_name(71), "VMEXIT_EXCEPTION_NM"),
           "SVM 71 is VMEXIT_EXCEPTION_NM");
    tap_ok(!strcmp(xa_svm_exit_name(85), "VMEXIT_EXCEPTION_CP"),
           "SVM 85 is VMEXIT_EXCEPTION_CP");
    tap_ok(!strcmp(xa_svm_exit_name(0xa5), "VMEXIT_BUS_LOCK"),
           "SVM 0xa5 is VMEXIT_BUS_LOCK");
    tap_ok(!strcmp(xa_svm_exit_name(0x400), "VMEXIT_NPF"),
           "SVM 0x400 is VMEXIT_NPF");
}

/* strcmp() that takes NULL for "no name". */
static int name_cmp(const char *got, const char *want)
{
    return got ? strcmp(got, want) : 1;
}

static void test_names(void)
{
    tap_ok(xa_names_sorted(), "code tables are sorted");
    tap_ok(!name_cmp(xa_vmx_exit_name(12), "HLT"), "VMX 12 is HLT");
    tap_ok(!name_cmp(xa_vmx_exit_name(48), "EPT_VIOLATION"),
           "VMX 48 is EPT_VIOLATION");
    tap_ok(!name_cmp(xa_vmx_exit_name(1), "EXTERNAL_INTERRUPT"),
           "VMX 1 is EXTERNAL_INTERRUPT");
    tap_ok(!name_cmp(xa_vmx_exit_name(77), "TDCALL"), "VMX 77 is TDCALL");
    tap_ok(!xa_vmx_exit_name(35), "VMX 35 is unnamed");
    TAP_EQ(xa_vmx_exit_max(), 79, "largest VMX exit reason");
    tap_ok(!strcmp(xa_vmx_exit_name(41), "MCE_DURING_VMENTRY"),
           "VMX 41 is MCE_DURING_VMENTRY, as Xen's vmx.h and upstream");
    svm_names_as_xen();
    tap_ok(!strcmp(xa_svm_exit_name(0x9f), "VMEXIT_CR15_WRITE_TRAP"),
           "SVM 0x9f is VMEXIT_CR15_WRITE_TRAP");
    tap_ok(!strcmp(xa_svm_exit_name(0xffffffffu), "VMEXIT_INVALID"),
           "SVM -1 is VMEXIT_INVALID");
    tap_ok(!xa_svm_exit_name(0x404), "SVM 0x404 is unnamed");
    tap_ok(!name_cmp(xa_hypercall_name(0), "set_trap_table"),
           "hypercall 0 is set_trap_table");
    tap_ok(!name_cmp(xa_hypercall_name(13), "multicall"),
           "hypercall 13 is multicall");
    tap_ok(!name_cmp(xa_hypercall_name(29), "sched_op"),
           "hypercall 29 is sched_op");
    tap_ok(!xa_hypercall_name(11), "hypercall 11 is unnamed");
    tap_ok(!name_cmp(xa_arm_sysreg_name(0x280000), "DBGBVR0_EL1"),
           "sysreg 0x280000 (write) is DBGBVR0_EL1");
    tap_ok(!name_cmp(xa_arm_sysreg_name(0x300005), "ID_ISAR0_EL1"),
           "sysreg 0x300004 (read) is ID_ISAR0_EL1");
    tap_ok(!name_cmp(xa_arm_sysreg_name(0x3a3016), "ICC_SGI1R_EL1"),
           "sysreg 0x3a3016 is ICC_SGI1R_EL1");
    tap_ok(!name_cmp(xa_arm_sysreg_name(0x32f9e7), "CNTV_CTL_EL0"),
           "sysreg S3_3_C14_C3_1 (read, Rt 15) is CNTV_CTL_EL0");
    tap_ok(!name_cmp(xa_arm_sysreg_name(0x20c00b), "DBGDTRRX_EL0") &&
           !name_cmp(xa_arm_sysreg_name(0x20c00a), "DBGDTRTX_EL0"),
           "DBGDTRRX_EL0 read, DBGDTRTX_EL0 written at one encoding");
    tap_ok(!name_cmp(xa_arm_sysreg_name(0x32f812), "PMEVCNTR9_EL0"),
           "sysreg S3_3_C14_C9_1 is PMEVCNTR9_EL0");
    tap_ok(!name_cmp(xa_hypercall_subop_name(24, 8), "set_singleshot_timer"),
           "vcpu_op 8 is set_singleshot_timer");
    tap_ok(!name_cmp(xa_hypercall_subop_name(29, 6), "watchdog"),
           "sched_op 6 is watchdog");
    tap_ok(!name_cmp(xa_hypercall_subop_name(20, 12), "cache_flush"),
           "grant_table_op 12 is cache_flush");
    tap_ok(!name_cmp(xa_hypercall_subop_name(12, 28), "acquire_resource"),
           "memory_op 28 is acquire_resource");
    tap_ok(!name_cmp(xa_hypercall_subop_name(24, 15),
                   "register_vcpu_time_phys_area"),
           "vcpu_op 15 is register_vcpu_time_phys_area");
    tap_ok(!xa_hypercall_subop_name(24, 16), "vcpu_op 16 is unnamed");
}

static const struct fmt_test {
    const char *what;
    uint32_t event;
    enum xa_hvm_mode mode;
    unsigned int nr_extra;
    uint32_t extra[XA_EXTRA_MAX];
    const char *want;
} fmt_tests[] = {
    { "runstate", 0x00021021, XA_HVM_VMX, 1, { 0x00010000 },
      " d1v0 running->blocked" },
    { "vmexit64 VMX", 0x00081102, XA_HVM_VMX, 3,
      { 12, 0x81000000, 0xffffffff },
      " exit_reason=HLT rip=0xffffffff81000000" },
    { "vmexit64 SVM", 0x00081102, XA_HVM_SVM, 3,
      { 0x7c, 0x81075059, 0xffffffff },
      " exit_reason=VMEXIT_MSR rip=0xffffffff81075059" },
    { "vmexit32 unknown reason", 0x00081002, XA_HVM_VMX, 2, { 99, 0x1000 },
      " exit_reason=UNKNOWN(0x63) rip=0x1000" },
    { "4.19 SVM exit", 0x00081003, XA_HVM_VMX, 2, { 0x400, 0x2000 },
      " exit_reason=VMEXIT_NPF rip=0x2000" },
    { "credit2 schedule", 0x00022215, XA_HVM_VMX, 2, { 0, 0x01000000 },
      " cpu=0 rq=0 busy tickled" },
    { "credit2 update_rq_load", 0x0002220c, XA_HVM_VMX, 6,
      { 120508, 0, 120508, 0, 0x12000002, 0 },
      " rq=0 load=2 avgload=120508(45.970%) b_avgload=120508(45.970%)" },
    { "credit2 burn_credits capped", 0x00022203, XA_HVM_VMX, 4,
      { 0x00000003, (uint32_t)-5, 7, 100 },
      " d0v3 credit=-5 budget=7 delta=100" },
    { "credit2 burn_credits", 0x00022203, XA_HVM_VMX, 4,
      { 0x000e0001, 10, 0x80000000, 100 }, " d14v1 credit=10 delta=100" },
    { "sched_switch", 0x0002800a, XA_HVM_VMX, 4, { 0, 6, 14, 2 },
      " prev=d0v6 next=d14v2" },
    { "hypercall v2", 0x0020100d, XA_HVM_VMX, 2, { 0x00400001, 1 },
      " op=mmu_update updates=1" },
    { "hypercall v2 vcpu_op", 0x0020100d, XA_HVM_VMX, 3,
      { 0x00500018, 8, 1 }, " op=vcpu_op cmd=set_singleshot_timer vcpu=1" },
    { "hypercall v2 grant_table_op", 0x0020100d, XA_HVM_VMX, 3,
      { 0x01100014, 5, 3 }, " op=grant_table_op cmd=copy ops=3" },
    { "hypercall v2 sched_op", 0x0020100d, XA_HVM_VMX, 2,
      { 0x0010001d, 1 }, " op=sched_op cmd=block" },
    { "mmu_update preempted", 0x0020100d, XA_HVM_VMX, 2,
      { 0x00400001, 0x80000005 }, " op=mmu_update updates=5 preempted" },
    { "hypercall v2 64-bit arg", 0x0020100d, XA_HVM_VMX, 3,
      { 0x00200018, 5, 1 }, " op=vcpu_op cmd=register_runstate_memory_area" },
    { "subcall unknown op", 0x0020200e, XA_HVM_VMX, 1, { 0x63 },
      " op=0x63" },
    { "pv page_fault64", 0x00201104, XA_HVM_VMX, 5,
      { 0x5285d7, 0, 0xe15b500, 0, 7 },
      " rip=0x5285d7 addr=0xe15b500 ec=0x7" },
    { "pv trap with error code", 0x00201003, XA_HVM_VMX, 2,
      { 0xc0001000, 0x0004800e }, " rip=0xc0001000 trap=14 ec=0x4" },
    { "shadow fixup PAE", 0x0040f106, XA_HVM_VMX, 4,
      { 0x1067, 0x1, 0xc0000000, 0x20 },
      " gl1e=0x100001067 va=0xc0000000 flags=0x20" },
    { "irq_handled", 0x00802008, XA_HVM_VMX, 3, { 19, 100, 350 },
      " irq=19 cycles=250" },
    { "guest record", 0x0800f123, XA_HVM_VMX, 1, { 0xdeadbeef },
      " id=0x123 0xdeadbeef" },
    { "unknown id", 0x00012345, XA_HVM_VMX, 2, { 1, 0xabc },
      " 0x00000001 0x00000abc" },
    { "short record", 0x00081102, XA_HVM_VMX, 1, { 12 }, " 0x0000000c" },
};

static void test_format(const struct xa_catalog *cat)
{
    struct xa_out o;
    unsigned int i;

    xa_out_init(&o, -1);
    for ( i = 0; i < sizeof(fmt_tests) / sizeof(fmt_tests[0]); i++ )
    {
        const struct fmt_test *t = &fmt_tests[i];
        struct xa_fmt_ctx ctx = { .hvm_mode = t->mode };
        struct xa_record r = {
            .event = t->event,
            .nr_extra = (uint8_t)t->nr_extra,
            .has_tsc = 1,
        };
        bool ok;

        memcpy(r.extra, t->extra, sizeof(r.extra));
        o.len = 0;
        xa_catalog_format(cat, &r, &o, &ctx);
        xa_out_char(&o, '\0');
        ok = !strcmp(o.buf, t->want);
        if ( !tap_ok(ok, "format %s", t->what) )
            printf("#   got  \"%s\"\n#   want \"%s\"\n", o.buf, t->want);
    }
    tap_ok(!o.error, "no output error");
    xa_out_dispose(&o);
}

int main(void)
{
    struct xa_catalog *cat = NULL;
    int rc = xa_catalog_new(&cat);

    if ( !tap_ok(rc == XA_OK && cat, "catalog builds (no duplicate ids)") )
        return tap_done();
    test_tables(cat);
    test_lookups(cat);
    test_names();
    test_format(cat);
    xa_catalog_free(cat);
    return tap_done();
}
