/*
 * report/set.h: the results clyde report read, and what is derived from
 * them before formatting: the groups and means of --average, the chunk
 * sweeps, the tables' rows and the base of --compare.  Formatters read a
 * set; they compute nothing.  report/set.c keeps the results; the
 * --average means are made in report/average.c, the sweeps and tables in
 * report/sweep.c, the --compare verdicts in report/compare.c and --best
 * in report/best.c.
 *
 * A set stores each result compactly (the run-only fields only for a
 * result read from a run's JSON record) and hands it out as a struct
 * result, so every formatter keeps taking the one record.
 */
#ifndef CLYDE_REPORT_SET_H
#define CLYDE_REPORT_SET_H

#include <stdbool.h>
#include <stddef.h>

#include "result.h"

/* More results than this are not stored (about 500 bytes each). */
#define REPORT_MAX_RESULTS 1000000

struct report_item;
struct report_group;
struct report_run;

/*
 * Spread of one measurement over the runs of a group: a phase's rate, or
 * its latency in microseconds (too_fast is 0 there: a +++++ run has its
 * latency all the same).
 */
struct report_spread {
	unsigned runs;          /* runs where it was measured; 0: never */
	unsigned too_fast;      /* runs that printed +++++: no rate, not 0 */
	unsigned stopped;       /* runs whose phase was stopped for part of
	                           its time: its rate, %CP and latency left
	                           out, not valid */
	double min, max;        /* rate */
	double cv;              /* coefficient of variation of the rate, % */
	double mean, median;    /* of the rate (or latency), unrounded */
	double sd;              /* sample standard deviation */
	double ci_low, ci_high; /* 95 % interval of the mean (Student's t) */
	bool bimodal;           /* two clusters (stats_bimodal_sorted()) */
	/* of the logarithms of the values, when every one is above 0
	   (latencies: their verdicts are of ratios, on a log scale) */
	bool has_log;
	double log_mean, log_sd;
};

/* A group mean's phase against the base's (clyde(1), Sets of runs). */
enum report_verdict_kind {
	VERDICT_NONE,           /* either has no rate: nothing to say */
	VERDICT_TOO_FEW,        /* fewer than 3 runs on a side */
	VERDICT_SAME,           /* within noise: ~ */
	VERDICT_BETTER,         /* significantly higher rate, lower latency */
	VERDICT_WORSE           /* significantly lower rate, higher latency */
};

/* The changes whose runs needed a verdict gives, in %. */
#define REPORT_POWER_CHANGES 3
extern const double report_power_change[REPORT_POWER_CHANGES];
/* The power those runs give: the chance that the test sees the change. */
#define REPORT_POWER 0.8

struct report_verdict {
	enum report_verdict_kind kind;
	unsigned runs;          /* the fewer runs of the two sides */
	double percent;         /* change of the mean rate, or of the
	                           geometric mean latency, % */
	double ci_low, ci_high; /* 95 % interval of the change, % */
	double p;               /* two-sided, Welch's t test */
	/* the runs a set needs to tell each change of report_power_change
	   from noise at the spread the two sets show (the two-sample t
	   test, 95 %, power REPORT_POWER); 0: not known (a side with fewer
	   than 2 runs) */
	unsigned runs_needed[REPORT_POWER_CHANGES];
};

/* --best: a set's median against the best set's, in one phase. */
struct report_best {
	bool has;               /* the set and the phase have a median */
	bool best;              /* the best median (a tie is a best too) */
	double percent;         /* the median in % of the best's */
	struct report_verdict v;        /* against the best set; VERDICT_NONE
	                                   for a best */
};

/* Fewer runs than this on either side: no verdict. */
#define REPORT_VERDICT_MIN_RUNS 3

/*
 * A sweep: results that differ only in their chunk size (clyde --chunks,
 * or bonnie++ run again with -s size:chunk), in their file size (clyde
 * --sizes), or in both.  Its points are its pairs of file size and
 * chunk size, by file size, then chunk size.  The k-th result of a
 * point is in series k, so that -x 3 gives three series.
 */
struct report_sweep {
	size_t first;           /* its first result, which names it */
	size_t nchunks, nseries;        /* nchunks: its points */
	size_t nsizes;          /* its file sizes; 1: a chunk sweep */
	unsigned *chunks;       /* [point]: bytes, ascending at each size */
	uint64_t *sizes;        /* [point]: MiB, ascending */
	long *items;            /* [series * nchunks + point]: result, or -1 */
	long *groups;           /* [point]: the --average group, or -1 */
	bool name_shared;       /* another sweep has its name */
};

/* Where a result sits in a sweep; sweep -1 when in none. */
struct report_place {
	long sweep;
	size_t point, series;
};

/* A row of a table: result 'index', or the mean of group 'index'. */
struct report_row {
	size_t index;
	bool mean;
};

struct report_set {
	struct report_item *items;
	size_t n, cap;
	struct report_run *runs;        /* of the results read from runs */
	size_t nruns, runs_cap;
	char *names;            /* name and seed strings */
	size_t names_len, names_cap;
	struct report_group *groups;    /* --average: groups of 2 or more */
	size_t ngroups;
	struct report_sweep *sweeps;
	size_t nsweeps;
	struct report_place *places;    /* per result, once sweeps are found */
	/* --compare: the base is a result, or the mean of a group */
	bool has_base;
	long base_item, base_group;     /* -1 when not that */
	long base_sweep;                /* the base's sweep: per chunk, or -1 */
	/* [group * PH_COUNT + phase]: each group mean against the base */
	struct report_verdict *verdicts;
	struct report_verdict *lat_verdicts;    /* the same of latencies */
	/* --best: [group * PH_COUNT + phase], rates then latencies */
	struct report_best *best;
};

void report_set_init(struct report_set *set);
void report_set_free(struct report_set *set);
/* Returns 0, or -1 when full or out of memory (errno). */
int report_set_add(struct report_set *set, const struct result *res);
/*
 * The same, the result in the set named label (a file argument
 * LABEL=PATH): it groups, and is compared, under that name whatever its
 * machine name; NULL: its own name.
 */
int report_set_add_labelled(struct report_set *set, const struct result *res,
    const char *label);
/*
 * The same, keeping res->ranks (malloc'd) as they are, not a copy:
 * res->ranks is then NULL, and the set frees them.
 */
int report_set_take_labelled(struct report_set *set, struct result *res,
    const char *label);
/*
 * Result i into out.  out's run-only fields are left as they are unless
 * it was read from a run (from_run): keep one zeroed scratch record and
 * reuse it.
 */
void report_set_get(const struct report_set *set, size_t i,
    struct result *out);

/*
 * --average: group the results by name (or label) and options
 * (generation, sizes, chunk, concurrency, seeks, file spec, which phases
 * ran) and compute each group's mean and spread.  Returns 0, or -1 out
 * of memory.
 */
int report_set_average(struct report_set *set);
/*
 * The mean of group g, named "mean:NAME", its number of runs, and its
 * spread[PH_COUNT].
 */
void report_set_group_mean(const struct report_set *set, size_t g,
    struct result *out);
size_t report_set_group_runs(const struct report_set *set, size_t g);
/* The first result of group g. */
size_t report_set_group_first(const struct report_set *set, size_t g);
const struct report_spread *report_set_group_spread(
    const struct report_set *set, size_t g);
/* The same of the latencies (us) of the runs that have one. */
const struct report_spread *report_set_group_latency_spread(
    const struct report_set *set, size_t g);
/*
 * How many results are of 1.0x's generation (*old: the 1.03e layout)
 * and how many of 1.9x or later (*later: 2.00a's, with latencies).
 */
void report_set_layouts(const struct report_set *set, size_t *old,
    size_t *later);
/* The name of group g's set (its label, or the name of its runs). */
const char *report_set_group_name(const struct report_set *set, size_t g);
/* The group of result i with --average, or -1. */
long report_set_group_of(const struct report_set *set, size_t i);

/*
 * The sweeps: results with the same name, generation, concurrency,
 * seeks, seekers and large-file test, and two points (file size and
 * chunk size) or more (an unknown chunk is 8192).  Several file sizes
 * are one sweep when every one has the same chunk sizes (a grid, as
 * --sizes makes it); else each file size is a sweep of its own.  Which phases ran does not matter:
 * a sweep runs the per-char and small-file tests at its first point
 * only.  After report_set_average(), so that each point knows its
 * group.  Returns 0, or -1 out of memory.
 */
int report_set_sweeps(struct report_set *set);
const struct report_place *report_set_place(const struct report_set *set,
    size_t i);
/*
 * The chunk sizes of sweep sw, each once, ascending, into chunks (room
 * for sw->nchunks); returns how many.
 */
size_t report_set_sweep_chunks(const struct report_sweep *sw,
    unsigned *chunks);
/* The point of sw at a file size (MiB) and chunk size, or -1. */
long report_set_sweep_point(const struct report_sweep *sw, uint64_t size,
    unsigned chunk);
/*
 * The tables to print: 0 holds the results outside any sweep and their
 * means, in the order read; 1 + s sweep s, by chunk size, each chunk's
 * results followed by their mean.  report_set_table_rows() fills rows
 * (room for n + ngroups) and returns how many; it may be none.
 */
/*
 * Whether a row (result i, or the mean of group i) is a point of a
 * sweep; *series is then its series from 1 when the sweep ran more than
 * once and the row is a result, else 0 (a mean, or a sweep run once).
 */
bool report_set_row_sweep(const struct report_set *set,
    const struct report_row *row, size_t *series);
size_t report_set_tables(const struct report_set *set);
size_t report_set_table_rows(const struct report_set *set, size_t t,
    struct report_row *rows);

/*
 * --compare: the base is the mean of the first group named 'name' when
 * there is one, else the first result with that name (or label).
 * Returns -1 when no result has it, -2 out of memory.  When the base is
 * in a sweep, each result is compared with the base's result (or mean)
 * at its own chunk size, and a chunk size the base lacks has no
 * comparison.  Each group mean gets a verdict per phase.
 */
int report_set_compare(struct report_set *set, const char *name);
/*
 * What a compared group's runs differ in from its base's, beside the
 * name: REPORT_UNLIKE_* bits, 0 when alike or when g has no verdicts;
 * the base's mean (or lone result) in *base and its first result in
 * *base_first: the run context of each side is its first run's.
 */
#define REPORT_UNLIKE_PROFILE 1u        /* per-char: 1.0x stdio, or 1-byte
                                           calls (1.9x and later) */
#define REPORT_UNLIKE_FILE_SIZE 2u
#define REPORT_UNLIKE_CHUNK 4u
#define REPORT_UNLIKE_CONCURRENCY 8u
#define REPORT_UNLIKE_SEEKS 16u         /* seeks or seekers */
#define REPORT_UNLIKE_FILES 32u         /* the small-file test's spec */
/* known only of results read from runs' JSON records, both sides */
#define REPORT_UNLIKE_FSTYPE 64u
#define REPORT_UNLIKE_MOUNT 128u        /* the mount options */
#define REPORT_UNLIKE_SYNC 256u         /* -b */
#define REPORT_UNLIKE_DIRECT 512u       /* -D */
unsigned report_set_unlike(const struct report_set *set, long g,
    struct result *base, size_t *base_first);
/*
 * --best, after report_set_average() and report_set_sweeps(): per phase,
 * the median of every set outside the chunk sweeps against the best
 * set's (the highest median rate, the lowest median latency), with the
 * same test as --compare's verdicts.  Returns 0, or -1 out of memory.
 */
int report_set_best(struct report_set *set);
/* Group g's [PH_COUNT] of rates (latency false) or latencies; NULL when
 * it has none. */
const struct report_best *report_set_best_of(const struct report_set *set,
    long g, bool latency);
/* Whether a result's generation is 1.0x's: per-char through stdio. */
bool report_set_stdio_per_char(const struct result *r);
/*
 * Group g's verdicts against the base, [PH_COUNT]; NULL when it has none
 * (no --compare, no comparable base, or g is the base).
 */
const struct report_verdict *report_set_verdicts(const struct report_set *set,
    long g);
/* The same of the latencies: lower is better. */
const struct report_verdict *report_set_latency_verdicts(
    const struct report_set *set, long g);
/* Whether a result (item >= 0) or a group mean (group >= 0) is a base. */
bool report_set_is_base(const struct report_set *set, long item, long group);
/*
 * A rate as a percentage change from the base (+53 means 1.53 times the
 * base's rate).  False when either has no figure.
 */
bool report_set_percent(const struct report_set *set, const struct result *r,
    enum phase_id ph, long *pct);
/*
 * A percentage as the tables print it: "+5%", "-3%", and "0%" for a
 * change that rounds to none, which has no sign (-0.1 % is not "+0%").
 */
void report_set_percent_text(char *buf, size_t len, long pct);
/* The same of the slowest operation's latency (+25: 1.25 times slower). */
bool report_set_latency_percent(const struct report_set *set,
    const struct result *r, enum phase_id ph, long *pct);
/*
 * The difference between a rate and the base's is inside the rounding of
 * the table cells they were read from (their rate_precision).
 */
bool report_set_in_rounding(const struct report_set *set,
    const struct result *r, enum phase_id ph);

#endif
