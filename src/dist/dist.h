/*
 * dist/dist.h: a run spread over several processes, possibly on several
 * hosts sharing the target filesystem (clyde-mpi, built by `make mpi`).
 *
 * Every rank has its own scratch directory.  The ranks
 * meet before each phase's clock starts and after it stops; rank 0 then
 * holds the figures of the whole run.  In the plain clyde there is one
 * rank and every call here is trivial (dist/local.c); only dist/mpi.c
 * knows about MPI.
 *
 * In clyde-mpi a rank is two processes.  MPI_Init starts threads (Open
 * MPI's, PMIx's), and a process with a second thread has its descriptor
 * table shared: every read(), write(), lseek() and close() then takes the
 * kernel's slower path.  So the process that measures never calls MPI:
 * it is forked before MPI starts (dist_split()), and its parent, the
 * process mpirun started (the supervisor of run/stall.h), calls MPI_Init and
 * makes every MPI call on its behalf (dist_serve(), dist/mpi.c).  Each
 * call below, made in the measuring process, is a request to the parent
 * over a socket (dist/proxy.c); dist_poll() reads a flag in memory they
 * share.
 */
#ifndef CLYDE_DIST_H
#define CLYDE_DIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "result.h"
#include "core/timing.h"

/*
 * Start and end the distributed part, in the measuring process; in
 * clyde-mpi dist_init() waits for the parent to have started MPI.
 * dist_finalize() returns -1 when the run was given up for a lost rank
 * (dist_watch()): MPI is left as it is, and the process is to exit
 * non-zero.
 */
int dist_init(int *argc, char ***argv);
int dist_finalize(void);

unsigned dist_rank(void);
unsigned dist_size(void);

/* True in clyde-mpi (even with one rank), false in plain clyde. */
bool dist_has_ranks(void);

/*
 * Every rank says whether it can go on; true when all can.  A
 * collective call: it also makes the ranks wait for each other.
 */
bool dist_all_ok(bool ok);

/*
 * The ranks agree on their options before the run (cli/main.c): rank 0's
 * text (len bytes at most, DIST_TEXT_LEN) replaces text on every other
 * rank.  A collective call.
 */
#define DIST_TEXT_LEN 1024
void dist_share_rank0(char *text, size_t len);

/* True when every rank runs on this rank's host (by host name). */
bool dist_one_host(void);

/*
 * Every rank gives len bytes (the same len on every rank, at most
 * DIST_SHARE_MAX); this rank gets those of rank from into theirs.  A
 * collective call; false when it failed (a rank lost).
 */
#define DIST_SHARE_MAX 8192
bool dist_exchange(const void *mine, size_t len, unsigned from, void *theirs);

/*
 * dist_all_ok() with the reason: why is NULL on a rank that can go on,
 * else one line.  False when a rank cannot; first then holds the why of
 * the lowest such rank, on every rank.
 */
bool dist_all_ok_why(const char *why, char *first, size_t len);

/*
 * Tell the other ranks to stop at their next operation: this rank has
 * failed or was interrupted.
 */
void dist_signal_stop(void);

/*
 * Called twice a second from phase_check_stop() while a phase runs:
 * a stop from another rank sets phase_stop.
 */
void dist_poll(void);

/* This rank's share of one phase, as it ends. */
struct dist_phase {
	int rc;                         /* enum phase_rc */
	uint64_t ops, bytes;
	unsigned readdir_passes;
	int64_t cpu_ns;
	int64_t elapsed_ns;             /* this rank's own */
	const struct latency *lat;
	const char *error;              /* this rank's message when rc failed */
};

/*
 * After a phase: every rank calls it.  Returns the rc of the whole run
 * for this phase (an error anywhere is an error everywhere) and, when
 * another rank failed, its message in error.  On rank 0, pf becomes the
 * whole run's figures: elapsed from start_ns (taken as the ranks left
 * the meeting before the phase) to now, when the last rank has ended;
 * work and CPU summed; latencies merged; readdir passes the most any
 * rank made.  ranks, on rank 0, gets every rank's own figures.
 */
int dist_phase_done(const struct dist_phase *mine, int64_t start_ns,
    struct phase_figures *pf, enum phase_id id, struct rank_figures *ranks,
    char *error, size_t error_len);

/* On rank 0: every rank's host name into ranks[].host. */
void dist_gather_hosts(struct rank_figures *ranks);

/*
 * From now on, a rank that waits in a meeting for a rank not heard from
 * for longer than silent_s seconds (0: no limit) gives the run up: every
 * rank still heard from stops as after an error, removes its own files
 * and exits non-zero, rank 0 naming the rank lost, its host and its
 * scratch directory.  The ranks are heard from every second while they
 * run, also in a call that does not return: only a rank stopped or cut
 * off goes silent.
 */
void dist_watch(unsigned silent_s);

/*
 * Every rank tells rank 0 the path of its scratch directory ("" for
 * none), for that message.  A collective call.
 */
void dist_share_scratch(const char *path);

/*
 * The two processes of a rank.  dist_split(), before the fork of
 * stall_fork(): true when the measuring process must be a child of the
 * process started, which then speaks for it (clyde-mpi); what they talk
 * over is made here.  Plain clyde: false.  dist_split_child(): in the
 * child, after the fork.  dist_serve(): in the parent, after the fork;
 * it starts MPI and serves the child until the child has ended, and never
 * returns.  look() is the supervisor's round (signals passed on, the
 * child reaped, the meters checked): called at least every 100 ms, also
 * while a request waits for the other ranks; it does not return once the
 * child has ended (the process exits as the child did) unless the ranks
 * are told that it was killed (dist_child_killed()), and returns
 * false while the child is stopped (SIGSTOP): the rank then goes silent,
 * as a stopped rank did when it was one process.  meter is the one the
 * child's phases count in, shared (stall_meter(0)), for the first-done
 * figures; NULL without.
 */
struct phase_meter;
bool dist_split(void);
void dist_split_child(void);
_Noreturn void dist_serve(bool (*look)(void), struct phase_meter *meter);

/*
 * In the parent, from look(): the measuring process was killed by a
 * signal before the run's end (why: "the measuring process (pid N) was
 * killed by SIGKILL"; left: what it left, "it left PATH: remove it with:
 * rm -rf 'PATH'").  True when the other ranks will be told: once the
 * request under way is answered, every rank stops as for a lost rank
 * (dist_watch()), rank 0 names this one, its host, why and what it left,
 * and this process exits 3 when those still heard from have removed
 * their own files.  False when nobody can be told (one rank, MPI not
 * running or ending): the caller says it and exits as the child did.
 */
bool dist_child_killed(const char *why, const char *left);

/*
 * In the parent, from look(): the process that started it (mpirun or
 * its daemon) sent SIGTERM.  Open MPI does so to end the job, when a
 * rank is lost too, and sends SIGKILL a second later
 * (odls_base_sigkill_timeout): from now on no meeting waits, so that
 * each rank removes its own files at once.
 */
void dist_job_ends(void);

#endif
