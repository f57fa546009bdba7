/*
 * run/runner.c: one run of every enabled phase.  It makes the context and
 * the scratch directory, times each phase of the table (phases/phase.h) in
 * this process or in the copy processes of -c, reports a failure or a
 * stop, and removes what the run made.
 */
/* MAP_ANONYMOUS is outside POSIX 2008; glibc shows it with this. */
#define _DEFAULT_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dist/dist.h"
#include "phases/phase.h"
#include "run/copies.h"
#include "run/progress.h"
#include "run/runner.h"
#include "run/scratch.h"
#include "run/stall.h"
#include "run/sync.h"
#include "core/test_hooks.h"
#include "lib/fdio.h"
#include "lib/rng.h"
#include "lib/sys.h"
#include "lib/text.h"
#include "lib/units.h"

/* What a stop signal during cleanup prints before it exits. */
static char left_behind_msg[2 * PATH_MAX + 128];
/* What a second stop signal prints when a call on the filesystem hangs. */
static char stuck_msg[2 * PATH_MAX + 256];
/* The scratch directory's path, for the stall line. */
static char scratch_path[PATH_MAX];
/* Why the run stopped when no signal stopped it (-y p), or "". */
static char stop_reason[128];
/* --shift: the rank whose data files this one reads back, and where */
static unsigned read_from;
static char read_dir_name[NAME_MAX + 1];
/* --dirs-shared: rank 0's scratch directory, where the shared tree is */
static char shared_dir_name[NAME_MAX + 1];

/*
 * Returns EXIT_OK or the exit code: a bad -Z file is bad input (1).  One
 * buffer serves every point of a sweep: it is made at the largest chunk.
 */
static int setup_ctx(struct phase_ctx *ctx, const struct config *cfg)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t size = cfg->files.chunk;
	const char *why;
	void *buf;
	unsigned i;

	for (i = 0; i < config_points(cfg); i++)
		if (config_point_chunk(cfg, i) > size)
			size = config_point_chunk(cfg, i);

	memset(ctx, 0, sizeof(*ctx));
	ctx->cfg = cfg;
	ctx->target_fd = -1;
	ctx->start_fd = -1;
	ctx->scratch_fd = -1;
	ctx->read_fd = -1;
	ctx->shared_fd = -1;
	ctx->rank = dist_rank();
	ctx->nranks = dist_size();
	/* the copies of -c keep it, with the rest of the context */
	ctx->watch_children = stall_watch_children;
	ctx->pid = getpid();
	ctx->chunk = cfg->chunk;
	if (posix_memalign(&buf, page > 0 ? (size_t)page : 4096, size) != 0) {
		fprintf(stderr, "clyde: cannot allocate a %zu-byte buffer\n", size);
		return EXIT_CANNOT_START;
	}
	memset(buf, 0, size);
	ctx->buf = buf;
	ctx->buf_size = size;
	rng_seed(&ctx->rng, cfg->seed);
	if (cfg->seed_file != NULL &&
	    rng_load_file(&ctx->rng, cfg->seed_file, &why) != 0) {
		fprintf(stderr, "clyde: -Z %s: %s\n", cfg->seed_file,
		    why != NULL ? why : strerror(errno));
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/*
 * --shift, after a phase that makes what another rank reads (of family
 * f): the ranks tell each other what they made, so that the rank reading
 * it back takes exactly that, and no other file put in its place (the
 * data files' inode numbers; where the small files are and what their
 * names come from).  A collective call; when f's theirs() may fail, the
 * ranks agree, a rank that cannot reach them stopping all.
 */
static int share_made(struct phase_ctx *ctx, const struct phase_family *f)
{
	static union {
		max_align_t align;
		unsigned char bytes[PHASE_MADE_MAX];
	} mine, theirs;
	char why[DIST_TEXT_LEN] = "", first[sizeof(ctx->error)];
	size_t n = f->made(ctx, mine.bytes);
	int rc;

	if (!dist_exchange(mine.bytes, n, read_from, theirs.bytes)) {
		snprintf(why, sizeof(why), "--shift: the ranks could not tell "
		    "each other which %s they made", f->made_what);
		return phase_fail(ctx, NULL, why, 0);
	}
	rc = f->theirs(ctx, theirs.bytes);
	if (!f->theirs_agreed)
		return rc;
	if (rc != PHASE_OK)
		snprintf(why, sizeof(why), "rank %u: %s", dist_rank(),
		    ctx->error);
	if (dist_all_ok_why(why[0] != '\0' ? why : NULL, first, sizeof(first)))
		return PHASE_OK;
	snprintf(ctx->error, sizeof(ctx->error), "%s", first);
	return PHASE_ERROR;
}

/*
 * Another rank's scratch directory, rank from's, found from this rank's
 * target: the ranks' -d must name one shared directory.  Each rank opens
 * it before any phase, and checks it is the one that rank made (its
 * inode number); the ranks agree, rank 0 saying why they cannot.  A
 * collective call: on a rank that needs none (from is itself), *fd stays
 * -1.  opt names the option, use what it is for; name[NAME_MAX + 1] and
 * *pid get the directory's name and the rank's pid.
 */
static int open_rank_dir(struct phase_ctx *ctx, unsigned from,
    const char *opt, const char *use, const char *hint, char *name,
    int *fd, pid_t *pid)
{
	struct {
		char name[NAME_MAX + 1];
		uint64_t pid, ino;
	} mine, theirs;
	const struct config *cfg = ctx->cfg;
	char why[DIST_TEXT_LEN] = "", first[DIST_TEXT_LEN], host[64] = "?";
	struct stat st;

	*fd = -1;
	memset(&mine, 0, sizeof(mine));
	memset(&theirs, 0, sizeof(theirs));
	snprintf(mine.name, sizeof(mine.name), "%s", ctx->scratch_name);
	mine.pid = (uint64_t)ctx->pid;
	mine.ino = (uint64_t)ctx->scratch_ino;
	gethostname(host, sizeof(host) - 1);
	if (!dist_exchange(&mine, sizeof(mine), from, &theirs)) {
		snprintf(why, sizeof(why), "%s: rank %u did not say where "
		    "its scratch directory is", opt, from);
	} else if (from != dist_rank()) {
		theirs.name[NAME_MAX] = '\0';
		*fd = openat(ctx->target_fd, theirs.name, O_RDONLY |
		    O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (*fd < 0)
			snprintf(why, sizeof(why), "%s: rank %u (%s) "
			    "cannot open %s/%s, rank %u's scratch directory, "
			    "%s: %s; the ranks' -d must name one shared "
			    "directory (%s)", opt, dist_rank(), host, cfg->dir,
			    theirs.name, from, use, strerror(errno), hint);
		else if (fstat(*fd, &st) != 0 ||
		    (uint64_t)st.st_ino != theirs.ino)
			snprintf(why, sizeof(why), "%s: rank %u (%s): "
			    "%s/%s is not the directory rank %u made: the ranks' "
			    "-d must name one shared directory", opt,
			    dist_rank(), host, cfg->dir, theirs.name, from);
	}
	if (!dist_all_ok_why(why[0] != '\0' ? why : NULL, first,
	    sizeof(first))) {
		if (dist_rank() == 0)
			fprintf(stderr, "clyde: %s\n", first);
		if (*fd >= 0)
			close(*fd);
		*fd = -1;
		return PHASE_ERROR;
	}
	snprintf(name, NAME_MAX + 1, "%s", theirs.name);
	*pid = (pid_t)theirs.pid;
	return PHASE_OK;
}

/*
 * --shift: this rank reads back what rank (rank + shift) mod size made,
 * in that rank's scratch directory (open_rank_dir()).  Nothing to do
 * when every rank reads its own.
 */
static int find_read_dir(struct phase_ctx *ctx)
{
	const struct config *cfg = ctx->cfg;
	char opt[32];

	read_from = (dist_rank() + cfg->shift % dist_size()) % dist_size();
	if (read_from == dist_rank())
		return PHASE_OK;
	snprintf(opt, sizeof(opt), "--shift=%u", cfg->shift);
	if (open_rank_dir(ctx, read_from, opt, "to read back its files",
	    "--shift=0: each rank reads its own files", read_dir_name,
	    &ctx->read_fd, &ctx->read_pid) != PHASE_OK)
		return PHASE_ERROR;
	ctx->read_dir_name = read_dir_name;
	ctx->read_other = true;
	return PHASE_OK;
}

/*
 * --dirs-shared: every rank makes its directories in rank 0's tree, in
 * rank 0's scratch directory (open_rank_dir()); rank 0 in its own.
 */
static int find_shared_dir(struct phase_ctx *ctx)
{
	pid_t pid;
	int fd;

	if (ctx->cfg->dirs.count_k == 0 || !ctx->cfg->dirs.shared)
		return PHASE_OK;
	if (open_rank_dir(ctx, 0, "--dirs-shared", "to make its directories "
	    "in rank 0's tree", "without --dirs-shared each rank makes its "
	    "own tree", shared_dir_name, &fd, &pid) != PHASE_OK)
		return PHASE_ERROR;
	ctx->shared_fd = dist_rank() == 0 ? ctx->scratch_fd : fd;
	ctx->shared_name = shared_dir_name;
	return PHASE_OK;
}

/*
 * The ranks agree after an untimed step that each took with rc, once the
 * phase's figures are shared (no later meeting says why): when one
 * failed, every rank fails with the first one's message.
 */
static int agree(struct phase_ctx *ctx, int rc)
{
	char first[sizeof(ctx->error)];

	if (dist_all_ok_why(rc == PHASE_ERROR ? ctx->error : rc ==
	    PHASE_OK ? NULL : "stopped", first, sizeof(first)))
		return PHASE_OK;
	if (rc == PHASE_OK) {
		snprintf(ctx->error, sizeof(ctx->error), "%s", first);
		rc = strcmp(first, "stopped") == 0 ? PHASE_STOPPED : PHASE_ERROR;
	}
	return rc;
}

/*
 * An untimed step of phase p (its prepare(), join() or after_all()),
 * which --stall watches as "<step> the <label>"
 */
static int untimed(struct phase_ctx *ctx, const struct phase_def *p,
    const char *step, int (*fn)(struct phase_ctx *))
{
	int rc;

	stall_step(ctx->meter, step, p->label);
	rc = fn(ctx);
	stall_unwatch(ctx->meter);
	return rc;
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
	const char *injected;
	int64_t t0, c0;
	int rc = PHASE_OK;

	test_hook_phase_prepare(p->id);
	if (p->prepare != NULL)
		rc = untimed(ctx, p, "preparing", p->prepare);
	/* a rank whose prepare() failed stops them all */
	if (!dist_all_ok(rc == PHASE_OK) && rc == PHASE_OK)
		rc = PHASE_STOPPED;
	/* the same for join(): the meeting after the phase says why */
	if (rc == PHASE_OK && p->join != NULL &&
	    !dist_all_ok((rc = untimed(ctx, p, "preparing", p->join)) ==
	    PHASE_OK) && rc == PHASE_OK)
		rc = PHASE_STOPPED;
	progress_attach(meter);
	test_hook_phase_start(p->id);
	stall_watch(meter, p->label);
	c0 = cpu_ns();
	t0 = now_ns();
	if (rc == PHASE_OK &&
	    (injected = test_hook_fail_rank(dist_rank(), p->id)) != NULL)
		rc = phase_fail(ctx, NULL, injected, EIO);
	if (rc == PHASE_OK)
		rc = p->run(ctx);
	memset(&mine, 0, sizeof(mine));
	mine.elapsed_ns = now_ns() - t0;
	mine.cpu_ns = cpu_ns() - c0;
	stall_unwatch(meter);
	progress_attach(NULL);
	mine.rc = rc;
	mine.ops = meter->ops;
	mine.bytes = meter->bytes;
	mine.lat = &meter->lat;
	mine.readdir_passes = meter->readdir_passes;
	mine.error = ctx->error;
	rc = dist_phase_done(&mine, t0, pf, p->id, ranks, ctx->error,
	    sizeof(ctx->error));
	/* on every rank alike, after the clock: rc is the whole run's */
	if (rc == PHASE_OK && p->after_all != NULL)
		rc = agree(ctx, untimed(ctx, p, "after", p->after_all));
	/* on every rank alike: rc is the whole run's */
	if (rc == PHASE_OK && p->shares_made && ctx->read_other)
		rc = share_made(ctx, phase_family_of(p));
	/* this process's own stall and stops (rank 0's with several ranks) */
	stall_seen(meter, &pf->stall_ns, pf->stall_call, sizeof(pf->stall_call));
	pf->stopped_ns = stall_stopped(meter);
	if (pf->stopped_ns > mine.elapsed_ns)
		pf->stopped_ns = mine.elapsed_ns;
	return rc;
}

/*
 * Wait for the others (-y), then time one phase here or in the copies;
 * it is the k-th of its point, from 1.
 */
static int run_phase(struct phase_ctx *ctx, struct copies *copies,
    const struct phase_def *p, unsigned k, struct result *res)
{
	struct phase_figures *pf = &res->phase[p->id];
	int rc;

	memset(ctx->meter, 0, sizeof(*ctx->meter));
	ctx->label = p->label;
	switch (sync_wait(ctx->cfg, p->id, p->label)) {
	case SYNC_GO:
		break;
	case SYNC_INPUT_ENDED:
		/* nobody is left to say go: stopped, as by Control-C */
		snprintf(stop_reason, sizeof(stop_reason), ": standard input "
		    "ended before %s (-y p)", p->label);
		return PHASE_STOPPED;
	case SYNC_USED_UP:
		return phase_fail(ctx, NULL, "waiting on the semaphore (-y s): "
		    "used up by more runs than -p made it for", 0);
	default:
		if (phase_stop)
			return PHASE_STOPPED;
		return phase_fail(ctx, NULL, ctx->cfg->sync == SYNC_PROMPT ?
		    "waiting for Enter" : "waiting on the semaphore (-y s)", errno);
	}
	progress_phase_begin(ctx->cfg, p, k);
	stall_line_state();
	if (copies != NULL) {
		rc = copies_run_phase(copies, ctx, p, pf);
	} else {
		rc = time_phase(ctx, p, pf, res->ranks);
		if (p->release != NULL) {
			stall_step(ctx->meter, "after", p->label);
			p->release(ctx);
			stall_unwatch(ctx->meter);
		}
	}
	if (rc != PHASE_OK)
		return rc;
	progress_phase_done(ctx->cfg, p);
	stall_line_state();
	/* what the phase had to say besides its figures (phases never print) */
	if (ctx->meter->notice[0] != '\0')
		fprintf(stderr, "%sclyde: %s\n", progress_live() ? "\r\033[K" : "",
		    ctx->meter->notice);
	/* a stop (SIGSTOP, Ctrl-Z) counted in its time: the rate is no measure */
	if (pf->stopped_ns > 0)
		fprintf(stderr, "%sclyde: %s: the phase was stopped for %.1f s "
		    "of its %.1f s; its rate is not valid\n",
		    progress_live() ? "\r\033[K" : "", p->label,
		    (double)pf->stopped_ns / 1e9, (double)pf->elapsed_ns / 1e9);
	return PHASE_OK;
}

/* Remove what the phases made, then the scratch directory itself. */
static int teardown(struct phase_ctx *ctx, struct copies *copies,
    const char *path)
{
	char quoted[2 * PATH_MAX];
	bool failed;
	int len, rc;

	shell_quote(quoted, sizeof(quoted), path);
	len = snprintf(left_behind_msg, sizeof(left_behind_msg),
	    "\nclyde: stopped during cleanup; remove what is left with: "
	    "rm -rf %s\n", quoted);
	if (len < 0 || (size_t)len >= sizeof(left_behind_msg))
		len = (int)sizeof(left_behind_msg) - 1;
	stop_cleanup_begin(left_behind_msg, (size_t)len);
	/* a second stop signal while a call of cleanup hangs says so too */
	stall_start(path, left_behind_msg, true);
	phase_cleanup_begin(ctx->cfg->cleanup_wait_s);
	test_hook_cleanup_start();
	failed = copies_finish(copies, ctx) != 0;
	stall_step(ctx->meter, "cleanup", NULL);
	phase_cleanup_all(ctx);
	/* --dirs-shared: rank 0's part once every rank has removed its own */
	if (ctx->shared_fd >= 0) {
		stall_unwatch(ctx->meter);
		dist_all_ok(true);
		stall_step(ctx->meter, "cleanup", NULL);
		for (size_t i = 0; i < phase_family_count; i++)
			if (phase_families[i]->cleanup_shared != NULL)
				phase_families[i]->cleanup_shared(ctx);
	}
	phase_cleanup_report(ctx);
	rc = scratch_remove(ctx, path);
	stall_unwatch(ctx->meter);
	if (failed)
		rc = -1;
	phase_cleanup_end();
	close(ctx->target_fd);
	ctx->target_fd = -1;
	/* back where the run started: the next run of -x finds a relative -d */
	if (ctx->start_fd >= 0 && fchdir(ctx->start_fd) != 0) {
		fprintf(stderr, "clyde: back to the directory the run started "
		    "in: %s\n", strerror(errno));
		rc = -1;
	}
	if (ctx->start_fd >= 0)
		close(ctx->start_fd);
	ctx->start_fd = -1;
	stop_cleanup_end();
	return rc;
}

/* How the phases ended, said once, into the result and on stderr. */
static void report_end(const struct config *cfg, const struct phase_ctx *ctx,
    int rc, struct result *res)
{
	/* the live line is cleared, bonnie++'s open line ended */
	const char *nl = cfg->quiet ? "" : progress_live() ? "\r\033[K" : "\n";

	if (rc == PHASE_ERROR) {
		fprintf(stderr, "%sclyde: %s\n", nl, ctx->error);
		res->status = RUN_FAILED;
		snprintf(res->error, sizeof(res->error), "%s", ctx->error);
	} else if (rc == PHASE_STOPPED) {
		fprintf(stderr, "%sclyde: interrupted%s; removing what the run "
		    "made\n", nl, stop_reason[0] != '\0' ? stop_reason :
		    stop_signal_name());
		res->status = RUN_INTERRUPTED;
	}
}

/*
 * Every enabled phase in table order, until one fails or a stop; after
 * the first point of a sweep, only those that run at every point.
 */
static int run_point(struct phase_ctx *ctx, struct copies *copies,
    struct result *res, bool first)
{
	const struct phase_def *p;
	unsigned k = 0;
	int rc = PHASE_OK;

	for (size_t i = 0; (p = phase_at(i)) != NULL && rc == PHASE_OK; i++) {
		if (!phase_runs_at(p, ctx->cfg, first))
			continue;
		rc = run_phase(ctx, copies, p, ++k, res);
		if (rc == PHASE_STOPPED)
			res->cut_phase = (unsigned)p->id + 1;
		if (rc == PHASE_OK)
			rc = phase_check_stop();
	}
	return rc;
}

/*
 * The points of the run in order, each into the next record; *nres
 * counts the records begun.  A point is a --sizes size by a --chunks
 * size (one without); its phases see its own file size (config_at_point()).
 */
static int run_points(struct phase_ctx *ctx, struct copies *copies,
    const bool *skip, struct result *res, unsigned *nres)
{
	const struct config *cfg = ctx->cfg;
	struct config point;
	unsigned i, n = 0, total = 0;
	int rc = PHASE_OK;

	for (i = 0; i < config_points(cfg); i++)
		total += !skip[i];
	progress_start(cfg, phase_count_at(cfg, true),
	    phase_count_at(cfg, false));
	for (i = 0; i < config_points(cfg) && rc == PHASE_OK; i++) {
		if (skip[i])
			continue;
		ctx->chunk = config_point_chunk(cfg, i);
		ctx->point = i;
		config_at_point(cfg, i, &point);
		ctx->cfg = &point;
		result_set_point(&res[n], cfg, i, n == 0);
		if (config_sweeps(cfg))
			progress_point(cfg, i, n, total);
		rc = run_point(ctx, copies, &res[n], n == 0);
		ctx->cfg = cfg;
		report_end(cfg, ctx, rc, &res[n]);
		n++;
	}
	progress_stop();
	*nres = n;
	return rc;
}

/*
 * -D: can the filesystem take O_DIRECT with each chunk, as family f does
 * its I/O?  Without a sweep a refusal stops the run; a sweep leaves the
 * size out (skip[i]), said on stderr, and stops only when it has none
 * left.  The ranks agree.
 */
static int check_direct(struct phase_ctx *ctx, const struct phase_family *f,
    bool *skip)
{
	const struct config *cfg = ctx->cfg;
	unsigned i, left = 0, nch = cfg->nchunks > 0 ? cfg->nchunks : 1;
	int rc;

	ctx->label = "-D";
	for (i = 0; i < config_points(cfg); i++) {
		char size[32];

		/* the next file size: the same chunks, the same answers */
		if (i >= nch) {
			skip[i] = skip[i - nch];
			left += !skip[i];
			continue;
		}
		ctx->chunk = config_point_chunk(cfg, i);
		stall_step(ctx->meter, "starting", NULL);
		rc = f->check_direct(ctx);
		stall_unwatch(ctx->meter);
		skip[i] = !dist_all_ok(rc == PHASE_OK);
		if (!skip[i]) {
			left++;
			continue;
		}
		if (cfg->nchunks == 0) {
			if (rc == PHASE_ERROR)
				fprintf(stderr, "clyde: %s\n", ctx->error);
			return PHASE_ERROR;
		}
		fmt_chunk(size, sizeof(size), ctx->chunk);
		if (rc == PHASE_ERROR)
			fprintf(stderr, "clyde: --chunks %s: refused by -D "
			    "(O_DIRECT) on this filesystem: skipped (%s)\n",
			    size, ctx->error);
		else if (dist_rank() == 0)
			fprintf(stderr, "clyde: --chunks %s: refused by -D "
			    "(O_DIRECT) on another rank: skipped\n", size);
	}
	ctx->chunk = cfg->chunk;
	if (left > 0)
		return PHASE_OK;
	if (dist_rank() == 0)
		fputs("clyde: --chunks: -D (O_DIRECT): every chunk size was "
		    "refused\n", stderr);
	return PHASE_ERROR;
}

/*
 * Before any phase, for each family whose phases run: -D's check, then
 * what it reserves; nothing measured, so the run could not start.
 */
static int prepare_families(struct phase_ctx *ctx, bool *skip)
{
	const struct config *cfg = ctx->cfg;

	for (size_t i = 0; i < phase_family_count; i++) {
		const struct phase_family *f = phase_families[i];

		if (cfg->direct_io && f->check_direct != NULL &&
		    phase_family_runs(f, cfg) &&
		    check_direct(ctx, f, skip) != PHASE_OK)
			return PHASE_ERROR;
	}
	for (size_t i = 0; i < phase_family_count; i++) {
		const struct phase_family *f = phase_families[i];

		if (f->reserve != NULL && phase_family_runs(f, cfg) &&
		    f->reserve(ctx) == PHASE_ERROR) {
			fprintf(stderr, "clyde: %s\n", ctx->error);
			return PHASE_ERROR;
		}
	}
	return PHASE_OK;
}

/*
 * The scratch directory path is about to be made: a second stop signal
 * while that mkdir, or the writing of the record, hangs names it, made
 * or made once the call returns.
 */
static void scratch_trying(const char *path)
{
	char quoted[2 * PATH_MAX];

	shell_quote(quoted, sizeof(quoted), path);
	snprintf(stuck_msg, sizeof(stuck_msg), "\nclyde: a call on the "
	    "filesystem does not return as the run starts; stopped without "
	    "cleanup: remove what it made, or makes once it returns, with: "
	    "rm -rf %s\n", quoted);
	stall_start("", stuck_msg, false);
}

int phase_run_all(const struct config *cfg, int target_fd,
    struct result *res, unsigned *nres)
{
	struct phase_ctx ctx;
	struct copies *copies = NULL;
	char path[PATH_MAX];
	bool made = false, skip[POINTS_MAX] = { false };
	const char *what = NULL;
	int rc, exit_rc = EXIT_CANNOT_START;

	*nres = 0;
	test_hooks_load();
	stop_reason[0] = '\0';
	/* before any rank makes its own: theirs would look stale */
	if (dist_rank() == 0)
		scratch_report_stale(target_fd, cfg->dir);
	dist_all_ok(true);
	op_clock_init();
	latency_over_set(cfg->latency_over_ns, cfg->nlatency_over);
	rc = setup_ctx(&ctx, cfg);
	if (rc != EXIT_OK)
		exit_rc = rc;
	/* the meter holds a histogram: keep it off the stack; the watcher's
	 * when there is one, else memory the seekers share (phases/ctx.h) */
	if (rc == EXIT_OK && (ctx.meter = stall_meter(0)) == NULL &&
	    (ctx.meter = mmap(NULL, sizeof(*ctx.meter), PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0)) == MAP_FAILED)
		ctx.meter = NULL;
	/* the start of the run is watched too (making the directory, its record) */
	if (rc == EXIT_OK && ctx.meter != NULL) {
		stall_step(ctx.meter, "starting", NULL);
		made = scratch_make(&ctx, target_fd, cfg->dir, path,
		    sizeof(path), scratch_trying) == 0;
		stall_unwatch(ctx.meter);
	}
	if (made) {
		char quoted[2 * PATH_MAX];

		shell_quote(quoted, sizeof(quoted), path);
		snprintf(scratch_path, sizeof(scratch_path), "%s", path);
		stall_scratch_made(path, ctx.scratch_dev, ctx.scratch_ino);
		snprintf(stuck_msg, sizeof(stuck_msg), "\nclyde: a call on the "
		    "filesystem does not return; stopped without cleanup: "
		    "remove what is left with: rm -rf %s\n", quoted);
		/* from here to the end of cleanup, --stall watches */
		stall_start(scratch_path, stuck_msg, false);
	}
	dist_watch(cfg->stall_s);
	dist_share_scratch(made ? path : "");
	if (!dist_all_ok(made)) {
		if (made)
			fprintf(stderr, "clyde: another rank could not start\n");
		goto out;
	}
	if (find_read_dir(&ctx) != PHASE_OK || find_shared_dir(&ctx) != PHASE_OK)
		goto out;
	if (prepare_families(&ctx, skip) != PHASE_OK)
		goto out;
	stall_step(ctx.meter, "starting", NULL);
	if (cfg->concurrency > 1)
		copies = copies_start(&ctx, cfg->concurrency, &what);
	stall_unwatch(ctx.meter);
	if (cfg->concurrency > 1 && copies == NULL) {
		ctx.label = "-c";
		if (phase_fail(&ctx, NULL, what, errno) == PHASE_ERROR)
			fprintf(stderr, "clyde: %s\n", ctx.error);
		goto out;
	}
	rc = run_points(&ctx, copies, skip, res, nres);
	if (rc == PHASE_STOPPED)
		exit_rc = EXIT_INTERRUPTED;
	else if (rc == PHASE_ERROR)
		exit_rc = EXIT_IO_ERROR;
	else
		exit_rc = EXIT_OK;
out:
	if (made && teardown(&ctx, copies, path) != 0 && exit_rc == EXIT_OK)
		exit_rc = EXIT_IO_ERROR;
	if (ctx.read_fd >= 0)
		close(ctx.read_fd);
	ctx.read_other = false;
	/* rank 0's is its scratch directory's, closed with it */
	if (ctx.shared_fd >= 0 && dist_rank() != 0)
		close(ctx.shared_fd);
	ctx.shared_fd = -1;
	stall_stop();
	if (ctx.meter != NULL && ctx.meter != stall_meter(0))
		munmap(ctx.meter, sizeof(*ctx.meter));
	free(ctx.buf);
	rng_free(&ctx.rng);
	return exit_rc;
}
