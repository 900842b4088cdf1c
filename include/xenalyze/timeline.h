/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A timeline of the trace in Perfetto's format (a protobuf Trace of
 * TracePackets with TrackDescriptors and TrackEvents), for ui.perfetto.dev
 * and trace_processor.  Written as the trace is processed, with bounded
 * memory: the model tells what happens through its observer
 * (xa_timeline_observer()); the caller passes every record to
 * xa_timeline_record() before feeding it to the model.
 *
 * What it shows (docs/timeline.md): a track per physical CPU with the vCPU
 * running there (slices "dDvV", "idle") and lost-records gaps; per domain
 * a process, per vCPU a thread whose track holds its runstates, and below
 * it an "exits" track with one slice per guest exit, closed where the
 * summary closes it; wake-ups as instants with a flow to where the vCPU
 * runs next; migrations, injected interrupts and anomalies as instants;
 * credit2 runqueue loads as counters.  Times are nanoseconds from the
 * trace's first timestamp, converted exactly.  Every slice the summary
 * counts carries its length in trace clock ticks as the "cycles" argument.
 */
#ifndef XA_TIMELINE_H
#define XA_TIMELINE_H

#include <xenalyze/filter.h>
#include <xenalyze/model.h>
#include <xenalyze/out.h>

#ifdef __cplusplus
extern "C" {
#endif

struct xa_timeline_opts {
    uint64_t hz;                    /* the trace clock's rate */
    const struct xa_filter *filter; /* window and domains; NULL: all */
};

/* What was written, for tests and messages. */
struct xa_timeline_stats {
    uint64_t packets;
    uint64_t slices;                /* begun, every track */
    uint64_t exits;                 /* exit slices closed as counted */
    uint64_t instants;
    uint64_t counters;              /* counter values */
    uint64_t clamped;               /* events drawn later than their time */
    uint64_t intern_resets;         /* interning tables started afresh */
};

struct xa_timeline;

/**
 * xa_timeline_new - start a timeline written into out
 * @o: options (copied; the filter must outlive the timeline)
 * @out: where the packets go; flushed between packets when it has an fd
 * @tl: set to the new timeline
 *
 * Returns XA_OK, XA_E_NOMEM or XA_E_INVAL (no clock rate).
 */
XA_API int xa_timeline_new(const struct xa_timeline_opts *o,
                           struct xa_out *out, struct xa_timeline **tl);
XA_API void xa_timeline_free(struct xa_timeline *tl);

/* The observer to add to the model (xa_model_add_observer()). */
XA_API void xa_timeline_observer(struct xa_timeline *tl,
                                 struct xa_model_observer *obs);

/*
 * Before the model sees rec: the time origin and window, counters
 * (credit2 loads), lost-record counts, TSC going backwards, and how the
 * model names exits (m: the model, for its VMX/SVM decision; NULL:
 * VMX).
 */
XA_API void xa_timeline_record(struct xa_timeline *tl,
                               const struct xa_record *rec,
                               const struct xa_model *m);

/*
 * After xa_model_finish(): ends what is still open at the last time seen
 * and describes the domains whose kind never showed.  Returns the
 * output's error state (XA_OK or a negative XA_E_*).
 */
XA_API int xa_timeline_finish(struct xa_timeline *tl);

XA_API const struct xa_timeline_stats *
xa_timeline_stats(const struct xa_timeline *tl);

#ifdef __cplusplus
}
#endif

#endif /* XA_TIMELINE_H */
