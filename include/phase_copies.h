/*
 * phase_copies.h: -c N (phase_copies.c).  N copies of the context, each
 * in its own subdirectory of the scratch directory, run every phase at
 * the same time in N threads.  The figures: elapsed from the first start
 * to the last end, work summed, CPU of every thread and seeker counted
 * once, latency merged.
 */
#ifndef CLYDE_PHASE_COPIES_H
#define CLYDE_PHASE_COPIES_H

#include "phase.h"
#include "phase_ctx.h"
#include "result.h"

struct copies;

/* NULL with errno set when a copy could not be made (none is left). */
struct copies *copies_start(const struct phase_ctx *base, unsigned n);
/* Like one phase run: PHASE_OK, or the first copy's error in base->error. */
int copies_run_phase(struct copies *cp, struct phase_ctx *base,
    const struct phase_def *p, struct phase_figures *pf);
/* Clean every copy up, remove the subdirectories, free. */
void copies_finish(struct copies *cp, struct phase_ctx *base);

#endif
