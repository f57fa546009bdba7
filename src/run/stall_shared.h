/*
 * run/stall_shared.h: what the measuring process and its supervisor share
 * (run/stall.h says why two processes): the mapping of the watched slots,
 * made before the fork, and the looks of the watcher (run/stall.c) that
 * the supervisor (run/supervisor.c) makes.  For run/stall.c and
 * run/supervisor.c alone.
 */
#ifndef CLYDE_STALL_SHARED_H
#define CLYDE_STALL_SHARED_H

#include <limits.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "config.h"
#include "phases/ctx.h"

#define CALL_LEN (PATH_MAX + NAME_MAX + 64)

/* One watched thread, in the shared mapping. */
struct slot {
	struct phase_meter meter;       /* the phase counts here */
	/* written by the measuring process, read by the supervisor */
	atomic_uint gen;                /* odd while watched; +1 at each change */
	pid_t pid;                      /* the watched process (a copy's, -c) */
	long tid;                       /* its watched thread; 0 unknown */
	char label[96];
	bool timed;                     /* a timed part, not a step around one */
	atomic_uint nchildren;
	pid_t children[SEEKERS_MAX];
	/* written by the supervisor while watched, read after the phase */
	int64_t stalled_ns;
	char call[CALL_LEN];
};

struct stall_shared {
	atomic_int armed;               /* between stall_start() and stall_stop() */
	atomic_int line_open;           /* a progress line wants its newline */
	atomic_int live;                /* the live progress line is shown */
	/* the supervisor has seen the measuring process stop, and not go on */
	atomic_int child_stopped;
	char scratch[PATH_MAX];
	dev_t scratch_dev;              /* the directory made, at scratch */
	ino_t scratch_ino;
	char left_behind[2 * PATH_MAX + 256];
	unsigned nslots;
	struct slot slot[];
};
/* NULL without a supervisor; mapped by stall_fork(), defined in run/stall.c */
extern struct stall_shared *stall_shared;

/* What the supervisor remembers of each slot between its looks. */
struct seen {
	unsigned gen;
	uint64_t last;                  /* watcher_progress_of() when last seen */
	int64_t moved_ns;               /* when it last changed */
	int64_t report_after_ns;        /* the next line, after this long */
	int64_t looked_ns;              /* its processes' stops, last looked at */
	unsigned stop_gen;              /* gen as the measuring process stopped */
	bool stuck;                     /* at the last look */
};

/* The process slot s watches: the measuring process's, or a copy's (-c). */
pid_t watcher_pid_of(const struct slot *s, pid_t child);
/*
 * The start of a line on stderr: "\r\033[K" over the live line, "\n"
 * after an open progress line (which it then counts as closed), else "".
 */
const char *watcher_line_start(void);
/*
 * What moves while slot s makes progress; last: the value of the last
 * look (a thread whose progress is unknown moves past it).
 */
uint64_t watcher_progress_of(pid_t child, const struct slot *s, uint64_t last);
/*
 * Look at every watched slot, seen[] their state since the last look, at
 * now: say a stall of limit_ns or more, count the stops of the timed
 * parts.  True when one is stuck now.
 */
bool watcher_check(pid_t child, struct seen *seen, int64_t limit_ns,
    int64_t now);
/*
 * Who of a watched slot is stopped ("copy.1 (pid 124)"), into who (n
 * bytes); false when nobody is.
 */
bool watcher_stopped_one(pid_t child, char *who, size_t n);

#endif
