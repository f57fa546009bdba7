/*
 * report/average.c: --average: the groups of a set's runs that share
 * their options, and each group's mean and spread per phase (clyde(1),
 * Averages and comparisons).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/set.h"
#include "report/set_items.h"
#include "report/stats.h"

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
 * The mean and sd of the logarithms of x[n] (sorted: the first is the
 * least), when every value is above 0.  x is overwritten.
 */
static void log_spread(double *x, size_t n, struct report_spread *sp)
{
	struct stats_summary logs;
	size_t i;

	sp->has_log = false;
	if (n == 0 || !(x[0] > 0))
		return;
	for (i = 0; i < n; i++)
		x[i] = log(x[i]);
	stats_summarize(x, n, &logs);
	sp->has_log = true;
	sp->log_mean = logs.mean;
	sp->log_sd = logs.sd;
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
			log_spread(rates, k, &set->groups[g].lat_spread[ph]);
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
	    set_find_firsts(set, first_of, set_same_options, true) != 0)
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

	set_unpack(set, &set->groups[g].mean, out);
	/* one name in every format: the table, CSV, JSON and HTML */
	snprintf(name, sizeof(name), "mean:%.*s", (int)sizeof(name) - 6,
	    out->name);
	memcpy(out->name, name, sizeof(name));
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

