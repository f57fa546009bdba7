/*
 * run/stall.c: the watcher of phases that make no progress.  See run/stall.h.
 *
 * The measuring process pays nothing: its meters are in a shared
 * mapping, which the supervisor (run/supervisor.c) reads once a second;
 * only when one has not moved does it look, through /proc (Linux,
 * run/procinfo.c), at the system call the measuring process (or the copy
 * of -c) is in, the file it names, and the state of the seekers.
 * Elsewhere the line names the phase alone.  The untimed steps around a
 * phase (its prepare(), cleanup) count nothing: there the supervisor
 * reads how far the watched thread has run (/proc's schedstat) once a
 * second, and a thread that has neither run nor been woken for --stall
 * seconds is in a call that hangs.  It also keeps the time the processes
 * of a timed part were stopped (SIGSTOP, a debugger, Ctrl-Z): the
 * measuring process's from waitpid(), that of the seekers and copies
 * from /proc once a second.
 */
#define _GNU_SOURCE             /* syscall(SYS_gettid) */

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/syscall.h>
#endif

#include "phases/ctx.h"
#include "run/procinfo.h"
#include "run/progress.h"
#include "run/stall.h"
#include "run/stall_shared.h"

/* the mapping both processes see (run/stall_shared.h) */
struct stall_shared *stall_shared;
/* A copy of -c: the lines on stderr are its parent's, which says how they are. */
static bool lines_elsewhere;

static long thread_id(void)
{
#if defined(__linux__) && defined(SYS_gettid)
	return (long)syscall(SYS_gettid);
#else
	return 0;
#endif
}

struct phase_meter *stall_meter(unsigned k)
{
	return stall_shared != NULL && k < stall_shared->nslots ?
	    &stall_shared->slot[k].meter : NULL;
}

static struct slot *slot_of(struct phase_meter *meter)
{
	unsigned k;

	for (k = 0; stall_shared != NULL && k < stall_shared->nslots; k++)
		if (&stall_shared->slot[k].meter == meter)
			return &stall_shared->slot[k];
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
	if (stall_shared == NULL)
		return;
	atomic_store(&stall_shared->live, progress_live());
	atomic_store(&stall_shared->line_open, progress_line_open());
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
	for (int i = 0; i < 100 &&
	    atomic_load(&stall_shared->child_stopped); i++)
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

/* --- the watcher's looks, which the supervisor makes -------------------- */

/* The work a slot's meter counts; the measuring process writes it. */
static uint64_t work_of(const struct slot *s)
{
	return __atomic_load_n(&s->meter.ops, __ATOMIC_RELAXED) +
	    __atomic_load_n(&s->meter.bytes, __ATOMIC_RELAXED) +
	    atomic_load_explicit(&s->meter.next_seek, memory_order_relaxed);
}

static bool stopped_state(char c)
{
	return c == 'T' || c == 't';
}

/* The process slot s watches: the measuring process's, or a copy's (-c). */
pid_t watcher_pid_of(const struct slot *s, pid_t child)
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
	pid_t ppid, pid = watcher_pid_of(s, child);

	out[0] = '\0';
	for (k = 0; k < nk && k < SEEKERS_MAX; k++) {
		if (!stopped_state(procinfo_pid_state(s->children[k], &ppid)) ||
		    ppid != pid)
			continue;
		snprintf(out, n, "seeker %u (pid %ld)", k + 1,
		    (long)s->children[k]);
		return true;
	}
	if (s->tid == 0 || !stopped_state(procinfo_task_state(pid, s->tid)))
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
	pid_t ppid, pid = watcher_pid_of(s, child);
	char theirs[CALL_LEN];

	for (k = 0; k < nk && k < SEEKERS_MAX; k++) {
		if (procinfo_pid_state(s->children[k], &ppid) == 0 ||
		    ppid != pid)
			continue;
		procinfo_call(s->children[k], s->children[k], false, theirs,
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
const char *watcher_line_start(void)
{
	if (atomic_load(&stall_shared->live))
		return "\r\033[K";
	return atomic_exchange(&stall_shared->line_open, 0) ? "\n" : "";
}

static void say_stalled(pid_t child, struct slot *s, unsigned i,
    int64_t idle_ns)
{
	char call[CALL_LEN], who[96], why[128];
	bool seekers = atomic_load(&s->nchildren) > 0;

	procinfo_call(watcher_pid_of(s, child), s->tid, seekers, call,
	    sizeof(call));
	why[0] = '\0';
	if (describe_stopped(child, s, i, who, sizeof(who)))
		snprintf(why, sizeof(why), "%s is stopped", who);
	else if (seekers)
		seeker_call(child, s, call, sizeof(call));
	/* no /proc view of the call (not Linux, or a kernel without it) */
	if (call[0] == '\0' && why[0] == '\0')
		snprintf(call, sizeof(call), "a call in %s",
		    stall_shared->scratch[0] != '\0' ? stall_shared->scratch :
		    "the target");
	if (call[0] == '\0')
		fprintf(stderr, "%sclyde: %s: no progress for %lld s: %s "
		    "(SIGINT stops the run)\n", watcher_line_start(), s->label,
		    (long long)(idle_ns / 1000000000), why);
	else
		fprintf(stderr, "%sclyde: %s: no progress: %s has not returned "
		    "after %lld s; %s (SIGINT stops the run)\n",
		    watcher_line_start(), s->label, call,
		    (long long)(idle_ns / 1000000000),
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
uint64_t watcher_progress_of(pid_t child, const struct slot *s, uint64_t last)
{
	uint64_t v = work_of(s), ran;

	if (s->timed)
		return v;
	ran = procinfo_run_count(watcher_pid_of(s, child), s->tid);
	return ran == 0 ? last + 1 : v + ran;
}

/* Is a process of slot s stopped that waitpid() does not tell of? */
static bool others_stopped(pid_t child, const struct slot *s)
{
	unsigned k, nk = atomic_load(&s->nchildren);
	pid_t ppid, pid = watcher_pid_of(s, child);
	char c;

	for (k = 0; k < nk && k < SEEKERS_MAX; k++)
		if (stopped_state(procinfo_pid_state(s->children[k], &ppid)) &&
		    ppid == pid)
			return true;
	c = procinfo_pid_state(pid, NULL);
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
bool watcher_check(pid_t child, struct seen *seen, int64_t limit_ns,
    int64_t now)
{
	bool stuck = false;

	if (!atomic_load(&stall_shared->armed))
		return false;
	for (unsigned i = 0; i < stall_shared->nslots; i++) {
		struct slot *s = &stall_shared->slot[i];
		struct seen *w = &seen[i];
		unsigned gen = atomic_load(&s->gen);
		uint64_t v;

		w->stuck = false;
		if (gen % 2 == 0)
			continue;
		v = watcher_progress_of(child, s, w->last);
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

/*
 * Who of a watched slot is stopped ("copy.1 (pid 124)"), into who (n
 * bytes); false when nobody is.
 */
bool watcher_stopped_one(pid_t child, char *who, size_t n)
{
	for (unsigned i = 0; i < stall_shared->nslots; i++)
		if (atomic_load(&stall_shared->slot[i].gen) % 2 == 1 &&
		    describe_stopped(child, &stall_shared->slot[i], i, who, n))
			return true;
	return false;
}

