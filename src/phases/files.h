/*
 * phases/files.h: create, stat ("Read") and delete of many small files,
 * in name order, then in random order (phases/files.c).
 */
#ifndef CLYDE_PHASE_FILES_H
#define CLYDE_PHASE_FILES_H

#include <stddef.h>

#include "phases/ctx.h"

int phase_seq_create_prepare(struct phase_ctx *ctx);
int phase_seq_create_run(struct phase_ctx *ctx);
int phase_seq_stat_run(struct phase_ctx *ctx);
int phase_seq_del_run(struct phase_ctx *ctx);
int phase_ran_create_prepare(struct phase_ctx *ctx);
int phase_ran_create_run(struct phase_ctx *ctx);
int phase_ran_stat_prepare(struct phase_ctx *ctx);
int phase_ran_stat_run(struct phase_ctx *ctx);
int phase_ran_del_prepare(struct phase_ctx *ctx);
int phase_ran_del_run(struct phase_ctx *ctx);
/*
 * The order of the file names, made before the first phase, so that a
 * lack of memory refuses the run rather than failing it in the middle
 * (PHASE_ERROR, ctx->error saying so).
 */
int phase_files_reserve(struct phase_ctx *ctx);
/* phases/phase.h's descriptors(): what the small-file phases hold open */
unsigned long phase_files_descriptors(const struct config *cfg,
    const char **fewer);
/*
 * --shift: after each create phase a rank tells the rank that reads its
 * small files (run/runner.c) where they are and their names; that rank's
 * stat phases then work on those, in its scratch directory, and never
 * create nor remove any.  phase_files_made(): this rank's (the key the
 * names come from, not a list), a struct files_made.
 * phase_files_theirs(): those of the rank read from (ctx->read_fd), its
 * directory opened and checked (PHASE_ERROR with ctx->error when it
 * cannot be).
 * phase_files_release(), after a stat phase: theirs closed, before their
 * delete phase.
 */
struct files_made {
	uint64_t key;                   /* what the names' random parts come from */
	uint64_t dir_ino;               /* its files directory (0: none made) */
	uint64_t target_ino;            /* files.target (-n N:-1, -2), or 0 */
	uint32_t count;
	uint32_t random_first;          /* the random phases' names */
};
size_t phase_files_made(const struct phase_ctx *ctx, void *made);
int phase_files_theirs(struct phase_ctx *ctx, const void *made);
void phase_files_release(struct phase_ctx *ctx);
/* Remove every file and directory the small-file phases made; free memory. */
void phase_files_cleanup(struct phase_ctx *ctx);

#endif
