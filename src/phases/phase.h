/*
 * phases/phase.h: the phase table (phases/phase.c): bonnie++'s twelve phases, then
 * the six of --dirs, in the order they run, each with the calls that
 * prepare, run and clean it up.
 *
 * A phase's prepare() runs before the clock starts (file names, shuffles,
 * opening files); its run() is timed by the runner (run/runner.c), which
 * never names a phase: what differs between phases is in this table.
 */
#ifndef CLYDE_PHASE_H
#define CLYDE_PHASE_H

#include <stdbool.h>
#include <stddef.h>

#include "config.h"
#include "phases/ctx.h"
#include "result.h"

enum phase_makes {
	MAKES_NOTHING = 0,
	MAKES_DATA,             /* the data files the later phases read back */
	MAKES_FILES             /* the small files the stat phases read */
};

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
	/* remove what the phase made; safe at any point, and twice */
	void (*cleanup)(struct phase_ctx *);
	/* runs at every point of a --chunks sweep, not at the first alone */
	bool every_point;
	/* what it makes that another rank reads later (--shift) */
	enum phase_makes makes;
	/*
	 * untimed, on every rank once every rank's prepare() has ended,
	 * before the clock starts; and once every rank's run() has ended
	 * well (dist/dist.h's meetings around them).  May be NULL.
	 */
	int (*join)(struct phase_ctx *);
	int (*after_all)(struct phase_ctx *);
};

extern const struct phase_def phase_table[];
extern const size_t phase_count;

/*
 * Whether p runs at a point of the run: every enabled phase at the first
 * point that runs (first), those that run at every point at the others.
 */
bool phase_runs_at(const struct phase_def *p, const struct config *cfg,
    bool first);

/* How many phases run at a point: the first that runs, or a later one. */
unsigned phase_count_at(const struct config *cfg, bool first);

/* Every phase's cleanup, last phase first: what a run made goes. */
void phase_cleanup_all(struct phase_ctx *ctx);

#endif
