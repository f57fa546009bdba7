/*
 * phases/io.h: the per-char and block phases on the data files
 * (phases/io.c): write a byte at a time, write in blocks, rewrite, read a
 * byte at a time, read in blocks.
 */
#ifndef CLYDE_PHASE_IO_H
#define CLYDE_PHASE_IO_H

#include <stddef.h>
#include <stdint.h>

#include "phases/ctx.h"

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
/* phases/phase.h's descriptors(): each data file */
unsigned long phase_io_descriptors(const struct config *cfg,
    const char **fewer);
/*
 * Data file i opened again by a phase that reads back (openat() flags,
 * O_NOFOLLOW and O_CLOEXEC added): this rank's, or with --shift that of
 * the rank it reads from (ctx->read_other).  Returns the descriptor, or
 * -1 with errno; *why is NULL when it is the inode that was made, with
 * no other name, else why not (the caller closes it, writes nothing).
 * Another rank's that shows another inode, or none, is opened again
 * while this host may show a stale cache of it (phase_stale_again()).
 */
int phase_io_reopen(const struct phase_ctx *ctx, unsigned i, int flags,
    const char **why);
/* phase_fail() for data file i as phase_io_reopen() opens it */
int phase_io_fail_read(struct phase_ctx *ctx, unsigned i, const char *op,
    int err);
/*
 * --shift (phases/phase.h's made() and theirs()): the inode numbers of
 * the data files this rank made, as uint64_t, one a file; those the rank
 * read from made, the same count, before a phase reads them (it never
 * fails: a reopen checks them).
 */
size_t phase_io_made(const struct phase_ctx *ctx, void *made);
int phase_io_theirs(struct phase_ctx *ctx, const void *made);
/* name of data file i ("Bonnie.<pid>", "Bonnie.<pid>.001", ...) */
void phase_io_file_name(const struct phase_ctx *ctx, unsigned i, char *out, size_t n);

#endif
