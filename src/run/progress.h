/*
 * run/progress.h: what a run shows while it runs (run/progress.c): bonnie++'s
 * lines ("Writing intelligently...done") or the live line.  The phase
 * loops draw the live line through phase_check_stop() (phases/ctx.h) at
 * the ticks of core/tick.h, which progress_start() sets going.
 */
#ifndef CLYDE_PROGRESS_H
#define CLYDE_PROGRESS_H

#include <stdbool.h>

#include "config.h"

struct phase_def;
struct phase_meter;

/*
 * A tick is due (core/tick.h's tick_due, set twice a second while the
 * live line is on, or with several ranks): redraw the live line, when
 * the calling thread is the one shown.
 */
void progress_tick(void);

/*
 * The process that calls this shows its meter on the live line (the
 * parent of the copies shows copy 0's with -c), from now, when the
 * phase's clock starts; NULL stops showing it.
 */
void progress_attach(const struct phase_meter *meter);

/*
 * Before the first phase and after the last of each run (-x): the live
 * line's timer, whose ticks the phases take (core/tick.h).  A run makes
 * first_phases phases at its first point, later_phases at each later
 * point of a --chunks sweep.
 */
void progress_start(const struct config *cfg, unsigned first_phases,
    unsigned later_phases);
void progress_stop(void);

/* true while the live line is shown instead of bonnie++'s lines */
bool progress_live(void);

/*
 * true when the last of bonnie++'s lines shown ends without a newline
 * ("Writing intelligently..."): another message starts a line first.
 */
bool progress_line_open(void);

/*
 * A sweep (--chunks, --sizes) starts point i (0-based) of the n that
 * run, point 'at' of config_points(): a line naming its file and chunk
 * size before its phases' lines, or the live line's prefix.
 */
void progress_point(const struct config *cfg, unsigned at, unsigned i,
    unsigned n);

/*
 * "Writing intelligently..." and "done", or the live line's phase, the
 * k-th of its point (from 1)
 */
void progress_phase_begin(const struct config *cfg, const struct phase_def *p,
    unsigned k);
void progress_phase_done(const struct config *cfg, const struct phase_def *p);

#endif
