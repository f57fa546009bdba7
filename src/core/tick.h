/*
 * core/tick.h: the tick the phase loops look at (core/tick.c).  A timer
 * of the run stage (run/progress.c) sets tick_due twice a second while
 * the live line is on, or with several ranks; every phase loop tests it
 * once per operation (phase_check_stop(), phases/ctx.h) and, when it is
 * set, calls tick_take(), which does what the run stage registered:
 * redraw the live line, look for a stop from the other ranks.  So the
 * phases draw nothing and call nothing above core/, and a loop pays the
 * test of a flag alone between two ticks.
 */
#ifndef CLYDE_TICK_H
#define CLYDE_TICK_H

#include <signal.h>
#include <stdbool.h>

/* Set by the timer's signal handler; cleared by what a tick does. */
extern volatile sig_atomic_t tick_due;

/*
 * The run stage's calls: on_tick() for tick_take(), which is to clear
 * tick_due when it has done what the tick is for; wait_ticks(on) for
 * tick_wait().  Either may be NULL: then nothing is done.
 */
void tick_register(void (*on_tick)(void), void (*wait_ticks)(bool on));

/* tick_due was found set: what the run stage registered for a tick. */
void tick_take(void);

/*
 * While on, a tick interrupts a blocking call (EINTR) instead of letting
 * it go on: for a wait that draws the line itself (the seekers' reaping)
 * through phase_check_stop().
 */
void tick_wait(bool on);

#endif
