/*
 * phase_dirs.c: the directory phases of --dirs: mkdir, stat and rmdir of
 * N x 1024 directories in a tree, first in tree order, then at random.
 *
 * Inside the scratch directory:
 *   dirs/                          made by a create prepare, removed by a
 *                                  delete run
 *   dirs/0000000000/000000000a/    the tree
 *
 * The directories are numbered breadth first: level 1 (in dirs/) first,
 * each level in the order of its parents.  Levels 1 to DEPTH - 1 give
 * each directory FANOUT children, until the count runs out; the last
 * level holds the rest, spread evenly over the level above it, each
 * parent's children a run of numbers.  A directory's name is its number
 * as COUNTER_DIGITS hex digits: a name read back says whose it is and
 * under which parent it belongs.
 *
 * Tree order: mkdir by number (parents first); stat and rmdir read each
 * parent with readdir(), as bonnie++'s sequential phases read theirs,
 * stat from the top down, rmdir from the last parent up (leaves first).
 * A pass that missed some of clyde's names is read again (network
 * filesystems skip entries when others are removed during the read).
 * Random order: mkdir and rmdir a level at a time (parents before their
 * children, children before their parents), in a shuffle of each level;
 * stat in one shuffle of all.  Those go by path from dirs/.
 *
 * Only names clyde made are stat'ed or removed: any other name in the
 * tree is left in place and named, and the phase fails; rmdir never
 * removes a directory that holds anything.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "phase_dirs.h"
#include "phase_names.h"

#define DIRS_DIR        "dirs"
#define DIR_MODE        0700
/* the path of the deepest directory from DIRS_DIR, and its NUL */
#define TREE_PATH_BUF   (DIRS_DEPTH_MAX * (COUNTER_DIGITS + 1))
#define MSG_PATH_BUF    (sizeof DIRS_DIR + TREE_PATH_BUF + 256)
/* DIRS_DIR itself, as the parent of level 1 */
#define ROOT            NOT_OURS

struct dir_tree {
	uint32_t count;
	unsigned levels;                /* levels that have directories */
	/* the first number of level k, from 1; start[levels + 1] == count */
	uint32_t start[DIRS_DEPTH_MAX + 2];
	uint32_t *order;                /* the random phases' order */
	uint64_t *met;                  /* the walks: a bit a directory */
	int top_fd;                     /* DIRS_DIR, or -1 while it does not exist */
	bool may_exist;                 /* some of the tree may be on disk */
};

/* The tree --------------------------------------------------------------- */

/* directories on level k; level 0 is DIRS_DIR */
static uint32_t level_size(const struct dir_tree *t, unsigned k)
{
	return k == 0 ? 1 : t->start[k + 1] - t->start[k];
}

static unsigned level_of(const struct dir_tree *t, uint32_t i)
{
	unsigned k = 1;

	while (i >= t->start[k + 1])
		k++;
	return k;
}

/* the parent of directory i, on level k >= 2 */
static uint32_t parent_of(const struct dir_tree *t, uint32_t i, unsigned k)
{
	return t->start[k - 1] + spread_part(i - t->start[k],
	    level_size(t, k - 1), level_size(t, k));
}

/* the children of q (ROOT for DIRS_DIR): numbers *lo .. *hi - 1 */
static void children_of(const struct dir_tree *t, uint32_t q, uint32_t *lo,
    uint32_t *hi)
{
	unsigned k = q == ROOT ? 0 : level_of(t, q);
	uint32_t p = q == ROOT ? 0 : q - t->start[k];

	if (k >= t->levels) {
		*lo = *hi = 0;
		return;
	}
	*lo = t->start[k + 1] + spread_first(p, level_size(t, k),
	    level_size(t, k + 1));
	*hi = t->start[k + 1] + spread_first(p + 1, level_size(t, k),
	    level_size(t, k + 1));
}

/* The path of directory i from DIRS_DIR (ROOT: "."); out has TREE_PATH_BUF. */
static const char *dir_path(const struct dir_tree *t, uint32_t i, char *out)
{
	uint32_t chain[DIRS_DEPTH_MAX];
	unsigned k, n = 0;
	char *p = out;

	if (i == ROOT)
		return strcpy(out, ".");
	for (k = level_of(t, i); ; k--) {
		chain[n++] = i;
		if (k == 1)
			break;
		i = parent_of(t, i, k);
	}
	while (n > 0) {
		counter_put(p, chain[--n]);
		p += COUNTER_DIGITS;
		*p++ = '/';
	}
	p[-1] = '\0';
	return out;
}

/* The levels of count directories, depth and fanout as configured. */
static void lay_out(struct dir_tree *t, const struct dirs_spec *spec)
{
	uint64_t left = t->count, prev = 1;
	unsigned k = 0;

	t->start[1] = 0;
	while (left > 0) {
		uint64_t size = ++k < spec->depth ? prev * spec->fanout : left;

		if (size > left)
			size = left;
		t->start[k + 1] = t->start[k] + (uint32_t)size;
		left -= size;
		prev = size;
	}
	t->levels = k;
}

static size_t met_words(const struct dir_tree *t)
{
	return ((size_t)t->count + 63) / 64;
}

/* The tree for cfg, allocated on first use; NULL with ctx->error set. */
static struct dir_tree *tree_get(struct phase_ctx *ctx)
{
	uint64_t count = (uint64_t)ctx->cfg->dirs.count_k * FILE_UNIT;
	struct dir_tree *t = ctx->dirs;

	if (t != NULL)
		return t;
	if (count == 0 || count >= NOT_OURS) {
		phase_fail(ctx, NULL, "directory table", EOVERFLOW);
		return NULL;
	}
	t = calloc(1, sizeof *t);
	if (t != NULL) {
		t->count = (uint32_t)count;
		t->top_fd = -1;
		t->order = malloc((size_t)count * sizeof *t->order);
		t->met = malloc(met_words(t) * sizeof *t->met);
	}
	if (t == NULL || t->order == NULL || t->met == NULL) {
		if (t != NULL) {
			free(t->order);
			free(t->met);
			free(t);
		}
		phase_fail(ctx, NULL, "directory table", ENOMEM);
		return NULL;
	}
	lay_out(t, &ctx->cfg->dirs);
	ctx->dirs = t;
	return t;
}

int phase_dirs_reserve(struct phase_ctx *ctx)
{
	return tree_get(ctx) != NULL ? PHASE_OK : PHASE_ERROR;
}

static struct dir_tree *need_tree(struct phase_ctx *ctx)
{
	struct dir_tree *t = ctx->dirs;

	if (t == NULL || t->top_fd < 0) {
		snprintf(ctx->error, sizeof ctx->error, "%s: %s/%s: no "
		    "directories: their create phase has not run", ctx->label,
		    ctx->scratch_name, DIRS_DIR);
		return NULL;
	}
	return t;
}

/* phase_fail() for DIRS_DIR/rel, so that paths are only joined on failure */
static int fail_at(struct phase_ctx *ctx, const char *rel, const char *op,
    int err)
{
	char path[MSG_PATH_BUF];

	snprintf(path, sizeof path, "%s/%s", DIRS_DIR, rel);
	return phase_fail(ctx, path, op, err);
}

/* rel/name, or name in DIRS_DIR itself (rel "."), for messages */
static const char *join(char *out, size_t n, const char *rel,
    const char *name)
{
	if (strcmp(rel, ".") == 0)
		snprintf(out, n, "%s", name);
	else
		snprintf(out, n, "%s/%s", rel, name);
	return out;
}

/* One directory done: its latency sample and its count. */
static void lap(struct phase_meter *meter, uint64_t *start)
{
	latency_lap(&meter->lat, start);
	meter->ops++;
}

/* Orders ----------------------------------------------------------------- */

/* Fisher-Yates on order[from .. to) */
static void shuffle(uint32_t *order, uint32_t from, uint32_t to,
    struct rng *rng)
{
	for (uint32_t k = to - from; k > 1; k--) {
		uint32_t j = from + rng_below(rng, k);
		uint32_t t = order[from + k - 1];

		order[from + k - 1] = order[j];
		order[j] = t;
	}
}

/* Every level shuffled in itself: from the top down, or from the bottom up. */
static void level_order(struct dir_tree *t, struct rng *rng, bool bottom_up)
{
	uint32_t n = 0;

	for (unsigned j = 1; j <= t->levels; j++) {
		unsigned k = bottom_up ? t->levels + 1 - j : j;
		uint32_t from = n;

		for (uint32_t i = t->start[k]; i < t->start[k + 1]; i++)
			t->order[n++] = i;
		shuffle(t->order, from, n, rng);
	}
}

/* Make and remove -------------------------------------------------------- */

/*
 * Untimed: remove whatever of the tree may exist, deepest first, then
 * DIRS_DIR.  A directory never made is ENOENT, no failure; any other
 * failure is noted for the message at the end of the run.
 */
static void remove_quietly(struct phase_ctx *ctx, struct dir_tree *t)
{
	char path[TREE_PATH_BUF], msg[MSG_PATH_BUF];

	if (t->top_fd < 0)
		return;
	for (uint32_t i = t->count; t->may_exist && i-- > 0;) {
		int err = phase_remove(ctx, t->top_fd, DIRS_DIR,
		    dir_path(t, i, path), AT_REMOVEDIR);

		if (err != 0 && err != ENOENT) {
			snprintf(msg, sizeof msg, "%s/%s", DIRS_DIR, path);
			phase_cleanup_failed(ctx, msg, err);
		}
	}
	t->may_exist = false;
	phase_cleanup_failed(ctx, DIRS_DIR, phase_remove(ctx, ctx->scratch_fd,
	    "", DIRS_DIR, AT_REMOVEDIR));
	close(t->top_fd);
	t->top_fd = -1;
}

/* Untimed, before a create: DIRS_DIR, empty. */
static int create_prepare(struct phase_ctx *ctx, bool random)
{
	struct dir_tree *t = tree_get(ctx);

	if (t == NULL)
		return PHASE_ERROR;
	remove_quietly(ctx, t);         /* only if a delete never ran */
	if (random)
		level_order(t, &ctx->rng, false);
	if (mkdirat(ctx->scratch_fd, DIRS_DIR, DIR_MODE) != 0)
		return phase_fail(ctx, DIRS_DIR, "mkdir", errno);
	t->top_fd = openat(ctx->scratch_fd, DIRS_DIR,
	    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (t->top_fd < 0) {
		int err = errno;

		unlinkat(ctx->scratch_fd, DIRS_DIR, AT_REMOVEDIR);
		return phase_fail(ctx, DIRS_DIR, "open", err);
	}
	return PHASE_OK;
}

/* Timed end of a delete: DIRS_DIR goes too, then everything is synced. */
static int remove_top(struct phase_ctx *ctx, struct dir_tree *t)
{
	t->may_exist = false;
	/* rmdir before close, so that a failure leaves the state cleanup needs */
	if (unlinkat(ctx->scratch_fd, DIRS_DIR, AT_REMOVEDIR) != 0)
		return phase_fail(ctx, DIRS_DIR, "rmdir", errno);
	close(t->top_fd);
	t->top_fd = -1;
	sync();
	return PHASE_OK;
}

/*
 * mkdir, stat or rmdir every directory by its path, by number, or in
 * the random phases' order.
 */
enum dir_op { OP_MKDIR, OP_STAT, OP_RMDIR };

static int each_by_path(struct phase_ctx *ctx, bool random, enum dir_op op)
{
	struct dir_tree *t = need_tree(ctx);
	const uint32_t *order;
	char path[TREE_PATH_BUF];
	struct stat st;
	uint64_t start = op_clock();

	if (t == NULL)
		return PHASE_ERROR;
	order = random ? t->order : NULL;
	if (op == OP_MKDIR)
		t->may_exist = true;
	for (uint32_t k = 0; k < t->count; k++) {
		const char *rel = dir_path(t, order ? order[k] : k, path);
		int rc = phase_check_stop();

		if (rc != PHASE_OK)
			return rc;
		if (op == OP_MKDIR && mkdirat(t->top_fd, rel, DIR_MODE) != 0)
			return fail_at(ctx, rel, "mkdir", errno);
		if (op == OP_STAT && fstatat(t->top_fd, rel, &st,
		    AT_SYMLINK_NOFOLLOW) != 0)
			return fail_at(ctx, rel, "stat", errno);
		if (op == OP_STAT && !S_ISDIR(st.st_mode))
			return fail_at(ctx, rel, "stat: not the directory "
			    "clyde made", 0);
		if (op == OP_RMDIR && unlinkat(t->top_fd, rel, AT_REMOVEDIR) != 0)
			return fail_at(ctx, rel, "rmdir", errno);
		lap(ctx->meter, &start);
	}
	if (op == OP_MKDIR)
		sync();
	return op == OP_RMDIR ? remove_top(ctx, t) : PHASE_OK;
}

/* Walks in tree order ---------------------------------------------------- */

struct walk {
	bool remove;
	uint64_t start;                 /* the latency clock */
	uint64_t skipped;               /* names a first pass did not return */
};

static bool met(const struct dir_tree *t, uint32_t i)
{
	return t->met[i >> 6] >> (i & 63) & 1;
}

static void meet(struct dir_tree *t, uint32_t i)
{
	t->met[i >> 6] |= (uint64_t)1 << (i & 63);
}

/*
 * One readdir() pass over parent q (open as dir on fd, at rel): stat or
 * rmdir each of its children not met yet, counted in *found.  The first
 * name that is not a child of q fails the walk, once the pass is over.
 */
static int walk_pass(struct phase_ctx *ctx, struct dir_tree *t, uint32_t q,
    DIR *dir, const char *rel, struct walk *w, uint32_t *found)
{
	char foreign[256] = "";
	uint32_t lo, hi;

	children_of(t, q, &lo, &hi);
	for (;;) {
		char path[TREE_PATH_BUF + 256];
		struct dirent *ent;
		struct stat st;
		uint32_t i;
		int rc, fd = dirfd(dir);

		if ((rc = phase_check_stop()) != PHASE_OK)
			return rc;
		errno = 0;
		ent = readdir(dir);
		if (ent == NULL && errno != 0)
			return fail_at(ctx, rel, "readdir", errno);
		if (ent == NULL && foreign[0] != '\0')
			return fail_at(ctx, join(path, sizeof path, rel, foreign),
			    "not made by clyde; left in place", 0);
		if (ent == NULL)
			return PHASE_OK;
		if (is_dot_entry(ent->d_name))
			continue;
		i = counter_parse(ent->d_name);
		if (i == NOT_OURS || ent->d_name[COUNTER_DIGITS] != '\0' ||
		    i < lo || i >= hi) {
			if (foreign[0] == '\0')
				snprintf(foreign, sizeof foreign, "%s", ent->d_name);
			continue;
		}
		if (met(t, i))
			continue;
		join(path, sizeof path, rel, ent->d_name);
		if (w->remove && unlinkat(fd, ent->d_name, AT_REMOVEDIR) != 0)
			return fail_at(ctx, path, "rmdir", errno);
		if (!w->remove && fstatat(fd, ent->d_name, &st,
		    AT_SYMLINK_NOFOLLOW) != 0)
			return fail_at(ctx, path, "stat", errno);
		if (!w->remove && !S_ISDIR(st.st_mode))
			return fail_at(ctx, path, "stat: not the directory "
			    "clyde made", 0);
		meet(t, i);
		(*found)++;
		lap(ctx->meter, &w->start);
	}
}

/*
 * readdir() parent q and stat or rmdir every child of its; read it again
 * while a pass finds some that the ones before missed.
 */
static int walk_parent(struct phase_ctx *ctx, struct dir_tree *t, uint32_t q,
    struct walk *w)
{
	char path[TREE_PATH_BUF];
	const char *rel = dir_path(t, q, path);
	uint32_t lo, hi, found = 0;
	DIR *dir;
	int rc = PHASE_OK;

	children_of(t, q, &lo, &hi);
	if (lo == hi)
		return PHASE_OK;
	if ((dir = open_dir(t->top_fd, rel)) == NULL)
		return fail_at(ctx, rel, "open", errno);
	for (unsigned pass = 1; ; pass++) {
		uint32_t before = found;

		if (pass > ctx->meter->readdir_passes)
			ctx->meter->readdir_passes = pass;
		rc = walk_pass(ctx, t, q, dir, rel, w, &found);
		if (rc != PHASE_OK || found == hi - lo)
			break;
		if (found == before) {
			char missing[TREE_PATH_BUF];
			uint32_t i = lo;

			while (met(t, i))
				i++;
			snprintf(ctx->error, sizeof ctx->error, "%s: %s/%s/%s: "
			    "not found by readdir in %u passes (%" PRIu32 " of "
			    "clyde's directories missing)", ctx->label,
			    ctx->scratch_name, DIRS_DIR, dir_path(t, i, missing),
			    pass, hi - lo - found);
			rc = PHASE_ERROR;
			break;
		}
		if (pass == 1)
			w->skipped += hi - lo - found;
		rewinddir(dir);
	}
	closedir(dir);
	return rc;
}

/* Stat from the top down, or rmdir from the last parent up. */
static int walk_all(struct phase_ctx *ctx, bool remove)
{
	struct dir_tree *t = need_tree(ctx);
	struct walk w = { remove, 0, 0 };
	uint32_t parents;
	int rc = PHASE_OK;

	if (t == NULL)
		return PHASE_ERROR;
	/* DIRS_DIR, then every directory above the last level */
	parents = t->start[t->levels] + 1;
	w.start = op_clock();
	for (uint32_t j = 0; j < parents && rc == PHASE_OK; j++) {
		uint32_t n = remove ? parents - 1 - j : j;

		rc = walk_parent(ctx, t, n == 0 ? ROOT : n - 1, &w);
	}
	if (ctx->meter->readdir_passes > 1)
		snprintf(ctx->meter->notice, sizeof ctx->meter->notice,
		    "%s: %s/%s: the directory read skipped %" PRIu64 " names; "
		    "read again (%u passes)", ctx->label, ctx->scratch_name,
		    DIRS_DIR, w.skipped, ctx->meter->readdir_passes);
	if (rc != PHASE_OK || !remove)
		return rc;
	return remove_top(ctx, t);
}

/* The phases ------------------------------------------------------------- */

int phase_dir_create_prepare(struct phase_ctx *ctx)
{
	return create_prepare(ctx, false);
}

int phase_dir_create_run(struct phase_ctx *ctx)
{
	return each_by_path(ctx, false, OP_MKDIR);
}

/* Untimed, before a walk: no directory met. */
int phase_dir_walk_prepare(struct phase_ctx *ctx)
{
	struct dir_tree *t = need_tree(ctx);

	if (t == NULL)
		return PHASE_ERROR;
	memset(t->met, 0, met_words(t) * sizeof *t->met);
	return PHASE_OK;
}

int phase_dir_stat_run(struct phase_ctx *ctx)
{
	return walk_all(ctx, false);
}

int phase_dir_del_run(struct phase_ctx *ctx)
{
	return walk_all(ctx, true);
}

int phase_ran_dir_create_prepare(struct phase_ctx *ctx)
{
	return create_prepare(ctx, true);
}

int phase_ran_dir_create_run(struct phase_ctx *ctx)
{
	return each_by_path(ctx, true, OP_MKDIR);
}

int phase_ran_dir_stat_prepare(struct phase_ctx *ctx)
{
	struct dir_tree *t = need_tree(ctx);

	if (t == NULL)
		return PHASE_ERROR;
	for (uint32_t i = 0; i < t->count; i++)
		t->order[i] = i;
	shuffle(t->order, 0, t->count, &ctx->rng);
	return PHASE_OK;
}

int phase_ran_dir_stat_run(struct phase_ctx *ctx)
{
	return each_by_path(ctx, true, OP_STAT);
}

int phase_ran_dir_del_prepare(struct phase_ctx *ctx)
{
	struct dir_tree *t = need_tree(ctx);

	if (t == NULL)
		return PHASE_ERROR;
	level_order(t, &ctx->rng, true);
	return PHASE_OK;
}

int phase_ran_dir_del_run(struct phase_ctx *ctx)
{
	return each_by_path(ctx, true, OP_RMDIR);
}

void phase_dirs_cleanup(struct phase_ctx *ctx)
{
	struct dir_tree *t = ctx->dirs;

	if (t == NULL)
		return;
	remove_quietly(ctx, t);
	free(t->order);
	free(t->met);
	free(t);
	ctx->dirs = NULL;
}
