/*
 * progress.h: what a run shows while it runs (progress.c).  The phase
 * loops draw the live line through phase_check_stop() in phase.h.
 */
#ifndef CLYDE_PROGRESS_H
#define CLYDE_PROGRESS_H

#include <stdbool.h>

#include "config.h"
#include "phase.h"

/* Before the first phase and after the last: the live line's timer. */
void progress_start(const struct config *cfg);
void progress_stop(void);

/* true while the live line is shown instead of bonnie++'s lines */
bool progress_live(void);

/* "Writing intelligently..." and "done", or the live line's phase */
void progress_phase_begin(const struct config *cfg, const struct phase_def *p);
void progress_phase_done(const struct config *cfg, const struct phase_def *p);

#endif
