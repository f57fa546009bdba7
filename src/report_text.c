/*
 * report_text.c: bonnie++'s text table, from the result record only.
 *
 * Numbers are never clipped to the column: a wide value pushes the rest
 * of the row right, as in bonnie++ (formats.md B10).
 */
#include <stdio.h>
#include <string.h>

#include "report.h"

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

/*
 * 2.00's K/s with a unit, 6 characters: "  540k", " 50.6m", "  728m",
 * "  1.1g" (formats.md 5.2).
 */
static void put_rate_with_unit(FILE *out, double kib)
{
	double mib = kib / 1024.0;

	if (kib < 10000.0)
		fprintf(out, " %4dk", (int)kib);
	else if (mib < 100.0)
		fprintf(out, " %4.1fm", mib);
	else if (mib < 1000.0)
		fprintf(out, " %4.0fm", mib);
	else
		fprintf(out, " %4.1fg", mib / 1024.0);
}

/*
 * " %5d %3d", seeks " %5.1f" below 1000; +++++ +++; blanks when not run.
 * units: the I/O rates of 2.00 with k/m/g.
 */
static void put_cell(FILE *out, const struct cell *c, enum phase_id ph,
    bool units)
{
	switch (c->status) {
	case CELL_SKIPPED:
		fputs("          ", out);
		return;
	case CELL_TOO_FAST:
		fputs(" +++++ +++", out);
		return;
	case CELL_OK:
		break;
	}
	if (ph == PH_SEEKS)
		fprintf(out, c->rate < 1000.0 ? " %5.1f" : " %5.0f", c->rate);
	else if (units)
		put_rate_with_unit(out, c->rate);
	else
		fprintf(out, " %5d", (int)c->rate);
	fprintf(out, " %3d", c->cpu);
}

/*
 * The 19-character label: the name cut to make room for one space and
 * the size label.  A size label of 18 characters or more stands alone.
 */
static void put_label(FILE *out, const char *name, const char *size)
{
	int room = LABEL_WIDTH - 1 - (int)strlen(size);

	if (room < 0)
		room = 0;
	fprintf(out, "%-*.*s %s", room, room, name, size);
}

static void io_section_103(FILE *out, const struct result *res)
{
	char size[64];
	int i;

	fprintf(out, "Version %5s       %s", VERSION_103, io_title);
	fprintf(out, "%20s%s", "", io_columns);
	if (res->chunk == 0 || res->chunk == DEFAULT_CHUNK)
		fputs("Machine        Size ", out);
	else
		fputs("Machine   Size:chnk ", out);
	fputs("K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP\n", out);
	fmt_size_103(size, sizeof(size), res);
	put_label(out, res->name, size);
	for (i = PH_PUTC; i <= PH_SEEKS; i++)
		put_cell(out, &res->cell[i], (enum phase_id)i, false);
	fputc('\n', out);
}

static void files_header(FILE *out, const struct files_spec *fs)
{
	if (fs->min_size != 0)
		fputs("files:max:min       ", out);
	else if (fs->max_size != 0)
		fputs("files:max           ", out);
	else
		fputs("              files ", out);
	fputs(file_units, out);
}

static void file_section_103(FILE *out, const struct result *res)
{
	char spec[64];
	int i;

	/* 1.03e names the section only when there was no I/O section above */
	if (res->has_io) {
		fprintf(out, "%20s%s", "", file_title);
		fprintf(out, "%20s%s", "", file_columns);
	} else {
		fprintf(out, "Version %5s       %s", VERSION_103, file_title);
		fprintf(out, "%-19.19s %s", res->name, file_columns);
	}
	files_header(out, &res->files);
	fmt_files_spec(spec, sizeof(spec), &res->files);
	fprintf(out, "%19s", spec);
	for (i = PH_SEQ_CREATE; i < PH_COUNT; i++)
		put_cell(out, &res->cell[i], (enum phase_id)i, false);
	fputc('\n', out);
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

/*
 * 2.00's label: size:chunk:concurrency:seeks:seekers, defaults left
 * empty, trailing colons dropped.  2.00a lost the seeker count (B4);
 * it is kept here.
 */
static void size_label_200(char *out, size_t n, const struct result *res)
{
	char part[5][32] = { "", "", "", "", "" };
	int i, last = 0;

	fmt_file_size(part[0], sizeof(part[0]), res->file_size_mib);
	if (res->chunk != 0 && res->chunk != DEFAULT_CHUNK)
		fmt_chunk(part[1], sizeof(part[1]), res->chunk);
	if (res->concurrency > 1)
		snprintf(part[2], sizeof(part[2]), "%d", res->concurrency);
	if (res->seeks != 0 && res->seeks != SEEKS_200)
		snprintf(part[3], sizeof(part[3]), "%u", res->seeks);
	if (res->seekers != 0 && res->seekers != SEEKERS_200)
		snprintf(part[4], sizeof(part[4]), "%u", res->seekers);
	for (i = 0; i < 5; i++)
		if (part[i][0] != '\0')
			last = i;
	snprintf(out, n, "%s", part[0]);
	for (i = 1; i <= last; i++) {
		size_t len = strlen(out);

		snprintf(out + len, n - len, ":%s", part[i]);
	}
}

static void io_section_200(FILE *out, const struct result *res)
{
	char size[160];
	int i;

	fprintf(out, "Version %5s       %s", VERSION_200, io_title);
	fprintf(out, "%20s%s", "", io_columns);
	fprintf(out, "Name:Size etc       %s", file_units);
	size_label_200(size, sizeof(size), res);
	put_label(out, res->name, size);
	for (i = PH_PUTC; i <= PH_SEEKS; i++)
		put_cell(out, &res->cell[i], (enum phase_id)i, true);
	fputc('\n', out);
	latency_row(out, res, PH_PUTC);
}

/* The file rates are the true ones, where 2.00a printed garbage (B1). */
static void file_section_200(FILE *out, const struct result *res)
{
	char spec[64];
	int i;

	fprintf(out, "Version %5s       %s", VERSION_200, file_title);
	fprintf(out, "%-19.19s %s", res->name, file_columns);
	files_header(out, &res->files);
	fmt_files_spec(spec, sizeof(spec), &res->files);
	fprintf(out, "%19s", spec);
	for (i = PH_SEQ_CREATE; i < PH_COUNT; i++)
		put_cell(out, &res->cell[i], (enum phase_id)i, false);
	fputc('\n', out);
	latency_row(out, res, PH_SEQ_CREATE);
}

void report_text(FILE *out, enum compat compat, const struct result *res)
{
	if (compat == COMPAT_103) {
		if (res->has_io)
			io_section_103(out, res);
		if (res->has_files)
			file_section_103(out, res);
		return;
	}
	if (res->has_io)
		io_section_200(out, res);
	if (res->has_files)
		file_section_200(out, res);
	else if (res->has_io)
		fputc('\n', out);      /* 2.00a's newline outside its if */
}
