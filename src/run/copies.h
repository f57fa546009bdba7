/*
 * run/copies.h: -c N (run/copies.c).  N copies of the context, each
 * in its own subdirectory of the scratch directory and its own process,
 * forked once per run, run every phase at the same time.  The figures:
 * elapsed from the first start to the last end, work summed, CPU of every
 * copy and seeker counted once, latency merged.
 */
#ifndef CLYDE_PHASE_COPIES_H
#define CLYDE_PHASE_COPIES_H

#include "phases/phase.h"
#include "phases/ctx.h"
#include "result.h"

struct copies;

/*
 * Make the copies' directories and fork the copies.  NULL with errno set
 * when that failed (none is left), *what naming the step for the message.
 */
struct copies *copies_start(const struct phase_ctx *base, unsigned n,
    const char **what);
/* Like one phase run: PHASE_OK, or the first copy's error in base->error. */
int copies_run_phase(struct copies *cp, struct phase_ctx *base,
    const struct phase_def *p, struct phase_figures *pf);
/*
 * Each copy cleans up and exits; what a copy that ended before left is
 * removed by its names; the subdirectories go; freed.  -1 when a copy
 * ended after its last phase without being told (said on stderr).
 */
int copies_finish(struct copies *cp, struct phase_ctx *base);

#endif
