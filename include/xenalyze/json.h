/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A small JSON reader (RFC 8259), for reading back what xenalyze writes
 * (JSON summaries for diff and merge).  A document is parsed at once from
 * a buffer into a read-only tree that owns all its memory; nothing is
 * global.  Input is untrusted: the grammar is strict (no trailing commas,
 * no comments, no leading zeros, no raw control characters in strings,
 * valid \u escapes and surrogate pairs), nesting depth and the number of
 * values are bounded, and an error says where and what.  Numbers keep
 * their text: integers are read exactly as 64-bit values.
 */
#ifndef XA_JSON_H
#define XA_JSON_H

#include <stddef.h>

#include <xenalyze/common.h>

#ifdef __cplusplus
extern "C" {
#endif

enum xa_json_type {
    XA_JSON_NULL,
    XA_JSON_BOOL,
    XA_JSON_NUMBER,
    XA_JSON_STRING,
    XA_JSON_ARRAY,
    XA_JSON_OBJECT,
};

/* Bounds on a document; a zero member takes the default. */
struct xa_json_limits {
    unsigned int max_depth;         /* nested arrays/objects (default 128) */
    size_t max_values;              /* values in all (default 1 << 24) */
};

/* Where and why parsing stopped. */
struct xa_json_error {
    size_t offset;                  /* byte offset in the input */
    unsigned int line, column;      /* 1-based */
    const char *msg;                /* static text: "expected ':'"... */
};

struct xa_json;                     /* a parsed document */
struct xa_json_value;               /* a value inside it */

/**
 * xa_json_parse - parse one JSON text
 * @text, @len: the input (need not be NUL-terminated; a UTF-8 byte order
 *              mark is skipped; white space may follow the value)
 * @lim: bounds, or NULL for the defaults
 * @doc: set to the document (free with xa_json_free())
 * @err: filled in on failure (may be NULL)
 *
 * Returns XA_OK, XA_E_INVAL (bad JSON, or beyond a bound: see err) or
 * XA_E_NOMEM.
 */
XA_API int xa_json_parse(const char *text, size_t len,
                         const struct xa_json_limits *lim,
                         struct xa_json **doc, struct xa_json_error *err);
XA_API void xa_json_free(struct xa_json *doc);

/* The top-level value. */
XA_API const struct xa_json_value *xa_json_root(const struct xa_json *doc);

/* Every accessor takes NULL (an absent value) and then says "no". */
XA_API enum xa_json_type xa_json_type(const struct xa_json_value *v);

/* Arrays and objects: the number of elements or members (else 0). */
XA_API size_t xa_json_len(const struct xa_json_value *v);
/* The i-th element of an array, or value of an object's i-th member. */
XA_API const struct xa_json_value *xa_json_at(const struct xa_json_value *v,
                                              size_t i);
/* The i-th member's key of an object, or NULL. */
XA_API const char *xa_json_key_at(const struct xa_json_value *v, size_t i);
/* An object's member by key (the first if repeated), or NULL. */
XA_API const struct xa_json_value *xa_json_get(const struct xa_json_value *v,
                                               const char *key);

/*
 * Scalars: true and *out set when v is of that kind and fits.  u64/i64
 * only for integers written without fraction or exponent, exactly;
 * double for any number.
 */
XA_API bool xa_json_u64(const struct xa_json_value *v, uint64_t *out);
XA_API bool xa_json_i64(const struct xa_json_value *v, int64_t *out);
XA_API bool xa_json_double(const struct xa_json_value *v, double *out);
XA_API bool xa_json_bool(const struct xa_json_value *v, bool *out);
/*
 * A string's decoded UTF-8, NUL-terminated (a \u0000 inside shortens
 * it as C sees it: len gives the whole); NULL when v is no string.
 */
XA_API const char *xa_json_str(const struct xa_json_value *v, size_t *len);
/* A number's text as written ("-1.5e3"), or NULL. */
XA_API const char *xa_json_num_text(const struct xa_json_value *v);

/* Shorthands for objects: member key as u64 (else dflt), as string. */
XA_API uint64_t xa_json_get_u64(const struct xa_json_value *obj,
                                const char *key, uint64_t dflt);
XA_API const char *xa_json_get_str(const struct xa_json_value *obj,
                                   const char *key);

#ifdef __cplusplus
}
#endif

#endif /* XA_JSON_H */
