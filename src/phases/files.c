/*
 * phases/files.c: the small-file phases: create, stat ("Read") and delete,
 * first in name order, then in random order.
 *
 * Inside the scratch directory:
 *   files/                 made by a create prepare, removed by a delete run
 *   files/00000/ ...       the subdirectories, when dirs > 1
 *
 * With -n N:-1 and -2 the first name a create phase makes in each
 * directory is an empty file, and every later name there is a hard link
 * to it, or a symbolic link to its bare name (read from the link's own
 * directory).  bonnie++ links every name to the phase's first file; kept
 * within one directory, the links also work where a filesystem links only
 * within one (AFS), and in subdirectories, where bonnie++'s symbolic
 * links lead nowhere.
 *
 * A name is its index as a counter plus up to 12 random characters.  The
 * characters are not stored: they are a function of the index and a key
 * drawn in prepare() (name_extra()), so that a walk checks a name that
 * readdir() returned with a few multiplications, where a table of them
 * cost a cache and TLB miss a name in the directory's order.  One uint32
 * order array remains: 4 bytes a file.  Putting a name together while
 * the clock runs is arithmetic and ten hex digits: no random draws, no
 * printf, no allocation.  Every call is relative to a directory
 * descriptor (or to the working directory, moved into one: work_in())
 * and names a single name: the kernel follows a symbolic link in any
 * part of a path but the last, so 00001/NAME would lead through a link
 * put in place of 00001 out of the target.  Each subdirectory is held
 * open from its making to its removal; before the random stat and delete
 * every one is looked up again by its name (check_subdirs()), and the
 * sequential walks open each by its name, without following a link: a
 * symbolic link or another directory put in place of one fails the
 * phase, named, and is left in place.  Cleanup removes only what it
 * reaches by name from the scratch directory.
 *
 * Only names clyde made are ever stat'ed, counted or removed: a name in
 * files/ that is not one of them is left in place and named, and the
 * phase fails.  The sequential phases read each directory again when a
 * readdir() pass missed some of clyde's names (network filesystems skip
 * entries when others are removed during the read).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "phases/names.h"
#include "phases/phase.h"
#include "lib/fdio.h"
#include "lib/text.h"

#define FILES_DIR          "files"

#define RANDOM_CHARS_MAX   12   /* bonnie++'s 0..12 random characters */
#define NAME_LEN_MAX       (COUNTER_DIGITS + RANDOM_CHARS_MAX)
#define DIR_DIGITS_MIN     5    /* 00000, as bonnie++ */
#define DIR_DIGITS_MAX     10   /* any unsigned */
#define PATH_BUF           (DIR_DIGITS_MAX + 1 + NAME_LEN_MAX + 1)
/* room for a directory path and any readdir() name, for messages */
#define MSG_PATH_BUF       (sizeof FILES_DIR + PATH_BUF + 256)

/* a directory's own entry in leftovers */
#define TOP_DIR            UINT32_MAX

/*
 * How long a run waits, in all, for directories kept busy by NFS
 * silly-renames (.nfsXXXX: a file removed while still open somewhere)
 * to empty; the wait between tries grows from 10 ms to 1 s.
 */
#define DIR_WAIT_MS        10000
#define DIR_WAIT_STEP_MAX  1000

#define DIR_MODE           0700
#define FILE_MODE          0600

#ifdef __GNUC__
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define PRINTF_LIKE(f, a)
#endif

/*
 * -n N:-1, -2: a directory's first file, which its other names link to.
 * Ours: as a create phase made it.  --shift, theirs: the first name a
 * stat phase met there (the record says no inode).
 */
struct first_file {
	bool known;
	dev_t dev;
	ino_t ino;
	char name[NAME_LEN_MAX + 1];
};

struct file_set {
	uint64_t key;           /* the names' random parts (name_extra()) */
	uint32_t *order;        /* name indexes in the order the next run uses */
	uint32_t count;
	bool random_first;      /* the random phases' names */
	unsigned dirs;          /* >= 1; file i lives in dir_of(i) */
	uint32_t may_exist;     /* order[0 .. may_exist) may be on disk */
	int top_fd;             /* FILES_DIR, or -1 while it does not exist */
	unsigned subdirs_made;
	struct first_file *first;       /* links: one a directory, else NULL */
	bool learn_first;       /* theirs: learnt from the first name stat'ed */
	bool sync_dirs;         /* false once the filesystem refused fsync on a directory */
	int cached_fd;          /* one open subdirectory, for -b directory fsyncs */
	unsigned cached_dir;
	/*
	 * dirs > 1: each subdirectory, held open (hold_dir()) from its making
	 * to its removal (theirs: for the random stat), or -1; the calls on a
	 * file name it from there.
	 */
	int *sub_fd;
	/*
	 * The sequential walks: a bit a name, met when it equals seen_as.
	 * Each walk flips seen_as and the bits of the names it meets, so a
	 * walk that met every name leaves them ready for the next one
	 * (seen_ready) without clearing them on the clock.
	 */
	uint64_t *seen;
	bool seen_as;
	bool seen_ready;
	unsigned wait_ms_left;  /* of DIR_WAIT_MS */
	/*
	 * --shift: the names of the small files of the rank this one reads
	 * from, in its FILES_DIR (top_fd, opened here), as it last made
	 * them (phase_files_theirs()); the stat phases work on those.  in
	 * is that rank's scratch directory, for messages (NULL in ours).
	 * Never created in nor removed from: that rank removes its own.
	 */
	struct file_set *theirs;
	const char *in;
	uint64_t dir_ino;       /* FILES_DIR as made (0: unknown) */
};

/* What a directory that could not be removed still holds. */
struct leftovers {
	uint32_t ours;          /* names clyde made (their failure is told apart) */
	uint32_t others;        /* any other name, silly-renames included */
	uint32_t silly;         /* .nfsXXXX, .fuse_hiddenXXXX */
	char first[256];        /* the first other name */
};

static const char name_chars[] =
    "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/* Errors ---------------------------------------------------------------- */

/*
 * The directory of the target that holds fs's FILES_DIR, for messages:
 * this rank's scratch directory, or with --shift that of the rank whose
 * files a stat phase reads (fs NULL: this rank's).
 */
static const char *where(const struct phase_ctx *ctx, const struct file_set *fs)
{
	return fs != NULL && fs->in != NULL ? fs->in : ctx->scratch_name;
}

/* "<label>: <scratch>/<what>" for errors that have no errno. */
PRINTF_LIKE(3, 4)
static int fail_text(struct phase_ctx *ctx, const struct file_set *fs,
    const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(ctx->error, sizeof ctx->error, "%s: %s/",
	    ctx->label ? ctx->label : "files", where(ctx, fs));

	if (n < 0 || (size_t)n >= sizeof ctx->error)
		return PHASE_ERROR;
	va_start(ap, fmt);
	vsnprintf(ctx->error + n, sizeof ctx->error - (size_t)n, fmt, ap);
	va_end(ap);
	/* a name found in the directory may hold an escape or a newline */
	mask_controls(ctx->error);
	return PHASE_ERROR;
}

/* phase_fail() for path, in fs's directory */
static int fail_in(struct phase_ctx *ctx, const struct file_set *fs,
    const char *path, const char *op, int err)
{
	return phase_fail_in(ctx, where(ctx, fs), path, op, err);
}

/* fail_in() for dir/name, so that paths are only joined on failure. */
static int fail_at(struct phase_ctx *ctx, const struct file_set *fs,
    const char *dir, const char *name, const char *op, int err)
{
	char path[MSG_PATH_BUF];

	snprintf(path, sizeof path, "%s/%s", dir, name);
	return fail_in(ctx, fs, path, op, err);
}

/* Close fd after a failed call without losing that call's errno. */
static int fail_close(struct phase_ctx *ctx, const struct file_set *fs,
    int fd, const char *dir, const char *name, const char *op, int err)
{
	close(fd);
	return fail_at(ctx, fs, dir, name, op, err);
}

/*
 * Directory name in parent (msg_dir in messages) could not be opened with
 * err: the phase fails; a symbolic link put in its place is named so,
 * and left.
 */
static int fail_open_dir(struct phase_ctx *ctx, const struct file_set *fs,
    int parent, const char *name, const char *msg_dir, int err)
{
	const char *why = link_why(parent, name, err);

	return why != NULL ? fail_text(ctx, fs, "%s: %s; left in place", msg_dir,
	    why) : fail_in(ctx, fs, msg_dir, "open", err);
}

/* Names and paths ------------------------------------------------------- */

/* splitmix64's finaliser: every bit of x moves every bit of the result */
static uint64_t mix64(uint64_t x)
{
	x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
	return x ^ (x >> 31);
}

/*
 * The random part of file i's name under key: 0..12 characters of
 * name_chars, at out (no NUL); returns the length.  Each length and each
 * character is as likely as in bonnie++'s draws, to 1 part in 10^4: the
 * length and eight characters come from one mixed word (13 x 62^8 is
 * 2^-12 of 2^64), the last four from a second.  Counter first
 * (sequential phases) sorts names in creation order; random first
 * scatters them.
 */
static size_t name_extra(uint64_t key, uint32_t i, char *out)
{
	uint64_t first = mix64(key + (i + UINT64_C(1)) * UINT64_C(0x9e3779b97f4a7c15));
	uint64_t h = first;
	size_t len = (size_t)(h % (RANDOM_CHARS_MAX + 1));

	h /= RANDOM_CHARS_MAX + 1;
	for (size_t j = 0; j < len; j++) {
		if (j == 8)
			h = mix64(first ^ key);
		out[j] = name_chars[h % (sizeof name_chars - 1)];
		h /= sizeof name_chars - 1;
	}
	return len;
}

/* A set's key, from the run's random source (so -z and -Z count). */
static uint64_t draw_key(struct rng *rng)
{
	uint64_t hi = rng_next(rng);

	return hi << 32 | rng_next(rng);
}

static unsigned dir_of(const struct file_set *fs, uint32_t i)
{
	return spread_part(i, fs->dirs, fs->count);
}

/* "00042": at least DIR_DIGITS_MIN digits; returns the length. */
static size_t dir_name(unsigned d, char *out)
{
	char rev[DIR_DIGITS_MAX];
	size_t digits = 0, len = 0;

	do {
		rev[digits++] = (char)('0' + d % 10);
		d /= 10;
	} while (d);
	for (size_t pad = digits; pad < DIR_DIGITS_MIN; pad++)
		out[len++] = '0';
	while (digits)
		out[len++] = rev[--digits];
	out[len] = '\0';
	return len;
}

/*
 * FILES_DIR, or the subdirectory d of it, as messages name it; out has
 * MSG_DIR_BUF bytes.
 */
#define MSG_DIR_BUF        (sizeof FILES_DIR + DIR_DIGITS_MAX + 1)
static const char *dir_msg(const struct file_set *fs, unsigned d, char *out)
{
	memcpy(out, FILES_DIR, sizeof FILES_DIR);
	if (fs->dirs > 1) {
		out[sizeof FILES_DIR - 1] = '/';
		dir_name(d, out + sizeof FILES_DIR);
	}
	return out;
}

/* fail_at() for file name in directory d, its path joined on failure */
static int fail_file(struct phase_ctx *ctx, const struct file_set *fs,
    unsigned d, const char *name, const char *op, int err)
{
	char dir[MSG_DIR_BUF];

	return fail_at(ctx, fs, dir_msg(fs, d, dir), name, op, err);
}

/*
 * The name of file i in its directory (dir_of()); out has PATH_BUF
 * bytes.
 */
static const char *file_name(const struct file_set *fs, uint32_t i, char *out)
{
	char extra[RANDOM_CHARS_MAX];
	size_t len = name_extra(fs->key, i, extra);
	char *p = out;

	if (fs->random_first) {
		memcpy(p, extra, len);
		p += len;
	}
	counter_put(p, i);
	p += COUNTER_DIGITS;
	if (!fs->random_first) {
		memcpy(p, extra, len);
		p += len;
	}
	*p = '\0';
	return out;
}

/* The first file of directory d (d == dirs: one past the last file). */
static uint32_t dir_first(const struct file_set *fs, unsigned d)
{
	return spread_first(d, fs->dirs, fs->count);
}

/*
 * The index of a sequential phase's name in lo .. hi - 1, or NOT_OURS:
 * the counter, then exactly the random part drawn for that file (in the
 * sequential phases the order is the identity: slot i is file i).
 */
static uint32_t seq_index(const struct file_set *fs, const char *name,
    uint32_t lo, uint32_t hi)
{
	uint32_t i = counter_parse(name);
	char extra[RANDOM_CHARS_MAX];
	size_t len;

	if (i < lo || i >= hi)
		return NOT_OURS;
	len = name_extra(fs->key, i, extra);
	/* strncmp: a shorter name ends before the end of the expected one */
	if (strncmp(name + COUNTER_DIGITS, extra, len) != 0 ||
	    name[COUNTER_DIGITS + len] != '\0')
		return NOT_OURS;
	return i;
}

/*
 * Whether name is the name of a file of directory d in the current
 * layout: the counter in range, then exactly the random part drawn for
 * it.  Untimed, for telling what a directory still holds.
 */
static bool our_file(const struct file_set *fs, const char *name, unsigned d)
{
	size_t len = strnlen(name, NAME_LEN_MAX + 1), extra_len;
	char extra[RANDOM_CHARS_MAX];
	uint32_t i;

	if (len < COUNTER_DIGITS || len > NAME_LEN_MAX)
		return false;
	extra_len = len - COUNTER_DIGITS;
	if (!fs->random_first)
		return seq_index(fs, name, dir_first(fs, d),
		    dir_first(fs, d + 1)) != NOT_OURS;
	i = counter_parse(name + extra_len);
	if (i == NOT_OURS || i < dir_first(fs, d) || i >= dir_first(fs, d + 1))
		return false;
	return name_extra(fs->key, i, extra) == extra_len &&
	    memcmp(name, extra, extra_len) == 0;
}

/* Whether name is one of the subdirectories 00000 ... */
static bool our_subdir(const struct file_set *fs, const char *name)
{
	char made[DIR_DIGITS_MAX + 1];
	unsigned long d;
	char *end;

	if (fs->dirs < 2 || name[0] < '0' || name[0] > '9')
		return false;
	d = strtoul(name, &end, 10);
	if (*end != '\0' || d >= fs->dirs)
		return false;
	dir_name((unsigned)d, made);
	return strcmp(made, name) == 0;
}

/* Fisher-Yates on the order: the timed loops read it front to back. */
static void shuffle(struct file_set *fs, struct rng *rng)
{
	for (uint32_t k = fs->count; k > 1; k--) {
		uint32_t j = rng_below(rng, k);
		uint32_t t = fs->order[k - 1];

		fs->order[k - 1] = fs->order[j];
		fs->order[j] = t;
	}
}

/* Sizes and chunks ------------------------------------------------------ */

static size_t io_chunk(const struct phase_ctx *ctx)
{
	size_t chunk = ctx->cfg->files.chunk;

	return chunk == 0 || chunk > ctx->buf_size ? ctx->buf_size : chunk;
}

/* Uniform in min..max; links and max 0 have no data. */
static uint64_t draw_size(struct phase_ctx *ctx)
{
	const struct files_spec *f = &ctx->cfg->files;
	uint64_t min = f->min_size > 0 ? (uint64_t)f->min_size : 0;
	uint64_t max, span, r;

	if (f->max_size <= 0)
		return 0;
	max = (uint64_t)f->max_size;
	if (max <= min)
		return max;
	span = max - min + 1;
	if (span <= UINT32_MAX)
		return min + rng_below(&ctx->rng, (uint32_t)span);
	/* two statements: the order of the draws must not depend on the compiler */
	r = (uint64_t)rng_next(&ctx->rng) << 32;
	r |= rng_next(&ctx->rng);
	return min + r % span;
}

/* One file done: its latency sample and its count. */
static void lap(struct phase_meter *meter, uint64_t *start)
{
	latency_lap(&meter->lat, start);
	meter->ops++;
}

/* Directories ----------------------------------------------------------- */

static void close_cached_dir(struct file_set *fs)
{
	if (fs->cached_fd >= 0)
		close(fs->cached_fd);
	fs->cached_fd = -1;
}

/* Close the subdirectories held open, and the -b one. */
static void close_subdirs(struct file_set *fs)
{
	close_cached_dir(fs);
	for (unsigned d = 0; fs->sub_fd != NULL && d < fs->dirs; d++) {
		if (fs->sub_fd[d] >= 0)
			close(fs->sub_fd[d]);
		fs->sub_fd[d] = -1;
	}
}

/*
 * What the calls on file i start from: FILES_DIR's descriptor, or its
 * subdirectory's held open.
 */
static int file_dir_fd(const struct file_set *fs, uint32_t i)
{
	return fs->dirs == 1 ? fs->top_fd : fs->sub_fd[dir_of(fs, i)];
}

/*
 * A descriptor for directory d that fsync() takes (the held one is only
 * searched); only one subdirectory is kept open so.
 */
static int dir_fd(struct file_set *fs, unsigned d)
{
	if (fs->dirs == 1)
		return fs->top_fd;
	if (fs->cached_fd >= 0 && fs->cached_dir == d)
		return fs->cached_fd;
	close_cached_dir(fs);
	fs->cached_fd = fs->sub_fd[d] < 0 ? -1 : openat(fs->sub_fd[d], ".",
	    O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	fs->cached_dir = d;
	return fs->cached_fd;
}

/*
 * Untimed, before the random stat and delete: each subdirectory held open
 * is still the one under its name, no symbolic link or other directory
 * put in place of one; else the phase fails naming it, and leaves it.
 */
static int check_subdirs(struct phase_ctx *ctx, const struct file_set *fs)
{
	char name[DIR_DIGITS_MAX + 1], msg_dir[MSG_DIR_BUF];
	const char *why;
	int err;

	for (unsigned d = 0; fs->dirs > 1 && d < fs->dirs; d++) {
		dir_name(d, name);
		dir_msg(fs, d, msg_dir);
		if (fs->sub_fd[d] < 0)
			return fail_in(ctx, fs, msg_dir, "open", EBADF);
		why = dir_swapped(fs->top_fd, name, fs->sub_fd[d], &err);
		if (why != NULL && err != 0)
			return fail_in(ctx, fs, msg_dir, "stat", err);
		if (why != NULL)
			return fail_text(ctx, fs, "%s: %s; left in place",
			    msg_dir, why);
	}
	return PHASE_OK;
}

/* Room for fs's subdirectories' descriptors, none open; PHASE_OK. */
static int subdir_table(struct phase_ctx *ctx, struct file_set *fs)
{
	if (fs->dirs < 2)
		return PHASE_OK;
	if (fs->sub_fd == NULL && (fs->sub_fd = malloc(fs->dirs *
	    sizeof *fs->sub_fd)) == NULL)
		return phase_fail(ctx, NULL, "file names", ENOMEM);
	for (unsigned d = 0; d < fs->dirs; d++)
		fs->sub_fd[d] = -1;
	return PHASE_OK;
}

/*
 * Untimed: hold subdirectory d of fs open (made or, --shift, found by
 * its name in FILES_DIR).  PHASE_OK, or the phase fails naming it.
 */
static int hold_subdir(struct phase_ctx *ctx, struct file_set *fs,
    unsigned d)
{
	char name[DIR_DIGITS_MAX + 1], msg_dir[MSG_DIR_BUF];
	int err;

	dir_name(d, name);
	fs->sub_fd[d] = hold_dir(fs->top_fd, name, false);
	if (fs->sub_fd[d] >= 0)
		return PHASE_OK;
	err = errno;
	return fail_open_dir(ctx, fs, fs->top_fd, name, dir_msg(fs, d,
	    msg_dir), err);
}

/*
 * Work in directory fd, as bonnie++ does (chdir()), and return what the
 * calls on its files start from: AT_FDCWD, or fd itself where fchdir()
 * failed.  A call from the working directory costs the kernel less than
 * one from a descriptor (no fdget_raw()): 3 % of a stat() and 2 % of an
 * unlink() on tmpfs, Linux 6.18 (tests/bench/at_cost.sh).  Nothing else
 * of clyde's resolves a path from the working directory (phases/ctx.h).
 */
static int work_in(int fd)
{
	return fchdir(fd) == 0 ? AT_FDCWD : fd;
}

/* -b: make directory d's entries durable, as bonnie++ does. */
static int sync_dir(struct phase_ctx *ctx, struct file_set *fs, unsigned d)
{
	char name[DIR_DIGITS_MAX + 1];
	const char *op = "fsync";
	int fd, err;

	if (!ctx->cfg->sync_writes || !fs->sync_dirs)
		return PHASE_OK;
	fd = dir_fd(fs, d);
	if (fd >= 0 && fsync(fd) == 0)
		return PHASE_OK;
	err = errno;
	if (fd < 0)
		op = "open";
	else if (err == EINVAL || err == ENOTSUP || err == EOPNOTSUPP) {
		/* some filesystems refuse fsync on a directory: stop asking, as bonnie++ */
		fs->sync_dirs = false;
		return PHASE_OK;
	}
	if (fs->dirs == 1)
		return phase_fail(ctx, FILES_DIR, op, err);
	dir_name(d, name);
	return fail_at(ctx, fs, FILES_DIR, name, op, err);
}

static int make_dirs(struct phase_ctx *ctx, struct file_set *fs)
{
	char name[DIR_DIGITS_MAX + 1];
	struct stat st;
	int err;

	if (mkdirat(ctx->scratch_fd, FILES_DIR, DIR_MODE) != 0)
		return phase_fail(ctx, FILES_DIR, "mkdir", errno);
	fs->top_fd = openat(ctx->scratch_fd, FILES_DIR,
	    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fs->top_fd < 0) {
		err = errno;
		unlinkat(ctx->scratch_fd, FILES_DIR, AT_REMOVEDIR);
		return phase_fail(ctx, FILES_DIR, "open", err);
	}
	/* for the rank that reads them with --shift */
	fs->dir_ino = fstat(fs->top_fd, &st) == 0 ? (uint64_t)st.st_ino : 0;
	if ((err = subdir_table(ctx, fs)) != PHASE_OK)
		return err;
	for (unsigned d = 0; fs->dirs > 1 && d < fs->dirs; d++) {
		if (phase_check_stop() != PHASE_OK)
			return PHASE_STOPPED;
		dir_name(d, name);
		if (mkdirat(fs->top_fd, name, DIR_MODE) != 0)
			return fail_at(ctx, fs, FILES_DIR, name, "mkdir",
			    errno);
		fs->subdirs_made++;
		if ((err = hold_subdir(ctx, fs, d)) != PHASE_OK)
			return err;
	}
	return PHASE_OK;
}

/* name is clyde's in directory d: a subdirectory's or a file's name */
static bool ours_in(const struct file_set *fs, unsigned d, const char *name)
{
	if (d == TOP_DIR && fs->dirs > 1)
		return our_subdir(fs, name);
	return our_file(fs, name, d == TOP_DIR ? 0 : d);
}

/*
 * What directory name (in parent) still holds, after a failed rmdir:
 * d is its number, or TOP_DIR for FILES_DIR itself.
 */
static void list_left(const struct file_set *fs, int parent, const char *name,
    unsigned d, struct leftovers *left)
{
	struct dirent *ent;
	DIR *dir;

	memset(left, 0, sizeof *left);
	if ((dir = open_dir(parent, name)) == NULL)
		return;
	while ((ent = readdir(dir)) != NULL) {
		const char *n = ent->d_name;

		if (is_dot_entry(n))
			continue;
		if (ours_in(fs, d, n)) {
			left->ours++;
			continue;
		}
		if (left->others++ == 0) {
			snprintf(left->first, sizeof left->first, "%s", n);
			mask_controls(left->first);
		}
		if (is_silly_rename(n))
			left->silly++;
	}
	closedir(dir);
}

/*
 * "; it holds NAME (and N more), not made by clyde" after msg, when
 * the directory holds names clyde did not make.
 */
static void tell_left(char *msg, size_t size, const struct leftovers *left)
{
	size_t n = strlen(msg);

	if (left->others == 0 || n >= size)
		return;
	if (left->others > 1)
		snprintf(msg + n, size - n, "; it holds %s (and %" PRIu32
		    " more), not made by clyde", left->first, left->others - 1);
	else
		snprintf(msg + n, size - n, "; it holds %s, not made by clyde",
		    left->first);
}

static int remove_dir(struct file_set *fs, struct phase_ctx *cleanup,
    int parent, const char *parent_rel, const char *name, unsigned d,
    struct leftovers *left, bool stoppable);

/*
 * Cleanup: remove again the names of clyde's that directory name (in
 * parent, at parent_rel inside the scratch directory; d as for
 * list_left()) still holds, which the filesystem had answered were gone.
 * Subdirectories of FILES_DIR go through remove_dir(); any other name
 * stays.
 */
static void remove_again(struct file_set *fs, struct phase_ctx *cleanup,
    int parent, const char *parent_rel, const char *name, unsigned d)
{
	char rel[MSG_PATH_BUF];
	struct leftovers sub;
	struct dirent *ent;
	DIR *dir;

	snprintf(rel, sizeof rel, "%s%s%s", parent_rel,
	    parent_rel[0] != '\0' ? "/" : "", name);
	if ((dir = open_dir(parent, name)) == NULL)
		return;
	while ((ent = readdir(dir)) != NULL) {
		const char *n = ent->d_name;

		if (!ours_in(fs, d, n))
			continue;
		if (d == TOP_DIR && fs->dirs > 1)
			remove_dir(fs, cleanup, dirfd(dir), rel, n,
			    (unsigned)strtoul(n, NULL, 10), &sub, false);
		else
			phase_remove(cleanup, dirfd(dir), rel, n, 0);
	}
	closedir(dir);
}

/*
 * rmdir name in parent; 0 or the errno.  A directory that is not empty
 * gets listed into *left; when it holds nothing but silly-renames (or
 * nothing to see: they may be gone already), those go once whoever
 * holds them closes them, so it is tried again after growing pauses,
 * within the run's DIR_WAIT_MS.  Anything else is never removed here.
 * stoppable: a stop signal ends the wait (EINTR).  cleanup, when not
 * NULL, makes the rmdir cleanup's (phase_remove(): a server that is away
 * is waited for, a stale parent passed over by the path parent_rel).
 */
static int remove_dir(struct file_set *fs, struct phase_ctx *cleanup,
    int parent, const char *parent_rel, const char *name, unsigned d,
    struct leftovers *left, bool stoppable)
{
	unsigned step = 10, again = 0;
	int err;

	memset(left, 0, sizeof *left);
	for (;;) {
		if (cleanup != NULL)
			err = phase_remove(cleanup, parent, parent_rel, name,
			    AT_REMOVEDIR);
		else
			err = unlinkat(parent, name, AT_REMOVEDIR) == 0 ? 0 : errno;
		if (err == 0)
			return 0;
		if (err != ENOTEMPTY && err != EEXIST && err != EBUSY)
			return err;
		list_left(fs, parent, name, d, left);
		if (left->ours > 0 && cleanup != NULL &&
		    phase_cleanup_again(cleanup, parent_rel, name, left->ours)) {
			/* the filesystem may need a moment to show them all */
			if (again > 0)
				pause_ms(again < DIR_WAIT_STEP_MAX ? again : DIR_WAIT_STEP_MAX);
			again = again == 0 ? 10 : again * 2;
			remove_again(fs, cleanup, parent, parent_rel, name, d);
			continue;
		}
		if (left->ours > 0 || left->others > left->silly ||
		    fs->wait_ms_left == 0)
			return err;
		if (stoppable && phase_check_stop() != PHASE_OK)
			return EINTR;
		if (step > fs->wait_ms_left)
			step = fs->wait_ms_left;
		fs->wait_ms_left -= step;
		pause_ms(step);
		step = step * 2 > DIR_WAIT_STEP_MAX ? DIR_WAIT_STEP_MAX : step * 2;
	}
}

/* A failed rmdir in a timed run: the error, and what the directory holds. */
static int fail_dir(struct phase_ctx *ctx, const char *path, int err,
    const struct leftovers *left)
{
	int rc = phase_fail(ctx, path, "rmdir", err);

	if (rc == PHASE_ERROR)
		tell_left(ctx->error, sizeof ctx->error, left);
	return rc;
}

/* Timed end of a delete run: the emptied directories go too. */
static int remove_dirs(struct phase_ctx *ctx, struct file_set *fs)
{
	char name[DIR_DIGITS_MAX + 1];
	struct leftovers left;
	int err;

	/* no descriptor of ours may keep anything in them alive */
	close_subdirs(fs);
	for (unsigned d = 0; d < fs->subdirs_made; d++) {
		char path[MSG_PATH_BUF];

		dir_name(d, name);
		err = remove_dir(fs, NULL, fs->top_fd, FILES_DIR, name, d, &left,
		    true);
		if (err != 0 && link_why(fs->top_fd, name, err) != NULL)
			return fail_open_dir(ctx, fs, fs->top_fd, name,
			    dir_msg(fs, d, path), err);
		if (err != 0) {
			snprintf(path, sizeof path, "%s/%s", FILES_DIR, name);
			return fail_dir(ctx, path, err, &left);
		}
	}
	fs->subdirs_made = 0;
	/* rmdir before close, so that a failure leaves the state cleanup needs */
	err = remove_dir(fs, NULL, ctx->scratch_fd, "", FILES_DIR, TOP_DIR, &left,
	    true);
	if (err != 0)
		return fail_dir(ctx, FILES_DIR, err, &left);
	close(fs->top_fd);
	fs->top_fd = -1;
	return PHASE_OK;
}

/*
 * Cleanup could not remove FILES_DIR/name (name NULL: FILES_DIR itself):
 * noted, the message comes later; for the first failure, with what a
 * directory still holds.
 */
static void note_left(struct phase_ctx *ctx, const char *name, int err,
    const struct leftovers *left)
{
	char path[MSG_PATH_BUF];
	unsigned before = ctx->cleanup_failures;

	if (err == 0 || err == ENOENT)
		return;
	if (name != NULL)
		snprintf(path, sizeof path, "%s/%s", FILES_DIR, name);
	else
		snprintf(path, sizeof path, "%s", FILES_DIR);
	phase_cleanup_failed(ctx, path, err);
	if (before == 0 && left != NULL)
		tell_left(ctx->cleanup_error, sizeof ctx->cleanup_error, left);
}

/*
 * Cleanup: directory name (msg inside the scratch directory) looked up
 * again in parent, a link not followed: its descriptor, or -1 (not
 * there; a symbolic link or a failure, noted).
 */
static int reopen_dir(struct phase_ctx *ctx, int parent, const char *name,
    const char *msg)
{
	int fd = hold_dir(parent, name, false), err = errno;
	const char *why;

	if (fd >= 0 || err == ENOENT)
		return fd;
	if ((why = link_why(parent, name, err)) != NULL)
		phase_cleanup_left(ctx, msg, why);
	else
		phase_cleanup_failed(ctx, msg, err);
	return -1;
}

/*
 * Untimed, FILES_DIR reached again (top): remove whatever of the name
 * list may exist, in the subdirectories reached again by name, then
 * those directories and FILES_DIR.
 */
static void remove_reached(struct phase_ctx *ctx, struct file_set *fs, int top)
{
	char path[PATH_BUF], msg_dir[MSG_DIR_BUF], rel[MSG_PATH_BUF];
	char name[DIR_DIGITS_MAX + 1];
	struct leftovers left;
	int err;

	for (unsigned d = 0; fs->sub_fd != NULL && d < fs->subdirs_made; d++) {
		dir_name(d, name);
		fs->sub_fd[d] = reopen_dir(ctx, top, name, dir_msg(fs, d, msg_dir));
	}
	for (uint32_t k = 0; k < fs->may_exist; k++) {
		uint32_t i = fs->order[k];
		int at = file_dir_fd(fs, i);

		if (at < 0)
			continue;       /* not reached: not there, or not ours */
		err = phase_remove(ctx, at, dir_msg(fs, dir_of(fs, i), msg_dir),
		    file_name(fs, i, path), 0);
		if (err != 0 && err != ENOENT) {
			snprintf(rel, sizeof rel, "%s/%s", msg_dir, path);
			phase_cleanup_failed(ctx, rel, err);
		}
	}
	for (unsigned d = 0; fs->sub_fd != NULL && d < fs->subdirs_made; d++) {
		if (fs->sub_fd[d] < 0)
			continue;
		close(fs->sub_fd[d]);
		fs->sub_fd[d] = -1;
		dir_name(d, name);
		err = remove_dir(fs, ctx, top, FILES_DIR, name, d, &left, false);
		if (err != 0)
			note_left(ctx, name, err, &left);
	}
	err = remove_dir(fs, ctx, ctx->scratch_fd, "", FILES_DIR, TOP_DIR,
	    &left, false);
	if (err != 0)
		note_left(ctx, NULL, err, &left);
}

/*
 * Untimed: remove what may exist of the files and their directories.
 * FILES_DIR and its subdirectories are looked up again by name, a link
 * not followed (held as they were, a directory moved away would be
 * emptied where it went): cleanup removes what it reaches from the
 * scratch directory, and nothing below a name that is no longer a
 * directory.  A name that was never made is ENOENT, no failure; any
 * other failure is noted for the message at the end of the run.
 */
static void remove_quietly(struct phase_ctx *ctx, struct file_set *fs)
{
	close_subdirs(fs);
	if (fs->top_fd >= 0) {
		int top = reopen_dir(ctx, ctx->scratch_fd, FILES_DIR, FILES_DIR);

		close(fs->top_fd);
		fs->top_fd = top;
		if (top >= 0) {
			remove_reached(ctx, fs, top);
			close(top);
		}
		fs->top_fd = -1;
	}
	fs->may_exist = 0;
	fs->subdirs_made = 0;
}

/* Create ---------------------------------------------------------------- */

/* With links, fs->first: one for each directory, none known; -1: no memory. */
static int first_table(const struct phase_ctx *ctx, struct file_set *fs)
{
	long max = ctx->cfg->files.max_size;

	if (max != FILES_HARDLINK && max != FILES_SYMLINK)
		return 0;
	free(fs->first);
	fs->first = calloc(fs->dirs, sizeof *fs->first);
	return fs->first != NULL ? 0 : -1;
}

/* Every directory's first file forgotten: a create phase makes new ones. */
static void first_reset(struct file_set *fs)
{
	for (unsigned d = 0; fs->first != NULL && d < fs->dirs; d++)
		fs->first[d].known = false;
}

static size_t seen_words(const struct file_set *fs)
{
	return ((size_t)fs->count + 63) / 64;
}

/* Every name not met: the state a walk starts from, after a flip. */
static void seen_reset(struct file_set *fs)
{
	memset(fs->seen, 0, seen_words(fs) * sizeof *fs->seen);
	fs->seen_as = false;
	fs->seen_ready = true;
}

/* The file set for cfg, allocated on first use; NULL with ctx->error set. */
static struct file_set *file_set_get(struct phase_ctx *ctx)
{
	uint64_t count = (uint64_t)ctx->cfg->files.count_k * FILE_UNIT;
	struct file_set *fs = ctx->state.files;

	if (count == 0 || count > UINT32_MAX || count > SIZE_MAX / sizeof *fs->order) {
		phase_fail(ctx, NULL, "file names", EOVERFLOW);
		return NULL;
	}
	if (fs == NULL) {
		fs = calloc(1, sizeof *fs);
		if (fs == NULL) {
			phase_fail(ctx, NULL, "file names", ENOMEM);
			return NULL;
		}
		fs->top_fd = -1;
		fs->cached_fd = -1;
		fs->sync_dirs = true;
		fs->wait_ms_left = DIR_WAIT_MS;
		ctx->state.files = fs;
	}
	if (fs->order == NULL) {
		fs->count = (uint32_t)count;
		fs->dirs = ctx->cfg->files.dirs ? ctx->cfg->files.dirs : 1;
		fs->order = malloc((size_t)count * sizeof *fs->order);
		fs->seen = malloc(seen_words(fs) * sizeof *fs->seen);
		if (fs->order == NULL || fs->seen == NULL ||
		    first_table(ctx, fs) != 0) {
			free(fs->order);
			free(fs->seen);
			fs->order = NULL;
			fs->seen = NULL;
			phase_fail(ctx, NULL, "file names", ENOMEM);
			return NULL;
		}
	}
	return fs;
}

/*
 * The order of the file names, made before the first phase, so that a
 * lack of memory refuses the run rather than failing it in the middle
 * (PHASE_ERROR, ctx->error saying so).
 */
static int phase_files_reserve(struct phase_ctx *ctx)
{
	unsigned k = ctx->cfg->files.count_k;

	if (file_set_get(ctx) != NULL)
		return PHASE_OK;
	snprintf(ctx->error, sizeof ctx->error, "-n %u: no memory for the "
	    "names of %llu files: %s", k, (unsigned long long)k * FILE_UNIT,
	    strerror(ENOMEM));
	return PHASE_ERROR;
}

/*
 * The family's descriptors() (phases/phase.h): the files directory, a
 * subdirectory, the file and, with -b, the directory synced; each of
 * -n's directories held open (with --shift, those of the rank read from
 * too).
 */
static unsigned long phase_files_descriptors(const struct config *cfg,
    const char **fewer)
{
	const struct files_spec *f = &cfg->files;

	*fewer = NULL;
	if (f->count_k == 0)
		return 0;
	if (f->dirs <= 1)
		return 3;
	*fewer = "fewer directories in -n (each is held open)";
	return 3 + (unsigned long)f->dirs * (cfg->shift != 0 ? 2 : 1) +
	    cfg->sync_writes;
}

static int create_prepare(struct phase_ctx *ctx, bool random_names)
{
	struct file_set *fs = file_set_get(ctx);

	if (fs == NULL)
		return PHASE_ERROR;
	remove_quietly(ctx, fs);        /* only if a delete never ran */
	fs->random_first = random_names;
	fs->key = draw_key(&ctx->rng);
	for (uint32_t i = 0; i < fs->count; i++)
		fs->order[i] = i;
	if (random_names)
		shuffle(fs, &ctx->rng);
	seen_reset(fs);
	first_reset(fs);
	return make_dirs(ctx, fs);
}

/* fail_close() for file name in directory d */
static int fail_close_file(struct phase_ctx *ctx, const struct file_set *fs,
    int fd, unsigned d, const char *name, const char *op, int err)
{
	char dir[MSG_DIR_BUF];

	return fail_close(ctx, fs, fd, dir_msg(fs, d, dir), name, op, err);
}

/* A new file name in directory d (at dfd); its fstat() in made, if not NULL */
static int write_new_file(struct phase_ctx *ctx, const struct file_set *fs,
    int dfd, const char *name, unsigned d, struct stat *made)
{
	uint64_t left = draw_size(ctx);
	size_t chunk = io_chunk(ctx);
	int fd = openat(dfd, name,
	    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, FILE_MODE);

	if (fd < 0)
		return fail_file(ctx, fs, d, name, "open", errno);
	if (made != NULL && fstat(fd, made) != 0)
		return fail_close_file(ctx, fs, fd, d, name, "fstat", errno);
	while (left > 0) {
		size_t n = left < chunk ? (size_t)left : chunk;
		ssize_t done = write_all(fd, ctx->buf, n);

		if (done != (ssize_t)n)
			return fail_close_file(ctx, fs, fd, d, name, "write",
			    done < 0 ? errno : EIO);
		left -= n;
		ctx->meter->bytes += n;
	}
	if (ctx->cfg->sync_writes && fsync(fd) != 0)
		return fail_close_file(ctx, fs, fd, d, name, "fsync", errno);
	if (close(fd) != 0)
		return fail_file(ctx, fs, d, name, "close", errno);
	return PHASE_OK;
}

/*
 * -n N:-1, -2: name in directory d (at) is its first file, made as any
 * other (one of the N, on the clock), or a link to that one by its name
 * in the same directory.  One call a link, as bonnie++.
 */
static int link_one(struct phase_ctx *ctx, struct file_set *fs, int at,
    const char *name, unsigned d, bool hard)
{
	struct first_file *f = &fs->first[d];
	struct stat st;
	int rc;

	if (f->known) {
		if ((hard ? linkat(at, f->name, at, name, 0) :
		    symlinkat(f->name, at, name)) == 0)
			return PHASE_OK;
		return fail_file(ctx, fs, d, name, hard ? "link" : "symlink",
		    errno);
	}
	if ((rc = write_new_file(ctx, fs, at, name, d, &st)) != PHASE_OK)
		return rc;
	snprintf(f->name, sizeof f->name, "%s", name);
	f->dev = st.st_dev;
	f->ino = st.st_ino;
	f->known = true;
	return PHASE_OK;
}

/*
 * Create file i, named in its directory d from at (that directory's
 * descriptor, or the working directory moved into it: work_in()).
 */
static int create_one(struct phase_ctx *ctx, struct file_set *fs, int at,
    uint32_t i, unsigned d)
{
	char buf[PATH_BUF];
	const char *name = file_name(fs, i, buf);
	int rc;

	if (fs->first != NULL)
		rc = link_one(ctx, fs, at, name, d,
		    ctx->cfg->files.max_size == FILES_HARDLINK);
	else
		rc = write_new_file(ctx, fs, at, name, d, NULL);
	return rc != PHASE_OK ? rc : sync_dir(ctx, fs, d);
}

static struct file_set *need_files(struct phase_ctx *ctx)
{
	struct file_set *fs = ctx->state.files;

	if (fs == NULL || fs->top_fd < 0) {
		fail_text(ctx, fs, "%s: no small files: their create phase "
		    "has not run", FILES_DIR);
		return NULL;
	}
	return fs;
}

/*
 * The set a stat phase reads: ours, or with --shift that of the rank
 * this one reads from, as it said after its create phase.
 */
static struct file_set *stat_files(struct phase_ctx *ctx)
{
	struct file_set *fs = need_files(ctx);

	if (fs == NULL || !ctx->read_other)
		return fs;
	if (fs->theirs == NULL || fs->theirs->top_fd < 0) {
		phase_fail_in(ctx, ctx->read_dir_name, FILES_DIR, "--shift: "
		    "the rank that made them did not say which small files "
		    "it made", 0);
		return NULL;
	}
	return fs->theirs;
}

/*
 * Where a timed loop over the files names each from: with one directory,
 * the working directory, moved into FILES_DIR before the loop (work_in());
 * in name order, the working directory too, moved into each subdirectory
 * as the files reach it; in random order, the held descriptor of the
 * file's subdirectory (an fchdir() a file would cost more than naming
 * from the working directory saves).
 */
struct place {
	bool in_order;
	unsigned dir;           /* the working directory's subdirectory */
	int at;
};

static void place_begin(const struct file_set *fs, struct place *pl,
    bool in_order)
{
	pl->in_order = in_order;
	pl->dir = fs->dirs;
	pl->at = fs->dirs == 1 ? work_in(fs->top_fd) : -1;
}

/* What the calls on a file of directory d start from. */
static int place_of(const struct file_set *fs, struct place *pl, unsigned d)
{
	if (fs->dirs == 1)
		return pl->at;
	if (!pl->in_order)
		return fs->sub_fd[d];
	if (d != pl->dir) {
		pl->at = work_in(fs->sub_fd[d]);
		pl->dir = d;
	}
	return pl->at;
}

static int create_run(struct phase_ctx *ctx)
{
	struct file_set *fs = need_files(ctx);
	struct place pl;
	uint64_t start;

	if (fs == NULL)
		return PHASE_ERROR;
	/* the sequential create makes the files by number, so dir by dir */
	place_begin(fs, &pl, !fs->random_first);
	start = op_clock();
	for (uint32_t k = 0; k < fs->count; k++) {
		uint32_t i = fs->order[k];
		unsigned d = dir_of(fs, i);
		int rc = phase_check_stop();

		if (rc != PHASE_OK)
			return rc;
		/* before the attempt: a failed write still leaves the file */
		fs->may_exist = k + 1;
		rc = create_one(ctx, fs, place_of(fs, &pl, d), i, d);
		if (rc != PHASE_OK)
			return rc;
		lap(ctx->meter, &start);
	}
	sync();
	return PHASE_OK;
}

/* Stat ------------------------------------------------------------------ */

/* Symbolic links are followed (as bonnie++'s stat()): ours stay inside. */
static int stat_flags(const struct phase_ctx *ctx)
{
	return ctx->cfg->files.max_size == FILES_SYMLINK ? 0 : AT_SYMLINK_NOFOLLOW;
}

/*
 * Read the file that st says name is.  Opened without waiting: a FIFO
 * put under its name after the stat() would hold the open() for ever.
 */
static int read_file(struct phase_ctx *ctx, const struct file_set *fs,
    int dfd, const char *name, unsigned d, const struct stat *st)
{
	char dir[MSG_DIR_BUF];
	size_t chunk = io_chunk(ctx);
	uint64_t size = (uint64_t)st->st_size;
	struct stat now;
	int fd = openat(dfd, name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW |
	    O_CLOEXEC);

	if (fd < 0)
		return fail_file(ctx, fs, d, name, "open", errno);
	if (fstat(fd, &now) != 0 || fd_blocking(fd) != 0)
		return fail_close(ctx, fs, fd, dir_msg(fs, d, dir), name,
		    "open", errno);
	if (now.st_dev != st->st_dev || now.st_ino != st->st_ino) {
		close(fd);
		return fail_text(ctx, fs, "%s/%s: another file was put under "
		    "its name after its stat; not read", dir_msg(fs, d, dir),
		    name);
	}
	while (size > 0) {
		size_t n = size < chunk ? (size_t)size : chunk;
		ssize_t got = read_all(fd, ctx->buf, n);

		if (got < 0)
			return fail_close(ctx, fs, fd, dir_msg(fs, d, dir), name,
			    "read", errno);
		if ((size_t)got < n) {
			close(fd);
			return fail_text(ctx, fs, "%s/%s: read: file ended "
			    "before its size", dir_msg(fs, d, dir), name);
		}
		size -= n;
		ctx->meter->bytes += n;
	}
	if (close(fd) != 0)
		return fail_file(ctx, fs, d, name, "close", errno);
	return PHASE_OK;
}

/*
 * Entry name of directory d (at dfd) is not its first file: the phase
 * fails naming the name swapped, the first file when it is no longer
 * the one its links lead to, else this one.
 */
static int fail_linked(struct phase_ctx *ctx, const struct file_set *fs,
    int dfd, const char *name, unsigned d)
{
	const struct first_file *f = &fs->first[d];
	char dir[MSG_DIR_BUF];
	struct stat st;

	if (f->known && strcmp(name, f->name) != 0 &&
	    fstatat(dfd, f->name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    (st.st_dev != f->dev || st.st_ino != f->ino))
		name = f->name;
	return fail_text(ctx, fs, "%s/%s: not the file clyde made: another "
	    "file was put under its name; nothing read", dir_msg(fs, d, dir),
	    name);
}

/*
 * With links, entry name of directory d (at dfd), st as stat() says,
 * must be that directory's first file.  Ours: the inode made.  --shift,
 * theirs: the record names no inode, so the first name met in each
 * directory says it, and every name must be that inode, empty (a file
 * clyde makes there is): whatever was put in place, nothing is read in
 * these modes.
 */
static int check_linked(struct phase_ctx *ctx, struct file_set *fs,
    int dfd, const char *name, unsigned d, const struct stat *st)
{
	struct first_file *f = &fs->first[d];

	if (f->known && st->st_dev == f->dev && st->st_ino == f->ino &&
	    (!fs->learn_first || st->st_size == 0))
		return PHASE_OK;
	if (f->known || !fs->learn_first || !S_ISREG(st->st_mode) ||
	    st->st_size != 0)
		return fail_linked(ctx, fs, dfd, name, d);
	snprintf(f->name, sizeof f->name, "%s", name);
	f->dev = st->st_dev;
	f->ino = st->st_ino;
	f->known = true;
	return PHASE_OK;
}

/*
 * stat() one entry, and read its data if it has any.  A link must lead
 * to its directory's first file (check_linked()): a file put in place of
 * either is not read.
 */
static int stat_entry(struct phase_ctx *ctx, struct file_set *fs,
    int dfd, const char *name, unsigned d)
{
	struct stat st;

	if (fstatat(dfd, name, &st, stat_flags(ctx)) != 0)
		return fail_file(ctx, fs, d, name, "stat", errno);
	if (fs->first != NULL)
		return check_linked(ctx, fs, dfd, name, d, &st);
	if (S_ISREG(st.st_mode) && st.st_size > 0)
		return read_file(ctx, fs, dfd, name, d, &st);
	return PHASE_OK;
}

/* Delete ---------------------------------------------------------------- */

static int unlink_entry(struct phase_ctx *ctx, struct file_set *fs, int dfd,
    const char *name, unsigned d)
{
	if (unlinkat(dfd, name, 0) != 0)
		return fail_file(ctx, fs, d, name, "unlink", errno);
	return sync_dir(ctx, fs, d);
}

/* Sequential walks ------------------------------------------------------ */

/* One sequential stat or delete over every directory. */
struct walk {
	bool remove;
	uint64_t start;                 /* the latency clock */
	uint64_t skipped;               /* names a first pass did not return */
	uint64_t foreign;               /* names clyde did not make, left */
	char foreign_path[MSG_PATH_BUF];        /* the first, in FILES_DIR */
};

static bool met(const struct file_set *fs, uint32_t i)
{
	return (bool)(fs->seen[i >> 6] >> (i & 63) & 1) == fs->seen_as;
}

static void meet(struct file_set *fs, uint32_t i)
{
	fs->seen[i >> 6] ^= (uint64_t)1 << (i & 63);
}

/*
 * One readdir() pass over directory d (open as dir on fd): stat or
 * unlink each of its names not met yet, counted in *found.  Names clyde
 * did not make are counted in *foreign and left; silly-renames are left
 * for remove_dir().
 */
static int walk_pass(struct phase_ctx *ctx, struct file_set *fs, unsigned d,
    DIR *dir, int at, const char *msg_dir, struct walk *w, uint32_t *found,
    uint64_t *foreign)
{
	uint32_t lo = dir_first(fs, d), hi = dir_first(fs, d + 1);

	for (;;) {
		struct dirent *ent;
		uint32_t i;
		int rc;

		if ((rc = phase_check_stop()) != PHASE_OK)
			return rc;
		errno = 0;
		ent = readdir(dir);
		if (ent == NULL)
			return errno != 0 ? fail_in(ctx, fs, msg_dir, "readdir",
			    errno) : PHASE_OK;
		i = seq_index(fs, ent->d_name, lo, hi);
		if (i == NOT_OURS) {
			if (is_dot_entry(ent->d_name) ||
			    is_silly_rename(ent->d_name))
				continue;
			if ((*foreign)++ == 0 && w->foreign_path[0] == '\0')
				snprintf(w->foreign_path, sizeof w->foreign_path,
				    "%s/%s", msg_dir, ent->d_name);
			continue;
		}
		if (met(fs, i))
			continue;
		rc = w->remove ? unlink_entry(ctx, fs, at, ent->d_name, d)
		    : stat_entry(ctx, fs, at, ent->d_name, d);
		if (rc != PHASE_OK)
			return rc;
		meet(fs, i);
		(*found)++;
		lap(ctx->meter, &w->start);
	}
}

/* A pass found none of the names still missing in directory d. */
static int fail_missing(struct phase_ctx *ctx, struct file_set *fs,
    unsigned d, uint32_t missing, unsigned passes)
{
	char buf[PATH_BUF], dir[MSG_DIR_BUF];
	uint32_t i = dir_first(fs, d);

	while (met(fs, i))
		i++;
	return fail_text(ctx, fs, "%s/%s: not found by readdir in %u passes "
	    "(%" PRIu32 " of clyde's files missing)", dir_msg(fs, d, dir),
	    file_name(fs, i, buf), passes, missing);
}

/*
 * readdir() directory d and stat or unlink every one of its names; read
 * it again while a pass finds some that the ones before missed.
 */
static int walk_dir(struct phase_ctx *ctx, struct file_set *fs, unsigned d,
    struct walk *w)
{
	char msg_dir[MSG_DIR_BUF], rel[DIR_DIGITS_MAX + 1] = ".";
	uint32_t want = dir_first(fs, d + 1) - dir_first(fs, d), found = 0;
	uint64_t most_foreign = 0;
	DIR *dir;
	int fd, at, rc = PHASE_OK;

	dir_msg(fs, d, msg_dir);
	if (fs->dirs > 1)
		dir_name(d, rel);
	/*
	 * By its name, a link not followed; a new descriptor each time: a
	 * dup() would share the read position
	 */
	fd = openat(fs->top_fd, rel, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return fail_open_dir(ctx, fs, fs->top_fd, rel, msg_dir, errno);
	dir = fdopendir(fd);
	if (dir == NULL) {
		int err = errno;

		close(fd);
		return fail_in(ctx, fs, msg_dir, "opendir", err);
	}
	at = work_in(fd);
	for (unsigned pass = 1; ; pass++) {
		uint32_t before = found;
		uint64_t foreign = 0;

		if (pass > ctx->meter->readdir_passes)
			ctx->meter->readdir_passes = pass;
		rc = walk_pass(ctx, fs, d, dir, at, msg_dir, w, &found, &foreign);
		if (foreign > most_foreign)
			most_foreign = foreign;
		if (rc != PHASE_OK || found == want)
			break;
		if (found == before) {
			rc = fail_missing(ctx, fs, d, want - found, pass);
			break;
		}
		if (pass == 1)
			w->skipped += want - found;
		rewinddir(dir);
	}
	w->foreign += most_foreign;
	closedir(dir);
	return rc;
}

static int walk_all(struct phase_ctx *ctx, struct file_set *fs, bool remove)
{
	struct walk w;
	int rc;

	if (fs == NULL)
		return PHASE_ERROR;
	memset(&w, 0, sizeof w);
	w.remove = remove;
	/* only after a walk that failed, and then the run has ended */
	if (!fs->seen_ready)
		seen_reset(fs);
	fs->seen_as = !fs->seen_as;
	fs->seen_ready = false;
	w.start = op_clock();
	for (unsigned d = 0; d < fs->dirs; d++) {
		rc = walk_dir(ctx, fs, d, &w);
		if (rc != PHASE_OK)
			return rc;
	}
	/* every name met: each bit now equals seen_as */
	fs->seen_ready = true;
	if (ctx->meter->readdir_passes > 1)
		snprintf(ctx->meter->notice, sizeof ctx->meter->notice,
		    "%s: %s/%s: the directory read skipped %" PRIu64 " names; "
		    "read again (%u passes)", ctx->label, where(ctx, fs),
		    FILES_DIR, w.skipped, ctx->meter->readdir_passes);
	if (remove)
		fs->may_exist = 0;      /* every name of ours is gone */
	if (w.foreign > 1)
		return fail_text(ctx, fs, "%s: not made by clyde; left in "
		    "place (and %" PRIu64 " more)", w.foreign_path,
		    w.foreign - 1);
	if (w.foreign > 0)
		return fail_text(ctx, fs, "%s: not made by clyde; left in "
		    "place", w.foreign_path);
	if (remove) {
		if ((rc = remove_dirs(ctx, fs)) != PHASE_OK)
			return rc;
		sync();
	}
	return PHASE_OK;
}

/* Random order ---------------------------------------------------------- */

static int reshuffle(struct phase_ctx *ctx)
{
	struct file_set *fs = need_files(ctx);

	if (fs == NULL || check_subdirs(ctx, fs) != PHASE_OK)
		return PHASE_ERROR;
	shuffle(fs, &ctx->rng);
	/* after a partial create, which names exist is no longer a prefix */
	if (fs->may_exist > 0)
		fs->may_exist = fs->count;
	return PHASE_OK;
}

/* stat (remove false) or unlink every file in the order of fs->order. */
static int each_in_order(struct phase_ctx *ctx, struct file_set *fs,
    bool remove)
{
	struct place pl;
	uint64_t start;
	char buf[PATH_BUF];

	if (fs == NULL)
		return PHASE_ERROR;
	place_begin(fs, &pl, false);
	start = op_clock();
	for (uint32_t k = 0; k < fs->count; k++) {
		uint32_t i = fs->order[k];
		unsigned d = dir_of(fs, i);
		const char *name = file_name(fs, i, buf);
		int at = place_of(fs, &pl, d), rc = phase_check_stop();

		if (rc == PHASE_OK)
			rc = remove ? unlink_entry(ctx, fs, at, name, d)
			    : stat_entry(ctx, fs, at, name, d);
		if (rc != PHASE_OK)
			return rc;
		lap(ctx->meter, &start);
	}
	return PHASE_OK;
}

/* The phases ------------------------------------------------------------ */

static int phase_seq_create_prepare(struct phase_ctx *ctx)
{
	return create_prepare(ctx, false);
}

static int phase_seq_create_run(struct phase_ctx *ctx)
{
	return create_run(ctx);
}

static int phase_seq_stat_run(struct phase_ctx *ctx)
{
	return walk_all(ctx, stat_files(ctx), false);
}

static int phase_seq_del_run(struct phase_ctx *ctx)
{
	return walk_all(ctx, need_files(ctx), true);
}

static int phase_ran_create_prepare(struct phase_ctx *ctx)
{
	return create_prepare(ctx, true);
}

static int phase_ran_create_run(struct phase_ctx *ctx)
{
	return create_run(ctx);
}

static int phase_ran_stat_prepare(struct phase_ctx *ctx)
{
	struct file_set *fs;
	int rc = reshuffle(ctx);

	if (rc != PHASE_OK || !ctx->read_other)
		return rc;
	/* theirs, in an order of this rank's drawing */
	if ((fs = stat_files(ctx)) == NULL)
		return PHASE_ERROR;
	shuffle(fs, &ctx->rng);
	/* their subdirectories, by name, released after the phase */
	close_subdirs(fs);
	if ((rc = subdir_table(ctx, fs)) != PHASE_OK)
		return rc;
	for (unsigned d = 0; fs->dirs > 1 && d < fs->dirs; d++)
		if ((rc = hold_subdir(ctx, fs, d)) != PHASE_OK)
			return rc;
	return PHASE_OK;
}

static int phase_ran_stat_run(struct phase_ctx *ctx)
{
	return each_in_order(ctx, stat_files(ctx), false);
}

static int phase_ran_del_prepare(struct phase_ctx *ctx)
{
	return reshuffle(ctx);
}

static int phase_ran_del_run(struct phase_ctx *ctx)
{
	struct file_set *fs = need_files(ctx);
	int rc = each_in_order(ctx, fs, true);

	if (rc != PHASE_OK)
		return rc;
	if ((rc = remove_dirs(ctx, fs)) != PHASE_OK)
		return rc;
	fs->may_exist = 0;
	sync();
	return PHASE_OK;
}

/* --shift ---------------------------------------------------------------- */

/*
 * After each create phase a rank tells the rank that reads its small
 * files (run/runner.c) where they are and their names; that rank's stat
 * phases then work on those, in its scratch directory, and never create
 * nor remove any.  What a rank made, as phase_files_made() says it:
 * the key the names come from, not a list.
 */
struct files_made {
	uint64_t key;                   /* what the names' random parts come from */
	uint64_t dir_ino;               /* its files directory (0: none made) */
	uint32_t count;
	uint32_t random_first;          /* the random phases' names */
};

_Static_assert(sizeof(struct files_made) <= PHASE_MADE_MAX,
    "what the small-file phases made fits in what made() writes");

static size_t phase_files_made(const struct phase_ctx *ctx, void *out)
{
	const struct file_set *fs = ctx->state.files;
	struct files_made *made = out;

	memset(made, 0, sizeof *made);
	if (fs == NULL || fs->top_fd < 0 || fs->order == NULL)
		return sizeof *made;
	/* the names, not the order: that is the reader's to draw */
	made->key = fs->key;
	made->count = fs->count;
	made->random_first = fs->random_first;
	made->dir_ino = fs->dir_ino;
	return sizeof *made;
}

/* Close what this rank has open of theirs: they go in their delete phase. */
static void close_theirs(struct file_set *th)
{
	close_subdirs(th);
	if (th->top_fd >= 0)
		close(th->top_fd);
	th->top_fd = -1;
}

static void free_set(struct file_set *fs)
{
	free(fs->order);
	free(fs->seen);
	free(fs->sub_fd);
	free(fs->first);
	free(fs);
}

/*
 * The small files of the rank read from (ctx->read_fd), its directory
 * opened and checked (PHASE_ERROR with ctx->error when it cannot be).
 */
static int phase_files_theirs(struct phase_ctx *ctx, const void *in)
{
	const struct files_made *made = in;
	struct file_set *fs = need_files(ctx), *th;
	struct stat st;

	if (fs == NULL)
		return PHASE_ERROR;
	if ((th = fs->theirs) == NULL) {
		th = calloc(1, sizeof *th);
		if (th == NULL)
			return phase_fail(ctx, NULL, "--shift: the names of "
			    "their small files", ENOMEM);
		th->top_fd = -1;
		th->cached_fd = -1;
		th->order = malloc((size_t)fs->count * sizeof *th->order);
		th->dirs = fs->dirs;
		th->seen = malloc(seen_words(fs) * sizeof *th->seen);
		th->learn_first = true;
		if (th->order == NULL || th->seen == NULL ||
		    first_table(ctx, th) != 0) {
			free_set(th);
			return phase_fail(ctx, NULL, "--shift: the names of "
			    "their small files", ENOMEM);
		}
		fs->theirs = th;
	}
	close_theirs(th);
	th->count = fs->count;
	th->dirs = fs->dirs;
	th->in = ctx->read_dir_name;
	/* their first files, as their stat phase meets them */
	first_reset(th);
	if (made->count != fs->count || made->dir_ino == 0)
		return fail_in(ctx, th, FILES_DIR, "--shift: the rank that "
		    "made them did not say which small files it made", 0);
	/* the directory that rank made, as a data file is checked; this
	 * host may show the one it removed for a while (phase_stale_again()) */
	for (int64_t until = 0;; close_theirs(th)) {
		th->top_fd = openat(ctx->read_fd, FILES_DIR,
		    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (th->top_fd < 0 && phase_stale_again(&until, errno))
			continue;
		if (th->top_fd < 0)
			return fail_in(ctx, th, FILES_DIR, "open", errno);
		if (fstat(th->top_fd, &st) != 0)
			return fail_in(ctx, th, FILES_DIR, "fstat", errno);
		if ((uint64_t)st.st_ino == made->dir_ino)
			break;
		if (!phase_stale_again(&until, 0))
			return fail_in(ctx, th, FILES_DIR, "not the directory "
			    "the rank read from made: another was put under "
			    "its name; nothing read", 0);
	}
	th->random_first = made->random_first != 0;
	th->key = made->key;
	for (uint32_t i = 0; i < th->count; i++)
		th->order[i] = i;
	seen_reset(th);
	return PHASE_OK;
}

/* After a stat phase: theirs closed, before their delete phase. */
static void phase_files_release(struct phase_ctx *ctx)
{
	if (ctx->state.files != NULL && ctx->state.files->theirs != NULL)
		close_theirs(ctx->state.files->theirs);
}

/* Remove every file and directory the small-file phases made; free memory. */
static void phase_files_cleanup(struct phase_ctx *ctx)
{
	struct file_set *fs = ctx->state.files;

	if (fs == NULL)
		return;
	if (fs->theirs != NULL) {
		close_theirs(fs->theirs);
		free_set(fs->theirs);
		fs->theirs = NULL;
	}
	remove_quietly(ctx, fs);
	free_set(fs);
	ctx->state.files = NULL;
}

static bool files_enabled(const struct config *cfg)
{
	return cfg->files.count_k > 0;
}

/* The small-file phases, at the first point of a sweep alone. */
static const struct phase_def files_phases[] = {
	{ PH_SEQ_CREATE, "sequential create", "Create files in sequential order...",
	  "done.\n", files_enabled, phase_seq_create_prepare, phase_seq_create_run,
	  NULL, false, true, NULL, NULL },
	{ PH_SEQ_STAT, "sequential stat", "Stat files in sequential order...",
	  "done.\n", files_enabled, NULL, phase_seq_stat_run,
	  phase_files_release, false, false, NULL, NULL },
	{ PH_SEQ_DEL, "sequential delete", "Delete files in sequential order...",
	  "done.\n", files_enabled, NULL, phase_seq_del_run,
	  NULL, false, false, NULL, NULL },
	{ PH_RAN_CREATE, "random create", "Create files in random order...",
	  "done.\n", files_enabled, phase_ran_create_prepare, phase_ran_create_run,
	  NULL, false, true, NULL, NULL },
	{ PH_RAN_STAT, "random stat", "Stat files in random order...",
	  "done.\n", files_enabled, phase_ran_stat_prepare, phase_ran_stat_run,
	  phase_files_release, false, false, NULL, NULL },
	{ PH_RAN_DEL, "random delete", "Delete files in random order...",
	  "done.\n", files_enabled, phase_ran_del_prepare, phase_ran_del_run,
	  NULL, false, false, NULL, NULL },
};

const struct phase_family phase_family_files = {
	.name = "files",
	.phases = files_phases,
	.nphases = sizeof(files_phases) / sizeof(files_phases[0]),
	.reserve = phase_files_reserve,
	.made = phase_files_made,
	.theirs = phase_files_theirs,
	.made_what = "small files",
	.theirs_agreed = true,
	.cleanup = phase_files_cleanup,
	.descriptors = phase_files_descriptors,
};
