/*
 * phases/dirs.h: the directory phases of --dirs (phases/dirs.c): mkdir,
 * stat and rmdir of a tree of directories, in tree order, then at
 * random.
 */
#ifndef CLYDE_PHASE_DIRS_H
#define CLYDE_PHASE_DIRS_H

#include "phases/ctx.h"

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
 * memory refuses the run rather than failing it in the middle
 * (PHASE_ERROR, ctx->error saying so, for the label "--dirs").
 */
int phase_dirs_reserve(struct phase_ctx *ctx);
/*
 * phases/phase.h's descriptors(): DIRS_DIR's, a directory read's, and
 * one for each directory of the tree that has children, held open.
 */
unsigned long phase_dirs_descriptors(const struct config *cfg,
    const char **fewer);
/* Untimed, after each directory phase: close what a delete left held. */
void phase_dirs_release(struct phase_ctx *ctx);
/*
 * --dirs-shared (clyde-mpi): the ranks make their directories in one
 * tree, whose upper levels are rank 0's.  Untimed, and on every rank:
 * join() once every rank's create phase is prepared (rank 0 has made the
 * shared levels: the others open them); shared_done() once every rank's
 * delete phase has ended well (rank 0 removes the shared levels).  Both
 * return PHASE_OK at once without --dirs-shared.
 */
int phase_dir_create_join(struct phase_ctx *ctx);
int phase_dir_shared_done(struct phase_ctx *ctx);
/*
 * Remove every directory the directory phases made; free memory.  With
 * --dirs-shared, this rank's own alone: once every rank's are gone,
 * phase_dirs_cleanup_shared() removes the shared levels on rank 0 and
 * frees memory.
 */
void phase_dirs_cleanup(struct phase_ctx *ctx);
void phase_dirs_cleanup_shared(struct phase_ctx *ctx);

#endif
