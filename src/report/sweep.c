/*
 * report/sweep.c: the sweeps of a set, results that differ only in their
 * chunk size (--chunks), their file size (--sizes) or both, and the
 * tables they print as: one of the results outside any sweep, one per
 * sweep.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/set.h"
#include "report/set_items.h"

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

	set_free_sweeps(set);
	set->places = malloc(n * sizeof(*set->places));
	set->sweeps = calloc(n / 2 + 1, sizeof(*set->sweeps));
	if (first_of == NULL || keys == NULL || set->places == NULL ||
	    set->sweeps == NULL ||
	    set_find_firsts(set, first_of, set_same_sweep, false) != 0)
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
		set_free_sweeps(set);       /* none rather than some */
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

