/*
 * run/stall.c: the watcher of phases that make no progress.  See run/stall.h.
 *
 * The measuring process pays nothing: its meters are in a shared
 * mapping, which the supervisor reads once a second; only when one has
 * not moved does it look, through /proc (Linux), at the system call the
 * measuring process (or the copy of -c) is in, the file it names, and
 * the state of the seekers.  Elsewhere the line names the phase alone.
 * The untimed steps around a phase (its prepare(), cleanup) count
 * nothing: there the supervisor reads how far the watched thread has
 * run (/proc's schedstat) once a second, and a thread that has neither
 * run nor been woken for --stall seconds is in a call that hangs.  It
 * also keeps the time the processes of a timed part were stopped
 * (SIGSTOP, a debugger, Ctrl-Z): the measuring process's from waitpid(),
 * that of the seekers and copies from /proc once a second.  The supervisor
 * keeps the caller's credentials (the measuring process may drop them
 * for -u, which makes its /proc entries unreadable to an unprivileged
 * peer) and holds no directory of the target but the one clyde started
 * in, through which it tells whether a killed measuring process left its
 * scratch directory: its working directory is /, its standard input and
 * output /dev/null.  In clyde-mpi
 * it serves the child's requests to MPI (dist_serve()), and its rounds
 * run between them and while they wait.
 */
#define _GNU_SOURCE             /* syscall(SYS_gettid), prctl() */

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#include <sys/syscall.h>
#endif

#include "dist/dist.h"
#include "phases/ctx.h"
#include "run/progress.h"
#include "run/scratch.h"
#include "run/stall.h"
#include "core/stop.h"
#include "lib/fdio.h"
#include "lib/text.h"

#ifndef MAP_ANONYMOUS
#define MAP_ANONYMOUS MAP_ANON
#endif

#define CALL_LEN (PATH_MAX + NAME_MAX + 64)

/* One watched thread, in the shared mapping. */
struct slot {
	struct phase_meter meter;       /* the phase counts here */
	/* written by the measuring process, read by the supervisor */
	atomic_uint gen;                /* odd while watched; +1 at each change */
	pid_t pid;                      /* the watched process (a copy's, -c) */
	long tid;                       /* its watched thread; 0 unknown */
	char label[96];
	bool timed;                     /* a timed part, not a step around one */
	atomic_uint nchildren;
	pid_t children[SEEKERS_MAX];
	/* written by the supervisor while watched, read after the phase */
	int64_t stalled_ns;
	char call[CALL_LEN];
};

static struct shared {
	atomic_int armed;               /* between stall_start() and stall_stop() */
	atomic_int line_open;           /* a progress line wants its newline */
	atomic_int live;                /* the live progress line is shown */
	/* the supervisor has seen the measuring process stop, and not go on */
	atomic_int child_stopped;
	char scratch[PATH_MAX];
	dev_t scratch_dev;              /* the directory made, at scratch */
	ino_t scratch_ino;
	char left_behind[2 * PATH_MAX + 256];
	unsigned nslots;
	struct slot slot[];
} *sh;

static pid_t supervisor;
/* what the measuring process gets when the supervisor dies */
static int death_signal = SIGKILL;
/* the supervisor's descriptor of the directory clyde started in */
static int sv_start_fd = -1;
static bool supervised;         /* this is the measuring process, forked */
/* A copy of -c: the lines on stderr are its parent's, which says how they are. */
static bool lines_elsewhere;

/* What the supervisor remembers of each slot between its looks. */
struct seen {
	unsigned gen;
	uint64_t last;                  /* progress_of() when last seen */
	int64_t moved_ns;               /* when it last changed */
	int64_t report_after_ns;        /* the next line, after this long */
	int64_t looked_ns;              /* its processes' stops, last looked at */
	unsigned stop_gen;              /* gen as the measuring process stopped */
	bool stuck;                     /* at the last look */
};

static long thread_id(void)
{
#if defined(__linux__) && defined(SYS_gettid)
	return (long)syscall(SYS_gettid);
#else
	return 0;
#endif
}

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
	size_t len = sizeof(*sh) + n * sizeof(sh->slot[0]);
	sigset_t set, saved;
	void *p;
	pid_t pid;

	if (!watch && !split)
		return;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
	    -1, 0);
	if (p != MAP_FAILED) {
		sh = p;
		sh->nslots = n;
	} else if (!split) {
		/* no watcher then, as with --stall=0 */
		return;
	}
	watch = sh != NULL && watch;
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
		if (sh != NULL)
			munmap(sh, len);
		sh = NULL;
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
	if (sh == NULL)
		return;
	snprintf(sh->scratch, sizeof(sh->scratch), "%s", scratch);
	snprintf(sh->left_behind, sizeof(sh->left_behind), "%s", left_behind);
	atomic_store(&sh->armed, 1);
}

void stall_scratch_made(const char *scratch, dev_t dev, ino_t ino)
{
	if (sh == NULL)
		return;
	snprintf(sh->scratch, sizeof(sh->scratch), "%s", scratch);
	sh->scratch_dev = dev;
	sh->scratch_ino = ino;
}

void stall_stop(void)
{
	if (sh != NULL)
		atomic_store(&sh->armed, 0);
}

struct phase_meter *stall_meter(unsigned k)
{
	return sh != NULL && k < sh->nslots ? &sh->slot[k].meter : NULL;
}

static struct slot *slot_of(struct phase_meter *meter)
{
	unsigned k;

	for (k = 0; sh != NULL && k < sh->nslots; k++)
		if (&sh->slot[k].meter == meter)
			return &sh->slot[k];
	return NULL;
}

/* Slot s watched from now on, as label, a timed part or an untimed step. */
static void watch(struct slot *s, const char *label, bool timed)
{
	/* even: being changed, the supervisor passes it over */
	atomic_store(&s->gen, (atomic_load(&s->gen) + 1) & ~1u);
	snprintf(s->label, sizeof(s->label), "%s", label);
	s->timed = timed;
	s->pid = getpid();
	s->tid = thread_id();
	atomic_store(&s->nchildren, 0);
	if (!lines_elsewhere)
		stall_line_state();
	atomic_store(&s->gen, atomic_load(&s->gen) + 1);
}

void stall_watch(struct phase_meter *meter, const char *label)
{
	struct slot *s = slot_of(meter);

	if (s == NULL)
		return;
	s->stalled_ns = 0;
	s->meter.stopped_ns = 0;
	s->call[0] = '\0';
	watch(s, label, true);
}

void stall_step(struct phase_meter *meter, const char *step,
    const char *phase)
{
	struct slot *s = slot_of(meter);
	char label[sizeof(s->label)];

	if (s == NULL)
		return;
	if (phase != NULL)
		snprintf(label, sizeof(label), "%s the %s", step, phase);
	else
		snprintf(label, sizeof(label), "%s", step);
	watch(s, label, false);
}

void stall_line_state(void)
{
	if (sh == NULL)
		return;
	atomic_store(&sh->live, progress_live());
	atomic_store(&sh->line_open, progress_line_open());
}

void stall_lines_elsewhere(void)
{
	lines_elsewhere = true;
}

void stall_unwatch(struct phase_meter *meter)
{
	struct slot *s = slot_of(meter);

	if (s != NULL)
		atomic_store(&s->gen, (atomic_load(&s->gen) + 1) & ~1u);
}

void stall_watch_children(struct phase_meter *meter, const pid_t *pids,
    unsigned n)
{
	struct slot *s = slot_of(meter);

	if (s == NULL)
		return;
	if (n > SEEKERS_MAX)
		n = SEEKERS_MAX;
	atomic_store(&s->nchildren, 0);
	if (n > 0)
		memcpy(s->children, pids, n * sizeof(pids[0]));
	atomic_store(&s->nchildren, n);
}

int64_t stall_stopped(struct phase_meter *meter)
{
	const struct timespec moment = { 0, 10000000 };
	struct slot *s = slot_of(meter);

	if (s == NULL)
		return 0;
	/* stopped, and gone on before the supervisor saw it go on */
	for (int i = 0; i < 100 && atomic_load(&sh->child_stopped); i++)
		nanosleep(&moment, NULL);
	return s->meter.stopped_ns;
}

bool stall_seen(struct phase_meter *meter, int64_t *ns, char *call, size_t n)
{
	struct slot *s = slot_of(meter);

	*ns = s != NULL ? s->stalled_ns : 0;
	snprintf(call, n, "%s", *ns != 0 ? s->call : "");
	return *ns != 0;
}

/* --- the supervisor ----------------------------------------------------- */

/* The work a slot's meter counts; the measuring process writes it. */
static uint64_t work_of(const struct slot *s)
{
	return __atomic_load_n(&s->meter.ops, __ATOMIC_RELAXED) +
	    __atomic_load_n(&s->meter.bytes, __ATOMIC_RELAXED) +
	    atomic_load_explicit(&s->meter.next_seek, memory_order_relaxed);
}

#ifdef __linux__
/*
 * The file behind descriptor fd of process pid, or "": AT_FDCWD is its
 * working directory (the small-file phases work in theirs).
 */
static void fd_path(pid_t pid, long fd, char *out, size_t n)
{
	char link[64];
	ssize_t len;

	if (fd == AT_FDCWD)
		snprintf(link, sizeof(link), "/proc/%ld/cwd", (long)pid);
	else
		snprintf(link, sizeof(link), "/proc/%ld/fd/%ld", (long)pid, fd);
	len = readlink(link, out, n - 1);
	out[len > 0 ? len : 0] = '\0';
}

/* A string at address addr of process pid, through /proc/PID/mem. */
static void string_at(pid_t pid, unsigned long addr, char *out, size_t n)
{
	char path[64];
	ssize_t got = -1;
	int fd;

	snprintf(path, sizeof(path), "/proc/%ld/mem", (long)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) >= 0) {
		got = pread(fd, out, n - 1, (off_t)addr);
		close(fd);
	}
	out[got > 0 ? got : 0] = '\0';
	out[strnlen(out, n - 1)] = '\0';
}

static const struct {
	long nr;
	const char *name;
	int kind;               /* 1: fd first; 2: dirfd and path first */
} calls[] = {
#ifdef SYS_read
	{ SYS_read, "read", 1 },
#endif
#ifdef SYS_write
	{ SYS_write, "write", 1 },
#endif
#ifdef SYS_close
	{ SYS_close, "close", 1 },
#endif
#ifdef SYS_fsync
	{ SYS_fsync, "fsync", 1 },
#endif
#ifdef SYS_fdatasync
	{ SYS_fdatasync, "fdatasync", 1 },
#endif
#ifdef SYS_lseek
	{ SYS_lseek, "lseek", 1 },
#endif
#ifdef SYS_getdents64
	{ SYS_getdents64, "readdir", 1 },
#endif
#ifdef SYS_openat
	{ SYS_openat, "open", 2 },
#endif
#ifdef SYS_unlinkat
	{ SYS_unlinkat, "unlink", 2 },
#endif
#ifdef SYS_newfstatat
	{ SYS_newfstatat, "stat", 2 },
#endif
#ifdef SYS_statx
	{ SYS_statx, "stat", 2 },
#endif
#ifdef SYS_mkdirat
	{ SYS_mkdirat, "mkdir", 2 },
#endif
#ifdef SYS_symlinkat
	{ SYS_symlinkat, "symlink", 0 },
#endif
#ifdef SYS_linkat
	{ SYS_linkat, "link", 0 },
#endif
#ifdef SYS_sync
	{ SYS_sync, "sync", 0 },
#endif
#ifdef SYS_wait4
	{ SYS_wait4, "waitpid (for the seekers)", 0 },
#endif
};

/*
 * "open(/mnt/nfs/clyde.1.x/files/00000001ab)": the call thread tid of pid
 * is in; a read of a pipe by a process with seekers waits for them to
 * start (phases/seek.c)
 */
static void describe_call(pid_t pid, long tid, bool seekers, char *out,
    size_t n)
{
	char path[64], line[256], file[PATH_MAX], name[NAME_MAX + 1];
	unsigned long a[3];
	long nr;
	FILE *f;

	out[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%ld/task/%ld/syscall", (long)pid,
	    tid);
	if (tid == 0 || (f = fopen(path, "re")) == NULL)
		return;
	if (fgets(line, sizeof(line), f) == NULL ||
	    sscanf(line, "%ld %lx %lx %lx", &nr, &a[0], &a[1], &a[2]) != 4) {
		fclose(f);
		return;
	}
	fclose(f);
	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		if (calls[i].nr != nr)
			continue;
		if (calls[i].kind == 1) {
			fd_path(pid, (long)a[0], file, sizeof(file));
			if (seekers && strncmp(file, "pipe:", 5) == 0)
				snprintf(out, n, "%s (for the seekers)",
				    calls[i].name);
			else
				snprintf(out, n, "%s(%s)", calls[i].name, file);
		} else if (calls[i].kind == 2) {
			fd_path(pid, (long)(int)a[0], file, sizeof(file));
			string_at(pid, a[1], name, sizeof(name));
			/* unlinkat(AT_REMOVEDIR) is the rmdir of --dirs, cleanup */
			snprintf(out, n, "%s(%s%s%s)",
			    strcmp(calls[i].name, "unlink") == 0 &&
			    (a[2] & AT_REMOVEDIR) ? "rmdir" : calls[i].name, file,
			    file[0] != '\0' && name[0] != '/' ? "/" : "", name);
		} else {
			snprintf(out, n, "%s", calls[i].name);
		}
		return;
	}
}

/*
 * The state letter of /proc/PID/stat ('T': stopped), or 0; *ppid its
 * parent.  The name in parentheses may hold anything: read after the
 * last ')'.
 */
static char proc_state(const char *path, pid_t *ppid)
{
	char buf[512], *p;
	long pp = 0;
	char state = 0;

	if (read_small_file(path, buf, sizeof(buf)) <= 0 ||
	    (p = strrchr(buf, ')')) == NULL ||
	    sscanf(p + 1, " %c %ld", &state, &pp) != 2)
		return 0;
	if (ppid != NULL)
		*ppid = (pid_t)pp;
	return state;
}

static char pid_state(pid_t pid, pid_t *ppid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	return proc_state(path, ppid);
}

static char task_state(pid_t pid, long tid)
{
	char path[96];

	snprintf(path, sizeof(path), "/proc/%ld/task/%ld/stat", (long)pid, tid);
	return proc_state(path, NULL);
}

/*
 * How far thread tid of pid has gone: its CPU time and the times it was
 * scheduled (schedstat), which a thread in a call that hangs does not
 * move; 0 unknown
 */
static uint64_t run_count(pid_t pid, long tid)
{
	char path[96], buf[128];
	unsigned long long ns, waited, times;

	snprintf(path, sizeof(path), "/proc/%ld/task/%ld/schedstat", (long)pid,
	    tid);
	if (tid == 0 || read_small_file(path, buf, sizeof(buf)) <= 0 ||
	    sscanf(buf, "%llu %llu %llu", &ns, &waited, &times) != 3)
		return 0;
	return ns + times + 1;
}
#else
static void describe_call(pid_t pid, long tid, bool seekers, char *out,
    size_t n)
{
	(void)pid;
	(void)tid;
	(void)seekers;
	(void)n;
	out[0] = '\0';
}

static uint64_t run_count(pid_t pid, long tid)
{
	(void)pid;
	(void)tid;
	return 0;
}

static char pid_state(pid_t pid, pid_t *ppid)
{
	(void)pid;
	(void)ppid;
	return 0;
}

static char task_state(pid_t pid, long tid)
{
	(void)pid;
	(void)tid;
	return 0;
}
#endif

static bool stopped_state(char c)
{
	return c == 'T' || c == 't';
}

/* The process slot s watches: the measuring process's, or a copy's (-c). */
static pid_t pid_of(const struct slot *s, pid_t child)
{
	return s->pid != 0 ? s->pid : child;
}

/*
 * Who holds slot s (number i) when something is stopped: "seeker 2 (pid
 * 123)", the copy of -c that measures ("copy.1 (pid 124)"), or the
 * measuring process itself; "" and false when nothing is.
 */
static bool describe_stopped(pid_t child, const struct slot *s, unsigned i,
    char *out, size_t n)
{
	unsigned k, nk = atomic_load(&s->nchildren);
	pid_t ppid, pid = pid_of(s, child);

	out[0] = '\0';
	for (k = 0; k < nk && k < SEEKERS_MAX; k++) {
		if (!stopped_state(pid_state(s->children[k], &ppid)) ||
		    ppid != pid)
			continue;
		snprintf(out, n, "seeker %u (pid %ld)", k + 1,
		    (long)s->children[k]);
		return true;
	}
	if (s->tid == 0 || !stopped_state(task_state(pid, s->tid)))
		return false;
	if (pid != child && i > 0)
		snprintf(out, n, "copy.%u (pid %ld)", i - 1, (long)pid);
	else
		snprintf(out, n, "the measuring process (pid %ld)", (long)pid);
	return true;
}

/*
 * With no process stopped, where a process that waits for its seekers
 * is stuck: the call of a seeker that is in one ("open(PATH) in seeker 2
 * (pid 123)"), else call as it is.
 */
static void seeker_call(pid_t child, const struct slot *s, char *call,
    size_t n)
{
	unsigned k, nk = atomic_load(&s->nchildren);
	pid_t ppid, pid = pid_of(s, child);
	char theirs[CALL_LEN];

	for (k = 0; k < nk && k < SEEKERS_MAX; k++) {
		if (pid_state(s->children[k], &ppid) == 0 || ppid != pid)
			continue;
		describe_call(s->children[k], s->children[k], false, theirs,
		    sizeof(theirs));
		if (theirs[0] == '\0')
			continue;
		snprintf(call, n, "%.*s in seeker %u (pid %ld)",
		    (int)(n > 64 ? n - 64 : 1), theirs, k + 1,
		    (long)s->children[k]);
		return;
	}
}

/* "\r\033[K" over the live line, "\n" after an open progress line */
static const char *line_start(void)
{
	if (atomic_load(&sh->live))
		return "\r\033[K";
	return atomic_exchange(&sh->line_open, 0) ? "\n" : "";
}

static void say_stalled(pid_t child, struct slot *s, unsigned i,
    int64_t idle_ns)
{
	char call[CALL_LEN], who[96], why[128];
	bool seekers = atomic_load(&s->nchildren) > 0;

	describe_call(pid_of(s, child), s->tid, seekers, call, sizeof(call));
	why[0] = '\0';
	if (describe_stopped(child, s, i, who, sizeof(who)))
		snprintf(why, sizeof(why), "%s is stopped", who);
	else if (seekers)
		seeker_call(child, s, call, sizeof(call));
	/* no /proc view of the call (not Linux, or a kernel without it) */
	if (call[0] == '\0' && why[0] == '\0')
		snprintf(call, sizeof(call), "a call in %s",
		    sh->scratch[0] != '\0' ? sh->scratch : "the target");
	if (call[0] == '\0')
		fprintf(stderr, "%sclyde: %s: no progress for %lld s: %s "
		    "(SIGINT stops the run)\n", line_start(), s->label,
		    (long long)(idle_ns / 1000000000), why);
	else
		fprintf(stderr, "%sclyde: %s: no progress: %s has not returned "
		    "after %lld s; %s (SIGINT stops the run)\n", line_start(),
		    s->label, call, (long long)(idle_ns / 1000000000),
		    why[0] != '\0' ? why : "the filesystem is not answering");
	/* for the phase's record */
	if (s->timed)
		snprintf(s->call, sizeof(s->call), "%s",
		    call[0] != '\0' ? call : why);
}

/*
 * What moves while slot s makes progress: its meter's work, and in an
 * untimed step, which counts nothing, how far its thread has run (a
 * thread of unknown progress always moves: it is never called stuck).
 */
static uint64_t progress_of(pid_t child, const struct slot *s, uint64_t last)
{
	uint64_t v = work_of(s), ran;

	if (s->timed)
		return v;
	ran = run_count(pid_of(s, child), s->tid);
	return ran == 0 ? last + 1 : v + ran;
}

/* Is a process of slot s stopped that waitpid() does not tell of? */
static bool others_stopped(pid_t child, const struct slot *s)
{
	unsigned k, nk = atomic_load(&s->nchildren);
	pid_t ppid, pid = pid_of(s, child);
	char c;

	for (k = 0; k < nk && k < SEEKERS_MAX; k++)
		if (stopped_state(pid_state(s->children[k], &ppid)) &&
		    ppid == pid)
			return true;
	c = pid_state(pid, NULL);
	/* the child's stops are waitpid()'s, but a debugger's ('t') */
	return pid != child ? stopped_state(c) : c == 't';
}

/*
 * A look at the stops of a timed part: one of its processes stopped now
 * (a seeker, a copy, the measuring process in a debugger) counts the
 * time since the last look.  After more than 2 s the supervisor itself
 * did not run (stopped, with the whole job): the measuring process's
 * going on says for how long (child_went_on()).
 */
static void count_stops(pid_t child, struct slot *s, struct seen *w,
    int64_t now)
{
	int64_t since = now - w->looked_ns;

	w->looked_ns = now;
	if (since <= 2000000000 && others_stopped(child, s))
		s->meter.stopped_ns += since;
}

/* Look at every watched slot; true when one is stuck now. */
static bool check(pid_t child, struct seen *seen, int64_t limit_ns,
    int64_t now)
{
	bool stuck = false;

	if (!atomic_load(&sh->armed))
		return false;
	for (unsigned i = 0; i < sh->nslots; i++) {
		struct slot *s = &sh->slot[i];
		struct seen *w = &seen[i];
		unsigned gen = atomic_load(&s->gen);
		uint64_t v;

		w->stuck = false;
		if (gen % 2 == 0)
			continue;
		v = progress_of(child, s, w->last);
		if (gen != w->gen)
			w->looked_ns = now;
		else if (s->timed)
			count_stops(child, s, w, now);
		if (gen != w->gen || v != w->last) {
			w->gen = gen;
			w->last = v;
			w->moved_ns = now;
			w->report_after_ns = limit_ns;
			continue;
		}
		if (now - w->moved_ns < limit_ns)
			continue;
		stuck = w->stuck = true;
		if (s->timed && now - w->moved_ns > s->stalled_ns)
			s->stalled_ns = now - w->moved_ns;
		if (now - w->moved_ns >= w->report_after_ns) {
			say_stalled(child, s, i, now - w->moved_ns);
			/* again after twice as long: 30 s, 60 s, 120 s ... */
			w->report_after_ns *= 2;
		}
	}
	return stuck;
}

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
	for (unsigned i = 0; i < sh->nslots; i++) {
		const struct slot *s = &sh->slot[i];
		const struct seen *w = &sv.seen[i];

		if (w->stuck && atomic_load(&s->gen) == w->gen &&
		    progress_of(child, s, w->last) == w->last)
			return true;
	}
	return false;
}

/*
 * Who of a watched slot is stopped ("copy.1 (pid 124)"), into who (n
 * bytes); false when nobody is.
 */
static bool stopped_one(pid_t child, char *who, size_t n)
{
	for (unsigned i = 0; i < sh->nslots; i++)
		if (atomic_load(&sh->slot[i].gen) % 2 == 1 &&
		    describe_stopped(child, &sh->slot[i], i, who, n))
			return true;
	return false;
}

/*
 * The seekers of the measuring process or of its copies: never a pid
 * reused by another.
 */
static void kill_children(pid_t child)
{
	for (unsigned i = 0; i < sh->nslots; i++) {
		const struct slot *s = &sh->slot[i];
		unsigned k, nk = atomic_load(&s->nchildren);
		pid_t ppid, pid = s->pid != 0 ? s->pid : child;

		for (k = 0; k < nk && k < SEEKERS_MAX; k++)
			if (pid_state(s->children[k], &ppid) != 0 &&
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

/*
 * The measuring process was killed (kill -9, the OOM killer, a crash):
 * it could not clean up, so the supervisor says so, and what it left.
 * In clyde-mpi the ranks are told (dist_child_killed()), rank 0 names it;
 * true then, and the supervisor goes on serving MPI until it exits.
 */
/* What a killed measuring process left: its scratch directory, named. */
static void left_behind(char *left, size_t n)
{
	char quoted[2 * PATH_MAX];
	struct stat st;

	if (sh->scratch[0] != '\0' && sv_start_fd >= 0 &&
	    fstatat(sv_start_fd, sh->scratch, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		shell_quote(quoted, sizeof(quoted), sh->scratch);
		/* what was put in place of one moved away is never named for rm */
		if (st.st_dev != sh->scratch_dev || st.st_ino != sh->scratch_ino)
			snprintf(left, n, "%s is not the directory it made: it "
			    "was moved away and something else put there, which "
			    "is left as it is", sh->scratch);
		else
			snprintf(left, n, "it left %s: remove it with: rm -rf %s",
			    sh->scratch, quoted);
	} else {
		snprintf(left, n, "it left no scratch directory");
	}
}

static bool name_death(pid_t child, int status, bool split)
{
	char sig[32], why[96], left[3 * PATH_MAX + 64];

	if (!WIFSIGNALED(status) || sh == NULL)
		return false;
	signal_name(WTERMSIG(status), sig, sizeof(sig));
	snprintf(why, sizeof(why), "the measuring process (pid %ld) was "
	    "killed by %s", (long)child, sig);
	left_behind(left, sizeof(left));
	if (split && dist_child_killed(why, left))
		return true;
	fprintf(stderr, "%sclyde: %s; %s\n", line_start(), why, left);
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
	fprintf(stderr, "%s%s", line_start(), sh->left_behind +
	    (sh->left_behind[0] == '\n'));
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

	if (pid_state(child, NULL) != 't')
		return false;
	ran = run_count(child, child);
	for (int i = 0; i < 5; i++) {
		nanosleep(&tenth, NULL);
		if (pid_state(child, NULL) != 't' ||
		    run_count(child, child) != ran)
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
	    "without cleanup; %s\n", line_start(), (long)child, left);
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

	for (unsigned i = 0; sv.seen != NULL && i < sh->nslots; i++) {
		struct slot *s = &sh->slot[i];
		unsigned gen = atomic_load(&s->gen);

		/* a slot changed since the stop is another part, not stopped */
		if (gen % 2 == 0 || !s->timed ||
		    (sv.stopped && gen != sv.seen[i].stop_gen))
			continue;
		if (pid_of(s, child) == child || job)
			s->meter.stopped_ns += ns;
	}
	if (sh != NULL)
		atomic_store(&sh->child_stopped, 0);
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
	for (unsigned i = 0; sv.seen != NULL && i < sh->nslots; i++)
		sv.seen[i].stop_gen = atomic_load(&sh->slot[i].gen);
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
			if (sh != NULL)
				atomic_store(&sh->child_stopped, 1);
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

	if (sv.said_stopping || sh == NULL)
		return;
	if (sv.stopped)
		fprintf(stderr, "%sclyde: stopping: the measuring process (pid "
		    "%ld) is stopped; a second SIGINT continues it, and the run "
		    "stops\n", line_start(), (long)child);
	else if (sv.seen != NULL && stopped_one(child, who, sizeof(who)))
		fprintf(stderr, "%sclyde: stopping: waiting for %s, which is "
		    "stopped; a second SIGINT ends it\n", line_start(), who);
	else if (sv.stuck)
		fprintf(stderr, "%sclyde: stopping: waiting for the call "
		    "that hangs; a second SIGINT stops waiting\n",
		    line_start());
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
		sv.stuck = check(child, sv.seen, sv.limit_ns, now);
		sv.next_look = now + 1000000000;
	}
	/* a debugger's stop ('t'): neither SIGCONT nor the signals reach it */
	if (sv.stops >= 2 && sh != NULL && held_by_debugger(child))
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
		sv.seen = calloc(sh->nslots, sizeof(*sv.seen));
	}
	if (chdir("/") != 0 || sv.seen == NULL)
		sv.limit_ns = 0;        /* still passes the signals on */
	/* clyde-mpi: MPI here, for the child, with these rounds between */
	if (split)
		dist_serve(look, stall_meter(0));
	for (;;)
		supervise_round(&quarter);
}
