/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Replays files (or every file under directories) through the fuzz
 * target, so that each crash input stays a regression test.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static unsigned int nr_files;

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    long n;

    if ( !f )
        return -1;
    if ( fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 ||
         fseek(f, 0, SEEK_SET) )
    {
        fclose(f);
        return -1;
    }
    buf = malloc((size_t)n + 1);
    if ( !buf || fread(buf, 1, (size_t)n, f) != (size_t)n )
    {
        free(buf);
        fclose(f);
        return -1;
    }
    fclose(f);
    LLVMFuzzerTestOneInput(buf, (size_t)n);
    free(buf);
    nr_files++;
    return 0;
}

static int run_path(const char *path)
{
    struct stat st;
    DIR *d;
    struct dirent *e;
    int rc = 0;

    if ( stat(path, &st) )
        return 0;                       /* absent: nothing to replay */
    if ( !S_ISDIR(st.st_mode) )
        return run_file(path);
    d = opendir(path);
    if ( !d )
        return -1;
    while ( (e = readdir(d)) )
    {
        char sub[4096];

        if ( e->d_name[0] == '.' )
            continue;
        snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
        if ( run_path(sub) )
            rc = -1;
    }
    closedir(d);
    return rc;
}

int main(int argc, char **argv)
{
    int i, rc = 0;

    for ( i = 1; i < argc; i++ )
        if ( run_path(argv[i]) )
            rc = 1;
    printf("replayed %u inputs\n", nr_files);
    return rc;
}
