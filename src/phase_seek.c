/*
 * phase_seek.c: random seeks by forked seeker processes.
 *
 * prepare() draws every seek position before the clock starts and puts
 * them in memory shared with the children, with a next-position counter
 * and one report slot per seeker.  run() forks the seekers: each opens
 * the data files itself (no shared offsets), takes positions from the
 * counter until none are left, and writes its count, latency histogram
 * and any error to its slot.  The parent reaps them all, so their CPU
 * time is in RUSAGE_CHILDREN when the runner reads it.
 */
/* MAP_ANONYMOUS is outside POSIX 2008; glibc shows it with this. */
#define _DEFAULT_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "phase.h"

#ifndef MAP_ANONYMOUS
#define MAP_ANONYMOUS MAP_ANON
#endif

/* Atomics in shared memory work across processes only when lock-free. */
#if ATOMIC_INT_LOCK_FREE != 2
#error "the shared seek counter needs a lock-free atomic int"
#endif

#define MIB ((uint64_t)1024 * 1024)
#define UPDATE_EVERY 10         /* one seek in ten writes its chunk back */

enum seek_op { OP_OPEN, OP_LSEEK, OP_READ, OP_SHORT_READ, OP_WRITE, OP_FSYNC };

static const char *const seek_op_name[] = {
	[OP_OPEN] = "open",
	[OP_LSEEK] = "lseek",
	[OP_READ] = "read",
	[OP_SHORT_READ] = "short read",
	[OP_WRITE] = "write",
	[OP_FSYNC] = "fsync",
};

/* What one seeker did; written by that child, then read by the parent. */
struct seeker_slot {
	uint64_t seeks;         /* positions done */
	uint64_t bytes;         /* read and written */
	int err;                /* errno of the failure; 0: none */
	enum seek_op op;        /* the call that failed */
	unsigned file;          /* in which data file */
	uint64_t offset;        /* at which byte */
	bool stopped;           /* left early on a stop signal */
	int wait_status;        /* written by the parent once reaped */
	struct latency lat;
};

/* The head of the shared mapping; the arrays follow it. */
struct seek_shared {
	atomic_uint next;       /* the next position to take */
	atomic_int abort;       /* one seeker failed, or the parent stops */
	unsigned count;         /* positions */
	unsigned seekers;
	unsigned files;
	uint64_t chunks_per_file;
	struct seeker_slot *slot;       /* [seekers] */
	uint64_t *target;       /* [count]: chunk << 1 | update */
	pid_t *pid;             /* [seekers], the parent's only */
};

static size_t align_up(size_t n, size_t a)
{
	return (n + a - 1) / a * a;
}

/* One shared mapping for the head and its arrays; NULL with errno set. */
static struct seek_shared *map_shared(unsigned count, unsigned seekers)
{
	size_t slot_off, target_off, pid_off, len;
	struct seek_shared *sh;
	char *base;

	/* each seeker takes one index past the end: the counter must not wrap */
	if (count > UINT_MAX - seekers) {
		errno = EOVERFLOW;
		return NULL;
	}
	/* in 64 bits the sizes cannot wrap, but size_t may have 32 */
	if ((uint64_t)count * sizeof(uint64_t) + (uint64_t)seekers *
	    (sizeof(struct seeker_slot) + sizeof(pid_t)) > SIZE_MAX / 2) {
		errno = ENOMEM;
		return NULL;
	}
	slot_off = align_up(sizeof(*sh), alignof(struct seeker_slot));
	target_off = align_up(slot_off + seekers * sizeof(struct seeker_slot),
	    alignof(uint64_t));
	pid_off = align_up(target_off + count * sizeof(uint64_t), alignof(pid_t));
	len = pid_off + seekers * sizeof(pid_t);
	base = mmap(NULL, len, PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED)
		return NULL;
	/* anonymous memory comes zeroed: slots and histograms start empty */
	sh = (struct seek_shared *)(void *)base;
	sh->slot = (struct seeker_slot *)(void *)(base + slot_off);
	sh->target = (uint64_t *)(void *)(base + target_off);
	sh->pid = (pid_t *)(void *)(base + pid_off);
	sh->count = count;
	sh->seekers = seekers;
	atomic_init(&sh->next, 0);
	atomic_init(&sh->abort, 0);
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

/* 1.03 splits the data in 1 GiB files (phase_io.c), 2.00 keeps one. */
static void set_layout(struct seek_shared *sh, const struct config *cfg)
{
	uint64_t file_mib = cfg->compat == COMPAT_103 ? IO_FILE_MAX_MIB :
	    cfg->file_size_mib;

	sh->files = phase_io_file_count(cfg);
	sh->chunks_per_file = file_mib * MIB / cfg->chunk;
}

int phase_seeks_prepare(struct phase_ctx *ctx)
{
	const struct config *cfg = ctx->cfg;
	uint64_t chunks = cfg->file_size_mib * MIB / cfg->chunk;
	struct seek_shared *sh;
	unsigned i;

	if (chunks == 0 || phase_io_file_count(cfg) == 0)
		return phase_fail(ctx, NULL, "seek", EINVAL);
	phase_seeks_cleanup(ctx);
	sh = map_shared(cfg->seeks, cfg->seekers);
	if (sh == NULL)
		return phase_fail(ctx, NULL, "mmap", errno);
	ctx->seek = sh;
	set_layout(sh, cfg);
	for (i = 0; i < sh->count; i++) {
		uint64_t chunk = draw_chunk(&ctx->rng, chunks);
		bool update = rng_next(&ctx->rng) % UPDATE_EVERY == 0;

		sh->target[i] = chunk << 1 | (update ? 1 : 0);
	}
	return PHASE_OK;
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

/* Read the target's chunk; for an update, change a byte and write it back. */
static int seek_one(struct phase_ctx *ctx, const struct seek_shared *sh,
    uint64_t target, const int *fds, struct seeker_slot *slot)
{
	const size_t len = ctx->cfg->chunk;
	uint64_t chunk = target >> 1, nr = chunk / sh->chunks_per_file;
	unsigned f = nr < sh->files ? (unsigned)nr : sh->files - 1;
	uint64_t off = (chunk - (uint64_t)f * sh->chunks_per_file) * len;
	ssize_t got;

	if (lseek(fds[f], (off_t)off, SEEK_SET) < 0)
		return record(slot, OP_LSEEK, f, off, errno);
	got = read_all(fds[f], ctx->buf, len);
	if (got < 0)
		return record(slot, OP_READ, f, off, errno);
	if ((size_t)got != len)
		return record(slot, OP_SHORT_READ, f, off, EIO);
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

/* Take positions until none are left; one latency sample per seek. */
static void seek_loop(struct phase_ctx *ctx, struct seek_shared *sh,
    const int *fds, struct seeker_slot *slot)
{
	int64_t start = op_clock_ns(), end;

	for (;;) {
		unsigned k;

		if (phase_stop) {
			slot->stopped = true;
			return;
		}
		if (atomic_load_explicit(&sh->abort, memory_order_relaxed))
			return;
		k = atomic_fetch_add_explicit(&sh->next, 1, memory_order_relaxed);
		if (k >= sh->count)
			return;
		if (seek_one(ctx, sh, sh->target[k], fds, slot) != 0) {
			atomic_store(&sh->abort, 1);
			return;
		}
		end = op_clock_ns();
		latency_add(&slot->lat, (uint64_t)(end - start));
		start = end;
		slot->seeks++;
	}
}

/*
 * The child: never returns into the parent's code and never calls
 * exit(), which would flush stdio buffers it shares with the parent.
 */
static _Noreturn void seeker_main(struct phase_ctx *ctx, struct seek_shared *sh,
    unsigned id)
{
	struct seeker_slot *slot = &sh->slot[id];
	int fds[IO_FILES_MAX];
	unsigned opened;

	for (opened = 0; opened < sh->files; opened++) {
		char name[64];

		phase_io_file_name(ctx, opened, name, sizeof(name));
		fds[opened] = openat(ctx->scratch_fd, name,
		    O_RDWR | O_NOFOLLOW | O_CLOEXEC);
		if (fds[opened] < 0) {
			record(slot, OP_OPEN, opened, 0, errno);
			atomic_store(&sh->abort, 1);
			break;
		}
	}
	if (slot->err == 0)
		seek_loop(ctx, sh, fds, slot);
	while (opened > 0)
		close(fds[--opened]);
	_exit(slot->err != 0 ? 1 : 0);
}

/*
 * Wait for every child, even when a stop signal interrupts the wait: the
 * stop is passed on through the shared abort flag, and the children end
 * after their current seek.  Any child is waited for, not one pid after
 * the other, so that a seeker killed from outside (it cannot report)
 * stops the others at once; clyde has no other children to reap.
 */
static void reap(struct seek_shared *sh, unsigned started)
{
	unsigned k;

	/*
	 * Each seeker by its pid, never waitpid(-1): with -c, other threads
	 * have seekers of their own.  The last wait returns when the last
	 * seeker ends, which is when the phase ends.
	 */
	for (k = 0; k < started; k++) {
		int status;
		pid_t pid;

		while ((pid = waitpid(sh->pid[k], &status, 0)) < 0 &&
		    errno == EINTR)
			if (phase_stop)
				atomic_store(&sh->abort, 1);
		if (pid < 0)
			continue;
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
	char name[64], what[64];

	phase_io_file_name(ctx, slot->file, name, sizeof(name));
	snprintf(what, sizeof(what), "%s at byte %llu", seek_op_name[slot->op],
	    (unsigned long long)slot->offset);
	return phase_fail(ctx, name, what, slot->err);
}

/* Merge the slots into the meter; the first error wins over a stop. */
static int gather(struct phase_ctx *ctx, const struct seek_shared *sh,
    unsigned started, int fork_err)
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
		if (slot->err != 0) {
			rc = slot_failed(ctx, slot);
		} else if (slot->stopped) {
			rc = PHASE_STOPPED;
		} else if (slot->wait_status != 0) {
			rc = died(ctx, slot->wait_status);
		}
	}
	if (rc != PHASE_ERROR && fork_err != 0)
		rc = phase_fail(ctx, NULL, "fork", fork_err);
	if (rc == PHASE_OK && phase_stop)
		rc = PHASE_STOPPED;
	return rc;
}

int phase_seeks_run(struct phase_ctx *ctx)
{
	struct seek_shared *sh = ctx->seek;
	unsigned started;
	int fork_err = 0, rc;

	if (sh == NULL)
		return phase_fail(ctx, NULL, "seek", EINVAL);
	for (started = 0; started < sh->seekers; started++) {
		pid_t pid = fork();

		if (pid == 0)
			seeker_main(ctx, sh, started);
		if (pid < 0) {
			fork_err = errno;
			atomic_store(&sh->abort, 1);
			break;
		}
		sh->pid[started] = pid;
	}
	reap(sh, started);
	rc = gather(ctx, sh, started, fork_err);
	phase_seeks_cleanup(ctx);
	return rc;
}

void phase_seeks_cleanup(struct phase_ctx *ctx)
{
	if (ctx->seek == NULL)
		return;
	munmap(ctx->seek, shared_len(ctx->seek));
	ctx->seek = NULL;
}
