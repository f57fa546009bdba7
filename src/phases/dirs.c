/*
 * phases/dirs.c: the directory phases of --dirs: mkdir, stat and rmdir of
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
 * stat in one shuffle of all.
 *
 * Every call names a single name, from a descriptor of its directory:
 * the kernel follows a symbolic link in any part of a path but the last,
 * and dirs/0000000000/0000000004 would lead through a link put in place
 * of 0000000000 out of the target.  Each directory that has children is
 * held open (hold_dir()) from its making, timed with it, to the end of
 * its delete phase; before each later phase, and in cleanup, every one is
 * looked up again by its name: a symbolic link or another directory put
 * in place of one fails the phase, named, and is left in place, and
 * cleanup removes only what it reaches from the scratch directory.
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

#include "phases/names.h"
#include "phases/phase.h"
#include "lib/text.h"

#define DIRS_DIR        "dirs"
#define DIR_MODE        0700
/* one directory's name: its number, and --dirs-shared's rank */
#define NAME_BUF        (COUNTER_DIGITS + SUFFIX_BUF)
/* cleanup: held[] of a name that is not the directory clyde made */
#define NOT_OURS_NOW    (-2)
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
	/*
	 * held[i]: directory i open (hold_dir()) while it has children that
	 * may exist, or -1; for the levels above the last, start[levels]
	 * of them.
	 */
	int *held;
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
	/*
	 * Cleanup, in one pass: the first directory whose rmdir was refused
	 * as not empty while it held names of clyde's (its path from this
	 * rank's scratch directory), and how many
	 */
	uint32_t ours_left;
	char left_rel[MSG_PATH_BUF];
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

static bool has_children(const struct dir_tree *t, uint32_t q)
{
	uint32_t lo, hi;

	children_of(t, q, &lo, &hi);
	return lo < hi;
}

/* directories above the last level: those held[] has room for */
static uint32_t uppers(const struct dir_tree *t)
{
	return t->start[t->levels];
}

/*
 * Directory i's name in its parent, with this rank's suffix on one of
 * its own in a shared tree; out has NAME_BUF.  On the clock: ten digits.
 */
static const char *dir_name(const struct dir_tree *t, uint32_t i, char *out)
{
	counter_put(out, i);
	if (t->suffix_len > 0 && i >= t->first_own)
		memcpy(out + COUNTER_DIGITS, t->suffix, t->suffix_len + 1);
	else
		out[COUNTER_DIGITS] = '\0';
	return out;
}

/* The descriptor directory i is named from: DIRS_DIR's or its parent's. */
static int parent_fd(const struct dir_tree *t, uint32_t i)
{
	unsigned k = level_of(t, i);

	return k == 1 ? t->top_fd : t->held[parent_of(t, i, k)];
}

/* Where DIRS_DIR is: this rank's scratch directory, or rank 0's. */
static int top_parent(const struct phase_ctx *ctx, const struct dir_tree *t)
{
	return t->shared && t->rank != 0 ? ctx->shared_fd : ctx->scratch_fd;
}

static void close_held(struct dir_tree *t)
{
	for (uint32_t i = 0; i < uppers(t); i++) {
		if (t->held[i] >= 0)
			close(t->held[i]);
		t->held[i] = -1;
	}
}

/*
 * The path of directory i from DIRS_DIR (ROOT: "."), with this rank's
 * suffix on one of its own in a shared tree, for messages (never a call:
 * see the top); out has TREE_PATH_BUF.
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

static void free_tree(struct dir_tree *t)
{
	free(t->order);
	free(t->met);
	free(t->held);
	free(t);
}

/* The tree for cfg, allocated on first use; NULL with ctx->error set. */
static struct dir_tree *tree_get(struct phase_ctx *ctx)
{
	uint64_t count = (uint64_t)ctx->cfg->dirs.count_k * FILE_UNIT;
	struct dir_tree *t = ctx->state.dirs;

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
		lay_out(t, &ctx->cfg->dirs);
		t->order = malloc((size_t)count * sizeof *t->order);
		t->met = malloc(met_words(t) * sizeof *t->met);
		t->held = malloc((uppers(t) + 1) * sizeof *t->held);
	}
	if (t == NULL || t->order == NULL || t->met == NULL || t->held == NULL) {
		if (t != NULL)
			free_tree(t);
		phase_fail(ctx, NULL, "directory table", ENOMEM);
		return NULL;
	}
	for (uint32_t i = 0; i < uppers(t); i++)
		t->held[i] = -1;
	share_out(t, ctx);
	ctx->state.dirs = t;
	return t;
}

/*
 * The descriptors the tree of cfg holds open at once, beyond DIRS_DIR's
 * and a directory read's: one for each directory that has children.
 */
static unsigned long held_open(const struct config *cfg)
{
	uint64_t count = (uint64_t)cfg->dirs.count_k * FILE_UNIT;
	struct dir_tree t;
	unsigned long n = 0;

	if (count == 0 || count >= NOT_OURS)
		return 0;
	memset(&t, 0, sizeof t);
	t.count = (uint32_t)count;
	lay_out(&t, &cfg->dirs);
	/* a level's children spread evenly: min(parents, children) have some */
	for (unsigned k = 2; k <= t.levels; k++)
		n += level_size(&t, k - 1) < level_size(&t, k) ?
		    level_size(&t, k - 1) : level_size(&t, k);
	return n;
}

/*
 * The family's descriptors() (phases/phase.h): DIRS_DIR's, a directory
 * read's, and one for each directory of the tree that has children,
 * held open.
 */
static unsigned long phase_dirs_descriptors(const struct config *cfg,
    const char **fewer)
{
	unsigned long held = held_open(cfg);

	*fewer = held > 0 ? "a --dirs tree with fewer directories that have "
	    "children (each is held open)" : NULL;
	return cfg->dirs.count_k > 0 ? 2 + held : 0;
}

/*
 * The table of the tree, made before the first phase, so that a lack of
 * memory refuses the run rather than failing it in the middle
 * (PHASE_ERROR, ctx->error saying so, for the label "--dirs").
 */
static int phase_dirs_reserve(struct phase_ctx *ctx)
{
	ctx->label = "--dirs";
	return tree_get(ctx) != NULL ? PHASE_OK : PHASE_ERROR;
}

static struct dir_tree *need_tree(struct phase_ctx *ctx)
{
	struct dir_tree *t = ctx->state.dirs;

	if (t == NULL || t->top_fd < 0) {
		snprintf(ctx->error, sizeof ctx->error, "%s: %s: no "
		    "directories: their create phase has not run", ctx->label,
		    t != NULL ? t->top_name : DIRS_DIR);
		return NULL;
	}
	return t;
}

/*
 * phase_fail() for DIRS_DIR/rel (rel NULL: DIRS_DIR), so that paths are
 * only joined on failure
 */
static int fail_at(struct phase_ctx *ctx, const char *rel, const char *op,
    int err)
{
	return phase_fail_in(ctx, ctx->state.dirs->top_name, rel, op, err);
}

/* The phase fails on DIRS_DIR/rel, for why, and leaves it in place. */
static int fail_left(struct phase_ctx *ctx, const char *rel, const char *why)
{
	char text[128];

	snprintf(text, sizeof text, "%s; left in place", why);
	return fail_at(ctx, rel, text, 0);
}

/* A call on directory i failed: the phase fails naming its path. */
static int fail_dir(struct phase_ctx *ctx, const struct dir_tree *t,
    uint32_t i, const char *op, int err)
{
	char path[TREE_PATH_BUF];

	return fail_at(ctx, dir_path(t, i, path), op, err);
}

/*
 * Hold directory i (named name in at) open when it has children: it is
 * where they are named from.  PHASE_OK, or the phase fails naming it.
 */
static int hold(struct phase_ctx *ctx, struct dir_tree *t, uint32_t i,
    int at, const char *name)
{
	char path[TREE_PATH_BUF];
	const char *why;
	int err;

	if (i >= uppers(t) || !has_children(t, i))
		return PHASE_OK;
	if ((t->held[i] = hold_dir(at, name, false)) >= 0)
		return PHASE_OK;
	err = errno;
	if ((why = link_why(at, name, err)) != NULL)
		return fail_left(ctx, dir_path(t, i, path), why);
	return fail_at(ctx, dir_path(t, i, path), "open", err);
}

/*
 * Untimed, before a phase on the tree: DIRS_DIR and every directory held
 * open are still the ones under their names, no symbolic link or other
 * directory put in place of one (from the top down: each name is looked
 * up in its parent as held).  Else the phase fails naming it, and leaves
 * it in place.
 */
static int check_tree(struct phase_ctx *ctx, struct dir_tree *t)
{
	char name[NAME_BUF], path[TREE_PATH_BUF];
	const char *why;
	int err;

	why = dir_swapped(top_parent(ctx, t), DIRS_DIR, t->top_fd, &err);
	if (why != NULL)
		return err != 0 ? fail_at(ctx, NULL, "stat", err) :
		    fail_left(ctx, NULL, why);
	for (uint32_t q = 0; q < uppers(t); q++) {
		if (t->held[q] < 0)
			continue;
		why = dir_swapped(parent_fd(t, q), dir_name(t, q, name),
		    t->held[q], &err);
		if (why != NULL)
			return err != 0 ? fail_at(ctx, dir_path(t, q, path),
			    "stat", err) : fail_left(ctx, dir_path(t, q, path), why);
	}
	return PHASE_OK;
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
 * Whether name is one that clyde makes in directory q: a child's, this
 * rank's or (--dirs-shared) another's.
 */
static bool child_name(const struct dir_tree *t, uint32_t q, const char *name)
{
	uint32_t lo, hi, i = counter_parse(name);

	children_of(t, q, &lo, &hi);
	return i != NOT_OURS && i >= lo && i < hi &&
	    (own_name(t, name + COUNTER_DIGITS) ||
	    ranks_name(t, name + COUNTER_DIGITS));
}

/*
 * Cleanup: directory q (ROOT: DIRS_DIR), name in at, read once: how many
 * of clyde's names it holds; with tell, "; it holds NAME, not made by
 * clyde" after the message when it holds such a name, which keeps it from
 * being removed.
 */
static uint32_t read_left(struct phase_ctx *ctx, const struct dir_tree *t,
    int at, const char *name, uint32_t q, bool tell)
{
	size_t len = strlen(ctx->cleanup_error);
	struct dirent *ent;
	DIR *dir = open_dir(at, name);
	uint32_t ours = 0;

	while (dir != NULL && (ent = readdir(dir)) != NULL) {
		if (is_dot_entry(ent->d_name))
			continue;
		if (child_name(t, q, ent->d_name)) {
			ours++;
			continue;
		}
		if (!tell)
			continue;
		snprintf(ctx->cleanup_error + len, sizeof ctx->cleanup_error -
		    len, "; it holds %s, not made by clyde", ent->d_name);
		/* the name may hold an escape or a newline */
		mask_controls(ctx->cleanup_error + len);
		tell = false;
	}
	if (dir != NULL)
		closedir(dir);
	return ours;
}

/* Make and remove -------------------------------------------------------- */

/*
 * Cleanup's path of what is named in directory q (ROOT: DIRS_DIR) from
 * this rank's scratch directory, for phase_remove() and messages; out
 * has MSG_PATH_BUF.
 */
static const char *rel_of(const struct dir_tree *t, uint32_t q, char *out)
{
	char path[TREE_PATH_BUF];

	if (q == ROOT)
		snprintf(out, MSG_PATH_BUF, "%s", t->rel_top);
	else
		snprintf(out, MSG_PATH_BUF, "%s/%s", t->rel_top,
		    dir_path(t, q, path));
	return out;
}

/*
 * Cleanup: name (directory q, ROOT for DIRS_DIR) in at, looked up again
 * without following a link: its descriptor; -1 when it is not there (or
 * cannot be opened: noted), NOT_OURS_NOW when it is a symbolic link now,
 * noted as left in place.
 */
static int reopen(struct phase_ctx *ctx, const struct dir_tree *t, int at,
    const char *name, uint32_t q)
{
	char path[MSG_PATH_BUF];
	const char *why;
	int fd = hold_dir(at, name, q == ROOT), err = errno;

	if (fd >= 0 || err == ENOENT)
		return fd;
	if (q == ROOT)
		snprintf(path, sizeof path, "%s", t->rel_top);
	else
		rel_of(t, q, path);
	if ((why = link_why(at, name, err)) != NULL) {
		phase_cleanup_left(ctx, path, why);
		return NOT_OURS_NOW;
	}
	phase_cleanup_failed(ctx, path, err);
	return -1;
}

/*
 * Cleanup: DIRS_DIR and every directory above the last level looked up
 * again by name, from DIRS_DIR's parent down, without following a link
 * (held as they were, a directory moved away would be emptied where it
 * went): cleanup removes what it reaches from the scratch directory, and
 * nothing below a name that is no longer a directory.  False when
 * DIRS_DIR itself is not reached (then t->top_fd is -1).
 */
static bool reopen_tree(struct phase_ctx *ctx, struct dir_tree *t)
{
	char name[NAME_BUF];
	int fd = reopen(ctx, t, top_parent(ctx, t), DIRS_DIR, ROOT);

	close_held(t);
	if (t->top_fd >= 0)
		close(t->top_fd);
	t->top_fd = fd < 0 ? -1 : fd;
	if (fd < 0)
		return false;
	for (uint32_t q = 0; q < uppers(t); q++) {
		int at = parent_fd(t, q);

		if (at >= 0 && has_children(t, q))
			t->held[q] = reopen(ctx, t, at, dir_name(t, q, name), q);
	}
	return true;
}

/*
 * Cleanup: the failed rmdir of directory q (ROOT: DIRS_DIR), name in at
 * and msg from the scratch directory, noted: a link, left in place; or
 * the error, with a name that keeps it when it is not empty.
 */
static void note_failed(struct phase_ctx *ctx, struct dir_tree *t,
    int at, const char *name, uint32_t q, const char *msg, int err)
{
	const char *why = link_why(at, name, err);
	uint32_t ours;

	if (why != NULL) {
		phase_cleanup_left(ctx, msg, why);
		return;
	}
	phase_cleanup_failed(ctx, msg, err);
	if (err != ENOTEMPTY && err != EEXIST)
		return;
	/* the message is the first failure's */
	ours = read_left(ctx, t, at, name, q, ctx->cleanup_failures == 1);
	if (t->ours_left == 0 && ours > 0) {
		snprintf(t->left_rel, sizeof t->left_rel, "%s", msg);
		t->ours_left = ours;
	}
}

/*
 * Untimed: remove directories from .. to - 1 of the tree, deepest first,
 * each from its parent as reopen_tree() reached it.  A directory never
 * made is ENOENT, no failure; any other failure is noted for the message
 * at the end of the run.
 */
static void remove_range(struct phase_ctx *ctx, struct dir_tree *t,
    uint32_t from, uint32_t to)
{
	char name[NAME_BUF], rel[MSG_PATH_BUF], msg[MSG_PATH_BUF + NAME_BUF];

	for (uint32_t i = to; i-- > from;) {
		unsigned k = level_of(t, i);
		uint32_t q = k == 1 ? ROOT : parent_of(t, i, k);
		int at = parent_fd(t, i), err;

		if (at < 0)
			continue;       /* not reached: not there, or not ours */
		if (i < uppers(t)) {
			if (t->held[i] == NOT_OURS_NOW)
				continue;       /* noted */
			if (t->held[i] >= 0)
				close(t->held[i]);
			t->held[i] = -1;
		}
		err = phase_remove(ctx, at, rel_of(t, q, rel), dir_name(t, i, name),
		    AT_REMOVEDIR);
		if (err == 0 || err == ENOENT)
			continue;
		snprintf(msg, sizeof msg, "%s/%s", rel, name);
		note_failed(ctx, t, at, name, i, msg, err);
	}
}

/* Untimed: DIRS_DIR itself, from this rank's scratch directory. */
static void remove_top_quietly(struct phase_ctx *ctx, struct dir_tree *t)
{
	int err = phase_remove(ctx, ctx->scratch_fd, "", DIRS_DIR,
	    AT_REMOVEDIR);

	note_failed(ctx, t, ctx->scratch_fd, DIRS_DIR, ROOT, DIRS_DIR, err);
}

/* longest pause between two passes of cleanup over the same names */
#define AGAIN_PAUSE_MAX_MS 1000

/*
 * Untimed: pass() over the tree, and again while a directory it could not
 * remove holds clyde's names that the filesystem had answered were gone,
 * within cleanup's wait (phase_cleanup_again()).  A GlusterFS
 * distributed volume does that while a brick is down: rmdir of a
 * directory on it is ENOENT and leaves it, and its parent's rmdir, once
 * the brick is back, ENOTEMPTY.  A pass taken again takes back the
 * failures it noted.
 */
static void remove_passes(struct phase_ctx *ctx, struct dir_tree *t,
    void (*pass)(struct phase_ctx *, struct dir_tree *))
{
	unsigned failures = ctx->cleanup_failures, pause = 0;
	char error[sizeof ctx->cleanup_error];

	memcpy(error, ctx->cleanup_error, sizeof error);
	for (;;) {
		t->ours_left = 0;
		pass(ctx, t);
		if (t->ours_left == 0 || !phase_cleanup_again(ctx, "",
		    t->left_rel, t->ours_left))
			return;
		ctx->cleanup_failures = failures;
		memcpy(ctx->cleanup_error, error, sizeof error);
		/* the filesystem may need a moment to show them all */
		if (pause > 0)
			pause_ms(pause);
		pause = pause == 0 ? 10 : pause * 2 < AGAIN_PAUSE_MAX_MS ?
		    pause * 2 : AGAIN_PAUSE_MAX_MS;
		/* what was answered gone may be there: the tree is reopened */
		t->may_exist = true;
	}
}

/* One pass of remove_shared_quietly(). */
static void remove_shared_pass(struct phase_ctx *ctx, struct dir_tree *t)
{
	if (reopen_tree(ctx, t)) {
		remove_range(ctx, t, 0, t->first_own);
		remove_top_quietly(ctx, t);
	}
}

/* Untimed: the shared levels and DIRS_DIR, on rank 0; all close DIRS_DIR. */
static void remove_shared_quietly(struct phase_ctx *ctx, struct dir_tree *t)
{
	if (t->top_fd < 0)
		return;
	if (t->parents_exist) {
		t->parents_exist = false;
		remove_passes(ctx, t, remove_shared_pass);
	}
	close_held(t);
	if (t->top_fd >= 0)
		close(t->top_fd);
	t->top_fd = -1;
}

/* One pass of remove_quietly(). */
static void remove_own_pass(struct phase_ctx *ctx, struct dir_tree *t)
{
	bool reached = true;

	if (t->may_exist && (reached = reopen_tree(ctx, t)))
		remove_range(ctx, t, t->first_own, t->count);
	if (!t->shared && reached)
		remove_top_quietly(ctx, t);
}

/*
 * Untimed: remove whatever of this rank's may exist, deepest first, then
 * DIRS_DIR (--dirs-shared: this rank's own alone; the rest waits for
 * every rank's, remove_shared_quietly()).
 */
static void remove_quietly(struct phase_ctx *ctx, struct dir_tree *t)
{
	if (t->top_fd < 0) {
		close_held(t);
		return;
	}
	remove_passes(ctx, t, remove_own_pass);
	t->may_exist = false;
	if (t->shared)
		return;
	close_held(t);
	if (t->top_fd >= 0)
		close(t->top_fd);
	t->top_fd = -1;
}

static int open_top(int at)
{
	return hold_dir(at, DIRS_DIR, true);
}

/*
 * Untimed, before a create: DIRS_DIR, empty; --dirs-shared: rank 0 makes
 * it and the shared levels, the other ranks open them once they are made
 * (phase_dir_create_join()).
 */
static int create_prepare(struct phase_ctx *ctx, bool random)
{
	struct dir_tree *t = tree_get(ctx);
	char name[NAME_BUF];
	int rc;

	if (t == NULL)
		return PHASE_ERROR;
	remove_quietly(ctx, t);         /* only if a delete never ran */
	close_held(t);
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
	for (uint32_t i = 0; i < t->first_own; i++) {
		int at = parent_fd(t, i);

		if (mkdirat(at, dir_name(t, i, name), DIR_MODE) != 0)
			return fail_dir(ctx, t, i, "mkdir", errno);
		if ((rc = hold(ctx, t, i, at, name)) != PHASE_OK)
			return rc;
	}
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
 * mkdir, stat or rmdir every directory, each named in its parent, by
 * number or in the random phases' order.  A directory made that has
 * children is held open (hold()), on the clock: mkdir names them from it.
 */
enum dir_op { OP_MKDIR, OP_STAT, OP_RMDIR };

static int each_dir(struct phase_ctx *ctx, bool random, enum dir_op op)
{
	struct dir_tree *t = need_tree(ctx);
	const uint32_t *order;
	char name[NAME_BUF];
	struct stat st;
	uint64_t start = op_clock();

	if (t == NULL)
		return PHASE_ERROR;
	order = random ? t->order : NULL;
	if (op == OP_MKDIR)
		t->may_exist = true;
	for (uint32_t k = 0; k < t->count - t->first_own; k++) {
		uint32_t i = order ? order[k] : t->first_own + k;
		int at = parent_fd(t, i), rc = phase_check_stop();

		if (rc != PHASE_OK)
			return rc;
		dir_name(t, i, name);
		if (op == OP_MKDIR) {
			if (mkdirat(at, name, DIR_MODE) != 0)
				return fail_dir(ctx, t, i, "mkdir", errno);
			if ((rc = hold(ctx, t, i, at, name)) != PHASE_OK)
				return rc;
		}
		if (op == OP_STAT && fstatat(at, name, &st,
		    AT_SYMLINK_NOFOLLOW) != 0)
			return fail_dir(ctx, t, i, "stat", errno);
		if (op == OP_STAT && !S_ISDIR(st.st_mode))
			return fail_dir(ctx, t, i, "stat: not the directory "
			    "clyde made", 0);
		if (op == OP_RMDIR && unlinkat(at, name, AT_REMOVEDIR) != 0)
			return fail_dir(ctx, t, i, "rmdir", errno);
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
		if (i == NOT_OURS || i < lo || i >= hi ||
		    !own_name(t, ent->d_name + COUNTER_DIGITS)) {
			if (foreign[0] == '\0' && !child_name(t, q, ent->d_name))
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
	int rc = PHASE_OK, fd, at = q == ROOT ? t->top_fd : t->held[q];

	children_of(t, q, &lo, &hi);
	if (lo == hi)
		return PHASE_OK;
	/* a read position of its own: the one held is only searched */
	fd = at < 0 ? -1 : openat(at, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return fail_at(ctx, rel, "open", at < 0 ? EBADF : errno);
	if ((dir = fdopendir(fd)) == NULL) {
		int err = errno;

		close(fd);
		return fail_at(ctx, rel, "opendir", err);
	}
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

static int phase_dir_create_prepare(struct phase_ctx *ctx)
{
	return create_prepare(ctx, false);
}

static int phase_dir_create_run(struct phase_ctx *ctx)
{
	return each_dir(ctx, false, OP_MKDIR);
}

/* The tree a phase after a create works on, checked (check_tree()). */
static struct dir_tree *checked_tree(struct phase_ctx *ctx)
{
	struct dir_tree *t = need_tree(ctx);

	return t != NULL && check_tree(ctx, t) == PHASE_OK ? t : NULL;
}

/* Untimed, before a walk: the tree checked, no directory met. */
static int phase_dir_walk_prepare(struct phase_ctx *ctx)
{
	struct dir_tree *t = checked_tree(ctx);

	if (t == NULL)
		return PHASE_ERROR;
	memset(t->met, 0, met_words(t) * sizeof *t->met);
	return PHASE_OK;
}

static int phase_dir_stat_run(struct phase_ctx *ctx)
{
	return walk_all(ctx, false);
}

static int phase_dir_del_run(struct phase_ctx *ctx)
{
	return walk_all(ctx, true);
}

static int phase_ran_dir_create_prepare(struct phase_ctx *ctx)
{
	return create_prepare(ctx, true);
}

static int phase_ran_dir_create_run(struct phase_ctx *ctx)
{
	return each_dir(ctx, true, OP_MKDIR);
}

static int phase_ran_dir_stat_prepare(struct phase_ctx *ctx)
{
	struct dir_tree *t = checked_tree(ctx);

	if (t == NULL)
		return PHASE_ERROR;
	for (uint32_t i = t->first_own; i < t->count; i++)
		t->order[i - t->first_own] = i;
	shuffle(t->order, 0, t->count - t->first_own, &ctx->rng);
	return PHASE_OK;
}

static int phase_ran_dir_stat_run(struct phase_ctx *ctx)
{
	return each_dir(ctx, true, OP_STAT);
}

static int phase_ran_dir_del_prepare(struct phase_ctx *ctx)
{
	struct dir_tree *t = checked_tree(ctx);

	if (t == NULL)
		return PHASE_ERROR;
	level_order(t, &ctx->rng, true);
	return PHASE_OK;
}

static int phase_ran_dir_del_run(struct phase_ctx *ctx)
{
	return each_dir(ctx, true, OP_RMDIR);
}

/* Untimed, after each directory phase: close what a delete left held. */
static void phase_dirs_release(struct phase_ctx *ctx)
{
	/* after a delete: what was held is gone */
	if (ctx->state.dirs != NULL && ctx->state.dirs->top_fd < 0)
		close_held(ctx->state.dirs);
}

/*
 * --dirs-shared, untimed, once every rank's create phase has prepared:
 * the ranks other than 0 open DIRS_DIR, which rank 0 has made, and hold
 * the shared levels' directories that have children, one name at a time.
 */
static int phase_dir_create_join(struct phase_ctx *ctx)
{
	struct dir_tree *t = ctx->state.dirs;
	char name[NAME_BUF];
	const char *why;
	int rc;

	if (t == NULL || !t->shared || t->rank == 0)
		return PHASE_OK;
	close_held(t);
	if (t->top_fd >= 0)
		close(t->top_fd);
	t->top_fd = open_top(ctx->shared_fd);
	if (t->top_fd < 0) {
		int err = errno;

		if ((why = link_why(ctx->shared_fd, DIRS_DIR, err)) != NULL)
			return fail_left(ctx, NULL, why);
		return fail_at(ctx, NULL, "open", err);
	}
	for (uint32_t q = 0; q < uppers(t); q++)
		if ((rc = hold(ctx, t, q, parent_fd(t, q), dir_name(t, q,
		    name))) != PHASE_OK)
			return rc;
	return PHASE_OK;
}

/*
 * --dirs-shared, untimed, once every rank's delete phase has ended well
 * (their own directories are gone): rank 0 removes the shared levels,
 * deepest first, and DIRS_DIR; every rank closes it.  Without
 * --dirs-shared, this and phase_dir_create_join() return PHASE_OK at
 * once.
 */
static int phase_dir_shared_done(struct phase_ctx *ctx)
{
	struct dir_tree *t = ctx->state.dirs;
	char name[NAME_BUF];

	if (t == NULL || !t->shared || t->top_fd < 0)
		return PHASE_OK;
	for (uint32_t i = t->first_own; t->parents_exist && i-- > 0;) {
		int at = parent_fd(t, i);

		if (t->held[i] >= 0)
			close(t->held[i]);
		t->held[i] = -1;
		if (unlinkat(at, dir_name(t, i, name), AT_REMOVEDIR) != 0)
			return fail_dir(ctx, t, i, "rmdir", errno);
	}
	if (t->parents_exist && unlinkat(ctx->scratch_fd, DIRS_DIR,
	    AT_REMOVEDIR) != 0)
		return phase_fail(ctx, DIRS_DIR, "rmdir", errno);
	t->parents_exist = false;
	close_held(t);
	close(t->top_fd);
	t->top_fd = -1;
	return PHASE_OK;
}

/*
 * Remove every directory the directory phases made; free memory.  With
 * --dirs-shared, this rank's own alone: once every rank's are gone,
 * phase_dirs_cleanup_shared() removes the shared levels on rank 0 and
 * frees memory.
 */
static void phase_dirs_cleanup(struct phase_ctx *ctx)
{
	struct dir_tree *t = ctx->state.dirs;

	if (t == NULL)
		return;
	remove_quietly(ctx, t);
	/* --dirs-shared: the rest once every rank has removed its own */
	if (t->shared)
		return;
	free_tree(t);
	ctx->state.dirs = NULL;
}

static void phase_dirs_cleanup_shared(struct phase_ctx *ctx)
{
	struct dir_tree *t = ctx->state.dirs;

	if (t == NULL)
		return;
	remove_shared_quietly(ctx, t);
	free_tree(t);
	ctx->state.dirs = NULL;
}

static bool dirs_enabled(const struct config *cfg)
{
	return cfg->dirs.count_k > 0;
}

/*
 * A directory phase: its id, label, progress line, prepare(), run(),
 * join() and after_all() (--dirs-shared)
 */
#define DIR_PHASE(id, label, progress, prepare, run, join, after_all) \
	{ id, label, progress, "done.\n", dirs_enabled, prepare, run, \
	  phase_dirs_release, false, false, join, after_all }

/* --dirs: after bonnie++'s phases, the same six for directories */
static const struct phase_def dirs_phases[] = {
	DIR_PHASE(PH_DIR_CREATE, "directory create", "Create directories in tree "
	    "order...", phase_dir_create_prepare, phase_dir_create_run,
	    phase_dir_create_join, NULL),
	DIR_PHASE(PH_DIR_STAT, "directory stat", "Stat directories in tree "
	    "order...", phase_dir_walk_prepare, phase_dir_stat_run, NULL, NULL),
	DIR_PHASE(PH_DIR_DEL, "directory delete", "Delete directories in tree "
	    "order...", phase_dir_walk_prepare, phase_dir_del_run, NULL,
	    phase_dir_shared_done),
	DIR_PHASE(PH_RAN_DIR_CREATE, "random directory create", "Create "
	    "directories in random order...", phase_ran_dir_create_prepare,
	    phase_ran_dir_create_run, phase_dir_create_join, NULL),
	DIR_PHASE(PH_RAN_DIR_STAT, "random directory stat", "Stat directories "
	    "in random order...", phase_ran_dir_stat_prepare,
	    phase_ran_dir_stat_run, NULL, NULL),
	DIR_PHASE(PH_RAN_DIR_DEL, "random directory delete", "Delete "
	    "directories in random order...", phase_ran_dir_del_prepare,
	    phase_ran_dir_del_run, NULL, phase_dir_shared_done),
};

const struct phase_family phase_family_dirs = {
	.name = "dirs",
	.phases = dirs_phases,
	.nphases = sizeof(dirs_phases) / sizeof(dirs_phases[0]),
	.reserve = phase_dirs_reserve,
	.cleanup = phase_dirs_cleanup,
	.cleanup_shared = phase_dirs_cleanup_shared,
	.descriptors = phase_dirs_descriptors,
};
