/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Hypercall sub-operations (the cmd argument of vcpu_op, sched_op,
 * grant_table_op, memory_op, ...), from Xen's public headers
 * (xen/include/public/{vcpu,sched,grant_table,memory,event_channel,
 * physdev,version,xen}.h and hvm/hvm_op.h, RELEASE-4.21.0; 4.22 adds no
 * sub-operation to these), and how each hypercall's traced arguments
 * read (xen/common/trace.c: __trace_hypercall()), as upstream xenalyze
 * decodes them.
 */
#include "catalog-private.h"

#define SUB(op, sub, name) { (op) << 16 | (sub), (name) },

enum {
    HC_MMU_UPDATE = 1,
    HC_MEMORY_OP = 12,
    HC_MULTICALL = 13,
    HC_XEN_VERSION = 17,
    HC_CONSOLE_IO = 18,
    HC_GRANT_TABLE_OP = 20,
    HC_VCPU_OP = 24,
    HC_MMUEXT_OP = 26,
    HC_SCHED_OP = 29,
    HC_EVENT_CHANNEL_OP = 32,
    HC_PHYSDEV_OP = 33,
    HC_HVM_OP = 34,
};

/* Sorted by (hypercall, sub-operation). */
static const struct xa_code_name subops[] = {
    SUB(HC_MEMORY_OP, 0, "increase_reservation")
    SUB(HC_MEMORY_OP, 1, "decrease_reservation")
    SUB(HC_MEMORY_OP, 2, "maximum_ram_page")
    SUB(HC_MEMORY_OP, 3, "current_reservation")
    SUB(HC_MEMORY_OP, 4, "maximum_reservation")
    SUB(HC_MEMORY_OP, 5, "machphys_mfn_list")
    SUB(HC_MEMORY_OP, 6, "populate_physmap")
    SUB(HC_MEMORY_OP, 7, "add_to_physmap")
    SUB(HC_MEMORY_OP, 9, "memory_map")
    SUB(HC_MEMORY_OP, 10, "machine_memory_map")
    SUB(HC_MEMORY_OP, 11, "exchange")
    SUB(HC_MEMORY_OP, 12, "machphys_mapping")
    SUB(HC_MEMORY_OP, 13, "set_memory_map")
    SUB(HC_MEMORY_OP, 14, "maximum_gpfn")
    SUB(HC_MEMORY_OP, 15, "remove_from_physmap")
    SUB(HC_MEMORY_OP, 16, "set_pod_target")
    SUB(HC_MEMORY_OP, 17, "get_pod_target")
    SUB(HC_MEMORY_OP, 18, "get_sharing_freed_pages")
    SUB(HC_MEMORY_OP, 19, "get_sharing_shared_pages")
    SUB(HC_MEMORY_OP, 20, "paging_op")
    SUB(HC_MEMORY_OP, 21, "access_op")
    SUB(HC_MEMORY_OP, 22, "sharing_op")
    SUB(HC_MEMORY_OP, 23, "add_to_physmap_batch")
    SUB(HC_MEMORY_OP, 24, "claim_pages")
    SUB(HC_MEMORY_OP, 25, "machphys_compat_mfn_list")
    SUB(HC_MEMORY_OP, 26, "get_vnumainfo")
    SUB(HC_MEMORY_OP, 27, "reserved_device_memory_map")
    SUB(HC_MEMORY_OP, 28, "acquire_resource")
    SUB(HC_XEN_VERSION, 0, "version")
    SUB(HC_XEN_VERSION, 1, "extraversion")
    SUB(HC_XEN_VERSION, 2, "compile_info")
    SUB(HC_XEN_VERSION, 3, "capabilities")
    SUB(HC_XEN_VERSION, 4, "changeset")
    SUB(HC_XEN_VERSION, 5, "platform_parameters")
    SUB(HC_XEN_VERSION, 6, "get_features")
    SUB(HC_XEN_VERSION, 7, "pagesize")
    SUB(HC_XEN_VERSION, 8, "guest_handle")
    SUB(HC_XEN_VERSION, 9, "commandline")
    SUB(HC_XEN_VERSION, 10, "build_id")
    SUB(HC_XEN_VERSION, 11, "extraversion2")
    SUB(HC_XEN_VERSION, 12, "capabilities2")
    SUB(HC_XEN_VERSION, 13, "changeset2")
    SUB(HC_XEN_VERSION, 14, "commandline2")
    SUB(HC_CONSOLE_IO, 0, "write")
    SUB(HC_CONSOLE_IO, 1, "read")
    SUB(HC_GRANT_TABLE_OP, 0, "map_grant_ref")
    SUB(HC_GRANT_TABLE_OP, 1, "unmap_grant_ref")
    SUB(HC_GRANT_TABLE_OP, 2, "setup_table")
    SUB(HC_GRANT_TABLE_OP, 3, "dump_table")
    SUB(HC_GRANT_TABLE_OP, 4, "transfer")
    SUB(HC_GRANT_TABLE_OP, 5, "copy")
    SUB(HC_GRANT_TABLE_OP, 6, "query_size")
    SUB(HC_GRANT_TABLE_OP, 7, "unmap_and_replace")
    SUB(HC_GRANT_TABLE_OP, 8, "set_version")
    SUB(HC_GRANT_TABLE_OP, 9, "get_status_frames")
    SUB(HC_GRANT_TABLE_OP, 10, "get_version")
    SUB(HC_GRANT_TABLE_OP, 11, "swap_grant_ref")
    SUB(HC_GRANT_TABLE_OP, 12, "cache_flush")
    SUB(HC_VCPU_OP, 0, "initialise")
    SUB(HC_VCPU_OP, 1, "up")
    SUB(HC_VCPU_OP, 2, "down")
    SUB(HC_VCPU_OP, 3, "is_up")
    SUB(HC_VCPU_OP, 4, "get_runstate_info")
    SUB(HC_VCPU_OP, 5, "register_runstate_memory_area")
    SUB(HC_VCPU_OP, 6, "set_periodic_timer")
    SUB(HC_VCPU_OP, 7, "stop_periodic_timer")
    SUB(HC_VCPU_OP, 8, "set_singleshot_timer")
    SUB(HC_VCPU_OP, 9, "stop_singleshot_timer")
    SUB(HC_VCPU_OP, 10, "register_vcpu_info")
    SUB(HC_VCPU_OP, 11, "send_nmi")
    SUB(HC_VCPU_OP, 12, "get_physid")
    SUB(HC_VCPU_OP, 13, "register_vcpu_time_memory_area")
    SUB(HC_VCPU_OP, 14, "register_runstate_phys_area")
    SUB(HC_VCPU_OP, 15, "register_vcpu_time_phys_area")
    SUB(HC_SCHED_OP, 0, "yield")
    SUB(HC_SCHED_OP, 1, "block")
    SUB(HC_SCHED_OP, 2, "shutdown")
    SUB(HC_SCHED_OP, 3, "poll")
    SUB(HC_SCHED_OP, 4, "remote_shutdown")
    SUB(HC_SCHED_OP, 5, "shutdown_code")
    SUB(HC_SCHED_OP, 6, "watchdog")
    SUB(HC_SCHED_OP, 7, "pin_override")
    SUB(HC_EVENT_CHANNEL_OP, 0, "bind_interdomain")
    SUB(HC_EVENT_CHANNEL_OP, 1, "bind_virq")
    SUB(HC_EVENT_CHANNEL_OP, 2, "bind_pirq")
    SUB(HC_EVENT_CHANNEL_OP, 3, "close")
    SUB(HC_EVENT_CHANNEL_OP, 4, "send")
    SUB(HC_EVENT_CHANNEL_OP, 5, "status")
    SUB(HC_EVENT_CHANNEL_OP, 6, "alloc_unbound")
    SUB(HC_EVENT_CHANNEL_OP, 7, "bind_ipi")
    SUB(HC_EVENT_CHANNEL_OP, 8, "bind_vcpu")
    SUB(HC_EVENT_CHANNEL_OP, 9, "unmask")
    SUB(HC_EVENT_CHANNEL_OP, 10, "reset")
    SUB(HC_EVENT_CHANNEL_OP, 11, "init_control")
    SUB(HC_EVENT_CHANNEL_OP, 12, "expand_array")
    SUB(HC_EVENT_CHANNEL_OP, 13, "set_priority")
    SUB(HC_EVENT_CHANNEL_OP, 14, "reset_cont")
    SUB(HC_PHYSDEV_OP, 1, "dbgp_reset_prepare")
    SUB(HC_PHYSDEV_OP, 4, "irq_unmask_notify")
    SUB(HC_PHYSDEV_OP, 5, "irq_status_query")
    SUB(HC_PHYSDEV_OP, 6, "set_iopl")
    SUB(HC_PHYSDEV_OP, 7, "set_iobitmap")
    SUB(HC_PHYSDEV_OP, 8, "apic_read")
    SUB(HC_PHYSDEV_OP, 9, "apic_write")
    SUB(HC_PHYSDEV_OP, 10, "alloc_irq_vector")
    SUB(HC_PHYSDEV_OP, 11, "free_irq_vector")
    SUB(HC_PHYSDEV_OP, 12, "eoi")
    SUB(HC_PHYSDEV_OP, 13, "map_pirq")
    SUB(HC_PHYSDEV_OP, 14, "unmap_pirq")
    SUB(HC_PHYSDEV_OP, 15, "manage_pci_add")
    SUB(HC_PHYSDEV_OP, 16, "manage_pci_remove")
    SUB(HC_PHYSDEV_OP, 17, "pirq_eoi_gmfn_v1")
    SUB(HC_PHYSDEV_OP, 19, "restore_msi")
    SUB(HC_PHYSDEV_OP, 20, "manage_pci_add_ext")
    SUB(HC_PHYSDEV_OP, 21, "setup_gsi")
    SUB(HC_PHYSDEV_OP, 23, "get_free_pirq")
    SUB(HC_PHYSDEV_OP, 24, "pci_mmcfg_reserved")
    SUB(HC_PHYSDEV_OP, 25, "pci_device_add")
    SUB(HC_PHYSDEV_OP, 26, "pci_device_remove")
    SUB(HC_PHYSDEV_OP, 27, "restore_msi_ext")
    SUB(HC_PHYSDEV_OP, 28, "pirq_eoi_gmfn_v2")
    SUB(HC_PHYSDEV_OP, 29, "dbgp_op")
    SUB(HC_PHYSDEV_OP, 30, "prepare_msix")
    SUB(HC_PHYSDEV_OP, 31, "release_msix")
    SUB(HC_PHYSDEV_OP, 32, "pci_device_reset")
    SUB(HC_HVM_OP, 0, "set_param")
    SUB(HC_HVM_OP, 1, "get_param")
    SUB(HC_HVM_OP, 2, "set_pci_intx_level")
    SUB(HC_HVM_OP, 3, "set_isa_irq_level")
    SUB(HC_HVM_OP, 4, "set_pci_link_route")
    SUB(HC_HVM_OP, 5, "flush_tlbs")
    SUB(HC_HVM_OP, 9, "pagetable_dying")
    SUB(HC_HVM_OP, 10, "get_time")
    SUB(HC_HVM_OP, 11, "xentrace")
    SUB(HC_HVM_OP, 12, "set_mem_access")
    SUB(HC_HVM_OP, 13, "get_mem_access")
    SUB(HC_HVM_OP, 15, "get_mem_type")
    SUB(HC_HVM_OP, 23, "set_evtchn_upcall_vector")
    SUB(HC_HVM_OP, 24, "guest_request_vm_event")
    SUB(HC_HVM_OP, 25, "altp2m")
};

/*
 * Which argument is the sub-operation (and its mask), which one a count
 * ("N updates"), which one a vCPU: what __trace_hypercall() records for
 * PV guests, and the first argument of Arm's TRC_ARM_HVC.  -1: none.
 */
static const struct xa_hypercall_args args[] = {
    { HC_MMU_UPDATE, -1, 0, 1, "updates", -1 },
    { HC_MEMORY_OP, 0, 0x3f, -1, NULL, -1 },   /* MEMOP_CMD_MASK */
    { HC_MULTICALL, -1, 0, 1, "calls", -1 },
    { HC_XEN_VERSION, 0, ~0u, -1, NULL, -1 },
    { HC_CONSOLE_IO, 0, ~0u, -1, NULL, -1 },
    { HC_GRANT_TABLE_OP, 0, ~0u, 2, "ops", -1 },
    { HC_VCPU_OP, 0, ~0u, -1, NULL, 1 },
    { HC_MMUEXT_OP, -1, 0, 1, "ops", -1 },
    { HC_SCHED_OP, 0, ~0u, -1, NULL, -1 },
    { HC_EVENT_CHANNEL_OP, 0, ~0u, -1, NULL, -1 },
    { HC_PHYSDEV_OP, 0, ~0u, -1, NULL, -1 },
    { HC_HVM_OP, 0, ~0u, -1, NULL, -1 },
};

const char *xa_hypercall_subop_name(uint32_t op, uint32_t sub)
{
    if ( op > 0xffff || sub > 0xffff )
        return NULL;
    return xa_code_name_find(subops, XA_ARRAY_SIZE(subops), op << 16 | sub);
}

const struct xa_hypercall_args *xa_hypercall_args(uint32_t op)
{
    unsigned int i;

    for ( i = 0; i < XA_ARRAY_SIZE(args); i++ )
        if ( args[i].op == op )
            return &args[i];
    return NULL;
}

bool xa_hypercall_subops_sorted(void)
{
    return xa_code_names_ascending(subops, XA_ARRAY_SIZE(subops));
}

/*
 * " cmd=NAME vcpu=N updates=N" for the arguments the rules know, then
 * the others as " argI=V"; present: bit i set when args[i] is there.
 */
void xa_fmt_hypercall_args(struct xa_out *o, uint32_t op,
                           const uint64_t *a, unsigned int present)
{
    static const char *const keys[6] = {
        "arg0", "arg1", "arg2", "arg3", "arg4", "arg5",
    };
    const struct xa_hypercall_args *r = xa_hypercall_args(op);
    unsigned int i, done = 0;

    if ( r && r->subop_arg >= 0 && (present >> r->subop_arg & 1) )
    {
        uint32_t sub = (uint32_t)a[r->subop_arg] & r->subop_mask;

        xa_fmt_kv_name(o, "cmd", xa_hypercall_subop_name(op, sub), sub);
        done |= 1u << r->subop_arg;
    }
    if ( r && r->vcpu_arg >= 0 && (present >> r->vcpu_arg & 1) )
    {
        xa_fmt_kv_u(o, "vcpu", a[r->vcpu_arg]);
        done |= 1u << r->vcpu_arg;
    }
    if ( r && r->count_arg >= 0 && (present >> r->count_arg & 1) )
    {
        uint32_t n = (uint32_t)a[r->count_arg];

        /* MMU_UPDATE_PREEMPTED: a continuation */
        xa_fmt_kv_u(o, r->count_unit, n & 0x7fffffffu);
        xa_fmt_flag(o, n & 0x80000000u, "preempted");
        done |= 1u << r->count_arg;
    }
    for ( i = 0; i < 6; i++ )
        if ( (present >> i & 1) && !(done >> i & 1) )
            xa_fmt_kv_u(o, keys[i], a[i]);
}
