/*
 * out/markdown.c: the text table as GitHub-flavoured Markdown, for
 * issue trackers and forums (clyde report --markdown).
 *
 * One Markdown table per section with the text table's columns, units,
 * +++++ and Latency rows (2.00 layout), the --average and --compare rows
 * under them, each chunk sweep in tables of its own under a bold heading,
 * then a line naming the results' CSV generations.  Names
 * are escaped so that no input can break a table or add markup.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/csv.h"
#include "out/context.h"
#include "out/grid.h"
#include "out/latency.h"
#include "out/markdown.h"
#include "out/set_summary.h"
#include "report/ranks.h"
#include "out/text_cells.h"
#include "out/writer.h"
#include "lib/text.h"

struct md {
	FILE *out;
	enum compat compat;
	const struct report_set *set;
	const char *base;
	struct result scratch;
};

static const char *const io_head_103[12] = {
	"Out Per Chr K/sec", "%CP", "Out Block K/sec", "%CP", "Rewrite K/sec",
	"%CP", "In Per Chr K/sec", "%CP", "In Block K/sec", "%CP",
	"Seeks /sec", "%CP"
};
static const char *const io_head_200[12] = {
	"Out Per Chr /sec", "%CP", "Out Block /sec", "%CP", "Rewrite /sec",
	"%CP", "In Per Chr /sec", "%CP", "In Block /sec", "%CP",
	"Seeks /sec", "%CP"
};
static const char *const file_head[12] = {
	"Seq Create /sec", "%CP", "Seq Read /sec", "%CP", "Seq Delete /sec",
	"%CP", "Ran Create /sec", "%CP", "Ran Read /sec", "%CP",
	"Ran Delete /sec", "%CP"
};
static const char *const dir_head[12] = {
	"Dir Create /sec", "%CP", "Dir Stat /sec", "%CP", "Dir Delete /sec",
	"%CP", "Ran Dir Create /sec", "%CP", "Ran Dir Stat /sec", "%CP",
	"Ran Dir Delete /sec", "%CP"
};

/*
 * Text from the input in a cell: punctuation escaped, | above all; bytes
 * that are not UTF-8 as U+FFFD, as --html writes them.
 */
static void put_text(FILE *out, const char *s)
{
	while (*s != '\0') {
		unsigned char c = (unsigned char)*s;
		size_t n = utf8_len(s);

		if (n == 0)
			fputs("\xef\xbf\xbd", out);
		else if (c < 0x20 || c == 0x7f)
			fputc(' ', out);
		else if (strchr("\\`*_{}[]<>()#+!|~&$", c) != NULL)
			fprintf(out, "\\%c", c);
		else
			fwrite(s, 1, n, out);
		s += n ? n : 1;
	}
}

static void header(FILE *out, const char *label, const char *size,
    const char *const cols[12])
{
	int i;

	fprintf(out, "| %s | %s |", label, size);
	for (i = 0; i < 12; i++)
		fprintf(out, " %s |", cols[i]);
	fputs("\n|:---|---:|", out);
	for (i = 0; i < 12; i++)
		fputs("---:|", out);
	fputc('\n', out);
}

/* a rate and its %CP, as the text table writes them */
static void cells(FILE *out, const struct result *r, int first, bool units)
{
	char v[64];
	int i;

	for (i = first; i < first + 6; i++) {
		const struct cell *c = &r->cell[i];

		switch (c->status) {
		case CELL_SKIPPED:
			fputs("  |  |", out);
			break;
		case CELL_ABSENT:
			/* not in the table it was read from */
			fputs(" n/a | n/a |", out);
			break;
		case CELL_TOO_FAST:
			fputs(" +++++ | +++ |", out);
			break;
		case CELL_UNKNOWN:
			fprintf(out, " ? | %d |", c->cpu);
			break;
		case CELL_OK:
			report_text_rate(v, sizeof(v), c->rate, (enum phase_id)i,
			    units && i < PH_FIRST_FILE);
			/* measured while stopped for part of it: not valid */
			fprintf(out, " %s%s | %d |", v, c->stopped ? " (stopped)" :
			    "", c->cpu);
			break;
		}
	}
	fputc('\n', out);
}

/* 2.00's Latency row, under the rates */
static void latency(const struct md *m, const struct result *r, int first)
{
	char v[32];
	int i;

	if (m->compat != COMPAT_200)
		return;
	fputs("| Latency | |", m->out);
	for (i = first; i < first + 6; i++) {
		fmt_latency(v, sizeof(v), r->cell[i].latency_us);
		fprintf(m->out, " %s | |", v);
	}
	fputc('\n', m->out);
}

/*
 * A row; in a sweep's table its size label says its chunk, and the name
 * of a run of a sweep run more than once its series ("box #2").
 */
static void row(const struct md *m, const struct result *r,
    const struct report_row *at, bool sweep, int first)
{
	char label[160];
	size_t series = 0;

	sweep = sweep && report_set_row_sweep(m->set, at, &series);
	fputs("| ", m->out);
	put_text(m->out, r->name);
	if (series > 0)
		fprintf(m->out, " #%zu", series);
	if (first != PH_FIRST_DIR && result_section_absent(r, first != PH_PUTC))
		snprintf(label, sizeof(label), "n/a");
	else if (first == PH_PUTC)
		report_text_size_label(label, sizeof(label), m->compat, r,
		    sweep);
	else if (first == PH_FIRST_DIR)
		report_text_dirs_label(label, sizeof(label), r);
	else
		fmt_files_spec(label, sizeof(label), &r->files);
	fprintf(m->out, " | %s |", label);
	cells(m->out, r, first, m->compat == COMPAT_200);
	latency(m, r, first);
}

/* The end of a row whose first cell was a line of text: empty cells. */
static void end_line_row(const struct md *m)
{
	int i;

	fputs(" | |", m->out);
	for (i = 0; i < 6; i++)
		fputs(" | |", m->out);
	fputc('\n', m->out);
}

/* A row of verdicts after its label cells, then the row of intervals. */
static void verdict_cells(const struct md *m, const struct result *r,
    const struct report_verdict *v, int first, bool latency)
{
	char cell[32], interval[32];
	bool any = false;
	int i;

	for (i = first; i < first + 6; i++) {
		report_text_verdict(cell, interval, sizeof(cell), m->set, r, &v[i],
		    (enum phase_id)i, latency);
		fprintf(m->out, " %s | |", cell);
		any = any || interval[0] != '\0';
	}
	fputc('\n', m->out);
	if (!any)
		return;
	fputs("| 95% interval | |", m->out);
	for (i = first; i < first + 6; i++) {
		report_text_verdict(cell, interval, sizeof(cell), m->set, r,
		    &v[i], (enum phase_id)i, latency);
		fprintf(m->out, " %s | |", interval);
	}
	fputc('\n', m->out);
}

/* The runs each set needs, and where too few, as in the text table. */
static void runs_rows(const struct md *m, const struct report_verdict *v,
    int first)
{
	char cell[64], line[512];
	int i;

	if (!report_text_any_runs_needed(v, first))
		return;
	fputs("| " REPORT_TEXT_RUNS_LABEL " | |", m->out);
	for (i = first; i < first + 6; i++) {
		report_text_runs_needed(cell, sizeof(cell), &v[i]);
		fprintf(m->out, " %s | |", cell);
	}
	fputc('\n', m->out);
	report_text_short_of_runs(line, sizeof(line), v, first);
	if (line[0] != '\0') {
		fprintf(m->out, "| %s", line);
		end_line_row(m);
	}
}

/*
 * A mean's verdicts, as in the text table: ~ or the change, then the
 * row of 95 % intervals; the same of the latencies where the runs have
 * them; or the line that says there are too few runs
 */
static void verdicts(const struct md *m, const struct result *r,
    long group, int first)
{
	const struct report_verdict *v = report_set_verdicts(m->set, group);
	const struct report_verdict *lv =
	    report_set_latency_verdicts(m->set, group);
	char unlike[512];
	unsigned few = report_text_too_few(v, first);

	verdict_cells(m, r, v, first, false);
	if (report_text_any_verdict(lv, first)) {
		fputs("| latency vs ", m->out);
		put_text(m->out, m->base);
		fputs(" | |", m->out);
		verdict_cells(m, r, lv, first, true);
		if (few == 0)
			few = report_text_too_few(lv, first);
	}
	if (few > 0) {
		fputs("| ", m->out);
		fprintf(m->out, REPORT_TEXT_TOO_FEW, few);
		end_line_row(m);
	}
	runs_rows(m, v, first);
	/* once per mean: under its first section */
	if (first == PH_PUTC || !r->has_io) {
		report_text_unlike(unlike, sizeof(unlike), m->set, group);
		if (unlike[0] == '\0')
			return;
		fputs("| unlike ", m->out);
		put_text(m->out, m->base);
		fputs(": ", m->out);
		put_text(m->out, unlike);
		end_line_row(m);
	}
}

/* --compare: each rate as a percentage of the base's, or a mean's verdicts */
static void percent(const struct md *m, const struct result *r, long item,
    long group, int first)
{
	char pct[24];
	long p;
	int i;

	if (m->base == NULL || report_set_is_base(m->set, item, group))
		return;
	fputs("| vs ", m->out);
	put_text(m->out, m->base);
	fputs(" | |", m->out);
	if (report_set_verdicts(m->set, group) != NULL) {
		verdicts(m, r, group, first);
		return;
	}
	for (i = first; i < first + 6; i++) {
		if (report_set_percent(m->set, r, (enum phase_id)i, &p)) {
			report_set_percent_text(pct, sizeof(pct), p);
			fprintf(m->out, " %s%s | |", report_set_in_rounding(m->set,
			    r, (enum phase_id)i) ? "~" : "", pct);
		}
		else
			fputs(" | |", m->out);
	}
	fputc('\n', m->out);
}

/*
 * --average: min, max, coefficient of variation and median under a mean,
 * the phases with two clusters of runs when any has, and how many
 * stopped phases were left out
 */
static void spread(const struct md *m, size_t g, int first)
{
	const struct report_spread *sp = report_set_group_spread(m->set, g);
	static const char *const label[5] = { "min", "max", "cv %", "median",
	    "bimodal" };
	bool bimodal = false;
	char v[64], fast[512];
	int k, i;

	for (i = first; i < first + 6; i++)
		bimodal = bimodal || sp[i].bimodal;
	for (k = 0; k < (bimodal ? 5 : 4); k++) {
		fprintf(m->out, "| %s | |", label[k]);
		for (i = first; i < first + 6; i++) {
			if (sp[i].runs == 0)
				v[0] = '\0';
			else if (k == 2)
				snprintf(v, sizeof(v), "%.1f", sp[i].cv);
			else if (k == 4)
				snprintf(v, sizeof(v), "%s", sp[i].bimodal ?
				    "yes" : "");
			else
				report_text_rate(v, sizeof(v), k == 0 ? sp[i].min :
				    k == 1 ? sp[i].max : sp[i].median,
				    (enum phase_id)i,
				    m->compat == COMPAT_200 && i < PH_FIRST_FILE);
			fprintf(m->out, " %s | |", v);
		}
		fputc('\n', m->out);
	}
	report_text_stopped(v, sizeof(v), m->set, g, first);
	if (v[0] != '\0') {
		fprintf(m->out, "| %s", v);
		end_line_row(m);
	}
	report_text_too_fast(fast, sizeof(fast), m->set, g, first);
	if (fast[0] != '\0') {
		fprintf(m->out, "| %s", fast);
		end_line_row(m);
	}
}

/* The section of the phases from first on: the I/O, files or --dirs. */
static void section(struct md *m, int first, const struct report_row *rows,
    size_t n, bool sweep)
{
	bool io = first == PH_PUTC, dirs = first == PH_FIRST_DIR;
	size_t i;

	if (dirs)
		fputs("Directories in Tree Order, Directories in Random Order "
		    "(--dirs)\n\n", m->out);
	else
		fprintf(m->out, "%s (bonnie++ %s layout)\n\n", io ?
		    "Sequential Output, Sequential Input, Random Seeks" :
		    "Sequential Create, Random Create",
		    m->compat == COMPAT_103 ? "1.03e" : "2.00a");
	if (dirs)
		header(m->out, "Machine", "Dirs:depth:fanout", dir_head);
	else if (io)
		header(m->out, m->compat == COMPAT_103 ? "Machine" : "Name",
		    m->compat == COMPAT_103 ? "Size" : "Size etc",
		    m->compat == COMPAT_103 ? io_head_103 : io_head_200);
	else
		header(m->out, "Machine", "Files", file_head);
	for (i = 0; i < n; i++) {
		long item = rows[i].mean ? -1 : (long)rows[i].index;
		long group = rows[i].mean ? (long)rows[i].index : -1;

		if (rows[i].mean)
			report_set_group_mean(m->set, rows[i].index, &m->scratch);
		else
			report_set_get(m->set, rows[i].index, &m->scratch);
		if (!(io ? m->scratch.has_io : dirs ? m->scratch.has_dirs :
		    m->scratch.has_files) &&
		    (dirs || !result_section_absent(&m->scratch, !io)))
			continue;
		row(m, &m->scratch, &rows[i], sweep, first);
		percent(m, &m->scratch, item, group, first);
		if (group >= 0)
			spread(m, (size_t)group, first);
	}
	fputc('\n', m->out);
}

/* --best: the columns of a section, without their %CP */
static const char *const best_head[3][6] = {
	{ "Out Per Chr", "Out Block", "Rewrite", "In Per Chr", "In Block",
	    "Seeks" },
	{ "Seq Create", "Seq Read", "Seq Delete", "Ran Create", "Ran Read",
	    "Ran Delete" },
	{ "Dir Create", "Dir Stat", "Dir Delete", "Ran Dir Create",
	    "Ran Dir Stat", "Ran Dir Delete" },
};

/* One row of --best: a set's cells, * escaped */
static void best_row(const struct md *m, const struct report_best *b,
    int first)
{
	char cell[32];
	int i;

	for (i = first; i < first + 6; i++) {
		report_text_best_cell(cell, sizeof(cell), &b[i]);
		fprintf(m->out, " %s%s |", cell[0] == '*' ? "\\" : "", cell);
	}
	fputc('\n', m->out);
}

/* --best: a table per section, a row per set, one of its latencies */
static void best_section(const struct md *m, int first)
{
	const struct report_set *set = m->set;
	size_t g;
	int i;

	if (!report_text_best_section(set, first))
		return;
	fputs("| Set |", m->out);
	for (i = 0; i < 6; i++)
		fprintf(m->out, " %s |", best_head[first == PH_PUTC ? 0 :
		    first == PH_FIRST_DIR ? 2 : 1][i]);
	fputs("\n|:---|", m->out);
	for (i = 0; i < 6; i++)
		fputs("---:|", m->out);
	fputc('\n', m->out);
	for (g = 0; g < set->ngroups; g++) {
		const struct report_best *b = report_set_best_of(set, (long)g,
		    false);
		const struct report_best *lb = report_set_best_of(set, (long)g,
		    true);
		unsigned few = report_text_best_few(b, first);

		if (report_text_best_any(b, first)) {
			fputs("| ", m->out);
			put_text(m->out, report_set_group_name(set, g));
			fputs(" |", m->out);
			best_row(m, b, first);
		}
		if (report_text_best_any(lb, first)) {
			fputs("| ", m->out);
			put_text(m->out, report_set_group_name(set, g));
			fputs(" latency |", m->out);
			best_row(m, lb, first);
			if (few == 0)
				few = report_text_best_few(lb, first);
		}
		if (few > 0) {
			fputs("| ", m->out);
			fprintf(m->out, REPORT_TEXT_TOO_FEW, few);
			fputs(" |", m->out);
			for (i = 0; i < 6; i++)
				fputs(" |", m->out);
			fputc('\n', m->out);
		}
	}
	fputc('\n', m->out);
}

/* "CSV generation: 1.0x" or "CSV generations: 1.0x, 1.98" */
static void generations(struct md *m)
{
	char list[512];
	size_t kinds = report_text_generations(list, sizeof(list), m->set,
	    &m->scratch);

	size_t json = report_text_json_records(m->set, &m->scratch);

	if (kinds > 0)
		fprintf(m->out, "CSV generation%s: %s\n", kinds > 1 ? "s" : "",
		    list);
	if (json > 0)
		fprintf(m->out, "%sclyde's JSON records: %zu\n",
		    kinds > 0 ? "\n" : "", json);
}

/*
 * Under a table: where its rows ran (filesystem, mount options, profile,
 * -b/-D, host), a list item per context, where the input carries them.
 */
static void contexts(struct md *m, const struct report_row *rows, size_t n,
    bool sweep)
{
	static const struct report_context_markup markup = { put_text,
	    { "", "\n" }, { "- ", "\n" }, { "**", "**: " } };
	struct report_contexts *list = calloc(1, sizeof(*list));
	char name[NAME_MAX_LEN + 32];
	size_t i, series;

	if (list == NULL)
		return;
	for (i = 0; i < n; i++) {
		if (rows[i].mean)
			continue;
		report_set_get(m->set, rows[i].index, &m->scratch);
		series = 0;
		if (sweep)
			report_set_row_sweep(m->set, &rows[i], &series);
		if (series > 0)
			snprintf(name, sizeof(name), "%s #%zu", m->scratch.name,
			    series);
		else
			snprintf(name, sizeof(name), "%s", m->scratch.name);
		report_context_add(list, &m->scratch, name);
	}
	report_context_print(m->out, list, &markup);
	free(list);
}

/* The sections of one table of the set: its results outside sweeps, or a sweep. */
static void table(struct md *m, size_t t, const struct report_row *rows,
    size_t n)
{
	bool any_io = false, any_files = false, any_dirs = false;
	char heading[NAME_MAX_LEN + 128];
	size_t i;

	for (i = 0; i < n; i++) {
		if (rows[i].mean)
			continue;
		report_set_get(m->set, rows[i].index, &m->scratch);
		any_io = any_io || m->scratch.has_io;
		any_files = any_files || m->scratch.has_files;
		any_dirs = any_dirs || m->scratch.has_dirs;
	}
	if (t > 0) {
		report_text_sweep_heading(heading, sizeof(heading), m->set, t - 1);
		fputs("**", m->out);
		put_text(m->out, heading);
		fputs("**\n\n", m->out);
	}
	if (any_io)
		section(m, PH_PUTC, rows, n, t > 0);
	if (any_files)
		section(m, PH_SEQ_CREATE, rows, n, t > 0);
	if (any_dirs)
		section(m, PH_FIRST_DIR, rows, n, t > 0);
	contexts(m, rows, n, t > 0);
}

void report_markdown_set(FILE *out, enum compat compat,
    const struct report_set *set, const char *base)
{
	static struct md m;
	struct report_row *rows;
	size_t t, n;

	memset(&m, 0, sizeof(m));
	m.out = out;
	m.compat = compat;
	m.set = set;
	m.base = base;
	rows = malloc((set->n + set->ngroups + 1) * sizeof(*rows));
	if (rows == NULL) {
		fputs("clyde report: out of memory\n", stderr);
		return;
	}
	for (t = 0; t < report_set_tables(set); t++) {
		n = report_set_table_rows(set, t, rows);
		if (n > 0)
			table(&m, t, rows, n);
	}
	free(rows);
	if (set->best != NULL) {
		fputs("**", out);
		put_text(out, REPORT_TEXT_BEST_TITLE);
		fputs("**\n\n", out);
		best_section(&m, PH_PUTC);
		best_section(&m, PH_SEQ_CREATE);
		best_section(&m, PH_FIRST_DIR);
	}
	for (size_t i = report_ranks_next(set, 0, &m.scratch); i < set->n;
	    i = report_ranks_next(set, i + 1, &m.scratch)) {
		fputs("**", out);
		report_ranks_heading(out, &m.scratch, put_text);
		fputs("**\n\n", out);
		report_ranks_table(out, &m.scratch, true, put_text);
		fputc('\n', out);
	}
	report_grid_text(out, set, true);
	if (set->n > 0)
		generations(&m);
}

/* One row of --summary: the columns the set fills */
static void summary_row(FILE *out, char (*cells)[SUMMARY_CELL],
    const bool *has)
{
	int col;

	fputc('|', out);
	for (col = 0; col < SUMMARY_COLS; col++)
		if (has[col]) {
			fputc(' ', out);
			put_text(out, cells[col]);
			fputs(" |", out);
		}
	fputc('\n', out);
}

/* clyde report --markdown --summary: the runs, the table, its legend */
static void summary_table(FILE *out, const struct report_set *set)
{
	static struct set_summary_row row;
	char head[SUMMARY_COLS][SUMMARY_CELL], line[4096];
	bool has[SUMMARY_COLS];
	size_t at = 0;
	int col;

	set_summary_runs_line(line, sizeof(line), set);
	put_text(out, line);
	fputs("\n\n", out);
	for (col = 0; col < SUMMARY_COLS; col++) {
		has[col] = set_summary_has_col(set, (enum set_summary_col)col);
		set_summary_heading(head[col], SUMMARY_CELL, set,
		    (enum set_summary_col)col);
	}
	summary_row(out, head, has);
	fputc('|', out);
	for (col = 0; col < SUMMARY_COLS; col++)
		if (has[col])
			fputs(col <= SUMMARY_PHASE ? ":---|" : "---:|", out);
	fputc('\n', out);
	while (set_summary_next(set, &at, &row))
		summary_row(out, row.cell, has);
	set_summary_legend(line, sizeof(line), set);
	fputc('\n', out);
	put_text(out, line);
	fputc('\n', out);
}

/* clyde report --markdown, and with --latency the latency tables */
static void print_set(FILE *out, const struct report_set *set,
    const struct writer_opts *o)
{
	if (o->summary) {
		summary_table(out, set);
		return;
	}
	report_markdown_set(out, o->compat, set, o->base);
	if (o->latency)
		report_latency_text(out, set, true);
}

const struct writer writer_markdown = {
	"markdown", "the tables as GitHub-flavoured Markdown",
	print_set, NULL, NULL
};
