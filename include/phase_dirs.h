/*
 * phase_dirs.h: the directory phases of --dirs (phase_dirs.c): mkdir,
 * stat and rmdir of a tree of directories, in tree order, then at
 * random.
 */
#ifndef CLYDE_PHASE_DIRS_H
#define CLYDE_PHASE_DIRS_H

#include "phase_ctx.h"

int phase_dir_create_prepare(struct phase_ctx *ctx);
int phase_dir_create_run(struct phase_ctx *ctx);
int phase_dir_walk_prepare(struct phase_ctx *ctx);
int phase_dir_stat_run(struct phase_ctx *ctx);
int phase_dir_del_run(struct phase_ctx *ctx);
int phase_ran_dir_create_prepare(struct phase_ctx *ctx);
int phase_ran_dir_create_run(struct phase_ctx *ctx);
int phase_ran_dir_stat_prepare(struct phase_ctx *ctx);
int phase_ran_dir_stat_run(struct phase_ctx *ctx);
int phase_ran_dir_del_prepare(struct phase_ctx *ctx);
int phase_ran_dir_del_run(struct phase_ctx *ctx);
/*
 * The table of the tree, made before the first phase, so that a lack of
 * memory refuses the run rather than failing it in the middle.
 */
int phase_dirs_reserve(struct phase_ctx *ctx);
/* Remove every directory the directory phases made; free memory. */
void phase_dirs_cleanup(struct phase_ctx *ctx);

#endif
