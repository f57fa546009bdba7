/*
 * run/copies.c: -c N, bonnie++ 2.00's concurrency.
 *
 * Each copy is a process of its own, forked once per run (copies_start)
 * and ended at cleanup (copies_finish), not a thread: a second thread
 * would share the descriptor table, and every read() and write() of
 * every copy would take the kernel's slower path for shared tables.
 * Once per run, not per phase: a copy keeps its state from phase to
 * phase (its data files, the names of its small files, its random
 * source), as the one process of a run without -c does, so the phase
 * code needs no change.  Each copy has its own context and works in its
 * own subdirectory copy.K of the scratch directory.
 *
 * The parent measures nothing itself.  For every phase it tells each
 * copy to prepare (a byte on the copy's command pipe); each runs
 * prepare() and says it is ready (a byte on its report pipe).  When all
 * are, the parent opens the gate: "go" to each, or "abandon" to all when
 * one failed or a stop came.  Each copy notes its own start, end and CPU
 * time (its own and its reaped seekers', getrusage()) in its slot of a
 * mapping shared with the parent (MAP_SHARED), counts its work and
 * latency in a meter there (the stall watcher's, stall_meter(k + 1),
 * when there is one), and says it is done; the parent merges the slots
 * into one phase.  A copy that ends before it is told to (killed) closes
 * its report pipe: the parent sees it, stops the others, fails the phase
 * naming that copy, and at cleanup removes what it left.  The copies die
 * with the parent (PR_SET_PDEATHSIG); every stop signal the parent
 * counts is passed on to them (core/stop.h), and a copy stopped by a signal
 * of its own stops the run.
 */
/* MAP_ANONYMOUS is outside POSIX 2008; glibc shows it with this. */
#define _DEFAULT_SOURCE

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#ifdef __linux__
#include <sys/prctl.h>          /* PR_SET_PDEATHSIG */
#endif
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "phases/phase.h"
#include "run/copies.h"
#include "phases/names.h"
#include "run/progress.h"
#include "run/stall.h"
#include "core/stop.h"
#include "core/test_hooks.h"
#include "core/tick.h"

#ifndef MAP_ANONYMOUS
#define MAP_ANONYMOUS MAP_ANON
#endif

/* The parent's commands: one byte on a copy's command pipe. */
#define CMD_PREPARE 'P'         /* the phase and chunk are in the shared head */
#define CMD_GO      'G'         /* run the prepared phase */
#define CMD_ABANDON 'A'         /* do not: another copy failed, or a stop */
#define CMD_CLEANUP 'C'         /* remove what the copy made, then exit */
/* A copy's reports: one byte on its report pipe; its end: the copy ended. */
#define REP_PREPARED 'p'
#define REP_DONE     'd'
#define REP_CLEANED  'c'

/* What one copy writes for the parent, in the shared mapping. */
struct copy_slot {
	int rc;                         /* of the last prepare() or run() */
	int signal;                     /* the copy's first stop signal, or 0 */
	int64_t start_ns, end_ns, cpu_ns;
	char error[512];                /* with rc PHASE_ERROR */
	struct phase_meter meter;       /* the copy's, without a watcher */
};

/* The head of the shared mapping: what the parent asks, then the slots. */
struct shared_head {
	unsigned phase;                 /* phases/phase.h's phase_at() */
	unsigned chunk;                 /* the I/O chunk of the running point */
	unsigned point;                 /* that point (its file size) */
	struct copy_slot slot[];
};

/* The parent's view of one copy. */
struct copy {
	int dir_fd;                     /* copy.K, until the copy is forked */
	char *buf;                      /* its buffer, until forked */
	int cmd_fd;                     /* the parent writes the commands */
	int report_fd;                  /* the parent reads; -1 once ended */
	bool made;                      /* copy.K was made */
	bool ended;                     /* gone without being told */
	bool said;                      /* its end is reported already */
	char reply;                     /* its last report since asked */
	int status;                     /* as reaped */
	pid_t reaped;                   /* the pid it had */
	dev_t dev;                      /* copy.K as made */
	ino_t ino;
	struct copy_slot *slot;
	struct phase_meter *meter;      /* the watcher's, or the slot's */
	char dir[32];                   /* copy.K */
	char scratch_name[320];         /* <scratch>/copy.K, for messages */
};

struct copies {
	unsigned n;
	unsigned started;               /* forked: pid[0 .. started) */
	bool halted;                    /* this process stopped the copies */
	pid_t *pid;                     /* [n], 0 once reaped; core/stop.c reads it */
	struct shared_head *sh;
	size_t sh_len;
	struct pollfd *pfd;             /* [n], for the waits */
	unsigned *pfd_copy;             /* [n]: the copy of pfd[i] */
	struct copy copy[];
};

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* --- the copy process --------------------------------------------------- */

/* The next command, or 0 when the parent is gone. */
static char take(int fd)
{
	ssize_t got;
	char c;

	while ((got = read(fd, &c, 1)) < 0 && errno == EINTR)
		;
	return got == 1 ? c : 0;
}

static void tell(int fd, char c)
{
	/* an error: the parent is gone, and PR_SET_PDEATHSIG with it */
	while (write(fd, &c, 1) < 0 && errno == EINTR)
		;
}

static void note_rc(struct copy_slot *slot, const struct phase_ctx *ctx,
    int rc)
{
	slot->rc = rc;
	slot->signal = stop_signal();
	if (rc == PHASE_ERROR)
		memcpy(slot->error, ctx->error, sizeof(slot->error));
}

/* One phase: prepare, wait at the gate, run it on the clock. */
static void copy_phase(struct phase_ctx *ctx, struct copy_slot *slot,
    const struct phase_def *p, int cmd_fd, int report_fd)
{
	int64_t c0;
	int rc;

	memset(ctx->meter, 0, sizeof(*ctx->meter));
	ctx->label = p->label;
	slot->start_ns = slot->end_ns = slot->cpu_ns = 0;
	stall_step(ctx->meter, "preparing", p->label);
	rc = p->prepare != NULL ? p->prepare(ctx) : PHASE_OK;
	stall_unwatch(ctx->meter);
	note_rc(slot, ctx, rc);
	tell(report_fd, REP_PREPARED);
	if (take(cmd_fd) != CMD_GO) {
		if (rc == PHASE_OK)
			rc = PHASE_STOPPED;
	} else if (rc == PHASE_OK) {
		/* its own CPU and that of the seekers it reaps meanwhile */
		c0 = cpu_ns();
		stall_watch(ctx->meter, p->label);
		slot->start_ns = now_ns();
		rc = p->run(ctx);
		slot->end_ns = now_ns();
		stall_unwatch(ctx->meter);
		slot->cpu_ns = cpu_ns() - c0;
	}
	note_rc(slot, ctx, rc);
	tell(report_fd, REP_DONE);
}

/*
 * The copy: never returns into the parent's code and never calls exit(),
 * which would flush stdio buffers it shares with the parent.
 */
static _Noreturn void copy_main(struct copies *cp, const struct phase_ctx *base,
    unsigned k, pid_t parent, int cmd_fd, int report_fd, const sigset_t *mask)
{
	struct copy *c = &cp->copy[k];
	const struct phase_def *p = NULL;
	struct phase_ctx ctx;
	struct config point;
	char cmd;

#ifdef PR_SET_PDEATHSIG
	prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
	/* the parent may be gone before the request was made */
	if (getppid() != parent)
		_exit(1);
	/* the parent's list of copies, its stop signals and its lines are not ours */
	stop_forget_copies();
	stall_lines_elsewhere();
	progress_attach(NULL);
	for (unsigned j = 0; j < cp->n; j++) {
		if (j == k)
			continue;
		close_fd(&cp->copy[j].cmd_fd);
		close_fd(&cp->copy[j].report_fd);
		close_fd(&cp->copy[j].dir_fd);
	}
	sigprocmask(SIG_SETMASK, mask, NULL);

	ctx = *base;
	memset(&ctx.state, 0, sizeof(ctx.state));
	ctx.meter = c->meter;
	ctx.scratch_fd = c->dir_fd;
	ctx.scratch_name = c->scratch_name;
	ctx.buf = c->buf;
	ctx.cleanup_failures = 0;
	/* each copy draws its own names and positions */
	rng_seed(&ctx.rng, base->cfg->seed + k);
	while ((cmd = take(cmd_fd)) == CMD_PREPARE) {
		/* what the last phase freed when all had run it (phases/phase.h) */
		if (p != NULL && p->release != NULL) {
			stall_step(ctx.meter, "after", p->label);
			p->release(&ctx);
			stall_unwatch(ctx.meter);
		}
		p = phase_at(cp->sh->phase);
		ctx.chunk = cp->sh->chunk;
		config_at_point(base->cfg, cp->sh->point, &point);
		ctx.cfg = &point;
		copy_phase(&ctx, c->slot, p, cmd_fd, report_fd);
	}
	/* else the parent is gone: PR_SET_PDEATHSIG ends this one */
	if (cmd == CMD_CLEANUP) {
		stall_step(ctx.meter, "cleanup", NULL);
		phase_cleanup_begin(base->cfg->cleanup_wait_s);
		phase_cleanup_all(&ctx);
		phase_cleanup_report(&ctx);
		phase_cleanup_end();
		stall_unwatch(ctx.meter);
		close(ctx.scratch_fd);
		tell(report_fd, REP_CLEANED);
	}
	_exit(0);
}

/* --- the parent --------------------------------------------------------- */

/* copy.K, its buffer and its meter, before it is forked. */
static int setup_copy(struct copies *cp, const struct phase_ctx *base,
    unsigned k)
{
	struct copy *c = &cp->copy[k];
	struct stat st;
	void *buf;

	c->slot = &cp->sh->slot[k];
	if ((c->meter = stall_meter(k + 1)) == NULL)
		c->meter = &c->slot->meter;
	snprintf(c->dir, sizeof(c->dir), "copy.%u", k);
	snprintf(c->scratch_name, sizeof(c->scratch_name), "%s/%s",
	    base->scratch_name, c->dir);
	if (posix_memalign(&buf, 4096, base->buf_size) != 0) {
		errno = ENOMEM;
		return -1;
	}
	memcpy(buf, base->buf, base->buf_size);
	c->buf = buf;
	if (mkdirat(base->scratch_fd, c->dir, 0700) != 0)
		return -1;
	c->made = true;
	c->dir_fd = openat(base->scratch_fd, c->dir,
	    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (c->dir_fd < 0 || fstat(c->dir_fd, &st) != 0)
		return -1;
	c->dev = st.st_dev;
	c->ino = st.st_ino;
	return 0;
}

static int fork_copy(struct copies *cp, const struct phase_ctx *base,
    unsigned k)
{
	struct copy *c = &cp->copy[k];
	int cmd[2], rep[2], err;
	sigset_t saved;
	pid_t parent = getpid(), pid;

	if (pipe(cmd) != 0)
		return -1;
	if (pipe(rep) != 0) {
		err = errno;
		close(cmd[0]);
		close(cmd[1]);
		errno = err;
		return -1;
	}
	/* what stdio holds must not be written twice */
	fflush(NULL);
	/* until the child has forgotten the parent's list of copies */
	stop_signals_block(&saved);
	pid = fork();
	if (pid == 0) {
		close(cmd[1]);
		close(rep[0]);
		copy_main(cp, base, k, parent, cmd[0], rep[1], &saved);
	}
	err = errno;
	close(cmd[0]);
	close(rep[1]);
	if (pid > 0) {
		cp->pid[k] = pid;
		cp->started = k + 1;
	}
	sigprocmask(SIG_SETMASK, &saved, NULL);
	if (pid < 0) {
		close(cmd[1]);
		close(rep[0]);
		errno = err;
		return -1;
	}
	c->cmd_fd = cmd[1];
	c->report_fd = rep[0];
	/* the copy's now */
	close_fd(&c->dir_fd);
	free(c->buf);
	c->buf = NULL;
	return 0;
}

struct copies *copies_start(const struct phase_ctx *base, unsigned n,
    const char **what)
{
	struct copies *cp;
	unsigned k;
	int err;

	*what = "making the copies";
	cp = calloc(1, sizeof(*cp) + n * sizeof(cp->copy[0]));
	if (cp == NULL)
		return NULL;
	for (k = 0; k < n; k++) {
		cp->copy[k].dir_fd = -1;
		cp->copy[k].cmd_fd = -1;
		cp->copy[k].report_fd = -1;
	}
	cp->pid = calloc(n, sizeof(cp->pid[0]));
	cp->pfd = calloc(n, sizeof(cp->pfd[0]));
	cp->pfd_copy = calloc(n, sizeof(cp->pfd_copy[0]));
	cp->sh_len = sizeof(*cp->sh) + n * sizeof(cp->sh->slot[0]);
	cp->sh = mmap(NULL, cp->sh_len, PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (cp->sh == MAP_FAILED)
		cp->sh = NULL;
	if (cp->pid == NULL || cp->pfd == NULL || cp->pfd_copy == NULL ||
	    cp->sh == NULL) {
		err = cp->sh == NULL ? errno : ENOMEM;
		goto fail;
	}
	cp->n = n;
	for (k = 0; k < n; k++)
		if (setup_copy(cp, base, k) != 0) {
			err = errno;
			cp->n = k + 1;
			goto fail;
		}
	/* every stop signal counted here goes on to the copies (core/stop.h) */
	stop_copies_set(cp->pid, &cp->started);
	*what = "starting a copy's process";
	for (k = 0; k < n; k++)
		if (fork_copy(cp, base, k) != 0) {
			err = errno;
			goto fail;
		}
	return cp;
fail:
	copies_finish(cp, (struct phase_ctx *)base);
	errno = err;
	return NULL;
}

static void command_all(struct copies *cp, char cmd)
{
	unsigned k;

	for (k = 0; k < cp->started; k++) {
		struct copy *c = &cp->copy[k];

		/* one that is gone: its report pipe says so (SIGPIPE is ignored) */
		if (c->report_fd >= 0)
			while (write(c->cmd_fd, &cmd, 1) < 0 && errno == EINTR)
				;
	}
}

/*
 * Reap copy k, which has ended or is ending.  Its pid is forgotten
 * before it is reaped, so that a stop signal is never passed on to
 * another process that got the number.
 */
static void reap(struct copies *cp, unsigned k)
{
	struct copy *c = &cp->copy[k];
	pid_t pid = cp->pid[k];
	siginfo_t si;

	if (pid <= 0)
		return;
	while (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT) != 0 &&
	    errno == EINTR)
		;
	cp->pid[k] = 0;
	while (waitpid(pid, &c->status, 0) < 0 && errno == EINTR)
		;
	c->reaped = pid;
}

/* Copy k ended without being told: its report pipe has ended. */
static void copy_ended(struct copies *cp, unsigned k)
{
	struct copy *c = &cp->copy[k];

	close_fd(&c->report_fd);
	close_fd(&c->cmd_fd);
	c->ended = true;
	reap(cp, k);
	/* what it watched is over: the watcher must not wait for it */
	stall_unwatch(c->meter);
}

/* The others stop their phase at once; this process does not stop. */
static void stop_others(struct copies *cp)
{
	unsigned k;

	cp->halted = true;
	for (k = 0; k < cp->started; k++)
		if (cp->pid[k] > 0 && !cp->copy[k].ended)
			stop_forward(cp->pid[k], SIGTERM, getpid());
}

/*
 * Wait until every copy that is still there has sent want, drawing the
 * live line meanwhile.  While a phase runs (running), a copy that ends,
 * or stops on a signal of its own, stops the others at once.
 */
static void wait_all(struct copies *cp, char want, bool running)
{
	unsigned k, i, n;

	for (k = 0; k < cp->started; k++)
		cp->copy[k].reply = 0;
	for (;;) {
		n = 0;
		for (k = 0; k < cp->started; k++) {
			struct copy *c = &cp->copy[k];

			if (c->report_fd < 0 || c->reply == want)
				continue;
			cp->pfd[n].fd = c->report_fd;
			cp->pfd[n].events = POLLIN;
			cp->pfd[n].revents = 0;
			cp->pfd_copy[n++] = k;
		}
		if (n == 0)
			return;
		if (poll(cp->pfd, n, -1) < 0) {
			if (errno == EINTR && tick_due)
				progress_tick();
			continue;
		}
		for (i = 0; i < n; i++) {
			struct copy *c = &cp->copy[cp->pfd_copy[i]];
			ssize_t got;
			char b;

			if (cp->pfd[i].revents == 0)
				continue;
			got = read(c->report_fd, &b, 1);
			if (got < 0 && (errno == EINTR || errno == EAGAIN))
				continue;
			if (got != 1) {
				copy_ended(cp, cp->pfd_copy[i]);
				if (running)
					stop_others(cp);
				continue;
			}
			c->reply = b;
			/* a copy stopped by its own signal stops the run */
			if (running && b == REP_DONE && !cp->halted &&
			    c->slot->rc == PHASE_STOPPED && !phase_stop)
				stop_adopt(c->slot->signal);
		}
	}
}

/* "copy process (pid 123) killed by signal 9" */
static void describe_end(const struct copy *c, char *out, size_t n)
{
	if (WIFSIGNALED(c->status))
		snprintf(out, n, "copy process (pid %ld) killed by signal %d",
		    (long)c->reaped, WTERMSIG(c->status));
	else
		snprintf(out, n, "copy process (pid %ld) exit status %d",
		    (long)c->reaped, WEXITSTATUS(c->status));
}

/* A copy that ended: an error of the phase, said once. */
static int ended_rc(struct phase_ctx *base, struct copy *c)
{
	char what[96];

	if (c->said)
		return PHASE_ERROR;
	c->said = true;
	/* killed along with the rest, by the user: a stop */
	if (phase_stop && WIFSIGNALED(c->status))
		return PHASE_STOPPED;
	describe_end(c, what, sizeof(what));
	return phase_fail(base, c->dir, what, 0);
}

/*
 * How the phase ended over all copies: the first error (a copy that
 * ended is one; its message is in base->error), else a stop, else OK.
 */
static int outcome(struct copies *cp, struct phase_ctx *base)
{
	int rc = PHASE_OK;
	unsigned k;

	for (k = 0; k < cp->started; k++) {
		struct copy *c = &cp->copy[k];

		if (c->ended) {
			if (c->said)
				continue;
			if (ended_rc(base, c) == PHASE_ERROR)
				return PHASE_ERROR;
			rc = PHASE_STOPPED;
		} else if (c->slot->rc == PHASE_ERROR) {
			memcpy(base->error, c->slot->error, sizeof(base->error));
			return PHASE_ERROR;
		} else if (c->slot->rc != PHASE_OK) {
			rc = PHASE_STOPPED;
		}
	}
	return rc;
}

/* The figures of all copies as one phase. */
static void merge(struct copies *cp, struct phase_figures *pf)
{
	struct latency *lat = &cp->copy[0].meter->lat;
	int64_t first = cp->copy[0].slot->start_ns;
	int64_t last = cp->copy[0].slot->end_ns;
	int64_t stall_ns, stopped_ns;
	char call[sizeof(pf->stall_call)];
	unsigned k;

	pf->ops = pf->bytes = 0;
	pf->stopped_ns = 0;
	pf->readdir_passes = 0;
	pf->stall_ns = 0;
	pf->stall_call[0] = '\0';
	pf->cpu_ns = 0;
	for (k = 0; k < cp->n; k++) {
		struct copy *c = &cp->copy[k];

		if (c->slot->start_ns < first)
			first = c->slot->start_ns;
		if (c->slot->end_ns > last)
			last = c->slot->end_ns;
		pf->ops += c->meter->ops;
		pf->bytes += c->meter->bytes;
		/* the most passes any copy needed */
		if (c->meter->readdir_passes > pf->readdir_passes)
			pf->readdir_passes = c->meter->readdir_passes;
		/* each copy's own CPU and its seekers', once each */
		pf->cpu_ns += c->slot->cpu_ns;
		/* the longest stall of any copy */
		if (stall_seen(c->meter, &stall_ns, call, sizeof(call)) &&
		    stall_ns > pf->stall_ns) {
			pf->stall_ns = stall_ns;
			memcpy(pf->stall_call, call, sizeof(pf->stall_call));
		}
		/* the longest any copy was stopped, within its own time */
		stopped_ns = stall_stopped(c->meter);
		if (stopped_ns > c->slot->end_ns - c->slot->start_ns)
			stopped_ns = c->slot->end_ns - c->slot->start_ns;
		if (stopped_ns > pf->stopped_ns)
			pf->stopped_ns = stopped_ns;
		if (k > 0)
			latency_merge(lat, &c->meter->lat);
	}
	pf->elapsed_ns = last - first;
	latency_summarize(lat, &pf->lat);
}

int copies_run_phase(struct copies *cp, struct phase_ctx *base,
    const struct phase_def *p, struct phase_figures *pf)
{
	unsigned k;
	int rc;

	cp->sh->phase = (unsigned)phase_index(p);
	/* the point of a --chunks sweep the phase runs at */
	cp->sh->chunk = base->chunk;
	cp->sh->point = base->point;
	test_hook_phase_prepare(p->id);
	command_all(cp, CMD_PREPARE);
	wait_all(cp, REP_PREPARED, false);
	/* one gate: all go, or none */
	rc = outcome(cp, base);
	if (rc == PHASE_OK && phase_stop)
		rc = PHASE_STOPPED;
	if (rc == PHASE_OK) {
		/* the first copy's meter is shown; the lines are this process's */
		progress_attach(cp->copy[0].meter);
		stall_line_state();
		command_all(cp, CMD_GO);
		test_hook_phase_start(p->id);
	} else {
		command_all(cp, CMD_ABANDON);
	}
	wait_all(cp, REP_DONE, rc == PHASE_OK);
	progress_attach(NULL);
	if (rc == PHASE_OK)
		rc = outcome(cp, base);
	if (rc != PHASE_OK)
		return rc;
	merge(cp, pf);
	/* the runner prints one copy's notice (each names its copy) */
	for (k = 0; k < cp->n && base->meter->notice[0] == '\0'; k++)
		memcpy(base->meter->notice, cp->copy[k].meter->notice,
		    sizeof(base->meter->notice));
	pf->ran = true;
	return PHASE_OK;
}

/* --- what a copy that ended left ---------------------------------------- */

/* Bonnie.<pid> or Bonnie.<pid>.NNN: a data file (phases/io.c) */
static bool data_file_name(const char *name, pid_t pid)
{
	char own[32];
	size_t len = (size_t)snprintf(own, sizeof(own), "Bonnie.%ld", (long)pid);

	if (strncmp(name, own, len) != 0)
		return false;
	name += len;
	return *name == '\0' || (name[0] == '.' && strlen(name) == 4 &&
	    strspn(name + 1, "0123456789") == 3);
}

/* A directory of the tree of --dirs: its number in hex (phases/dirs.c) */
static bool tree_name(const char *name)
{
	return counter_parse(name) != NOT_OURS && name[COUNTER_DIGITS] == '\0';
}

static bool is_dir(int dfd, const char *name)
{
	struct stat st;

	return fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISDIR(st.st_mode);
}

/*
 * Remove from directory rel (inside the scratch directory, open on dfd)
 * the names clyde's phases make there: depth 0 is copy.K, 1 files/ or
 * dirs/, 2 the subdirectories of files/; in_tree: rel is in dirs/, whose
 * tree holds directories alone.  Anything else is left and named, as
 * cleanup does.
 */
static void remove_ours(struct phase_ctx *base, int dfd, const char *rel,
    unsigned depth, bool in_tree, pid_t pid)
{
	char path[PATH_MAX];
	struct dirent *de;
	char **names = NULL;
	size_t count = 0, cap = 0, i;
	DIR *d;
	int fd = dup(dfd);

	if (fd < 0 || (d = fdopendir(fd)) == NULL) {
		if (fd >= 0)
			close(fd);
		phase_cleanup_failed(base, rel, errno);
		return;
	}
	/* the names first: a directory read while it is emptied may skip some */
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (count == cap) {
			char **more = realloc(names, (cap ? cap * 2 : 64) *
			    sizeof(*names));

			if (more == NULL)
				break;
			names = more;
			cap = cap ? cap * 2 : 64;
		}
		if ((names[count] = strdup(de->d_name)) == NULL)
			break;
		count++;
	}
	closedir(d);
	for (i = 0; i < count; i++) {
		const char *name = names[i];
		bool dir = is_dir(dfd, name), file = false, sub = false;

		snprintf(path, sizeof(path), "%s/%s", rel, name);
		if (depth == 0)
			file = !dir && data_file_name(name, pid);
		else
			file = !dir && !in_tree && is_small_file_name(name);
		sub = dir && (in_tree ? tree_name(name) :
		    (depth == 0 && (strcmp(name, "files") == 0 ||
		    strcmp(name, "dirs") == 0)) ||
		    (depth == 1 && is_files_subdir_name(name)));
		if (sub) {
			int sfd = openat(dfd, name, O_RDONLY | O_DIRECTORY |
			    O_NOFOLLOW | O_CLOEXEC);

			if (sfd < 0) {
				phase_cleanup_failed(base, path, errno);
			} else {
				remove_ours(base, sfd, path, depth + 1, in_tree ||
				    (depth == 0 && strcmp(name, "dirs") == 0), pid);
				close(sfd);
				phase_cleanup_failed(base, path, phase_remove(base,
				    dfd, rel, name, AT_REMOVEDIR));
			}
		} else if (file) {
			phase_cleanup_failed(base, path,
			    phase_remove(base, dfd, rel, name, 0));
		} else if (strncmp(name, ".nfs", 4) != 0 &&
		    strncmp(name, ".fuse_hidden", 12) != 0) {
			/* NFS and FUSE remove those themselves */
			phase_cleanup_left(base, path, "not made by clyde");
		}
		free(names[i]);
	}
	free(names);
}

/*
 * A copy that ended without cleaning up took its record of what it made
 * with it: its directory, when it is still the one made, is emptied of
 * the names that clyde's phases make, and of nothing else.
 */
static void remove_left(struct phase_ctx *base, const struct copy *c)
{
	struct stat st;
	int fd = openat(base->scratch_fd, c->dir,
	    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0) {
		phase_cleanup_failed(base, c->dir, errno);
		return;
	}
	if (fstat(fd, &st) != 0 || st.st_dev != c->dev || st.st_ino != c->ino)
		phase_cleanup_left(base, c->dir, "not the directory clyde made");
	else
		remove_ours(base, fd, c->dir, 0, false, base->pid);
	close(fd);
}

int copies_finish(struct copies *cp, struct phase_ctx *base)
{
	char what[96];
	unsigned k;
	int rc = 0;

	if (cp == NULL)
		return 0;
	/* each removes what it made, all at once */
	command_all(cp, CMD_CLEANUP);
	wait_all(cp, REP_CLEANED, false);
	/* what this process removes itself, from here */
	stall_step(base->meter, "cleanup", NULL);
	for (k = 0; k < cp->n; k++) {
		struct copy *c = &cp->copy[k];

		if (k < cp->started && !c->ended && c->reply != REP_CLEANED)
			copy_ended(cp, k);
		reap(cp, k);
		close_fd(&c->cmd_fd);
		close_fd(&c->report_fd);
		close_fd(&c->dir_fd);
		free(c->buf);
		if (c->ended) {
			/* ended after its last phase: the run fails all the same */
			if (!c->said) {
				describe_end(c, what, sizeof(what));
				fprintf(stderr, "clyde: %s: %s; removing what it "
				    "made by its names\n", c->scratch_name, what);
				c->said = true;
				rc = -1;
			}
			remove_left(base, c);
		}
		if (c->made)
			phase_cleanup_failed(base, c->dir, phase_remove(base,
			    base->scratch_fd, "", c->dir, AT_REMOVEDIR));
	}
	stop_copies_set(NULL, NULL);
	if (cp->sh != NULL)
		munmap(cp->sh, cp->sh_len);
	free(cp->pid);
	free(cp->pfd);
	free(cp->pfd_copy);
	free(cp);
	return rc;
}
