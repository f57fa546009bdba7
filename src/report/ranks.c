/*
 * report/ranks.c: see report/ranks.h.
 */
#include <stdio.h>
#include <string.h>

#include "report/ranks.h"

/* a column of the text table: wide enough for "seq_create" and a rate */
#define COL 11
/* the row labels of the text table */
#define LABEL 24

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

/* one cell: the figure with its decimals, or "-" for none */
static void cell(FILE *out, bool markdown, double v, int decimals)
{
	char text[32] = "-";

	if (v >= 0)
		snprintf(text, sizeof(text), "%.*f", decimals, v);
	if (markdown)
		fprintf(out, " %s |", text);
	else
		fprintf(out, " %*s", COL - 1, text);
}

/* a row's label: text columns padded, Markdown escaped by put */
static void label(FILE *out, bool markdown, const char *text,
    void (*put)(FILE *, const char *))
{
	if (markdown) {
		fputs("| ", out);
		put(out, text);
		fputs(" |", out);
	} else {
		fprintf(out, "%-*.*s", LABEL, LABEL, text);
	}
}

void report_ranks_table(FILE *out, const struct result *res, bool markdown,
    void (*put)(FILE *, const char *))
{
	bool ran[PH_COUNT];
	char text[128];
	unsigned r, slow, fast;
	int i;

	for (i = 0; i < PH_COUNT; i++)
		ran[i] = res->phase[i].ran;
	label(out, markdown, "rank (host) <- read from", put);
	for (i = 0; i < PH_COUNT; i++)
		if (ran[i]) {
			if (markdown)
				fprintf(out, " %s |", phase_csv_name[i]);
			else
				fprintf(out, " %*s", COL - 1, phase_csv_name[i]);
		}
	fputc('\n', out);
	if (markdown) {
		fputs("|:---|", out);
		for (i = 0; i < PH_COUNT; i++)
			if (ran[i])
				fputs("---:|", out);
		fputc('\n', out);
	}
	for (r = 0; r < res->nranks; r++) {
		snprintf(text, sizeof(text), "%u (%s) <- %u", r,
		    res->ranks[r].host, res->ranks[r].read_from);
		label(out, markdown, text, put);
		for (i = 0; i < PH_COUNT; i++)
			if (ran[i])
				cell(out, markdown, result_rank_rate(
				    (enum phase_id)i, &res->ranks[r].phase[i]),
				    0);
		fputc('\n', out);
	}
	label(out, markdown, "all, last done", put);
	for (i = 0; i < PH_COUNT; i++)
		if (ran[i])
			cell(out, markdown, result_rank_rate((enum phase_id)i,
			    &res->phase[i]), 0);
	fputc('\n', out);
	label(out, markdown, "all, first done", put);
	for (i = 0; i < PH_COUNT; i++)
		if (ran[i])
			cell(out, markdown, result_first_done(res,
			    (enum phase_id)i), 0);
	fputc('\n', out);
	label(out, markdown, "skew (slowest/fastest)", put);
	for (i = 0; i < PH_COUNT; i++)
		if (ran[i]) {
			double skew = result_skew(res, (enum phase_id)i, &slow,
			    &fast);

			cell(out, markdown, skew > 0 ? skew : -1, 2);
		}
	fputc('\n', out);
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
