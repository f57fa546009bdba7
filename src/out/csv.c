/*
 * out/csv.c: bonnie++'s CSV lines, through the layouts of core/csv.c: a
 * run's, and clyde report's of the --compat generation or of each
 * result's own, with the means of --average and the lines of --best.
 */
#include <stdio.h>
#include <string.h>

#include "core/csv.h"
#include "out/writer.h"
#include "report/set.h"

/*
 * bonnie++ never escaped a comma in a name or a -Z seed file name; a
 * line written back holds none, so that it reads back field for field.
 */
static void no_commas(char *s)
{
	for (; *s != '\0'; s++)
		if (*s == ',')
			*s = ';';
}

/*
 * --best as lines of their own after the mean lines, one per set, phase
 * and measure, under a header of their own: a reader of bonnie++'s lines
 * takes them for no result.
 */
static void print_best_csv(FILE *out, const struct report_set *set)
{
	static const char *const verdict[] = {
		[VERDICT_NONE] = "", [VERDICT_TOO_FEW] = "too_few",
		[VERDICT_SAME] = "within_noise", [VERDICT_BETTER] = "better",
		[VERDICT_WORSE] = "worse",
	};
	char name[NAME_MAX_LEN + 1];
	size_t g;
	int lat, ph;

	fputs("best_case,set,phase,measure,median,percent_of_best,verdict,p,"
	    "runs\n", out);
	for (g = 0; g < set->ngroups; g++)
		for (lat = 0; lat < 2; lat++) {
			const struct report_best *b = report_set_best_of(set,
			    (long)g, lat);
			const struct report_spread *sp = lat ?
			    report_set_group_latency_spread(set, g) :
			    report_set_group_spread(set, g);

			if (b == NULL)
				continue;
			snprintf(name, sizeof(name), "%s",
			    report_set_group_name(set, g));
			no_commas(name);
			for (ph = 0; ph < PH_COUNT; ph++) {
				if (!b[ph].has)
					continue;
				fprintf(out, "best_case,%s,%s,%s,%.10g,%.1f,%s,", name,
				    phase_csv_name[ph], lat ? "latency_us" : "rate",
				    sp[ph].median, b[ph].percent, b[ph].best ? "best" :
				    verdict[b[ph].v.kind]);
				if (!b[ph].best && b[ph].v.kind != VERDICT_TOO_FEW)
					fprintf(out, "%.4g", b[ph].v.p);
				fprintf(out, ",%u\n", sp[ph].runs);
			}
		}
}

/*
 * clyde report --csv: the lines of the --compat generation, those of a
 * table's or a run's result in its own unless --compat was given; a
 * header first for several lines.
 */
static void print_set(FILE *out, const struct report_set *set,
    const struct writer_opts *o)
{
	const struct csv_layout *layout = csv_layout_for(o->compat);
	struct result scratch;
	size_t i;

	memset(&scratch, 0, sizeof(scratch));
	if (set->n + set->ngroups > 1)
		csv_write_header(out, layout);
	for (i = 0; i < set->n; i++) {
		struct csv_layout own = *layout;

		report_set_get(set, i, &scratch);
		no_commas(scratch.name);
		no_commas(scratch.seed);
		/* a table's or a run's result: the line of its own generation */
		if ((scratch.from_table || scratch.from_run) && !o->compat_given &&
		    csv_layout_of_tag(scratch.generation) != NULL) {
			own = *csv_layout_of_tag(scratch.generation);
			if (own.format_version[0] != '\0')
				own.format_version = scratch.format_version;
		}
		csv_write_row(out, &own, &scratch);
	}
	for (i = 0; i < set->ngroups; i++) {
		report_set_group_mean(set, i, &scratch);
		no_commas(scratch.name);
		no_commas(scratch.seed);
		csv_write_row(out, layout, &scratch);
	}
	if (set->best != NULL)
		print_best_csv(out, set);
}

/*
 * The lines of a run, in the layout of its --compat.  bonnie++ writes
 * the header only for more than one line, before the first.
 */
static int print_records(FILE *out, const struct writer_run *run,
    const struct result *res, unsigned nres)
{
	const struct csv_layout *layout = csv_layout_for(run->compat);
	unsigned i;

	if (run->several && run->records == 0 && nres > 0)
		csv_write_header(out, layout);
	for (i = 0; i < nres; i++)
		csv_write_row(out, layout, &res[i]);
	return 0;
}

const struct writer writer_csv = {
	"csv", "CSV lines of the --compat generation",
	print_set, print_records, NULL
};
