/*
 * report_set.h: the results clyde report read, and what is derived from
 * them before formatting: the groups and means of --average and the
 * base of --compare.  Formatters read a set; they compute nothing.
 *
 * A set stores each result compactly (no run-only fields) and hands it
 * out as a struct result, so every formatter keeps taking the one record.
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

/* Spread of one measurement over the runs of a group. */
struct report_spread {
	unsigned runs;          /* runs where it was measured; 0: never */
	double min, max;        /* rate */
	double cv;              /* coefficient of variation of the rate, % */
};

struct report_set {
	struct report_item *items;
	size_t n, cap;
	char *names;            /* name and seed strings */
	size_t names_len, names_cap;
	struct report_group *groups;    /* --average: groups of 2 or more */
	size_t ngroups;
	/* --compare: the base is a result, or the mean of a group */
	bool has_base;
	long base_item, base_group;     /* -1 when not that */
	struct cell base_cell[PH_COUNT];
};

void report_set_init(struct report_set *set);
void report_set_free(struct report_set *set);
/* Returns 0, or -1 when full or out of memory (errno). */
int report_set_add(struct report_set *set, const struct result *res);
/*
 * Result i into out.  out's run-only fields are left as they are: keep
 * one zeroed scratch record (from_run false) and reuse it.
 */
void report_set_get(const struct report_set *set, size_t i,
    struct result *out);

/*
 * --average: group the results by name and options (generation, sizes,
 * chunk, concurrency, seeks, file spec, which phases ran) and compute
 * each group's mean.  Returns 0, or -1 out of memory.
 */
int report_set_average(struct report_set *set);
/*
 * The mean of group g, named "mean:NAME", its number of runs, and its
 * spread[PH_COUNT].
 */
void report_set_group_mean(const struct report_set *set, size_t g,
    struct result *out);
size_t report_set_group_runs(const struct report_set *set, size_t g);
const struct report_spread *report_set_group_spread(
    const struct report_set *set, size_t g);
/* The group of result i with --average, or -1. */
long report_set_group_of(const struct report_set *set, size_t i);

/*
 * --compare: the base is the mean of the first group named 'name' when
 * there is one, else the first result with that name.  Returns -1 when
 * no result has it.
 */
int report_set_compare(struct report_set *set, const char *name);
/*
 * A rate as a percentage change from the base (+53 means 1.53 times the
 * base's rate).  False when either has no figure.
 */
bool report_set_percent(const struct report_set *set, const struct result *r,
    enum phase_id ph, long *pct);
/*
 * The difference between a rate and the base's is inside the rounding of
 * the table cells they were read from (their rate_precision).
 */
bool report_set_in_rounding(const struct report_set *set,
    const struct result *r, enum phase_id ph);

#endif
