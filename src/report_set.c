/*
 * report_set.c: the results of clyde report, their --average groups and
 * means, and the --compare base.  Every derived figure is made here, so
 * the formatters only format.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_set.h"

/* A result without the run-only fields; strings live in set->names. */
struct report_item {
	char generation[16];
	bool from_table;
	char format_version[16];
	char bonnie_version[16];
	size_t name, seed;              /* offsets into set->names */
	int concurrency;
	bool has_io, has_files;
	uint64_t file_size_mib;
	unsigned chunk, seeks, seekers;
	struct files_spec files;
	struct cell cell[PH_COUNT];
	long group;                     /* --average, or -1 */
};

struct report_group {
	size_t first;                   /* item of the first run */
	size_t runs;
	struct report_item mean;
	struct report_spread spread[PH_COUNT];
};

void report_set_init(struct report_set *set)
{
	memset(set, 0, sizeof(*set));
	set->base_item = set->base_group = -1;
}

void report_set_free(struct report_set *set)
{
	free(set->items);
	free(set->names);
	free(set->groups);
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
	memcpy((dst)->cell, (src)->cell, sizeof((dst)->cell)); \
} while (0)

int report_set_add(struct report_set *set, const struct result *res)
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
	if (keep_string(set, res->name, &it->name) != 0 ||
	    keep_string(set, res->seed, &it->seed) != 0)
		return -1;
	set->n++;
	return 0;
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
	out->from_run = false;
}

void report_set_get(const struct report_set *set, size_t i,
    struct result *out)
{
	unpack(set, &set->items[i], out);
}

/* ---- --average ------------------------------------------------------ */

/* Which phases ran: -f, -s 0 and -n 0 runs are not the same options. */
static unsigned ran_mask(const struct report_item *it)
{
	unsigned m = 0;
	int i;

	for (i = 0; i < PH_COUNT; i++)
		if (it->cell[i].status != CELL_SKIPPED)
			m |= 1u << i;
	return m;
}

static bool same_options(const struct report_set *set,
    const struct report_item *a, const struct report_item *b)
{
	return strcmp(set->names + a->name, set->names + b->name) == 0 &&
	    strcmp(a->generation, b->generation) == 0 &&
	    a->has_io == b->has_io && a->has_files == b->has_files &&
	    a->file_size_mib == b->file_size_mib && a->chunk == b->chunk &&
	    a->concurrency == b->concurrency && a->seeks == b->seeks &&
	    a->seekers == b->seekers &&
	    a->files.count_k == b->files.count_k &&
	    a->files.max_size == b->files.max_size &&
	    a->files.min_size == b->files.min_size &&
	    a->files.dirs == b->files.dirs &&
	    a->files.chunk == b->files.chunk &&
	    ran_mask(a) == ran_mask(b);
}

static uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;

	while (n-- > 0)
		h = (h ^ *c++) * 0x100000001b3ULL;
	return h;
}

static uint64_t options_hash(const struct report_set *set,
    const struct report_item *it)
{
	const char *name = set->names + it->name;
	uint64_t h = 0xcbf29ce484222325ULL;

	h = hash_bytes(h, name, strlen(name));
	h = hash_bytes(h, &it->file_size_mib, sizeof(it->file_size_mib));
	h = hash_bytes(h, &it->files.count_k, sizeof(it->files.count_k));
	return h ^ ran_mask(it);
}

/* Rounded as the column prints it: seeks to 0.1, other rates whole. */
static double round_rate(enum phase_id ph, double v)
{
	return ph == PH_SEEKS ? round(v * 10.0) / 10.0 : round(v);
}

/* Sums over the runs of one group, for one measurement. */
struct acc {
	double sum, sumsq, cpu, lat, min, max;
	double precision;               /* sum of the rates' rounding */
	unsigned runs, lats, fast;
};

static void accumulate(struct acc *a, const struct cell *c)
{
	if (c->latency_us >= 0) {
		a->lat += (double)c->latency_us;
		a->lats++;
	}
	if (c->status == CELL_TOO_FAST)
		a->fast++;
	if (c->status != CELL_OK)
		return;
	if (a->runs == 0 || c->rate < a->min)
		a->min = c->rate;
	if (a->runs == 0 || c->rate > a->max)
		a->max = c->rate;
	a->runs++;
	a->sum += c->rate;
	a->sumsq += c->rate * c->rate;
	a->cpu += c->cpu;
	a->precision += c->rate_precision;
}

/*
 * The mean over the runs where the phase was measured; +++++ only when
 * it was +++++ in every run that ran it.  The mean latency is the mean of
 * the runs' slowest operations.
 */
static void finish(const struct acc *a, enum phase_id ph, struct cell *mean,
    struct report_spread *sp)
{
	double m;

	memset(sp, 0, sizeof(*sp));
	mean->status = a->runs > 0 ? CELL_OK :
	    a->fast > 0 ? CELL_TOO_FAST : CELL_SKIPPED;
	mean->rate = 0;
	mean->rate_precision = 0;
	mean->cpu = -1;
	mean->latency_us = a->lats > 0 ? (int64_t)llround(a->lat / a->lats) : -1;
	if (a->runs == 0)
		return;
	m = a->sum / a->runs;
	mean->rate = round_rate(ph, m);
	/* the mean of rounded rates is off by at most their mean rounding */
	mean->rate_precision = a->precision / a->runs;
	mean->cpu = (int)lround(a->cpu / a->runs);
	sp->runs = a->runs;
	sp->min = a->min;
	sp->max = a->max;
	/* sample standard deviation over the mean, in percent */
	if (a->runs > 1 && m > 0) {
		double var = (a->sumsq - a->runs * m * m) / (a->runs - 1);

		sp->cv = var > 0 ? sqrt(var) / m * 100.0 : 0.0;
	}
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

/* first_of[i]: the first result with the same name and options */
static int find_firsts(const struct report_set *set, size_t *first_of)
{
	size_t size = 16, i, *slot;

	while (size < set->n * 2)
		size *= 2;
	slot = calloc(size, sizeof(*slot));     /* item + 1, 0: empty */
	if (slot == NULL)
		return -1;
	for (i = 0; i < set->n; i++) {
		size_t h = (size_t)options_hash(set, &set->items[i]) & (size - 1);

		while (slot[h] != 0 &&
		    !same_options(set, &set->items[slot[h] - 1], &set->items[i]))
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
	size_t *first_of = malloc(n * sizeof(*first_of));
	size_t *runs = malloc(n * sizeof(*runs));
	struct acc *acc = NULL;
	int rc = -1;

	free(set->groups);
	set->groups = NULL;
	set->ngroups = 0;
	if (first_of == NULL || runs == NULL || find_firsts(set, first_of) != 0)
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
		}
		for (ph = 0; ph < PH_COUNT; ph++)
			accumulate(&acc[(size_t)it->group * PH_COUNT + ph],
			    &it->cell[ph]);
	}
	for (i = 0; i < ng; i++) {
		int ph;

		for (ph = 0; ph < PH_COUNT; ph++)
			finish(&acc[i * PH_COUNT + ph], (enum phase_id)ph,
			    &set->groups[i].mean.cell[ph],
			    &set->groups[i].spread[ph]);
	}
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

size_t report_set_group_runs(const struct report_set *set, size_t g)
{
	return set->groups[g].runs;
}

const struct report_spread *report_set_group_spread(
    const struct report_set *set, size_t g)
{
	return set->groups[g].spread;
}

long report_set_group_of(const struct report_set *set, size_t i)
{
	return set->items[i].group;
}

/* ---- --compare -------------------------------------------------------- */

int report_set_compare(struct report_set *set, const char *name)
{
	size_t i;

	set->has_base = false;
	set->base_item = set->base_group = -1;
	for (i = 0; i < set->ngroups; i++) {
		const struct report_item *m = &set->groups[i].mean;

		if (strcmp(set->names + m->name, name) == 0) {
			set->base_group = (long)i;
			memcpy(set->base_cell, m->cell, sizeof(m->cell));
			set->has_base = true;
			return 0;
		}
	}
	for (i = 0; i < set->n; i++) {
		const struct report_item *it = &set->items[i];

		if (strcmp(set->names + it->name, name) == 0) {
			set->base_item = (long)i;
			memcpy(set->base_cell, it->cell, sizeof(it->cell));
			set->has_base = true;
			return 0;
		}
	}
	return -1;
}

bool report_set_percent(const struct report_set *set, const struct result *r,
    enum phase_id ph, long *pct)
{
	const struct cell *b = &set->base_cell[ph], *c = &r->cell[ph];

	if (!set->has_base || b->status != CELL_OK || c->status != CELL_OK ||
	    !(b->rate > 0))
		return false;
	*pct = lround((c->rate / b->rate - 1.0) * 100.0);
	return true;
}

bool report_set_in_rounding(const struct report_set *set,
    const struct result *r, enum phase_id ph)
{
	const struct cell *b = &set->base_cell[ph], *c = &r->cell[ph];
	double slack = b->rate_precision + c->rate_precision;

	return set->has_base && b->status == CELL_OK && c->status == CELL_OK &&
	    slack > 0 && fabs(c->rate - b->rate) <= slack;
}
