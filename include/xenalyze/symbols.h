/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Guest symbols from a System.map-style text ("ADDRESS [TYPE] NAME" a
 * line, addresses in hex), to name the guest addresses of eip lists and
 * the dump (--symbol-file).  The caller reads the file; this parses it.
 */
#ifndef XA_SYMBOLS_H
#define XA_SYMBOLS_H

#include <xenalyze/out.h>

#ifdef __cplusplus
extern "C" {
#endif

struct xa_symbols;

/*
 * Parses len bytes of text.  Lines that are not "HEX [TYPE] NAME" are
 * skipped and counted in *skipped (may be NULL).  Returns XA_OK,
 * XA_E_NOMEM, or XA_E_INVAL when no line is a symbol.
 */
XA_API int xa_symbols_parse(const char *text, size_t len,
                            struct xa_symbols **out, unsigned int *skipped);
XA_API void xa_symbols_free(struct xa_symbols *s);
XA_API unsigned int xa_symbols_count(const struct xa_symbols *s);

/*
 * The symbol at or below addr: its name and addr's offset from it; NULL
 * below the first symbol (or s NULL).
 */
XA_API const char *xa_symbols_find(const struct xa_symbols *s, uint64_t addr,
                                   uint64_t *offset);

/*
 * "(name +off)" as upstream prints it (hex offset) into buf; below the
 * first symbol "(ZERO +addr)" as upstream; "" when s is NULL.  Returns buf.
 */
XA_API char *xa_symbols_name(const struct xa_symbols *s, uint64_t addr,
                             char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* XA_SYMBOLS_H */
