/*
 * stop.h: the stop signals (stop.c).  SIGINT, SIGTERM, SIGXCPU and
 * SIGXFSZ set phase_stop; every phase loop checks it and ends its phase,
 * and the run then cleans up and exits 5.  A second signal during that
 * cleanup prints the path to remove and exits at once.  A leaf: it calls
 * nothing of clyde's.
 */
#ifndef CLYDE_STOP_H
#define CLYDE_STOP_H

#include <signal.h>
#include <stddef.h>

/* Set by a stop signal (or by another rank); every phase loop checks it. */
extern volatile sig_atomic_t phase_stop;

/* Install the stop-signal handlers; ignore SIGHUP and SIGPIPE. */
void stop_install_signals(void);

/* The first stop signal, or 0. */
int stop_signal(void);

/* " by SIGINT" and so on, or "" when no signal of ours stopped the run. */
const char *stop_signal_name(void);

/*
 * Cleanup starts: a stop signal from now on writes msg (kept, not copied)
 * to stderr and exits 5 at once, when a first one came before.
 */
void stop_cleanup_begin(const char *msg, size_t len);
void stop_cleanup_end(void);

#endif
