/*
 * run/stall.h: a phase that makes no progress (run/stall.c, the watcher;
 * run/supervisor.c, the process that runs it; run/procinfo.c, what /proc
 * tells of the process watched).  A network filesystem whose server
 * stops answering leaves a call hanging, often where no signal reaches
 * it (an NFS hard mount).  The watcher sees that
 * the meters of the running phase have not moved for --stall seconds and
 * says on stderr which call has not returned, on which path, for how
 * long, again at growing intervals; or that a seeker, or a copy of -c,
 * is stopped.  The untimed steps around the phases (prepare(), cleanup)
 * are watched too, by how far the watched thread runs.  So the
 * user sees that it is the filesystem, not clyde.  While a call hangs,
 * the watcher also takes the stop signals that the stuck process cannot:
 * the first stops the run as usual, a second one kills the seekers and
 * exits 5, naming the scratch directory to remove; a measuring process
 * that is stopped is continued at the second, so that it stops.  It
 * keeps how long the processes of each timed part were stopped.
 *
 * The watcher is a process, not a thread: a second thread would share
 * the fd table and the memory map of the measuring process, and every
 * read() and write() would pay for it.  With --stall, clyde forks before
 * it opens anything: the process started (the supervisor) watches, takes
 * the signals sent to it and exits as its child, the measuring process,
 * does; the child runs the benchmark alone.  The meters live in memory
 * shared by the two, mapped before the fork.  In clyde-mpi the
 * supervisor is also the rank's MPI process, which makes every MPI call
 * for the child (dist/dist.h): there it forks with --stall=0 too.
 */
#ifndef CLYDE_STALL_H
#define CLYDE_STALL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "config.h"

struct phase_meter;

/*
 * With --stall, when the process measures (measures: not -p), and always
 * in clyde-mpi (dist/dist.h: the supervisor makes the MPI calls): fork.  The
 * supervisor never returns from here: it exits with the status of the
 * measuring process (or 5, stopped while a call hangs), or dies of the
 * signal that killed it; in clyde-mpi it exits 3 instead once the other
 * ranks have been told (dist_child_killed()).  Returns in the measuring
 * process, which dies with the supervisor (in clyde-mpi it gets SIGTERM
 * then, and cleans up), and at once in clyde with --stall=0 (no watcher
 * at all).
 */
void stall_fork(const struct config *cfg, bool measures);

/*
 * The measuring process, before and after the phases.  scratch: the
 * scratch directory's path, named where the call cannot be seen;
 * left_behind: the message for an exit with the run stuck, with the
 * command that removes it.  Both are copied.  cleanup: called as the
 * cleanup starts, when a supervisor gone (clyde-mpi's MPI process
 * killed) is no reason to stop.
 */
void stall_start(const char *scratch, const char *left_behind, bool cleanup);
void stall_stop(void);

/*
 * The scratch directory made, as its path is said, and its device and
 * inode: the supervisor names it when the measuring process is killed
 * before it could remove it, while that path is still the directory made.
 */
void stall_scratch_made(const char *scratch, dev_t dev, ino_t ino);

/*
 * Meter k in memory the watcher sees: 0 the runner's, 1 to -c's the
 * copies'.  NULL without a watcher (the caller allocates its own).
 */
struct phase_meter *stall_meter(unsigned k);

/*
 * The calling process runs a phase (label) and counts in meter; the
 * watcher checks it until stall_unwatch().  Several may be watched at
 * once: the copy processes of -c, each with its own meter.  Nothing for
 * a meter that is not stall_meter()'s.
 */
void stall_watch(struct phase_meter *meter, const char *label);
void stall_unwatch(struct phase_meter *meter);

/*
 * The same for an untimed step around a phase, which counts nothing in
 * meter: named "step the phase" ("preparing the block write"), or step
 * alone when phase is NULL ("cleanup").  It keeps what stall_seen() and
 * stall_stopped() say of the last timed part.
 */
void stall_step(struct phase_meter *meter, const char *step,
    const char *phase);

/*
 * How the lines on stderr are (the live line shown, a progress line
 * open), for the start of the watcher's lines: the process that prints
 * them says so when a phase's line opens and closes (a death before the
 * timed part is named on a line of its own) and before its copies'
 * phase starts; stall_watch() says so too, but not in a copy, which has
 * called stall_lines_elsewhere().
 */
void stall_line_state(void);
void stall_lines_elsewhere(void);

/*
 * The processes the watched thread waits for (the seekers, n of them):
 * the stall line names one that is stopped, and a second stop signal
 * while the run is stuck kills them.  n 0: none any more.
 */
void stall_watch_children(struct phase_meter *meter, const pid_t *pids,
    unsigned n);

/*
 * After stall_unwatch(): true when the phase of meter went --stall
 * seconds or more without progress; *ns the longest such time, call
 * (n bytes) the call it waited in, as the stall line named it.  Else
 * *ns is 0 and call "".
 */
bool stall_seen(struct phase_meter *meter, int64_t *ns, char *call,
    size_t n);

/*
 * After stall_unwatch() of a timed part: how long its processes were
 * stopped meanwhile (SIGSTOP, a debugger, Ctrl-Z), as the watcher saw
 * it; 0 when they never were, or without a watcher.
 */
int64_t stall_stopped(struct phase_meter *meter);

#endif
