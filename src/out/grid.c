/*
 * out/grid.c: sweeps over file sizes, as iozone -a prints them.
 *
 * People read iozone's table as a map of where the caches end: the rate
 * of a file that fits in the page cache is memory's, and it falls at the
 * file size where the cache stops holding it.  So each phase of a sweep
 * of several file sizes gets a table with the file sizes down and the
 * chunk sizes across (iozone's record sizes), and in HTML a chart with a
 * line per chunk size over the file size, both axes logarithmic.  A
 * point run more than once shows the mean of its runs.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/csv.h"
#include "out/grid.h"
#include "out/text_cells.h"
#include "lib/units.h"

/* The phases every point of a sweep runs. */
static const enum phase_id grid_phase[] = {
	PH_PUT_BLOCK, PH_REWRITE, PH_GET_BLOCK, PH_SEEKS,
};

/* One sweep's axes: its file sizes and chunk sizes, each ascending. */
struct grid {
	const struct report_set *set;
	const struct report_sweep *sw;
	size_t s;                       /* the sweep's index */
	uint64_t *sizes;
	size_t nsizes;
	unsigned *chunks;
	size_t nchunks;
	struct result *scratch;
};

static bool grid_open(struct grid *g, const struct report_set *set, size_t s,
    struct result *scratch)
{
	const struct report_sweep *sw = &set->sweeps[s];
	size_t p;

	memset(g, 0, sizeof(*g));
	g->set = set;
	g->sw = sw;
	g->s = s;
	g->scratch = scratch;
	g->sizes = calloc(sw->nchunks, sizeof(*g->sizes));
	g->chunks = calloc(sw->nchunks, sizeof(*g->chunks));
	if (g->sizes == NULL || g->chunks == NULL) {
		free(g->sizes);
		free(g->chunks);
		return false;
	}
	/* the points go by file size: each new size is a new row */
	for (p = 0; p < sw->nchunks; p++)
		if (p == 0 || sw->sizes[p] != sw->sizes[p - 1])
			g->sizes[g->nsizes++] = sw->sizes[p];
	g->nchunks = report_set_sweep_chunks(sw, g->chunks);
	return true;
}

static void grid_close(struct grid *g)
{
	free(g->sizes);
	free(g->chunks);
}

/*
 * Phase ph at file size row i and chunk size column j: the mean rate of
 * the runs that measured it (CELL_OK); CELL_TOO_FAST when they all
 * printed +++++; CELL_SKIPPED when there is no such point or figure.
 */
static enum cell_status grid_rate(const struct grid *g, size_t i, size_t j,
    enum phase_id ph, double *rate)
{
	long p = report_set_sweep_point(g->sw, g->sizes[i], g->chunks[j]);
	double sum = 0;
	unsigned ok = 0, fast = 0;
	size_t k;

	*rate = 0;
	for (k = 0; p >= 0 && k < g->sw->nseries; k++) {
		long it = g->sw->items[k * g->sw->nchunks + (size_t)p];

		if (it < 0)
			continue;
		report_set_get(g->set, (size_t)it, g->scratch);
		if (g->scratch->cell[ph].status == CELL_OK) {
			sum += g->scratch->cell[ph].rate;
			ok++;
		} else if (g->scratch->cell[ph].status == CELL_TOO_FAST) {
			fast++;
		}
	}
	if (ok > 0) {
		*rate = sum / ok;
		return CELL_OK;
	}
	return fast > 0 ? CELL_TOO_FAST : CELL_SKIPPED;
}

/* Whether the phase has a figure or a +++++ anywhere in the grid. */
static bool grid_any(const struct grid *g, enum phase_id ph)
{
	double v;
	size_t i, j;

	for (i = 0; i < g->nsizes; i++)
		for (j = 0; j < g->nchunks; j++)
			if (grid_rate(g, i, j, ph, &v) != CELL_SKIPPED)
				return true;
	return false;
}

static const char *unit_of(enum phase_id ph)
{
	return ph == PH_SEEKS ? "seeks/s" : "K/s";
}

/* One phase's table: a row per file size, a column per chunk size. */
static void grid_table(FILE *out, const struct grid *g, enum phase_id ph,
    bool markdown)
{
	char cell[32];
	double v;
	size_t i, j;

	if (markdown)
		fprintf(out, "*%s, %s: file size down, chunk size across*\n\n"
		    "| File size |", phase_title[ph], unit_of(ph));
	else
		fprintf(out, "%s, %s (file size down, chunk size across)\n"
		    "%9s", phase_title[ph], unit_of(ph), "File size");
	for (j = 0; j < g->nchunks; j++) {
		fmt_chunk(cell, sizeof(cell), g->chunks[j]);
		fprintf(out, markdown ? " %s |" : " %9s", cell);
	}
	fputc('\n', out);
	if (markdown) {
		fputs("|---:|", out);
		for (j = 0; j < g->nchunks; j++)
			fputs("---:|", out);
		fputc('\n', out);
	}
	for (i = 0; i < g->nsizes; i++) {
		fmt_file_size(cell, sizeof(cell), g->sizes[i]);
		fprintf(out, markdown ? "| %s |" : "%9s", cell);
		for (j = 0; j < g->nchunks; j++) {
			switch (grid_rate(g, i, j, ph, &v)) {
			case CELL_OK:
				report_text_rate(cell, sizeof(cell), v, ph, false);
				break;
			case CELL_TOO_FAST:
				snprintf(cell, sizeof(cell), "+++++");
				break;
			default:
				cell[0] = '\0';
			}
			fprintf(out, markdown ? " %s |" : " %9s", cell);
		}
		fputc('\n', out);
	}
	fputc('\n', out);
}

/* How a grid is written: text, Markdown or HTML. */
struct grid_out {
	FILE *out;
	enum { GRID_TEXT, GRID_MARKDOWN, GRID_HTML } style;
	void (*escape)(FILE *out, const char *text);    /* HTML's */
};

static void chart(FILE *out, const struct grid *g, enum phase_id ph);

/* Each sweep of several file sizes: its heading, then each phase's grid. */
static void each_grid(const struct grid_out *o, const struct report_set *set)
{
	static struct result scratch;
	char heading[NAME_MAX_LEN + 160];
	struct grid g;
	size_t s, i, shown = 0;

	for (s = 0; s < set->nsweeps; s++) {
		if (set->sweeps[s].nsizes < 2)
			continue;
		memset(&scratch, 0, sizeof(scratch));
		if (!grid_open(&g, set, s, &scratch))
			return;
		report_text_sweep_heading(heading, sizeof(heading), set, s);
		if (o->style != GRID_HTML) {
			fprintf(o->out, o->style == GRID_MARKDOWN ? "\n**%s**\n\n" :
			    "\n%s\n\n", heading);
		} else {
			if (shown++ == 0)
				fputs("<h2 id=\"file-size-sweeps\">File-size sweeps</h2>\n<p>Rate against "
				    "file size, a line per chunk size, as iozone -a "
				    "maps them: where a line falls, the file stopped "
				    "fitting in a cache. A point run more than once "
				    "shows the mean of its runs.</p>\n", o->out);
			fputs("<h3>", o->out);
			o->escape(o->out, heading);
			fputs("</h3>\n", o->out);
		}
		for (i = 0; i < sizeof(grid_phase) / sizeof(grid_phase[0]); i++) {
			if (!grid_any(&g, grid_phase[i]))
				continue;
			if (o->style == GRID_HTML)
				chart(o->out, &g, grid_phase[i]);
			else
				grid_table(o->out, &g, grid_phase[i],
				    o->style == GRID_MARKDOWN);
		}
		grid_close(&g);
	}
}

void report_grid_text(FILE *out, const struct report_set *set, bool markdown)
{
	const struct grid_out o = { out, markdown ? GRID_MARKDOWN : GRID_TEXT,
	    NULL };

	each_grid(&o, set);
}

/* ---- HTML --------------------------------------------------------------- */

#define PLOT_LEFT 70
#define PLOT_TOP 16
#define PLOT_W 560
#define PLOT_H 260
#define PLOT_BOTTOM 44
#define LEGEND_ROW 18

static const char *const palette[] = {
	"#1f5f8b", "#cd5c00", "#2e8b57", "#8b2252", "#b8860b", "#4b0082",
	"#008b8b", "#555555",
};

/* The rate as the chart shows it: MiB/s for data, seeks/s for seeks. */
static double shown(enum phase_id ph, double rate)
{
	return ph == PH_SEEKS ? rate : rate / 1024.0;
}

struct axes {
	double xlo, xhi;        /* log2 of MiB */
	double ylo, yhi;        /* log10 of the shown rate, whole decades */
};

static double x_of(const struct axes *a, uint64_t mib)
{
	return PLOT_LEFT + (log2((double)mib) - a->xlo) / (a->xhi - a->xlo) *
	    PLOT_W;
}

static double y_of(const struct axes *a, double v)
{
	return PLOT_TOP + PLOT_H - (log10(v) - a->ylo) / (a->yhi - a->ylo) *
	    PLOT_H;
}

/* The axes: a tick per file size, one per decade of the rate. */
static void chart_axes(FILE *out, const struct grid *g, const struct axes *a,
    enum phase_id ph)
{
	char label[32];
	size_t i;
	int d;

	fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
	    "stroke=\"#000\"/><line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
	    "stroke=\"#000\"/>\n", PLOT_LEFT, PLOT_TOP, PLOT_LEFT,
	    PLOT_TOP + PLOT_H, PLOT_LEFT, PLOT_TOP + PLOT_H,
	    PLOT_LEFT + PLOT_W, PLOT_TOP + PLOT_H);
	for (d = (int)a->ylo; d <= (int)a->yhi; d++) {
		double y = y_of(a, pow(10, d));

		fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
		    "stroke=\"#ddd\"/><text x=\"%d\" y=\"%.1f\" font-size=\"11\" "
		    "text-anchor=\"end\">%g</text>\n", PLOT_LEFT, y,
		    PLOT_LEFT + PLOT_W, y, PLOT_LEFT - 6, y + 4, pow(10, d));
	}
	for (i = 0; i < g->nsizes; i++) {
		double x = x_of(a, g->sizes[i]);

		fmt_file_size(label, sizeof(label), g->sizes[i]);
		fprintf(out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
		    "stroke=\"#000\"/><text x=\"%.1f\" y=\"%d\" font-size=\"11\" "
		    "text-anchor=\"middle\">%s</text>\n", x, PLOT_TOP + PLOT_H,
		    x, PLOT_TOP + PLOT_H + 5, x, PLOT_TOP + PLOT_H + 18, label);
	}
	fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"11\" "
	    "text-anchor=\"middle\">file size (log scale)</text>\n"
	    "<text x=\"14\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\" "
	    "transform=\"rotate(-90 14 %d)\">%s (log scale)</text>\n",
	    PLOT_LEFT + PLOT_W / 2, PLOT_TOP + PLOT_H + 36,
	    PLOT_TOP + PLOT_H / 2, PLOT_TOP + PLOT_H / 2,
	    ph == PH_SEEKS ? "seeks/s" : "MiB/s");
}

/* A line per chunk size over the file size, a dot per point, a legend. */
static void chart(FILE *out, const struct grid *g, enum phase_id ph)
{
	struct axes a;
	double v, lo = INFINITY, hi = 0;
	size_t i, j;

	for (i = 0; i < g->nsizes; i++)
		for (j = 0; j < g->nchunks; j++)
			if (grid_rate(g, i, j, ph, &v) == CELL_OK && v > 0) {
				lo = fmin(lo, shown(ph, v));
				hi = fmax(hi, shown(ph, v));
			}
	fprintf(out, "<figure class=\"grid\"><figcaption>%s by file size, a "
	    "line per chunk size (%s)</figcaption>\n", phase_title[ph],
	    ph == PH_SEEKS ? "seeks per second" : "MiB per second");
	if (hi == 0) {
		fputs("<p class=\"unmeasured\">too fast to measure: +++++ at "
		    "every point</p></figure>\n", out);
		return;
	}
	a.xlo = log2((double)g->sizes[0]);
	a.xhi = log2((double)g->sizes[g->nsizes - 1]);
	a.ylo = floor(log10(lo));
	a.yhi = ceil(log10(hi));
	if (a.yhi <= a.ylo)
		a.yhi = a.ylo + 1;
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
	    "height=\"%zu\" role=\"img\" aria-label=\"%s by file size\">\n",
	    PLOT_LEFT + PLOT_W + 20, PLOT_TOP + PLOT_H + PLOT_BOTTOM +
	    g->nchunks * LEGEND_ROW + 4, phase_title[ph]);
	chart_axes(out, g, &a, ph);
	for (j = 0; j < g->nchunks; j++) {
		const char *color = palette[j % (sizeof(palette) /
		    sizeof(palette[0]))];
		double ly = PLOT_TOP + PLOT_H + PLOT_BOTTOM +
		    (double)j * LEGEND_ROW + 10;
		char chunk[32];

		fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" "
		    "stroke-width=\"2\" points=\"", color);
		for (i = 0; i < g->nsizes; i++)
			if (grid_rate(g, i, j, ph, &v) == CELL_OK && v > 0)
				fprintf(out, "%.1f,%.1f ", x_of(&a, g->sizes[i]),
				    y_of(&a, shown(ph, v)));
		fputs("\"/>\n", out);
		for (i = 0; i < g->nsizes; i++)
			if (grid_rate(g, i, j, ph, &v) == CELL_OK && v > 0)
				fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" "
				    "r=\"3\" fill=\"%s\"/>", x_of(&a, g->sizes[i]),
				    y_of(&a, shown(ph, v)), color);
		fmt_chunk(chunk, sizeof(chunk), g->chunks[j]);
		fprintf(out, "\n<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
		    "stroke=\"%s\" stroke-width=\"2\"/><text x=\"%d\" y=\"%.1f\" "
		    "font-size=\"12\">chunk size %s</text>\n", PLOT_LEFT, ly,
		    PLOT_LEFT + 24, ly, color, PLOT_LEFT + 30, ly + 4, chunk);
	}
	fputs("</svg></figure>\n", out);
}

void report_grid_html(FILE *out, const struct report_set *set,
    void (*escape)(FILE *out, const char *text))
{
	const struct grid_out o = { out, GRID_HTML, escape };

	each_grid(&o, set);
}
