/*
 * run/supervisor.c: the process clyde started, when it forks (run/stall.h
 * says when and why): it runs the measuring process as its child, takes
 * the signals sent to it and passes them on, watches it once a second
 * (run/stall.c), stops a run stuck in a call or held by a debugger at a
 * second stop signal, says what a killed one left, and exits as it did.
 *
 * The supervisor keeps the caller's credentials (the measuring process
 * may drop them for -u, which makes its /proc entries unreadable to an
 * unprivileged peer) and holds no directory of the target but the one
 * clyde started in, through which it tells whether a killed measuring
 * process left its scratch directory: its working directory is /, its
 * standard input and output /dev/null.  In clyde-mpi it serves the
 * child's requests to MPI (dist_serve()), and its rounds run between
 * them and while they wait.
 */
#define _GNU_SOURCE             /* prctl(); signal() of BSD semantics */

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "config.h"
#include "dist/dist.h"
#include "run/procinfo.h"
#include "run/stall.h"
#include "run/stall_shared.h"
#include "core/stop.h"
#include "core/timing.h"
#include "lib/text.h"

#ifndef MAP_ANONYMOUS
#define MAP_ANONYMOUS MAP_ANON
#endif

static pid_t supervisor;
/* what the measuring process gets when the supervisor dies */
static int death_signal = SIGKILL;
/* the supervisor's descriptor of the directory clyde started in */
static int sv_start_fd = -1;
static bool supervised;         /* this is the measuring process, forked */

/*
 * Die with the supervisor: nobody would be left to report the run.  In
 * clyde-mpi, stop as on SIGTERM instead and remove the scratch
 * directory: a rank's MPI process killed leaves nobody else to do it.
 */
static void die_with_supervisor(bool starting)
{
#ifdef __linux__
	prctl(PR_SET_PDEATHSIG, death_signal);
#endif
	/* gone during the run (clyde-mpi: its SIGTERM taken): clean up */
	if (starting && getppid() != supervisor)
		_exit(EXIT_CANNOT_START);
}

_Noreturn static void supervise(const struct config *cfg, pid_t child,
    bool watch, bool split);

/* What the supervisor takes (sigtimedwait) and, but for SIGCHLD, passes on. */
static void supervisor_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGQUIT);
	sigaddset(set, SIGUSR1);
	sigaddset(set, SIGUSR2);
	sigaddset(set, SIGALRM);
	sigaddset(set, SIGCHLD);
}

void stall_fork(const struct config *cfg, bool measures)
{
	bool watch = measures && cfg->stall_s > 0;
	/* clyde-mpi: MPI in the supervisor, never in the measuring process */
	bool split = dist_split();
	/* no slot without a watcher: the scratch path alone, for name_death() */
	unsigned n = !watch ? 0 : cfg->concurrency > 1 ? cfg->concurrency + 1 : 1;
	size_t len = sizeof(*stall_shared) + n * sizeof(stall_shared->slot[0]);
	sigset_t set, saved;
	void *p;
	pid_t pid;

	if (!watch && !split)
		return;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
	    -1, 0);
	if (p != MAP_FAILED) {
		stall_shared = p;
		stall_shared->nslots = n;
	} else if (!split) {
		/* no watcher then, as with --stall=0 */
		return;
	}
	watch = stall_shared != NULL && watch;
	supervisor = getpid();
	/* what stdio holds must not be written twice */
	fflush(NULL);
	/*
	 * Blocked until each side is ready for them: the supervisor waits
	 * for them, the child first has its handlers (core/stop.h), without
	 * which a stop signal passed on would end it.
	 */
	supervisor_signals(&set);
	sigprocmask(SIG_BLOCK, &set, &saved);
	pid = fork();
	if (pid > 0)
		supervise(cfg, pid, watch, split);
	if (pid < 0) {
		/* without its parent a rank cannot start: dist_init() says so */
		if (stall_shared != NULL)
			munmap(stall_shared, len);
		stall_shared = NULL;
	} else {
		supervised = true;
		if (split) {
			dist_split_child();
			death_signal = SIGTERM;
			stop_parent_death(supervisor);
		}
		die_with_supervisor(true);
		stop_install_signals();
	}
	sigprocmask(SIG_SETMASK, &saved, NULL);
}

void stall_start(const char *scratch, const char *left_behind, bool cleanup)
{
	/* a change of user (-u) clears the parent-death signal */
	if (supervised)
		die_with_supervisor(!cleanup);
	if (stall_shared == NULL)
		return;
	snprintf(stall_shared->scratch, sizeof(stall_shared->scratch), "%s",
	    scratch);
	snprintf(stall_shared->left_behind, sizeof(stall_shared->left_behind),
	    "%s", left_behind);
	atomic_store(&stall_shared->armed, 1);
}

void stall_scratch_made(const char *scratch, dev_t dev, ino_t ino)
{
	if (stall_shared == NULL)
		return;
	snprintf(stall_shared->scratch, sizeof(stall_shared->scratch), "%s",
	    scratch);
	stall_shared->scratch_dev = dev;
	stall_shared->scratch_ino = ino;
}

void stall_stop(void)
{
	if (stall_shared != NULL)
		atomic_store(&stall_shared->armed, 0);
}

/* --- after the fork, in the supervisor ---------------------------------- */

/* What the supervisor keeps between its rounds. */
static struct {
	pid_t child;
	sigset_t set;                   /* supervisor_signals() */
	struct seen *seen;              /* NULL without --stall */
	int64_t limit_ns, next_look;
	int64_t round_end;              /* when the last round ended */
	bool stuck, said_stopping;
	bool stopped;                   /* the child is (SIGSTOP) */
	int64_t stopped_at;             /* since then */
	bool job_stopped;               /* the supervisor was stopped too */
	bool split;                     /* clyde-mpi: MPI here (dist/dist.h) */
	bool gone;                      /* the child killed, the ranks told */
	unsigned stops;
} sv;

/*
 * Is a slot that was stuck at the last look still where it was: its
 * call has not returned, its stopped process not gone on?
 */
static bool still_stuck(pid_t child)
{
	for (unsigned i = 0; i < stall_shared->nslots; i++) {
		const struct slot *s = &stall_shared->slot[i];
		const struct seen *w = &sv.seen[i];

		if (w->stuck && atomic_load(&s->gen) == w->gen &&
		    watcher_progress_of(child, s, w->last) == w->last)
			return true;
	}
	return false;
}

/*
 * The seekers of the measuring process or of its copies: never a pid
 * reused by another.
 */
static void kill_children(pid_t child)
{
	for (unsigned i = 0; i < stall_shared->nslots; i++) {
		const struct slot *s = &stall_shared->slot[i];
		unsigned k, nk = atomic_load(&s->nchildren);
		pid_t ppid, pid = s->pid != 0 ? s->pid : child;

		for (k = 0; k < nk && k < SEEKERS_MAX; k++)
			if (procinfo_pid_state(s->children[k], &ppid) != 0 &&
			    ppid == pid)
				kill(s->children[k], SIGKILL);
	}
}

/* "SIGKILL" for the signals that end a process, else "signal N" */
static void signal_name(int sig, char *out, size_t n)
{
	static const struct {
		int sig;
		const char *name;
	} names[] = {
		{ SIGKILL, "SIGKILL" }, { SIGSEGV, "SIGSEGV" },
		{ SIGBUS, "SIGBUS" }, { SIGABRT, "SIGABRT" },
		{ SIGTERM, "SIGTERM" }, { SIGINT, "SIGINT" },
		{ SIGHUP, "SIGHUP" }, { SIGQUIT, "SIGQUIT" },
		{ SIGILL, "SIGILL" }, { SIGFPE, "SIGFPE" },
		{ SIGXCPU, "SIGXCPU" }, { SIGXFSZ, "SIGXFSZ" },
		{ SIGPIPE, "SIGPIPE" }, { SIGALRM, "SIGALRM" },
		{ SIGUSR1, "SIGUSR1" }, { SIGUSR2, "SIGUSR2" },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].sig == sig) {
			snprintf(out, n, "%s", names[i].name);
			return;
		}
	snprintf(out, n, "signal %d", sig);
}

/* What a killed measuring process left: its scratch directory, named. */
static void left_behind(char *left, size_t n)
{
	char quoted[2 * PATH_MAX];
	struct stat st;

	if (stall_shared->scratch[0] != '\0' && sv_start_fd >= 0 &&
	    fstatat(sv_start_fd, stall_shared->scratch, &st,
	    AT_SYMLINK_NOFOLLOW) == 0) {
		shell_quote(quoted, sizeof(quoted), stall_shared->scratch);
		/* what was put in place of one moved away is never named for rm */
		if (st.st_dev != stall_shared->scratch_dev ||
		    st.st_ino != stall_shared->scratch_ino)
			snprintf(left, n, "%s is not the directory it made: it "
			    "was moved away and something else put there, which "
			    "is left as it is", stall_shared->scratch);
		else
			snprintf(left, n, "it left %s: remove it with: rm -rf %s",
			    stall_shared->scratch, quoted);
	} else {
		snprintf(left, n, "it left no scratch directory");
	}
}

/*
 * The measuring process was killed (kill -9, the OOM killer, a crash):
 * it could not clean up, so the supervisor says so, and what it left.
 * In clyde-mpi the ranks are told (dist_child_killed()), rank 0 names it;
 * true then, and the supervisor goes on serving MPI until it exits.
 */
static bool name_death(pid_t child, int status, bool split)
{
	char sig[32], why[96], left[3 * PATH_MAX + 64];

	if (!WIFSIGNALED(status) || stall_shared == NULL)
		return false;
	signal_name(WTERMSIG(status), sig, sizeof(sig));
	snprintf(why, sizeof(why), "the measuring process (pid %ld) was "
	    "killed by %s", (long)child, sig);
	left_behind(left, sizeof(left));
	if (split && dist_child_killed(why, left))
		return true;
	fprintf(stderr, "%sclyde: %s; %s\n", watcher_line_start(), why, left);
	return false;
}

/* Exit as the measuring process did: its status, or its signal. */
static void exit_as(int status)
{
	sigset_t set;
	int sig;

	if (WIFEXITED(status))
		_exit(WEXITSTATUS(status));
	sig = WTERMSIG(status);
	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	kill(getpid(), sig);
	_exit(128 + sig);
}

/*
 * A second stop signal while a call hangs: the seekers go (and a copy
 * that is stopped, which its parent kills); give the stuck part two
 * seconds to go on, else leave without the cleanup, which would hang
 * too, and end the measuring process.
 */
static void stop_stuck_run(pid_t child)
{
	int status;

	kill_children(child);
	for (int i = 0; i < 20 && still_stuck(child); i++) {
		if (waitpid(child, &status, WNOHANG) == child) {
			name_death(child, status, false);
			exit_as(status);
		}
		nanosleep(&(struct timespec){ 0, 100000000 }, NULL);
	}
	if (!still_stuck(child)) {
		sv.stuck = false;
		return;
	}
	kill(child, SIGKILL);
	/* its newline ends a progress line, and none is open after a stall line */
	fprintf(stderr, "%s%s", watcher_line_start(),
	    stall_shared->left_behind + (stall_shared->left_behind[0] == '\n'));
	_exit(EXIT_INTERRUPTED);
}

/*
 * Does a debugger hold the measuring process: stopped, traced ('t'), and
 * not run for half a second?  One that strace(1) follows stops at each
 * call too, but runs between them.
 */
static bool held_by_debugger(pid_t child)
{
	const struct timespec tenth = { 0, 100000000 };
	uint64_t ran;

	if (procinfo_pid_state(child, NULL) != 't')
		return false;
	ran = procinfo_run_count(child, child);
	for (int i = 0; i < 5; i++) {
		nanosleep(&tenth, NULL);
		if (procinfo_pid_state(child, NULL) != 't' ||
		    procinfo_run_count(child, child) != ran)
			return false;
	}
	return true;
}

/*
 * A second stop signal while a debugger holds the measuring process
 * (ptrace), which SIGCONT does not continue: only SIGKILL ends it, and
 * it cannot clean up.  Said, with what it leaves.
 */
static void stop_traced_run(pid_t child)
{
	char left[3 * PATH_MAX + 64];

	kill_children(child);
	kill(child, SIGKILL);
	left_behind(left, sizeof(left));
	fprintf(stderr, "%sclyde: the measuring process (pid %ld) is held by a "
	    "debugger, which lets no signal but SIGKILL through: killed "
	    "without cleanup; %s\n", watcher_line_start(), (long)child, left);
	_exit(EXIT_INTERRUPTED);
}

/* Descriptors 0 and 1 on /dev/null: the supervisor reads and writes neither. */
static void quiet_std_fds(void)
{
	int fd = open("/dev/null", O_RDWR);

	if (fd < 0)
		return;
	dup2(fd, STDIN_FILENO);
	dup2(fd, STDOUT_FILENO);
	if (fd > STDERR_FILENO)
		close(fd);
}

/*
 * Did the supervisor not run since its last round, now, for over a
 * second (its rounds wait a quarter of one): it was stopped too, with
 * the whole job (Ctrl-Z), which it learns of only as it goes on.
 */
static bool job_was_stopped(int64_t now)
{
	return now - sv.round_end > 1000000000;
}

/*
 * The measuring process has gone on (SIGCONT) after a stop, now: the
 * time it was stopped counts for the timed parts it watches, from the
 * stop as the supervisor saw it (for the parts watched then), else from
 * the supervisor's last round (for the parts watched now).  When the
 * whole job was stopped, the copies' timed parts were too.
 */
static void child_went_on(pid_t child, int64_t now)
{
	bool job = sv.stopped ? sv.job_stopped : job_was_stopped(now);
	int64_t ns = now - (sv.stopped ? sv.stopped_at : sv.round_end);

	for (unsigned i = 0; sv.seen != NULL && i < stall_shared->nslots; i++) {
		struct slot *s = &stall_shared->slot[i];
		unsigned gen = atomic_load(&s->gen);

		/* a slot changed since the stop is another part, not stopped */
		if (gen % 2 == 0 || !s->timed ||
		    (sv.stopped && gen != sv.seen[i].stop_gen))
			continue;
		if (watcher_pid_of(s, child) == child || job)
			s->meter.stopped_ns += ns;
	}
	if (stall_shared != NULL)
		atomic_store(&stall_shared->child_stopped, 0);
}

/*
 * The measuring process stopped, now, or (the whole job stopped, the
 * supervisor going on first) since the supervisor's last round: what it
 * watched then.
 */
static void child_stopped_now(int64_t now)
{
	sv.job_stopped = job_was_stopped(now);
	sv.stopped_at = sv.job_stopped ? sv.round_end : now;
	for (unsigned i = 0; sv.seen != NULL && i < stall_shared->nslots; i++)
		sv.seen[i].stop_gen = atomic_load(&stall_shared->slot[i].gen);
}

/*
 * The child ended (the supervisor exits as it did, or in clyde-mpi, the
 * ranks told, returns true), stopped or went on.
 */
static bool child_changed(pid_t child)
{
	int status;

	while (waitpid(child, &status, WNOHANG | WUNTRACED | WCONTINUED) ==
	    child) {
		if (WIFSTOPPED(status)) {
			if (!sv.stopped)
				child_stopped_now(now_ns());
			sv.stopped = true;
			if (stall_shared != NULL)
				atomic_store(&stall_shared->child_stopped, 1);
		} else if (WIFCONTINUED(status)) {
			child_went_on(child, now_ns());
			sv.stopped = false;
		} else if (name_death(child, status, sv.split)) {
			sv.gone = true;
			return true;
		} else {
			exit_as(status);
		}
	}
	return false;
}

/*
 * After the first stop signal, once: what the run waits for, when it is
 * a process that is stopped or a call that hangs.
 */
static void say_stopping(pid_t child)
{
	char who[96];

	if (sv.said_stopping || stall_shared == NULL)
		return;
	if (sv.stopped)
		fprintf(stderr, "%sclyde: stopping: the measuring process (pid "
		    "%ld) is stopped; a second SIGINT continues it, and the run "
		    "stops\n", watcher_line_start(), (long)child);
	else if (sv.seen != NULL &&
	    watcher_stopped_one(child, who, sizeof(who)))
		fprintf(stderr, "%sclyde: stopping: waiting for %s, which is "
		    "stopped; a second SIGINT ends it\n", watcher_line_start(),
		    who);
	else if (sv.stuck)
		fprintf(stderr, "%sclyde: stopping: waiting for the call "
		    "that hangs; a second SIGINT stops waiting\n",
		    watcher_line_start());
	else
		return;
	sv.said_stopping = true;
}

/*
 * One round: a signal taken within wait and passed on; the child's end
 * (the supervisor then exits as it did), stop or going on again; once a
 * second, its meters.  False while the child is stopped.
 */
static bool supervise_round(const struct timespec *wait)
{
	pid_t child = sv.child;
	siginfo_t si;
	int64_t now;
	int sig;

	sig = sigtimedwait(&sv.set, &si, wait);
	/* reaped: its pid may be another's now */
	if (sv.gone || child_changed(child))
		return true;
	if (sig == SIGINT || sig == SIGTERM) {
		sv.stops++;
		/* the launcher ends the job (mpirun, when a rank is lost) */
		if (sig == SIGTERM && stop_sender(&si) == getppid())
			dist_job_ends();
		stop_forward(child, sig, stop_sender(&si));
		/* stopped, it cannot take them: it goes on, to stop */
		if (sv.stopped && sv.stops >= 2)
			kill(child, SIGCONT);
	} else if (sig > 0 && sig != SIGCHLD && stop_sender(&si) != 0) {
		/* from the terminal (sender 0) it reached the child too */
		kill(child, sig);
	}
	now = now_ns();
	if (sv.limit_ns > 0 && now >= sv.next_look) {
		sv.stuck = watcher_check(child, sv.seen, sv.limit_ns, now);
		sv.next_look = now + 1000000000;
	}
	/* a debugger's stop ('t'): neither SIGCONT nor the signals reach it */
	if (sv.stops >= 2 && stall_shared != NULL && held_by_debugger(child))
		stop_traced_run(child);
	if (sv.stuck && sv.stops >= 2)
		stop_stuck_run(child);
	if (sv.stops == 1)
		say_stopping(child);
	/* what a stop of the whole job is measured from (child_went_on()) */
	sv.round_end = now_ns();
	return !sv.stopped;
}

/* A round that waits for nothing, for dist_serve() */
static bool look(void)
{
	static const struct timespec now = { 0, 0 };

	return supervise_round(&now);
}

_Noreturn static void supervise(const struct config *cfg, pid_t child,
    bool watch, bool split)
{
	static const struct timespec quarter = { 0, 250000000 };

	/* the measuring process holds the run: a lost terminal is ignored there too */
	signal(SIGHUP, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	supervisor_signals(&sv.set);
	sv.child = child;
	sv.split = split;
	sv.round_end = now_ns();
	quiet_std_fds();
	/* where a relative scratch path starts from, after the chdir below */
	sv_start_fd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (watch) {
		sv.limit_ns = (int64_t)cfg->stall_s * 1000000000;
		sv.seen = calloc(stall_shared->nslots, sizeof(*sv.seen));
	}
	if (chdir("/") != 0 || sv.seen == NULL)
		sv.limit_ns = 0;        /* still passes the signals on */
	/* clyde-mpi: MPI here, for the child, with these rounds between */
	if (split)
		dist_serve(look, stall_meter(0));
	for (;;)
		supervise_round(&quarter);
}
