/*
 * report/compare.c: --compare: the base of a set, each group mean's
 * verdict per phase against it (Welch's t test), what the two sides'
 * runs differ in, and the percentages of the tables' cells.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/set.h"
#include "report/set_items.h"
#include "report/stats.h"

/* The base's sweep when it is in one, so that it compares per chunk. */
static long sweep_of_base(const struct report_set *set)
{
	size_t first = set->base_group >= 0 ?
	    set->groups[set->base_group].first : (size_t)set->base_item;

	return report_set_place(set, first)->sweep;
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
	p = report_set_sweep_point(sw, size, chunk);
	if (p < 0)
		return false;
	*group = sw->groups[p];
	*item = sw->items[p];
	return true;
}

const double report_power_change[REPORT_POWER_CHANGES] = { 1, 5, 10 };

/*
 * The runs a set needs to tell each change of report_power_change from
 * noise: the sd is the two sides' pooled, relative to the base's mean
 * (rates), or of the logarithms, which is relative already (latencies).
 */
static void runs_needed(const struct report_spread *base,
    const struct report_spread *sp, bool logs, struct report_verdict *v)
{
	double sd_a = logs ? base->log_sd : base->sd / base->mean;
	double sd_b = logs ? sp->log_sd : sp->sd / base->mean;
	double sd = sqrt((sd_a * sd_a + sd_b * sd_b) / 2);
	int k;

	if (base->runs < 2 || sp->runs < 2)
		return;
	for (k = 0; k < REPORT_POWER_CHANGES; k++) {
		double change = report_power_change[k] / 100.0;
		double effect = (logs ? log1p(change) : change) / sd;
		double n = sd > 0 ? stats_t_runs(effect, REPORT_POWER) : 2;

		v->runs_needed[k] = n < 0 || n > 1e6 ? 1000000 :
		    (unsigned)ceil(n - 1e-9);
	}
}

/*
 * One phase of a group against the base's: Welch's t on the runs' rates
 * (clyde(1), Sets of runs, says why not Mann-Whitney's U), the change
 * and its interval in % of the base's mean.  A latency is better lower,
 * and its change is a ratio: Welch's t on the logarithms of the runs'
 * latencies, the difference and its interval back from the log scale,
 * the change of the geometric mean, which cannot pass -100 %.
 */
void set_judge(const struct report_spread *base,
    const struct report_spread *sp, double slack, bool lower_better,
    struct report_verdict *v)
{
	struct stats_summary a = { 0 }, b = { 0 };
	struct stats_welch w;
	bool logs = lower_better && base->has_log && sp->has_log;

	memset(v, 0, sizeof(*v));
	if (base->runs == 0 || sp->runs == 0 || !(base->mean > 0))
		return;
	v->runs = base->runs < sp->runs ? base->runs : sp->runs;
	v->percent = logs ? expm1(sp->log_mean - base->log_mean) * 100.0 :
	    (sp->mean / base->mean - 1.0) * 100.0;
	runs_needed(base, sp, logs, v);
	if (v->runs < REPORT_VERDICT_MIN_RUNS) {
		v->kind = VERDICT_TOO_FEW;
		return;
	}
	a.n = base->runs;
	a.mean = logs ? base->log_mean : base->mean;
	a.sd = logs ? base->log_sd : base->sd;
	b.n = sp->runs;
	b.mean = logs ? sp->log_mean : sp->mean;
	b.sd = logs ? sp->log_sd : sp->sd;
	stats_welch(&a, &b, &w);
	v->p = w.p;
	if (logs) {
		v->ci_low = expm1(w.diff_low) * 100.0;
		v->ci_high = expm1(w.diff_high) * 100.0;
		w.diff = sp->mean - base->mean;
	} else {
		v->ci_low = w.diff_low / base->mean * 100.0;
		v->ci_high = w.diff_high / base->mean * 100.0;
	}
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
double set_latency_slack(double us)
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
	one->has_log = one->mean > 0;
	one->log_mean = one->has_log ? log(one->mean) : 0;
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
			set_judge(bg >= 0 ? &set->groups[bg].spread[ph] : &one,
			    &grp->spread[ph], bc->rate_precision +
			    grp->mean.cell[ph].rate_precision, false, &v[ph]);
			set_judge(bg >= 0 ? &set->groups[bg].lat_spread[ph] :
			    &lone, &grp->lat_spread[ph],
			    set_latency_slack((double)bc->latency_us) +
			    set_latency_slack(
			    (double)grp->mean.cell[ph].latency_us),
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
	set_unpack(set, bg >= 0 ? &set->groups[bg].mean : &set->items[bi],
	    base);
	set_unpack(set, m, &mean);
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
	    !set_same_files(&mean.files, &base->files))
		u |= REPORT_UNLIKE_FILES;
	*base_first = bg >= 0 ? set->groups[bg].first : (size_t)bi;
	return u | unlike_runs(set, set->groups[g].first, *base_first);
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
