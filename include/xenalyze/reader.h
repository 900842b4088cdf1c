/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Reader: walks the CPU-change windows of a xentrace file and yields
 * each physical CPU's records in file order.
 *
 * File layout (Xen's tools/xentrace/xentrace.c): a sequence of windows,
 * each a CPU-change record (header 0x2001f003, i32 cpu, u32 window size)
 * followed by window-size bytes of that CPU's t_rec records (Xen's
 * xen/include/public/trace.h): u32 header (bits 0-27 event, 28-30 number
 * of extra words, 31 TSC present), optional u64 TSC, extra words.
 *
 * Every input byte is accounted for: 12 per CPU-change header, the bytes
 * of the records read, and the bytes skipped under a named anomaly
 * (struct xa_diag_entry.bytes), which add up to the input size.
 */
#ifndef XA_READER_H
#define XA_READER_H

#include <xenalyze/common.h>
#include <xenalyze/diag.h>

#ifdef __cplusplus
extern "C" {
#endif

#define XA_EXTRA_MAX 7
#define XA_CPU_MAX 65535u

/*
 * A forward step of a CPU's TSC larger than this is checked against the
 * CPU's next record before it is trusted (see merge.h).
 */
#define XA_TSC_JUMP (1ull << 22)

#define XA_TSC_QUARANTINED 2

/* One trace record; TSC-less records carry their CPU's previous TSC. */
struct xa_record {
    uint64_t tsc;
    uint64_t offset;            /* file offset of the record header */
    uint32_t event;             /* header bits 0-27 */
    uint16_t cpu;
    uint8_t nr_extra;
    uint8_t has_tsc;            /* 1: its own; XA_TSC_QUARANTINED: it has
                                   one, off its CPU's timeline (merge.h),
                                   and tsc is the CPU's previous TSC */
    uint8_t mark;               /* 0, or 1 + the enum xa_diag_kind of an
                                   anomaly met on this CPU just before
                                   this record (bytes skipped, a TSC
                                   quarantined or reset), counted where it
                                   was met: for timelines to place it */
    uint32_t extra[XA_EXTRA_MAX];
};

/* Counters of what the reader saw. */
struct xa_reader_stats {
    uint64_t records;           /* records yielded, CPU changes excluded */
    uint64_t record_bytes;      /* their bytes */
    uint64_t windows;           /* CPU-change headers (12 bytes each) */
    uint64_t wraps;             /* wrap-buffer padding records */
    uint64_t lost;              /* lost-records records */
    uint64_t tscless;           /* records without their own TSC */
    uint64_t bytes;             /* input size (or bytes read from a stream) */
    uint64_t readahead_peak;    /* most bytes of windows held at once */
    unsigned int nr_cpus;       /* physical CPUs seen */
    unsigned int max_cpu;
    /* A stream's buffer: its largest size, and the bytes moved within it
     * (each input byte is moved O(1) times). */
    uint64_t stream_buf_peak, stream_moved;
};

struct xa_reader;

/*
 * A byte source for the stream path: reads up to n bytes into buf and
 * returns how many, 0 at the end of the input, or a negative XA_E_* code.
 * (Standard input is one; a decompressor can be another.)
 */
typedef long xa_read_fn(void *arg, void *buf, size_t n);

/**
 * xa_reader_open - open a trace file (mmap) or "-" for standard input
 * @path: file name, or "-" to stream standard input
 * @diag: anomaly counters to fill; must outlive the reader
 * @out: the new reader
 *
 * Returns XA_OK or a negative XA_E_* code.
 */
XA_API int xa_reader_open(const char *path, struct xa_diag *diag,
                          struct xa_reader **out);
/* Streams from a file descriptor (not closed by the reader). */
XA_API int xa_reader_open_fd(int fd, struct xa_diag *diag,
                             struct xa_reader **out);
/* Streams from a byte source (arg belongs to the caller). */
XA_API int xa_reader_open_source(xa_read_fn *read, void *arg,
                                 struct xa_diag *diag,
                                 struct xa_reader **out);
/* Reads from memory (borrowed; must outlive the reader). */
XA_API int xa_reader_open_mem(const void *data, size_t size,
                              struct xa_diag *diag, struct xa_reader **out);
/**
 * xa_read_file - a whole small file in memory (a JSON summary)
 * @path: file name, or "-" for standard input
 * @max: the most bytes accepted
 * @buf: set to a malloc()ed copy, NUL-terminated (the caller frees it)
 * @len: set to the bytes read
 *
 * Returns XA_OK, XA_E_RANGE (more than max), XA_E_NOMEM or a system
 * error (XA_E_SYS(errno): no such file, a directory...).
 */
XA_API int xa_read_file(const char *path, size_t max, char **buf,
                        size_t *len);
/*
 * The first n bytes of the input (fewer if it is shorter), before any
 * record is read: a file's from its mapping; a stream's read now and
 * buffered (n bytes), then read again by the reader, so that a look
 * ahead decides the same from a file and a pipe.  *head is valid until
 * the reader reads.  Returns XA_OK, XA_E_NOMEM, or XA_E_INVAL when
 * reading has begun.
 */
XA_API int xa_reader_head(struct xa_reader *rd, size_t n, const void **head,
                          size_t *len);
XA_API void xa_reader_free(struct xa_reader *rd);
XA_API const struct xa_reader_stats *
xa_reader_stats(const struct xa_reader *rd);

/**
 * xa_reader_next - the next record of one physical CPU, in file order
 * @rd: reader
 * @cpu: physical CPU
 * @rec: filled in
 *
 * Scans ahead in the input as needed.  Returns XA_OK, XA_END when that
 * CPU has no more records, XA_AGAIN when its next window is not within
 * the read-ahead bound (below): the CPU is set aside until the scan meets
 * its next window (xa_reader_rejoin()), or a negative XA_E_* code.
 */
XA_API int xa_reader_next(struct xa_reader *rd, unsigned int cpu,
                          struct xa_record *rec);

/**
 * xa_reader_scan - scan one more CPU-change window of the input
 * @rd: reader
 *
 * Queues the window for its CPU (creating the CPU when first seen).
 * xa_reader_next() scans on its own as needed; this is for callers that
 * want to know the CPUs before reading records.  Returns XA_OK, XA_END
 * at the end of the input, or a negative XA_E_* code.
 */
XA_API int xa_reader_scan(struct xa_reader *rd);

/**
 * xa_reader_walk - the next record in file order
 * @rd: reader, read only through this function
 * @rec: filled in; valid until the next call
 *
 * The records as they lie in the input, window after window, whatever
 * their CPU: each window's CPU-change record first (event
 * XA_TRC_TRACE_CPU_CHANGE, no TSC, words: the CPU and the size field as
 * written, offset: the header's), then its records with their TSCs as
 * written (TSC-less ones: has_tsc 0, the CPU's previous TSC).  Damage is
 * skipped and counted as by the other readers.  For a raw view of a trace
 * (--dump-raw-reads); not to be mixed with xa_reader_next() or a merge on
 * the same reader.  Returns XA_OK, XA_END, or a negative XA_E_* code.
 */
XA_API int xa_reader_walk(struct xa_reader *rd, struct xa_record *rec);

/* The physical CPUs seen so far, in the order they were first seen. */
XA_API unsigned int xa_reader_nr_cpus(const struct xa_reader *rd);
XA_API unsigned int xa_reader_cpu_at(const struct xa_reader *rd,
                                     unsigned int i);

/*
 * A CPU set aside (XA_AGAIN) whose next window the scan has since met, or
 * which has reached the end of the input; -1 when there is none.  Each is
 * returned once.
 */
XA_API int xa_reader_rejoin(struct xa_reader *rd);

/*
 * The read-ahead bound.  The input is read once, front to back, so windows
 * of other CPUs met while looking for one CPU's next window are kept until
 * read.  Past this many bytes held (256 MiB by default; the windows' bytes
 * and about 64 bytes of bookkeeping each, counted alike for files and
 * streams so that both give the same answer), a CPU whose next window is
 * not in sight is set aside (XA_DIAG_STREAM_LIMIT) instead of holding the
 * rest of the input.  Nothing is dropped: it rejoins when its window comes.
 */
XA_API void xa_reader_set_lookahead(struct xa_reader *rd, uint64_t bytes);

/* True once the whole input has been scanned. */
XA_API bool xa_reader_at_eof(const struct xa_reader *rd);

/**
 * xa_reader_peek - look at the records queued so far, without reading them
 * @rd: reader
 * @fn: called for each queued record, CPU by CPU in the order they were
 *      first seen, each CPU's in file order; returns false to stop
 * @arg: passed to fn
 *
 * For a first look before reading (e.g. after the first round of windows
 * is scanned): records are decoded as xa_reader_next() would, without
 * counting anything.  TSCs are raw.
 */
XA_API void xa_reader_peek(struct xa_reader *rd,
                           bool (*fn)(void *arg, const struct xa_record *rec),
                           void *arg);

#ifdef __cplusplus
}
#endif

#endif /* XA_READER_H */
