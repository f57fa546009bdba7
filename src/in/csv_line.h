/*
 * in/csv_line.h: bonnie++ CSV lines of every generation into the result
 * record.
 *
 * Two levels.  csv_read_line() reads one clean line through the field
 * table of its generation (core/csv.h).  csv_input reads a whole stream as
 * people keep results: mail and web text around the lines, quoted-
 * printable, '>' quotes, indentation, trailing blanks, and lines a mail
 * client wrapped; it gives one result at a time.
 */
#ifndef CLYDE_CSV_READ_H
#define CLYDE_CSV_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "in/html.h"
#include "result.h"
#include "in/table.h"

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

enum csv_input_status {
	CSV_IN_END,             /* end of input */
	CSV_IN_RESULT,          /* a result in res */
	CSV_IN_BAD,             /* a result-like line that cannot be read */
	CSV_IN_ERROR            /* reading failed: errno */
};

/*
 * The stream reader.  It holds its buffers; no allocation.  Text tables
 * are read too (in/table.h); a table next to the CSV line of the same
 * run gives one result, the CSV line's.
 */
struct csv_input {
	FILE *in;
	/* physical lines */
	char io[65536];
	size_t io_pos, io_len;
	bool eof;
	unsigned long lineno;           /* of the last physical line read */
	bool qp;                        /* quoted-printable seen */
	/* one logical line looked at and given back */
	bool have_back;
	char back[CSV_LINE_MAX];
	size_t back_len;
	unsigned long back_lineno;
	bool back_cut;                  /* overlong */
	bool back_nul;                  /* with a NUL byte */
	bool back_hard_break;           /* ended in '\\' */
	/* work space */
	char line[CSV_LINE_MAX];
	char next[CSV_LINE_MAX];
	char join[CSV_LINE_MAX];
	char phys[CSV_LINE_MAX];
	char plain[CSV_LINE_MAX];       /* a line without inline markup */
	/* bon_csv2html pages, and the lines their rows stand for */
	struct html_read html;
	/* text tables, and the results of one that ended */
	struct table_read table;
	size_t table_next;              /* of table.done[] handed out */
	size_t table_bad_next;          /* of table.bad_line[] handed out */
	/* the CSV result that ended a table, handed out after its rows */
	bool have_held;
	enum csv_input_status held_status;
	struct result held;
	unsigned long held_line;
	char held_why[CSV_WHY_MAX];
	/*
	 * The CSV lines right after that one, each the run of a row of
	 * the same table (a --chunks run prints a row per chunk size, then
	 * a line per chunk size), handed out after it.
	 */
	struct result follow[TABLE_ROWS_MAX];
	unsigned long follow_line[TABLE_ROWS_MAX];
	size_t nfollow, follow_next;
	/*
	 * The last CSV results, one after the other, which a table right
	 * after may repeat (bonnie++ -q puts the table on stderr).
	 */
	struct result last[TABLE_ROWS_MAX];
	size_t nlast;
	unsigned long last_line;        /* of the last one */
};

void csv_input_init(struct csv_input *ci, FILE *in);
/*
 * The first bytes of the input not yet read (up to 64 KiB), without
 * taking them: what kind of input it is.
 */
const char *csv_input_peek(struct csv_input *ci, size_t *len);

/*
 * The next result.  *lineno is the first line of it (or of the bad
 * line), 'why' the reason for CSV_IN_BAD.
 */
enum csv_input_status csv_input_next(struct csv_input *ci, struct result *res,
    unsigned long *lineno, char *why, size_t why_len);

#endif
