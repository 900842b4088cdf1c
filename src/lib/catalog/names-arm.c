/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Arm names: exception classes (ESR_EL2.EC, Arm ARM D19 / Linux's
 * arch/arm64/include/asm/esr.h), PSCI and SMCCC function ids (Arm DEN0022,
 * DEN0028).  System registers: names-arm-sysreg.c.
 */
#include "catalog-private.h"

static const struct xa_code_name ec_names[] = {
    { 0x00, "UNKNOWN" },
    { 0x01, "WFx" },
    { 0x03, "CP15_32" },
    { 0x04, "CP15_64" },
    { 0x05, "CP14_32" },
    { 0x06, "CP14_LS" },
    { 0x07, "FP_ASIMD" },
    { 0x08, "CP10_ID" },
    { 0x09, "PAC" },
    { 0x0a, "LS64" },
    { 0x0c, "CP14_64" },
    { 0x0d, "BTI" },
    { 0x0e, "ILL" },
    { 0x11, "SVC32" },
    { 0x12, "HVC32" },
    { 0x13, "SMC32" },
    { 0x15, "SVC64" },
    { 0x16, "HVC64" },
    { 0x17, "SMC64" },
    { 0x18, "SYSREG" },
    { 0x19, "SVE" },
    { 0x1a, "ERET" },
    { 0x1b, "TSTART" },
    { 0x1c, "FPAC" },
    { 0x1d, "SME" },
    { 0x1f, "IMP_DEF" },
    { 0x20, "IABT_LOW" },
    { 0x21, "IABT_CUR" },
    { 0x22, "PC_ALIGN" },
    { 0x24, "DABT_LOW" },
    { 0x25, "DABT_CUR" },
    { 0x26, "SP_ALIGN" },
    { 0x27, "MOPS" },
    { 0x28, "FP_EXC32" },
    { 0x2c, "FP_EXC64" },
    { 0x2d, "GCS" },
    { 0x2f, "SERROR" },
    { 0x30, "BREAKPT_LOW" },
    { 0x31, "BREAKPT_CUR" },
    { 0x32, "SOFTSTP_LOW" },
    { 0x33, "SOFTSTP_CUR" },
    { 0x34, "WATCHPT_LOW" },
    { 0x35, "WATCHPT_CUR" },
    { 0x38, "BKPT32" },
    { 0x3a, "VECTOR32" },
    { 0x3c, "BRK64" },
    { 0x3d, "PROFILING" },
    { XA_ARM_CODE_IRQ, "IRQ" },
    { XA_ARM_CODE_FIQ, "FIQ" },
    { XA_ARM_CODE_SERROR, "SERROR_ASYNC" },
};

static const struct xa_code_name psci_names[] = {
    { 0x80000000, "SMCCC_VERSION" },
    { 0x80000001, "SMCCC_ARCH_FEATURES" },
    { 0x80000002, "SMCCC_ARCH_SOC_ID" },
    { 0x80003fff, "SMCCC_ARCH_WORKAROUND_3" },
    { 0x80007fff, "SMCCC_ARCH_WORKAROUND_2" },
    { 0x80008000, "SMCCC_ARCH_WORKAROUND_1" },
    { 0x84000000, "PSCI_VERSION" },
    { 0x84000001, "CPU_SUSPEND" },
    { 0x84000002, "CPU_OFF" },
    { 0x84000003, "CPU_ON" },
    { 0x84000004, "AFFINITY_INFO" },
    { 0x84000005, "MIGRATE" },
    { 0x84000006, "MIGRATE_INFO_TYPE" },
    { 0x84000007, "MIGRATE_INFO_UP_CPU" },
    { 0x84000008, "SYSTEM_OFF" },
    { 0x84000009, "SYSTEM_RESET" },
    { 0x8400000a, "PSCI_FEATURES" },
    { 0x8400000b, "CPU_FREEZE" },
    { 0x8400000c, "CPU_DEFAULT_SUSPEND" },
    { 0x8400000d, "NODE_HW_STATE" },
    { 0x8400000e, "SYSTEM_SUSPEND" },
    { 0x8400000f, "PSCI_SET_SUSPEND_MODE" },
    { 0x84000010, "PSCI_STAT_RESIDENCY" },
    { 0x84000011, "PSCI_STAT_COUNT" },
    { 0x84000012, "SYSTEM_RESET2" },
    { 0x84000013, "MEM_PROTECT" },
    { 0x84000014, "MEM_PROTECT_CHECK_RANGE" },
    { 0xc4000001, "CPU_SUSPEND64" },
    { 0xc4000003, "CPU_ON64" },
    { 0xc4000004, "AFFINITY_INFO64" },
    { 0xc4000005, "MIGRATE64" },
    { 0xc4000007, "MIGRATE_INFO_UP_CPU64" },
    { 0xc400000c, "CPU_DEFAULT_SUSPEND64" },
    { 0xc400000d, "NODE_HW_STATE64" },
    { 0xc400000e, "SYSTEM_SUSPEND64" },
    { 0xc4000010, "PSCI_STAT_RESIDENCY64" },
    { 0xc4000011, "PSCI_STAT_COUNT64" },
    { 0xc4000012, "SYSTEM_RESET2_64" },
    { 0xc4000013, "MEM_PROTECT_CHECK_RANGE64" },
};

const char *xa_arm_ec_name(uint32_t ec)
{
    return xa_code_name_find(ec_names, XA_ARRAY_SIZE(ec_names), ec);
}

const char *xa_psci_name(uint32_t fid)
{
    return xa_code_name_find(psci_names, XA_ARRAY_SIZE(psci_names), fid);
}
