/*
 * report/ranks.c: see report/ranks.h.
 */
#include <stdio.h>
#include <string.h>

#include "report/ranks.h"

/* the widest cell: a rate with parentheses, or a skew */
#define CELL_MAX 32
/* the sections of the text table, as bonnie++'s table splits its phases */
static const struct {
	int from, to;
} sections[] = {
	{ PH_PUTC, PH_FIRST_FILE }, { PH_FIRST_FILE, PH_FIRST_DIR },
	{ PH_FIRST_DIR, PH_COUNT },
};

size_t report_ranks_next(const struct report_set *set, size_t i,
    struct result *res)
{
	for (; i < set->n; i++) {
		report_set_get(set, i, res);
		if (res->nranks > 1 && res->ranks != NULL)
			return i;
	}
	return set->n;
}

void report_ranks_heading(FILE *out, const struct result *res,
    void (*put)(FILE *, const char *))
{
	char text[NAME_MAX_LEN + 160];

	snprintf(text, sizeof(text), "Per rank: %s, %u ranks, --shift=%u "
	    "(large files in KiB/s, seeks and files per second)", res->name,
	    res->nranks, res->run.shift);
	put(out, text);
}

/*
 * One cell: the figure with its decimals, "-" for none; in parentheses
 * for a phase that the table prints as +++++, whose figures are as
 * measured over less than 0.5 s.
 */
static void cell_text(char *text, double v, int decimals, bool too_fast)
{
	if (v < 0)
		snprintf(text, CELL_MAX, "-");
	else
		snprintf(text, CELL_MAX, too_fast ? "(%.*f)" : "%.*f", decimals,
		    v);
}

/* the rows: each rank, the whole run (last done), first done, skew */
#define EXTRA_ROWS 3

/* the cells of row r (0 to nranks + EXTRA_ROWS - 1), phase i */
static void row_cell(char *text, const struct result *res, unsigned r,
    int i)
{
	bool too_fast = res->cell[i].status == CELL_TOO_FAST;
	unsigned slow, fast;
	double skew;

	if (r < res->nranks) {
		cell_text(text, result_rank_rate((enum phase_id)i,
		    &res->ranks[r].phase[i]), 0, too_fast);
	} else if (r == res->nranks) {
		cell_text(text, result_rank_rate((enum phase_id)i,
		    &res->phase[i]), 0, too_fast);
	} else if (r == res->nranks + 1) {
		cell_text(text, result_first_done(res, (enum phase_id)i), 0,
		    too_fast);
	} else {
		skew = result_skew(res, (enum phase_id)i, &slow, &fast);
		cell_text(text, skew > 0 ? skew : -1, 2, too_fast);
	}
}

static void row_label(char *text, size_t n, const struct result *res,
    unsigned r)
{
	static const char *const extra[EXTRA_ROWS] = {
		"all, last done", "all, first done", "skew (slow/fast)"
	};

	if (r < res->nranks)
		snprintf(text, n, "%u (%s) <- %u", r, res->ranks[r].host,
		    res->ranks[r].read_from);
	else
		snprintf(text, n, "%s", extra[r - res->nranks]);
}

#define HEAD_LABEL "rank (host) <- from"

/*
 * Text: a table per section that ran (large files, small files,
 * directories), each column as wide as its widest cell, so that a
 * section of six phases fits in 80 columns with short host names.
 */
static void text_table(FILE *out, const struct result *res)
{
	char text[CELL_MAX], lab[sizeof(((struct rank_figures *)0)->host) + 48];
	unsigned r, rows = res->nranks + EXTRA_ROWS;
	int label_w = (int)strlen(HEAD_LABEL), w[PH_COUNT], i;
	bool marked = false;
	size_t sec;

	for (r = 0; r < rows; r++) {
		row_label(lab, sizeof(lab), res, r);
		if ((int)strlen(lab) > label_w)
			label_w = (int)strlen(lab);
	}
	for (i = 0; i < PH_COUNT; i++) {
		w[i] = (int)strlen(phase_csv_name[i]);
		for (r = 0; res->phase[i].ran && r < rows; r++) {
			row_cell(text, res, r, i);
			if ((int)strlen(text) > w[i])
				w[i] = (int)strlen(text);
		}
		marked |= res->phase[i].ran &&
		    res->cell[i].status == CELL_TOO_FAST;
	}
	for (sec = 0; sec < sizeof(sections) / sizeof(sections[0]); sec++) {
		bool any = false;

		for (i = sections[sec].from; i < sections[sec].to; i++)
			any |= res->phase[i].ran;
		if (!any)
			continue;
		if (sec > 0)
			fputc('\n', out);
		fprintf(out, "%-*s", label_w, HEAD_LABEL);
		for (i = sections[sec].from; i < sections[sec].to; i++)
			if (res->phase[i].ran)
				fprintf(out, " %*s", w[i], phase_csv_name[i]);
		fputc('\n', out);
		for (r = 0; r < rows; r++) {
			row_label(lab, sizeof(lab), res, r);
			fprintf(out, "%-*s", label_w, lab);
			for (i = sections[sec].from; i < sections[sec].to; i++) {
				if (!res->phase[i].ran)
					continue;
				row_cell(text, res, r, i);
				fprintf(out, " %*s", w[i], text);
			}
			fputc('\n', out);
		}
	}
	if (marked)
		fputs("(n): the phase ran under 0.5 s, +++++ in the table: "
		    "its figures as measured\n", out);
}

void report_ranks_table(FILE *out, const struct result *res, bool markdown,
    void (*put)(FILE *, const char *))
{
	char text[CELL_MAX], lab[sizeof(((struct rank_figures *)0)->host) + 48];
	unsigned r, rows = res->nranks + EXTRA_ROWS;
	bool marked = false;
	int i;

	if (!markdown) {
		text_table(out, res);
		return;
	}
	fputs("| ", out);
	put(out, HEAD_LABEL);
	fputs(" |", out);
	for (i = 0; i < PH_COUNT; i++)
		if (res->phase[i].ran) {
			fprintf(out, " %s |", phase_csv_name[i]);
			marked |= res->cell[i].status == CELL_TOO_FAST;
		}
	fputs("\n|:---|", out);
	for (i = 0; i < PH_COUNT; i++)
		if (res->phase[i].ran)
			fputs("---:|", out);
	fputc('\n', out);
	for (r = 0; r < rows; r++) {
		row_label(lab, sizeof(lab), res, r);
		fputs("| ", out);
		put(out, lab);
		fputs(" |", out);
		for (i = 0; i < PH_COUNT; i++)
			if (res->phase[i].ran) {
				row_cell(text, res, r, i);
				fprintf(out, " %s |", text);
			}
		fputc('\n', out);
	}
	if (marked)
		fputs("\n(n): the phase ran under 0.5 s, +++++ in the table: "
		    "its figures as measured\n", out);
}

static void put_plain(FILE *out, const char *s)
{
	fputs(s, out);
}

void report_ranks_text(FILE *out, const struct report_set *set)
{
	static struct result scratch;
	size_t i;

	for (i = report_ranks_next(set, 0, &scratch); i < set->n;
	    i = report_ranks_next(set, i + 1, &scratch)) {
		fputc('\n', out);
		report_ranks_heading(out, &scratch, put_plain);
		fputc('\n', out);
		report_ranks_table(out, &scratch, false, put_plain);
	}
}
