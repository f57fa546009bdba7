/*
 * out/latency.c: the latency table of clyde report --latency, as
 * tiotest prints one per run: per phase the mean and the largest
 * latency and the share of operations slower than 2 s and 10 s (the
 * figure that tells a network filesystem that stalls now and then from
 * one that is slow throughout), and beside them the thresholds the run
 * was given with --latency-over.  The figures come from the run's JSON
 * record (the histogram of every operation, merged over -c copies and
 * clyde-mpi ranks when the run was made).  A result read from a CSV line
 * of format 1.98 or a 2.00a table has only what bonnie++ 2.00a records,
 * each phase's slowest operation (the line's last twelve fields, the
 * table's Latency rows): its table has that column alone.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/csv.h"
#include "out/latency.h"
#include "out/text_cells.h"
#include "result.h"

void report_latency_threshold(char *out, size_t n, uint64_t ns)
{
	static const struct {
		uint64_t ns;
		const char *unit;
	} units[] = {
		{ 1000000000, "s" }, { 1000000, "ms" }, { 1000, "us" }, { 1, "ns" }
	};
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]) - 1; i++)
		if (ns % units[i].ns == 0)
			break;
	snprintf(out, n, "%" PRIu64 "%s", ns / units[i].ns, units[i].unit);
}

/* Whether the result has a latency record with shares in any phase. */
static bool has_shares(const struct result *r)
{
	int ph;

	for (ph = 0; r->from_run && ph < PH_COUNT; ph++)
		if (r->phase[ph].ran && r->phase[ph].lat.count > 0 &&
		    r->phase[ph].lat.nover > 0)
			return true;
	return false;
}

/* Whether the result has bonnie++'s slowest operation of any phase. */
static bool has_maxima(const struct result *r)
{
	int ph;

	for (ph = 0; ph < PH_COUNT; ph++)
		if (r->cell[ph].latency_us >= 0 &&
		    r->cell[ph].status != CELL_SKIPPED &&
		    r->cell[ph].status != CELL_ABSENT)
			return true;
	return false;
}

/* The thresholds of the result: those of its first phase with shares. */
static const struct latency_summary *thresholds(const struct result *r)
{
	int ph;

	for (ph = 0; ph < PH_COUNT; ph++)
		if (r->phase[ph].ran && r->phase[ph].lat.nover > 0)
			return &r->phase[ph].lat;
	return NULL;
}

/* "0.0289 ms", "108.1 ms": tiotest's milliseconds */
static void put_ms(char *out, size_t n, uint64_t ns)
{
	double ms = (double)ns / 1e6;

	snprintf(out, n, ms < 10 ? "%.4f ms" : "%.1f ms", ms);
}

/* "name (2.00a, 16M:64k)": which result the table is of */
static void title(char *out, size_t n, const struct result *r)
{
	char size[64] = "";

	if (r->has_io)
		report_text_size_label(size, sizeof(size), r->run.compat, r,
		    false);
	snprintf(out, n, "%s%s%s%s", r->name, size[0] ? " (" : "", size,
	    size[0] ? ")" : "");
}

enum style { TEXT, MARKDOWN, HTML };

/* One row: the phase, the mean, the largest, then each share in %. */
static void row(FILE *out, enum style st, const char *cells[], size_t n)
{
	static const int width[] = { 18, 12, 12 };
	size_t i;

	if (st == HTML)
		fputs("<tr>", out);
	for (i = 0; i < n; i++) {
		if (st == MARKDOWN)
			fprintf(out, "| %s ", cells[i]);
		else if (st == HTML)
			fprintf(out, "<%s>%s</%s>", i == 0 ? "th" : "td",
			    cells[i], i == 0 ? "th" : "td");
		else if (i == 0)
			fprintf(out, "%-*s", width[0], cells[i]);
		else
			fprintf(out, " %*s", i < 3 ? width[i] : 10, cells[i]);
	}
	fputs(st == MARKDOWN ? "|\n" : st == HTML ? "</tr>\n" : "\n", out);
}

/* A table's start: its title, as a caption, in bold, or a line */
static void open_table(FILE *out, enum style st, const struct result *r,
    void (*escape)(FILE *, const char *))
{
	char name[NAME_MAX_LEN + 96];

	title(name, sizeof(name), r);
	if (st == HTML) {
		fputs("<table class=\"latency\"><caption>", out);
		escape(out, name);
		fputs("</caption>\n", out);
	} else {
		fprintf(out, "%s%s%s\n\n", st == MARKDOWN ? "**" : "",
		    name, st == MARKDOWN ? "**" : "");
	}
}

static void table(FILE *out, enum style st, const struct result *r,
    void (*escape)(FILE *, const char *))
{
	const struct latency_summary *th = thresholds(r);
	char head[LAT_OVER_MAX][24];
	char cell[2 + LAT_OVER_MAX][32];
	const char *cells[3 + LAT_OVER_MAX];
	size_t i, n;
	int ph;

	if (th == NULL)                 /* has_shares() said there are some */
		return;
	n = 3 + th->nover;
	open_table(out, st, r, escape);
	cells[0] = "Phase";
	cells[1] = "Average";
	cells[2] = "Maximum";
	for (i = 0; i < th->nover; i++) {
		char t[16];

		report_latency_threshold(t, sizeof(t), th->over_ns[i]);
		snprintf(head[i], sizeof(head[i]), "%% >%s", t);
		cells[3 + i] = head[i];
	}
	row(out, st, cells, n);
	if (st == MARKDOWN) {
		fputs("|:---", out);
		for (i = 1; i < n; i++)
			fputs("|---:", out);
		fputs("|\n", out);
	}
	for (ph = 0; ph < PH_COUNT; ph++) {
		const struct latency_summary *l = &r->phase[ph].lat;

		if (!r->phase[ph].ran || l->count == 0)
			continue;
		cells[0] = phase_title[ph];
		put_ms(cell[0], sizeof(cell[0]), l->mean);
		put_ms(cell[1], sizeof(cell[1]), l->max);
		cells[1] = cell[0];
		cells[2] = cell[1];
		/* a phase without a share (an old record) leaves its cells empty */
		for (i = 0; i < th->nover; i++) {
			cell[2 + i][0] = '\0';
			if (i < l->nover && l->over_ns[i] == th->over_ns[i])
				snprintf(cell[2 + i], sizeof(cell[2 + i]),
				    "%.5f", l->over[i] * 100.0);
			cells[3 + i] = cell[2 + i];
		}
		row(out, st, cells, n);
	}
	fputs(st == HTML ? "</table>\n" : "\n", out);
}

/*
 * The table of a result that has only bonnie++'s figure: per phase its
 * slowest operation, as the CSV line or the table's Latency row gave it.
 */
static void maxima_table(FILE *out, enum style st, const struct result *r,
    void (*escape)(FILE *, const char *))
{
	char cell[32];
	const char *cells[2];
	int ph;

	open_table(out, st, r, escape);
	cells[0] = "Phase";
	cells[1] = "Maximum";
	row(out, st, cells, 2);
	if (st == MARKDOWN)
		fputs("|:---|---:|\n", out);
	for (ph = 0; ph < PH_COUNT; ph++) {
		const struct cell *c = &r->cell[ph];

		if (c->latency_us < 0 || c->status == CELL_SKIPPED ||
		    c->status == CELL_ABSENT)
			continue;
		cells[0] = phase_title[ph];
		/* bonnie++'s own form, as precise as the line or table */
		fmt_latency(cell, sizeof(cell), c->latency_us);
		cells[1] = cell;
		row(out, st, cells, 2);
	}
	fputs(st == HTML ? "</table>\n" : "\n", out);
}

static void tables(FILE *out, const struct report_set *set, enum style st,
    void (*escape)(FILE *, const char *))
{
	static struct result r;
	size_t i, shown = 0, maxima = 0;

	for (i = 0; i < set->n; i++) {
		bool shares;

		memset(&r, 0, sizeof(r));
		report_set_get(set, i, &r);
		shares = has_shares(&r);
		if (!shares && !has_maxima(&r))
			continue;
		if (shown++ == 0 && st == HTML)
			fputs("<h2>Latency</h2>\n<p>Per phase the mean and the "
			    "largest time of one operation, and the share of "
			    "operations slower than each threshold, in percent "
			    "(from clyde's --json records); of a CSV line or "
			    "a table, the largest alone, which is all bonnie++ "
			    "records.</p>\n", out);
		if (shares) {
			table(out, st, &r, escape);
		} else {
			maxima_table(out, st, &r, escape);
			maxima++;
		}
	}
	if (shown == 0 && st != HTML)
		fputs("No latency figures: they are in clyde's --json records "
		    "and in CSV lines of\nformat 1.98 (bonnie++ 2.00a, clyde "
		    "--compat=2.00), not in 1.0x lines or 1.03e tables.\n",
		    out);
	else if (maxima > 0 && st != HTML)
		fputs("Maximum: the slowest operation of the phase, the one "
		    "latency that a CSV line\nor a table carries; clyde's "
		    "--json records have the mean and the shares too.\n",
		    out);
}

void report_latency_text(FILE *out, const struct report_set *set,
    bool markdown)
{
	tables(out, set, markdown ? MARKDOWN : TEXT, NULL);
}

void report_latency_html(FILE *out, const struct report_set *set,
    void (*escape)(FILE *out, const char *text))
{
	tables(out, set, HTML, escape);
}
