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

/* " %5d %3d", seeks " %5.1f" below 1000; +++++ +++; blanks when not run */
static void put_cell(FILE *out, const struct cell *c, enum phase_id ph)
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
		put_cell(out, &res->cell[i], (enum phase_id)i);
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
		put_cell(out, &res->cell[i], (enum phase_id)i);
	fputc('\n', out);
}

void report_text(FILE *out, enum compat compat, const struct result *res)
{
	(void)compat;   /* the 2.00 layout is not written yet */
	if (res->has_io)
		io_section_103(out, res);
	if (res->has_files)
		file_section_103(out, res);
}
