/*
 * phase_copies.c: -c N, bonnie++ 2.00's concurrency.
 *
 * Each copy has its own context (buffer, random source, data files,
 * small files) and works in its own subdirectory copy.K of the scratch
 * directory, so the phase code needs no change.  For every phase, one
 * thread per copy runs prepare(), all meet at a barrier, then each runs
 * the timed part and notes its own start, end and CPU time.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "phase.h"
#include "phase_copies.h"
#include "stall.h"
#include "test_hooks.h"

struct copy {
	pthread_t thread;
	struct copies *all;
	struct phase_ctx ctx;
	struct phase_meter *meter;      /* the watcher's, or meter_own */
	struct phase_meter meter_own;
	char dir[32];                   /* copy.K */
	char scratch_name[320];         /* <scratch>/copy.K, for messages */
	int rc;
	int64_t start_ns, end_ns, cpu_ns;
};

struct copies {
	unsigned n;
	const struct phase_def *phase;  /* the phase being run */
	pthread_barrier_t ready;        /* every copy prepared */
	/* the threads wait here until all have started: 1 go, -1 give up */
	pthread_mutex_t gate_lock;
	pthread_cond_t gate_open;
	int gate;
	struct copy copy[];
};

/* CPU time of the calling thread: the copies share one process. */
static int64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int setup_copy(struct copy *c, const struct phase_ctx *base, unsigned k)
{
	void *buf;

	c->ctx = *base;
	c->ctx.io = NULL;
	c->ctx.files = NULL;
	c->ctx.seek = NULL;
	if ((c->meter = stall_meter(k + 1)) == NULL)
		c->meter = &c->meter_own;
	c->ctx.meter = c->meter;
	c->ctx.scratch_fd = -1;
	snprintf(c->dir, sizeof(c->dir), "copy.%u", k);
	snprintf(c->scratch_name, sizeof(c->scratch_name), "%s/%s",
	    base->scratch_name, c->dir);
	c->ctx.scratch_name = c->scratch_name;
	/* each copy draws its own names and positions */
	rng_seed(&c->ctx.rng, base->cfg->seed + k);
	c->ctx.rng.file_vals = NULL;
	if (posix_memalign(&buf, 4096, base->buf_size) != 0)
		return -1;
	memcpy(buf, base->buf, base->buf_size);
	c->ctx.buf = buf;
	if (mkdirat(base->scratch_fd, c->dir, 0700) != 0)
		return -1;
	c->ctx.scratch_fd = openat(base->scratch_fd, c->dir,
	    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	return c->ctx.scratch_fd < 0 ? -1 : 0;
}

struct copies *copies_start(const struct phase_ctx *base, unsigned n)
{
	struct copies *cp;
	unsigned k;

	cp = calloc(1, sizeof(*cp) + n * sizeof(cp->copy[0]));
	if (cp == NULL)
		return NULL;
	cp->n = n;
	pthread_mutex_init(&cp->gate_lock, NULL);
	pthread_cond_init(&cp->gate_open, NULL);
	for (k = 0; k < n; k++) {
		cp->copy[k].all = cp;
		if (setup_copy(&cp->copy[k], base, k) != 0) {
			int err = errno;

			cp->n = k + 1;
			copies_finish(cp, (struct phase_ctx *)base);
			errno = err;
			return NULL;
		}
	}
	return cp;
}

static void *copy_main(void *arg)
{
	struct copy *c = arg;
	const struct phase_def *p = c->all->phase;
	int64_t c0;

	int gate;

	pthread_mutex_lock(&c->all->gate_lock);
	while ((gate = c->all->gate) == 0)
		pthread_cond_wait(&c->all->gate_open, &c->all->gate_lock);
	pthread_mutex_unlock(&c->all->gate_lock);
	/* not every copy could start: none may wait at the barrier */
	if (gate < 0) {
		c->rc = PHASE_STOPPED;
		return NULL;
	}
	memset(c->meter, 0, sizeof(*c->meter));
	c->ctx.label = p->label;
	if (c == &c->all->copy[0])
		test_hook_phase_prepare(p->id);
	c->rc = p->prepare != NULL ? p->prepare(&c->ctx) : PHASE_OK;
	/* every copy waits here, prepared or failed, so none starts early */
	pthread_barrier_wait(&c->all->ready);
	if (c->rc != PHASE_OK)
		return NULL;
	/* the first copy shows its progress for all */
	if (c == &c->all->copy[0]) {
		progress_attach(c->meter);
		test_hook_phase_start(p->id);
	}
	c0 = thread_cpu_ns();
	stall_watch(c->meter, p->label);
	c->start_ns = now_ns();
	c->rc = p->run(&c->ctx);
	c->end_ns = now_ns();
	stall_unwatch(c->meter);
	c->cpu_ns = thread_cpu_ns() - c0;
	if (c == &c->all->copy[0])
		progress_attach(NULL);
	return NULL;
}

/* The figures of all copies as one phase. */
static void merge(struct copies *cp, struct phase_figures *pf,
    int64_t children_cpu_ns)
{
	struct latency *lat = &cp->copy[0].meter->lat;
	int64_t first = cp->copy[0].start_ns, last = cp->copy[0].end_ns;
	int64_t stall_ns;
	char call[sizeof(pf->stall_call)];
	unsigned k;

	pf->ops = pf->bytes = 0;
	pf->readdir_passes = 0;
	pf->stall_ns = 0;
	pf->stall_call[0] = '\0';
	pf->cpu_ns = children_cpu_ns;
	for (k = 0; k < cp->n; k++) {
		struct copy *c = &cp->copy[k];

		if (c->start_ns < first)
			first = c->start_ns;
		if (c->end_ns > last)
			last = c->end_ns;
		pf->ops += c->meter->ops;
		pf->bytes += c->meter->bytes;
		/* the most passes any copy needed */
		if (c->meter->readdir_passes > pf->readdir_passes)
			pf->readdir_passes = c->meter->readdir_passes;
		pf->cpu_ns += c->cpu_ns;
		/* the longest stall of any copy */
		if (stall_seen(c->meter, &stall_ns, call, sizeof(call)) &&
		    stall_ns > pf->stall_ns) {
			pf->stall_ns = stall_ns;
			memcpy(pf->stall_call, call, sizeof(pf->stall_call));
		}
		if (k > 0)
			latency_merge(lat, &c->meter->lat);
	}
	pf->elapsed_ns = last - first;
	latency_summarize(lat, &pf->lat);
}

/* Open the gate for the started threads: go, or all give up. */
static void open_gate(struct copies *cp, int gate)
{
	pthread_mutex_lock(&cp->gate_lock);
	cp->gate = gate;
	pthread_cond_broadcast(&cp->gate_open);
	pthread_mutex_unlock(&cp->gate_lock);
}

int copies_run_phase(struct copies *cp, struct phase_ctx *base,
    const struct phase_def *p, struct phase_figures *pf)
{
	int64_t kids0;
	unsigned k, started;
	int rc = PHASE_OK, err = 0;

	cp->phase = p;
	cp->gate = 0;
	/* the point of a --chunks sweep the phase runs at */
	for (k = 0; k < cp->n; k++)
		cp->copy[k].ctx.chunk = base->chunk;
	if (pthread_barrier_init(&cp->ready, NULL, cp->n) != 0)
		return phase_fail(base, NULL, "pthread_barrier_init", errno);
	kids0 = children_cpu_ns();
	for (started = 0; started < cp->n && err == 0; started++)
		err = pthread_create(&cp->copy[started].thread, NULL,
		    copy_main, &cp->copy[started]);
	if (err != 0)
		started--;
	open_gate(cp, err != 0 ? -1 : 1);
	for (k = 0; k < started; k++)
		pthread_join(cp->copy[k].thread, NULL);
	pthread_barrier_destroy(&cp->ready);
	if (err != 0)
		return phase_fail(base, NULL, "-c: starting a copy's thread", err);
	if (p->release != NULL)
		for (k = 0; k < cp->n; k++)
			p->release(&cp->copy[k].ctx);
	for (k = 0; k < cp->n && rc == PHASE_OK; k++) {
		rc = cp->copy[k].rc;
		if (rc == PHASE_ERROR)
			memcpy(base->error, cp->copy[k].ctx.error,
			    sizeof(base->error));
	}
	if (rc != PHASE_OK)
		return rc;
	/* each thread's own CPU, plus the seekers it reaped, once each */
	merge(cp, pf, children_cpu_ns() - kids0);
	/* the runner prints one copy's notice (each names its copy) */
	for (k = 0; k < cp->n && base->meter->notice[0] == '\0'; k++)
		memcpy(base->meter->notice, cp->copy[k].meter->notice,
		    sizeof(base->meter->notice));
	pf->ran = true;
	return PHASE_OK;
}

void copies_finish(struct copies *cp, struct phase_ctx *base)
{
	unsigned k;

	if (cp == NULL)
		return;
	for (k = 0; k < cp->n; k++) {
		struct copy *c = &cp->copy[k];

		if (c->ctx.scratch_fd >= 0) {
			phase_cleanup_all(&c->ctx);
			close(c->ctx.scratch_fd);
		}
		phase_cleanup_report(&c->ctx);
		if (c->dir[0] != '\0')
			phase_cleanup_failed(base, c->dir, phase_remove(base,
			    base->scratch_fd, "", c->dir, AT_REMOVEDIR));
		free(c->ctx.buf);
	}
	pthread_cond_destroy(&cp->gate_open);
	pthread_mutex_destroy(&cp->gate_lock);
	free(cp);
}
