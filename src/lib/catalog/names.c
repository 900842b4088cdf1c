/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Number-to-name tables: VMX and SVM exit reasons, hypercalls and Xen's
 * fixed interrupt vectors.  Every table is sorted by code.
 */
#include "catalog-private.h"

#define XA_ER(code, name) { (code), (name) },

static const struct xa_code_name vmx_exits[] = {
#include "exit-reasons-vmx.h"
};

static const struct xa_code_name svm_exits[] = {
#include "exit-reasons-svm.h"
};

#undef XA_ER

/* xen/include/public/xen.h: __HYPERVISOR_*; 48 and 49 are x86's arch_0/1. */
static const struct xa_code_name hypercalls[] = {
    { 0, "set_trap_table" },
    { 1, "mmu_update" },
    { 2, "set_gdt" },
    { 3, "stack_switch" },
    { 4, "set_callbacks" },
    { 5, "fpu_taskswitch" },
    { 6, "sched_op_compat" },
    { 7, "platform_op" },
    { 8, "set_debugreg" },
    { 9, "get_debugreg" },
    { 10, "update_descriptor" },
    { 12, "memory_op" },
    { 13, "multicall" },
    { 14, "update_va_mapping" },
    { 15, "set_timer_op" },
    { 16, "event_channel_op_compat" },
    { 17, "xen_version" },
    { 18, "console_io" },
    { 19, "physdev_op_compat" },
    { 20, "grant_table_op" },
    { 21, "vm_assist" },
    { 22, "update_va_mapping_otherdomain" },
    { 23, "iret" },
    { 24, "vcpu_op" },
    { 25, "set_segment_base" },
    { 26, "mmuext_op" },
    { 27, "xsm_op" },
    { 28, "nmi_op" },
    { 29, "sched_op" },
    { 30, "callback_op" },
    { 31, "xenoprof_op" },
    { 32, "event_channel_op" },
    { 33, "physdev_op" },
    { 34, "hvm_op" },
    { 35, "sysctl" },
    { 36, "domctl" },
    { 37, "kexec_op" },
    { 38, "tmem_op" },
    { 39, "argo_op" },
    { 40, "xenpmu_op" },
    { 41, "dm_op" },
    { 42, "hypfs_op" },
    { 48, "mca" },
    { 49, "paging_domctl_cont" },
};

/*
 * PV events (TRC_PV_ENTRY + n) as upstream xenalyze names them in its
 * summary ("PV events:").
 */
static const struct xa_code_name pv_events[] = {
    { 1, "hypercall" },
    { 3, "trap" },
    { 4, "page_fault" },
    { 5, "forced_invalid_op" },
    { 6, "emulate privop" },
    { 7, "emulate 4g" },
    { 8, "math state restore" },
    { 9, "paging fixup" },
    { 10, "gdt/ldt mapping fault" },
    { 11, "ptwr" },
    { 12, "ptwr(pae)" },
    { 13, "hypercall" },
    { 14, "hypercall (subcall)" },
};

/* xen/arch/x86/include/asm/mach-default/irq_vectors.h */
static const struct xa_code_name vectors[] = {
    { 0x80, "LEGACY_SYSCALL" },
    { 0x82, "HYPERCALL" },
    { 0xf9, "PMU_APIC" },
    { 0xfa, "LOCAL_TIMER" },
    { 0xfb, "CALL_FUNCTION" },
    { 0xfc, "EVENT_CHECK" },
    { 0xfd, "INVALIDATE_TLB" },
    { 0xfe, "ERROR_APIC" },
    { 0xff, "SPURIOUS_APIC" },
};

const char *xa_vmx_exit_name(uint32_t reason)
{
    return xa_code_name_find(vmx_exits, XA_ARRAY_SIZE(vmx_exits), reason);
}

uint32_t xa_vmx_exit_max(void)
{
    return vmx_exits[XA_ARRAY_SIZE(vmx_exits) - 1].code;
}

const char *xa_svm_exit_name(uint32_t code)
{
    return xa_code_name_find(svm_exits, XA_ARRAY_SIZE(svm_exits), code);
}

const char *xa_hypercall_name(uint32_t nr)
{
    return xa_code_name_find(hypercalls, XA_ARRAY_SIZE(hypercalls), nr);
}

const char *xa_pv_event_name(uint32_t minor)
{
    return xa_code_name_find(pv_events, XA_ARRAY_SIZE(pv_events), minor);
}

const char *xa_vector_name(uint32_t vec)
{
    return xa_code_name_find(vectors, XA_ARRAY_SIZE(vectors), vec);
}

bool xa_code_names_ascending(const struct xa_code_name *tab, unsigned int n)
{
    unsigned int i;

    for ( i = 1; i < n; i++ )
        if ( tab[i - 1].code >= tab[i].code )
            return false;
    return true;
}

/* For the unit test: each table must be strictly ascending. */
bool xa_names_sorted(void)
{
    static const struct {
        const struct xa_code_name *tab;
        unsigned int n;
    } all[] = {
        { vmx_exits, XA_ARRAY_SIZE(vmx_exits) },
        { svm_exits, XA_ARRAY_SIZE(svm_exits) },
        { hypercalls, XA_ARRAY_SIZE(hypercalls) },
        { vectors, XA_ARRAY_SIZE(vectors) },
        { pv_events, XA_ARRAY_SIZE(pv_events) },
    };
    unsigned int i;

    for ( i = 0; i < XA_ARRAY_SIZE(all); i++ )
        if ( !xa_code_names_ascending(all[i].tab, all[i].n) )
            return false;
    return xa_arm_sysreg_sorted() && xa_hypercall_subops_sorted();
}
