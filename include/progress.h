/*
 * progress.h: what a run shows while it runs (progress.c): bonnie++'s
 * lines ("Writing intelligently...done") or the live line.  The phase
 * loops draw the live line through phase_check_stop() (phase_ctx.h).
 */
#ifndef CLYDE_PROGRESS_H
#define CLYDE_PROGRESS_H

#include <signal.h>
#include <stdbool.h>

#include "config.h"

struct phase_def;
struct phase_meter;

/* Set twice a second while the live line is on (or with several ranks). */
extern volatile sig_atomic_t progress_tick_due;

/* Redraw the live line, when the calling thread is the one shown. */
void progress_tick(void);

/*
 * The thread that calls this shows its meter on the live line (the
 * copy 0 thread with -c); NULL stops showing it.
 */
void progress_attach(const struct phase_meter *meter);

/* Before the first phase and after the last: the live line's timer. */
void progress_start(const struct config *cfg);
void progress_stop(void);

/* true while the live line is shown instead of bonnie++'s lines */
bool progress_live(void);

/*
 * true when the last of bonnie++'s lines shown ends without a newline
 * ("Writing intelligently..."): another message starts a line first.
 */
bool progress_line_open(void);

/*
 * A --chunks sweep starts point i (0-based) of n, whose chunk is chunk
 * bytes: a line before its phases' lines, or the live line's prefix.
 */
void progress_point(const struct config *cfg, unsigned chunk, unsigned i,
    unsigned n);

/* "Writing intelligently..." and "done", or the live line's phase */
void progress_phase_begin(const struct config *cfg, const struct phase_def *p);
void progress_phase_done(const struct config *cfg, const struct phase_def *p);

#endif
