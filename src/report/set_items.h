/*
 * report/set_items.h: the insides of a report set, shared by report/set.c
 * and the files that derive from a set (report/average.c, sweep.c,
 * compare.c, best.c): how a result is stored, a group of runs, and the
 * calls they make of one another.  Only the files of report/ include
 * it; the formatters see report/set.h alone.
 */
#ifndef CLYDE_REPORT_SET_ITEMS_H
#define CLYDE_REPORT_SET_ITEMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report/set.h"
#include "result.h"

/* A result without the run-only fields; strings live in set->names. */
struct report_item {
	char generation[16];
	bool from_table;
	bool from_json;
	char format_version[16];
	char bonnie_version[16];
	size_t name, seed;              /* offsets into set->names */
	size_t set_name;                /* the label (LABEL=PATH), or name */
	int concurrency;
	bool has_io, has_files;
	uint64_t file_size_mib;
	unsigned chunk, seeks, seekers;
	struct files_spec files;
	bool has_dirs;
	struct dirs_spec dirs;
	struct cell cell[PH_COUNT];
	long group;                     /* --average, or -1 */
	long run;                       /* its run's context, or -1 */
};

/* What a result read from clyde's JSON knows of its run. */
struct report_run {
	struct run_info run;
	struct phase_figures phase[PH_COUNT];
	enum run_status status;
	char error[512];
	unsigned sweep_chunks[CHUNKS_MAX];
	uint64_t sweep_sizes[SIZES_MAX];
	unsigned sweep_n, sweep_nsizes, sweep_point;
	unsigned nranks;                /* clyde-mpi's, 0: one process */
	struct rank_figures *ranks;     /* [nranks], owned */
};

struct report_group {
	size_t first;                   /* item of the first run */
	size_t runs;
	struct report_item mean;
	struct report_spread spread[PH_COUNT];
	struct report_spread lat_spread[PH_COUNT];      /* of latency_us */
};

/*
 * A run's rate and its latency count where they are valid: a phase
 * stopped for part of its time (SIGSTOP) has neither, its time counts
 * the stop (clyde(1), Averages and comparisons).
 */
static inline bool valid_rate(const struct cell *c)
{
	return c->status == CELL_OK && !c->stopped;
}

static inline bool valid_latency(const struct cell *c)
{
	return c->latency_us >= 0 && !c->stopped;
}

/* An unknown chunk is bonnie++'s default, as an empty io_chunk_size is. */
static inline unsigned chunk_of(const struct report_item *it)
{
	return it->chunk != 0 ? it->chunk : DEFAULT_CHUNK;
}

/* ---- report/set.c ---------------------------------------------------- */

/* Frees the set's sweeps and places, and leaves it with none. */
void set_free_sweeps(struct report_set *set);
/* Item it as a struct result (report_set_get() without the label). */
void set_unpack(const struct report_set *set, const struct report_item *it,
    struct result *out);

/* Whether two results are alike; a and b are items of set. */
typedef bool set_same_fn(const struct report_set *, const struct report_item *,
    const struct report_item *);
/* The same run but for its file size and chunk size: a sweep's identity. */
bool set_same_sweep(const struct report_set *set,
    const struct report_item *a, const struct report_item *b);
/* The same options, which phases ran too: an --average group's identity. */
bool set_same_options(const struct report_set *set,
    const struct report_item *a, const struct report_item *b);
/* The same small-file test (-n). */
bool set_same_files(const struct files_spec *a, const struct files_spec *b);
/*
 * first_of[i] (room for set->n): the first result that same() finds like
 * result i.  hash_all: same is set_same_options, else set_same_sweep.
 * Returns 0, or -1 out of memory.
 */
int set_find_firsts(const struct report_set *set, size_t *first_of,
    set_same_fn *same, bool hash_all);

/* ---- report/compare.c ------------------------------------------------ */

/*
 * sp against base, one measurement: Welch's t, the change in % of the
 * base's mean; a difference of at most slack is no change.
 * lower_better: a latency.
 */
void set_judge(const struct report_spread *base,
    const struct report_spread *sp, double slack, bool lower_better,
    struct report_verdict *v);
/* How far a latency (us) read from a CSV line may be from the true one. */
double set_latency_slack(double us);

#endif
