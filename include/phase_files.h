/*
 * phase_files.h: create, stat ("Read") and delete of many small files,
 * in name order, then in random order (phase_files.c).
 */
#ifndef CLYDE_PHASE_FILES_H
#define CLYDE_PHASE_FILES_H

#include "phase_ctx.h"

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
 * The table of the file names, made before the first phase, so that a
 * lack of memory refuses the run rather than failing it in the middle.
 */
int phase_files_reserve(struct phase_ctx *ctx);
/* Remove every file and directory the small-file phases made; free memory. */
void phase_files_cleanup(struct phase_ctx *ctx);

#endif
