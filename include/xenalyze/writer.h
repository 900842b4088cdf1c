/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Writer: encodes trace records exactly as Xen lays them out in its
 * per-CPU trace buffers (xen/common/trace.c) and as xentrace copies those
 * buffers to a file (tools/xentrace/xentrace.c).
 *
 * Each physical CPU has a buffer of at most window_size bytes.  A poll
 * writes every non-empty buffer, in ascending CPU order, as one window: a
 * CPU-change record (u32 0x2001f003, i32 cpu, u32 size) and the buffer's
 * bytes.  A poll happens when a buffer is full, when the caller asks
 * (xa_writer_poll()) and at the end (xa_writer_finish()).
 *
 * With tbuf_size set, the writer also models the position in Xen's ring
 * of that many data bytes: a record that would cross the end of the ring
 * is preceded by a TRC_TRACE_WRAP_BUFFER padding record, exactly as
 * insert_wrap_record() does.  A padding record that needs more than 7
 * words carries a TSC: the CPU's last TSC, so the CPU's time order is
 * kept.
 *
 * Output goes to a file descriptor through a large buffer, or to memory.
 * The per-record path does not allocate; memory is bounded by the
 * buffers of the CPUs in use plus the output buffer.
 */
#ifndef XA_WRITER_H
#define XA_WRITER_H

#include <xenalyze/common.h>

#ifdef __cplusplus
extern "C" {
#endif

#define XA_WRITER_WINDOW_DEFAULT (64u << 10)
#define XA_WRITER_WINDOW_MIN 128u   /* room for padding and a record */
#define XA_WRITER_WINDOW_MAX (256u << 20)
#define XA_WRITER_TBUF_MIN 64u

struct xa_writer_opts {
    uint32_t window_size;   /* bytes per window; 0: default (64 KiB) */
    uint32_t tbuf_size;     /* Xen ring data size; 0: no wrap padding */
    uint32_t out_buffer;    /* fd output buffer; 0: default (4 MiB) */
};

/* What the writer has produced so far (windows once polled). */
struct xa_writer_stats {
    uint64_t records;       /* every record, CPU changes excluded */
    uint64_t windows;       /* CPU-change records */
    uint64_t wraps;         /* wrap-buffer padding records */
    uint64_t lost;          /* lost-records records */
    uint64_t tscless;       /* records without a TSC */
    uint64_t bytes;         /* bytes of output (windows polled) */
};

struct xa_writer;

/**
 * xa_writer_new - create a writer
 * @fd: output file descriptor (not closed by the writer), or -1 to keep
 *      the output in memory (see xa_writer_borrow_mem())
 * @opts: options, or NULL for the defaults
 * @out: the new writer
 *
 * Returns XA_OK, XA_E_INVAL for bad options, or XA_E_NOMEM.
 */
XA_API int xa_writer_new(int fd, const struct xa_writer_opts *opts,
                         struct xa_writer **out);

/* Frees the writer without flushing; accepts NULL. */
XA_API void xa_writer_free(struct xa_writer *w);

/**
 * xa_writer_record - append one record to a physical CPU's buffer
 * @w: writer
 * @cpu: physical CPU, at most 65535
 * @event: event id (bits 0-27)
 * @has_tsc: whether the record carries a TSC
 * @tsc: the TSC, if has_tsc
 * @extra: the extra words
 * @nr_extra: how many, at most 7
 *
 * Returns XA_OK, XA_E_INVAL or the writer's sticky error.
 */
XA_API int xa_writer_record(struct xa_writer *w, unsigned int cpu,
                            uint32_t event, bool has_tsc, uint64_t tsc,
                            const uint32_t *extra, unsigned int nr_extra);

/**
 * xa_writer_lost - append a lost-records record (TRC_LOST_RECORDS)
 * @w: writer
 * @cpu: physical CPU
 * @tsc: the record's TSC (when Xen could write again)
 * @count: how many records were lost
 * @domid: domain of the vCPU current when the record was written
 * @vcpuid: that vCPU
 * @first_tsc: TSC of the first lost record
 *
 * Encodes Xen's insert_lost_records(): TSC and four words, u32 count,
 * vcpuid << 16 | domid, first_tsc low word, high word.
 */
XA_API int xa_writer_lost(struct xa_writer *w, unsigned int cpu,
                          uint64_t tsc, uint32_t count, uint16_t domid,
                          uint16_t vcpuid, uint64_t first_tsc);

/**
 * xa_writer_poll - write every CPU's buffered records as windows
 * @w: writer
 *
 * CPUs are visited in ascending order; empty buffers write nothing.
 * Returns XA_OK or the sticky error.
 */
XA_API int xa_writer_poll(struct xa_writer *w);

/**
 * xa_writer_finish - poll and write out everything buffered
 * @w: writer
 *
 * Returns XA_OK or the sticky error (XA_E_SYS(errno) of the failed
 * write, XA_E_NOMEM).
 */
XA_API int xa_writer_finish(struct xa_writer *w);

XA_API const struct xa_writer_stats *
xa_writer_stats(const struct xa_writer *w);

/**
 * xa_writer_borrow_mem - the output of a memory writer
 * @w: writer created with fd -1
 * @size: set to the number of bytes
 *
 * Valid until the next call on the writer.  Call xa_writer_finish()
 * first to include the records still buffered per CPU.
 */
XA_API const void *xa_writer_borrow_mem(const struct xa_writer *w,
                                        size_t *size);

#ifdef __cplusplus
}
#endif

#endif /* XA_WRITER_H */
