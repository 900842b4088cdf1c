/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Trace classes and event ids, named after Xen's TRC_* macros in
 * xen/include/public/trace.h so that one grep finds both.
 */
#ifndef XA_TRACE_H
#define XA_TRACE_H

#ifdef __cplusplus
extern "C" {
#endif

#define XA_TRC_64_FLAG              0x100

/* Class bits (bits 16-27 of an event id; one main class bit 20-27). */
#define XA_TRC_GEN                  0x0001f000
#define XA_TRC_SCHED                0x0002f000
#define XA_TRC_DOM0OP               0x0004f000
#define XA_TRC_HVM                  0x0008f000
#define XA_TRC_MEM                  0x0010f000
#define XA_TRC_PV                   0x0020f000
#define XA_TRC_SHADOW               0x0040f000
#define XA_TRC_HW                   0x0080f000
#define XA_TRC_ARM                  0x0100f000  /* ours: docs/arm-trace-events.md */
#define XA_TRC_GUEST                0x0800f000

#define XA_TRC_MAIN(ev)             (((ev) >> 16) & 0xfff)
#define XA_TRC_SUB(ev)              (((ev) >> 12) & 0xf)

#define XA_TRC_LOST_RECORDS         0x0001f001
#define XA_TRC_TRACE_WRAP_BUFFER    0x0001f002
#define XA_TRC_TRACE_CPU_CHANGE     0x0001f003
#define XA_TRC_TRACE_CPU_CHANGE_HDR 0x2001f003  /* header word as on disk */
/* The trace clock's rate in kHz, written once by a patched xentrace. */
#define XA_TRC_TRACE_CLOCK_KHZ      0x0001f005

#define XA_TRC_SCHED_MIN            0x00021000
#define XA_TRC_SCHED_CLASS          0x00022000
#define XA_TRC_SCHED_VERBOSE        0x00028000
#define XA_TRC_SCHED_RUNSTATE_CHANGE  (XA_TRC_SCHED_MIN + 1)
#define XA_TRC_SCHED_CONTINUE_RUNNING (XA_TRC_SCHED_MIN + 2)
/* Runstate changes carry old state in bits 8-9, new state in bits 4-5. */
#define XA_TRC_RUNSTATE_MASK        0x330
#define XA_TRC_SCHED_SWITCH         (XA_TRC_SCHED_VERBOSE + 10)
#define XA_TRC_SCHED_SWITCH_INFPREV (XA_TRC_SCHED_VERBOSE + 14)
#define XA_TRC_SCHED_SWITCH_INFNEXT (XA_TRC_SCHED_VERBOSE + 15)

#define XA_TRC_HVM_ENTRYEXIT        0x00081000
#define XA_TRC_HVM_HANDLER          0x00082000
#define XA_TRC_HVM_EMUL             0x00084000
#define XA_TRC_HVM_NESTEDFLAG       0x400
#define XA_TRC_HVM_VMENTRY          (XA_TRC_HVM_ENTRYEXIT + 0x01)
#define XA_TRC_HVM_VMEXIT           (XA_TRC_HVM_ENTRYEXIT + 0x02)
#define XA_TRC_HVM_VMEXIT64         (XA_TRC_HVM_ENTRYEXIT + XA_TRC_64_FLAG + 0x02)
/* Xen 4.19+: separate SVM exit records (xen/arch/x86/hvm/svm/svm.c). */
#define XA_TRC_HVM_SVM_EXIT         (XA_TRC_HVM_ENTRYEXIT + 0x03)
#define XA_TRC_HVM_SVM_EXIT64       (XA_TRC_HVM_ENTRYEXIT + XA_TRC_64_FLAG + 0x03)

/*
 * Xen on Arm, format 2 (docs/arm-trace-events.md): exits beside VMX's and
 * SVM's, the entry and two handler records shared with x86, and Arm
 * handler records in a block x86 never used.
 */
#define XA_TRC_HVM_ARM_EXIT         (XA_TRC_HVM_ENTRYEXIT + 0x04)
#define XA_TRC_HVM_ARM_EXIT_IRQ     (XA_TRC_HVM_ENTRYEXIT + 0x05)
#define XA_TRC_HVM_INJ_VIRQ         (XA_TRC_HVM_HANDLER + 0x04)
#define XA_TRC_HVM_HLT              (XA_TRC_HVM_HANDLER + 0x13)
#define XA_TRC_HVM_ARM_HYPERCALL    (XA_TRC_HVM_HANDLER + 0x30)
#define XA_TRC_HVM_ARM_SMCCC        (XA_TRC_HVM_HANDLER + 0x31)
#define XA_TRC_HVM_ARM_SYSREG       (XA_TRC_HVM_HANDLER + 0x32)
#define XA_TRC_HVM_ARM_MMIO         (XA_TRC_HVM_HANDLER + 0x33)
#define XA_TRC_HVM_ARM_S2_FAULT     (XA_TRC_HVM_HANDLER + 0x34)
#define XA_TRC_HVM_ARM_INJ_EXC      (XA_TRC_HVM_HANDLER + 0x35)
#define XA_TRC_HVM_ARM_IRQ          (XA_TRC_HVM_HANDLER + 0x36)
/* ESR ISS bits of a trapped MSR/MRS naming the register (Op0..CRm). */
#define XA_ARM_SYSREG_ISS_MASK      0x3ffc1e
/* TRC_HVM_ARM_MMIO flags */
#define XA_ARM_MMIO_SIZE_MASK       0x3
#define XA_ARM_MMIO_WRITE           0x4
#define XA_ARM_MMIO_IOREQ           0x8
#define XA_ARM_MMIO_FAILED          0x10
/* TRC_HVM_ARM_S2_FAULT outcomes */
#define XA_ARM_S2_RETRY             0
#define XA_ARM_S2_P2M               1
#define XA_ARM_S2_MMIO              2
#define XA_ARM_S2_IOREQ             3
#define XA_ARM_S2_MEM_ACCESS        4
#define XA_ARM_S2_INJECT            5
#define XA_ARM_S2_SERROR            6

#define XA_TRC_PV_ENTRY             0x00201000
#define XA_TRC_PV_SUBCALL           0x00202000

/* Xen on Arm, format 1 (withdrawn, xen-patches/4.17): a class of its own. */
#define XA_TRC_ARM_ENTRYEXIT        0x01001000
#define XA_TRC_ARM_HANDLER          0x01002000
#define XA_TRC_ARM_INFO             0x01004000
#define XA_TRC_ARM_GUEST_EXIT       (XA_TRC_ARM_ENTRYEXIT + 0x01)
#define XA_TRC_ARM_GUEST_ENTRY      (XA_TRC_ARM_ENTRYEXIT + 0x02)
#define XA_TRC_ARM_HVC              (XA_TRC_ARM_HANDLER + 0x01)
#define XA_TRC_ARM_SMC              (XA_TRC_ARM_HANDLER + 0x02)
#define XA_TRC_ARM_DABT             (XA_TRC_ARM_HANDLER + 0x03)
#define XA_TRC_ARM_SYSREG           (XA_TRC_ARM_HANDLER + 0x04)
#define XA_TRC_ARM_CP               (XA_TRC_ARM_HANDLER + 0x05)
#define XA_TRC_ARM_WFX              (XA_TRC_ARM_HANDLER + 0x06)
#define XA_TRC_ARM_IRQ              (XA_TRC_ARM_HANDLER + 0x07)
#define XA_TRC_ARM_VGIC_MAINT       (XA_TRC_ARM_HANDLER + 0x08)
#define XA_TRC_ARM_CLOCK            (XA_TRC_ARM_INFO + 0x01)
/* Exit codes of asynchronous Arm exits (synchronous ones: the EC). */
#define XA_ARM_CODE_IRQ             0x100
#define XA_ARM_CODE_FIQ             0x101
#define XA_ARM_CODE_SERROR          0x102

#define XA_TRC_HW_PM                0x00801000
#define XA_TRC_HW_IRQ               0x00802000

#ifdef __cplusplus
}
#endif

#endif /* XA_TRACE_H */
