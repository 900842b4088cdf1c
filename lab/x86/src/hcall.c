// SPDX-License-Identifier: GPL-2.0-only
/*
 * hcall: countable PV workload for dom0.
 *
 * LOOPS loops; each loop issues N_HCALL vcpu_op(cmd = MARK_CMD, vcpuid = loop)
 * hypercalls through the privcmd driver.  Xen rejects them (-ENOENT: no such
 * vCPU) but first logs TRC_PV_HYPERCALL_V2 with op 24 and both arguments, so
 * lab/x86/check.py counts them per loop exactly.  Each loop also
 * writes one byte to each of N_PAGES fresh anonymous pages (-> one PV page
 * fault per page, TRC_PV_PAGE_FAULT|TRC_64_FLAG with a user RIP inside this
 * static binary), then sleeps SLEEP_US.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

struct privcmd_hypercall {
    uint64_t op;
    uint64_t arg[5];
};
#define IOCTL_PRIVCMD_HYPERCALL _IOC(_IOC_NONE, 'P', 0, sizeof(struct privcmd_hypercall))
#define HYPERVISOR_vcpu_op 24
#define MARK_CMD 0x5eed
enum { N_HCALL = 100, N_PAGES = 32 };

int main(int argc, char **argv)
{
    int loops = argc > 1 ? atoi(argv[1]) : 50;
    int sleep_us = argc > 2 ? atoi(argv[2]) : 2000;
    int fd = open("/proc/xen/privcmd", O_RDWR);
    long ret = 0, rejected = 0, pages = 0;
    struct timespec ts = { 0, sleep_us * 1000L };

    if (fd < 0)
        fd = open("/dev/xen/privcmd", O_RDWR);
    if (fd < 0) {
        perror("privcmd");
        return 1;
    }
    printf("HCALL START loops=%d per-loop: vcpu_op(0x5eed)=%d pages=%d main=%p\n", loops, N_HCALL,
           N_PAGES, (void *)main);
    fflush(stdout);
    for (int i = 0; i < loops; i++) {
        struct privcmd_hypercall h = { .op = HYPERVISOR_vcpu_op,
                                       .arg = { MARK_CMD, 0x10000 + (uint64_t)i } };
        char *p;

        for (int j = 0; j < N_HCALL; j++) {
            ret = ioctl(fd, IOCTL_PRIVCMD_HYPERCALL, &h);
            rejected += ret < 0;
        }
        p = mmap(NULL, N_PAGES * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p != MAP_FAILED) {
            madvise(p, N_PAGES * 4096, MADV_NOHUGEPAGE);
            for (int j = 0; j < N_PAGES; j++)
                p[j * 4096] = (char)j;
            pages += N_PAGES;
            munmap(p, N_PAGES * 4096);
        }
        nanosleep(&ts, NULL);
    }
    printf("HCALL DONE loops=%d vcpu_op=%d rejected=%ld pages=%ld last=%ld\n", loops,
           loops * N_HCALL, rejected, pages, ret);
    return 0;
}
