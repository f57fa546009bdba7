/*
 * out/summary.c: see out/summary.h.  The lines go to stderr, so
 * that stdout stays what bonnie++ prints with -x: the CSV lines alone.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/csv.h"
#include "out/summary.h"
#include "lib/units.h"

/* The titles' column: 18, or the longest title shown (--dirs's) */
#define TITLE_WIDTH 18

/* "median 512000 K/s, +-3.2%" for one phase of group g */
static void phase_line(FILE *out, const struct report_spread *sp,
    enum phase_id ph, int width)
{
	const char *unit = ph < PH_SEEKS ? "K/s" : "/s";
	double half;

	fprintf(out, "  %-*s", width, phase_title[ph]);
	if (sp->runs == 0) {
		fprintf(out, " +++++ in %u runs\n", sp->too_fast);
		return;
	}
	/* as the CSV line writes a rate: seeks to a tenth, others truncated,
	 * so that the median of an odd -x is the figure of one of its lines */
	if (ph == PH_SEEKS)
		fprintf(out, " %10.1f %-4s", sp->median, unit);
	else
		fprintf(out, " %10.0f %-4s", floor(sp->median), unit);
	/* the interval is of the mean: its half-width in % of the mean */
	half = sp->mean > 0 ? (sp->ci_high - sp->mean) / sp->mean * 100.0 : 0;
	if (sp->runs >= 2)
		fprintf(out, " +-%.1f%%", half);
	if (sp->too_fast > 0)
		fprintf(out, " (%u runs; %u +++++)", sp->runs, sp->too_fast);
	fputc('\n', out);
}

static void group_block(FILE *out, const struct report_set *set, size_t g)
{
	const struct report_spread *sp = report_set_group_spread(set, g);
	struct result first;
	char chunk[32], varied[512] = "";
	int ph, width = TITLE_WIDTH;

	memset(&first, 0, sizeof(first));
	report_set_get(set, report_set_group_first(set, g), &first);
	fprintf(out, "clyde: %zu runs", report_set_group_runs(set, g));
	/* several groups: the chunk sizes of a --chunks sweep */
	if (set->ngroups > 1 && first.has_io) {
		fmt_chunk(chunk, sizeof(chunk), first.chunk ? first.chunk :
		    DEFAULT_CHUNK);
		fprintf(out, " at chunk %s", chunk);
	}
	fputs(": the median of each phase, +- the half-width of the 95% "
	    "interval of the mean\n", out);
	for (ph = 0; ph < PH_COUNT; ph++)
		if ((sp[ph].runs > 0 || sp[ph].too_fast > 0) &&
		    (int)strlen(phase_title[ph]) > width)
			width = (int)strlen(phase_title[ph]);
	for (ph = 0; ph < PH_COUNT; ph++) {
		size_t len = strlen(varied);

		if (sp[ph].runs == 0 && sp[ph].too_fast == 0)
			continue;
		phase_line(out, &sp[ph], (enum phase_id)ph, width);
		if (sp[ph].runs >= 2 && sp[ph].cv > REPORT_SUMMARY_CV_MAX)
			snprintf(varied + len, sizeof(varied) - len, "%s%s (%.1f%%)",
			    len ? ", " : "", phase_title[ph], sp[ph].cv);
	}
	if (varied[0] != '\0')
		fprintf(out, "clyde: runs vary by more than %.0f%% (CV) in: %s\n",
		    REPORT_SUMMARY_CV_MAX, varied);
}

void report_summary(FILE *out, const struct report_set *set)
{
	size_t g;

	for (g = 0; g < set->ngroups; g++)
		group_block(out, set, g);
}
