/*
 * phase.c: the scratch directory, the phase table, the one runner loop
 * that times every phase, progress lines, and the stop signals.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dist.h"
#include "phase.h"
#include "progress.h"
#include "scratch.h"
#include "sync.h"

volatile sig_atomic_t phase_stop;


/* Set while cleaning up: a second signal then ends at once. */
static volatile sig_atomic_t cleaning_up;
static char left_behind_msg[2 * PATH_MAX + 128];
static size_t left_behind_len;

/*
 * Test hooks, read once per run from the environment; never set in
 * normal use.  CLYDE_TEST_SIGNAL_PHASE=<CSV name of a phase> raises
 * SIGINT when that phase's timed run starts; CLYDE_TEST_SIGNAL_CLEANUP
 * (any value) raises SIGINT when cleanup starts, which after a first
 * signal is the second one.  The tests use them to stop a run in each
 * phase without depending on timing.
 */
static const char *test_signal_phase;
static bool test_signal_cleanup;

static bool io_enabled(const struct config *cfg)
{
	return cfg->file_size_mib > 0;
}

static bool per_char_enabled(const struct config *cfg)
{
	return cfg->file_size_mib > 0 && cfg->per_char;
}

static bool files_enabled(const struct config *cfg)
{
	return cfg->files.count_k > 0;
}

static const struct phase_def phase_table[] = {
	{ PH_PUTC, "per-char write", "Writing with putc()...", "done\n",
	  per_char_enabled, phase_putc_prepare, phase_putc_run },
	{ PH_PUT_BLOCK, "block write", "Writing intelligently...", "done\n",
	  io_enabled, phase_put_block_prepare, phase_put_block_run },
	{ PH_REWRITE, "rewrite", "Rewriting...", "done\n",
	  io_enabled, phase_rewrite_prepare, phase_rewrite_run },
	{ PH_GETC, "per-char read", "Reading with getc()...", "done\n",
	  per_char_enabled, phase_getc_prepare, phase_getc_run },
	{ PH_GET_BLOCK, "block read", "Reading intelligently...", "done\n",
	  io_enabled, phase_get_block_prepare, phase_get_block_run },
	{ PH_SEEKS, "random seeks", "start 'em...", NULL,
	  io_enabled, phase_seeks_prepare, phase_seeks_run },
	{ PH_SEQ_CREATE, "sequential create", "Create files in sequential order...",
	  "done.\n", files_enabled, phase_seq_create_prepare, phase_seq_create_run },
	{ PH_SEQ_STAT, "sequential stat", "Stat files in sequential order...",
	  "done.\n", files_enabled, NULL, phase_seq_stat_run },
	{ PH_SEQ_DEL, "sequential delete", "Delete files in sequential order...",
	  "done.\n", files_enabled, NULL, phase_seq_del_run },
	{ PH_RAN_CREATE, "random create", "Create files in random order...",
	  "done.\n", files_enabled, phase_ran_create_prepare, phase_ran_create_run },
	{ PH_RAN_STAT, "random stat", "Stat files in random order...",
	  "done.\n", files_enabled, phase_ran_stat_prepare, phase_ran_stat_run },
	{ PH_RAN_DEL, "random delete", "Delete files in random order...",
	  "done.\n", files_enabled, phase_ran_del_prepare, phase_ran_del_run },
};

#define NPHASES (sizeof(phase_table) / sizeof(phase_table[0]))

/* the first stop signal, for the message and for EFBIG after SIGXFSZ */
static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
	if (stop_signal == 0)
		stop_signal = sig;
	if (cleaning_up && phase_stop) {
		/* only async-signal-safe calls here */
		if (write(STDERR_FILENO, left_behind_msg, left_behind_len) < 0)
			_exit(EXIT_INTERRUPTED);
		_exit(EXIT_INTERRUPTED);
	}
	phase_stop = 1;
}


void phase_install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_stop_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGXCPU, &sa, NULL);
	sigaction(SIGXFSZ, &sa, NULL);
	/* a lost terminal must not end a long run, as in bonnie++ */
	sa.sa_handler = SIG_IGN;
	sigaction(SIGHUP, &sa, NULL);
	/* a closed stdout becomes EPIPE on write, seen when stdout is closed */
	sigaction(SIGPIPE, &sa, NULL);
}

int phase_fail(struct phase_ctx *ctx, const char *path, const char *op, int err)
{
	const char *sep = err ? ": " : "", *why = err ? strerror(err) : "";

	/*
	 * A stop signal interrupted the call, or the file size limit sent
	 * SIGXFSZ and the write got EFBIG: the run stops, it did not fail.
	 */
	if (phase_stop && (err == EINTR ||
	    (err == EFBIG && stop_signal == SIGXFSZ)))
		return PHASE_STOPPED;
	if (path != NULL)
		snprintf(ctx->error, sizeof(ctx->error), "%s: %s/%s: %s%s%s",
		    ctx->label, ctx->scratch_name, path, op, sep, why);
	else
		snprintf(ctx->error, sizeof(ctx->error), "%s: %s: %s%s%s",
		    ctx->label, ctx->scratch_name, op, sep, why);
	return PHASE_ERROR;
}

void phase_cleanup_failed(struct phase_ctx *ctx, const char *path, int err)
{
	if (err == ENOENT)
		return;
	if (ctx->cleanup_failures++ == 0)
		snprintf(ctx->cleanup_error, sizeof(ctx->cleanup_error),
		    "cannot remove %s/%s: %s", ctx->scratch_name, path,
		    strerror(err));
}

void phase_cleanup_report(struct phase_ctx *ctx)
{
	if (ctx->cleanup_failures == 0)
		return;
	if (ctx->cleanup_failures > 1)
		fprintf(stderr, "clyde: %s (and %u more)\n", ctx->cleanup_error,
		    ctx->cleanup_failures - 1);
	else
		fprintf(stderr, "clyde: %s\n", ctx->cleanup_error);
	ctx->cleanup_failures = 0;
}

/* " by SIGINT" and so on, or "" when no signal of ours stopped the run */
static const char *stop_signal_name(void)
{
	switch (stop_signal) {
	case SIGINT:
		return " by SIGINT";
	case SIGTERM:
		return " by SIGTERM";
	case SIGXCPU:
		return " by SIGXCPU (the CPU time limit)";
	case SIGXFSZ:
		return " by SIGXFSZ (the file size limit)";
	default:
		return "";
	}
}

void phase_test_signal(enum phase_id id)
{
	if (test_signal_phase != NULL &&
	    strcmp(test_signal_phase, phase_csv_name[id]) == 0)
		raise(SIGINT);
}



/* Returns EXIT_OK or the exit code: a bad -Z file is bad input (1). */
static int setup_ctx(struct phase_ctx *ctx, const struct config *cfg)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t size = cfg->chunk > cfg->files.chunk ? cfg->chunk : cfg->files.chunk;
	void *buf;

	memset(ctx, 0, sizeof(*ctx));
	ctx->cfg = cfg;
	ctx->target_fd = -1;
	ctx->scratch_fd = -1;
	ctx->pid = getpid();
	if (posix_memalign(&buf, page > 0 ? (size_t)page : 4096, size) != 0) {
		fprintf(stderr, "clyde: cannot allocate a %zu-byte buffer\n", size);
		return EXIT_CANNOT_START;
	}
	memset(buf, 0, size);
	ctx->buf = buf;
	ctx->buf_size = size;
	rng_seed(&ctx->rng, cfg->seed);
	if (cfg->seed_file != NULL && rng_load_file(&ctx->rng, cfg->seed_file)) {
		fprintf(stderr, "clyde: -Z %s: %s\n", cfg->seed_file,
		    errno == EINVAL ? "not a file of 32-bit numbers" :
		    strerror(errno));
		free(ctx->buf);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/*
 * prepare() untimed, then run() between two clock reads, in this
 * process.  With several ranks they all start together (the meeting in
 * dist_all_ok()), and the figures are the whole run's (dist_phase_done()).
 */
static int time_phase(struct phase_ctx *ctx, const struct phase_def *p,
    struct phase_figures *pf, struct rank_figures *ranks)
{
	struct phase_meter *meter = ctx->meter;
	struct dist_phase mine;
	int64_t t0, c0;
	int rc = PHASE_OK;

	if (p->prepare != NULL)
		rc = p->prepare(ctx);
	/* a rank whose prepare() failed stops them all */
	if (!dist_all_ok(rc == PHASE_OK) && rc == PHASE_OK)
		rc = PHASE_STOPPED;
	phase_progress_attach(meter);
	phase_test_signal(p->id);
	c0 = cpu_ns();
	t0 = now_ns();
	if (rc == PHASE_OK && dist_test_failure(p->id))
		rc = phase_fail(ctx, NULL, "failure injected by CLYDE_TEST_FAIL_RANK",
		    EIO);
	if (rc == PHASE_OK)
		rc = p->run(ctx);
	memset(&mine, 0, sizeof(mine));
	mine.elapsed_ns = now_ns() - t0;
	mine.cpu_ns = cpu_ns() - c0;
	phase_progress_attach(NULL);
	mine.rc = rc;
	mine.ops = meter->ops;
	mine.bytes = meter->bytes;
	mine.readdir_passes = meter->readdir_passes;
	mine.lat = &meter->lat;
	mine.error = ctx->error;
	return dist_phase_done(&mine, t0, pf, p->id, ranks, ctx->error,
	    sizeof(ctx->error));
}


/* Time one phase: prepare() untimed, run() between the two clock reads. */
static int run_phase(struct phase_ctx *ctx, struct copies *copies,
    const struct phase_def *p, struct result *res)
{
	struct phase_figures *pf = &res->phase[p->id];
	int rc;

	memset(ctx->meter, 0, sizeof(*ctx->meter));
	ctx->label = p->label;
	if (sync_wait(ctx->cfg, p->id) != 0) {
		if (phase_stop)
			return PHASE_STOPPED;
		return phase_fail(ctx, NULL, ctx->cfg->sync == SYNC_PROMPT ?
		    "waiting for Enter" : "waiting on the semaphore (-y s)", errno);
	}
	progress_phase_begin(ctx->cfg, p);
	if (copies != NULL) {
		rc = copies_run_phase(copies, ctx, p, pf);
	} else {
		rc = time_phase(ctx, p, pf, res->ranks);
		/* the data files are not needed by the small-file phases */
		if (p->id == PH_SEEKS)
			phase_io_cleanup(ctx);
	}
	if (rc != PHASE_OK)
		return rc;
	progress_phase_done(ctx->cfg, p);
	/* what the phase had to say besides its figures (phases never print) */
	if (ctx->meter->notice[0] != '\0')
		fprintf(stderr, "%sclyde: %s\n", progress_live() ? "\r\033[K" : "",
		    ctx->meter->notice);
	return PHASE_OK;
}

/* Remove what the phases made, then the scratch directory itself. */
static int teardown(struct phase_ctx *ctx, struct copies *copies,
    const char *path)
{
	char quoted[2 * PATH_MAX];
	int rc = 0;

	scratch_quote(quoted, sizeof(quoted), path);
	left_behind_len = (size_t)snprintf(left_behind_msg,
	    sizeof(left_behind_msg), "\nclyde: stopped during cleanup; "
	    "remove what is left with: rm -rf %s\n", quoted);
	if (left_behind_len >= sizeof(left_behind_msg))
		left_behind_len = sizeof(left_behind_msg) - 1;
	cleaning_up = 1;
	if (test_signal_cleanup)
		raise(SIGINT);
	copies_finish(copies, ctx);
	phase_seeks_cleanup(ctx);
	phase_io_cleanup(ctx);
	phase_files_cleanup(ctx);
	phase_cleanup_report(ctx);
	if (ctx->scratch_fd >= 0)
		close(ctx->scratch_fd);
	/* already gone is no error: nothing of ours is left */
	if (unlinkat(ctx->target_fd, ctx->scratch_name, AT_REMOVEDIR) != 0 &&
	    errno != ENOENT) {
		fprintf(stderr, "clyde: cannot remove %s: %s; it is left in "
		    "place, remove it with: rm -rf %s\n", path, strerror(errno),
		    quoted);
		rc = -1;
	}
	close(ctx->target_fd);
	ctx->target_fd = -1;
	cleaning_up = 0;
	return rc;
}

int phase_run_all(const struct config *cfg, struct result *res)
{
	struct phase_ctx ctx;
	struct phase_meter *meter;
	struct copies *copies = NULL;
	char path[PATH_MAX];
	int rc = PHASE_OK;
	size_t i;

	test_signal_phase = getenv("CLYDE_TEST_SIGNAL_PHASE");
	test_signal_cleanup = getenv("CLYDE_TEST_SIGNAL_CLEANUP") != NULL;
	/* before any rank makes its own: theirs would look stale */
	if (dist_rank() == 0)
		scratch_report_stale(cfg->dir);
	dist_all_ok(true);
	op_clock_init();
	rc = setup_ctx(&ctx, cfg);
	/* the meter holds a histogram: keep it off the stack */
	meter = rc == EXIT_OK ? calloc(1, sizeof(*meter)) : NULL;
	if (meter != NULL && scratch_make(&ctx, cfg->dir, path, sizeof(path))) {
		free(meter);
		meter = NULL;
	}
	if (!dist_all_ok(meter != NULL)) {
		if (meter == NULL) {
			free(ctx.buf);
			rng_free(&ctx.rng);
			return rc != EXIT_OK ? rc : EXIT_CANNOT_START;
		}
		fprintf(stderr, "clyde: another rank could not start\n");
		rc = PHASE_STOPPED;
	}
	ctx.meter = meter;
	ctx.label = "-D";
	if (rc == EXIT_OK && cfg->direct_io && cfg->file_size_mib > 0 &&
	    phase_io_check_direct(&ctx) != PHASE_OK)
		rc = PHASE_ERROR;
	if (!dist_all_ok(rc == EXIT_OK)) {
		if (rc == PHASE_ERROR)
			fprintf(stderr, "clyde: %s\n", ctx.error);
		teardown(&ctx, NULL, path);
		free(meter);
		free(ctx.buf);
		rng_free(&ctx.rng);
		return EXIT_CANNOT_START;
	}
	if (cfg->concurrency > 1) {
		copies = copies_start(&ctx, cfg->concurrency);
		if (copies == NULL)
			rc = phase_fail(&ctx, NULL, "-c: making the copies", errno);
	}
	progress_start(cfg);
	for (i = 0; i < NPHASES && rc == PHASE_OK; i++) {
		const struct phase_def *p = &phase_table[i];

		if (!p->enabled(cfg))
			continue;
		rc = run_phase(&ctx, copies, p, res);
		if (rc == PHASE_OK)
			rc = phase_check_stop();
	}
	progress_stop();
	if (rc == PHASE_ERROR) {
		fprintf(stderr, "%sclyde: %s\n", cfg->quiet || progress_live() ? "" : "\n",
		    ctx.error);
		res->status = RUN_FAILED;
		snprintf(res->error, sizeof(res->error), "%s", ctx.error);
	} else if (rc == PHASE_STOPPED) {
		fprintf(stderr, "%sclyde: interrupted%s; removing what the run "
		    "made\n", cfg->quiet || progress_live() ? "" : "\n",
		    stop_signal_name());
		res->status = RUN_INTERRUPTED;
	}
	if (teardown(&ctx, copies, path) != 0 && rc == PHASE_OK)
		rc = PHASE_ERROR;
	free(meter);
	free(ctx.buf);
	rng_free(&ctx.rng);
	if (rc == PHASE_STOPPED)
		return EXIT_INTERRUPTED;
	return rc == PHASE_ERROR ? EXIT_IO_ERROR : EXIT_OK;
}
