/*
 * in/csv_line.h: one bonnie++ CSV line of any generation into the
 * result record (in/csv_line.c), through the field table of its
 * generation (core/csv.h); and the cells that the CSV line and the text
 * table write alike.  The stream around the lines is in/stream.h's.
 */
#ifndef CLYDE_CSV_READ_H
#define CLYDE_CSV_READ_H

#include <stdbool.h>
#include <stddef.h>

#include "result.h"

struct csv_layout;

/* Longest logical line (after joining wrapped pieces); longer is refused. */
#define CSV_LINE_MAX 8192
/* A reason, as printed after FILE:LINE: */
#define CSV_WHY_MAX 160
/*
 * The largest %CP read, in CSV lines and text tables.  Several seekers or
 * threads take it past 100 and bonnie++ has printed four digits; five are
 * a rate in the wrong column.
 */
#define CPU_PERCENT_MAX 9999
#define CPU_PERCENT_MAX_TEXT "9999"

enum csv_line_kind {
	CSV_NOT_RESULT,         /* prose, a table row, a blank line */
	CSV_HEADER,             /* name,file_size,... or format_version,... */
	CSV_RESULT,             /* read into the record */
	CSV_PARTIAL,            /* the start of a result, fields missing */
	CSV_BAD                 /* looks like a result, cannot be read */
};

struct csv_line_info {
	size_t fields;          /* fields in the line */
	size_t expected;        /* fields its generation has (the most) */
	bool tagged;            /* starts with a 1.9x+ format tag */
	const struct csv_layout *layout;        /* of a CSV_RESULT */
};

/*
 * Read one line (no newline; blanks around fields allowed).  CSV_RESULT
 * fills res; CSV_BAD and CSV_PARTIAL say why in 'why'.  info may be NULL.
 */
enum csv_line_kind csv_read_line(const char *line, struct result *res,
    char *why, size_t why_len, struct csv_line_info *info);

/* A record with nothing known: every cell skipped, no latency. */
void csv_result_clear(struct result *res);

/*
 * Cells as both bonnie++'s CSV and its text table write them, for the
 * table reader (in/table.h).  Each returns 0, or -1 when s is not one.
 */
/* "14540us", "226ms", "101s" into c->latency_us */
int csv_parse_latency(const char *s, struct cell *c);
/* "16", "2:1024:512/4", "2:link", "4:2048:0" */
int csv_parse_files_spec(const char *s, struct files_spec *fs);
/* "16096M", "2G", "64M:4k" into has_io, file_size_mib and chunk */
int csv_parse_size(const char *s, struct result *res);

#endif
