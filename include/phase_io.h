/*
 * phase_io.h: the per-char and block phases on the data files
 * (phase_io.c): write a byte at a time, write in blocks, rewrite, read a
 * byte at a time, read in blocks.
 */
#ifndef CLYDE_PHASE_IO_H
#define CLYDE_PHASE_IO_H

#include <stddef.h>

#include "phase_ctx.h"

int phase_putc_prepare(struct phase_ctx *ctx);
int phase_putc_run(struct phase_ctx *ctx);
int phase_put_block_prepare(struct phase_ctx *ctx);
int phase_put_block_run(struct phase_ctx *ctx);
int phase_rewrite_prepare(struct phase_ctx *ctx);
int phase_rewrite_run(struct phase_ctx *ctx);
int phase_getc_prepare(struct phase_ctx *ctx);
int phase_getc_run(struct phase_ctx *ctx);
int phase_get_block_prepare(struct phase_ctx *ctx);
int phase_get_block_run(struct phase_ctx *ctx);
/* -D: PHASE_OK when the filesystem takes O_DIRECT for one chunk. */
int phase_io_check_direct(struct phase_ctx *ctx);
/* Close and unlink the data files; safe to call at any point, twice. */
void phase_io_cleanup(struct phase_ctx *ctx);
/* number of data files for the configured size (1.03: 1 GiB each) */
unsigned phase_io_file_count(const struct config *cfg);
/*
 * fd, data file i opened again: NULL when it is the inode the run made
 * with no other name, else why not (the caller writes nothing to it).
 */
const char *phase_io_check_reopened(const struct phase_ctx *ctx, unsigned i,
    int fd);
/* name of data file i ("Bonnie.<pid>", "Bonnie.<pid>.001", ...) */
void phase_io_file_name(const struct phase_ctx *ctx, unsigned i, char *out, size_t n);

#endif
