/*
 * phases/io.h: the data files of the per-char and block phases
 * (phases/io.c: write a byte at a time, write in blocks, rewrite, read a
 * byte at a time, read in blocks), as the seeks (phases/seek.c) use
 * them.  The family itself is its descriptor alone (phases/phase.h).
 */
#ifndef CLYDE_PHASE_IO_H
#define CLYDE_PHASE_IO_H

#include "phases/ctx.h"

/* Close and unlink the data files; safe to call at any point, twice. */
void phase_io_cleanup(struct phase_ctx *ctx);
/* number of data files for the configured size (1.03: 1 GiB each) */
unsigned phase_io_file_count(const struct config *cfg);
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

#endif
