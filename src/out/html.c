/*
 * out/html.c: one self-contained HTML page of a set of results.
 *
 * Two tables (the large file, the small files) with one row per result,
 * the rate cells shaded by their share of the column's best; then an
 * inline SVG bar chart per measurement across the results, and for the
 * chunk sweeps a line chart per large-file phase, rate against chunk
 * size.  No script, no external file; every string from the input is
 * escaped.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/csv.h"
#include "out/context.h"
#include "out/grid.h"
#include "out/html.h"
#include "out/latency.h"
#include "out/set_summary.h"
#include "report/ranks.h"
#include "report/set.h"
#include "out/text_cells.h"
#include "out/writer.h"
#include "lib/text.h"
#include "lib/units.h"

#define test_title phase_title

/*
 * Compact tables, so that the twenty columns of a section with latencies
 * fit a window 1200 pixels wide; on paper, the 190 mm of an A4 page
 * between its margins, in a smaller type, no chart split across pages.
 */
static const char style[] =
"body{font-family:sans-serif;margin:1em;color:#222}\n"
"table{border-collapse:collapse;margin:0 0 1.5em;font-size:12px}\n"
"th,td{border:1px solid #bbb;padding:1px 3px}\n"
"th{font-size:11px}\n"
"td{text-align:right;font-family:monospace;white-space:nowrap}\n"
"td.name{text-align:left}\n"
"tr.derived td{font-style:italic;color:#444}\n"
"tr.mean td{font-weight:bold}\n"
"figure{display:inline-block;margin:0 1em 1em 0}\n"
"figcaption{font-weight:bold;margin-bottom:4px}\n"
"td.better{background:#d4edda}\n"
"td.worse{background:#f8d7da}\n"
"td.same{background:#eeeeee}\n"
"td.few{background:#fdf3d8}\n"
"td.base{background:#d6e4f0}\n"
"p.origin{font-size:13px;color:#444}\n"
"p.unmeasured{color:#444;margin:0}\n"
"ul.context{font-size:12px;color:#333;margin:-1em 0 1.5em;max-width:1150px}\n"
".legend span{display:inline-block;margin-right:1.2em}\n"
".swatch{display:inline-block;width:12px;height:12px;margin-right:4px;"
"vertical-align:middle;border:1px solid #999}\n"
"@media print{\n"
"@page{size:A4;margin:10mm}\n"
"body{margin:0;font-size:10pt}\n"
"table,th{font-size:5.5pt}\n"
"th,td{padding:0 1px}\n"
"tr,figure{break-inside:avoid}\n"
"td,.swatch{print-color-adjust:exact;-webkit-print-color-adjust:exact}\n"
"}\n";

/* Text for HTML: & < > " ' as entities, bytes that are not UTF-8 as U+FFFD. */
static void html_escape(FILE *out, const char *s)
{
	while (*s != '\0') {
		size_t n = utf8_len(s);

		switch (*s) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		case '\'':
			fputs("&#39;", out);
			break;
		default:
			if (n == 0 || (unsigned char)*s < 0x20 || *s == 0x7f)
				fputs("&#xfffd;", out);
			else
				fwrite(s, 1, n, out);
		}
		s += n ? n : 1;
	}
}

/* A rate as the --compat table prints it (2.00: k/m/g for the I/O). */
static void fmt_rate(char *out, size_t n, enum compat compat, enum phase_id ph,
    double rate)
{
	if (ph == PH_SEEKS)
		snprintf(out, n, rate < 1000.0 ? "%.1f" : "%.0f", rate);
	else if (compat == COMPAT_103 || ph >= PH_FIRST_FILE)
		snprintf(out, n, "%.0f", floor(rate));
	else
		fmt_kib_rate(out, n, rate);
}

/* Everything the page needs to know of the set before printing. */
struct page {
	FILE *out;
	enum compat compat;
	const struct report_set *set;
	const char *base;
	struct result *scratch;
	double best[PH_COUNT];          /* the largest rate of each column */
	bool latency;                   /* any latency at all */
	bool any_io, any_files, any_dirs;
};

static const struct result *nth(struct page *pg, size_t i)
{
	if (i < pg->set->n)
		report_set_get(pg->set, i, pg->scratch);
	else
		report_set_group_mean(pg->set, i - pg->set->n, pg->scratch);
	return pg->scratch;
}

/* The unit of a phase's figures, as its cells and axes show them. */
static const char *unit_of(const struct page *pg, enum phase_id ph)
{
	if (ph >= PH_SEEKS)
		return "per second";
	return pg->compat == COMPAT_103 ? "KiB per second" :
	    "per second; k KiB, m MiB, g GiB";
}

static size_t rows(const struct page *pg)
{
	return pg->set->n + pg->set->ngroups;
}

static void survey(struct page *pg)
{
	size_t i;
	int ph;

	for (i = 0; i < rows(pg); i++) {
		const struct result *r = nth(pg, i);

		pg->any_io = pg->any_io || r->has_io;
		pg->any_files = pg->any_files || r->has_files;
		pg->any_dirs = pg->any_dirs || r->has_dirs;
		for (ph = 0; ph < PH_COUNT; ph++) {
			const struct cell *c = &r->cell[ph];

			if (c->latency_us >= 0)
				pg->latency = true;
			if (c->status == CELL_OK && c->rate > pg->best[ph])
				pg->best[ph] = c->rate;
		}
	}
}

static void table_head(struct page *pg, const char *first, int from)
{
	FILE *out = pg->out;
	int ph, span = pg->latency ? 3 : 2;

	fprintf(out, "<thead><tr><th rowspan=\"2\">Name</th>"
	    "<th rowspan=\"2\">%s</th>", first);
	for (ph = from; ph < from + 6; ph++)
		fprintf(out, "<th colspan=\"%d\">%s</th>", span, test_title[ph]);
	fputs("</tr>\n<tr>", out);
	for (ph = from; ph < from + 6; ph++)
		fprintf(out, "<th>%s</th><th>%%CP</th>%s",
		    ph == PH_SEEKS || ph >= PH_FIRST_FILE ? "/s" :
		    pg->compat == COMPAT_103 ? "K/s" : "/s",
		    pg->latency ? "<th>Latency</th>" : "");
	fputs("</tr></thead>\n", out);
}

/* A rate cell, shaded by its share of the column's best rate. */
static void rate_cells(struct page *pg, const struct cell *c, enum phase_id ph)
{
	FILE *out = pg->out;
	char v[32], lat[32];

	fmt_latency(lat, sizeof(lat), c->latency_us);
	if (c->status == CELL_SKIPPED) {
		fputs("<td></td><td></td>", out);
	} else if (c->status == CELL_ABSENT) {
		fputs("<td title=\"not in the table it was read from\">n/a</td>"
		    "<td>n/a</td>", out);
	} else if (c->status == CELL_TOO_FAST) {
		fputs("<td title=\"under 0.5 s: too fast to measure\">+++++</td>"
		    "<td>+++</td>", out);
	} else if (c->status == CELL_UNKNOWN) {
		fprintf(out, "<td title=\"rate not known\">?</td><td>%d</td>",
		    c->cpu);
	} else if (c->stopped) {
		/* no share of the best: the rate counts the stop */
		fmt_rate(v, sizeof(v), pg->compat, ph, c->rate);
		fprintf(out, "<td class=\"stopped\" title=\"stopped for part of "
		    "its time: not a valid rate\">%s (stopped)</td><td>%d</td>",
		    v, c->cpu);
	} else {
		double share = pg->best[ph] > 0 ? c->rate / pg->best[ph] : 0;

		fmt_rate(v, sizeof(v), pg->compat, ph, c->rate);
		fprintf(out, "<td style=\"background:rgba(46,139,87,%.2f)\">%s"
		    "</td><td>%d</td>", 0.08 + 0.6 * share, v, c->cpu);
	}
	if (pg->latency)
		fprintf(out, "<td>%s</td>", lat);
}

/* The class of a verdict's cell and mark: better, worse, same, few. */
static const char *const verdict_class[] = {
	[VERDICT_NONE] = "", [VERDICT_TOO_FEW] = "few",
	[VERDICT_SAME] = "same", [VERDICT_BETTER] = "better",
	[VERDICT_WORSE] = "worse",
};

/*
 * Under a set mean's verdicts, as in the text table: the runs each set
 * needs to tell a 1, 5 and 10 % change from noise, and the phases whose
 * sets have fewer than a 5 % change needs.
 */
static void runs_rows(struct page *pg, const struct report_verdict *v,
    int from)
{
	FILE *out = pg->out;
	char cell[32], line[1024];
	int ph;

	if (!report_text_any_runs_needed(v, from))
		return;
	fprintf(out, "<tr class=\"derived runs\"><td class=\"name\" "
	    "colspan=\"2\">%s</td>", REPORT_TEXT_RUNS_LABEL);
	for (ph = from; ph < from + 6; ph++) {
		report_text_runs_needed(cell, sizeof(cell), &v[ph]);
		/* across the phase's columns: "1k+/399/101" would widen
		 * its rate column past 1200 pixels in all */
		fprintf(out, "<td colspan=\"%d\">%s</td>",
		    pg->latency ? 3 : 2, cell);
	}
	fputs("</tr>\n", out);
	report_text_short_of_runs(line, sizeof(line), v, from);
	if (line[0] != '\0')
		fprintf(out, "<tr class=\"derived\"><td class=\"name\" "
		    "colspan=\"%d\">%s</td></tr>\n",
		    2 + 6 * (pg->latency ? 3 : 2), line);
}

/*
 * --compare: each rate as a percentage of the base's; a group mean's
 * verdicts, ~ or the change, in cells coloured better, worse or same
 */
static void percent_row(struct page *pg, const struct result *r, long group,
    int from)
{
	const struct report_verdict *v = report_set_verdicts(pg->set, group);
	FILE *out = pg->out;
	char cell[32], interval[32];
	long p;
	int ph;

	fputs("<tr class=\"compare\"><td class=\"name\" colspan=\"2\">vs ", out);
	html_escape(out, pg->base);
	fputs("</td>", out);
	for (ph = from; ph < from + 6; ph++) {
		if (v != NULL) {
			report_text_verdict(cell, interval, sizeof(cell), pg->set,
			    r, &v[ph], (enum phase_id)ph, false);
			fprintf(out, "<td class=\"%s\"%s%s%s>%s</td>",
			    verdict_class[v[ph].kind], interval[0] ?
			    " title=\"95% interval: " : "", interval,
			    interval[0] ? "\"" : "", cell);
		} else if (report_set_percent(pg->set, r, (enum phase_id)ph, &p)) {
			/* ~: inside the rounding of the cells read */
			bool rounding = report_set_in_rounding(pg->set, r,
			    (enum phase_id)ph);

			report_set_percent_text(cell, sizeof(cell), p);
			fprintf(out, "<td class=\"%s\">%s%s</td>",
			    rounding || p == 0 ? "same" : p > 0 ? "better" :
			    "worse", rounding ? "~" : "", cell);
		} else
			fputs("<td></td>", out);
		fprintf(out, "<td></td>%s", pg->latency ? "<td></td>" : "");
	}
	fputs("</tr>\n", out);
	if (v != NULL)
		runs_rows(pg, v, from);
}

static void spread_rows(struct page *pg, size_t g, int from)
{
	const struct report_spread *sp = report_set_group_spread(pg->set, g);
	static const char *const label[3] = { "min", "max", "cv %" };
	FILE *out = pg->out;
	char v[32], note[512];
	int row, ph;

	for (row = 0; row < 3; row++) {
		fprintf(out, "<tr class=\"derived\"><td class=\"name\" "
		    "colspan=\"2\">%s</td>", label[row]);
		for (ph = from; ph < from + 6; ph++) {
			v[0] = '\0';
			if (sp[ph].runs > 0 && row == 2)
				snprintf(v, sizeof(v), "%.1f", sp[ph].cv);
			else if (sp[ph].runs > 0)
				fmt_rate(v, sizeof(v), pg->compat, (enum phase_id)ph,
				    row == 0 ? sp[ph].min : sp[ph].max);
			fprintf(out, "<td>%s</td><td></td>%s", v,
			    pg->latency ? "<td></td>" : "");
		}
		fputs("</tr>\n", out);
	}
	report_text_too_fast(note, sizeof(note), pg->set, g, from);
	if (note[0] != '\0')
		fprintf(out, "<tr class=\"derived\"><td class=\"name\" "
		    "colspan=\"%d\">%s</td></tr>\n",
		    2 + 6 * (pg->latency ? 3 : 2), note);
}

static bool is_base(const struct page *pg, size_t i)
{
	const struct report_set *set = pg->set;

	return i < set->n ? report_set_is_base(set, (long)i, -1) :
	    report_set_is_base(set, -1, (long)(i - set->n));
}

/*
 * Row i's name and size label.  A row of a sweep says its chunk even
 * when it is the default, and a run of a sweep run more than once its
 * series ("box #2", as its line in the sweep charts), so that no two
 * rows of a sweep read alike.
 */
static void row_labels(const struct page *pg, size_t i,
    const struct result *r, char *name, size_t nn, char *size, size_t ns)
{
	struct report_row at = { i < pg->set->n ? i : i - pg->set->n,
	    i >= pg->set->n };
	size_t series;
	bool sweep = report_set_row_sweep(pg->set, &at, &series);

	if (series > 0)
		snprintf(name, nn, "%.*s #%zu", NAME_MAX_LEN, r->name, series);
	else
		snprintf(name, nn, "%s", r->name);
	report_text_size_label(size, ns, pg->compat, r, sweep);
}

/*
 * Under a table: where its rows ran, one item per context (filesystem,
 * mount options, profile, -b/-D, host), where the input carries them.
 */
static void context_list(struct page *pg, int from)
{
	static const struct report_context_markup markup = { html_escape,
	    { "<ul class=\"context\">\n", "</ul>\n" }, { "<li>", "</li>\n" },
	    { "<b>", "</b>: " } };
	struct report_contexts *list = calloc(1, sizeof(*list));
	char label[64], name[NAME_MAX_LEN + 32];
	size_t i;

	if (list == NULL)
		return;
	for (i = 0; i < pg->set->n; i++) {
		const struct result *r = nth(pg, i);

		if (from == PH_SEQ_CREATE ? !r->has_files :
		    from == PH_FIRST_DIR ? !r->has_dirs : !r->has_io)
			continue;
		row_labels(pg, i, r, name, sizeof(name), label, sizeof(label));
		report_context_add(list, r, name);
	}
	report_context_print(pg->out, list, &markup);
	free(list);
}

/* The section of the phases from 'from' on: the I/O, files or --dirs. */
static void table(struct page *pg, int from)
{
	FILE *out = pg->out;
	bool files = from == PH_SEQ_CREATE, dirs = from == PH_FIRST_DIR;
	char label[64], name[NAME_MAX_LEN + 32];
	size_t i;
	int ph;

	fprintf(out, "<h2>%s</h2>\n<table>\n", files ? "Small files" :
	    dirs ? "Directories" : "Large file");
	table_head(pg, files ? "Files" : dirs ? "Dirs:depth:fanout" : "Size",
	    from);
	fputs("<tbody>\n", out);
	for (i = 0; i < rows(pg); i++) {
		const struct result *r = nth(pg, i);

		if ((files ? !r->has_files : dirs ? !r->has_dirs : !r->has_io) &&
		    (dirs || !result_section_absent(r, files)))
			continue;
		row_labels(pg, i, r, name, sizeof(name), label, sizeof(label));
		if (!dirs && result_section_absent(r, files))
			snprintf(label, sizeof(label), "n/a");
		else if (files)
			fmt_files_spec(label, sizeof(label), &r->files);
		if (dirs)
			report_text_dirs_label(label, sizeof(label), r);
		fprintf(out, "<tr%s><td class=\"name\">",
		    i >= pg->set->n ? " class=\"mean\"" : "");
		html_escape(out, name);
		fputs("</td><td>", out);
		html_escape(out, label);
		fputs("</td>", out);
		for (ph = from; ph < from + 6; ph++)
			rate_cells(pg, &r->cell[ph], (enum phase_id)ph);
		fputs("</tr>\n", out);
		if (pg->base != NULL && !is_base(pg, i))
			percent_row(pg, r, i >= pg->set->n ?
			    (long)(i - pg->set->n) : -1, from);
		if (i >= pg->set->n)
			spread_rows(pg, i - pg->set->n, from);
	}
	fputs("</tbody>\n</table>\n", out);
	context_list(pg, from);
}

#define BAR_LEFT 200
#define BAR_WIDTH 360
#define BAR_ROW 18
/* characters of a bar's label that BAR_LEFT holds at 12 px */
#define BAR_LABEL_MAX 30

/*
 * A bar's label: the name, and for a row of a sweep its size label and
 * series ("box 64M:4k #2"), the name cut (at a character) to leave them
 * room.
 */
static void bar_label(FILE *out, const struct page *pg, size_t i,
    const struct result *r)
{
	char name[NAME_MAX_LEN + 32], size[64];
	struct report_row at = { i < pg->set->n ? i : i - pg->set->n,
	    i >= pg->set->n };
	size_t series, room, cut;

	if (!r->has_io || !report_set_row_sweep(pg->set, &at, &series)) {
		html_escape(out, r->name);
		return;
	}
	row_labels(pg, i, r, name, sizeof(name), size, sizeof(size));
	room = strlen(size) + 1 < BAR_LABEL_MAX ?
	    BAR_LABEL_MAX - strlen(size) - 1 : 1;
	cut = strlen(name);
	if (cut > room) {
		cut = room;
		while (cut > 0 && ((unsigned char)name[cut] & 0xc0) == 0x80)
			cut--;
		name[cut] = '\0';
	}
	html_escape(out, name);
	fputc(' ', out);
	html_escape(out, size);
}

/* How many rows have phase ph, and how many of them a rate. */
static size_t chart_rows(struct page *pg, enum phase_id ph, size_t *measured)
{
	size_t i, n = 0;

	*measured = 0;
	for (i = 0; i < rows(pg); i++) {
		enum cell_status st = nth(pg, i)->cell[ph].status;

		n += st != CELL_SKIPPED && st != CELL_ABSENT;
		*measured += st == CELL_OK;
	}
	return n;
}

/* Whether phase ph ran and every result printed +++++ (no bar at all). */
static bool chart_unmeasured(struct page *pg, enum phase_id ph)
{
	size_t measured;

	return chart_rows(pg, ph, &measured) > 0 && measured == 0;
}

/*
 * The phases for which a test tells unmeasured, in one line where the
 * charts start: a figure of no bars would float among the others.
 */
static void unmeasured_list(struct page *pg, const char *what,
    bool (*test)(struct page *, enum phase_id))
{
	size_t n = 0;
	int ph;

	for (ph = 0; ph < PH_COUNT; ph++) {
		if (!test(pg, (enum phase_id)ph))
			continue;
		if (n++ == 0)
			fprintf(pg->out, "<p class=\"unmeasured\">%s: ", what);
		else
			fputs(", ", pg->out);
		fputs(test_title[ph], pg->out);
	}
	if (n > 0)
		fputs(".</p>\n", pg->out);
}

/* One horizontal bar per result that has the measurement. */
static void chart(struct page *pg, enum phase_id ph)
{
	FILE *out = pg->out;
	size_t i, n, measured;
	char v[32];

	n = chart_rows(pg, ph, &measured);
	/* bars of no length would read as rates of 0: listed instead */
	if (n == 0 || measured == 0)
		return;
	fprintf(out, "<figure><figcaption>%s (%s)</figcaption>\n",
	    test_title[ph], unit_of(pg, ph));
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
	    "height=\"%zu\" role=\"img\" aria-label=\"%s\">\n",
	    BAR_LEFT + BAR_WIDTH + 80, n * BAR_ROW + 4, test_title[ph]);
	n = 0;
	for (i = 0; i < rows(pg); i++) {
		const struct result *r = nth(pg, i);
		const struct cell *c = &r->cell[ph];
		double y = (double)(n * BAR_ROW) + 2;
		double w = 0;

		if (c->status == CELL_SKIPPED || c->status == CELL_UNKNOWN ||
		    c->status == CELL_ABSENT)
			continue;
		n++;
		fprintf(out, "<text x=\"%d\" y=\"%.0f\" font-size=\"12\" "
		    "text-anchor=\"end\">", BAR_LEFT - 6, y + 13);
		bar_label(out, pg, i, r);
		fputs("</text>", out);
		if (c->status == CELL_TOO_FAST) {
			fprintf(out, "<text x=\"%d\" y=\"%.0f\" font-size=\"12\">"
			    "+++++ too fast to measure</text>\n", BAR_LEFT,
			    y + 13);
			continue;
		}
		if (pg->best[ph] > 0)
			w = c->rate / pg->best[ph] * BAR_WIDTH;
		fmt_rate(v, sizeof(v), pg->compat, ph, c->rate);
		fprintf(out, "<rect x=\"%d\" y=\"%.0f\" width=\"%.1f\" "
		    "height=\"%d\" fill=\"%s\"/><text x=\"%.1f\" y=\"%.0f\" "
		    "font-size=\"12\">%s</text>\n", BAR_LEFT, y, w, BAR_ROW - 4,
		    i >= pg->set->n ? "#1f5f8b" : "#2e8b57",
		    BAR_LEFT + w + 4, y + 13, v);
	}
	fputs("</svg></figure>\n", out);
}

/* ---- clyde-mpi's ranks ------------------------------------------------ */

/*
 * Each record of several ranks: per phase, one bar per rank (its own
 * rate, the longest bar the fastest rank's), the skew in the caption.
 */
static void rank_charts(struct page *pg)
{
	FILE *out = pg->out;
	struct result *res = pg->scratch;
	size_t i;
	char v[32];

	for (i = report_ranks_next(pg->set, 0, res); i < pg->set->n;
	    i = report_ranks_next(pg->set, i + 1, res)) {
		fputs("<h2>", out);
		report_ranks_heading(out, res, html_escape);
		fputs("</h2>\n", out);
		for (int ph = 0; ph < PH_COUNT; ph++) {
			unsigned slow, fast, r;
			double best = 0, skew;

			if (!res->phase[ph].ran)
				continue;
			for (r = 0; r < res->nranks; r++) {
				double rate = result_rank_rate((enum phase_id)ph,
				    &res->ranks[r].phase[ph]);

				if (rate > best)
					best = rate;
			}
			skew = result_skew(res, (enum phase_id)ph, &slow, &fast);
			fprintf(out, "<figure><figcaption>%s (%s), skew %.2f"
			    "</figcaption>\n<svg xmlns=\"http://www.w3.org/2000/"
			    "svg\" width=\"%d\" height=\"%u\" role=\"img\" "
			    "aria-label=\"%s per rank\">\n", test_title[ph],
			    unit_of(pg, (enum phase_id)ph), skew,
			    BAR_LEFT + BAR_WIDTH + 80, res->nranks * BAR_ROW + 4,
			    test_title[ph]);
			for (r = 0; r < res->nranks; r++) {
				double rate = result_rank_rate((enum phase_id)ph,
				    &res->ranks[r].phase[ph]);
				double y = (double)(r * BAR_ROW) + 2;
				double w = best > 0 && rate > 0 ?
				    rate / best * BAR_WIDTH : 0;
				char name[96];

				snprintf(name, sizeof(name), "rank %u (%s)", r,
				    res->ranks[r].host);
				fprintf(out, "<text x=\"%d\" y=\"%.0f\" "
				    "font-size=\"12\" text-anchor=\"end\">",
				    BAR_LEFT - 6, y + 13);
				html_escape(out, name);
				fmt_rate(v, sizeof(v), pg->compat,
				    (enum phase_id)ph, rate > 0 ? rate : 0);
				fprintf(out, "</text><rect x=\"%d\" y=\"%.0f\" "
				    "width=\"%.1f\" height=\"%d\" fill=\"%s\"/>"
				    "<text x=\"%.1f\" y=\"%.0f\" font-size=\"12\">"
				    "%s</text>\n", BAR_LEFT, y, w, BAR_ROW - 4,
				    r == slow && skew > 1.5 ? "#b22222" : "#2e8b57",
				    BAR_LEFT + w + 4, y + 13, v);
			}
			fputs("</svg></figure>\n", out);
		}
	}
}

/* ---- sets of runs compared ------------------------------------------- */

#define DOT_LEFT 110            /* the set names */
#define DOT_PLOT_W 300
#define DOT_RIGHT 120           /* the verdicts; two charts a row at 1200 */
#define DOT_ROW 26
#define DOT_TOP 6
#define DOT_AXIS 30

/* Row colours: better, worse, within noise, base, too few to say. */
static const char *const dot_fill[] = {
	[VERDICT_NONE] = "#ffffff", [VERDICT_TOO_FEW] = "#fdf3d8",
	[VERDICT_SAME] = "#eeeeee", [VERDICT_BETTER] = "#d4edda",
	[VERDICT_WORSE] = "#f8d7da",
};
#define DOT_BASE_FILL "#d6e4f0"

/* A step of 1, 2 or 5 times a power of ten, about a quarter of span. */
static double nice_step(double span)
{
	double raw = span / 4, mag;

	if (!(raw > 0))
		return 1;
	mag = pow(10, floor(log10(raw)));
	return raw / mag <= 1 ? mag : raw / mag <= 2 ? 2 * mag :
	    raw / mag <= 5 ? 5 * mag : 10 * mag;
}

/*
 * An axis of a phase's rates: its ticks 1, 2 or 5 times a power of ten
 * in the unit its cells show (k, m or g in 2.00's large-file cells, so
 * that 100m, 150m, 200m and not 97.7m, 146m, 195m: a MiB is 1024 KiB).
 */
struct axis {
	double scale;           /* KiB of one unit */
	const char *unit;
	double step;            /* in KiB (or per second) */
	int decimals;
};

static void axis_for(struct axis *a, const struct page *pg, enum phase_id ph,
    double hi, double span)
{
	double unit_step;

	a->scale = 1;
	a->unit = "";
	if (pg->compat == COMPAT_200 && ph < PH_SEEKS) {
		/* the unit fmt_kib_rate() gives the largest */
		a->scale = hi >= 1000.0 * 1024 ? 1024.0 * 1024 :
		    hi >= 10000.0 ? 1024.0 : 1;
		a->unit = a->scale > 1024 ? "g" : a->scale > 1 ? "m" : "k";
	}
	unit_step = nice_step(span / a->scale);
	a->step = unit_step * a->scale;
	a->decimals = unit_step >= 1 ? 0 :
	    (int)ceil(-log10(unit_step) - 1e-9);
}

static void axis_label(char *out, size_t n, const struct axis *a, double v)
{
	/* zero is zero in any unit: "0", not "0k" */
	if (fabs(v) < a->step / 1e6)
		snprintf(out, n, "0");
	else
		snprintf(out, n, "%.*f%s", a->decimals, v / a->scale + 0.0,
		    a->unit);
}

static double dot_x(double v, double lo, double hi)
{
	return DOT_LEFT + (v - lo) / (hi > lo ? hi - lo : 1) * DOT_PLOT_W;
}

/* Whether group g is drawn in a phase: it has runs that measured it. */
static bool dot_group(const struct page *pg, size_t g, enum phase_id ph)
{
	return report_set_group_spread(pg->set, g)[ph].runs > 0;
}

/* One row: its colour, the interval of the mean, the median, every run. */
static void dot_row(struct page *pg, size_t g, enum phase_id ph, double y,
    double lo, double hi)
{
	const struct report_spread *sp = &report_set_group_spread(pg->set,
	    g)[ph];
	const struct report_verdict *v = report_set_verdicts(pg->set, (long)g);
	bool base = report_set_is_base(pg->set, -1, (long)g);
	enum report_verdict_kind kind = v != NULL ? v[ph].kind : VERDICT_NONE;
	FILE *out = pg->out;
	char cell[32], interval[32];
	size_t i;

	fprintf(out, "<rect class=\"%s\" x=\"0\" y=\"%.0f\" width=\"%d\" "
	    "height=\"%d\" fill=\"%s\"/>", base ? "base" :
	    kind == VERDICT_NONE ? "none" : verdict_class[kind], y,
	    DOT_LEFT + DOT_PLOT_W + DOT_RIGHT, DOT_ROW - 2,
	    base ? DOT_BASE_FILL : dot_fill[kind]);
	fprintf(out, "<text x=\"%d\" y=\"%.0f\" font-size=\"12\" "
	    "text-anchor=\"end\">", DOT_LEFT - 8, y + 16);
	html_escape(out, report_set_group_name(pg->set, g));
	fputs("</text>\n", out);
	/* the 95 % interval of the mean, the median across it */
	fprintf(out, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" "
	    "stroke=\"#333\" stroke-width=\"4\" stroke-opacity=\"0.45\"/>",
	    dot_x(fmax(sp->ci_low, lo), lo, hi), y + 12,
	    dot_x(fmin(sp->ci_high, hi), lo, hi), y + 12);
	fprintf(out, "<line class=\"median\" x1=\"%.1f\" y1=\"%.0f\" "
	    "x2=\"%.1f\" y2=\"%.0f\" stroke=\"#000\" stroke-width=\"2\"/>",
	    dot_x(sp->median, lo, hi), y + 3, dot_x(sp->median, lo, hi),
	    y + 21);
	for (i = 0; i < pg->set->n; i++) {
		const struct cell *c;

		if (report_set_group_of(pg->set, i) != (long)g)
			continue;
		report_set_get(pg->set, i, pg->scratch);
		c = &pg->scratch->cell[ph];
		if (c->status == CELL_OK)
			fprintf(out, "<circle class=\"run\" cx=\"%.1f\" "
			    "cy=\"%.0f\" r=\"4\" fill=\"#1f5f8b\" "
			    "fill-opacity=\"0.6\" stroke=\"#fff\"/>",
			    dot_x(c->rate, lo, hi), y + 12);
	}
	if (base)
		snprintf(cell, sizeof(cell), "base");
	else if (v != NULL) {
		report_set_group_mean(pg->set, g, pg->scratch);
		report_text_verdict(cell, interval, sizeof(cell), pg->set,
		    pg->scratch, &v[ph], ph, false);
		if (kind == VERDICT_TOO_FEW)
			snprintf(cell + strlen(cell), sizeof(cell) - strlen(cell),
			    " (few runs)");
		else if (kind == VERDICT_SAME)
			snprintf(cell, sizeof(cell), "~ within noise");
	} else {
		cell[0] = '\0';
	}
	fprintf(out, "<text x=\"%d\" y=\"%.0f\" font-size=\"12\">%s</text>\n",
	    DOT_LEFT + DOT_PLOT_W + 10, y + 16, cell);
}

/*
 * A set with no rate in a phase where others have one: its row says why
 * (every run +++++, or stopped) rather than leave the set out.  False
 * when it has nothing to say: the phase did not run.
 */
static bool unmeasured_row(struct page *pg, size_t g, enum phase_id ph,
    double y)
{
	const struct report_spread *sp = &report_set_group_spread(pg->set,
	    g)[ph];
	FILE *out = pg->out;

	if (sp->too_fast == 0 && sp->stopped == 0)
		return false;
	fprintf(out, "<rect class=\"unmeasured\" x=\"0\" y=\"%.0f\" "
	    "width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>"
	    "<text x=\"%d\" y=\"%.0f\" font-size=\"12\" "
	    "text-anchor=\"end\">", y, DOT_LEFT + DOT_PLOT_W + DOT_RIGHT,
	    DOT_ROW - 2, DOT_LEFT - 8, y + 16);
	html_escape(out, report_set_group_name(pg->set, g));
	fprintf(out, "</text><text class=\"unmeasured\" x=\"%d\" "
	    "y=\"%.0f\" font-size=\"12\">", DOT_LEFT, y + 16);
	if (sp->too_fast > 0)
		fprintf(out, "+++++ in all %u runs: too fast to measure",
		    sp->too_fast);
	else
		fprintf(out, "stopped in all %u runs: left out", sp->stopped);
	fputs("</text>\n", out);
	return true;
}

/* One phase: a row per set, the runs as dots on a shared axis. */
static void dot_chart(struct page *pg, enum phase_id ph)
{
	FILE *out = pg->out;
	double lo = INFINITY, hi = -INFINITY, step, t, y;
	struct axis axis;
	size_t g, rows = 0, said = 0;
	char v[32];
	int k;

	for (g = 0; g < pg->set->ngroups; g++) {
		const struct report_spread *sp;

		sp = &report_set_group_spread(pg->set, g)[ph];
		if (!dot_group(pg, g, ph)) {
			said += sp->too_fast > 0 || sp->stopped > 0;
			continue;
		}
		lo = fmin(lo, sp->min);
		hi = fmax(hi, sp->max);
		rows++;
	}
	if (rows == 0)
		return;
	/* the axis from the runs' extremes, out to round numbers */
	axis_for(&axis, pg, ph, hi, hi - lo > 0 ? hi - lo : fmax(hi, 1) / 10);
	step = axis.step;
	lo = floor(lo / step) * step;
	hi = ceil(hi / step) * step;
	if (hi <= lo)
		hi = lo + step;
	fprintf(out, "<figure class=\"sets\"><figcaption>%s (%s)</figcaption>\n"
	    "<svg class=\"dots\" xmlns=\"http://www.w3.org/2000/svg\" "
	    "width=\"%d\" height=\"%zu\" role=\"img\" aria-label=\"%s, every "
	    "run of each set\">\n", test_title[ph], unit_of(pg, ph), DOT_LEFT + DOT_PLOT_W + DOT_RIGHT,
	    DOT_TOP + (rows + said) * DOT_ROW + DOT_AXIS, test_title[ph]);
	y = DOT_TOP;
	for (g = 0; g < pg->set->ngroups; g++)
		if (dot_group(pg, g, ph)) {
			dot_row(pg, g, ph, y, lo, hi);
			y += DOT_ROW;
		} else if (unmeasured_row(pg, g, ph, y))
			y += DOT_ROW;
	for (k = 0; lo + k * step <= hi + step / 2; k++) {
		t = lo + k * step;
		axis_label(v, sizeof(v), &axis, t);
		fprintf(out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" "
		    "y2=\"%.0f\" stroke=\"#bbb\" stroke-dasharray=\"2,3\"/>"
		    "<text class=\"tick\" x=\"%.1f\" y=\"%.0f\" font-size=\"11\" "
		    "text-anchor=\"middle\">%s</text>\n", dot_x(t, lo, hi),
		    DOT_TOP, dot_x(t, lo, hi), y + 4, dot_x(t, lo, hi), y + 18, v);
	}
	fputs("</svg></figure>\n", out);
}

/* Whether no set measured phase ph and some found it too fast. */
static bool sets_unmeasured(struct page *pg, enum phase_id ph)
{
	bool fast = false;
	size_t g;

	for (g = 0; g < pg->set->ngroups; g++) {
		if (dot_group(pg, g, ph))
			return false;
		fast = fast || report_set_group_spread(pg->set, g)[ph].too_fast;
	}
	return fast;
}

/* --average --compare: every run of every set, per phase, and a legend. */
static void set_charts(struct page *pg)
{
	size_t g;
	int ph;

	for (g = 0; g < pg->set->ngroups; g++)
		if (report_set_verdicts(pg->set, (long)g) != NULL)
			break;
	if (pg->base == NULL || g == pg->set->ngroups)
		return;
	fputs("<h2>Sets of runs compared with ", pg->out);
	html_escape(pg->out, pg->base);
	fprintf(pg->out, "</h2>\n<p class=\"legend\">"
	    "<span><svg width=\"12\" height=\"12\"><circle cx=\"6\" "
	    "cy=\"6\" r=\"4\" fill=\"#1f5f8b\" fill-opacity=\"0.6\"/></svg> "
	    "a run</span><span><svg width=\"12\" height=\"14\"><line x1=\"6\" "
	    "y1=\"0\" x2=\"6\" y2=\"14\" stroke=\"#000\" stroke-width=\"2\"/>"
	    "</svg> the median</span><span><svg width=\"24\" height=\"12\">"
	    "<line x1=\"0\" y1=\"6\" x2=\"24\" y2=\"6\" stroke=\"#333\" "
	    "stroke-width=\"4\" stroke-opacity=\"0.45\"/></svg> the 95%% "
	    "interval of the mean</span><br>"
	    "<span><i class=\"swatch\" style=\"background:%s\"></i>the base"
	    "</span><span><i class=\"swatch\" style=\"background:%s\"></i>"
	    "better: a significant change for the better</span>"
	    "<span><i class=\"swatch\" style=\"background:%s\"></i>worse"
	    "</span><span><i class=\"swatch\" style=\"background:%s\"></i>~ "
	    "within noise</span><span><i class=\"swatch\" style=\""
	    "background:%s\"></i>too few runs for a verdict</span></p>\n",
	    DOT_BASE_FILL, dot_fill[VERDICT_BETTER], dot_fill[VERDICT_WORSE],
	    dot_fill[VERDICT_SAME], dot_fill[VERDICT_TOO_FEW]);
	unmeasured_list(pg, "Too fast to measure (+++++) in every run of "
	    "every set, so not drawn", sets_unmeasured);
	for (ph = 0; ph < PH_COUNT; ph++)
		dot_chart(pg, (enum phase_id)ph);
}

/* ---- chunk sweeps ----------------------------------------------------- */

#define LINE_LEFT 70
#define LINE_PLOT_W 440
#define LINE_TOP 12
#define LINE_PLOT_H 220
#define LINE_BOTTOM 36          /* the chunk size labels */
#define LEGEND_ROW 16

static const char *const line_color[] = {
	"#2e8b57", "#1f5f8b", "#b8860b", "#8b2252", "#4b0082", "#cd5c00",
	"#008b8b", "#555555",
};

/* The phases every point of a sweep runs. */
static const enum phase_id sweep_phase[] = {
	PH_PUT_BLOCK, PH_REWRITE, PH_GET_BLOCK, PH_SEEKS,
};

/* One line of a chart: sweep s, series k, or its mean (k == -1). */
struct line {
	size_t sweep;
	long series;
};

/*
 * Point p of a line: its rate, and its band (the min and max of the
 * group) for a mean.  False when it has no rate there.
 */
static bool line_point(struct page *pg, const struct line *ln, size_t p,
    enum phase_id ph, double *v, double *lo, double *hi)
{
	const struct report_sweep *sw = &pg->set->sweeps[ln->sweep];
	long item = sw->items[(ln->series < 0 ? 0 : (size_t)ln->series) *
	    sw->nchunks + p];
	const struct cell *c;

	if (ln->series < 0 && sw->groups[p] >= 0) {
		const struct report_spread *sp =
		    report_set_group_spread(pg->set, (size_t)sw->groups[p]);

		report_set_group_mean(pg->set, (size_t)sw->groups[p],
		    pg->scratch);
		c = &pg->scratch->cell[ph];
		*lo = sp[ph].min;
		*hi = sp[ph].max;
	} else {
		if (item < 0)
			return false;
		report_set_get(pg->set, (size_t)item, pg->scratch);
		c = &pg->scratch->cell[ph];
		*lo = *hi = c->rate;
	}
	*v = c->rate;
	return c->status == CELL_OK;
}

/* The lines: each series, or with --average each sweep's mean. */
static size_t sweep_lines(const struct page *pg, struct line *lines)
{
	const struct report_set *set = pg->set;
	size_t s, k, n = 0;

	for (s = 0; s < set->nsweeps; s++) {
		/* a sweep of file sizes has charts of its own (out/grid.c) */
		if (set->sweeps[s].nsizes > 1)
			continue;
		if (set->ngroups > 0 && set->sweeps[s].nseries > 1) {
			lines[n++] = (struct line){ s, -1 };
			continue;
		}
		for (k = 0; k < set->sweeps[s].nseries; k++)
			lines[n++] = (struct line){ s, (long)k };
	}
	return n;
}

/* "box", "box #2", "mean:box"; with the file size when names repeat */
static void line_label(struct page *pg, const struct line *ln, char *out,
    size_t n)
{
	const struct report_sweep *sw = &pg->set->sweeps[ln->sweep];
	char name[NAME_MAX_LEN + 1], size[32] = "";

	report_set_get(pg->set, sw->first, pg->scratch);
	snprintf(name, sizeof(name), "%.*s", (int)sizeof(name) - 1,
	    pg->scratch->name);
	if (sw->name_shared) {
		size[0] = ' ';
		fmt_file_size(size + 1, sizeof(size) - 1,
		    pg->scratch->file_size_mib);
	}
	if (ln->series < 0)
		snprintf(out, n, "mean:%s%s", name, size);
	else if (ln->series > 0)
		snprintf(out, n, "%s%s #%ld", name, size, ln->series + 1);
	else
		snprintf(out, n, "%s%s", name, size);
}

/* The x of a chunk size: log2 between the smallest and the largest. */
static double chunk_x(unsigned chunk, double lo, double hi)
{
	double span = hi > lo ? hi - lo : 1.0;

	return LINE_LEFT + (log2((double)chunk) - lo) / span * LINE_PLOT_W;
}

static double rate_y(double v, double top)
{
	return LINE_TOP + LINE_PLOT_H - v / top * LINE_PLOT_H;
}

/* The axes: rates at round steps, a tick and a label per chunk size. */
static void line_axes(struct page *pg, const struct axis *axis, double lo,
    double hi, double top, const unsigned *ticks, size_t nticks)
{
	FILE *out = pg->out;
	double last = -1e9;
	char v[32];
	int i;

	for (i = 0; i * axis->step <= top + axis->step / 2; i++) {
		double y = rate_y(i * axis->step, top);

		axis_label(v, sizeof(v), axis, i * axis->step);
		fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
		    "stroke=\"#ddd\"/><text class=\"tick\" x=\"%d\" y=\"%.1f\" font-size=\"11\" "
		    "text-anchor=\"end\">%s</text>\n", LINE_LEFT, y,
		    LINE_LEFT + LINE_PLOT_W, y, LINE_LEFT - 4, y + 4, v);
	}
	/* every chunk size of any sweep, smallest first, labels not crowded */
	for (i = 0; i < (int)nticks; i++) {
		double x = chunk_x(ticks[i], lo, hi);
		char label[32];

		fprintf(out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
		    "stroke=\"#999\"/>", x, LINE_TOP + LINE_PLOT_H, x,
		    LINE_TOP + LINE_PLOT_H + 4);
		if (x - last < 30)
			continue;
		last = x;
		fmt_chunk(label, sizeof(label), ticks[i]);
		fprintf(out, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" "
		    "text-anchor=\"middle\">%s</text>\n", x,
		    LINE_TOP + LINE_PLOT_H + 16, label);
	}
	fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"11\" "
	    "text-anchor=\"middle\">chunk size (log scale)</text>\n",
	    LINE_LEFT + LINE_PLOT_W / 2, LINE_TOP + LINE_PLOT_H + 30);
}

/* One line: its band (a mean's), its polyline, a dot per point. */
static void line_draw(struct page *pg, const struct line *ln, enum phase_id ph,
    const char *color, double lo, double hi, double top)
{
	const struct report_sweep *sw = &pg->set->sweeps[ln->sweep];
	FILE *out = pg->out;
	double v, bl, bh;
	size_t p;
	long q;

	if (ln->series < 0) {
		fprintf(out, "<polygon class=\"band\" fill=\"%s\" "
		    "fill-opacity=\"0.2\" stroke=\"none\" points=\"", color);
		for (p = 0; p < sw->nchunks; p++)
			if (line_point(pg, ln, p, ph, &v, &bl, &bh))
				fprintf(out, "%.1f,%.1f ", chunk_x(sw->chunks[p],
				    lo, hi), rate_y(bh, top));
		for (q = (long)sw->nchunks - 1; q >= 0; q--)
			if (line_point(pg, ln, (size_t)q, ph, &v, &bl, &bh))
				fprintf(out, "%.1f,%.1f ", chunk_x(sw->chunks[q],
				    lo, hi), rate_y(bl, top));
		fputs("\"/>\n", out);
	}
	fprintf(out, "<polyline class=\"series\" fill=\"none\" stroke=\"%s\" "
	    "stroke-width=\"2\" points=\"", color);
	for (p = 0; p < sw->nchunks; p++)
		if (line_point(pg, ln, p, ph, &v, &bl, &bh))
			fprintf(out, "%.1f,%.1f ", chunk_x(sw->chunks[p], lo, hi),
			    rate_y(v, top));
	fputs("\"/>\n", out);
	for (p = 0; p < sw->nchunks; p++)
		if (line_point(pg, ln, p, ph, &v, &bl, &bh))
			fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" "
			    "fill=\"%s\"/>", chunk_x(sw->chunks[p], lo, hi),
			    rate_y(v, top), color);
	fputc('\n', out);
}

/*
 * One chart of a phase: every line, the axes, a legend below.  False,
 * and nothing drawn, when no line has a point.
 */
static bool sweep_chart(struct page *pg, enum phase_id ph,
    const struct line *lines, size_t nlines, const unsigned *ticks,
    size_t nticks)
{
	FILE *out = pg->out;
	double lo = 1e9, hi = 0, top = 0, v, bl, bh;
	char label[NAME_MAX_LEN + 48];
	struct axis axis;
	size_t i, p;

	for (i = 0; i < nlines; i++) {
		const struct report_sweep *sw = &pg->set->sweeps[lines[i].sweep];

		lo = fmin(lo, log2((double)sw->chunks[0]));
		hi = fmax(hi, log2((double)sw->chunks[sw->nchunks - 1]));
		for (p = 0; p < sw->nchunks; p++)
			if (line_point(pg, &lines[i], p, ph, &v, &bl, &bh))
				top = fmax(top, fmax(v, bh));
	}
	/* lines of no point, on an axis of nothing: said by the caller */
	if (top == 0)
		return false;
	fprintf(out, "<figure class=\"sweep\"><figcaption>%s by chunk size "
	    "(%s)</figcaption>\n", test_title[ph], unit_of(pg, ph));
	axis_for(&axis, pg, ph, top, top);
	top = ceil(top / axis.step) * axis.step;
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
	    "width=\"%d\" height=\"%zu\" role=\"img\" aria-label=\"%s by "
	    "chunk size\">\n", LINE_LEFT + LINE_PLOT_W + 20,
	    LINE_TOP + LINE_PLOT_H + LINE_BOTTOM + nlines * LEGEND_ROW + 4,
	    test_title[ph]);
	line_axes(pg, &axis, lo, hi, top, ticks, nticks);
	for (i = 0; i < nlines; i++) {
		const char *color = line_color[i % (sizeof(line_color) /
		    sizeof(line_color[0]))];
		double y = LINE_TOP + LINE_PLOT_H + LINE_BOTTOM +
		    (double)i * LEGEND_ROW + 10;

		line_draw(pg, &lines[i], ph, color, lo, hi, top);
		line_label(pg, &lines[i], label, sizeof(label));
		fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
		    "stroke=\"%s\" stroke-width=\"2\"/><text x=\"%d\" y=\"%.1f\" "
		    "font-size=\"12\">", LINE_LEFT, y, LINE_LEFT + 24, y, color,
		    LINE_LEFT + 30, y + 4);
		html_escape(out, label);
		fputs("</text>\n", out);
	}
	fputs("</svg></figure>\n", out);
	return true;
}

static int by_value(const void *pa, const void *pb)
{
	unsigned a = *(const unsigned *)pa, b = *(const unsigned *)pb;

	return a < b ? -1 : a > b;
}

static void sweep_charts(struct page *pg)
{
	const struct report_set *set = pg->set;
	struct line *lines;
	unsigned *ticks;
	size_t n = 0, c = 0, nticks = 0, s, i, unmeasured = 0;
	enum phase_id fast[sizeof(sweep_phase) / sizeof(sweep_phase[0])];

	for (s = 0; s < set->nsweeps; s++) {
		n += set->sweeps[s].nseries;
		c += set->sweeps[s].nchunks;
	}
	if (n == 0)
		return;
	lines = malloc(n * sizeof(*lines));
	ticks = malloc(c * sizeof(*ticks));
	if (lines == NULL || ticks == NULL) {
		free(lines);
		free(ticks);
		return;
	}
	n = sweep_lines(pg, lines);
	/* the chunk sizes of all sweeps, each once */
	for (s = 0; s < set->nsweeps; s++)
		for (i = 0; set->sweeps[s].nsizes < 2 &&
		    i < set->sweeps[s].nchunks; i++)
			ticks[nticks++] = set->sweeps[s].chunks[i];
	if (n == 0) {
		free(lines);
		free(ticks);
		return;
	}
	qsort(ticks, nticks, sizeof(*ticks), by_value);
	for (i = c = 0; i < nticks; i++)
		if (i == 0 || ticks[i] != ticks[c - 1])
			ticks[c++] = ticks[i];
	fprintf(pg->out, "<h2>Chunk sweeps</h2>\n<p>Rate against chunk size "
	    "for the results that differ only in it%s.</p>\n",
	    set->ngroups > 0 ? "; the band spans the lowest and the "
	    "highest run" : "");
	for (i = 0; i < sizeof(sweep_phase) / sizeof(sweep_phase[0]); i++)
		if (!sweep_chart(pg, sweep_phase[i], lines, n, ticks, c) &&
		    unmeasured < sizeof(fast) / sizeof(fast[0]))
			fast[unmeasured++] = sweep_phase[i];
	for (i = 0; i < unmeasured; i++)
		fprintf(pg->out, "%s%s", i == 0 ? "<p class=\"unmeasured\">"
		    "Too fast to measure (+++++) at every chunk size, so not "
		    "drawn: " : ", ", test_title[fast[i]]);
	if (unmeasured > 0)
		fputs(".</p>\n", pg->out);
	free(lines);
	free(ticks);
}

/*
 * Where the results came from: the inputs, when and by what the page was
 * made, in which layout, of which CSV generations.
 */
static void origin_line(struct page *pg, const struct report_html_origin *o)
{
	FILE *out = pg->out;
	char made[64], gens[512];
	struct tm tm;
	size_t i, kinds, json;

	fputs("<p class=\"origin\">Read from ", out);
	for (i = 0; o != NULL && i < o->ninputs; i++) {
		fputs(i == 0 ? "" : ", ", out);
		html_escape(out, strcmp(o->inputs[i], "-") == 0 ?
		    "the standard input" : o->inputs[i]);
		if (o->labels != NULL && o->labels[i] != NULL) {
			fputs(" (as ", out);
			html_escape(out, o->labels[i]);
			fputc(')', out);
		}
	}
	if (o == NULL || o->ninputs == 0)
		fputs("the standard input", out);
	made[0] = '\0';
	if (o != NULL && gmtime_r(&o->made, &tm) != NULL)
		strftime(made, sizeof(made), "%Y-%m-%d %H:%M UTC", &tm);
	fprintf(out, ". Made %s%sby clyde %s report, in the bonnie++ %s "
	    "layout (--compat=%s)", made, made[0] ? " " : "", clyde_version,
	    pg->compat == COMPAT_103 ? "1.03e" : "2.00a",
	    pg->compat == COMPAT_103 ? "1.03" : "2.00");
	kinds = report_text_generations(gens, sizeof(gens), pg->set,
	    pg->scratch);
	if (kinds > 0) {
		fprintf(out, "; CSV generation%s ", kinds > 1 ? "s" : "");
		html_escape(out, gens);
	}
	json = report_text_json_records(pg->set, pg->scratch);
	if (json > 0)
		fprintf(out, "%s %zu result%s from clyde's JSON records",
		    kinds > 0 ? " and" : ";", json, json > 1 ? "s" : "");
	fputs(".</p>\n", out);
}

static void page_head(FILE *out)
{
	fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	    "<meta charset=\"utf-8\">\n<title>bonnie++ results</title>\n"
	    "<style>\n%s</style>\n</head>\n<body>\n"
	    "<h1>bonnie++ results</h1>\n", style);
}

/* One row of --summary; th for the heading's */
static void summary_row(FILE *out, char (*cells)[SUMMARY_CELL],
    const bool *has, const char *tag, const struct set_summary_row *row)
{
	int col;

	fputs("<tr>", out);
	for (col = 0; col < SUMMARY_COLS; col++) {
		const char *class = col <= SUMMARY_PHASE ? "name" : "";

		if (!has[col])
			continue;
		if (row != NULL && row->base && (col == SUMMARY_VERDICT ||
		    col == SUMMARY_LATENCY_VERDICT))
			class = "base";
		else if (row != NULL && col == SUMMARY_VERDICT)
			class = verdict_class[row->kind];
		else if (row != NULL && col == SUMMARY_LATENCY_VERDICT)
			class = verdict_class[row->latency_kind];
		fprintf(out, "<%s%s%s%s>", tag, class[0] ? " class=\"" : "",
		    class, class[0] ? "\"" : "");
		html_escape(out, cells[col]);
		fprintf(out, "</%s>", tag);
	}
	fputs("</tr>\n", out);
}

/* clyde report --html --summary: the runs, a row per set and phase */
static void summary_table(struct page *pg)
{
	static struct set_summary_row row;
	char head[SUMMARY_COLS][SUMMARY_CELL], line[4096];
	bool has[SUMMARY_COLS];
	size_t at = 0;
	int col;

	set_summary_runs_line(line, sizeof(line), pg->set);
	fputs("<p class=\"runs\">", pg->out);
	html_escape(pg->out, line);
	fputs("</p>\n<table class=\"summary\">\n", pg->out);
	for (col = 0; col < SUMMARY_COLS; col++) {
		has[col] = set_summary_has_col(pg->set,
		    (enum set_summary_col)col);
		set_summary_heading(head[col], SUMMARY_CELL, pg->set,
		    (enum set_summary_col)col);
	}
	summary_row(pg->out, head, has, "th", NULL);
	while (set_summary_next(pg->set, &at, &row))
		summary_row(pg->out, row.cell, has, "td", &row);
	set_summary_legend(line, sizeof(line), pg->set);
	/* its lines, for a terminal: one paragraph here */
	for (char *nl = strchr(line, '\n'); nl != NULL; nl = strchr(nl, '\n'))
		*nl = ' ';
	fputs("</table>\n<p class=\"legend\">", pg->out);
	html_escape(pg->out, line);
	fputs("</p>\n", pg->out);
}

void report_html_set(FILE *out, enum compat compat,
    const struct report_set *set, const char *base,
    const struct report_html_origin *origin, bool summary)
{
	struct result scratch;
	struct page pg;
	int ph;

	memset(&scratch, 0, sizeof(scratch));
	memset(&pg, 0, sizeof(pg));
	pg.out = out;
	pg.compat = compat;
	pg.set = set;
	pg.base = base;
	pg.scratch = &scratch;
	survey(&pg);
	page_head(out);
	origin_line(&pg, origin);
	if (summary) {
		summary_table(&pg);
		fputs("</body>\n</html>\n", out);
		return;
	}
	fprintf(out, "<p>%zu result%s. Large-file rates %s; seeks, small "
	    "files and directories per second; %%CP is the CPU used, in percent of the time; "
	    "+++++ means the test was too short to measure.%s</p>\n", set->n,
	    set->n == 1 ? "" : "s", compat == COMPAT_103 ?
	    "in KiB per second" : "per second with their unit, as bonnie++ "
	    "2.00a prints them: k is KiB, m MiB, g GiB", base != NULL ?
	    " A row &ldquo;vs&rdquo; gives each rate in percent of the base's: "
	    "green higher, red lower, grey within the rounding of the cells; "
	    "under a set's mean, only a change beyond noise is coloured." :
	    "");
	/* the answer first: what changed beyond noise, then the figures */
	set_charts(&pg);
	if (pg.any_io)
		table(&pg, PH_PUTC);
	if (pg.any_files)
		table(&pg, PH_SEQ_CREATE);
	if (pg.any_dirs)
		table(&pg, PH_FIRST_DIR);
	if (pg.any_io || pg.any_files || pg.any_dirs)
		fputs("<h2>Charts</h2>\n", out);
	unmeasured_list(&pg, "Too fast to measure (+++++) in every result, "
	    "so not charted", chart_unmeasured);
	for (ph = 0; ph < PH_COUNT; ph++)
		chart(&pg, (enum phase_id)ph);
	sweep_charts(&pg);
	rank_charts(&pg);
	report_grid_html(out, set, html_escape);
	report_latency_html(out, set, html_escape);
	fputs("</body>\n</html>\n", out);
}

/* clyde report --html */
static void print_set(FILE *out, const struct report_set *set,
    const struct writer_opts *o)
{
	struct report_html_origin origin = { o->inputs, o->labels, o->ninputs,
	    o->made };

	report_html_set(out, o->compat, set, o->base, &origin, o->summary);
}

const struct writer writer_html = {
	"html", "one HTML page with the tables and bar charts",
	print_set, NULL, NULL
};
