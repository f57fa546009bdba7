/*
 * scratch.h: the scratch directory of a run (scratch.c).
 */
#ifndef CLYDE_SCRATCH_H
#define CLYDE_SCRATCH_H

#include <stddef.h>

#include "phase_ctx.h"

/*
 * Make clyde.PID.XXXXXX in dir (mode 0700) and open it and the target in
 * ctx; path gets its full name.  Returns 0, or -1 after saying why.
 */
int scratch_make(struct phase_ctx *ctx, const char *dir, char *path, size_t n);

/*
 * Close the emptied scratch directory and remove its name from the
 * target, unless the name is no longer the directory scratch_make()
 * made (moved away, maybe replaced): then say so, naming nothing to
 * remove.  Returns 0, or -1 when something is left.
 */
int scratch_remove(struct phase_ctx *ctx, const char *path);

/*
 * Name every clyde.PID.XXXXXX in dir whose PID no longer runs, with the
 * command to remove it; never remove it.
 */
void scratch_report_stale(const char *dir);

/* path in single quotes for a shell command: ' becomes '\'' */
void scratch_quote(char *out, size_t n, const char *path);

#endif
