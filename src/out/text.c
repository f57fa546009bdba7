/*
 * out/text.c: bonnie++'s text table, from result records only.
 *
 * One result prints exactly as bonnie++ prints it.  Several print as one
 * table, one row each, the way bon_csv2txt prints a file of CSV lines:
 * every I/O row, then every file row labelled with its name (unless all
 * share one name); with --average the mean, min, max and CV rows of each
 * group follow, with --compare a row of percentages under each result.
 *
 * Numbers are never clipped to the column: a wide value pushes the rest
 * of the row right, as in bonnie++ (clyde(1), OUTPUT).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/csv.h"
#include "out/grid.h"
#include "out/latency.h"
#include "out/set_summary.h"
#include "out/text.h"
#include "out/text_cells.h"
#include "out/writer.h"
#include "report/ranks.h"
#include "report/set.h"
#include "lib/text.h"

/* The table names the bonnie++ release whose layout it reproduces. */
#define VERSION_103 "1.03e"
#define VERSION_200 "2.00a"
#define LABEL_WIDTH 19

static const char io_title[] =
    "------Sequential Output------ --Sequential Input- --Random-\n";
static const char io_columns[] =
    "-Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n";
static const char file_title[] =
    "------Sequential Create------ --------Random Create--------\n";
static const char file_columns[] =
    "-Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n";
static const char file_units[] =
    " /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n";
/* --dirs: clyde's own section, in the file section's layout */
static const char dir_title[] =
    "--Directories in Tree Order-- -Directories in Random Order-\n";
static const char dir_columns[] =
    "-Create-- ---Stat-- -Delete-- -Create-- ---Stat-- -Delete--\n";

/* The rate part of a cell: " %5d", seeks " %5.1f" below 1000. */
static void put_rate(FILE *out, double rate, enum phase_id ph, bool units)
{
	char s[64];

	report_text_rate(s, sizeof(s), rate, ph, units);
	fprintf(out, " %5s", s);
}

/*
 * " %5d %3d"; +++++ +++; blanks when not run.  units: the I/O rates of
 * 2.00 with k/m/g.
 */
static void put_cell(FILE *out, const struct cell *c, enum phase_id ph,
    bool units)
{
	switch (c->status) {
	case CELL_SKIPPED:
	case CELL_ABSENT:
		fputs("          ", out);
		return;
	case CELL_TOO_FAST:
		fputs(" +++++ +++", out);
		return;
	case CELL_UNKNOWN:
		fprintf(out, "     ? %3d", c->cpu);
		return;
	case CELL_OK:
		break;
	}
	if (ph != PH_SEEKS && !units && c->rate < 2147483647.0)
		fprintf(out, " %5d %3d", (int)c->rate, c->cpu);  /* most cells */
	else {
		put_rate(out, c->rate, ph, units);
		fprintf(out, " %3d", c->cpu);
	}
}

/*
 * The 19-character label: the name cut to make room for one space and
 * the size label.  A size label of 18 characters or more stands alone.
 * whole (a mean's row): a name that does not fit is never cut, for the
 * set's name is all that tells one mean from another; it takes a line
 * of its own above the row, which keeps its columns.
 */
static void put_label(FILE *out, const char *name, const char *size,
    bool whole)
{
	int room = LABEL_WIDTH - 1 - (int)strlen(size);

	if (room < 0)
		room = 0;
	if (whole && text_columns(name) > (size_t)room) {
		fprintf(out, "%s\n%*s", name, LABEL_WIDTH, size);
		return;
	}
	put_fitted(out, name, room);
	fprintf(out, " %s", size);
}

/* "Latency          " and six latency strings, right-aligned in 9 */
static void latency_row(FILE *out, const struct result *res,
    enum phase_id first)
{
	char lat[32];
	int i;

	fputs("Latency          ", out);
	for (i = (int)first; i < (int)first + 6; i++) {
		fmt_latency(lat, sizeof(lat), res->cell[i].latency_us);
		fprintf(out, " %9s", lat);
	}
	fputc('\n', out);
}

/* ---- the rows ------------------------------------------------------- */

/* Where the rows come from: one record, or a table of a set. */
struct source {
	enum compat compat;
	const struct result *one;
	const struct report_set *set;
	struct result *scratch;
	const struct report_row *rows;  /* of the set's table */
	size_t n;
	const char *common_name;        /* every row has it, or NULL */
	const char *base;               /* --compare, or NULL */
	bool sweep;                     /* the table of a sweep */
};

/* Row k: a result, or the mean of a group (*group set to it, else -1). */
static const struct result *row_at(const struct source *src, size_t k,
    long *group)
{
	const struct report_row *row;

	if (group != NULL)
		*group = -1;
	if (src->set == NULL)
		return src->one;
	row = &src->rows[k];
	if (!row->mean) {
		report_set_get(src->set, row->index, src->scratch);
	} else {
		report_set_group_mean(src->set, row->index, src->scratch);
		if (group != NULL)
			*group = (long)row->index;
	}
	return src->scratch;
}

/* The result of row k, or -1 for a mean or a lone record. */
static long item_of(const struct source *src, size_t k)
{
	if (src->set == NULL || src->rows[k].mean)
		return -1;
	return (long)src->rows[k].index;
}

/*
 * The name of I/O row k, before its size label.  In the table of a sweep
 * run more than once, whose heading names the sweep, a run says its
 * series and a mean says so: "box #2" and "mean:box" where they fit
 * beside the size label, else "#2" and "mean", for a cut name would
 * leave the runs of one chunk size alike.
 */
static const char *row_name(const struct source *src, size_t k,
    const struct result *res, const char *size, char *buf, size_t n)
{
	size_t series, room = LABEL_WIDTH - 1 > strlen(size) ?
	    LABEL_WIDTH - 1 - strlen(size) : 0;

	if (!src->sweep || !report_set_row_sweep(src->set, &src->rows[k],
	    &series) || (series == 0 && !src->rows[k].mean))
		return res->name;
	if (src->rows[k].mean)
		snprintf(buf, n, "%s", res->name);
	else
		snprintf(buf, n, "%.*s #%zu", NAME_MAX_LEN, res->name, series);
	if (text_columns(buf) <= room)
		return buf;
	if (src->rows[k].mean)
		return "mean";
	snprintf(buf, n, "#%zu", series);
	return buf;
}

/* I/O row k: the label, the six cells, 2.00's Latency row */
static void io_row(FILE *out, const struct source *src, size_t k,
    const struct result *res)
{
	bool units = src->compat == COMPAT_200;
	char size[160], name[NAME_MAX_LEN + 32];
	int i;

	report_text_size_label(size, sizeof(size), src->compat, res,
	    src->sweep);
	put_label(out, row_name(src, k, res, size, name, sizeof(name)), size,
	    src->set != NULL && src->rows[k].mean);
	for (i = PH_PUTC; i <= PH_SEEKS; i++)
		put_cell(out, &res->cell[i], (enum phase_id)i, units);
	fputc('\n', out);
	if (units)
		latency_row(out, res, PH_PUTC);
}

/*
 * A small-file row (first PH_SEQ_CREATE: the label with -n's fields) or
 * a directory row (PH_FIRST_DIR: with N:DEPTH:FANOUT), the six cells,
 * 2.00's Latency row.
 */
static void count_row(FILE *out, const struct source *src,
    const struct result *res, const char *name, bool mean, int first)
{
	char spec[64];
	int i;

	if (first == PH_FIRST_DIR)
		report_text_dirs_label(spec, sizeof(spec), res);
	else
		fmt_files_spec(spec, sizeof(spec), &res->files);
	if (name != NULL)
		put_label(out, name, spec, mean);
	else
		fprintf(out, "%19s", spec);
	for (i = first; i < first + 6; i++)
		put_cell(out, &res->cell[i], (enum phase_id)i, false);
	fputc('\n', out);
	if (src->compat == COMPAT_200)
		latency_row(out, res, (enum phase_id)first);
}

/* --compare: "  vs BASE" and each rate as a percentage of the base's */
static void percent_row(FILE *out, const struct source *src,
    const struct result *res, int first)
{
	char label[64], pct[32], num[24];
	long p;
	int i;

	snprintf(label, sizeof(label), "  vs %s", src->base);
	fprintf(out, "%-19.19s", label);
	for (i = first; i < first + 6; i++) {
		/* ~: inside the rounding of the cells they were read from */
		if (report_set_percent(src->set, res, (enum phase_id)i, &p)) {
			report_set_percent_text(num, sizeof(num), p);
			snprintf(pct, sizeof(pct), "%s%s",
			    report_set_in_rounding(src->set, res,
			    (enum phase_id)i) ? "~" : "", num);
		} else
			pct[0] = '\0';
		fprintf(out, " %5s    ", pct);
	}
	fputc('\n', out);
}

/*
 * --average: the min, max, coefficient of variation and median under a
 * mean, which phases have two clusters of runs when any has, and how
 * many stopped phases were left out
 */
static void spread_rows(FILE *out, const struct source *src, size_t g,
    int first, bool units)
{
	const struct report_spread *sp = report_set_group_spread(src->set, g);
	static const char *const label[5] = { "  min", "  max", "  cv %",
	    "  median", "  bimodal" };
	bool bimodal = false;
	char stopped[512];
	int row, i;

	for (i = first; i < first + 6; i++)
		bimodal = bimodal || sp[i].bimodal;
	for (row = 0; row < (bimodal ? 5 : 4); row++) {
		fprintf(out, "%-19s", label[row]);
		for (i = first; i < first + 6; i++) {
			if (sp[i].runs == 0)
				fputs("          ", out);
			else if (row == 2)
				fprintf(out, " %5.1f    ", sp[i].cv);
			else if (row == 4)
				fputs(sp[i].bimodal ? "   yes    " : "          ",
				    out);
			else {
				put_rate(out, row == 0 ? sp[i].min : row == 1 ?
				    sp[i].max : sp[i].median, (enum phase_id)i,
				    units && i < PH_FIRST_FILE);
				fputs("    ", out);
			}
		}
		fputc('\n', out);
	}
	report_text_stopped(stopped, sizeof(stopped), src->set, g, first);
	if (stopped[0] != '\0')
		fprintf(out, "  %s\n", stopped);
	report_text_too_fast(stopped, sizeof(stopped), src->set, g, first);
	if (stopped[0] != '\0')
		fprintf(out, "  %s\n", stopped);
}

/* One row of verdicts under label, and the row of their intervals. */
static void verdict_cells(FILE *out, const struct source *src,
    const struct result *res, const struct report_verdict *v, int first,
    const char *label, bool latency)
{
	char cell[32], interval[32];
	bool any = false;
	int i;

	fprintf(out, "%-19.19s", label);
	for (i = first; i < first + 6; i++) {
		report_text_verdict(cell, interval, sizeof(cell), src->set, res,
		    &v[i], (enum phase_id)i, latency);
		fprintf(out, " %5s    ", cell);
		any = any || interval[0] != '\0';
	}
	fputc('\n', out);
	if (!any)
		return;
	fprintf(out, "%-19s", "  95% interval");
	for (i = first; i < first + 6; i++) {
		report_text_verdict(cell, interval, sizeof(cell), src->set, res,
		    &v[i], (enum phase_id)i, latency);
		fprintf(out, " %9s", interval);
	}
	fputc('\n', out);
}

/*
 * The runs each set needs for a change of 1, 5 and 10 % (clyde(1), Sets
 * of runs), and the phases whose sets have too few to see 5 %.
 */
static void runs_rows(FILE *out, const struct report_verdict *v, int first)
{
	char cell[64], line[512];
	int i;

	if (!report_text_any_runs_needed(v, first))
		return;
	fprintf(out, "%-19s", "  " REPORT_TEXT_RUNS_LABEL);
	for (i = first; i < first + 6; i++) {
		report_text_runs_needed(cell, sizeof(cell), &v[i]);
		fprintf(out, " %9s", cell);
	}
	fputc('\n', out);
	report_text_short_of_runs(line, sizeof(line), v, first);
	if (line[0] != '\0')
		fprintf(out, "  %s\n", line);
}

/*
 * A mean's verdicts against the base's mean: "~" within noise, the
 * change with its sign when significant, and a row of the 95 %
 * intervals of the changes; the same of the latencies, where the runs
 * have them; too few runs: the plain percentages and a line that says
 * so.
 */
static void verdict_rows(FILE *out, const struct source *src,
    const struct result *res, long group, int first)
{
	const struct report_verdict *v = report_set_verdicts(src->set, group);
	const struct report_verdict *lv =
	    report_set_latency_verdicts(src->set, group);
	char label[64], unlike[512];
	unsigned few = report_text_too_few(v, first);

	snprintf(label, sizeof(label), "  vs %s", src->base);
	verdict_cells(out, src, res, v, first, label, false);
	if (report_text_any_verdict(lv, first)) {
		snprintf(label, sizeof(label), "  latency vs %s", src->base);
		verdict_cells(out, src, res, lv, first, label, true);
		if (few == 0)
			few = report_text_too_few(lv, first);
	}
	if (few > 0)
		fprintf(out, "  " REPORT_TEXT_TOO_FEW "\n", few);
	runs_rows(out, v, first);
	/* once per mean: under its first section */
	if (first == PH_PUTC || (!res->has_io && (first == PH_SEQ_CREATE ||
	    !res->has_files))) {
		report_text_unlike(unlike, sizeof(unlike), src->set, group);
		if (unlike[0] != '\0')
			fprintf(out, "  unlike %s: %s\n", src->base, unlike);
	}
}

/* A row's percentages or verdicts, unless it is the base itself. */
static void maybe_percent(FILE *out, const struct source *src,
    const struct result *res, long item, long group, int first)
{
	if (src->base == NULL || report_set_is_base(src->set, item, group))
		return;
	if (report_set_verdicts(src->set, group) != NULL)
		verdict_rows(out, src, res, group, first);
	else
		percent_row(out, src, res, first);
}

static void io_section(FILE *out, const struct source *src)
{
	bool chunk_label = false;
	size_t i;

	for (i = 0; i < src->n; i++) {
		const struct result *r = row_at(src, i, NULL);

		if (r->has_io && r->chunk != 0 && r->chunk != DEFAULT_CHUNK)
			chunk_label = true;
	}
	if (src->compat == COMPAT_103) {
		fprintf(out, "Version %5s       %s", VERSION_103, io_title);
		fprintf(out, "%20s%s", "", io_columns);
		fputs(chunk_label ? "Machine   Size:chnk " : "Machine        Size ",
		    out);
		fputs("K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP\n",
		    out);
	} else {
		fprintf(out, "Version %5s       %s", VERSION_200, io_title);
		fprintf(out, "%20s%s", "", io_columns);
		fprintf(out, "Name:Size etc       %s", file_units);
	}
	for (i = 0; i < src->n; i++) {
		long g;
		const struct result *r = row_at(src, i, &g);

		if (!r->has_io)
			continue;
		io_row(out, src, i, r);
		maybe_percent(out, src, r, item_of(src, i), g, PH_PUTC);
		if (g >= 0)
			spread_rows(out, src, (size_t)g, PH_PUTC,
			    src->compat == COMPAT_200);
	}
}

static void files_header(FILE *out, const struct source *src)
{
	bool min = false, max = false;
	size_t i;

	for (i = 0; i < src->n; i++) {
		long g;
		const struct result *r = row_at(src, i, &g);

		if (!r->has_files || g >= 0)
			continue;
		min = min || r->files.min_size != 0;
		max = max || r->files.max_size != 0;
	}
	if (min)
		fputs("files:max:min       ", out);
	else if (max)
		fputs("files:max           ", out);
	else
		fputs("              files ", out);
	fputs(file_units, out);
}

/*
 * A section's two title lines.  1.03e names the file section only when
 * there was no I/O section above (after); 1.9x and 2.00 always do.  The
 * name line shows the one name all rows share.
 */
static void section_head(FILE *out, const struct source *src, bool after,
    const char *title, const char *columns)
{
	if (src->compat == COMPAT_103 && after) {
		fprintf(out, "%20s%s", "", title);
		fprintf(out, "%20s%s", "", columns);
	} else {
		fprintf(out, "Version %5s       %s", src->compat == COMPAT_103 ?
		    VERSION_103 : VERSION_200, title);
		put_fitted(out, src->common_name ? src->common_name : "",
		    LABEL_WIDTH);
		fprintf(out, " %s", columns);
	}
}

/*
 * The rows of the small-file section (first PH_SEQ_CREATE) or of the
 * directory section (PH_FIRST_DIR), each with its percentages or spread.
 */
static void section_rows(FILE *out, const struct source *src, int first)
{
	size_t i;

	for (i = 0; i < src->n; i++) {
		long g;
		const struct result *r = row_at(src, i, &g);
		const char *name = src->common_name && g < 0 ? NULL : r->name;

		if (!(first == PH_FIRST_DIR ? r->has_dirs : r->has_files))
			continue;
		count_row(out, src, r, name, g >= 0, first);
		maybe_percent(out, src, r, item_of(src, i), g, first);
		if (g >= 0)
			spread_rows(out, src, (size_t)g, first, false);
	}
}

static void file_section(FILE *out, const struct source *src, bool after_io)
{
	section_head(out, src, after_io, file_title, file_columns);
	files_header(out, src);
	section_rows(out, src, PH_SEQ_CREATE);
}

/*
 * --dirs: a section of clyde's own after bonnie++'s two, in the layout
 * of the file section (clyde(1), OUTPUT).
 */
static void dir_section(FILE *out, const struct source *src, bool after)
{
	section_head(out, src, after, dir_title, dir_columns);
	fprintf(out, "%-20s%s", "dirs:depth:fanout", file_units);
	section_rows(out, src, PH_FIRST_DIR);
}

static void print_table(FILE *out, struct source *src)
{
	bool any_io = false, any_files = false, one_name = true, named = false;
	bool any_dirs = false;
	char first_name[NAME_MAX_LEN + 1] = "";
	size_t i;

	for (i = 0; i < src->n; i++) {
		long g;
		const struct result *r = row_at(src, i, &g);

		any_io = any_io || r->has_io;
		any_files = any_files || r->has_files;
		any_dirs = any_dirs || r->has_dirs;
		if (g >= 0)
			continue;       /* a mean's name is its own */
		if (!named)
			snprintf(first_name, sizeof(first_name), "%s", r->name);
		else if (strcmp(first_name, r->name) != 0)
			one_name = false;
		named = true;
	}
	src->common_name = one_name && named ? first_name : NULL;
	if (any_io)
		io_section(out, src);
	if (any_files)
		file_section(out, src, any_io);
	else if (any_io && src->compat == COMPAT_200)
		fputc('\n', out);      /* 2.00a's newline outside its if */
	if (any_dirs)
		dir_section(out, src, any_io || any_files);
}

void report_text(FILE *out, enum compat compat, const struct result *res)
{
	struct source src = { compat, res, NULL, NULL, NULL, 1, NULL, NULL,
	    false };

	print_table(out, &src);
}

/* One row of --best: label, then a cell under each rate column. */
static void best_row(FILE *out, const char *label, bool fit,
    const struct report_best *b, int first)
{
	char cell[32];
	int i;

	if (fit)
		put_fitted(out, label, LABEL_WIDTH);
	else
		fputs(label, out);
	for (i = first; i < first + 6; i++) {
		report_text_best_cell(cell, sizeof(cell), &b[i]);
		fprintf(out, " %5s    ", cell);
	}
	fputc('\n', out);
}

/*
 * --best: per section, a row per set of its medians in % of the best
 * set's, the same of the latencies under it where the runs have them.
 */
static void best_section(FILE *out, const struct report_set *set, int first)
{
	size_t g;

	if (!report_text_best_section(set, first))
		return;
	fprintf(out, "%20s%s", "", first == PH_PUTC ? io_title :
	    first == PH_FIRST_DIR ? dir_title : file_title);
	fprintf(out, "%20s%s", "", first == PH_PUTC ? io_columns :
	    first == PH_FIRST_DIR ? dir_columns : file_columns);
	for (g = 0; g < set->ngroups; g++) {
		const struct report_best *b = report_set_best_of(set, (long)g,
		    false);
		const struct report_best *lb = report_set_best_of(set, (long)g,
		    true);
		const char *name = report_set_group_name(set, g);
		unsigned few = report_text_best_few(b, first);
		bool rates = report_text_best_any(b, first);

		if (rates)
			best_row(out, name, true, b, first);
		if (report_text_best_any(lb, first)) {
			if (!rates) {
				put_fitted(out, name, LABEL_WIDTH);
				fputc('\n', out);
			}
			best_row(out, "  latency          ", false, lb, first);
			if (few == 0)
				few = report_text_best_few(lb, first);
		}
		if (few > 0)
			fprintf(out, "  " REPORT_TEXT_TOO_FEW "\n", few);
	}
}

/* --best, after the tables */
static void best_table(FILE *out, const struct report_set *set)
{
	fputs("\n" REPORT_TEXT_BEST_TITLE "\n", out);
	best_section(out, set, PH_PUTC);
	best_section(out, set, PH_SEQ_CREATE);
	best_section(out, set, PH_FIRST_DIR);
}

/*
 * The results outside sweeps in one table, as bon_csv2txt would; then
 * each sweep in a table of its own under a heading, by chunk size.
 */
void report_text_set(FILE *out, enum compat compat,
    const struct report_set *set, const char *base)
{
	struct result scratch;
	struct source src = { compat, NULL, set, &scratch, NULL, 0, NULL, base,
	    false };
	struct report_row *rows;
	size_t t, printed = 0;

	memset(&scratch, 0, sizeof(scratch));
	if (set->n == 0)
		return;
	rows = malloc((set->n + set->ngroups) * sizeof(*rows));
	if (rows == NULL) {
		fputs("clyde report: out of memory\n", stderr);
		return;
	}
	src.rows = rows;
	for (t = 0; t < report_set_tables(set); t++) {
		src.n = report_set_table_rows(set, t, rows);
		src.sweep = t > 0;
		if (src.n == 0)
			continue;
		if (printed++ > 0)
			fputc('\n', out);
		if (t > 0) {
			char heading[NAME_MAX_LEN + 128];

			report_text_sweep_heading(heading, sizeof(heading), set,
			    t - 1);
			fprintf(out, "%s\n", heading);
		}
		print_table(out, &src);
	}
	free(rows);
	if (set->best != NULL)
		best_table(out, set);
}

/* A column of --summary: left-aligned names, right-aligned figures */
static void summary_cell(FILE *out, const char *s, int col, size_t width)
{
	size_t pad = width - text_columns(s);

	if (col > 0)
		fputs("  ", out);
	if (col <= SUMMARY_PHASE) {
		fputs(s, out);
		if (col < SUMMARY_COLS - 1)
			fprintf(out, "%*s", (int)pad, "");
	} else {
		fprintf(out, "%*s%s", (int)pad, "", s);
	}
}

/* One line of --summary: the columns the set fills, trailing blanks cut */
static void summary_line(FILE *out, char (*cells)[SUMMARY_CELL],
    const bool *has, const size_t *width)
{
	int col;

	for (col = 0; col < SUMMARY_COLS; col++)
		if (has[col])
			summary_cell(out, cells[col], col, width[col]);
	fputc('\n', out);
}

/* clyde report --summary: a row per set and phase, the runs, a legend */
static void summary_table(FILE *out, const struct report_set *set)
{
	static struct set_summary_row row;
	char head[SUMMARY_COLS][SUMMARY_CELL], line[4096];
	size_t width[SUMMARY_COLS], at = 0;
	bool has[SUMMARY_COLS];
	int col;

	for (col = 0; col < SUMMARY_COLS; col++) {
		has[col] = set_summary_has_col(set, (enum set_summary_col)col);
		set_summary_heading(head[col], SUMMARY_CELL, set,
		    (enum set_summary_col)col);
		width[col] = text_columns(head[col]);
	}
	while (set_summary_next(set, &at, &row))
		for (col = 0; col < SUMMARY_COLS; col++)
			if (text_columns(row.cell[col]) > width[col])
				width[col] = text_columns(row.cell[col]);
	set_summary_runs_line(line, sizeof(line), set);
	fprintf(out, "%s\n", line);
	summary_line(out, head, has, width);
	for (at = 0; set_summary_next(set, &at, &row);)
		summary_line(out, row.cell, has, width);
	set_summary_legend(line, sizeof(line), set);
	fprintf(out, "%s\n", line);
}

/*
 * clyde report --text: the table, then each record of several ranks with
 * its own table, each sweep of several file sizes as a grid, and with
 * --latency the latency tables.
 */
static void print_set(FILE *out, const struct report_set *set,
    const struct writer_opts *o)
{
	if (o->summary) {
		summary_table(out, set);
		return;
	}
	report_text_set(out, o->compat, set, o->base);
	report_ranks_text(out, set);
	report_grid_text(out, set, false);
	if (o->latency)
		report_latency_text(out, set, false);
}

/* The table of a run: one row per point of a sweep. */
static int print_records(FILE *out, const struct writer_run *run,
    const struct result *res, unsigned nres)
{
	struct report_set set;
	unsigned i;
	int rc = 0, err;

	if (nres == 1) {
		report_text(out, run->compat, res);
		return 0;
	}
	report_set_init(&set);
	for (i = 0; i < nres && rc == 0; i++)
		rc = report_set_add(&set, &res[i]);
	err = errno;
	if (rc == 0)
		report_text_set(out, run->compat, &set, NULL);
	report_set_free(&set);
	errno = err;
	return rc;
}

const struct writer writer_text = {
	"text", "bonnie++'s text table, one row per result (default)",
	print_set, print_records, NULL
};
