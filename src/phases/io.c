/*
 * phases/io.c: the per-char and block phases on the data files.
 *
 * The data lives in Bonnie.<pid> (and, in 1.03 mode, Bonnie.<pid>.001 ...
 * holding 1 GiB each), inside the scratch directory.  prepare() opens
 * every file before the clock starts; run() does the work and ends with
 * close(), after fsync() when the phase wrote, so the data has reached
 * the filesystem when the clock stops.
 *
 * The other fsync() calls are bonnie++'s (see sync_read_phase()): 2.00a
 * syncs its file at every close, after reading too; 1.03e syncs at the
 * close of the block phases with -b only.  Neither syncs after each
 * block: -b adds per-write syncs to the seeks and the small files alone.
 */
/* O_DIRECT is outside POSIX; glibc shows it with _GNU_SOURCE. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "phases/io.h"
#include "phases/phase.h"
#include "lib/fdio.h"

#define MIB ((uint64_t)1024 * 1024)

#ifndef O_DIRECT
#define O_DIRECT 0              /* -D is then refused by the probe */
#define NO_O_DIRECT 1
#endif

struct data_file {
	int fd;                 /* -1 when closed */
	FILE *stream;           /* per-char phases; owns fd while set */
	bool exists;            /* created by us and not yet unlinked */
	dev_t dev;              /* the inode made, while exists */
	ino_t ino;
	uint64_t size;          /* bytes the file holds when complete */
};

/*
 * file[0..count) are this rank's; with --shift, file[count..2 count) are
 * those of the rank it reads from, as that rank made them (their inode
 * numbers, phase_io_theirs()): never created nor removed here.  use is
 * the set the running phase works on.
 */
struct io_state {
	unsigned count;
	size_t bump;            /* the byte changed in the next block */
	struct data_file *use;
	bool shared;            /* theirs known since their last block write */
	struct data_file file[];
};

/* One unit of timed work: len bytes at the current position of file i. */
typedef int (*chunk_fn)(struct phase_ctx *ctx, struct data_file *f,
    unsigned i, size_t len);

unsigned phase_io_file_count(const struct config *cfg)
{
	uint64_t n;

	if (cfg->file_size_mib == 0)
		return 0;
	if (cfg->compat != COMPAT_103)
		return 1;
	n = (cfg->file_size_mib + IO_FILE_MAX_MIB - 1) / IO_FILE_MAX_MIB;
	/* core/config.c refuses more; should it not, the last file takes the rest */
	return n > IO_FILES_MAX ? IO_FILES_MAX : (unsigned)n;
}

/* the family's descriptors() (phases/phase.h): each data file */
static unsigned long phase_io_descriptors(const struct config *cfg,
    const char **fewer)
{
	*fewer = NULL;
	return phase_io_file_count(cfg);
}

static void data_file_name(pid_t pid, unsigned i, char *out, size_t n)
{
	if (i == 0)
		snprintf(out, n, "Bonnie.%ld", (long)pid);
	else
		snprintf(out, n, "Bonnie.%ld.%03u", (long)pid, i);
}

/* name of data file i ("Bonnie.<pid>", "Bonnie.<pid>.001", ...) */
static void phase_io_file_name(const struct phase_ctx *ctx, unsigned i,
    char *out, size_t n)
{
	data_file_name(ctx->pid, i, out, n);
}

/* Where the phases that read back open data file i, by that name. */
static int read_dir(const struct phase_ctx *ctx, unsigned i, char *name,
    size_t n)
{
	data_file_name(ctx->read_other ? ctx->read_pid : ctx->pid, i, name, n);
	return ctx->read_other ? ctx->read_fd : ctx->scratch_fd;
}

/* The I/O state, made on first use: sizes only, no file touched yet. */
static struct io_state *io_state_get(struct phase_ctx *ctx)
{
	const struct config *cfg = ctx->cfg;
	unsigned count = phase_io_file_count(cfg), i;
	uint64_t left = cfg->file_size_mib * MIB;
	struct io_state *io;

	if (ctx->state.io != NULL)
		return ctx->state.io;
	io = calloc(1, sizeof(*io) + 2 * count * sizeof(io->file[0]));
	if (io == NULL)
		return NULL;
	io->count = count;
	io->use = io->file;
	for (i = 0; i < count; i++) {
		uint64_t cap = (uint64_t)IO_FILE_MAX_MIB * MIB;

		if (cfg->compat != COMPAT_103 || i == count - 1)
			cap = left;
		io->file[i].fd = -1;
		io->file[i].size = left < cap ? left : cap;
		left -= io->file[i].size;
		/* the same options on every rank: the same sizes */
		io->file[count + i] = io->file[i];
	}
	ctx->state.io = io;
	return io;
}

/* A failure on data file i of the set in use, named where it is. */
static int fail_file(struct phase_ctx *ctx, unsigned i, const char *op, int err)
{
	const struct io_state *io = ctx->state.io;
	char name[64];

	if (io != NULL && io->use != io->file)
		return phase_io_fail_read(ctx, i, op, err);
	phase_io_file_name(ctx, i, name, sizeof(name));
	return phase_fail(ctx, name, op, err);
}

int phase_io_fail_read(struct phase_ctx *ctx, unsigned i, const char *op,
    int err)
{
	char name[64];

	read_dir(ctx, i, name, sizeof(name));
	if (ctx->read_other)
		return phase_fail_in(ctx, ctx->read_dir_name, name, op, err);
	return phase_fail(ctx, name, op, err);
}

/* write_all()/read_all() result: -1 carries errno, a short count has none. */
static int check_transfer(struct phase_ctx *ctx, unsigned i, const char *op,
    ssize_t got, size_t want)
{
	if (got < 0)
		return fail_file(ctx, i, op, errno);
	if ((size_t)got != want) {
		/* EOF before the file's end: someone truncated it under us */
		char what[64];

		snprintf(what, sizeof(what), "short %s: the file ended early", op);
		return fail_file(ctx, i, what, 0);
	}
	return PHASE_OK;
}

/* Close file i without syncing (cleanup and reopen paths). */
static void close_quietly(struct data_file *f)
{
	if (f->stream != NULL)
		fclose(f->stream);
	else if (f->fd >= 0)
		close(f->fd);
	f->stream = NULL;
	f->fd = -1;
}

/*
 * Why st is not data file i as it was made, or NULL when it is: another
 * inode under its name (a hard link to another file put in its place
 * between phases), or a second name for it that someone else made.
 */
static const char *not_as_made(const struct data_file *f,
    const struct stat *st)
{
	/* another rank's: its inode number as it saw it; the device
	 * numbers of one filesystem differ from host to host */
	if ((f->dev != 0 && st->st_dev != f->dev) || st->st_ino != f->ino)
		return "not the file clyde made: another file was put under its "
		    "name; nothing written";
	if (st->st_nlink != 1)
		return "the file clyde made has another name (a hard link); "
		    "nothing written";
	return NULL;
}

/* The set the phases that read back work on: theirs with --shift. */
static struct data_file *read_set(const struct phase_ctx *ctx)
{
	struct io_state *io = ctx->state.io;

	return ctx->read_other ? io->file + io->count : io->file;
}

int phase_io_reopen(const struct phase_ctx *ctx, unsigned i, int flags,
    const char **why)
{
	char name[64];
	struct stat st;
	int64_t until = 0;
	int dir = read_dir(ctx, i, name, sizeof(name)), fd;

	/* another rank's: this host may show a stale cache of its name
	 * for a while (phase_stale_again()) */
	for (;;) {
		*why = NULL;
		/* a FIFO put in its place must not hold the open */
		fd = openat(dir, name, flags | O_NONBLOCK | O_NOFOLLOW |
		    O_CLOEXEC);
		if (fd < 0) {
			if (ctx->read_other && phase_stale_again(&until, errno))
				continue;
			return -1;
		}
		if (ctx->state.io == NULL)
			*why = "opened before the data files were made";
		else if (ctx->read_other && !ctx->state.io->shared)
			*why = "the rank that made it did not say which file it made";
		else if (fstat(fd, &st) != 0)
			*why = "cannot fstat the file opened again";
		else if ((*why = not_as_made(&read_set(ctx)[i], &st)) != NULL &&
		    ctx->read_other && phase_stale_again(&until, 0)) {
			close(fd);
			continue;
		}
		if (*why == NULL && fd_blocking(fd) != 0)
			*why = "cannot clear O_NONBLOCK";
		return fd;
	}
}

/*
 * Open every data file.  create: a new file, O_CREAT|O_EXCL; one we made
 * earlier (never someone else's) is unlinked first, as bonnie++ does,
 * rather than truncated: a new inode, and no filesystem heuristic for
 * files truncated and rewritten (ext4's auto_da_alloc flushes those on
 * close).  stdio_mode non-NULL wraps the descriptor in a stream for the
 * per-char phases.
 */
static int open_all(struct phase_ctx *ctx, int access, bool create,
    const char *stdio_mode)
{
	struct io_state *io = io_state_get(ctx);
	unsigned i;

	if (io == NULL)
		return phase_fail(ctx, NULL, "malloc", ENOMEM);
	for (i = 0; i < 2 * io->count; i++)
		close_quietly(&io->file[i]);
	if (!create) {
		io->use = read_set(ctx);
		for (i = 0; i < io->count; i++) {
			const char *why;

			io->use[i].fd = phase_io_reopen(ctx, i, access, &why);
			if (io->use[i].fd < 0)
				return phase_io_fail_read(ctx, i, "open", errno);
			if (why != NULL) {
				close_quietly(&io->use[i]);
				return phase_io_fail_read(ctx, i, why, 0);
			}
			if (stdio_mode != NULL && (io->use[i].stream =
			    fdopen(io->use[i].fd, stdio_mode)) == NULL)
				return phase_io_fail_read(ctx, i, "fdopen", errno);
		}
		return PHASE_OK;
	}
	io->use = io->file;
	io->shared = false;
	for (i = 0; i < io->count; i++) {
		struct data_file *f = &io->file[i];
		int flags = access | O_NOFOLLOW | O_CLOEXEC;
		struct stat st;
		char name[64];

		phase_io_file_name(ctx, i, name, sizeof(name));
		/* the name is removed only while it is still ours */
		if (create && f->exists) {
			if (fstatat(ctx->scratch_fd, name, &st,
			    AT_SYMLINK_NOFOLLOW) != 0)
				return phase_fail(ctx, name, "stat", errno);
			if (st.st_dev != f->dev || st.st_ino != f->ino)
				return phase_fail(ctx, name, not_as_made(f,
				    &st), 0);
			if (unlinkat(ctx->scratch_fd, name, 0) != 0)
				return phase_fail(ctx, name, "unlink", errno);
			f->exists = false;
		}
		f->fd = openat(ctx->scratch_fd, name, flags | O_CREAT | O_EXCL,
		    0600);
		if (f->fd < 0)
			return phase_fail(ctx, name, "open", errno);
		if (fstat(f->fd, &st) != 0)
			return phase_fail(ctx, name, "fstat", errno);
		f->exists = true;
		f->dev = st.st_dev;
		f->ino = st.st_ino;
		if (stdio_mode != NULL) {
			f->stream = fdopen(f->fd, stdio_mode);
			if (f->stream == NULL)
				return phase_fail(ctx, name, "fdopen", errno);
		}
	}
	return PHASE_OK;
}

/*
 * Close every data file; after writing (sync), flush and fsync() first.
 * Part of the timed run: the data must have reached the filesystem.
 */
static int close_all(struct phase_ctx *ctx, bool sync)
{
	struct io_state *io = ctx->state.io;
	unsigned i;

	for (i = 0; i < io->count; i++) {
		struct data_file *f = &io->use[i];
		int rc;

		if (f->stream != NULL && fflush(f->stream) != 0)
			return fail_file(ctx, i, "write", errno);
		if (sync && fsync(f->fd) != 0)
			return fail_file(ctx, i, "fsync", errno);
		rc = f->stream != NULL ? fclose(f->stream) : close(f->fd);
		f->stream = NULL;
		f->fd = -1;
		if (rc != 0)
			return fail_file(ctx, i, "close", errno);
	}
	return PHASE_OK;
}

/*
 * The timed loop of every phase: op on each chunk of each file, up to
 * limit bytes in all.  One clock read per chunk: the end of one chunk is
 * the start of the next.  ops counts the bytes for the rate, bytes the
 * data moved (moves per byte: 2 when it is read and written back).
 */
static int each_chunk(struct phase_ctx *ctx, chunk_fn op, uint64_t limit,
    unsigned moves)
{
	struct io_state *io = ctx->state.io;
	struct phase_meter *m = ctx->meter;
	const size_t chunk = ctx->chunk;
	uint64_t start = op_clock();
	unsigned i;
	int rc;

	for (i = 0; i < io->count && limit > 0; i++) {
		uint64_t left = io->use[i].size < limit ? io->use[i].size : limit;

		limit -= left;
		while (left > 0) {
			size_t len = left < chunk ? (size_t)left : chunk;

			if (phase_check_stop() != PHASE_OK)
				return PHASE_STOPPED;
			rc = op(ctx, &io->use[i], i, len);
			if (rc != PHASE_OK)
				return rc;
			latency_lap(&m->lat, &start);
			m->ops += len;
			m->bytes += (uint64_t)len * moves;
			left -= len;
		}
	}
	return PHASE_OK;
}

/* Each block differs from the one before it: one byte moves on. */
static void bump_block(struct phase_ctx *ctx, size_t len)
{
	struct io_state *io = ctx->state.io;

	ctx->buf[io->bump % len]++;
	io->bump++;
}

/*
 * Whether a phase that only read syncs its files at the end, as bonnie++
 * does: 2.00a's close() always calls fsync() (CFileOp::Close()); 1.03e's
 * does with -b, on the descriptors of the block phases only (its per-char
 * phases use stdio streams, which it closes with fflush() and fclose()).
 * The phases that write always sync at the end, in both profiles.
 */
static bool sync_read_phase(const struct config *cfg, bool stdio)
{
	if (cfg->compat != COMPAT_103)
		return true;
	return cfg->sync_writes && !stdio;
}

static uint64_t total_bytes(const struct config *cfg)
{
	return cfg->file_size_mib * MIB;
}

/* 1.03: the whole file; 2.00: the per-char size, within the file. */
static uint64_t per_char_bytes(const struct config *cfg)
{
	return cfg->per_char_mib * MIB;
}

/* -D: the block phases bypass the page cache (the buffer is page-aligned) */
static int block_flags(const struct phase_ctx *ctx)
{
	return ctx->cfg->direct_io ? O_DIRECT : 0;
}

/*
 * Before any phase: can this filesystem write and read one chunk with
 * O_DIRECT?  tmpfs, for one, refuses it with EINVAL at open().
 */
static int phase_io_check_direct(struct phase_ctx *ctx)
{
	const char *probe = "direct-io-probe";
	int fd, err = 0;

#ifdef NO_O_DIRECT
	return phase_fail(ctx, NULL, "O_DIRECT is not available here", 0);
#endif
	fd = openat(ctx->scratch_fd, probe, O_RDWR | O_CREAT | O_EXCL |
	    O_NOFOLLOW | O_CLOEXEC | O_DIRECT, 0600);
	if (fd < 0) {
		err = errno;
		/* without O_DIRECT the open may have made nothing; be sure */
		unlinkat(ctx->scratch_fd, probe, 0);
		return phase_fail(ctx, NULL, "open with O_DIRECT", err);
	}
	if (write_all(fd, ctx->buf, ctx->chunk) < 0 ||
	    lseek(fd, 0, SEEK_SET) < 0 ||
	    read_all(fd, ctx->buf, ctx->chunk) < 0)
		err = errno;
	close(fd);
	unlinkat(ctx->scratch_fd, probe, 0);
	if (err != 0) {
		char op[80];

		snprintf(op, sizeof(op), "O_DIRECT on a %u-byte chunk",
		    ctx->chunk);
		return phase_fail(ctx, NULL, op, err);
	}
	return PHASE_OK;
}

/* --- 1: per-char write ------------------------------------------------- */

/*
 * Per-char phases are timed per chunk-sized batch of bytes, not per byte:
 * a clock read costs more than a putc(), and would become what we measure.
 */
static int putc_batch(struct phase_ctx *ctx, struct data_file *f, unsigned i,
    size_t len)
{
	FILE *s = f->stream;
	size_t k;

	for (k = 0; k < len; k++)
		if (putc((int)(k & 0x7f), s) == EOF)
			return fail_file(ctx, i, "putc", errno);
	return PHASE_OK;
}

/*
 * 2.00: one write() per byte.  -b does not fsync() here, as in 2.00a:
 * the data is synced at the end of the phase as always.
 */
static int write_bytes(struct phase_ctx *ctx, struct data_file *f, unsigned i,
    size_t len)
{
	size_t k;

	for (k = 0; k < len; k++) {
		char c = (char)(k & 0x7f);
		ssize_t got;

		/* a byte can be a network round trip: stop between bytes */
		if (phase_stop)
			return PHASE_STOPPED;
		/*
		 * write() itself, as 2.00a: one byte goes whole or not at
		 * all, and write_all()'s loop would be a second call per byte.
		 */
		do
			got = write(f->fd, &c, 1);
		while (got < 0 && errno == EINTR);
		if (got != 1)
			return check_transfer(ctx, i, "write", got, 1);
	}
	return PHASE_OK;
}

/*
 * 1.03 writes through stdio; 1.03e closed its streams without fsync(),
 * with -b or not.  clyde syncs them at the end, as every phase that
 * writes (clyde(1), COMPATIBILITY).
 */
static int phase_putc_prepare(struct phase_ctx *ctx)
{
	bool stdio = ctx->cfg->compat == COMPAT_103;

	return open_all(ctx, O_WRONLY, true, stdio ? "w" : NULL);
}

static int phase_putc_run(struct phase_ctx *ctx)
{
	const struct config *cfg = ctx->cfg;
	chunk_fn op = cfg->compat == COMPAT_103 ? putc_batch : write_bytes;
	int rc = each_chunk(ctx, op, per_char_bytes(cfg), 1);

	return rc != PHASE_OK ? rc : close_all(ctx, true);
}

/* --- 2: block write ---------------------------------------------------- */

static int write_block(struct phase_ctx *ctx, struct data_file *f, unsigned i,
    size_t len)
{
	ssize_t got;

	bump_block(ctx, len);
	got = write_all(f->fd, ctx->buf, len);

	return check_transfer(ctx, i, "write", got, len);
}

/*
 * 2.00a creates its file before the per-char write and closes it, with
 * fsync(), before the block write, which makes it anew; without the
 * per-char write (-f) the file it syncs is empty.  The same here, before
 * the clock as in 2.00a, so that its run makes the same syncs.
 */
static int sync_empty_file(struct phase_ctx *ctx)
{
	struct io_state *io = io_state_get(ctx);

	if (io == NULL)
		return phase_fail(ctx, NULL, "malloc", ENOMEM);
	if (ctx->cfg->compat == COMPAT_103 || io->file[0].exists)
		return PHASE_OK;
	if (open_all(ctx, O_WRONLY | block_flags(ctx), true, NULL) != PHASE_OK)
		return PHASE_ERROR;
	return close_all(ctx, true);
}

/* The files are made anew: those of the per-char write removed first. */
static int phase_put_block_prepare(struct phase_ctx *ctx)
{
	size_t k;

	/* data that is not all zeros, so no filesystem can skip it as holes */
	for (k = 0; k < ctx->chunk; k++)
		ctx->buf[k] = (char)(k & 0x7f);
	if (sync_empty_file(ctx) != PHASE_OK)
		return PHASE_ERROR;
	return open_all(ctx, O_WRONLY | block_flags(ctx), true, NULL);
}

static int phase_put_block_run(struct phase_ctx *ctx)
{
	int rc = each_chunk(ctx, write_block, total_bytes(ctx->cfg), 1);

	return rc != PHASE_OK ? rc : close_all(ctx, true);
}

/* --- 3: rewrite -------------------------------------------------------- */

static int rewrite_block(struct phase_ctx *ctx, struct data_file *f, unsigned i,
    size_t len)
{
	ssize_t got = read_all(f->fd, ctx->buf, len);

	if (check_transfer(ctx, i, "read", got, len) != PHASE_OK)
		return PHASE_ERROR;
	bump_block(ctx, len);
	if (lseek(f->fd, -(off_t)len, SEEK_CUR) < 0)
		return fail_file(ctx, i, "lseek", errno);
	got = write_all(f->fd, ctx->buf, len);
	return check_transfer(ctx, i, "write", got, len);
}

static int phase_rewrite_prepare(struct phase_ctx *ctx)
{
	return open_all(ctx, O_RDWR | block_flags(ctx), false, NULL);
}

static int phase_rewrite_run(struct phase_ctx *ctx)
{
	int rc = each_chunk(ctx, rewrite_block, total_bytes(ctx->cfg), 2);

	return rc != PHASE_OK ? rc : close_all(ctx, true);
}

/* --- 4: per-char read -------------------------------------------------- */

static int getc_batch(struct phase_ctx *ctx, struct data_file *f, unsigned i,
    size_t len)
{
	FILE *s = f->stream;
	size_t k;

	for (k = 0; k < len; k++) {
		if (getc(s) == EOF) {
			if (ferror(s))
				return fail_file(ctx, i, "getc", errno);
			return fail_file(ctx, i, "short read: the file ended early", 0);
		}
	}
	return PHASE_OK;
}

static int read_bytes(struct phase_ctx *ctx, struct data_file *f, unsigned i,
    size_t len)
{
	size_t k;

	for (k = 0; k < len; k++) {
		char c;
		ssize_t got;

		if (phase_stop)
			return PHASE_STOPPED;
		do      /* read() itself, as in write_bytes() */
			got = read(f->fd, &c, 1);
		while (got < 0 && errno == EINTR);
		if (got != 1)
			return check_transfer(ctx, i, "read", got, 1);
	}
	return PHASE_OK;
}

static int phase_getc_prepare(struct phase_ctx *ctx)
{
	bool stdio = ctx->cfg->compat == COMPAT_103;

	return open_all(ctx, O_RDONLY, false, stdio ? "r" : NULL);
}

/* Nothing was written: fsync() as bonnie++ does (sync_read_phase()). */
static int phase_getc_run(struct phase_ctx *ctx)
{
	const struct config *cfg = ctx->cfg;
	bool stdio = cfg->compat == COMPAT_103;
	int rc = each_chunk(ctx, stdio ? getc_batch : read_bytes,
	    per_char_bytes(cfg), 1);

	return rc != PHASE_OK ? rc : close_all(ctx, sync_read_phase(cfg, stdio));
}

/* --- 5: block read ----------------------------------------------------- */

static int read_block(struct phase_ctx *ctx, struct data_file *f, unsigned i,
    size_t len)
{
	return check_transfer(ctx, i, "read", read_all(f->fd, ctx->buf, len), len);
}

static int phase_get_block_prepare(struct phase_ctx *ctx)
{
	return open_all(ctx, O_RDONLY | block_flags(ctx), false, NULL);
}

static int phase_get_block_run(struct phase_ctx *ctx)
{
	int rc = each_chunk(ctx, read_block, total_bytes(ctx->cfg), 1);

	return rc != PHASE_OK ? rc : close_all(ctx,
	    sync_read_phase(ctx->cfg, false));
}

/* --- --shift ---------------------------------------------------------- */

_Static_assert(IO_FILES_MAX * sizeof(uint64_t) <= PHASE_MADE_MAX,
    "the inode numbers of the data files fit in what made() writes");

/*
 * --shift (phases/phase.h's made() and theirs()): the inode numbers of
 * the data files this rank made, as uint64_t, one a file; those the rank
 * read from made, the same count, before a phase reads them (it never
 * fails: a reopen checks them).
 */
static size_t phase_io_made(const struct phase_ctx *ctx, void *made)
{
	uint64_t *ino = made;
	unsigned i;

	for (i = 0; ctx->state.io != NULL && i < ctx->state.io->count; i++)
		ino[i] = (uint64_t)ctx->state.io->file[i].ino;
	return (ctx->state.io != NULL ? ctx->state.io->count : 0) *
	    sizeof(ino[0]);
}

static int phase_io_theirs(struct phase_ctx *ctx, const void *made)
{
	struct io_state *io = ctx->state.io;
	const uint64_t *ino = made;
	unsigned i;

	for (i = 0; io != NULL && i < io->count; i++) {
		io->file[io->count + i].ino = (ino_t)ino[i];
		io->file[io->count + i].dev = 0;
	}
	if (io != NULL)
		io->shared = true;
	return PHASE_OK;
}

/* --- cleanup ---------------------------------------------------------- */

void phase_io_cleanup(struct phase_ctx *ctx)
{
	struct io_state *io = ctx->state.io;
	struct stat st;
	unsigned i;

	if (io == NULL)
		return;
	/* theirs are only closed: the rank that made them removes them */
	for (i = io->count; i < 2 * io->count; i++)
		close_quietly(&io->file[i]);
	for (i = 0; i < io->count; i++) {
		struct data_file *f = &io->file[i];
		char name[64];

		close_quietly(f);
		if (!f->exists)
			continue;
		f->exists = false;
		phase_io_file_name(ctx, i, name, sizeof(name));
		/* a name put in the file's place is not ours to remove */
		if (fstatat(ctx->scratch_fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    (st.st_dev != f->dev || st.st_ino != f->ino)) {
			phase_cleanup_left(ctx, name, "not made by clyde");
			continue;
		}
		phase_cleanup_failed(ctx, name,
		    phase_remove(ctx, ctx->scratch_fd, "", name, 0));
	}
	free(io);
	ctx->state.io = NULL;
}

/* --- the family ------------------------------------------------------- */

static bool io_enabled(const struct config *cfg)
{
	return cfg->file_size_mib > 0;
}

static bool per_char_enabled(const struct config *cfg)
{
	return cfg->file_size_mib > 0 && cfg->per_char;
}

/*
 * The per-char and block phases: a --chunks sweep runs the block phases
 * at every point, the per-char ones at the first alone.
 */
static const struct phase_def io_phases[] = {
	{ PH_PUTC, "per-char write", "Writing with putc()...", "done\n",
	  per_char_enabled, phase_putc_prepare, phase_putc_run,
	  NULL, false, false, NULL, NULL },
	{ PH_PUT_BLOCK, "block write", "Writing intelligently...", "done\n",
	  io_enabled, phase_put_block_prepare, phase_put_block_run,
	  NULL, true, true, NULL, NULL },
	{ PH_REWRITE, "rewrite", "Rewriting...", "done\n",
	  io_enabled, phase_rewrite_prepare, phase_rewrite_run,
	  NULL, true, false, NULL, NULL },
	{ PH_GETC, "per-char read", "Reading with getc()...", "done\n",
	  per_char_enabled, phase_getc_prepare, phase_getc_run,
	  NULL, false, false, NULL, NULL },
	{ PH_GET_BLOCK, "block read", "Reading intelligently...", "done\n",
	  io_enabled, phase_get_block_prepare, phase_get_block_run,
	  NULL, true, false, NULL, NULL },
};

const struct phase_family phase_family_io = {
	.name = "io",
	.phases = io_phases,
	.nphases = sizeof(io_phases) / sizeof(io_phases[0]),
	.check_direct = phase_io_check_direct,
	.made = phase_io_made,
	.theirs = phase_io_theirs,
	.made_what = "data files",
	.cleanup = phase_io_cleanup,
	.descriptors = phase_io_descriptors,
};
