/*
 * phase.c: the scratch directory, the phase table, the one runner loop
 * that times every phase, progress lines, and the stop signals.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "dist.h"
#include "phase.h"
#include "sync.h"

volatile sig_atomic_t phase_stop;
volatile sig_atomic_t phase_tick;

/*
 * The live progress line: what is shown, set by the main thread before
 * a phase starts.  Only the attached thread draws, from its own meter.
 */
static struct {
	bool on;
	const char *label;
	uint64_t total;                 /* ops the phase will count; 0 unknown */
	int64_t start_ns;
} live;
static _Thread_local const struct phase_meter *shown_meter;

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

static void on_tick(int sig)
{
	(void)sig;
	phase_tick = 1;
}

void phase_progress_attach(const struct phase_meter *meter)
{
	shown_meter = meter;
}

/* "1:05" or "1:02:03" */
static void fmt_duration(char *out, size_t n, int64_t ns)
{
	long s = (long)(ns / 1000000000);

	if (s >= 3600)
		snprintf(out, n, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
	else
		snprintf(out, n, "%ld:%02ld", s / 60, s % 60);
}

void phase_progress_tick(void)
{
	char line[160], elapsed[32], left[32];
	const struct phase_meter *m = shown_meter;
	int64_t ns;
	int len;

	if (m == NULL)
		return;
	phase_tick = 0;
	dist_poll();
	if (!live.on)
		return;
	ns = now_ns() - live.start_ns;
	fmt_duration(elapsed, sizeof(elapsed), ns);
	if (live.total > 0 && m->ops > 0 && m->ops <= live.total) {
		fmt_duration(left, sizeof(left), (int64_t)((double)ns *
		    (double)(live.total - m->ops) / (double)m->ops));
		len = snprintf(line, sizeof(line), "\r\033[K%s  %3d%%  %s, about "
		    "%s left", live.label, (int)(m->ops * 100 / live.total),
		    elapsed, left);
	} else {
		len = snprintf(line, sizeof(line), "\r\033[K%s  %s", live.label,
		    elapsed);
	}
	if (len > 0 && write(STDERR_FILENO, line, (size_t)len) < 0)
		live.on = false;
}

/* What a phase will count, for the percentage: bytes, seeks or files. */
static uint64_t phase_total(const struct config *cfg, enum phase_id id)
{
	if (id == PH_PUTC || id == PH_GETC)
		return (cfg->compat == COMPAT_103 ? cfg->file_size_mib :
		    cfg->per_char_mib) * 1024 * 1024;
	if (id <= PH_GET_BLOCK)
		return cfg->file_size_mib * 1024 * 1024;
	if (id == PH_SEEKS)
		return 0;       /* the seekers count in their own processes */
	return (uint64_t)cfg->files.count_k * FILE_UNIT;
}

/* The redrawn line on a terminal (or always), never with -q. */
static void live_start(const struct config *cfg)
{
	struct sigaction sa;
	struct itimerval every = { { 0, 500000 }, { 0, 500000 } };

	live.on = !cfg->quiet && dist_rank() == 0 &&
	    (cfg->progress == PROGRESS_ALWAYS ||
	    (cfg->progress == PROGRESS_AUTO && isatty(STDERR_FILENO)));
	/* with several ranks the ticks also look for a stop from the others */
	if (!live.on && dist_size() < 2)
		return;
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_tick;
	/* a tick must not make a system call fail with EINTR */
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &every, NULL);
}

static void live_stop(void)
{
	struct itimerval off = { { 0, 0 }, { 0, 0 } };

	setitimer(ITIMER_REAL, &off, NULL);
	phase_tick = 0;
	if (!live.on)
		return;
	if (write(STDERR_FILENO, "\r\033[K", 4) < 0)
		live.on = false;
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

static void progress(const struct config *cfg, const char *text)
{
	/* with several ranks, rank 0 speaks for all */
	if (cfg->quiet || live.on || text == NULL || dist_rank() != 0)
		return;
	fputs(text, stderr);
	fflush(stderr);
}

/* "dir/name" for messages, without a doubled slash */
static void join_path(char *out, size_t n, const char *dir, const char *name)
{
	size_t len = strlen(dir);

	if (len > 0 && dir[len - 1] == '/')
		snprintf(out, n, "%s%s", dir, name);
	else
		snprintf(out, n, "%s/%s", dir, name);
}

/* path in single quotes for a shell command: ' becomes '\'' */
static void shell_quote(char *out, size_t n, const char *path)
{
	size_t k = 0;

	if (n < 3) {
		if (n > 0)
			out[0] = '\0';
		return;
	}
	out[k++] = '\'';
	for (; *path != '\0' && k + 5 < n; path++) {
		if (*path == '\'') {
			memcpy(out + k, "'\\''", 4);
			k += 4;
		} else {
			out[k++] = *path;
		}
	}
	out[k++] = '\'';
	out[k] = '\0';
}

/*
 * A scratch directory of a run that was killed is reported, never
 * removed: the user decides.
 */
static void report_stale_scratch(const char *dir)
{
	char path[PATH_MAX], quoted[2 * PATH_MAX];
	struct dirent *de;
	DIR *d;

	d = opendir(dir);
	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		char *end;
		long pid;

		if (strncmp(de->d_name, "clyde.", 6) != 0)
			continue;
		pid = strtol(de->d_name + 6, &end, 10);
		if (end == de->d_name + 6 || *end != '.' || strlen(end) != 7 ||
		    pid <= 0)
			continue;
		if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		join_path(path, sizeof(path), dir, de->d_name);
		shell_quote(quoted, sizeof(quoted), path);
		fprintf(stderr, "clyde: %s was left by an earlier run that is no "
		    "longer running; remove it with: rm -rf %s\n", path, quoted);
	}
	closedir(d);
}

static int make_scratch(struct phase_ctx *ctx, const char *dir,
    char *path, size_t n)
{
	char name[64];
	const char *base;

	/* the target's descriptor: the scratch directory is removed through it */
	ctx->target_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (ctx->target_fd < 0) {
		fprintf(stderr, "clyde: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	snprintf(name, sizeof(name), "clyde.%ld.XXXXXX", (long)getpid());
	join_path(path, n, dir, name);
	if (mkdtemp(path) == NULL) {
		fprintf(stderr, "clyde: %s: cannot make the scratch directory: %s\n",
		    dir, strerror(errno));
		close(ctx->target_fd);
		ctx->target_fd = -1;
		return -1;
	}
	base = strrchr(path, '/');
	ctx->scratch_name = base ? base + 1 : path;
	ctx->scratch_fd = openat(ctx->target_fd, ctx->scratch_name,
	    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (ctx->scratch_fd < 0) {
		fprintf(stderr, "clyde: %s: %s\n", path, strerror(errno));
		unlinkat(ctx->target_fd, ctx->scratch_name, AT_REMOVEDIR);
		close(ctx->target_fd);
		ctx->target_fd = -1;
		return -1;
	}
	return 0;
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
	mine.lat = &meter->lat;
	mine.error = ctx->error;
	return dist_phase_done(&mine, t0, pf, p->id, ranks, ctx->error,
	    sizeof(ctx->error));
}

/* 2.00a names the per-char phases by what they do there */
static const char *progress_text(const struct config *cfg, const struct phase_def *p)
{
	if (cfg->compat == COMPAT_200 && p->id == PH_PUTC)
		return "Writing a byte at a time...";
	if (cfg->compat == COMPAT_200 && p->id == PH_GETC)
		return "Reading a byte at a time...";
	return p->progress;
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
	progress(ctx->cfg, progress_text(ctx->cfg, p));
	live.label = p->label;
	live.total = phase_total(ctx->cfg, p->id);
	live.start_ns = now_ns();
	if (live.on)
		fprintf(stderr, "\r\033[K%s", p->label);
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
	if (p->id == PH_SEEKS) {
		unsigned i;

		for (i = 0; i < ctx->cfg->seekers; i++)
			progress(ctx->cfg, "done...");
		progress(ctx->cfg, "\n");
	} else {
		progress(ctx->cfg, p->done);
	}
	return PHASE_OK;
}

/* Remove what the phases made, then the scratch directory itself. */
static int teardown(struct phase_ctx *ctx, struct copies *copies,
    const char *path)
{
	char quoted[2 * PATH_MAX];
	int rc = 0;

	shell_quote(quoted, sizeof(quoted), path);
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
		report_stale_scratch(cfg->dir);
	dist_all_ok(true);
	rc = setup_ctx(&ctx, cfg);
	/* the meter holds a histogram: keep it off the stack */
	meter = rc == EXIT_OK ? calloc(1, sizeof(*meter)) : NULL;
	if (meter != NULL && make_scratch(&ctx, cfg->dir, path, sizeof(path))) {
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
	live_start(cfg);
	for (i = 0; i < NPHASES && rc == PHASE_OK; i++) {
		const struct phase_def *p = &phase_table[i];

		if (!p->enabled(cfg))
			continue;
		rc = run_phase(&ctx, copies, p, res);
		if (rc == PHASE_OK)
			rc = phase_check_stop();
	}
	live_stop();
	if (rc == PHASE_ERROR) {
		fprintf(stderr, "%sclyde: %s\n", cfg->quiet || live.on ? "" : "\n",
		    ctx.error);
		res->status = RUN_FAILED;
		snprintf(res->error, sizeof(res->error), "%s", ctx.error);
	} else if (rc == PHASE_STOPPED) {
		fprintf(stderr, "%sclyde: interrupted%s; removing what the run "
		    "made\n", cfg->quiet || live.on ? "" : "\n",
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
