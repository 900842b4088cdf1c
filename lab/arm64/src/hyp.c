// SPDX-License-Identifier: GPL-2.0-only
/*
 * dom0 workload of the arm64 lab, static so that it needs no library:
 *   hyp SECONDS
 * For SECONDS: reads /sys/hypervisor/version/{major,minor,extra} in a loop
 * (each read is a xen_version hypercall: TRC_HVM_ARM_HYPERCALL), and every
 * 30 reads touches 0x0c000000 through /dev/mem, an address QEMU virt's
 * device tree does not describe and Xen has no handler for: Xen injects a
 * data abort (TRC_HVM_ARM_INJ_EXC, stage-2 outcome INJECT) and the kernel
 * sends SIGBUS, which is caught.  Forks nothing: under TCG a fork costs
 * more than a thousand hypercalls.  Prints what it did.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static sigjmp_buf env;

static void on_bus(int sig)
{
    (void)sig;
    siglongjmp(env, 1);
}

static int read_file(const char *path)
{
    char buf[64];
    int fd = open(path, O_RDONLY), n;

    if (fd < 0)
        return -1;
    n = read(fd, buf, sizeof(buf));
    close(fd);
    return n;
}

int main(int argc, char **argv)
{
    static const char *files[] = {
        "/sys/hypervisor/version/major", "/sys/hypervisor/version/minor",
        "/sys/hypervisor/version/extra",
    };
    double secs = argc > 1 ? atof(argv[1]) : 3;
    long reads = 0, aborts = 0, tries = 0;
    struct timespec t0, t;
    volatile unsigned int *p = MAP_FAILED;
    int fd = open("/dev/mem", O_RDONLY | O_SYNC);

    if (fd >= 0)
        p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0x0c000000);
    signal(SIGBUS, on_bus);
    signal(SIGSEGV, on_bus);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do {
        for (int i = 0; i < 30; i++)
            if (read_file(files[i % 3]) > 0)
                reads++;
        if (p != MAP_FAILED) {
            tries++;
            if (sigsetjmp(env, 1) == 0)
                (void)*p;
            else
                aborts++;
        }
        clock_gettime(CLOCK_MONOTONIC, &t);
    } while ((t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9 < secs);
    printf("LAB: hyp: %ld sysfs reads, %ld/%ld /dev/mem reads aborted%s\n",
           reads, aborts, tries, p == MAP_FAILED ? " (no /dev/mem mapping)" : "");
    return 0;
}
