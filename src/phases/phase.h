/*
 * phases/phase.h: the phases and their families (phases/phase.c):
 * bonnie++'s twelve phases, then the six of --dirs, in the order they
 * run, each with the calls that prepare, run and clean it up.
 *
 * A family is the phases of one file of phases/ (phases/io.c, seek.c,
 * files.c, dirs.c), which exports one descriptor, struct phase_family:
 * its phases and the calls the run makes around them.  A phase's
 * prepare() runs before the clock starts (file names, shuffles, opening
 * files); its run() is timed by the runner (run/runner.c), which never
 * names a phase nor a family: what differs between them is in their
 * descriptors, which the runner, the copies (run/copies.c) and the
 * checks before a run (cli/setup.c) walk.
 */
#ifndef CLYDE_PHASE_H
#define CLYDE_PHASE_H

#include <stdbool.h>
#include <stddef.h>

#include "config.h"
#include "phases/ctx.h"
#include "result.h"

struct phase_def {
	enum phase_id id;
	const char *label;              /* for error messages */
	const char *progress;           /* bonnie++ 1.03e's progress line */
	const char *done;
	bool (*enabled)(const struct config *);
	int (*prepare)(struct phase_ctx *);     /* untimed; may be NULL */
	int (*run)(struct phase_ctx *);         /* timed */
	/* untimed, after run(): free what the later phases do not need */
	void (*release)(struct phase_ctx *);    /* may be NULL */
	/* runs at every point of a --chunks sweep, not at the first alone */
	bool every_point;
	/*
	 * It makes what another rank reads later (--shift): after it the
	 * ranks tell each other what they made (its family's made() and
	 * theirs()).
	 */
	bool shares_made;
	/*
	 * untimed, on every rank once every rank's prepare() has ended,
	 * before the clock starts; and once every rank's run() has ended
	 * well (dist/dist.h's meetings around them).  May be NULL.
	 */
	int (*join)(struct phase_ctx *);
	int (*after_all)(struct phase_ctx *);
};

/* The most bytes a family's made() writes (the data files' inode numbers). */
#define PHASE_MADE_MAX 8192

/*
 * A family of phases: the file phases/NAME.c, which defines
 * phase_family_NAME, and its entry in the table of families
 * (phases/phase.c).  A call that is NULL: the family has none.
 */
struct phase_family {
	const char *name;               /* its file's: "io" is phases/io.c */
	const struct phase_def *phases; /* in the order they run */
	size_t nphases;
	/*
	 * Before the first phase, when one of the family's runs: what its
	 * phases need all along (memory for names, a table), so that a lack
	 * of it refuses the run rather than failing it in the middle.
	 * PHASE_ERROR with ctx->error, which the runner prints.
	 */
	int (*reserve)(struct phase_ctx *ctx);
	/*
	 * -D, before the first phase, when one of the family's runs:
	 * PHASE_OK when the filesystem takes O_DIRECT for one chunk of
	 * ctx->chunk bytes, else PHASE_ERROR with ctx->error.
	 */
	int (*check_direct)(struct phase_ctx *ctx);
	/*
	 * --shift, after a phase of the family that shares_made: made()
	 * writes what this rank made into made (at most PHASE_MADE_MAX
	 * bytes, aligned for any type) and returns how many bytes; the
	 * runner hands them to the rank that reads them back, whose
	 * theirs() takes those of the rank it reads from before a phase
	 * reads them, and returns PHASE_OK or PHASE_ERROR with ctx->error.
	 * made_what names them for the message when the ranks could not
	 * tell each other ("data files"); with theirs_agreed the ranks
	 * agree on what theirs() returned (a collective call), without it
	 * theirs() never fails.
	 */
	size_t (*made)(const struct phase_ctx *ctx, void *made);
	int (*theirs)(struct phase_ctx *ctx, const void *made);
	const char *made_what;
	bool theirs_agreed;
	/* remove what the family's phases made; safe at any point, and twice */
	void (*cleanup)(struct phase_ctx *ctx);
	/*
	 * --dirs-shared (ctx->shared_fd set): once every rank's cleanup()
	 * has ended, what the ranks made in rank 0's scratch directory.
	 */
	void (*cleanup_shared)(struct phase_ctx *ctx);
	/*
	 * The descriptors the family's phases hold open at once for cfg, at
	 * their peak, beyond the target and the scratch directory; *fewer
	 * says how a run needs fewer ("fewer directories in -n (each is held
	 * open)"), or is NULL.
	 */
	unsigned long (*descriptors)(const struct config *cfg,
	    const char **fewer);
};

/* The families in the order their phases run. */
extern const struct phase_family *const phase_families[];
extern const size_t phase_family_count;

/* Phase i of the run, counting every family's in order; NULL past the last. */
const struct phase_def *phase_at(size_t i);

/* Where p is in that count: phase_at(phase_index(p)) is p. */
size_t phase_index(const struct phase_def *p);

/* The family p is one of. */
const struct phase_family *phase_family_of(const struct phase_def *p);

/* Whether one of f's phases is enabled by cfg. */
bool phase_family_runs(const struct phase_family *f,
    const struct config *cfg);

/*
 * Whether p runs at a point of the run: every enabled phase at the first
 * point that runs (first), those that run at every point at the others.
 */
bool phase_runs_at(const struct phase_def *p, const struct config *cfg,
    bool first);

/* How many phases run at a point: the first that runs, or a later one. */
unsigned phase_count_at(const struct config *cfg, bool first);

/* Every family's cleanup, last family first: what a run made goes. */
void phase_cleanup_all(struct phase_ctx *ctx);

#endif
