/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The syndrome of an Arm exit (ESR_EL2, HSR on arm32) in words, and the
 * calls a guest makes (hypercalls, SMCCC), for both formats of our Arm
 * records.  Decoding follows the Arm ARM (D19.2.x,
 * ESR_EL2; G8.2.x, HSR).
 */
#include "catalog-private.h"

/* " DFSC/IFSC" status codes of aborts (Arm ARM, ISS encoding). */
static void fmt_fsc(struct xa_out *o, uint32_t fsc)
{
    static const char *const levels[] = { "0", "1", "2", "3" };
    const char *what = NULL;

    switch ( fsc & 0x3c )
    {
    case 0x04:
        what = "translation";
        break;
    case 0x08:
        what = "access_flag";
        break;
    case 0x0c:
        what = "permission";
        break;
    case 0x00:
        what = "address_size";
        break;
    default:
        break;
    }
    if ( what )
    {
        xa_out_str(o, " fault=");
        xa_out_str(o, what);
        xa_out_str(o, "_l");
        xa_out_str(o, levels[fsc & 3]);
    }
    else
        xa_fmt_kv_x(o, "fsc", fsc);
}

/* "x3" or "xzr" (31 is the zero register for these accesses). */
void xa_fmt_arm_reg(struct xa_out *o, unsigned int r)
{
    if ( r == 31 )
        xa_out_str(o, "xzr");
    else
    {
        xa_out_char(o, 'x');
        xa_out_u64(o, r);
    }
}

/* A system register by name, else by its op0/op1/CRn/CRm/op2 fields. */
void xa_fmt_arm_sysreg(struct xa_out *o, uint32_t iss)
{
    const char *name = xa_arm_sysreg_name(iss);

    if ( name )
    {
        xa_out_str(o, name);
        return;
    }
    xa_out_str(o, "S");
    xa_out_u64(o, (iss >> 20) & 3);
    xa_out_char(o, '_');
    xa_out_u64(o, (iss >> 14) & 7);
    xa_out_str(o, "_C");
    xa_out_u64(o, (iss >> 10) & 0xf);
    xa_out_str(o, "_C");
    xa_out_u64(o, (iss >> 1) & 0xf);
    xa_out_char(o, '_');
    xa_out_u64(o, (iss >> 17) & 7);
}

/* The ISS of a synchronous exit, decoded for the common classes. */
void xa_fmt_arm_iss(struct xa_out *o, uint32_t ec, uint32_t iss)
{
    switch ( ec )
    {
    case 0x01:                                  /* WFx: TI */
        xa_out_str(o, (iss & 3) == 0 ? " wfi" : (iss & 3) == 1 ? " wfe"
                      : (iss & 3) == 2 ? " wfit" : " wfet");
        break;
    case 0x12: case 0x13: case 0x16: case 0x17: /* HVC/SMC: imm16 */
        xa_fmt_kv_x(o, "imm", iss & 0xffff);
        break;
    case 0x18:                                  /* MSR/MRS */
        xa_out_str(o, (iss & 1) ? " mrs " : " msr ");
        xa_fmt_arm_reg(o, (iss >> 5) & 0x1f);
        xa_out_str(o, ", ");
        xa_fmt_arm_sysreg(o, iss & XA_ARM_SYSREG_ISS_MASK);
        break;
    case 0x24: case 0x25:                       /* data abort */
        if ( iss & (1u << 24) )                 /* ISV: syndrome valid */
        {
            xa_fmt_kv_u(o, "size", 1u << ((iss >> 22) & 3));
            xa_out_str(o, (iss & (1u << 6)) ? " write " : " read ");
            xa_fmt_arm_reg(o, (iss >> 16) & 0x1f);
        }
        else
            xa_out_str(o, (iss & (1u << 6)) ? " write" : " read");
        fmt_fsc(o, iss & 0x3f);
        break;
    case 0x03: case 0x05: case 0x08:            /* MCR/MRC, VMRS */
        xa_out_str(o, (iss & 1) ? " mrc p" : " mcr p");
        xa_out_u64(o, ec == 0x03 ? 15 : ec == 0x05 ? 14 : 10);
        xa_out_str(o, ", ");
        xa_out_u64(o, (iss >> 14) & 7);
        xa_out_str(o, ", r");
        xa_out_u64(o, (iss >> 5) & 0x1f);
        xa_out_str(o, ", c");
        xa_out_u64(o, (iss >> 10) & 0xf);
        xa_out_str(o, ", c");
        xa_out_u64(o, (iss >> 1) & 0xf);
        xa_out_str(o, ", ");
        xa_out_u64(o, (iss >> 17) & 7);
        break;
    case 0x04: case 0x0c:                       /* MCRR/MRRC */
        xa_out_str(o, (iss & 1) ? " mrrc p" : " mcrr p");
        xa_out_u64(o, ec == 0x04 ? 15 : 14);
        xa_out_str(o, ", ");
        xa_out_u64(o, (iss >> 16) & 0xf);
        xa_out_str(o, ", r");
        xa_out_u64(o, (iss >> 5) & 0x1f);
        xa_out_str(o, ", r");
        xa_out_u64(o, (iss >> 10) & 0x1f);
        xa_out_str(o, ", c");
        xa_out_u64(o, (iss >> 1) & 0xf);
        break;
    case 0x20: case 0x21:                       /* instruction abort */
        fmt_fsc(o, iss & 0x3f);
        break;
    default:
        xa_fmt_kv_x(o, "iss", iss);
        break;
    }
}


void xa_fmt_arm_call(struct xa_out *o, bool smccc, uint32_t nr, uint64_t arg)
{
    const char *name;

    if ( !smccc )
    {
        const struct xa_hypercall_args *h = xa_hypercall_args(nr);

        xa_fmt_kv_name(o, "op", xa_hypercall_name(nr), nr);
        /* a0 is the sub-operation (cmd) of many hypercalls. */
        if ( h && h->subop_arg == 0 )
            xa_fmt_hypercall_args(o, nr, &arg, 1);
        else
            xa_fmt_kv_x(o, "a0", arg);
        return;
    }
    xa_fmt_kv_x(o, "fid", nr);
    if ( (name = xa_psci_name(nr)) )
    {
        xa_out_char(o, '(');
        xa_out_str(o, name);
        xa_out_char(o, ')');
    }
    xa_fmt_kv_x(o, "a1", arg);
}
