/*
 * run/progress.c: what a run shows on stderr while it runs: bonnie++'s own
 * lines ("Writing intelligently...done"), or on a terminal one line
 * redrawn twice a second: where the run is (run k/N of -x, point k/P of
 * --chunks, phase k/M), the phase, its percentage and rate so far, and
 * the time left, cut to the terminal's width.  With several ranks only
 * rank 0 speaks.
 *
 * The line is drawn by the measuring process itself, from the phase
 * loops (phase_check_stop()) once the SIGALRM tick has set core/tick.h's
 * flag: all the work of a redraw is in progress_tick(), none in the loops.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/time.h>
#include <unistd.h>

#include "dist/dist.h"
#include "phases/phase.h"
#include "phases/ctx.h"
#include "run/progress.h"
#include "core/stop.h"
#include "core/tick.h"
#include "lib/units.h"

/* the terminal was resized: its width is read again at the next tick */
static volatile sig_atomic_t winch_due = 1;

/*
 * The live progress line: what is shown, set by the measuring process
 * before a phase starts.  Only the process that attached a meter draws.
 */
static struct {
	bool on;
	bool ticks;                     /* the SIGALRM tick is installed */
	const struct phase_def *phase;
	unsigned run, runs;             /* run from 1; runs 0 without -x */
	unsigned point, points;         /* point from 0; points 0 without a sweep */
	char point_label[24];           /* the point's sizes: "64k", "16M", "16M:64k" */
	unsigned phase_k;               /* the phase's place at its point, from 1 */
	unsigned first_phases, later_phases;    /* the phases of each point */
	uint64_t total;                 /* ops the phase will count; 0 unknown */
	int64_t start_ns;               /* the phase's begin, its prepare() included */
	int64_t clock_ns;               /* its clock's start (the meter attached) */
	int64_t run_start_ns;
	unsigned cols;                  /* the terminal's width; 0 none */
} live;
static _Thread_local const struct phase_meter *shown_meter;
/* the last of bonnie++'s lines written has no newline yet */
static bool line_open;
/*
 * What the k-th phase of each point took in the last run, from its begin
 * to its end (0: not yet run), and what the last whole run took: the
 * estimates of the time left (progress_tick()).
 */
static int64_t took[POINTS_MAX][PH_COUNT];
static int64_t run_took;


/* The interval timer's SIGALRM; one sent by a process stops the run. */
static void on_tick(int sig, siginfo_t *si, void *uc)
{
	if (stop_sender(si) != 0) {
		stop_on_signal(sig, si, uc);
		return;
	}
	tick_due = 1;
}

static void on_winch(int sig)
{
	(void)sig;
	winch_due = 1;
}

void progress_attach(const struct phase_meter *meter)
{
	shown_meter = meter;
	if (meter != NULL)
		live.clock_ns = now_ns();
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

/* The rate of ops in ns: bytes per second in units, or seeks, files. */
static void fmt_rate(char *out, size_t n, enum phase_id id, uint64_t ops,
    int64_t ns)
{
	static const char *const unit[] = { "KiB/s", "MiB/s", "GiB/s" };
	double r = (double)ops * 1e9 / (double)ns;
	int u = 0;

	if (id == PH_SEEKS || id >= PH_FIRST_FILE) {
		snprintf(out, n, "%.0f %s/s", r, id == PH_SEEKS ? "seeks" :
		    id >= PH_FIRST_DIR ? "dirs" : "files");
		return;
	}
	r /= 1024;
	while (r >= 1024 && u < 2) {
		r /= 1024;
		u++;
	}
	snprintf(out, n, r < 100 && u > 0 ? "%.1f %s" : "%.0f %s", r, unit[u]);
}

/* The ops the shown phase has done: the seekers count in the meter too. */
static uint64_t ops_done(const struct phase_meter *m)
{
	uint64_t ops = m->ops;

	if (live.phase->id == PH_SEEKS)
		ops = atomic_load_explicit(&((struct phase_meter *)m)->next_seek,
		    memory_order_relaxed);
	return ops < live.total ? ops : live.total;
}

/* The phases a run makes at point pt. */
static unsigned phases_at(unsigned pt)
{
	return pt == 0 ? live.first_phases : live.later_phases;
}

/*
 * What the k-th phase (from 1) of point pt took in the last run, or -1
 * when it has not run there yet.
 */
static int64_t took_at(unsigned pt, unsigned k)
{
	return took[pt][k - 1] > 0 ? took[pt][k - 1] : -1;
}

/*
 * The time left in the whole of clyde's work (every run of -x, every
 * point of --chunks), or -1 when it cannot be told: the running phase's
 * left (phase_left, -1 unknown), then every phase still to come as long
 * as it took in the last run at the same point, then each run still to
 * come as long as the last whole run (this one, while it is the first).
 */
static int64_t time_left(int64_t phase_left, int64_t now)
{
	unsigned pt, k, points = live.points > 0 ? live.points : 1;
	int64_t left = phase_left, t;

	if (left < 0)
		return -1;
	for (pt = live.point; pt < points; pt++)
		for (k = pt == live.point ? live.phase_k + 1 : 1;
		    k <= phases_at(pt); k++) {
			if ((t = took_at(pt, k)) < 0)
				return -1;
			left += t;
		}
	if (live.runs > live.run)
		left += (int64_t)(live.runs - live.run) * (run_took > 0 ?
		    run_took : now - live.run_start_ns + left);
	return left;
}

/* "\r\033[K": back to the line's start, and clear it */
#define CLEAR_LEN 4
/* a field's keep that is never left out (the phase's name) */
#define KEEP_ALWAYS 100

/* One field of the line, and how long it stays when the line is cut. */
struct field {
	char text[48];
	int keep;                       /* the lowest goes first */
};

/* The length of the fields kept, joined by two blanks. */
static size_t fields_len(const struct field *f, size_t nf)
{
	size_t i, len = 0;

	for (i = 0; i < nf; i++)
		if (f[i].keep >= 0)
			len += (len > 0 ? 2 : 0) + strlen(f[i].text);
	return len;
}

/*
 * The fields in their order, those of the lowest keep left out until
 * the line fits in width columns (0: any), then cut: "\r\033[K" and the
 * line into line[n], its length returned.
 */
static size_t join_fields(char *line, size_t n, struct field *f, size_t nf,
    unsigned width)
{
	size_t i, low, len;

	while (width > 0 && fields_len(f, nf) > width) {
		low = nf;
		for (i = 0; i < nf; i++)
			if (f[i].keep >= 0 && (low == nf || f[i].keep < f[low].keep))
				low = i;
		if (low == nf || f[low].keep >= KEEP_ALWAYS)
			break;
		f[low].keep = -1;
	}
	len = (size_t)snprintf(line, n, "\r\033[K");
	for (i = 0; i < nf && len < n; i++)
		if (f[i].keep >= 0)
			len += (size_t)snprintf(line + len, n - len, "%s%s",
			    len > CLEAR_LEN ? "  " : "", f[i].text);
	if (len >= n)
		len = n - 1;
	/* what is still too wide is cut, the escape kept */
	if (width > 0 && len > width + CLEAR_LEN)
		len = width + CLEAR_LEN;
	return len;
}

/*
 * Draw the line: ops done (the meter's; none before the clock starts)
 * at now.  Each field is there from the phase's start: "0%" first.
 */
static void draw(const struct phase_meter *m, int64_t now)
{
	enum { F_LABEL, F_PCT, F_RATE, F_PHASE, F_POINT, F_RUN, F_ELAPSED,
	    F_LEFT, F_ETA, F_N };
	struct field f[F_N];
	char line[512], t[32];
	uint64_t ops = m != NULL ? ops_done(m) : 0;
	int64_t ran = now - live.clock_ns, phase_left = -1, eta, t_took;
	/* the time the phase's processes were stopped is no time of its work */
	if (m != NULL && m->stopped_ns > 0 && m->stopped_ns < ran)
		ran -= m->stopped_ns;
	size_t len;

	memset(f, 0, sizeof(f));
	for (len = 0; len < F_N; len++)
		f[len].keep = -1;
	if (live.runs > 1) {
		snprintf(f[F_RUN].text, sizeof(f[F_RUN].text), "run %u/%u",
		    live.run, live.runs);
		f[F_RUN].keep = 3;
	}
	if (live.points > 0) {
		snprintf(f[F_POINT].text, sizeof(f[F_POINT].text),
		    "point %u/%u (%s)", live.point + 1, live.points,
		    live.point_label);
		f[F_POINT].keep = 5;
	}
	snprintf(f[F_PHASE].text, sizeof(f[F_PHASE].text), "phase %u/%u",
	    live.phase_k, phases_at(live.point));
	f[F_PHASE].keep = 6;
	snprintf(f[F_LABEL].text, sizeof(f[F_LABEL].text), "%s",
	    live.phase->label);
	f[F_LABEL].keep = KEEP_ALWAYS;
	if (live.total > 0) {
		snprintf(f[F_PCT].text, sizeof(f[F_PCT].text), "%d%%",
		    (int)(ops * 100 / live.total));
		f[F_PCT].keep = 9;
	}
	if (m != NULL && ran > 0) {
		fmt_rate(f[F_RATE].text, sizeof(f[F_RATE].text),
		    live.phase->id, ops, ran);
		f[F_RATE].keep = 7;
	}
	fmt_duration(f[F_ELAPSED].text, sizeof(f[F_ELAPSED].text),
	    now - live.start_ns);
	f[F_ELAPSED].keep = 2;
	/* the phase's rate so far, else what it took in the last run */
	if (m != NULL && ops > 0 && ran > 0)
		phase_left = (int64_t)((double)ran * (double)(live.total - ops) /
		    (double)ops);
	else if ((t_took = took_at(live.point, live.phase_k)) >= 0)
		phase_left = t_took > now - live.start_ns ?
		    t_took - (now - live.start_ns) : 0;
	if (phase_left >= 0) {
		fmt_duration(t, sizeof(t), phase_left);
		snprintf(f[F_LEFT].text, sizeof(f[F_LEFT].text), "%s left", t);
		f[F_LEFT].keep = 4;
	}
	if ((eta = time_left(phase_left, now)) >= 0) {
		fmt_duration(t, sizeof(t), eta);
		snprintf(f[F_ETA].text, sizeof(f[F_ETA].text), "ETA %s", t);
		f[F_ETA].keep = 8;
	}
	len = join_fields(line, sizeof(line), f, F_N,
	    live.cols > 1 ? live.cols - 1 : 0);
	if (write(STDERR_FILENO, line, len) < 0)
		live.on = false;
}

/* The terminal's width, when it is one; again after SIGWINCH. */
static void read_width(void)
{
	struct winsize ws;

	winch_due = 0;
	live.cols = 0;
	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		live.cols = ws.ws_col;
}

void progress_tick(void)
{
	const struct phase_meter *m = shown_meter;

	if (m == NULL)
		return;
	tick_due = 0;
	dist_poll();
	if (!live.on || live.phase == NULL)
		return;
	if (winch_due)
		read_width();
	draw(m, now_ns());
}

/* What a phase will count, for the percentage: bytes, seeks, files or directories. */
static uint64_t phase_total(const struct config *cfg, enum phase_id id)
{
	if (id == PH_PUTC || id == PH_GETC)
		return cfg->per_char_mib * 1024 * 1024;
	if (id <= PH_GET_BLOCK)
		return cfg->file_size_mib * 1024 * 1024;
	if (id == PH_SEEKS)
		return cfg->seeks;
	if (id >= PH_FIRST_DIR)
		return (uint64_t)cfg->dirs.count_k * FILE_UNIT;
	return (uint64_t)cfg->files.count_k * FILE_UNIT;
}

static void install(int sig, void (*handler)(int),
    void (*action)(int, siginfo_t *, void *), bool restart)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	if (action != NULL)
		sa.sa_sigaction = action;
	else
		sa.sa_handler = handler;
	/* a tick must not make a system call fail with EINTR */
	sa.sa_flags = (restart ? SA_RESTART : 0) |
	    (action != NULL ? SA_SIGINFO : 0);
	sigaction(sig, &sa, NULL);
}

/* core/tick.h's tick_wait(): a tick interrupts a blocking call while on */
static void wait_ticks(bool on)
{
	if (live.ticks)
		install(SIGALRM, NULL, on_tick, !on);
}

/*
 * The redrawn line on a terminal (or always), never with -q.  Each call
 * starts the next run of -x.
 */
void progress_start(const struct config *cfg, unsigned first_phases,
    unsigned later_phases)
{
	struct itimerval every = { { 0, 500000 }, { 0, 500000 } };

	live.phase = NULL;
	live.run++;
	live.runs = cfg->runs;
	live.point = live.points = 0;
	live.first_phases = first_phases < PH_COUNT ? first_phases : PH_COUNT;
	live.later_phases = later_phases < PH_COUNT ? later_phases : PH_COUNT;
	live.run_start_ns = now_ns();
	tick_register(progress_tick, wait_ticks);
	live.on = !cfg->quiet && dist_rank() == 0 &&
	    (cfg->progress == PROGRESS_ALWAYS ||
	    (cfg->progress == PROGRESS_AUTO && isatty(STDERR_FILENO)));
	/* with several ranks the ticks also look for a stop from the others */
	if (!live.on && dist_size() < 2)
		return;
	if (live.on) {
		install(SIGWINCH, on_winch, NULL, true);
		read_width();
	}
	install(SIGALRM, NULL, on_tick, true);
	live.ticks = true;
	setitimer(ITIMER_REAL, &every, NULL);
}

void progress_stop(void)
{
	struct itimerval off = { { 0, 0 }, { 0, 0 } };

	setitimer(ITIMER_REAL, &off, NULL);
	tick_due = 0;
	run_took = now_ns() - live.run_start_ns;
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

void progress_point(const struct config *cfg, unsigned at, unsigned i,
    unsigned n)
{
	char line[96], size[12], chunk[8];

	fmt_chunk(chunk, sizeof(chunk), config_point_chunk(cfg, at));
	fmt_file_size(size, sizeof(size), config_point_size(cfg, at));
	live.point = i < POINTS_MAX ? i : POINTS_MAX - 1;
	live.points = n;
	if (cfg->nsizes == 0) {
		snprintf(live.point_label, sizeof(live.point_label), "%s", chunk);
		snprintf(line, sizeof(line), "Chunk size %s (%u/%u):\n", chunk,
		    i + 1, n);
	} else if (cfg->nchunks == 0) {
		snprintf(live.point_label, sizeof(live.point_label), "%s", size);
		snprintf(line, sizeof(line), "File size %s (%u/%u):\n", size,
		    i + 1, n);
	} else {
		snprintf(live.point_label, sizeof(live.point_label), "%s:%s",
		    size, chunk);
		snprintf(line, sizeof(line), "File size %s, chunk size %s "
		    "(%u/%u):\n", size, chunk, i + 1, n);
	}
	progress(cfg, line);
}

void progress_phase_begin(const struct config *cfg, const struct phase_def *p,
    unsigned k)
{
	progress(cfg, progress_text(cfg, p));
	live.phase = p;
	live.phase_k = k >= 1 && k <= PH_COUNT ? k : 1;
	live.total = phase_total(cfg, p->id);
	live.start_ns = live.clock_ns = now_ns();
	if (live.on)
		draw(NULL, live.start_ns);
}

void progress_phase_done(const struct config *cfg, const struct phase_def *p)
{
	unsigned i;

	took[live.point][live.phase_k - 1] = now_ns() - live.start_ns;
	if (p->id != PH_SEEKS) {
		progress(cfg, p->done);
		return;
	}
	/* bonnie++ says done once per seeker */
	for (i = 0; i < cfg->seekers; i++)
		progress(cfg, "done...");
	progress(cfg, "\n");
}
