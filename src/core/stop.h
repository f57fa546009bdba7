/*
 * core/stop.h: the stop signals (core/stop.c).  SIGINT, SIGTERM, SIGXCPU and
 * SIGXFSZ set phase_stop; every phase loop checks it and ends its phase,
 * and the run then cleans up and exits 5.  A second signal kills the
 * children that a phase waits for (the seekers), so that a stopped or
 * stuck one cannot hold the run; during cleanup it prints the path to
 * remove and exits at once.  Each stop signal counted is passed on to the
 * copy processes of -c; a second one kills a copy that is stopped, which
 * could not take it.  A leaf: it calls nothing of clyde's.
 */
#ifndef CLYDE_STOP_H
#define CLYDE_STOP_H

#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

/* Set by a stop signal (or by another rank); every phase loop checks it. */
extern volatile sig_atomic_t phase_stop;

/* Install the stop-signal handlers; ignore SIGHUP and SIGPIPE. */
void stop_install_signals(void);

/*
 * The handler of the stop signals, for a handler that shares one of
 * them (SIGALRM, the progress line's tick) and passes on what is not its
 * own.
 */
void stop_on_signal(int sig, siginfo_t *si, void *uc);

/* The first stop signal, or 0. */
int stop_signal(void);

/* How many stop signals came. */
unsigned stop_signal_count(void);

/*
 * A stop signal that the supervisor (run/supervisor.c) took: sent on to the
 * measuring process, which counts it unless it took the same one itself
 * (a SIGINT from the terminal, a kill of the process group: both get
 * it), so that one signal is never counted twice.  sender: the
 * stop_sender() of the signal as the supervisor took it.
 */
void stop_forward(pid_t to, int sig, pid_t sender);

/*
 * The parent-death signal (prctl(PR_SET_PDEATHSIG)) is SIGTERM, and
 * parent's: Linux sends it again as each thread of the parent ends (the
 * child passes to the next one), but it is one stop signal.
 */
void stop_parent_death(pid_t parent);

/* Who sent a signal: its pid, or 0 for the kernel (the terminal). */
pid_t stop_sender(const siginfo_t *si);

/*
 * Children that a second stop signal kills with SIGKILL: pids[0 ..
 * *count), where a pid of 0 is skipped (a child already reaped).  Both
 * stay the caller's and must live until stop_children_remove().  Returns
 * a handle, or -1 when the table is full (then nothing is killed).
 */
int stop_children_add(const volatile pid_t *pids, const volatile unsigned *count);
void stop_children_remove(int handle);

/*
 * The copy processes of -c, pids[0 .. *count) (0: reaped): every stop
 * signal counted from now on is passed on to them with stop_forward(),
 * as the supervisor passes it on to this process, so that a signal that
 * reached them too (the terminal's) is counted once.  NULL, NULL: none.
 * Both stay the caller's.
 */
void stop_copies_set(const volatile pid_t *pids, const volatile unsigned *count);

/*
 * In a copy, just forked: forget the parent's copies, children and the
 * signals it was pairing; the copy's stop signals come from its parent.
 */
void stop_forget_copies(void);

/*
 * A copy stopped on a signal of its own (sig, 0 when none is known): this
 * process stops as if it had taken it, and the other copies with it.
 */
void stop_adopt(int sig);

/* Block the stop signals (and the forwarded ones) around a fork. */
void stop_signals_block(sigset_t *saved);

/* " by SIGINT" and so on, or "" when no signal of ours stopped the run. */
const char *stop_signal_name(void);

/*
 * Cleanup starts: a stop signal from now on writes msg (kept, not copied)
 * to stderr and exits 5 at once, when a first one came before.
 */
void stop_cleanup_begin(const char *msg, size_t len);
void stop_cleanup_end(void);

#endif
