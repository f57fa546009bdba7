/*
 * stall.c: the watcher of phases that make no progress.  See stall.h.
 *
 * The watched threads pay nothing: the watcher reads their meters once
 * a second, and only when one has not moved does it look, through
 * /proc (Linux), at the system call the thread is in and the file it
 * names.  Elsewhere the line names the phase alone.
 */
#define _GNU_SOURCE             /* syscall(SYS_gettid) */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/syscall.h>
#endif

#include "phase_ctx.h"
#include "progress.h"
#include "stall.h"
#include "stop.h"

struct watched {
	const struct phase_meter *meter;        /* NULL: a free entry */
	const char *label;
	const atomic_uint *also;        /* work counted elsewhere (seekers) */
	long tid;                       /* 0 where unknown */
	uint64_t last;                  /* the meter's work when last seen */
	int64_t moved_ns;               /* when it last changed */
	int64_t report_after_ns;        /* the next line, after this long */
};

static struct {
	bool on;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	bool quit;
	int64_t limit_ns;
	const char *scratch;
	const char *left_behind;
	struct watched w[CONCURRENCY_MAX];
} st = { .lock = PTHREAD_MUTEX_INITIALIZER };

static long thread_id(void)
{
#if defined(__linux__) && defined(SYS_gettid)
	return (long)syscall(SYS_gettid);
#else
	return 0;
#endif
}

/* The work a meter counts; the owner writes it, so read it once. */
static uint64_t work_of(const struct watched *w)
{
	uint64_t v = __atomic_load_n(&w->meter->ops, __ATOMIC_RELAXED) +
	    __atomic_load_n(&w->meter->bytes, __ATOMIC_RELAXED);

	if (w->also != NULL)
		v += atomic_load_explicit(w->also, memory_order_relaxed);
	return v;
}

void stall_watch(const struct phase_meter *meter, const char *label)
{
	if (!st.on)
		return;
	pthread_mutex_lock(&st.lock);
	for (size_t i = 0; i < CONCURRENCY_MAX; i++) {
		struct watched *w = &st.w[i];

		if (w->meter != NULL)
			continue;
		w->meter = meter;
		w->label = label;
		w->also = NULL;
		w->tid = thread_id();
		w->last = work_of(w);
		w->moved_ns = now_ns();
		w->report_after_ns = st.limit_ns;
		break;
	}
	pthread_mutex_unlock(&st.lock);
}

void stall_watch_also(const struct phase_meter *meter, const atomic_uint *also)
{
	if (!st.on)
		return;
	pthread_mutex_lock(&st.lock);
	for (size_t i = 0; i < CONCURRENCY_MAX; i++)
		if (st.w[i].meter == meter)
			st.w[i].also = also;
	pthread_mutex_unlock(&st.lock);
}

void stall_unwatch(const struct phase_meter *meter)
{
	if (!st.on)
		return;
	pthread_mutex_lock(&st.lock);
	for (size_t i = 0; i < CONCURRENCY_MAX; i++)
		if (st.w[i].meter == meter)
			st.w[i].meter = NULL;
	pthread_mutex_unlock(&st.lock);
}

#ifdef __linux__
/* The file behind descriptor fd of this process, or "". */
static void fd_path(long fd, char *out, size_t n)
{
	char link[64];
	ssize_t len;

	out[0] = '\0';
	if (n == 0)
		return;
	snprintf(link, sizeof(link), "/proc/self/fd/%ld", fd);
	len = readlink(link, out, n - 1);
	out[len > 0 ? len : 0] = '\0';
}

/* A string at address addr of this process, through /proc/self/mem. */
static void string_at(unsigned long addr, char *out, size_t n)
{
	int fd = open("/proc/self/mem", O_RDONLY | O_CLOEXEC);
	ssize_t got = -1;

	if (fd >= 0) {
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
#ifdef SYS_futex
	{ SYS_futex, "a wait for the other copies", 0 },
#endif
};

/* "open(/mnt/nfs/clyde.1.x/files/00000001ab)": the call thread tid is in */
static void describe_call(long tid, char *out, size_t n)
{
	char path[64], line[256], file[PATH_MAX], name[NAME_MAX + 1];
	unsigned long a[3];
	long nr;
	FILE *f;

	out[0] = '\0';
	snprintf(path, sizeof(path), "/proc/self/task/%ld/syscall", tid);
	if ((f = fopen(path, "re")) == NULL)
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
			fd_path((long)a[0], file, sizeof(file));
			snprintf(out, n, "%s(%s)", calls[i].name, file);
		} else if (calls[i].kind == 2) {
			fd_path((long)(int)a[0], file, sizeof(file));
			string_at(a[1], name, sizeof(name));
			snprintf(out, n, "%s(%s%s%s)", calls[i].name, file,
			    file[0] != '\0' && name[0] != '/' ? "/" : "", name);
		} else {
			snprintf(out, n, "%s", calls[i].name);
		}
		return;
	}
	out[0] = '\0';      /* a call not of ours to name: the caller says where */
}
#else
static void describe_call(long tid, char *out, size_t n)
{
	(void)tid;
	out[0] = '\0';
	(void)n;
}
#endif

static void say_stalled(const struct watched *w, int64_t idle_ns)
{
	char call[PATH_MAX + NAME_MAX + 64];

	describe_call(w->tid, call, sizeof(call));
	/* no /proc view of the call (not Linux, or a kernel without it) */
	if (call[0] == '\0')
		snprintf(call, sizeof(call), "a call in %s", st.scratch);
	fprintf(stderr, "%sclyde: %s: no progress: %s has not returned after "
	    "%lld s; the filesystem is not answering (SIGINT stops the run)\n",
	    progress_live() ? "\r\033[K" : "", w->label, call,
	    (long long)(idle_ns / 1000000000));
}

/* Look at every watched thread; true when one is stuck now. */
static bool check(int64_t now)
{
	bool stuck = false;

	pthread_mutex_lock(&st.lock);
	for (size_t i = 0; i < CONCURRENCY_MAX; i++) {
		struct watched *w = &st.w[i];
		uint64_t v;

		if (w->meter == NULL)
			continue;
		v = work_of(w);
		if (v != w->last) {
			w->last = v;
			w->moved_ns = now;
			w->report_after_ns = st.limit_ns;
			continue;
		}
		if (now - w->moved_ns < st.limit_ns)
			continue;
		stuck = true;
		if (now - w->moved_ns >= w->report_after_ns) {
			say_stalled(w, now - w->moved_ns);
			/* again after twice as long: 30 s, 60 s, 120 s ... */
			w->report_after_ns *= 2;
		}
	}
	pthread_mutex_unlock(&st.lock);
	return stuck;
}

static bool any_watched(void)
{
	bool any = false;

	pthread_mutex_lock(&st.lock);
	for (size_t i = 0; i < CONCURRENCY_MAX && !any; i++)
		any = st.w[i].meter != NULL;
	pthread_mutex_unlock(&st.lock);
	return any;
}

/*
 * A second stop signal while a call hangs: the seekers are gone (the
 * stop module killed them); give the phase two seconds to come back,
 * else leave without cleanup, which would hang too.
 */
static void stop_stuck_run(void)
{
	for (int i = 0; i < 20 && any_watched(); i++)
		nanosleep(&(struct timespec){ 0, 100000000 }, NULL);
	if (!any_watched())
		return;
	if (write(STDERR_FILENO, st.left_behind, strlen(st.left_behind)) < 0)
		_exit(EXIT_INTERRUPTED);
	_exit(EXIT_INTERRUPTED);
}

static void *watcher(void *arg)
{
	sigset_t stops;
	bool stuck = false, said_stopping = false;

	(void)arg;
	sigemptyset(&stops);
	sigaddset(&stops, SIGINT);
	sigaddset(&stops, SIGTERM);
	for (;;) {
		struct timespec until;
		int sig;

		pthread_mutex_lock(&st.lock);
		if (st.quit) {
			pthread_mutex_unlock(&st.lock);
			break;
		}
		if (!stuck) {
			clock_gettime(CLOCK_MONOTONIC, &until);
			until.tv_sec += 1;
			pthread_cond_timedwait(&st.wake, &st.lock, &until);
			pthread_mutex_unlock(&st.lock);
		} else {
			pthread_mutex_unlock(&st.lock);
			/*
			 * The stuck thread cannot run the handler: take the
			 * stop signals here, as the handler would.
			 */
			sig = sigtimedwait(&stops, NULL,
			    &(struct timespec){ 1, 0 });
			if (sig > 0)
				stop_take_signal(sig);
			/* or the handler took them, and the call still hangs */
			if (stop_signal_count() >= 2)
				stop_stuck_run();
		}
		stuck = check(now_ns());
		if (stuck && stop_signal_count() == 1 && !said_stopping) {
			fputs("clyde: stopping: waiting for the call that hangs; "
			    "a second SIGINT stops waiting\n", stderr);
			said_stopping = true;
		}
	}
	return NULL;
}

void stall_start(const struct config *cfg, const char *scratch,
    const char *left_behind)
{
	pthread_condattr_t ca;
	sigset_t all, saved;

	if (cfg->stall_s == 0 || st.on)
		return;
	memset(st.w, 0, sizeof(st.w));
	st.quit = false;
	st.limit_ns = (int64_t)cfg->stall_s * 1000000000;
	st.scratch = scratch;
	st.left_behind = left_behind;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&st.wake, &ca);
	pthread_condattr_destroy(&ca);
	/* the watcher takes no signal but those it waits for */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &saved);
	st.on = pthread_create(&st.thread, NULL, watcher, NULL) == 0;
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
	if (!st.on)
		pthread_cond_destroy(&st.wake);
}

void stall_stop(void)
{
	if (!st.on)
		return;
	pthread_mutex_lock(&st.lock);
	st.quit = true;
	pthread_cond_signal(&st.wake);
	pthread_mutex_unlock(&st.lock);
	pthread_join(st.thread, NULL);
	pthread_cond_destroy(&st.wake);
	st.on = false;
}
