/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Small whole files (JSON summaries) read into memory, with a bound.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xenalyze/reader.h>

int xa_read_file(const char *path, size_t max, char **buf, size_t *len)
{
    int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC)
                               : STDIN_FILENO;
    size_t n = 0, cap = 0;
    char *b = NULL;
    int rc = XA_OK;

    *buf = NULL;
    *len = 0;
    if ( fd < 0 )
        return XA_E_SYS(errno);
    for ( ;; )
    {
        ssize_t r;

        if ( cap - n < 2 )
        {
            size_t c = cap ? cap * 2 : 64 * 1024;
            char *nb;

            if ( cap > max + 1 )
            {
                rc = XA_E_RANGE;
                break;
            }
            if ( !(nb = realloc(b, c)) )
            {
                rc = XA_E_NOMEM;
                break;
            }
            b = nb;
            cap = c;
        }
        r = read(fd, b + n, cap - n - 1);
        if ( r < 0 && errno == EINTR )
            continue;
        if ( r < 0 )
        {
            rc = XA_E_SYS(errno);
            break;
        }
        if ( r == 0 )
            break;
        n += (size_t)r;
        if ( n > max )
        {
            rc = XA_E_RANGE;
            break;
        }
    }
    if ( fd != STDIN_FILENO )
        close(fd);
    if ( rc )
    {
        free(b);
        return rc;
    }
    if ( !b && !(b = malloc(1)) )
        return XA_E_NOMEM;
    b[n] = '\0';
    *buf = b;
    *len = n;
    return XA_OK;
}
