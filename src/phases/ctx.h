/*
 * phases/ctx.h: what every phase works with (phases/ctx.c): its context,
 * the meter it counts its work in, its return codes, and the few calls
 * it makes to report a failure or to check for a stop.  Phases only
 * measure: they never print; the runner (run/runner.c) reports.
 */
#ifndef CLYDE_PHASE_CTX_H
#define CLYDE_PHASE_CTX_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "config.h"
#include "core/stop.h"
#include "core/tick.h"
#include "core/timing.h"
#include "lib/rng.h"

enum phase_rc {
	PHASE_OK = 0,
	PHASE_ERROR = -1,       /* ctx->error holds the message */
	PHASE_STOPPED = -2      /* phase_stop was set */
};

/*
 * What the running phase counts; the runner resets it before prepare().
 * It lives in memory shared with the processes forked from the one that
 * measures (the seekers), which count next_seek there.
 */
struct phase_meter {
	uint64_t ops;           /* bytes (I/O), seeks, or files */
	/* the next seek to take, shared by the seekers: the seeks taken so
	 * far, which the live line and the stall watcher read */
	atomic_uint next_seek;
	uint64_t bytes;         /* data moved */
	struct latency lat;     /* one sample per operation */
	unsigned readdir_passes;        /* over one directory, at most; 0: none read */
	/*
	 * How long the processes of the phase have been stopped (SIGSTOP,
	 * Ctrl-Z) so far: the watcher of --stall counts it here (run/stall.h),
	 * and the live line leaves it out of the rate
	 */
	int64_t stopped_ns;
	char notice[256];               /* a line the runner prints after the phase */
};

struct io_state;                /* phases/io.c */
struct seek_shared;             /* phases/seek.c */
struct file_set;                /* phases/files.c */
struct dir_tree;                /* phases/dirs.c */

struct phase_ctx {
	const struct config *cfg;
	int target_fd;                  /* the target directory (-d), O_DIRECTORY */
	/*
	 * The working directory the run started in (O_PATH where there is
	 * one), or -1: a relative -d resolves from it.  The small-file
	 * phases work in their directories (phases/files.c), so nothing
	 * else of clyde's may resolve a path from the working directory.
	 */
	int start_fd;
	int scratch_fd;                 /* the scratch directory, O_DIRECTORY */
	const char *scratch_name;       /* its name inside the target, for messages */
	/* the scratch directory as made: its name is removed only while it
	 * still names this device and inode */
	dev_t scratch_dev;
	ino_t scratch_ino;
	ino_t scratch_record_ino;       /* its record of where it was made */
	pid_t pid;                      /* names the data files: Bonnie.<pid> */
	/*
	 * Where the phases that read the data files back find them: this
	 * rank's scratch directory and pid, or with --shift those of the
	 * rank it reads from (run/runner.c), which made them and removes them.
	 */
	int read_fd;
	pid_t read_pid;
	const char *read_dir_name;      /* inside the target, for messages */
	bool read_other;                /* another rank's */
	/*
	 * --dirs-shared: rank 0's scratch directory, where the shared tree
	 * is (this rank's own on rank 0), and its name inside the target;
	 * -1 and NULL without it (run/runner.c).
	 */
	int shared_fd;
	const char *shared_name;
	unsigned rank, nranks;          /* this rank and how many (1 without) */

	unsigned chunk;                 /* the I/O chunk of the running point */
	unsigned point;                 /* that point, as config_points() counts */
	char *buf;                      /* page-aligned, buf_size bytes */
	size_t buf_size;                /* >= every chunk and files.chunk */
	struct rng rng;

	const char *label;              /* the running phase, for messages */
	struct phase_meter *meter;
	/*
	 * The processes a phase waits for (the seekers, n of them; n 0: none
	 * any more), told to the watcher of --stall (run/stall.h's
	 * stall_watch_children(), which the runner sets here), which names a
	 * stopped one and kills them at a second stop signal.  NULL: none.
	 */
	void (*watch_children)(struct phase_meter *meter, const pid_t *pids,
	    unsigned n);

	/*
	 * What each family of phases (phases/phase.h) keeps from one phase
	 * to the next, made by its phases: a copy of -c starts with none of
	 * its parent's (run/copies.c clears it whole).  A family that keeps
	 * something adds its pointer here.
	 */
	struct {
		struct io_state *io;    /* the data files of the I/O phases */
		struct seek_shared *seek;       /* shared with the seekers */
		struct file_set *files;         /* the small files */
		struct dir_tree *dirs;  /* the directories of --dirs */
	} state;

	char error[512];
	/* cleanup: what could not be removed, reported once at the end */
	unsigned cleanup_failures;
	char cleanup_error[512];
};

/*
 * Record an error as "<label>: <scratch>/<path>: <op>: <strerror(err)>"
 * (path may be NULL; err 0 leaves out the errno text) and return
 * PHASE_ERROR.  A call that a stop signal interrupted (EINTR after
 * SIGINT) is no error: that returns PHASE_STOPPED and records nothing.
 * For op "rmdir", EEXIST (AFS's answer for a directory that is not
 * empty) is told as ENOTEMPTY.
 */
int phase_fail(struct phase_ctx *ctx, const char *path, const char *op, int err);

/* phase_fail() for a path in directory dir of the target, not the scratch */
int phase_fail_in(struct phase_ctx *ctx, const char *dir, const char *path,
    const char *op, int err);

/*
 * Cleanup could not remove path (inside the scratch directory): noted
 * for the message at the end, which names the first such path and how
 * many more there were.  ENOENT is no failure: nothing of ours is left;
 * err 0 none at all.
 */
void phase_cleanup_failed(struct phase_ctx *ctx, const char *path, int err);

/*
 * Cleanup leaves path (inside the scratch directory) in place on purpose,
 * for why ("not made by clyde"): noted like a failure.
 */
void phase_cleanup_left(struct phase_ctx *ctx, const char *path,
    const char *why);

/* Print the cleanup failures noted in ctx, if any, and forget them. */
void phase_cleanup_report(struct phase_ctx *ctx);

/*
 * Cleanup starts: until it ends, phase_remove() retries for wait_s
 * seconds an error that a network filesystem recovers from.
 */
void phase_cleanup_begin(unsigned wait_s);
void phase_cleanup_end(void);

/*
 * unlinkat(dirfd, name, flags) for cleanup: 0, or the errno that
 * remained.  A server that is away (ENOTCONN, EIO, ETIMEDOUT, ESTALE,
 * EAGAIN) is waited for within the time phase_cleanup_begin() set, said
 * once on stderr; a stop signal ends the wait.  A stale descriptor
 * (ESTALE) is passed over: the name is removed by its path from the
 * target, dir being the directory inside the scratch directory that
 * dirfd is ("" for the scratch directory, NULL for the target itself).
 * With AT_REMOVEDIR, EEXIST (a directory that is not empty, on AFS) is
 * returned as ENOTEMPTY.
 */
int phase_remove(struct phase_ctx *ctx, int dirfd, const char *dir,
    const char *name, int flags);

/*
 * A directory that cleanup emptied is not empty: it still holds ours of
 * clyde's names, which the filesystem had answered were gone (dir as
 * for phase_remove(), name the directory).  True when they are to be
 * removed again: cleanup had to wait for the filesystem, whose answers
 * before that may be wrong (GlusterFS says ENOENT for a file on a brick
 * that is down), and the wait's time is not over.  Said once.
 */
bool phase_cleanup_again(struct phase_ctx *ctx, const char *dir,
    const char *name, unsigned ours);

/*
 * A name that another rank made, maybe on another host, shows another
 * inode than the one that rank made (err 0), or none (err ENOENT or
 * ESTALE): this host's client may still show what it cached of the name
 * (MooseFS caches entries and attributes for 1 s, an NFS client within
 * actimeo), such as the directory that rank removed and made again.
 * True, after 0.1 s, while the name is worth looking up again: for 5 s
 * from the first call, which finds *until 0 (a stop signal too waits
 * them out); false once they are over, or for another errno.  Only a
 * check that failed calls it.  errno is kept.
 */
bool phase_stale_again(int64_t *until, int err);

/*
 * PHASE_STOPPED when a stop signal arrived, else PHASE_OK.  Every phase
 * loop calls it once per operation, so it also takes the ticks that draw
 * the progress line (core/tick.h): between two, a test of the flag alone.
 */
static inline int phase_check_stop(void)
{
	if (tick_due)
		tick_take();
	return phase_stop ? PHASE_STOPPED : PHASE_OK;
}

#endif
