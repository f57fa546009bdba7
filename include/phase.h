/*
 * phase.h: the benchmark phases and the context they run in.
 *
 * Phases only measure.  A phase's prepare() runs before the clock starts
 * (file names, shuffles, opening files); its run() is timed by the runner
 * in phase.c, with CPU time of the process and of the children it reaped.
 * run() counts its work in ctx->meter and never prints.
 */
#ifndef CLYDE_PHASE_H
#define CLYDE_PHASE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "config.h"
#include "result.h"
#include "timing.h"
#include "util.h"

enum phase_rc {
	PHASE_OK = 0,
	PHASE_ERROR = -1,       /* ctx->error holds the message */
	PHASE_STOPPED = -2      /* phase_stop was set */
};

/* Set by SIGINT, SIGTERM, SIGXCPU, SIGXFSZ; every phase loop checks it. */
extern volatile sig_atomic_t phase_stop;

/* What the running phase counts; the runner resets it before prepare(). */
struct phase_meter {
	uint64_t ops;           /* bytes (I/O), seeks, or files */
	uint64_t bytes;         /* data moved */
	struct latency lat;     /* one sample per operation */
	unsigned readdir_passes;        /* over one directory, at most; 0: none read */
	char notice[256];               /* a line the runner prints after the phase */
};

struct io_state;                /* phase_io.c */
struct seek_shared;             /* phase_seek.c */
struct file_set;                /* phase_files.c */

struct phase_ctx {
	const struct config *cfg;
	int target_fd;                  /* the target directory (-d), O_DIRECTORY */
	int scratch_fd;                 /* the scratch directory, O_DIRECTORY */
	const char *scratch_name;       /* its name inside the target, for messages */
	pid_t pid;                      /* names the data files: Bonnie.<pid> */

	char *buf;                      /* page-aligned, buf_size bytes */
	size_t buf_size;                /* >= chunk and >= files.chunk */
	struct rng rng;

	const char *label;              /* the running phase, for messages */
	struct phase_meter *meter;

	struct io_state *io;            /* the data files of the I/O phases */
	struct seek_shared *seek;       /* seek positions shared with the seekers */
	struct file_set *files;         /* the small files */

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
 */
int phase_fail(struct phase_ctx *ctx, const char *path, const char *op, int err);

/*
 * Cleanup could not remove path (inside the scratch directory): noted
 * for the message at the end, which names the first such path and how
 * many more there were.  ENOENT is no failure: nothing of ours is left.
 */
void phase_cleanup_failed(struct phase_ctx *ctx, const char *path, int err);

/* Print the cleanup failures noted in ctx, if any, and forget them. */
void phase_cleanup_report(struct phase_ctx *ctx);

/*
 * Test hook: raise SIGINT when the environment variable
 * CLYDE_TEST_SIGNAL_PHASE names this phase (its CSV name, e.g.
 * "seq_create").  The runner calls it when the phase's timed run starts.
 */
void phase_test_signal(enum phase_id id);

/* Set twice a second while the live progress line is on. */
extern volatile sig_atomic_t phase_tick;

/* Redraw the progress line, when the calling thread is the one shown. */
void phase_progress_tick(void);

/*
 * The thread that calls this shows its meter on the progress line (the
 * copy 0 thread with -c); NULL stops showing it.
 */
void phase_progress_attach(const struct phase_meter *meter);

/*
 * PHASE_STOPPED when a stop signal arrived, else PHASE_OK.  Every phase
 * loop calls it once per operation, so it also draws the progress line.
 */
static inline int phase_check_stop(void)
{
	if (phase_tick)
		phase_progress_tick();
	return phase_stop ? PHASE_STOPPED : PHASE_OK;
}

/* phase_io.c: per-char and block phases on the data files */
int phase_putc_prepare(struct phase_ctx *ctx);
int phase_putc_run(struct phase_ctx *ctx);
int phase_put_block_prepare(struct phase_ctx *ctx);
int phase_put_block_run(struct phase_ctx *ctx);
int phase_rewrite_prepare(struct phase_ctx *ctx);
int phase_rewrite_run(struct phase_ctx *ctx);
int phase_getc_prepare(struct phase_ctx *ctx);
int phase_getc_run(struct phase_ctx *ctx);
int phase_get_block_prepare(struct phase_ctx *ctx);
int phase_get_block_run(struct phase_ctx *ctx);
/* -D: PHASE_OK when the filesystem takes O_DIRECT for one chunk. */
int phase_io_check_direct(struct phase_ctx *ctx);
/* Close and unlink the data files; safe to call at any point, twice. */
void phase_io_cleanup(struct phase_ctx *ctx);
/* number of data files for the configured size (1.03: 1 GiB each) */
unsigned phase_io_file_count(const struct config *cfg);
/* name of data file i ("Bonnie.<pid>", "Bonnie.<pid>.001", ...) */
void phase_io_file_name(const struct phase_ctx *ctx, unsigned i, char *out, size_t n);

/* phase_seek.c: random seeks by forked seeker processes */
int phase_seeks_prepare(struct phase_ctx *ctx);
int phase_seeks_run(struct phase_ctx *ctx);
/* Unmap the shared positions; safe to call at any point, twice. */
void phase_seeks_cleanup(struct phase_ctx *ctx);

/* phase_files.c: create / stat / delete of many small files */
int phase_seq_create_prepare(struct phase_ctx *ctx);
int phase_seq_create_run(struct phase_ctx *ctx);
int phase_seq_stat_run(struct phase_ctx *ctx);
int phase_seq_del_run(struct phase_ctx *ctx);
int phase_ran_create_prepare(struct phase_ctx *ctx);
int phase_ran_create_run(struct phase_ctx *ctx);
int phase_ran_stat_prepare(struct phase_ctx *ctx);
int phase_ran_stat_run(struct phase_ctx *ctx);
int phase_ran_del_prepare(struct phase_ctx *ctx);
int phase_ran_del_run(struct phase_ctx *ctx);
/* Remove every file and directory the small-file phases made; free memory. */
void phase_files_cleanup(struct phase_ctx *ctx);

/* One entry of the phase table in phase.c. */
struct phase_def {
	enum phase_id id;
	const char *label;              /* for error messages */
	const char *progress;           /* bonnie++ 1.03e's progress line */
	const char *done;
	bool (*enabled)(const struct config *);
	int (*prepare)(struct phase_ctx *);
	int (*run)(struct phase_ctx *);
};

/*
 * phase_copies.c: -c N.  N copies of the context, each in its own
 * subdirectory of the scratch directory, run every phase at the same
 * time in N threads.  The figures: elapsed from the first start to the
 * last end, work summed, CPU of every thread and seeker counted once,
 * latency merged.
 */
struct copies;
struct copies *copies_start(const struct phase_ctx *base, unsigned n);
/* Like one phase run: PHASE_OK, or the first copy's error in base->error. */
int copies_run_phase(struct copies *cp, struct phase_ctx *base,
    const struct phase_def *p, struct phase_figures *pf);
/* Clean every copy up, remove the subdirectories, free. */
void copies_finish(struct copies *cp, struct phase_ctx *base);

/*
 * phase.c: run every enabled phase of cfg into res, in a scratch
 * directory made inside cfg->dir.  Returns an exit code (EXIT_OK,
 * EXIT_CANNOT_START, EXIT_IO_ERROR, EXIT_INTERRUPTED); the scratch
 * directory is gone on return unless a message says which path is left.
 */
int phase_run_all(const struct config *cfg, struct result *res);

/* Install the stop-signal handlers and ignore SIGHUP. */
void phase_install_signals(void);

#endif
