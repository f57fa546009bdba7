/*
 * run/scratch.h: the scratch directory of a run (run/scratch.c).
 */
#ifndef CLYDE_SCRATCH_H
#define CLYDE_SCRATCH_H

#include <stddef.h>

#include "phases/ctx.h"

/*
 * Make clyde.PID.XXXXXX (mode 0700) in the target open on target_fd, -d
 * dir, and open it and a copy of target_fd in ctx; path gets its full
 * name (dir/clyde.PID.XXXXXX).  trying (NULL: none) is told each full
 * name before its mkdir.  Returns 0, or -1 after saying why.
 */
int scratch_make(struct phase_ctx *ctx, int target_fd, const char *dir,
    char *path, size_t n, void (*trying)(const char *path));

/*
 * Close the emptied scratch directory and remove its name from the
 * target, unless the name is no longer the directory scratch_make()
 * made (moved away, maybe replaced): then say so, naming nothing to
 * remove.  Returns 0, or -1 when something is left.
 */
int scratch_remove(struct phase_ctx *ctx, const char *path);

/*
 * Name every clyde.PID.XXXXXX in the target open on target_fd (-d dir,
 * for the messages) whose PID no longer runs, with the command to remove
 * it; one made on another host or in another PID namespace with its age,
 * or, changed lately, in one line for all such live runs; never remove
 * any.
 */
void scratch_report_stale(int target_fd, const char *dir);

#endif
