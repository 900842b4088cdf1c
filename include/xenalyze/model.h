/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Model: domains, vCPUs and physical CPUs, created as records name them,
 * with runstate tracking and the generic exit/entry pairing into which
 * each architecture (x86 HVM, Arm) plugs.
 */
#ifndef XA_MODEL_H
#define XA_MODEL_H

#include <xenalyze/catalog.h>
#include <xenalyze/diag.h>
#include <xenalyze/reader.h>

#ifdef __cplusplus
extern "C" {
#endif

#define XA_DOM_IDLE     32767u
#define XA_DOM_DEFAULT  32768u      /* "not known yet" */

enum xa_hvm_mode_opt {
    XA_HVM_MODE_AUTO,
    XA_HVM_MODE_FORCE_VMX,
    XA_HVM_MODE_FORCE_SVM,
};

struct xa_model_opts {
    enum xa_hvm_mode_opt hvm_mode;
};

struct xa_model;

XA_API int xa_model_new(const struct xa_catalog *cat, struct xa_diag *diag,
                        const struct xa_model_opts *opts,
                        struct xa_model **out);
XA_API void xa_model_free(struct xa_model *m);

/* Processes one record of the merged stream. */
XA_API void xa_model_feed(struct xa_model *m, const struct xa_record *rec);

/* Ends the trace: closes open intervals at the last TSC seen. */
XA_API void xa_model_finish(struct xa_model *m);

/*
 * The vCPU running on a physical CPU as far as the records tell;
 * false when unknown.
 */
XA_API bool xa_model_pcpu_current(const struct xa_model *m, unsigned int cpu,
                                  unsigned int *dom, unsigned int *vcpu);

/* Formatting context (e.g. VMX or SVM exit names) the model settled on. */
XA_API const struct xa_fmt_ctx *xa_model_fmt_ctx(const struct xa_model *m);

#ifdef __cplusplus
}
#endif

#endif /* XA_MODEL_H */
