/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * TRC_HVM: VM entries and exits, the exit handlers and emulated devices.
 * HVMTRACE_*() in xen/arch/x86/include/asm/hvm/trace.h builds these
 * records from u32 words; its _LONG_ forms add TRC_64_FLAG and split a
 * 64-bit value into low and high words.  SVM marks entries and exits of
 * a nested guest with TRC_HVM_NESTEDFLAG.
 */
#include "catalog-private.h"

#define XA_H(e)         (XA_TRC_HVM_HANDLER + (e))
#define XA_H64(e)       (XA_TRC_HVM_HANDLER + XA_TRC_64_FLAG + (e))
#define XA_EMUL(e)      (XA_TRC_HVM_EMUL + (e))
#define XA_NESTED       XA_TRC_HVM_NESTEDFLAG

/* " exit_reason=NAME", the VMX basic reason or the SVM exit code. */
static void fmt_exit_reason(struct xa_out *o, uint32_t reason, bool svm)
{
    const char *name = svm ? xa_svm_exit_name(reason)
                           : xa_vmx_exit_name(reason & 0xffff);

    xa_out_str(o, " exit_reason=");
    if ( !name )
    {
        xa_out_str(o, "UNKNOWN(0x");
        xa_out_hex(o, reason);
        xa_out_char(o, ')');
        return;
    }
    xa_out_str(o, name);
    /* VMX bits 16-31: entry failure (31), exit from enclave (27)... */
    if ( !svm && (reason >> 16) )
        xa_fmt_kv_x(o, "exit_flags", reason & 0xffff0000u);
}

/*
 * xen/arch/x86/hvm/vmx/vmx.c: vmx_vmexit_handler() and
 * xen/arch/x86/hvm/svm/svm.c: svm_vmexit_handler(), { reason, rip }.
 * Until Xen 4.19 both use TRC_HVM_VMEXIT, so the trace's vendor comes
 * from ctx; Xen 4.19's TRC_HVM_SVM_EXIT ids say SVM themselves.
 */
static void fmt_vmexit(const struct xa_record *r, struct xa_out *o,
                       const struct xa_fmt_ctx *ctx)
{
    bool svm = (r->event & 0xff) == (XA_TRC_HVM_SVM_EXIT & 0xff) ||
               ctx->hvm_mode == XA_HVM_SVM;

    fmt_exit_reason(o, r->extra[0], svm);
    xa_fmt_fields(r, o, ":_ rip:a");
}

/*
 * xen/arch/x86/hvm/hvm.c: hvm_cpuid_intercept(), { leaf, subleaf, a, b,
 * c, d }; Xen before 4.6 logged no subleaf.
 */
static void fmt_cpuid(const struct xa_record *r, struct xa_out *o,
                      const struct xa_fmt_ctx *ctx)
{
    (void)ctx;
    xa_fmt_fields(r, o, r->nr_extra < 6 ? "leaf:x eax:x ebx:x ecx:x edx:x"
                  : "leaf:x subleaf:x eax:x ebx:x ecx:x edx:x");
}

/*
 * vmx.c: vmx_do_extint(), the host vector; svm.c logs no vector.
 * Xen's own vectors are named.
 */
static void fmt_intr(const struct xa_record *r, struct xa_out *o,
                     const struct xa_fmt_ctx *ctx)
{
    const char *name;

    (void)ctx;
    if ( !r->nr_extra )
        return;
    xa_fmt_kv_x(o, "vec", r->extra[0]);
    name = xa_vector_name(r->extra[0]);
    if ( !name )
        return;
    xa_out_char(o, '(');
    xa_out_str(o, name);
    xa_out_char(o, ')');
}

/* vmx.c, svm.c: fault handlers and event injection */
XA_FMT_FIELDS(fmt_pf_xen, "ec:x va:a")
XA_FMT_FIELDS(fmt_pf_inject, "ec:x cr2:a")
XA_FMT_FIELDS(fmt_inj_exc, "vec:x ec:x")
XA_FMT_FIELDS(fmt_inj_virq, "vec:x fake:u")
XA_FMT_FIELDS(fmt_vec, "vec:x")
XA_FMT_FIELDS(fmt_io, "port:x size:u")
/* hvm.c, emulate.c: control and extended control registers */
XA_FMT_FIELDS(fmt_cr, "cr:u val:a")
XA_FMT_FIELDS(fmt_xcr, "xcr:u val:a")
/* hvm.c: hvm_msr_{read,write}_intercept(), { msr, lo, hi } */
XA_FMT_FIELDS(fmt_msr, "msr:x val:X")
/* vmx.c, svm.c: the hypercall number in eax */
XA_FMT_FIELDS(fmt_vmmcall, "op:c")
/* hvm.c: hvm_hlt() */
XA_FMT_FIELDS(fmt_hlt, "pending:u")
/* vmx.c, svm.c: { invlpga, va } */
XA_FMT_FIELDS(fmt_invlpg, "invlpga:u va:a")
/* emulate.c: hvmtrace_io_assist(), { addr; data unless data_is_ptr } */
XA_FMT_FIELDS(fmt_ioport, "port:a data:a")
XA_FMT_FIELDS(fmt_iomem, "gpa:a data:a")
/* vmx.c: vmx_cr_access() */
XA_FMT_FIELDS(fmt_lmsw, "val:a")
/* hvm.c: hvm_rdtsc_intercept(), { eax, edx } */
XA_FMT_FIELDS(fmt_rdtsc, "tsc:X")
/* vmx/intr.c, svm/intr.c: { vector, source, pending injection or -1 } */
XA_FMT_FIELDS(fmt_intr_window, "vec:x source:u inj:i")
/* vmx.c: ept_handle_violation(), svm.c: svm_do_nested_pgfault() */
XA_FMT_FIELDS(fmt_npf, "gpa:X mfn:X qual:x p2mt:u")
/* vmx.c: vmx_vmexit_handler() */
XA_FMT_FIELDS(fmt_trap_debug, "qual:x")

/* Emulated devices: hpet.c, emul-i8254.c, rtc.c, vlapic.c, vpic.c */
XA_FMT_FIELDS(fmt_hpet_start, "tn:u irq:u delta:U period:U")
XA_FMT_FIELDS(fmt_start, "delta:u period:u")
XA_FMT_FIELDS(fmt_lapic_start, "delta:U period:U irq:u")
XA_FMT_FIELDS(fmt_hpet_stop, "tn:u")
XA_FMT_FIELDS(fmt_pic_output, "int_output:u master:u irq:u")
XA_FMT_FIELDS(fmt_irq, "irq:u")
XA_FMT_FIELDS(fmt_pic_intack, "master:u irq:u")
XA_FMT_FIELDS(fmt_pic_pend, "accept:u int_output:u")
XA_FMT_FIELDS(fmt_lapic_pic, "target:u accept:u")

static const struct xa_event_desc events[] = {
    { XA_TRC_HVM_VMENTRY, "vmentry", 0, NULL },
    { XA_TRC_HVM_VMENTRY | XA_NESTED, "nvmentry", 0, NULL },
    { XA_TRC_HVM_VMEXIT, "vmexit", 2, fmt_vmexit },
    { XA_TRC_HVM_VMEXIT64, "vmexit", 3, fmt_vmexit },
    { XA_TRC_HVM_VMEXIT | XA_NESTED, "nvmexit", 2, fmt_vmexit },
    { XA_TRC_HVM_VMEXIT64 | XA_NESTED, "nvmexit", 3, fmt_vmexit },
    { XA_TRC_HVM_SVM_EXIT, "vmexit", 2, fmt_vmexit },
    { XA_TRC_HVM_SVM_EXIT64, "vmexit", 3, fmt_vmexit },
    { XA_TRC_HVM_SVM_EXIT | XA_NESTED, "nvmexit", 2, fmt_vmexit },
    { XA_TRC_HVM_SVM_EXIT64 | XA_NESTED, "nvmexit", 3, fmt_vmexit },

    /* TRC_HVM_HANDLER */
    { XA_H(0x01), "pf_xen", 2, fmt_pf_xen },
    { XA_H64(0x01), "pf_xen", 3, fmt_pf_xen },
    { XA_H(0x02), "pf_inject", 2, fmt_pf_inject },
    { XA_H64(0x02), "pf_inject", 3, fmt_pf_inject },
    { XA_H(0x03), "inj_exc", 2, fmt_inj_exc },
    { XA_H(0x04), "inj_virq", 2, fmt_inj_virq },
    { XA_H(0x05), "reinj_virq", 1, fmt_vec },
    { XA_H(0x06), "io_read", 2, fmt_io },
    { XA_H(0x07), "io_write", 2, fmt_io },
    { XA_H(0x08), "cr_read", 2, fmt_cr },
    { XA_H64(0x08), "cr_read", 3, fmt_cr },
    { XA_H(0x09), "cr_write", 2, fmt_cr },
    { XA_H64(0x09), "cr_write", 3, fmt_cr },
    { XA_H(0x0a), "dr_read", 0, NULL },
    { XA_H(0x0b), "dr_write", 0, NULL },
    { XA_H(0x0c), "msr_read", 3, fmt_msr },
    { XA_H(0x0d), "msr_write", 3, fmt_msr },
    { XA_H(0x0e), "cpuid", 5, fmt_cpuid },
    { XA_H(0x0f), "intr", 0, fmt_intr },
    { XA_H(0x10), "nmi", 0, NULL },
    { XA_H(0x11), "smi", 0, NULL },
    { XA_H(0x12), "vmmcall", 1, fmt_vmmcall },
    { XA_H(0x13), "hlt", 1, fmt_hlt },
    { XA_H(0x14), "invlpg", 2, fmt_invlpg },
    { XA_H64(0x14), "invlpg", 3, fmt_invlpg },
    { XA_H(0x15), "mce", 0, NULL },
    { XA_H(0x16), "ioport_read", 1, fmt_ioport },
    { XA_H64(0x16), "ioport_read", 2, fmt_ioport },
    { XA_H(0x216), "ioport_write", 1, fmt_ioport },
    { XA_H64(0x216), "ioport_write", 2, fmt_ioport },
    { XA_H(0x17), "iomem_read", 1, fmt_iomem },
    { XA_H64(0x17), "iomem_read", 2, fmt_iomem },
    { XA_H(0x217), "iomem_write", 1, fmt_iomem },
    { XA_H64(0x217), "iomem_write", 2, fmt_iomem },
    { XA_H(0x18), "clts", 0, NULL },
    { XA_H(0x19), "lmsw", 1, fmt_lmsw },
    { XA_H64(0x19), "lmsw", 2, fmt_lmsw },
    { XA_H(0x1a), "rdtsc", 2, fmt_rdtsc },
    { XA_H(0x20), "intr_window", 3, fmt_intr_window },
    { XA_H(0x21), "npf", 6, fmt_npf },
    { XA_H(0x22), "realmode_emulate", 0, NULL },
    { XA_H(0x23), "hvm_trap", 1, fmt_vec },
    { XA_H(0x24), "trap_debug", 1, fmt_trap_debug },
    { XA_H(0x25), "vlapic", 0, NULL },
    { XA_H64(0x26), "xcr_read", 3, fmt_xcr },
    { XA_H64(0x27), "xcr_write", 3, fmt_xcr },

    /* TRC_HVM_EMUL */
    { XA_EMUL(0x01), "hpet_start_timer", 6, fmt_hpet_start },
    { XA_EMUL(0x02), "pit_start_timer", 2, fmt_start },
    { XA_EMUL(0x03), "rtc_start_timer", 2, fmt_start },
    { XA_EMUL(0x04), "lapic_start_timer", 5, fmt_lapic_start },
    { XA_EMUL(0x05), "hpet_stop_timer", 1, fmt_hpet_stop },
    { XA_EMUL(0x06), "pit_stop_timer", 0, NULL },
    { XA_EMUL(0x07), "rtc_stop_timer", 0, NULL },
    { XA_EMUL(0x08), "lapic_stop_timer", 0, NULL },
    { XA_EMUL(0x09), "pit_timer_cb", 0, NULL },
    { XA_EMUL(0x0a), "lapic_timer_cb", 0, NULL },
    { XA_EMUL(0x0b), "pic_int_output", 3, fmt_pic_output },
    { XA_EMUL(0x0c), "pic_kick", 1, fmt_irq },
    { XA_EMUL(0x0d), "pic_intack", 2, fmt_pic_intack },
    { XA_EMUL(0x0e), "pic_posedge", 1, fmt_irq },
    { XA_EMUL(0x0f), "pic_negedge", 1, fmt_irq },
    { XA_EMUL(0x10), "pic_pend_irq_call", 2, fmt_pic_pend },
    { XA_EMUL(0x11), "lapic_pic_intr", 2, fmt_lapic_pic },
};

XA_DEFINE_CLASS(hvm, events);
