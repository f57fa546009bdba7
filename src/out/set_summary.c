/*
 * out/set_summary.c: see out/set_summary.h.  The cells are those of the
 * text table's rows (out/text_cells.c), so that a summary and the full
 * table never tell two stories.
 */
#include <stdio.h>
#include <string.h>

#include "core/csv.h"
#include "out/set_summary.h"
#include "out/text_cells.h"

/* The runs needed for a change of report_power_change[RUNS_5]: 5 % */
#define RUNS_5 1

/* A set's name: its label or machine name, without "mean:" */
static const char *set_name(const struct report_set *set, size_t g)
{
	const char *name = report_set_group_name(set, g);

	return strncmp(name, "mean:", 5) == 0 ? name + 5 : name;
}

/*
 * Group g's name in the table, with its size label when another group
 * has the same name (the points of a sweep, or other options).
 */
static void group_label(char *out, size_t n, const struct report_set *set,
    size_t g)
{
	char size[64];
	struct result first;
	size_t h;

	snprintf(out, n, "%s", set_name(set, g));
	for (h = 0; h < set->ngroups; h++)
		if (h != g && strcmp(set_name(set, h), set_name(set, g)) == 0)
			break;
	if (h == set->ngroups)
		return;
	memset(&first, 0, sizeof(first));
	report_set_get(set, report_set_group_first(set, g), &first);
	report_text_size_label(size, sizeof(size), COMPAT_200, &first, true);
	snprintf(out + strlen(out), n - strlen(out), " %s", size);
}

static const char *base_name(const struct report_set *set, char *buf,
    size_t n)
{
	static struct result r;

	if (set->base_group >= 0)
		return set_name(set, (size_t)set->base_group);
	if (set->base_item >= 0) {
		report_set_get(set, (size_t)set->base_item, &r);
		snprintf(buf, n, "%s", r.name);
		return buf;
	}
	return "base";
}

void set_summary_heading(char *buf, size_t n, const struct report_set *set,
    enum set_summary_col col)
{
	static const char *const fixed[SUMMARY_COLS] = {
		"set", "phase", "mean", "cv", "runs", NULL, "95% interval",
		"runs for 5%", "latency", NULL,
	};
	char name[NAME_MAX_LEN + 1];

	if (fixed[col] != NULL)
		snprintf(buf, n, "%s", fixed[col]);
	else
		snprintf(buf, n, "%svs %s",
		    col == SUMMARY_LATENCY_VERDICT ? "latency " : "",
		    base_name(set, name, sizeof(name)));
}

bool set_summary_has_col(const struct report_set *set,
    enum set_summary_col col)
{
	size_t g;
	int ph;

	switch (col) {
	case SUMMARY_VERDICT:
	case SUMMARY_INTERVAL:
	case SUMMARY_RUNS_5:
		return set->has_base && set->verdicts != NULL;
	case SUMMARY_LATENCY:
	case SUMMARY_LATENCY_VERDICT:
		if (col == SUMMARY_LATENCY_VERDICT &&
		    !(set->has_base && set->lat_verdicts != NULL))
			return false;
		for (g = 0; g < set->ngroups; g++)
			for (ph = 0; ph < PH_COUNT; ph++)
				if (report_set_group_latency_spread(set,
				    g)[ph].runs > 0)
					return true;
		return false;
	default:
		return true;
	}
}

static bool shown(const struct report_spread *sp)
{
	return sp->runs > 0 || sp->too_fast > 0;
}

/* "+17..+23" */
static void interval(char *out, size_t n, const struct report_verdict *v)
{
	snprintf(out, n, "%+.0f..%+.0f", v->ci_low, v->ci_high);
}

/* The verdict's cells of a rate (latency false) or a latency */
static void verdict(struct set_summary_row *row, const struct report_set *set,
    size_t g, enum phase_id ph, bool latency)
{
	const struct report_verdict *vs = latency ?
	    report_set_latency_verdicts(set, (long)g) :
	    report_set_verdicts(set, (long)g);
	const struct report_verdict *v;
	char cell[64], ival[64];
	struct result mean;

	if (vs == NULL)
		return;
	v = &vs[ph];
	memset(&mean, 0, sizeof(mean));
	report_set_group_mean(set, g, &mean);
	report_text_verdict(cell, ival, sizeof(cell), set, &mean, v, ph,
	    latency);
	/* within noise, the interval still says how close it came */
	if (v->kind == VERDICT_SAME && v->ci_low <= 0 && v->ci_high >= 0)
		interval(ival, sizeof(ival), v);
	if (v->kind == VERDICT_TOO_FEW)
		snprintf(ival, sizeof(ival), "too few runs (%u)", v->runs);
	if (latency) {
		row->latency_kind = v->kind;
		snprintf(row->cell[SUMMARY_LATENCY_VERDICT], SUMMARY_CELL,
		    ival[0] != '\0' ? "%s (%s)" : "%s", cell, ival);
		return;
	}
	row->kind = v->kind;
	snprintf(row->cell[SUMMARY_VERDICT], SUMMARY_CELL, "%s", cell);
	snprintf(row->cell[SUMMARY_INTERVAL], SUMMARY_CELL, "%s", ival);
	if (v->runs_needed[RUNS_5] > 999)
		snprintf(row->cell[SUMMARY_RUNS_5], SUMMARY_CELL, "1k+");
	else if (v->runs_needed[RUNS_5] > 0)
		snprintf(row->cell[SUMMARY_RUNS_5], SUMMARY_CELL, "%u",
		    v->runs_needed[RUNS_5]);
	if (v->runs_needed[RUNS_5] > v->runs) {
		size_t len = strlen(row->cell[SUMMARY_RUNS_5]);

		snprintf(row->cell[SUMMARY_RUNS_5] + len, SUMMARY_CELL - len,
		    " (too few)");
	}
}

static void fill(struct set_summary_row *row, const struct report_set *set,
    size_t g, enum phase_id ph)
{
	const struct report_spread *sp = &report_set_group_spread(set, g)[ph];
	const struct report_spread *lat =
	    &report_set_group_latency_spread(set, g)[ph];
	unsigned all = sp->runs + sp->too_fast;

	memset(row, 0, sizeof(*row));
	group_label(row->cell[SUMMARY_SET], SUMMARY_CELL, set, g);
	snprintf(row->cell[SUMMARY_PHASE], SUMMARY_CELL, "%s", phase_title[ph]);
	if (sp->runs == 0)
		snprintf(row->cell[SUMMARY_MEAN], SUMMARY_CELL, "+++++");
	else
		report_text_rate(row->cell[SUMMARY_MEAN], SUMMARY_CELL,
		    sp->mean, ph, ph < PH_SEEKS);
	if (sp->runs >= 2)
		snprintf(row->cell[SUMMARY_CV], SUMMARY_CELL, "%.1f%%", sp->cv);
	snprintf(row->cell[SUMMARY_RUNS], SUMMARY_CELL,
	    sp->too_fast > 0 ? "%u of %u" : "%u", sp->runs, all);
	if (lat->runs > 0)
		fmt_latency(row->cell[SUMMARY_LATENCY], SUMMARY_CELL,
		    (int64_t)(lat->mean + 0.5));
	row->base = report_set_is_base(set, -1, (long)g);
	if (row->base) {
		snprintf(row->cell[SUMMARY_VERDICT], SUMMARY_CELL, "base");
		if (lat->runs > 0)
			snprintf(row->cell[SUMMARY_LATENCY_VERDICT],
			    SUMMARY_CELL, "base");
		return;
	}
	if (sp->runs > 0)
		verdict(row, set, g, ph, false);
	if (lat->runs > 0)
		verdict(row, set, g, ph, true);
}

bool set_summary_next(const struct report_set *set, size_t *at,
    struct set_summary_row *row)
{
	size_t ph, g;

	for (; *at < (size_t)PH_COUNT * set->ngroups; (*at)++) {
		ph = *at / set->ngroups;
		g = *at % set->ngroups;
		if (shown(&report_set_group_spread(set, g)[ph])) {
			fill(row, set, g, (enum phase_id)ph);
			(*at)++;
			return true;
		}
	}
	return false;
}

void set_summary_runs_line(char *buf, size_t n, const struct report_set *set)
{
	char label[SUMMARY_CELL];
	size_t used, g;

	used = (size_t)snprintf(buf, n, "Runs:");
	for (g = 0; g < set->ngroups && used < n; g++) {
		group_label(label, sizeof(label), set, g);
		used += (size_t)snprintf(buf + used, n - used, "%s %s %zu",
		    g > 0 ? "," : "", label, report_set_group_runs(set, g));
	}
	if (set->ngroups == 0)
		snprintf(buf, n, "Runs: no set of two runs or more");
}

void set_summary_legend(char *buf, size_t n, const struct report_set *set)
{
	size_t used;

	used = (size_t)snprintf(buf, n, "k, m, g: KiB, MiB, GiB per second; "
	    "cv: coefficient of variation;\nruns: those measured (of N: the "
	    "others +++++, too fast)");
	if (set_summary_has_col(set, SUMMARY_VERDICT) && used < n)
		snprintf(buf + used, n - used, "; ~: within noise at 95%% "
		    "(Welch's t);\nruns for 5%%: the runs each set needs to "
		    "see a 5%% change (power 0.8)");
}
