/*
 * phases/seek.c: random seeks by forked seeker processes.
 *
 * prepare() maps memory shared with the children (the random state the
 * positions are drawn from, one report slot per seeker; the next-seek
 * counter is the meter's, shared too) and forks the seekers before the clock starts: each opens the
 * data files itself (no shared offsets), says it is ready (a byte on a
 * pipe, which the parent reads: it sleeps until then, so that the
 * watcher of --stall sees it wait) and waits.
 * run() lets them go: each takes seek numbers from the counter until
 * none are left, draws that seek's position, and writes its count,
 * latency histogram and any error to its slot.  The parent reaps them
 * all, so their CPU time is in RUSAGE_CHILDREN when the runner reads it.
 *
 * The syncs are bonnie++'s.  2.00a: the parent opens the file before the
 * seekers start and closes it, with fsync(), once they are let go; each
 * seeker closes its file with fsync() when done; -b adds an fsync() after
 * each block written back.  1.03e: only with -b, the same after each
 * block written back and at each seeker's close, none in the parent.
 */
/* MAP_ANONYMOUS is outside POSIX 2008; glibc shows it with this. */
#define _DEFAULT_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#ifdef __linux__
#include <sys/prctl.h>          /* PR_SET_PDEATHSIG */
#endif
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "phases/io.h"
#include "phases/phase.h"
#include "lib/fdio.h"

#ifndef MAP_ANONYMOUS
#define MAP_ANONYMOUS MAP_ANON
#endif

/* Atomics in shared memory work across processes only when lock-free. */
#if ATOMIC_INT_LOCK_FREE != 2
#error "the shared seek counter needs a lock-free atomic int"
#endif

#define MIB ((uint64_t)1024 * 1024)
#define UPDATE_EVERY 10         /* one seek in ten writes its chunk back */

enum seek_op {
	OP_OPEN, OP_LSEEK, OP_READ, OP_SHORT_READ, OP_WRITE, OP_FSYNC,
	OP_FSYNC_END            /* the seeker's last: at no byte */
};

static const char *const seek_op_name[] = {
	[OP_OPEN] = "open",
	[OP_LSEEK] = "lseek",
	[OP_READ] = "read",
	[OP_SHORT_READ] = "short read",
	[OP_WRITE] = "write",
	[OP_FSYNC] = "fsync",
	[OP_FSYNC_END] = "fsync",
};

/* What one seeker did; written by that child, then read by the parent. */
struct seeker_slot {
	uint64_t seeks;         /* positions done */
	uint64_t bytes;         /* read and written */
	int err;                /* errno of the failure; 0: none */
	/*
	 * Or why a data file opened is not the one the run made: a string
	 * literal, at the same address in the parent (the child is a fork).
	 */
	const char *why;
	enum seek_op op;        /* the call that failed */
	unsigned file;          /* in which data file */
	uint64_t offset;        /* at which byte */
	bool stopped;           /* left early on a stop signal */
	int wait_status;        /* written by the parent once reaped */
	struct latency lat;
};

/* The signal that lets the waiting seekers go. */
#define GO_SIGNAL SIGUSR1

/* The head of the shared mapping; the arrays follow it. */
struct seek_shared {
	/* the next seek to take: the meter's, so that the live line and
	 * the stall watcher see the seeks taken (phases/ctx.h) */
	atomic_uint *next;
	atomic_int abort;       /* one seeker failed, or the parent stops */
	atomic_int go;          /* run() has started: seek */
	atomic_uint ready;      /* seekers that opened their files */
	unsigned count;         /* seeks */
	unsigned seekers;
	unsigned started;       /* forked and not yet reaped; the parent's */
	unsigned files;
	uint64_t chunks;        /* in all the data */
	uint64_t chunks_per_file;
	struct rng draws;       /* the state seek 0 draws from */
	unsigned draws_per_seek;
	struct seeker_slot *slot;       /* [seekers] */
	pid_t *pid;             /* [seekers], the parent's only; 0 once reaped */
	int stop_handle;        /* a second stop signal kills them (core/stop.h) */
	int parent_fd;          /* 2.00: the parent's own descriptor; -1 */
};

static size_t align_up(size_t n, size_t a)
{
	return (n + a - 1) / a * a;
}

/* One shared mapping for the head and its arrays; NULL with errno set. */
static struct seek_shared *map_shared(unsigned count, unsigned seekers)
{
	size_t slot_off, pid_off, len;
	struct seek_shared *sh;
	char *base;

	/* each seeker takes one index past the end: the counter must not wrap */
	if (count > UINT_MAX - seekers) {
		errno = EOVERFLOW;
		return NULL;
	}
	slot_off = align_up(sizeof(*sh), alignof(struct seeker_slot));
	pid_off = align_up(slot_off + seekers * sizeof(struct seeker_slot),
	    alignof(pid_t));
	len = pid_off + seekers * sizeof(pid_t);
	base = mmap(NULL, len, PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED)
		return NULL;
	/* anonymous memory comes zeroed: slots and histograms start empty */
	sh = (struct seek_shared *)(void *)base;
	sh->slot = (struct seeker_slot *)(void *)(base + slot_off);
	sh->pid = (pid_t *)(void *)(base + pid_off);
	sh->count = count;
	sh->seekers = seekers;
	atomic_init(&sh->abort, 0);
	atomic_init(&sh->go, 0);
	atomic_init(&sh->ready, 0);
	sh->stop_handle = -1;
	sh->parent_fd = -1;
	return sh;
}

static size_t shared_len(const struct seek_shared *sh)
{
	return (size_t)((const char *)(sh->pid + sh->seekers) -
	    (const char *)sh);
}

/* A chunk number in [0, n); n can pass 2^32 with small chunks. */
static uint64_t draw_chunk(struct rng *r, uint64_t n)
{
	uint64_t v;

	if (n <= UINT32_MAX)
		return rng_below(r, (uint32_t)n);
	v = (uint64_t)rng_next(r) << 32 | rng_next(r);
	return v % n;
}

/* 1.03 splits the data in 1 GiB files (phases/io.c), 2.00 keeps one. */
static void set_layout(struct seek_shared *sh, const struct phase_ctx *ctx)
{
	const struct config *cfg = ctx->cfg;
	uint64_t file_mib = cfg->compat == COMPAT_103 ? IO_FILE_MAX_MIB :
	    cfg->file_size_mib;

	sh->files = phase_io_file_count(cfg);
	sh->chunks_per_file = file_mib * MIB / ctx->chunk;
}

/*
 * Seek k's target, chunk << 1 | update: drawn from the state the random
 * source had when the phase was prepared, moved on to seek k.  The same
 * positions as drawing them all in advance, in the same order, without
 * holding them (8 bytes a seek: 32 MB for 4 million seeks); a draw costs
 * nanoseconds against the microseconds of a seek.
 */
static uint64_t target_of(const struct seek_shared *sh, unsigned k)
{
	struct rng r = sh->draws;
	uint64_t chunk;
	bool update;

	rng_skip(&r, (uint64_t)k * sh->draws_per_seek);
	chunk = draw_chunk(&r, sh->chunks);
	update = rng_next(&r) % UPDATE_EVERY == 0;
	return chunk << 1 | (update ? 1 : 0);
}

static int start_seekers(struct phase_ctx *ctx, struct seek_shared *sh);
static int open_in_parent(struct phase_ctx *ctx, struct seek_shared *sh);
static void phase_seeks_cleanup(struct phase_ctx *ctx);

/* A seeker opens every data file; 2.00's parent opens its one again. */
static unsigned long phase_seeks_descriptors(const struct config *cfg,
    const char **fewer)
{
	unsigned long n = phase_io_file_count(cfg);

	*fewer = NULL;
	return n > 0 && cfg->compat == COMPAT_200 ? n + 1 : n;
}

static int phase_seeks_prepare(struct phase_ctx *ctx)
{
	const struct config *cfg = ctx->cfg;
	uint64_t chunks = cfg->file_size_mib * MIB / ctx->chunk;
	struct seek_shared *sh;

	if (chunks == 0 || phase_io_file_count(cfg) == 0)
		return phase_fail(ctx, NULL, "seek", EINVAL);
	phase_seeks_cleanup(ctx);
	sh = map_shared(cfg->seeks, cfg->seekers);
	if (sh == NULL)
		return phase_fail(ctx, NULL, "mmap", errno);
	ctx->state.seek = sh;
	sh->next = &ctx->meter->next_seek;
	atomic_store(sh->next, 0);
	set_layout(sh, ctx);
	sh->chunks = chunks;
	/* draw_chunk() takes two numbers past 2^32 chunks, one below */
	sh->draws_per_seek = chunks <= UINT32_MAX ? 2 : 3;
	sh->draws = ctx->rng;
	/* what follows draws on from where drawing every seek would leave it */
	rng_skip(&ctx->rng, (uint64_t)sh->count * sh->draws_per_seek);
	if (start_seekers(ctx, sh) != PHASE_OK)
		return PHASE_ERROR;
	if (open_in_parent(ctx, sh) != PHASE_OK) {
		phase_seeks_cleanup(ctx);
		return PHASE_ERROR;
	}
	return PHASE_OK;
}

/*
 * 2.00a's seek test opens the file in the parent too (CFileOp::reopen())
 * and closes it with fsync() once the seekers have their tickets; so does
 * clyde's 2.00 profile, after the fork: the seekers have their own.
 */
static int open_in_parent(struct phase_ctx *ctx, struct seek_shared *sh)
{
	const char *why;

	if (ctx->cfg->compat == COMPAT_103)
		return PHASE_OK;
	sh->parent_fd = phase_io_reopen(ctx, 0, O_RDWR, &why);
	if (sh->parent_fd < 0)
		return phase_io_fail_read(ctx, 0, "open", errno);
	if (why != NULL)
		return phase_io_fail_read(ctx, 0, why, 0);
	return PHASE_OK;
}

/* The parent's close: with fsync() unless the phase ends early. */
static int close_in_parent(struct phase_ctx *ctx, struct seek_shared *sh,
    bool sync)
{
	int fd = sh->parent_fd, err = 0;
	const char *op = NULL;

	if (fd < 0)
		return PHASE_OK;
	sh->parent_fd = -1;
	if (sync && fsync(fd) != 0) {
		err = errno;
		op = "fsync";
	}
	if (close(fd) != 0 && op == NULL && sync) {
		err = errno;
		op = "close";
	}
	if (op == NULL)
		return PHASE_OK;
	return phase_io_fail_read(ctx, 0, op, err);
}

/* --- the seeker process ----------------------------------------------- */

static int record(struct seeker_slot *slot, enum seek_op op, unsigned file,
    uint64_t offset, int err)
{
	slot->err = err;
	slot->op = op;
	slot->file = file;
	slot->offset = offset;
	return -1;
}

/*
 * Read the target's chunk; for an update, change a byte and write it
 * back, then with -b fsync() (both bonnie++s' doseek()).
 */
static int seek_one(struct phase_ctx *ctx, const struct seek_shared *sh,
    uint64_t target, const int *fds, struct seeker_slot *slot)
{
	const size_t len = ctx->chunk;
	uint64_t chunk = target >> 1, nr = chunk / sh->chunks_per_file;
	unsigned f = nr < sh->files ? (unsigned)nr : sh->files - 1;
	uint64_t off = (chunk - (uint64_t)f * sh->chunks_per_file) * len;
	ssize_t got;

	if (lseek(fds[f], (off_t)off, SEEK_SET) < 0)
		return record(slot, OP_LSEEK, f, off, errno);
	got = read_all(fds[f], ctx->buf, len);
	if (got < 0)
		return record(slot, OP_READ, f, off, errno);
	if ((size_t)got != len) {
		/* EOF before the chunk's end: no errno to name */
		slot->why = "the file ended early";
		return record(slot, OP_SHORT_READ, f, off, 0);
	}
	slot->bytes += len;
	if ((target & 1) == 0)
		return 0;
	ctx->buf[chunk % len]--;
	if (lseek(fds[f], (off_t)off, SEEK_SET) < 0)
		return record(slot, OP_LSEEK, f, off, errno);
	if (write_all(fds[f], ctx->buf, len) < 0)
		return record(slot, OP_WRITE, f, off, errno);
	if (ctx->cfg->sync_writes && fsync(fds[f]) != 0)
		return record(slot, OP_FSYNC, f, off, errno);
	slot->bytes += len;
	return 0;
}

/*
 * Which seeks write their block back.  2.00a marks a position in ten (a
 * random number that is a multiple of 10), whichever seeker takes it:
 * target_of()'s mark.  1.03e has each seeker write back its own 1st,
 * 11th, 21st ... seek (lseek_count++ % UpdateSeek), so a run of n seeks
 * writes the sum over the seekers of ceil(seeks / 10) blocks.
 */
static uint64_t mark_update(const struct phase_ctx *ctx, uint64_t target,
    const struct seeker_slot *slot)
{
	if (ctx->cfg->compat != COMPAT_103)
		return target;
	return (target & ~(uint64_t)1) |
	    (slot->seeks % UPDATE_EVERY == 0 ? 1 : 0);
}

/* Take positions until none are left; one latency sample per seek. */
static void seek_loop(struct phase_ctx *ctx, struct seek_shared *sh,
    const int *fds, struct seeker_slot *slot)
{
	uint64_t start = op_clock();

	for (;;) {
		unsigned k;

		if (phase_stop) {
			slot->stopped = true;
			return;
		}
		if (atomic_load_explicit(&sh->abort, memory_order_relaxed))
			return;
		k = atomic_fetch_add_explicit(sh->next, 1, memory_order_relaxed);
		if (k >= sh->count)
			return;
		if (seek_one(ctx, sh, mark_update(ctx, target_of(sh, k), slot),
		    fds, slot) != 0) {
			atomic_store(&sh->abort, 1);
			return;
		}
		latency_lap(&slot->lat, &start);
		slot->seeks++;
	}
}

static void on_go(int sig)
{
	(void)sig;
}

/*
 * Wait for run() to say go; false when the phase ends before that.
 * GO_SIGNAL has been blocked since before the fork, so it cannot come
 * between the test and sigsuspend() and be lost: it waits, pending.
 */
static bool wait_for_go(struct seek_shared *sh, const sigset_t *waiting)
{
	while (!atomic_load(&sh->go)) {
		if (phase_stop || atomic_load(&sh->abort))
			return false;
		sigsuspend(waiting);
	}
	return !atomic_load(&sh->abort);
}

/*
 * The child: never returns into the parent's code and never calls
 * exit(), which would flush stdio buffers it shares with the parent.
 */
/*
 * A seeker whose parent is killed (SIGKILL: no cleanup) must not go on
 * writing in a directory that the next run calls stale: it gets SIGKILL
 * too.  The parent may be gone before the request is made: then at once.
 */
static void die_with_parent(pid_t parent)
{
#ifdef PR_SET_PDEATHSIG
	prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
	if (getppid() != parent)
		_exit(1);
}

/*
 * A seeker's close, when its seeks are done: 2.00a's Close() syncs the
 * file always, 1.03e's close() each of its files with -b.
 */
static void sync_seeker(const struct phase_ctx *ctx,
    const struct seek_shared *sh, const int *fds, struct seeker_slot *slot)
{
	unsigned f;

	if (ctx->cfg->compat == COMPAT_103 && !ctx->cfg->sync_writes)
		return;
	if (slot->err != 0 || slot->stopped ||
	    atomic_load(&sh->abort) || phase_stop)
		return;
	for (f = 0; f < sh->files; f++)
		if (fsync(fds[f]) != 0) {
			record(slot, OP_FSYNC_END, f, 0, errno);
			return;
		}
}

/* A seeker has its files open, or failed to: a byte, then its end closed. */
static void tell_ready(int fd)
{
	char c = 'r';

	while (write(fd, &c, 1) < 0 && errno == EINTR)
		;
	close(fd);
}

/* ready_fd: its end of the pipe it says it is ready on (the other is closed) */
static _Noreturn void seeker_main(struct phase_ctx *ctx, struct seek_shared *sh,
    unsigned id, pid_t parent, const sigset_t *waiting, int ready_fd)
{
	struct seeker_slot *slot = &sh->slot[id];
	struct sigaction sa;
	int fds[IO_FILES_MAX];
	unsigned opened;

	die_with_parent(parent);
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_go;
	sigaction(GO_SIGNAL, &sa, NULL);
	for (opened = 0; opened < sh->files; opened++) {
		/* seekers write too: only into the file the run made */
		fds[opened] = phase_io_reopen(ctx, opened, O_RDWR, &slot->why);
		if (fds[opened] < 0) {
			record(slot, OP_OPEN, opened, 0, errno);
			atomic_store(&sh->abort, 1);
			break;
		}
		if (slot->why != NULL) {
			slot->file = opened;
			close(fds[opened]);
			atomic_store(&sh->abort, 1);
			break;
		}
	}
	atomic_fetch_add(&sh->ready, 1);
	/* its end of the pipe closed: the parent's read ends once all have */
	tell_ready(ready_fd);
	if (slot->err == 0 && slot->why == NULL) {
		if (wait_for_go(sh, waiting)) {
			seek_loop(ctx, sh, fds, slot);
			sync_seeker(ctx, sh, fds, slot);
		} else if (phase_stop) {
			slot->stopped = true;
		}
	}
	while (opened > 0)
		close(fds[--opened]);
	_exit(slot->err != 0 || slot->why != NULL ? 1 : 0);
}

/* The seekers that started, told to the watcher of --stall (phases/ctx.h). */
static void watch_children(struct phase_ctx *ctx, const pid_t *pids,
    unsigned n)
{
	if (ctx->watch_children != NULL)
		ctx->watch_children(ctx->meter, pids, n);
}

/*
 * Until every seeker that started has said it is ready, or has ended
 * (each closes its end of the pipe either way), or a stop signal came.
 */
static void wait_ready(struct seek_shared *sh, int fd)
{
	char buf[SEEKERS_MAX];
	ssize_t got;

	while (atomic_load(&sh->ready) < sh->started && !phase_stop) {
		got = read(fd, buf, sizeof(buf));
		if (got == 0 || (got < 0 && errno != EINTR))
			break;
	}
}

/*
 * Fork the seekers and wait, untimed, until each has its files open, as
 * bonnie++ starts its seekers before its clock.  One that failed says
 * ready too (its slot holds the error); one killed from outside never
 * does, so an ended seeker ends the wait, and run() reports it.
 */
static int start_seekers(struct phase_ctx *ctx, struct seek_shared *sh)
{
	sigset_t go, saved, waiting;
	int ready[2];
	/* this process: a copy of -c, or the one ctx->pid names */
	pid_t parent = getpid();
	unsigned id;
	int err = 0;

	sigemptyset(&go);
	sigaddset(&go, GO_SIGNAL);
	pthread_sigmask(SIG_BLOCK, &go, &saved);
	waiting = saved;
	sigdelset(&waiting, GO_SIGNAL);
	sh->stop_handle = stop_children_add(sh->pid, &sh->started);
	if (pipe(ready) != 0) {
		err = errno;
		pthread_sigmask(SIG_SETMASK, &saved, NULL);
		return phase_fail(ctx, NULL, "pipe", err);
	}
	/* the count is shared memory: a child must not read it for its id */
	for (id = 0; id < sh->seekers; id++) {
		pid_t pid = fork();

		if (pid == 0) {
			close(ready[0]);
			seeker_main(ctx, sh, id, parent, &waiting, ready[1]);
		}
		if (pid < 0) {
			err = errno;
			break;
		}
		sh->pid[id] = pid;
		sh->started = id + 1;
	}
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
	/* the seekers' ends only, from here */
	close(ready[1]);
	if (err == 0) {
		/* the watcher of --stall names a stopped one */
		watch_children(ctx, sh->pid, sh->started);
		wait_ready(sh, ready[0]);
	}
	close(ready[0]);
	if (err != 0) {
		phase_seeks_cleanup(ctx);
		return phase_fail(ctx, NULL, "fork", err);
	}
	return PHASE_OK;
}

/* Let every waiting seeker go: to seek, or to leave when abort is set. */
static void release(struct seek_shared *sh)
{
	unsigned k;

	atomic_store(&sh->go, 1);
	/* never kill(0): that would signal the whole process group */
	for (k = 0; k < sh->started; k++)
		if (sh->pid[k] > 0)
			kill(sh->pid[k], GO_SIGNAL);
}

/*
 * Wait for every child, even when a stop signal interrupts the wait: the
 * stop is passed on through the shared abort flag, and the children end
 * after their current seek.
 */
static void reap(struct seek_shared *sh)
{
	unsigned k;

	/*
	 * Each seeker by its pid, never waitpid(-1): no other child of this
	 * process may be taken for one.  The last wait returns when the last
	 * seeker ends, which is when the phase ends.
	 */
	for (k = 0; k < sh->started; k++) {
		int status;
		pid_t pid;

		if (sh->pid[k] <= 0)
			continue;
		/* a tick ends the wait too, to draw the live line */
		while ((pid = waitpid(sh->pid[k], &status, 0)) < 0 &&
		    errno == EINTR)
			if (phase_check_stop() != PHASE_OK)
				atomic_store(&sh->abort, 1);
		if (pid < 0)
			continue;
		sh->pid[k] = 0;
		sh->slot[k].wait_status = status;
		if (status != 0)
			atomic_store(&sh->abort, 1);
	}
}

/* A child that ended without writing an error to its slot (killed, say). */
static int died(struct phase_ctx *ctx, int status)
{
	char what[64];

	if (WIFSIGNALED(status)) {
		if (phase_stop)
			return PHASE_STOPPED;
		snprintf(what, sizeof(what), "seeker process killed by signal %d",
		    WTERMSIG(status));
	} else {
		snprintf(what, sizeof(what), "seeker process exit status %d",
		    WEXITSTATUS(status));
	}
	return phase_fail(ctx, NULL, what, 0);
}

/* The position is random: the message says where it failed. */
static int slot_failed(struct phase_ctx *ctx, const struct seeker_slot *slot)
{
	char what[64];

	if (slot->why != NULL && slot->op != OP_SHORT_READ)
		return phase_io_fail_read(ctx, slot->file, slot->why, 0);
	if (slot->op == OP_FSYNC_END)
		return phase_io_fail_read(ctx, slot->file,
		    seek_op_name[slot->op], slot->err);
	snprintf(what, sizeof(what), "%s at byte %llu%s%s",
	    seek_op_name[slot->op], (unsigned long long)slot->offset,
	    slot->why != NULL ? ": " : "", slot->why != NULL ? slot->why : "");
	return phase_io_fail_read(ctx, slot->file, what, slot->err);
}

/* Merge the slots into the meter; the first error wins over a stop. */
static int gather(struct phase_ctx *ctx, const struct seek_shared *sh,
    unsigned started)
{
	struct phase_meter *m = ctx->meter;
	int rc = PHASE_OK;
	unsigned i;

	for (i = 0; i < started; i++) {
		const struct seeker_slot *slot = &sh->slot[i];

		latency_merge(&m->lat, &slot->lat);
		m->ops += slot->seeks;
		m->bytes += slot->bytes;
		if (rc == PHASE_ERROR)
			continue;
		if (slot->err != 0 || slot->why != NULL) {
			rc = slot_failed(ctx, slot);
		} else if (slot->stopped) {
			rc = PHASE_STOPPED;
		} else if (slot->wait_status != 0) {
			rc = died(ctx, slot->wait_status);
		}
	}
	if (rc == PHASE_OK && phase_stop)
		rc = PHASE_STOPPED;
	return rc;
}

static int phase_seeks_run(struct phase_ctx *ctx)
{
	struct seek_shared *sh = ctx->state.seek;
	unsigned seekers;
	int rc;

	if (sh == NULL)
		return phase_fail(ctx, NULL, "seek", EINVAL);
	/* a stop that came to this process alone: the seekers leave at once */
	if (phase_stop)
		atomic_store(&sh->abort, 1);
	watch_children(ctx, sh->pid, sh->started);
	release(sh);
	/* 2.00a's parent closes its file once the tickets are written */
	rc = close_in_parent(ctx, sh, !phase_stop);
	if (rc != PHASE_OK)
		atomic_store(&sh->abort, 1);
	/* the seekers count in the meter: the line shows them meanwhile */
	tick_wait(true);
	reap(sh);
	tick_wait(false);
	seekers = sh->started;
	sh->started = 0;
	if (rc == PHASE_OK)
		rc = gather(ctx, sh, seekers);
	phase_seeks_cleanup(ctx);
	return rc;
}

/*
 * Unmap the shared positions; safe to call at any point, twice.  Seekers
 * that never ran (the phase stopped first) are told to leave.
 */
static void phase_seeks_cleanup(struct phase_ctx *ctx)
{
	struct seek_shared *sh = ctx->state.seek;

	if (sh == NULL)
		return;
	close_in_parent(ctx, sh, false);
	if (sh->started > 0) {
		atomic_store(&sh->abort, 1);
		release(sh);
		reap(sh);
		sh->started = 0;
	}
	stop_children_remove(sh->stop_handle);
	if (ctx->meter != NULL)
		watch_children(ctx, NULL, 0);
	munmap(sh, shared_len(sh));
	ctx->state.seek = NULL;
}

/* --- the family ------------------------------------------------------- */

static bool seeks_enabled(const struct config *cfg)
{
	return cfg->file_size_mib > 0;
}

/*
 * The seeks are the last phase to use the data files: they go as soon
 * as it ends, so that the small-file phases run without them.  A
 * --chunks sweep runs them at every point.
 */
static const struct phase_def seek_phases[] = {
	{ PH_SEEKS, "random seeks", "start 'em...", NULL,
	  seeks_enabled, phase_seeks_prepare, phase_seeks_run,
	  phase_io_cleanup, true, false, NULL, NULL },
};

const struct phase_family phase_family_seek = {
	.name = "seek",
	.phases = seek_phases,
	.nphases = sizeof(seek_phases) / sizeof(seek_phases[0]),
	.cleanup = phase_seeks_cleanup,
	.descriptors = phase_seeks_descriptors,
};
