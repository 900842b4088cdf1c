/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bare-walk: the floor for make bench.  Maps a trace and walks every
 * CPU-change window and every record in file order: a count per event id
 * and the sum of TSC steps per CPU, with no merge, no model and no state
 * beyond that.  What any analysis of the file must at least do.
 *
 *   bare-walk FILE
 *
 * Prints the records, distinct event ids and a checksum of the TSC steps
 * (so that the work is not optimised away).
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
#define MAX_CPUS 4096
#define NR_IDS 4096                 /* open addressing, power of two */

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

static uint32_t ids[NR_IDS];        /* event + 1; 0: free */
static uint64_t counts[NR_IDS];
static uint64_t last_tsc[MAX_CPUS], steps[MAX_CPUS];

static void count(uint32_t ev)
{
    uint32_t h = (ev * 2654435761u) >> 20 & (NR_IDS - 1);

    while ( ids[h] && ids[h] != ev + 1 )
        h = (h + 1) & (NR_IDS - 1);
    ids[h] = ev + 1;
    counts[h]++;
}

int main(int argc, char **argv)
{
    struct stat st;
    const uint8_t *d;
    size_t size, off = 0;
    uint64_t recs = 0, sum = 0;
    unsigned int i, distinct = 0;
    int fd;

    if ( argc != 2 )
    {
        fprintf(stderr, "usage: bare-walk FILE\n");
        return 2;
    }
    fd = open(argv[1], O_RDONLY);
    if ( fd < 0 || fstat(fd, &st) )
    {
        perror(argv[1]);
        return 1;
    }
    size = (size_t)st.st_size;
    d = mmap(NULL, size ? size : 1, PROT_READ, MAP_PRIVATE, fd, 0);
    if ( d == MAP_FAILED )
    {
        perror("mmap");
        return 1;
    }
    while ( off + 12 <= size )
    {
        uint32_t cpu = rd32(d + off + 4), len = rd32(d + off + 8);
        size_t p = off + 12, end;

        if ( rd32(d + off) != CPU_CHANGE || cpu >= MAX_CPUS ||
             len > size - p )
            break;
        end = p + len;
        while ( p + 4 <= end )
        {
            uint32_t hdr = rd32(d + p);
            size_t n = 4 + ((hdr >> 28) & 7) * 4 + (hdr >> 31) * 8;

            if ( p + n > end )
                break;
            if ( hdr >> 31 )
            {
                uint64_t tsc = rd64(d + p + 4);

                steps[cpu] += tsc - last_tsc[cpu];
                last_tsc[cpu] = tsc;
            }
            count(hdr & 0x0fffffff);
            recs++;
            p += n;
        }
        off = end;
    }
    for ( i = 0; i < NR_IDS; i++ )
        distinct += ids[i] != 0;
    for ( i = 0; i < MAX_CPUS; i++ )
        sum += steps[i];
    printf("records %llu\nevents %u\ntsc_steps %llu\n",
           (unsigned long long)recs, distinct, (unsigned long long)sum);
    return 0;
}
