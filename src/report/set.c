/*
 * report/set.c: the results of clyde report: a set keeps them compactly
 * and hands each out as a struct result, and tells which are alike (the
 * identities of the --average groups and of the sweeps).  What is derived
 * from a set is made in report/average.c, sweep.c, compare.c and best.c,
 * so the formatters only format.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/set.h"
#include "report/set_items.h"
#include "lib/text.h"

void report_set_init(struct report_set *set)
{
	memset(set, 0, sizeof(*set));
	set->base_item = set->base_group = set->base_sweep = -1;
}

void set_free_sweeps(struct report_set *set)
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
	set_free_sweeps(set);
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
	(dst)->from_json = (src)->from_json; \
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
	char side_label[NAME_MAX_LEN + 8];
	struct report_item *it;

	/* a side of a post's diff is a set of its own: "(-) prod" */
	if (res->diff_side != 0) {
		snprintf(side_label, sizeof(side_label), "(%c) %.*s",
		    res->diff_side, NAME_MAX_LEN, label != NULL ? label :
		    res->name);
		label = side_label;
	}
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

void set_unpack(const struct report_set *set, const struct report_item *it,
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

	set_unpack(set, it, out);
	/*
	 * --average: a set of LABEL=PATH that is one run has no mean row,
	 * mean:LABEL: the run's row is the set's, under its label
	 */
	if (set->groups != NULL && it->group < 0 && it->set_name != it->name)
		snprintf(out->name, sizeof(out->name), "%s",
		    set->names + it->set_name);
}

/* ---- which results are alike: groups and sweeps --------------------- */

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
bool set_same_sweep(const struct report_set *set,
    const struct report_item *a, const struct report_item *b)
{
	return strcmp(set->names + a->set_name, set->names + b->set_name) == 0 &&
	    strcmp(a->generation, b->generation) == 0 &&
	    a->has_io == b->has_io &&
	    a->concurrency == b->concurrency && a->seeks == b->seeks &&
	    a->seekers == b->seekers;
}

bool set_same_files(const struct files_spec *a, const struct files_spec *b)
{
	return a->count_k == b->count_k && a->max_size == b->max_size &&
	    a->min_size == b->min_size && a->dirs == b->dirs &&
	    a->chunk == b->chunk;
}

bool set_same_options(const struct report_set *set,
    const struct report_item *a, const struct report_item *b)
{
	return set_same_sweep(set, a, b) &&
	    a->file_size_mib == b->file_size_mib && a->chunk == b->chunk &&
	    a->has_files == b->has_files &&
	    set_same_files(&a->files, &b->files) &&
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

/* all: of the fields set_same_options() compares, else of set_same_sweep()'s */
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

/* first_of[i]: the first result that same() finds like it */
int set_find_firsts(const struct report_set *set, size_t *first_of,
    set_same_fn *same, bool hash_all)
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

/* ---- the groups, which report/average.c makes ------------------------ */

size_t report_set_group_first(const struct report_set *set, size_t g)
{
	return set->groups[g].first;
}

size_t report_set_group_runs(const struct report_set *set, size_t g)
{
	return set->groups[g].runs;
}

long report_set_group_of(const struct report_set *set, size_t i)
{
	return set->items[i].group;
}

const char *report_set_group_name(const struct report_set *set, size_t g)
{
	return set->names + set->groups[g].mean.name;
}


void report_set_layouts(const struct report_set *set, size_t *old,
    size_t *later)
{
	size_t i;

	*old = *later = 0;
	for (i = 0; i < set->n; i++) {
		if (strcmp(set->items[i].generation, "1.0x") == 0)
			(*old)++;
		else
			(*later)++;
	}
}
