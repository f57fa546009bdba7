/*
 * progress.c: what a run shows on stderr while it runs: bonnie++'s own
 * lines ("Writing intelligently...done"), or on a terminal one line
 * redrawn twice a second with the phase, the percentage done and the
 * time left.  With several ranks only rank 0 speaks.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "dist.h"
#include "phase.h"
#include "phase_ctx.h"
#include "progress.h"
#include "stop.h"

volatile sig_atomic_t progress_tick_due;

/*
 * The live progress line: what is shown, set by the main thread before
 * a phase starts.  Only the attached thread draws, from its own meter.
 */
static struct {
	bool on;
	const char *label;
	char point[48];                 /* "chunk 64k (2/3) " in a sweep, or "" */
	uint64_t total;                 /* ops the phase will count; 0 unknown */
	int64_t start_ns;
} live;
static _Thread_local const struct phase_meter *shown_meter;
/* the last of bonnie++'s lines written has no newline yet */
static bool line_open;


/* The interval timer's SIGALRM; one sent by a process stops the run. */
static void on_tick(int sig, siginfo_t *si, void *uc)
{
	if (stop_sender(si) != 0) {
		stop_on_signal(sig, si, uc);
		return;
	}
	progress_tick_due = 1;
}

void progress_attach(const struct phase_meter *meter)
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

void progress_tick(void)
{
	char line[160], elapsed[32], left[32];
	const struct phase_meter *m = shown_meter;
	int64_t ns;
	int len;

	if (m == NULL)
		return;
	progress_tick_due = 0;
	dist_poll();
	if (!live.on)
		return;
	ns = now_ns() - live.start_ns;
	fmt_duration(elapsed, sizeof(elapsed), ns);
	if (live.total > 0 && m->ops > 0 && m->ops <= live.total) {
		fmt_duration(left, sizeof(left), (int64_t)((double)ns *
		    (double)(live.total - m->ops) / (double)m->ops));
		len = snprintf(line, sizeof(line), "\r\033[K%s%s  %3d%%  %s, "
		    "about %s left", live.point, live.label,
		    (int)(m->ops * 100 / live.total), elapsed, left);
	} else {
		len = snprintf(line, sizeof(line), "\r\033[K%s%s  %s",
		    live.point, live.label, elapsed);
	}
	if (len > 0 && write(STDERR_FILENO, line, (size_t)len) < 0)
		live.on = false;
}

/* What a phase will count, for the percentage: bytes, seeks or files. */
static uint64_t phase_total(const struct config *cfg, enum phase_id id)
{
	if (id == PH_PUTC || id == PH_GETC)
		return cfg->per_char_mib * 1024 * 1024;
	if (id <= PH_GET_BLOCK)
		return cfg->file_size_mib * 1024 * 1024;
	if (id == PH_SEEKS)
		return 0;       /* the seekers count in their own processes */
	return (uint64_t)cfg->files.count_k * FILE_UNIT;
}

/* The redrawn line on a terminal (or always), never with -q. */
void progress_start(const struct config *cfg)
{
	struct sigaction sa;
	struct itimerval every = { { 0, 500000 }, { 0, 500000 } };

	live.point[0] = '\0';
	live.on = !cfg->quiet && dist_rank() == 0 &&
	    (cfg->progress == PROGRESS_ALWAYS ||
	    (cfg->progress == PROGRESS_AUTO && isatty(STDERR_FILENO)));
	/* with several ranks the ticks also look for a stop from the others */
	if (!live.on && dist_size() < 2)
		return;
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_sigaction = on_tick;
	/* a tick must not make a system call fail with EINTR */
	sa.sa_flags = SA_RESTART | SA_SIGINFO;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &every, NULL);
}

void progress_stop(void)
{
	struct itimerval off = { { 0, 0 }, { 0, 0 } };

	setitimer(ITIMER_REAL, &off, NULL);
	progress_tick_due = 0;
	if (!live.on)
		return;
	if (write(STDERR_FILENO, "\r\033[K", 4) < 0)
		live.on = false;
}

bool progress_live(void)
{
	return live.on;
}

static void progress(const struct config *cfg, const char *text)
{
	/* with several ranks, rank 0 speaks for all */
	if (cfg->quiet || live.on || text == NULL || dist_rank() != 0)
		return;
	fputs(text, stderr);
	fflush(stderr);
	line_open = text[0] != '\0' && text[strlen(text) - 1] != '\n';
}

bool progress_line_open(void)
{
	return line_open;
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

void progress_point(const struct config *cfg, unsigned chunk, unsigned i,
    unsigned n)
{
	char size[32], line[64];

	fmt_chunk(size, sizeof(size), chunk);
	snprintf(live.point, sizeof(live.point), "chunk %s (%u/%u) ", size,
	    i + 1, n);
	snprintf(line, sizeof(line), "Chunk size %s (%u/%u):\n", size, i + 1, n);
	progress(cfg, line);
}

void progress_phase_begin(const struct config *cfg, const struct phase_def *p)
{
	progress(cfg, progress_text(cfg, p));
	live.label = p->label;
	live.total = phase_total(cfg, p->id);
	live.start_ns = now_ns();
	if (live.on)
		fprintf(stderr, "\r\033[K%s%s", live.point, p->label);
}

void progress_phase_done(const struct config *cfg, const struct phase_def *p)
{
	unsigned i;

	if (p->id != PH_SEEKS) {
		progress(cfg, p->done);
		return;
	}
	/* bonnie++ says done once per seeker */
	for (i = 0; i < cfg->seekers; i++)
		progress(cfg, "done...");
	progress(cfg, "\n");
}
