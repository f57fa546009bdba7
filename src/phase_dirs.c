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
 *
 * --dirs-shared (clyde-mpi): one tree for all ranks, as mdtest without
 * -u.  Its dirs/ and every level above the last are rank 0's, in rank
 * 0's scratch directory: made by rank 0 before each create phase's
 * clock starts, removed by rank 0 once every rank's delete phase has
 * ended (phase_dir_shared_done()), neither timed.  Each rank times the
 * last level alone, its own directories, named NUMBER.RANK
 * (0000000a12.3) in the shared parents, so that no two ranks' names
 * meet; a directory read passes over the other ranks' names.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
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
#define TREE_PATH_BUF   (DIRS_DEPTH_MAX * (COUNTER_DIGITS + 1) + SUFFIX_BUF)
/* DIRS_DIR from the scratch directory or the target (a name and ../) */
#define TOP_BUF         (NAME_MAX + 16)
#define MSG_PATH_BUF    (TOP_BUF + TREE_PATH_BUF + 256)
/* --dirs-shared: a directory's rank after its number, ".RANK" */
#define SUFFIX_BUF      16
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
	bool may_exist;                 /* some of ours may be on disk */
	/*
	 * --dirs-shared: the directories from first_own on (the last level)
	 * are this rank's, each named with suffix; those before are rank
	 * 0's.  Without it, first_own is 0 and suffix "".
	 */
	bool shared;
	unsigned rank, nranks;
	uint32_t first_own;
	unsigned own_level;             /* the level of first_own */
	bool parents_exist;             /* rank 0: the shared levels may be on disk */
	char suffix[SUFFIX_BUF];
	size_t suffix_len;
	/* DIRS_DIR as cleanup names it (from this rank's scratch directory),
	 * and as messages name it (from the target) */
	char rel_top[TOP_BUF];
	char top_name[TOP_BUF];
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

/*
 * The path of directory i from DIRS_DIR (ROOT: "."), with this rank's
 * suffix on one of its own in a shared tree; out has TREE_PATH_BUF.
 */
static const char *dir_path(const struct dir_tree *t, uint32_t i, char *out)
{
	uint32_t chain[DIRS_DEPTH_MAX];
	unsigned k, n = 0;
	char *p = out;
	bool own = t->suffix_len > 0 && i != ROOT && i >= t->first_own;

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
	if (own)
		memcpy(p - 1, t->suffix, t->suffix_len + 1);
	else
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

/*
 * Whose the tree's directories are (--dirs-shared: the last level this
 * rank's, the rest rank 0's), and where DIRS_DIR is.
 */
static void share_out(struct dir_tree *t, const struct phase_ctx *ctx)
{
	const char *top = ctx->scratch_name;

	t->shared = ctx->cfg->dirs.shared;
	t->rank = ctx->rank;
	t->nranks = ctx->nranks > 0 ? ctx->nranks : 1;
	t->own_level = t->shared ? t->levels : 1;
	t->first_own = t->start[t->own_level];
	if (t->shared) {
		snprintf(t->suffix, sizeof t->suffix, ".%u", t->rank);
		t->suffix_len = strlen(t->suffix);
	}
	snprintf(t->rel_top, sizeof t->rel_top, "%s", DIRS_DIR);
	if (t->shared && t->rank != 0 && ctx->shared_name != NULL) {
		top = ctx->shared_name;
		snprintf(t->rel_top, sizeof t->rel_top, "../%s/%s", top,
		    DIRS_DIR);
	}
	snprintf(t->top_name, sizeof t->top_name, "%s/%s", top, DIRS_DIR);
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
	share_out(t, ctx);
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
		snprintf(ctx->error, sizeof ctx->error, "%s: %s: no "
		    "directories: their create phase has not run", ctx->label,
		    t != NULL ? t->top_name : DIRS_DIR);
		return NULL;
	}
	return t;
}

/* phase_fail() for DIRS_DIR/rel, so that paths are only joined on failure */
static int fail_at(struct phase_ctx *ctx, const char *rel, const char *op,
    int err)
{
	return phase_fail_in(ctx, ctx->dirs->top_name, rel, op, err);
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

/*
 * Every level of this rank's shuffled in itself: from the top down, or
 * from the bottom up.
 */
static void level_order(struct dir_tree *t, struct rng *rng, bool bottom_up)
{
	uint32_t n = 0;

	for (unsigned j = t->own_level; j <= t->levels; j++) {
		unsigned k = bottom_up ? t->levels + t->own_level - j : j;
		uint32_t from = n;

		for (uint32_t i = t->start[k]; i < t->start[k + 1]; i++)
			t->order[n++] = i;
		shuffle(t->order, from, n, rng);
	}
}

/* Make and remove -------------------------------------------------------- */

/*
 * Untimed: remove directories from .. to - 1 of the tree, deepest first.
 * A directory never made is ENOENT, no failure; any other failure is
 * noted for the message at the end of the run.
 */
static void remove_range(struct phase_ctx *ctx, struct dir_tree *t,
    uint32_t from, uint32_t to)
{
	char path[TREE_PATH_BUF], msg[MSG_PATH_BUF];

	for (uint32_t i = to; i-- > from;) {
		int err = phase_remove(ctx, t->top_fd, t->rel_top,
		    dir_path(t, i, path), AT_REMOVEDIR);

		if (err != 0 && err != ENOENT) {
			snprintf(msg, sizeof msg, "%s/%s", t->rel_top, path);
			phase_cleanup_failed(ctx, msg, err);
		}
	}
}

/* Untimed: the shared levels and DIRS_DIR, on rank 0; all close DIRS_DIR. */
static void remove_shared_quietly(struct phase_ctx *ctx, struct dir_tree *t)
{
	if (t->top_fd < 0)
		return;
	if (t->parents_exist) {
		remove_range(ctx, t, 0, t->first_own);
		t->parents_exist = false;
		phase_cleanup_failed(ctx, DIRS_DIR, phase_remove(ctx,
		    ctx->scratch_fd, "", DIRS_DIR, AT_REMOVEDIR));
	}
	close(t->top_fd);
	t->top_fd = -1;
}

/*
 * Untimed: remove whatever of this rank's may exist, deepest first, then
 * DIRS_DIR (--dirs-shared: this rank's own alone; the rest waits for
 * every rank's, remove_shared_quietly()).
 */
static void remove_quietly(struct phase_ctx *ctx, struct dir_tree *t)
{
	if (t->top_fd < 0)
		return;
	if (t->may_exist)
		remove_range(ctx, t, t->first_own, t->count);
	t->may_exist = false;
	if (t->shared)
		return;
	phase_cleanup_failed(ctx, DIRS_DIR, phase_remove(ctx, ctx->scratch_fd,
	    "", DIRS_DIR, AT_REMOVEDIR));
	close(t->top_fd);
	t->top_fd = -1;
}

static int open_top(int at)
{
	return openat(at, DIRS_DIR, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
}

/*
 * Untimed, before a create: DIRS_DIR, empty; --dirs-shared: rank 0 makes
 * it and the shared levels, the other ranks open it once it is made
 * (phase_dir_create_join()).
 */
static int create_prepare(struct phase_ctx *ctx, bool random)
{
	struct dir_tree *t = tree_get(ctx);
	char path[TREE_PATH_BUF];

	if (t == NULL)
		return PHASE_ERROR;
	remove_quietly(ctx, t);         /* only if a delete never ran */
	if (random)
		level_order(t, &ctx->rng, false);
	if (t->shared && t->rank != 0)
		return PHASE_OK;
	if (mkdirat(ctx->scratch_fd, DIRS_DIR, DIR_MODE) != 0)
		return phase_fail(ctx, DIRS_DIR, "mkdir", errno);
	t->top_fd = open_top(ctx->scratch_fd);
	if (t->top_fd < 0) {
		int err = errno;

		unlinkat(ctx->scratch_fd, DIRS_DIR, AT_REMOVEDIR);
		return phase_fail(ctx, DIRS_DIR, "open", err);
	}
	t->parents_exist = t->shared;
	for (uint32_t i = 0; i < t->first_own; i++)
		if (mkdirat(t->top_fd, dir_path(t, i, path), DIR_MODE) != 0)
			return fail_at(ctx, path, "mkdir", errno);
	return PHASE_OK;
}

/* Timed end of a delete: DIRS_DIR goes too, then everything is synced. */
static int remove_top(struct phase_ctx *ctx, struct dir_tree *t)
{
	t->may_exist = false;
	/* --dirs-shared: the rest is rank 0's, once every rank is done */
	if (t->shared) {
		sync();
		return PHASE_OK;
	}
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
	for (uint32_t k = 0; k < t->count - t->first_own; k++) {
		const char *rel = dir_path(t, order ? order[k] :
		    t->first_own + k, path);
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

/* The end of a name after its number: this rank's (its suffix, or none). */
static bool own_name(const struct dir_tree *t, const char *end)
{
	return memcmp(end, t->suffix, t->suffix_len + 1) == 0;
}

/* --dirs-shared: the end of a name after its number is another rank's */
static bool ranks_name(const struct dir_tree *t, const char *end)
{
	unsigned r = 0;

	if (!t->shared || end[0] != '.' || end[1] == '\0' ||
	    (end[1] == '0' && end[2] != '\0'))
		return false;
	for (const char *p = end + 1; *p != '\0'; p++) {
		if (*p < '0' || *p > '9' || r >= t->nranks)
			return false;
		r = r * 10 + (unsigned)(*p - '0');
	}
	return r < t->nranks;
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
		if (i == NOT_OURS || i < lo || i >= hi ||
		    !own_name(t, ent->d_name + COUNTER_DIGITS)) {
			if (foreign[0] == '\0' && (i == NOT_OURS || i < lo ||
			    i >= hi || !ranks_name(t, ent->d_name +
			    COUNTER_DIGITS)))
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
			snprintf(ctx->error, sizeof ctx->error, "%s: %s/%s: "
			    "not found by readdir in %u passes (%" PRIu32 " of "
			    "clyde's directories missing)", ctx->label,
			    t->top_name, dir_path(t, i, missing),
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

/*
 * Stat from the top down, or rmdir from the last parent up; with
 * --dirs-shared, only the parents of this rank's (the last level's).
 */
static int walk_all(struct phase_ctx *ctx, bool remove)
{
	struct dir_tree *t = need_tree(ctx);
	struct walk w = { remove, 0, 0 };
	uint32_t first, parents;
	int rc = PHASE_OK;

	if (t == NULL)
		return PHASE_ERROR;
	/* DIRS_DIR (n == 0), then every directory above the last level */
	first = t->own_level == 1 ? 0 : t->start[t->own_level - 1] + 1;
	parents = t->start[t->levels] + 1 - first;
	w.start = op_clock();
	for (uint32_t j = 0; j < parents && rc == PHASE_OK; j++) {
		uint32_t n = first + (remove ? parents - 1 - j : j);

		rc = walk_parent(ctx, t, n == 0 ? ROOT : n - 1, &w);
	}
	if (ctx->meter->readdir_passes > 1)
		snprintf(ctx->meter->notice, sizeof ctx->meter->notice,
		    "%s: %.160s: the directory read skipped %" PRIu64 " names; "
		    "read again (%u passes)", ctx->label, t->top_name,
		    w.skipped, ctx->meter->readdir_passes);
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
	for (uint32_t i = t->first_own; i < t->count; i++)
		t->order[i - t->first_own] = i;
	shuffle(t->order, 0, t->count - t->first_own, &ctx->rng);
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

/*
 * --dirs-shared, untimed, once every rank's create phase has prepared:
 * the ranks other than 0 open DIRS_DIR, which rank 0 has made.
 */
int phase_dir_create_join(struct phase_ctx *ctx)
{
	struct dir_tree *t = ctx->dirs;

	if (t == NULL || !t->shared || t->rank == 0)
		return PHASE_OK;
	t->top_fd = open_top(ctx->shared_fd);
	if (t->top_fd < 0)
		return phase_fail_in(ctx, t->top_name, ".", "open", errno);
	return PHASE_OK;
}

/*
 * --dirs-shared, untimed, once every rank's delete phase has ended well
 * (their own directories are gone): rank 0 removes the shared levels,
 * deepest first, and DIRS_DIR; every rank closes it.
 */
int phase_dir_shared_done(struct phase_ctx *ctx)
{
	struct dir_tree *t = ctx->dirs;
	char path[TREE_PATH_BUF];

	if (t == NULL || !t->shared || t->top_fd < 0)
		return PHASE_OK;
	for (uint32_t i = t->first_own; t->parents_exist && i-- > 0;)
		if (unlinkat(t->top_fd, dir_path(t, i, path), AT_REMOVEDIR) != 0)
			return fail_at(ctx, path, "rmdir", errno);
	if (t->parents_exist && unlinkat(ctx->scratch_fd, DIRS_DIR,
	    AT_REMOVEDIR) != 0)
		return phase_fail(ctx, DIRS_DIR, "rmdir", errno);
	t->parents_exist = false;
	close(t->top_fd);
	t->top_fd = -1;
	return PHASE_OK;
}

void phase_dirs_cleanup(struct phase_ctx *ctx)
{
	struct dir_tree *t = ctx->dirs;

	if (t == NULL)
		return;
	remove_quietly(ctx, t);
	/* --dirs-shared: the rest once every rank has removed its own */
	if (t->shared)
		return;
	free(t->order);
	free(t->met);
	free(t);
	ctx->dirs = NULL;
}

void phase_dirs_cleanup_shared(struct phase_ctx *ctx)
{
	struct dir_tree *t = ctx->dirs;

	if (t == NULL)
		return;
	remove_shared_quietly(ctx, t);
	free(t->order);
	free(t->met);
	free(t);
	ctx->dirs = NULL;
}
