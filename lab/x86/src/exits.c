// SPDX-License-Identifier: GPL-2.0-only
/*
 * exits: countable VM-exit workload for a PVH (or HVM) guest on SVM.
 *
 * Waits for a line on stdin (the dom0 lab script writes "go" to the
 * guest console once xentrace runs; after WAIT_S seconds it starts anyway),
 * then runs LOOPS loops.  Each loop executes, from user space:
 *   N_CPUID   CPUID     with leaf MARK|loop      -> VMEXIT 0x72 + HVM CPUID(leaf)
 *   N_RDTSC   RDTSC                              -> VMEXIT 0x6e (TSC emulated)
 *   N_OUT     OUTB 0x84                          -> VMEXIT 0x7b
 *   N_IN      INB  0x61                          -> VMEXIT 0x7b
 *   N_VMMCALL VMMCALL   with rax = MARK|loop     -> VMEXIT 0x81 + HVM VMMCALL(eax)
 *                                                   (CPL3: Xen returns -EPERM)
 *   N_MSR     pread /dev/cpu/0/msr at MSR_IDX    -> kernel RDMSR -> VMEXIT 0x7c
 * and then sleeps SLEEP_US (idle vCPU -> HLT exits).
 * The user-space exits all have a guest RIP inside this static binary
 * (below 0x1000000), which is how lab/x86/check.py tells them from the
 * kernel's own exits.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/io.h>
#include <time.h>
#include <unistd.h>

#define MARK 0x5eed0000u
#define MSR_IDX 0x1b /* IA32_APIC_BASE: intercepted on SVM */
enum { N_CPUID = 100, N_RDTSC = 20, N_OUT = 10, N_IN = 10, N_VMMCALL = 5, N_MSR = 5 };

static inline void do_cpuid(uint32_t leaf)
{
    uint32_t a = leaf, b, c = 0, d;
    __asm__ volatile("cpuid" : "+a"(a), "=b"(b), "+c"(c), "=d"(d));
}

static inline uint64_t do_rdtsc(void)
{
    uint32_t lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return ((uint64_t)hi << 32) | lo;
}

static inline long do_vmmcall(unsigned long a)
{
    __asm__ volatile("vmmcall" : "+a"(a) : : "memory");
    return (long)a;
}

int main(int argc, char **argv)
{
    int loops = argc > 1 ? atoi(argv[1]) : 30;
    int wait_s = argc > 2 ? atoi(argv[2]) : 60;
    int sleep_us = argc > 3 ? atoi(argv[3]) : 2000;
    int io = iopl(3) == 0;
    int msr = open("/dev/cpu/0/msr", O_RDONLY);
    cpu_set_t set;
    uint64_t t0, t1, sum = 0;
    long vret = 0;
    char buf[64];
    struct pollfd pfd = { .fd = 0, .events = POLLIN };
    struct timespec ts = { 0, sleep_us * 1000L };

    CPU_ZERO(&set);
    CPU_SET(0, &set);
    sched_setaffinity(0, sizeof(set), &set);
    setvbuf(stdout, NULL, _IONBF, 0);
    printf("EXITS READY loops=%d per-loop: cpuid=%d rdtsc=%d outb84=%d inb61=%d vmmcall=%d msr=%d "
           "(iopl %s, msr %s) main=%p\n", loops, N_CPUID, N_RDTSC, io ? N_OUT : 0, io ? N_IN : 0,
           N_VMMCALL, msr >= 0 ? N_MSR : 0, io ? "ok" : "FAILED", msr >= 0 ? "ok" : "FAILED",
           (void *)main);
    if (poll(&pfd, 1, wait_s * 1000) > 0)
        (void)!read(0, buf, sizeof(buf));
    else
        printf("EXITS no go after %d s, starting anyway\n", wait_s);

    t0 = do_rdtsc();
    for (int i = 0; i < loops; i++) {
        for (int j = 0; j < N_CPUID; j++)
            do_cpuid(MARK | (uint32_t)i);
        for (int j = 0; j < N_RDTSC; j++)
            sum += do_rdtsc();
        if (io) {
            for (int j = 0; j < N_OUT; j++)
                outb((unsigned char)i, 0x84);
            for (int j = 0; j < N_IN; j++)
                sum += inb(0x61);
        }
        for (int j = 0; j < N_VMMCALL; j++)
            vret = do_vmmcall(MARK | (uint32_t)i);
        if (msr >= 0)
            for (int j = 0; j < N_MSR; j++) {
                uint64_t v;
                if (pread(msr, &v, sizeof(v), MSR_IDX) == sizeof(v))
                    sum += v;
            }
        nanosleep(&ts, NULL);
    }
    t1 = do_rdtsc();
    printf("EXITS DONE loops=%d cpuid=%d rdtsc=%d ioio=%d vmmcall=%d msr=%d vmmcall_ret=%ld "
           "tsc_delta=%llu (sum %llx)\n", loops, loops * N_CPUID, loops * N_RDTSC,
           io ? loops * (N_OUT + N_IN) : 0, loops * N_VMMCALL, msr >= 0 ? loops * N_MSR : 0,
           vret, (unsigned long long)(t1 - t0), (unsigned long long)sum);
    return 0;
}
