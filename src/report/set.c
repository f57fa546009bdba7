/*
 * report/set.c: the results of clyde report, their --average groups and
 * means, their chunk sweeps and tables, and the --compare base.  Every derived figure is made here, so
 * the formatters only format.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/set.h"
#include "report/stats.h"
#include "lib/text.h"

/* A result without the run-only fields; strings live in set->names. */
struct report_item {
	char generation[16];
	bool from_table;
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

void report_set_init(struct report_set *set)
{
	memset(set, 0, sizeof(*set));
	set->base_item = set->base_group = set->base_sweep = -1;
}

static void free_sweeps(struct report_set *set)
{
	size_t i;

	for (i = 0; i < set->nsweeps; i++) {
		free(set->sweeps[i].chunks);
		free(set->sweeps[i].sizes);
		free(set->sweeps[i].items);
		free(set->sweeps[i].groups);
	}
	free(set->sweeps);
	free(set->places);
	set->sweeps = NULL;
	set->places = NULL;
	set->nsweeps = 0;
}

void report_set_free(struct report_set *set)
{
	for (size_t i = 0; i < set->nruns; i++)
		free(set->runs[i].ranks);
	free(set->items);
	free(set->runs);
	free(set->names);
	free(set->groups);
	free(set->verdicts);
	free(set->lat_verdicts);
	free(set->best);
	free_sweeps(set);
	report_set_init(set);
}

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 64;
	void *q;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	q = realloc(*p, n * size);
	if (q == NULL)
		return -1;
	*p = q;
	*cap = n;
	return 0;
}

static int keep_string(struct report_set *set, const char *s, size_t *off)
{
	size_t len = strlen(s) + 1;

	if (grow((void **)&set->names, &set->names_cap, set->names_len + len,
	    1) != 0)
		return -1;
	memcpy(set->names + set->names_len, s, len);
	*off = set->names_len;
	set->names_len += len;
	return 0;
}

/* The fields a report_item shares with struct result, same names and types. */
#define COPY_CORE(dst, src) do { \
	memcpy((dst)->generation, (src)->generation, sizeof((dst)->generation)); \
	(dst)->from_table = (src)->from_table; \
	memcpy((dst)->format_version, (src)->format_version, \
	    sizeof((dst)->format_version)); \
	memcpy((dst)->bonnie_version, (src)->bonnie_version, \
	    sizeof((dst)->bonnie_version)); \
	(dst)->concurrency = (src)->concurrency; \
	(dst)->has_io = (src)->has_io; \
	(dst)->has_files = (src)->has_files; \
	(dst)->file_size_mib = (src)->file_size_mib; \
	(dst)->chunk = (src)->chunk; \
	(dst)->seeks = (src)->seeks; \
	(dst)->seekers = (src)->seekers; \
	(dst)->files = (src)->files; \
	(dst)->has_dirs = (src)->has_dirs; \
	(dst)->dirs = (src)->dirs; \
	memcpy((dst)->cell, (src)->cell, sizeof((dst)->cell)); \
} while (0)

/* The run-only fields a report_run keeps of struct result, the same names. */
#define COPY_RUN(dst, src) do { \
	(dst)->run = (src)->run; \
	memcpy((dst)->phase, (src)->phase, sizeof((dst)->phase)); \
	(dst)->status = (src)->status; \
	memcpy((dst)->error, (src)->error, sizeof((dst)->error)); \
	memcpy((dst)->sweep_chunks, (src)->sweep_chunks, \
	    sizeof((dst)->sweep_chunks)); \
	(dst)->sweep_n = (src)->sweep_n; \
	memcpy((dst)->sweep_sizes, (src)->sweep_sizes, \
	    sizeof((dst)->sweep_sizes)); \
	(dst)->sweep_nsizes = (src)->sweep_nsizes; \
	(dst)->sweep_point = (src)->sweep_point; \
} while (0)

/*
 * What a name read says, kept as -m would take it: a control character
 * (a newline that would split a CSV line or a table row, an escape that
 * would reach the terminal) is kept as '?'.
 */
static int keep_masked(struct report_set *set, const char *s, size_t *off)
{
	char text[1024];

	if (find_control(s) == NULL || strlen(s) >= sizeof(text))
		return keep_string(set, s, off);
	snprintf(text, sizeof(text), "%s", s);
	mask_controls(text);
	return keep_string(set, text, off);
}

/* The same for the strings of a run's record and of its ranks */
static void mask_run(struct report_run *run)
{
	struct host_info *h = &run->run.host;

	mask_controls(run->error);
	mask_controls(run->run.started);
	mask_controls(run->run.target);
	mask_controls(run->run.fstype);
	mask_controls(run->run.mount_source);
	mask_controls(run->run.mount_options);
	mask_controls(h->name);
	mask_controls(h->kernel);
	mask_controls(h->cpu);
	mask_controls(h->device.name);
	mask_controls(h->device.disk);
	mask_controls(h->device.model);
	mask_controls(h->device.scheduler);
	for (unsigned i = 0; i < run->nranks; i++)
		mask_controls(run->ranks[i].host);
}

int report_set_add(struct report_set *set, const struct result *res)
{
	return report_set_add_labelled(set, res, NULL);
}

/* The result in the set; take: its ranks' memory too (res->ranks NULL) */
static int add_item(struct report_set *set, const struct result *res,
    const char *label, struct rank_figures **take)
{
	struct report_item *it;

	if (set->n >= REPORT_MAX_RESULTS) {
		errno = EFBIG;
		return -1;
	}
	if (grow((void **)&set->items, &set->cap, set->n + 1,
	    sizeof(*set->items)) != 0)
		return -1;
	it = &set->items[set->n];
	COPY_CORE(it, res);
	it->group = -1;
	it->run = -1;
	if (res->from_run) {
		struct report_run *run;

		if (grow((void **)&set->runs, &set->runs_cap, set->nruns + 1,
		    sizeof(*set->runs)) != 0)
			return -1;
		run = &set->runs[set->nruns];
		COPY_RUN(run, res);
		run->nranks = 0;
		run->ranks = NULL;
		if (res->nranks > 1 && res->ranks != NULL && take != NULL) {
			run->ranks = *take;
			*take = NULL;
			run->nranks = res->nranks;
		} else if (res->nranks > 1 && res->ranks != NULL) {
			run->ranks = malloc(res->nranks * sizeof(*run->ranks));
			if (run->ranks == NULL)
				return -1;
			memcpy(run->ranks, res->ranks,
			    res->nranks * sizeof(*run->ranks));
			run->nranks = res->nranks;
		}
		mask_run(run);
		it->run = (long)set->nruns++;
	}
	if (keep_masked(set, res->name, &it->name) != 0 ||
	    keep_masked(set, res->seed, &it->seed) != 0)
		return -1;
	it->set_name = it->name;
	if (label != NULL && keep_masked(set, label, &it->set_name) != 0)
		return -1;
	set->n++;
	return 0;
}

int report_set_add_labelled(struct report_set *set, const struct result *res,
    const char *label)
{
	return add_item(set, res, label, NULL);
}

int report_set_take_labelled(struct report_set *set, struct result *res,
    const char *label)
{
	return add_item(set, res, label, &res->ranks);
}

static void unpack(const struct report_set *set, const struct report_item *it,
    struct result *out)
{
	COPY_CORE(out, it);
	/* both were kept from records of the same sizes */
	memcpy(out->name, set->names + it->name,
	    strlen(set->names + it->name) + 1);
	memcpy(out->seed, set->names + it->seed,
	    strlen(set->names + it->seed) + 1);
	out->from_run = it->run >= 0;
	out->nranks = 0;
	out->ranks = NULL;
	if (it->run >= 0) {
		const struct report_run *run = &set->runs[it->run];

		COPY_RUN(out, run);
		out->nranks = run->nranks;
		out->ranks = run->ranks;
	}
}

void report_set_get(const struct report_set *set, size_t i,
    struct result *out)
{
	const struct report_item *it = &set->items[i];

	unpack(set, it, out);
	/*
	 * --average: a set of LABEL=PATH that is one run has no mean row,
	 * mean:LABEL: the run's row is the set's, under its label
	 */
	if (set->groups != NULL && it->group < 0 && it->set_name != it->name)
		snprintf(out->name, sizeof(out->name), "%s",
		    set->names + it->set_name);
}

/* ---- --average ------------------------------------------------------ */

/* Which phases ran: -f, -s 0 and -n 0 runs are not the same options. */
static unsigned ran_mask(const struct report_item *it)
{
	unsigned m = 0;
	int i;

	for (i = 0; i < PH_COUNT; i++)
		if (it->cell[i].status != CELL_SKIPPED &&
		    it->cell[i].status != CELL_ABSENT)
			m |= 1u << i;
	return m;
}

/*
 * The same run but for its file size and chunk size (and the tests it
 * left out).
 */
static bool same_sweep(const struct report_set *set,
    const struct report_item *a, const struct report_item *b)
{
	return strcmp(set->names + a->set_name, set->names + b->set_name) == 0 &&
	    strcmp(a->generation, b->generation) == 0 &&
	    a->has_io == b->has_io &&
	    a->concurrency == b->concurrency && a->seeks == b->seeks &&
	    a->seekers == b->seekers;
}

static bool same_files(const struct files_spec *a, const struct files_spec *b)
{
	return a->count_k == b->count_k && a->max_size == b->max_size &&
	    a->min_size == b->min_size && a->dirs == b->dirs &&
	    a->chunk == b->chunk;
}

static bool same_options(const struct report_set *set,
    const struct report_item *a, const struct report_item *b)
{
	return same_sweep(set, a, b) && a->file_size_mib == b->file_size_mib &&
	    a->chunk == b->chunk &&
	    a->has_files == b->has_files && same_files(&a->files, &b->files) &&
	    a->has_dirs == b->has_dirs && a->dirs.count_k == b->dirs.count_k &&
	    a->dirs.depth == b->dirs.depth && a->dirs.fanout == b->dirs.fanout &&
	    a->dirs.shared == b->dirs.shared && ran_mask(a) == ran_mask(b);
}

static uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;

	while (n-- > 0)
		h = (h ^ *c++) * 0x100000001b3ULL;
	return h;
}

/* all: of the fields same_options() compares, else of same_sweep()'s */
static uint64_t options_hash(const struct report_set *set,
    const struct report_item *it, bool all)
{
	const char *name = set->names + it->set_name;
	uint64_t h = 0xcbf29ce484222325ULL;

	h = hash_bytes(h, name, strlen(name));
	if (!all)
		return h;
	h = hash_bytes(h, &it->file_size_mib, sizeof(it->file_size_mib));
	h = hash_bytes(h, &it->files.count_k, sizeof(it->files.count_k));
	return h ^ ran_mask(it);
}

/* Rounded as the column prints it: seeks to 0.1, other rates whole. */
static double round_rate(enum phase_id ph, double v)
{
	return ph == PH_SEEKS ? round(v * 10.0) / 10.0 : round(v);
}

/* Sums over the runs of one group, for one measurement; the rates
 * themselves are summarized by stats_summarize(). */
struct acc {
	double cpu, lat;
	double precision;               /* sum of the rates' rounding */
	unsigned runs, lats, fast, stopped;
};

/*
 * A run's rate and its latency count where they are valid: a phase
 * stopped for part of its time (SIGSTOP) has neither, its time counts
 * the stop (clyde(1), Averages and comparisons).
 */
static bool valid_rate(const struct cell *c)
{
	return c->status == CELL_OK && !c->stopped;
}

static bool valid_latency(const struct cell *c)
{
	return c->latency_us >= 0 && !c->stopped;
}

static void accumulate(struct acc *a, const struct cell *c)
{
	if (valid_latency(c)) {
		a->lat += (double)c->latency_us;
		a->lats++;
	}
	if (c->status == CELL_TOO_FAST)
		a->fast++;
	if (c->stopped)
		a->stopped++;
	if (!valid_rate(c))
		return;
	a->runs++;
	a->cpu += c->cpu;
	a->precision += c->rate_precision;
}

/* The spread of one measurement from the summary of its runs' values. */
static void spread_of(const struct stats_summary *x, unsigned too_fast,
    unsigned stopped, struct report_spread *sp)
{
	memset(sp, 0, sizeof(*sp));
	sp->too_fast = too_fast;
	sp->stopped = stopped;
	if (x->n == 0)
		return;
	sp->runs = (unsigned)x->n;
	sp->min = x->min;
	sp->max = x->max;
	sp->cv = x->cv;
	sp->mean = x->mean;
	sp->median = x->median;
	sp->sd = x->sd;
	sp->ci_low = x->ci_low;
	sp->ci_high = x->ci_high;
	sp->bimodal = x->bimodal;
}

/*
 * The mean over the runs where the phase was measured; +++++ only when
 * it was +++++ in every run that ran it, and a +++++ run is counted as
 * such, never as a rate of 0.  The mean latency is the mean of the runs'
 * slowest operations.
 */
static void finish(const struct acc *a, const struct stats_summary *rates,
    enum phase_id ph, struct cell *mean, struct report_spread *sp)
{
	spread_of(rates, a->fast, a->stopped, sp);
	mean->status = a->runs > 0 ? CELL_OK :
	    a->fast > 0 ? CELL_TOO_FAST : CELL_SKIPPED;
	mean->rate = 0;
	mean->rate_precision = 0;
	mean->cpu = -1;
	/* a copy of the first run's: the mean has only valid rates */
	mean->stopped = false;
	mean->latency_us = a->lats > 0 ? (int64_t)llround(a->lat / a->lats) : -1;
	if (a->runs == 0)
		return;
	mean->rate = round_rate(ph, rates->mean);
	/* the mean of rounded rates is off by at most their mean rounding */
	mean->rate_precision = a->precision / a->runs;
	mean->cpu = (int)lround(a->cpu / a->runs);
}

/*
 * The rates of each group's runs, summarized per phase: the items in
 * group order (a counting sort), then one phase's rates at a time.
 */
static int summarize_groups(struct report_set *set, size_t ng,
    const struct acc *acc)
{
	size_t *start = calloc(ng + 1, sizeof(*start));
	size_t *order = malloc((set->n ? set->n : 1) * sizeof(*order));
	double *rates = NULL;
	size_t i, g, most = 0;
	int rc = -1;

	if (start == NULL || order == NULL)
		goto out;
	for (g = 0; g < ng; g++) {
		start[g + 1] = start[g] + set->groups[g].runs;
		if (set->groups[g].runs > most)
			most = set->groups[g].runs;
	}
	rates = malloc((most ? most : 1) * sizeof(*rates));
	if (rates == NULL)
		goto out;
	for (i = 0; i < set->n; i++)
		if (set->items[i].group >= 0)
			order[start[set->items[i].group]++] = i;
	for (g = ng; g > 0; g--)        /* back to the starts */
		start[g] = start[g - 1];
	start[0] = 0;
	for (g = 0; g < ng; g++) {
		int ph;

		for (ph = 0; ph < PH_COUNT; ph++) {
			struct stats_summary sum;
			size_t k = 0;

			for (i = start[g]; i < start[g + 1]; i++) {
				const struct cell *c = &set->items[order[i]].cell[ph];

				if (valid_rate(c))
					rates[k++] = c->rate;
			}
			stats_summarize(rates, k, &sum);
			finish(&acc[g * PH_COUNT + ph], &sum, (enum phase_id)ph,
			    &set->groups[g].mean.cell[ph],
			    &set->groups[g].spread[ph]);
			/* a +++++ phase has its latency all the same */
			for (i = start[g], k = 0; i < start[g + 1]; i++) {
				const struct cell *c = &set->items[order[i]].cell[ph];

				if (valid_latency(c))
					rates[k++] = (double)c->latency_us;
			}
			stats_summarize(rates, k, &sum);
			spread_of(&sum, 0, acc[g * PH_COUNT + ph].stopped,
			    &set->groups[g].lat_spread[ph]);
		}
	}
	rc = 0;
out:
	free(start);
	free(order);
	free(rates);
	return rc;
}

/* Number the groups of two or more runs in the order they first appear. */
static size_t number_groups(struct report_set *set, size_t *first_of,
    size_t *runs)
{
	size_t i, ng = 0;

	memset(runs, 0, set->n * sizeof(*runs));
	for (i = 0; i < set->n; i++)
		runs[first_of[i]]++;
	for (i = 0; i < set->n; i++)
		set->items[i].group = first_of[i] == i && runs[i] > 1 ?
		    (long)ng++ : -1;
	for (i = 0; i < set->n; i++)
		set->items[i].group = set->items[first_of[i]].group;
	return ng;
}

typedef bool same_fn(const struct report_set *, const struct report_item *,
    const struct report_item *);

/* first_of[i]: the first result that same() finds like it */
static int find_firsts(const struct report_set *set, size_t *first_of,
    same_fn *same, bool hash_all)
{
	size_t size = 16, i, *slot;

	while (size < set->n * 2)
		size *= 2;
	slot = calloc(size, sizeof(*slot));     /* item + 1, 0: empty */
	if (slot == NULL)
		return -1;
	for (i = 0; i < set->n; i++) {
		size_t h = (size_t)options_hash(set, &set->items[i], hash_all) &
		    (size - 1);

		while (slot[h] != 0 &&
		    !same(set, &set->items[slot[h] - 1], &set->items[i]))
			h = (h + 1) & (size - 1);
		if (slot[h] == 0)
			slot[h] = i + 1;
		first_of[i] = slot[h] - 1;
	}
	free(slot);
	return 0;
}

int report_set_average(struct report_set *set)
{
	size_t n = set->n ? set->n : 1, i, ng;
	size_t *first_of = calloc(n, sizeof(*first_of));
	size_t *runs = malloc(n * sizeof(*runs));
	struct acc *acc = NULL;
	int rc = -1;

	free(set->groups);
	set->groups = NULL;
	set->ngroups = 0;
	if (first_of == NULL || runs == NULL ||
	    find_firsts(set, first_of, same_options, true) != 0)
		goto out;
	ng = number_groups(set, first_of, runs);
	set->groups = calloc(ng ? ng : 1, sizeof(*set->groups));
	acc = calloc((ng ? ng : 1) * PH_COUNT, sizeof(*acc));
	if (set->groups == NULL || acc == NULL)
		goto out;
	for (i = 0; i < set->n; i++) {
		const struct report_item *it = &set->items[i];
		struct report_group *g;
		int ph;

		if (it->group < 0)
			continue;
		g = &set->groups[it->group];
		if (g->runs++ == 0) {
			g->first = i;
			g->mean = *it;
			/* mean:LABEL for a set of LABEL=PATH; no run's own */
			g->mean.name = it->set_name;
			g->mean.run = -1;
		}
		for (ph = 0; ph < PH_COUNT; ph++)
			accumulate(&acc[(size_t)it->group * PH_COUNT + ph],
			    &it->cell[ph]);
	}
	if (summarize_groups(set, ng, acc) != 0)
		goto out;
	set->ngroups = ng;
	rc = 0;
out:
	free(first_of);
	free(runs);
	free(acc);
	return rc;
}

void report_set_group_mean(const struct report_set *set, size_t g,
    struct result *out)
{
	char name[sizeof(out->name)];

	unpack(set, &set->groups[g].mean, out);
	/* one name in every format: the table, CSV, JSON and HTML */
	snprintf(name, sizeof(name), "mean:%.*s", (int)sizeof(name) - 6,
	    out->name);
	memcpy(out->name, name, sizeof(name));
}

size_t report_set_group_first(const struct report_set *set, size_t g)
{
	return set->groups[g].first;
}

size_t report_set_group_runs(const struct report_set *set, size_t g)
{
	return set->groups[g].runs;
}

const struct report_spread *report_set_group_spread(
    const struct report_set *set, size_t g)
{
	return set->groups[g].spread;
}

const struct report_spread *report_set_group_latency_spread(
    const struct report_set *set, size_t g)
{
	return set->groups[g].lat_spread;
}

long report_set_group_of(const struct report_set *set, size_t i)
{
	return set->items[i].group;
}

/* ---- sweeps and tables ----------------------------------------------- */

static long point_at(const struct report_sweep *sw, uint64_t size,
    unsigned chunk);

/* An unknown chunk is bonnie++'s default, as an empty io_chunk_size is. */
static unsigned chunk_of(const struct report_item *it)
{
	return it->chunk != 0 ? it->chunk : DEFAULT_CHUNK;
}

/*
 * A result's place in the order of its sweep: identity, file size,
 * chunk, input.
 */
struct sweep_key {
	size_t id, i;
	uint64_t size;
	unsigned chunk;
};

/* Another point of the sweep: another file size or chunk size. */
static bool other_point(const struct sweep_key *a, const struct sweep_key *b)
{
	return a->size != b->size || a->chunk != b->chunk;
}

static int by_sweep_key(const void *pa, const void *pb)
{
	const struct sweep_key *a = pa, *b = pb;

	if (a->id != b->id)
		return a->id < b->id ? -1 : 1;
	if (a->size != b->size)
		return a->size < b->size ? -1 : 1;
	if (a->chunk != b->chunk)
		return a->chunk < b->chunk ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

/* Sweep s from keys[from, to), one identity with two points or more. */
static int make_sweep(struct report_set *set, const struct sweep_key *keys,
    size_t from, size_t to, size_t nchunks)
{
	struct report_sweep *sw = &set->sweeps[set->nsweeps];
	size_t i, run = 0, p = 0, k;

	memset(sw, 0, sizeof(*sw));
	sw->first = keys[from].id;
	sw->nchunks = nchunks;
	sw->nsizes = 1;
	for (i = from; i < to; i++) {
		run = i > from && !other_point(&keys[i], &keys[i - 1]) ?
		    run + 1 : 0;
		if (run + 1 > sw->nseries)
			sw->nseries = run + 1;
		if (i > from && keys[i].size != keys[i - 1].size)
			sw->nsizes++;
	}
	sw->chunks = malloc(nchunks * sizeof(*sw->chunks));
	sw->sizes = malloc(nchunks * sizeof(*sw->sizes));
	sw->items = malloc(nchunks * sw->nseries * sizeof(*sw->items));
	sw->groups = malloc(nchunks * sizeof(*sw->groups));
	set->nsweeps++;                 /* freed with the set from here on */
	if (sw->chunks == NULL || sw->sizes == NULL || sw->items == NULL ||
	    sw->groups == NULL)
		return -1;
	for (k = 0; k < nchunks * sw->nseries; k++)
		sw->items[k] = -1;
	run = 0;
	for (i = from; i < to; i++) {
		if (i > from && other_point(&keys[i], &keys[i - 1])) {
			p++;
			run = 0;
		} else if (i > from) {
			run++;
		}
		sw->chunks[p] = keys[i].chunk;
		sw->sizes[p] = keys[i].size;
		sw->items[run * nchunks + p] = (long)keys[i].i;
		set->places[keys[i].i].sweep = (long)set->nsweeps - 1;
		set->places[keys[i].i].point = p;
		set->places[keys[i].i].series = run;
		if (run == 0)
			sw->groups[p] = set->items[keys[i].i].group;
	}
	return 0;
}

/* A sweep's name, to find the names that two sweeps share. */
struct sweep_name {
	const char *name;
	size_t s;
};

static int by_name(const void *pa, const void *pb)
{
	return strcmp(((const struct sweep_name *)pa)->name,
	    ((const struct sweep_name *)pb)->name);
}

static int mark_shared_names(struct report_set *set)
{
	struct sweep_name *nm = malloc((set->nsweeps + 1) * sizeof(*nm));
	size_t s;

	if (nm == NULL)
		return -1;
	for (s = 0; s < set->nsweeps; s++) {
		nm[s].name = set->names + set->items[set->sweeps[s].first].name;
		nm[s].s = s;
	}
	qsort(nm, set->nsweeps, sizeof(*nm), by_name);
	for (s = 1; s < set->nsweeps; s++)
		if (strcmp(nm[s].name, nm[s - 1].name) == 0)
			set->sweeps[nm[s].s].name_shared =
			    set->sweeps[nm[s - 1].s].name_shared = true;
	free(nm);
	return 0;
}

/* The end of the file size that keys[k] starts, within keys[.., to). */
static size_t size_end(const struct sweep_key *keys, size_t k, size_t to)
{
	size_t e = k + 1;

	while (e < to && keys[e].size == keys[k].size)
		e++;
	return e;
}

/* Whether keys[a, ae) and keys[b, be) hold the same chunk sizes. */
static bool same_chunks(const struct sweep_key *keys, size_t a, size_t ae,
    size_t b, size_t be)
{
	while (a < ae && b < be) {
		unsigned c = keys[a].chunk;

		if (keys[b].chunk != c)
			return false;
		while (a < ae && keys[a].chunk == c)
			a++;
		while (b < be && keys[b].chunk == c)
			b++;
	}
	return a == ae && b == be;
}

/*
 * Results of one identity but for file size and chunk size are one sweep
 * when they make a grid, every file size at the same chunk sizes, as
 * --sizes and iozone -a make them.  Otherwise each file size is a sweep
 * (of chunk sizes) of its own, or none, as a lone run at another size
 * next to a chunk sweep is no sweep of file sizes: its keys get their
 * own identity, their first result.  True when any did (sort again).
 */
static bool split_off_grid(struct sweep_key *keys, size_t n)
{
	size_t from, to, k, e, j, first;
	bool split = false;

	for (from = 0; from < n; from = to) {
		bool grid = true;

		to = from + 1;
		while (to < n && keys[to].id == keys[from].id)
			to++;
		e = size_end(keys, from, to);
		for (k = e; k < to && grid; k = size_end(keys, k, to))
			grid = same_chunks(keys, from, e, k, size_end(keys, k, to));
		for (k = from; !grid && k < to; k = e) {
			e = size_end(keys, k, to);
			for (first = keys[k].i, j = k; j < e; j++)
				if (keys[j].i < first)
					first = keys[j].i;
			for (j = k; j < e; j++)
				keys[j].id = first;
			split = true;
		}
	}
	return split;
}

int report_set_sweeps(struct report_set *set)
{
	size_t n = set->n ? set->n : 1, i, from, chunks;
	size_t *first_of = calloc(n, sizeof(*first_of));
	struct sweep_key *keys = malloc(n * sizeof(*keys));
	int rc = -1;

	free_sweeps(set);
	set->places = malloc(n * sizeof(*set->places));
	set->sweeps = calloc(n / 2 + 1, sizeof(*set->sweeps));
	if (first_of == NULL || keys == NULL || set->places == NULL ||
	    set->sweeps == NULL ||
	    find_firsts(set, first_of, same_sweep, false) != 0)
		goto out;
	for (i = 0; i < set->n; i++) {
		set->places[i].sweep = -1;
		keys[i].id = first_of[i];
		keys[i].i = i;
		keys[i].chunk = chunk_of(&set->items[i]);
		keys[i].size = set->items[i].file_size_mib;
	}
	qsort(keys, set->n, sizeof(*keys), by_sweep_key);
	if (split_off_grid(keys, set->n))
		qsort(keys, set->n, sizeof(*keys), by_sweep_key);
	for (from = 0; from < set->n; from = i) {
		chunks = 1;
		for (i = from + 1; i < set->n && keys[i].id == keys[from].id; i++)
			if (other_point(&keys[i], &keys[i - 1]))
				chunks++;
		if (chunks > 1 && set->items[keys[from].i].has_io &&
		    make_sweep(set, keys, from, i, chunks) != 0)
			goto out;
	}
	rc = mark_shared_names(set);
out:
	if (rc != 0)
		free_sweeps(set);       /* none rather than some */
	free(first_of);
	free(keys);
	return rc;
}

size_t report_set_sweep_chunks(const struct report_sweep *sw,
    unsigned *chunks)
{
	size_t p, k, n = 0;

	for (p = 0; p < sw->nchunks; p++) {
		for (k = 0; k < n && chunks[k] < sw->chunks[p]; k++)
			;
		if (k < n && chunks[k] == sw->chunks[p])
			continue;
		memmove(chunks + k + 1, chunks + k, (n - k) * sizeof(*chunks));
		chunks[k] = sw->chunks[p];
		n++;
	}
	return n;
}

long report_set_sweep_point(const struct report_sweep *sw, uint64_t size,
    unsigned chunk)
{
	return point_at(sw, size, chunk);
}

const struct report_place *report_set_place(const struct report_set *set,
    size_t i)
{
	static const struct report_place none = { -1, 0, 0 };

	return set->places != NULL ? &set->places[i] : &none;
}

bool report_set_row_sweep(const struct report_set *set,
    const struct report_row *row, size_t *series)
{
	const struct report_place *pl = report_set_place(set, row->mean ?
	    report_set_group_first(set, row->index) : row->index);

	*series = 0;
	if (pl->sweep < 0)
		return false;
	if (!row->mean && set->sweeps[pl->sweep].nseries > 1)
		*series = pl->series + 1;
	return true;
}

size_t report_set_tables(const struct report_set *set)
{
	return 1 + set->nsweeps;
}

size_t report_set_table_rows(const struct report_set *set, size_t t,
    struct report_row *rows)
{
	size_t i, p, k, n = 0;
	const struct report_sweep *sw;

	if (t == 0) {
		for (i = 0; i < set->n; i++)
			if (report_set_place(set, i)->sweep < 0)
				rows[n++] = (struct report_row){ i, false };
		for (i = 0; i < set->ngroups; i++)
			if (report_set_place(set, set->groups[i].first)->sweep < 0)
				rows[n++] = (struct report_row){ i, true };
		return n;
	}
	sw = &set->sweeps[t - 1];
	for (p = 0; p < sw->nchunks; p++) {
		const long *at = sw->items + p;

		for (k = 0; k < sw->nseries; k++)
			if (at[k * sw->nchunks] >= 0)
				rows[n++] = (struct report_row){
				    (size_t)at[k * sw->nchunks], false };
		/* the means of the groups that start at this chunk size */
		for (k = 0; k < sw->nseries; k++) {
			long it = at[k * sw->nchunks], g;

			g = it >= 0 ? set->items[it].group : -1;
			if (g >= 0 && set->groups[g].first == (size_t)it)
				rows[n++] = (struct report_row){ (size_t)g, true };
		}
	}
	return n;
}

/* ---- --compare -------------------------------------------------------- */

/* The base's sweep when it is in one, so that it compares per chunk. */
static long sweep_of_base(const struct report_set *set)
{
	size_t first = set->base_group >= 0 ?
	    set->groups[set->base_group].first : (size_t)set->base_item;

	return report_set_place(set, first)->sweep;
}

/*
 * A sweep's point at a chunk size, or -1; in a sweep of several file
 * sizes, at that file size too (a chunk sweep serves every file size).
 */
static long point_at(const struct report_sweep *sw, uint64_t size,
    unsigned chunk)
{
	size_t p;

	for (p = 0; p < sw->nchunks; p++)
		if (sw->chunks[p] == (chunk != 0 ? chunk : DEFAULT_CHUNK) &&
		    (sw->nsizes < 2 || sw->sizes[p] == size))
			return (long)p;
	return -1;
}

/*
 * The base at a file size and chunk size: its group (*group), or its lone
 * result (*group -1, *item set); false when the base has nothing there.
 */
static bool base_at(const struct report_set *set, uint64_t size,
    unsigned chunk, long *group, long *item)
{
	const struct report_sweep *sw;
	long p;

	*group = set->base_group;
	*item = set->base_item;
	if (set->base_sweep < 0)
		return true;
	sw = &set->sweeps[set->base_sweep];
	p = point_at(sw, size, chunk);
	if (p < 0)
		return false;
	*group = sw->groups[p];
	*item = sw->items[p];
	return true;
}

/*
 * One phase of a group against the base's: Welch's t on the runs' rates
 * or latencies (clyde(1), Sets of runs, says why not Mann-Whitney's U),
 * the change and its interval in % of the base's mean.  A latency is
 * better lower.
 */
static void judge(const struct report_spread *base,
    const struct report_spread *sp, double slack, bool lower_better,
    struct report_verdict *v)
{
	struct stats_summary a = { 0 }, b = { 0 };
	struct stats_welch w;

	memset(v, 0, sizeof(*v));
	if (base->runs == 0 || sp->runs == 0 || !(base->mean > 0))
		return;
	v->runs = base->runs < sp->runs ? base->runs : sp->runs;
	v->percent = (sp->mean / base->mean - 1.0) * 100.0;
	if (v->runs < REPORT_VERDICT_MIN_RUNS) {
		v->kind = VERDICT_TOO_FEW;
		return;
	}
	a.n = base->runs;
	a.mean = base->mean;
	a.sd = base->sd;
	b.n = sp->runs;
	b.mean = sp->mean;
	b.sd = sp->sd;
	stats_welch(&a, &b, &w);
	v->p = w.p;
	v->ci_low = w.diff_low / base->mean * 100.0;
	v->ci_high = w.diff_high / base->mean * 100.0;
	/* a difference the rounding of table cells can make is no change */
	if (w.p >= 1.0 - STATS_LEVEL || fabs(w.diff) <= slack)
		v->kind = VERDICT_SAME;
	else
		v->kind = (w.diff > 0) != lower_better ? VERDICT_BETTER :
		    VERDICT_WORSE;
}

/*
 * How far a latency of a CSV line may be from the true one: bonnie++
 * truncates it to whole ms from 100 ms on, to whole s from 100 s on.
 */
static double latency_slack(double us)
{
	return us >= 100000000.0 ? 1000000.0 : us >= 100000.0 ? 1000.0 : 0.0;
}

/* A lone base result as a set of one run: its rate, or its latency. */
static void one_run(const struct cell *c, bool latency,
    struct report_spread *one)
{
	memset(one, 0, sizeof(*one));
	if (latency ? !valid_latency(c) : !valid_rate(c))
		return;
	one->runs = 1;
	one->mean = latency ? (double)c->latency_us : c->rate;
}

/* Every group mean but the base's against the base, per phase. */
static int compare_groups(struct report_set *set)
{
	size_t g;

	free(set->verdicts);
	free(set->lat_verdicts);
	set->verdicts = set->lat_verdicts = NULL;
	if (set->ngroups == 0)
		return 0;
	set->verdicts = calloc(set->ngroups * PH_COUNT, sizeof(*set->verdicts));
	set->lat_verdicts = calloc(set->ngroups * PH_COUNT,
	    sizeof(*set->lat_verdicts));
	if (set->verdicts == NULL || set->lat_verdicts == NULL)
		return -2;
	for (g = 0; g < set->ngroups; g++) {
		const struct report_group *grp = &set->groups[g];
		struct report_verdict *v = &set->verdicts[g * PH_COUNT];
		struct report_verdict *lv = &set->lat_verdicts[g * PH_COUNT];
		long bg, bi;
		int ph;

		if (!base_at(set, grp->mean.file_size_mib, grp->mean.chunk,
		    &bg, &bi) || bg == (long)g)
			continue;
		for (ph = 0; ph < PH_COUNT; ph++) {
			const struct cell *bc = bg >= 0 ?
			    &set->groups[bg].mean.cell[ph] :
			    &set->items[bi].cell[ph];
			struct report_spread one, lone;

			one_run(bc, false, &one);
			one_run(bc, true, &lone);
			judge(bg >= 0 ? &set->groups[bg].spread[ph] : &one,
			    &grp->spread[ph], bc->rate_precision +
			    grp->mean.cell[ph].rate_precision, false, &v[ph]);
			judge(bg >= 0 ? &set->groups[bg].lat_spread[ph] : &lone,
			    &grp->lat_spread[ph],
			    latency_slack((double)bc->latency_us) +
			    latency_slack((double)grp->mean.cell[ph].latency_us),
			    true, &lv[ph]);
		}
	}
	return 0;
}

/* Group g's row of verdicts, NULL when every one is VERDICT_NONE. */
static const struct report_verdict *verdict_row(
    const struct report_verdict *all, const struct report_set *set, long g)
{
	const struct report_verdict *v;
	int ph;

	if (all == NULL || g < 0 || (size_t)g >= set->ngroups)
		return NULL;
	v = &all[(size_t)g * PH_COUNT];
	for (ph = 0; ph < PH_COUNT; ph++)
		if (v[ph].kind != VERDICT_NONE)
			return v;
	return NULL;
}

const struct report_verdict *report_set_verdicts(const struct report_set *set,
    long g)
{
	return verdict_row(set->verdicts, set, g);
}

const struct report_verdict *report_set_latency_verdicts(
    const struct report_set *set, long g)
{
	return verdict_row(set->lat_verdicts, set, g);
}

bool report_set_stdio_per_char(const struct result *r)
{
	return strcmp(r->generation, "1.0x") == 0;
}

/* What the runs of two results read from runs' JSON differ in. */
static unsigned unlike_runs(const struct report_set *set, size_t a, size_t b)
{
	const struct run_info *x, *y;
	unsigned u = 0;

	if (set->items[a].run < 0 || set->items[b].run < 0)
		return 0;
	x = &set->runs[set->items[a].run].run;
	y = &set->runs[set->items[b].run].run;
	if (strcmp(x->fstype, y->fstype) != 0)
		u |= REPORT_UNLIKE_FSTYPE;
	if (strcmp(x->mount_options, y->mount_options) != 0)
		u |= REPORT_UNLIKE_MOUNT;
	if (x->sync_writes != y->sync_writes)
		u |= REPORT_UNLIKE_SYNC;
	if (x->direct_io != y->direct_io)
		u |= REPORT_UNLIKE_DIRECT;
	return u;
}

unsigned report_set_unlike(const struct report_set *set, long g,
    struct result *base, size_t *base_first)
{
	const struct report_item *m;
	struct result mean;
	long bg, bi;
	unsigned u = 0;

	if (report_set_verdicts(set, g) == NULL)
		return 0;
	m = &set->groups[g].mean;
	if (!base_at(set, m->file_size_mib, m->chunk, &bg, &bi))
		return 0;
	unpack(set, bg >= 0 ? &set->groups[bg].mean : &set->items[bi], base);
	unpack(set, m, &mean);
	if (report_set_stdio_per_char(&mean) != report_set_stdio_per_char(base))
		u |= REPORT_UNLIKE_PROFILE;
	if (mean.has_io && base->has_io) {
		if (mean.file_size_mib != base->file_size_mib)
			u |= REPORT_UNLIKE_FILE_SIZE;
		if (chunk_of(m) != (base->chunk ? base->chunk : DEFAULT_CHUNK))
			u |= REPORT_UNLIKE_CHUNK;
		if (mean.seeks != base->seeks || mean.seekers != base->seekers)
			u |= REPORT_UNLIKE_SEEKS;
	}
	if (mean.concurrency != base->concurrency)
		u |= REPORT_UNLIKE_CONCURRENCY;
	if (mean.has_files && base->has_files &&
	    !same_files(&mean.files, &base->files))
		u |= REPORT_UNLIKE_FILES;
	*base_first = bg >= 0 ? set->groups[bg].first : (size_t)bi;
	return u | unlike_runs(set, set->groups[g].first, *base_first);
}

/* ---- --best ----------------------------------------------------------- */

/* Whether group g takes part: the sets outside chunk sweeps. */
static bool in_best(const struct report_set *set, size_t g)
{
	return report_set_place(set, set->groups[g].first)->sweep < 0;
}

/*
 * One measurement of every set against the best set's: the highest
 * median rate, or the lowest median latency.  out[g * PH_COUNT + ph].
 */
static void best_of(struct report_set *set, enum phase_id ph, bool latency,
    struct report_best *out)
{
	long best = -1;
	size_t g;

	for (g = 0; g < set->ngroups; g++) {
		const struct report_spread *sp = latency ?
		    &set->groups[g].lat_spread[ph] : &set->groups[g].spread[ph];
		const struct report_spread *bp;

		if (!in_best(set, g) || sp->runs == 0)
			continue;
		if (best < 0) {
			best = (long)g;
			continue;
		}
		bp = latency ? &set->groups[best].lat_spread[ph] :
		    &set->groups[best].spread[ph];
		if (latency ? sp->median < bp->median : sp->median > bp->median)
			best = (long)g;
	}
	if (best < 0)
		return;
	for (g = 0; g < set->ngroups; g++) {
		const struct report_group *b = &set->groups[best], *grp =
		    &set->groups[g];
		const struct report_spread *bp = latency ? &b->lat_spread[ph] :
		    &b->spread[ph];
		const struct report_spread *sp = latency ? &grp->lat_spread[ph] :
		    &grp->spread[ph];
		struct report_best *c = &out[g * PH_COUNT + ph];

		if (!in_best(set, g) || sp->runs == 0 || !(bp->median > 0))
			continue;
		c->has = true;
		c->percent = sp->median / bp->median * 100.0;
		/* a tie is a best too */
		c->best = sp->median == bp->median;
		if (c->best)
			continue;
		judge(bp, sp, latency ?
		    latency_slack((double)b->mean.cell[ph].latency_us) +
		    latency_slack((double)grp->mean.cell[ph].latency_us) :
		    b->mean.cell[ph].rate_precision +
		    grp->mean.cell[ph].rate_precision, latency, &c->v);
	}
}

int report_set_best(struct report_set *set)
{
	int ph;

	free(set->best);
	set->best = NULL;
	if (set->ngroups == 0)
		return 0;
	set->best = calloc(2 * set->ngroups * PH_COUNT, sizeof(*set->best));
	if (set->best == NULL)
		return -1;
	for (ph = 0; ph < PH_COUNT; ph++) {
		best_of(set, (enum phase_id)ph, false, set->best);
		best_of(set, (enum phase_id)ph, true,
		    set->best + set->ngroups * PH_COUNT);
	}
	return 0;
}

const struct report_best *report_set_best_of(const struct report_set *set,
    long g, bool latency)
{
	const struct report_best *b;
	int ph;

	if (set->best == NULL || g < 0 || (size_t)g >= set->ngroups)
		return NULL;
	b = set->best + (latency ? set->ngroups * PH_COUNT : 0) +
	    (size_t)g * PH_COUNT;
	for (ph = 0; ph < PH_COUNT; ph++)
		if (b[ph].has)
			return b;
	return NULL;
}

const char *report_set_group_name(const struct report_set *set, size_t g)
{
	return set->names + set->groups[g].mean.name;
}

int report_set_compare(struct report_set *set, const char *name)
{
	size_t i;

	set->has_base = false;
	set->base_item = set->base_group = set->base_sweep = -1;
	for (i = 0; i < set->ngroups; i++) {
		const struct report_item *m = &set->groups[i].mean;

		if (strcmp(set->names + m->name, name) == 0) {
			set->base_group = (long)i;
			set->has_base = true;
			break;
		}
	}
	for (i = 0; i < set->n && !set->has_base; i++) {
		const struct report_item *it = &set->items[i];

		if (strcmp(set->names + it->name, name) == 0 ||
		    strcmp(set->names + it->set_name, name) == 0) {
			set->base_item = (long)i;
			set->has_base = true;
		}
	}
	if (!set->has_base)
		return -1;
	set->base_sweep = sweep_of_base(set);
	return compare_groups(set);
}

/* The base's cells for a result of this file and chunk size, or NULL. */
static const struct cell *base_cells(const struct report_set *set,
    uint64_t size, unsigned chunk)
{
	long g, item;

	if (!set->has_base || !base_at(set, size, chunk, &g, &item))
		return NULL;
	return g >= 0 ? set->groups[g].mean.cell : set->items[item].cell;
}

bool report_set_is_base(const struct report_set *set, long item, long group)
{
	const struct report_sweep *sw;
	const struct report_place *pl;

	if (set->base_sweep < 0)
		return (item >= 0 && item == set->base_item) ||
		    (group >= 0 && group == set->base_group);
	sw = &set->sweeps[set->base_sweep];
	if (item >= 0) {
		pl = report_set_place(set, (size_t)item);
		return pl->sweep == set->base_sweep && pl->series == 0 &&
		    sw->groups[pl->point] < 0;
	}
	if (group < 0)
		return false;
	pl = report_set_place(set, set->groups[group].first);
	return pl->sweep == set->base_sweep && sw->groups[pl->point] == group;
}

bool report_set_percent(const struct report_set *set, const struct result *r,
    enum phase_id ph, long *pct)
{
	const struct cell *base = base_cells(set, r->file_size_mib, r->chunk);
	const struct cell *b, *c = &r->cell[ph];

	if (base == NULL)
		return false;
	b = &base[ph];
	if (!valid_rate(b) || !valid_rate(c) || !(b->rate > 0))
		return false;
	*pct = lround((c->rate / b->rate - 1.0) * 100.0);
	return true;
}

void report_set_percent_text(char *buf, size_t len, long pct)
{
	snprintf(buf, len, pct == 0 ? "0%%" : "%+ld%%", pct);
}

bool report_set_latency_percent(const struct report_set *set,
    const struct result *r, enum phase_id ph, long *pct)
{
	const struct cell *base = base_cells(set, r->file_size_mib, r->chunk);
	const struct cell *b, *c = &r->cell[ph];

	if (base == NULL)
		return false;
	b = &base[ph];
	if (!valid_latency(b) || b->latency_us == 0 || !valid_latency(c))
		return false;
	*pct = lround(((double)c->latency_us / (double)b->latency_us - 1.0) *
	    100.0);
	return true;
}

bool report_set_in_rounding(const struct report_set *set,
    const struct result *r, enum phase_id ph)
{
	const struct cell *base = base_cells(set, r->file_size_mib, r->chunk);
	const struct cell *b, *c = &r->cell[ph];
	double slack;

	if (base == NULL)
		return false;
	b = &base[ph];
	slack = b->rate_precision + c->rate_precision;
	return valid_rate(b) && valid_rate(c) && slack > 0 &&
	    fabs(c->rate - b->rate) <= slack;
}
