/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * trace-repeat: make a large trace from a real one, for benchmarks.
 *
 *   trace-repeat IN OUT COPIES
 *
 * Writes COPIES time-shifted copies of IN one after the other.  Before each
 * copy but the first, every CPU gets a window holding one lost-records
 * record (count 0, by the idle vCPU of that CPU), whose first_tsc is the
 * CPU's last TSC of the previous copy: a real gap in a trace looks like
 * that, so the analyzer resynchronises vCPU state at each seam.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define CPU_CHANGE 0x2001f003u
#define LOST 0x0001f001u
#define MAX_CPUS 4096

static uint32_t rd32(const uint8_t *p)
{
    uint32_t v;

    memcpy(&v, p, 4);
    return v;
}

static uint64_t rd64(const uint8_t *p)
{
    uint64_t v;

    memcpy(&v, p, 8);
    return v;
}

static void wr64(uint8_t *p, uint64_t v)
{
    memcpy(p, &v, 8);
}

/* Calls fn(cpu, record pointer, record size) for every record of a window. */
static int walk(uint8_t *data, size_t size,
                void (*fn)(unsigned int cpu, uint8_t *rec, void *arg),
                void *arg)
{
    size_t off = 0;

    while ( off + 12 <= size )
    {
        uint32_t cpu = rd32(data + off + 4), len = rd32(data + off + 8);
        size_t p = off + 12, end = off + 12 + len;

        if ( rd32(data + off) != CPU_CHANGE || end > size || cpu >= MAX_CPUS )
        {
            fprintf(stderr, "trace-repeat: unexpected data at %zu\n", off);
            return -1;
        }
        while ( p + 4 <= end )
        {
            uint32_t hdr = rd32(data + p);

            fn(cpu, data + p, arg);
            p += 4 + (hdr >> 31) * 8 + ((hdr >> 28) & 7) * 4;
        }
        off = end;
    }
    return 0;
}

struct range {
    uint64_t first[MAX_CPUS], last[MAX_CPUS];
    uint64_t gfirst, glast;
};

static void scan_fn(unsigned int cpu, uint8_t *rec, void *arg)
{
    struct range *r = arg;
    uint64_t tsc;

    if ( !(rd32(rec) >> 31) )
        return;
    tsc = rd64(rec + 4);
    if ( !r->first[cpu] )
        r->first[cpu] = tsc;
    r->last[cpu] = tsc;
    if ( !r->gfirst || tsc < r->gfirst )
        r->gfirst = tsc;
    if ( tsc > r->glast )
        r->glast = tsc;
}

static void shift_fn(unsigned int cpu, uint8_t *rec, void *arg)
{
    const int64_t *delta = arg;
    uint32_t hdr = rd32(rec);

    (void)cpu;
    if ( !(hdr >> 31) )
        return;
    wr64(rec + 4, rd64(rec + 4) + (uint64_t)*delta);
    if ( (hdr & 0x0fffffff) == LOST && ((hdr >> 28) & 7) >= 4 )
        wr64(rec + 20, rd64(rec + 20) + (uint64_t)*delta);
}

int main(int argc, char **argv)
{
    struct range *r = calloc(1, sizeof(*r));
    uint8_t *in, *copy;
    struct stat st;
    FILE *out;
    unsigned int copies, k, c;
    uint64_t span;
    int fd;

    if ( argc != 4 || !(copies = (unsigned int)atoi(argv[3])) || !r )
    {
        fprintf(stderr, "usage: trace-repeat IN OUT COPIES\n");
        return 1;
    }
    fd = open(argv[1], O_RDONLY);
    if ( fd < 0 || fstat(fd, &st) )
    {
        perror(argv[1]);
        return 1;
    }
    in = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    copy = malloc((size_t)st.st_size);
    out = fopen(argv[2], "wb");
    if ( in == MAP_FAILED || !copy || !out )
    {
        perror("trace-repeat");
        return 1;
    }
    memcpy(copy, in, (size_t)st.st_size);
    if ( walk(copy, (size_t)st.st_size, scan_fn, r) )
        return 1;
    span = r->glast - r->gfirst + 1000000;

    for ( k = 0; k < copies; k++ )
    {
        int64_t delta = (int64_t)(span * k);

        if ( k )
        {
            for ( c = 0; c < MAX_CPUS; c++ )
            {
                uint8_t w[12 + 28];
                uint32_t v;
                uint64_t first_lost, at;

                if ( !r->first[c] )
                    continue;
                first_lost = r->last[c] + span * (k - 1) + 1;
                at = r->first[c] + span * k - 1;
                v = CPU_CHANGE;
                memcpy(w, &v, 4);
                memcpy(w + 4, &c, 4);
                v = 28;
                memcpy(w + 8, &v, 4);
                v = LOST | (4u << 28) | (1u << 31);
                memcpy(w + 12, &v, 4);
                wr64(w + 16, at);
                v = 0;                              /* count */
                memcpy(w + 24, &v, 4);
                v = (c & 0xffff) << 16 | 32767;     /* vcpu << 16 | dom */
                memcpy(w + 28, &v, 4);
                wr64(w + 32, first_lost);
                fwrite(w, 1, sizeof(w), out);
            }
        }
        memcpy(copy, in, (size_t)st.st_size);
        walk(copy, (size_t)st.st_size, shift_fn, &delta);
        fwrite(copy, 1, (size_t)st.st_size, out);
    }
    free(copy);
    free(r);
    if ( fclose(out) )
    {
        perror(argv[2]);
        return 1;
    }
    return 0;
}
